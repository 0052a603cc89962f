//! What ptoracle writes, in hostile places: stdout a closed pipe, reports
//! to `/dev/null`, a FIFO or a symlink, a full disk; and the reports a
//! person reads.

use std::os::fd::{FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_ptoracle");

mod common;
use common::root;

fn scratch(name: &str) -> PathBuf {
    common::scratch("outputs", name)
}

/// `ptoracle ARGS`, run from the repository root.
fn command(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).current_dir(root()).stdin(Stdio::null());
    c
}

fn run(mut c: Command) -> Output {
    c.output().expect("ptoracle runs")
}

/// The write end of a pipe whose read end is already closed.
fn closed_pipe() -> Stdio {
    let mut fds = [0; 2];
    // SAFETY: pipe fills the two descriptors it is given.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors are fresh and owned here.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    Stdio::from(write)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `c`, which must not panic and must end with exit status `code`.
fn exits(c: Command, code: i32) -> Output {
    let what = format!("{c:?}");
    let out = run(c);
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{what} panicked: {stderr}");
    assert_eq!(out.status.code(), Some(code), "{what}: {stderr}");
    out
}

/// A small gate run against `engine` (a few corpus cases, one job).
fn small_gate(engine: &str) -> Command {
    command(&[
        "gate", "--engine", engine, "--filter", "613.4c", "--jobs", "1",
    ])
}

/// The reference engine, as the gate starts it.
fn serve() -> String {
    format!("{BIN} serve")
}

/// A small gate JSON report, against the reference engine.
fn small_report(dir: &Path) -> PathBuf {
    let path = dir.join("report.json");
    let mut c = small_gate(&serve());
    c.arg("--json").arg(&path);
    exits(c, 0);
    path
}

#[test]
fn a_closed_stdout_ends_every_command_quietly_with_141() {
    let dir = scratch("closed-pipe");
    let report = small_report(&dir);
    let report = report.to_str().unwrap();
    let export = dir.join("export");
    let export = export.to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["schema"],
        vec!["explore", "--list-invariants"],
        vec!["check", "--list-mutants"],
        vec!["serve", "--list-mutants"],
        vec!["export", export],
        vec!["baseline", report, report],
        vec!["fuzz", "seeds", "--check"],
    ];
    for args in commands {
        let mut c = command(&args);
        c.stdout(closed_pipe());
        let out = exits(c, 141);
        assert!(out.stderr.is_empty(), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn a_huge_duration_does_not_overflow_the_clock() {
    let huge = "18446744073709551615s";
    let mut gate = small_gate(&serve());
    gate.args([
        "--timeout",
        huge,
        "--handshake-timeout",
        "18446744073709551615h",
    ]);
    let explore = command(&["explore", "--cases", "20", "--jobs", "1", "--time", huge]);
    for mut c in [gate, explore] {
        c.arg("--out").arg(scratch("huge-duration"));
        exits(c, 0);
    }
}
