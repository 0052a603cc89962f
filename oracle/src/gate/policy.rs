//! The gate's policy for an engine process: whether it can be used at all
//! (one handshake before planning), which engine each worker gets, and
//! what a run concludes. The command line only parses, prints and maps a
//! [`Conclusion`] to an exit status.

use crate::engine::{Engine, EngineFault, FaultKind, ProcessConfig, ProcessEngine, Unusable};
use ptoracle_core::edition::Edition;
use ptoracle_protocol::Capabilities;

use super::Report;

/// What one handshake before planning learnt of an engine.
#[derive(Debug)]
pub struct Probe {
    /// Its capabilities, or why it has none (given up on after failed
    /// handshakes, or interrupted).
    pub capabilities: Result<Capabilities, EngineFault>,
    /// Handshakes that failed before one succeeded (retried, as the
    /// protocol allows; said in a note).
    pub failed_handshakes: Vec<EngineFault>,
    /// Why the engine cannot be used at all, if it cannot: no handshake
    /// succeeded, or it does not implement the edition asked for. Every
    /// case is then an error, and nothing is sent.
    pub unusable: Option<EngineFault>,
}

impl Probe {
    /// Starts the engine of `config` and shakes hands until it succeeds or
    /// the engine is given up on; the process is stopped afterwards.
    pub fn run(config: &ProcessConfig, edition: Edition) -> Probe {
        let mut probe = ProcessEngine::new(config.clone());
        let mut failed_handshakes = Vec::new();
        let capabilities = loop {
            match probe.capabilities() {
                Ok(c) => break Ok(c),
                Err(f) => match probe.given_up() {
                    Some(g) => break Err(g),
                    None if f.kind == FaultKind::Interrupted => break Err(f),
                    None => failed_handshakes.push(f),
                },
            }
        };
        drop(probe);
        let unusable = match &capabilities {
            Err(f) => Some(f.clone()),
            // An engine written against an older catalog may name an
            // edition by a date that is no longer an id (2017-07-14): it
            // names the same rules.
            Ok(c) if !c.editions.iter().any(|e| Edition::parse(e) == Ok(edition)) => {
                Some(EngineFault::new(
                    FaultKind::Unusable,
                    format!(
                        "the engine implements editions [{}], not {edition} (choose one with --edition)",
                        c.editions.join(", ")
                    ),
                ))
            }
            Ok(_) => None,
        };
        Probe {
            capabilities,
            failed_handshakes,
            unusable,
        }
    }

    /// The engine a worker plays with: a process of `config`, or, for an
    /// engine that cannot be used, one that answers every case with that
    /// fault, marked as not sent.
    pub fn engine(&self, config: &ProcessConfig) -> Box<dyn Engine + Send> {
        match &self.unusable {
            Some(f) => Box::new(Unusable(EngineFault::not_sent(
                f.kind,
                format_args!("the engine cannot be used ({})", f.message),
            ))),
            None => Box::new(ProcessEngine::new(config.clone())),
        }
    }
}

/// What a gate run concludes, from which the command's exit status follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conclusion {
    /// Every case passed, or failed only as the expectations say.
    Pass,
    /// A failure, flaky case or error the expectations do not list (or,
    /// under `--strict`, a change they do not list either).
    Fail,
    /// The engine could not be used, or was given up on during the run.
    Unusable,
    /// Stopped by a signal before the plan was played.
    Interrupted,
}

impl Conclusion {
    /// The conclusion of `report`, for an engine found unusable (before or
    /// during the run) or not.
    pub fn of(report: &Report, unusable: bool, strict: bool) -> Conclusion {
        if report.interrupted {
            Conclusion::Interrupted
        } else if unusable {
            Conclusion::Unusable
        } else if report.gate_fails(strict) {
            Conclusion::Fail
        } else {
            Conclusion::Pass
        }
    }
}
