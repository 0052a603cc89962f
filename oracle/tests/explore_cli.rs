//! `ptoracle explore` as a user runs it.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

#[cfg(target_os = "linux")]
use common::DirWatch;
use common::{read_until, signal, wait_within};

fn ptoracle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptoracle"))
        .args(args)
        .output()
        .expect("ptoracle runs")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptoracle-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_clean_campaign_exits_0_with_a_summary_line() {
    let dir = temp_dir("clean");
    let o = ptoracle(&[
        "explore",
        "--cases",
        "300",
        "--seed",
        "11",
        "--jobs",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.ends_with("cases checked, 0 invariant violations (seed 11)"),
        "{out}"
    );
    assert!(!dir.exists(), "nothing to write, so no directory");
}

#[test]
fn a_broken_resolver_yields_rulings_that_check_replays() {
    let dir = temp_dir("mutant");
    let d = dir.to_str().unwrap();
    let o = ptoracle(&[
        "explore",
        "--cases",
        "600",
        "--seed",
        "3",
        "--mutant",
        "lethal-is-greater",
        "--out",
        d,
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("no-lethal-damage: violated in"), "{out}");
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!files.is_empty());
    assert!(
        files
            .iter()
            .all(|f| !f.to_string_lossy().ends_with("-unshrunk.yaml")),
        "shrunk rulings replace the unshrunk ones: {files:?}"
    );
    let reference = ptoracle(&["check", d]);
    assert_eq!(reference.status.code(), Some(0), "{}", stdout(&reference));
    let broken = ptoracle(&["check", "--mutant", "lethal-is-greater", d]);
    assert_eq!(broken.status.code(), Some(1), "{}", stdout(&broken));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_time_limit_ends_an_unbounded_campaign() {
    let child = Command::new(env!("CARGO_BIN_EXE_ptoracle"))
        .args(["explore", "--time", "1s", "--seed", "5", "--out"])
        .arg(temp_dir("time"))
        .stdout(Stdio::null())
        .spawn()
        .expect("ptoracle starts");
    // The bound only catches a campaign that never ends.
    let status = wait_within(child, Duration::from_secs(600), "explore --time 1s");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn bad_arguments_are_errors_that_say_why() {
    let o = ptoracle(&["explore", "--shard", "3/2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("0 <= I < N"));
    let o = ptoracle(&["explore", "--time", "ten minutes"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("invalid duration"));
    let o = ptoracle(&["explore", "--mutant", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("known mutants"));
    let o = ptoracle(&["explore", "--invariant", "nope"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn list_invariants_names_each_with_its_rules() {
    let o = ptoracle(&["explore", "--list-invariants"]);
    let out = stdout(&o);
    assert!(out.lines().count() >= 20, "{out}");
    assert!(out.contains("no-lethal-damage") && out.contains("704.5g"));
}

/// A campaign that runs until it is stopped, its stdout piped.
fn endless_explore(args: &[&str], out: &std::path::Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_ptoracle"))
        .args(["explore", "--time", "600s", "--out"])
        .arg(out)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .expect("ptoracle starts")
}

/// Ctrl-C after a violation was found and written: the campaign stops,
/// reports it and exits 1. Regression: the test slept a fixed time before
/// the signal; it now waits for the shrunk ruling to be written (an
/// inotify event, not a poll).
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_and_reports_what_was_found() {
    let dir = temp_dir("interrupt");
    let watch = DirWatch::new(&dir);
    let mut child = endless_explore(&["--seed", "9", "--mutant", "no-annihilation"], &dir);
    let stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        let _ = std::io::Read::read_to_string(&mut { stdout }, &mut all);
        all
    });
    watch.wait_for_entry(Duration::from_secs(300));
    signal(child.id(), "INT");
    let status = wait_within(child, Duration::from_secs(300), "explore after Ctrl-C");
    let out = reader.join().expect("stdout is read");
    assert_eq!(status.code(), Some(1), "{out}");
    assert!(out.contains("(interrupted)"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A clean campaign cut short by Ctrl-C, SIGTERM or SIGHUP says so and
/// exits 130: it has not shown that the invariants hold. Regression: it
/// exited 0, and SIGTERM lost the summary.
#[cfg(unix)]
#[test]
fn an_interrupted_clean_campaign_exits_130() {
    for sig in ["INT", "TERM", "HUP"] {
        let dir = temp_dir(&format!("interrupted-{sig}"));
        let mut child = endless_explore(&["--seed", "5"], &dir);
        // Its first line is printed once the handler is in place.
        let (mut lines, mut rest) =
            read_until(child.stdout.take().expect("piped"), "explore: seed");
        signal(child.id(), sig);
        let status = wait_within(child, Duration::from_secs(300), "explore after a signal");
        let mut tail = String::new();
        let _ = std::io::Read::read_to_string(&mut rest, &mut tail);
        lines.push(tail);
        let out = lines.concat();
        assert_eq!(status.code(), Some(130), "SIG{sig}: {out}");
        assert!(out.contains("(interrupted)"), "SIG{sig}: {out}");
        assert!(out.contains("0 invariant violations"), "SIG{sig}: {out}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
