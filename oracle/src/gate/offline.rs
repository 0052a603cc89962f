//! `ptoracle compare`: the gate's verdicts offline, from a transcript. An
//! adapter fed `session/requests.jsonl` of `ptoracle export` writes its
//! replies to a file; each reply is checked as the gate checks an engine's
//! ([`check_engine`]), against the reference resolver, so that an engine
//! author can test an adapter without running the gate.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use super::findings::Register;
use super::{Plan, Record, Report, expectations};
use crate::engine::check_engine;
use crate::engine::{Answer, Engine, EngineFault, FaultKind, answer_from_reply};
use ptoracle_core::edition::Edition;
use ptoracle_core::scenario::Case;
use ptoracle_protocol::{self as protocol, Capabilities, Request};

/// The recorded replies, one per request, played back as an engine: the
/// reply to the request being checked is set before each check.
struct Recorded {
    caps: Capabilities,
    /// The reply to the current request, and its number.
    reply: Option<(u64, Vec<u8>)>,
}

impl Engine for Recorded {
    fn capabilities(&mut self) -> Result<Capabilities, EngineFault> {
        Ok(self.caps.clone())
    }

    fn run(&mut self, case: &Case, _: Edition) -> Answer {
        let Some((seq, line)) = self.reply.take() else {
            return Answer::Fault(EngineFault::new(
                FaultKind::Crash,
                "no reply: the replies end before this request",
            ));
        };
        match protocol::decode_reply(&line, &self.caps.unobserved) {
            Ok(reply) => answer_from_reply(reply, seq, case.steps.len()),
            Err(e) => Answer::Fault(e.into()),
        }
    }
}

/// Checks `replies` (the engine's hello, then one reply line per run
/// request, in order) against the requests of the export in `export_dir`,
/// each failure attributed to the `findings` register's entries as the
/// gate attributes it (the same [`Register::attribute_record`], and a
/// failure it explains whole passes, D101). `Err` when the files cannot be
/// read or the first reply is no hello.
pub fn compare(
    export_dir: &Path,
    replies: &Path,
    findings: Option<Register>,
) -> Result<Report, String> {
    let started = Instant::now();
    let read = |p: &Path| std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()));
    let requests_path = export_dir.join("session").join("requests.jsonl");
    let requests = read(&requests_path)?;
    let replies_text = read(replies)?;
    let mut lines = replies_text
        .split(|&b| b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace));
    let hello = lines
        .next()
        .ok_or_else(|| format!("{}: empty: no hello", replies.display()))?;
    let caps = protocol::decode_engine_hello(hello).map_err(|e| {
        format!(
            "{}:1: the first line is not the engine's hello: {}",
            replies.display(),
            e.message
        )
    })?;
    let files = case_files(export_dir);
    let mut engine = Recorded {
        caps: caps.clone(),
        reply: None,
    };
    let mut records = Vec::new();
    let mut needs = Vec::new();
    let mut edition = Edition::current();
    for (n, line) in requests.split(|&b| b == b'\n').enumerate() {
        if line.is_empty() || protocol::request_seq(line).is_none() {
            continue;
        }
        let (seq, case) = match protocol::decode_request(line) {
            Ok(Request::Run {
                seq,
                edition: e,
                case,
            }) => {
                edition = Edition::parse(&e)
                    .map_err(|e| format!("{}:{}: {e}", requests_path.display(), n + 1))?;
                (seq, case)
            }
            // An export holds runs only; a reproduction is no verdict.
            Ok(Request::Bye | Request::Reproduce { .. }) => continue,
            Err(e) => {
                return Err(format!(
                    "{}:{}: {}",
                    requests_path.display(),
                    n + 1,
                    e.message
                ));
            }
        };
        if case.editions.as_ref().is_none_or(|r| r.contains(edition)) {
            needs.push(protocol::required_features(&case));
        }
        engine.reply = lines.next().map(|l| (seq, l.to_vec()));
        let checked = check_engine(&case, edition, &mut engine, &caps, None);
        let source = match files.get(&case.id.0) {
            Some(file) => format!("{file}#{}", case.id),
            None => format!("{}:{}", requests_path.display(), n + 1),
        };
        let reference = checked.reference.clone();
        let mut record = Record::new(records.len(), &case, source, None, checked, 0);
        if let Some(register) = &findings {
            register.attribute_record(&caps.info.name, &case, reference.as_ref(), &mut record);
            expectations::mark(None, true, &mut record);
        }
        records.push(record);
    }
    let plan = Plan {
        corpus: Vec::new(),
        generated: None,
        edition,
        jobs: 1,
        out: None,
        shrink_budget: 0,
        keep_shrunk: 0,
        expectations: None,
        findings,
        stop_after_same_errors: 0,
    };
    let reach = protocol::Reach::of(needs, &caps.features);
    let mut report = Report::new(Some(caps), &plan, records, 0, 0, false, started.elapsed());
    report.reach = Some(reach);
    Ok(report)
}

/// The ruling file of each case id, from the export's `index.json` (none
/// if it cannot be read).
fn case_files(export_dir: &Path) -> HashMap<String, String> {
    #[derive(serde::Deserialize)]
    struct Entry {
        id: String,
        file: String,
    }
    std::fs::read(export_dir.join("index.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<Vec<Entry>>(&b).ok())
        .map(|v| v.into_iter().map(|e| (e.id, e.file)).collect())
        .unwrap_or_default()
}
