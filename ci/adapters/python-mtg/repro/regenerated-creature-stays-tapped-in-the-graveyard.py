#!/usr/bin/env python3
"""python-mtg: A creature that regenerated and then dies is still tapped in the
graveyard

A 2/2 regenerates and is destroyed (spells the engine casts and resolves):
the shield replaces the destruction and taps it (701.19a). A second
destruction, with no shield left, puts it into its owner's graveyard. The
card there is a new object with no memory of its tapped status (400.7): it
is untapped. python-mtg's driver taps the creature as it regenerates and
moves it to the graveyard later without untapping it, so the card in the
graveyard is still tapped. Found by the gate with generated cases (seed 1),
once the register attributed every mismatch.

Comprehensive Rules 400.7, 701.19a, 701.8a; ptoracle case
python-mtg/regenerated-creature-stays-tapped-in-the-graveyard, edition
2026-09-25.

Run: python3 FILE in a virtual environment with python-mtg installed

It prints the engine's value of each field beside the rules' (ptoracle's
reference resolver), and exits 1 while one differs, 0 once they all agree.
Written by ptoracle's adapter for the engine (`ptoracle gate --reproduce`);
it needs only the engine installed.
"""

CARD_RELATIONS = ['on_battlefield', 'in_hand', 'in_library', 'graveyard', 'exile', 'instance_of', 'printed_type', 'printed_subtype', 'printed_color', 'printed_control', 'printed_power', 'printed_toughness', 'printed_keyword', 'has_supertype', 'land_produces', 'mana_cost', 'mana_generic', 'mana_pip', 'spell_type', 'mana_pool', 'mana_available', 'counter', 'tapped', '_sick', 'card_type', 'card_power', 'card_toughness', 'card_keyword', 'card_color', 'card_subtype', 'card_ability', 'card_effect', 'ability_trigger', '_land_played', 'marked', 'spell_target', 'poison', '_regen_shield']
CHECKS = [  # (after step, object or player, field, the rules' value)
    (3, 'c', 'tapped', False),
]

import contextlib
import io
import os
import sys

# The engine's own switch: every set of facts is loaded whole, not as a
# difference from the one evaluated before (docs/engines/python-mtg.md).
os.environ["MTG_NO_DELTA"] = "1"
with contextlib.redirect_stdout(io.StringIO()):
    import mtg
    from mtg import driver


def quiet(fn, *args):
    """A call into the engine, its chatter on stdout left out."""
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args)


# The position every case starts from: the engine's first game, its cards
# taken out.
with contextlib.redirect_stdout(io.StringIO()):
    base = mtg.Game(seed=0).state
for rel in CARD_RELATIONS:
    base[rel] = set()
base.pop("_policy", None)
s = driver.clone_state(base)


def observe(s, h):
    """The fields of object `h` as ptoracle's observations name them."""
    out = quiet(driver.run, s, ["power", "eff_toughness", "creature", "printed_type",
                                "printed_color", "has_keyword"])
    zones = [("on_battlefield", "battlefield"), ("graveyard", "graveyard"), ("exile", "exile"),
             ("in_hand", "hand"), ("in_library", "library")]
    zone = next((z for rel, z in zones if any(r[-1] == h for r in s.get(rel, ()))), None)
    types = sorted(t.capitalize() for (c, t) in out["printed_type"] if c == h)
    values = lambda rel: sorted({int(n) for (c, n) in out[rel] if c == h})  # noqa: E731
    power, tough = values("power"), values("eff_toughness")
    creature = (h,) in out["creature"] or "Creature" in types
    # Two values are the engine's answer too: shown as they are.
    power = (power[0] if len(power) == 1 else power or None) if creature else None
    tough = (tough[0] if len(tough) == 1 else tough or None) if creature else None
    counters = {"p1p1": "+1/+1", "m1m1": "-1/-1"}
    return {
        "zone": zone, "types": types, "power": power, "toughness": tough,
        "colors": sorted(c for (o, c) in out["printed_color"] if o == h),
        "total": power + tough if isinstance(power, int) and isinstance(tough, int) else None,
        "combat_damage": max(0, power) if isinstance(power, int) else None,
        "counters": {counters.get(k, k): n
                     for (c, k, n) in sorted(s.get("counter", ())) if c == h and n},
        "damage": sum(n for (c, n) in s.get("marked", ()) if c == h),
        "keywords": sorted(k.replace("_", " ") for (c, k) in out["has_keyword"] if c == h),
        "tapped": (h,) in s.get("tapped", ()),
        "regeneration_shields": 1 if (h,) in s.get("_regen_shield", ()) else 0,
    }


def observe_player(s, seat):
    """The fields of the player in `seat`."""
    return {"life": dict(s["life"]).get(seat, 0), "poison": dict(s.get("poison", ())).get(seat, 0),
            "mana": {}, "lost": s.get("_loser") == seat}


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


# Facts written (the case's setup, as the engine's own game setup writes a card's: python-mtg has no action that puts a chosen card, with its counters and damage, in a zone)
s['card_power'].add(('pt_card_c', 2))
s['card_toughness'].add(('pt_card_c', 2))
s['card_type'].add(('pt_card_c', 'creature'))
s['instance_of'].add(('c', 'pt_card_c'))
s['mana_cost'].add(('c', 0))
s['mana_generic'].add(('c', 0))
s['on_battlefield'].add(('c',))
s['printed_control'].add(('alice', 'c'))
s['printed_power'].add(('c', 2))
s['printed_toughness'].add(('c', 2))
s['printed_type'].add(('c', 'creature'))
s['spell_type'].add(('c', 'creature'))

# Step 1: {"regenerate": "c"}
# Facts written (cast(): Casts a new zero-cost instant through the engine's driver, its target forced through the engine's choice seam)
s['_forced'] = {'target': 'c'}
s['card_ability'].add(('pt_card_pt_spell_1', 'a0', 'spell'))
s['card_type'].add(('pt_card_pt_spell_1', 'instant'))
s['has_priority'] = {('alice',)}
s['in_hand'].add(('alice', 'pt_spell_1'))
s['instance_of'].add(('pt_spell_1', 'pt_card_pt_spell_1'))
s['mana_cost'].add(('pt_spell_1', 0))
s['mana_generic'].add(('pt_spell_1', 0))
s['printed_control'].add(('alice', 'pt_spell_1'))
s['printed_type'].add(('pt_spell_1', 'instant'))
s['spell_target'].add(('pt_spell_1', 'regenerate', '-', 'any'))
s['spell_type'].add(('pt_spell_1', 'instant'))
quiet(driver._cast_spell, s, 'alice', 'pt_spell_1', ['alice', 'bob'])
# Facts written (sba())
s['_forced'] = {}
out = quiet(driver.run, s, driver.OUTPUTS)  # state-based actions
quiet(driver._apply_outputs, s, out, 'alice')

# Step 2: {"destroy": "c"}
# Facts written (cast(): Casts a new zero-cost instant through the engine's driver, its target forced through the engine's choice seam)
s['_forced'] = {'target': 'c'}
s['card_ability'].add(('pt_card_pt_spell_2', 'a0', 'spell'))
s['card_type'].add(('pt_card_pt_spell_2', 'instant'))
s['has_priority'].add(('alice',))
s['in_hand'].add(('alice', 'pt_spell_2'))
s['instance_of'].add(('pt_spell_2', 'pt_card_pt_spell_2'))
s['mana_cost'].add(('pt_spell_2', 0))
s['mana_generic'].add(('pt_spell_2', 0))
s['printed_control'].add(('alice', 'pt_spell_2'))
s['printed_type'].add(('pt_spell_2', 'instant'))
s['spell_target'].add(('pt_spell_2', 'destroy', '-', 'any'))
s['spell_type'].add(('pt_spell_2', 'instant'))
quiet(driver._cast_spell, s, 'alice', 'pt_spell_2', ['alice', 'bob'])
# Facts written (sba())
s['_forced'] = {}
out = quiet(driver.run, s, driver.OUTPUTS)  # state-based actions
quiet(driver._apply_outputs, s, out, 'alice')

# Step 3: {"destroy": "c"}
# Facts written (cast(): Casts a new zero-cost instant through the engine's driver, its target forced through the engine's choice seam)
s['_forced'] = {'target': 'c'}
s['card_ability'].add(('pt_card_pt_spell_3', 'a0', 'spell'))
s['card_type'].add(('pt_card_pt_spell_3', 'instant'))
s['has_priority'].add(('alice',))
s['in_hand'].add(('alice', 'pt_spell_3'))
s['instance_of'].add(('pt_spell_3', 'pt_card_pt_spell_3'))
s['mana_cost'].add(('pt_spell_3', 0))
s['mana_generic'].add(('pt_spell_3', 0))
s['printed_control'].add(('alice', 'pt_spell_3'))
s['printed_type'].add(('pt_spell_3', 'instant'))
s['spell_target'].add(('pt_spell_3', 'destroy', '-', 'any'))
s['spell_type'].add(('pt_spell_3', 'instant'))
quiet(driver._cast_spell, s, 'alice', 'pt_spell_3', ['alice', 'bob'])
# Facts written (sba())
s['_forced'] = {}
out = quiet(driver.run, s, driver.OUTPUTS)  # state-based actions
quiet(driver._apply_outputs, s, out, 'alice')

seen = {}  # the engine's values, after step 3
seen[(3, 'c', 'tapped')] = observe(s, 'c')['tapped']
sys.exit(report(seen))
