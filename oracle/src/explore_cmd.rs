//! `ptoracle explore`: progress, interruption and the summary around
//! [`ptoracle::explore::run`].

use crate::cli::outln;
use crate::exit::Exit;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ptoracle::Edition;
use ptoracle::explore::{self, Config, Live, invariants};
use ptoracle::resolver::Mutant;

use crate::ExploreArgs;

pub fn run(args: ExploreArgs) -> ExitCode {
    if args.list_invariants {
        list_invariants();
        return Exit::Pass.into();
    }
    // Ctrl-C, SIGTERM and SIGHUP stop the campaign; what was found is
    // written and reported.
    let stop = crate::interrupt::install();
    let config = match config(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::BadInput.into();
        }
    };
    if args.bench && args.scaling {
        return scaling(&config);
    }
    if args.bench {
        return bench(&config, &stop);
    }
    let mut out = std::io::stdout().lock();
    header(&mut out, &config);
    let live = Live::default();
    let done = AtomicBool::new(false);
    let report = std::thread::scope(|scope| {
        if std::io::stderr().is_terminal() {
            scope.spawn(|| progress(&config, &live, &done));
        }
        let r = explore::run(&config, &stop, &live);
        done.store(true, Ordering::SeqCst);
        r
    });
    let failed = summary(&mut out, &config, &report);
    // Violations decide first: they are what the run is for. A clean run
    // that was cut short has not shown the invariants hold.
    if failed > 0 {
        Exit::Fail.into()
    } else if report.interrupted {
        crate::exit::Exit::Interrupted.into()
    } else {
        Exit::Pass.into()
    }
}

/// `explore --list-invariants`: each invariant with its rules, and the
/// editions it is not checked under.
fn list_invariants() {
    for inv in invariants::ALL {
        let not_under: Vec<&str> = Edition::all()
            .filter(|e| !(inv.holds_in)(e.rules()))
            .map(|e| e.id())
            .collect();
        outln!(
            "{:<28} [{}] {}{}",
            inv.name,
            inv.rules.join(", "),
            inv.statement,
            if not_under.is_empty() {
                String::new()
            } else {
                format!(" (not checked under {})", not_under.join(", "))
            }
        );
    }
}

/// The campaign's opening lines: what is run, and which invariants the
/// edition leaves unchecked.
fn header(out: &mut impl Write, config: &Config) {
    let _ = writeln!(
        out,
        "explore: seed {} · shard {} · edition {} · {} job{}{}{}",
        config.seed,
        config.shard,
        config.edition,
        config.jobs,
        if config.jobs == 1 { "" } else { "s" },
        config
            .cases
            .map_or(String::new(), |n| format!(" · {n} cases")),
        config
            .mutant
            .map_or(String::new(), |m| format!(" · mutant {m}")),
    );
    let unchecked: Vec<&str> = invariants::ALL
        .iter()
        .filter(|i| !(i.holds_in)(config.edition.rules()))
        .map(|i| i.name)
        .collect();
    if !unchecked.is_empty() {
        let _ = writeln!(
            out,
            "not checked under {}, whose rules differ from what they state: {}",
            config.edition,
            unchecked.join(", ")
        );
    }
    let _ = out.flush();
}

/// The closing lines: the rate, each violated invariant with its shrunk
/// rulings, write errors and the count. Returns the number of violations.
fn summary(out: &mut impl Write, config: &Config, report: &explore::CampaignReport) -> u64 {
    let _ = writeln!(
        out,
        "checked {} cases ({} discarded) in {:.1}s: {:.0} cases/s{}",
        report.checked,
        report.discarded,
        report.elapsed.as_secs_f64(),
        report.rate(),
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        }
    );
    for (name, n) in &report.violations {
        let _ = writeln!(
            out,
            "  {name}: violated in {n} case{}",
            if *n == 1 { "" } else { "s" }
        );
        for f in report.failures.iter().filter(|f| f.invariant == *name) {
            let where_ = f
                .file
                .as_ref()
                .map_or("not written".to_string(), |p| p.display().to_string());
            let ((s0, o0), (s1, o1)) = f.shrunk;
            let _ = writeln!(
                out,
                "    {where_}: case {}, shrunk from {s0} steps and {o0} objects to {s1} and {o1}: {}",
                f.index, f.message
            );
        }
    }
    if let Some(e) = report.write_errors.first() {
        let more = match report.unwritten {
            0 => String::new(),
            n => format!(
                " ({n} more ruling{} not written)",
                if n == 1 { "" } else { "s" }
            ),
        };
        eprintln!("error: could not write {e}{more}");
    }
    let failed: u64 = report.violations.values().sum();
    let _ = writeln!(
        out,
        "{} cases checked, {} invariant violation{} (seed {})",
        report.checked,
        failed,
        if failed == 1 { "" } else { "s" },
        config.seed
    );
    failed
}

fn config(args: &ExploreArgs) -> Result<Config, String> {
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let mut c = Config::new(seed, args.cases.unwrap_or(10_000));
    if args.cases.is_none() && args.time.is_some() {
        c.cases = None;
    }
    if let Some(j) = args.jobs {
        c.jobs = j.max(1);
    }
    c.time = args
        .time
        .as_deref()
        .map(crate::cli::parse_duration)
        .transpose()?;
    c.shard = args.shard;
    c.out = Some(args.out.clone());
    if let Some(e) = &args.edition {
        c.edition = Edition::parse(e).map_err(|e| e.to_string())?;
    }
    c.mutant = args.mutant.as_deref().map(Mutant::parse).transpose()?;
    if !args.invariants.is_empty() {
        let mut v = Vec::new();
        for name in &args.invariants {
            v.push(invariants::named(name).ok_or_else(|| {
                let names: Vec<&str> = invariants::ALL.iter().map(|i| i.name).collect();
                format!("unknown invariant `{name}`; known: {}", names.join(", "))
            })?);
        }
        c.only = Some(v);
    }
    c.shrink_budget = args.shrink_budget;
    Ok(c)
}

/// `90`, `90s`, `15m`, `2h`, `500ms`.
fn progress(config: &Config, live: &Live, done: &AtomicBool) {
    let bar = match config.cases {
        Some(n) => indicatif::ProgressBar::new(n),
        None => indicatif::ProgressBar::new_spinner(),
    };
    let template = if config.cases.is_some() {
        "{bar:30} {pos}/{len} cases · {per_sec} · {elapsed_precise} · {msg}"
    } else {
        "{spinner} {pos} cases · {per_sec} · {elapsed_precise} · {msg}"
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    while !done.load(Ordering::SeqCst) {
        bar.set_position(
            live.checked.load(Ordering::Relaxed) + live.discarded.load(Ordering::Relaxed),
        );
        bar.set_message(format!(
            "{} violations",
            live.violations.load(Ordering::Relaxed)
        ));
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

/// `explore --bench --scaling`: one resolution per shape and size; a size
/// is skipped once the one before it took longer than a few seconds; then
/// the largest size within the case limits.
fn scaling(config: &Config) -> ExitCode {
    use explore::bench::{self, Shape};
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "explore --bench --scaling: one resolution per case, edition {}",
        config.edition
    );
    for shape in Shape::ALL {
        let _ = writeln!(out, "{} ({}):", shape.name(), shape.describe());
        let mut previous = Duration::ZERO;
        for n in [1_000, 10_000, 100_000] {
            if previous > Duration::from_secs(5) {
                let _ = writeln!(
                    out,
                    "  N = {n:>6}: skipped (N / 10 took {:.1} s)",
                    previous.as_secs_f64()
                );
                continue;
            }
            let _ = out.flush();
            let (took, run) = bench::scaling(shape, n, config.edition);
            previous = took;
            let _ = match &run.error {
                None => writeln!(out, "  N = {n:>6}: {:>10.3} s", took.as_secs_f64()),
                Some(e) => writeln!(
                    out,
                    "  N = {n:>6}: {:>10.3} s, refused or stopped: {e}",
                    took.as_secs_f64()
                ),
            };
        }
        let n = bench::largest_within_limits(shape, 100_000);
        let _ = out.flush();
        let (took, run) = bench::scaling(shape, n, config.edition);
        let _ = writeln!(
            out,
            "  N = {n:>6}: {:>10.3} s  (the largest within the case limits){}",
            took.as_secs_f64(),
            run.error
                .map_or(String::new(), |e| format!(", stopped: {e}"))
        );
    }
    let _ = out.flush();
    Exit::Pass.into()
}

fn bench(config: &Config, stop: &AtomicBool) -> ExitCode {
    let cases = config.cases.unwrap_or(20_000);
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "explore --bench: {cases} cases of seed {}, edition {}",
        config.seed, config.edition
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let rate = |jobs: usize| {
        let mut c = config.clone();
        c.jobs = jobs;
        c.cases = Some(cases * jobs as u64);
        c.time = None;
        c.out = None;
        explore::run(&c, stop, &Live::default()).rate()
    };
    let one = rate(1);
    let all = rate(cores);
    let _ = writeln!(
        out,
        "campaign (generate, examine; nothing fails on the reference):"
    );
    let _ = writeln!(out, "  1 job:  {one:>9.0} cases/s");
    let _ = writeln!(
        out,
        "  {cores} jobs: {all:>9.0} cases/s, speedup {:.2}× (target: at least 1.8× on 2 cores)",
        all / one.max(1e-9)
    );
    let split = explore::bench::split(config.seed, cases, config.edition);
    let per = |d: Duration| d.as_secs_f64() * 1e6 / split.cases.max(1) as f64;
    let _ = writeln!(out, "one core, per case:");
    let _ = writeln!(out, "  generating  {:>7.2} µs", per(split.generate));
    let _ = writeln!(
        out,
        "  resolving   {:>7.2} µs  (the resolver alone: one plain resolution)",
        per(split.resolve)
    );
    let _ = writeln!(
        out,
        "  checking    {:>7.2} µs  (examining minus resolving: setup observation, saved states, invariants, variants)",
        per(split.check())
    );
    let _ = writeln!(
        out,
        "  in all      {:>7.2} µs  = {:.2} × the resolver alone (target: at most 2)",
        per(split.generate + split.examine),
        split.ratio()
    );
    let mut slow = split.per_invariant.clone();
    slow.sort_by_key(|(_, d)| std::cmp::Reverse(*d));
    let names: Vec<String> = slow
        .iter()
        .take(5)
        .map(|(n, d)| format!("{n} {:.2} µs", per(*d)))
        .collect();
    let _ = writeln!(out, "  costliest invariants: {}", names.join(", "));
    let _ = out.flush();
    Exit::Pass.into()
}
