"""ptoracle's engine protocol, version 1 (docs/protocol.md), for an adapter
written in Python: the loop that reads requests on stdin and writes one
reply per request on stdout, the handshake's reply, and the answer to a
`run`. Python 3.8 or later, no packages.

The Python adapters of ci/adapters/ (python-example, phase, python-mtg)
import it from here; an adapter kept elsewhere copies this file beside its
own (the adapters look beside themselves first). What an adapter writes
itself is what its engine does:

  hello(offer)  the handshake's reply, from `hello_reply(...)`
  play(case)    the observations of every step and an error or None, raising
                `Unsupported` with a precise reason for what it can't map

and it serves them with

  serve(lambda message: answer(message, hello, play, EDITIONS, "..."))

An adapter that writes reproductions (docs/protocol.md, "Reproductions")
declares `reproducer(...)` in `hello_reply(..., reproducer=...)` and passes
`reproduce(message)`, which returns the program's text, to `answer(...,
reproduce=...)`; `checks`, `program_docstring`, `checks_literal` and
`REPORT` (at the end) are the parts every Python program shares.

In short, the protocol:

  ptoracle -> {"type":"hello","protocol":1,"ptoracle":"0.1.0"}
  adapter  <- {"type":"hello","protocol":1,"engine":{...},"features":[...],"editions":[...]}
  ptoracle -> {"type":"run","seq":7,"edition":"2026-09-25","case":{...}}
  adapter  <- {"type":"result","seq":7,"steps":[observation, ...]}
           or {"type":"unsupported","seq":7,"reason":"..."}
           or {"type":"error","seq":7,"message":"..."}
  ptoracle -> {"type":"reproduce","seq":8,"edition":"...","case":{...},
              "reference":[observation, ...],"differences":[{...}, ...]}
  adapter  <- {"type":"reproduction","seq":8,"program":"#!/usr/bin/env python3 ..."}
  ptoracle -> {"type":"bye"}

Only protocol messages go to stdout, one per line, each flushed; anything
else (logs, tracebacks) goes to stderr.
"""

import json
import sys
import traceback

try:
    from importlib.metadata import version as _dist_version
except ImportError:  # pragma: no cover - Python 3.7
    _dist_version = None

PROTOCOL = 1


class Unsupported(Exception):
    """The engine cannot play this case: an `unsupported` reply, counted as
    a skip. The message says precisely what, never a guess."""


def distribution_version(name):
    """The installed version of the Python distribution `name` (the engine's
    package), or `unknown` when its metadata is missing."""
    try:
        return _dist_version(name) if _dist_version else "unknown"
    except Exception:  # noqa: BLE001 - metadata missing: say so
        return "unknown"


def reproducer(language, extension, run=None):
    """What the handshake says of the reproductions an adapter writes: the
    language (a Markdown code block's name), the file extension, and how a
    program is run (for the person who reads it)."""
    r = {"language": language, "extension": extension}
    if run is not None:
        r["run"] = run
    return r


def hello_reply(engine, features, editions, unobserved=None, offer=None, pipeline=None,
                reproducer=None):
    """The handshake's reply. `engine`: name, version and (optional) issues
    of the engine; `unobserved`: the observation fields it cannot report;
    `pipeline`: how many requests may wait in stdin, and `reproducer` (see
    `reproducer()`), declared only when ptoracle's hello (`offer`) offered
    pipelining or reproductions (an older ptoracle refuses a field it does
    not know)."""
    reply = {
        "type": "hello",
        "protocol": PROTOCOL,
        "engine": engine,
        "features": features,
        "editions": editions,
    }
    if unobserved is not None:
        reply["unobserved"] = unobserved
    if pipeline is not None and "pipeline" in (offer or {}):
        reply["pipeline"] = pipeline
    if reproducer is not None and (offer or {}).get("reproduce") is True:
        reply["reproduce"] = reproducer
    return reply


def answer(message, hello, play, editions, implements, reproduce=None):
    """The reply to a message other than `bye`: `hello(message)` to the
    handshake; to a `run` in one of `editions`, the result of `play(case)`
    (`(steps, error)`) or the reason it raised `Unsupported`; a `run` in
    another edition is unsupported, `implements` saying what the engine
    implements instead. A `reproduce` (only for an adapter that passes
    `reproduce`) is answered with the program `reproduce(message)` writes."""
    kind = message.get("type")
    seq = message.get("seq")
    if kind == "hello":
        return hello(message)
    if kind not in ("run", "reproduce") or kind == "reproduce" and reproduce is None:
        return {"type": "error", "seq": seq, "message": f"unknown message type {kind!r}"}
    if message.get("edition") not in editions:
        return {"type": "unsupported", "seq": seq,
                "reason": f"edition {message.get('edition')} ({implements})"}
    if kind == "reproduce":
        try:
            return {"type": "reproduction", "seq": seq, "program": reproduce(message)}
        except Unsupported as e:
            return {"type": "unsupported", "seq": seq, "reason": str(e)}
    try:
        steps, error = play(message["case"])
    except Unsupported as e:
        return {"type": "unsupported", "seq": seq, "reason": str(e)}
    reply = {"type": "result", "seq": seq, "steps": steps}
    if error is not None:
        reply["error"] = error
    return reply


def serve(respond, stdin=None, stdout=None):
    """Answers each request line of `stdin` with `respond(message)` on
    `stdout`, one request at a time, until `bye` or the end of stdin. An
    exception is the case's `error` reply (its traceback on stderr), and
    the adapter stays up for the next case."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    for line in stdin:
        if not line.strip():
            continue
        seq = None
        try:
            message = json.loads(line)
            seq = message.get("seq")
            if message.get("type") == "bye":
                return
            reply = respond(message)
        except Exception as e:  # noqa: BLE001 - the engine failed: say so, stay up
            traceback.print_exc(file=sys.stderr)
            reply = {"type": "error", "seq": seq, "message": f"{type(e).__name__}: {e}"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


# ---- reproductions ---------------------------------------------------------
#
# A reproduction is a standalone program: it imports the engine and nothing
# of ptoracle's. What every Python one shares is written here once: its
# docstring, its table of fields (`checks_literal`), and the comparison at
# its end (`REPORT`), which reads the engine's values from a dict `seen`.


def checks(message):
    """The fields a reproduction compares, from a `reproduce` request: a
    list of (step from 1, object or player, field, the reference's value,
    the engine's value as the gate saw it), and the step they are observed
    after (from 0; the program plays no step past it)."""
    out = [(d["step"] + 1, d["of"], d["field"], d["reference"], d["engine"])
           for d in message["differences"]]
    if not out:
        raise Unsupported("the request names no field that differs")
    return out, max(d["step"] for d in message["differences"])


def wrap(text, width=76):
    """`text` in lines of at most `width`, its paragraphs kept."""
    lines = []
    for paragraph in (text or "").strip().split("\n\n"):
        line = ""
        for word in paragraph.split():
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = ""
            line = f"{line} {word}" if line else word
        lines += [line, ""] if line else []
    return lines


def program_docstring(message, engine, run):
    """The docstring of a reproduction of `message`'s case in `engine`: what
    the case is (its title, description and rules), how to run the program,
    and what its exit status means."""
    case = message["case"]
    rules = ", ".join(case.get("rules", []))
    text = wrap(f"{engine}: {case.get('title', case.get('id', ''))}") + wrap(
        case.get("description")) + wrap(
        f"Comprehensive Rules {rules}; ptoracle case {case.get('id', '')}, edition "
        f"{message.get('edition')}.") + wrap(f"Run: {run}") + wrap(
        "It prints the engine's value of each field beside the rules' (ptoracle's "
        "reference resolver), and exits 1 while one differs, 0 once they all agree. "
        "Written by ptoracle's adapter for the engine (`ptoracle gate --reproduce`); "
        "it needs only the engine installed.")
    body = "\n".join(text).strip().replace("\\", "\\\\").replace('"""', "'''")
    return f'"""{body}\n"""'


def first_sentence(doc):
    """The first sentence of a docstring, on one line: why an adapter's
    function writes what a reproduction shows."""
    text = " ".join((doc or "").strip().split("\n\n")[0].split())
    return text.split(". ")[0].rstrip(".")


def checks_literal(message):
    """`CHECKS`, the program's table of the fields it compares, as Python."""
    rows, _ = checks(message)
    lines = ["CHECKS = [  # (after step, object or player, field, the rules' value)"]
    lines += [f"    ({step}, {who!r}, {field!r}, {want!r})," for step, who, field, want, _ in rows]
    return "\n".join(lines + ["]"])


# The end of every Python reproduction: `seen[(step, who, field)]` holds
# the engine's values, and `sys` is imported.
REPORT = '''

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
'''
