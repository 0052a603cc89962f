#!/usr/bin/env python3
"""Fails when the fuzz crate's lock file pins another version of a package
the main lock file pins.

The fuzz crate is its own workspace (it builds with libFuzzer's
instrumentation), so it has its own Cargo.lock. Both must resolve the
shared dependencies alike: the fuzz targets then test the code the main
workspace tests, and CI's clippy run of the fuzz crate reuses the main
run's checked dependencies. Packages only the fuzz crate uses (libFuzzer
and its build tools) may pin what they need.

To realign after `cargo update`: cp Cargo.lock fuzz/Cargo.lock, then any
cargo command on fuzz/Cargo.toml (without --locked) adds what the fuzz
crate alone needs.
"""
import sys
import tomllib


def versions(path):
    with open(path, "rb") as f:
        lock = tomllib.load(f)
    out = {}
    for package in lock.get("package", []):
        out.setdefault(package["name"], set()).add(package["version"])
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: locks-aligned.py MAIN.lock FUZZ.lock")
    main_lock, fuzz_lock = versions(sys.argv[1]), versions(sys.argv[2])
    bad = []
    for name in sorted(main_lock.keys() & fuzz_lock.keys()):
        missing = main_lock[name] - fuzz_lock[name]
        if missing:
            bad.append(
                f"{name}: {sys.argv[1]} pins {', '.join(sorted(main_lock[name]))}, "
                f"{sys.argv[2]} pins {', '.join(sorted(fuzz_lock[name]))}"
            )
    for line in bad:
        print(line)
    if bad:
        print(f"{len(bad)} shared packages differ; realign with: cp {sys.argv[1]} {sys.argv[2]} "
              "and a cargo command on the fuzz crate")
        sys.exit(1)
    shared = len(main_lock.keys() & fuzz_lock.keys())
    print(f"{shared} shared packages, each pinned alike")


main()
