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

In short, the protocol:

  ptoracle -> {"type":"hello","protocol":1,"ptoracle":"0.1.0"}
  adapter  <- {"type":"hello","protocol":1,"engine":{...},"features":[...],"editions":[...]}
  ptoracle -> {"type":"run","seq":7,"edition":"2026-09-25","case":{...}}
  adapter  <- {"type":"result","seq":7,"steps":[observation, ...]}
           or {"type":"unsupported","seq":7,"reason":"..."}
           or {"type":"error","seq":7,"message":"..."}
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


def hello_reply(engine, features, editions, unobserved=None, offer=None, pipeline=None):
    """The handshake's reply. `engine`: name, version and (optional) issues
    of the engine; `unobserved`: the observation fields it cannot report;
    `pipeline`: how many requests may wait in stdin, declared only when
    ptoracle's hello (`offer`) offered pipelining (an older ptoracle refuses
    a field it does not know)."""
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
    return reply


def answer(message, hello, play, editions, implements):
    """The reply to a message other than `bye`: `hello(message)` to the
    handshake; to a `run` in one of `editions`, the result of `play(case)`
    (`(steps, error)`) or the reason it raised `Unsupported`; a `run` in
    another edition is unsupported, `implements` saying what the engine
    implements instead."""
    kind = message.get("type")
    seq = message.get("seq")
    if kind == "hello":
        return hello(message)
    if kind != "run":
        return {"type": "error", "seq": seq, "message": f"unknown message type {kind!r}"}
    if message.get("edition") not in editions:
        return {"type": "unsupported", "seq": seq,
                "reason": f"edition {message.get('edition')} ({implements})"}
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
