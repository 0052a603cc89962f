//! Checking a Rust engine in process: in its own `cargo test` and
//! `cargo fuzz` targets, without pipes, with the gate's verdicts,
//! shrinking and YAML rulings.
//!
//! An engine implements [`RustEngine`]: its name, what it implements, and
//! [`RustEngine::play`], which plays a [`Case`] under an [`Edition`] and
//! returns one [`Observation`] per step (or stops with an error, or says
//! the case is unsupported). Every `RustEngine` is an
//! [`Engine`], so it is checked by the one entry
//! point, [`check_engine`](crate::engine::check_engine), like the
//! reference, a mutant or an engine in another process. Then:
//!
//! - [`check_cases`] plays generated cases (within the engine's features)
//!   through the gate ([`crate::gate::run`]), shrinks a failure against the
//!   engine as the gate does, and panics with the gate's report and the
//!   shrunk ruling: a `#[test]` that is a property test;
//! - [`check_corpus`] plays every ruling of a corpus ([`corpus_dir`] loads
//!   one from a directory);
//! - [`fuzz`] is the body of a `cargo fuzz` target: the bytes as a case
//!   (as the `differential` target reads them, [`crate::fuzzing::scenario`]),
//!   checked, and a failure shrunk and panicked with as a ruling.
//!
//! The rulings these write reproduce outside the test: `ptoracle check
//! RULING` shows the reference passes it, and `ptoracle gate` against the
//! engine behind an adapter fails it.
//!
//! ```
//! use ptoracle::edition::Edition;
//! use ptoracle::in_process::{Config, Played, RustEngine, check_cases, run_cases};
//! use ptoracle::protocol::EngineInfo;
//! use ptoracle::resolver::{self, Options};
//! use ptoracle::scenario::Case;
//!
//! /// An engine: here the reference resolver itself.
//! struct Mine;
//!
//! impl RustEngine for Mine {
//!     fn info(&self) -> EngineInfo {
//!         EngineInfo { name: "mine".into(), version: "0.1.0".into(), issues: None }
//!     }
//!     fn play(&mut self, case: &Case, edition: Edition) -> Played {
//!         Played::from_run(resolver::resolve(case, edition, Options::default()))
//!     }
//! }
//!
//! let config = Config { generated: 20, ..Config::default() };
//! check_cases(Mine, &config); // panics with the shrunk ruling if it disagrees
//! assert_eq!(run_cases(Mine, &config).summary.failed, 0);
//! ```

use std::collections::BTreeSet;
use std::fmt::{self, Write as _};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use crate::corpus::{self, Loaded};
use crate::engine::{Answer, Engine, EngineFault, FaultKind, Unusable, run_from_wire, wire_error};
use crate::explore::shape;
use crate::gate::{self, Plan, Report, Start};
use ptoracle_core::edition::Edition;
use ptoracle_core::observation::Observation;
use ptoracle_core::resolver::Run;
use ptoracle_core::scenario::Case;
use ptoracle_protocol::{Capabilities, EngineInfo, Feature, Observable, WireError};

/// A Rust engine, as ptoracle plays it in process.
///
/// Every `RustEngine` is an [`Engine`]: its capabilities are
/// [`info`](RustEngine::info), [`features`](RustEngine::features) and
/// [`unobserved`](RustEngine::unobserved) (every edition), and its answer
/// is what [`play`](RustEngine::play) returns, read as the gate reads an
/// engine's reply to a request (a panic in `play` is a crash of the
/// engine).
pub trait RustEngine {
    /// Its name and version, as the handshake of the protocol gives them:
    /// shrunk rulings name it.
    fn info(&self) -> EngineInfo;

    /// The features it implements: cases that need another are skipped
    /// and never generated for it. By default, every feature.
    fn features(&self) -> BTreeSet<Feature> {
        Feature::ALL.iter().copied().collect()
    }

    /// The fields it does not report: they are never compared. By default,
    /// none.
    fn unobserved(&self) -> BTreeSet<Observable> {
        BTreeSet::new()
    }

    /// Plays `case` under `edition` (its expectations are for the
    /// checker, not the engine).
    fn play(&mut self, case: &Case, edition: Edition) -> Played;
}

/// What a [`RustEngine`] answers for one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Played {
    /// It played the case: one observation per step it completed, and
    /// when it stopped early, why, at the step after the last observation
    /// (as in a protocol `result`).
    Steps {
        /// One observation per completed step, in order.
        observations: Vec<Observation>,
        /// The error that stopped it, if it stopped before the last step.
        error: Option<WireError>,
    },
    /// It cannot play this case (a rule it does not implement), and says
    /// why: the case is skipped.
    Unsupported(String),
    /// Something went wrong with the engine itself: the case is an error.
    Failed(String),
}

impl Played {
    /// A resolver's run as an engine's answer: what an engine that wraps
    /// the reference resolver returns.
    pub fn from_run(run: Run) -> Played {
        Played::Steps {
            error: run.error.as_ref().and_then(wire_error),
            observations: run.steps.into_iter().map(|s| s.observation).collect(),
        }
    }
}

impl<E: RustEngine + ?Sized> Engine for E {
    fn capabilities(&mut self) -> Result<Capabilities, EngineFault> {
        let mut caps = Capabilities::everything(self.info());
        caps.features = self.features();
        caps.unobserved = self.unobserved();
        Ok(caps)
    }

    fn run(&mut self, case: &Case, edition: Edition) -> Answer {
        let played = catch_unwind(AssertUnwindSafe(|| self.play(case, edition)));
        match played {
            Ok(Played::Steps {
                observations,
                error,
            }) => match run_from_wire(observations, error, case.steps.len()) {
                Ok(run) => Answer::Ran(run),
                Err(fault) => Answer::Fault(fault),
            },
            Ok(Played::Unsupported(why)) => Answer::Unsupported(why),
            Ok(Played::Failed(message)) => Answer::Fault(EngineFault::new(
                FaultKind::Reported,
                format!("the engine reports: {message}"),
            )),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic without a message".into());
                Answer::Fault(EngineFault::new(
                    FaultKind::Crash,
                    format!("the engine panicked: {message}"),
                ))
            }
        }
    }
}

/// How [`check_cases`], [`check_corpus`] and [`fuzz`] check an engine:
/// what `ptoracle gate` takes as options.
#[derive(Clone, Debug)]
pub struct Config {
    /// How many generated cases [`check_cases`] plays (`--generated`).
    pub generated: u64,
    /// The seed of the generated stream (`--seed`): the same seed plays
    /// the same cases on any machine.
    pub seed: u64,
    /// The edition the engine is checked under ([`fuzz`] checks under
    /// the current one, as the `differential` target does).
    pub edition: Edition,
    /// Where shrunk rulings are written (`--out`); none: not written, the
    /// panic message still holds them.
    pub out: Option<PathBuf>,
    /// Shrinking attempts per failure (`--shrink-budget`).
    pub shrink_budget: usize,
}

impl Default for Config {
    /// 256 generated cases of seed 1 under the current edition, rulings
    /// not written, the gate's shrinking budget.
    fn default() -> Config {
        Config {
            generated: 256,
            seed: 1,
            edition: Edition::current(),
            out: None,
            shrink_budget: 300,
        }
    }
}

/// Shrunk rulings kept per run, as the gate keeps them.
const KEEP_SHRUNK: usize = 20;

/// Plays `config.generated` generated cases (seed `config.seed`, within the
/// engine's features) through the gate, on this engine alone (one job),
/// and returns the gate's report: generated failures shrunk against the
/// engine, their rulings in [`gate::Record::ruling_text`] and written to
/// `config.out`.
pub fn run_cases<E: Engine + Send + 'static>(engine: E, config: &Config) -> Report {
    run_plan(
        engine,
        Vec::new(),
        Some((config.generated, config.seed)),
        config,
    )
}

/// Plays every case of `corpus` (see [`corpus_dir`]) through the gate, on
/// this engine alone, and returns the gate's report.
pub fn run_corpus<E: Engine + Send + 'static>(
    engine: E,
    corpus: Vec<Loaded>,
    config: &Config,
) -> Report {
    run_plan(engine, corpus, None, config)
}

fn run_plan<E: Engine + Send + 'static>(
    engine: E,
    corpus: Vec<Loaded>,
    generated: Option<(u64, u64)>,
    config: &Config,
) -> Report {
    let plan = Plan {
        corpus,
        generated,
        edition: config.edition,
        jobs: 1,
        out: config.out.clone(),
        shrink_budget: config.shrink_budget,
        keep_shrunk: KEEP_SHRUNK,
        expectations: None,
        findings: None,
        // In process, an error costs no restart: every case is played.
        stop_after_same_errors: 0,
    };
    // One job: the gate asks for one engine, and gets this one.
    let slot = Mutex::new(Some(engine));
    let make = || -> Box<dyn Engine + Send> {
        let taken = slot.lock().unwrap_or_else(|p| p.into_inner()).take();
        match taken {
            Some(engine) => Box::new(engine),
            None => Box::new(Unusable(EngineFault::new(
                FaultKind::Unusable,
                "the in-process engine was asked for twice",
            ))),
        }
    };
    gate::run(
        &plan,
        &make,
        &AtomicBool::new(false),
        &gate::Live::default(),
    )
}

/// The failures of a report, as a test states them: the gate's summary
/// (verdicts, the step and fields that differ, the rules, where a shrunk
/// ruling was written), then every shrunk ruling in full. `None` when
/// nothing failed.
pub fn failures(report: &Report) -> Option<String> {
    if !report.gate_fails(false) {
        return None;
    }
    let mut out = report.human(false);
    let read = report.for_each(&mut |record| {
        if let Some(text) = &record.ruling_text {
            let _ = write!(
                out,
                "\nshrunk ruling of {} (the reference passes it, the engine fails it):\n{text}",
                record.id
            );
        }
        Ok(())
    });
    if let Err(e) = read {
        let _ = write!(out, "\n(the records could not be read back: {e})");
    }
    Some(out)
}

/// [`run_cases`], panicking with [`failures`] when a case fails or errs:
/// for a `#[test]`.
pub fn check_cases<E: Engine + Send + 'static>(engine: E, config: &Config) {
    if let Some(text) = failures(&run_cases(engine, config)) {
        panic!("the engine disagrees with the reference on generated cases:\n{text}");
    }
}

/// [`run_corpus`], panicking with [`failures`] when a case fails or errs:
/// for a `#[test]`.
pub fn check_corpus<E: Engine + Send + 'static>(engine: E, corpus: Vec<Loaded>, config: &Config) {
    if let Some(text) = failures(&run_corpus(engine, corpus, config)) {
        panic!("the engine disagrees with the corpus:\n{text}");
    }
}

/// Every case of the ruling files under `dir` (as `ptoracle gate` loads
/// `rulings/`), or every problem found in them.
///
/// ```
/// use ptoracle::in_process::corpus_dir;
/// let dir = std::env::temp_dir().join(format!("corpus-dir-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let ruling = "id: a/b\ntitle: t\nrules: ['613']\nsetup: {objects: [{id: c, types: [Creature], pt: 2/2}]}\nsteps: [{do: state_based_actions}]\n";
/// std::fs::write(dir.join("a.yaml"), ruling).unwrap();
/// assert_eq!(corpus_dir(&dir).unwrap().len(), 1);
/// std::fs::write(dir.join("b.yaml"), "id: a/b\n").unwrap();
/// assert!(corpus_dir(&dir).is_err());
/// assert!(corpus_dir("no/such/dir").is_err());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn corpus_dir(dir: impl AsRef<Path>) -> Result<Vec<Loaded>, String> {
    let loaded = corpus::load(&[dir.as_ref().to_path_buf()]);
    if loaded.errors.is_empty() {
        Ok(loaded.cases)
    } else {
        let lines: Vec<String> = loaded.errors.iter().map(|e| e.to_string()).collect();
        Err(lines.join("\n"))
    }
}

/// What [`fuzz_check`] found: an engine that disagrees with the reference
/// on a fuzzer's input.
#[derive(Clone, Debug)]
pub struct FuzzFailure {
    /// What the `differential` target reports for the input.
    pub message: String,
    /// The input's case shrunk against the engine, as a ruling, if it
    /// shrinks to one (an engine fault does not).
    pub ruling: Option<Box<Case>>,
    /// Where the ruling was written (`config.out`), or why it was not.
    pub written: Option<Result<PathBuf, String>>,
}

impl fmt::Display for FuzzFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.message)?;
        match &self.written {
            Some(Ok(path)) => writeln!(f, "shrunk ruling written to {}", path.display())?,
            Some(Err(e)) => writeln!(f, "{e}")?,
            None => {}
        }
        if let Some(ruling) = &self.ruling {
            write!(
                f,
                "shrunk ruling (the reference passes it, the engine fails it):\n{}",
                corpus::to_yaml(ruling)
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for FuzzFailure {}

/// The body of a `cargo fuzz` target for an engine: [`fuzz_check`],
/// panicking with what it found.
///
/// ```no_run
/// # use ptoracle::in_process::{Config, Played, RustEngine};
/// # struct Mine;
/// # impl RustEngine for Mine {
/// #     fn info(&self) -> ptoracle::protocol::EngineInfo { unimplemented!() }
/// #     fn play(&mut self, _: &ptoracle::Case, _: ptoracle::Edition) -> Played { unimplemented!() }
/// # }
/// // fuzz/fuzz_targets/mine.rs, with `#![no_main]`:
/// // libfuzzer_sys::fuzz_target!(|data: &[u8]| {
/// ptoracle::in_process::fuzz(b"...", &mut Mine, &Config::default());
/// // });
/// ```
pub fn fuzz<E: Engine>(data: &[u8], engine: &mut E, config: &Config) {
    if let Err(failure) = fuzz_check(data, engine, config) {
        panic!("{failure}");
    }
}

/// Reads `data` as the `differential` fuzz target does (`Y` and a ruling,
/// or choice bytes for the generator), checks `engine` on that case under
/// the current edition, and when it fails, shrinks the case against the
/// engine (dropping steps and objects) to a ruling, written to
/// `config.out`.
pub fn fuzz_check<E: Engine>(
    data: &[u8],
    engine: &mut E,
    config: &Config,
) -> Result<(), FuzzFailure> {
    let engine: &mut dyn Engine = engine;
    let finding = match crate::fuzzing::differential(data, engine) {
        Ok(()) => return Ok(()),
        Err(finding) => finding,
    };
    let mut failure = FuzzFailure {
        message: finding.message,
        ruling: None,
        written: None,
    };
    let (Some(case), Ok(caps)) = (finding.case, engine.capabilities()) else {
        return Err(failure);
    };
    let start = Start::Found {
        found_by: "`ptoracle::in_process::fuzz`",
    };
    let stop = AtomicBool::new(false);
    let edition = Edition::current();
    let budget = config.shrink_budget;
    let Ok((ruling, _, _)) =
        gate::shrink_to_ruling(&case, start, edition, engine, &caps, budget, &stop)
    else {
        return Err(failure);
    };
    failure.written = config.out.as_ref().map(|dir| {
        let name = gate::ruling_file_name(&caps.info.name, &shape(&ruling));
        crate::output::write_in(dir, &name, &corpus::to_yaml(&ruling))
            .map_err(|e| format!("could not write {}: {e}", dir.join(&name).display()))
    });
    failure.ruling = Some(Box::new(ruling));
    Err(failure)
}
