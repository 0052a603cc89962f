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
}


def keywords(case):
    return {k for o in case["setup"].get("objects", []) for k in o.get("keywords", [])}


def steps_of(case, name):
    return [s["do"][name] for s in case.get("steps", []) if isinstance(s["do"], dict) and name in s["do"]]


def classify(rec):
    case = rec["scenario"]
    mism = rec.get("mismatches") or []
    fields = {m["field"].split(".", 1)[-1]: m for m in mism}
    kws = keywords(case)
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
    if "damage" in fields and fields["damage"]["expected"] == "0" and regen:
        return "D"
    cleanup = any(s["do"] == "cleanup" for s in case.get("steps", []))
    forever = any(e.get("until") == "forever" for e in steps_of(case, "effect"))
    if ("pt" in fields or "base_pt" in fields) and cleanup and forever:
        return "G"
    if ("pt" in fields or "base_pt" in fields) and sets:
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
