#!/bin/sh
# Regenerates docs/conformance/ (the conformance matrix) from the reports
# kept in docs/conformance/reports/. Run from the repository root:
#   sh docs/conformance/regenerate.sh
set -eu
cargo run --quiet -p ptoracle -- matrix docs/conformance/reports/*.json --out docs/conformance
