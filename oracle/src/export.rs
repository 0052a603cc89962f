//! `ptoracle export`: the corpus for engines without a YAML parser, and an
//! offline transcript of the protocol.
//!
//! ```text
//! DIR/corpus/<path of the ruling file>.json   the file's cases, canonical JSON (one array)
//! DIR/index.json                              every case: id, file, rules, features, editions
//! DIR/schemas/ruling.schema.json              the ruling format
//! DIR/schemas/protocol/*.schema.json          every protocol message
//! DIR/session/requests.jsonl                  what the gate sends: hello, one run per case, bye
//! DIR/session/replies.jsonl                   what `ptoracle serve` answers
//! ```
//!
//! Feeding `requests.jsonl` to an adapter and checking its output with
//! `ptoracle compare DIR REPLIES` ([`crate::gate::offline`]) tests it
//! without running the gate (the transcript is for one edition; cases that
//! do not hold in it are left out of the session).

use std::io;
use std::path::{Component, Path, PathBuf};

use crate::corpus::Loaded;
use ptoracle_core::edition::Edition;
use ptoracle_protocol::{self as protocol, Request, canonical, required_features};

/// Writes the export of `cases` under `dir`; returns a one-line summary.
/// When a file cannot be written (a full disk), the files written so far
/// are removed, with the directories under `dir` left empty, and the first error is
/// returned: no half export stays behind.
pub fn export(dir: &Path, cases: &[Loaded], edition: Edition) -> io::Result<String> {
    let mut written = Vec::new();
    let result = export_into(dir, cases, edition, &mut written);
    if result.is_err() {
        for path in &written {
            let _ = std::fs::remove_file(path);
            for parent in path.ancestors().skip(1) {
                // Fails, and stops, at the first directory not empty.
                if parent == dir || !parent.starts_with(dir) || std::fs::remove_dir(parent).is_err()
                {
                    break;
                }
            }
        }
    }
    result
}

fn export_into(
    dir: &Path,
    cases: &[Loaded],
    edition: Edition,
    written: &mut Vec<PathBuf>,
) -> io::Result<String> {
    let mut write = |path: &Path, text: &str| {
        crate::output::write_file(path, text.as_bytes())?;
        written.push(path.to_path_buf());
        Ok::<(), io::Error>(())
    };
    let json = |v: &serde_json::Value| canonical(v) + "\n";
    // One JSON file per ruling file, at the same relative place.
    let mut files: Vec<(String, Vec<serde_json::Value>)> = Vec::new();
    for c in cases {
        let value = serde_json::to_value(&c.case).map_err(io::Error::other)?;
        match files.last_mut() {
            Some((f, v)) if *f == c.file => v.push(value),
            _ => files.push((c.file.clone(), vec![value])),
        }
    }
    let root = common_root(files.iter().map(|(f, _)| Path::new(f.as_str())));
    for (file, values) in &files {
        let rel = Path::new(file)
            .strip_prefix(&root)
            .unwrap_or(Path::new(file));
        let rel: PathBuf = rel
            .components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .collect();
        let target = dir.join("corpus").join(rel.with_extension("json"));
        write(&target, &json(&serde_json::Value::Array(values.clone())))?;
    }
    let index: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| {
            serde_json::json!({
                "id": c.case.id.0,
                "file": c.file,
                "rules": c.case.rules.iter().map(|r| r.as_str()).collect::<Vec<_>>(),
                "features": required_features(&c.case).iter().map(|f| f.name()).collect::<Vec<_>>(),
                "editions": c.case.editions.as_ref().map(|e| e.to_string()),
            })
        })
        .collect();
    write(
        &dir.join("index.json"),
        &json(&serde_json::Value::Array(index)),
    )?;
    write(
        &dir.join("schemas").join("ruling.schema.json"),
        &crate::schema::ruling_schema(),
    )?;
    for (name, text) in crate::schema::protocol_schemas() {
        write(&dir.join("schemas").join("protocol").join(name), &text)?;
    }
    // The session: requests, then the reference engine's replies to them.
    let hello = serde_json::to_value(protocol::hello()).map_err(io::Error::other)?;
    let mut requests = json(&hello).into_bytes();
    let mut seq = 0;
    for c in cases {
        if c.case
            .editions
            .as_ref()
            .is_some_and(|r| !r.contains(edition))
        {
            continue;
        }
        seq += 1;
        let r = Request::Run {
            seq,
            edition: edition.id().to_string(),
            case: Box::new(protocol::without_expectations(&c.case)),
        };
        let value = serde_json::to_value(&r).map_err(io::Error::other)?;
        requests.extend_from_slice(json(&value).as_bytes());
    }
    let bye = serde_json::to_value(Request::Bye).map_err(io::Error::other)?;
    requests.extend_from_slice(json(&bye).as_bytes());
    let mut replies = Vec::new();
    crate::serve::serve(&requests[..], &mut replies, None)?;
    // Canonical form for the replies too, line by line.
    let mut canon = Vec::new();
    for line in replies.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let v: serde_json::Value = serde_json::from_slice(line).map_err(io::Error::other)?;
        canon.extend_from_slice(json(&v).as_bytes());
    }
    let session = dir.join("session");
    write(
        &session.join("requests.jsonl"),
        &String::from_utf8_lossy(&requests),
    )?;
    write(
        &session.join("replies.jsonl"),
        &String::from_utf8_lossy(&canon),
    )?;
    Ok(format!(
        "exported {} cases from {} files to {} (session: {seq} requests under edition {edition})",
        cases.len(),
        files.len(),
        dir.display()
    ))
}

/// The longest directory that holds every file.
fn common_root<'a>(files: impl Iterator<Item = &'a Path>) -> PathBuf {
    let mut root: Option<PathBuf> = None;
    for f in files {
        let dir = f.parent().unwrap_or(Path::new("")).to_path_buf();
        root = Some(match root {
            None => dir,
            Some(r) => r
                .components()
                .zip(dir.components())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect(),
        });
    }
    root.unwrap_or_default()
}
