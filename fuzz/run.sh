#!/usr/bin/env bash
# Runs one fuzz target with its seeds and dictionary:
#   fuzz/run.sh TARGET [libFuzzer options...]
# e.g. fuzz/run.sh resolve -max_total_time=600
#      fuzz/run.sh protocol -runs=20000
# The growing corpus is fuzz/corpus/TARGET (not committed); the committed
# seeds are read from fuzz/seeds/; crashes land in fuzz/artifacts/TARGET/.
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); works on stable.
# PTORACLE_FUZZ_BUILD adds options to `cargo fuzz run`, e.g.
# PTORACLE_FUZZ_BUILD=--no-trace-compares (faster, less guided).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ]; then
    echo "usage: fuzz/run.sh TARGET [libFuzzer options...]" >&2
    echo "targets: resolve ruling_yaml protocol roundtrip differential empty" >&2
    exit 2
fi
target=$1
shift
case "$target" in
    resolve | roundtrip | differential) seeds=scenario dict=ruling_yaml ;;
    ruling_yaml) seeds=ruling_yaml dict=ruling_yaml ;;
    protocol) seeds=protocol dict=protocol ;;
    empty) seeds= dict= ;;
    *)
        echo "fuzz/run.sh: unknown target \`$target\`; the targets are resolve ruling_yaml protocol roundtrip differential empty" >&2
        exit 2
        ;;
esac
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz/run.sh: cargo-fuzz is not installed: cargo install cargo-fuzz --locked" >&2
    exit 2
fi
mkdir -p "fuzz/corpus/$target"
corpora=("fuzz/corpus/$target")
options=()
if [ -n "$seeds" ]; then
    corpora+=("fuzz/seeds/$seeds")
    options+=("-dict=fuzz/dicts/$dict.dict")
fi
# shellcheck disable=SC2086 # the build options are words
exec cargo fuzz run -s none ${PTORACLE_FUZZ_BUILD:-} "$target" "${corpora[@]}" -- "${options[@]}" "$@"
