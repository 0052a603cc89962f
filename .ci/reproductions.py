#!/usr/bin/env python3
"""Every registered finding's reproduction, run standalone against every
pinned version of its engine; the register's `reproduced:` follows from it.

Usage: reproductions.py PTORACLE [--write]

A finding's reproduction (ci/findings.yaml, `reproduction:`) is the program
its adapter writes for its ruling (`ptoracle gate --reproduce`,
docs/protocol.md "Reproductions"), committed as the adapter writes it. This
script

1. writes them all again from the rulings, into a scratch directory, and
   fails when a committed one differs (so they stay what the generator
   writes: regenerate with --write after changing an adapter or a ruling);
2. runs each committed program in a scratch directory with the Python of
   each pinned version's virtual environment (nothing else on its path: no
   ptoracle, no adapter), and reads its verdict: exit 1 with "the bug is
   still there", or exit 0 with "fixed"; anything else (a crash, another
   status) is a problem;
3. compares `still failing in V1, V2; fixed in V3` with the register's
   `reproduced:` of the finding, and fails on a difference (--write writes
   it instead).

Exit status 0 when all agree, 1 otherwise. The pinned versions are ENGINES
below (phase.rs: ci/adapters/phase/setup.sh VERSION makes each venv).
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parent.parent
REGISTER = ROOT / "ci/findings.yaml"
# The pinned versions of one program run side by side (the machine has 2 cores).
POOL = ThreadPoolExecutor(max_workers=int(os.environ.get("PTORACLE_REPRO_JOBS", "2")))

# engine name in the register -> how its adapter runs, its findings, its
# reproductions, and each pinned version's Python.
ENGINES = {
    "phase.rs": {
        "adapter": "ci/adapters/phase/.venv/bin/python ci/adapters/phase/adapter.py",
        "findings": "ci/adapters/phase/findings",
        "repro": "ci/adapters/phase/repro",
        "versions": {
            "0.77.0": "ci/adapters/phase/.venv-0.77.0/bin/python",
            "0.83.0": "ci/adapters/phase/.venv-0.83.0/bin/python",
            "0.103.0": "ci/adapters/phase/.venv/bin/python",
        },
        "setup": lambda version: ["ci/adapters/phase/setup.sh", version],
    },
    "python-mtg": {
        "adapter": "ci/adapters/python-mtg/.venv/bin/python ci/adapters/python-mtg/adapter.py",
        "findings": "ci/adapters/python-mtg/findings",
        "repro": "ci/adapters/python-mtg/repro",
        "versions": {"0.1.1": "ci/adapters/python-mtg/.venv/bin/python"},
        "setup": lambda version: ["ci/adapters/python-mtg/setup.sh"],
    },
    # Rust programs, the bins of one Cargo project, built into the adapter's
    # own target directory (the engine compiled once for both).
    "manabrew-engine": {
        "adapter": os.environ.get("PTORACLE_MANABREW_BIN", ""),
        "findings": "ci/adapters/manabrew/findings",
        "repro": "ci/adapters/manabrew/repro/src/bin",
        "versions": {"0.13.1": "rust"},
        "setup": None,
        "crate": "ci/adapters/manabrew/repro/Cargo.toml",
    },
}


def slug(text):
    """The gate's file name for a case id (gate/shrink.rs, `slug`)."""
    return re.sub(r"-+", "-", re.sub(r"[^a-z0-9]", "-", text.lower())).strip("-") or "engine"


def register():
    """The register's entries: engine, ruling, reproduction, reproduced, and
    the line of its `reproduced:`."""
    lines = REGISTER.read_text().split("\n")
    entries, entry = [], None
    for n, line in enumerate(lines):
        if line.startswith("  - engine: "):
            entry = {"engine": line.split(": ", 1)[1].strip()}
            entries.append(entry)
        elif entry is not None and line.startswith("    ") and ": " in line:
            key, value = line.strip().split(": ", 1)
            entry[key] = value.strip().strip('"')
            if key == "reproduced":
                entry["line"] = n
    return lines, entries


def case_id(ruling):
    for line in (ROOT / ruling).read_text().splitlines():
        if line.startswith("id: "):
            return line[4:].strip()
    raise SystemExit(f"{ruling}: no id")


def ask(command, messages):
    """The replies of a protocol engine to these messages (after the hello)."""
    lines = [json.dumps({"type": "hello", "protocol": 1, "ptoracle": "0.1.0", "reproduce": True})]
    lines += [json.dumps(m) for m in messages] + [json.dumps({"type": "bye"})]
    out = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True, text=True,
                         cwd=ROOT, timeout=600)
    return [json.loads(line) for line in out.stdout.splitlines()][1:]


def direct(ptoracle, spec, scenario):
    """A reproduction asked of the adapter itself, for a finding whose case
    the gate does not fail but errs on (no engine observation to compare):
    the fields are those the ruling expects at its last step, with the
    reference's values (`ptoracle serve`)."""
    case = {k: v for k, v in scenario.items()}
    case["steps"] = [{k: v for k, v in s.items() if k not in ("expect", "expect_error")}
                     for s in scenario["steps"]]
    run = {"type": "run", "seq": 1, "edition": "2026-09-25", "case": case}
    reference = ask([ptoracle, "serve"], [run])[0]["steps"]
    last = len(case["steps"]) - 1
    differences = []
    for who, want in (scenario["steps"][last].get("expect") or {}).items():
        seen = reference[last]["objects"].get(who) or reference[last]["players"].get(who)
        for key in want:
            fields = {"pt": ["power", "toughness"], "base_pt": ["base_power", "base_toughness"]}
            for field in fields.get(key, [key]):
                differences.append({"step": last, "of": who, "field": field,
                                    "reference": seen[field], "engine": None})
    request = {"type": "reproduce", "seq": 2, "edition": "2026-09-25", "case": case,
               "reference": reference, "differences": differences}
    reply = ask(spec["adapter"].split(), [request])[0]
    if reply.get("type") != "reproduction":
        raise SystemExit(f"{scenario['id']}: the adapter writes no reproduction: {reply}")
    return reply["program"]


def generate(ptoracle, spec, scratch):
    """Case id -> the program the adapter writes for it now."""
    out = scratch / "generated"
    report = scratch / "report.json"
    subprocess.run([ptoracle, "gate", "--engine", spec["adapter"], spec["findings"],
                    "--reproduce", "--out", str(out), "--json", str(report),
                    "--handshake-timeout", "120s", "--timeout", "60s"],
                   cwd=ROOT, capture_output=True, text=True)
    programs = {}
    for case in json.loads(report.read_text())["cases"]:
        if case.get("reproduction"):
            programs[case["id"]] = pathlib.Path(case["reproduction"]).read_text()
        elif case.get("verdict") == "error" and case.get("scenario"):
            programs[case["id"]] = direct(ptoracle, spec, case["scenario"])
    return programs


def rust_target(spec):
    """The manabrew adapter's target directory (its binary is
    TARGET/release/manabrew-adapter), where the reproductions are built."""
    return pathlib.Path(spec["adapter"]).resolve().parent.parent


def build(spec):
    """Builds a Rust engine's reproductions (one bin each), once."""
    env = dict(os.environ, CARGO_TARGET_DIR=str(rust_target(spec)))
    subprocess.run(["cargo", "build", "--release", "--locked", "--quiet", "--manifest-path",
                    spec["crate"]], cwd=ROOT, env=env, check=True)


def verdict(python, program, scratch, spec=None):
    """`still failing`, `fixed`, or a problem's description."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if python == "rust":
        command = [str(rust_target(spec) / "release" / pathlib.Path(program).stem)]
    else:
        command = [str(ROOT / python), str(ROOT / program)]
    try:
        ran = subprocess.run(command, cwd=scratch, env=env,
                             capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "a problem: it ran for more than 300 s"
    last = (ran.stdout.strip().splitlines() or [""])[-1]
    if ran.returncode == 1 and last == "the bug is still there":
        return "still failing"
    if ran.returncode == 0 and last.startswith("fixed"):
        return "fixed"
    return (f"a problem: exit {ran.returncode}, last line {last!r}; stderr: "
            f"{ran.stderr.strip()[-400:]}")


def summary(results):
    """`still failing in A, B; fixed in C` from version -> verdict, in order."""
    parts = []
    for state in ("still failing", "fixed"):
        versions = [v for v, r in results.items() if r == state]
        if versions:
            parts.append(f"{state} in {', '.join(versions)}")
    return "; ".join(parts)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    ptoracle, write = sys.argv[1], "--write" in sys.argv[2:]
    lines, entries = register()
    problems, started = [], time.time()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = pathlib.Path(tmp)
        for engine, spec in ENGINES.items():
            mine = [e for e in entries if e["engine"] == engine]
            if engine == "manabrew-engine" and not spec["adapter"]:
                problems.append("manabrew-engine: PTORACLE_MANABREW_BIN is not set "
                                "(bin=$(ci/adapters/manabrew/setup.sh))")
                continue
            for version, python in spec["versions"].items():
                if spec["setup"] and not (ROOT / python).exists():
                    subprocess.run(spec["setup"](version), cwd=ROOT, check=True,
                                   stdout=subprocess.DEVNULL)
            work = scratch / slug(engine)
            work.mkdir()
            programs = generate(ptoracle, spec, work)
            if "crate" in spec:
                if write:
                    for e in mine:
                        program = programs.get(case_id(e["ruling"]))
                        if program is not None and e.get("reproduction") not in (None, "null"):
                            (ROOT / e["reproduction"]).write_text(program)
                build(spec)
            for e in mine:
                path = e.get("reproduction")
                if not path or path == "null":
                    problems.append(f"{e['ruling']}: no reproduction")
                    continue
                program = programs.get(case_id(e["ruling"]))
                if program is None:
                    problems.append(f"{e['ruling']}: the adapter wrote no reproduction of it")
                    continue
                committed = ROOT / path
                if write:
                    committed.parent.mkdir(parents=True, exist_ok=True)
                    committed.write_text(program)
                elif not committed.exists() or committed.read_text() != program:
                    problems.append(f"{path}: not what the adapter writes now (regenerate: "
                                    f".ci/reproductions.py PTORACLE --write)")
                results = dict(zip(spec["versions"], POOL.map(
                    lambda p: verdict(p, path, work, spec), spec["versions"].values())))
                for v, r in results.items():
                    if r.startswith("a problem"):
                        problems.append(f"{path} on {engine} {v}: {r}")
                said = summary(results)
                print(f"{engine}: {path}: {said}")
                if write:
                    lines[e["line"]] = f'    reproduced: "{said}"'
                elif e.get("reproduced") != said:
                    problems.append(f"{e['ruling']}: the register says reproduced: "
                                    f"{e.get('reproduced')!r}; the programs say {said!r}")
    if write:
        REGISTER.write_text("\n".join(lines))
    for p in problems:
        print(p)
    print(f"reproductions: {sum(1 for e in entries if e['engine'] in ENGINES)} findings on "
          f"{sum(len(s['versions']) for s in ENGINES.values())} engine versions in "
          f"{time.time() - started:.0f}s; {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
