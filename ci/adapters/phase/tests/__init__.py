"""Unit tests of the phase.rs adapter's refusals and Oracle text, which run
without phase.rs: from the repository's root,

    python3 -m unittest discover -s ci/adapters/phase/tests -t ci/adapters/phase

(`cargo test -p ptoracle --test gate python_adapters` runs them with the
system python3). Importing phase is made to fail here, so that a test that
reaches the engine fails even where phase-python is installed."""

import importlib.abc
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The package (ci/adapters/phase) and the protocol loop it imports
# (ci/adapters/ptoracle_adapter.py).
for path in (HERE.parent, HERE.parent.parent):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))


class NoEngine(importlib.abc.MetaPathFinder):
    """Refuses to import phase (phase-python)."""

    def find_spec(self, name, path=None, target=None):
        if name == "phase" or name.startswith("phase."):
            raise ImportError("the unit tests of the phase adapter run without phase.rs")
        return None


if not any(isinstance(f, NoEngine) for f in sys.meta_path):
    sys.meta_path.insert(0, NoEngine())
