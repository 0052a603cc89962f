//! The corpus: loading ruling files, validating them and locating every
//! problem at its `file:line:col`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::yaml;
use ptoracle_core::error::{LoadError, NodePath, ScenarioError};
use ptoracle_core::scenario::{Case, validate};

/// The largest ruling file read, in bytes: a guard against a file that is
/// not a ruling (a device, a runaway generator), not a limit a corpus meets.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The largest case (one YAML document of a ruling file), in bytes: it
/// bounds the memory the YAML library takes to read one case, about 200
/// bytes for every value in it.
pub const MAX_CASE_BYTES: usize = 1 << 20;

/// The deepest nesting of mappings and sequences in a ruling file.
pub const MAX_DEPTH: usize = yaml::MAX_DEPTH;

/// How many YAML documents have been read on this thread so far, for a
/// test that loading reads each case a bounded number of times.
#[doc(hidden)]
pub fn documents_read() -> u64 {
    yaml::documents_read()
}

/// A case as loaded from a file, with what it takes to locate its nodes.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The case.
    pub case: Case,
    /// The file it came from, as given.
    pub file: String,
    /// Its document index in the file, from 0.
    pub doc: usize,
    /// The file's text, shared by its cases.
    source: Arc<str>,
    /// Where the case's document is in it.
    span: yaml::Span,
}

impl Loaded {
    /// Locates a problem with this case at its `file:line:col`.
    pub fn locate(&self, err: &ScenarioError) -> LoadError {
        let (line, column) = self.line_col(&err.path);
        LoadError {
            file: self.file.clone(),
            line,
            column,
            message: format!("{}: {}", err.path, err.message),
        }
    }

    /// The `file:line:col` of the case's id.
    pub fn position(&self) -> String {
        let (line, column) = self.line_col(&NodePath::root().key("id"));
        format!("{}:{line}:{column}", self.file)
    }

    /// The line and column of a node, read from this case's document alone
    /// (the start of the document when the path leads nowhere).
    fn line_col(&self, path: &NodePath) -> (usize, usize) {
        line_col(&self.source, self.span, path)
    }
}

/// The line and column of a node of the document `span` of `source`.
fn line_col(source: &str, span: yaml::Span, path: &NodePath) -> (usize, usize) {
    yaml::locate(source, span, path).map_or((span.start.line, 1), |(l, c)| within(source, l, c))
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
/// errors. A byte order mark before the first line is skipped.
///
/// ```
/// let err = ptoracle::corpus::parse_str("x.yaml", "id: a/b\ntitle: t\nrules: [\"613\"]\ncolour: red\n").unwrap_err();
/// assert_eq!(err[0].to_string(), "x.yaml:4:1: unknown field `colour`, expected one of `id`, `title`, `description`, `rules`, `editions`, `origin`, `setup`, `steps`");
/// ```
pub fn parse_str(file: &str, text: &str) -> Result<Vec<Loaded>, Vec<LoadError>> {
    let mut cases = Vec::new();
    parse_each(file, text, &|_| (), &mut |c, ()| cases.push(c))?;
    Ok(cases)
}

/// [`parse_str`] case by case: each valid case goes to `sink` with what
/// `work` (run in parallel) made of it, as it is read. `Err` holds the
/// file's problems: then the cases given to `sink` do not count.
fn parse_each<T: Send>(
    file: &str,
    text: &str,
    work: &(impl Fn(&Loaded) -> T + Sync),
    sink: &mut impl FnMut(Loaded, T),
) -> Result<(), Vec<LoadError>> {
    let text = yaml::without_bom(text);
    let source: Arc<str> = Arc::from(text);
    let mut docs = 0usize;
    let mut errors = Vec::new();
    let read = yaml::each_case(
        text,
        MAX_CASE_BYTES,
        |doc, span, case| {
            let loaded = Loaded {
                case,
                file: file.to_string(),
                doc,
                source: source.clone(),
                span,
            };
            let problems = validate(&loaded.case);
            if problems.is_empty() {
                let done = work(&loaded);
                Ok((loaded, done))
            } else {
                Err(problems
                    .iter()
                    .map(|p| loaded.locate(p))
                    .collect::<Vec<_>>())
            }
        },
        |r| {
            docs += 1;
            match r {
                Ok((loaded, done)) if errors.is_empty() => sink(loaded, done),
                Ok(_) => {}
                Err(problems) => errors.extend(problems),
            }
        },
    );
    if let Err(e) = read {
        let (line, column) = within(text, e.line, e.column);
        return Err(vec![LoadError {
            file: file.to_string(),
            line,
            column,
            message: e.message,
        }]);
    }
    if docs == 0 {
        return Err(vec![LoadError {
            file: file.to_string(),
            // Found by the ruling_yaml fuzz target: every error is located,
            // and the start of the file is where a case is missing.
            line: 1,
            column: 1,
            message: "no cases in this file".into(),
        }]);
    }
    if errors.is_empty() {
        Ok(())
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
    let text = utf8(file, bytes)?;
    parse_str(file, text)
}

/// The text of a file's bytes, or the error at its first byte that is not
/// UTF-8.
fn utf8<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, Vec<LoadError>> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            // Both prefixes are valid UTF-8: `good` is, and it ends a line.
            let column = std::str::from_utf8(&good[line_start..]).map_or(0, |t| t.chars().count());
            // The columns of the first line are counted after a byte order
            // mark, as in `parse_str`.
            let bom = line_start == 0 && good.starts_with("\u{feff}".as_bytes());
            Err(vec![LoadError {
                file: file.to_string(),
                line: good.iter().filter(|&&b| b == b'\n').count() + 1,
                column: column + 1 - usize::from(bom),
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
///
/// Each file is read once, however many paths lead to it (symbolic links,
/// a directory given twice); a link back to a directory being walked is
/// not followed again. Only regular files are read, and at most
/// [`MAX_FILE_BYTES`] of each. Paths that hold no ruling file at all are
/// an error too: an empty corpus checks nothing.
pub fn load(paths: &[PathBuf]) -> Corpus {
    load_from(Source::Paths(paths))
}

/// The ruling files built into this crate, as (name, bytes), in the order
/// [`load`] reads the repository's `rulings/` directory in; each name is
/// the file's path from the repository root (`rulings/613-layers/….yaml`).
/// [`Source::Embedded`] reads them.
pub static EMBEDDED: &[(&str, &[u8])] = embedded::FILES;

mod embedded {
    // Written by build.rs from the repository's rulings/.
    include!(concat!(env!("OUT_DIR"), "/embedded_rulings.rs"));
}

/// Where rulings are read from: one loader serves both, with the same
/// limits, checks and errors.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// Ruling files and directories, as [`load`] reads them.
    Paths(&'a [PathBuf]),
    /// Ruling files held in memory, as (name, bytes), read in this order;
    /// the name stands for the file in every error.
    Embedded(&'a [(&'a str, &'a [u8])]),
}

/// [`load`] from either kind of [`Source`].
///
/// ```
/// use ptoracle::corpus::{EMBEDDED, Source, load_from};
/// let corpus = load_from(Source::Embedded(EMBEDDED));
/// assert!(corpus.errors.is_empty());
/// assert!(corpus.cases[0].file.starts_with("rulings/"));
/// ```
pub fn load_from(source: Source<'_>) -> Corpus {
    let mut corpus = Corpus::default();
    let mut of_file = Vec::new();
    let mut duplicates = Vec::new();
    stream_from(
        source,
        |_| (),
        |s| match s {
            Streamed::Case(c, ()) => of_file.push(*c),
            Streamed::FileEnd {
                errors,
                duplicates: d,
            } => {
                if errors.is_empty() {
                    corpus.cases.append(&mut of_file);
                } else {
                    of_file.clear();
                }
                corpus.errors.extend(errors);
                duplicates.extend(d);
            }
        },
    );
    corpus.errors.extend(duplicates);
    corpus
}

/// What [`stream`] gives, in file order.
#[derive(Debug)]
pub enum Streamed<T> {
    /// A valid case of the file being read, whose id no case before it
    /// has, with what `work` made of it. It counts only if its file ends
    /// without errors.
    Case(Box<Loaded>, T),
    /// The file being read ends (or, with errors only, a path that could
    /// not be read).
    FileEnd {
        /// Its problems: if there are any, none of its cases counts.
        errors: Vec<LoadError>,
        /// Its cases that repeat the id of a case before them (they were
        /// not given).
        duplicates: Vec<LoadError>,
    },
}

/// [`load`] case by case, for a corpus too large to hold: each case goes to
/// `sink` as it is read, with what `work` made of it (run in parallel over
/// bounded batches of cases). Only the id of each case and the text of the
/// file being read are kept, not the cases.
pub fn stream<T: Send>(
    paths: &[PathBuf],
    work: impl Fn(&Loaded) -> T + Sync,
    sink: impl FnMut(Streamed<T>),
) {
    stream_from(Source::Paths(paths), work, sink);
}

/// [`stream`] from either kind of [`Source`].
pub fn stream_from<T: Send>(
    source: Source<'_>,
    work: impl Fn(&Loaded) -> T + Sync,
    mut sink: impl FnMut(Streamed<T>),
) {
    let mut errors = Vec::new();
    let files: Vec<RulingFile<'_>> = match source {
        Source::Paths(paths) => ruling_files(paths, &mut errors)
            .into_iter()
            .map(RulingFile::Path)
            .collect(),
        Source::Embedded(texts) => {
            if texts.is_empty() {
                errors.push(nothing_to_check("(no files given)".into()));
            }
            texts
                .iter()
                .map(|&(name, bytes)| RulingFile::Embedded(name, bytes))
                .collect()
        }
    };
    if !errors.is_empty() {
        sink(Streamed::FileEnd {
            errors,
            duplicates: Vec::new(),
        });
    }
    // Positions are found only for the ids that are repeated: finding one
    // reads its document again.
    let mut first: HashMap<String, First> = HashMap::new();
    for (index, f) in files.iter().enumerate() {
        let name = f.name();
        let mut duplicates = Vec::new();
        let read = f.read().map_err(|message| {
            vec![LoadError {
                file: name.clone(),
                line: 0,
                column: 0,
                message,
            }]
        });
        let parsed = read.and_then(|bytes| {
            let text = utf8(&name, &bytes)?;
            parse_each(&name, text, &work, &mut |c, done| {
                let id = c.case.id.to_string();
                match first.get(&id) {
                    Some(at) => {
                        let mut e = c.locate(&ScenarioError::new(
                            NodePath::root().key("id"),
                            String::new(),
                        ));
                        let (line, column) =
                            line_col(&at.source, at.span, &NodePath::root().key("id"));
                        e.message = format!(
                            "duplicate case id `{id}`: first defined at {}:{line}:{column}; ids are unique and never reused",
                            files[at.file].name()
                        );
                        duplicates.push(e);
                    }
                    None => {
                        first.insert(
                            id,
                            First {
                                file: index,
                                source: c.source.clone(),
                                span: c.span,
                            },
                        );
                        sink(Streamed::Case(Box::new(c), done));
                    }
                }
            })
        });
        match parsed {
            Ok(()) => sink(Streamed::FileEnd {
                errors: Vec::new(),
                duplicates,
            }),
            Err(errors) => {
                // The cases of a file with problems do not count: their ids
                // are free again.
                first.retain(|_, at| at.file != index);
                sink(Streamed::FileEnd {
                    errors,
                    duplicates: Vec::new(),
                });
            }
        }
    }
}

/// A ruling file to read, on disk or in memory.
enum RulingFile<'a> {
    Path(PathBuf),
    Embedded(&'a str, &'a [u8]),
}

impl RulingFile<'_> {
    /// How errors name it.
    fn name(&self) -> String {
        match self {
            RulingFile::Path(p) => p.display().to_string(),
            RulingFile::Embedded(name, _) => (*name).to_string(),
        }
    }

    /// Its bytes, within the limit of a ruling file.
    fn read(&self) -> Result<std::borrow::Cow<'_, [u8]>, String> {
        const WHAT: &str = "ruling file";
        match self {
            RulingFile::Path(p) => read_file(p, MAX_FILE_BYTES, WHAT).map(Into::into),
            RulingFile::Embedded(_, bytes) if bytes.len() as u64 > MAX_FILE_BYTES => {
                Err(too_large(MAX_FILE_BYTES, WHAT))
            }
            RulingFile::Embedded(_, bytes) => Ok((*bytes).into()),
        }
    }
}

/// Where an id was first defined.
struct First {
    /// The index of its file.
    file: usize,
    source: Arc<str>,
    span: yaml::Span,
}

/// The ruling files (`.yaml`, `.yml`) the given files and directories lead
/// to, in sorted order within each directory, each once; the problems met
/// on the way go to `errors`. Paths that lead to no ruling file at all are
/// such a problem.
pub fn ruling_files(paths: &[PathBuf], errors: &mut Vec<LoadError>) -> Vec<PathBuf> {
    let before = errors.len();
    let mut walk = Walk::default();
    for p in paths {
        walk.path(p, true, errors);
    }
    if walk.files.is_empty() && errors.len() == before {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        errors.push(nothing_to_check(if names.is_empty() {
            "(no paths given)".to_string()
        } else {
            names.join(", ")
        }));
    }
    walk.files
}

/// The error of a source that holds no ruling file.
fn nothing_to_check(file: String) -> LoadError {
    LoadError {
        file,
        line: 0,
        column: 0,
        message: "no ruling files (*.yaml, *.yml) here: there is nothing to check".into(),
    }
}

/// Reads a file of at most `limit` bytes that must be a regular file
/// (`what` names it in errors): a FIFO, a device or a directory is an
/// error, never a read that blocks or does not end.
pub fn read_file(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let not_regular = |m: &std::fs::Metadata| {
        format!(
            "not a regular file ({}): a {what} is a regular file",
            kind_of(m)
        )
    };
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Should the file be swapped for a FIFO after the check above, opening
    // it must still not wait for a writer.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    // Refused before a byte is read; the read below is bounded still, for
    // a file that grows while it is read.
    if meta.len() > limit {
        return Err(too_large(limit, what));
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit, what));
    }
    Ok(bytes)
}

/// The error of a file (`what`) larger than `limit` bytes.
fn too_large(limit: u64, what: &str) -> String {
    format!(
        "larger than {} (the limit of a {what})",
        yaml::size(usize::try_from(limit).unwrap_or(usize::MAX))
    )
}

/// What a file is, in a few words: `a regular file`, `a directory`, `a
/// FIFO`, `a device`, `a socket`, `a special file`.
pub fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_file() {
        return "a regular file";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// The identity of a file or directory, the same whatever path leads to it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

fn file_id(path: &Path, meta: &std::fs::Metadata) -> FileId {
    #[cfg(unix)]
    {
        let _ = path;
        use std::os::unix::fs::MetadataExt;
        FileId::Inode(meta.dev(), meta.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        FileId::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// The files a set of paths leads to, each once.
#[derive(Default)]
struct Walk {
    files: Vec<PathBuf>,
    seen: std::collections::BTreeSet<FileId>,
}

impl Walk {
    /// A path given (`named`) or found in a directory.
    fn path(&mut self, p: &Path, named: bool, errors: &mut Vec<LoadError>) {
        let is_ruling = p.extension().is_some_and(|x| x == "yaml" || x == "yml");
        let error = |message: String| LoadError {
            file: p.display().to_string(),
            line: 0,
            column: 0,
            message,
        };
        // Follows symbolic links: a link to a ruling or a directory of them
        // is read as what it names.
        let meta = match std::fs::metadata(p) {
            Ok(m) => m,
            Err(_) if !named && !is_ruling => return,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                errors.push(error("no such file or directory".into()));
                return;
            }
            Err(e) => {
                errors.push(error(e.to_string()));
                return;
            }
        };
        if !meta.is_dir() && !named && !is_ruling {
            return;
        }
        if !self.seen.insert(file_id(p, &meta)) {
            // Already read, or a directory being walked (a link loop).
            return;
        }
        if meta.is_dir() {
            self.dir(p, errors);
        } else if meta.is_file() {
            self.files.push(p.to_path_buf());
        } else {
            errors.push(error(format!(
                "not a regular file ({}): a ruling file is a regular file",
                kind_of(&meta)
            )));
        }
    }

    fn dir(&mut self, dir: &Path, errors: &mut Vec<LoadError>) {
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
            self.path(&p, false, errors);
        }
    }
}

/// The documents of a ruling file as JSON data, exactly as written, for
/// validating them against the schema.
pub fn documents_as_json(file: &str, text: &str) -> Result<Vec<serde_json::Value>, LoadError> {
    yaml::documents_as_json(text, MAX_CASE_BYTES).map_err(|e| LoadError {
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
    yaml::from_str(text, MAX_CASE_BYTES).map_err(|e| LoadError {
        file: "<yaml>".into(),
        line: e.line,
        column: e.column,
        message: e.message,
    })
}
