//! `ptoracle explore` as a user runs it.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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
    let start = Instant::now();
    let o = ptoracle(&[
        "explore",
        "--time",
        "1s",
        "--seed",
        "5",
        "--out",
        temp_dir("time").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(start.elapsed() < Duration::from_secs(30));
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

#[test]
fn ctrl_c_stops_and_reports_what_was_found() {
    let dir = temp_dir("interrupt");
    let child = Command::new(env!("CARGO_BIN_EXE_ptoracle"))
        .args([
            "explore",
            "--time",
            "120s",
            "--seed",
            "9",
            "--mutant",
            "no-annihilation",
            "--out",
            dir.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("ptoracle starts");
    std::thread::sleep(Duration::from_millis(1500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let start = Instant::now();
    let o = child.wait_with_output().expect("ptoracle ends");
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "stopping took {:?}",
        start.elapsed()
    );
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("(interrupted)"), "{out}");
    assert!(
        std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0) > 0,
        "what was found is written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
