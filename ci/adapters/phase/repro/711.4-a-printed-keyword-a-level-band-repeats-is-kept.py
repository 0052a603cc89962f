#!/usr/bin/env python3
"""phase.rs (phase-python): A leveler with printed first strike keeps it in a
band without it, when a higher band repeats it

An invented leveler, Test Leveler (1/1, first strike printed above its level
symbols), has two bands: 1-3 level counters make it 2/2, 4 or more make it
3/3 with first strike. An ability printed outside the level symbols works as
usual at every level (711.4), so with one level counter it is a 2/2 with
first strike. phase.rs's Oracle-text parser drops the printed first strike
when a band grants it too: the card has no keyword until it reaches the band
that repeats it.

Comprehensive Rules 711.4, 711.2a, 702.87; ptoracle case
phase/a-printed-keyword-a-level-band-repeats-is-kept, edition 2026-09-25.

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
    'test leveler': {
        'name': 'Test Leveler',
        'manaCost': '{1}{W}',
        'colors': ['W'],
        'colorIdentity': ['W'],
        'type': 'Creature',
        'types': ['Creature'],
        'subtypes': [],
        'supertypes': [],
        'text': 'First strike\nLEVEL 1-3\n2/2\nLEVEL 4+\n3/3\nFirst strike',
        'layout': 'normal',
        'manaValue': 0,
        'identifiers': {},
        'keywords': ['First Strike'],
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
        'Test Leveler',
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
IDS = {'leveler': 2}  # the case's objects, by the engine's ids
CHECKS = [  # (after step, object or player, field, the rules' value)
    (1, 'leveler', 'keywords', ['first strike']),
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
g.apply(0, debug('ModifyCounters', {'object_id': 2, 'counter_type': 'level', 'delta': 1}))
# Written into the state (write_setup_state: Setup values that are state, not actions: life, poison, damage)
st = g.state()
st['state']['layers_dirty'] = True
g = engine.load_game(json.dumps(st))

# Step 1: "state_based_actions"
g.apply(0, debug('RunStateBasedActions'))

seen = {}  # the engine's values, after step 1
seen[(1, 'leveler', 'keywords')] = observe(g, IDS['leveler'])['keywords']
sys.exit(report(seen))
