//! The gate: an engine checked case by case against the reference
//! resolver, on the corpus and on generated cases, in parallel, with every
//! generated disagreement shrunk against the engine to a small ruling.
//!
//! - [`run`] plays a [`Plan`] on engines made by a factory, one per worker,
//!   and returns a [`Report`] of one [`Record`] per case;
//! - [`report`]: the records, the human summary, JSON, JUnit and Markdown;
//! - [`expectations`]: an engine's known failures, and what changed;
//! - [`baseline`]: what changed between two JSON reports;
//! - [`offline`]: the verdicts of an engine's recorded replies to an
//!   export's requests (`ptoracle compare`).

pub mod baseline;
pub mod expectations;
pub mod findings;
pub mod offline;
pub mod policy;
pub mod report;
mod shrink;
mod spill;
mod worker;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ops::RangeInclusive;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::corpus::Loaded;
use crate::engine::{Engine, EngineFault, FaultKind, Reproduce};
use crate::engine::{EngineCheck, check_engine, skipped};
use crate::explore::generate::Scope;
use crate::explore::{case_within, playable, shape, shrink, shrink_case};
use crate::ruling::{expectations_where, fnv};
use ptoracle_core::edition::Edition;
use ptoracle_core::resolver::{self, Options, Run};
use ptoracle_core::scenario::{Case, CaseId, Origin, RuleRef};
use ptoracle_core::verdict::{Mismatch, Problem, Verdict, compare};
use ptoracle_protocol::Capabilities;

pub use report::{Kind, Outcome, Record, Report, Summary};
use shrink::slug;
pub(crate) use shrink::{Start, ruling_file_name, shrink_to_ruling};
use worker::{Prepared, Worker, settle};

/// What a gate run plays.
pub struct Plan {
    /// Corpus cases, in order.
    pub corpus: Vec<Loaded>,
    /// Generated cases: how many indices of the stream, from which seed.
    pub generated: Option<(u64, u64)>,
    /// The edition the engine is tested under.
    pub edition: Edition,
    /// Worker threads, each with its own engine.
    pub jobs: usize,
    /// Where shrunk rulings are written (none: not written).
    pub out: Option<PathBuf>,
    /// Shrinking attempts per generated failure (each one engine request).
    pub shrink_budget: usize,
    /// Shrunk rulings kept (further failures are reported unshrunk).
    pub keep_shrunk: usize,
    /// The engine's known failures: each record is marked with what they
    /// say of it as it is made.
    pub expectations: Option<expectations::Expectations>,
    /// The findings register: each failing record is attributed to the
    /// findings of the engine that explain it (see [`findings`]).
    pub findings: Option<findings::Register>,
    /// When the first this many cases played all end in an error of the
    /// same kind (none listed in the expectations), the run stops there
    /// ([`Report::stopped`]): an engine broken for every case would be
    /// restarted for every case. 0: never.
    pub stop_after_same_errors: usize,
}

/// Live counters, for a progress bar.
#[derive(Default)]
pub struct Live {
    /// Cases done.
    pub done: AtomicU64,
    /// Cases that failed.
    pub failed: AtomicU64,
    /// Cases that ended in an error.
    pub errored: AtomicU64,
    /// Called with the number of cases done each time it reaches a
    /// multiple of `every` (a log line where no progress bar can be drawn).
    pub tick: Option<Tick>,
}

/// A callback every `every` cases done: see [`Live::tick`].
pub struct Tick {
    /// How many cases between two calls (at least 1).
    pub every: u64,
    /// What to do, given the cases done and the counters.
    pub call: TickFn,
}

/// The callback of a [`Tick`].
pub type TickFn = Box<dyn Fn(u64, &Live) + Send + Sync>;

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live")
            .field("done", &self.done)
            .field("failed", &self.failed)
            .field("errored", &self.errored)
            .field("tick", &self.tick.as_ref().map(|t| t.every))
            .finish()
    }
}

/// Makes one engine per worker.
pub type Factory<'a> = dyn Fn() -> Box<dyn Engine + Send> + Sync + 'a;

/// Plays `plan` and records every case. Stops starting cases when `stop`
/// is set; what was recorded by then is returned, and the rest is counted
/// as not run.
///
/// The gate's memory does not grow with the number of cases: each record
/// is written to a temporary file as it is finished (see the `spill` module), and
/// only the counts stay in memory. What else is kept grows with bounded
/// things: the capabilities of each worker's engine, the shapes and kinds
/// of shrunk failures (at most `SHRINK_PER_KIND` shrinks per kind, and
/// the kinds are the observation fields by step actions), and the ids of
/// the expectations file that were played (bounded by that file's size).
pub fn run(plan: &Plan, make: &Factory<'_>, stop: &AtomicBool, live: &Live) -> Report {
    let started = Instant::now();
    let total = plan.corpus.len() + plan.generated.map_or(0, |(n, _)| n as usize);
    let next = AtomicUsize::new(0);
    let discarded = AtomicUsize::new(0);
    let parts: Mutex<Vec<spill::Part>> = Mutex::new(Vec::new());
    let summary: Mutex<Summary> = Mutex::new(Summary::default());
    let listed_seen: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let engines: Mutex<Vec<Capabilities>> = Mutex::new(Vec::new());
    let shrunk_kept = AtomicUsize::new(0);
    let unwritable = AtomicBool::new(false);
    let shapes: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let kinds: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());
    let first_errors = Mutex::new(FirstErrors::default());
    // Set when the first cases all erred alike: no worker starts another.
    let halted = AtomicBool::new(false);
    let jobs = plan.jobs.clamp(1, total.max(1));
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                let mut engine = make();
                let mut worker = Worker {
                    plan,
                    caps: None,
                    stop,
                    shrunk_kept: &shrunk_kept,
                    unwritable: &unwritable,
                    shapes: &shapes,
                    kinds: &kinds,
                };
                // The last case played, and the answers its check got.
                let mut pending: Option<(Record, RangeInclusive<u64>)> = None;
                let mut part = spill::Part::new();
                // Cases drawn and not yet played, their requests perhaps
                // sent ahead (an engine that takes several in flight).
                let mut ahead: VecDeque<(usize, Prepared)> = VecDeque::new();
                let mut finish = |mut record: Record| {
                    match record.outcome.kind() {
                        Kind::Fail | Kind::Flaky => live.failed.fetch_add(1, Ordering::Relaxed),
                        Kind::Error => live.errored.fetch_add(1, Ordering::Relaxed),
                        _ => 0,
                    };
                    let done = live.done.fetch_add(1, Ordering::Relaxed).saturating_add(1);
                    if let Some(t) = &live.tick {
                        if done % t.every.max(1) == 0 {
                            (t.call)(done, live);
                        }
                    }
                    let listed = expectations::mark(
                        plan.expectations.as_ref(),
                        plan.findings.is_some(),
                        &mut record,
                    );
                    if listed {
                        if let Ok(mut seen) = listed_seen.lock() {
                            seen.insert(record.id.clone());
                        }
                    }
                    if let Ok(mut s) = summary.lock() {
                        s.add(&record);
                    }
                    let mut first = first_errors.lock().unwrap_or_else(|p| p.into_inner());
                    if first.add(&record, plan.stop_after_same_errors) {
                        halted.store(true, Ordering::Relaxed);
                    }
                    drop(first);
                    part.push(record.order, &record);
                };
                loop {
                    if stop.load(Ordering::Relaxed) || halted.load(Ordering::Relaxed) {
                        break;
                    }
                    if worker.caps.is_none() {
                        if let Ok(c) = engine.capabilities() {
                            if let Ok(mut e) = engines.lock() {
                                e.push(c.clone());
                            }
                            worker.caps = Some(c);
                        }
                    }
                    let depth = match worker.caps {
                        Some(_) => engine.pipeline(),
                        None => 1,
                    };
                    while ahead.len() < depth {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= total {
                            break;
                        }
                        let Some(p) = worker.prepare(i) else {
                            discarded.fetch_add(1, Ordering::Relaxed);
                            continue;
                        };
                        if let Some(caps) = &worker.caps {
                            if depth > 1 && skipped(&p.case, plan.edition, caps).is_none() {
                                engine.send_ahead(&p.case, plan.edition);
                            }
                        }
                        ahead.push_back((i, p));
                    }
                    let Some((i, p)) = ahead.pop_front() else {
                        break;
                    };
                    let before = engine.sent();
                    let record = worker.play(i, p, engine.as_mut());
                    if record.interrupted() {
                        break;
                    }
                    // A verdict is final once the engine is seen to have
                    // written nothing more after its answers: checked now,
                    // and again as the next case's request is sent.
                    let done = pending.replace((record, before..=engine.sent()));
                    settle(engine.as_mut(), done, &mut pending, &mut finish);
                }
                settle(engine.as_mut(), pending.take(), &mut pending, &mut finish);
                if let Ok(mut p) = parts.lock() {
                    p.push(part);
                }
            });
        }
    });
    let discarded = discarded.into_inner();
    let engines = engines.into_inner().unwrap_or_default();
    let caps = engines.first().cloned();
    let interrupted = stop.load(Ordering::Relaxed);
    let stopped = first_errors
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .stopped;
    let mut summary = summary.into_inner().unwrap_or_else(|p| p.into_inner());
    summary.discarded = discarded;
    summary.not_run = total.saturating_sub(summary.records() + discarded);
    let spill = spill::Spill::new(parts.into_inner().unwrap_or_else(|p| p.into_inner()));
    let mut report = Report::new(
        engines.into_iter().next(),
        plan,
        Vec::new(),
        discarded,
        summary.not_run,
        interrupted,
        started.elapsed(),
    )
    .spilled(spill, summary);
    report.stopped = stopped;
    if let Some(e) = &plan.expectations {
        let seen = listed_seen.into_inner().unwrap_or_else(|p| p.into_inner());
        report.unplayed_expectations = e.unplayed(&seen);
    }
    report.reach = caps.map(|c| corpus_reach(plan, &c.features));
    report
}

/// The first records of a run, while they are all errors of one kind:
/// what [`Plan::stop_after_same_errors`] watches. Skips are not played and
/// do not count; the first record of any other kind (a pass, a failure, an
/// error of another kind, one the expectations list) ends the watch for
/// the rest of the run, so an engine that errs on some cases and passes
/// others is never stopped.
#[derive(Default)]
struct FirstErrors {
    /// The kind of the errors so far, how many, and the first one's words.
    kind: Option<(String, usize, String)>,
    /// No longer watched: a record broke the run of errors, or it stopped.
    done: bool,
    /// Why the run stopped, once it did.
    stopped: Option<String>,
}

impl FirstErrors {
    /// Counts `record`; true when it makes the `limit`-th error of the
    /// kind (0: never), the run to stop.
    fn add(&mut self, record: &Record, limit: usize) -> bool {
        if self.done || limit == 0 {
            return false;
        }
        let kind = match &record.outcome {
            Outcome::Skip { .. } => return false,
            Outcome::Error {
                kind,
                not_sent: false,
                ..
            } if record.expectation != Some(report::Expectation::Known) => kind,
            _ => {
                self.done = true;
                return false;
            }
        };
        let (first_kind, n, words) = self.kind.get_or_insert_with(|| {
            let message = match &record.outcome {
                Outcome::Error { message, .. } => message.as_str(),
                _ => "",
            };
            let mut words: String = message.chars().take(120).collect();
            if words.len() < message.len() {
                words.push('…');
            }
            (kind.clone(), 0, words)
        });
        if first_kind != kind {
            self.done = true;
            return false;
        }
        *n += 1;
        if *n < limit {
            return false;
        }
        self.done = true;
        self.stopped = Some(format!(
            "the first {n} cases played all ended in a `{kind}` error, as every case may (the first: {words})"
        ));
        true
    }
}

/// What an engine declaring `features` plays of the plan's corpus cases
/// that hold in its edition.
fn corpus_reach(
    plan: &Plan,
    features: &BTreeSet<ptoracle_protocol::Feature>,
) -> ptoracle_protocol::Reach {
    let held = plan.corpus.iter().filter(|c| {
        c.case
            .editions
            .as_ref()
            .is_none_or(|r| r.contains(plan.edition))
    });
    ptoracle_protocol::Reach::of(
        held.map(|c| ptoracle_protocol::required_features(&c.case)),
        features,
    )
}

/// The rules the reference resolver cites when it explains `step` of
/// `case` (every step when `None`), in order of first citation.
pub fn rules_at(case: &Case, edition: Edition, step: Option<usize>) -> Vec<String> {
    let options = Options {
        explain: true,
        ..Options::default()
    };
    let run = resolver::resolve(case, edition, options);
    let lines = run
        .steps
        .iter()
        .enumerate()
        .filter(|(k, _)| step.is_none_or(|s| s == *k))
        .flat_map(|(_, s)| s.explanation.iter());
    crate::explain::rules_cited(lines)
}

/// Whether a case matches one of the `--filter` patterns: its id contains
/// the pattern, or it cites the rule or a rule under it (`613.4` matches
/// `613.4c`, not `613.40`).
///
/// ```
/// let case = &ptoracle::corpus::parse_str("x.yaml", "id: a/b\ntitle: t\nrules: [\"613.4c\"]\nsetup: {}\nsteps: [{do: state_based_actions}]\n").unwrap()[0].case;
/// use ptoracle::gate::matches_filter;
/// assert!(matches_filter(case, &["613.4".into()]));
/// assert!(matches_filter(case, &["a/".into()]));
/// assert!(!matches_filter(case, &["613.40".into()]));
/// assert!(!matches_filter(case, &["61".into()]));
/// ```
pub fn matches_filter(case: &Case, patterns: &[String]) -> bool {
    patterns.iter().any(|p| {
        case.id.0.contains(p.as_str())
            || case.rules.iter().any(|r| {
                let r = r.as_str();
                r == p
                    || r.strip_prefix(p.as_str()).is_some_and(|rest| {
                        let last_digit = p.ends_with(|c: char| c.is_ascii_digit());
                        let next = rest.chars().next();
                        !(last_digit && next.is_some_and(|c| c.is_ascii_digit()))
                    })
            })
    })
}

/// A default for `--jobs`: the machine's cores.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Shared by the command line: the stop flag that Ctrl-C sets, also given
/// to every engine so that a wait is abandoned at once.
pub fn stop_flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

/// How long to wait between progress updates.
pub const PROGRESS_TICK: Duration = Duration::from_millis(200);
