"""A case played in phase.rs: `Game` is the engine's game with the case's
setup in place (`game_setup.py`, `faces.py`), played step by step
(`actions.py`, `steps.py`, `abilities.py`, `turns.py`) and observed
(`observe.py`)."""

import json

from .abilities import Abilities
from .actions import Actions
from .faces import Faces
from .game_setup import Setup
from .observe import Observation
from .steps import Steps
from .terms import Invalid, NoFixpoint, Unsupported
from .turns import Turns


class Game(Setup, Faces, Actions, Steps, Abilities, Turns, Observation):
    """The engine's game of one case (its methods by section, in the mixins)."""


def run(case, game=None, before_step=None, until=None):
    """The observations of a case's steps, and the error of the step that
    could not complete (`invalid`, `no-fixpoint`) or None; `Unsupported`
    when the engine's game goes where the adapter can't follow. A
    reproduction (`reproduce.py`) gives the game, is told of each step
    before it is played (`before_step(k, step)`) and stops after step
    `until`."""
    game = Game(case) if game is None else game
    observations = []
    for k, step in enumerate(case["steps"]):
        if until is not None and k > until:
            break
        if before_step is not None:
            before_step(k, step)
        try:
            game.play(step)
        except Invalid as e:
            return observations, {"step": k, "code": "invalid", "message": str(e)}
        except NoFixpoint as e:
            return observations, {"step": k, "code": "no-fixpoint", "message": str(e)}
        observation = game.observe()
        lost = [h for h, p in observation["players"].items() if p["lost"]]
        waiting = game.g.waiting_for()
        if waiting["type"] == "GameOver" and not lost:
            raise Unsupported(
                f"step {k + 1}: the game is over in phase.rs ({json.dumps(waiting.get('data'))})")
        if lost and waiting["type"] == "GameOver":
            game.carry_on(k, step)
            observation = game.observe()
        observations.append(observation)
    return observations, None
