//! The gate, run as a user runs it: `ptoracle gate --engine CMD` against
//! `ptoracle serve`, its mutants, and misbehaving engines (real
//! subprocesses: `tests/engines/misbehave.py`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{alive, mark_pipe, read_mark, signal, wait_within};

const BIN: &str = env!("CARGO_BIN_EXE_ptoracle");

mod common;
use common::root;

fn scratch(name: &str) -> PathBuf {
    common::scratch("gate", name)
}

struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs ptoracle with `args` from the repository root; fails the test if
/// it takes longer than `limit` (the gate must never hang).
fn ptoracle(args: &[&str], env: &[(&str, &str)], limit: Duration) -> Ran {
    let out_dir = scratch("out");
    let (stdout_path, stderr_path) = (out_dir.join("stdout"), out_dir.join("stderr"));
    let child = Command::new(BIN)
        .args(args)
        .current_dir(root())
        .env("PTORACLE_BIN", BIN)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .expect("ptoracle starts");
    let status = wait_within(child, limit, &format!("ptoracle {args:?}"));
    Ran {
        code: status.code().unwrap_or(-1),
        stdout: std::fs::read_to_string(&stdout_path).unwrap(),
        stderr: std::fs::read_to_string(&stderr_path).unwrap(),
    }
}

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

fn misbehave(mode: &str) -> String {
    format!("python3 oracle/tests/engines/misbehave.py {mode}")
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Runs the gate against a misbehaving engine on the [`FILTER`] slice with
/// one job, writing the JSON, JUnit and Markdown reports into a scratch
/// directory: the run and the three paths.
fn gate_reports(mode: &str) -> (Ran, PathBuf, PathBuf, PathBuf) {
    let dir = scratch(mode);
    let (report, junit, markdown) = (
        dir.join("report.json"),
        dir.join("junit.xml"),
        dir.join("report.md"),
    );
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &misbehave(mode),
            "--filter",
            FILTER,
            "--jobs",
            "1",
            "--json",
            report.to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
            "--markdown",
            markdown.to_str().unwrap(),
        ],
        &[],
        Duration::from_secs(60),
    );
    (r, report, junit, markdown)
}

/// A small slice of the corpus for the misbehaving engines: the second
/// case is the one they misbehave on.
const FILTER: &str = "613.4d";

/// A long run whose stderr is no terminal (a CI log) says how far it is in
/// plain lines, one every 5% of the cases, counted in cases so that the
/// same run prints the same lines; a short run prints none.
#[test]
fn a_long_run_logs_progress_lines_without_a_terminal() {
    let serve = format!("{BIN} serve");
    let args = |n: &'static str| {
        [
            "gate",
            "--engine",
            &serve,
            "--no-corpus",
            "--generated",
            n,
            "--seed",
            "5",
        ]
        .map(str::to_string)
    };
    let long = args("2000");
    let long: Vec<&str> = long.iter().map(String::as_str).collect();
    let r = ptoracle(&long, &[], Duration::from_secs(300));
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let lines: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("gate: ") && l.contains(" cases ("))
        .collect();
    assert!(
        lines[0].starts_with("gate: 100/2000 cases (5%), 0 failed, 0 errored, "),
        "{}",
        r.stderr
    );
    // Unplayable indices are not cases, so the last lines may not come.
    assert!((15..=20).contains(&lines.len()), "{}", r.stderr);
    let short = args("300");
    let short: Vec<&str> = short.iter().map(String::as_str).collect();
    let r = ptoracle(&short, &[], Duration::from_secs(120));
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(!r.stderr.contains(" cases ("), "{}", r.stderr);
}

#[test]
fn serve_passes_the_corpus_and_generated_cases() {
    let serve = format!("{BIN} serve");
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &serve,
            "--generated",
            "300",
            "--seed",
            "11",
        ],
        &[],
        Duration::from_secs(120),
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let last = last_line(&r.stdout);
    assert!(
        last.ends_with(" passed, 0 failed, 0 errored, 0 skipped"),
        "{last}"
    );
}

/// Each misbehaviour gives its own error verdict on the second case, the
/// engine is restarted, and every other case passes.
/// The gate on the cases of [`FILTER`], one job, a 2 s timeout, against
/// the misbehaving engine in `mode`, its JSON report written to `report`.
fn misbehaving_gate(mode: &str, report: &Path, env: &[(&str, &str)]) -> Ran {
    ptoracle(
        &[
            "gate",
            "--engine",
            &misbehave(mode),
            "--filter",
            FILTER,
            "--jobs",
            "1",
            "--timeout",
            "2s",
            "--json",
            report.to_str().unwrap(),
        ],
        env,
        Duration::from_secs(60),
    )
}

#[test]
fn misbehaving_engines_give_error_verdicts_and_the_gate_goes_on() {
    let cases = [
        ("crash", "crash", "exited with status 3"),
        ("hang", "timeout", "no answer within 2s"),
        (
            "garbage",
            "garbage",
            "NullPointerException\"; an engine's stdout carries protocol messages only: logs and prints go to stderr",
        ),
        ("floats", "non-integer", "written as a float"),
        ("fraction", "non-integer", "2.5: not an integer"),
        ("omit", "protocol", "missing field `damage`"),
        ("wrong-seq", "protocol", "sequence number 99"),
        ("duplicate-key", "protocol", "power` is given twice"),
        ("reply-twice", "protocol", "the engine wrote more"),
        ("reply-early", "protocol", "the engine wrote more"),
        // Written once the next request is there, but before the engine
        // read it: taken for its answer, the engine's next case would hang.
        (
            "reply-unread",
            "protocol",
            "after its reply to request 3 the engine wrote more (a reply to request 4, of which it had not read the last ",
        ),
        (
            "beyond-64-bits",
            "non-integer",
            "9223372036854775808: an integer too large for 64 bits",
        ),
        ("huge-line", "too-long", "more than 16777216 bytes"),
        ("engine-error", "engine-error", "NotImplementedError"),
    ];
    for (mode, kind, words) in cases {
        let report = scratch(mode).join("report.json");
        let r = misbehaving_gate(mode, &report, &[]);
        assert_eq!(r.code, 1, "{mode}: {}\n{}", r.stdout, r.stderr);
        let v = json(&report);
        let cases = v["cases"].as_array().unwrap();
        let errors: Vec<&serde_json::Value> =
            cases.iter().filter(|c| c["verdict"] == "error").collect();
        assert_eq!(errors.len(), 1, "{mode}: {}", r.stdout);
        assert_eq!(errors[0]["kind"], kind, "{mode}: {}", errors[0]);
        let message = errors[0]["message"].as_str().unwrap();
        assert!(message.contains(words), "{mode}: {message}");
        assert_eq!(cases[1]["verdict"], "error", "{mode}: the second case");
        let passed = cases.iter().filter(|c| c["verdict"] == "pass").count();
        assert_eq!(passed, cases.len() - 1, "{mode}: the others pass");
        assert!(
            last_line(&r.stdout).ends_with("0 failed, 1 errored, 0 skipped"),
            "{mode}: {}",
            r.stdout
        );
        // An error is the engine's, not a rule's: its line cites none.
        let line = r.stdout.lines().find(|l| l.starts_with("ERROR ")).unwrap();
        assert!(!line.ends_with(']'), "{mode}: {line}");
    }
}

/// A generated case's error (or any error) ends in no rules: the
/// generator's placeholder `613` explained nothing.
#[test]
fn an_error_cites_no_rules() {
    let dir = scratch("error-rules");
    let (report, markdown) = (dir.join("report.json"), dir.join("report.md"));
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &misbehave("floats"),
            "--no-corpus",
            "--generated",
            "6",
            "--seed",
            "1",
            "--jobs",
            "1",
            "--json",
            report.to_str().unwrap(),
            "--markdown",
            markdown.to_str().unwrap(),
        ],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let line = r.stdout.lines().find(|l| l.starts_with("ERROR ")).unwrap();
    assert!(line.starts_with("ERROR generated/1/"), "{line}");
    assert!(!line.contains("[613]") && !line.ends_with(']'), "{line}");
    let md = std::fs::read_to_string(&markdown).unwrap();
    let row = md.lines().find(|l| l.contains("| error |")).unwrap();
    assert!(row.ends_with("|  |"), "{row}");
}

/// A run that plays no case checked nothing: an adapter that declares no
/// feature the cases need, or answers every one `unsupported`, fails the
/// gate (exit 1, saying so in every report) unless --allow-none-played
/// asks for that.
#[test]
fn a_run_that_plays_no_case_fails_unless_allowed() {
    for (mode, env) in [
        ("no-features", &[][..]),
        ("unsupported", &[("MISBEHAVE_ON", "all")][..]),
    ] {
        let dir = scratch(&format!("none-played-{mode}"));
        let markdown = dir.join("report.md");
        let args = |allow: bool| {
            let mut a = vec![
                "gate".to_string(),
                "--engine".into(),
                misbehave(mode),
                "--filter".into(),
                FILTER.into(),
                "--markdown".into(),
                markdown.display().to_string(),
            ];
            if allow {
                a.push("--allow-none-played".into());
            }
            a
        };
        let run = |a: Vec<String>| {
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            ptoracle(&a, env, Duration::from_secs(60))
        };
        let r = run(args(false));
        assert_eq!(r.code, 1, "{mode}: {}\n{}", r.stdout, r.stderr);
        assert!(
            r.stdout
                .contains("\nnothing played: every case was skipped"),
            "{mode}: {}",
            r.stdout
        );
        assert!(
            last_line(&r.stdout).starts_with("0 passed, 0 failed, 0 errored, "),
            "{mode}: {}",
            r.stdout
        );
        let md = std::fs::read_to_string(&markdown).unwrap();
        assert!(
            md.starts_with("## ❌ ") && md.contains("nothing played"),
            "{md}"
        );
        let r = run(args(true));
        assert_eq!(r.code, 0, "{mode}: {}\n{}", r.stdout, r.stderr);
        assert!(!r.stdout.contains("nothing played"), "{mode}: {}", r.stdout);
    }
}

/// An engine that errs on every case is not restarted for every case:
/// once the first N cases played all ended in an error of one kind the
/// gate stops, says so, writes its reports of what was played and fails.
/// An engine that errs first and then passes is played to the end.
#[test]
fn an_engine_that_errs_alike_on_its_first_cases_is_stopped_early() {
    let dir = scratch("stop-early");
    let (report, junit, markdown) = (
        dir.join("report.json"),
        dir.join("junit.xml"),
        dir.join("report.md"),
    );
    let gate = |limit: &str, env: &[(&str, &str)]| {
        ptoracle(
            &[
                "gate",
                "--engine",
                &misbehave("floats"),
                "--filter",
                FILTER,
                "--jobs",
                "1",
                "--stop-after-same-errors",
                limit,
                "--json",
                report.to_str().unwrap(),
                "--junit",
                junit.to_str().unwrap(),
                "--markdown",
                markdown.to_str().unwrap(),
            ],
            env,
            Duration::from_secs(60),
        )
    };
    let r = gate("3", &[("MISBEHAVE_ON", "all")]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(
            "\nstopped: the first 3 cases played all ended in a `non-integer` error, as every case may (the first: `steps[0]."
        ),
        "{}",
        r.stdout
    );
    let v = json(&report);
    let cases = v["cases"].as_array().unwrap();
    assert!(
        v["stopped"]
            .as_str()
            .unwrap()
            .starts_with("the first 3 cases"),
        "{v}"
    );
    assert!((3..10).contains(&cases.len()), "{}", cases.len());
    assert!(cases.iter().all(|c| c["kind"] == "non-integer"), "{v}");
    assert_eq!(
        v["summary"]["not_run"].as_u64().unwrap() as usize,
        10 - cases.len()
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let parsed = quick_junit::Report::deserialize_from_str(&xml).unwrap();
    assert_eq!(parsed.errors, cases.len());
    let md = std::fs::read_to_string(&markdown).unwrap();
    assert!(
        md.starts_with("## ❌ ") && md.contains("\n**stopped: the first 3 cases"),
        "{md}"
    );
    // The first case errs, the next ones pass: the watch ends there.
    let r = gate("2", &[("MISBEHAVE_ON", "1")]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("stopped:"), "{}", r.stdout);
    assert!(
        last_line(&r.stdout).ends_with(" passed, 0 failed, 1 errored, 0 skipped"),
        "{}",
        r.stdout
    );
    assert!(json(&report)["stopped"].is_null());
    assert_eq!(json(&report)["cases"].as_array().unwrap().len(), 10);
}

/// An engine that answers one case two ways is flaky, whichever answer
/// came first, with both answers in the report; the gate fails it.
#[test]
fn an_engine_that_answers_differently_when_asked_again_is_flaky() {
    let (r, report, junit, markdown) = gate_reports("alternate");
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = json(&report);
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 2, "{}", r.stdout);
    for c in cases {
        assert_eq!(c["verdict"], "flaky", "{c}");
        let m = &c["mismatches"][0];
        assert!(m["field"].as_str().unwrap().ends_with(".pt"), "{c}");
        assert_ne!(m["expected"], m["got"], "{c}");
        assert_ne!(c["got"], c["again"], "{c}");
        assert!(
            c["expected"].is_object() && c["scenario"].is_object(),
            "{c}"
        );
    }
    assert_eq!(v["summary"]["flaky"], cases.len(), "{v}");
    assert!(r.stdout.contains("FLAKY "), "{}", r.stdout);
    assert!(
        last_line(&r.stdout).ends_with(&format!(
            "0 passed, 0 failed, {} flaky, 0 errored, 0 skipped",
            cases.len()
        )),
        "{}",
        r.stdout
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains(r#"type="flaky""#), "{xml}");
    let md = std::fs::read_to_string(&markdown).unwrap();
    assert!(md.contains("| flaky |"), "{md}");
}

/// The nondeterministic mutant (ties of timestamps broken differently from
/// one evaluation to the next) fails the corpus gate every run, not only
/// when its first answer happens to be wrong, and with several jobs, where
/// which process answers which case changes from run to run: the corpus
/// has a case with eight ties in a row that luck cannot pass.
#[test]
fn the_nondeterministic_mutant_fails_the_corpus_gate_every_run() {
    let engine = format!("{BIN} serve --mutant nondeterministic");
    for _ in 0..3 {
        let r = ptoracle(
            &["gate", "--engine", &engine, "--jobs", "2"],
            &[],
            Duration::from_secs(60),
        );
        assert_eq!(r.code, 1, "{}", r.stdout);
        assert!(r.stdout.contains(" 613.7/"), "{}", r.stdout);
    }
}

/// Every answer is final only once the engine is seen to have written
/// nothing more after it: the last one included, checked at the end.
#[test]
fn an_engine_that_always_replies_twice_errs_every_case() {
    let (r, report, _, _) = gate_reports("reply-twice-always");
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let v = json(&report);
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 2, "{}", r.stdout);
    for c in cases {
        assert_eq!(c["verdict"], "error", "{c}");
        assert_eq!(c["kind"], "protocol", "{c}");
        let message = c["message"].as_str().unwrap();
        assert!(message.contains("the engine wrote more"), "{message}");
    }
}

/// What an engine says (its name, messages, stderr) reaches no report
/// raw: no escape sequence, no NUL, no line of its own.
#[test]
fn engine_text_is_escaped_in_every_report() {
    let (r, report, junit, markdown) = gate_reports("hostile-text");
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    // The engine's stderr reaches a report only as far as it was read by
    // the time of the reply: put it there for certain.
    let mut report: ptoracle::gate::Report =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    for c in &mut report.cases {
        if c.outcome.kind() == ptoracle::gate::Kind::Error {
            c.stderr = "\u{1b}[31mred\0 <&]]>\u{7}\nPASS fake\n".into();
        }
    }
    let files = [
        ("stdout", r.stdout.clone()),
        ("markdown", std::fs::read_to_string(&markdown).unwrap()),
        ("junit", std::fs::read_to_string(&junit).unwrap()),
        ("human", report.human(false)),
        ("markdown again", report.markdown()),
        ("junit again", report.junit()),
    ];
    for (what, text) in &files {
        assert!(
            !text.contains(['\u{1b}', '\0', '\u{7}', '\u{202e}']),
            "{what}: {text:?}"
        );
        // (A stderr keeps its lines in JUnit's system-err.)
        let fake = text
            .lines()
            .any(|l| l.starts_with("PASS ") && !l.starts_with("PASS fake"));
        assert!(!fake, "{what}: {text}");
        // Markdown shows `\u{1b}[2J` written with its backslash and
        // bracket escaped.
        let shown = if what.starts_with("markdown") {
            r"\\u{1b}\[2J"
        } else {
            r"\u{1b}[2J"
        };
        assert!(text.contains(shown), "{what}: {text}");
    }
    // Markdown renders raw HTML and links: the engine's name and message
    // reach it as text (entities, backslashes), as in the matrix's page.
    for (what, text) in [&files[1], &files[4]] {
        for raw in ["<img", "<script", "a](javascript"] {
            assert!(!text.contains(raw), "{what}: {raw} passes raw: {text}");
        }
        assert!(
            text.contains("&lt;img src=x onerror=alert(1)&gt;"),
            "{what}: {text}"
        );
        assert!(text.contains(r"\[a\](javascript:x)"), "{what}: {text}");
    }
    let human = report.human(false);
    assert!(
        human.contains(r"stderr: \u{1b}[31mred\0 <&]]>\u{7}"),
        "{human}"
    );
    // Well-formed XML: no control characters but newlines, and the
    // stderr's markup escaped.
    let xml = report.junit();
    assert!(
        xml.contains(r"\u{1b}[31mred\0 &lt;&amp;]]&gt;\u{7}"),
        "{xml}"
    );
}

#[test]
fn a_crash_keeps_the_end_of_stderr() {
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &misbehave("crash"),
            "--filter",
            FILTER,
            "--jobs",
            "1",
        ],
        &[],
        Duration::from_secs(60),
    );
    assert!(
        r.stdout.contains("stderr: misbehave: crashing on purpose"),
        "{}",
        r.stdout
    );
}

/// An engine that closes its output and then says why before it exits:
/// the crash waits for its exit (within the case's timeout) and for the
/// end of its stderr, so those last words are in the report. Regression:
/// the gate read stderr 20 ms after the crash and lost what came later
/// (and, on a loaded machine, even what came before).
#[test]
fn the_last_words_of_a_crashing_engine_are_kept() {
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &misbehave("last-words"),
            "--filter",
            FILTER,
            "--jobs",
            "1",
            "--timeout",
            "600s",
        ],
        &[],
        Duration::from_secs(300),
    );
    assert!(
        r.stdout
            .contains("stderr: misbehave: last words after closing stdout"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_flood_of_stderr_does_not_block_the_engine() {
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &misbehave("stderr-flood"),
            "--filter",
            FILTER,
            "--jobs",
            "1",
        ],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
}

#[test]
fn unsupported_is_a_skip() {
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &misbehave("unsupported"),
            "--filter",
            FILTER,
            "--jobs",
            "1",
        ],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout.contains("unsupported: no switch effects yet"),
        "{}",
        r.stdout
    );
    assert!(
        last_line(&r.stdout).ends_with("0 errored, 1 skipped"),
        "{}",
        r.stdout
    );
}

/// Issue 33 item 8 (D90): a case within the case limits whose correct
/// reply is longer than the gate's line limit (10 000 objects × 100 steps
/// make one of 294 MiB against the default 16 MiB) is skipped with that
/// reason, not charged to the engine as a `too-long` error; a case whose
/// correct reply fits is played as ever.
#[test]
fn a_case_whose_correct_reply_exceeds_the_line_limit_is_skipped_not_an_error() {
    let dir = scratch("too-long-to-judge");
    let rulings = dir.join("rulings");
    std::fs::create_dir_all(&rulings).unwrap();
    let mut big = String::from(
        "id: big/forty-bears\ntitle: forty creatures observed twice\nrules: [\"613.4c\"]\nsetup:\n  objects:\n",
    );
    for i in 0..40 {
        big.push_str(&format!(
            "    - {{ id: test-bear-{i}, types: [Creature], pt: 2/2 }}\n"
        ));
    }
    big.push_str(
        "steps:\n  - do: { put_counters: { on: test-bear-0, kind: +1/+1 } }\n    expect: { test-bear-0: { pt: 3/3 } }\n  - do: { put_counters: { on: test-bear-1, kind: +1/+1 } }\n",
    );
    let small = "id: big/one-bear\ntitle: one creature\nrules: [\"613.4c\"]\nsetup:\n  objects:\n    - { id: bear, types: [Creature], pt: 2/2 }\nsteps:\n  - do: { put_counters: { on: bear, kind: +1/+1 } }\n    expect: { bear: { pt: 3/3 } }\n";
    std::fs::write(rulings.join("big.yaml"), big).unwrap();
    std::fs::write(rulings.join("small.yaml"), small).unwrap();
    let report = dir.join("report.json");
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &format!("{BIN} serve"),
            "--max-line",
            "8192",
            "--jobs",
            "1",
            "--json",
            report.to_str().unwrap(),
            rulings.to_str().unwrap(),
        ],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        last_line(&r.stdout).ends_with("1 passed, 0 failed, 0 errored, 1 skipped"),
        "{}",
        r.stdout
    );
    let v = json(&report);
    let big = v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "big/forty-bears")
        .unwrap();
    assert_eq!(big["verdict"], "skip", "{big}");
    let reason = big["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("a correct reply exceeds the line limit")
            && reason.contains("longer than 8192 bytes"),
        "{big}"
    );
}

/// The skip summary counts a generated case's reason once whatever object
/// it names (`oN`), as it does whatever step: an adapter that names the
/// object it cannot map ("setup object o3: ...") had its skips split into
/// one line per handle.
#[test]
fn generated_skip_reasons_are_one_line_whatever_object_they_name() {
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &misbehave("unsupported-objects"),
            "--filter",
            FILTER,
            "--generated",
            "60",
            "--seed",
            "1",
            "--jobs",
            "1",
        ],
        &[],
        Duration::from_secs(120),
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    // Every generated case is skipped with that reason: one line, no other.
    let skipped = r
        .stdout
        .lines()
        .find(|l| l.starts_with("skipped "))
        .unwrap();
    let count = skipped["skipped ".len()..].trim_end_matches(':');
    let line = format!("{count:>7}  unsupported: setup object oN: no such counters");
    assert!(r.stdout.lines().any(|l| l == line), "{}", r.stdout);
}

#[test]
fn an_engine_that_cannot_shake_hands_errs_every_case_and_exits_3() {
    for (mode, kind, words) in [
        (
            "handshake-exit",
            "handshake",
            "exited with status 4 during the handshake",
        ),
        (
            "version",
            "version",
            "speaks protocol 2; this ptoracle speaks protocol 1",
        ),
        // A misspelt feature would skip every case that needs it: the
        // hello is refused, naming it and the features ptoracle knows.
        (
            "unknown-feature",
            "handshake",
            "declares feature `countres` that ptoracle",
        ),
    ] {
        let dir = scratch(mode);
        let report = dir.join("report.json");
        let junit = dir.join("junit.xml");
        let r = ptoracle(
            &[
                "gate",
                "--engine",
                &misbehave(mode),
                "--filter",
                FILTER,
                "--json",
                report.to_str().unwrap(),
                "--junit",
                junit.to_str().unwrap(),
            ],
            &[],
            Duration::from_secs(60),
        );
        assert_eq!(r.code, 3, "{mode}: {}", r.stdout);
        assert!(r.stdout.contains(words), "{mode}: {}", r.stdout);
        if mode == "unknown-feature" {
            assert!(
                r.stdout
                    .contains("the features it knows: counters, keyword-counters,"),
                "{}",
                r.stdout
            );
        }
        let v = json(&report);
        assert!(
            v["cases"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c["verdict"] == "error" && c["kind"] == kind),
            "{mode}"
        );
        let xml = std::fs::read_to_string(&junit).unwrap();
        let parsed = quick_junit::Report::deserialize_from_str(&xml).unwrap();
        assert_eq!(
            parsed.errors,
            v["summary"]["errored"].as_u64().unwrap() as usize
        );
    }
}

#[test]
fn a_handshake_that_fails_once_is_retried() {
    let dir = scratch("flaky");
    let mark = dir.join("mark");
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &misbehave("handshake-flaky"),
            "--filter",
            FILTER,
        ],
        &[("FLAKY_MARK", mark.to_str().unwrap())],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(
        r.stdout.contains("a handshake failed before one succeeded"),
        "{}",
        r.stdout
    );
}

#[test]
fn an_engine_that_does_not_exist_exits_3() {
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            "no-such-engine-anywhere --flag",
            "--filter",
            FILTER,
        ],
        &[],
        Duration::from_secs(30),
    );
    assert_eq!(r.code, 3, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("cannot start `no-such-engine-anywhere --flag`"),
        "{}",
        r.stdout
    );
}

#[test]
fn bad_arguments_exit_2() {
    for args in [
        vec!["gate", "--engine", "python3 'unclosed"],
        vec!["gate", "--engine", "x", "--timeout", "soon"],
        vec!["gate", "--engine", "x", "--generated", "10"],
        vec!["gate", "--engine", "x", "--edition", "1066-10-14"],
        vec!["gate", "--engine", "x", "--filter", "no-such-case-or-rule"],
        vec![
            "gate",
            "--engine",
            "x",
            "--expectations",
            "no/such/file.yaml",
        ],
    ] {
        let r = ptoracle(&args, &[], Duration::from_secs(30));
        assert_eq!(r.code, 2, "{args:?}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("error") || r.stderr.contains(':'),
            "{args:?}: {}",
            r.stderr
        );
    }
}

/// Ctrl-C, SIGTERM (`timeout`, a cancelled CI job) and SIGHUP stop the
/// gate at once, even in the middle of a hanging case: the reports hold
/// what was done, the engine is killed, and the exit status is 130.
/// Regression: SIGTERM and SIGHUP used to kill the gate with no report
/// and leave the engine running; the Ctrl-C test slept a fixed time
/// before the signal, and failed when the machine was slow. The same with
/// several requests in flight (the engine hangs on the third).
#[cfg(unix)]
#[test]
fn a_signal_writes_what_was_gathered_and_kills_the_engine() {
    let runs = ["INT", "TERM", "HUP"].map(|s| (s, "")).into_iter();
    for (sig, pipelined) in runs.chain([("INT", "1"), ("TERM", "1")]) {
        let dir = scratch("signal");
        let report = dir.join("report.json");
        let hanging = dir.join("hanging");
        mark_pipe(&hanging);
        let child = Command::new(BIN)
            .args([
                "gate",
                "--engine",
                &misbehave("hang"),
                "--filter",
                FILTER,
                "--jobs",
                "1",
                "--timeout",
                "600s",
                "--json",
                report.to_str().unwrap(),
            ])
            .current_dir(root())
            .env("PTORACLE_BIN", BIN)
            .env("HANG_MARK", &hanging)
            .env("MISBEHAVE_PIPELINE", pipelined)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // The first case has passed once the engine hangs on the second.
        let engine: u32 = read_mark(&hanging, Duration::from_secs(120))
            .parse()
            .unwrap();
        signal(child.id(), sig);
        let status = wait_within(child, Duration::from_secs(120), "the gate after a signal");
        assert_eq!(status.code(), Some(130), "SIG{sig}");
        let v = json(&report);
        assert_eq!(v["interrupted"], true, "SIG{sig}");
        assert_eq!(v["cases"][0]["verdict"], "pass", "SIG{sig}");
        assert!(v["summary"]["not_run"].as_u64().unwrap() > 0, "SIG{sig}");
        assert!(
            !alive(engine),
            "SIG{sig}: the engine (pid {engine}) outlived the gate"
        );
    }
}

/// An engine that exits while a process it started (in a session of its
/// own) holds its stdout open: the exit is a crash, seen at once, not a
/// timeout after the full --timeout; and that process does not outlive
/// the gate. Regression: reported as a timeout, and the process survived.
#[cfg(target_os = "linux")]
#[test]
fn an_engine_that_exits_behind_an_orphan_is_a_crash_and_the_orphan_dies() {
    let dir = scratch("orphan");
    let report = dir.join("report.json");
    let orphan = dir.join("orphan");
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &misbehave("orphan"),
            "--filter",
            FILTER,
            "--jobs",
            "1",
            "--timeout",
            "600s",
            "--json",
            report.to_str().unwrap(),
        ],
        &[("ORPHAN_MARK", orphan.to_str().unwrap())],
        Duration::from_secs(300),
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v = json(&report);
    assert_eq!(v["cases"][1]["kind"], "crash", "{}", r.stdout);
    let pid: u32 = std::fs::read_to_string(&orphan).unwrap().parse().unwrap();
    assert!(
        !alive(pid),
        "the engine's orphan (pid {pid}) outlived the gate"
    );
}

/// An engine that hangs on every case is given up on after
/// --give-up-after cases in a row (exit 3, a closing line that says why),
/// instead of costing every case its timeout.
#[cfg(unix)]
#[test]
fn an_engine_that_always_times_out_is_given_up_on() {
    // With several requests in flight too: each hang costs one case and
    // counts once; the requests lost with the process are sent again.
    for env in [&[][..], &[("MISBEHAVE_PIPELINE", "1")][..]] {
        let dir = scratch(&format!("give-up-{}", env.len()));
        let report = dir.join("report.json");
        let r = ptoracle(
            &[
                "gate",
                "--engine",
                &misbehave("always-hang"),
                "--jobs",
                "1",
                "--timeout",
                "200ms",
                "--give-up-after",
                "3",
                "--json",
                report.to_str().unwrap(),
            ],
            env,
            Duration::from_secs(300),
        );
        assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
        assert!(
            r.stdout.contains("was given up on") && r.stdout.contains("3 cases in a row"),
            "{}",
            r.stdout
        );
        assert!(
            last_line(&r.stdout).ends_with(" skipped"),
            "the counts line stays the last: {}",
            r.stdout
        );
        let v = json(&report);
        let verdicts: Vec<&str> = v["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["kind"].as_str().unwrap_or("none"))
            .collect();
        assert_eq!(verdicts[..3], ["timeout"; 3], "{verdicts:?}");
        assert!(
            verdicts[3..].iter().all(|v| *v == "unusable"),
            "{verdicts:?}"
        );
        // Whether a case reached the engine is a field, not a prefix of
        // its message: the cases after the give-up say so, the others not.
        let not_sent: Vec<bool> = v["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["not_sent"].as_bool().unwrap_or(false))
            .collect();
        assert!(
            not_sent[..3].iter().all(|n| !n) && not_sent[3..].iter().all(|n| *n),
            "{not_sent:?}"
        );
        let unsent = verdicts.len() - 3;
        assert!(
            r.stdout
                .contains(&format!("ERROR {unsent} cases were not sent")),
            "{}",
            r.stdout
        );
    }
}

/// The adoption ratchet: the current failures written as expectations make
/// the gate pass; when they are fixed the gate says so (and fails under
/// --strict).
#[test]
fn expectations_ratchet() {
    let dir = scratch("expectations");
    let file = dir.join("expectations.yaml");
    let mutant = format!("{BIN} serve --mutant counters-after-switch");
    let serve = format!("{BIN} serve");
    let first = ptoracle(
        &[
            "gate",
            "--engine",
            &mutant,
            "--write-expectations",
            file.to_str().unwrap(),
        ],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(first.code, 1, "{}", first.stdout);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("613.4d/switch-swaps-counters-too"), "{text}");
    assert!(text.contains("verdict: fail"), "{text}");
    let with = ptoracle(
        &[
            "gate",
            "--engine",
            &mutant,
            "--expectations",
            file.to_str().unwrap(),
        ],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(
        with.code, 0,
        "known failures pass the gate: {}",
        with.stdout
    );
    assert!(
        with.stdout
            .contains(" known, 0 fixed, 0 changed, 0 unexpected"),
        "{}",
        with.stdout
    );
    let fixed = ptoracle(
        &[
            "gate",
            "--engine",
            &serve,
            "--expectations",
            file.to_str().unwrap(),
        ],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(fixed.code, 0, "{}", fixed.stdout);
    assert!(
        fixed
            .stdout
            .contains("FIXED 613.4d/switch-swaps-counters-too"),
        "{}",
        fixed.stdout
    );
    let strict = ptoracle(
        &[
            "gate",
            "--engine",
            &serve,
            "--expectations",
            file.to_str().unwrap(),
            "--strict",
        ],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(strict.code, 1, "{}", strict.stdout);
}

/// `--write-expectations` lists what an author acts on: failures and
/// errors, ids in natural order (`generated/3/51` before
/// `generated/3/110`). Skips are counted in a comment, not listed, except
/// those the previous file lists (their reasons are an author's); a file
/// that lists skips, as older ones do, is still read.
#[test]
fn written_expectations_list_failures_and_errors_in_natural_order() {
    let dir = scratch("write-expectations");
    let file = dir.join("failures.yaml");
    let mutant = format!("{BIN} serve --mutant counters-after-switch");
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &mutant,
            "--generated",
            "400",
            "--seed",
            "3",
            "--write-expectations",
            file.to_str().unwrap(),
        ],
        &[],
        Duration::from_secs(300),
    );
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    let ids: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.strip_suffix(':'))
        .filter(|l| !l.starts_with(' '))
        .collect();
    assert!(ids.contains(&"613.4d/switch-swaps-counters-too"), "{text}");
    let digits = |id: &str| id.rsplit('/').next().unwrap().len();
    let generated: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|i| i.starts_with("generated/"))
        .collect();
    assert!(
        generated.windows(2).any(|w| digits(w[0]) < digits(w[1])),
        "ids of two lengths, to tell natural from text order: {ids:?}"
    );
    let mut natural = ids.clone();
    natural.sort_by(|a, b| ptoracle::gate::expectations::natural_cmp(a, b));
    assert_eq!(ids, natural, "{text}");

    // One case skipped ("unsupported"), the others pass.
    let (skips, kept, previous) = (
        dir.join("skips.yaml"),
        dir.join("kept.yaml"),
        dir.join("previous.yaml"),
    );
    let engine = misbehave("unsupported");
    let gate = |extra: &[&str]| {
        let mut args = vec![
            "gate",
            "--engine",
            engine.as_str(),
            "--filter",
            FILTER,
            "--jobs",
            "1",
        ];
        args.extend_from_slice(extra);
        ptoracle(&args, &[], Duration::from_secs(60))
    };
    let r = gate(&["--write-expectations", skips.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let text = std::fs::read_to_string(&skips).unwrap();
    assert!(text.contains("\n# Not listed: 1 skipped case. "), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("#      1  ") && l.ends_with("no switch effects yet")),
        "{text}"
    );
    assert!(text.ends_with("cases: {}\n"), "{text}");
    // A previous file that lists the skip, with an author's reason, and a
    // case that passes now.
    let report = scratch("write-expectations-report").join("report.json");
    let r = gate(&["--json", report.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let skipped = json(&report)["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["verdict"] == "skip")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    std::fs::write(
        &previous,
        format!(
            "cases:\n  {skipped}:\n    verdict: skip\n    reason: switch effects come in 2.0\n    issue: https://example.org/1\n  613.4d/switch-outlasts-the-pump:\n    verdict: fail\n    reason: fixed since\n"
        ),
    )
    .unwrap();
    let r = gate(&[
        "--expectations",
        previous.to_str().unwrap(),
        "--write-expectations",
        kept.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("FIXED 613.4d/switch-outlasts-the-pump"),
        "{}",
        r.stdout
    );
    let text = std::fs::read_to_string(&kept).unwrap();
    assert!(
        text.contains(&format!(
            "cases:\n  {skipped}:\n    verdict: skip\n    reason: switch effects come in 2.0\n    issue: https://example.org/1\n"
        )),
        "{text}"
    );
    assert!(
        !text.contains("switch-outlasts-the-pump") && !text.contains("Not listed"),
        "{text}"
    );
}

#[test]
fn baseline_names_what_got_fixed_and_what_broke() {
    let dir = scratch("baseline");
    let (good, bad) = (dir.join("good.json"), dir.join("bad.json"));
    for (engine, file) in [
        (format!("{BIN} serve"), &good),
        (format!("{BIN} serve --mutant lethal-is-greater"), &bad),
    ] {
        let r = ptoracle(
            &[
                "gate",
                "--engine",
                &engine,
                "--json",
                file.to_str().unwrap(),
            ],
            &[],
            Duration::from_secs(60),
        );
        assert!(r.code == 0 || r.code == 1, "{}", r.stdout);
    }
    let worse = ptoracle(
        &["baseline", good.to_str().unwrap(), bad.to_str().unwrap()],
        &[],
        Duration::from_secs(30),
    );
    assert_eq!(worse.code, 1, "{}", worse.stdout);
    assert!(worse.stdout.contains("BROKE 704.5g/"), "{}", worse.stdout);
    let better = ptoracle(
        &["baseline", bad.to_str().unwrap(), good.to_str().unwrap()],
        &[],
        Duration::from_secs(30),
    );
    assert_eq!(better.code, 0, "{}", better.stdout);
    assert!(better.stdout.contains("FIXED 704.5g/"), "{}", better.stdout);
    assert!(
        last_line(&better.stdout).contains(" fixed, 0 broke, 0 new errors"),
        "{}",
        better.stdout
    );
}

/// A generated disagreement is shrunk against the engine to a ruling that
/// the reference passes and the mutant fails; the reports name it.
#[test]
fn generated_failures_shrink_to_rulings_that_check_replays() {
    let dir = scratch("shrink");
    let out = dir.join("rulings");
    let markdown = dir.join("report.md");
    let mutant = format!("{BIN} serve --mutant counters-after-switch");
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &mutant,
            "--no-corpus",
            "--generated",
            "400",
            "--seed",
            "3",
            "--out",
            out.to_str().unwrap(),
            "--markdown",
            markdown.to_str().unwrap(),
        ],
        &[],
        Duration::from_secs(120),
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(r.stdout.contains("shrunk from"), "{}", r.stdout);
    let files: Vec<PathBuf> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!files.is_empty());
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        assert!(text.contains("invariant: agrees-with-reference"), "{text}");
        let steps = text.matches("\n- do:").count();
        assert!(steps <= 4, "{} has {steps} steps:\n{text}", f.display());
        let f = f.to_str().unwrap();
        let on_reference = ptoracle(&["check", f], &[], Duration::from_secs(30));
        assert_eq!(on_reference.code, 0, "{}", on_reference.stdout);
        let on_mutant = ptoracle(
            &["check", f, "--mutant", "counters-after-switch"],
            &[],
            Duration::from_secs(30),
        );
        assert_eq!(on_mutant.code, 1, "{}", on_mutant.stdout);
    }
    let md = std::fs::read_to_string(&markdown).unwrap();
    assert!(
        md.contains("| case | verdict | first difference | rules |"),
        "{md}"
    );
    assert!(md.contains("<details><summary>Shrunk ruling"), "{md}");
}

/// The kill matrix: every mutant `serve` offers fails the gate, on the
/// corpus or within 10,000 generated cases.
#[test]
fn every_mutant_fails_the_gate() {
    let list = ptoracle(&["serve", "--list-mutants"], &[], Duration::from_secs(10));
    let mutants: Vec<&str> = list.stdout.lines().collect();
    assert!(mutants.len() >= 15, "{mutants:?}");
    let mut survivors = Vec::new();
    for m in &mutants {
        let engine = format!("{BIN} serve --mutant {m}");
        let corpus = ptoracle(&["gate", "--engine", &engine], &[], Duration::from_secs(60));
        if corpus.code == 1 {
            continue;
        }
        // Shrunk rulings go to a scratch directory, not the repository.
        let out = scratch("mutant-failures");
        let generated = ptoracle(
            &[
                "gate",
                "--engine",
                &engine,
                "--no-corpus",
                "--generated",
                "10000",
                "--seed",
                "1",
                "--out",
                out.to_str().unwrap(),
            ],
            &[],
            Duration::from_secs(600),
        );
        if generated.code != 1 {
            survivors.push(*m);
        }
    }
    assert!(
        survivors.is_empty(),
        "mutants the gate does not kill: {survivors:?}"
    );
}

#[test]
fn export_writes_json_and_a_transcript_serve_reproduces() {
    let dir = scratch("export");
    let r = ptoracle(
        &["export", dir.to_str().unwrap()],
        &[],
        Duration::from_secs(60),
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let index = json(&dir.join("index.json"));
    let n = index.as_array().unwrap().len();
    assert!(n > 100);
    let requests = std::fs::read(dir.join("session/requests.jsonl")).unwrap();
    let replies = std::fs::read_to_string(dir.join("session/replies.jsonl")).unwrap();
    let mut serve = Command::new(BIN)
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = serve.stdin.take().unwrap();
    // Written from another thread: serve answers while it reads.
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&requests).unwrap();
    });
    let out = serve.wait_with_output().unwrap();
    writer.join().unwrap();
    let fresh: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let saved: Vec<serde_json::Value> = replies
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(fresh, saved);
    assert!(dir.join("schemas/protocol/reply.schema.json").exists());
    assert!(dir.join("corpus/613-layers").is_dir());
}

const PYTHON_EXAMPLE: &str = "python3 ci/adapters/python-example/adapter.py";

/// The template adapter and its tiny engine pass the gate, corpus and
/// generated cases (skipping what they do not declare).
#[test]
fn the_python_example_passes_the_gate() {
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            PYTHON_EXAMPLE,
            "--generated",
            "2000",
            "--seed",
            "1",
        ],
        &[],
        Duration::from_secs(300),
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let last = last_line(&r.stdout);
    assert!(last.contains(" passed, 0 failed, 0 errored, "), "{last}");
    let passed: usize = last.split(' ').next().unwrap().parse().unwrap();
    assert!(passed > 1500, "{last}");
}

/// The Python adapters' unit tests (stdlib `unittest`), run with the system
/// python3 and no engine installed: the protocol loop they share, the
/// template through it and every adapter's size limits
/// (`ci/adapters/tests/`), and the phase.rs adapter's refusals and Oracle
/// text (`ci/adapters/phase/tests/`, where `import phase` is made to fail).
/// Nothing skips: no python3, a failing or skipped test, or fewer tests
/// than these counts fail it.
#[test]
fn python_adapters_unit_tests_pass_without_their_engines() {
    for (tests, top, at_least) in [
        ("ci/adapters/tests", "ci/adapters", 17),
        ("ci/adapters/phase/tests", "ci/adapters/phase", 32),
    ] {
        let out = scratch(&format!("unittest-{}", tests.replace('/', "-")));
        let child = Command::new("python3")
            .args(["-m", "unittest", "discover", "-v", "-s", tests, "-t", top])
            .current_dir(root())
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(out.join("stdout")).unwrap())
            .stderr(std::fs::File::create(out.join("stderr")).unwrap())
            .spawn()
            .expect("python3 starts (the adapters' unit tests need it)");
        let status = wait_within(child, Duration::from_secs(300), tests);
        let said = std::fs::read_to_string(out.join("stderr")).unwrap();
        assert!(status.success(), "{tests}:\n{said}");
        let ran: usize = said
            .lines()
            .find_map(|l| l.strip_prefix("Ran "))
            .and_then(|l| l.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(ran >= at_least, "{tests}: {ran} tests ran\n{said}");
        assert!(!said.contains("skipped"), "{tests}:\n{said}");
    }
}

/// `ci/gate.sh` runs the gate and writes every report.
#[cfg(unix)]
#[test]
fn gate_sh_writes_the_reports() {
    let dir = scratch("gate-sh");
    let reports = dir.join("reports");
    let status = Command::new("bash")
        .arg(root().join("ci/gate.sh"))
        .args([
            "--engine",
            PYTHON_EXAMPLE,
            "--reports",
            reports.to_str().unwrap(),
        ])
        .args(["--", "--filter", "613.4"])
        .current_dir(root())
        .env("PTORACLE_BIN", BIN)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    for f in ["report.json", "junit.xml", "report.md"] {
        assert!(reports.join(f).exists(), "{f}");
    }
}

/// SIGTERM to `ci/gate.sh` (a cancelled CI job) reaches the gate: it kills
/// the engine, writes the reports and the script exits with its 130.
/// Regression: the script died and left the gate and its engine running.
#[cfg(unix)]
#[test]
fn sigterm_to_gate_sh_stops_the_gate_with_its_reports() {
    let dir = scratch("gate-sh-term");
    let reports = dir.join("reports");
    let hanging = dir.join("hanging");
    mark_pipe(&hanging);
    let child = Command::new("bash")
        .arg(root().join("ci/gate.sh"))
        .args(["--engine", &misbehave("hang"), "--reports"])
        .arg(&reports)
        .args(["--", "--filter", FILTER, "--jobs", "1", "--timeout", "600s"])
        .current_dir(root())
        .env("PTORACLE_BIN", BIN)
        .env("HANG_MARK", &hanging)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let engine: u32 = read_mark(&hanging, Duration::from_secs(120))
        .parse()
        .unwrap();
    signal(child.id(), "TERM");
    let status = wait_within(child, Duration::from_secs(120), "gate.sh after SIGTERM");
    assert_eq!(status.code(), Some(130));
    assert_eq!(json(&reports.join("report.json"))["interrupted"], true);
    assert!(
        !alive(engine),
        "the engine (pid {engine}) outlived the gate"
    );
}

/// The GitHub action's script, run as the runner would run it.
#[cfg(unix)]
#[test]
fn the_github_action_runs_the_gate() {
    let text = std::fs::read_to_string(root().join("ci/action.yml")).unwrap();
    let action: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    assert_eq!(action["runs"]["using"].as_str(), Some("composite"));
    assert_eq!(action["inputs"]["engine"]["required"].as_bool(), Some(true));
    let script = action_step(&action, "Gate the engine");
    let dir = scratch("action");
    let summary = dir.join("summary.md");
    let reports = dir.join("reports");
    let status = Command::new("bash")
        .args(["-c", script])
        .current_dir(root())
        .env("GITHUB_ACTION_PATH", root().join("ci"))
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("PTORACLE_BIN", BIN)
        .env("ENGINE", PYTHON_EXAMPLE)
        .env("EXPECTATIONS", "")
        .env("GENERATED", "50")
        .env("SEED", "2")
        .env("EDITION", "")
        .env("REPORTS", &reports)
        .env("ARGS", "--filter 704.5 --jobs 1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.contains("ptoracle gate: tiny-engine 1.0"), "{md}");
}

/// The `run` script of the GitHub action's step named `name`.
fn action_step<'a>(action: &'a serde_yaml::Value, name: &str) -> &'a str {
    let steps = action["runs"]["steps"].as_sequence().unwrap();
    let step = steps
        .iter()
        .find(|s| s["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("the action has a step `{name}`"));
    step["run"].as_str().unwrap()
}

/// The GitHub action installs ptoracle only when its cache has no binary
/// for the key `ci/install.sh --key` prints (it compiled ptoracle on every
/// run), and the key names the version pinned, or else the sources.
#[cfg(unix)]
#[test]
fn the_github_action_caches_the_binary_by_version() {
    let text = std::fs::read_to_string(root().join("ci/action.yml")).unwrap();
    let action: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let steps = action["runs"]["steps"].as_sequence().unwrap();
    let uses: Vec<&str> = steps.iter().filter_map(|s| s["uses"].as_str()).collect();
    assert_eq!(uses, ["actions/cache/restore@v4", "actions/cache/save@v4"]);
    let install = steps
        .iter()
        .find(|s| {
            s["run"]
                .as_str()
                .is_some_and(|r| r.contains("install.sh\" --root"))
        })
        .expect("a step installs ptoracle");
    assert_eq!(
        install["if"].as_str(),
        Some("steps.cache.outputs.cache-hit != 'true'")
    );
    let key_of = |version: &str| {
        let dir = scratch("action-key");
        let output = dir.join("output");
        let status = Command::new("bash")
            .args([
                "-c",
                action_step(&action, "The ptoracle binary's cache key"),
            ])
            .current_dir(&dir)
            .env("GITHUB_ACTION_PATH", root().join("ci"))
            .env("GITHUB_OUTPUT", &output)
            .env("RUNNER_TOOL_CACHE", &dir)
            .env("VERSION", version)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(0), "{version}");
        let text = std::fs::read_to_string(&output).unwrap();
        let value = |name: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("{name}=")))
                .unwrap_or_else(|| panic!("{name} in {text}"))
                .to_string()
        };
        let (key, root) = (value("key"), value("root"));
        assert!(root.ends_with(&format!("/ptoracle/{key}")), "{root}");
        key
    };
    let tagged = key_of("v0.1.0");
    assert!(
        tagged.starts_with("ptoracle-") && tagged.ends_with("-v0.1.0"),
        "{tagged}"
    );
    let source = key_of("");
    assert!(source.contains("-src-"), "{source}");
    assert_eq!(key_of(""), source, "the key of the sources is stable");
    // What the install step runs.
    let dry = |args: &[&str]| {
        let out = Command::new("bash")
            .arg(root().join("ci/install.sh"))
            .args(args)
            .arg("--dry-run")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let pinned = dry(&["--root", "/r", "--version", "v0.1.0"]);
    assert!(
        pinned.starts_with("cargo install --locked --root /r --git https://github.com/")
            && pinned.trim_end().ends_with("--rev v0.1.0 ptoracle"),
        "{pinned}"
    );
    let here = dry(&["--root", "/r", "--version", ""]);
    assert!(
        here.contains(" --path ") && here.trim_end().ends_with("/oracle"),
        "{here}"
    );
    let bad = Command::new("bash")
        .arg(root().join("ci/install.sh"))
        .args(["--root", "/r", "--version", "--path=/etc", "--dry-run"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// phase.rs, a real engine, through `ci/adapters/phase/`: its corpus run
/// and its confirmed bugs (`findings/`) must match the committed
/// expectations exactly (`--strict`), so a fix or a regression in the
/// engine, the adapter or ptoracle shows. Skipped, and said so, when
/// `ci/adapters/phase/setup.sh` has not installed phase-python; `.ci/run`
/// installs it and sets `PTORACLE_REQUIRE_PHASE=1`, so CI never skips.
#[test]
fn phase_matches_its_expectations() {
    adapter_matches_its_expectations(
        "phase_matches_its_expectations",
        "phase",
        "phase-python",
        "PTORACLE_REQUIRE_PHASE",
        " passed, 81 failed, 0 errored, ",
    );
}

/// python-mtg, a real engine, through `ci/adapters/python-mtg/`, as
/// phase.rs above: its corpus run and its confirmed bugs must match the
/// committed expectations exactly. `.ci/run` installs it and sets
/// `PTORACLE_REQUIRE_PYTHON_MTG=1`.
#[test]
fn python_mtg_matches_its_expectations() {
    adapter_matches_its_expectations(
        "python_mtg_matches_its_expectations",
        "python-mtg",
        "python-mtg",
        "PTORACLE_REQUIRE_PYTHON_MTG",
        " passed, 16 failed, 1 errored, ",
    );
}

/// manabrew-engine, a real engine (a Rust port of Forge, AGPL-3.0-or-later),
/// through `ci/adapters/manabrew/`, a separate program built by its own
/// `setup.sh` into a per-machine cache: its corpus run and its confirmed bugs
/// must match the committed expectations exactly. Skipped, and said so, when
/// the adapter's binary is not built, unless `PTORACLE_REQUIRE_MANABREW` is
/// set (`.ci/run` builds it and sets it, so CI never skips).
#[test]
fn manabrew_matches_its_expectations() {
    let test = "manabrew_matches_its_expectations";
    let bin = manabrew_adapter();
    if !bin.exists() {
        assert!(
            std::env::var_os("PTORACLE_REQUIRE_MANABREW").is_none(),
            "PTORACLE_REQUIRE_MANABREW is set but the manabrew adapter is not built at {}: \
             run ci/adapters/manabrew/setup.sh",
            bin.display()
        );
        eprintln!(
            "SKIPPED {test}: the manabrew adapter is not built at {} (run ci/adapters/manabrew/setup.sh)",
            bin.display()
        );
        return;
    }
    let engine = bin.display().to_string();
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &engine,
            "--expectations",
            "ci/adapters/manabrew/expectations.yaml",
            "--strict",
            "rulings",
            "ci/adapters/manabrew/findings",
        ],
        &[],
        Duration::from_secs(300),
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        last_line(&r.stdout).contains(" passed, 67 failed, 0 errored, "),
        "{}",
        r.stdout
    );
}

/// Where `ci/adapters/manabrew/setup.sh` puts the adapter's binary:
/// `$PTORACLE_MANABREW_BIN`, else the release build in
/// `$PTORACLE_MANABREW_TARGET`, by default
/// `${XDG_CACHE_HOME:-$HOME/.cache}/ptoracle/manabrew-target`.
fn manabrew_adapter() -> PathBuf {
    if let Some(bin) = std::env::var_os("PTORACLE_MANABREW_BIN") {
        return PathBuf::from(bin);
    }
    let target = std::env::var_os("PTORACLE_MANABREW_TARGET")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let cache = std::env::var_os("XDG_CACHE_HOME")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .unwrap_or_else(|| {
                    PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache")
                });
            cache.join("ptoracle/manabrew-target")
        });
    target.join("release/manabrew-adapter")
}

/// Runs the Python adapter `ci/adapters/DIR/` (its venv made by its
/// `setup.sh`) against the corpus and its `findings/` with its committed
/// expectations (`--strict`), and checks the counts line. Skips, saying
/// so, when the venv is missing, unless the variable `require` is set.
fn adapter_matches_its_expectations(
    test: &str,
    dir: &str,
    package: &str,
    require: &str,
    counts: &str,
) {
    let python = root().join(format!("ci/adapters/{dir}/.venv/bin/python"));
    if !python.exists() {
        assert!(
            std::env::var_os(require).is_none(),
            "{require} is set but {package} is not installed: run ci/adapters/{dir}/setup.sh"
        );
        eprintln!("SKIPPED {test}: {package} is not installed (run ci/adapters/{dir}/setup.sh)");
        return;
    }
    let engine = format!("{} ci/adapters/{dir}/adapter.py", python.display());
    let expectations = format!("ci/adapters/{dir}/expectations.yaml");
    let findings = format!("ci/adapters/{dir}/findings");
    let r = ptoracle(
        &[
            "gate",
            "--engine",
            &engine,
            "--expectations",
            &expectations,
            "--strict",
            // A real engine's case can take seconds on a loaded machine
            // (phase.rs walks whole turns), and so can its start
            // (python-mtg builds its first game in the handshake, seconds
            // alone, over 30 beside the other tests); a timeout is not its
            // verdict.
            "--timeout",
            "120s",
            // Nor is its handshake's: python-mtg builds its first game
            // then, two seconds idle, over 30 on a machine loaded twentyfold.
            "--handshake-timeout",
            "120s",
            "rulings",
            &findings,
        ],
        &[],
        Duration::from_secs(1200),
    );
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(last_line(&r.stdout).contains(counts), "{}", r.stdout);
}

/// The verdict of every case of a gate run, by case id.
fn verdicts(report: &Path) -> Vec<(String, String)> {
    json(report)["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let id = c["id"].as_str().unwrap().to_string();
            (id, c["verdict"].as_str().unwrap().to_string())
        })
        .collect()
}

/// Several requests in flight (`serve` accepts them) change no verdict:
/// on the corpus and on generated cases, `serve` passes and each mutant
/// fails the same cases as when it is sent one request at a time.
#[test]
fn pipelined_verdicts_are_those_of_one_request_at_a_time() {
    let engines = [
        format!("{BIN} serve"),
        format!("{BIN} serve --mutant counters-after-switch"),
        format!("{BIN} serve --mutant lethal-is-greater"),
    ];
    for (n, engine) in engines.iter().enumerate() {
        let mut runs = Vec::new();
        for pipeline in ["1", "16"] {
            let report = scratch(&format!("pipelined-{n}-{pipeline}")).join("report.json");
            let r = ptoracle(
                &[
                    "gate",
                    "--engine",
                    engine,
                    "--jobs",
                    "1",
                    "--generated",
                    "200",
                    "--seed",
                    "7",
                    "--pipeline",
                    pipeline,
                    "--json",
                    report.to_str().unwrap(),
                ],
                &[],
                Duration::from_secs(300),
            );
            assert_eq!(r.code, if n == 0 { 0 } else { 1 }, "{engine}: {}", r.stdout);
            runs.push(verdicts(&report));
        }
        assert_eq!(runs[0], runs[1], "{engine}: the same verdicts");
        let failed = runs[1].iter().filter(|(_, v)| v == "fail").count();
        assert_eq!(failed > 0, n > 0, "{engine}: {failed} failed");
    }
}

/// With several requests in flight, each misbehaviour is charged to the
/// request the engine owed first: the one it misbehaved on (it names it in
/// a file), or, for a reply to a request not yet sent, the oldest request
/// then in flight (the one after). Every other case passes; an engine that
/// answers out of order is fine.
#[test]
fn pipelined_faults_are_charged_to_the_right_case() {
    let cases = [
        ("crash", "crash", "exited with status 3", 0),
        ("hang", "timeout", "no answer within 2s", 0),
        ("drop", "timeout", "no answer within 2s", 0),
        ("garbage", "garbage", "NullPointerException", 0),
        ("floats", "non-integer", "written as a float", 0),
        ("omit", "protocol", "missing field `damage`", 0),
        ("wrong-seq", "protocol", "sequence number 99", 0),
        ("reply-twice", "protocol", "the engine wrote more", 0),
        ("reply-unsent", "protocol", "not sent yet", 1),
        ("engine-error", "engine-error", "NotImplementedError", 0),
        ("out-of-order", "", "", 0),
    ];
    for (mode, kind, words, after) in cases {
        let dir = scratch(&format!("pipelined-{mode}"));
        let (report, names) = (dir.join("report.json"), dir.join("names"));
        let env = [
            ("MISBEHAVE_PIPELINE", "1"),
            ("MISBEHAVE_NAMES", names.to_str().unwrap()),
        ];
        let r = misbehaving_gate(mode, &report, &env);
        let v = json(&report);
        let cases = v["cases"].as_array().unwrap();
        let errors: Vec<usize> = (0..cases.len())
            .filter(|&i| cases[i]["verdict"] == "error")
            .collect();
        if kind.is_empty() {
            assert_eq!(r.code, 0, "{mode}: {}\n{}", r.stdout, r.stderr);
            assert!(errors.is_empty(), "{mode}: {}", r.stdout);
            continue;
        }
        assert_eq!(r.code, 1, "{mode}: {}\n{}", r.stdout, r.stderr);
        assert_eq!(errors.len(), 1, "{mode}: {}", r.stdout);
        let error = &cases[errors[0]];
        assert_eq!(error["kind"], kind, "{mode}: {error}");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(words), "{mode}: {message}");
        // The case of request 3, as the engine named it.
        let named = std::fs::read_to_string(&names).unwrap();
        let third = cases.iter().position(|c| c["id"] == *named).unwrap();
        assert_eq!(errors[0], third + after, "{mode}: {error}");
        let passed = cases.iter().filter(|c| c["verdict"] == "pass").count();
        assert_eq!(passed, cases.len() - 1, "{mode}: the others pass");
    }
}
