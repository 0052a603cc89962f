"""The adapter's side of ptoracle's engine protocol (docs/protocol.md): the
handshake's reply (what the adapter maps, the features), and each case
refused or played. The loop itself is ci/adapters/ptoracle_adapter.py."""

from ptoracle_adapter import answer, distribution_version, hello_reply, reproducer, serve

from .game import run
from .refusals import refuse
from .repro_text import RUN

ENGINE_NAME = "phase.rs (phase-python)"

EDITIONS = ["2026-09-25"]
FEATURES = [
    "counters",
    "set",
    "modify",
    "switch",
    "timestamps",
    "damage",
    "deathtouch",
    "wither",
    "infect",
    "lifelink",
    "indestructible",
    "deferred-sba",
    "spells",
    "zones",
    "combat-damage",
    "static-abilities",
    "ability-changes",
    "type-changes",
    "color-changes",
    "keyword-counters",
    "cleanup",
    "locked-sets",
    "battles",
    "planeswalkers",
    "attachments",
    "vehicles",
    "sagas",
    "copy",
    "face-down",
    "inert-keywords",
    "mana",
    "costs",
    "quantities",
    "cda",
    "double",
    "triple",
    "double-counters",
    "level-up",
    "exchange",
    "counters-put-by",
    "combat",
    "summoning-sickness",
    "destroy",
    "regeneration",
    "undying",
    "persist",
    "prevention",
    "shield-counters",
    "cant-have-counters",
    "control-changes",
    "other-counters",
    "move-counters",
    "choose-pt",
    "counter-triggers",
]
# Observation fields phase.rs does not expose (704.8 last known
# information; how many distinct payments a cost has: the engine pays a
# cost, it does not count the ways to).
UNOBSERVED = ["lki", "payments"]


def hello(offer):
    """The handshake's reply (pipelining is not accepted: one case at a
    time); reproductions are Python programs against phase-python alone
    (`reproduce.py`), declared when offered."""
    return hello_reply({"name": ENGINE_NAME,
                        "version": distribution_version("phase-python"),
                        "issues": "https://github.com/phase-rs/phase/issues"},
                       FEATURES, EDITIONS, UNOBSERVED, offer=offer,
                       reproducer=reproducer("python", "py", RUN))


def play(case):
    """A case refused with the reason (`refusals.py`), or played (`game.py`)."""
    refuse(case)
    return run(case)


def reproduce(message):
    """The reproduction a `reproduce` request asks for (`reproduce.py`),
    once the case is one the adapter plays."""
    from .reproduce import reproduce as write
    refuse(message["case"])
    return write(message)


def respond(message):
    """The reply to one request."""
    return answer(message, hello, play, EDITIONS,
                  f"phase.rs implements today's rules, {EDITIONS[0]}", reproduce)


def main():
    """Serves ptoracle's requests on stdin and stdout until `bye`."""
    serve(respond)
