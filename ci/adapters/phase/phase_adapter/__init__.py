"""The phase.rs adapter as a package: ptoracle's engine protocol (version 1)
in front of phase.rs, through its Python binding `phase-python` (import
name `phase`). `adapter.py` beside it is the command line; README.md here
says how a case is played and what is refused.

For every case the adapter builds a card database from the scenario
itself (no MTGJSON): one card face per object, written as Oracle text and
parsed by phase.rs's own parser. It starts a two-player game, switches on
the engine's debug mode (the only way in this binding to put a known state
on the battlefield), and then plays each step with the engine's own
mechanisms wherever that is practical:

- damage: the source gets an activated ability "{0}: NAME deals N damage
  to any target." in its Oracle text; the adapter activates it, picks the
  target the engine offers, and lets it resolve. Deathtouch, wither,
  infect and lifelink are the source's keywords, parsed by the engine, so
  the damage results (120.3) are the engine's own;
- state-based actions: the engine's `RunStateBasedActions`;
- counters: the engine's `ModifyCounters` (debug action); on an object
  that can't have counters put on it, a real spell that puts them, which
  the engine's replacement stops (122.6);
- effects (P/T, keywords, types, colors): written into the engine's list
  of continuous effects with their timestamps, exactly as its resolved
  spells write them (its layer system orders and applies them);
- static abilities: Oracle text on the card, parsed by the engine;
- combat damage: a real combat (attackers, blockers, the engine's combat
  damage step); declared combats (`attack`, `combat_damage_step`) through
  the engine's declare and damage steps; cleanup and `begin_turn`: the
  engine's own turn walked through;
- destroy and prevent: real instants cast at the object; regenerate: a
  real "{0}: Regenerate" ability; undying and persist: real keywords whose
  triggers resolve after state-based actions;
- zones: the engine's zone changes (its debug action).
- control changes: a real "Gain control of target creature." spell cast by
  the player who gains control and resolved by the engine.
- mana, costs, amounts read from the game, doubling, exchanges, who puts
  counters, moved counters, P/T chosen as a card enters, Nth-counter
  abilities, spells: Oracle text the engine parses (mana abilities, CDAs,
  level up bands, replacement effects, instants of the adapter's), the
  parse checked, activated or cast and resolved through the engine's
  stack, which pays the costs and reads the amounts.

Anything else is answered `unsupported` with the reason; the adapter never
computes a rules result itself. Only protocol messages go to stdout.

The modules, by section (only `engine.py` imports phase; the refusals and
the Oracle text run without it, and are unit-tested so, `tests/`):

  protocol.py     the handshake's reply, and each case refused or played
                  (the loop is ci/adapters/ptoracle_adapter.py, shared)
  refusals.py     `refuse(case)`: what the adapter does not map, and why
  oracle_text.py  the Oracle text the adapter writes, and its parse
  terms.py        ptoracle's terms in phase.rs's spelling; the exceptions
  engine.py       phase itself: the parser, engines and games, caches
  game.py         `Game` (a case's game) and `run(case)`, from the mixins:
    game_setup.py   the setup put in place
    faces.py        the card database, its parse checked
    actions.py      actions, priority, the stack, state-based actions
    steps.py        the steps on objects, mana, costs, spells
    abilities.py    the steps played with an activated ability
    turns.py        combat, cleanup, a new turn
    observe.py      the observation after a step
"""
