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


def run(case):
    """The observations of a case's steps, and the error of the step that
    could not complete (`invalid`, `no-fixpoint`) or None; `Unsupported`
    when the engine's game goes where the adapter can't follow."""
    game = Game(case)
    observations = []
    for k, step in enumerate(case["steps"]):
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
