//! Ruling files and the corpus as files: big files, odd bytes, and the
//! directories they are found in (links, loops, FIFOs, devices). Whatever
//! the files are, loading ends, reads each file once and locates every
//! problem; a set of paths with nothing to check is bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use ptoracle::corpus;

const BIN: &str = env!("CARGO_BIN_EXE_ptoracle");

mod common;

fn scratch(name: &str) -> PathBuf {
    common::scratch("corpus-files", name)
}

/// A valid case with this id; `on` is the object its step acts on (give
/// another name to make the case invalid).
fn case(id: &str, on: &str) -> String {
    format!(
        "id: gen/{id}\ntitle: generated\nrules: [\"122.1\"]\nsetup:\n  objects:\n    - {{ id: bears, types: [Creature], pt: 2/2 }}\nsteps:\n  - do: {{ put_counters: {{ on: {on}, kind: +1/+1 }} }}\n    expect: {{ bears: {{ pt: 3/3 }} }}\n"
    )
}

/// Runs the command line and waits for it to exit, for at most two
/// minutes: a loader that hangs (a FIFO, a link loop) fails the test
/// instead of hanging it.
fn run(args: &[&std::ffi::OsStr]) -> Output {
    let mut c = Command::new(BIN);
    c.args(args).stdin(std::process::Stdio::null());
    common::output_within(c, Duration::from_secs(120))
}

fn check(paths: &[&Path]) -> (Option<i32>, String, String) {
    let mut args: Vec<&std::ffi::OsStr> = vec!["check".as_ref()];
    args.extend(paths.iter().map(|p| p.as_os_str()));
    let out = run(&args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn many_cases_in_one_file_each_read_a_bounded_number_of_times() {
    // Locating a case used to read the file again up to that case: loading
    // took time in the square of the number of cases (2000 cases, 14 s).
    let n = 3000;
    let mut text = String::new();
    for i in 0..n {
        if i > 0 {
            text.push_str("---\n");
        }
        // Every third case is invalid: its error is located too.
        let on = if i % 3 == 2 { "nobody" } else { "bears" };
        text.push_str(&case(&format!("case-{i}"), on));
    }
    let before = corpus::documents_read();
    let errors = corpus::parse_str("many.yaml", &text).unwrap_err();
    let reads = corpus::documents_read() - before;
    assert_eq!(errors.len(), n / 3);
    // The last case's error, on its own line of the file.
    let last = errors.last().unwrap().to_string();
    let line = text.lines().count() - 1;
    assert!(
        last.starts_with(&format!(
            "many.yaml:{line}:31: steps[0].do.put_counters.on:"
        )),
        "{last}"
    );
    assert!(
        reads <= 2 * n as u64,
        "{reads} documents read to load {n} cases"
    );
}

#[test]
fn a_large_file_is_checked_case_by_case_not_held_whole() {
    // `check` used to load every case of a file before checking any: a
    // 100 MB file of 360000 cases took 3.5 GiB. Cases now reach the caller
    // in bounded batches, each document read once.
    let n = 5000;
    let dir = scratch("stream");
    let file = dir.join("many.yaml");
    let mut text = String::new();
    for i in 0..n {
        text.push_str("---\n");
        text.push_str(&case(&format!("case-{i}"), "bears"));
    }
    std::fs::write(&file, &text).unwrap();
    let worked = std::sync::atomic::AtomicUsize::new(0);
    let mut worked_before_first = None;
    let (mut cases, mut ends) = (0, 0);
    let before = corpus::documents_read();
    corpus::stream(
        std::slice::from_ref(&file),
        |c| {
            worked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            c.case.id.to_string()
        },
        |s| match s {
            corpus::Streamed::Case(c, id) => {
                assert_eq!(c.case.id.to_string(), id);
                assert_eq!(id, format!("gen/case-{cases}"), "cases in file order");
                worked_before_first.get_or_insert(worked.load(std::sync::atomic::Ordering::SeqCst));
                cases += 1;
            }
            corpus::Streamed::FileEnd { errors, duplicates } => {
                assert!(errors.is_empty() && duplicates.is_empty(), "{errors:?}");
                ends += 1;
            }
        },
    );
    assert_eq!((cases, ends), (n, 1));
    assert_eq!(corpus::documents_read() - before, n as u64);
    let first = worked_before_first.unwrap();
    assert!(
        first < n / 4,
        "{first} cases read before the first one is given"
    );
    let (code, stdout, stderr) = check(&[&file]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.ends_with(&format!("{n} passed, 0 failed\n")),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_streamed_check_counts_only_files_without_problems_and_unique_ids() {
    // Checking case by case must count what loading the whole corpus did:
    // no case of a file with a problem, and the first case of each id.
    let dir = scratch("stream-problems");
    let doc = |id: &str, on: &str| format!("---\n{}", case(id, on));
    std::fs::write(dir.join("a.yaml"), doc("x", "bears") + &doc("y", "bears")).unwrap();
    std::fs::write(dir.join("b.yaml"), doc("x", "bears") + &doc("z", "bears")).unwrap();
    std::fs::write(dir.join("c.yaml"), doc("w", "bears") + &doc("v", "nobody")).unwrap();
    let (code, stdout, stderr) = check(&[&dir]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stdout.ends_with("2 problems in the input (listed above)\n3 passed, 0 failed\n"),
        "{stdout}"
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0].contains("c.yaml:19:31: steps[0].do.put_counters.on"),
        "{stderr}"
    );
    assert!(
        lines[1].contains("b.yaml:2:5: duplicate case id `gen/x`: first defined at "),
        "{stderr}"
    );
    assert!(
        lines[1].ends_with("a.yaml:2:5; ids are unique and never reused"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_byte_order_mark_before_a_ruling_is_skipped() {
    // It used to be read as part of the first key: `1:2: missing field`.
    let dir = scratch("bom");
    let file = dir.join("bom.yaml");
    std::fs::write(&file, format!("\u{feff}{}", case("bom", "bears"))).unwrap();
    let (code, stdout, stderr) = check(&[&file]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    // Columns of the first line are counted after it, as editors do.
    let err = corpus::parse_str("x.yaml", "\u{feff}id: a/b\ncolour: red\n").unwrap_err();
    assert!(
        err[0]
            .to_string()
            .starts_with("x.yaml:2:1: unknown field `colour`")
    );
    let err = corpus::parse_str("x.yaml", "\u{feff}id: [a\n").unwrap_err();
    assert!(err[0].line == 2 || err[0].column <= 8, "{}", err[0]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn control_characters_are_located_at_their_line_and_column() {
    // They used to be put at 1:1 with a byte offset in the message.
    for (c, name) in [('\0', "NUL"), ('\u{1b}', "ESC")] {
        let text = format!("id: a/b\ntitle: wé{c}\n");
        let err = corpus::parse_str("x.yaml", &text).unwrap_err();
        assert_eq!(
            err[0].to_string(),
            "x.yaml:2:10: control characters are not allowed",
            "{name}"
        );
    }
}

#[test]
fn every_yaml_error_is_located() {
    // An alias bomb (billion laughs) used to be refused without a position.
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9u8 {
        let (name, prev) = ((b'a' + i) as char, (b'a' + i - 1) as char);
        let refs = vec![format!("*{prev}"); 9].join(", ");
        bomb.push_str(&format!("{name}: &{name} [{refs}]\n"));
    }
    let err = corpus::parse_str("x.yaml", &bomb).unwrap_err();
    assert!(
        err[0]
            .to_string()
            .starts_with("x.yaml:9:8: aliases expand this document to more than 100 times"),
        "{}",
        err[0]
    );
    let err = corpus::documents_as_json("x.yaml", &bomb).unwrap_err();
    assert_eq!((err.line, err.column), (9, 8), "{err}");
    // Followed by a syntax error in the same document, which the YAML
    // library only reports after reading what comes before it.
    let err = corpus::documents_as_json("x.yaml", &format!("{bomb}z: [\n")).unwrap_err();
    assert_eq!((err.line, err.column), (9, 8), "{err}");
    // Nesting: 10^5 levels took 45 s in the parser; refused at level 65,
    // the 64th bracket (the case's mapping is the first level).
    let deep = format!("id: {}\n", "[".repeat(100_000));
    let err = corpus::parse_str("x.yaml", &deep).unwrap_err();
    assert_eq!(
        err[0].to_string(),
        "x.yaml:1:68: nested deeper than 64 levels (the limit of a ruling file)"
    );
    let deep = format!("id:\n{}x\n", "- ".repeat(100_000));
    let err = corpus::parse_str("x.yaml", &deep).unwrap_err();
    assert!(
        err[0]
            .to_string()
            .starts_with("x.yaml:2:127: nested deeper than 64 levels")
    );
}

#[test]
fn a_case_longer_than_the_limit_is_refused_where_it_passes_it() {
    // One 100 MB list of integers took 6.6 GiB in the YAML library: a case
    // is read whole, about 200 bytes per value.
    let n = corpus::MAX_CASE_BYTES / 2 + 10;
    let text = format!(
        "{}---\nid: a/b\nrules: [{}1]\n",
        case("first", "bears"),
        "1,".repeat(n)
    );
    let err = corpus::parse_str("x.yaml", &text).unwrap_err();
    let e = err[0].to_string();
    assert!(
        e.starts_with("x.yaml:12:")
            && e.ends_with("this case is longer than 1 MiB (the limit of a case); split it"),
        "{e}"
    );
    // The same bytes spread over many cases load.
    let mut text = String::new();
    let mut i = 0;
    while text.len() <= corpus::MAX_CASE_BYTES + 1000 {
        text.push_str(&case(&format!("c{i}"), "bears"));
        text.push_str("---\n");
        i += 1;
    }
    assert_eq!(corpus::parse_str("x.yaml", &text).unwrap().len(), i);
}

#[test]
fn duplicate_keys_are_refused_in_every_yaml_map() {
    // serde kept the last of two equal keys: this case passed.
    let text = case("dup", "bears").replace(
        "expect: { bears: { pt: 3/3 } }",
        "expect: { bears: { pt: 9/9 }, bears: { pt: 3/3 } }",
    );
    let err = corpus::parse_str("x.yaml", &text).unwrap_err();
    assert_eq!(
        err[0].to_string(),
        "x.yaml:9:35: duplicate key `bears` in this mapping (first at line 9 column 15); a key is given once"
    );
    // The expectations file of the gate, through the same loader.
    let err = ptoracle::gate::expectations::Expectations::parse(
        "e.yaml",
        "cases:\n  a/b: { verdict: fail, reason: r }\n  a/b: { verdict: skip, reason: s }\n",
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("e.yaml:3:3: duplicate key `a/b`"),
        "{err}"
    );
}

#[test]
fn paths_without_a_ruling_file_are_bad_input() {
    // An empty directory used to pass: "0 passed, 0 failed", exit status 0.
    let dir = scratch("empty");
    let empty = dir.join("rulings");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a ruling").unwrap();
    let e = empty.as_os_str();
    let d = dir.as_os_str();
    let out_dir = dir.join("out");
    let engine = format!("{BIN} serve");
    let runs: Vec<Vec<&std::ffi::OsStr>> = vec![
        vec!["check".as_ref(), e],
        vec!["check".as_ref(), "--rules".as_ref(), d],
        vec![
            "diff".as_ref(),
            "--from".as_ref(),
            "2009-07".as_ref(),
            "--to".as_ref(),
            "hone".as_ref(),
            e,
        ],
        vec!["export".as_ref(), out_dir.as_os_str(), e],
        vec!["explain".as_ref(), e],
        vec!["gate".as_ref(), "--engine".as_ref(), engine.as_ref(), e],
        vec![
            "fuzz".as_ref(),
            "seeds".as_ref(),
            "--check".as_ref(),
            "--rulings".as_ref(),
            e,
            "--out".as_ref(),
            out_dir.as_os_str(),
        ],
    ];
    for args in runs {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("no ruling files (*.yaml, *.yml) here"),
            "{args:?}: {stderr}"
        );
    }
    assert!(!out_dir.exists(), "export wrote from an empty corpus");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_filter_that_matches_no_case_is_bad_input_even_with_generated_cases() {
    // With --generated the gate used to play the generated cases only.
    let dir = scratch("filter");
    let file = dir.join("a.yaml");
    std::fs::write(&file, case("filtered", "bears")).unwrap();
    let engine = format!("{BIN} serve");
    let out = run(&[
        "gate".as_ref(),
        "--engine".as_ref(),
        engine.as_ref(),
        "--filter".as_ref(),
        "no-such-case".as_ref(),
        "--generated".as_ref(),
        "3".as_ref(),
        "--seed".as_ref(),
        "1".as_ref(),
        "--out".as_ref(),
        dir.join("failures").as_os_str(),
        file.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no corpus case matches the --filter patterns"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_file_is_read_up_to_its_limit_only() {
    let dir = scratch("limit");
    let file = dir.join("big.yaml");
    std::fs::write(&file, vec![b'#'; 2048]).unwrap();
    assert_eq!(
        corpus::read_file(&file, 1024, "ruling file").unwrap_err(),
        "larger than 1 KiB (the limit of a ruling file)"
    );
    assert_eq!(
        corpus::read_file(&file, 2048, "ruling file").unwrap().len(),
        2048
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[cfg(unix)]
mod unix {
    use super::*;

    fn mkfifo(path: &Path) {
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    }

    #[test]
    fn link_loops_are_walked_once() {
        // Two loops made `check` walk forever; one gave 40 "duplicate case
        // id" errors.
        let dir = scratch("loops");
        std::fs::create_dir_all(dir.join("a/deep")).unwrap();
        std::fs::create_dir_all(dir.join("b")).unwrap();
        std::fs::write(dir.join("a/deep/one.yaml"), case("one", "bears")).unwrap();
        std::fs::write(dir.join("b/two.yaml"), case("two", "bears")).unwrap();
        std::os::unix::fs::symlink("../..", dir.join("a/deep/up")).unwrap();
        std::os::unix::fs::symlink("../a", dir.join("b/to-a")).unwrap();
        std::os::unix::fs::symlink("two.yaml", dir.join("b/same.yaml")).unwrap();
        let (code, stdout, stderr) = check(&[&dir, &dir.join("b")]);
        assert_eq!(code, Some(0), "{stdout}{stderr}");
        assert!(stdout.ends_with("2 passed, 0 failed\n"), "{stdout}");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_fifo_or_device_named_yaml_is_an_error_not_a_hang() {
        // A FIFO blocked `check` forever; a link to /dev/zero was read
        // without limit.
        let dir = scratch("fifo");
        std::fs::write(dir.join("a.yaml"), case("a", "bears")).unwrap();
        mkfifo(&dir.join("fifo.yaml"));
        std::os::unix::fs::symlink("/dev/zero", dir.join("zero.yaml")).unwrap();
        let (code, _, stderr) = check(&[&dir]);
        assert_eq!(code, Some(2), "{stderr}");
        let fifo = dir.join("fifo.yaml").display().to_string();
        let zero = dir.join("zero.yaml").display().to_string();
        assert!(
            stderr.contains(&format!(
                "{fifo}: not a regular file (a FIFO): a ruling file is a regular file"
            )),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!(
                "{zero}: not a regular file (a device): a ruling file is a regular file"
            )),
            "{stderr}"
        );
        // Named on the command line, the same.
        let (code, _, stderr) = check(&[&dir.join("fifo.yaml")]);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.starts_with(&format!("{fifo}: not a regular file")),
            "{stderr}"
        );
        // A fuzz input too.
        let out = run(&[
            "fuzz".as_ref(),
            "replay".as_ref(),
            "ruling_yaml".as_ref(),
            dir.join("fifo.yaml").as_os_str(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("not a regular file (a FIFO)"), "{stderr}");
        // The gate's expectations file too.
        let engine = format!("{BIN} serve");
        let out = run(&[
            "gate".as_ref(),
            "--engine".as_ref(),
            engine.as_ref(),
            "--expectations".as_ref(),
            dir.join("fifo.yaml").as_os_str(),
            dir.join("a.yaml").as_os_str(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("cannot read the expectations file: not a regular file (a FIFO)"),
            "{stderr}"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
