"""Reproductions (docs/protocol.md, "Reproductions"): a case the engine
failed, written as a standalone Python program against phase-python alone.

The program is what the adapter did, recorded as it plays the case again:
the card faces it had phase.rs's parser build (their Oracle text), the game
it started, every action it applied (`Game.apply`) and every state it wrote
and loaded (`Engine.load_game`, shown as the assignments that differ from
the engine's own state, each with the adapter's reason), up to the step
where the engine differs from the rules; then the fields that differ, read
from the engine, beside the rules' values. Nothing here imports phase: the
recording wraps the objects `engine.start` returns; the program's text is
`repro_text.py`."""

import json

from ptoracle_adapter import Unsupported, checks, first_sentence

from . import engine as phase_engine
from . import game_setup
from .game import Game, run
from .repro_text import action_literal, edits, program

def caller_reason():
    """Why the adapter wrote the state: the function of the adapter's that
    loads it, and the first line of its docstring."""
    import inspect
    for frame in inspect.stack()[2:]:
        fn = frame.frame.f_globals.get("__name__", "")
        if fn.startswith("phase_adapter.") and fn != __name__ \
                and frame.function not in ("load_game", "__getattr__"):
            obj = frame.frame.f_locals.get("self")
            method = getattr(type(obj), frame.function, None) if obj is not None \
                else frame.frame.f_globals.get(frame.function)
            doc = first_sentence(getattr(method, "__doc__", None))
            return f"{frame.function}: {doc}" if doc else frame.function
    return "the adapter"


class Recorder:
    """The program's lines, as the adapter plays the case."""

    def __init__(self):
        self.lines = []
        self.game = None  # the real phase.Game the adapter plays on now
        self.specs = {}   # a face (JSON) -> the card it was built from
        self.cards = None
        self.decks = None

    def build_face(self, spec):
        face = BUILD_FACE(spec)
        self.specs[json.dumps(face, sort_keys=True)] = spec
        return face

    def start(self, faces, decks):
        """`engine.start`, recorded from a new engine and game (none kept
        between cases), with the cards its faces were built from."""
        inner = phase_engine.Engine(phase_engine.phase.Engine.from_json(
            json.dumps(faces, sort_keys=True)))
        eng = RecordingEngine(self, inner)
        self.lines.append("# A new game, ready for the case's setup.")
        g = phase_engine.new_game(eng, decks)
        cards = phase_engine.cards_of(g.state())
        self.cards = {}
        for key, face in faces.items():
            spec = self.specs.get(json.dumps(face, sort_keys=True))
            if spec is None:
                raise Unsupported(f"the card face {key!r} was not built from a card the "
                                  "reproduction can write")
            self.cards[key] = spec
        self.decks = decks
        self.comment("The case's setup.")
        return eng, g, cards

    def comment(self, text):
        self.lines += ["", f"# {text}"]


class RecordingGame:
    """A phase.Game whose actions are written into the program."""

    def __init__(self, recorder, game):
        self._recorder, self._game = recorder, game

    def apply(self, player, action):
        self._recorder.lines.append(f"g.apply({player}, {action_literal(action)})")
        return self._game.apply(player, action)

    def __getattr__(self, name):
        return getattr(self._game, name)


class RecordingEngine:
    """engine.Engine whose new games and loaded states are written into the
    program."""

    def __init__(self, recorder, inner):
        self._recorder, self._inner = recorder, inner
        self.engine = self  # what engine.new_game calls new_game on

    def new_game(self, **kwargs):
        rec = self._recorder
        rec.lines.append("g = engine.new_game(player=DECKS[0], opponent=DECKS[1], "
                         f"seed={kwargs['seed']}, first_player={kwargs['first_player']})")
        rec.game = self._inner.engine.new_game(**kwargs)
        return RecordingGame(rec, rec.game)

    def load_game(self, state):
        rec = self._recorder
        after = json.loads(state) if isinstance(state, str) else state
        changes = edits(rec.game.state(), after)
        rec.lines.append(f"# Written into the state ({caller_reason()})")
        rec.lines += ["st = g.state()"] + changes + ["g = engine.load_game(json.dumps(st))"]
        rec.game = self._inner.load_game(state)
        return RecordingGame(rec, rec.game)

    def __getattr__(self, name):
        return getattr(self._inner, name)


BUILD_FACE = phase_engine.build_face
START = game_setup.start


def recorded(case, last):
    """The recorder and the game of `case` played through step `last`."""
    rec = Recorder()
    phase_engine.FACES.items.clear()  # every face built anew, so its card is known
    phase_engine.build_face, game_setup.start = rec.build_face, rec.start
    try:
        game = Game(case)

        def before(k, step):
            rec.comment(f"Step {k + 1}: {json.dumps(step['do'])}")
        run(case, game=game, before_step=before, until=last)
    finally:
        phase_engine.build_face, game_setup.start = BUILD_FACE, START
    return rec, game


def reproduce(message):
    """The program that reproduces the failure `message` (a `reproduce`
    request) describes."""
    from .protocol import ENGINE_NAME
    _, last = checks(message)
    rec, game = recorded(message["case"], last)
    return program(message, ENGINE_NAME, {
        "cards": rec.cards, "decks": rec.decks, "ids": game.ids, "lines": rec.lines,
        "players": game.player_ids,
        "accounting": {"life_offset": game.life_offset, "poison_offset": game.poison_offset,
                       "losers": game.losers}})
