"""The only module that imports phase (phase-python): the engine's parser
(card faces from Oracle text), its engines and games, and what is kept
between cases. Everything the adapter does to the engine goes through the
objects `start` returns (`Engine.load_game`, the game's `apply`), so a
stand-in for this module sees every action a case takes."""

import json
from collections import OrderedDict

import phase

from .terms import Unsupported, keyword_name


_INERT = {}


def inert_keyword_text(k):
    """Oracle text for a keyword outside the adapter's list that phase.rs
    reads as that keyword and nothing else (no trigger, static or other
    ability of its own): `Banding`, or with a cost the case does not give and
    nothing observes, `Morph {0}`. None if there is none."""
    if k not in _INERT:
        _INERT[k] = None
        for text in (k.capitalize(), k.capitalize() + " {0}"):
            face = build_face({
                "name": "Ptoracle Keyword Probe", "manaCost": "", "colors": [],
                "colorIdentity": [], "type": "Creature", "types": ["Creature"], "subtypes": [],
                "supertypes": [], "text": text, "layout": "normal", "manaValue": 0,
                "identifiers": {}, "power": "1", "toughness": "1", "keywords": [k.title()]})
            names = [keyword_name(x) for x in face["keywords"]]
            # A keyword with a parameter is a one-key dict: a cost (a dict
            # whose type is Cost) or another value (Landwalk's land type, a
            # string), which is no cost.
            costed = all(isinstance(x, dict)
                         and isinstance(next(iter(x.values()), None), dict)
                         and next(iter(x.values())).get("type") == "Cost"
                         for x in face["keywords"])
            # Phasing acts in the untap step the adapter's cleanup walks through.
            if names == [k] and k != "phasing" and (text == k.capitalize() or costed) \
                    and not (face["abilities"] or face["triggers"]
                             or face["static_abilities"] or face["replacements"]):
                _INERT[k] = text
                break
    return _INERT[k]


# What is reused between cases.
#
# Building the engine and a game costs more than playing most cases, almost
# all of it in the binding's state round trips (Game.state, Engine.load_game),
# so the adapter keeps, between cases, what a case cannot change: the card
# faces built from their Oracle text, the engines (an Engine is only a card
# database: games are made from it, it is never modified), and the state of
# a new game once it is ready for the setup (debug mode on, both hands kept
# and put back in the libraries, the first player's main phase), from which
# every case's game is loaded afresh. The game itself is never shared.

FOREST = {"name": "Forest", "manaCost": "", "colors": [], "colorIdentity": [],
          "type": "Basic Land — Forest", "types": ["Land"], "subtypes": ["Forest"],
          "supertypes": ["Basic"], "text": "({T}: Add {G}.)", "layout": "normal",
          "manaValue": 0, "identifiers": {}}

# The Forests each library holds besides the case's cards. The state round
# trips cost what the state holds, so the decks are no larger than the game
# needs: the opening hands go back to the libraries (a case's hand holds only
# its own objects, its players' `hand` being refused), so a library is only
# drawn from by a player's draw step (504.1), which only a `begin_turn` walk
# reaches, once per walk at most; an empty library there would lose the game
# (704.5b), which `do_begin_turn` refuses before the walk. Eight is one more
# than the opening hand of seven, which is drawn before it goes back: that
# draw never empties a library either.
LIBRARY_FORESTS = 8


class Lru:
    """The `size` values last asked for, by key."""

    def __init__(self, size):
        self.size = size
        self.items = OrderedDict()

    def get(self, key, make):
        """The value of `key`, made by `make()` if it is not kept."""
        if key in self.items:
            self.items.move_to_end(key)
            return self.items[key]
        value = make()
        self.items[key] = value
        if len(self.items) > self.size:
            self.items.popitem(last=False)
        return value


FACES = Lru(4096)   # face spec (JSON) -> the face phase.rs built from it
ENGINES = Lru(64)   # the card database (JSON) -> Engine
STARTS = Lru(256)   # (card database, decks) -> a ready game's state and its cards


def build_face(spec):
    """The card face phase.rs's parser builds from a card (its Oracle text)."""
    return phase.build_oracle_face(spec, None)


def oracle_face(spec):
    """`build_face`, kept between cases (`FACES`)."""
    key = json.dumps(spec, sort_keys=True)
    return json.loads(FACES.get(key, lambda: json.dumps(build_face(spec))))


class Engine:
    """A phase.Engine that is given states as JSON text: the binding reads
    that faster than a Python dict."""

    def __init__(self, engine):
        self.engine = engine

    def load_game(self, state):
        try:
            return self.engine.load_game(state if isinstance(state, str) else json.dumps(state))
        except ValueError as e:
            if "deserialize" not in str(e):
                raise
            # The engine checks its own records (its journal of zone
            # changes, of rules applied) against the state it is given: a
            # state the adapter edited that fails them can't be put in place.
            raise Unsupported(f"phase.rs does not load the state the adapter wrote ({e})") from e


def new_game(engine, decks):
    """A new game of `engine` (an `Engine`) with these decks, ready for the
    setup: debug mode on, both hands kept and put back in the libraries,
    the first player's main phase."""
    g = engine.engine.new_game(player=decks[0], opponent=decks[1], seed=1, first_player=0)
    state = g.state()
    state["state"]["debug_mode"] = True
    g = engine.load_game(state)
    while g.waiting_for()["type"] == "MulliganDecision":
        who = g.waiting_for()["data"]["pending"][0]["player"]
        g.apply(who, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
    g.apply(0, debug("SetPhase", {"phase": "PreCombatMain", "active_player": 0}))
    # Cards in hand that are not the case's would count for the hand size
    # of the cleanup's discard (514.1): none is left there.
    for k, v in g.state()["state"]["objects"].items():
        if v["zone"] == "Hand":
            g.apply(0, debug("MoveToZone", {"object_id": int(k), "to_zone": "Library",
                                            "simulate": False}))
    return g


def cards_of(state):
    """The cards of a game's state: (id, name, owner), by id."""
    return sorted((int(k), v["name"], v["owner"]) for k, v in state["state"]["objects"].items())


def start(faces, decks):
    """An engine for these faces and the state of a new game with these
    decks, ready for the setup, with its cards (id, name, owner)."""
    database = json.dumps(faces, sort_keys=True)
    engine = ENGINES.get(database, lambda: Engine(phase.Engine.from_json(database)))

    def make():
        state = new_game(engine, decks).state()
        return json.dumps(state), cards_of(state)

    saved, cards = STARTS.get((database, tuple(map(tuple, decks))), make)
    return engine, engine.load_game(saved), cards


def debug(kind, data=None):
    """The engine's debug action `kind` (its only way to put a known state in
    place: zone changes, counters, mana, the phase, tapped status)."""
    inner = {"type": kind, "data": data} if data is not None else {"type": kind}
    return {"type": "Debug", "data": inner}
