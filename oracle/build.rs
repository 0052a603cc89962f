//! Builds the corpus into the crate: every ruling file (`*.yaml`, `*.yml`)
//! of the repository's `rulings/`, as `$OUT_DIR/embedded_rulings.rs`, which
//! `corpus::EMBEDDED` holds.
//!
//! In a checkout (`cargo install --path oracle`, `cargo install --git`)
//! `oracle/rulings` is a symbolic link to `../rulings`; `cargo package`
//! follows it, so the packaged crate carries a copy of the corpus there.
//! Where the link could not be made (a checkout on a system without
//! symbolic links, where it is a small text file), `../rulings` is read.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let dir = [manifest.join("rulings"), manifest.join("../rulings")]
        .into_iter()
        .find(|d| d.is_dir())
        .expect("the corpus: oracle/rulings (a link to ../rulings in a checkout, a copy in the package)");
    println!("cargo::rerun-if-changed=build.rs");
    // A directory is scanned for changes to any file under it.
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut files = Vec::new();
    walk(&dir, &mut files);
    let mut code = String::from("pub(super) const FILES: &[(&str, &[u8])] = &[\n");
    for f in &files {
        let rel = f
            .strip_prefix(&dir)
            .expect("found under the corpus directory");
        let name: Vec<String> = rel
            .components()
            .map(|c| {
                c.as_os_str()
                    .to_str()
                    .expect("ruling file names are UTF-8")
                    .to_string()
            })
            .collect();
        let full = std::fs::canonicalize(f).expect("a ruling file can be resolved");
        let _ = writeln!(
            code,
            "    ({:?}, include_bytes!({:?})),",
            format!("rulings/{}", name.join("/")),
            full.to_str().expect("the checkout's path is UTF-8")
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it"));
    std::fs::write(out.join("embedded_rulings.rs"), code).expect("OUT_DIR is writable");
}

/// The ruling files under `dir`, sorted by path as the loader sorts them.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the corpus directory can be read")
        .map(|e| e.expect("the corpus directory can be read").path())
        .collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            walk(&p, files);
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            files.push(p);
        }
    }
}
