"""Unit tests of what the Python adapters share: the protocol loop
(ci/adapters/ptoracle_adapter.py), the template adapter through it, and the
size limits of every adapter's Python. Stdlib only, no engine: from the
repository's root,

    python3 -m unittest discover -s ci/adapters/tests -t ci/adapters

(`cargo test -p ptoracle --test gate python_adapters` runs them with the
system python3)."""

import sys
from pathlib import Path

ADAPTERS = Path(__file__).resolve().parent.parent
if str(ADAPTERS) not in sys.path:
    sys.path.insert(0, str(ADAPTERS))
