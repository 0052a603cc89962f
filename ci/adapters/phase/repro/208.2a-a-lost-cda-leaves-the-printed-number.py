#!/usr/bin/env python3
"""phase.rs (phase-python): Lhurgoyf (*/1+*) that loses all abilities is 0/1,
not 0/0

Lhurgoyf's power is the number of creature cards in all graveyards and its
toughness that number plus 1; with Grizzly Bears in a graveyard it is 1/2. A
spell makes it lose all abilities until end of turn: the
characteristic-defining ability is gone (613.1f, before 7a), so the `*`
counts as 0 and its toughness is 1 + 0 = 1 (208.2a): it is 0/1 and stays on
the battlefield. phase.rs makes it 0/0 and puts it into the graveyard (a
real "Target creature loses all abilities until end of turn." spell does the
same): the `1+` of its printed toughness is lost with the ability.

Comprehensive Rules 208.2a, 613.1f, 613.4a, 704.5f; ptoracle case
phase/a-lost-cda-leaves-the-printed-number, edition 2026-09-25.

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
    'lhurgoyf': {
        'name': 'Lhurgoyf',
        'manaCost': '{2}{G}{G}',
        'colors': [],
        'colorIdentity': [],
        'type': 'Creature',
        'types': ['Creature'],
        'subtypes': [],
        'supertypes': [],
        'text': "Lhurgoyf's power is equal to the number of creature cards in all graveyards and its toughness is equal to that number plus 1.",
        'layout': 'normal',
        'manaValue': 0,
        'identifiers': {},
        'keywords': [],
        'power': '*',
        'toughness': '1+*',
    },
    'grizzly bears': {
        'name': 'Grizzly Bears',
        'manaCost': '{1}{G}',
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
        'Lhurgoyf',
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
IDS = {'goyf': 2, 'bears': 1}  # the case's objects, by the engine's ids
CHECKS = [  # (after step, object or player, field, the rules' value)
    (2, 'goyf', 'base_toughness', 1),
    (2, 'goyf', 'total', 1),
    (2, 'goyf', 'toughness', 1),
    (2, 'goyf', 'zone', 'battlefield'),
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
g.apply(0, debug('MoveToZone', {'object_id': 12, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 14, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 15, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 16, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 17, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 18, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 2, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 6, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 7, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 8, 'to_zone': 'Library', 'simulate': False}))
g.apply(0, debug('MoveToZone', {'object_id': 9, 'to_zone': 'Library', 'simulate': False}))

# The case's setup.
g.apply(0, debug('MoveToZone', {'object_id': 2, 'to_zone': 'Battlefield', 'simulate': False}))
g.apply(0, debug('SetSummoningSickness', {'object_id': 2, 'sick': False}))
g.apply(0, debug('MoveToZone', {'object_id': 1, 'to_zone': 'Graveyard', 'simulate': False}))
# Written into the state (write_setup_state: Setup values that are state, not actions: life, poison, damage)
st = g.state()
st['state']['layers_dirty'] = True
st['state']['objects']['1']['timestamp'] = 2
g = engine.load_game(json.dumps(st))

# Step 1: "state_based_actions"
g.apply(0, debug('RunStateBasedActions'))

# Step 2: {"effect": {"affects": ["goyf"], "name": "Merfolk Trickster's ability", "remove_all_abilities": true, "until": "end-of-turn"}}
# Written into the state (do_effect)
st = g.state()
st['state']['layers_dirty'] = True
st['state']['next_continuous_effect_id'] = 2
st['state']['next_timestamp'] = 4
st['state']['transient_continuous_effects'] = [
    {
        'id': 1,
        'source_id': 2,
        'controller': 0,
        'timestamp': 3,
        'duration': 'UntilEndOfTurn',
        'affected': {'type': 'SpecificObject', 'id': 2},
        'modifications': [{'type': 'RemoveAllAbilities'}],
    },
]
g = engine.load_game(json.dumps(st))
g.apply(0, debug('RunStateBasedActions'))
g.apply(0, debug('RunStateBasedActions'))

seen = {}  # the engine's values, after step 2
seen[(2, 'goyf', 'base_toughness')] = observe(g, IDS['goyf'])['base_toughness']
seen[(2, 'goyf', 'total')] = observe(g, IDS['goyf'])['total']
seen[(2, 'goyf', 'toughness')] = observe(g, IDS['goyf'])['toughness']
seen[(2, 'goyf', 'zone')] = observe(g, IDS['goyf'])['zone']
sys.exit(report(seen))
