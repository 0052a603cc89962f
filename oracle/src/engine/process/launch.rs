//! Starting the engine process (the handshake), and stopping it: politely
//! or by killing its process group, its stderr drained to the end.

use super::stderr::drain_stderr;
use super::*;

impl ProcessEngine {
    /// Starts the process and shakes hands, unless it is running.
    pub(super) fn ensure_running(&mut self) -> Result<(), EngineFault> {
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

    pub(super) fn start(&mut self) -> Result<Running, EngineFault> {
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

    /// Charges `fault` to the oldest request in flight (the one the engine
    /// owed a reply first) and stops the engine; the other requests in
    /// flight are lost, and sent again when asked.
    pub(super) fn charge(&mut self, mut running: Running, mut fault: EngineFault) {
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
}

/// Ends a process, then waits until its stderr is read to the end (at
/// most [`STDERR_GRACE`]: a descendant the kill missed may hold it open);
/// returns what was read. A process that closed its output is on its way
/// out: it may exit by itself until `exit_by`'s deadline (its last words
/// written after its output closed are read too) or its flag (Ctrl-C), and
/// is killed then.
pub(super) fn stop_and_drain(
    mut r: Running,
    exit_by: Option<(Instant, &AtomicBool)>,
) -> Arc<Mutex<Tail>> {
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
pub(super) fn stop(mut r: Running, politely: bool) -> mpsc::Receiver<()> {
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
pub(super) fn wait_exit(child: &mut Child, deadline: Instant, stop: &AtomicBool) {
    let mut pause = Duration::from_micros(50);
    while Instant::now() < deadline && !stop.load(Ordering::Relaxed) {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        thread::sleep(pause.min(deadline.saturating_duration_since(Instant::now())));
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

pub(super) fn kill(child: &mut Child) {
    reaper::kill(child);
    // What it started and left behind is now this process's (a subreaper's).
    reaper::sweep();
}

/// How the child ended, in words, after its output closed.
pub(super) fn exit_status(child: &mut Child) -> String {
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

pub(super) fn show(d: Duration) -> String {
    if d.as_millis() % 1000 == 0 {
        format!("{}s", d.as_secs())
    } else {
        format!("{}ms", d.as_millis())
    }
}
