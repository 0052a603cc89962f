#!/usr/bin/env python3
# SPDX-License-Identifier: AGPL-3.0-or-later
"""Sorts the disagreements of a gate report (--json) on manabrew-engine into
its known bugs (docs/engines/manabrew.md), by the first step that differs
and what the case contains: a heuristic, checked by reading samples of
every class. Prints a table; exits 1 on a flaky case, an error, or a
failure no known bug explains.

    python3 ci/adapters/manabrew/classify.py report.json
"""
import json
import sys
from collections import Counter

BUGS = {
    "A": "bug 1: a set P/T stays on the card after it leaves the battlefield",
    "B": "bug 2: regeneration shields stay on the card after it leaves the battlefield",
    "C": "bug 3: regeneration does not replace destruction by lethal damage",
    "D": "bug 4: regeneration does not remove damage",
    "E": "bug 5: noncombat damage from a lifelink source gains no life",
    "F": "bug 6: noncombat damage from a deathtouch source is not deathtouch damage",
    "G": "bug 7: effects with no end (Duration$ Permanent) end in the cleanup step",
    "H": "bug 8: a static setting effect applies after a later resolved one",
    "I": "bug 9: losing all abilities (RemoveAllAbilities$) leaves keywords and static abilities in force",
    "J": "bug 10: P/T counters other than +1/+1 and -1/-1 change no P/T",
    "K": "bug 11: keyword counters grant no keyword",
    "L": "bug 12: a prevention shield on a player prevents nothing",
    "M": "bug 13: a prevention shield stays on the card through a zone change",
    "N": "bug 14: a static ability's selector reads artifact, enchantment, planeswalker as subtypes",
    "O": "bug 15: regeneration gives a noncreature permanent no shield",
    "P": "bug 16: the cleanup step removes damage from creatures only",
    "Q": "bug 17: damage is dealt to a noncreature permanent that is no planeswalker or battle",
    "R": "bug 18: a creature whose control changes is not summoning sick",
    "S": "bug 19: a prevention shield does not prevent a wither or infect source's -1/-1 counters",
    "T": "bug 20: state-based actions are not simultaneous: a lord's death saves what it was killing",
    "U": "bug 21: an exchange of powers writes the pump slot, not the base power (701.12g)",
    "V": "bug 22: the power of a creature that left and returned is read from its old object (400.7)",
}

PT_FIELDS = {"pt", "base_pt", "total", "combat_damage", "zone", "damage", "deathtouch_damage", "lost", "life", "poison", "counters", "types"}


def counter_kinds(case):
    kinds = set()
    for o in case["setup"].get("objects", []):
        kinds |= set(o.get("counters") or {})
    for name in ("put_counters", "remove_counters"):
        kinds |= {s.get("kind") for s in steps_of(case, name)}
    return kinds


def new_bug(case, fields):
    """The bugs found once the adapter mapped more (issue 30), by what the
    case contains and which fields differ."""
    kinds = counter_kinds(case)
    objs = case["setup"].get("objects", [])
    effects = steps_of(case, "effect")
    statics = [a for o in objs for a in o.get("abilities") or []]
    if "summoning_sick" in fields and steps_of(case, "gain_control"):
        return "R"
    # ExchangePower sets each power modifier to the difference: the bases
    # stay, earlier pumps are overwritten.
    if steps_of(case, "exchange") and "base_pt" in fields:
        return "U"
    # Targeted$CardPower reads `lki_power`, saved on the card as it left
    # the battlefield and never cleared: a doubling after a return (a
    # move, undying, persist) adds the old value.
    doubles = steps_of(case, "double") + steps_of(case, "triple")
    returns = any(m.get("to") == "battlefield" for m in steps_of(case, "move")) or any(
        {"undying", "persist"} & set(o.get("keywords", [])) for o in objs)
    if doubles and returns and set(fields) & PT_FIELDS:
        return "V"
    shielded = {p.get("to") for p in steps_of(case, "prevent")}
    counter_sources = {o["id"] for o in objs if {"wither", "infect"} & set(o.get("keywords", []))}
    for f in fields.values():
        who, _, what = f["field"].partition(".")
        if who in shielded and what == "counters" and any(
                d.get("to") == who and d.get("from") in counter_sources for d in steps_of(case, "damage")):
            return "S"
    z = fields.get("zone")
    lords = [o for o in objs if "Creature" in o.get("types", []) and o.get("abilities")]
    if z and z["expected"] == "graveyard" and z["got"] == "battlefield" and lords:
        return "T"
    noncreature_ids = {o["id"] for o in objs if "Creature" not in o.get("types", [])}
    damaged = {d.get("to") for d in steps_of(case, "damage")}
    for f in fields.values():
        who, _, what = f["field"].partition(".")
        if who in noncreature_ids and what == "damage" and f["expected"] == "0" and any(s["do"] == "cleanup" for s in case["steps"]):
            return "P"
        if who in noncreature_ids and who in damaged and what in ("damage", "counters"):
            return "Q"
    if "regeneration_shields" in fields:
        noncreature = {o["id"] for o in objs if "Creature" not in o.get("types", [])}
        if any(r in noncreature for r in steps_of(case, "regenerate")):
            return "O"
    if "keywords" in fields and kinds - {"+1/+1", "-1/-1"} and any("/" not in k for k in kinds):
        return "K"
    if any("/" in k and k not in ("+1/+1", "-1/-1") for k in kinds) and set(fields) & PT_FIELDS:
        return "J"
    if any("/" not in k and k not in ("charge", "poison") for k in kinds) and set(fields) & PT_FIELDS:
        return "K"
    if any(e.get("remove_all_abilities") for e in effects + statics) and set(fields) & (PT_FIELDS | {"keywords"}):
        return "I"
    if any(isinstance(a.get("affects"), dict) and set(a["affects"].get("types", [])) & {"Artifact", "Enchantment", "Planeswalker"}
           for a in statics) and set(fields) & (PT_FIELDS | {"keywords"}):
        return "N"
    players = {p.get("id") for p in case["setup"].get("players", [])} | {"you", "opponent"}
    prevents = steps_of(case, "prevent")
    if "life" in fields and any(p.get("to") in players for p in prevents):
        return "L"
    if prevents and steps_of(case, "move") and set(fields) & PT_FIELDS:
        return "M"
    if any("set" in a for a in statics) and any("set" in e for e in effects) and set(fields) & PT_FIELDS:
        return "H"
    return None


def keywords(case):
    return {k for o in case["setup"].get("objects", []) for k in o.get("keywords", [])}


def steps_of(case, name):
    return [s["do"][name] for s in case.get("steps", []) if isinstance(s["do"], dict) and name in s["do"]]


def classify(rec):
    case = rec["scenario"]
    mism = rec.get("mismatches") or []
    fields = {m["field"].split(".", 1)[-1]: m for m in mism}
    kws = keywords(case)
    fresh = new_bug(case, fields)
    if fresh:
        return fresh
    regen = bool(steps_of(case, "regenerate")) or any(
        o.get("regeneration_shields") for o in case["setup"].get("objects", []))
    sets = any("set" in e for e in steps_of(case, "effect"))
    dmg_sources = {d.get("from") for d in steps_of(case, "damage")}
    objs = {o["id"]: o for o in case["setup"].get("objects", [])}
    dt_damage = any("deathtouch" in objs.get(s, {}).get("keywords", []) for s in dmg_sources)
    ll_damage = any("lifelink" in objs.get(s, {}).get("keywords", []) for s in dmg_sources)
    if "life" in fields and ll_damage:
        return "E"
    if "deathtouch_damage" in fields and dt_damage:
        return "F"
    z = fields.get("zone")
    if z and z["expected"] == "graveyard" and z["got"] == "battlefield" and dt_damage:
        return "F"
    if z and z["expected"] == "battlefield" and z["got"] == "graveyard" and regen:
        return "C"
    t = fields.get("tapped")
    if t and t["expected"] == "true" and regen:
        # Regenerated (tapped) by the rules; destroyed (and returned by
        # undying) by the engine.
        return "C"
    if "damage" in fields and fields["damage"]["expected"] == "0" and regen:
        return "D"
    cleanup = any(s["do"] == "cleanup" for s in case.get("steps", []))
    forever = any(e.get("until") == "forever"
                  for e in steps_of(case, "effect") + steps_of(case, "double") + steps_of(case, "triple"))
    if ("pt" in fields or "base_pt" in fields) and cleanup and forever:
        return "G"
    if ("pt" in fields or "base_pt" in fields) and sets:
        return "A"
    if "types" in fields and any(e.get("add_types") for e in steps_of(case, "effect")):
        return "A"
    r = fields.get("regeneration_shields")
    if r and r["expected"] == "0" and regen:
        return "B"
    if "life" in fields and dt_damage and "lifelink" in kws:
        return "E"
    return None


def main(path):
    report = json.load(open(path))
    counts, bad = Counter(), []
    for rec in report["cases"]:
        if rec["verdict"] in ("error", "flaky"):
            bad.append((rec["id"], rec["verdict"], rec.get("message", "")))
            continue
        if rec["verdict"] != "fail":
            continue
        k = classify(rec)
        if k is None:
            bad.append((rec["id"], "unclassified", rec.get("mismatches", [])[:3]))
        else:
            counts[k] += 1
    for k in sorted(counts, key=lambda k: -counts[k]):
        print(f"{counts[k]:6d}  {BUGS[k]}")
    for b in bad[:20]:
        print("UNEXPLAINED", *b)
    if bad:
        print(f"{len(bad)} cases no known bug explains")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
