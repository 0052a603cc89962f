#!/usr/bin/env bash
# Runs the ptoracle gate against an engine, for any CI system.
#
#   ci/gate.sh --engine "CMD ARGS" [--expectations FILE] [--reports DIR] [--rulings DIR] [-- MORE GATE OPTIONS]
#
# Builds ptoracle from this checkout and plays the corpus of this checkout;
# or, when $PTORACLE_BIN names a binary (ci/install.sh installs one), plays
# the corpus built into that binary (its own version's); --rulings DIR
# plays DIR instead. Writes into the reports directory (default:
# ptoracle-reports):
#   report.json  every case (what `ptoracle baseline` compares)
#   junit.xml    for the CI's test view
#   report.md    for a pull-request comment
#   rulings/     shrunk rulings of generated failures
# Each case's source reads rulings/FILE.yaml#ID: `ptoracle explain
# rulings/FILE.yaml#ID` explains it in a ptoracle checkout or anywhere the
# same binary runs. Exit status: the gate's (0 pass, 1 fail, 2 bad input,
# 3 unusable engine, 130 interrupted); see `ptoracle gate --help`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
engine=""
expectations=""
reports="ptoracle-reports"
rulings=""
extra=()

usage() {
    sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --engine) engine="${2:?--engine needs a command}"; shift 2 ;;
        --expectations) expectations="${2:?--expectations needs a file}"; shift 2 ;;
        --reports) reports="${2:?--reports needs a directory}"; shift 2 ;;
        --rulings) rulings="${2:?--rulings needs a directory}"; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) usage ;;
        *) echo "gate.sh: unknown option $1" >&2; usage ;;
    esac
done
[ -n "$engine" ] || { echo "gate.sh: --engine is required" >&2; usage; }

if [ -n "${PTORACLE_BIN:-}" ]; then
    bin="$PTORACLE_BIN"
    corpus=(--embedded)
else
    if ! command -v cargo >/dev/null; then
        echo "gate.sh: cargo is needed to build ptoracle (https://rustup.rs), or set PTORACLE_BIN" >&2
        exit 2
    fi
    echo "gate.sh: building ptoracle in $repo" >&2
    cargo build --release --locked --quiet --manifest-path "$repo/Cargo.toml" --bin ptoracle
    bin="$repo/target/release/ptoracle"
    corpus=("$repo/rulings" --sources-relative-to "$repo")
fi
if [ -n "$rulings" ]; then
    corpus=("$rulings")
fi

mkdir -p "$reports"
args=(gate --engine "$engine" "${corpus[@]}"
      --json "$reports/report.json" --junit "$reports/junit.xml"
      --markdown "$reports/report.md" --out "$reports/rulings")
if [ -n "$expectations" ]; then
    args+=(--expectations "$expectations")
fi
# In the background, so that a signal to this script (a cancelled CI job
# sends SIGTERM) reaches the gate, which then kills its engine and writes
# its reports, instead of leaving it running behind a dead script.
"$bin" "${args[@]}" ${extra[@]+"${extra[@]}"} &
gate=$!
for sig in INT TERM HUP; do
    # shellcheck disable=SC2064 # the signal's name is meant to be fixed now
    trap "kill -$sig $gate 2>/dev/null" "$sig"
done
status=0
wait "$gate" || status=$?
# A trapped signal ends `wait` early: wait again for the gate's own status.
while kill -0 "$gate" 2>/dev/null; do
    status=0
    wait "$gate" || status=$?
done
echo "gate.sh: reports in $reports (exit status $status)" >&2
exit "$status"
