//! The boundaries of the crate graph, checked: what ARCHITECTURE.md
//! promises of the rules core and the protocol crate.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("oracle/ has a parent")
        .to_path_buf()
}

/// The names of every package `package` depends on for its library
/// (normal dependencies, transitively; no dev or build dependencies).
fn dependencies(package: &str) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(workspace())
        .args([
            "tree",
            "--offline",
            "--locked",
            "-p",
            package,
            "-e",
            "normal",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// No command line, threads, progress bars, YAML or system calls below the
/// tool: an engine that embeds the core gets the rules and nothing else.
const NEVER_BELOW_THE_TOOL: &[&str] = &[
    "clap",
    "rayon",
    "indicatif",
    "serde_yaml",
    "serde_yaml_ng",
    "unsafe-libyaml",
    "libc",
    "ctrlc",
    "proptest",
    "arbitrary",
    "quick-junit",
    "shlex",
];

#[test]
fn the_core_depends_on_no_io_cli_or_yaml_crate() {
    let deps = dependencies("ptoracle-core");
    for bad in NEVER_BELOW_THE_TOOL {
        assert!(
            !deps.iter().any(|d| d == bad),
            "ptoracle-core depends on {bad}: {deps:?}"
        );
    }
    assert!(
        !deps
            .iter()
            .any(|d| d == "ptoracle-protocol" || d == "ptoracle"),
        "the core depends on nothing of ptoracle's: {deps:?}"
    );
}

#[test]
fn the_protocol_crate_depends_on_the_core_alone_of_ptoracle() {
    let deps = dependencies("ptoracle-protocol");
    for bad in NEVER_BELOW_THE_TOOL {
        assert!(
            !deps.iter().any(|d| d == bad),
            "ptoracle-protocol depends on {bad}: {deps:?}"
        );
    }
    assert!(deps.iter().any(|d| d == "ptoracle-core"), "{deps:?}");
    assert!(!deps.iter().any(|d| d == "ptoracle"), "{deps:?}");
}

/// The core does no I/O and starts no threads: its source names none of
/// the standard library's ways to reach the outside world.
#[test]
fn the_core_source_reaches_no_file_process_thread_or_terminal() {
    const OUTSIDE: &[&str] = &[
        "std::fs",
        "std::io",
        "std::net",
        "std::process",
        "std::thread",
        "std::env",
        "println!",
        "eprintln!",
        "print!",
        "eprint!",
        "dbg!",
    ];
    let sources = rust_sources(&workspace().join("oracle/core/src"));
    assert!(
        sources.len() > 10,
        "the core's sources were found ({} files)",
        sources.len()
    );
    for (path, n, line) in code_lines(&sources) {
        for word in OUTSIDE {
            assert!(
                !line.contains(word),
                "{}:{n}: the core uses {word}: {line}",
                path.display()
            );
        }
    }
}

/// The tool reaches the core and the protocol by their crates' names
/// (`ptoracle_core::resolver`, `ptoracle_protocol`), never through the
/// re-exports of its own `lib.rs`: the wall shows where it is crossed.
#[test]
fn the_tool_names_the_core_and_the_protocol_by_crate() {
    const THROUGH_THE_REEXPORTS: &[&str] = &[
        "cost",
        "edition",
        "error",
        "fault",
        "number",
        "observation",
        "resolver",
        "scenario",
        "terms",
        "verdict",
        "protocol",
        "Edition",
        "Case",
        "Verdict",
        "check",
    ];
    let lib = workspace().join("oracle/src/lib.rs");
    let sources: Vec<PathBuf> = rust_sources(&workspace().join("oracle/src"))
        .into_iter()
        .filter(|p| *p != lib)
        .collect();
    assert!(sources.len() > 10, "the tool's sources were found");
    for (path, n, line) in code_lines(&sources) {
        for name in THROUGH_THE_REEXPORTS {
            let path_form = format!("crate::{name}");
            let hit = line.match_indices(&path_form).any(|(i, _)| {
                !line[i + path_form.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            assert!(
                !hit,
                "{}:{n}: names the core through lib.rs (`{path_form}`); write `ptoracle_core::` or `ptoracle_protocol`: {line}",
                path.display()
            );
        }
    }
}

/// Every `.rs` file under `dir`.
fn rust_sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable source dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The lines of `files` that are not `//` comments: file, line number
/// (from 1), the line with its indentation trimmed.
fn code_lines(files: &[PathBuf]) -> Vec<(PathBuf, usize, String)> {
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(path).expect("utf-8 source");
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if !code.starts_with("//") {
                out.push((path.clone(), n + 1, code.to_string()));
            }
        }
    }
    out
}
