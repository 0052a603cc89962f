//! `ptoracle gate`, `ptoracle baseline` and `ptoracle export`: the command
//! line around [`ptoracle::gate`].

use crate::cli::outln;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ptoracle::corpus::Loaded;
use ptoracle::engine::{ProcessConfig, reaper, split_command};
use ptoracle::gate::expectations::Expectations;
use ptoracle::gate::policy::{Conclusion, Probe};
use ptoracle::gate::{self, Live, Plan, Report, baseline};
use ptoracle::printable::printable;
use ptoracle::protocol::{self, Capabilities};

use crate::{GateArgs, cli};

use crate::exit::Exit;

pub fn gate(args: GateArgs) -> ExitCode {
    // First of all, so that a signal at any moment is handled.
    let stop = crate::interrupt::install();
    // What an engine starts and abandons becomes the gate's to kill.
    reaper::become_subreaper();
    let code = match gate_inner(args, stop) {
        Ok(code) | Err(code) => code,
    };
    // Whatever the outcome, no process an engine started outlives the gate.
    reaper::kill_all();
    code.into()
}

fn bad(msg: impl std::fmt::Display) -> Exit {
    eprintln!("error: {msg}");
    Exit::BadInput
}

fn gate_inner(args: GateArgs, stop: Arc<AtomicBool>) -> Result<Exit, Exit> {
    let edition = cli::edition(args.edition.clone()).map_err(|_| Exit::BadInput)?;
    let config = process_config(&args, &stop)?;
    if args.generated.is_some() && args.seed.is_none() {
        return Err(bad(
            "--generated needs --seed, so that the run can be reproduced",
        ));
    }
    let (corpus, origin) = load_corpus(&args)?;
    let expectations = match &args.expectations {
        Some(p) => Some(Expectations::load(p).map_err(|e| {
            eprintln!("{e}");
            Exit::BadInput
        })?),
        None => None,
    };
    let findings = args.findings.as_deref().map(load_register).transpose()?;
    let mut out = std::io::stdout().lock();
    // One handshake first: to know what the engine is before planning, and
    // to stop early, with every case in error, if it can't be used at all.
    let probe = Probe::run(&config, edition);
    announce(&mut out, &probe, edition, (&corpus, &origin), &args);
    let dead = &probe.unusable;
    let plan = Plan {
        corpus,
        generated: args.generated.map(|n| (n, args.seed.unwrap_or(0))),
        edition,
        jobs: args.jobs.unwrap_or_else(gate::default_jobs).max(1),
        out: Some(args.out.clone()),
        shrink_budget: args.shrink_budget,
        keep_shrunk: 20,
        expectations,
        findings,
        stop_after_same_errors: args.stop_after_same_errors,
    };
    let done = AtomicBool::new(false);
    let total = plan.corpus.len() as u64 + plan.generated.map_or(0, |g| g.0);
    let terminal = std::io::stderr().is_terminal();
    let live = Live {
        tick: (!terminal).then(|| progress_lines(total)).flatten(),
        ..Live::default()
    };
    let mut report = std::thread::scope(|scope| {
        if terminal && dead.is_none() {
            scope.spawn(|| progress(total, &live, &done));
        }
        let r = gate::run(&plan, &|| probe.engine(&config), &stop, &live);
        done.store(true, Ordering::SeqCst);
        r
    });
    report.none_played_allowed = args.allow_none_played;
    // Given up on during the run (faults in a row, failed handshakes):
    // the cases after that were not sent, so the run says nothing of them.
    let given_up = if dead.is_none() {
        config.health.given_up()
    } else {
        None
    };
    summary(&mut out, &mut report, given_up.as_ref(), &args);
    drop(out);
    let wrote = write_reports(&args, &report, plan.expectations.as_ref());
    let code = match Conclusion::of(&report, dead.is_some() || given_up.is_some(), args.strict) {
        Conclusion::Pass => Exit::Pass,
        Conclusion::Fail => Exit::Fail,
        Conclusion::Unusable => Exit::Unusable,
        Conclusion::Interrupted => Exit::Interrupted,
    };
    if !wrote {
        return Err(Exit::BadInput.max(code));
    }
    Ok(code)
}

/// How to run the engine: its command, timeouts and limits, from the
/// arguments.
fn process_config(args: &GateArgs, stop: &Arc<AtomicBool>) -> Result<ProcessConfig, Exit> {
    let command = split_command(&args.engine).map_err(bad)?;
    let timeout = cli::parse_duration(&args.timeout).map_err(bad)?;
    let handshake_timeout = cli::parse_duration(&args.handshake_timeout).map_err(bad)?;
    if timeout.is_zero() || handshake_timeout.is_zero() {
        return Err(bad("a timeout must be longer than 0"));
    }
    Ok(ProcessConfig {
        command,
        timeout,
        handshake_timeout,
        max_line: args.max_line,
        process_per_case: args.process_per_case,
        stop: Arc::clone(stop),
        give_up_after: args.give_up_after,
        health: Arc::default(),
        pipeline: args.pipeline,
        reproduce: args.reproduce,
    })
}

/// What the first handshake showed: the header of a usable engine, or why
/// it cannot be used; handshakes that failed first.
fn announce(
    out: &mut impl Write,
    probe: &Probe,
    edition: ptoracle::Edition,
    corpus: (&[Loaded], &str),
    args: &GateArgs,
) {
    match (&probe.capabilities, &probe.unusable) {
        (Ok(c), None) => header(out, c, edition, corpus, args),
        (_, Some(f)) => {
            let _ = writeln!(
                out,
                "gate: the engine `{}` cannot be used: {}",
                args.engine,
                printable(&f.to_string())
            );
            for line in f.stderr.lines().filter(|l| !l.trim().is_empty()).take(10) {
                let _ = writeln!(out, "    stderr: {}", printable(line));
            }
        }
        _ => {}
    }
    if probe.capabilities.is_ok() {
        for f in &probe.failed_handshakes {
            let _ = writeln!(
                out,
                "note: a handshake failed before one succeeded: {}",
                printable(&f.to_string())
            );
        }
    }
    let _ = out.flush();
}

/// The closing lines: why the engine was given up on (before the summary,
/// whose counts line stays the last line), the summary, and expectations
/// the run did not play.
fn summary(
    out: &mut impl Write,
    report: &mut Report,
    given_up: Option<&ptoracle::fault::EngineFault>,
    args: &GateArgs,
) {
    let stale = std::mem::take(&mut report.unplayed_expectations);
    if let Some(f) = given_up {
        let _ = writeln!(
            out,
            "gate: the engine `{}` was given up on: {}",
            printable(&args.engine),
            printable(&f.message)
        );
    }
    let _ = write!(out, "{}", report.human(args.strict));
    if !stale.is_empty() && args.filter.is_empty() && args.generated.is_none() {
        let _ = writeln!(
            out,
            "note: the expectations file lists {} case(s) this run did not play: {}",
            stale.len(),
            gate::report::first_few(&stale, 5)
        );
    }
    let _ = out.flush();
}

/// The corpus cases to play, and where they come from (for the header).
fn load_corpus(args: &GateArgs) -> Result<(Vec<Loaded>, String), Exit> {
    if args.no_corpus {
        if args.generated.is_none() {
            return Err(bad(
                "--no-corpus leaves nothing to play: add --generated N --seed S",
            ));
        }
        return Ok((Vec::new(), String::new()));
    }
    let rulings = args.corpus.rulings().map_err(bad)?;
    let loaded = rulings.load();
    if !loaded.errors.is_empty() {
        for e in &loaded.errors {
            eprintln!("{e}");
        }
        return Err(Exit::BadInput);
    }
    let base = args.sources_relative_to.clone().unwrap_or_default();
    let cases: Vec<Loaded> = loaded
        .cases
        .into_iter()
        .filter(|c| args.filter.is_empty() || gate::matches_filter(&c.case, &args.filter))
        .map(|mut c| {
            // An embedded file's name (`rulings/…`) is no file here: it is
            // what `ptoracle explain` reads back as it is.
            if !rulings.is_embedded() {
                c.file = cli::relative(&c.file, &base);
            }
            c
        })
        .collect();
    // With --generated too: a pattern that matches nothing is a typo more
    // often than a wish to play generated cases only (--no-corpus says so).
    if cases.is_empty() {
        return Err(bad(
            "no corpus case matches the --filter patterns (to play generated cases only, use --no-corpus)",
        ));
    }
    Ok((cases, rulings.origin()))
}

fn header(
    out: &mut impl Write,
    caps: &Capabilities,
    edition: ptoracle::Edition,
    (corpus, origin): (&[Loaded], &str),
    args: &GateArgs,
) {
    let generated = match (args.generated, args.seed) {
        (Some(n), Some(s)) => format!(" + {n} generated (seed {s})"),
        _ => String::new(),
    };
    let unobserved: Vec<&str> = caps.unobserved.iter().map(|o| o.name()).collect();
    let _ = writeln!(
        out,
        "gate: {} {} · protocol {} · edition {edition} · {} corpus cases{}{generated} · {} features{}",
        printable(&caps.info.name),
        printable(&caps.info.version),
        protocol::VERSION,
        corpus.len(),
        if origin.is_empty() {
            String::new()
        } else {
            format!(" ({origin})")
        },
        caps.features.len(),
        if unobserved.is_empty() {
            String::new()
        } else {
            format!(" · not observed: {}", unobserved.join(", "))
        }
    );
    if args.reproduce {
        let line = match &caps.reproduce {
            Some(r) => format!(
                "reproductions: {} programs (.{}) written in {}{}",
                printable(&r.language),
                printable(&r.extension),
                args.out.display(),
                r.run
                    .as_ref()
                    .map_or(String::new(), |run| format!("; run: {}", printable(run)))
            ),
            None => "reproductions: the engine's hello declares no `reproduce`: none asked".into(),
        };
        let _ = writeln!(out, "{line}");
    }
}

/// Writes the requested report files; false if one could not be written.
fn write_reports(args: &GateArgs, report: &Report, previous: Option<&Expectations>) -> bool {
    let mut ok = write_json(args.json.as_deref(), report);
    type Writer<'a> = &'a dyn Fn(&mut dyn Write) -> std::io::Result<()>;
    let mut write = |path: &Option<PathBuf>, what: &str, writer: Writer<'_>| {
        if let Some(p) = path {
            if let Err(e) = ptoracle::output::write_with(p, |w| writer(w)) {
                eprintln!("error: could not write the {what} to {}: {e}", p.display());
                ok = false;
            }
        }
    };
    write(&args.junit, "JUnit report", &|w| report.write_junit(w));
    write(&args.markdown, "Markdown report", &|w| {
        report.write_markdown(w)
    });
    write(&args.write_expectations, "expectations file", &|w| {
        let e = Expectations::from_report(report, previous)?;
        w.write_all(e.to_text().as_bytes())
    });
    ok
}

/// Where stderr is no terminal (a CI log, a file), a long run says how far
/// it is in plain lines instead of a bar: one every 5% of the cases, for
/// runs of `PROGRESS_LINES_FROM` cases or more. Counted in cases, not time,
/// so the same run prints the same lines.
fn progress_lines(total: u64) -> Option<gate::Tick> {
    if total < PROGRESS_LINES_FROM {
        return None;
    }
    let start = std::time::Instant::now();
    Some(gate::Tick {
        every: total.div_ceil(20),
        call: Box::new(move |done, live| {
            let secs = start.elapsed().as_secs();
            eprintln!(
                "gate: {done}/{total} cases ({}%), {} failed, {} errored, {}:{:02} elapsed",
                done.saturating_mul(100) / total.max(1),
                live.failed.load(Ordering::Relaxed),
                live.errored.load(Ordering::Relaxed),
                secs / 60,
                secs % 60
            );
        }),
    })
}

/// The smallest run that prints progress lines (see [`progress_lines`]).
const PROGRESS_LINES_FROM: u64 = 1000;

fn progress(total: u64, live: &Live, done: &AtomicBool) {
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} cases · {per_sec} · {elapsed_precise} · {msg}",
    ) {
        bar.set_style(style);
    }
    while !done.load(Ordering::SeqCst) {
        bar.set_position(live.done.load(Ordering::Relaxed));
        bar.set_message(format!(
            "{} failed, {} errored",
            live.failed.load(Ordering::Relaxed),
            live.errored.load(Ordering::Relaxed)
        ));
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

/// `ptoracle baseline OLD NEW`.
pub fn baseline(old: &Path, new: &Path) -> ExitCode {
    let (a, b) = match (baseline::load(old), baseline::load(new)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return Exit::BadInput.into();
        }
    };
    let changes = baseline::compare(&a, &b);
    cli::print(&baseline::render(&changes));
    if changes.worse() {
        Exit::Fail.into()
    } else {
        Exit::Pass.into()
    }
}

/// `ptoracle matrix`: the site of the reports given, written into `out`.
pub fn matrix(
    reports: &[String],
    calibration: &[String],
    out: &Path,
    findings: Option<PathBuf>,
) -> ExitCode {
    let register = findings.or_else(|| {
        let here = PathBuf::from("ci/findings.yaml");
        here.is_file().then_some(here)
    });
    let written = ptoracle::matrix::load(reports, calibration, register.as_deref())
        .and_then(|m| ptoracle::matrix::write_site(&m, out).map(|w| (m, w)));
    match written {
        Ok((m, files)) => {
            let n = m.columns.len().saturating_add(m.calibration.len());
            outln!(
                "matrix: {n} report{} ({} calibration), {} files written to {}",
                if n == 1 { "" } else { "s" },
                m.calibration.len(),
                files.len(),
                out.display()
            );
            Exit::Pass.into()
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::BadInput.into()
        }
    }
}

/// Writes the JSON report to `path`, if given; false if it could not be.
fn write_json(path: Option<&Path>, report: &Report) -> bool {
    let Some(p) = path else {
        return true;
    };
    match ptoracle::output::write_with(p, |w| report.write_json(w)) {
        Ok(()) => true,
        Err(e) => {
            eprintln!(
                "error: could not write the JSON report to {}: {e}",
                p.display()
            );
            false
        }
    }
}

/// The findings register at `p`, for `gate` and `compare`; an error is
/// printed, and is bad input.
fn load_register(p: &Path) -> Result<ptoracle::gate::findings::Register, Exit> {
    ptoracle::gate::findings::Register::load(p).map_err(|e| {
        eprintln!("{e}");
        Exit::BadInput
    })
}

/// `ptoracle compare EXPORT REPLIES [--json FILE] [--findings FILE]`.
pub fn compare(
    export: &Path,
    replies: &Path,
    json: Option<&Path>,
    findings: Option<&Path>,
) -> ExitCode {
    let register = match findings.map(load_register).transpose() {
        Ok(r) => r,
        Err(code) => return code.into(),
    };
    let report = match gate::offline::compare(export, replies, register) {
        Ok(r) => r,
        Err(e) => return bad(e).into(),
    };
    if !write_json(json, &report) {
        return Exit::BadInput.into();
    }
    cli::print(&report.human(false));
    if report.gate_fails(false) {
        Exit::Fail.into()
    } else {
        Exit::Pass.into()
    }
}

/// `ptoracle export DIR [PATHS]`.
pub fn export(dir: &Path, rulings: &cli::Rulings, edition: Option<String>) -> ExitCode {
    let Ok(edition) = cli::edition(edition) else {
        return Exit::BadInput.into();
    };
    let loaded = cli::load_rulings(rulings);
    if !loaded.errors.is_empty() {
        return Exit::BadInput.into();
    }
    match ptoracle::export::export(dir, &loaded.cases, edition) {
        Ok(summary) => {
            if let Some(line) = rulings.chosen_line(loaded.cases.len()) {
                outln!("{line}");
            }
            outln!("{summary}");
            Exit::Pass.into()
        }
        Err(e) => {
            eprintln!("error: could not export to {}: {e}", dir.display());
            Exit::Fail.into()
        }
    }
}
