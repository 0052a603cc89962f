#!/usr/bin/env python3
"""Sorts the disagreements of a gate run against python-mtg into the
engine bugs of docs/engines/python-mtg.md, by the first mismatch of each
case (a heuristic: `other` is left for a reader).

Usage: classify.py REPORT.json     (a `ptoracle gate --json` report)

Prints one line per class with its count and one example case id, and
exits 1 when a case is flaky, errs otherwise than by the engine deriving
two values of one characteristic (the known 613.7 bug), or disagrees in a
way no known class explains (`other`): a new engine bug, or the adapter's
fault, for a reader to sort out.
"""

import json
import sys

CLASSES = {
    "two-pts": "613.7: two setting effects, two derived P/Ts (error)",
    "indestructible": "704.5f: an indestructible creature with toughness 0 or less stays",
    "graveyard": "400.7: counters, effects, tapped status or a regeneration shield stay on a card that left the battlefield",
    "annihilation": "704.5q: +1/+1 and -1/-1 counters are not removed",
    "damage-target": "601.2c: a damage spell damages a creature of the engine's choosing",
    "damage-not-marked": "120.3e: noncombat damage is not marked (and does not add up)",
    "damage-kept": "adapter limitation: damage written in the setup stays on a card off the battlefield",
    "regeneration-zero": "704.5f: a regeneration shield keeps a creature with toughness 0 or less",
    "shields": "701.19a: two regeneration shields are one",
    "draw": "104.4a: two players at 0 life, only one loses",
}


def objects(case):
    return {o["id"]: o for o in case["scenario"].get("setup", {}).get("objects", [])}


def classify(case):
    if case["verdict"] == "error":
        return "two-pts" if "derives" in case.get("message", json.dumps(case)) else None
    first = case["mismatches"][0]
    step = first["step"]
    at = [m for m in case["mismatches"] if m["step"] == step]
    fields = {m["field"]: m for m in at}
    if any(f.endswith(".lost") for f in fields):
        return "draw"
    objs = objects(case)
    steps = case["scenario"].get("steps", [])
    # Fewer shields than the reference counts: two shields were one. (One
    # shield where the reference counts none is a card that kept it as it
    # left the battlefield, or a creature that should have died: below.)
    if any(f.endswith(".regeneration_shields") and int(m["expected"]) > int(m["got"])
           for f, m in fields.items()):
        return "shields"
    action = steps[step - 1]["do"] if step <= len(steps) else None
    if isinstance(action, dict) and "damage" in action:
        victim = action["damage"]["to"]
        if any(f.rpartition(".")[0] not in (victim, "you", "opponent") for f in fields):
            return "damage-target"
    for f, m in fields.items():
        handle, _, what = f.rpartition(".")
        o = objs.get(handle, {})
        if what == "zone" and m["expected"] == "graveyard" and m["got"] == "battlefield":
            if "indestructible" in o.get("keywords", []):
                return "indestructible"
            if o.get("regeneration_shields") or {"regenerate": handle} in [s["do"] for s in steps]:
                return "regeneration-zero"
            return "damage-not-marked"
        if what == "counters" and "+1/+1" in m["got"] and "-1/-1" in m["got"]:
            return "annihilation"
        if what == "damage":
            return "damage-kept" if m["expected"] == "0" else "damage-not-marked"
    for f, m in fields.items():
        handle, _, what = f.rpartition(".")
        o = objs.get(handle, {})
        if what in ("pt", "counters") and (m["expected"] == o.get("pt") or m["expected"] == "{}"):
            return "graveyard"
        if what == "tapped" and m["expected"] == "false":
            return "graveyard"
        if what == "regeneration_shields" and m["expected"] == "0":
            return "graveyard"
    return "other"


def main():
    report = json.load(open(sys.argv[1]))
    counts, examples, bad = {}, {}, []
    for case in report["cases"]:
        if case["verdict"] == "flaky":
            bad.append(case["id"])
        if case["verdict"] not in ("fail", "error"):
            continue
        kind = classify(case)
        if kind in (None, "other"):
            bad.append(case["id"])
            continue
        counts[kind] = counts.get(kind, 0) + 1
        examples.setdefault(kind, case["id"])
    for kind, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"{n:6d}  {CLASSES[kind]}  (e.g. {examples[kind]})")
    if bad:
        print(f"flaky, or errors the engine bugs do not explain: {', '.join(bad[:10])}")
        sys.exit(1)


if __name__ == "__main__":
    main()
