#!/usr/bin/env bash
# Installs a ptoracle binary (it carries the corpus of its version), for CI.
#
#   ci/install.sh --root DIR [--version REV] [--key] [--dry-run]
#
# Without --version: ptoracle from this checkout (`cargo install --path`).
# With --version REV (a full commit id, or a release tag such as vX.Y.Z once one exists):
# that version from the repository ($PTORACLE_REPO, default the one in
# Cargo.toml), with `cargo install --git URL --rev REV`. The binary lands
# in DIR/bin/ptoracle.
#   --key      print the cache key of that binary and exit: the system, the
#              machine, $ImageOS (the runner's image, on GitHub), and REV,
#              or for this checkout a hash of every file the build reads
#   --dry-run  print the cargo command instead of running it
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
root=""
version=""
key=false
dry=false

usage() {
    sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --root) root="${2:?--root needs a directory}"; shift 2 ;;
        --version) version="${2?--version needs a tag or commit}"; shift 2 ;;
        --key) key=true; shift ;;
        --dry-run) dry=true; shift ;;
        -h|--help) usage ;;
        *) echo "install.sh: unknown option $1" >&2; usage ;;
    esac
done

# A version is a tag or a commit id: nothing a shell or cargo reads as an
# option or a path.
if [ -n "$version" ] && ! [[ "$version" =~ ^[A-Za-z0-9][A-Za-z0-9._/-]*$ ]]; then
    echo "install.sh: --version $version: expected a tag or a commit id" >&2
    exit 2
fi

# What the binary is built from, when it is this checkout: every file of
# the build (the manifests, the lock file, the crates' sources, the corpus
# it embeds), by content, named relative to the checkout.
sources_hash() {
    local sum=(sha256sum)
    command -v sha256sum >/dev/null || sum=(shasum -a 256)
    (
        cd "$repo"
        find Cargo.toml Cargo.lock oracle rulings -type f \
            -not -path 'oracle/tests/*' -not -path '*/target/*' -print0 \
            | LC_ALL=C sort -z | xargs -0 "${sum[@]}" | "${sum[@]}" | cut -c1-16
    )
}

if $key; then
    if [ -n "$version" ]; then
        what="$version"
    else
        what="src-$(sources_hash)"
    fi
    what="${what//\//-}"
    echo "ptoracle-$(uname -s)-$(uname -m)-${ImageOS:-any}-$what"
    exit 0
fi

[ -n "$root" ] || { echo "install.sh: --root is required" >&2; usage; }

if [ -n "$version" ]; then
    url="${PTORACLE_REPO:-$(sed -n 's/^repository = "\(.*\)"$/\1/p' "$repo/Cargo.toml")}"
    cmd=(cargo install --locked --root "$root" --git "$url" --rev "$version" ptoracle)
else
    cmd=(cargo install --locked --root "$root" --path "$repo/oracle")
fi
if $dry; then
    printf '%q ' "${cmd[@]}"
    echo
    exit 0
fi
if ! command -v cargo >/dev/null; then
    echo "install.sh: cargo is needed to build ptoracle (https://rustup.rs)" >&2
    exit 2
fi
"${cmd[@]}"
