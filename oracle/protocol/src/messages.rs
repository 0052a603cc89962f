//! The messages of a session: the hellos, requests and replies.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::VERSION;
use crate::difference::Difference;
use crate::scenario::Case;
use crate::wire::WireObservation;

/// The first message, from ptoracle to the engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hello {
    /// Always `hello`.
    #[serde(rename = "type")]
    pub kind: HelloTag,
    /// The protocol version ptoracle speaks.
    pub protocol: u32,
    /// The version of ptoracle.
    pub ptoracle: String,
    /// Offered when ptoracle can keep several requests in flight: the
    /// most it will (at least 2). An engine that wants them declares its
    /// own limit in its hello; one that ignores the field is sent one
    /// request at a time. Added in protocol 1 without a version change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 2))]
    pub pipeline: Option<u32>,
    /// Offered when ptoracle will ask for reproductions of the cases the
    /// engine fails (`gate --reproduce`): `true`. An engine that writes them
    /// declares [`EngineHello::reproduce`]; one that ignores the field is
    /// never asked. Added in protocol 1 without a version change.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reproduce: bool,
}

/// The tag of [`Hello`] and [`EngineHello`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HelloTag {
    /// `hello`.
    Hello,
}

/// The engine's answer to [`Hello`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EngineHello {
    /// Always `hello`.
    #[serde(rename = "type")]
    pub kind: HelloTag,
    /// The protocol version the engine speaks; ptoracle refuses any other
    /// than its own.
    pub protocol: u32,
    /// Who the engine is.
    pub engine: EngineInfo,
    /// The features it implements (see `Feature`); a case that needs
    /// another is skipped without being sent.
    pub features: Vec<String>,
    /// The rules editions it implements, by id (e.g. `2026-09-25`).
    pub editions: Vec<String>,
    /// Observation fields it cannot report (see `Observable`); they are
    /// neither required in its replies nor compared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unobserved: Vec<String>,
    /// How many requests it accepts in flight at once, when ptoracle's
    /// hello offered `pipeline`: ptoracle then writes up to the smaller of
    /// the two before it reads a reply, and matches replies to requests
    /// by `seq` (they may come in any order). Absent: one at a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub pipeline: Option<u32>,
    /// The reproductions it writes, when ptoracle's hello offered
    /// `reproduce`: a failing case is then sent back as a
    /// [`Request::Reproduce`], answered by a standalone program in the
    /// engine's own language ([`Reply::Reproduction`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<Reproducer>,
}

/// What an engine says of the reproductions it writes (its hello's
/// `reproduce`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reproducer {
    /// The language of the programs, as a Markdown code block names it
    /// (`python`, `rust`).
    pub language: String,
    /// The file name extension a program is written with, without the dot
    /// (`py`, `rs`): letters and digits only.
    pub extension: String,
    /// How a program is run, for the person who reads it (`python3 FILE in
    /// a virtual environment with phase-python installed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
}

/// An engine's identity, as it states it in the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EngineInfo {
    /// Its name, e.g. `phase.rs`.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Where to report a bug in it (shown with every failure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issues: Option<String>,
}

/// A message from ptoracle to the engine after the handshake.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// Play a case and report the observations after each step.
    Run {
        /// The request's number, echoed in the reply.
        seq: u64,
        /// The rules edition to play under.
        edition: String,
        /// The scenario, in the ruling format (as JSON), without its
        /// expectations.
        case: Box<Case>,
    },
    /// Write a standalone program, in the engine's own language and API,
    /// that plays a case the engine failed and checks the fields where it
    /// differed from the reference (sent only to an engine that declared
    /// [`EngineHello::reproduce`]). Answered by a [`Reply::Reproduction`],
    /// an `unsupported` or an `error`.
    Reproduce {
        /// The request's number, echoed in the reply.
        seq: u64,
        /// The rules edition the case was played under.
        edition: String,
        /// The scenario, as in a `run` (without its expectations).
        case: Box<Case>,
        /// The reference's observation after each step it completed, as
        /// in a `result` reply.
        reference: Vec<WireObservation>,
        /// Every field that differs at the first step where the two runs
        /// differ: what the program compares.
        differences: Vec<Difference>,
    },
    /// No more requests: the engine should exit.
    Bye,
}

/// A reply from the engine to a [`Request::Run`] or a [`Request::Reproduce`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Reply {
    /// The observations after each step.
    Result {
        /// The request's number.
        seq: u64,
        /// One observation per step that completed, in order.
        steps: Vec<WireObservation>,
        /// Set when a step could not complete (its index is `steps.len()`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<WireError>,
    },
    /// The engine cannot play this case: counted as skipped.
    Unsupported {
        /// The request's number.
        seq: u64,
        /// Why, precisely enough to act on.
        reason: String,
    },
    /// The engine failed on this case (an internal error): counted as an
    /// error; the engine stays up for the next case.
    Error {
        /// The request's number, when the engine could read it.
        #[serde(default)]
        seq: Option<u64>,
        /// What went wrong.
        message: String,
    },
    /// The program a [`Request::Reproduce`] asked for.
    Reproduction {
        /// The request's number.
        seq: u64,
        /// The program's source text, whole: it runs with only the engine
        /// installed, prints the engine's observation of each difference
        /// beside the reference's, and exits non-zero while they differ.
        program: String,
    },
}

/// A step that could not complete.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WireError {
    /// The step, from 0.
    pub step: usize,
    /// What happened.
    pub code: StepError,
    /// For `overflow`: what overflowed (ptoracle shows "arithmetic
    /// overflow computing" and this); for humans only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Why a step could not complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StepError {
    /// A game value does not fit in a 64-bit integer (107.1).
    Overflow,
    /// State-based actions and their triggers never settle (704.3).
    NoFixpoint,
    /// The step is impossible in the engine's game: it names an object that
    /// is no longer where the step needs it, say. Where the reference
    /// resolver can play the step, the engine's game went another way
    /// earlier, and the gate compares the steps before.
    Invalid,
}

/// The hello ptoracle sends.
pub fn hello() -> Hello {
    Hello {
        kind: HelloTag::Hello,
        protocol: VERSION,
        ptoracle: env!("CARGO_PKG_VERSION").to_string(),
        pipeline: None,
        reproduce: false,
    }
}

/// The hello ptoracle sends when it may keep up to `pipeline` requests in
/// flight: [`hello`], with the offer when `pipeline` is 2 or more.
pub fn hello_offering(pipeline: u32) -> Hello {
    Hello {
        pipeline: (pipeline > 1).then_some(pipeline),
        ..hello()
    }
}

/// [`hello_offering`], also offering to ask for reproductions when
/// `reproduce` is set.
pub fn hello_offering_all(pipeline: u32, reproduce: bool) -> Hello {
    Hello {
        reproduce,
        ..hello_offering(pipeline)
    }
}
