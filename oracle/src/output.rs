//! Writing the files ptoracle makes (reports, rulings, exports, schemas):
//! one helper for all of them, [`write_file`].

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path`, creating its directory if need be.
///
/// When `path` is a regular file or absent, through a temporary file in the
/// same directory and a rename, so that a reader (a CI step after a
/// timeout) never sees half a file; the temporary file is removed when the
/// write fails (a full disk). Anything else — `/dev/null`, `/dev/stdout`, a
/// FIFO, a symlink (even one to a file yet to be made) — is opened and
/// written straight through, so that it stays what it is.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_with(path, |w| w.write_all(bytes))
}

/// [`write_file`] for a text made as it is written: `write` writes it to a
/// buffered writer (a large report never stands whole in memory).
pub fn write_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let through = |f: std::fs::File| {
        let mut w = io::BufWriter::new(f);
        write(&mut w)?;
        w.flush()
    };
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => through(
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)?,
        ),
        Ok(_) => replace(path, through),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            replace(path, through)
        }
        Err(e) => Err(e),
    }
}

/// Writes `text` as the file `name` of `dir` (see [`write_file`]) and
/// returns its path.
pub fn write_in(dir: &Path, name: &str, text: &str) -> io::Result<PathBuf> {
    let path = dir.join(name);
    write_file(&path, text.as_bytes())?;
    Ok(path)
}

/// Through a temporary file next to `path` (written by `through`), then a
/// rename over it.
fn replace(path: &Path, through: impl FnOnce(std::fs::File) -> io::Result<()>) -> io::Result<()> {
    let name = path
        .file_name()
        .map_or("output".into(), |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&tmp)
        .and_then(through)
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
