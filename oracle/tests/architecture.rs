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
    let mut stack = vec![workspace().join("oracle/core/src")];
    let mut seen = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable source dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            seen += 1;
            let text = std::fs::read_to_string(&path).expect("utf-8 source");
            for (n, line) in text.lines().enumerate() {
                let code = line.trim_start();
                if code.starts_with("//") {
                    continue;
                }
                for word in OUTSIDE {
                    assert!(
                        !code.contains(word),
                        "{}:{}: the core uses {word}: {line}",
                        path.display(),
                        n + 1
                    );
                }
            }
        }
    }
    assert!(seen > 10, "the core's sources were found ({seen} files)");
}
