//! An external engine: a long-lived process speaking the protocol on its
//! stdin and stdout.
//!
//! Nothing the process does can hang or crash the caller: its stdin and
//! stdout are non-blocking pipes, written and read with `poll(2)` against a
//! deadline (and a line-length limit), and its stderr is drained by a
//! thread into a bounded tail, so a flood there never blocks it. A process
//! that breaks the protocol, times out or dies is killed with its whole
//! process group and started again for the next case; one that cannot
//! complete a handshake three times in a row, or speaks another protocol
//! version, is given up on.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::{Answer, Engine, EngineFault, FaultKind, Reproduce, reaper};
use crate::edition::Edition;
use crate::protocol::{self, Capabilities, Request};
use crate::scenario::Case;

/// How many handshakes in a row may fail before the engine is given up on.
const HANDSHAKE_ATTEMPTS: u32 = 3;
/// How much of the engine's stderr is kept.
const STDERR_TAIL: usize = 4096;
/// How long, after a kill, the end of the engine's stderr is waited for.
const STDERR_GRACE: Duration = Duration::from_secs(2);
/// How many requests are kept in flight by default, for an engine that
/// accepts as many (see [`ProcessConfig::pipeline`]).
pub const DEFAULT_PIPELINE: u32 = 16;

/// How to run an external engine.
#[derive(Clone, Debug)]
pub struct ProcessConfig {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// How long a reply to one case may take.
    pub timeout: Duration,
    /// How long the engine may take to start and answer the hello.
    pub handshake_timeout: Duration,
    /// The longest reply line accepted, in bytes.
    pub max_line: usize,
    /// Start a new process for every case (and stop it after), instead of
    /// one long-lived process: for measuring, and for engines that must.
    pub process_per_case: bool,
    /// Set from outside (Ctrl-C, SIGTERM, SIGHUP) to abandon any wait at once.
    pub stop: Arc<AtomicBool>,
    /// After this many cases in a row that time out or crash the engine,
    /// it is given up on (0: never): an engine that always hangs must not
    /// cost every case's timeout.
    pub give_up_after: u32,
    /// Shared by every engine started from this configuration (and its
    /// clones): faults in a row, and whether the engine was given up on.
    pub health: Arc<Health>,
    /// The most requests kept in flight at once, when the engine declares
    /// it accepts several (`pipeline` in its hello; the smaller limit
    /// holds). 1: one at a time, and the hello offers nothing.
    pub pipeline: u32,
    /// Offer, in the hello, to ask for reproductions of failed cases
    /// (`gate --reproduce`): an engine that writes them says so in its
    /// hello, and [`Engine::reproduce`] asks it.
    pub reproduce: bool,
}

/// What the engines started from one configuration have shown so far:
/// the faults in a row, and why the engine was given up on, if it was.
#[derive(Debug, Default)]
pub struct Health(Mutex<HealthState>);

#[derive(Debug, Default)]
struct HealthState {
    in_a_row: u32,
    given_up: Option<EngineFault>,
}

impl Health {
    fn state(&self) -> std::sync::MutexGuard<'_, HealthState> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Why the engine was given up on, if it was.
    pub fn given_up(&self) -> Option<EngineFault> {
        self.state().given_up.clone()
    }

    fn give_up(&self, fault: EngineFault) {
        self.state().given_up.get_or_insert(fault);
    }

    /// Counts a case's answer: a timeout or a crash adds to the run of
    /// faults in a row, anything else ends it. At `limit` the engine is
    /// given up on.
    fn count(&self, answer: &Answer, limit: u32) {
        let mut s = self.state();
        match answer {
            Answer::Fault(f) if matches!(f.kind, FaultKind::Timeout | FaultKind::Crash) => {
                s.in_a_row = s.in_a_row.saturating_add(1);
                if limit > 0 && s.in_a_row >= limit && s.given_up.is_none() {
                    s.given_up = Some(EngineFault::new(
                        FaultKind::Unusable,
                        format!(
                            "it timed out or crashed on {limit} cases in a row (the last: {f}); \
                             the remaining cases are not sent (see --give-up-after)"
                        ),
                    ));
                }
            }
            Answer::Fault(f) if matches!(f.kind, FaultKind::Interrupted | FaultKind::Unusable) => {}
            _ => s.in_a_row = 0,
        }
    }
}

impl ProcessConfig {
    /// A configuration with the default limits: 10 s per case, 30 s for
    /// the handshake, 16 MiB per line, given up on after 5 cases in a row
    /// that time out or crash, up to [`DEFAULT_PIPELINE`] requests in
    /// flight for an engine that accepts them.
    pub fn new(command: Vec<String>) -> ProcessConfig {
        ProcessConfig {
            command,
            timeout: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(30),
            max_line: 16 << 20,
            process_per_case: false,
            stop: Arc::new(AtomicBool::new(false)),
            give_up_after: 5,
            health: Arc::new(Health::default()),
            pipeline: DEFAULT_PIPELINE,
            reproduce: false,
        }
    }
}

/// Splits an engine command line into a program and its arguments, with
/// POSIX shell quoting (`"a b"`, `'a b'`, `a\ b`) but no expansion.
///
/// ```
/// use ptoracle::engine::split_command;
/// assert_eq!(split_command("python3 'my adapter.py' --fast").unwrap(),
///            ["python3", "my adapter.py", "--fast"]);
/// assert!(split_command("  ").is_err());
/// assert!(split_command("python3 'unclosed").is_err());
/// ```
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let words = shlex::split(line).ok_or_else(|| {
        format!(
            "cannot split the engine command `{line}`: unbalanced quotes or a trailing backslash"
        )
    })?;
    if words.is_empty() {
        return Err("the engine command is empty".into());
    }
    Ok(words)
}

/// An engine process, started on first use and restarted after a fault.
pub struct ProcessEngine {
    config: ProcessConfig,
    running: Option<Running>,
    caps: Option<Capabilities>,
    seq: u64,
    failed_handshakes: u32,
    /// Faults of answers already given, by the number of the answer (see
    /// [`Engine::sent`]): what the engine wrote after an answer, found later.
    strays: Vec<(u64, EngineFault)>,
    /// Answers read (or faults charged) and not yet given, with their
    /// request: replies to requests sent ahead.
    ready: Vec<(Sent, Answer)>,
    /// How many answers to requests have been given.
    given: u64,
    /// The `seq` of the last answer given, and its number.
    last_given: Option<(u64, u64)>,
    /// A fault found while no case was asked (output after the hello,
    /// before any request): the next case's answer.
    idle_fault: Option<EngineFault>,
    /// Requests in flight when their process was stopped for another's
    /// fault, oldest first: sent again before any other.
    lost: VecDeque<Sent>,
}

/// A request sent and not yet answered.
struct Sent {
    seq: u64,
    case: Case,
    edition: Edition,
    /// Where the engine's stderr stood when it was sent.
    mark: u64,
    /// How many bytes the engine's stdin has carried up to the end of this
    /// request: a reply to it is read only once the engine has read that
    /// far (see [`Pipes::read_by_engine`]).
    end: u64,
}

impl Sent {
    fn is(&self, case: &Case, edition: Edition) -> bool {
        self.edition == edition && self.case == *case
    }
}

struct Running {
    child: Child,
    pipes: Pipes,
    stderr: Arc<Mutex<Tail>>,
    /// Ends (its sender is dropped) when stderr has been read to its end.
    drained: mpsc::Receiver<()>,
    caps: Capabilities,
    /// The `seq` of the last reply it gave.
    answered: Option<u64>,
    /// Requests sent to it and not answered, oldest first.
    inflight: VecDeque<Sent>,
    /// When it last showed progress: a reply was read, or a request sent
    /// while none was in flight. A reply is owed within the timeout of it.
    progress: Instant,
    /// How many requests may be in flight (1: one at a time).
    depth: usize,
}

/// Why a read or a write did not complete.
enum Wait {
    TimedOut,
    Stopped,
    Closed,
    TooLong(usize),
    Failed(String),
}

/// The end of a stream, and how much of it there was.
#[derive(Default)]
struct Tail {
    bytes: VecDeque<u8>,
    total: u64,
}

impl Tail {
    fn push(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        self.bytes.extend(chunk);
        let excess = self.bytes.len().saturating_sub(STDERR_TAIL);
        self.bytes.drain(..excess);
    }

    /// What was written since `mark` (a former `total`), as far as kept.
    fn since(&self, mark: u64) -> String {
        let new = (self.total - mark).min(self.bytes.len() as u64) as usize;
        let start = self.bytes.len() - new;
        let bytes: Vec<u8> = self.bytes.range(start..).copied().collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if (self.total - mark) as usize > new {
            format!("…{text}")
        } else {
            text
        }
    }
}

impl ProcessEngine {
    /// An engine that will be started by the first call.
    pub fn new(config: ProcessConfig) -> ProcessEngine {
        ProcessEngine {
            config,
            running: None,
            caps: None,
            seq: 0,
            failed_handshakes: 0,
            strays: Vec::new(),
            ready: Vec::new(),
            given: 0,
            last_given: None,
            idle_fault: None,
            lost: VecDeque::new(),
        }
    }

    /// Whether the engine wrote anything since its last answer: a second
    /// reply, or a reply before its request. That answer's case is then a
    /// protocol error, and the engine is restarted. Written after the
    /// handshake, before any answer, it is the fault returned, for the
    /// case about to be asked.
    fn check_strays(&mut self) -> Option<EngineFault> {
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
    fn blame_answered(&mut self, seq: u64, fault: EngineFault) {
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

    /// Why the engine was given up on, if it was (by this engine or by
    /// another started from the same configuration).
    pub fn given_up(&self) -> Option<EngineFault> {
        self.config.health.given_up()
    }

    /// Starts the process and shakes hands, unless it is running.
    fn ensure_running(&mut self) -> Result<(), EngineFault> {
        if let Some(f) = self.given_up() {
            return Err(EngineFault::not_sent(
                FaultKind::Unusable,
                format_args!("the engine was given up on ({f})"),
            ));
        }
        if self.running.is_some() {
            return Ok(());
        }
        match self.start() {
            Ok(r) => {
                self.failed_handshakes = 0;
                self.caps = Some(r.caps.clone());
                self.running = Some(r);
                Ok(())
            }
            Err(f) => {
                self.failed_handshakes += 1;
                let fatal = matches!(f.kind, FaultKind::Spawn | FaultKind::Version)
                    || self.failed_handshakes >= HANDSHAKE_ATTEMPTS;
                if fatal && f.kind != FaultKind::Interrupted {
                    self.config.health.give_up(f.clone());
                }
                Err(f)
            }
        }
    }

    fn start(&mut self) -> Result<Running, EngineFault> {
        let (program, args) = self
            .config
            .command
            .split_first()
            .ok_or_else(|| EngineFault::new(FaultKind::Spawn, "the engine command is empty"))?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own process group, so that killing it kills what it started
            // and a Ctrl-C in the terminal reaches ptoracle alone.
            command.process_group(0);
        }
        let mut child = reaper::spawn(&mut command).map_err(|e| {
            EngineFault::new(
                FaultKind::Spawn,
                format!("cannot start `{}`: {e}", self.config.command.join(" ")),
            )
        })?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill(&mut child);
            return Err(EngineFault::new(
                FaultKind::Spawn,
                "the engine's pipes could not be opened",
            ));
        };
        let pipes = match Pipes::new(stdin, stdout, self.config.max_line, child.id()) {
            Ok(p) => p,
            Err(e) => {
                kill(&mut child);
                return Err(EngineFault::new(
                    FaultKind::Spawn,
                    format!("the engine's pipes could not be set up: {e}"),
                ));
            }
        };
        let tail = Arc::new(Mutex::new(Tail::default()));
        let drain = Arc::clone(&tail);
        let (done, drained) = mpsc::channel::<()>();
        thread::spawn(move || {
            drain_stderr(stderr, &drain);
            drop(done);
        });
        let mut running = Running {
            child,
            pipes,
            stderr: tail,
            drained,
            caps: Capabilities::default(),
            answered: None,
            inflight: VecDeque::new(),
            progress: Instant::now(),
            depth: 1,
        };
        let offer = if self.config.process_per_case {
            1
        } else {
            self.config.pipeline
        };
        let hello = protocol::encode(&protocol::hello_offering_all(offer, self.config.reproduce));
        let answer = self.exchange(
            &mut running,
            hello,
            self.config.handshake_timeout,
            "the handshake",
        );
        let result = answer.and_then(|line| {
            protocol::decode_engine_hello(&line).map_err(|e| {
                let mut f = EngineFault::from(e);
                if f.kind != FaultKind::Version {
                    f.message = format!("bad handshake: {}", f.message);
                    f.kind = FaultKind::Handshake;
                }
                f
            })
        });
        match result {
            Ok(caps) => {
                running.depth = offer.min(caps.pipeline).max(1) as usize;
                running.caps = caps;
                Ok(running)
            }
            Err(mut f) => {
                if f.kind == FaultKind::Crash {
                    f.kind = FaultKind::Handshake;
                }
                let tail = stop_and_drain(running, None);
                f.stderr = tail.lock().map(|t| t.since(0)).unwrap_or_default();
                Err(f)
            }
        }
    }

    /// Sends one line and waits for one line back.
    fn exchange(
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
    fn fault(&self, running: &mut Running, w: Wait, during: &str) -> EngineFault {
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
    fn ask(&mut self, case: &Case, edition: Edition, meanwhile: &mut dyn FnMut()) -> Answer {
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
    fn give(&mut self, seq: u64, answer: Answer) -> Answer {
        self.given += 1;
        self.last_given = Some((seq, self.given));
        answer
    }

    /// Sends a request for `case`, once there is room in flight for it.
    fn send(&mut self, case: &Case, edition: Edition) -> Result<u64, EngineFault> {
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
    fn transmit(&mut self, case: &Case, edition: Edition) -> Result<u64, EngineFault> {
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
    fn collect(&mut self, want: Option<u64>) {
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
            let s = super::reply_seq(&reply);
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
                    Some(oldest) if running.inflight.len() == 1 => super::wrong_seq(s, oldest.seq),
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
                    None => super::wrong_seq(s, 0),
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
            let mut answer = super::answer_from_reply(reply, sent.seq, steps);
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

    /// Charges `fault` to the oldest request in flight (the one the engine
    /// owed a reply first) and stops the engine; the other requests in
    /// flight are lost, and sent again when asked.
    fn charge(&mut self, mut running: Running, mut fault: EngineFault) {
        let oldest = running.inflight.pop_front();
        self.lost.extend(running.inflight.drain(..));
        let closed = fault.kind == FaultKind::Crash;
        let deadline = running.progress + self.config.timeout;
        let exit_by = closed.then_some((deadline, &*self.config.stop));
        let tail = stop_and_drain(running, exit_by);
        let Some(oldest) = oldest else {
            return;
        };
        if fault.stderr.is_empty() {
            fault.stderr = tail
                .lock()
                .map(|t| t.since(oldest.mark))
                .unwrap_or_default();
        }
        let answer = Answer::Fault(fault);
        self.config.health.count(&answer, self.config.give_up_after);
        self.ready.push((oldest, answer));
    }

    /// How many requests to keep in flight: what the engine and the
    /// configuration both allow (1 until a handshake succeeded).
    fn depth(&self) -> usize {
        match (&self.caps, self.config.process_per_case) {
            (Some(c), false) => self.config.pipeline.min(c.pipeline).max(1) as usize,
            _ => 1,
        }
    }

    /// Sends a request for `case` now, if the engine accepts several in
    /// flight and there is room; its answer is read when it is asked.
    fn ahead(&mut self, case: &Case, edition: Edition) -> bool {
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

    /// Asks the engine for a reproduction: once the requests in flight are
    /// answered (their answers kept for when they are asked), one request
    /// and its one reply, within the timeout. A fault stops the engine
    /// (the next case starts a new one) and is the note returned.
    fn ask_reproduction(&mut self, ask: &Reproduce<'_>) -> Result<String, String> {
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
        let wire = |run: &crate::resolver::Run| -> Vec<_> {
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
                    other => format!("for request {}", super::reply_seq(&other).unwrap_or(0)),
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

    /// Stops the engine: `bye`, then a short wait, then a kill.
    pub fn shutdown(&mut self) {
        if let Some(r) = self.running.take() {
            stop(r, true);
        }
    }
}

impl Engine for ProcessEngine {
    fn capabilities(&mut self) -> Result<Capabilities, EngineFault> {
        self.ensure_running()?;
        let caps = self.caps.clone().unwrap_or_default();
        if self.config.process_per_case {
            self.shutdown();
        }
        Ok(caps)
    }

    fn run(&mut self, case: &Case, edition: Edition) -> Answer {
        self.ask(case, edition, &mut || {})
    }

    fn line_limit(&self) -> Option<usize> {
        Some(self.config.max_line)
    }

    fn run_alongside(
        &mut self,
        case: &Case,
        edition: Edition,
        meanwhile: &mut dyn FnMut(),
    ) -> Answer {
        self.ask(case, edition, meanwhile)
    }

    fn sent(&self) -> u64 {
        self.given
    }

    fn pipeline(&mut self) -> usize {
        self.depth()
    }

    fn send_ahead(&mut self, case: &Case, edition: Edition) -> bool {
        self.ahead(case, edition)
    }

    fn strays(&mut self) -> Vec<(u64, EngineFault)> {
        let _ = self.check_strays();
        std::mem::take(&mut self.strays)
    }

    fn reproduce(&mut self, ask: &Reproduce<'_>) -> Result<String, String> {
        let answer = self.ask_reproduction(ask);
        if self.config.process_per_case {
            self.shutdown();
        }
        answer
    }
}

/// The fault of the answer to request `seq` when the engine wrote `what`
/// after it.
fn stray(seq: u64, what: &str) -> EngineFault {
    EngineFault::new(
        FaultKind::Protocol,
        format!(
            "after its reply to request {seq} the engine wrote more ({what}): a second reply, or a reply before its request; every request gets one reply line"
        ),
    )
}

impl Drop for ProcessEngine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Ends a process, then waits until its stderr is read to the end (at
/// most [`STDERR_GRACE`]: a descendant the kill missed may hold it open);
/// returns what was read. A process that closed its output is on its way
/// out: it may exit by itself until `exit_by`'s deadline (its last words
/// written after its output closed are read too) or its flag (Ctrl-C), and
/// is killed then.
fn stop_and_drain(mut r: Running, exit_by: Option<(Instant, &AtomicBool)>) -> Arc<Mutex<Tail>> {
    if let Some((deadline, stop)) = exit_by {
        wait_exit(&mut r.child, deadline, stop);
    }
    let tail = Arc::clone(&r.stderr);
    let drained = stop(r, false);
    let _ = drained.recv_timeout(STDERR_GRACE);
    tail
}

/// Ends a process: politely (`bye`, closed stdin, up to a second to exit)
/// or not, and always with a kill of its group at the end, then reaps it.
/// Returns what ends when its stderr has been read to the end.
fn stop(mut r: Running, politely: bool) -> mpsc::Receiver<()> {
    if politely {
        let soon = Instant::now() + Duration::from_millis(200);
        let _ = r.pipes.send(
            &protocol::encode(&Request::Bye),
            soon,
            &AtomicBool::new(false),
        );
        r.pipes.close_input();
        let never = AtomicBool::new(false);
        wait_exit(
            &mut r.child,
            Instant::now() + Duration::from_secs(1),
            &never,
        );
    }
    kill(&mut r.child);
    r.drained
}

/// Waits until `child` exits, `deadline` passes or `stop` is set. Polls with a growing
/// pause: a prompt exit is seen at once (what makes --process-per-case a
/// fair measure), a slow one costs little.
fn wait_exit(child: &mut Child, deadline: Instant, stop: &AtomicBool) {
    let mut pause = Duration::from_micros(50);
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        thread::sleep(pause.min(deadline.saturating_duration_since(Instant::now())));
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

fn kill(child: &mut Child) {
    reaper::kill(child);
    // What it started and left behind is now this process's (a subreaper's).
    reaper::sweep();
}

/// How the child ended, in words, after its output closed.
fn exit_status(child: &mut Child) -> String {
    let deadline = Instant::now() + Duration::from_millis(500);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                return match status.code() {
                    Some(c) => format!("exited with status {c}"),
                    None => format!("was killed ({status})"),
                };
            }
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
            _ => return "closed its output".into(),
        }
    }
}

fn show(d: Duration) -> String {
    if d.as_millis() % 1000 == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

/// The engine's stdin and stdout, non-blocking, with a read buffer.
struct Pipes {
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    buf: Vec<u8>,
    /// Where to look for the next newline in `buf`.
    scanned: usize,
    max: usize,
    /// The engine's pid: its exit ends a wait even while a descendant
    /// holds its stdout open.
    pid: u32,
    /// How many bytes have been written to the engine's stdin.
    written: u64,
}

impl Pipes {
    fn new(stdin: ChildStdin, stdout: ChildStdout, max: usize, pid: u32) -> std::io::Result<Pipes> {
        nonblocking(stdin.as_raw_fd())?;
        nonblocking(stdout.as_raw_fd())?;
        Ok(Pipes {
            stdin: Some(stdin),
            stdout,
            buf: Vec::with_capacity(64 * 1024),
            scanned: 0,
            max,
            pid,
            written: 0,
        })
    }

    fn close_input(&mut self) {
        self.stdin = None;
    }

    /// How many of the bytes written to the engine's stdin it has read:
    /// those written less those still in the pipe (`FIONREAD`, which Linux
    /// answers on a pipe's writing end too). `None` where that cannot be
    /// known.
    fn read_by_engine(&self) -> Option<u64> {
        let stdin = self.stdin.as_ref()?;
        let mut unread: libc::c_int = 0;
        // SAFETY: ioctl(2) FIONREAD on a pipe end this process owns, which
        // writes one int, borrowed for the call.
        let r = unsafe {
            libc::ioctl(
                stdin.as_raw_fd(),
                libc::FIONREAD,
                &mut unread as *mut libc::c_int,
            )
        };
        let unread = u64::try_from(unread).ok().filter(|_| r == 0)?;
        Some(self.written.saturating_sub(unread))
    }

    /// Writes all of `bytes`. A closed pipe is not an error here: the
    /// engine has exited, and reading its answer says so. While the pipe
    /// is full, what the engine writes is read into the buffer: with
    /// several requests in flight, an engine blocked on writing its
    /// replies must not block this write.
    fn send(&mut self, bytes: &[u8], deadline: Instant, stop: &AtomicBool) -> Result<(), Wait> {
        let Some(stdin) = &mut self.stdin else {
            return Ok(());
        };
        let mut done = 0;
        while done < bytes.len() {
            match stdin.write(&bytes[done..]) {
                Ok(n) => {
                    done += n;
                    self.written = self.written.saturating_add(n as u64);
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    let out = (self.buf.len() <= self.max).then(|| self.stdout.as_raw_fd());
                    wait_for_either(stdin.as_raw_fd(), out, self.pid, deadline, stop)?;
                    if out.is_some() {
                        let mut chunk = [0u8; 16 * 1024];
                        if let Ok(n) = self.stdout.read(&mut chunk) {
                            self.buf.extend_from_slice(&chunk[..n]);
                        }
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => return Ok(()),
            }
        }
        Ok(())
    }

    /// What the engine has written and ptoracle not yet read, if it is more
    /// than blank: read without waiting.
    fn pending(&mut self) -> Option<Vec<u8>> {
        let mut chunk = [0u8; 4096];
        while self.buf.len() <= self.max {
            match self.stdout.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        self.scanned = 0;
        if self.buf.iter().all(u8::is_ascii_whitespace) {
            self.buf.clear();
            return None;
        }
        Some(std::mem::take(&mut self.buf))
    }

    /// The next non-blank line, without its newline.
    fn line(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<Vec<u8>, Wait> {
        loop {
            if let Some(i) = self.buf[self.scanned..].iter().position(|&b| b == b'\n') {
                let end = self.scanned + i;
                let mut line: Vec<u8> = self.buf.drain(..=end).collect();
                self.scanned = 0;
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.len() > self.max {
                    return Err(Wait::TooLong(self.max));
                }
                // Blank lines between messages are tolerated.
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                return Ok(line);
            }
            self.scanned = self.buf.len();
            if self.buf.len() > self.max {
                return Err(Wait::TooLong(self.max));
            }
            let len = self.buf.len();
            self.buf.resize(len + 64 * 1024, 0);
            let read = self.stdout.read(&mut self.buf[len..]);
            self.buf.truncate(len + *read.as_ref().unwrap_or(&0));
            match read {
                Ok(0) => return Err(Wait::Closed),
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    wait_for(
                        self.stdout.as_raw_fd(),
                        libc::POLLIN,
                        self.pid,
                        deadline,
                        stop,
                    )?;
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(Wait::Failed(e.to_string())),
            }
        }
    }
}

fn nonblocking(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: fcntl(2) on a file descriptor this process owns (a pipe end
    // of its child), with flags only; no memory is handed over.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Waits until `input` is ready for writing or `output` (if given) for
/// reading, as [`wait_for`].
fn wait_for_either(
    input: RawFd,
    output: Option<RawFd>,
    pid: u32,
    deadline: Instant,
    stop: &AtomicBool,
) -> Result<(), Wait> {
    let mut fds = vec![libc::pollfd {
        fd: input,
        events: libc::POLLOUT,
        revents: 0,
    }];
    if let Some(fd) = output {
        fds.push(libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        });
    }
    wait_for_any(&mut fds, pid, deadline, stop)
}

/// Waits until `fd` is ready for `events`, the deadline passes, `stop` is
/// set or the engine `pid` has exited (both checked every 100 ms).
fn wait_for(
    fd: RawFd,
    events: libc::c_short,
    pid: u32,
    deadline: Instant,
    stop: &AtomicBool,
) -> Result<(), Wait> {
    let mut p = [libc::pollfd {
        fd,
        events,
        revents: 0,
    }];
    wait_for_any(&mut p, pid, deadline, stop)
}

/// [`wait_for`] on several descriptors: until any is ready.
fn wait_for_any(
    fds: &mut [libc::pollfd],
    pid: u32,
    deadline: Instant,
    stop: &AtomicBool,
) -> Result<(), Wait> {
    loop {
        if stop.load(Ordering::Relaxed) {
            return Err(Wait::Stopped);
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(Wait::TimedOut);
        }
        let ms = left.min(Duration::from_millis(100)).as_millis().max(1) as libc::c_int;
        for p in fds.iter_mut() {
            p.revents = 0;
        }
        // SAFETY: poll(2) on pollfds borrowed for the call, their count
        // being the slice's length.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
        if n > 0 {
            // Ready, or hung up / in error: the next read or write says which.
            return Ok(());
        }
        // Nothing to read or write, and the engine is gone: a descendant
        // that holds the pipe open must not turn its exit into a timeout.
        // (What it wrote before exiting was ready, and read, first.)
        if n == 0 && reaper::has_exited(pid) {
            return Err(Wait::Closed);
        }
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() != ErrorKind::Interrupted {
                return Err(Wait::Failed(e.to_string()));
            }
        }
    }
}

fn drain_stderr(mut stderr: impl Read, tail: &Mutex<Tail>) {
    let mut buf = [0u8; 8192];
    loop {
        match stderr.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                if let Ok(mut t) = tail.lock() {
                    t.push(&buf[..n]);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}
