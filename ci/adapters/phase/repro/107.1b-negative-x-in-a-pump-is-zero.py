#!/usr/bin/env python3
"""phase.rs (phase-python): +X/+X where X is a power of -2 gives +0/+0

Chameleon Colossus (4/4) gets -6/-0 until end of turn: it is -2/4. Its
ability "gets +X/+X until end of turn, where X is its power" then resolves
with X = -2. A calculation that determines the result of an effect and
yields a negative number gives 0 instead, unless the effect doubles or sets
a life total or a P/T to a specific value (107.1b): the ability gives +0/+0
and the Colossus stays -2/4. phase.rs uses -2 and makes it -4/2 (the real
ability, activated on the engine's stack, gives the same). It does clamp a
negative amount of mana to 0.

Comprehensive Rules 107.1b, 608.2h, 613.4c; ptoracle case
phase/negative-x-in-a-pump-is-zero, edition 2026-09-25.

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
    'chameleon colossus': {
        'name': 'Chameleon Colossus',
        'manaCost': '{2}{G}{G}',
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
        'power': '4',
        'toughness': '4',
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
    'effect of step 2': {
        'name': 'Effect Of Step 2',
        'manaCost': '{0}',
        'colors': [],
        'colorIdentity': [],
        'type': 'Instant',
        'types': ['Instant'],
        'subtypes': [],
        'supertypes': [],
        'text': "Target creature gets +X/+X until end of turn, where X is that creature's power.",
        'layout': 'normal',
        'manaValue': 0,
        'identifiers': {},
    },
}
DECKS = [
    [
        'Chameleon Colossus',
        'Effect Of Step 2',
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
IDS = {'colossus': 2}  # the case's objects, by the engine's ids
CHECKS = [  # (after step, object or player, field, the rules' value)
    (2, 'colossus', 'power', -2),
    (2, 'colossus', 'total', 2),
    (2, 'colossus', 'toughness', 4),
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
# Written into the state (write_setup_state: Setup values that are state, not actions: life, poison, damage)
st = g.state()
st['state']['layers_dirty'] = True
g = engine.load_game(json.dumps(st))

# Step 1: {"effect": {"affects": ["colossus"], "modify": "-6/-0", "name": "Weakness", "until": "end-of-turn"}}
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
        'modifications': [{'type': 'AddPower', 'value': -6}, {'type': 'AddToughness', 'value': 0}],
    },
]
g = engine.load_game(json.dumps(st))
g.apply(0, debug('RunStateBasedActions'))

# Step 2: {"effect": {"affects": ["colossus"], "modify": "+X/+X", "name": "Chameleon Colossus's ability", "source": "colossus", "until": "end-of-turn", "x": {"power_of": "colossus"}}}
g.apply(0, debug('MoveToZone', {'object_id': 1, 'to_zone': 'Hand', 'simulate': False}))
g.apply(0, debug('RunStateBasedActions'))
g.apply(0, {
        'type': 'CastSpell',
        'data': {'object_id': 1, 'card_id': 1, 'targets': [], 'payment_mode': {'type': 'Auto'}},
    })
g.apply(0, {'type': 'PassPriority'})
g.apply(1, {'type': 'PassPriority'})
# Written into the state (stamp: The continuous effects the engine made since `before` (their ids) take the case's timestamp `ts`, or, when it is None and there are some, the case's next one; the engine numbers what comes later after it)
st = g.state()
st['state']['layers_dirty'] = True
g = engine.load_game(json.dumps(st))
g.apply(0, debug('RunStateBasedActions'))

seen = {}  # the engine's values, after step 2
seen[(2, 'colossus', 'power')] = observe(g, IDS['colossus'])['power']
seen[(2, 'colossus', 'total')] = observe(g, IDS['colossus'])['total']
seen[(2, 'colossus', 'toughness')] = observe(g, IDS['colossus'])['toughness']
sys.exit(report(seen))
