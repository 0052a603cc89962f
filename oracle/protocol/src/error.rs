//! Protocol errors: their kinds, their text and the fault they are to the gate.

use std::fmt;

use ptoracle_core::fault::{EngineFault, FaultKind};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What kind of protocol problem a reply has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    /// The line is not JSON.
    Garbage,
    /// A number is not an integer, or does not fit in a signed 64-bit
    /// integer, however it is written (107.1a).
    NonInteger,
    /// The JSON does not follow the protocol: a missing or unknown field,
    /// a key given twice, a wrong type, a wrong sequence number, a message
    /// out of place.
    Protocol,
    /// The engine speaks another version of the protocol.
    Version,
}

impl ErrorKind {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Garbage => "garbage",
            ErrorKind::NonInteger => "non-integer",
            ErrorKind::Protocol => "protocol",
            ErrorKind::Version => "version",
        }
    }
}

/// A message that breaks the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProtocolError {
    /// What kind of problem.
    pub kind: ErrorKind,
    /// Where and what, for humans.
    pub message: String,
}

impl ProtocolError {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> ProtocolError {
        ProtocolError {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ProtocolError {}

/// Shows the start of a line that could not be read, for error messages.
pub fn excerpt(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(&line[..line.len().min(80)]);
    let more = if line.len() > 80 { "…" } else { "" };
    format!("{:?}{more}", text)
}

/// The error of a line from an engine that is not JSON (`e` says why),
/// showing its start escaped; a line that does not even start like a JSON
/// object is most likely a print meant for a log, and the message says
/// where those go.
pub(crate) fn not_json(e: impl fmt::Display, line: &[u8]) -> ProtocolError {
    let stray = line.trim_ascii_start().first() != Some(&b'{');
    ProtocolError::new(
        ErrorKind::Garbage,
        format!(
            "not a JSON line ({e}): {}{}",
            excerpt(line),
            if stray {
                "; an engine's stdout carries protocol messages only: logs and prints go to stderr"
            } else {
                ""
            }
        ),
    )
}

impl From<ProtocolError> for EngineFault {
    fn from(e: ProtocolError) -> EngineFault {
        let kind = match e.kind {
            ErrorKind::Garbage => FaultKind::Garbage,
            ErrorKind::NonInteger => FaultKind::NonInteger,
            ErrorKind::Protocol => FaultKind::Protocol,
            ErrorKind::Version => FaultKind::Version,
        };
        EngineFault::new(kind, e.message)
    }
}
