//! Small pieces the subcommands share.

use crate::exit::Exit;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use ptoracle::Edition;
use ptoracle::corpus::{self, Source};
use ptoracle::resolver::Mutant;

/// `--list-mutants` (prints them and ends with success) and `--mutant NAME`;
/// with `rules_only`, only the mutants that are rules bugs of the resolver.
pub fn mutant_arg(
    list: bool,
    name: Option<String>,
    rules_only: bool,
) -> Result<Option<Mutant>, ExitCode> {
    let offered = |m: &&Mutant| !rules_only || m.is_rules_bug();
    if list {
        for m in Mutant::ALL.iter().filter(offered) {
            outln!("{}", m.name());
        }
        return Err(Exit::Pass.into());
    }
    let fail = |e: String| {
        eprintln!("error: {e}");
        Exit::BadInput.into()
    };
    match name.map(|m| Mutant::parse(&m)).transpose().map_err(fail)? {
        Some(m) if !offered(&&m) => Err(fail(format!(
            "`{m}` is not a rules bug of the resolver (it breaks the ruling writer of `explore`); see --list-mutants"
        ))),
        m => Ok(m),
    }
}

/// The corpus a command reads: the ruling files and directories given;
/// else `rulings/` of the working directory (in a checkout, the corpus
/// being edited); else, where there is no `rulings` at all, or with
/// `--embedded`, the corpus built into this binary.
#[derive(clap::Args, Default)]
pub struct CorpusArgs {
    /// Ruling files or directories (default: rulings/ when the working
    /// directory has one, else the corpus built into ptoracle; a `rulings`
    /// there that is no readable directory is an error).
    pub paths: Vec<PathBuf>,
    /// Read the corpus built into ptoracle, even where a rulings/
    /// directory is.
    #[arg(long, conflicts_with = "paths")]
    pub embedded: bool,
}

/// Where a command's rulings come from (see [`CorpusArgs`]).
pub enum Rulings {
    /// Files and directories named on the command line.
    Given(Vec<PathBuf>),
    /// `rulings/` of the working directory.
    Here,
    /// The corpus built into this binary.
    Embedded,
}

impl CorpusArgs {
    /// The rulings these arguments name. `Err` (bad input: a message that
    /// names it) when none are given and the working directory has a
    /// `rulings` entry that is no readable directory: only a `rulings`
    /// that is not there at all falls back to the built-in corpus.
    pub fn rulings(&self) -> Result<Rulings, String> {
        Ok(if self.embedded {
            Rulings::Embedded
        } else if !self.paths.is_empty() {
            Rulings::Given(self.paths.clone())
        } else if here()? {
            Rulings::Here
        } else {
            Rulings::Embedded
        })
    }
}

impl CorpusArgs {
    /// [`CorpusArgs::rulings`] for a command: the problem printed, and
    /// exit status 2 (bad input), when there is one.
    pub fn chosen(&self) -> Result<Rulings, ExitCode> {
        self.rulings().map_err(|e| {
            eprintln!("error: {e}");
            Exit::BadInput.into()
        })
    }
}

/// The directory of rulings a command reads by default.
const HERE: &str = "rulings";

/// Whether the working directory has a `rulings` directory to read;
/// `Err` when it has a `rulings` entry that is not one: a link to nothing,
/// a link loop, a file, a directory that cannot be read. A CI job whose
/// corpus checkout went wrong must stop there, not pass on the built-in
/// corpus.
pub fn here() -> Result<bool, String> {
    let path = Path::new(HERE);
    let unusable = |why: String| {
        format!(
            "`{HERE}` in the working directory is not a readable corpus directory: {why}; \
             fix or remove it, name the rulings to read, or give --embedded for the corpus built into ptoracle"
        )
    };
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(unusable(e.to_string())),
        Ok(_) => {}
    }
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let target = std::fs::read_link(path)
                .map(|t| format!(" `{}`", t.display()))
                .unwrap_or_default();
            Err(unusable(format!(
                "a symbolic link to{target}, which does not exist"
            )))
        }
        Err(e) => Err(unusable(e.to_string())),
        Ok(m) if !m.is_dir() => Err(unusable(format!(
            "{}, not a directory",
            corpus::kind_of(&m)
        ))),
        Ok(_) => std::fs::read_dir(path)
            .map(|_| true)
            .map_err(|e| unusable(e.to_string())),
    }
}

impl Rulings {
    /// Streams the rulings through [`corpus::stream_from`].
    pub fn stream<T: Send>(
        &self,
        work: impl Fn(&corpus::Loaded) -> T + Sync,
        sink: impl FnMut(corpus::Streamed<T>),
    ) {
        self.with_source(|source| corpus::stream_from(source, work, sink));
    }

    /// Loads them all.
    pub fn load(&self) -> corpus::Corpus {
        self.with_source(corpus::load_from)
    }

    /// `read` applied to the loader's [`Source`] of these rulings.
    fn with_source<R>(&self, read: impl FnOnce(Source<'_>) -> R) -> R {
        match self {
            Rulings::Given(paths) => read(Source::Paths(paths)),
            Rulings::Here => read(Source::Paths(&[PathBuf::from(HERE)])),
            Rulings::Embedded => read(Source::Embedded(corpus::EMBEDDED)),
        }
    }

    /// What they are, for the line that says which corpus a command read:
    /// `rulings/ (working directory)`, `embedded in ptoracle 0.1.0`, or
    /// the paths given.
    pub fn origin(&self) -> String {
        match self {
            Rulings::Given(paths) => paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            Rulings::Here => format!("{HERE}/ (working directory)"),
            Rulings::Embedded => {
                format!("embedded in ptoracle {}", env!("CARGO_PKG_VERSION"))
            }
        }
    }

    /// The line that says which corpus was read, when the command chose
    /// it (no paths given): `corpus: ORIGIN, N cases`.
    pub fn chosen_line(&self, cases: usize) -> Option<String> {
        match self {
            Rulings::Given(_) => None,
            _ => Some(format!(
                "corpus: {}, {cases} case{}",
                self.origin(),
                if cases == 1 { "" } else { "s" }
            )),
        }
    }

    /// Whether the rulings are those built into the binary, whose names
    /// (`rulings/…`) are not files here.
    pub fn is_embedded(&self) -> bool {
        matches!(self, Rulings::Embedded)
    }
}

/// Loads the rulings, printing each problem found in them.
pub fn load_rulings(rulings: &Rulings) -> corpus::Corpus {
    let loaded = rulings.load();
    for e in &loaded.errors {
        eprintln!("{e}");
    }
    loaded
}

/// `--edition NAME`, the current edition by default.
pub fn edition(name: Option<String>) -> Result<Edition, ExitCode> {
    match name {
        None => Ok(Edition::current()),
        Some(n) => match Edition::resolve(&n) {
            Ok((e, note)) => {
                if let Some(note) = note {
                    eprintln!("note: {note}");
                }
                Ok(e)
            }
            Err(e) => {
                eprintln!("error: {e}");
                Err(Exit::BadInput.into())
            }
        },
    }
}

/// The longest duration accepted on the command line (a year): longer ones
/// are cut to it, so that adding one to a clock never overflows.
pub const MAX_DURATION: Duration = Duration::from_secs(365 * 24 * 3600);

/// A duration as written on the command line: `90s`, `15m`, `2h`, `500ms`
/// (a bare number is seconds), at most [`MAX_DURATION`].
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    parse_duration_uncapped(s).map(|d| d.min(MAX_DURATION))
}

fn parse_duration_uncapped(s: &str) -> Result<Duration, String> {
    let bad =
        || format!("invalid duration `{s}`: write a number with s, m, h or ms, e.g. 90s or 15m");
    let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: u64 = digits.parse().map_err(|_| bad())?;
    let secs = match &s[digits.len()..] {
        "" | "s" => n,
        "m" => n.saturating_mul(60),
        "h" => n.saturating_mul(3600),
        "ms" => return Ok(Duration::from_millis(n)),
        _ => return Err(bad()),
    };
    Ok(Duration::from_secs(secs))
}

/// `path` as seen from `base` (both relative to the working directory, or
/// absolute), when it lies under it; else `path` as given. How a file is
/// named in what a person pastes back (`ptoracle explain FILE#ID`).
pub fn relative(path: &str, base: &Path) -> String {
    let Ok(cwd) = std::env::current_dir() else {
        return path.to_string();
    };
    let (full, base) = (cwd.join(path), cwd.join(base));
    match full.strip_prefix(&base) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => path.to_string(),
    }
}

/// Exit status when stdout is a closed pipe (`ptoracle schema | head -1`):
/// what a shell reports for a process ended by SIGPIPE (128 + 13). Nothing
/// is said: the reader has gone.
pub const CLOSED_PIPE: u8 = 141;

/// Writes `text` to stdout and flushes it. When stdout is a closed pipe the
/// process ends quietly with [`CLOSED_PIPE`]; when it cannot be written for
/// another reason (a full disk), with a message and status 1. (`println!`
/// would panic in both cases.)
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(CLOSED_PIPE.into());
        }
        let _ = writeln!(std::io::stderr(), "error: could not write to stdout: {e}");
        std::process::exit(1);
    }
}

/// `println!` through [`print`]: never panics on a closed stdout.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::print(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use outln;
