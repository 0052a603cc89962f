//! `ptoracle matrix`: a site built from small reports made here by the
//! gate (the template adapter, and a deliberately broken reference), its
//! tables, verdict words, escaping, badges, and its errors on bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_ptoracle");

mod common;
use common::root;

fn command(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).current_dir(root()).stdin(Stdio::null());
    c
}

fn exits(mut c: Command, code: i32) -> Output {
    let what = format!("{c:?}");
    let out = c.output().expect("ptoracle runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{what} panicked: {stderr}");
    assert_eq!(out.status.code(), Some(code), "{what}: {stderr}");
    out
}

/// A gate report of `engine` on the 613 cases, written to `json`.
fn report(engine: &str, json: &Path, code: i32) {
    let mut c = command(&[
        "gate",
        "--embedded",
        "--filter",
        "613",
        "--jobs",
        "1",
        "--engine",
    ]);
    c.arg(engine).arg("--json").arg(json);
    exits(c, code);
}

/// Three reports: the template adapter, a mutant, and the template again
/// under a hostile engine name.
fn reports(dir: &Path) -> Vec<PathBuf> {
    let template = dir.join("template.json");
    report(
        "python3 ci/adapters/python-example/adapter.py",
        &template,
        0,
    );
    let mutant = dir.join("mutant.json");
    report(
        &format!("{BIN} serve --mutant wrapping-counters"),
        &mutant,
        0,
    );
    let text = std::fs::read_to_string(&template).expect("report written");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    v["engine"]["name"] = "<script>alert('x')</script> & \"co\"".into();
    let hostile = dir.join("hostile.json");
    std::fs::write(&hostile, v.to_string()).expect("written");
    vec![template, mutant, hostile]
}

#[test]
fn a_site_from_three_reports() {
    let dir = common::scratch("matrix", "site");
    let inputs = reports(&dir);
    let out = dir.join("site");
    let mut c = command(&["matrix", "--findings", "ci/findings.yaml", "--out"]);
    c.arg(&out).args(&inputs);
    exits(c, 0);
    let issue = out.join("findings/dead-creature-keeps-its-damage.md");
    let issue = std::fs::read_to_string(&issue).expect("issue text of an unfiled finding");
    for needle in [
        "- Engine: phase.rs",
        "```yaml",
        "704.5g",
        "## Expected vs observed",
    ] {
        assert!(issue.contains(needle), "issue text lacks {needle}: {issue}");
    }
    let html = std::fs::read_to_string(out.join("index.html")).expect("index.html");
    for needle in [
        "Engines × CR sections",
        "Per CR rule",
        "Cases only one engine fails",
        "Cases every engine fails",
        "<details class=\"case\"",
        "tiny-engine 1.0",
        "consistent",
        "matrix.css",
        "matrix.js",
        "Findings register",
        "History across versions",
        "<pre class=\"explain\">",
        "findings/dead-creature-keeps-its-damage.md",
    ] {
        assert!(html.contains(needle), "index.html lacks {needle}");
    }
    assert!(
        html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;"),
        "the hostile engine name is escaped"
    );
    assert!(!html.contains("<script>alert"), "no engine text is markup");
    assert!(out.join("matrix.css").is_file() && out.join("matrix.js").is_file());
    let md = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    assert!(md.contains("| tiny-engine 1.0 |"), "{md}");
    let badge = std::fs::read_to_string(out.join("badge-tiny-engine-1.0.json")).expect("badge");
    let b: serde_json::Value = serde_json::from_str(&badge).expect("badge JSON");
    assert_eq!(b["schemaVersion"], 1);
    assert_eq!(b["label"], "ptoracle");
    let msg = b["message"].as_str().expect("message");
    // Skipped cases count: a badge of passed/played would say "n/n".
    let summary = &serde_json::from_str::<serde_json::Value>(
        &std::fs::read_to_string(&inputs[0]).expect("report"),
    )
    .expect("JSON")["summary"];
    let n = |k: &str| summary[k].as_u64().expect("count");
    assert!(
        n("skipped") > 0,
        "the template adapter skips some 613 cases"
    );
    let all = n("passed") + n("failed") + n("flaky") + n("errored") + n("skipped") + n("not_run");
    assert_eq!(msg, format!("{}/{all}", n("passed")));
    assert!(b["color"].is_string());
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = common::scratch("matrix", "bad");
    let missing = dir.join("missing.json");
    let mut c = command(&["matrix", "--out"]);
    c.arg(dir.join("site")).arg(&missing);
    let said = String::from_utf8_lossy(&exits(c, 2).stderr).into_owned();
    assert!(said.contains("missing.json"), "{said}");
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"hello\": 1}").expect("written");
    let mut c = command(&["matrix", "--out"]);
    c.arg(dir.join("site")).arg(&junk);
    let said = String::from_utf8_lossy(&exits(c, 2).stderr).into_owned();
    assert!(said.contains("not a ptoracle gate JSON report"), "{said}");
}

#[test]
fn history_names_the_version_that_fixed_a_case() {
    let dir = common::scratch("matrix", "history");
    let old = root().join("docs/conformance/reports/calibration/mutant-wrapping-counters.json");
    let text = std::fs::read_to_string(&old).expect("the published mutant report");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    v["engine"]["version"] = "0.2.0".into();
    for case in v["cases"].as_array_mut().expect("cases") {
        let case = case.as_object_mut().expect("a record");
        case.insert("verdict".into(), "pass".into());
        case.remove("mismatches");
    }
    let new = dir.join("new.json");
    std::fs::write(&new, v.to_string()).expect("written");
    let out = dir.join("site");
    let mut c = command(&["matrix", "--out"]);
    c.arg(&out).arg(&old).arg(&new);
    exits(c, 0);
    let html = std::fs::read_to_string(out.join("index.html")).expect("index.html");
    let history = html
        .split("id=\"history\"")
        .nth(1)
        .and_then(|r| r.split("id=\"cases\"").next())
        .expect("a history section");
    assert!(history.contains("<svg"), "{history}");
    assert!(
        history.contains("<td>0.1.0</td><td>0.2.0</td>"),
        "{history}"
    );
}

/// Issue 31: the mutants and the template engine were columns like the
/// real engines, so a deliberate bug sat among the engines' verdicts and
/// in "only one engine fails". A calibration report is drawn apart, after
/// the engines, and judges nothing.
#[test]
fn calibration_reports_are_drawn_apart_and_judge_nothing() {
    let dir = common::scratch("matrix", "calibration");
    let inputs = reports(&dir);
    let (template, mutant, hostile) = (&inputs[0], &inputs[1], &inputs[2]);
    let out = dir.join("site");
    let mut c = command(&["matrix", "--out"]);
    c.arg(&out)
        .arg(template)
        .arg(hostile)
        .arg("--calibration")
        .arg(mutant);
    let said = String::from_utf8_lossy(&exits(c, 0).stdout).into_owned();
    assert!(said.contains("3 reports (1 calibration)"), "{said}");
    let html = std::fs::read_to_string(out.join("index.html")).expect("index.html");
    let mutant_name = "ptoracle (mutant wrapping-counters)";
    let at = html
        .find("<h2 id=\"calibration\">")
        .expect("a calibration table");
    assert!(
        html[at..].contains(mutant_name),
        "the mutant is in the calibration table"
    );
    let before = &html[..at];
    assert!(
        before.contains("<h2 id=\"engines\">") && !before.contains(mutant_name),
        "the engines come first, the mutant in none of their tables"
    );
    let after_table = &html[at..][html[at..].find("</p>").expect("its note")..];
    assert!(
        !after_table.contains(mutant_name),
        "the mutant's records are not in the cases"
    );
    let md = std::fs::read_to_string(out.join("summary.md")).expect("summary.md");
    let cal = md.find("## Calibration").expect("a calibration section");
    assert!(
        !md[..cal].contains(mutant_name) && md[cal..].contains(mutant_name),
        "{md}"
    );
    assert!(
        out.join("badge-ptoracle--mutant-wrapping-counters--0.1.0.json")
            .is_file(),
        "a calibration engine has its badge"
    );
    // A calibration alone has nothing to calibrate.
    let mut c = command(&["matrix", "--out"]);
    c.arg(dir.join("alone")).arg("--calibration").arg(mutant);
    exits(c, 2);
}
