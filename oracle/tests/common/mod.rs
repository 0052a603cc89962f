//! Pieces the integration tests that run the `ptoracle` binary share:
//! the repository, scratch directories, and waiting for observable events
//! (a process's exit, a file, a line), never for a fixed time.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus};
use std::sync::mpsc;
use std::time::Duration;

/// The repository root (where `rulings/` is).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_path_buf()
}

/// A fresh, empty directory for one test: `theme` names the test file,
/// `name` the use.
pub fn scratch(theme: &str, name: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "ptoracle-{theme}-{}-{n}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits for `child` to exit; kills it and fails the test if it has not
/// exited within `limit` (a bound on a hang, far above any normal run:
/// no test result depends on it).
pub fn wait_within(mut child: Child, limit: Duration, what: &str) -> ExitStatus {
    let pid = child.id();
    ended_within(pid, limit, what, move || child.wait())
}

/// Runs `command` (its stdout and stderr captured) to its end; kills it
/// and fails the test if it has not exited within `limit` (a bound on a
/// hang, far above any normal run: no test result depends on it), so that
/// a command that blocks (on a FIFO, say) fails the test, not hangs it.
pub fn output_within(mut command: std::process::Command, limit: Duration) -> std::process::Output {
    use std::process::Stdio;
    let what = format!("{command:?}");
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let pid = child.id();
    ended_within(pid, limit, &what, move || child.wait_with_output())
}

/// Runs `end` (a wait for the process `pid` to exit) on a thread of its
/// own; kills the process and fails the test if it has not returned
/// within `limit`.
fn ended_within<T: Send + 'static>(
    pid: u32,
    limit: Duration,
    what: &str,
    end: impl FnOnce() -> std::io::Result<T> + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(end());
    });
    match rx.recv_timeout(limit) {
        Ok(ended) => ended.expect("the process can be waited for"),
        Err(_) => {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            panic!("{what} did not finish within {limit:?}");
        }
    }
}

/// Waits for `event` (a blocking wait for something another process
/// does) on a thread of its own; fails the test if it has not happened
/// within `limit` (a bound on a hang, far above any normal run: no test
/// result depends on it).
fn within<T: Send + 'static>(
    what: &str,
    limit: Duration,
    event: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(event());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("{what} within {limit:?}"))
}

/// A named pipe at `path`, for a process to write a mark to (see
/// [`read_mark`]).
#[cfg(unix)]
pub fn mark_pipe(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).expect("no NUL in the path");
    // SAFETY: `c` is a NUL-terminated path that lives through the call.
    let made = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(made, 0, "mkfifo {}", path.display());
}

/// Blocks until a process has written its mark to the named pipe `path`
/// (made by [`mark_pipe`]) and closed it; returns the mark.
#[cfg(unix)]
pub fn read_mark(path: &Path, limit: Duration) -> String {
    let p = path.to_path_buf();
    within(
        &format!("a mark written to {}", path.display()),
        limit,
        move || std::fs::read_to_string(p).expect("the mark can be read"),
    )
}

/// Watches a directory for files moved or written into it (inotify): made
/// before the process that writes them starts, so that none is missed.
#[cfg(target_os = "linux")]
pub struct DirWatch {
    fd: std::os::fd::OwnedFd,
    dir: PathBuf,
}

#[cfg(target_os = "linux")]
impl DirWatch {
    /// Watches `dir` (made if missing).
    pub fn new(dir: &Path) -> DirWatch {
        use std::os::fd::FromRawFd;
        use std::os::unix::ffi::OsStrExt;
        std::fs::create_dir_all(dir).unwrap();
        // SAFETY: plain system calls; the descriptor is owned from here on.
        let fd = unsafe { libc::inotify_init1(libc::IN_CLOEXEC) };
        assert!(fd >= 0, "inotify_init1");
        let fd = unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) };
        let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).expect("no NUL in the path");
        let mask = libc::IN_MOVED_TO | libc::IN_CLOSE_WRITE;
        // SAFETY: `fd` is an inotify descriptor and `c` a NUL-terminated path.
        let w = unsafe {
            libc::inotify_add_watch(std::os::fd::AsRawFd::as_raw_fd(&fd), c.as_ptr(), mask)
        };
        assert!(w >= 0, "inotify_add_watch {}", dir.display());
        DirWatch {
            fd,
            dir: dir.to_path_buf(),
        }
    }

    /// Blocks until the directory holds an entry (one there already, or
    /// the next written or moved in).
    pub fn wait_for_entry(self, limit: Duration) {
        if std::fs::read_dir(&self.dir).map_or(0, |d| d.count()) > 0 {
            return;
        }
        let what = format!("something written in {}", self.dir.display());
        within(&what, limit, move || {
            let mut f = std::fs::File::from(self.fd);
            let mut event = [0u8; 4096];
            // One read blocks until an event comes: what is waited for.
            let n = std::io::Read::read(&mut f, &mut event).expect("inotify can be read");
            assert!(n > 0, "an inotify event");
        });
    }
}

/// Reads `reader` line by line until a line contains `needle`; returns
/// the lines read, and the reader to go on with.
pub fn read_until<R: Read>(reader: R, needle: &str) -> (Vec<String>, BufReader<R>) {
    let mut reader = BufReader::new(reader);
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        let n = reader.read_line(&mut line).expect("the output can be read");
        assert!(
            n > 0,
            "the output ended before a line with `{needle}`: {lines:?}"
        );
        let found = line.contains(needle);
        lines.push(line);
        if found {
            return (lines, reader);
        }
    }
}

/// Sends `signal` (a name for kill(1): INT, TERM, HUP) to `pid`.
pub fn signal(pid: u32, signal: &str) {
    let sent = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{signal} {pid}");
}

/// Whether the process `pid` still exists (not even as a zombie).
pub fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}
