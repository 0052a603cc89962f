#!/usr/bin/env python3
"""phase.rs (phase-python): A creature with negative power lowers the total
power that crews a Vehicle

Crew 3 means "tap any number of untapped creatures you control with total
power 3 or greater" (702.122a). A sum of powers uses a negative power as it
is (107.1b: only the result of an effect is raised to 0). Hill Giant (3/3)
and a 1/1 that got -2/-0 (power -1) total 2, so the cost can't be paid:
nothing is tapped and the Vehicle stays a noncreature artifact. phase.rs
counts each creature's power as at least 0 (its crew choice lists the 1/1's
contribution as 0, not -1), so the two crew the Vehicle: both are tapped and
it is a 6/6 artifact creature. The adapter activates the Vehicle's real
`Crew 3` ability with both creatures.

Comprehensive Rules 702.122a, 107.1b; ptoracle case
phase/crew-counts-negative-power, edition 2026-09-25.

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
    'irontread crusher': {
        'name': 'Irontread Crusher',
        'manaCost': '{4}',
        'colors': [],
        'colorIdentity': [],
        'type': 'Artifact — Vehicle',
        'types': ['Artifact'],
        'subtypes': ['Vehicle'],
        'supertypes': [],
        'text': 'Crew 3',
        'layout': 'normal',
        'manaValue': 0,
        'identifiers': {},
        'keywords': [],
        'power': '6',
        'toughness': '6',
    },
    'hill giant': {
        'name': 'Hill Giant',
        'manaCost': '{3}{R}',
        'colors': [],
        'colorIdentity': [],
        'type': 'Creature',
        'types': ['Creature'],
        'subtypes': [],
        'supertypes': [],
        'text': '',
        'layout': 'normal',
        'manaValue': 0,
        'identifiers': {},
        'keywords': [],
        'power': '3',
        'toughness': '3',
    },
    'eager cadet': {
        'name': 'Eager Cadet',
        'manaCost': '{W}',
        'colors': ['W'],
        'colorIdentity': ['W'],
        'type': 'Creature — Human Soldier',
        'types': ['Creature'],
        'subtypes': ['Human', 'Soldier'],
        'supertypes': [],
        'text': '',
        'layout': 'normal',
        'manaValue': 0,
        'identifiers': {},
        'keywords': [],
        'power': '1',
        'toughness': '1',
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
        'Irontread Crusher',
        'Hill Giant',
        'Eager Cadet',
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
IDS = {'hauler': 2, 'giant': 1, 'weak': 6}  # the case's objects, by the engine's ids
CHECKS = [  # (after step, object or player, field, the rules' value)
    (2, 'giant', 'tapped', False),
    (2, 'hauler', 'base_power', None),
    (2, 'hauler', 'base_toughness', None),
    (2, 'hauler', 'combat_damage', None),
    (2, 'hauler', 'power', None),
    (2, 'hauler', 'total', None),
    (2, 'hauler', 'toughness', None),
    (2, 'hauler', 'types', ['Artifact']),
    (2, 'weak', 'tapped', False),
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
g.apply(0, debug('MoveToZone', {'object_id': 15, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 16, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 17, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 18, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 19, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 2, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 3, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 7, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 8, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 9, 'to_zone': 'Library', 'simulate': False}))

# The case's setup.
g.apply(0, debug('MoveToZone', {'object_id': 2, 'to_zone': 'Battlefield', 'simulate': False}))
g.apply(0, debug('SetSummoningSickness', {'object_id': 2, 'sick': False}))
g.apply(0, debug('MoveToZone', {'object_id': 1, 'to_zone': 'Battlefield', 'simulate': False}))
g.apply(0, debug('SetSummoningSickness', {'object_id': 1, 'sick': False}))
g.apply(0, debug('MoveToZone', {'object_id': 6, 'to_zone': 'Battlefield', 'simulate': False}))
g.apply(0, debug('SetSummoningSickness', {'object_id': 6, 'sick': False}))
# Written into the state (write_setup_state: Setup values that are state, not actions: life, poison, damage)
st = g.state()
st['state']['layers_dirty'] = True
g = engine.load_game(json.dumps(st))

# Step 1: {"effect": {"affects": ["weak"], "modify": "-2/-0", "until": "end-of-turn"}}
# Written into the state (do_effect)
st = g.state()
st['state']['layers_dirty'] = True
st['state']['next_continuous_effect_id'] = 2
st['state']['next_timestamp'] = 5
st['state']['transient_continuous_effects'] = [
    {
        'id': 1,
        'source_id': 6,
        'controller': 0,
        'timestamp': 4,
        'duration': 'UntilEndOfTurn',
        'affected': {'type': 'SpecificObject', 'id': 6},
        'modifications': [{'type': 'AddPower', 'value': -2}, {'type': 'AddToughness', 'value': 0}],
    },
]
g = engine.load_game(json.dumps(st))
g.apply(0, debug('RunStateBasedActions'))

# Step 2: {"crew": {"vehicle": "hauler", "with": ["giant", "weak"]}}
# Written into the state (do_crew: The Vehicle's crew ability (702.122a), activated by the first player with the case's creatures as its cost, resolved by the engine)
st = g.state()
g = engine.load_game(json.dumps(st))
g.apply(0, debug('RunStateBasedActions'))
g.apply(0, {'type': 'CrewVehicle', 'data': {'vehicle_id': 2, 'creature_ids': [1, 6]}})
g.apply(0, {'type': 'CrewVehicle', 'data': {'vehicle_id': 2, 'creature_ids': [1, 6]}})
g.apply(0, {'type': 'PassPriority'})
g.apply(1, {'type': 'PassPriority'})
# Written into the state (stamp: The continuous effects the engine made since `before` (their ids) take the case's timestamp `ts`, or, when it is None and there are some, the case's next one; the engine numbers what comes later after it)
st = g.state()
st['state']['layers_dirty'] = True
g = engine.load_game(json.dumps(st))
g.apply(0, debug('RunStateBasedActions'))

seen = {}  # the engine's values, after step 2
seen[(2, 'giant', 'tapped')] = observe(g, IDS['giant'])['tapped']
seen[(2, 'hauler', 'base_power')] = observe(g, IDS['hauler'])['base_power']
seen[(2, 'hauler', 'base_toughness')] = observe(g, IDS['hauler'])['base_toughness']
seen[(2, 'hauler', 'combat_damage')] = observe(g, IDS['hauler'])['combat_damage']
seen[(2, 'hauler', 'power')] = observe(g, IDS['hauler'])['power']
seen[(2, 'hauler', 'total')] = observe(g, IDS['hauler'])['total']
seen[(2, 'hauler', 'toughness')] = observe(g, IDS['hauler'])['toughness']
seen[(2, 'hauler', 'types')] = observe(g, IDS['hauler'])['types']
seen[(2, 'weak', 'tapped')] = observe(g, IDS['weak'])['tapped']
sys.exit(report(seen))
