//! The engine protocol, version [`VERSION`]: JSON lines between ptoracle
//! and an engine process (`docs/protocol.md` is its specification).
//!
//! These are wire types, kept apart from the core types on purpose: an
//! engine reports power and toughness as two integers, not as the `3/4`
//! text of the ruling format, and every field of an observation must be
//! present (or declared unobserved in the handshake). Decoding is strict
//! and never panics: a reply that is not JSON, holds a non-integer number
//! (107.1a), lacks a field or has an unknown one is a [`ProtocolError`]
//! that says where.
//!
//! ```
//! use std::collections::BTreeSet;
//! use ptoracle_protocol::{ErrorKind, Reply, decode_reply};
//! let none = BTreeSet::new();
//! // A reply that follows the protocol: no step could be played.
//! let ok = decode_reply(br#"{"type":"result","seq":1,"steps":[]}"#, &none).unwrap();
//! assert!(matches!(ok, Reply::Result { seq: 1, .. }));
//! // Power and toughness are integers (107.1a): 2.5 is refused, and says where.
//! let line = br#"{"type":"result","seq":1,"steps":[{"objects":{"c":{"power":2.5}},"players":{}}]}"#;
//! let err = decode_reply(line, &none).unwrap_err();
//! assert_eq!(err.kind, ErrorKind::NonInteger);
//! ```

#![deny(missing_docs)]

pub mod fast;
mod features;
mod json;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use ptoracle_core::fault::{EngineFault, FaultKind};
use ptoracle_core::{Edition, number, observation, scenario, terms};

use crate::number::Pt;
use crate::observation::{ObjectState, Observation, PlayerState};
use crate::scenario::{Case, Handle, ManaPool};
use crate::terms::{CardType, Color, CounterKind, Keyword, Mana, Zone};

pub use features::{Feature, Reach, UnknownFeature, Unlock, required_features};
pub use json::{canonical, integers_only};

/// The protocol version this ptoracle speaks.
pub const VERSION: u32 = 1;

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
    /// The features it implements (see [`Feature`]); a case that needs
    /// another is skipped without being sent.
    pub features: Vec<String>,
    /// The rules editions it implements, by id (e.g. `2026-09-25`).
    pub editions: Vec<String>,
    /// Observation fields it cannot report (see [`Observable`]); they are
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

/// One field where the engine's observation differs from the reference's,
/// sent with a [`Request::Reproduce`]: what the program checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Difference {
    /// The step after which it is observed, from 0.
    pub step: usize,
    /// The object or player, by handle.
    pub of: Handle,
    /// The observation field, as in a `result` reply (`power`, `zone`,
    /// `counters`, `life`).
    pub field: String,
    /// The reference's value, as in a `result` reply.
    pub reference: serde_json::Value,
    /// The engine's value, as its reply gave it.
    pub engine: serde_json::Value,
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

/// The state after one step, as an engine reports it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WireObservation {
    /// Every object of the case, by handle.
    #[serde(deserialize_with = "json::unique_map")]
    pub objects: BTreeMap<Handle, WireObject>,
    /// Every player, by handle.
    #[serde(deserialize_with = "json::unique_map")]
    pub players: BTreeMap<Handle, WirePlayer>,
}

/// One object, as an engine reports it. Every field is required unless
/// the engine declared it unobserved; `null` says "has none".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WireObject {
    /// Its zone.
    pub zone: Option<Zone>,
    /// Its card types.
    pub types: Option<Vec<CardType>>,
    /// Its colors.
    pub colors: Option<Vec<Color>>,
    /// Its power; `null` when it has none (208.3).
    pub power: Option<i64>,
    /// Its toughness; `null` when it has none.
    pub toughness: Option<i64>,
    /// Its base power, after 7a and 7b (208.4b).
    pub base_power: Option<i64>,
    /// Its base toughness.
    pub base_toughness: Option<i64>,
    /// Power plus toughness, negatives included (107.1b).
    pub total: Option<i64>,
    /// The combat damage it would assign: max(0, power) (510.1a).
    pub combat_damage: Option<i64>,
    /// Its counters by kind (`+1/+1`, `-1/-1`, `flying`, `loyalty`...); no zero entries.
    #[serde(default, deserialize_with = "json::unique_map_opt")]
    pub counters: Option<BTreeMap<CounterKind, i64>>,
    /// Damage marked on it.
    pub damage: Option<i64>,
    /// Whether it was dealt damage by a deathtouch source since the last
    /// state-based-action check.
    pub deathtouch_damage: Option<bool>,
    /// Its keywords.
    pub keywords: Option<Vec<Keyword>>,
    /// Whether it is tapped.
    pub tapped: Option<bool>,
    /// Its regeneration shields.
    pub regeneration_shields: Option<i64>,
    /// What it is attached to.
    pub attached_to: Option<Handle>,
    /// Whether 302.6 keeps it from attacking and using {T} abilities (a
    /// creature not controlled continuously since its controller's most
    /// recent turn began, without haste). Required only from an engine
    /// that declares the `summoning-sickness` feature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summoning_sick: Option<bool>,
    /// Off the battlefield: how it last existed there (704.8), or `null`.
    pub lki: Option<Box<WireObject>>,
}

/// One player, as an engine reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WirePlayer {
    /// Life total.
    pub life: Option<i64>,
    /// Poison counters.
    pub poison: Option<i64>,
    /// Mana pool by type (`W U B R G C`); no zero entries. (A negative
    /// amount is a rules violation to report, not a decoding error.)
    #[serde(default, deserialize_with = "json::unique_map_opt")]
    pub mana: Option<BTreeMap<Mana, i64>>,
    /// Whether the player has lost the game.
    pub lost: Option<bool>,
    /// The part of `mana` that snow sources made, by type (107.4h).
    /// Optional: omitted, it is none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "json::unique_map_opt"
    )]
    pub snow_mana: Option<BTreeMap<Mana, i64>>,
    /// How many distinct payments the cost of the player's last `pay_cost`
    /// step had, up to 100. Optional: omitted, no cost was paid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payments: Option<i64>,
}

macro_rules! observables {
    ($($variant:ident => $name:literal, $what:literal;)*) => {
        /// A field of an observation, by its wire name: what an engine may
        /// declare it cannot report.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Observable {
            $(
                #[doc = $what]
                $variant,
            )*
        }

        impl Observable {
            /// Every field.
            pub const ALL: &'static [Observable] = &[$(Observable::$variant),*];

            /// Its wire name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Observable::$variant => $name,)*
                }
            }
        }
    };
}

observables! {
    Zone => "zone", "an object's zone";
    Types => "types", "an object's card types";
    Colors => "colors", "an object's colors";
    Power => "power", "an object's power and toughness";
    BasePower => "base_power", "an object's base power and toughness";
    Total => "total", "an object's total power and toughness";
    CombatDamage => "combat_damage", "the combat damage an object would assign";
    Counters => "counters", "an object's counters";
    Damage => "damage", "an object's marked damage";
    DeathtouchDamage => "deathtouch_damage", "whether an object was dealt deathtouch damage";
    Keywords => "keywords", "an object's keywords";
    Tapped => "tapped", "whether an object is tapped";
    RegenerationShields => "regeneration_shields", "an object's regeneration shields";
    AttachedTo => "attached_to", "what an object is attached to";
    SummoningSick => "summoning_sick", "whether summoning sickness keeps an object from attacking and using {T} abilities (unobserved unless the engine declares `summoning-sickness`)";
    Lki => "lki", "an object's last known information";
    Life => "life", "a player's life total";
    Poison => "poison", "a player's poison counters";
    Mana => "mana", "a player's mana pool";
    Lost => "lost", "whether a player has lost";
    SnowMana => "snow_mana", "the part of a player's mana pool that snow sources made";
    Payments => "payments", "how many ways there were to pay a player's last cost";
}

impl Observable {
    /// The field with this wire name (`power` and `toughness` are one
    /// field, as are the two base values).
    pub fn parse(name: &str) -> Option<Observable> {
        match name {
            "toughness" => Some(Observable::Power),
            "base_toughness" => Some(Observable::BasePower),
            _ => Observable::ALL.iter().copied().find(|o| o.name() == name),
        }
    }

    /// The wire keys it covers.
    fn keys(self) -> &'static [&'static str] {
        match self {
            Observable::Power => &["power", "toughness"],
            Observable::BasePower => &["base_power", "base_toughness"],
            Observable::Zone => &["zone"],
            Observable::Types => &["types"],
            Observable::Colors => &["colors"],
            Observable::Total => &["total"],
            Observable::CombatDamage => &["combat_damage"],
            Observable::Counters => &["counters"],
            Observable::Damage => &["damage"],
            Observable::DeathtouchDamage => &["deathtouch_damage"],
            Observable::Keywords => &["keywords"],
            Observable::Tapped => &["tapped"],
            Observable::RegenerationShields => &["regeneration_shields"],
            Observable::AttachedTo => &["attached_to"],
            Observable::SummoningSick => &["summoning_sick"],
            Observable::Lki => &["lki"],
            Observable::Life => &["life"],
            Observable::Poison => &["poison"],
            Observable::Mana => &["mana"],
            Observable::Lost => &["lost"],
            Observable::SnowMana => &["snow_mana"],
            Observable::Payments => &["payments"],
        }
    }

    /// Whether a reply may leave it out, meaning "none": the fields added
    /// with the `costs` feature, so that replies without them stay valid.
    fn optional(self) -> bool {
        matches!(self, Observable::SnowMana | Observable::Payments)
    }

    /// Whether `null` is a value of it ("has none").
    fn nullable(self) -> bool {
        matches!(
            self,
            Observable::Power
                | Observable::BasePower
                | Observable::Total
                | Observable::CombatDamage
                | Observable::AttachedTo
                | Observable::Lki
        )
    }

    fn of_player(self) -> bool {
        matches!(
            self,
            Observable::Life
                | Observable::Poison
                | Observable::Mana
                | Observable::Lost
                | Observable::SnowMana
                | Observable::Payments
        )
    }
}

/// What a handshake established about an engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// Who it is.
    pub info: EngineInfo,
    /// The features it implements.
    pub features: BTreeSet<Feature>,
    /// The editions it implements, by id.
    pub editions: Vec<String>,
    /// The observation fields it does not report.
    pub unobserved: BTreeSet<Observable>,
    /// How many requests it accepts in flight (its hello's `pipeline`);
    /// 0 when it did not declare it: one at a time.
    pub pipeline: u32,
    /// The reproductions it writes (its hello's `reproduce`), if it does.
    pub reproduce: Option<Reproducer>,
}

impl Capabilities {
    /// Everything, as the reference resolver does.
    pub fn everything(info: EngineInfo) -> Capabilities {
        Capabilities {
            info,
            features: Feature::ALL.iter().copied().collect(),
            editions: Edition::all().map(|e| e.id().to_string()).collect(),
            unobserved: BTreeSet::new(),
            pipeline: 0,
            reproduce: None,
        }
    }

    /// What [`EngineHello`] declares, checked: the protocol version must
    /// be [`VERSION`], every feature a known one and every unobserved name
    /// a known field.
    pub fn from_hello(h: EngineHello) -> Result<Capabilities, ProtocolError> {
        if h.protocol != VERSION {
            return Err(ProtocolError::new(
                ErrorKind::Version,
                format!(
                    "the engine speaks protocol {}; this ptoracle speaks protocol {VERSION}",
                    h.protocol
                ),
            ));
        }
        if h.engine.name.trim().is_empty() {
            return Err(ProtocolError::new(
                ErrorKind::Protocol,
                "the handshake's engine.name is empty",
            ));
        }
        let mut features = BTreeSet::new();
        let mut unknown = Vec::new();
        for f in &h.features {
            match f.parse::<Feature>() {
                Ok(f) => {
                    features.insert(f);
                }
                Err(_) => unknown.push(format!("`{f}`")),
            }
        }
        // A misspelt feature would leave every case that needs it skipped,
        // and a gate that skips everything passes: a hello ptoracle does
        // not understand is refused, as an unknown unobserved field is.
        if !unknown.is_empty() {
            let known: Vec<&str> = Feature::ALL.iter().map(|f| f.name()).collect();
            return Err(ProtocolError::new(
                ErrorKind::Protocol,
                format!(
                    "the handshake declares feature{} {} that ptoracle {} does not know; the features it knows: {} (an engine newer than this ptoracle declares only these)",
                    if unknown.len() == 1 { "" } else { "s" },
                    unknown.join(", "),
                    env!("CARGO_PKG_VERSION"),
                    known.join(", ")
                ),
            ));
        }
        let mut unobserved = BTreeSet::new();
        // Added after the protocol's first engines: an engine that does not
        // declare the feature is not asked for the field.
        if !features.contains(&Feature::SummoningSickness) {
            unobserved.insert(Observable::SummoningSick);
        }
        for u in &h.unobserved {
            match Observable::parse(u) {
                Some(o) => {
                    unobserved.insert(o);
                }
                None => {
                    let known: Vec<&str> = Observable::ALL.iter().map(|o| o.name()).collect();
                    return Err(ProtocolError::new(
                        ErrorKind::Protocol,
                        format!(
                            "the handshake declares unknown observation field `{u}` unobserved; known fields: {}",
                            known.join(", ")
                        ),
                    ));
                }
            }
        }
        if h.pipeline == Some(0) {
            return Err(ProtocolError::new(
                ErrorKind::Protocol,
                "the handshake declares `pipeline: 0`; the least is 1 (one request at a time), or leave it out",
            ));
        }
        if let Some(r) = &h.reproduce {
            // The extension names the file the gate writes: nothing that
            // could climb out of its directory or hide the file.
            let plain = !r.extension.is_empty()
                && r.extension.len() <= 16
                && r.extension.bytes().all(|b| b.is_ascii_alphanumeric());
            if !plain {
                return Err(ProtocolError::new(
                    ErrorKind::Protocol,
                    format!(
                        "the handshake's reproduce.extension is {:?}; it is 1 to 16 letters and digits, without the dot (`py`)",
                        r.extension
                    ),
                ));
            }
        }
        Ok(Capabilities {
            info: h.engine,
            features,
            editions: h.editions,
            unobserved,
            pipeline: h.pipeline.unwrap_or(0),
            reproduce: h.reproduce,
        })
    }

    /// The features `case` needs that the engine does not declare.
    pub fn missing(&self, case: &Case) -> Vec<Feature> {
        required_features(case)
            .into_iter()
            .filter(|f| !self.features.contains(f))
            .collect()
    }
}

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
    fn new(kind: ErrorKind, message: impl Into<String>) -> ProtocolError {
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

/// Reads one line from an engine as JSON whose numbers are all signed
/// 64-bit integers (107.1a) and whose objects give every key once.
fn parse_engine_line(line: &[u8]) -> Result<serde_json::Value, ProtocolError> {
    json::check_text(line)?;
    serde_json::from_slice(line).map_err(|e| not_json(e, line))
}

/// Reads one line as JSON whose numbers are all integers (107.1a).
fn parse_line(line: &[u8]) -> Result<serde_json::Value, ProtocolError> {
    let value: serde_json::Value = serde_json::from_slice(line).map_err(|e| {
        ProtocolError::new(
            ErrorKind::Garbage,
            format!("not a JSON line ({e}): {}", excerpt(line)),
        )
    })?;
    integers_only(&value).map_err(|m| ProtocolError::new(ErrorKind::NonInteger, m))?;
    Ok(value)
}

/// Turns a JSON value into `T`, naming the path of the first problem.
fn typed<T: DeserializeOwned>(value: serde_json::Value, what: &str) -> Result<T, ProtocolError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let at = if path == "." {
            String::new()
        } else {
            format!(" at `{path}`")
        };
        ProtocolError::new(
            ErrorKind::Protocol,
            format!("{what}{at}: {}", e.into_inner()),
        )
    })
}

/// Decodes the engine's handshake line.
pub fn decode_engine_hello(line: &[u8]) -> Result<Capabilities, ProtocolError> {
    let value = parse_engine_line(line)?;
    if value.get("type").and_then(|t| t.as_str()) != Some("hello") {
        return Err(ProtocolError::new(
            ErrorKind::Protocol,
            format!("expected the engine's hello, got {}", excerpt(line)),
        ));
    }
    // An engine of another version may have other fields: say so first.
    if let Some(v) = value.get("protocol").and_then(|v| v.as_u64()) {
        if v != u64::from(VERSION) {
            return Err(ProtocolError::new(
                ErrorKind::Version,
                format!("the engine speaks protocol {v}; this ptoracle speaks protocol {VERSION}"),
            ));
        }
    }
    Capabilities::from_hello(typed(value, "the engine's hello")?)
}

/// Splits a message into its `type` and the rest, so that the rest can be
/// decoded with exact paths in errors (an internally tagged enum would
/// lose them).
fn envelope(
    mut value: serde_json::Value,
    what: &str,
    types: &[&str],
) -> Result<(String, serde_json::Value), ProtocolError> {
    let tag = match value.as_object_mut().map(|m| m.remove("type")) {
        None => {
            return Err(ProtocolError::new(
                ErrorKind::Protocol,
                format!("{what} is not a JSON object"),
            ));
        }
        Some(Some(serde_json::Value::String(t))) => t,
        Some(_) => {
            return Err(ProtocolError::new(
                ErrorKind::Protocol,
                format!(
                    "{what} has no string field `type` (one of: {})",
                    types.join(", ")
                ),
            ));
        }
    };
    if !types.contains(&tag.as_str()) {
        return Err(ProtocolError::new(
            ErrorKind::Protocol,
            format!(
                "{what} has type `{tag}`; expected one of: {}",
                types.join(", ")
            ),
        ));
    }
    Ok((tag, value))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultBody {
    seq: u64,
    steps: Vec<WireObservation>,
    #[serde(default)]
    error: Option<WireError>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnsupportedBody {
    seq: u64,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ErrorBody {
    #[serde(default)]
    seq: Option<u64>,
    message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReproductionBody {
    seq: u64,
    program: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReproduceBody {
    seq: u64,
    edition: String,
    case: Box<Case>,
    reference: Vec<WireObservation>,
    differences: Vec<Difference>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunBody {
    seq: u64,
    edition: String,
    case: Box<Case>,
}

/// Decodes a reply line, requiring every observation field the engine did
/// not declare unobserved.
pub fn decode_reply(
    line: &[u8],
    unobserved: &BTreeSet<Observable>,
) -> Result<Reply, ProtocolError> {
    if let Some(r) = fast::reply(line, unobserved) {
        return Ok(r);
    }
    decode_reply_slow(line, unobserved)
}

/// [`decode_reply`] without its fast path: the general decoder, which the
/// fast path must agree with wherever it answers (a fuzz target checks).
pub fn decode_reply_slow(
    line: &[u8],
    unobserved: &BTreeSet<Observable>,
) -> Result<Reply, ProtocolError> {
    let value = parse_engine_line(line)?;
    let (tag, body) = envelope(
        value,
        "the reply",
        &["result", "unsupported", "error", "reproduction"],
    )?;
    Ok(match tag.as_str() {
        "result" => {
            if let Some(steps) = body.get("steps").and_then(|s| s.as_array()) {
                for (k, step) in steps.iter().enumerate() {
                    require_fields(k, step, unobserved)?;
                }
            }
            let b: ResultBody = typed(body, "the reply")?;
            Reply::Result {
                seq: b.seq,
                steps: b.steps,
                error: b.error,
            }
        }
        "reproduction" => {
            let b: ReproductionBody = typed(body, "the reply")?;
            Reply::Reproduction {
                seq: b.seq,
                program: b.program,
            }
        }
        "unsupported" => {
            let b: UnsupportedBody = typed(body, "the reply")?;
            Reply::Unsupported {
                seq: b.seq,
                reason: b.reason,
            }
        }
        _ => {
            let b: ErrorBody = typed(body, "the reply")?;
            Reply::Error {
                seq: b.seq,
                message: b.message,
            }
        }
    })
}

fn require_fields(
    k: usize,
    step: &serde_json::Value,
    unobserved: &BTreeSet<Observable>,
) -> Result<(), ProtocolError> {
    let missing = |at: String, key: &str| {
        ProtocolError::new(
            ErrorKind::Protocol,
            format!(
                "the reply at `steps[{k}].{at}`: missing field `{key}` (use null for \"none\", or declare the field unobserved in the handshake)"
            ),
        )
    };
    let check = |at: String, obj: &serde_json::Value, players: bool| -> Result<(), ProtocolError> {
        let Some(map) = obj.as_object() else {
            return Ok(()); // The typed decoding names the wrong type.
        };
        for o in Observable::ALL {
            if o.of_player() != players || unobserved.contains(o) || o.optional() {
                continue;
            }
            for key in o.keys() {
                match map.get(*key) {
                    None => return Err(missing(at.clone(), key)),
                    Some(serde_json::Value::Null) if !o.nullable() => {
                        return Err(ProtocolError::new(
                            ErrorKind::Protocol,
                            format!(
                                "the reply at `steps[{k}].{at}.{key}`: null, but this field always has a value"
                            ),
                        ));
                    }
                    Some(_) => {}
                }
            }
        }
        Ok(())
    };
    if let Some(objects) = step.get("objects").and_then(|o| o.as_object()) {
        for (h, o) in objects {
            check(format!("objects.{h}"), o, false)?;
            if let Some(lki) = o.get("lki").filter(|l| !l.is_null()) {
                check(format!("objects.{h}.lki"), lki, false)?;
            }
        }
    }
    if let Some(players) = step.get("players").and_then(|o| o.as_object()) {
        for (h, p) in players {
            check(format!("players.{h}"), p, true)?;
        }
    }
    Ok(())
}

/// Decodes ptoracle's hello (what an engine, such as `ptoracle serve`, reads first).
pub fn decode_hello(line: &[u8]) -> Result<Hello, ProtocolError> {
    let value = parse_line(line)?;
    if let Some(v) = value.get("protocol").and_then(|v| v.as_u64()) {
        if v != u64::from(VERSION) {
            return Err(ProtocolError::new(
                ErrorKind::Version,
                format!("ptoracle speaks protocol {v}; this engine speaks protocol {VERSION}"),
            ));
        }
    }
    typed(value, "the hello")
}

/// Decodes a request line (what an engine reads after the handshake).
pub fn decode_request(line: &[u8]) -> Result<Request, ProtocolError> {
    if let Some(r) = fast::request(line) {
        return Ok(r);
    }
    decode_request_slow(line)
}

/// [`decode_request`] without its fast path.
pub fn decode_request_slow(line: &[u8]) -> Result<Request, ProtocolError> {
    let (tag, body) = envelope(
        parse_line(line)?,
        "the request",
        &["run", "reproduce", "bye"],
    )?;
    if tag == "bye" {
        if body.as_object().is_some_and(|m| !m.is_empty()) {
            return Err(ProtocolError::new(
                ErrorKind::Protocol,
                "the request `bye` has fields; it has none",
            ));
        }
        return Ok(Request::Bye);
    }
    if tag == "reproduce" {
        let b: ReproduceBody = typed(body, "the request")?;
        return Ok(Request::Reproduce {
            seq: b.seq,
            edition: b.edition,
            case: b.case,
            reference: b.reference,
            differences: b.differences,
        });
    }
    let b: RunBody = typed(body, "the request")?;
    Ok(Request::Run {
        seq: b.seq,
        edition: b.edition,
        case: b.case,
    })
}

/// The sequence number of a request line, if one can be read from it at
/// all: for answering a request that could not be decoded.
pub fn request_seq(line: &[u8]) -> Option<u64> {
    serde_json::from_slice::<serde_json::Value>(line)
        .ok()?
        .get("seq")?
        .as_u64()
}

/// Encodes a message as one line of JSON, newline included.
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    let mut out = serde_json::to_vec(message).unwrap_or_default();
    out.push(b'\n');
    out
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

/// Every field where `got` differs from `reference`, at the first step
/// where they differ, as a [`Request::Reproduce`] carries them: by object
/// or player and observation field, each value as a reply writes it.
/// Fields the engine does not report (`unobserved`) are left out.
pub fn differences(
    reference: &[WireObservation],
    got: &[WireObservation],
    unobserved: &BTreeSet<Observable>,
) -> Vec<Difference> {
    for (step, (r, g)) in reference.iter().zip(got).enumerate() {
        let (r, g) = (
            serde_json::to_value(r).unwrap_or_default(),
            serde_json::to_value(g).unwrap_or_default(),
        );
        let mut out = Vec::new();
        for part in ["objects", "players"] {
            let (Some(rs), Some(gs)) = (r[part].as_object(), g[part].as_object()) else {
                continue;
            };
            for (h, ro) in rs {
                let (Some(ro), Some(go)) = (ro.as_object(), gs.get(h).and_then(|g| g.as_object()))
                else {
                    continue;
                };
                for (field, rv) in ro {
                    let reported =
                        Observable::parse(field).is_none_or(|o| !unobserved.contains(&o));
                    let Some(gv) = go.get(field).filter(|_| reported) else {
                        continue;
                    };
                    if !same_value(rv, gv) {
                        out.push(Difference {
                            step,
                            of: Handle(h.as_str().into()),
                            field: field.clone(),
                            reference: rv.clone(),
                            engine: gv.clone(),
                        });
                    }
                }
            }
        }
        if !out.is_empty() {
            return out;
        }
    }
    Vec::new()
}

/// Whether two values of an observation field are the same: lists of
/// names (types, colors, keywords) in any order.
fn same_value(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    match (a.as_array(), b.as_array()) {
        (Some(x), Some(y)) => {
            let key = |v: &serde_json::Value| v.to_string();
            let mut x: Vec<String> = x.iter().map(key).collect();
            let mut y: Vec<String> = y.iter().map(key).collect();
            x.sort();
            y.sort();
            x == y
        }
        _ => a == b,
    }
}

/// The case as sent to an engine: the scenario without its expectations.
pub fn without_expectations(case: &Case) -> Case {
    let mut c = case.clone();
    for s in &mut c.steps {
        s.clear_expectations();
    }
    c
}

/// An observation as an engine reports it.
pub fn to_wire(o: &Observation) -> WireObservation {
    WireObservation {
        objects: o
            .objects
            .iter()
            .map(|(h, s)| (h.clone(), object_to_wire(s)))
            .collect(),
        players: o
            .players
            .iter()
            .map(|(h, p)| {
                (
                    h.clone(),
                    WirePlayer {
                        life: Some(p.life),
                        poison: Some(p.poison),
                        mana: Some(wire_pool(&p.mana)),
                        lost: Some(p.lost),
                        snow_mana: (!p.snow_mana.is_empty()).then(|| wire_pool(&p.snow_mana)),
                        payments: p.payments,
                    },
                )
            })
            .collect(),
    }
}

fn wire_pool(p: &ManaPool) -> BTreeMap<Mana, i64> {
    p.normalized().0.iter().map(|(m, n)| (*m, n.0)).collect()
}

fn core_pool(p: Option<BTreeMap<Mana, i64>>) -> ManaPool {
    ManaPool(
        p.unwrap_or_default()
            .into_iter()
            .filter(|(_, n)| *n != 0)
            .map(|(m, n)| (m, crate::scenario::Count(n)))
            .collect(),
    )
}

fn object_to_wire(s: &ObjectState) -> WireObject {
    WireObject {
        zone: Some(s.zone),
        types: Some(s.types.clone()),
        colors: Some(s.colors.clone()),
        power: s.pt.map(|p| p.power),
        toughness: s.pt.map(|p| p.toughness),
        base_power: s.base_pt.map(|p| p.power),
        base_toughness: s.base_pt.map(|p| p.toughness),
        total: s.total,
        combat_damage: s.combat_damage,
        counters: Some(s.counters.clone()),
        damage: Some(s.damage),
        deathtouch_damage: Some(s.deathtouch_damage),
        keywords: Some(s.keywords.clone()),
        tapped: Some(s.tapped),
        regeneration_shields: Some(s.regeneration_shields),
        attached_to: s.attached_to.clone(),
        summoning_sick: Some(s.summoning_sick),
        lki: s.lki.as_ref().map(|l| Box::new(object_to_wire(l))),
    }
}

/// An engine's observation as a core one. A field the engine does not
/// report takes its neutral value; the comparison leaves it out.
pub fn from_wire(w: WireObservation) -> Result<Observation, ProtocolError> {
    let mut objects = BTreeMap::new();
    for (h, o) in w.objects {
        let state = object_from_wire(&h, o)?;
        objects.insert(h, state);
    }
    let players = w
        .players
        .into_iter()
        .map(|(h, p)| {
            (
                h,
                PlayerState {
                    life: p.life.unwrap_or(0),
                    poison: p.poison.unwrap_or(0),
                    mana: core_pool(p.mana),
                    lost: p.lost.unwrap_or(false),
                    snow_mana: core_pool(p.snow_mana),
                    payments: p.payments,
                },
            )
        })
        .collect();
    Ok(Observation { objects, players })
}

fn object_from_wire(h: &Handle, o: WireObject) -> Result<ObjectState, ProtocolError> {
    let pair = |p: Option<i64>, t: Option<i64>, what: &str| match (p, t) {
        (Some(p), Some(t)) => Ok(Some(Pt::new(p, t))),
        (None, None) => Ok(None),
        _ => Err(ProtocolError::new(
            ErrorKind::Protocol,
            format!("object `{h}`: {what} is half null; both or neither"),
        )),
    };
    let mut counters = o.counters.unwrap_or_default();
    counters.retain(|_, n| *n != 0);
    Ok(ObjectState {
        zone: o.zone.unwrap_or(Zone::Battlefield),
        types: o.types.unwrap_or_default(),
        colors: o.colors.unwrap_or_default(),
        pt: pair(o.power, o.toughness, "power/toughness")?,
        base_pt: pair(o.base_power, o.base_toughness, "base_power/base_toughness")?,
        total: o.total,
        combat_damage: o.combat_damage,
        counters,
        damage: o.damage.unwrap_or(0),
        deathtouch_damage: o.deathtouch_damage.unwrap_or(false),
        keywords: o.keywords.unwrap_or_default(),
        tapped: o.tapped.unwrap_or(false),
        regeneration_shields: o.regeneration_shields.unwrap_or(0),
        attached_to: o.attached_to,
        summoning_sick: o.summoning_sick.unwrap_or(false),
        lki: match o.lki {
            Some(l) => Some(Box::new(object_from_wire(h, *l)?)),
            None => None,
        },
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_refused_with_their_path() {
        let e = decode_reply(
            br#"{"type":"result","seq":1,"steps":[{"objects":{"c":{"power":2.0}},"players":{}}]}"#,
            &BTreeSet::new(),
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::NonInteger);
        assert!(e.message.contains("steps[0].objects.c.power"), "{e}");
    }

    #[test]
    fn a_missing_field_is_named() {
        let e = decode_reply(
            br#"{"type":"result","seq":1,"steps":[{"objects":{"c":{"zone":"battlefield"}},"players":{}}]}"#,
            &BTreeSet::new(),
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Protocol);
        assert!(e.message.contains("steps[0].objects.c"), "{e}");
        assert!(e.message.contains("types"), "{e}");
    }

    #[test]
    fn another_version_is_named() {
        let e =
            decode_engine_hello(br#"{"type":"hello","protocol":2,"whatever":true}"#).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Version);
        assert!(e.message.contains("protocol 2"), "{e}");
    }

    /// The capabilities of an engine hello that declares `features`
    /// (JSON strings, comma-separated).
    fn hello_declaring(features: &str) -> Result<Capabilities, ProtocolError> {
        decode_engine_hello(
            format!(r#"{{"type":"hello","protocol":1,"engine":{{"name":"e","version":"1"}},"features":[{features}],"editions":[]}}"#)
                .as_bytes(),
        )
    }

    #[test]
    fn summoning_sick_is_asked_only_of_engines_with_the_feature() {
        let hello = |features: &str| hello_declaring(features).unwrap();
        let old = hello("");
        assert!(old.unobserved.contains(&Observable::SummoningSick));
        let new = hello(r#""summoning-sickness""#);
        assert!(!new.unobserved.contains(&Observable::SummoningSick));
        let reply = to_wire(&crate::observation::Observation::default());
        let mut step = serde_json::to_value(&reply).unwrap();
        step["objects"] = serde_json::json!({ "c": {
            "zone": "battlefield", "types": [], "colors": [], "power": null, "toughness": null,
            "base_power": null, "base_toughness": null, "total": null, "combat_damage": null,
            "counters": {}, "damage": 0, "deathtouch_damage": false, "keywords": [],
            "tapped": false, "regeneration_shields": 0, "attached_to": null, "lki": null } });
        let line = serde_json::json!({ "type": "result", "seq": 1, "steps": [step] }).to_string();
        assert!(decode_reply(line.as_bytes(), &old.unobserved).is_ok());
        let e = decode_reply(line.as_bytes(), &new.unobserved).unwrap_err();
        assert!(e.message.contains("summoning_sick"), "{e}");
    }

    /// A reply whose steps are `step`, one object `c` whose fields are
    /// those of a creature with `extra` spliced in first.
    fn reply_with(extra: &str) -> String {
        format!(
            r#"{{"type":"result","seq":1,"steps":[{{"objects":{{"c":{{{extra}"zone":"battlefield","types":["Creature"],"colors":[],"power":2,"toughness":2,"base_power":2,"base_toughness":2,"total":4,"combat_damage":2,"counters":{{}},"damage":0,"deathtouch_damage":false,"keywords":[],"tapped":false,"regeneration_shields":0,"attached_to":null,"summoning_sick":false,"lki":null}}}},"players":{{}}}}]}}"#
        )
    }

    #[test]
    fn duplicate_keys_in_a_reply_are_a_protocol_error() {
        let all: BTreeSet<Observable> = Observable::ALL.iter().copied().collect();
        assert!(decode_reply(reply_with("").as_bytes(), &BTreeSet::new()).is_ok());
        for (line, path) in [
            (reply_with(r#""power":5,"#), "steps[0].objects.c.power"),
            (
                reply_with("").replace(r#""seq":1,"#, r#""seq":1,"seq":1,"#),
                "seq",
            ),
            (
                reply_with("").replace(r#""objects":{"#, r#""objects":{"c":{},"#),
                "steps[0].objects.c",
            ),
            (
                reply_with(r#""counters":{"+1/+1":1,"+1/+1":2},"#),
                "steps[0].objects.c.counters.+1/+1",
            ),
        ] {
            for unobserved in [&BTreeSet::new(), &all] {
                let e = decode_reply(line.as_bytes(), unobserved).unwrap_err();
                assert_eq!(e.kind, ErrorKind::Protocol, "{line}: {e}");
                assert!(
                    e.message.contains(&format!("`{path}` is given twice")),
                    "{e}"
                );
            }
        }
        // Two spellings of one counter kind are one key given twice.
        let line =
            reply_with("").replace(r#""counters":{}"#, r#""counters":{"+1/+1":1,"+01/+1":2}"#);
        let e = decode_reply(line.as_bytes(), &BTreeSet::new()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Protocol, "{e}");
        assert!(e.message.contains("given twice"), "{e}");
    }

    #[test]
    fn numbers_beyond_64_bits_are_all_non_integer() {
        for n in [
            "9223372036854775808".to_string(),
            "-9223372036854775809".to_string(),
            "100000000000000000000".to_string(),
            "1e400".to_string(),
            format!("1{}", "0".repeat(400)),
        ] {
            let line = reply_with("").replace(r#""damage":0"#, &format!(r#""damage":{n}"#));
            let e = decode_reply(line.as_bytes(), &BTreeSet::new()).unwrap_err();
            assert_eq!(e.kind, ErrorKind::NonInteger, "{n}: {e}");
            assert!(e.message.contains("steps[0].objects.c.damage"), "{n}: {e}");
            let seq = reply_with("").replace(r#""seq":1"#, &format!(r#""seq":{n}"#));
            let e = decode_reply(seq.as_bytes(), &BTreeSet::new()).unwrap_err();
            assert_eq!(e.kind, ErrorKind::NonInteger, "{n}: {e}");
        }
    }

    #[test]
    fn garbage_is_shown() {
        let e = decode_reply(b"hello world", &BTreeSet::new()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Garbage);
        assert!(e.message.contains("hello world"), "{e}");
    }

    /// A print on stdout is shown escaped (no control character of it
    /// reaches a terminal) with a hint of where logs go; a line that is
    /// broken JSON gets no such hint.
    #[test]
    fn a_stray_print_is_shown_escaped_with_a_hint() {
        for line in [
            &b"Loading engine \x1b[31mv2\x00\xe2\x80\xae..."[..],
            b"  [INFO] ready",
        ] {
            let e = decode_reply(line, &BTreeSet::new()).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Garbage, "{e}");
            assert!(e.message.ends_with("logs and prints go to stderr"), "{e}");
            assert!(
                !e.message.chars().any(|c| c.is_control() || c == '\u{202e}'),
                "{e:?}"
            );
        }
        assert!(e_of(b"Loading engine \x1b[31mv2").contains(r#""Loading engine \u{1b}[31mv2""#));
        let e = e_of(br#"{"type":"result","seq":1,"#);
        assert!(!e.contains("stderr"), "{e}");
    }

    fn e_of(line: &[u8]) -> String {
        decode_reply(line, &BTreeSet::new()).unwrap_err().message
    }

    #[test]
    fn unknown_features_are_a_handshake_error_naming_them() {
        let hello = hello_declaring;
        assert!(hello(r#""counters","set""#).is_ok());
        let e = hello(r#""counters","countres","stes""#).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Protocol);
        assert!(
            e.message
                .contains("features `countres`, `stes` that ptoracle"),
            "{e}"
        );
        assert!(e.message.contains("counters, keyword-counters,"), "{e}");
    }
}
