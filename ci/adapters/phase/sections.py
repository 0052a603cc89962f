#!/usr/bin/env python3
"""Summarises a `ptoracle gate --json` report for docs/engines/:
    python3 ci/adapters/phase/sections.py report.json
- corpus cases by CR section: a case counts once under every section (the
  part before the dot: 613, 704, ...) of the rules it cites;
- generated cases by verdict, failures by the field that differs first and
  the zone the reference has the object in there, skips by reason."""

import collections
import json
import re
import sys


def main(path):
    report = json.load(open(path))
    cases = report["cases"]
    table = collections.defaultdict(collections.Counter)
    totals = collections.Counter()
    for case in cases:
        if case.get("generated"):
            continue
        verdict = case["verdict"]
        totals[verdict] += 1
        for section in sorted({r.split(".")[0] for r in case.get("rules", [])}):
            table[section][verdict] += 1
    print("Corpus by CR section:\n")
    print("| section | pass | fail | error | skip |")
    print("|---|---:|---:|---:|---:|")
    for section in sorted(table, key=lambda s: (len(s), s)):
        c = table[section]
        print(f"| {section} | {c['pass']} | {c['fail']} | {c['error']} | {c['skip']} |")
    print(f"| all corpus cases | {totals['pass']} | {totals['fail']} | {totals['error']} | {totals['skip']} |")

    generated = [c for c in cases if c.get("generated")]
    verdicts = collections.Counter(c["verdict"] for c in generated)
    print(f"\nGenerated: {len(generated)} cases played or skipped: " +
          ", ".join(f"{verdicts[v]} {v}" for v in ("pass", "fail", "error", "skip")))
    kinds = collections.Counter()
    for c in generated:
        if c["verdict"] != "fail":
            continue
        m = c["mismatches"][0]
        obj, _, field = m["field"].partition(".")
        try:
            zone = c["expected"]["steps"][m["step"]]["objects"][obj]["zone"]
        except (KeyError, IndexError, TypeError):
            zone = "-"
        kinds[(field or m["field"], zone)] += 1
    print("\n| first field that differs | object in (reference) | failures |")
    print("|---|---|---:|")
    for (field, zone), n in kinds.most_common():
        print(f"| `{field}` | {zone} | {n} |")
    reasons = collections.Counter(
        re.sub(r"step \d+", "step N", c.get("reason", "")) for c in generated if c["verdict"] == "skip")
    print("\n| skip reason | cases |")
    print("|---|---:|")
    for r, n in reasons.most_common():
        print(f"| {r} | {n} |")


if __name__ == "__main__":
    main(sys.argv[1])
