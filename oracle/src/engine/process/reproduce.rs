//! Asking the engine for a reproduction of a failure (`gate --reproduce`).

use super::*;

impl ProcessEngine {
    /// Asks the engine for a reproduction: once the requests in flight are
    /// answered (their answers kept for when they are asked), one request
    /// and its one reply, within the timeout. A fault stops the engine
    /// (the next case starts a new one) and is the note returned.
    pub(super) fn ask_reproduction(&mut self, ask: &Reproduce<'_>) -> Result<String, String> {
        self.ensure_running().map_err(|f| f.to_string())?;
        while self
            .running
            .as_ref()
            .is_some_and(|r| !r.inflight.is_empty())
        {
            self.collect(None);
        }
        if let Some(f) = self.check_strays() {
            self.idle_fault = Some(f);
        }
        self.ensure_running().map_err(|f| f.to_string())?;
        let Some(mut running) = self.running.take() else {
            return Err("the engine is not running".into());
        };
        if running.caps.reproduce.is_none() {
            self.running = Some(running);
            return Err("the engine's hello declares no `reproduce`".into());
        }
        self.seq += 1;
        let seq = self.seq;
        // A shrunk ruling keeps the steps up to the one that differs; its
        // runs may have more.
        let wire = |run: &ptoracle_core::resolver::Run| -> Vec<_> {
            run.steps
                .iter()
                .take(ask.case.steps.len())
                .map(|s| protocol::to_wire(&s.observation))
                .collect()
        };
        let (reference, got) = (wire(ask.reference), wire(ask.got));
        let differences = protocol::differences(&reference, &got, &running.caps.unobserved);
        let line = protocol::encode(&Request::Reproduce {
            seq,
            edition: ask.edition.id().to_string(),
            case: Box::new(protocol::without_expectations(ask.case)),
            reference,
            differences,
        });
        let deadline = Instant::now() + self.config.timeout;
        let stop_flag = &*self.config.stop;
        let reply = running
            .pipes
            .send(&line, deadline, stop_flag)
            .and_then(|()| running.pipes.line(deadline, stop_flag))
            .map_err(|w| self.fault(&mut running, w, "the reproduction").to_string())
            .and_then(|line| {
                protocol::decode_reply(&line, &running.caps.unobserved)
                    .map_err(|e| EngineFault::from(e).to_string())
            });
        let answer = match reply {
            Ok(protocol::Reply::Reproduction { seq: s, program }) if s == seq => Ok(program),
            Ok(protocol::Reply::Unsupported { seq: s, reason }) if s == seq => {
                Err(format!("the engine writes none for this case: {reason}"))
            }
            Ok(protocol::Reply::Error { seq: s, message }) if s.is_none_or(|s| s == seq) => {
                Err(format!("the engine reports: {message}"))
            }
            Ok(other) => Err(format!(
                "a protocol error: the reply to reproduction request {seq} is {}",
                match other {
                    protocol::Reply::Result { .. } => "a `result`".to_string(),
                    other => format!(
                        "for request {}",
                        crate::engine::reply_seq(&other).unwrap_or(0)
                    ),
                }
            )),
            Err(e) => Err(e),
        };
        // A program, or a reason, is one line: anything more stops the
        // engine, as does any fault.
        let clean = running.pipes.pending().is_none();
        let kept = clean
            && match &answer {
                Ok(_) => true,
                Err(e) => {
                    e.starts_with("the engine writes none") || e.starts_with("the engine reports")
                }
            };
        if kept {
            self.running = Some(running);
        } else {
            stop(running, false);
        }
        answer
    }
}
