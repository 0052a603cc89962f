#!/usr/bin/env python3
"""Sorts the disagreements of a gate run against phase.rs into the engine
bugs of docs/engines/phase.md, by the first step at which each case
differs. The reference's own observation of that step (replayed through
`ptoracle serve`) says where each object is and what it is, so a field
that differs on a card in the graveyard is told from one on the
battlefield. A heuristic: `other` is left for a reader.

Usage: classify.py REPORT.json [PTORACLE]
  REPORT.json  a `ptoracle gate --json` report
  PTORACLE     the ptoracle binary (default: `ptoracle` on the PATH)

Prints one line per class with its count and one example case id, then
the cases no class explains, and exits 1 when there is such a case, a
flaky case or an error: a new engine bug, or the adapter's fault, for a
reader to sort out.
"""

import json
import re
import subprocess
import sys

CLASSES = {
    "bug1": "bug 1 (400.7): a card that left the battlefield keeps its marked damage",
    "bug2": "bug 2 (122.1a): P/T counters on a card off the battlefield do not count",
    "bug3": "bug 3 (704.5h): deathtouch damage keeps counting after the check",
    "bug4": "bug 4 (702.2b): damage from a source with deathtouch and wither or infect does not destroy",
    "bug5": "bug 5 (208.5): a noncreature permanent made a creature has no P/T",
    "bug6": "bug 6 (613.8a): a lord that loses all its abilities still grants them",
    "bug7": "bug 7 (613.7c): a keyword counter outlives a later effect that removes the keyword",
    "bug10": "bug 10 (107.1b): a negative X in +X/+X is used",
    "bug12": "bug 12 (604.3): a characteristic-defining ability does not work off the battlefield",
    "bug14": "bug 14 (510.4): first-strike and regular combat damage in one step",
    "bug16": "bug 16 (400.7): a tapped creature that dies is still tapped in the graveyard",
    "bug17": "bug 17 (208.3): an effect reads the printed power of a noncreature Vehicle",
    "bug18": "bug 18 (711.4): a printed keyword a level band repeats is dropped",
    "bug19": "bug 19 (122.6): wither or infect damage puts counters on an object that can't have them",
    "bug21": "bug 21 (613.2a): a chosen P/T is applied in layer 7b, over older setting effects",
    "bug6": "bug 6 (613.8a): an ability lost in layer 6 still has its effect in a later layer",
    "bug8": "bug 8 (702.122a): crew counts a negative power as 0",
    "bug10": "bug 10 (107.1b): a negative X in +X/+X is used",
    "bug11": "bug 11 (208.2a): a lost characteristic-defining ability takes the printed number",
    "bug13": "bug 13 (614.12): Vorinclex doubles the counters it enters with",
    "bug15": "bug 15 (615.7): a prevention shield for any target protects everything",
    "bug20": "bug 20 (122.5): a moved counter skips the replacement effects",
    "D22": "D22 (613.4c): a P/T condition on counters in layer 7c, a doubtful reading",
}
OFF = ("graveyard", "exile", "hand", "library", "stack")
PT_FIELDS = {"pt", "total", "combat_damage", "base_pt"}


class Reference:
    """`ptoracle serve`, asked for the reference's observations."""

    def __init__(self, binary):
        self.p = subprocess.Popen([binary, "serve"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.seq = 0
        self.send({"type": "hello", "protocol": 1, "ptoracle": "0.1.0"})

    def send(self, message):
        self.p.stdin.write(json.dumps(message) + "\n")
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())

    def steps(self, scenario, edition):
        self.seq += 1
        reply = self.send({"type": "run", "seq": self.seq, "edition": edition,
                           "case": scenario})
        return reply.get("steps") or []

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def setup_objects(scenario):
    return {o["id"]: o for o in scenario.get("setup", {}).get("objects", [])}


def keywords_of(objects):
    return {k for o in objects.values() for k in o.get("keywords", [])}


def keyword_list(text):
    """`[flying, first strike]` -> {"flying", "first strike"}."""
    return {k.strip() for k in text.strip("[]").split(",") if k.strip()}


def lost_abilities(steps):
    """The objects the case's steps make lose all abilities."""
    return [s["do"]["effect"].get("affects") for s in steps
            if isinstance(s["do"], dict) and "effect" in s["do"]
            and s["do"]["effect"].get("remove_all_abilities")]


def classify(case, observed):
    """The class of a failing case, from its first differing step and the
    reference's observation of it (`observed`: handle -> object)."""
    scenario = case["scenario"]
    first = case["mismatches"][0]["step"]
    fields = [(m["field"].rpartition(".")[0], m["field"].rpartition(".")[2], m)
              for m in case["mismatches"] if m["step"] == first]
    steps = scenario.get("steps", [])
    action = steps[first - 1]["do"] if 0 < first <= len(steps) else None
    objs = setup_objects(scenario)
    text = json.dumps(scenario)
    strikers = {"first strike", "double strike"} & (keywords_of(objs) | set(
        k for s in steps if isinstance(s["do"], dict) and "effect" in s["do"]
        for k in s["do"]["effect"].get("add_keywords", [])))
    for handle, what, m in fields:
        ref = observed.get(handle) or {}
        zone = ref.get("zone")
        if zone in OFF:
            if what in ("damage", "deathtouch_damage"):
                return "bug1"
            if what == "tapped":
                return "bug16"
            if what in PT_FIELDS:
                if objs.get(handle, {}).get("cda"):
                    return "bug12"
                if any("/" in k for k in (ref.get("counters") or {})):
                    return "bug2"
    if action == {"combat_damage_step": {}} or (isinstance(action, dict)
                                                 and "combat_damage_step" in action):
        if strikers:
            return "bug14"
    for handle, what, m in fields:
        ref = observed.get(handle) or {}
        o = objs.get(handle, {})
        printed_noncreature = o and "pt" not in o and "Creature" not in o.get("types", [])
        if printed_noncreature and '"Creature"' in text and (
                what in PT_FIELDS and m["got"] == "none"
                or what == "zone" and (m["expected"], m["got"]) == ("graveyard", "battlefield")):
            return "bug5"
        if what == "deathtouch_damage" and m["expected"] == "false" and ref.get("zone") == "battlefield":
            return "bug3"
        if what == "zone" and m["expected"] == "graveyard" and m["got"] == "battlefield" \
                and "deathtouch" in text and ("wither" in text or "infect" in text):
            return "bug4"
        if what in PT_FIELDS and o.get("enters_as") and (o.get("level_up") or '"set"' in text):
            return "bug21"
        if what in ("counters", "pt") and o.get("cant_have_counters_put") \
                and ("wither" in text or "infect" in text):
            return "bug19"
        if what == "keywords":
            got, expected = keyword_list(m["got"]), keyword_list(m["expected"])
            if any(k in (o.get("counters") or {}) for k in got - expected):
                return "bug7"
            banded = {k for band in o.get("level_up") or [] for k in band.get("keywords", [])}
            if expected - got and expected - got <= banded & set(o.get("keywords", [])):
                return "bug18"
        if what in PT_FIELDS | {"zone"} and "remove_all_abilities" in text:
            if o.get("cda") and handle in json.dumps(lost_abilities(steps)):
                return "bug11"
            if any(x.get("abilities") or x.get("level_up") for x in objs.values()):
                return "bug6"
        if isinstance(action, dict) and "crew" in action:
            if re.search(r'"(pt|modify|set)": "-', text):
                return "bug8"
        if isinstance(action, dict) and "move_counters" in action and "counters_put_by" in text:
            return "bug20"
        if "counters_put_by" in (json.dumps(o) if o else "") and what in ("counters", "pt") \
                and (isinstance(action, dict) and "move" in action
                     and action["move"].get("counters")
                     or {"undying", "persist"} & set(o.get("keywords", []))):
            return "bug13"
        if "prevent" in text and (what in ("damage", "life", "zone", "counters")):
            return "bug15"
        if what in PT_FIELDS and '"x"' in text and '"power_of"' in text:
            return "bug10"
        if what in PT_FIELDS and ("power_at_least" in text or "toughness_at_least" in text) \
                and any("/" in k for x in objs.values() for k in x.get("counters") or {}):
            return "D22"
        if what == "mana" and "power_of" in text and any(
                "Vehicle" in x.get("subtypes", []) for x in objs.values()):
            return "bug17"
    return "other"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    try:
        with open(sys.argv[1]) as f:
            report = json.load(f)
        reference = Reference(sys.argv[2] if len(sys.argv) == 3 else "ptoracle")
    except (OSError, ValueError) as e:
        sys.exit(f"classify.py: {e}")
    counts, examples, bad, other = {}, {}, [], []
    for case in report["cases"]:
        if case["verdict"] in ("flaky", "error"):
            bad.append(f"{case['id']} ({case['verdict']}: "
                       f"{(case.get('message') or '')[:100]})")
            continue
        if case["verdict"] != "fail":
            continue
        first = case["mismatches"][0]["step"]
        steps = reference.steps(case["scenario"], report.get("edition"))
        observed = steps[first - 1]["objects"] if 0 < first <= len(steps) else {}
        kind = classify(case, observed)
        if kind == "other":
            m = case["mismatches"][0]
            other.append(f"{case['id']}: step {first}: {m['field']}: expected {m['expected']}, "
                         f"got {m['got']}")
            continue
        counts[kind] = counts.get(kind, 0) + 1
        examples.setdefault(kind, case["id"])
    reference.close()
    for kind, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"{n:6d}  {CLASSES[kind]}  (e.g. {examples[kind]})")
    if other:
        print(f"{len(other):6d}  other (no known bug explains them):")
        for line in other:
            print(f"        {line}")
    if bad:
        print(f"{len(bad):6d}  flaky or errors:")
        for line in bad:
            print(f"        {line}")
    if other or bad:
        sys.exit(1)


if __name__ == "__main__":
    main()
