//! Decoding and encoding lines: strict, never panicking, each error saying
//! where.

use std::collections::BTreeSet;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::VERSION;
use crate::capabilities::Capabilities;
use crate::difference::Difference;
use crate::error::{ErrorKind, ProtocolError, excerpt, not_json};
use crate::json::integers_only;
use crate::messages::{Hello, Reply, Request, WireError};
use crate::scenario::Case;
use crate::wire::Observable;
use crate::wire::WireObservation;
use crate::{fast, json};

/// Reads one line from an engine as JSON whose numbers are all signed
/// 64-bit integers (107.1a) and whose objects give every key once.
pub(crate) fn parse_engine_line(line: &[u8]) -> Result<serde_json::Value, ProtocolError> {
    json::check_text(line)?;
    serde_json::from_slice(line).map_err(|e| not_json(e, line))
}

/// Reads one line as JSON whose numbers are all integers (107.1a).
pub(crate) fn parse_line(line: &[u8]) -> Result<serde_json::Value, ProtocolError> {
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
pub(crate) fn typed<T: DeserializeOwned>(
    value: serde_json::Value,
    what: &str,
) -> Result<T, ProtocolError> {
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
pub(crate) fn envelope(
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
pub(crate) struct ResultBody {
    seq: u64,
    steps: Vec<WireObservation>,
    #[serde(default)]
    error: Option<WireError>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UnsupportedBody {
    seq: u64,
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ErrorBody {
    #[serde(default)]
    seq: Option<u64>,
    message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReproductionBody {
    seq: u64,
    program: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReproduceBody {
    seq: u64,
    edition: String,
    case: Box<Case>,
    reference: Vec<WireObservation>,
    differences: Vec<Difference>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RunBody {
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

pub(crate) fn require_fields(
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
