//! The corpus: loading ruling files, validating them and locating every
//! problem at its `file:line:col`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{LoadError, NodePath, ScenarioError};
use crate::scenario::{Case, validate};
use crate::yaml;

/// A case as loaded from a file, with what it takes to locate its nodes.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The case.
    pub case: Case,
    /// The file it came from, as given.
    pub file: String,
    /// Its document index in the file, from 0.
    pub doc: usize,
    source: Arc<str>,
}

impl Loaded {
    /// Locates a problem with this case at its `file:line:col`.
    pub fn locate(&self, err: &ScenarioError) -> LoadError {
        let (line, column) = yaml::locate(&self.source, self.doc, &err.path)
            .map_or((0, 0), |(l, c)| within(&self.source, l, c));
        LoadError {
            file: self.file.clone(),
            line,
            column,
            message: format!("{}: {}", err.path, err.message),
        }
    }

    /// The `file:line:col` of the case's id.
    pub fn position(&self) -> String {
        let (line, column) =
            yaml::locate(&self.source, self.doc, &NodePath::root().key("id")).unwrap_or((0, 0));
        format!("{}:{line}:{column}", self.file)
    }
}

/// The cases of a set of files, and the problems found in them.
#[derive(Debug, Default)]
pub struct Corpus {
    /// Every valid case, in file order.
    pub cases: Vec<Loaded>,
    /// Every problem, located.
    pub errors: Vec<LoadError>,
}

/// Parses and validates the cases of one YAML text; `file` names it in
/// errors.
///
/// ```
/// let err = ptoracle::corpus::parse_str("x.yaml", "id: a/b\ntitle: t\nrules: [\"613\"]\ncolour: red\n").unwrap_err();
/// assert_eq!(err[0].to_string(), "x.yaml:4:1: unknown field `colour`, expected one of `id`, `title`, `description`, `rules`, `editions`, `origin`, `setup`, `steps`");
/// ```
pub fn parse_str(file: &str, text: &str) -> Result<Vec<Loaded>, Vec<LoadError>> {
    let source: Arc<str> = Arc::from(text);
    let docs = yaml::parse_cases(text).map_err(|e| {
        let (line, column) = within(text, e.line, e.column);
        vec![LoadError {
            file: file.to_string(),
            line,
            column,
            message: e.message,
        }]
    })?;
    if docs.is_empty() {
        return Err(vec![LoadError {
            file: file.to_string(),
            // Found by the ruling_yaml fuzz target: every error is located,
            // and the start of the file is where a case is missing.
            line: 1,
            column: 1,
            message: "no cases in this file".into(),
        }]);
    }
    let mut cases = Vec::new();
    let mut errors = Vec::new();
    for (doc, case) in docs {
        let loaded = Loaded {
            case,
            file: file.to_string(),
            doc,
            source: source.clone(),
        };
        let problems = validate(&loaded.case);
        if problems.is_empty() {
            cases.push(loaded);
        } else {
            errors.extend(problems.iter().map(|p| loaded.locate(p)));
        }
    }
    if errors.is_empty() {
        Ok(cases)
    } else {
        Err(errors)
    }
}

/// [`parse_str`] for the bytes of a file: text that is not UTF-8 is an
/// error located at its first bad byte.
///
/// ```
/// let err = ptoracle::corpus::parse_bytes("x.yaml", b"id: a/b\ntitle: caf\xe9\n").unwrap_err();
/// assert_eq!(err[0].to_string(), "x.yaml:2:11: not UTF-8 text: a ruling file is UTF-8");
/// ```
pub fn parse_bytes(file: &str, bytes: &[u8]) -> Result<Vec<Loaded>, Vec<LoadError>> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_str(file, text),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            // Both prefixes are valid UTF-8: `good` is, and it ends a line.
            let column = std::str::from_utf8(&good[line_start..]).map_or(0, |t| t.chars().count());
            Err(vec![LoadError {
                file: file.to_string(),
                line: good.iter().filter(|&&b| b == b'\n').count() + 1,
                column: column + 1,
                message: "not UTF-8 text: a ruling file is UTF-8".into(),
            }])
        }
    }
}

/// A position the YAML library reports, kept inside `text`: at the end of
/// a file without a final newline it names the line after the last (found
/// by the ruling_yaml fuzz target), which no editor can show.
fn within(text: &str, line: usize, column: usize) -> (usize, usize) {
    let lines = text.split('\n').count();
    if line <= lines {
        return (line, column);
    }
    let last = text.rsplit('\n').next().unwrap_or("");
    (lines, last.chars().count() + 1)
}

/// Loads every `.yaml`/`.yml` file under the given files and directories,
/// in sorted order, and checks that case ids are unique.
pub fn load(paths: &[PathBuf]) -> Corpus {
    let mut corpus = Corpus::default();
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            collect(p, &mut files, &mut corpus.errors);
        } else if p.exists() {
            files.push(p.clone());
        } else {
            corpus.errors.push(LoadError {
                file: p.display().to_string(),
                line: 0,
                column: 0,
                message: "no such file or directory".into(),
            });
        }
    }
    for f in files {
        let name = f.display().to_string();
        match std::fs::read(&f) {
            Ok(bytes) => match parse_bytes(&name, &bytes) {
                Ok(cases) => corpus.cases.extend(cases),
                Err(errs) => corpus.errors.extend(errs),
            },
            Err(e) => corpus.errors.push(LoadError {
                file: name,
                line: 0,
                column: 0,
                message: e.to_string(),
            }),
        }
    }
    let mut first: BTreeMap<String, String> = BTreeMap::new();
    let mut unique = Vec::new();
    for c in std::mem::take(&mut corpus.cases) {
        let id = c.case.id.to_string();
        match first.get(&id) {
            Some(at) => {
                let mut e = c.locate(&ScenarioError::new(
                    NodePath::root().key("id"),
                    String::new(),
                ));
                e.message = format!(
                    "duplicate case id `{id}`: first defined at {at}; ids are unique and never reused"
                );
                corpus.errors.push(e);
            }
            None => {
                first.insert(id, c.position());
                unique.push(c);
            }
        }
    }
    corpus.cases = unique;
    corpus
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<LoadError>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            errors.push(LoadError {
                file: dir.display().to_string(),
                line: 0,
                column: 0,
                message: e.to_string(),
            });
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect(&p, files, errors);
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            files.push(p);
        }
    }
}

/// The documents of a ruling file as JSON data, exactly as written, for
/// validating them against the schema.
pub fn documents_as_json(file: &str, text: &str) -> Result<Vec<serde_json::Value>, LoadError> {
    yaml::documents_as_json(text).map_err(|e| LoadError {
        file: file.to_string(),
        line: e.line,
        column: e.column,
        message: e.message,
    })
}

/// A case as a YAML document that [`parse_str`] reads back unchanged.
pub fn to_yaml(case: &Case) -> String {
    yaml::to_string(case)
}

/// Reads one case from a YAML document (no validation).
pub fn from_yaml(text: &str) -> Result<Case, LoadError> {
    yaml::from_str(text).map_err(|e| LoadError {
        file: "<yaml>".into(),
        line: e.line,
        column: e.column,
        message: e.message,
    })
}
