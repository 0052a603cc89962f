//! Small pieces the subcommands share.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use ptoracle::Edition;
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
        return Err(ExitCode::SUCCESS);
    }
    let fail = |e: String| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    };
    match name.map(|m| Mutant::parse(&m)).transpose().map_err(fail)? {
        Some(m) if !offered(&&m) => Err(fail(format!(
            "`{m}` is not a rules bug of the resolver (it breaks the ruling writer of `explore`); see --list-mutants"
        ))),
        m => Ok(m),
    }
}

/// The ruling files or directories to read: those given, or `rulings/`
/// (an error message naming what the command does when there is none).
pub fn rulings_paths(
    mut paths: Vec<std::path::PathBuf>,
    to: &str,
) -> Result<Vec<std::path::PathBuf>, String> {
    if paths.is_empty() {
        let default = std::path::PathBuf::from("rulings");
        if !default.is_dir() {
            return Err(format!(
                "no rulings/ directory here; run from the repository root or name the rulings to {to}"
            ));
        }
        paths.push(default);
    }
    Ok(paths)
}

/// Loads the rulings of `paths` (default `rulings/`), printing each problem
/// found in them; `Err` (exit status 2) when there is nothing to read.
pub fn load_rulings(
    paths: Vec<std::path::PathBuf>,
    to: &str,
) -> Result<ptoracle::corpus::Corpus, ExitCode> {
    let paths = rulings_paths(paths, to).map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })?;
    let loaded = ptoracle::corpus::load(&paths);
    for e in &loaded.errors {
        eprintln!("{e}");
    }
    Ok(loaded)
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
                Err(ExitCode::from(2))
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
