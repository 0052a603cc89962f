//! Seed corpora and dictionaries for the fuzz targets, made from the
//! rulings: what `ptoracle fuzz seeds` writes under `fuzz/seeds/` and
//! `fuzz/dicts/`, and what the replay test compares them with.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

use crate::corpus;
use crate::engine::Reference;
use crate::explore;
use ptoracle_protocol::{self as protocol, Request};

/// How many of the generator's cases (seed 1, indices 0..) become seeds of
/// the scenario targets, beside the rulings.
pub const GENERATED: u64 = 16;

/// One seed file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// Its directory under `fuzz/seeds/` (see [`super::Target::seed_dir`]).
    pub dir: &'static str,
    /// Its file name.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The seeds made from ruling files, given as (path under `rulings/`,
/// bytes) in a stable order:
///
/// - `ruling_yaml/`: every file as it is;
/// - `scenario/`: every case (without its title and description), `Y`
///   and the case as one YAML document, and
///   the generator's first [`GENERATED`] cases of seed 1 as choice bytes;
/// - `protocol/`: every case as a run request followed by `ptoracle
///   serve`'s reply, and one handshake (both hellos and a bye).
///
/// A file that does not load gives only its `ruling_yaml` seed.
///
/// ```
/// let files = vec![("demo/a.yaml".to_string(), b"id: demo/a\ntitle: t\nrules: ['613']\nsetup: {objects: [{id: c, types: [Creature], pt: 2/2}]}\nsteps: [{do: state_based_actions}]\n".to_vec())];
/// let seeds = ptoracle::fuzzing::seeds::seeds(&files);
/// let names: Vec<String> = seeds.iter().map(|s| format!("{}/{}", s.dir, s.name)).collect();
/// assert!(names.contains(&"ruling_yaml/demo-a.yaml".to_string()));
/// assert!(names.contains(&"scenario/demo-a".to_string()));
/// assert!(names.contains(&"protocol/demo-a.jsonl".to_string()));
/// ```
pub fn seeds(files: &[(String, Vec<u8>)]) -> Vec<Seed> {
    let mut out = Vec::new();
    let mut reference = Reference::new(None);
    for (path, bytes) in files {
        out.push(Seed {
            dir: "ruling_yaml",
            name: path.replace(['/', '\\'], "-"),
            bytes: bytes.clone(),
        });
        let Ok(cases) = corpus::parse_bytes(path, bytes) else {
            continue;
        };
        for l in cases {
            // The words are the ruling file's business, not the targets'.
            let mut case = l.case;
            case.description = None;
            case.title = String::from("-");
            let stem = case.id.to_string().replace('/', "-");
            let mut scenario = b"Y".to_vec();
            scenario.extend_from_slice(corpus::to_yaml(&case).as_bytes());
            out.push(Seed {
                dir: "scenario",
                name: stem.clone(),
                bytes: scenario,
            });
            let request = protocol::encode(&Request::Run {
                seq: 1,
                edition: ptoracle_core::Edition::current().id().to_string(),
                case: Box::new(protocol::without_expectations(&case)),
            });
            let mut exchange = request.clone();
            if let Some(reply) = crate::serve::answer(&request, &mut reference) {
                exchange.extend_from_slice(&reply);
            }
            out.push(Seed {
                dir: "protocol",
                name: format!("{stem}.jsonl"),
                bytes: exchange,
            });
        }
    }
    for i in 0..GENERATED {
        if let Some(bytes) = explore::case_bytes(1, i) {
            out.push(Seed {
                dir: "scenario",
                name: format!("generated-1-{i:02}"),
                bytes,
            });
        }
    }
    let hello = protocol::encode(&protocol::hello());
    let mut handshake = hello.clone();
    if let Some(reply) = crate::serve::answer(&hello, &mut reference) {
        handshake.extend_from_slice(&reply);
    }
    handshake.extend_from_slice(b"{\"type\":\"bye\"}\n");
    out.push(Seed {
        dir: "protocol",
        name: "handshake.jsonl".into(),
        bytes: handshake,
    });
    out.sort_by(|a, b| (a.dir, &a.name).cmp(&(b.dir, &b.name)));
    out
}

/// The libFuzzer dictionaries, by file name: `ruling_yaml.dict` (for the
/// loader and the scenario targets) and `protocol.dict`, made of the names
/// and fixed values of the ruling schema and of the protocol's schemas, so
/// they follow the formats as they change.
///
/// ```
/// let dicts = ptoracle::fuzzing::seeds::dictionaries();
/// let (name, text) = &dicts[0];
/// assert_eq!(*name, "ruling_yaml.dict");
/// assert!(text.lines().any(|l| l == "\"counters\""));
/// ```
pub fn dictionaries() -> Vec<(&'static str, String)> {
    let mut yaml = BTreeSet::new();
    words(&schema_value(&crate::schema::ruling_schema()), &mut yaml);
    for t in [
        ": ", "\n- ", "{ ", " }", "[", "]", "---\n", "+1/+1", "-1/-1", "*/*", "X", "0/0",
    ] {
        yaml.insert(t.to_string());
    }
    let mut json = BTreeSet::new();
    for (_, text) in crate::schema::protocol_schemas() {
        words(&schema_value(&text), &mut json);
    }
    let json: BTreeSet<String> = json
        .into_iter()
        .map(|w| format!("\"{w}\""))
        .chain([":", ",", "{", "}", "[", "]", "null", "\n"].map(String::from))
        .collect();
    vec![
        ("ruling_yaml.dict", dict_text(&yaml)),
        ("protocol.dict", dict_text(&json)),
    ]
}

fn schema_value(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_default()
}

/// Property names, enum values and constants of a schema.
fn words(v: &serde_json::Value, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, val) in map {
                match (k.as_str(), val) {
                    ("properties", serde_json::Value::Object(props)) => {
                        out.extend(props.keys().cloned());
                    }
                    ("enum", serde_json::Value::Array(items)) => {
                        out.extend(items.iter().filter_map(|i| i.as_str().map(String::from)));
                    }
                    ("const", serde_json::Value::String(s)) => {
                        out.insert(s.clone());
                    }
                    _ => {}
                }
                words(val, out);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|i| words(i, out)),
        _ => {}
    }
}

/// One token per line, in libFuzzer's dictionary syntax.
fn dict_text(tokens: &BTreeSet<String>) -> String {
    let mut s =
        String::from("# Made by `ptoracle fuzz seeds` from the schemas; do not edit by hand.\n");
    for t in tokens {
        s.push('"');
        for b in t.bytes() {
            match b {
                b'"' | b'\\' => {
                    s.push('\\');
                    s.push(char::from(b));
                }
                0x20..=0x7e => s.push(char::from(b)),
                _ => s.push_str(&format!("\\x{b:02X}")),
            }
        }
        s.push_str("\"\n");
    }
    s
}

/// The ruling files under `root` (`.yaml`/`.yml`, in sorted order), as
/// (path under `root` with `/` separators, bytes): what [`seeds`] takes.
pub fn ruling_files(root: &Path) -> io::Result<Vec<(String, Vec<u8>)>> {
    let mut errors = Vec::new();
    let files = corpus::ruling_files(&[root.to_path_buf()], &mut errors);
    if let Some(e) = errors.first() {
        return Err(io::Error::other(e.to_string()));
    }
    let mut out = Vec::new();
    for p in files {
        let bytes = corpus::read_file(&p, corpus::MAX_FILE_BYTES, "ruling file")
            .map_err(|e| io::Error::other(format!("{}: {e}", p.display())))?;
        let rel = p.strip_prefix(root).unwrap_or(&p);
        let name: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        out.push((name.join("/"), bytes));
    }
    Ok(out)
}

/// What must change under `fuzz_dir` for its `seeds/` and `dicts/` to be
/// exactly `seeds` and `dicts`: each file to write, with its new bytes, or
/// to remove (`None`). Empty when they are current.
pub fn differences(
    fuzz_dir: &Path,
    seeds: &[Seed],
    dicts: &[(&'static str, String)],
) -> Vec<(PathBuf, Option<Vec<u8>>)> {
    let mut wanted: BTreeMap<PathBuf, &[u8]> = BTreeMap::new();
    for s in seeds {
        wanted.insert(fuzz_dir.join("seeds").join(s.dir).join(&s.name), &s.bytes);
    }
    for (name, text) in dicts {
        wanted.insert(fuzz_dir.join("dicts").join(name), text.as_bytes());
    }
    let mut present = BTreeSet::new();
    let seed_dirs: BTreeSet<&str> = super::Target::ALL.iter().map(|t| t.seed_dir()).collect();
    let dirs = std::iter::once(fuzz_dir.join("dicts"))
        .chain(seed_dirs.iter().map(|d| fuzz_dir.join("seeds").join(d)));
    for d in dirs {
        if let Ok(entries) = std::fs::read_dir(&d) {
            present.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
        }
    }
    let mut out = Vec::new();
    for (path, bytes) in &wanted {
        if std::fs::read(path).ok().as_deref() != Some(*bytes) {
            out.push((path.clone(), Some(bytes.to_vec())));
        }
    }
    for path in present {
        if !wanted.contains_key(&path) {
            out.push((path, None));
        }
    }
    out
}
