"""The adapter's vocabulary: how ptoracle's terms (counter kinds, keywords,
zones, colors, mana, numbers) are spelled in phase.rs, and the exceptions
that end a case. Needs no engine."""

import json
import re

from ptoracle_adapter import Unsupported  # noqa: F401 - the adapter's refusals raise it


# phase.rs stores P/T, counters and life as 32-bit integers.
LIMIT = 2**31 - 1

PT_COUNTER = re.compile(r"^([+-])(\d+)/([+-])(\d+)$")
COLORS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
COLOR_NAMES = {"White": "white", "Blue": "blue", "Black": "black", "Red": "red", "Green": "green"}
MANA_LETTERS = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G", "Colorless": "C"}
MANA_COLORS = {v: k for k, v in MANA_LETTERS.items()}
SPELL_TYPES = {"Instant", "Sorcery"}
# The zones a case may put an object in, by the engine's name.
ENGINE_ZONES = {
    "battlefield": "Battlefield",
    "graveyard": "Graveyard",
    "exile": "Exile",
    "hand": "Hand",
    "library": "Library",
}
ZONES = {
    "Battlefield": "battlefield",
    "Graveyard": "graveyard",
    "Exile": "exile",
    "Hand": "hand",
    "Library": "library",
    "Stack": "stack",
    "Command": "command",
}
# Keywords whose presence the adapter passes to the engine as Oracle text.
KEYWORDS = {
    "flying", "reach", "trample", "vigilance", "haste", "deathtouch", "lifelink",
    "wither", "infect", "indestructible", "first strike", "double strike", "menace",
    "defender", "hexproof", "shroud", "flash", "undying", "persist",
}
# Counters the engine knows by these names (CounterType::Defense, ...).
ENGINE_COUNTERS = {"defense", "loyalty", "lore"}
# Named counters the engine keeps by their name and gives no rules of its
# own (others it does: stun and time counters, 122.1d, 702.62a).
OTHER_COUNTERS = {"charge"}


class Invalid(Exception):
    """A step that is impossible in the engine's game."""


class NoFixpoint(Exception):
    """The engine's triggers keep coming back (a creature that dies and
    returns forever): stopped after as many rounds as the reference allows."""


def counter_name(kind):
    """The engine's name of a P/T counter kind, or None."""
    if kind == "+1/+1":
        return "P1P1"
    if kind == "-1/-1":
        return "M1M1"
    if kind == "level":
        return "level"  # level up (107.8, 711): the engine's level counters
    if PT_COUNTER.match(kind) or kind in KEYWORDS:
        return kind  # keyword counters by their name (122.1b): "first strike"
    if kind in ENGINE_COUNTERS:
        return kind
    if kind == "shield":
        return kind  # the engine's own shield counters (122.1c)
    if kind in OTHER_COUNTERS:
        return kind
    return None


def engine_keyword(k):
    """`first strike` -> `FirstStrike`, the engine's name of a keyword."""
    return "".join(w.capitalize() for w in k.split())


def fixed(value, where):
    """An amount that is a number; amounts read from the game are not mapped."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unsupported(f"{where}: an amount read from the game ({json.dumps(value)})")
    if abs(value) > LIMIT:
        raise Unsupported(f"{where}: {value} does not fit in phase.rs's 32-bit numbers")
    return value


def parse_pt(text, where, x=None, signed=False):
    """A P/T (`3/4`), or with `signed` a modification (`+1/-2`), as numbers;
    an X in it is `x`, which must be a number."""
    parts = text.split("/")
    out = []
    for part in parts:
        sign = 1
        body = part
        if signed:
            sign = -1 if part[0] == "-" else 1
            body = part[1:]
        if body == "X":
            if x is None:
                raise Unsupported(f"{where}: X without a value")
            if isinstance(x, dict):
                raise Unsupported(f"{where}: an X read from the game ({json.dumps(x)}) where the "
                                  "adapter writes a number")
            x = fixed(x, where)
            if signed and x < 0:
                # "+X" with a negative X is a rules question (107.1b) the
                # engine would answer with its own X; the adapter can't.
                raise Unsupported(f"{where}: +X with a negative X")
            value = x
        elif body.lstrip("-").isdigit():
            value = int(body)
        else:
            raise Unsupported(f"{where}: the value {text!r} (characteristic-defining or `*`)")
        out.append(fixed(sign * value, where))
    return out


def shaped(read, want):
    """Whether the parse `read` has every part of `want` (dicts by their
    keys, lists item by item)."""
    if isinstance(want, dict):
        return isinstance(read, dict) and all(shaped(read.get(k), v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(read, list) and len(read) == len(want) \
            and all(shaped(r, w) for r, w in zip(read, want))
    return read == want


def cost_mana(cost, where):
    """The mana that pays a mana cost of generic and colored symbols, for
    the engine's `AddMana` debug action; other symbols are refused."""
    out = []
    for sym in re.findall(r"\{([^}]*)\}", cost):
        if sym.isdigit():
            out += ["Colorless"] * int(sym)
        elif sym in MANA_COLORS:
            out.append(MANA_COLORS[sym])
        else:
            raise Unsupported(f"{where}: casting a spell with {{{sym}}} in its mana cost")
    return out


def mana_of(cost, where):
    """The mana that pays a mana cost, by the engine's names: `{3}{W/U}` ->
    three colorless and a white."""
    mana = []
    for symbol in re.findall(r"\{([^}]*)\}", cost or ""):
        if symbol.isdigit():
            mana += ["Colorless"] * int(symbol)
        elif symbol.split("/")[0] in "WUBRG" and len(symbol.split("/")[0]) == 1:
            mana.append({"W": "White", "U": "Blue", "B": "Black", "R": "Red",
                         "G": "Green"}[symbol.split("/")[0]])
        else:
            raise Unsupported(f"{where}: the mana symbol {{{symbol}}} in {cost}")
    return mana


def keyword_name(k):
    """`FirstStrike` -> `first strike`; parameterised keywords by their name."""
    if isinstance(k, dict):
        k = next(iter(k))
    return re.sub(r"(?<!^)(?=[A-Z])", " ", str(k)).lower()
