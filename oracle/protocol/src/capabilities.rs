//! What a handshake established about an engine.

use std::collections::BTreeSet;

use ptoracle_core::Edition;

use crate::VERSION;
use crate::error::{ErrorKind, ProtocolError};
use crate::features::{Feature, required_features};
use crate::messages::{EngineHello, EngineInfo, Reproducer};
use crate::scenario::Case;
use crate::wire::Observable;

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
