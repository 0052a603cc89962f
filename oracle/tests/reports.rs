//! The gate's JSON reports as `matrix` and `baseline` read them: a report
//! is the word of its records, and a hostile file (a forged summary, a
//! case recorded twice, a FIFO, a device, a file too large) is bad input
//! (exit 2) naming the report and what is wrong, never a silent pass, a
//! hang or a read without end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_ptoracle");

mod common;
use common::root;

/// A published report of the mutant `wrapping-counters` (every case
/// passed but 1, none skipped), as JSON.
fn published() -> serde_json::Value {
    let p = root().join("docs/conformance/reports/calibration/mutant-wrapping-counters.json");
    let text = std::fs::read_to_string(p).expect("the published report");
    serde_json::from_str(&text).expect("JSON")
}

/// How many cases the published report passes (its summary agrees with
/// its records: the loader checks it).
fn passed() -> u64 {
    published()["summary"]["passed"].as_u64().expect("a count")
}

fn write(dir: &Path, name: &str, v: &serde_json::Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, v.to_string()).expect("written");
    p
}

/// Runs `ptoracle ARGS...` (from the repository, no stdin) to its end,
/// for at most two minutes: one that blocks (on a FIFO) fails the test
/// instead of hanging it.
fn run(args: &[&std::ffi::OsStr]) -> Output {
    let mut c = Command::new(BIN);
    c.args(args).current_dir(root()).stdin(Stdio::null());
    let out = common::output_within(c, std::time::Duration::from_secs(120));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    out
}

/// `ptoracle matrix --out SITE REPORTS...`.
fn matrix(site: &Path, reports: &[&Path]) -> Output {
    let mut args = vec!["matrix".as_ref(), "--out".as_ref(), site.as_os_str()];
    args.extend(reports.iter().map(|r| r.as_os_str()));
    run(&args)
}

/// `matrix --out DIR/site REPORT` and `baseline REPORT REPORT` both refuse
/// `report` as bad input; the two error messages.
fn refused(dir: &Path, report: &Path) -> [String; 2] {
    let m = matrix(&dir.join("site"), &[report]);
    let b = run(&["baseline".as_ref(), report.as_os_str(), report.as_os_str()]);
    [m, b].map(|out| {
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{report:?}: {said}");
        assert!(
            said.contains(&report.display().to_string()),
            "the error names the report: {said}"
        );
        said
    })
}

#[test]
fn the_published_report_is_drawn() {
    let dir = common::scratch("reports", "published");
    let report = write(&dir, "ok.json", &published());
    let site = dir.join("site");
    let m = matrix(&site, &[&report]);
    assert_eq!(
        m.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&m.stderr)
    );
    let badge = std::fs::read_dir(&site)
        .expect("site")
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with("badge-"))
        .expect("a badge");
    let badge = std::fs::read_to_string(badge.path()).expect("badge");
    let n = published()["cases"].as_array().expect("records").len();
    let score = format!("\"{}/{n}\"", n - 1);
    assert!(badge.contains(&score), "{score} not in {badge}");
}

/// A summary that contradicts the records (a billion passes, or cases
/// "not run" in a run that was neither interrupted nor stopped) is refused,
/// naming the field: the badge would otherwise say `1000000000/1000000334`.
#[test]
fn a_forged_summary_is_refused() {
    let dir = common::scratch("reports", "forged");
    let mut v = published();
    v["summary"]["passed"] = 1_000_000_000u64.into();
    let forged = write(&dir, "forged.json", &v);
    for said in refused(&dir, &forged) {
        assert!(said.contains("summary.passed"), "{said}");
        assert!(
            said.contains("1000000000") && said.contains(&format!("count {}", passed())),
            "{said}"
        );
    }
    assert!(!dir.join("site").exists(), "nothing is drawn");
    let mut v = published();
    v["summary"]["not_run"] = 1_000_000u64.into();
    let not_run = write(&dir, "not-run.json", &v);
    for said in refused(&dir, &not_run) {
        assert!(said.contains("summary.not_run"), "{said}");
    }
    let mut v = published();
    v["summary"]["discarded"] = 5u64.into();
    let discarded = write(&dir, "discarded.json", &v);
    for said in refused(&dir, &discarded) {
        assert!(said.contains("summary.discarded"), "{said}");
    }
    // A verdict changed without its count: the records' word is refused too.
    let mut v = published();
    v["cases"][0]["verdict"] = "skip".into();
    v["cases"][0]["reason"] = "edited".into();
    let edited = write(&dir, "edited.json", &v);
    for said in refused(&dir, &edited) {
        assert!(said.contains("summary."), "{said}");
    }
}

/// A case recorded twice is refused, naming the id: read by id, one of the
/// two records would be dropped unseen.
#[test]
fn a_case_recorded_twice_is_refused() {
    let dir = common::scratch("reports", "twice");
    let mut v = published();
    let first = v["cases"][0].clone();
    let id = first["id"].as_str().expect("an id").to_string();
    v["cases"].as_array_mut().expect("cases").push(first);
    // Counted as played twice, so that only the repetition is wrong.
    let passed = v["summary"]["passed"].as_u64().expect("a count");
    v["summary"]["passed"] = (passed + 1).into();
    let twice = write(&dir, "twice.json", &v);
    for said in refused(&dir, &twice) {
        assert!(
            said.contains(&format!("case `{id}` is recorded twice")),
            "{said}"
        );
    }
}

/// A FIFO blocked `matrix` and `baseline` for ever, `/dev/zero` was read
/// until memory ran out: a report is a regular file of at most 1 GiB, as
/// the corpus loader's files are regular files of bounded size.
#[cfg(unix)]
#[test]
fn a_fifo_a_device_or_a_huge_file_is_refused_unread() {
    let dir = common::scratch("reports", "special");
    let fifo = dir.join("fifo.json");
    common::mark_pipe(&fifo);
    for said in refused(&dir, &fifo) {
        assert!(
            said.contains("not a regular file (a FIFO): a gate JSON report is a regular file"),
            "{said}"
        );
    }
    let zero = dir.join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("a link");
    for said in refused(&dir, &zero) {
        assert!(said.contains("not a regular file (a device)"), "{said}");
    }
    // Sparse: no disk is used, and none of it is read.
    let huge = dir.join("huge.json");
    let f = std::fs::File::create(&huge).expect("created");
    f.set_len(ptoracle::gate::baseline::MAX_REPORT_BYTES + 1)
        .expect("a sparse file");
    for said in refused(&dir, &huge) {
        assert!(
            said.contains("larger than 1 GiB (the limit of a gate JSON report)"),
            "{said}"
        );
    }
}
