#!/usr/bin/env bash
# Creates ci/adapters/phase/.venv with phase-python, pinned, from PyPI.
#   ci/adapters/phase/setup.sh            # creates or updates the venv
#   ci/adapters/phase/.venv/bin/python ci/adapters/phase/adapter.py   # the engine command
# Needs python3 with venv and pip, and access to PyPI; nothing else (no
# Rust toolchain, no MTGJSON: the adapter builds the cards it needs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="0.103.0"
if [ ! -x "$here/.venv/bin/python" ]; then
    python3 -m venv "$here/.venv"
fi
"$here/.venv/bin/python" -m pip install --quiet --disable-pip-version-check "phase-python==$version"
"$here/.venv/bin/python" -c "import phase; from importlib.metadata import version; print('phase-python', version('phase-python'), 'in', '$here/.venv')"
