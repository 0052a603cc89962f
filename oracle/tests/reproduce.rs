//! Reproductions (docs/protocol.md, "Reproductions"), from the gate's side:
//! offered only with `gate --reproduce`, asked of an engine that declares
//! them for each failure, written in `--out` and named in the report, a
//! refusal noted; against `tests/engines/reproducer.py`, which fronts a
//! mutant of `ptoracle serve` and writes programs that print the request's
//! differences.

use std::path::Path;
use std::process::Command;

mod common;
use common::root;

const BIN: &str = env!("CARGO_BIN_EXE_ptoracle");

fn gate(out: &Path, extra: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let output = Command::new(BIN)
        .args([
            "gate",
            "--engine",
            "python3 oracle/tests/engines/reproducer.py no-annihilation",
            "--filter",
            "704.5q",
            "--jobs",
            "1",
            "--out",
        ])
        .arg(out)
        .args(extra)
        .current_dir(root())
        .env("PTORACLE_BIN", BIN)
        .envs(env.iter().copied())
        .output()
        .expect("ptoracle runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn each_failure_gets_its_program_only_when_asked() {
    let out = common::scratch("reproduce", "asked");
    let json = out.join("report.json");
    let (code, stdout) = gate(
        &out,
        &["--reproduce", "--json", json.to_str().unwrap()],
        &[],
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("reproductions: python programs (.py) written in"),
        "{stdout}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let failed: Vec<&serde_json::Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "fail")
        .collect();
    assert!(!failed.is_empty());
    for case in failed {
        let path = case["reproduction"]
            .as_str()
            .expect("a failure's reproduction");
        assert!(stdout.contains(&format!("    reproduction: {path}")));
        // The program checks what differs: the mutant leaves +1/+1 and
        // -1/-1 counters side by side (704.5q), so it exits 1.
        let ran = Command::new("python3").arg(path).output().unwrap();
        assert_eq!(ran.status.code(), Some(1), "{path}");
        let printed = String::from_utf8_lossy(&ran.stdout);
        assert!(printed.contains("counters: engine {"), "{printed}");
    }
    // Without --reproduce nothing is offered, asked or written.
    let quiet = common::scratch("reproduce", "not-asked");
    let (code, stdout) = gate(&quiet, &[], &[]);
    assert_eq!(code, 1);
    assert!(!stdout.contains("reproduction"), "{stdout}");
    assert_eq!(std::fs::read_dir(&quiet).unwrap().count(), 0);
}

#[test]
fn a_refusal_is_noted_and_the_verdict_stands() {
    let out = common::scratch("reproduce", "refused");
    let (code, stdout) = gate(&out, &["--reproduce"], &[("REPRODUCER_REFUSE", "1")]);
    assert_eq!(code, 1);
    assert!(
        stdout
            .contains("note: no reproduction: the engine writes none for this case: not this one"),
        "{stdout}"
    );
    assert!(stdout.contains("FAIL 704.5q/"), "{stdout}");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 0);
}
