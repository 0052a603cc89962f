#!/usr/bin/env python3
"""An example adapter: ptoracle's engine protocol (version 1) on stdin and
stdout, in front of `tiny_engine.py`. No dependencies beyond Python 3.8.

Copy this file, keep `serve()` and `hello()`, and replace `check()` and
`tiny_engine.run()` with calls into your own engine. The protocol is in
docs/protocol.md; in short:

  ptoracle -> {"type":"hello","protocol":1,"ptoracle":"0.1.0"}
  adapter  <- {"type":"hello","protocol":1,"engine":{...},"features":[...],"editions":[...]}
  ptoracle -> {"type":"run","seq":7,"edition":"2026-09-25","case":{...}}
  adapter  <- {"type":"result","seq":7,"steps":[observation, ...]}
           or {"type":"unsupported","seq":7,"reason":"..."}
           or {"type":"error","seq":7,"message":"..."}
  ptoracle -> {"type":"bye"}

Write only protocol messages on stdout, one per line, and flush each;
anything else (logs, warnings) goes to stderr.
"""

import json
import sys
import traceback

import tiny_engine

PROTOCOL = 1
EDITIONS = ["2026-09-25"]

# What tiny_engine implements. The gate sends only the cases that need no
# other feature; check() below still refuses anything else, with a reason.
FEATURES = [
    "counters",
    "set",
    "modify",
    "switch",
    "damage",
    "deathtouch",
    "indestructible",
    "cleanup",
    "deferred-sba",
]

# Keywords that change what damage does or whether a creature dies: the
# engine knows these two; any other that matters is a feature it lacks.
KNOWN_KEYWORDS = {"deathtouch", "indestructible"}
RULES_KEYWORDS = {"wither", "infect", "lifelink", "undying", "persist"}


class Unsupported(Exception):
    """The case uses something this engine does not implement."""


def hello(offer):
    reply = {
        "type": "hello",
        "protocol": PROTOCOL,
        "engine": {
            "name": "tiny-engine",
            "version": "1.0",
            "issues": "https://example.org/tiny-engine/issues",
        },
        "features": FEATURES,
        "editions": EDITIONS,
    }
    # serve() answers each request in turn, so any number of requests may
    # wait in stdin: accept the pipelining ptoracle offers (only then).
    if "pipeline" in offer:
        reply["pipeline"] = 64
    return reply


def check(case):
    """Raises Unsupported, naming the first thing the engine can't do."""
    setup = case.get("setup", {})
    for p in setup.get("players", []):
        if p.get("poison") or p.get("mana"):
            raise Unsupported(f"player {p['id']}: poison counters and mana pools")
    for o in setup.get("objects", []):
        where = f"setup object {o['id']}"
        if o.get("zone", "battlefield") != "battlefield":
            raise Unsupported(f"{where}: objects outside the battlefield")
        if "*" in o.get("pt", "") or "cda" in o:
            raise Unsupported(f"{where}: characteristic-defining abilities")
        for key in ("abilities", "level_up", "crew", "attached_to", "max_counters",
                    "loyalty", "timestamp", "regeneration_shields"):
            if o.get(key):
                raise Unsupported(f"{where}: `{key}`")
        for kind in o.get("counters", {}):
            if tiny_engine.counter_pt(kind) is None:
                raise Unsupported(f"{where}: {kind} counters")
        for k in o.get("keywords", []):
            if k in RULES_KEYWORDS:
                raise Unsupported(f"{where}: the keyword {k}")
    for i, step in enumerate(case.get("steps", [])):
        action = step["do"]
        where = f"step {i + 1}"
        if action in ("cleanup", "state_based_actions"):
            continue
        (name, body), = action.items()
        if name in ("put_counters", "remove_counters"):
            if tiny_engine.counter_pt(body["kind"]) is None:
                raise Unsupported(f"{where}: {body['kind']} counters")
        elif name == "effect":
            if not isinstance(body.get("affects"), list):
                raise Unsupported(f"{where}: effects whose affected set is a filter")
            extra = set(body) - {"name", "source", "affects", "until", "x", "set", "modify", "switch"}
            if extra:
                raise Unsupported(f"{where}: effect parts {sorted(extra)}")
            if body.get("until") not in ("end-of-turn", "forever"):
                raise Unsupported(f"{where}: the duration {body.get('until')}")
            if not isinstance(body.get("x", 0), int):
                raise Unsupported(f"{where}: an X read from the game")
        elif name == "damage":
            if not isinstance(body["amount"], int):
                raise Unsupported(f"{where}: a damage amount read from the game")
        else:
            raise Unsupported(f"{where}: the step `{name}`")


def answer(message):
    kind = message.get("type")
    seq = message.get("seq")
    if kind == "hello":
        return hello(message)
    if kind != "run":
        return {"type": "error", "seq": seq, "message": f"unknown message type {kind!r}"}
    if message.get("edition") not in EDITIONS:
        return {"type": "unsupported", "seq": seq,
                "reason": f"edition {message.get('edition')} (this engine implements {EDITIONS})"}
    case = message["case"]
    try:
        check(case)
    except Unsupported as e:
        return {"type": "unsupported", "seq": seq, "reason": str(e)}
    steps, error = tiny_engine.run(case)
    reply = {"type": "result", "seq": seq, "steps": steps}
    if error is not None:
        reply["error"] = error
    return reply


def serve(stdin, stdout):
    for line in stdin:
        if not line.strip():
            continue
        seq = None
        try:
            message = json.loads(line)
            seq = message.get("seq")
            if message.get("type") == "bye":
                return
            reply = answer(message)
        except Exception as e:  # The engine failed: say so, stay up.
            traceback.print_exc(file=sys.stderr)
            reply = {"type": "error", "seq": seq, "message": f"{type(e).__name__}: {e}"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
