//! What ptoracle writes, in hostile places: stdout a closed pipe, reports
//! to `/dev/null`, a FIFO or a symlink, a full disk; and the reports a
//! person reads.

use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
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

/// Lowers the child's largest file size to `bytes`: a full disk, without
/// root, and also `ulimit -f`. ptoracle ignores SIGXFSZ itself, so that a
/// write beyond the limit fails with EFBIG instead of killing it.
/// Regression: SIGXFSZ killed it, and left a `.tmp` file behind.
fn file_size_limit(c: &mut Command, bytes: u64) {
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        c.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
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

#[test]
fn reports_to_a_symlink_a_fifo_or_a_device_are_written_through_them() {
    use std::os::unix::fs::{FileTypeExt, symlink};
    let dir = scratch("through");
    let real = dir.join("real.json");
    let json = dir.join("report.json");
    symlink(&real, &json).unwrap();
    // As root, a rename over these would replace the devices themselves:
    // links to them in the scratch directory are as good a test, and safe.
    let markdown = dir.join("stdout");
    symlink("/dev/stdout", &markdown).unwrap();
    let junit = dir.join("null");
    symlink("/dev/null", &junit).unwrap();
    let fifo = dir.join("fifo");
    let c_fifo = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c_fifo.as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo))
    };
    let mut c = small_gate(&serve());
    c.arg("--json").arg(&json);
    c.arg("--markdown").arg(&markdown);
    c.arg("--junit").arg(&junit);
    c.arg("--write-expectations").arg(&fifo);
    let out = exits(c, 0);
    for link in [&json, &markdown, &junit] {
        let m = std::fs::symlink_metadata(link).unwrap();
        assert!(
            m.file_type().is_symlink(),
            "{} was replaced",
            link.display()
        );
    }
    let m = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(m.file_type().is_fifo(), "the FIFO was replaced");
    let expectations = reader.join().unwrap().unwrap();
    assert!(expectations.contains("engine:"), "{expectations}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&real).unwrap()).unwrap();
    assert!(report["cases"].is_array());
    assert!(
        text(&out.stdout).contains("ptoracle gate:"),
        "{}",
        text(&out.stdout)
    );
    assert!(std::fs::read_dir(&dir).unwrap().all(|e| {
        let name = e.unwrap().file_name();
        !name.to_string_lossy().ends_with(".tmp")
    }));
}

/// The names of the temporary files left under `dir`.
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    walk(dir)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect()
}

#[test]
fn a_full_disk_leaves_no_temporary_files_and_says_so_once() {
    let dir = scratch("full-gate");
    let mut c = small_gate(&serve());
    c.arg("--json").arg(dir.join("report.json"));
    file_size_limit(&mut c, 16);
    let out = exits(c, 2);
    let stderr = text(&out.stderr);
    assert_eq!(stderr.matches("could not write").count(), 1, "{stderr}");
    assert_eq!(leftovers(&dir), Vec::<PathBuf>::new());

    // Shrunk rulings of generated failures.
    let dir = scratch("full-gate-rulings");
    let mutant = format!("{BIN} serve --mutant base-includes-modifications");
    let mut c = command(&["gate", "--engine", &mutant, "--no-corpus"]);
    c.args(["--generated", "100", "--seed", "1", "--shrink-budget", "20"]);
    c.arg("--out").arg(&dir);
    file_size_limit(&mut c, 16);
    let out = exits(c, 1);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("could not write").count(), 1, "{stdout}");
    assert_eq!(leftovers(&dir), Vec::<PathBuf>::new());

    let dir = scratch("full-explore");
    let mut c = command(&[
        "explore",
        "--cases",
        "2000",
        "--seed",
        "1",
        "--jobs",
        "2",
        "--mutant",
        "damage-lowers-toughness",
    ]);
    c.arg("--out").arg(&dir);
    file_size_limit(&mut c, 16);
    let out = exits(c, 1);
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("error:")).count(),
        1,
        "{stderr}"
    );
    assert_eq!(leftovers(&dir), Vec::<PathBuf>::new());
}

#[test]
fn an_export_that_fails_leaves_no_partial_export() {
    let dir = scratch("full-export");
    let export = dir.join("export");
    let mut c = command(&["export"]);
    c.arg(&export);
    // Enough for the first files, not for the transcript.
    file_size_limit(&mut c, 64 * 1024);
    let out = exits(c, 1);
    let stderr = text(&out.stderr);
    assert_eq!(stderr.matches("could not").count(), 1, "{stderr}");
    let left: Vec<_> = walk(&export);
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.path().is_dir() {
            found.extend(walk(&e.path()));
        } else {
            found.push(e.path());
        }
    }
    found
}

/// The failing records of a JSON report.
fn failures(report: &Path) -> Vec<serde_json::Value> {
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    r["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "fail")
        .cloned()
        .collect()
}

#[test]
fn report_locations_paste_into_explain_and_steps_count_from_one() {
    // From another directory, as an engine's CI runs it.
    let elsewhere = scratch("elsewhere");
    let reports = elsewhere.join("reports");
    let engine = format!("{BIN} serve --mutant counters-after-switch");
    let out = Command::new("bash")
        .arg(root().join("ci/gate.sh"))
        .args(["--engine", &engine, "--reports"])
        .arg(&reports)
        .args(["--", "--filter", "613.4", "--jobs", "1"])
        .current_dir(&elsewhere)
        .env("PTORACLE_BIN", BIN)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let human = text(&out.stdout);
    let junit = std::fs::read_to_string(reports.join("junit.xml")).unwrap();
    let failed = failures(&reports.join("report.json"));
    assert!(!failed.is_empty());
    for c in &failed {
        let source = c["source"].as_str().unwrap();
        let id = c["id"].as_str().unwrap();
        assert!(
            source.starts_with("rulings/") && source.ends_with(&format!("#{id}")),
            "{source}"
        );
        exits(command(&["explain", source]), 0);
        let m = &c["mismatches"][0];
        let said = format!("step {}: {}:", m["step"], m["field"].as_str().unwrap());
        assert!(
            human.contains(&format!("FAIL {id}: {said}")),
            "{said}\n{human}"
        );
        assert!(junit.contains(&said), "{said}");
    }
}

#[test]
fn with_expectations_new_failures_are_listed_first_and_notes_stay_short() {
    let dir = scratch("expectations");
    let mutant = format!("{BIN} serve --mutant damage-lowers-toughness");
    let generated = |c: &mut Command| {
        c.args(["--no-corpus", "--generated", "400", "--seed", "1"]);
        c.args(["--shrink-budget", "0", "--jobs", "2"]);
        c.arg("--out").arg(dir.join("shrunk"));
    };
    let mut c = command(&["gate", "--engine", &mutant]);
    generated(&mut c);
    c.arg("--json").arg(dir.join("all.json"));
    exits(c, 1);
    let failed: Vec<String> = failures(&dir.join("all.json"))
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect();
    assert!(failed.len() > 25, "{}", failed.len());
    // Every failure is known but the last one.
    let (new, known) = failed.split_last().unwrap();
    let mut yaml = String::from("cases:\n");
    for id in known {
        yaml.push_str(&format!("  \"{id}\": {{ verdict: fail, reason: known }}\n"));
    }
    let expectations = dir.join("expectations.yaml");
    std::fs::write(&expectations, &yaml).unwrap();
    let mut c = command(&["gate", "--engine", &mutant]);
    generated(&mut c);
    c.arg("--expectations").arg(&expectations);
    let out = text(&exits(c, 1).stdout);
    assert!(out.contains(&format!("FAIL {new}:")), "{out}");
    assert!(!out.contains("more generated failures"), "{out}");

    // The corpus alone, against the reference, with --strict: the
    // generated entries were not played, one listed corpus case passes.
    yaml.push_str("  \"613.4d/switch-swaps-counters-too\": { verdict: fail, reason: r }\n");
    std::fs::write(&expectations, &yaml).unwrap();
    let mut c = command(&["gate", "--engine", &serve(), "--strict"]);
    c.arg("--expectations").arg(&expectations);
    let out = text(&exits(c, 1).stdout);
    let note = out
        .lines()
        .find(|l| l.contains("this run did not play"))
        .expect("a note on what was not played");
    assert!(
        note.contains(&format!("lists {} case(s)", known.len())),
        "{note}"
    );
    assert!(note.matches("generated/").count() <= 5, "{note}");
    assert!(
        out.contains("the gate fails under --strict: 1 listed case(s) now pass"),
        "{out}"
    );
}

/// `program` fed the export's requests; its replies, in a file.
fn replies_of(program: &mut Command, export: &Path, name: &str) -> PathBuf {
    let path = export.join(name);
    let status = program
        .current_dir(root())
        .stdin(std::fs::File::open(export.join("session/requests.jsonl")).unwrap())
        .stdout(std::fs::File::create(&path).unwrap())
        .status()
        .unwrap();
    assert!(status.success(), "{program:?}");
    path
}

#[test]
fn compare_checks_recorded_replies_as_the_gate_does() {
    let export = scratch("compare").join("export");
    let mut c = command(&["export"]);
    c.arg(&export);
    exits(c, 0);
    let mut template = Command::new("python3");
    template.arg("ci/adapters/python-example/adapter.py");
    let good = replies_of(&mut template, &export, "template.jsonl");
    let mut gate = command(&["gate", "--engine"]);
    gate.arg("python3 ci/adapters/python-example/adapter.py");
    let gate_said = text(&exits(gate, 0).stdout);
    let mut c = command(&["compare"]);
    c.arg(&export).arg(&good);
    let said = text(&exits(c, 0).stdout);
    assert_eq!(
        said.lines().last(),
        gate_said.lines().last(),
        "the gate and compare disagree"
    );
    assert!(said.contains(" 0 failed, 0 errored"), "{said}");

    let mut mutant = Command::new(BIN);
    mutant.args(["serve", "--mutant", "counters-after-switch"]);
    let bad = replies_of(&mut mutant, &export, "mutant.jsonl");
    let mut c = command(&["compare"]);
    c.arg(&export).arg(&bad);
    let said = text(&exits(c, 1).stdout);
    assert!(said.contains("FAIL 613.4"), "{said}");

    let mut c = command(&["compare"]);
    c.arg(&export).arg(export.join("session/requests.jsonl"));
    exits(c, 2);
}

#[test]
fn a_failure_in_the_json_report_is_compact_one_line_per_case() {
    let dir = scratch("compact");
    let report = dir.join("report.json");
    let mutant = format!("{BIN} serve --mutant base-includes-modifications");
    let mut c = command(&["gate", "--engine", &mutant, "--no-corpus"]);
    c.args(["--generated", "200", "--seed", "1", "--shrink-budget", "0"]);
    c.arg("--out").arg(dir.join("shrunk"));
    c.arg("--json").arg(&report);
    exits(c, 1);
    let failed = failures(&report);
    assert!(failed.len() > 20, "{}", failed.len());
    let text = std::fs::read_to_string(&report).unwrap();
    for c in &failed {
        let record = c.as_object().unwrap();
        assert!(record.contains_key("scenario") && record.contains_key("mismatches"));
        // The observations are not repeated: what differs is in mismatches.
        assert!(!record.contains_key("expected") && !record.contains_key("got"));
        let id = format!("{{\"id\":{}", c["id"]);
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&id))
            .expect("one record a line");
        assert!(line.len() < 16 * 1024, "{} bytes: {line}", line.len());
    }
}

#[test]
fn a_full_stderr_does_not_panic() {
    let full = || {
        Stdio::from(
            std::fs::File::options()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
    };
    let mut c = command(&["check", "no-such-rulings"]);
    c.stderr(full());
    let out = run(c);
    assert_eq!(out.status.code(), Some(2));
    let mut c = command(&["explain", "no-such-file.yaml"]);
    c.stderr(full());
    assert_eq!(run(c).status.code(), Some(2));
}
