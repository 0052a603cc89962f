//! The end of the engine's stderr, drained by a thread into a bounded tail.

use super::*;

/// The end of a stream, and how much of it there was.
#[derive(Default)]
pub(super) struct Tail {
    pub(super) bytes: VecDeque<u8>,
    pub(super) total: u64,
}

impl Tail {
    pub(super) fn push(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        self.bytes.extend(chunk);
        let excess = self.bytes.len().saturating_sub(STDERR_TAIL);
        self.bytes.drain(..excess);
    }

    /// What was written since `mark` (a former `total`), as far as kept.
    pub(super) fn since(&self, mark: u64) -> String {
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

pub(super) fn drain_stderr(mut stderr: impl Read, tail: &Mutex<Tail>) {
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
