#!/usr/bin/env python3
"""ptoracle's engine protocol (version 1) in front of phase.rs, through its
Python binding `phase-python` (import name `phase`): the command line of
the adapter, whose code is the package `phase_adapter/` beside it. See
README.md here.

    ci/adapters/phase/.venv/bin/python ci/adapters/phase/adapter.py
"""

import sys
from pathlib import Path

# The protocol loop the Python adapters share, ci/adapters/ptoracle_adapter.py
# (this file's own directory, the package's, is on the path first).
sys.path.append(str(Path(__file__).resolve().parent.parent))

from phase_adapter.protocol import main  # noqa: E402

if __name__ == "__main__":
    main()
