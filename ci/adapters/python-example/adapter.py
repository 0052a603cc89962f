#!/usr/bin/env python3
"""An example adapter: ptoracle's engine protocol (version 1) on stdin and
stdout, in front of `tiny_engine.py`. No dependencies beyond Python 3.8.

The protocol itself (the loop over requests, the handshake's reply, the
answer to a `run`) is `ptoracle_adapter.py`, which the Python adapters of
this repository share (ci/adapters/ptoracle_adapter.py). To wrap your
engine, copy this file and `ptoracle_adapter.py` into one directory (this
file looks beside itself first), keep `hello()`, `play()` and `main()`,
and replace `refuse()` and `tiny_engine.run()` with calls into your own
engine. The protocol is in docs/protocol.md, each message in short in
`ptoracle_adapter.py`. Write only protocol messages on stdout (the loop
does); anything else (logs, warnings) goes to stderr.
"""

import sys
from pathlib import Path

# ptoracle_adapter.py: beside this file when copied, else in ci/adapters/.
sys.path.append(str(Path(__file__).resolve().parent.parent))

import tiny_engine  # noqa: E402
from ptoracle_adapter import Unsupported, answer, hello_reply, serve  # noqa: E402

EDITIONS = ["2026-09-25"]

# What tiny_engine implements. The gate sends only the cases that need no
# other feature; refuse() below still refuses anything else, with a reason.
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


def hello(offer):
    """The handshake's reply. `main()` answers each request in turn, so any
    number of requests may wait in stdin: the pipelining ptoracle offers is
    accepted (only then)."""
    engine = {
        "name": "tiny-engine",
        "version": "1.0",
        "issues": "https://example.org/tiny-engine/issues",
    }
    return hello_reply(engine, FEATURES, EDITIONS, offer=offer, pipeline=64)


def refuse(case):
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


def play(case):
    """The observations of every step, and an error or None; `Unsupported`
    for a case the engine can't play."""
    refuse(case)
    return tiny_engine.run(case)


def main():
    serve(lambda message: answer(message, hello, play, EDITIONS,
                                 f"this engine implements {EDITIONS}"))


if __name__ == "__main__":
    main()
