//! The engine's stdin and stdout as non-blocking pipes, written and read
//! with `poll(2)` against a deadline.

use super::*;

/// The engine's stdin and stdout, non-blocking, with a read buffer.
pub(super) struct Pipes {
    pub(super) stdin: Option<ChildStdin>,
    pub(super) stdout: ChildStdout,
    pub(super) buf: Vec<u8>,
    /// Where to look for the next newline in `buf`.
    pub(super) scanned: usize,
    pub(super) max: usize,
    /// The engine's pid: its exit ends a wait even while a descendant
    /// holds its stdout open.
    pub(super) pid: u32,
    /// How many bytes have been written to the engine's stdin.
    pub(super) written: u64,
}

impl Pipes {
    pub(super) fn new(
        stdin: ChildStdin,
        stdout: ChildStdout,
        max: usize,
        pid: u32,
    ) -> std::io::Result<Pipes> {
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

    pub(super) fn close_input(&mut self) {
        self.stdin = None;
    }

    /// How many of the bytes written to the engine's stdin it has read:
    /// those written less those still in the pipe (`FIONREAD`, which Linux
    /// answers on a pipe's writing end too). `None` where that cannot be
    /// known.
    pub(super) fn read_by_engine(&self) -> Option<u64> {
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
    pub(super) fn send(
        &mut self,
        bytes: &[u8],
        deadline: Instant,
        stop: &AtomicBool,
    ) -> Result<(), Wait> {
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
    pub(super) fn pending(&mut self) -> Option<Vec<u8>> {
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
    pub(super) fn line(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<Vec<u8>, Wait> {
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

pub(super) fn nonblocking(fd: RawFd) -> std::io::Result<()> {
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
pub(super) fn wait_for_either(
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
pub(super) fn wait_for(
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
pub(super) fn wait_for_any(
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
