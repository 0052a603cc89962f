#!/usr/bin/env python3
"""phase.rs (phase-python): P/T counters on a creature card in the graveyard
change its power and toughness

A 2/2 gets -0/-2 until end of turn and dies (704.5f); then two +1/+1
counters are put on the card in the graveyard. A +X/+Y counter on a creature
card in a zone other than the battlefield adds to its power and toughness
too (122.1a), so the card is 4/4 there. phase.rs reports the counters but
keeps the card at the power and toughness it had when it left the
battlefield: it does not compute the characteristics of objects off the
battlefield. Found by the gate with generated cases (seed 1), about 3% of
them. (In phase.rs only its debug action can put counters on a card in a
graveyard; no card the adapter builds does it.)

Comprehensive Rules 122.1a, 704.5f, 400.7; ptoracle case
phase/counters-on-a-creature-card-off-the-battlefield, edition 2026-09-25.

Run: python3 FILE in a virtual environment with phase-python installed

It prints the engine's value of each field beside the rules' (ptoracle's
reference resolver), and exits 1 while one differs, 0 once they all agree.
Written by ptoracle's adapter for the engine (`ptoracle gate --reproduce`);
it needs only the engine installed.
"""

# The cards, by the names the engine's card database keys them by, as the
# adapter writes them (MTGJSON's shape): each object's own Oracle text, and the
# abilities it adds to play a step with the engine's own mechanisms (a damage
# step is the source's "{0}: NAME deals N damage to any target.", activated).
CARDS = {
    'grizzly bears': {
        'name': 'Grizzly Bears',
        'manaCost': '{1}{G}',
        'colors': [],
        'colorIdentity': [],
        'type': 'Creature — Bear',
        'types': ['Creature'],
        'subtypes': ['Bear'],
        'supertypes': [],
        'text': '',
        'layout': 'normal',
        'manaValue': 0,
        'identifiers': {},
        'keywords': [],
        'power': '2',
        'toughness': '2',
    },
    'forest': {
        'name': 'Forest',
        'manaCost': '',
        'colors': [],
        'colorIdentity': [],
        'type': 'Basic Land — Forest',
        'types': ['Land'],
        'subtypes': ['Forest'],
        'supertypes': ['Basic'],
        'text': '({T}: Add {G}.)',
        'layout': 'normal',
        'manaValue': 0,
        'identifiers': {},
    },
}
DECKS = [
    [
        'Grizzly Bears',
        'Forest',
        'Forest',
        'Forest',
        'Forest',
        'Forest',
        'Forest',
        'Forest',
        'Forest',
    ],
    ['Forest', 'Forest', 'Forest', 'Forest', 'Forest', 'Forest', 'Forest', 'Forest'],
]
IDS = {'bear': 2}  # the case's objects, by the engine's ids
CHECKS = [  # (after step, object or player, field, the rules' value)
    (2, 'bear', 'combat_damage', 4),
    (2, 'bear', 'power', 4),
    (2, 'bear', 'total', 8),
    (2, 'bear', 'toughness', 4),
]

import json
import sys

import phase


def debug(kind, data=None):
    """phase.rs's debug action `kind` (its way to put a chosen state in place:
    zone changes, counters, mana, the phase), accepted in debug mode."""
    inner = {"type": kind, "data": data} if data is not None else {"type": kind}
    return {"type": "Debug", "data": inner}


# The card faces, from Oracle text, by phase.rs's own parser.
faces = {key: phase.build_oracle_face(card, None) for key, card in CARDS.items()}
engine = phase.Engine.from_json(json.dumps(faces, sort_keys=True))


def observe(g, oid):
    """The fields of object `oid` as ptoracle's observations name them."""
    o = g.object(oid)
    types = list(o["card_types"]["core_types"])
    creature = ("Creature" in types or o["zone"] != "Battlefield") \
        and o.get("power") is not None and o.get("toughness") is not None
    p, t = (o["power"], o["toughness"]) if creature else (None, None)
    counters = {"P1P1": "+1/+1", "M1M1": "-1/-1"}.get
    keyword = lambda k: "".join(" " + c.lower() if c.isupper() else c  # FirstStrike
                                for c in (next(iter(k)) if isinstance(k, dict) else k)).strip()
    sick = {b["id"]: bool(b.get("has_summoning_sickness")) for b in g.battlefield()}
    shields = [r for r in g.state()["state"]["objects"][str(oid)].get("replacement_definitions", [])
               if r.get("shield_kind") == "Regeneration" and not r.get("is_consumed")]
    return {
        "zone": o["zone"].lower(), "types": types, "power": p, "toughness": t,
        "colors": [c.lower() for c in o["color"]],
        "base_power": o.get("layer_base_power") if creature else None,
        "base_toughness": o.get("layer_base_toughness") if creature else None,
        "total": p + t if creature else None,
        "combat_damage": max(0, p) if creature else None,
        "counters": {counters(k, k): n for k, n in o["counters"].items() if n},
        "damage": o["damage_marked"], "deathtouch_damage": o["dealt_deathtouch_damage"],
        "keywords": [keyword(k) for k in o["keywords"] if keyword(k) != "crew"],
        "tapped": o["tapped"], "summoning_sick": sick.get(oid, False),
        "regeneration_shields": len(shields),
    }


def observe_player(g, i):
    """The fields of player `i`."""
    p = g.player(i)
    mana = {}
    for m in p["mana_pool"]["mana"]:
        letter = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G"}.get(
            m.get("color"), "C")
        mana[letter] = mana.get(letter, 0) + 1
    return {"life": p["life"] - {}.get(i, 0),
            "poison": p["poison_counters"] + {}.get(i, 0), "mana": mana,
            "lost": bool(p["is_eliminated"]) or p["status"].get("type") != "Active"
            or i in set()}


def same(a, b):
    """Equal values; lists of names (types, keywords) in any order."""
    if isinstance(a, list) and isinstance(b, list):
        return sorted(map(repr, a)) == sorted(map(repr, b))
    return a == b


def report(seen):
    """Prints each field, the engine's value beside the rules'; the exit
    status: 1 while one differs."""
    wrong = 0
    for step, who, field, want in CHECKS:
        got = seen[(step, who, field)]
        ok = same(got, want)
        wrong += not ok
        print(f"after step {step}: {who}.{field}: engine {got!r}, rules {want!r}"
              + ("" if ok else "   <- differs"))
    print("the bug is still there" if wrong else "fixed: the engine agrees with the rules")
    return 1 if wrong else 0


# A new game, ready for the case's setup.
g = engine.new_game(player=DECKS[0], opponent=DECKS[1], seed=1, first_player=0)
# Written into the state (new_game: A new game of `engine` (an `Engine`) with these decks, ready for the setup: debug mode on, both hands kept and put back in the libraries, the first player's main phase)
st = g.state()
st['state']['debug_mode'] = True
g = engine.load_game(json.dumps(st))
g.apply(0, {'type': 'MulliganDecision', 'data': {'choice': {'type': 'Keep'}}})
g.apply(1, {'type': 'MulliganDecision', 'data': {'choice': {'type': 'Keep'}}})
g.apply(0, debug('SetPhase', {'phase': 'PreCombatMain', 'active_player': 0}))
g.apply(0, debug('MoveToZone', {'object_id': 1, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 10, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 11, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 13, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 14, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 15, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 16, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 17, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 2, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 4, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 6, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 7, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 8, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 9, 'to_zone': 'Library', 'simulate': False}))

# The case's setup.
g.apply(0, debug('MoveToZone', {'object_id': 2, 'to_zone': 'Battlefield', 'simulate': False}))
g.apply(0, debug('SetSummoningSickness', {'object_id': 2, 'sick': False}))
# Written into the state (write_setup_state: Setup values that are state, not actions: life, poison, damage)
st = g.state()
st['state']['layers_dirty'] = True
g = engine.load_game(json.dumps(st))

# Step 1: {"effect": {"affects": ["bear"], "modify": "-0/-2", "name": "Weakness", "until": "end-of-turn"}}
# Written into the state (do_effect)
st = g.state()
st['state']['layers_dirty'] = True
st['state']['next_continuous_effect_id'] = 2
st['state']['next_timestamp'] = 3
st['state']['transient_continuous_effects'] = [
    {
        'id': 1,
        'source_id': 2,
        'controller': 0,
        'timestamp': 2,
        'duration': 'UntilEndOfTurn',
        'affected': {'type': 'SpecificObject', 'id': 2},
        'modifications': [{'type': 'AddPower', 'value': 0}, {'type': 'AddToughness', 'value': -2}],
    },
]
g = engine.load_game(json.dumps(st))
g.apply(0, debug('RunStateBasedActions'))
g.apply(0, debug('RunStateBasedActions'))

# Step 2: {"put_counters": {"count": 2, "kind": "+1/+1", "on": "bear"}}
g.apply(0, debug('ModifyCounters', {'object_id': 2, 'counter_type': 'P1P1', 'delta': 2}))
g.apply(0, debug('RunStateBasedActions'))

seen = {}  # the engine's values, after step 2
seen[(2, 'bear', 'combat_damage')] = observe(g, IDS['bear'])['combat_damage']
seen[(2, 'bear', 'power')] = observe(g, IDS['bear'])['power']
seen[(2, 'bear', 'total')] = observe(g, IDS['bear'])['total']
seen[(2, 'bear', 'toughness')] = observe(g, IDS['bear'])['toughness']
sys.exit(report(seen))
