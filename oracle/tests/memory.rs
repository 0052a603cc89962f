//! The gate's memory does not grow with the number of cases it plays.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::scratch;

const BIN: &str = env!("CARGO_BIN_EXE_ptoracle");

/// The peak resident memory, in kilobytes, of `ptoracle gate` against an
/// engine that fails nearly every generated case, on `cases` of them.
#[cfg(target_os = "linux")]
fn peak_kb_of_a_failing_gate(cases: u64) -> i64 {
    let dir = scratch("memory", &format!("gate-{cases}"));
    let engine = format!("{BIN} serve --mutant {MUTANT}");
    let child = Command::new(BIN)
        .args(["gate", "--engine", &engine, "--no-corpus", "--seed", "1"])
        .args(["--generated", &cases.to_string(), "--jobs", "1"])
        // Shrinking costs time, and not memory.
        .args(["--shrink-budget", "0"])
        .arg("--json")
        .arg(dir.join("report.json"))
        .arg("--out")
        .arg(dir.join("shrunk"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("ptoracle starts");
    let pid = child.id() as libc::pid_t;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut status = 0;
        // SAFETY: `rusage` is plain data that wait4 fills in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child, with valid pointers.
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        let _ = tx.send((waited, status, usage.ru_maxrss));
        drop(child);
    });
    // A bound on a hang only, far above a normal run.
    let (waited, status, peak) = rx
        .recv_timeout(Duration::from_secs(600))
        .expect("the gate finishes");
    assert_eq!(waited, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 1,
        "the gate fails the mutant (status {status})"
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("report.json")).unwrap()).unwrap();
    let failed = report["summary"]["failed"].as_u64().unwrap();
    assert!(failed * 3 > cases, "{failed} of {cases} failed");
    let _ = std::fs::remove_dir_all(&dir);
    peak
}

/// The mutant that fails the most generated cases.
const MUTANT: &str = "base-includes-modifications";

/// Sixteen times the failing cases take about the same memory, not sixteen
/// times as much. Regression: every record stayed in memory to the end
/// (about a gigabyte for a million failing cases).
#[cfg(target_os = "linux")]
#[test]
fn gate_memory_does_not_grow_with_failing_cases() {
    const N: u64 = 500;
    let small = peak_kb_of_a_failing_gate(N);
    let large = peak_kb_of_a_failing_gate(16 * N);
    eprintln!(
        "peak {small} kB on {N} failing cases, {large} kB on {}",
        16 * N
    );
    // Kept in memory, the records of the 7 500 more cases would take about
    // 18 MB (about 2.4 kB a case, passing ones included), over twice this
    // margin. The same run twice differs by up to 4 MB when the machine is
    // loaded (26.6 MB and 30.8 MB seen for the same 2 000 cases), which a
    // margin of 1.5 MB on four times the cases did not absorb.
    let margin = 8192;
    assert!(
        large < small + margin,
        "peak {small} kB on {N} failing cases, {large} kB on {}",
        16 * N
    );
}
