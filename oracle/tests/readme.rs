//! The README and the guides in `docs/` hold to the code: the test command
//! is the one CI runs, the quickstart fits on a first screen, every command
//! of the binary is listed, no count that goes stale is written down, the
//! editions table is the catalog, and every relative link leads somewhere.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ptoracle");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The shell lines of the ```sh blocks of a Markdown text, in order.
fn sh_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") {
            inside = !inside && trimmed == "```sh";
            continue;
        }
        if inside && !trimmed.is_empty() && !trimmed.starts_with('#') {
            lines.push(trimmed.to_string());
        }
    }
    lines
}

/// How many lines a newcomer reads before the quickstart is over: the
/// README's first screen.
const FIRST_SCREEN: usize = 60;

#[test]
fn the_readme_test_command_is_the_one_ci_runs() {
    let readme = read("README.md");
    let tests: Vec<String> = sh_lines(&readme)
        .into_iter()
        .filter(|l| l.starts_with("cargo test"))
        .collect();
    assert_eq!(
        tests.len(),
        1,
        "the README gives one test command: {tests:?}"
    );
    let ci = read(".ci/run");
    let section = ci
        .lines()
        .find(|l| l.starts_with("section \"tests (the README's test command): "))
        .expect(".ci/run has a section for the README's test command");
    assert!(
        section.contains(&format!(": {}\"", tests[0])),
        "the README's test command `{}` is not the one .ci/run's section names: {section}",
        tests[0]
    );
    // What .ci/run runs there is that command (with --locked, which only
    // forbids a lock file change).
    let run = ci
        .lines()
        .skip_while(|l| *l != section)
        .nth(1)
        .expect("a command after the section line");
    assert_eq!(
        run.replace(" --locked", ""),
        tests[0],
        ".ci/run runs `{run}` for the README's `{}`",
        tests[0]
    );
}

#[test]
fn the_quickstart_is_on_the_first_screen() {
    let readme = read("README.md");
    let first: String = readme
        .lines()
        .take(FIRST_SCREEN)
        .collect::<Vec<_>>()
        .join("\n");
    for needed in [
        "cargo build --release",
        "cargo run --release -- check",
        "cargo test --workspace --no-fail-fast",
        "gate --engine \"python3 ci/adapters/python-example/adapter.py\"",
    ] {
        assert!(
            first.contains(needed),
            "`{needed}` is not within the README's first {FIRST_SCREEN} lines"
        );
    }
    // Nothing a newcomer runs first may need a release that does not exist.
    assert!(
        !readme.contains("--tag"),
        "the README installs from a tag; no release is published"
    );
}

#[test]
fn the_readme_lists_every_command_of_the_binary() {
    let out = Command::new(BIN).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() > 5, "no command read from --help: {help}");
    let readme = read("README.md");
    for c in commands {
        assert!(
            readme.contains(&format!("| `ptoracle {c}"))
                || readme.contains(&format!(", `ptoracle {c}")),
            "the README's More commands table does not list `ptoracle {c}`"
        );
    }
}

/// Counts of the corpus, the editions, the mutants, the invariants or the
/// findings change with every session; the README must not state them.
#[test]
fn the_readme_states_no_count_that_goes_stale() {
    let readme = read("README.md");
    let words: Vec<&str> = readme.split_whitespace().collect();
    let counted = [
        "cases",
        "rulings",
        "editions",
        "mutants",
        "invariants",
        "bugs",
        "findings",
        "engines",
    ];
    for pair in words.windows(2) {
        let number = pair[0].trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let noun = pair[1].trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let is_count = !number.is_empty()
            && number.chars().all(|c| c.is_ascii_digit() || c == ',')
            // A command's own argument (`--generated 2000`) is no count.
            && !pair[0].contains('`');
        assert!(
            !(is_count && counted.contains(&noun)),
            "the README states a count that goes stale: `{} {}`",
            pair[0],
            pair[1]
        );
    }
}

#[test]
fn the_editions_table_is_the_catalog() {
    let doc = read("docs/editions.md");
    let listed: BTreeSet<(String, String)> = doc
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (
                cells[1].trim_matches('`').to_string(),
                cells[2].trim_matches('`').to_string(),
            )
        })
        .collect();
    let catalog: BTreeSet<(String, String)> = ptoracle_core::Edition::all()
        .map(|e| (e.id().to_string(), e.alias().to_string()))
        .collect();
    assert_eq!(
        listed, catalog,
        "docs/editions.md's table and the edition catalog differ"
    );
}

/// The GitHub anchor of a heading: lower case, punctuation dropped but
/// `-` and `_`, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

/// The targets of a Markdown text's inline links and images.
fn links(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        match after.find(')') {
            Some(end) => {
                found.push(after[..end].to_string());
                rest = &after[end..];
            }
            None => break,
        }
    }
    found
}

#[test]
fn every_relative_link_of_the_readme_and_the_guides_leads_somewhere() {
    let mut docs = vec!["README.md".to_string()];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            docs.push(format!("docs/{name}"));
        }
    }
    let mut broken = Vec::new();
    for doc in &docs {
        let text = read(doc);
        let dir = root().join(doc).parent().unwrap().to_path_buf();
        for target in links(&text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                root().join(doc)
            } else {
                dir.join(file)
            };
            if !path.exists() {
                broken.push(format!("{doc}: ({target}): no such file"));
                continue;
            }
            if let Some(fragment) = fragment {
                if path.extension().is_some_and(|e| e == "md") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    if !anchors(&text).contains(fragment) {
                        broken.push(format!("{doc}: ({target}): no such heading"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}
