//! `ptoracle serve`: the reference resolver speaking the engine protocol,
//! the engine every adapter author compares against.
//!
//! It reads requests line by line and answers each at once. Nothing on its
//! input can make it panic or stop early: a line it cannot read is answered
//! with an `error` message (with the request's `seq` when one can be read)
//! and the next line is read.

use std::io::{self, BufRead, Write};

use crate::engine::{Answer, Engine, Reference, wire_error};
use ptoracle_core::edition::Edition;
use ptoracle_core::resolver::{Mutant, Run};
use ptoracle_core::scenario::validate;
use ptoracle_protocol::{self as protocol, EngineHello, HelloTag, Reply, Request};

/// The longest request line read, in bytes; a longer one is skipped and
/// answered with an error.
pub const MAX_LINE: usize = 64 << 20;

/// How many requests `serve` accepts in flight when ptoracle offers to
/// pipeline: any number would do (it answers each in turn, in order), this
/// bounds what a gate buffers.
pub const PIPELINE: u32 = 256;

/// Serves requests from `input` until `bye` or the end of input.
///
/// ```
/// let input = concat!(
///     r#"{"type":"hello","protocol":1,"ptoracle":"0.1.0"}"#, "\n",
///     r#"{"type":"run","seq":1,"edition":"2026-09-25","case":{"id":"d/x","title":"t","rules":["107.1b"],"#,
///     r#""setup":{"objects":[{"id":"c","types":["Creature"],"pt":"3/4"}]},"#,
///     r#""steps":[{"do":{"effect":{"affects":["c"],"modify":"-5/-0","until":"end-of-turn"}}}]}}"#, "\n",
///     r#"{"type":"bye"}"#, "\n");
/// let mut out = Vec::new();
/// ptoracle::serve::serve(input.as_bytes(), &mut out, None).unwrap();
/// let out = String::from_utf8(out).unwrap();
/// let lines: Vec<&str> = out.lines().collect();
/// assert!(lines[0].contains(r#""type":"hello""#));
/// assert!(lines[1].contains(r#""power":-2"#) && lines[1].contains(r#""combat_damage":0"#));
/// ```
pub fn serve(
    input: impl BufRead,
    mut output: impl Write,
    mutant: Option<Mutant>,
) -> io::Result<()> {
    let mut engine = Reference::new(mutant);
    let mut lines = Lines::new(input);
    while let Some(line) = lines.next()? {
        let reply = match line {
            Line::TooLong => Some(encode_reply(&Reply::Error {
                seq: None,
                message: format!("a request line longer than {MAX_LINE} bytes"),
            })),
            Line::Text(l) => answer(&l, &mut engine),
        };
        match reply {
            Some(bytes) => {
                output.write_all(&bytes)?;
                output.flush()?;
            }
            None => return Ok(()),
        }
    }
    Ok(())
}

/// The answer to one line, or `None` for `bye`.
pub(crate) fn answer(line: &[u8], engine: &mut Reference) -> Option<Vec<u8>> {
    let hello = serde_json::from_slice::<serde_json::Value>(line)
        .ok()
        .filter(|v| v.get("type").and_then(|t| t.as_str()) == Some("hello"));
    if let Some(hello) = hello {
        // Pipelining is declared only when offered: an older ptoracle
        // would refuse a field it does not know.
        let offered = hello.get("pipeline").is_some_and(|p| p.as_u64() > Some(1));
        // Answered whatever version ptoracle speaks: the side that reads
        // the hello compares the versions and names the mismatch.
        let hello = EngineHello {
            kind: HelloTag::Hello,
            protocol: protocol::VERSION,
            engine: engine.info(),
            features: protocol::Feature::ALL
                .iter()
                .map(|f| f.name().to_string())
                .collect(),
            editions: Edition::all().map(|e| e.id().to_string()).collect(),
            unobserved: Vec::new(),
            pipeline: offered.then_some(PIPELINE),
            reproduce: None,
        };
        return Some(protocol::encode(&hello));
    }
    let request = match protocol::decode_request(line) {
        Ok(r) => r,
        Err(e) => {
            return Some(encode_reply(&Reply::Error {
                seq: protocol::request_seq(line),
                message: e.message,
            }));
        }
    };
    let (seq, edition, case) = match request {
        Request::Bye => return None,
        Request::Run { seq, edition, case } => (seq, edition, case),
        // The reference declares no `reproduce`: it is never asked.
        Request::Reproduce { seq, .. } => {
            return Some(encode_reply(&Reply::Unsupported {
                seq,
                reason: "ptoracle serve writes no reproductions".into(),
            }));
        }
    };
    let edition = match Edition::parse(&edition) {
        Ok(e) => e,
        Err(e) => {
            return Some(encode_reply(&Reply::Unsupported {
                seq,
                reason: e.to_string(),
            }));
        }
    };
    if let Some(problem) = validate(&case).into_iter().next() {
        return Some(encode_reply(&Reply::Error {
            seq: Some(seq),
            message: format!("invalid case: {problem}"),
        }));
    }
    let reply = match engine.run(&case, edition) {
        Answer::Ran(run) => ran_reply(seq, &run),
        Answer::Unsupported(reason) => Reply::Unsupported { seq, reason },
        Answer::Fault(f) => Reply::Error {
            seq: Some(seq),
            message: f.to_string(),
        },
    };
    Some(encode_reply(&reply))
}

/// The reply to request `seq` that reports the reference's `run` of its
/// case: what `serve` writes, and what the gate measures against its line
/// limit (D90).
pub(crate) fn ran_reply(seq: u64, run: &Run) -> Reply {
    match run.error.as_ref().map(|e| (e, wire_error(e))) {
        // Not about a step: the setup itself is impossible.
        Some((e, None)) => Reply::Error {
            seq: Some(seq),
            message: format!("invalid case: {e}"),
        },
        error => Reply::Result {
            seq,
            steps: run
                .steps
                .iter()
                .map(|s| protocol::to_wire(&s.observation))
                .collect(),
            error: error.and_then(|(_, w)| w),
        },
    }
}

fn encode_reply(r: &Reply) -> Vec<u8> {
    protocol::encode(r)
}

enum Line {
    Text(Vec<u8>),
    TooLong,
}

/// Lines of at most [`MAX_LINE`] bytes; a longer one is skipped to its end.
struct Lines<R> {
    input: R,
}

impl<R: BufRead> Lines<R> {
    fn new(input: R) -> Lines<R> {
        Lines { input }
    }

    fn next(&mut self) -> io::Result<Option<Line>> {
        let mut line = Vec::new();
        let mut too_long = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                // A blank last line without its newline is as blank as any
                // (found by the protocol fuzz target: it got an error reply).
                let blank = line.iter().all(u8::is_ascii_whitespace);
                return Ok(match (blank && !too_long, too_long) {
                    (true, _) => None,
                    (_, true) => Some(Line::TooLong),
                    _ => Some(Line::Text(line)),
                });
            }
            let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], i + 1, true),
                None => (buf, buf.len(), false),
            };
            if !too_long {
                line.extend_from_slice(chunk);
                if line.len() > MAX_LINE {
                    too_long = true;
                    line = Vec::new();
                }
            }
            self.input.consume(used);
            if done {
                if too_long {
                    return Ok(Some(Line::TooLong));
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    line.clear();
                    continue;
                }
                return Ok(Some(Line::Text(line)));
            }
        }
    }
}
