//! Engines: whatever plays a case and reports what it observes. The
//! reference resolver is one ([`Reference`]); an external engine speaking
//! the protocol over stdio is another ([`ProcessEngine`]). The gate, `serve`
//! and the differential fuzz target see them through [`Engine`] alone.

mod check;
mod process;
pub mod reaper;
mod served;

use ptoracle_core::edition::Edition;
use ptoracle_core::error::ResolveError;
use ptoracle_core::error::{NodePath, ScenarioError};
use ptoracle_core::number::Overflow;
use ptoracle_core::resolver::{self, Mutant, Options, Run, StepOutcome};
use ptoracle_core::scenario::Case;
use ptoracle_protocol::StepError;
use ptoracle_protocol::{self as protocol, Capabilities, EngineInfo, Reply, WireError};

pub(crate) use check::MISSING_FEATURES;
pub use check::{EngineCheck, check_engine, skipped};
pub use process::{DEFAULT_PIPELINE, Health, ProcessConfig, ProcessEngine, split_command};
pub use ptoracle_core::fault::{EngineFault, FaultKind};
pub use served::Served;

/// Something that plays cases.
pub trait Engine {
    /// What it declared in its handshake (starting it if it has not started).
    fn capabilities(&mut self) -> Result<Capabilities, EngineFault>;

    /// Plays `case` (expectations are not sent) under `edition`.
    fn run(&mut self, case: &Case, edition: Edition) -> Answer;

    /// [`Engine::run`], calling `meanwhile` once while the engine works
    /// (an engine in another process plays the case while the caller
    /// computes the reference's run).
    fn run_alongside(
        &mut self,
        case: &Case,
        edition: Edition,
        meanwhile: &mut dyn FnMut(),
    ) -> Answer {
        meanwhile();
        self.run(case, edition)
    }

    /// How many answers to its requests it has given (a number that only
    /// grows; 0 for an engine without requests): what [`Engine::strays`]
    /// refers to.
    fn sent(&self) -> u64 {
        0
    }

    /// Answers found wrong after they were given, each with its number
    /// (the [`Engine::sent`] just after it was given): the engine wrote
    /// more after an answer (a second reply, or a reply before its
    /// request). Checks for that now, so that a caller asks this before
    /// the verdict of the last answer is final.
    fn strays(&mut self) -> Vec<(u64, EngineFault)> {
        Vec::new()
    }

    /// The longest reply line it is read with, in bytes, when its replies
    /// are read under a limit (`--max-line`): a case whose correct reply
    /// is longer cannot be judged through it (D90). `None`: no limit.
    fn line_limit(&self) -> Option<usize> {
        None
    }

    /// How many requests it takes in flight at once (1: one at a time):
    /// how far ahead a caller may [`Engine::send_ahead`].
    fn pipeline(&mut self) -> usize {
        1
    }

    /// Sends a request for `case` before it is asked, when the engine
    /// takes several in flight and has room; the next [`Engine::run`] of
    /// the same case gets its answer. Whether it was sent.
    fn send_ahead(&mut self, _case: &Case, _edition: Edition) -> bool {
        false
    }

    /// A standalone program in the engine's own language that plays a case
    /// it failed and checks, against the reference's values, the fields
    /// where it differed (docs/protocol.md, "Reproductions"); asked only of
    /// an engine whose hello declared `reproduce`. `Err`: why there is
    /// none, in words.
    fn reproduce(&mut self, _ask: &Reproduce<'_>) -> Result<String, String> {
        Err("the engine writes no reproductions".into())
    }
}

/// A failed case, as [`Engine::reproduce`] is asked for it.
#[derive(Clone, Copy, Debug)]
pub struct Reproduce<'a> {
    /// The case (its expectations are not sent).
    pub case: &'a Case,
    /// The edition it was played under.
    pub edition: Edition,
    /// The reference's run of it.
    pub reference: &'a Run,
    /// The engine's run of it.
    pub got: &'a Run,
}

/// An engine's answer to one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// It played the case: one observation per completed step, and the
    /// error that stopped it early, if any.
    Ran(Run),
    /// It cannot play this case, and says why.
    Unsupported(String),
    /// Something went wrong with the engine itself.
    Fault(EngineFault),
}

/// The reference resolver as an engine, with a deliberate bug if asked.
#[derive(Clone, Debug)]
pub struct Reference {
    mutant: Option<Mutant>,
}

impl Reference {
    /// The reference resolver, or a mutant of it.
    pub fn new(mutant: Option<Mutant>) -> Reference {
        Reference { mutant }
    }

    /// Its handshake identity: `ptoracle`, or `ptoracle (mutant NAME)`.
    pub fn info(&self) -> EngineInfo {
        EngineInfo {
            name: match self.mutant {
                Some(m) => format!("ptoracle (mutant {m})"),
                None => "ptoracle".into(),
            },
            version: env!("CARGO_PKG_VERSION").into(),
            issues: None,
        }
    }
}

impl Engine for Reference {
    fn capabilities(&mut self) -> Result<Capabilities, EngineFault> {
        Ok(Capabilities::everything(self.info()))
    }

    fn run(&mut self, case: &Case, edition: Edition) -> Answer {
        let options = Options {
            mutant: self.mutant,
            ..Options::default()
        };
        Answer::Ran(resolver::resolve(case, edition, options))
    }
}

/// A run as an engine reported it: its observations and its error.
pub(crate) fn run_from_wire(
    steps: Vec<ptoracle_core::observation::Observation>,
    error: Option<WireError>,
    case_steps: usize,
) -> Result<Run, EngineFault> {
    let n = steps.len();
    if n > case_steps {
        return Err(EngineFault::new(
            FaultKind::Protocol,
            format!("the reply has {n} observations for a case of {case_steps} steps"),
        ));
    }
    let error = match error {
        None if n < case_steps => {
            return Err(EngineFault::new(
                FaultKind::Protocol,
                format!(
                    "the reply has {n} observations for a case of {case_steps} steps, and no error to say why it stopped"
                ),
            ));
        }
        None => None,
        Some(e) if e.step != n => {
            return Err(EngineFault::new(
                FaultKind::Protocol,
                format!(
                    "the reply's error is at step {} but it has {n} observations; the failing step is the one after the last observation",
                    e.step
                ),
            ));
        }
        Some(e) => Some(match e.code {
            StepError::Overflow => ResolveError::Overflow {
                step: e.step,
                overflow: Overflow {
                    what: e
                        .message
                        .unwrap_or_else(|| "a value (the engine's words)".into()),
                },
            },
            StepError::NoFixpoint => ResolveError::NoFixpoint { step: e.step },
            StepError::Invalid => ResolveError::Invalid(ScenarioError::new(
                NodePath::root().key("steps").index(e.step),
                e.message
                    .unwrap_or_else(|| "the engine finds this step impossible".into()),
            )),
        }),
    };
    Ok(Run {
        setup: Vec::new(),
        initial: None,
        steps: steps
            .into_iter()
            .map(|observation| StepOutcome {
                observation,
                explanation: Vec::new(),
            })
            .collect(),
        error,
    })
}

/// An engine's reply to request `seq` (a case of `case_steps` steps), as
/// the answer it gives: the same reading for every engine behind the
/// protocol.
pub(crate) fn answer_from_reply(reply: Reply, seq: u64, case_steps: usize) -> Answer {
    match reply {
        Reply::Result {
            seq: s,
            steps,
            error,
        } if s == seq => {
            let observed: Result<Vec<_>, _> = steps.into_iter().map(protocol::from_wire).collect();
            match observed {
                Ok(obs) => match run_from_wire(obs, error, case_steps) {
                    Ok(run) => Answer::Ran(run),
                    Err(f) => Answer::Fault(f),
                },
                Err(e) => Answer::Fault(e.into()),
            }
        }
        Reply::Unsupported { seq: s, reason } if s == seq => Answer::Unsupported(reason),
        Reply::Error { seq: s, message } if s.is_none_or(|s| s == seq) => {
            Answer::Fault(EngineFault::new(
                FaultKind::Reported,
                format!("the engine reports: {message}"),
            ))
        }
        Reply::Result { seq: s, .. }
        | Reply::Unsupported { seq: s, .. }
        | Reply::Error { seq: Some(s), .. } => Answer::Fault(wrong_seq(s, seq)),
        Reply::Error { seq: None, .. } => Answer::Fault(wrong_seq(0, seq)),
        Reply::Reproduction { .. } => Answer::Fault(EngineFault::new(
            FaultKind::Protocol,
            "the reply to a `run` is a `reproduction`; a run is answered by a `result`",
        )),
    }
}

/// The `seq` a reply carries, if it carries one.
pub(crate) fn reply_seq(reply: &Reply) -> Option<u64> {
    match reply {
        Reply::Result { seq, .. }
        | Reply::Unsupported { seq, .. }
        | Reply::Reproduction { seq, .. } => Some(*seq),
        Reply::Error { seq, .. } => *seq,
    }
}

pub(crate) fn wrong_seq(got: u64, want: u64) -> EngineFault {
    EngineFault::new(
        FaultKind::Protocol,
        format!("the reply has sequence number {got}; the request had {want}"),
    )
}

/// A run's error as the protocol states it.
pub(crate) fn wire_error(e: &ResolveError) -> Option<WireError> {
    match e {
        ResolveError::Overflow { step, overflow } => Some(WireError {
            step: *step,
            code: StepError::Overflow,
            message: Some(overflow.what.clone()),
        }),
        ResolveError::NoFixpoint { step } => Some(WireError {
            step: *step,
            code: StepError::NoFixpoint,
            message: None,
        }),
        ResolveError::Invalid(e) => {
            // "steps[k]...": the step it is about.
            let step = e.path.0.get(1).and_then(|s| match s {
                ptoracle_core::error::Seg::Index(i) => Some(*i),
                _ => None,
            })?;
            Some(WireError {
                step,
                code: StepError::Invalid,
                message: Some(e.to_string()),
            })
        }
    }
}

/// An engine that could not be used: every case gets its fault. What the
/// gate plays when the first handshake already failed, so that every case
/// still has a verdict and the reports are written.
#[derive(Clone, Debug)]
pub struct Unusable(pub EngineFault);

impl Engine for Unusable {
    fn capabilities(&mut self) -> Result<Capabilities, EngineFault> {
        Err(self.0.clone())
    }

    fn run(&mut self, _case: &Case, _edition: Edition) -> Answer {
        Answer::Fault(self.0.clone())
    }
}
