//! Requests and replies: sending ahead, collecting replies by `seq`,
//! and charging each fault to the request it belongs to.

use super::*;

impl ProcessEngine {
    /// Whether the engine wrote anything since its last answer: a second
    /// reply, or a reply before its request. That answer's case is then a
    /// protocol error, and the engine is restarted. Written after the
    /// handshake, before any answer, it is the fault returned, for the
    /// case about to be asked.
    pub(super) fn check_strays(&mut self) -> Option<EngineFault> {
        let running = self.running.as_mut()?;
        // With requests in flight, what it wrote are their replies.
        if !running.inflight.is_empty() {
            return None;
        }
        let extra = running.pipes.pending()?;
        let answered = running.answered;
        if let Some(r) = self.running.take() {
            stop(r, false);
        }
        let Some(seq) = answered else {
            return Some(EngineFault::new(
                FaultKind::Protocol,
                format!(
                    "after its hello the engine wrote more ({}) before any request",
                    protocol::excerpt(&extra)
                ),
            ));
        };
        self.blame_answered(seq, stray(seq, &protocol::excerpt(&extra)));
        None
    }

    /// Charges `fault` to the answer of request `seq`, already read: the
    /// answer itself when it is not yet given, else the stray of the
    /// answer given (the last one given, when it is no longer known).
    pub(super) fn blame_answered(&mut self, seq: u64, fault: EngineFault) {
        if let Some((_, answer)) = self.ready.iter_mut().find(|(s, _)| s.seq == seq) {
            if !matches!(answer, Answer::Fault(f) if f.kind != FaultKind::Reported) {
                *answer = Answer::Fault(fault);
            }
            return;
        }
        let number = match self.last_given {
            Some((s, n)) if s == seq => n,
            _ => self.given,
        };
        self.strays.push((number, fault));
    }

    /// Sends one line and waits for one line back.
    pub(super) fn exchange(
        &self,
        running: &mut Running,
        line: Vec<u8>,
        timeout: Duration,
        during: &str,
    ) -> Result<Vec<u8>, EngineFault> {
        let deadline = Instant::now() + timeout;
        let stop = &*self.config.stop;
        let answer = running
            .pipes
            .send(&line, deadline, stop)
            .and_then(|()| running.pipes.line(deadline, stop));
        answer.map_err(|w| self.fault(running, w, during))
    }

    /// The fault a failed read or write means.
    pub(super) fn fault(&self, running: &mut Running, w: Wait, during: &str) -> EngineFault {
        let timeout = if during == "the handshake" {
            self.config.handshake_timeout
        } else {
            self.config.timeout
        };
        match w {
            Wait::Stopped => EngineFault::new(
                FaultKind::Interrupted,
                format!("interrupted during {during}"),
            ),
            Wait::TimedOut => EngineFault::new(
                FaultKind::Timeout,
                format!("no answer within {} during {during}", show(timeout)),
            ),
            Wait::TooLong(n) => EngineFault::new(
                FaultKind::TooLong,
                format!(
                    "a line of more than {n} bytes during {during} (the limit; see --max-line)"
                ),
            ),
            Wait::Failed(e) => EngineFault::new(
                FaultKind::Crash,
                format!("talking to the engine failed during {during}: {e}"),
            ),
            Wait::Closed => {
                let status = exit_status(&mut running.child);
                EngineFault::new(
                    FaultKind::Crash,
                    format!("the engine {status} during {during}"),
                )
            }
        }
    }

    /// The answer to `case`: the one already read for a request sent
    /// ahead, else that of the request in flight for it (sent now if none
    /// is), read with the replies to the others in flight. A request lost
    /// when the engine was stopped for another's fault is sent again.
    pub(super) fn ask(
        &mut self,
        case: &Case,
        edition: Edition,
        meanwhile: &mut dyn FnMut(),
    ) -> Answer {
        let mut work = Some(meanwhile);
        let mut work = || {
            if let Some(m) = work.take() {
                m();
            }
        };
        let answer = loop {
            if let Some(i) = self.ready.iter().position(|(s, _)| s.is(case, edition)) {
                let (sent, answer) = self.ready.remove(i);
                work();
                break self.give(sent.seq, answer);
            }
            let flying = self
                .running
                .as_ref()
                .and_then(|r| r.inflight.iter().find(|s| s.is(case, edition)))
                .map(|s| s.seq);
            let seq = match flying {
                Some(seq) => seq,
                None => match self.send(case, edition) {
                    Ok(seq) => seq,
                    Err(f) => {
                        work();
                        break Answer::Fault(f);
                    }
                },
            };
            // The engine works; so can the caller.
            work();
            self.collect(Some(seq));
        };
        if self.config.process_per_case {
            self.shutdown();
        }
        answer
    }

    /// Gives the answer to request `seq`.
    pub(super) fn give(&mut self, seq: u64, answer: Answer) -> Answer {
        self.given += 1;
        self.last_given = Some((seq, self.given));
        answer
    }

    /// Sends a request for `case`, once there is room in flight for it.
    pub(super) fn send(&mut self, case: &Case, edition: Edition) -> Result<u64, EngineFault> {
        if self.config.stop.load(Ordering::Relaxed) {
            return Err(EngineFault::new(
                FaultKind::Interrupted,
                "interrupted before the case was sent",
            ));
        }
        if let Some(f) = self.idle_fault.take() {
            return Err(f);
        }
        if let Some(f) = self.check_strays() {
            return Err(f);
        }
        // Requests lost with a process go first, in their order, so that
        // the oldest request in flight stays the one owed first.
        while let Some(lost) = self.lost.pop_front() {
            if let Err(f) = self.transmit(&lost.case, lost.edition) {
                self.lost.push_front(lost);
                return Err(f);
            }
        }
        if let Some(s) = self.running.as_ref().and_then(|r| {
            r.inflight
                .iter()
                .find(|s| s.is(case, edition))
                .map(|s| s.seq)
        }) {
            return Ok(s);
        }
        self.transmit(case, edition)
    }

    /// Sends a request for `case` to the engine, started if need be, once
    /// there is room in flight for it.
    pub(super) fn transmit(&mut self, case: &Case, edition: Edition) -> Result<u64, EngineFault> {
        self.ensure_running()?;
        while self
            .running
            .as_ref()
            .is_some_and(|r| r.inflight.len() >= r.depth)
        {
            self.collect(None);
        }
        // The collecting may have stopped it.
        self.ensure_running()?;
        let Some(running) = self.running.as_mut() else {
            return Err(EngineFault::new(
                FaultKind::Spawn,
                "the engine is not running",
            ));
        };
        self.seq += 1;
        let seq = self.seq;
        let request = Request::Run {
            seq,
            edition: edition.id().to_string(),
            case: Box::new(protocol::without_expectations(case)),
        };
        if running.inflight.is_empty() {
            running.progress = Instant::now();
        }
        let line = protocol::encode(&request);
        running.inflight.push_back(Sent {
            seq,
            case: case.clone(),
            edition,
            mark: running.stderr.lock().map(|t| t.total).unwrap_or(0),
            end: running.pipes.written.saturating_add(line.len() as u64),
        });
        let deadline = Instant::now() + self.config.timeout;
        let sent = running.pipes.send(&line, deadline, &self.config.stop);
        if let Err(w) = sent {
            if let Some(mut running) = self.running.take() {
                let f = self.fault(&mut running, w, "the case");
                self.charge(running, f);
            }
        }
        Ok(seq)
    }

    /// Reads replies until request `want` is no longer in flight
    /// (answered, charged with a fault, or lost with the process), or,
    /// without one, until one fewer request is in flight.
    pub(super) fn collect(&mut self, want: Option<u64>) {
        let Some(mut running) = self.running.take() else {
            return;
        };
        let before = running.inflight.len();
        // A second reply to the last answer given, read while waiting:
        // that answer's fault; the engine is not kept after this one.
        let mut late = false;
        loop {
            let done = match want {
                Some(w) => !running.inflight.iter().any(|s| s.seq == w),
                None => running.inflight.len() < before,
            };
            if done || running.inflight.is_empty() {
                break;
            }
            let deadline = running.progress + self.config.timeout;
            let line = match running.pipes.line(deadline, &self.config.stop) {
                Ok(line) => line,
                Err(w) => {
                    let f = self.fault(&mut running, w, "the case");
                    return self.charge(running, f);
                }
            };
            running.progress = Instant::now();
            let reply = match protocol::decode_reply(&line, &running.caps.unobserved) {
                Ok(r) => r,
                Err(e) => {
                    // A reply that cannot be read but names a request in
                    // flight is that request's fault.
                    let named = protocol::request_seq(&line)
                        .and_then(|s| running.inflight.iter().position(|r| r.seq == s));
                    if let Some(sent) = named.and_then(|i| running.inflight.remove(i)) {
                        running.inflight.push_front(sent);
                    }
                    return self.charge(running, e.into());
                }
            };
            let s = crate::engine::reply_seq(&reply);
            let at = match s {
                None => Some(0),
                Some(s) => running.inflight.iter().position(|r| r.seq == s),
            };
            let Some(at) = at else {
                let s = s.unwrap_or(0);
                let answered = self.ready.iter().any(|(r, _)| r.seq == s)
                    || self.last_given.is_some_and(|(g, _)| g == s);
                if answered && !late {
                    let oldest = running.inflight.front().map_or(0, |r| r.seq);
                    let what = format!("a reply to it, read while waiting for request {oldest}");
                    self.blame_answered(s, stray(s, &what));
                    late = true;
                    continue;
                }
                let f = match running.inflight.front() {
                    Some(oldest) if running.inflight.len() == 1 => {
                        crate::engine::wrong_seq(s, oldest.seq)
                    }
                    Some(oldest) => EngineFault::new(
                        FaultKind::Protocol,
                        format!(
                            "the reply has sequence number {s}, which is no request in flight ({}); the oldest request in flight is {}, and the engine owed its reply first",
                            if s > self.seq {
                                "not sent yet"
                            } else {
                                "answered already, or never sent"
                            },
                            oldest.seq
                        ),
                    ),
                    None => crate::engine::wrong_seq(s, 0),
                };
                return self.charge(running, f);
            };
            let Some(sent) = running.inflight.remove(at) else {
                break;
            };
            // A reply comes after its request is read: one read while the
            // engine has not yet read all of its request was written ahead
            // (before the request was sent, at a guess of its `seq`). The
            // engine is stopped, and the request sent again to a new one.
            if let Some(read) = running.pipes.read_by_engine().filter(|&r| r < sent.end) {
                let unread = sent.end - read;
                let what = format!(
                    "a reply to request {}, of which it had not read the last {unread} bytes",
                    sent.seq
                );
                match running.answered {
                    // One request at a time: more output after the last
                    // answer, that answer's fault, as a reply written
                    // before its request is found before it is sent.
                    Some(last) if running.depth == 1 => {
                        self.blame_answered(last, stray(last, &what));
                        self.lost.push_back(sent);
                        self.lost.extend(running.inflight.drain(..));
                        stop(running, false);
                        return;
                    }
                    _ => {
                        running.inflight.push_front(sent);
                        let f = EngineFault::new(
                            FaultKind::Protocol,
                            format!(
                                "the engine wrote {what}: a reply comes after its request is read (written ahead, before the request was sent?)"
                            ),
                        );
                        return self.charge(running, f);
                    }
                }
            }
            running.answered = Some(sent.seq);
            let steps = sent.case.steps.len();
            let mut answer = crate::engine::answer_from_reply(reply, sent.seq, steps);
            // After the last reply owed, nothing more: a second reply, or a
            // reply before its request, is this answer's fault.
            if running.inflight.is_empty() && !matches!(answer, Answer::Fault(_)) {
                if let Some(extra) = running.pipes.pending() {
                    answer = Answer::Fault(stray(sent.seq, &protocol::excerpt(&extra)));
                }
            }
            if let Answer::Fault(f) = &mut answer {
                if f.kind != FaultKind::Reported {
                    // Charged once the engine is stopped, so that its
                    // stderr ends and its last words are read to the end.
                    running.inflight.push_front(sent);
                    let f = std::mem::replace(f, EngineFault::new(f.kind, ""));
                    return self.charge(running, f);
                }
                f.stderr = running
                    .stderr
                    .lock()
                    .map(|t| t.since(sent.mark))
                    .unwrap_or_default();
            }
            self.config.health.count(&answer, self.config.give_up_after);
            self.ready.push((sent, answer));
        }
        if late {
            self.lost.extend(running.inflight.drain(..));
            stop(running, false);
        } else {
            self.running = Some(running);
        }
    }

    /// How many requests to keep in flight: what the engine and the
    /// configuration both allow (1 until a handshake succeeded).
    pub(super) fn depth(&self) -> usize {
        match (&self.caps, self.config.process_per_case) {
            (Some(c), false) => self.config.pipeline.min(c.pipeline).max(1) as usize,
            _ => 1,
        }
    }

    /// Sends a request for `case` now, if the engine accepts several in
    /// flight and there is room; its answer is read when it is asked.
    pub(super) fn ahead(&mut self, case: &Case, edition: Edition) -> bool {
        if self.depth() <= 1 || self.config.stop.load(Ordering::Relaxed) {
            return false;
        }
        if let Some(f) = self.check_strays() {
            self.idle_fault = Some(f);
            return false;
        }
        if self.ensure_running().is_err() {
            return false;
        }
        let lost = self.lost.len();
        let room = self.running.as_ref().is_some_and(|r| {
            r.inflight.len() + lost < r.depth && !r.inflight.iter().any(|s| s.is(case, edition))
        });
        room && self.send(case, edition).is_ok()
    }
}
