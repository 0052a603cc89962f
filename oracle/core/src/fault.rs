//! Engine faults: what can go wrong with an engine on one case, as data.
//!
//! Every checker of engines reports through these types: a case whose
//! engine failed has the verdict [`Verdict::Error`](crate::verdict::Verdict::Error)
//! with [`Problem::Engine`](crate::verdict::Problem::Engine).

use std::fmt;

use serde::{Deserialize, Serialize};

/// What went wrong with an engine on one case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineFault {
    /// The kind of problem.
    pub kind: FaultKind,
    /// What happened, for humans.
    pub message: String,
    /// The end of what the engine wrote on stderr during the case.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    /// Whether the case never reached the engine (it had been given up on,
    /// or could not be started): such faults are reported together.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_sent: bool,
}

impl EngineFault {
    /// A fault of `kind`.
    pub fn new(kind: FaultKind, message: impl Into<String>) -> EngineFault {
        EngineFault {
            kind,
            message: message.into(),
            stderr: String::new(),
            not_sent: false,
        }
    }

    /// A fault of `kind` for a case that was never sent to the engine:
    /// its message says so (`not sent: …`) and [`EngineFault::not_sent`] is
    /// set.
    pub fn not_sent(kind: FaultKind, message: impl std::fmt::Display) -> EngineFault {
        EngineFault {
            not_sent: true,
            ..EngineFault::new(kind, format!("not sent: {message}"))
        }
    }
}

impl fmt::Display for EngineFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

/// The kinds of engine faults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// The engine could not be started.
    Spawn,
    /// The handshake failed: no hello, a bad one, or the engine exited.
    Handshake,
    /// The engine speaks another protocol version.
    Version,
    /// The engine exited or closed its output during a case.
    Crash,
    /// No reply within the time limit.
    Timeout,
    /// A reply line that is not JSON.
    Garbage,
    /// A number that is not a signed 64-bit integer (107.1a).
    NonInteger,
    /// A reply that breaks the protocol (fields, types, sequence numbers).
    Protocol,
    /// A reply line longer than the limit.
    TooLong,
    /// The engine answered with an error message of its own.
    Reported,
    /// The run was interrupted (Ctrl-C) before the engine answered.
    Interrupted,
    /// The engine was given up on after earlier faults; nothing was sent.
    Unusable,
}

impl FaultKind {
    /// Every kind that can be a case's verdict (all but `Interrupted`,
    /// whose case is counted as not run).
    pub const VERDICTS: &'static [FaultKind] = &[
        FaultKind::Spawn,
        FaultKind::Handshake,
        FaultKind::Version,
        FaultKind::Crash,
        FaultKind::Timeout,
        FaultKind::Garbage,
        FaultKind::NonInteger,
        FaultKind::Protocol,
        FaultKind::TooLong,
        FaultKind::Reported,
        FaultKind::Unusable,
    ];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Spawn => "spawn",
            FaultKind::Handshake => "handshake",
            FaultKind::Version => "version",
            FaultKind::Crash => "crash",
            FaultKind::Timeout => "timeout",
            FaultKind::Garbage => "garbage",
            FaultKind::NonInteger => "non-integer",
            FaultKind::Protocol => "protocol",
            FaultKind::TooLong => "too-long",
            FaultKind::Reported => "engine-error",
            FaultKind::Interrupted => "interrupted",
            FaultKind::Unusable => "unusable",
        }
    }
}
