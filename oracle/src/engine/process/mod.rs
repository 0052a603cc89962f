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
use ptoracle_core::edition::Edition;
use ptoracle_core::scenario::Case;
use ptoracle_protocol::{self as protocol, Capabilities, Request};

mod launch;
mod pipes;
mod reproduce;
mod requests;
mod stderr;

use launch::{exit_status, show, stop};
use pipes::Pipes;
use stderr::Tail;

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

    /// Why the engine was given up on, if it was (by this engine or by
    /// another started from the same configuration).
    pub fn given_up(&self) -> Option<EngineFault> {
        self.config.health.given_up()
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
