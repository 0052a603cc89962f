//! Bad input: every fixture in `tests/bad-input/` starts with
//! `# error: LINE:COL: MESSAGE` and must give exactly that located error,
//! exit status 2 and no panic, through the command line and the library.

use std::path::{Path, PathBuf};
use std::process::Command;

use libtest_mimic::{Arguments, Failed, Trial};

fn main() {
    let args = Arguments::from_args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad-input");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the fixture directory exists")
        .map(|e| e.expect("a readable entry").path())
        .collect();
    entries.sort();
    let mut trials = Vec::new();
    for path in entries {
        let name = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if path.is_dir() {
            trials.push(Trial::test(format!("bad-input/{name}"), move || {
                duplicate_across_files(&path)
            }));
        } else {
            trials.push(Trial::test(format!("bad-input/{name}"), move || {
                fixture(&path)
            }));
        }
    }
    trials.push(Trial::test(
        "bad-input/free-division-where-the-order-binds",
        free_division_where_the_order_binds,
    ));
    libtest_mimic::run(&args, trials).exit();
}

/// D83: the ruling that puts all of an attacker's damage on its second
/// blocker holds in every edition where no damage assignment order binds
/// (before 2009-07, 310.2c of 2009-05-01, and since 2024-11-08); replayed
/// in the editions where one does (2009-07 to 2024-06-07, 509.2, 510.1c),
/// the same division is bad input naming the attacker and the rules.
fn free_division_where_the_order_binds() -> Result<(), Failed> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulings/510-combat/division.yaml");
    let corpus = ptoracle::corpus::load(&[file]);
    let ids = ["510.1c/vastwood-gorger-puts-all-its-damage-on-the-second-blocker"];
    let binding: Vec<ptoracle::Edition> = ptoracle::Edition::all()
        .filter(|e| e.rules().order_binds(false))
        .collect();
    if binding.is_empty() {
        return Err("no edition binds the damage assignment order".into());
    }
    for id in ids {
        let Some(loaded) = corpus.cases.iter().find(|c| c.case.id.to_string() == id) else {
            return Err(format!("no case {id}").into());
        };
        let mut case = loaded.case.clone();
        case.editions = None;
        for e in ptoracle::Edition::all().filter(|e| !binding.contains(e)) {
            let verdict = ptoracle::check(&case, e);
            if !matches!(verdict, ptoracle::Verdict::Pass) {
                return Err(format!("{id} under {e}: {verdict:?}").into());
            }
        }
        for &e in &binding {
            match ptoracle::check(&case, e) {
                ptoracle::Verdict::Error(ptoracle::verdict::Problem::Case(
                    ptoracle::error::ResolveError::Invalid(err),
                )) if err
                    .to_string()
                    .contains("`gorger` assigns damage to `giant` before `elves`")
                    && err.to_string().contains("509.2, 510.1c") => {}
                other => return Err(format!("{id} under {e}: {other:?}").into()),
            }
        }
    }
    Ok(())
}

/// The `# error:` header of a fixture: line, column and message.
fn header(path: &Path) -> (usize, usize, String) {
    let text = std::fs::read_to_string(path).expect("the fixture is readable");
    let first = text.lines().next().unwrap_or_default();
    let rest = first
        .strip_prefix("# error: ")
        .expect("the fixture starts with `# error: `");
    let mut parts = rest.splitn(3, ':');
    let line = parts
        .next()
        .and_then(|s| s.parse().ok())
        .expect("a line number");
    let column = parts
        .next()
        .and_then(|s| s.parse().ok())
        .expect("a column number");
    let message = parts.next().unwrap_or_default().trim().to_string();
    (line, column, message)
}

fn fixture(path: &Path) -> Result<(), Failed> {
    let (line, column, message) = header(path);
    let file = path.display().to_string();
    let prefix = if line == 0 {
        format!("{file}: ")
    } else {
        format!("{file}:{line}:{column}: ")
    };

    let out = Command::new(env!("CARGO_BIN_EXE_ptoracle"))
        .arg("check")
        .arg(path)
        .output()?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("panicked") {
        return Err(format!("the command panicked:\n{stderr}").into());
    }
    if out.status.code() != Some(2) {
        return Err(format!(
            "exit status {:?}, expected 2; stderr:\n{stderr}",
            out.status.code()
        )
        .into());
    }
    let first = stderr.lines().next().unwrap_or_default();
    if !first.starts_with(&prefix) || !first.contains(&message) {
        return Err(format!("expected `{prefix}…{message}…`, got:\n{stderr}").into());
    }

    let corpus = ptoracle::corpus::load(&[path.to_path_buf()]);
    let located: Vec<String> = corpus.errors.iter().map(|e| e.to_string()).collect();
    let runtime: Vec<String> = corpus
        .cases
        .iter()
        .filter_map(
            |c| match ptoracle::check(&c.case, ptoracle::Edition::current()) {
                ptoracle::Verdict::Error(ptoracle::verdict::Problem::Case(
                    ptoracle::error::ResolveError::Invalid(e),
                )) => Some(c.locate(&e).to_string()),
                _ => None,
            },
        )
        .collect();
    let all: Vec<&String> = located.iter().chain(&runtime).collect();
    if !all
        .iter()
        .any(|e| e.starts_with(&prefix) && e.contains(&message))
    {
        return Err(format!("the library gave {all:?}").into());
    }
    Ok(())
}

fn duplicate_across_files(dir: &Path) -> Result<(), Failed> {
    let corpus = ptoracle::corpus::load(&[dir.to_path_buf()]);
    let [e] = corpus.errors.as_slice() else {
        return Err(format!("expected one error, got {:?}", corpus.errors).into());
    };
    let text = e.to_string();
    let b = dir.join("b.yaml").display().to_string();
    let a = dir.join("a.yaml").display().to_string();
    if text.starts_with(&format!(
        "{b}:2:5: duplicate case id `bad/across-files`: first defined at {a}:1:5"
    )) {
        Ok(())
    } else {
        Err(format!("got {text}").into())
    }
}
