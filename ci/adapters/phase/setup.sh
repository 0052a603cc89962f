#!/usr/bin/env bash
# Creates a venv with phase-python, pinned, from PyPI.
#   ci/adapters/phase/setup.sh            # 0.103.0 (the pinned default) in ci/adapters/phase/.venv
#   ci/adapters/phase/setup.sh 0.83.0     # another version in ci/adapters/phase/.venv-0.83.0
#   ci/adapters/phase/.venv/bin/python ci/adapters/phase/adapter.py   # the engine command
# Needs python3 with venv and pip, and access to PyPI; nothing else (no
# Rust toolchain, no MTGJSON: the adapter builds the cards it needs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
default="0.103.0"
version="${1:-$default}"
if [ "$version" = "$default" ]; then
    venv="$here/.venv"
else
    venv="$here/.venv-$version"
fi
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "phase-python==$version"
"$venv/bin/python" -c "import phase; from importlib.metadata import version; print('phase-python', version('phase-python'), 'in', '$venv')"
