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

mod capabilities;
mod decode;
mod difference;
mod error;
pub mod fast;
mod features;
mod json;
mod messages;
mod wire;

use ptoracle_core::{number, observation, scenario, terms};

use crate::scenario::Case;

pub use capabilities::Capabilities;
pub use decode::{
    decode_engine_hello, decode_hello, decode_reply, decode_reply_slow, decode_request,
    decode_request_slow, encode, request_seq,
};
pub use difference::{Difference, differences};
use error::not_json;
pub use error::{ErrorKind, ProtocolError, excerpt};
pub use features::{Feature, Reach, UnknownFeature, Unlock, required_features};
pub use json::{canonical, integers_only};
pub use messages::{
    EngineHello, EngineInfo, Hello, HelloTag, Reply, Reproducer, Request, StepError, WireError,
    hello, hello_offering, hello_offering_all,
};
pub use wire::{Observable, WireObject, WireObservation, WirePlayer, from_wire, to_wire};

/// The protocol version this ptoracle speaks.
pub const VERSION: u32 = 1;

/// The case as sent to an engine: the scenario without its expectations.
pub fn without_expectations(case: &Case) -> Case {
    let mut c = case.clone();
    for s in &mut c.steps {
        s.clear_expectations();
    }
    c
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

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
