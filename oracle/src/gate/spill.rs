//! Where a gate run keeps its records: not in memory, but one compact JSON
//! line each in an unnamed temporary file per worker, read back in plan
//! order by the reports. A run of a million failing generated cases holds
//! about a gigabyte of records; the gate's memory stays that of a few.
//!
//! Each worker plays increasing plan indices, so each of its files is in
//! plan order, and reading them back is a merge of a few sorted files (one
//! line of each in memory at a time). When a file cannot be made or
//! written (a full temporary directory), that worker's further records are
//! kept in memory, as every record was before: the run goes on as it
//! would have.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};

use super::report::Record;

/// One worker's records, in increasing plan order.
#[derive(Debug)]
pub struct Part {
    /// The file, and the bytes of whole lines written to it.
    file: Option<(File, u64)>,
    /// Records that could not be written to the file, after those in it.
    memory: Vec<(usize, String)>,
}

impl Default for Part {
    fn default() -> Part {
        Part::new()
    }
}

impl Part {
    /// An empty part, with its file if one can be made.
    pub fn new() -> Part {
        Part {
            file: unnamed_file().ok().map(|f| (f, 0)),
            memory: Vec::new(),
        }
    }

    /// Keeps `record`, number `order` of the plan (larger than any kept
    /// before).
    pub fn push(&mut self, order: usize, record: &Record) {
        // A record is plain data (no maps with other keys than strings):
        // it always serializes.
        let Ok(json) = serde_json::to_string(record) else {
            return;
        };
        if let (Some((file, good)), true) = (&mut self.file, self.memory.is_empty()) {
            let line = format!("{order}\t{json}\n");
            if file.write_all(line.as_bytes()).is_ok() {
                *good += line.len() as u64;
                return;
            }
            // Whatever part of the line was written lies past `good`, and
            // is never read.
        }
        self.memory.push((order, json));
    }
}

/// Every worker's records.
#[derive(Debug, Default)]
pub struct Spill {
    parts: Vec<Part>,
}

impl Spill {
    /// The records of `parts`.
    pub fn new(parts: Vec<Part>) -> Spill {
        Spill { parts }
    }

    /// Calls `f` with each record's JSON line (no newline), in plan order.
    pub fn lines(&self, f: &mut dyn FnMut(&str) -> io::Result<()>) -> io::Result<()> {
        let mut cursors = self
            .parts
            .iter()
            .map(Cursor::new)
            .collect::<io::Result<Vec<_>>>()?;
        loop {
            let next = cursors
                .iter()
                .enumerate()
                .filter_map(|(k, c)| c.head.as_ref().map(|h| (h.0, k)))
                .min();
            let Some((_, k)) = next else {
                return Ok(());
            };
            if let Some((_, json)) = &cursors[k].head {
                f(json)?;
            }
            cursors[k].advance()?;
        }
    }
}

/// Reads one part from its start.
struct Cursor<'a> {
    file: Option<BufReader<io::Take<&'a File>>>,
    memory: std::slice::Iter<'a, (usize, String)>,
    head: Option<(usize, String)>,
}

impl<'a> Cursor<'a> {
    fn new(part: &'a Part) -> io::Result<Cursor<'a>> {
        let file = match &part.file {
            Some((file, good)) => {
                let mut f = file;
                f.seek(SeekFrom::Start(0))?;
                Some(BufReader::new(f.take(*good)))
            }
            None => None,
        };
        let mut c = Cursor {
            file,
            memory: part.memory.iter(),
            head: None,
        };
        c.advance()?;
        Ok(c)
    }

    /// Reads the next record into `head` (none at the end).
    fn advance(&mut self) -> io::Result<()> {
        if let Some(file) = &mut self.file {
            let mut line = String::new();
            if file.read_line(&mut line)? > 0 {
                let line = line.strip_suffix('\n').unwrap_or(&line);
                let parsed = line
                    .split_once('\t')
                    .and_then(|(order, json)| Some((order.parse().ok()?, json.to_string())));
                self.head = Some(parsed.ok_or_else(|| {
                    io::Error::new(io::ErrorKind::InvalidData, "a damaged record file")
                })?);
                return Ok(());
            }
            self.file = None;
        }
        self.head = self.memory.next().cloned();
        Ok(())
    }
}

/// A new file in the temporary directory that has no name, so that
/// nothing is left behind however the process ends.
fn unnamed_file() -> io::Result<File> {
    let dir = std::env::temp_dir();
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let made = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_TMPFILE)
            .open(&dir);
        if let Ok(f) = made {
            return Ok(f);
        }
    }
    // Elsewhere (or a file system without O_TMPFILE): made with a name,
    // then unlinked at once.
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = dir.join(format!(".ptoracle-gate-{}-{n}.records", std::process::id()));
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::report::Outcome;

    fn record(id: &str) -> Record {
        let case = crate::corpus::parse_str(
            "x.yaml",
            &format!("id: {id}\ntitle: t\nrules: [\"613.1\"]\nsetup: {{}}\nsteps: [{{do: state_based_actions}}]\n"),
        )
        .unwrap()
        .remove(0)
        .case;
        let checked = crate::engine::EngineCheck {
            verdict: ptoracle_core::verdict::Verdict::Pass,
            reference: None,
            got: None,
        };
        Record::new(0, &case, id.into(), None, checked, 0)
    }

    fn ids(spill: &Spill) -> Vec<String> {
        let mut ids = Vec::new();
        spill
            .lines(&mut |json| {
                let r: Record = serde_json::from_str(json).map_err(io::Error::other)?;
                assert_eq!(r.outcome, Outcome::Pass);
                ids.push(r.id);
                Ok(())
            })
            .unwrap();
        ids
    }

    #[test]
    fn records_of_several_workers_read_back_in_plan_order() {
        let mut parts = [Part::new(), Part::new()];
        for (order, k) in [(0, 0), (1, 1), (2, 1), (3, 0)] {
            parts[k].push(order, &record(&format!("r/{order}")));
        }
        let [a, b] = parts;
        // A part whose file could not be written keeps the rest in memory.
        let mut c = Part {
            file: None,
            memory: Vec::new(),
        };
        c.push(4, &record("r/4"));
        let spill = Spill::new(vec![a, c, b]);
        assert_eq!(ids(&spill), ["r/0", "r/1", "r/2", "r/3", "r/4"]);
        // Read again: every report reads them.
        assert_eq!(ids(&spill).len(), 5);
    }
}
