//! An external engine: a long-lived process speaking the protocol on its
//! stdin and stdout.
//!
//! Nothing the process does can hang or crash the caller: its stdout is
//! read by a thread that cuts lines at a length limit, its stderr is
//! drained by another into a bounded tail, its stdin is written by a third,
//! and the caller only ever waits on a channel with a deadline. A process
//! that breaks the protocol, times out or dies is killed with its whole
//! process group and started again for the next case; one that cannot
//! complete a handshake three times in a row, or speaks another protocol
//! version, is given up on.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::{Answer, Engine, EngineFault, FaultKind, run_from_wire};
use crate::edition::Edition;
use crate::protocol::{self, Capabilities, Reply, Request};
use crate::scenario::Case;

/// How many handshakes in a row may fail before the engine is given up on.
const HANDSHAKE_ATTEMPTS: u32 = 3;
/// How much of the engine's stderr is kept.
const STDERR_TAIL: usize = 4096;

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
    /// Set from outside (Ctrl-C) to abandon any wait at once.
    pub stop: Arc<AtomicBool>,
}

impl ProcessConfig {
    /// A configuration with the default limits: 10 s per case, 30 s for
    /// the handshake, 16 MiB per line.
    pub fn new(command: Vec<String>) -> ProcessConfig {
        ProcessConfig {
            command,
            timeout: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(30),
            max_line: 16 << 20,
            process_per_case: false,
            stop: Arc::new(AtomicBool::new(false)),
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
    given_up: Option<EngineFault>,
}

struct Running {
    child: Child,
    input: Option<Sender<Vec<u8>>>,
    lines: Receiver<Event>,
    stderr: Arc<Mutex<Tail>>,
    caps: Capabilities,
}

enum Event {
    Line(Vec<u8>),
    TooLong(usize),
    Closed,
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
            given_up: None,
        }
    }

    /// Why the engine was given up on, if it was.
    pub fn given_up(&self) -> Option<&EngineFault> {
        self.given_up.as_ref()
    }

    /// Starts the process and shakes hands, unless it is running.
    fn ensure_running(&mut self) -> Result<(), EngineFault> {
        if let Some(f) = &self.given_up {
            return Err(EngineFault {
                kind: FaultKind::Unusable,
                message: format!(
                    "{} the engine was given up on ({f})",
                    crate::gate::report::NOT_SENT
                ),
                stderr: String::new(),
            });
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
                    self.given_up = Some(f.clone());
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
        let mut child = command.spawn().map_err(|e| {
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
        let tail = Arc::new(Mutex::new(Tail::default()));
        let (line_tx, lines) = mpsc::channel();
        let max_line = self.config.max_line;
        thread::spawn(move || read_lines(stdout, max_line, &line_tx));
        let drain = Arc::clone(&tail);
        thread::spawn(move || drain_stderr(stderr, &drain));
        let (input, input_rx) = mpsc::channel::<Vec<u8>>();
        thread::spawn(move || write_input(stdin, &input_rx));
        let mut running = Running {
            child,
            input: Some(input),
            lines,
            stderr: tail,
            caps: Capabilities::default(),
        };
        let hello = protocol::encode(&protocol::hello());
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
                running.caps = caps;
                Ok(running)
            }
            Err(mut f) => {
                if f.kind == FaultKind::Crash {
                    f.kind = FaultKind::Handshake;
                }
                f.stderr = running
                    .stderr
                    .lock()
                    .map(|t| t.since(0))
                    .unwrap_or_default();
                stop(running, false);
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
        if let Some(input) = &running.input {
            // A closed channel means the writer saw the pipe break: the
            // reader will report the exit.
            let _ = input.send(line);
        }
        let deadline = Instant::now() + timeout;
        loop {
            if self.config.stop.load(Ordering::Relaxed) {
                return Err(EngineFault::new(
                    FaultKind::Interrupted,
                    format!("interrupted during {during}"),
                ));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(EngineFault::new(
                    FaultKind::Timeout,
                    format!("no answer within {} during {during}", show(timeout)),
                ));
            }
            match running
                .lines
                .recv_timeout(left.min(Duration::from_millis(100)))
            {
                Ok(Event::Line(l)) => return Ok(l),
                Ok(Event::TooLong(n)) => {
                    return Err(EngineFault::new(
                        FaultKind::TooLong,
                        format!(
                            "a line of more than {n} bytes during {during} (the limit; see --max-line)"
                        ),
                    ));
                }
                Ok(Event::Failed(e)) => {
                    return Err(EngineFault::new(
                        FaultKind::Crash,
                        format!("reading the engine's output failed during {during}: {e}"),
                    ));
                }
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let status = exit_status(&mut running.child);
                    return Err(EngineFault::new(
                        FaultKind::Crash,
                        format!("the engine {status} during {during}"),
                    ));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    fn ask(&mut self, case: &Case, edition: Edition) -> Answer {
        if let Err(f) = self.ensure_running() {
            return Answer::Fault(f);
        }
        let Some(mut running) = self.running.take() else {
            return Answer::Fault(EngineFault::new(
                FaultKind::Spawn,
                "the engine is not running",
            ));
        };
        self.seq += 1;
        let seq = self.seq;
        let mark = running.stderr.lock().map(|t| t.total).unwrap_or(0);
        let request = Request::Run {
            seq,
            edition: edition.id().to_string(),
            case: Box::new(protocol::without_expectations(case)),
        };
        let reply = self
            .exchange(
                &mut running,
                protocol::encode(&request),
                self.config.timeout,
                "the case",
            )
            .and_then(|line| {
                protocol::decode_reply(&line, &running.caps.unobserved).map_err(EngineFault::from)
            });
        let answer = match reply {
            Ok(Reply::Result {
                seq: s,
                steps,
                error,
            }) if s == seq => {
                let observed: Result<Vec<_>, _> =
                    steps.into_iter().map(protocol::from_wire).collect();
                match observed {
                    Ok(obs) => match run_from_wire(obs, error, case.steps.len()) {
                        Ok(run) => Answer::Ran(run),
                        Err(f) => Answer::Fault(f),
                    },
                    Err(e) => Answer::Fault(e.into()),
                }
            }
            Ok(Reply::Unsupported { seq: s, reason }) if s == seq => Answer::Unsupported(reason),
            Ok(Reply::Error { seq: s, message }) if s.is_none_or(|s| s == seq) => {
                Answer::Fault(EngineFault::new(
                    FaultKind::Reported,
                    format!("the engine reports: {message}"),
                ))
            }
            Ok(Reply::Result { seq: s, .. } | Reply::Unsupported { seq: s, .. })
            | Ok(Reply::Error { seq: Some(s), .. }) => Answer::Fault(wrong_seq(s, seq)),
            Ok(Reply::Error { seq: None, .. }) => Answer::Fault(wrong_seq(0, seq)),
            Err(f) => Answer::Fault(f),
        };
        let keep = match &answer {
            Answer::Ran(_) | Answer::Unsupported(_) => true,
            Answer::Fault(f) => f.kind == FaultKind::Reported,
        };
        let answer = match answer {
            Answer::Fault(mut f) => {
                // Give the engine a moment to finish its last words.
                if !keep {
                    thread::sleep(Duration::from_millis(20));
                }
                f.stderr = running
                    .stderr
                    .lock()
                    .map(|t| t.since(mark))
                    .unwrap_or_default();
                Answer::Fault(f)
            }
            other => other,
        };
        if keep && !self.config.process_per_case {
            self.running = Some(running);
        } else {
            stop(running, keep);
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
        self.ask(case, edition)
    }
}

impl Drop for ProcessEngine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Ends a process: politely (`bye`, closed stdin, up to a second to exit)
/// or not, and always with a kill of its group at the end, then reaps it.
fn stop(mut r: Running, politely: bool) {
    if politely {
        if let Some(input) = r.input.take() {
            let _ = input.send(protocol::encode(&Request::Bye));
            drop(input);
        }
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = r.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
    kill(&mut r.child);
}

fn kill(child: &mut Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group
            // the child leads (it was spawned with process_group(0)); it has
            // no memory-safety preconditions.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
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

fn wrong_seq(got: u64, want: u64) -> EngineFault {
    EngineFault::new(
        FaultKind::Protocol,
        format!("the reply has sequence number {got}; the request had {want}"),
    )
}

fn show(d: Duration) -> String {
    if d.as_millis() % 1000 == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}

/// Reads lines of at most `max` bytes; stops at the first longer one.
fn read_lines(stdout: impl Read, max: usize, out: &Sender<Event>) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line = Vec::new();
    loop {
        let (done, used) = match reader.fill_buf() {
            Ok([]) => {
                if !line.is_empty() {
                    let _ = out.send(Event::Line(std::mem::take(&mut line)));
                }
                let _ = out.send(Event::Closed);
                return;
            }
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    line.extend_from_slice(&buf[..i]);
                    (true, i + 1)
                }
                None => {
                    line.extend_from_slice(buf);
                    (false, buf.len())
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = out.send(Event::Failed(e.to_string()));
                return;
            }
        };
        reader.consume(used);
        if line.len() > max {
            let _ = out.send(Event::TooLong(max));
            return;
        }
        if done {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let l = std::mem::take(&mut line);
            // Blank lines between messages are tolerated.
            if l.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if out.send(Event::Line(l)).is_err() {
                return;
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

fn write_input(mut stdin: impl Write, lines: &Receiver<Vec<u8>>) {
    while let Ok(line) = lines.recv() {
        if stdin.write_all(&line).and_then(|()| stdin.flush()).is_err() {
            return;
        }
    }
}
