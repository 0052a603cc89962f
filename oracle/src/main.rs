//! The `ptoracle` command line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ptoracle::corpus::{self, Loaded};
use ptoracle::explore::Shard;
use ptoracle::resolver::Mutant;

// The gate and `serve` allocate for every case (requests, replies,
// observations); glibc's malloc was a fifth of their time in a profile.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `eprintln!` that never panics (the standard one does when stderr cannot
/// be written: a full disk, a closed pipe); a message that cannot be
/// written is dropped. Every module of the command line uses this one.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod cli;
mod exit;
use cli::outln;
use exit::Exit;
mod explore_cmd;
mod fuzz_cmd;
mod gate_cmd;
mod interrupt;
use ptoracle::verdict::check_with;
use ptoracle::{Verdict, coverage, explain, schema};

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
        #[command(flatten)]
        corpus: cli::CorpusArgs,
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
        /// Instead of running the cases, tell an adapter author what an
        /// engine declaring `--declared` plays of them: how many, and for
        /// each protocol feature it does not declare, how many cases that
        /// feature alone would add and how many need it.
        #[arg(long, conflicts_with_all = ["rules", "mutant"])]
        features: bool,
        /// The features the engine declares, comma-separated (default:
        /// none, the core alone); see docs/protocol.md.
        #[arg(
            long,
            value_name = "LIST",
            value_delimiter = ',',
            requires = "features"
        )]
        declared: Vec<String>,
    },
    /// Explain a case step by step: each layer applied, each
    /// state-based action and why.
    Explain {
        /// A ruling file, optionally with `#ID` to pick one case of it
        /// (`rulings/…` names a file of the built-in corpus where there is
        /// no such file); or a case id alone, looked up in the corpus
        /// `check` reads (rulings/ here, else the built-in one).
        target: String,
        /// The edition of the rules (default: the current one).
        #[arg(long, value_name = "EDITION")]
        edition: Option<String>,
    },
    /// Replay every case under two editions of the rules and report exactly
    /// what changes: case, step, object, field, old → new, and the rules
    /// involved. What a rules maintainer runs when a new edition comes out.
    ///
    /// Cases compared are those that hold in both editions. Exit status: 0
    /// (whatever changed), 1 if a change is not pinned by per-edition
    /// expectations (`expect_in`) of its ruling, 2 bad arguments or input.
    Diff {
        /// The baseline edition.
        #[arg(long, value_name = "EDITION")]
        from: String,
        /// The edition compared with it.
        #[arg(long, value_name = "EDITION")]
        to: String,
        #[command(flatten)]
        corpus: cli::CorpusArgs,
        /// Print the report as JSON.
        #[arg(long, conflicts_with = "markdown")]
        json: bool,
        /// Print the report as Markdown.
        #[arg(long)]
        markdown: bool,
    },
    /// Print the JSON Schema (draft-07) of the ruling format.
    Schema {
        /// Instead, write the schemas of the protocol's messages into DIR
        /// (docs/protocol/ holds them).
        #[arg(long, value_name = "DIR")]
        protocol: Option<PathBuf>,
    },
    /// Run an engine against the corpus (and generated cases) and compare
    /// every observation with the reference resolver's: a CI gate.
    ///
    /// Ends with `N passed, N failed, N errored, N skipped`. Exit status:
    /// 0 the gate passes (every failure and error is listed in the
    /// expectations file), 1 it fails (or, with --strict, a listed case
    /// passes or changed; or no case was played; or the first cases all
    /// erred alike, see --stop-after-same-errors), 2 bad arguments or
    /// input, 3 the engine cannot be used at all (it does not start, fails
    /// every handshake, its hello is refused (another protocol version, a
    /// feature ptoracle does not know), it lacks the edition, or it was
    /// given up on after --give-up-after cases in a row that timed out or
    /// crashed it),
    /// 130 interrupted (Ctrl-C, SIGTERM or SIGHUP; the reports are written).
    Gate(Box<GateArgs>),
    /// Build the conformance matrix from gate JSON reports: a static site
    /// (index.html, matrix.css, matrix.js), summary.md and a shields.io
    /// badge JSON per engine. A report may be labelled `NAME=path.json`.
    /// Exit status 2 if a report cannot be read or the site not written.
    Matrix {
        /// The reports (`gate --json`), each `path.json` or `NAME=path.json`.
        #[arg(required = true)]
        reports: Vec<String>,
        /// A calibration report (`path.json` or `NAME=path.json`; again
        /// for each): a mutant of the reference or the template engine,
        /// drawn in a table apart and in none of the engines' verdicts.
        #[arg(long, value_name = "REPORT")]
        calibration: Vec<String>,
        /// The directory to write the site into.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The findings register to list, with the issue text of each
        /// unfiled finding in DIR/findings/ (default: ci/findings.yaml
        /// when the working directory has one).
        #[arg(long, value_name = "FILE")]
        findings: Option<PathBuf>,
    },
    /// Compare two JSON reports of `gate`: what got fixed, what broke, new
    /// errors. Exit status 1 if anything broke or errs anew.
    Baseline {
        /// The older report (`gate --json`).
        old: PathBuf,
        /// The newer report.
        new: PathBuf,
    },
    /// Write the corpus as canonical JSON, the JSON Schemas, and a
    /// transcript of the protocol (requests and the reference's replies),
    /// for adapters without a YAML parser or to test one offline.
    Export {
        /// The directory to write into.
        dir: PathBuf,
        #[command(flatten)]
        corpus: cli::CorpusArgs,
        /// The edition of the transcript (default: the current one).
        #[arg(long, value_name = "EDITION")]
        edition: Option<String>,
    },
    /// Check an engine's replies to an export's requests offline, as the
    /// gate checks them: `ADAPTER < DIR/session/requests.jsonl > REPLIES`,
    /// then `ptoracle compare DIR REPLIES`.
    ///
    /// Prints what `gate` prints. Exit status: 0 every case passes or is
    /// skipped (and one at least is played), 1 a case fails or errs, or
    /// every case is skipped, 2 the files cannot be read or the replies do
    /// not start with a hello.
    Compare {
        /// The directory `ptoracle export` wrote.
        export: PathBuf,
        /// The engine's replies: its hello, then one line per request.
        replies: PathBuf,
        /// Write every case's record as JSON (as `gate --json`).
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// The findings register (`ci/findings.yaml`): each failure is
        /// attributed to the findings and adapter limitations that explain
        /// it, as `gate --findings` does.
        #[arg(long, value_name = "FILE")]
        findings: Option<PathBuf>,
    },
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
    /// ruling. Exit status 1 if any invariant fails, 2 bad arguments, 130
    /// interrupted (Ctrl-C, SIGTERM, SIGHUP) before any violation was found.
    Explore(ExploreArgs),
    /// Helpers for the libFuzzer targets in fuzz/ (see fuzz/README.md).
    Fuzz {
        #[command(subcommand)]
        command: FuzzCommand,
    },
}

#[derive(Subcommand)]
enum FuzzCommand {
    /// Write the fuzz targets' seed corpora (fuzz/seeds/) and dictionaries
    /// (fuzz/dicts/) from the rulings, removing stale seeds.
    Seeds {
        /// The rulings to make seeds of.
        #[arg(long, value_name = "DIR", default_value = "rulings")]
        rulings: PathBuf,
        /// The fuzz crate's directory.
        #[arg(long, value_name = "DIR", default_value = "fuzz")]
        out: PathBuf,
        /// Write nothing; list what is out of date and exit 1 if anything is.
        #[arg(long)]
        check: bool,
    },
    /// Run inputs (seeds, crash artifacts) through a target without
    /// libFuzzer, and say what each finds. Exit status 1 if any input fails.
    Replay {
        /// The target: resolve, ruling_yaml, protocol, roundtrip, differential.
        target: String,
        /// Input files, or directories of them.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The differential target's engine (default: $PTORACLE_FUZZ_ENGINE,
        /// else `serve --mutant set-wipes-counters`).
        #[arg(long, value_name = "SPEC")]
        engine: Option<String>,
    },
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
    /// The edition of the rules (default: the current one); the invariants
    /// that state rules it does not have are not checked, and are listed.
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
    /// With --bench: time the resolver alone on cases of growing size
    /// (objects, steps, effects, anthems), N = 1000, 10000, 100000.
    #[arg(long, requires = "bench")]
    scaling: bool,
}

#[derive(clap::Args)]
struct GateArgs {
    /// The engine's command line (split like a shell does, without
    /// expansion), e.g. "python3 ci/adapters/python-example/adapter.py".
    #[arg(long, value_name = "CMD ARGS")]
    engine: String,
    #[command(flatten)]
    corpus: cli::CorpusArgs,
    /// Also play this many generated cases (needs --seed).
    #[arg(long, value_name = "N")]
    generated: Option<u64>,
    /// The seed of the generated cases.
    #[arg(long)]
    seed: Option<u64>,
    /// Play generated cases only.
    #[arg(long)]
    no_corpus: bool,
    /// Only corpus cases whose id contains PATTERN or that cite the rule
    /// PATTERN or a rule under it (613.4 matches 613.4c); repeatable.
    #[arg(long = "filter", value_name = "PATTERN")]
    filter: Vec<String>,
    /// The edition of the rules to test under (default: the current one).
    #[arg(long, value_name = "EDITION")]
    edition: Option<String>,
    /// Engine processes at once (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// How long one case may take: 10s, 500ms, 2m.
    #[arg(long, value_name = "DURATION", default_value = "10s")]
    timeout: String,
    /// How long the engine may take to start and answer the hello.
    #[arg(long, value_name = "DURATION", default_value = "30s")]
    handshake_timeout: String,
    /// The longest reply line accepted, in bytes. A case whose correct
    /// reply (the reference's) is longer is skipped with that reason.
    #[arg(long, value_name = "BYTES", default_value_t = 16 << 20)]
    max_line: usize,
    /// Start a new engine process for every case (slow; for engines that
    /// can't serve many, and for measuring).
    #[arg(long)]
    process_per_case: bool,
    /// Give the engine up (exit 3) after this many cases in a row that
    /// time out or crash it; the remaining cases are not sent. 0: never.
    #[arg(long, value_name = "N", default_value_t = 5)]
    give_up_after: u32,
    /// Stop the run when the first N cases played all end in an error of
    /// the same kind (an adapter broken for every case, each error costing
    /// a restart of the engine): the gate then fails, and its reports hold
    /// the cases played. Skips do not count; any other case (a pass, a
    /// failure, an error the expectations list) ends the watch. 0: never.
    #[arg(long, value_name = "N", default_value_t = 20)]
    stop_after_same_errors: usize,
    /// Let a run that plays no case pass (every case skipped: the engine
    /// declares no feature they need, or answers each `unsupported`). By
    /// default such a run fails: it checked nothing.
    #[arg(long)]
    allow_none_played: bool,
    /// Keep up to N requests in flight per engine process, for an engine
    /// whose hello accepts several (its `pipeline`); 1: one at a time.
    #[arg(long, value_name = "N", default_value_t = ptoracle::engine::DEFAULT_PIPELINE,
          value_parser = clap::value_parser!(u32).range(1..))]
    pipeline: u32,
    /// The engine's known failures, errors and skips (YAML).
    #[arg(long, value_name = "FILE")]
    expectations: Option<PathBuf>,
    /// The findings register (`ci/findings.yaml`): each mismatch of a
    /// failing case is attributed to the finding of the engine whose
    /// signature explains it; a case every mismatch of which is explained
    /// is known, one with any other is new.
    #[arg(long, value_name = "FILE")]
    findings: Option<PathBuf>,
    /// Also fail when a listed case passes or changes verdict.
    #[arg(long)]
    strict: bool,
    /// Write the current failures, errors and skips as an expectations file.
    #[arg(long, value_name = "FILE")]
    write_expectations: Option<PathBuf>,
    /// Write every case's record as JSON (what `baseline` compares).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write a JUnit XML report.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Write a Markdown report (for a pull-request comment).
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Where shrunk rulings of generated failures are written, and with
    /// --reproduce the engine's reproductions.
    #[arg(long, value_name = "DIR", default_value = "gate-failures")]
    out: PathBuf,
    /// Ask an engine that writes reproductions (its hello's `reproduce`)
    /// for a standalone program in its own language for each failure: a
    /// corpus case's as DIR/CASE-ID.EXT, a generated one's beside its
    /// shrunk ruling (docs/protocol.md, "Reproductions").
    #[arg(long)]
    reproduce: bool,
    /// Write where each case comes from (`source`: `FILE#ID`, what
    /// `ptoracle explain` reads) relative to DIR rather than to the working
    /// directory (ci/gate.sh gives the ptoracle checkout). The built-in
    /// corpus's files are named `rulings/…` whatever DIR.
    #[arg(long, value_name = "DIR")]
    sources_relative_to: Option<PathBuf>,
    /// Shrinking attempts (engine requests) per generated failure.
    #[arg(long, default_value_t = 300)]
    shrink_budget: usize,
}

fn main() -> ExitCode {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_IGN, before any thread
    // starts; no handler runs. A file-size limit (`ulimit -f`) then makes a
    // write fail with EFBIG, reported like a full disk, instead of killing
    // the process with half-written files behind it.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            corpus,
            edition,
            rules,
            mutant,
            list_mutants,
            features,
            declared,
        } => {
            let mutant = match cli::mutant_arg(list_mutants, mutant, false) {
                Ok(m) => m,
                Err(code) => return code,
            };
            match corpus.chosen() {
                Ok(rulings) if features => print_reach(rulings, edition, &declared),
                Ok(rulings) => run_check(rulings, edition, rules, mutant),
                Err(code) => code,
            }
        }
        Command::Explain { target, edition } => run_explain(&target, edition),
        Command::Diff {
            from,
            to,
            corpus,
            json,
            markdown,
        } => match corpus.chosen() {
            Ok(rulings) => run_diff(&from, &to, &rulings, json, markdown),
            Err(code) => code,
        },
        Command::Explore(args) => explore_cmd::run(args),
        Command::Fuzz {
            command:
                FuzzCommand::Seeds {
                    rulings,
                    out,
                    check,
                },
        } => fuzz_cmd::seeds(&rulings, &out, check),
        Command::Fuzz {
            command:
                FuzzCommand::Replay {
                    target,
                    inputs,
                    engine,
                },
        } => fuzz_cmd::replay(&target, &inputs, engine.as_deref()),
        Command::Gate(args) => gate_cmd::gate(*args),
        Command::Baseline { old, new } => gate_cmd::baseline(&old, &new),
        Command::Matrix {
            reports,
            calibration,
            out,
            findings,
        } => gate_cmd::matrix(&reports, &calibration, &out, findings),
        Command::Export {
            dir,
            corpus,
            edition,
        } => match corpus.chosen() {
            Ok(rulings) => gate_cmd::export(&dir, &rulings, edition),
            Err(code) => code,
        },
        Command::Compare {
            export,
            replies,
            json,
            findings,
        } => gate_cmd::compare(&export, &replies, json.as_deref(), findings.as_deref()),
        Command::Serve {
            mutant,
            list_mutants,
        } => {
            let mutant = match cli::mutant_arg(list_mutants, mutant, true) {
                Ok(m) => m,
                Err(code) => return code,
            };
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            match ptoracle::serve::serve(stdin, std::io::BufWriter::new(stdout), mutant) {
                Ok(()) => Exit::Pass.into(),
                // The other side went away: nothing more to say to it.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Exit::Pass.into(),
                Err(e) => {
                    eprintln!("error: {e}");
                    Exit::Fail.into()
                }
            }
        }
        Command::Schema { protocol: None } => {
            cli::print(&schema::ruling_schema());
            Exit::Pass.into()
        }
        Command::Schema {
            protocol: Some(dir),
        } => {
            for (name, text) in schema::protocol_schemas() {
                let path = dir.join(name);
                if let Err(e) = ptoracle::output::write_file(&path, text.as_bytes()) {
                    eprintln!("error: could not write {}: {e}", path.display());
                    return Exit::Fail.into();
                }
            }
            Exit::Pass.into()
        }
    }
}

fn run_check(
    rulings: cli::Rulings,
    edition_name: Option<String>,
    rules: bool,
    mutant: Option<Mutant>,
) -> ExitCode {
    let edition = match cli::edition(edition_name) {
        Ok(e) => e,
        Err(code) => return code,
    };
    if rules {
        let loaded = cli::load_rulings(&rulings);
        if let Some(line) = rulings.chosen_line(loaded.cases.len()) {
            outln!("{line}");
        }
        return print_coverage(&loaded.cases, !loaded.errors.is_empty());
    }
    // The cases are checked as they are read and dropped: a corpus of any
    // size takes the memory of one file's text and its ids. What a file's
    // cases found counts once the file is known to have no problems.
    let (mut passed, mut failed, mut skipped, mut invalid) = (0, 0, 0, 0);
    let mut out = std::io::stdout().lock();
    let mut of_file = FileChecks::default();
    // Printed as `load` orders them: problems in files, repeated ids, then
    // the cases the resolver found invalid.
    let (mut input_errors, mut duplicates, mut invalid_lines) = (0, Vec::new(), Vec::new());
    rulings.stream(
        |c| check_with(&c.case, edition, mutant),
        |s| match s {
            corpus::Streamed::Case(c, verdict) => of_file.add(&c, verdict),
            corpus::Streamed::FileEnd {
                errors,
                duplicates: d,
            } => {
                let done = std::mem::take(&mut of_file);
                if errors.is_empty() {
                    passed += done.passed;
                    failed += done.failed;
                    skipped += done.skipped;
                    invalid += done.invalid.len();
                    for line in done.fails {
                        let _ = writeln!(out, "{line}");
                    }
                    invalid_lines.extend(done.invalid);
                }
                for e in &errors {
                    eprintln!("{e}");
                }
                input_errors += errors.len() + d.len();
                duplicates.extend(d);
            }
        },
    );
    for e in &duplicates {
        eprintln!("{e}");
    }
    for line in &invalid_lines {
        eprintln!("{line}");
    }
    let bad_input = input_errors > 0;
    if skipped > 0 {
        let _ = writeln!(
            out,
            "{skipped} skipped: they hold in other editions than {edition}"
        );
    }
    if invalid > 0 || bad_input {
        let files = input_errors + invalid;
        let _ = writeln!(
            out,
            "{files} problem{} in the input (listed above)",
            if files == 1 { "" } else { "s" }
        );
    }
    // Every case read counts, the invalid ones too (the gate's count).
    if let Some(line) = rulings.chosen_line(passed + failed + skipped + invalid) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "{passed} passed, {failed} failed");
    if invalid > 0 || bad_input {
        Exit::BadInput.into()
    } else if failed > 0 {
        Exit::Fail.into()
    } else {
        Exit::Pass.into()
    }
}

/// What `check` found in the cases of the file being read.
#[derive(Default)]
struct FileChecks {
    passed: usize,
    failed: usize,
    skipped: usize,
    /// A `FAIL` line for each case that failed.
    fails: Vec<String>,
    /// The problem of each case the resolver found invalid.
    invalid: Vec<String>,
}

impl FileChecks {
    fn add(&mut self, c: &Loaded, verdict: Verdict) {
        match verdict {
            Verdict::Pass => self.passed += 1,
            Verdict::Fail(m) => {
                self.failed += 1;
                let more = if m.len() > 1 {
                    format!(" (and {} more)", m.len() - 1)
                } else {
                    String::new()
                };
                let first = m.first().map(ToString::to_string).unwrap_or_default();
                self.fails
                    .push(format!("FAIL {}: {first}{more}", c.case.id));
            }
            Verdict::Skip(_) => self.skipped += 1,
            Verdict::Error(e) => self.invalid.push(match &e {
                ptoracle::verdict::Problem::Case(ptoracle::error::ResolveError::Invalid(se)) => {
                    c.locate(se).to_string()
                }
                other => format!("{}: {other}", c.position()),
            }),
        }
    }
}

fn run_diff(from: &str, to: &str, rulings: &cli::Rulings, json: bool, markdown: bool) -> ExitCode {
    let (from, to) = match (
        cli::edition(Some(from.to_string())),
        cli::edition(Some(to.to_string())),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let loaded = cli::load_rulings(rulings);
    if !loaded.errors.is_empty() {
        return Exit::BadInput.into();
    }
    // On stderr: stdout is the report, maybe JSON.
    if let Some(line) = rulings.chosen_line(loaded.cases.len()) {
        eprintln!("{line}");
    }
    let report = ptoracle::diff::diff(&loaded.cases, from, to);
    let text = if json {
        let mut t = serde_json::to_string_pretty(&report).unwrap_or_default();
        t.push('\n');
        t
    } else if markdown {
        report.markdown()
    } else {
        report.text()
    };
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    if report.unpinned().next().is_some() {
        Exit::Fail.into()
    } else {
        Exit::Pass.into()
    }
}

/// `check --features`: what an engine declaring `declared` plays of the
/// corpus, and which single feature would add the most.
fn print_reach(
    rulings: cli::Rulings,
    edition_name: Option<String>,
    declared: &[String],
) -> ExitCode {
    use ptoracle::protocol::{Feature, Reach, required_features};
    let edition = match cli::edition(edition_name) {
        Ok(e) => e,
        Err(code) => return code,
    };
    let mut features = std::collections::BTreeSet::new();
    for name in declared.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        match name.parse::<Feature>() {
            Ok(f) => {
                features.insert(f);
            }
            Err(e) => {
                eprintln!("error: --declared: {e}");
                return Exit::BadInput.into();
            }
        }
    }
    let loaded = cli::load_rulings(&rulings);
    let mut out = std::io::stdout().lock();
    if let Some(line) = rulings.chosen_line(loaded.cases.len()) {
        let _ = writeln!(out, "{line}");
    }
    let (held, other): (Vec<&Loaded>, Vec<&Loaded>) = loaded
        .cases
        .iter()
        .partition(|c| c.case.editions.as_ref().is_none_or(|r| r.contains(edition)));
    let reach = Reach::of(held.iter().map(|c| required_features(&c.case)), &features);
    let names: Vec<&str> = features.iter().map(|f| f.name()).collect();
    let _ = writeln!(
        out,
        "declared: {} ({} feature{})",
        if names.is_empty() {
            "nothing beyond the core".to_string()
        } else {
            names.join(", ")
        },
        names.len(),
        if names.len() == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        out,
        "plays {} of {} cases{}",
        reach.playable,
        loaded.cases.len(),
        if other.is_empty() {
            String::new()
        } else {
            format!(" ({} hold in other editions than {edition})", other.len())
        }
    );
    if let Some(best) = reach.best() {
        let _ = writeln!(
            out,
            "the feature that unlocks the most: {} ({})",
            best.feature,
            best.more_cases()
        );
    } else if !reach.unlocks.is_empty() {
        let _ = writeln!(
            out,
            "no single feature unlocks a case: each needs two or more"
        );
    }
    if !reach.unlocks.is_empty() {
        let _ = writeln!(
            out,
            "\n{:<22} {:>7} {:>10}",
            "feature", "unlocks", "needed by"
        );
        for u in &reach.unlocks {
            let _ = writeln!(
                out,
                "{:<22} {:>7} {:>10}",
                u.feature.name(),
                u.alone,
                u.needed_by
            );
        }
    }
    if loaded.errors.is_empty() {
        Exit::Pass.into()
    } else {
        Exit::BadInput.into()
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
        Exit::BadInput.into()
    } else if !cov.missing.is_empty() {
        Exit::Fail.into()
    } else {
        Exit::Pass.into()
    }
}

fn run_explain(target: &str, edition_name: Option<String>) -> ExitCode {
    let edition = match cli::edition(edition_name) {
        Ok(e) => e,
        Err(code) => return code,
    };
    let (file, id) = match target.rsplit_once('#') {
        Some((f, id)) => (f, Some(id)),
        None => (target, None),
    };
    let is_file = Path::new(file).exists() || file.ends_with(".yaml") || file.ends_with(".yml");
    let embedded = corpus::EMBEDDED.iter().find(|(name, _)| *name == file);
    let by_id = embedded.is_none() && !is_file && id.is_none();
    // The built-in corpus stands in for `rulings/` only where there is no
    // `rulings` at all, as for `check`.
    let from_embedded = embedded.is_some() && !Path::new(file).exists();
    if from_embedded || by_id {
        if let Err(e) = cli::here() {
            eprintln!("error: {e}");
            return Exit::BadInput.into();
        }
    }
    let (loaded, file, id) = match embedded {
        // A source the gate wrote for the embedded corpus, read where
        // there is no such file.
        Some(e) if from_embedded => (
            corpus::load_from(corpus::Source::Embedded(std::slice::from_ref(e))),
            file.to_string(),
            id,
        ),
        _ if is_file || id.is_some() => {
            (corpus::load(&[PathBuf::from(file)]), file.to_string(), id)
        }
        // Not a file: a case id, looked up in the corpus `check` reads.
        _ => {
            let rulings = match cli::CorpusArgs::default().chosen() {
                Ok(r) => r,
                Err(code) => return code,
            };
            let loaded = rulings.load();
            if let Some(line) = rulings.chosen_line(loaded.cases.len()) {
                eprintln!("{line}");
            }
            (loaded, rulings.origin(), Some(target))
        }
    };
    for e in &loaded.errors {
        eprintln!("{e}");
    }
    if !loaded.errors.is_empty() {
        return Exit::BadInput.into();
    }
    let chosen: Vec<&Loaded> = loaded
        .cases
        .iter()
        .filter(|c| id.is_none_or(|id| c.case.id.0 == id))
        .collect();
    if chosen.is_empty() && by_id {
        eprintln!("error: `{target}` is no file, nor the id of a case in the corpus ({file})");
        return Exit::BadInput.into();
    }
    if chosen.is_empty() {
        let ids: Vec<&str> = loaded.cases.iter().map(|c| c.case.id.0.as_str()).collect();
        eprintln!(
            "error: no case `{}` in {file}; its cases: {}",
            id.unwrap_or(""),
            ids.join(", ")
        );
        return Exit::BadInput.into();
    }
    let mut out = std::io::stdout().lock();
    for (i, c) in chosen.iter().enumerate() {
        if i > 0 {
            let _ = writeln!(out);
        }
        let _ = write!(out, "{}", explain::explain(&c.case, edition));
    }
    Exit::Pass.into()
}
