#!/usr/bin/env python3
"""The findings part of docs/engines/ENGINE.md, each finding a ready-to-file
issue, grouped by severity (ordinary-game bugs first), from the register.

Usage: writeups.py CR.txt [ENGINE...]

CR.txt is the archived Comprehensive Rules text the quotes come from
(archive/txt/2025-11-14.txt of the public repository xremming/rulesraker).
For each engine (default: all three; manabrew's programs are run from
the adapter's target directory, $PTORACLE_MANABREW_BIN's, built by
.ci/reproductions.py) it replaces what lies
between the markers `<!-- findings: begin -->` and `<!-- findings: end -->`
of its write-up with: per finding, its title, versions, severity and why,
the real cards that reach it, the rules it breaks quoted, expected against
actual (the committed reproduction's own output, run with the default
pinned version), and the reproduction itself. Run by hand after the
register changes; the reproductions it shows are the committed ones.
"""

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / ".ci"))
import importlib.util  # noqa: E402

spec = importlib.util.spec_from_file_location("reproductions", ROOT / ".ci/reproductions.py")
reproductions = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reproductions)

DOCS = {"phase.rs": "docs/engines/phase.md", "python-mtg": "docs/engines/python-mtg.md",
        "manabrew-engine": "docs/engines/manabrew.md"}
ORDER = ["changes the outcome of ordinary games", "rare interaction", "state nothing reads"]
HEADINGS = {ORDER[0]: "Bugs that change the outcome of ordinary games",
            ORDER[1]: "Rare interactions", ORDER[2]: "State nothing reads"}
BEGIN, END = "<!-- findings: begin -->", "<!-- findings: end -->"


def rules_text(path):
    """Rule number -> its text, from an archived CR text."""
    rules = {}
    for line in pathlib.Path(path).read_text(encoding="utf-8", errors="replace").splitlines():
        m = re.match(r"^(\d{3}\.\d+[a-z]?)\.? (.+)$", line)
        if m:
            rules.setdefault(m.group(1), m.group(2).strip())
    return rules


def entries():
    text = (ROOT / "ci/findings.yaml").read_text()
    out = []
    for chunk in text.split("\n  - engine: ")[1:]:
        e = {"engine": chunk.split("\n")[0].strip()}
        for line in chunk.split("\n")[1:]:
            m = re.match(r"^ {4,6}(\w+): (.*)$", line.replace('\\"', '"'))
            if m:
                e[m.group(1)] = m.group(2).strip().strip('"')
        e["rules"] = re.findall(r'"([\d.a-z]+)"', e.get("rules", ""))
        out.append(e)
    return out


def issue(e, rules, n):
    engine = reproductions.ENGINES[e["engine"]]
    version, python = list(engine["versions"].items())[-1]
    if python == "rust":
        command = [str(reproductions.rust_target(engine) / "release"
                       / pathlib.Path(e["reproduction"]).stem)]
        language, needs = "rust", "Rust, needs only manabrew-engine and serde_json: a bin of " \
            "<code>ci/adapters/manabrew/repro</code>"
    else:
        command = [str(ROOT / python), str(ROOT / e["reproduction"])]
        language, needs = "python", "Python, needs only the engine installed"
    ran = subprocess.run(command, cwd="/", capture_output=True, text=True)
    program = (ROOT / e["reproduction"]).read_text()
    quotes = [f"> **{r}** {rules[r]}" for r in e["rules"] if r in rules]
    examples = e.get("examples", "[]").strip("[]")
    lines = [
        f"### {n}. {e['title']}",
        "",
        f"- **Versions**: {e['reproduced']} (phase-python wheels; `{e['reproduction']}` run "
        "standalone by CI against each)" if e["engine"] == "phase.rs" else
        f"- **Versions**: {e['reproduced']} (`{e['reproduction']}` run standalone by CI)",
        f"- **Severity**: {e['severity']}. {e['severity_reason']}",
        f"- **Real cards**: {e.get('count', '0')} {e.get('query', '')}"
        + (f", e.g. {examples}" if examples else "") + " (`.ci/finding-cards.py`).",
        f"- **Minimal ruling**: `{e['ruling']}`",
        "",
        "**Rules** (Comprehensive Rules, 2025-11-14):",
        "",
        "\n>\n".join(quotes) if quotes else "(see the ruling)",
        "",
        f"**Expected vs actual** (the reproduction's output with {version}):",
        "",
        "```text",
        ran.stdout.strip(),
        "```",
        "",
        f"<details><summary>Reproduction ({needs}; "
        f"<code>{e['reproduction']}</code>)</summary>",
        "",
        f"```{language}",
        program.rstrip(),
        "```",
        "",
        "</details>",
        "",
    ]
    return lines


def render(engine, rules):
    mine = [e for e in entries() if e["engine"] == engine]
    lines = [BEGIN, "", f"{len(mine)} findings, by what they change in games. Each is written "
             "to be filed upstream as it is; `ci/findings.yaml` holds the register "
             "(`.ci/writeups.py` writes this part from it).", ""]
    n = 0
    for severity in ORDER:
        group = [e for e in mine if e["severity"] == severity]
        if not group:
            continue
        lines += [f"## {HEADINGS[severity]} ({len(group)})", ""]
        for e in group:
            n += 1
            lines += issue(e, rules, n)
    return "\n".join(lines + [END])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rules = rules_text(sys.argv[1])
    for engine in sys.argv[2:] or list(DOCS):
        doc = ROOT / DOCS[engine]
        text = doc.read_text()
        block = render(engine, rules)
        if BEGIN in text:
            head, rest = text.split(BEGIN, 1)
            text = head + block + rest.split(END, 1)[1]
        else:
            raise SystemExit(f"{doc}: no {BEGIN} marker")
        doc.write_text(text)
        print(f"{doc.relative_to(ROOT)}: {block.count('### ')} findings")


if __name__ == "__main__":
    main()
