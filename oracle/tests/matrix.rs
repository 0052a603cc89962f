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
    // The counts follow the records (a report whose summary contradicts
    // them is refused).
    let n = v["cases"].as_array().map_or(0, Vec::len);
    for (k, count) in [("passed", n), ("failed", 0), ("unexpected", 0)] {
        v["summary"][k] = count.into();
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

/// A report of `copies` times the records of `template`, each id made
/// unique (`ID#k`), its summary counted accordingly: a report as large as
/// a `gate --generated 100000` run's, made without playing it.
fn repeated(template: &Path, copies: usize, out: &Path) {
    let text = std::fs::read_to_string(template).expect("a published report");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let cases = v["cases"].as_array().expect("records").clone();
    let mut all = Vec::with_capacity(cases.len() * copies);
    for k in 0..copies {
        for c in &cases {
            let mut c = c.clone();
            c["id"] = format!("{}#{k}", c["id"].as_str().expect("an id")).into();
            all.push(c);
        }
    }
    // Every summary field of a run that was neither interrupted nor
    // discarded anything is a count of records.
    for (_, n) in v["summary"].as_object_mut().expect("a summary") {
        *n = (n.as_u64().expect("a count") * copies as u64).into();
    }
    v["cases"] = all.into();
    std::fs::write(out, serde_json::to_string(&v).expect("JSON")).expect("written");
}

/// `matrix` looked each case up by a search of the records, per column
/// and per table: quadratic, 100 000 records took 40 s in a release build,
/// 300 000 several minutes in a test build. They are indexed once per
/// report; the limit below is the tests' bound on a hang, far above a
/// normal run (seconds).
#[test]
fn a_report_of_three_hundred_thousand_records_is_drawn() {
    let dir = common::scratch("matrix", "large");
    let big = dir.join("big.json");
    let template =
        root().join("docs/conformance/reports/calibration/mutant-wrapping-counters.json");
    repeated(&template, 900, &big);
    let site = dir.join("site");
    let mut c = command(&["matrix"]);
    c.arg(&big).arg("--out").arg(&site);
    let out = common::output_within(c, std::time::Duration::from_secs(120));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let summary = std::fs::read_to_string(site.join("summary.md")).expect("summary.md");
    let of = serde_json::from_str::<serde_json::Value>(
        &std::fs::read_to_string(&template).expect("the template"),
    )
    .expect("JSON")["summary"]
        .clone();
    let times = |k: &str| of[k].as_u64().expect("a count") * 900;
    let row = format!("| {} | {} | 0 | 0 |", times("passed"), times("failed"));
    assert!(summary.contains(&row), "{row} not in {summary}");
}

/// The published template adapter's report, its engine renamed `name`,
/// written to `dir/file`.
fn renamed(dir: &Path, file: &str, name: &str) -> PathBuf {
    let template = root().join("docs/conformance/reports/calibration/python-example.json");
    let text = std::fs::read_to_string(template).expect("a published report");
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    v["engine"]["name"] = name.into();
    let p = dir.join(file);
    std::fs::write(&p, v.to_string()).expect("written");
    p
}

/// The site's files, each with its bytes.
fn site_files(site: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(site)
        .expect("the site")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.is_file())
        .map(|p| {
            let name = p
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&p).expect("readable"))
        })
        .collect();
    files.sort();
    files
}

/// Fails if a temporary directory of the writer is left in `site`.
fn no_temporary_left(site: &Path) {
    let left: Vec<String> = std::fs::read_dir(site)
        .expect("the site")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.contains("tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// Two engines whose names reduce to one file name, and one report given
/// twice, shared a badge (the last written won); a 300-character engine
/// name failed with "File name too long" after half the site was written.
/// Each column has a badge of its own, named within 255 bytes, and the
/// page links each to its own.
#[test]
fn every_column_has_a_badge_of_its_own() {
    let dir = common::scratch("matrix", "badges");
    let long = "Test Engine ".repeat(25);
    let inputs = [
        renamed(&dir, "slash.json", "test/engine"),
        renamed(&dir, "space.json", "test engine"),
        renamed(&dir, "upper.json", "TEST ENGINE"),
        renamed(&dir, "long.json", &long),
    ];
    let site = dir.join("site");
    let mut c = command(&["matrix", "--out"]);
    c.arg(&site).args(&inputs).arg(&inputs[0]);
    exits(c, 0);
    let files = site_files(&site);
    let badges: Vec<&(String, Vec<u8>)> =
        files.iter().filter(|f| f.0.starts_with("badge-")).collect();
    let names: Vec<&str> = badges.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(badges.len(), 5, "one badge per column: {names:?}");
    assert!(names.iter().all(|n| n.len() <= 255), "{names:?}");
    for n in ["badge-test-engine-1.0.json", "badge-test-engine-1.0-2.json"] {
        assert!(names.contains(&n), "{n} in {names:?}");
    }
    assert!(
        names.contains(&"badge-TEST-ENGINE-1.0-3.json"),
        "names that differ only in case are apart too: {names:?}"
    );
    let html = std::fs::read_to_string(site.join("index.html")).expect("index.html");
    for n in &names {
        assert!(html.contains(&format!("href=\"{n}\"")), "{n} is linked");
    }
    no_temporary_left(&site);
}

/// An error while the site is written leaves the site that was there as
/// it was: every file is written into a temporary directory first, then
/// renamed into place.
#[test]
fn a_site_that_cannot_be_written_leaves_the_old_one_intact() {
    let dir = common::scratch("matrix", "atomic");
    let site = dir.join("site");
    let first = renamed(&dir, "first.json", "test engine");
    let mut c = command(&["matrix", "--out"]);
    c.arg(&site).arg(&first);
    exits(c, 0);
    let before = site_files(&site);
    // An unfiled finding whose issue text cannot be written: its file name
    // (the ruling's stem) is longer than a file system admits.
    let register = dir.join("ci").join("findings.yaml");
    std::fs::create_dir_all(register.parent().expect("a parent")).expect("ci/");
    let stem = "x".repeat(300);
    std::fs::write(
        &register,
        format!(
            "findings:\n- engine: test engine\n  versions: '0.1'\n  ruling: rulings/{stem}.yaml\n  title: Test finding\n  status: not filed\n"
        ),
    )
    .expect("a register");
    let second = renamed(&dir, "second.json", "test other engine");
    let mut c = command(&["matrix", "--out"]);
    c.arg(&site).arg("--findings").arg(&register).arg(&second);
    let out = exits(c, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains(&stem), "the error names the file: {said}");
    assert_eq!(site_files(&site), before, "the old site is intact");
    no_temporary_left(&site);
}
