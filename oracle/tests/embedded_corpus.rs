//! The corpus built into the binary: what an installed `ptoracle` reads
//! in a directory without `rulings/`, and what overrides it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use ptoracle::corpus::{self, EMBEDDED, Source};

mod common;
use common::{root, wait_within};

const BIN: &str = env!("CARGO_BIN_EXE_ptoracle");
const VERSION: &str = env!("CARGO_PKG_VERSION");

struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs ptoracle with `args` in `dir`; fails the test if it takes longer
/// than a bound no normal run comes near.
fn ptoracle_in(dir: &Path, args: &[&str]) -> Ran {
    let out = common::scratch("embedded", "out");
    let (stdout_path, stderr_path) = (out.join("stdout"), out.join("stderr"));
    let child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .expect("ptoracle starts");
    let status = wait_within(child, Duration::from_secs(300), &format!("{args:?}"));
    Ran {
        code: status.code().unwrap_or(-1),
        stdout: std::fs::read_to_string(&stdout_path).unwrap(),
        stderr: std::fs::read_to_string(&stderr_path).unwrap(),
    }
}

fn empty_dir(name: &str) -> PathBuf {
    common::scratch("embedded", name)
}

/// The number of cases in the repository's `rulings/`.
fn corpus_cases() -> usize {
    let loaded = corpus::load(&[root().join("rulings")]);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    loaded.cases.len()
}

/// The ruling files under `dir`, sorted as the loader sorts them.
fn ruling_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            ruling_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(p);
        }
    }
}

#[test]
fn the_embedded_corpus_is_the_rulings_directory() {
    let rulings = root().join("rulings");
    let mut files = Vec::new();
    ruling_files(&rulings, &mut files);
    let on_disk: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(root()).unwrap();
            let name: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            (name.join("/"), std::fs::read(f).unwrap())
        })
        .collect();
    let embedded: Vec<(String, Vec<u8>)> = EMBEDDED
        .iter()
        .map(|(n, b)| ((*n).to_string(), b.to_vec()))
        .collect();
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&embedded), names(&on_disk));
    for ((name, a), (_, b)) in embedded.iter().zip(&on_disk) {
        assert!(a == b, "{name}: the embedded copy differs from the file");
    }
    let embedded = corpus::load_from(Source::Embedded(EMBEDDED));
    assert!(embedded.errors.is_empty(), "{:?}", embedded.errors);
    assert_eq!(embedded.cases.len(), corpus_cases());
}

#[test]
fn check_in_an_empty_directory_reads_the_embedded_corpus() {
    let n = corpus_cases();
    let r = ptoracle_in(&empty_dir("check"), &["check"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            format!("corpus: embedded in ptoracle {VERSION}, {n} cases"),
            format!("{n} passed, 0 failed"),
        ],
        "{}",
        r.stderr
    );
    // `check --rules` too: the corpus cites every required rule.
    let r = ptoracle_in(&empty_dir("rules"), &["check", "--rules"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout.lines().next().unwrap_or_default(),
        format!("corpus: embedded in ptoracle {VERSION}, {n} cases"),
        "{}",
        r.stderr
    );
    // `export` too, and `diff` on stderr (its stdout may be JSON).
    let dir = empty_dir("export");
    let r = ptoracle_in(&dir, &["export", "out"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with(&format!(
            "corpus: embedded in ptoracle {VERSION}, {n} cases\nexported {n} cases from {} files to out",
            EMBEDDED.len()
        )),
        "{}",
        r.stdout
    );
    let r = ptoracle_in(
        &dir,
        &[
            "diff",
            "--from",
            "2026-09-25",
            "--to",
            "2026-09-25",
            "--json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stderr,
        format!("corpus: embedded in ptoracle {VERSION}, {n} cases\n")
    );
    let _: serde_json::Value = serde_json::from_str(&r.stdout).expect("stdout is the JSON report");
}

#[test]
fn gate_in_an_empty_directory_plays_the_embedded_corpus() {
    let n = corpus_cases();
    let dir = empty_dir("gate");
    let report = dir.join("report.json");
    let r = ptoracle_in(
        &dir,
        &[
            "gate",
            "--engine",
            &format!("{BIN} serve"),
            "--jobs",
            "1",
            "--json",
            "report.json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let header = r.stdout.lines().next().unwrap_or_default();
    assert!(
        header.contains(&format!(
            "· {n} corpus cases (embedded in ptoracle {VERSION}) ·"
        )),
        "{header}"
    );
    assert!(
        r.stdout
            .lines()
            .last()
            .unwrap_or_default()
            .starts_with(&format!("{n} passed, 0 failed")),
        "{}",
        r.stdout
    );
    // Each case's source is what `explain` reads back, here, where no
    // such file is.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let source = v["cases"][0]["source"].as_str().unwrap().to_string();
    assert!(source.starts_with("rulings/"), "{source}");
    let id = v["cases"][0]["id"].as_str().unwrap().to_string();
    let r = ptoracle_in(&dir, &["explain", &source]);
    assert_eq!(r.code, 0, "{source}: {}{}", r.stdout, r.stderr);
    assert!(r.stdout.starts_with(&format!("{id} — ")), "{}", r.stdout);
}

#[test]
fn explain_by_id_in_an_empty_directory() {
    let dir = empty_dir("explain");
    let r = ptoracle_in(&dir, &["explain", "613.5/gray-ogre"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.starts_with("613.5/gray-ogre — "), "{}", r.stdout);
    assert!(
        r.stderr
            .starts_with(&format!("corpus: embedded in ptoracle {VERSION}, ")),
        "{}",
        r.stderr
    );
    let r = ptoracle_in(&dir, &["explain", "613.5/no-such-case"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "error: `613.5/no-such-case` is no file, nor the id of a case in the corpus (embedded in ptoracle {VERSION})"
        )),
        "{}",
        r.stderr
    );
    // A missing file is still named as one.
    let r = ptoracle_in(&dir, &["explain", "no-such-file.yaml"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("no-such-file.yaml: no such file"),
        "{}",
        r.stderr
    );
}

/// A directory whose `rulings/` holds one ruling file of the corpus.
fn checkout_with_one_case(name: &str) -> PathBuf {
    let dir = empty_dir(name);
    std::fs::create_dir(dir.join("rulings")).unwrap();
    std::fs::copy(
        root().join("rulings/613-layers/gray-ogre.yaml"),
        dir.join("rulings/gray-ogre.yaml"),
    )
    .unwrap();
    dir
}

#[test]
fn a_path_argument_overrides_the_embedded_corpus() {
    let dir = empty_dir("given");
    let layers = root().join("rulings/613-layers");
    let n = corpus::load(std::slice::from_ref(&layers)).cases.len();
    assert!(n > 0 && n < corpus_cases());
    let r = ptoracle_in(&dir, &["check", layers.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // Named on the command line: no line says which corpus it is.
    assert_eq!(r.stdout, format!("{n} passed, 0 failed\n"), "{}", r.stderr);
}

#[test]
fn a_rulings_directory_here_wins_over_the_embedded_corpus() {
    let dir = checkout_with_one_case("here");
    let r = ptoracle_in(&dir, &["check"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout, "corpus: rulings/ (working directory), 1 case\n1 passed, 0 failed\n",
        "{}",
        r.stderr
    );
    let r = ptoracle_in(&dir, &["explain", "613.5/gray-ogre"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stderr, "corpus: rulings/ (working directory), 1 case\n",
        "{}",
        r.stdout
    );
    // --embedded reads the built-in corpus all the same.
    let n = corpus_cases();
    let r = ptoracle_in(&dir, &["check", "--embedded"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.starts_with(&format!(
            "corpus: embedded in ptoracle {VERSION}, {n} cases\n"
        )),
        "{}",
        r.stdout
    );
    let r = ptoracle_in(&dir, &["check", "--embedded", "rulings"]);
    assert_eq!(r.code, 2, "--embedded with paths: {}{}", r.stdout, r.stderr);
}

#[test]
fn embedded_rulings_meet_the_loaders_limits_and_errors() {
    let good = std::str::from_utf8(EMBEDDED[0].1).unwrap();
    let files: [(&str, &[u8]); 3] = [
        ("rulings/a.yaml", good.as_bytes()),
        ("rulings/b.yaml", b"id: x/y\ntitle: caf\xe9\n"),
        ("rulings/c.yaml", good.as_bytes()),
    ];
    let loaded = corpus::load_from(Source::Embedded(&files));
    let errors: Vec<String> = loaded.errors.iter().map(ToString::to_string).collect();
    let repeated = corpus::parse_str("a", good).unwrap().len();
    assert_eq!(errors.len(), 1 + repeated, "{errors:?}");
    assert_eq!(
        errors[0],
        "rulings/b.yaml:2:11: not UTF-8 text: a ruling file is UTF-8"
    );
    assert!(
        errors[1].starts_with("rulings/c.yaml:")
            && errors[1].contains(": duplicate case id `")
            && errors[1].contains("first defined at rulings/a.yaml:"),
        "{errors:?}"
    );
    let none = corpus::load_from(Source::Embedded(&[]));
    assert_eq!(
        none.errors[0].to_string(),
        "(no files given): no ruling files (*.yaml, *.yml) here: there is nothing to check"
    );
}

/// The packaged crate (what `cargo install ptoracle` builds) carries every
/// ruling file: `oracle/rulings` is a link to `rulings/` that `cargo
/// package` copies, and the build script builds it in. Without it, a
/// packaged ptoracle would not build.
#[test]
fn the_packaged_crate_carries_the_corpus() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "package",
            "--list",
            "--allow-dirty",
            "--offline",
            "-p",
            "ptoracle",
        ])
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("rulings/") && (l.ends_with(".yaml") || l.ends_with(".yml")))
        .collect();
    let mut embedded: Vec<&str> = EMBEDDED.iter().map(|(n, _)| *n).collect();
    embedded.sort_unstable();
    let mut listed = listed;
    listed.sort_unstable();
    assert_eq!(listed, embedded);
    assert!(stdout.lines().any(|l| l == "build.rs"), "{stdout}");
}

/// Every bad-input fixture gives the same located errors read from memory
/// as from its file: the embedded corpus goes through the one loader.
#[test]
fn embedded_rulings_give_the_errors_of_their_files() {
    let mut fixtures = Vec::new();
    ruling_files(&root().join("oracle/tests/bad-input"), &mut fixtures);
    assert!(fixtures.len() > 20);
    let names: Vec<String> = fixtures.iter().map(|f| f.display().to_string()).collect();
    let bytes: Vec<Vec<u8>> = fixtures.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let errors = |c: corpus::Corpus| {
        let n = c.cases.len();
        let e: Vec<String> = c.errors.iter().map(ToString::to_string).collect();
        (n, e)
    };
    for ((file, name), bytes) in fixtures.iter().zip(&names).zip(&bytes) {
        let from_file = errors(corpus::load(std::slice::from_ref(file)));
        let in_memory = [(name.as_str(), bytes.as_slice())];
        let from_memory = errors(corpus::load_from(Source::Embedded(&in_memory)));
        assert_eq!(from_memory, from_file, "{name}");
    }
    // All at once too: ids repeated across files are found alike.
    let from_files = errors(corpus::load(&fixtures));
    let in_memory: Vec<(&str, &[u8])> = names
        .iter()
        .zip(&bytes)
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    assert_eq!(
        errors(corpus::load_from(Source::Embedded(&in_memory))),
        from_files
    );
}

/// A `rulings` entry in the working directory that is no readable corpus
/// directory (its checkout failed: a link to nothing, a link loop, a file,
/// a FIFO, a directory that cannot be read) is bad input in every command
/// that would read it, named in the message: never a reason to check the
/// built-in corpus instead and pass. `--embedded` still asks for that one.
#[cfg(unix)]
#[test]
fn a_rulings_entry_that_is_no_readable_directory_is_bad_input() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let serve = format!("{BIN} serve");
    let commands: [&[&str]; 8] = [
        &["check"],
        &["check", "--rules"],
        &["gate", "--engine", &serve],
        &["diff", "--from", "2026-09-25", "--to", "2026-09-25"],
        &["export", "out"],
        &["explain", "613.5/gray-ogre"],
        &["explain", "rulings/613-layers/gray-ogre.yaml"],
        &[
            "explain",
            "rulings/613-layers/gray-ogre.yaml#613.5/gray-ogre",
        ],
    ];
    // Each kind: its name, how to make it in a directory, what the error says.
    type Kind<'a> = (&'a str, &'a dyn Fn(&Path), &'a str);
    let kinds: [Kind<'_>; 6] = [
        (
            "dangling",
            &|d| symlink("/nonexistent/corpus", d.join("rulings")).unwrap(),
            "a symbolic link to `/nonexistent/corpus`, which does not exist",
        ),
        (
            "loop",
            &|d| symlink("rulings", d.join("rulings")).unwrap(),
            "",
        ),
        (
            "file",
            &|d| std::fs::write(d.join("rulings"), "id: a/b\n").unwrap(),
            "a regular file, not a directory",
        ),
        (
            "through-a-file",
            &|d| {
                std::fs::write(d.join("f"), "").unwrap();
                symlink("f/corpus", d.join("rulings")).unwrap();
            },
            "",
        ),
        (
            "fifo",
            &|d| {
                let path = std::ffi::CString::new(d.join("rulings").to_str().unwrap()).unwrap();
                // SAFETY: mkfifo(3) on a NUL-terminated path we own.
                assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
            },
            "a FIFO, not a directory",
        ),
        (
            "unreadable",
            &|d| {
                let r = d.join("rulings");
                std::fs::create_dir(&r).unwrap();
                std::fs::copy(
                    root().join("rulings/613-layers/gray-ogre.yaml"),
                    r.join("gray-ogre.yaml"),
                )
                .unwrap();
                std::fs::set_permissions(&r, std::fs::Permissions::from_mode(0o000)).unwrap();
            },
            "Permission denied",
        ),
    ];
    for (kind, make, why) in kinds {
        let dir = empty_dir(&format!("broken-{kind}"));
        make(&dir);
        // Root reads a directory whatever its mode: that kind is tried
        // only where the mode holds.
        if kind == "unreadable" && std::fs::read_dir(dir.join("rulings")).is_ok() {
            eprintln!("note: this user reads any directory (root): `{kind}` not tried");
            continue;
        }
        for args in commands {
            let r = ptoracle_in(&dir, args);
            assert_eq!(r.code, 2, "{kind}: {args:?}: {}{}", r.stdout, r.stderr);
            assert!(
                r.stderr.starts_with(
                    "error: `rulings` in the working directory is not a readable corpus directory: "
                ) && r.stderr.contains(why),
                "{kind}: {args:?}: {}",
                r.stderr
            );
            assert!(
                !r.stdout.contains(" passed"),
                "{kind}: {args:?}: {}",
                r.stdout
            );
        }
        let r = ptoracle_in(&dir, &["check", "--embedded"]);
        assert_eq!(r.code, 0, "{kind}: {}{}", r.stdout, r.stderr);
        if kind == "unreadable" {
            std::fs::set_permissions(dir.join("rulings"), std::fs::Permissions::from_mode(0o755))
                .unwrap();
        }
    }
}
