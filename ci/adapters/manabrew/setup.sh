#!/usr/bin/env bash
# SPDX-License-Identifier: AGPL-3.0-or-later
# Builds the manabrew adapter (a release build of this directory's Cargo
# project, manabrew-engine pinned by Cargo.lock) once per machine, into a
# cache directory outside the clone, and prints the binary's path:
#
#   bin=$(ci/adapters/manabrew/setup.sh)
#   ptoracle gate --engine "$bin"
#
# The cache is $PTORACLE_MANABREW_TARGET, by default
# ${XDG_CACHE_HOME:-$HOME/.cache}/ptoracle/manabrew-target (a cargo target
# directory). The first build takes about 12 minutes on 2 cores; every
# later run is cargo's no-op check, a few seconds. Needs cargo and access
# to crates.io (or a vendored registry) for the first build; cargo's output
# goes to stderr, only the path to stdout.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
target="${PTORACLE_MANABREW_TARGET:-${XDG_CACHE_HOME:-$HOME/.cache}/ptoracle/manabrew-target}"
mkdir -p "$target"
CARGO_TARGET_DIR="$target" cargo build --release --locked --manifest-path "$here/Cargo.toml" >&2
bin="$target/release/manabrew-adapter"
[ -x "$bin" ] || { echo "manabrew: no binary at $bin after the build" >&2; exit 1; }
echo "$bin"
