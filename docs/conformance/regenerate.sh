#!/bin/sh
# Regenerates docs/conformance/ (the conformance matrix) from the reports
# kept in docs/conformance/reports/: the engines' at its top, the
# calibration engines' (mutants of the reference, the template engine) in
# reports/calibration/, drawn apart. Run from the repository root:
#   sh docs/conformance/regenerate.sh
set -eu
set --
for report in docs/conformance/reports/calibration/*.json; do
    set -- "$@" --calibration "$report"
done
cargo run --quiet -p ptoracle -- matrix docs/conformance/reports/*.json "$@" --out docs/conformance
