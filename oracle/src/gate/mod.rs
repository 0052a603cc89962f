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
mod spill;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::ops::RangeInclusive;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::corpus::Loaded;
use crate::edition::Edition;
use crate::engine::{Engine, EngineFault, FaultKind, Reproduce};
use crate::engine::{EngineCheck, check_engine, skipped};
use crate::explore::generate::Scope;
use crate::explore::{case_within, playable, shape, shrink, shrink_case};
use crate::protocol::Capabilities;
use crate::resolver::{self, Options, Run};
use crate::ruling::{expectations_where, fnv};
use crate::scenario::{Case, CaseId, Origin, RuleRef};
use crate::verdict::{Mismatch, Problem, Verdict, compare};

pub use report::{Kind, Outcome, Record, Report, Summary};

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
    features: &BTreeSet<crate::protocol::Feature>,
) -> crate::protocol::Reach {
    let held = plan.corpus.iter().filter(|c| {
        c.case
            .editions
            .as_ref()
            .is_none_or(|r| r.contains(plan.edition))
    });
    crate::protocol::Reach::of(
        held.map(|c| crate::protocol::required_features(&c.case)),
        features,
    )
}

/// Gives the answers found wrong after they were given (see
/// [`Engine::strays`]) to the case whose request they answered, `done` or
/// the one `pending`, then finishes `done`.
fn settle(
    engine: &mut dyn Engine,
    done: Option<(Record, RangeInclusive<u64>)>,
    pending: &mut Option<(Record, RangeInclusive<u64>)>,
    finish: &mut dyn FnMut(Record),
) {
    let mut done = done;
    for (seq, fault) in engine.strays() {
        let guilty = match (&mut done, pending.as_mut()) {
            (Some(d), _) if seq <= *d.1.end() => d,
            (_, Some(p)) => p,
            (Some(d), None) => d,
            (None, None) => continue,
        };
        let record = &mut guilty.0;
        // The first fault found stands.
        if record.outcome.kind() != Kind::Error {
            record.outcome = report::Outcome::Error {
                kind: fault.kind.name().into(),
                message: fault.message,
                not_sent: fault.not_sent,
            };
            record.stderr = fault.stderr;
        }
    }
    if let Some((record, _)) = done {
        finish(record);
    }
}

struct Worker<'a> {
    plan: &'a Plan,
    /// What the engine declared, once a handshake succeeded.
    caps: Option<Capabilities>,
    stop: &'a AtomicBool,
    shrunk_kept: &'a AtomicUsize,
    /// Set by the first ruling that could not be written (a full disk),
    /// which alone says so: workers racing past the limit stay quiet.
    unwritable: &'a AtomicBool,
    shapes: &'a Mutex<BTreeSet<String>>,
    /// Failures shrunk so far, by kind (see [`failure_kind`]).
    kinds: &'a Mutex<BTreeMap<String, usize>>,
}

/// A case of the plan drawn and ready to play.
struct Prepared {
    case: Case,
    /// Where it comes from, for the report.
    source: String,
    /// The seed and index of a generated case.
    generated: Option<(u64, u64)>,
    /// The reference's run, when drawing the case needed it.
    reference: Option<Run>,
}

impl Worker<'_> {
    /// What the engine may be asked: everything until it shook hands.
    fn scope(&self) -> Scope {
        self.caps
            .as_ref()
            .map_or(Scope::ALL, |c| Scope::within(&c.features))
    }

    /// Draws item `i` of the plan: a corpus case, then generated ones.
    /// `None` for a generated index that gives no playable case.
    fn prepare(&self, i: usize) -> Option<Prepared> {
        let plan = self.plan;
        let scope = self.scope();
        let mut reference = None;
        let (case, source, generated) = match plan.corpus.get(i) {
            Some(l) => (l.case.clone(), format!("{}#{}", l.file, l.case.id), None),
            None => {
                let (_, seed) = plan.generated?;
                let index = (i - plan.corpus.len()) as u64;
                let case = case_within(seed, index, &scope)?;
                let (mut case, run) = playable(case, plan.edition)?;
                case.id = CaseId(format!("generated/{seed}/{index}"));
                reference = Some(run);
                (
                    case,
                    format!("generated: --seed {seed}, case {index}"),
                    Some((seed, index)),
                )
            }
        };
        Some(Prepared {
            case,
            source,
            generated,
            reference,
        })
    }

    /// Plays item `i` of the plan, drawn.
    fn play(&self, i: usize, p: Prepared, engine: &mut dyn Engine) -> Record {
        let plan = self.plan;
        let scope = self.scope();
        let Prepared {
            case,
            source,
            generated,
            reference,
        } = p;
        let t = Instant::now();
        let checked = match &self.caps {
            // No handshake has succeeded: ask again, so that the fault (or
            // the engine given up on) is this case's verdict.
            None => {
                let fault = match engine.capabilities() {
                    Err(f) => f,
                    Ok(_) => EngineFault::new(
                        FaultKind::Handshake,
                        "the handshake succeeded only on a later attempt; this case was not sent",
                    ),
                };
                EngineCheck {
                    verdict: Verdict::Error(Problem::Engine(fault)),
                    reference: None,
                    got: None,
                }
            }
            Some(caps) => catch_unwind(AssertUnwindSafe(|| {
                check_engine(&case, plan.edition, engine, caps, reference)
            }))
            .unwrap_or_else(|_| EngineCheck {
                verdict: Verdict::Error(Problem::Engine(EngineFault::new(
                    FaultKind::Protocol,
                    "ptoracle panicked on this case: a bug in ptoracle, please report it",
                ))),
                reference: None,
                got: None,
            }),
        };
        // A nondeterministic engine fails some runs and passes others:
        // asked again, every failing case and a sample of passing ones must
        // get the same answer.
        let again = match &self.caps {
            Some(caps)
                if replayed(&case, &checked, generated.is_some())
                    && !self.stop.load(Ordering::Relaxed) =>
            {
                let known = checked.reference.clone();
                catch_unwind(AssertUnwindSafe(|| {
                    check_engine(&case, plan.edition, engine, caps, known)
                }))
                .ok()
            }
            _ => None,
        };
        let flaky = again.and_then(|again| {
            let mismatches = disagreement(&checked, &again)?;
            let observed = |c: &EngineCheck| c.got.as_ref().map(report::Observed::of);
            Some((mismatches, observed(&checked), observed(&again)))
        });
        let expected = checked.reference.as_ref().map(report::Observed::of);
        // A corpus case the engine fails: its reproduction, when the
        // engine writes them (a generated one's is its shrunk ruling's).
        let corpus_failure = match (&checked.verdict, &checked.reference, &checked.got) {
            (Verdict::Fail(_), Some(r), Some(g)) if generated.is_none() && flaky.is_none() => {
                self.reproduces().then(|| (r.clone(), g.clone()))
            }
            _ => None,
        };
        let ms = t.elapsed().as_millis() as u64;
        let reference_run = checked.reference.clone();
        let mut record = Record::new(i, &case, source, generated, checked, ms);
        if let Some((reference, got)) = corpus_failure {
            let stem = slug(&case.id.0);
            self.reproduction(&case, (&reference, &got), &stem, engine, &mut record);
        }
        if let Some((mismatches, got, again)) = flaky {
            record.outcome = Outcome::Flaky { mismatches };
            record.scenario = Some(report::Scenario::of(&case));
            (record.expected, record.got, record.again) = (expected, got, again);
        }
        if let (Some(register), Some(caps)) = (&plan.findings, &self.caps) {
            register.attribute_record(&caps.info.name, &case, reference_run.as_ref(), &mut record);
        }
        if let (Some((seed, index)), Kind::Fail) = (generated, record.outcome.kind()) {
            if !self.stop.load(Ordering::Relaxed) {
                self.shrink_failure(&case, seed, index, &scope, engine, &mut record);
            }
        }
        if generated.is_some() && matches!(record.outcome.kind(), Kind::Fail | Kind::Flaky) {
            // A generated case cites no rules of its own: name those the
            // reference applies at the step that differs.
            record.rules = rules_at(&case, plan.edition, record.first_step());
        }
        record
    }

    /// Shrinks a generated failure against the engine and writes it.
    fn shrink_failure(
        &self,
        case: &Case,
        seed: u64,
        index: u64,
        scope: &Scope,
        engine: &mut dyn Engine,
        record: &mut Record,
    ) {
        let plan = self.plan;
        let Some(caps) = &self.caps else {
            return;
        };
        if self.shrunk_kept.load(Ordering::Relaxed) >= plan.keep_shrunk {
            return;
        }
        // One engine bug can fail hundreds of generated cases; shrinking
        // each costs up to `shrink_budget` engine requests and mostly ends
        // in a shape already written (found against phase.rs: 500 cases
        // took 10 minutes). A few of each kind are enough.
        if let Some(kind) = failure_kind(case, record) {
            let mut kinds = self.kinds.lock().unwrap_or_else(|p| p.into_inner());
            let n = kinds.entry(kind.clone()).or_default();
            if *n >= SHRINK_PER_KIND {
                record.notes.push(format!(
                    "not shrunk: {SHRINK_PER_KIND} failures that first differ in {kind} were shrunk already"
                ));
                return;
            }
            *n += 1;
        }
        let original = (case.steps.len(), case.setup.objects.len());
        let start = Start::Stream { seed, index, scope };
        let (ruling, reference, got) = match shrink_to_ruling(
            case,
            start,
            plan.edition,
            engine,
            caps,
            plan.shrink_budget,
            self.stop,
        ) {
            Ok(shrunk) => shrunk,
            Err(note) => {
                record.notes.extend(note.map(String::from));
                return;
            }
        };
        let kind = shape(&ruling);
        let fresh = self.shapes.lock().is_ok_and(|mut s| s.insert(kind.clone()));
        if !fresh {
            record.shrunk = Some(report::Shrunk {
                from: original,
                to: (ruling.steps.len(), ruling.setup.objects.len()),
                ruling: None,
                duplicate_of_shape: true,
            });
            return;
        }
        // Reserved only now, so that racing workers never write more.
        if self.shrunk_kept.fetch_add(1, Ordering::Relaxed) >= plan.keep_shrunk {
            return;
        }
        let name = ruling_file_name(&caps.info.name, &kind);
        if self.reproduces() {
            let stem = name.trim_end_matches(".yaml").to_string();
            self.reproduction(&ruling, (&reference, &got), &stem, engine, record);
        }
        let file = plan.out.as_ref().and_then(|dir| {
            crate::output::write_in(dir, &name, &crate::corpus::to_yaml(&ruling))
                .map(|p| p.display().to_string())
                .map_err(|e| {
                    // A full disk: said once, and no more failures are
                    // shrunk for rulings that cannot be written.
                    self.shrunk_kept.store(plan.keep_shrunk, Ordering::Relaxed);
                    if !self.unwritable.swap(true, Ordering::Relaxed) {
                        record.notes.push(format!(
                            "could not write {}: {e} (no more generated failures are shrunk)",
                            dir.join(&name).display()
                        ));
                    }
                })
                .ok()
        });
        record.shrunk = Some(report::Shrunk {
            from: original,
            to: (ruling.steps.len(), ruling.setup.objects.len()),
            ruling: file,
            duplicate_of_shape: false,
        });
        record.ruling_text = Some(crate::corpus::to_yaml(&ruling));
    }
}

impl Worker<'_> {
    /// Whether the engine writes reproductions (it declared `reproduce`,
    /// offered by `gate --reproduce`) and there is a directory to write
    /// them in.
    fn reproduces(&self) -> bool {
        self.plan.out.is_some() && self.caps.as_ref().is_some_and(|c| c.reproduce.is_some())
    }

    /// Asks the engine for a reproduction of `case` (which it failed: its
    /// run and the reference's) and writes it as `STEM.EXT` in the plan's
    /// directory, the record saying where, or in a note why not.
    fn reproduction(
        &self,
        case: &Case,
        (reference, got): (&Run, &Run),
        stem: &str,
        engine: &mut dyn Engine,
        record: &mut Record,
    ) {
        let (Some(dir), Some(r)) = (
            &self.plan.out,
            self.caps.as_ref().and_then(|c| c.reproduce.as_ref()),
        ) else {
            return;
        };
        let ask = Reproduce {
            case,
            edition: self.plan.edition,
            reference,
            got,
        };
        let name = format!("{stem}.{}", r.extension);
        match engine.reproduce(&ask) {
            Ok(program) => match crate::output::write_in(dir, &name, &program) {
                Ok(path) => record.reproduction = Some(path.display().to_string()),
                Err(e) => record.notes.push(format!(
                    "could not write the reproduction {}: {e}",
                    dir.join(&name).display()
                )),
            },
            Err(why) => record.notes.push(format!("no reproduction: {why}")),
        }
    }
}

/// Where a failure to shrink comes from.
#[derive(Clone, Copy)]
pub(crate) enum Start<'a> {
    /// Case `index` of the generated stream of `seed`, drawn within `scope`:
    /// shrunk through its choice bytes, then structurally.
    Stream {
        /// The stream's seed.
        seed: u64,
        /// The case's index in it.
        index: u64,
        /// What it was drawn within.
        scope: &'a Scope,
    },
    /// A case from elsewhere (a fuzzer's input): shrunk structurally, and
    /// the ruling says `found_by` found it.
    Found {
        /// What found it, for the ruling's description.
        found_by: &'a str,
    },
}

/// Shrinks `case`, which `engine` fails, against the engine, to a ruling
/// that holds on the reference's run and not on the engine's: the
/// expectations of the step where they first differ, with the reference's
/// run and the engine's of the shrunk case. `Err` when there is none, with
/// a note saying why when that is worth telling.
pub(crate) fn shrink_to_ruling(
    case: &Case,
    start: Start<'_>,
    edition: Edition,
    engine: &mut dyn Engine,
    caps: &Capabilities,
    budget: usize,
    stop: &AtomicBool,
) -> Result<(Case, Run, Run), Option<&'static str>> {
    let mut last: Option<(Case, Run, Run)> = None;
    let mut fails = |c: &Case| -> Option<Case> {
        let (c, run) = playable(c.clone(), edition)?;
        let checked = check_engine(&c, edition, &mut *engine, caps, Some(run));
        match (checked.verdict, checked.reference, checked.got) {
            (Verdict::Fail(_), Some(r), Some(g)) => {
                last = Some((c.clone(), r, g));
                Some(c)
            }
            _ => None,
        }
    };
    let best = match start {
        Start::Stream { seed, index, scope } => {
            shrink(seed, index, scope, budget, stop, &mut fails)
        }
        Start::Found { .. } => shrink_case(case, budget, stop, &mut fails),
    };
    // The last failing run seen may belong to a later, rejected
    // candidate: play the chosen one once more.
    fails(&best.ok_or(None)?).ok_or(None)?;
    let (case, reference, got) = last.ok_or(None)?;
    let ruling = to_ruling(&case, &reference, &got, edition, start, caps).ok_or(None)?;
    // Kept only if the verdict reports it: it holds on the reference's
    // run and not on the engine's.
    let holds = |run: &Run| compare(&ruling, edition, run) == Verdict::Pass;
    if !holds(&reference) || holds(&got) {
        return Err(Some(
            "not shrunk: the smallest failing case gives no ruling that the engine fails",
        ));
    }
    Ok((ruling, reference, got))
}

/// One passing generated case in this many is asked again (see
/// [`replayed`]).
const REPLAY_GENERATED_ONE_IN: u32 = 16;

/// Whether a case is asked again, to see the engine answer the same: when
/// it failed, and when it passed, every corpus case (a few hundred, where
/// the rules engines get wrong are) and a sample of generated ones chosen
/// by their ids (so by the seed): the same sample in every run.
fn replayed(case: &Case, checked: &EngineCheck, generated: bool) -> bool {
    match checked.verdict {
        Verdict::Fail(_) => true,
        Verdict::Pass => !generated || fnv(&case.id.0) % REPLAY_GENERATED_ONE_IN == 0,
        Verdict::Error(_) | Verdict::Skip(_) => false,
    }
}

/// How two answers of the engine to one case differ, if they do: their
/// observations at the first step where they differ, or what each answer
/// was (observations, a skip, an error of some kind).
fn disagreement(first: &EngineCheck, again: &EngineCheck) -> Option<Vec<Mismatch>> {
    let answer = |c: &EngineCheck| match (&c.got, &c.verdict) {
        (Some(_), _) => "observations".to_string(),
        (None, Verdict::Skip(why)) => format!("a skip ({why})"),
        (None, Verdict::Error(Problem::Engine(f))) => format!("an error ({})", f.kind.name()),
        (None, v) => format!("{v:?}"),
    };
    if let Verdict::Error(Problem::Engine(f)) = &again.verdict {
        if f.kind == FaultKind::Interrupted {
            return None;
        }
    }
    let found = match (&first.got, &again.got) {
        (Some(a), Some(b)) => crate::verdict::first_difference(a, b),
        _ if answer(first) == answer(again) => Vec::new(),
        _ => vec![Mismatch {
            step: 0,
            field: "answer".into(),
            expected: answer(first),
            got: answer(again),
        }],
    };
    (!found.is_empty()).then_some(found)
}

/// How many generated failures of one kind are shrunk (see [`failure_kind`]).
const SHRINK_PER_KIND: usize = 5;

/// The kind of a failure, for deciding whether to shrink it: the action of
/// the step that differs and the field that differs first, without the
/// object (`damage -> damage`, `put_counters -> pt`, `effect -> error`).
fn failure_kind(case: &Case, record: &Record) -> Option<String> {
    let Outcome::Fail { mismatches } = &record.outcome else {
        return None;
    };
    let m = mismatches.first()?;
    let field = m.field.split_once('.').map_or(m.field.as_str(), |(_, f)| f);
    let action = case.steps.get(m.step).map_or("?", |s| s.action.key());
    Some(format!("`{field}` after a `{action}` step"))
}

/// The file a shrunk ruling of shape `kind` (see [`shape`]) found in the
/// engine `engine` is written to: one per engine and shape.
pub(crate) fn ruling_file_name(engine: &str, kind: &str) -> String {
    format!("{}-{:08x}.yaml", slug(engine), fnv(kind))
}

/// A name for files and ids: lowercase letters and digits, single dashes.
fn slug(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.is_empty() && !s.ends_with('-') {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-');
    if s.is_empty() {
        "engine".into()
    } else {
        s.into()
    }
}

/// A shrunk disagreement as a ruling: the steps up to the first one that
/// differs, expecting there what the reference resolver observes.
fn to_ruling(
    case: &Case,
    reference: &Run,
    got: &Run,
    edition: Edition,
    start: Start<'_>,
    caps: &Capabilities,
) -> Option<Case> {
    let (step, expect, expect_error) = expectations_where(reference, got)?;
    let mut c = case.clone();
    c.steps.truncate(step + 1);
    for s in &mut c.steps {
        s.clear_expectations();
    }
    let last = c.steps.last_mut()?;
    last.expect = expect;
    last.expect_error = expect_error;
    if last.expect_error.is_some() {
        last.expect.clear();
    }
    let first = crate::verdict::first_difference(reference, got);
    let what = first
        .first()
        .map_or("a difference".to_string(), |m| m.to_string());
    let engine = format!("{} {}", caps.info.name, caps.info.version);
    let hash = fnv(&crate::corpus::to_yaml(&c));
    c.id = CaseId(format!("gate/{}/{hash:08x}", slug(&caps.info.name)));
    c.title = format!("{} disagrees with the reference: {what}", caps.info.name);
    c.description = Some(match start {
        Start::Stream { seed, index, .. } => format!(
            "Found by `ptoracle gate --generated N --seed {seed}` against {engine} (case index {index}, edition {edition}) and shrunk against it. The expectations are the reference resolver's."
        ),
        Start::Found { found_by } => format!(
            "Found by {found_by} against {engine} (edition {edition}) and shrunk against it. The expectations are the reference resolver's."
        ),
    });
    c.rules = rules_at(&c, edition, Some(step))
        .iter()
        .filter_map(|r| r.parse::<RuleRef>().ok())
        .collect();
    if c.rules.is_empty() {
        c.rules = vec!["613.1".parse().ok()?];
    }
    // A case from outside the stream has no seed and index to draw it again by.
    c.origin = match start {
        Start::Stream { seed, index, .. } => Some(Origin {
            invariant: "agrees-with-reference".into(),
            seed,
            index,
            edition: edition.id().to_string(),
            mutant: None,
            engine: Some(engine),
        }),
        Start::Found { .. } => None,
    };
    if !crate::scenario::validate(&c).is_empty() {
        c.steps.last_mut()?.expect.clear();
    }
    Some(c)
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
