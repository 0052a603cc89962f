"""Reproductions (docs/protocol.md, "Reproductions") of the cases python-mtg
fails: standalone Python programs against the `python-mtg` package alone.

The program is what the adapter did, recorded as it plays the case again:
the engine's first game with its cards taken out (as the adapter starts
every case), the facts the adapter writes (the setup, its spells), each
call into the engine's driver that changes the game (`_cast_spell`,
`driver.run` of the state-based actions and `_apply_outputs`,
`_end_of_turn`), up to the step where the engine differs from the rules;
then the fields that differ, read from the engine, beside the rules'
values. The driver's calls are private names of `mtg.driver`, the ones its
own game loop makes: python-mtg has no public action for a chosen state or
a chosen spell."""

import copy

from ptoracle_adapter import (REPORT, Unsupported, checks, checks_literal, first_sentence,
                              program_docstring)

RUN = "python3 FILE in a virtual environment with python-mtg installed"

PRELUDE = '''
import contextlib
import io
import os
import sys

# The engine's own switch: every set of facts is loaded whole, not as a
# difference from the one evaluated before (docs/engines/python-mtg.md).
os.environ["MTG_NO_DELTA"] = "1"
with contextlib.redirect_stdout(io.StringIO()):
    import mtg
    from mtg import driver


def quiet(fn, *args):
    """A call into the engine, its chatter on stdout left out."""
    with contextlib.redirect_stdout(io.StringIO()):
        return fn(*args)


# The position every case starts from: the engine's first game, its cards
# taken out.
with contextlib.redirect_stdout(io.StringIO()):
    base = mtg.Game(seed=0).state
for rel in CARD_RELATIONS:
    base[rel] = set()
base.pop("_policy", None)
s = driver.clone_state(base)
'''

OBSERVE = '''

def observe(s, h):
    """The fields of object `h` as ptoracle's observations name them."""
    out = quiet(driver.run, s, ["power", "eff_toughness", "creature", "printed_type",
                                "printed_color", "has_keyword"])
    zones = [("on_battlefield", "battlefield"), ("graveyard", "graveyard"), ("exile", "exile"),
             ("in_hand", "hand"), ("in_library", "library")]
    zone = next((z for rel, z in zones if any(r[-1] == h for r in s.get(rel, ()))), None)
    types = sorted(t.capitalize() for (c, t) in out["printed_type"] if c == h)
    values = lambda rel: sorted({int(n) for (c, n) in out[rel] if c == h})  # noqa: E731
    power, tough = values("power"), values("eff_toughness")
    creature = (h,) in out["creature"] or "Creature" in types
    # Two values are the engine's answer too: shown as they are.
    power = (power[0] if len(power) == 1 else power or None) if creature else None
    tough = (tough[0] if len(tough) == 1 else tough or None) if creature else None
    counters = {"p1p1": "+1/+1", "m1m1": "-1/-1"}
    return {
        "zone": zone, "types": types, "power": power, "toughness": tough,
        "colors": sorted(c for (o, c) in out["printed_color"] if o == h),
        "total": power + tough if isinstance(power, int) and isinstance(tough, int) else None,
        "combat_damage": max(0, power) if isinstance(power, int) else None,
        "counters": {counters.get(k, k): n
                     for (c, k, n) in sorted(s.get("counter", ())) if c == h and n},
        "damage": sum(n for (c, n) in s.get("marked", ()) if c == h),
        "keywords": sorted(k.replace("_", " ") for (c, k) in out["has_keyword"] if c == h),
        "tapped": (h,) in s.get("tapped", ()),
        "regeneration_shields": 1 if (h,) in s.get("_regen_shield", ()) else 0,
    }


def observe_player(s, seat):
    """The fields of the player in `seat`."""
    return {"life": dict(s["life"]).get(seat, 0), "poison": dict(s.get("poison", ())).get(seat, 0),
            "mana": {}, "lost": s.get("_loser") == seat}
'''


def literal(value):
    """A fact's value as Python source: sets and dicts in sorted order."""
    if isinstance(value, set):
        return "{" + ", ".join(sorted(map(repr, value))) + "}" if value else "set()"
    return repr(value)


def plain(value):
    """Whether a value is data a program can write (not the engine's random
    generator, `_rng`, which the same calls advance the same way)."""
    if isinstance(value, (set, list, tuple)):
        return all(plain(v) for v in value)
    if isinstance(value, dict):
        return all(plain(k) and plain(v) for k, v in value.items())
    return value is None or isinstance(value, (str, int, float, bool))


def edits(before, after):
    """The statements that make the state `before` into `after`."""
    out = []
    for rel in sorted(set(before) | set(after)):
        old, new = before.get(rel), after.get(rel)
        if not plain(new) or not plain(old):
            continue
        if rel not in after:
            out.append(f"s.pop({rel!r})")
        elif isinstance(old, set) and isinstance(new, set):
            out += [f"s[{rel!r}].add({f!r})" for f in sorted(new - old, key=repr)]
            out += [f"s[{rel!r}].discard({f!r})" for f in sorted(old - new, key=repr)]
        elif old != new or rel not in before:
            out.append(f"s[{rel!r}] = {literal(new)}")
    return out


def reason():
    """The adapter's function that is calling into the engine, and the first
    line of its docstring."""
    import inspect
    for frame in inspect.stack()[2:]:
        if frame.filename.endswith("adapter.py") and frame.function != "quietly":
            obj = frame.frame.f_locals.get("self")
            doc = first_sentence(getattr(getattr(type(obj), frame.function, None), "__doc__",
                                         None))
            return f"{frame.function}(): {doc}" if doc else f"{frame.function}()"
    return "the adapter"


class Recorder:
    """The engine behind the adapter's `Game`, its changes written into the
    program."""

    def __init__(self, real):
        self.real = real
        self.driver, self.bridge, self.base = real.driver, real.bridge, real.base
        self.state = None
        self.seen = real.driver.clone_state(real.base)
        self.lines = []
        self.out = None  # the last outputs of the state-based actions

    def flush(self, why):
        changes = edits(self.seen, self.state)
        if changes:
            self.lines += [f"# Facts written ({why})"] + changes
        self.seen = copy.deepcopy(self.state)

    def run(self, state, outputs):
        result = self.real.run(state, outputs)
        if state is self.state and outputs is self.driver.OUTPUTS:
            self.flush(reason())
            self.lines.append("out = quiet(driver.run, s, driver.OUTPUTS)  # state-based actions")
            self.out = result
        return result

    def quietly(self, fn, *args):
        mutators = {self.driver._cast_spell, self.driver._apply_outputs,
                    self.driver._end_of_turn}
        if fn not in mutators or not args or args[0] is not self.state:
            return self.real.quietly(fn, *args)
        self.flush(reason())
        shown = ["s"] + ["out" if a is self.out else repr(a) for a in args[1:]]
        self.lines.append(f"quiet(driver.{fn.__name__}, {', '.join(shown)})")
        result = self.real.quietly(fn, *args)
        self.seen = copy.deepcopy(self.state)
        return result


def reproduce(message, adapter):
    """The program that reproduces the failure `message` describes; `adapter`
    is the adapter's module (its `Game`, its engine)."""
    rows, last = checks(message)
    case = message["case"]
    rec = Recorder(adapter.engine())
    adapter.ENGINE = rec
    try:
        game = adapter.Game(case)
        rec.state = game.s
        rec.flush("the case's setup, as the engine's own game setup writes a card's: python-mtg "
                  "has no action that puts a chosen card, with its counters and damage, in a zone")
        for k, step in enumerate(case["steps"][:last + 1]):
            rec.lines += ["", f"# Step {k + 1}: {adapter.json.dumps(step['do'])}"]
            if game.s.get("_loser"):
                raise Unsupported(f"step {k + 1}: a player has lost the game")
            game.play(step, f"step {k + 1}")
        rec.flush("the adapter's accounting after the step")
    finally:
        adapter.ENGINE = rec.real
    reads = [f"seen = {{}}  # the engine's values, after step {last + 1}"]
    for step, who, field, _, _ in rows:
        at = f"observe(s, {who!r})" if who in game.handles else \
            f"observe_player(s, {game.seat[who]!r})"
        reads.append(f"seen[({step}, {who!r}, {field!r})] = {at}[{field!r}]")
    return "\n".join([
        "#!/usr/bin/env python3",
        program_docstring(message, "python-mtg", RUN),
        "",
        "CARD_RELATIONS = " + repr(adapter.CARD_RELATIONS),
        checks_literal(message),
        PRELUDE.rstrip(),
        OBSERVE.rstrip(),
        REPORT.rstrip(),
        "",
        "",
        "\n".join(rec.lines).strip("\n"),
        "",
        "\n".join(reads),
        "sys.exit(report(seen))",
        "",
    ])
