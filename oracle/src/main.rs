//! The `ptoracle` command line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ptoracle::corpus::{self, Loaded};
use ptoracle::explore::Shard;
use ptoracle::resolver::Mutant;

mod explore_cmd;
use ptoracle::verdict::check_with;
use ptoracle::{Edition, Verdict, coverage, explain, schema};

/// A conformance oracle for the power/toughness rules of Magic: The Gathering.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay rulings through the reference resolver.
    ///
    /// Prints one line per failing case and ends with `N passed, N failed`.
    /// Exit status: 0 all pass, 1 some case fails, 2 bad input (each
    /// problem printed as file:line:col: message).
    Check {
        /// Ruling files or directories (default: rulings/).
        paths: Vec<PathBuf>,
        /// The edition of the rules to check under (default: the current one).
        #[arg(long, value_name = "EDITION")]
        edition: Option<String>,
        /// Instead of running the cases, print which CR rules they cite,
        /// with the number of cases for each, and the rules ptoracle must
        /// cover that no case cites (exit status 1 if there are any).
        #[arg(long)]
        rules: bool,
        /// Check against a deliberately broken resolver (see `--list-mutants`):
        /// a way to see that the rulings catch that bug.
        #[arg(long, value_name = "NAME")]
        mutant: Option<String>,
        /// List the deliberately broken resolvers, one name per line, and exit.
        #[arg(long)]
        list_mutants: bool,
    },
    /// Explain a case step by step: each layer applied, each
    /// state-based action and why.
    Explain {
        /// A ruling file, optionally with `#ID` to pick one case of it.
        target: String,
        /// The edition of the rules (default: the current one).
        #[arg(long, value_name = "EDITION")]
        edition: Option<String>,
    },
    /// Print the JSON Schema (draft-07) of the ruling format.
    Schema,
    /// Speak the engine protocol on stdin/stdout as the reference engine
    /// (see docs/protocol.md): what `gate` tests adapters against.
    Serve {
        /// Serve a deliberately broken resolver (see --list-mutants).
        #[arg(long, value_name = "NAME")]
        mutant: Option<String>,
        /// List the deliberately broken resolvers, one name per line, and exit.
        #[arg(long)]
        list_mutants: bool,
    },
    /// Run a property campaign: generated scenarios checked against the
    /// invariants, in parallel; every violation is shrunk and written as a
    /// ruling. Exit status 1 if any invariant fails.
    Explore(ExploreArgs),
}

#[derive(clap::Args)]
struct ExploreArgs {
    /// How many cases to check (default 10000, or no limit with --time).
    #[arg(long)]
    cases: Option<u64>,
    /// The seed of the case stream (default: drawn from the clock, and printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// Stop starting new cases after this long: 90s, 15m, 2h.
    #[arg(long, value_name = "DURATION")]
    time: Option<String>,
    /// Check only the slice I of N of the case stream (cases I, I+N, I+2N, ...).
    #[arg(long, value_name = "I/N", default_value = "0/1")]
    shard: Shard,
    /// Where shrunk rulings are written.
    #[arg(long, value_name = "DIR", default_value = "explore-failures")]
    out: PathBuf,
    /// The edition of the rules (default: the current one).
    #[arg(long, value_name = "EDITION")]
    edition: Option<String>,
    /// Run against a deliberately broken resolver (see `check --list-mutants`).
    #[arg(long, value_name = "NAME")]
    mutant: Option<String>,
    /// Check only this invariant (repeatable; see --list-invariants).
    #[arg(long = "invariant", value_name = "NAME")]
    invariants: Vec<String>,
    /// List the invariants with their rules and exit.
    #[arg(long)]
    list_invariants: bool,
    /// Shrinking attempts per failure.
    #[arg(long, default_value_t = 400)]
    shrink_budget: usize,
    /// Measure speed instead: generating, resolving and checking, on one
    /// core and on all cores.
    #[arg(long)]
    bench: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            paths,
            edition,
            rules,
            mutant,
            list_mutants,
        } => {
            let mutant = match mutant_arg(list_mutants, mutant) {
                Ok(m) => m,
                Err(code) => return code,
            };
            run_check(paths, edition, rules, mutant)
        }
        Command::Explain { target, edition } => run_explain(&target, edition),
        Command::Explore(args) => explore_cmd::run(args),
        Command::Serve {
            mutant,
            list_mutants,
        } => {
            let mutant = match mutant_arg(list_mutants, mutant) {
                Ok(m) => m,
                Err(code) => return code,
            };
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            match ptoracle::serve::serve(stdin, std::io::BufWriter::new(stdout), mutant) {
                Ok(()) => ExitCode::SUCCESS,
                // The other side went away: nothing more to say to it.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Command::Schema => {
            print!("{}", schema::ruling_schema());
            ExitCode::SUCCESS
        }
    }
}

/// `--list-mutants` (prints them and ends with success) and `--mutant NAME`.
fn mutant_arg(list: bool, name: Option<String>) -> Result<Option<Mutant>, ExitCode> {
    if list {
        for m in Mutant::ALL {
            println!("{}", m.name());
        }
        return Err(ExitCode::SUCCESS);
    }
    name.map(|m| Mutant::parse(&m)).transpose().map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    })
}

fn edition(name: Option<String>) -> Result<Edition, ExitCode> {
    match name {
        None => Ok(Edition::current()),
        Some(n) => Edition::parse(&n).map_err(|e| {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }),
    }
}

fn run_check(
    mut paths: Vec<PathBuf>,
    edition_name: Option<String>,
    rules: bool,
    mutant: Option<Mutant>,
) -> ExitCode {
    let edition = match edition(edition_name) {
        Ok(e) => e,
        Err(code) => return code,
    };
    if paths.is_empty() {
        let default = PathBuf::from("rulings");
        if !default.is_dir() {
            eprintln!(
                "error: no rulings/ directory here; run from the repository root or name the rulings to check"
            );
            return ExitCode::from(2);
        }
        paths.push(default);
    }
    let loaded = corpus::load(&paths);
    for e in &loaded.errors {
        eprintln!("{e}");
    }
    let bad_input = !loaded.errors.is_empty();
    if rules {
        return print_coverage(&loaded.cases, bad_input);
    }
    let (mut passed, mut failed, mut skipped, mut invalid) = (0, 0, 0, 0);
    let mut out = std::io::stdout().lock();
    for c in &loaded.cases {
        match check_with(&c.case, edition, mutant) {
            Verdict::Pass => passed += 1,
            Verdict::Fail(m) => {
                failed += 1;
                let more = if m.len() > 1 {
                    format!(" (and {} more)", m.len() - 1)
                } else {
                    String::new()
                };
                let _ = writeln!(out, "FAIL {}: {}{more}", c.case.id, m[0]);
            }
            Verdict::Skip(_) => skipped += 1,
            Verdict::Error(e) => {
                invalid += 1;
                match &e {
                    ptoracle::verdict::Problem::Case(ptoracle::error::ResolveError::Invalid(
                        se,
                    )) => {
                        eprintln!("{}", c.locate(se))
                    }
                    other => eprintln!("{}: {other}", c.position()),
                }
            }
        }
    }
    if skipped > 0 {
        let _ = writeln!(
            out,
            "{skipped} skipped: they hold in other editions than {edition}"
        );
    }
    if invalid > 0 || bad_input {
        let files = loaded.errors.len() + invalid;
        let _ = writeln!(
            out,
            "{files} problem{} in the input (listed above)",
            if files == 1 { "" } else { "s" }
        );
    }
    let _ = writeln!(out, "{passed} passed, {failed} failed");
    if invalid > 0 || bad_input {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn print_coverage(cases: &[Loaded], bad_input: bool) -> ExitCode {
    let cov = coverage::coverage(cases.iter().map(|c| &c.case));
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{:<10} cases", "rule");
    for (rule, n) in &cov.cited {
        let required = if coverage::REQUIRED.contains(&rule.as_str()) {
            "  (required)"
        } else {
            ""
        };
        let _ = writeln!(out, "{:<10} {n}{required}", rule.as_str());
    }
    if cov.missing.is_empty() {
        let _ = writeln!(
            out,
            "every required rule has a case ({} required, {} cited)",
            coverage::REQUIRED.len(),
            cov.cited.len()
        );
    } else {
        let list: Vec<&str> = cov.missing.iter().map(|r| r.as_str()).collect();
        let _ = writeln!(out, "required rules without a case: {}", list.join(", "));
    }
    if bad_input {
        ExitCode::from(2)
    } else if !cov.missing.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn run_explain(target: &str, edition_name: Option<String>) -> ExitCode {
    let edition = match edition(edition_name) {
        Ok(e) => e,
        Err(code) => return code,
    };
    let (file, id) = match target.rsplit_once('#') {
        Some((f, id)) => (f, Some(id)),
        None => (target, None),
    };
    let loaded = corpus::load(&[PathBuf::from(file)]);
    for e in &loaded.errors {
        eprintln!("{e}");
    }
    if !loaded.errors.is_empty() {
        return ExitCode::from(2);
    }
    let chosen: Vec<&Loaded> = loaded
        .cases
        .iter()
        .filter(|c| id.is_none_or(|id| c.case.id.0 == id))
        .collect();
    if chosen.is_empty() {
        let ids: Vec<&str> = loaded.cases.iter().map(|c| c.case.id.0.as_str()).collect();
        eprintln!(
            "error: no case `{}` in {file}; its cases: {}",
            id.unwrap_or(""),
            ids.join(", ")
        );
        return ExitCode::from(2);
    }
    let mut out = std::io::stdout().lock();
    for (i, c) in chosen.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(out);
        }
        let _ = write!(out, "{}", explain::explain(&c.case, edition));
    }
    ExitCode::SUCCESS
}
