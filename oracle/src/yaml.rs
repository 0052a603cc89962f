//! YAML: the only module that sees it.
//!
//! A ruling file is a stream of YAML documents, one case each. Before serde
//! reads it, [`scan`] passes over its events once: it enforces the limits
//! (document size, nesting, aliases), rejects duplicate keys and records
//! where each document starts. Errors found while reading carry the line
//! and column the YAML library reports. Errors found later (validation,
//! the resolver) name a node by [`NodePath`]; [`locate`] finds that node's
//! line and column by reading its document again, alone, with a visitor
//! that walks the path and fails on arrival, so the library marks exactly
//! that node.

mod scan;

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use ptoracle_core::error::{NodePath, Seg};
use ptoracle_core::scenario::Case;

pub(crate) use scan::{DocStart, MAX_DEPTH, size};

/// A YAML error: its message and position (from 1).
pub(crate) struct YamlError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A document of a stream: its text runs from `start.offset` to `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: DocStart,
    pub end: usize,
}

thread_local! {
    /// How many YAML documents serde has read on this thread.
    static READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many YAML documents serde has read on this thread so far: loading
/// must read each document a bounded number of times, however many there
/// are (a test counts).
pub(crate) fn documents_read() -> u64 {
    READS.with(|r| r.get())
}

fn count_read() {
    READS.with(|r| r.set(r.get() + 1));
}

/// `text` without the byte order mark an editor may have put first (the
/// columns of the first line are counted after it, as editors do).
pub(crate) fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The cases of a YAML stream whose documents start at `starts`, read in
/// one pass over the stream, each with its document's index and span.
/// Stops at the first error: after a syntax error the rest of the stream
/// can't be trusted.
fn read_stream(text: &str, starts: &[DocStart]) -> Result<Vec<(usize, Span, Case)>, YamlError> {
    let mut out = Vec::new();
    for (i, doc) in serde_yaml::Deserializer::from_str(text).enumerate() {
        count_read();
        match Option::<Case>::deserialize(doc) {
            Ok(Some(case)) => out.push((i, span_of(text, starts, i), case)),
            Ok(None) => {}
            // The library's document iterator repeats a syntax error
            // forever; stopping here is also what keeps this loop finite.
            Err(e) => return Err(convert(&e, span_of(text, starts, i).start)),
        }
    }
    Ok(out)
}

/// The span of document `i` of `text`, whose documents start at `starts`.
fn span_of(text: &str, starts: &[DocStart], i: usize) -> Span {
    let start = starts
        .get(i)
        .copied()
        .unwrap_or(DocStart { offset: 0, line: 1 });
    let end = starts.get(i + 1).map_or(text.len(), |s| s.offset);
    Span { start, end }
}

/// How many documents [`each_case`] reads at once, in parallel: it bounds
/// the cases held in memory while a file is read.
const BATCH: usize = 512;

/// The cases of a YAML stream, in order, each with its document's index
/// and span, given to `sink` after `work` (run in parallel, on bounded
/// batches of documents) has made something of them. Stops at the first
/// error, as [`read_stream`] does and with the same error: cases given
/// before it are then of a stream that can't be trusted. `max_case` is
/// the longest document accepted, in bytes.
///
/// Once the scan has found where each document starts, each document is
/// read on its own, so the YAML library never holds more than one.
pub(crate) fn each_case<T: Send>(
    text: &str,
    max_case: usize,
    work: impl Fn(usize, Span, Case) -> T + Sync,
    mut sink: impl FnMut(T),
) -> Result<(), YamlError> {
    use rayon::prelude::*;
    let starts = scan::scan(text, max_case, "case")?;
    let span = |i: usize| span_of(text, &starts, i);
    // A stream with no document start (empty, or broken before the first
    // document) is read as one piece.
    let docs = starts.len().max(1);
    let mut first = 0;
    while first < docs {
        let last = docs.min(first + BATCH);
        let read: Vec<Result<Option<T>, ()>> = (first..last)
            .into_par_iter()
            .map(|i| {
                let s = span(i);
                let doc = text.get(s.start.offset..s.end).unwrap_or("");
                match serde_yaml::Deserializer::from_str(doc).next() {
                    None => Ok(None),
                    Some(d) => match Option::<Case>::deserialize(d) {
                        Ok(Some(case)) => Ok(Some(work(i, s, case))),
                        Ok(None) => Ok(None),
                        Err(_) => Err(()),
                    },
                }
            })
            .collect();
        for (i, r) in (first..last).zip(read) {
            count_read();
            match r {
                Ok(Some(t)) => sink(t),
                Ok(None) => {}
                // Read alone, a document's error is located in it, not in
                // the file: the whole stream is read again, for the error
                // as the library words and locates it in the file (or, if
                // the document reads in the stream, for the rest of it).
                Err(()) => {
                    for (j, s, case) in read_stream(text, &starts)? {
                        if j >= i {
                            sink(work(j, s, case));
                        }
                    }
                    return Ok(());
                }
            }
        }
        first = last;
    }
    Ok(())
}

/// A library error as a [`YamlError`]. The few errors the library does not
/// locate (it has already met every one the scan could) are put at the
/// start of their document, `at`.
fn convert(e: &serde_yaml::Error, at: DocStart) -> YamlError {
    let (line, column) = e
        .location()
        .filter(|l| l.line() > 0)
        .map_or((at.line, 1), |l| (l.line(), l.column()));
    let mut message = e.to_string();
    let at = format!(" at line {line} column {column}");
    if let Some(pos) = message.find(&at) {
        message.replace_range(pos..pos + at.len(), "");
    }
    YamlError {
        line,
        column,
        message,
    }
}

/// The line and column of the node at `path` in the document `span` of
/// `text`, reading that document alone.
pub(crate) fn locate(text: &str, span: Span, path: &NodePath) -> Option<(usize, usize)> {
    let doc = text.get(span.start.offset..span.end)?;
    let d = serde_yaml::Deserializer::from_str(doc).next()?;
    count_read();
    match Locate(&path.0).deserialize(d) {
        Err(e) if e.to_string().contains(ARRIVED) => e
            .location()
            .map(|l| (l.line() + span.start.line - 1, l.column())),
        // The path leads nowhere in this document: fall back to its parent.
        _ if !path.0.is_empty() => {
            let parent = NodePath(path.0[..path.0.len() - 1].to_vec());
            locate(text, span, &parent)
        }
        _ => None,
    }
}

/// Every document of a YAML stream as JSON data, as written (no defaults
/// filled in): what an editor validates against the schema.
pub(crate) fn documents_as_json(
    text: &str,
    max_doc: usize,
) -> Result<Vec<serde_json::Value>, YamlError> {
    let text = without_bom(text);
    let starts = scan::scan(text, max_doc, "case")?;
    let mut out = Vec::new();
    for (i, doc) in serde_yaml::Deserializer::from_str(text).enumerate() {
        let at = starts
            .get(i)
            .copied()
            .unwrap_or(DocStart { offset: 0, line: 1 });
        let value = serde_yaml::Value::deserialize(doc).map_err(|e| convert(&e, at))?;
        if value.is_null() {
            continue;
        }
        let json = serde_json::to_value(&value).map_err(|e| YamlError {
            line: at.line,
            column: 1,
            message: e.to_string(),
        })?;
        out.push(json);
    }
    Ok(out)
}

/// A value (a case, an expectations file) written as a YAML document.
pub(crate) fn to_string<T: serde::Serialize>(value: &T) -> String {
    // Serializing plain data to a string can't fail: no I/O, no maps with
    // non-string keys.
    serde_yaml::to_string(value).unwrap_or_default()
}

/// The value of a YAML document (a case for round trips, an expectations
/// file) of at most `max_doc` bytes, with the position of the first problem.
pub(crate) fn from_str<T: serde::de::DeserializeOwned>(
    text: &str,
    max_doc: usize,
) -> Result<T, YamlError> {
    let text = without_bom(text);
    let starts = scan::scan(text, max_doc, "file")?;
    let at = starts
        .first()
        .copied()
        .unwrap_or(DocStart { offset: 0, line: 1 });
    serde_yaml::from_str(text).map_err(|e| convert(&e, at))
}

const ARRIVED: &str = "\u{1}arrived";

struct Locate<'a>(&'a [Seg]);

impl<'de> DeserializeSeed<'de> for Locate<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Locate<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any node")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let Some((first, rest)) = self.0.split_first() else {
            return Err(de::Error::custom(ARRIVED));
        };
        while let Some(key) = map.next_key::<KeyText>()? {
            if matches!(first, Seg::Key(k) if *k == key.0) {
                return map.next_value_seed(Locate(rest));
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let Some((first, rest)) = self.0.split_first() else {
            return Err(de::Error::custom(ARRIVED));
        };
        let Seg::Index(target) = first else {
            return Ok(());
        };
        let mut i = 0;
        loop {
            if i == *target {
                return seq.next_element_seed(Locate(rest)).map(|_| ());
            }
            if seq.next_element::<IgnoredAny>()?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        let _ = data;
        Err(de::Error::custom(ARRIVED))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Err(E::custom(ARRIVED))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Err(E::custom(ARRIVED))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Err(E::custom(ARRIVED))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Err(E::custom(ARRIVED))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Err(E::custom(ARRIVED))
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Err(E::custom(ARRIVED))
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Err(E::custom(ARRIVED))
    }
}

/// A mapping key as text (keys of other kinds never match a path).
struct KeyText(String);

impl<'de> Deserialize<'de> for KeyText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KeyText, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = KeyText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<KeyText, E> {
                Ok(KeyText(v.to_string()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<KeyText, E> {
                Ok(KeyText(String::new()))
            }
        }
        d.deserialize_any(V)
    }
}
