#!/bin/sh
# Plays the corpus (and the findings) against every engine this repository drives, writes each
# gate JSON report into docs/conformance/reports/, and regenerates the site
# (regenerate.sh). Run from the repository root:
#   sh docs/conformance/refresh.sh
# It sets up what is missing first: the phase.rs venvs (one per version,
# from PyPI), python-mtg's venv, the manabrew adapter (built once per
# machine into a cache, about 12 minutes cold). An engine that cannot be set
# up keeps its old report, and the script says so and exits 1 at the end.
set -eu
cargo build --quiet --release -p ptoracle
bin=target/release/ptoracle
out=docs/conformance/reports
mkdir -p "$out/calibration"
missing=""

# Every engine plays the corpus and every adapter's confirmed findings, so
# the page shows which engines share a bug, and how each version fares.
cases="rulings ci/adapters/phase/findings ci/adapters/python-mtg/findings ci/adapters/manabrew/findings"

# gate NAME ENGINE-COMMAND: the cases against one engine. Exit 1 (cases
# fail) is a result, not an error; 2 and 3 are errors.
# A third argument names the directory under $out (calibration/ for the
# mutants and the template engine).
gate() {
    name=$1
    engine=$2
    dir=$out/${3:-}
    echo "== $name: $engine"
    status=0
    "$bin" gate --engine "$engine" --json "$dir/$name.json" $cases | tail -n 1 || status=$?
    # An engine's stderr (a Python traceback) names this clone's absolute
    # path: the committed reports keep paths relative to the repository.
    sed -i "s#$(pwd)/##g" "$dir/$name.json"
    if [ "$status" -gt 1 ]; then
        echo "$name: the gate exited $status; its report may be partial" >&2
        missing="$missing $name"
    fi
}

for version in 0.77.0 0.83.0 0.103.0; do
    if ci/adapters/phase/setup.sh "$version" >/dev/null; then
        venv=ci/adapters/phase/.venv-$version
        [ "$version" = 0.103.0 ] && venv=ci/adapters/phase/.venv
        gate "phase-$version-corpus" "$venv/bin/python ci/adapters/phase/adapter.py"
    else
        missing="$missing phase-$version"
    fi
done
if ci/adapters/python-mtg/setup.sh >/dev/null; then
    gate python-mtg-0.1.1-corpus "ci/adapters/python-mtg/.venv/bin/python ci/adapters/python-mtg/adapter.py"
else
    missing="$missing python-mtg"
fi
if manabrew=$(ci/adapters/manabrew/setup.sh); then
    gate manabrew-0.13.1-corpus "$manabrew"
else
    missing="$missing manabrew"
fi
gate python-example "python3 ci/adapters/python-example/adapter.py" calibration
gate mutant-no-annihilation "$bin serve --mutant no-annihilation" calibration
gate mutant-wrapping-counters "$bin serve --mutant wrapping-counters" calibration

sh docs/conformance/regenerate.sh
if [ -n "$missing" ]; then
    echo "not refreshed:$missing" >&2
    exit 1
fi
