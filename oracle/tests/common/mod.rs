//! Pieces the integration tests that run the `ptoracle` binary share:
//! the repository, scratch directories, and waiting for observable events
//! (a process's exit, a file, a line), never for a fixed time.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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
pub fn wait_within(child: Child, limit: Duration, what: &str) -> ExitStatus {
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    let mut child = child;
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    match rx.recv_timeout(limit) {
        Ok(status) => status.expect("the child can be waited for"),
        Err(_) => {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            panic!("{what} did not finish within {limit:?}");
        }
    }
}

/// Waits until `ready()` holds (an event another process makes happen),
/// failing the test after `limit`. Checks often: the event is what is
/// waited for, not the time.
pub fn wait_until(what: &str, limit: Duration, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    while !ready() {
        assert!(start.elapsed() < limit, "{what} within {limit:?}");
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Waits until `path` exists.
pub fn wait_for_file(path: &Path, limit: Duration) {
    wait_until(&format!("{} appears", path.display()), limit, || {
        path.exists()
    });
}

/// Waits until the directory `dir` holds at least one entry.
pub fn wait_for_entry(dir: &Path, limit: Duration) {
    wait_until(
        &format!("something appears in {}", dir.display()),
        limit,
        || std::fs::read_dir(dir).map_or(0, |d| d.count()) > 0,
    );
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
