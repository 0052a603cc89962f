//! Pieces the integration tests that run the `ptoracle` binary share.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository root (where `rulings/` is).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_path_buf()
}

/// A fresh, empty directory for one test: `theme` names the test file,
/// `name` the use.
pub fn scratch(theme: &str, name: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "ptoracle-{theme}-{}-{n}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
