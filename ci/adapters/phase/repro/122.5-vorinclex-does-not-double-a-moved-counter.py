#!/usr/bin/env python3
"""phase.rs (phase-python): A +1/+1 counter you move under your Vorinclex,
Monstrous Raider arrives as two

Moving a counter removes it from one object and puts it on another (122.5),
and Vorinclex, Monstrous Raider doubles the counters its controller would
put on a permanent (614.1a). You control Vorinclex and move one of Grizzly
Bears A's two +1/+1 counters onto Grizzly Bears B: A has one (3/3), B two
(4/4). phase.rs moves the one counter and puts it without its replacement
effects: B has one (3/3), while a counter put on B by a spell of yours
arrives as two. Played with a real "Move a +1/+1 counter from target
creature onto another target creature." instant cast by you and Vorinclex's
two replacement effects parsed from its Oracle text.

Comprehensive Rules 122.5, 614.1a, 122.6; ptoracle case
phase/vorinclex-does-not-double-a-moved-counter, edition 2026-09-25.

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
    'vorinclex, monstrous raider': {
        'name': 'Vorinclex, Monstrous Raider',
        'manaCost': '{4}{G}{G}',
        'colors': ['G'],
        'colorIdentity': ['G'],
        'type': 'Creature — Phyrexian Praetor',
        'types': ['Creature'],
        'subtypes': ['Phyrexian', 'Praetor'],
        'supertypes': [],
        'text': 'Trample\nHaste\nIf you would put one or more counters on a permanent or player, put twice that many of each of those kinds of counters on that permanent or player instead.\nIf an opponent would put one or more counters on a permanent or player, they put half that many of each of those kinds of counters on that permanent or player instead, rounded down.',
        'layout': 'normal',
        'manaValue': 0,
        'identifiers': {},
        'keywords': ['Trample', 'Haste'],
        'power': '6',
        'toughness': '6',
    },
    'grizzly bears': {
        'name': 'Grizzly Bears',
        'manaCost': '{1}{G}',
        'colors': ['G'],
        'colorIdentity': ['G'],
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
    'effect of step 1': {
        'name': 'Effect Of Step 1',
        'manaCost': '{0}',
        'colors': [],
        'colorIdentity': [],
        'type': 'Instant',
        'types': ['Instant'],
        'subtypes': [],
        'supertypes': [],
        'text': 'Move a +1/+1 counter from target creature onto another target creature.',
        'layout': 'normal',
        'manaValue': 0,
        'identifiers': {},
    },
}
DECKS = [
    [
        'Vorinclex, Monstrous Raider',
        'Grizzly Bears',
        'Grizzly Bears',
        'Effect Of Step 1',
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
IDS = {'vorinclex': 2, 'a': 1, 'b': 6}  # the case's objects, by the engine's ids
CHECKS = [  # (after step, object or player, field, the rules' value)
    (1, 'b', 'combat_damage', 4),
    (1, 'b', 'counters', {'+1/+1': 2}),
    (1, 'b', 'power', 4),
    (1, 'b', 'total', 8),
    (1, 'b', 'toughness', 4),
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
g.apply(0, debug('MoveToZone', {'object_id': 12, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 13, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 14, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 16, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 17, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 18, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 19, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 2, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 20, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 7, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 8, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 9, 'to_zone': 'Library', 'simulate': False}))

# The case's setup.
g.apply(0, debug('MoveToZone', {'object_id': 2, 'to_zone': 'Battlefield', 'simulate': False}))
g.apply(0, debug('SetSummoningSickness', {'object_id': 2, 'sick': False}))
g.apply(0, debug('MoveToZone', {'object_id': 1, 'to_zone': 'Battlefield', 'simulate': False}))
g.apply(0, debug('SetSummoningSickness', {'object_id': 1, 'sick': False}))
g.apply(0, debug('ModifyCounters', {'object_id': 1, 'counter_type': 'P1P1', 'delta': 2}))
g.apply(0, debug('MoveToZone', {'object_id': 6, 'to_zone': 'Battlefield', 'simulate': False}))
g.apply(0, debug('SetSummoningSickness', {'object_id': 6, 'sick': False}))
# Written into the state (write_setup_state: Setup values that are state, not actions: life, poison, damage)
st = g.state()
st['state']['layers_dirty'] = True
g = engine.load_game(json.dumps(st))

# Step 1: {"move_counters": {"by": "you", "from": "a", "kind": "+1/+1", "to": "b"}}
g.apply(0, debug('RunStateBasedActions'))
g.apply(0, debug('MoveToZone', {'object_id': 10, 'to_zone': 'Hand', 'simulate': False}))
g.apply(0, {
        'type': 'CastSpell',
        'data': {'object_id': 10, 'card_id': 10, 'targets': [], 'payment_mode': {'type': 'Auto'}},
    })
g.apply(0, {'type': 'ChooseTarget', 'data': {'target': {'Object': 1}}})
g.apply(0, {'type': 'ChooseTarget', 'data': {'target': {'Object': 6}}})
g.apply(0, {'type': 'PassPriority'})
g.apply(1, {'type': 'PassPriority'})
g.apply(0, debug('RunStateBasedActions'))

seen = {}  # the engine's values, after step 1
seen[(1, 'b', 'combat_damage')] = observe(g, IDS['b'])['combat_damage']
seen[(1, 'b', 'counters')] = observe(g, IDS['b'])['counters']
seen[(1, 'b', 'power')] = observe(g, IDS['b'])['power']
seen[(1, 'b', 'total')] = observe(g, IDS['b'])['total']
seen[(1, 'b', 'toughness')] = observe(g, IDS['b'])['toughness']
sys.exit(report(seen))
