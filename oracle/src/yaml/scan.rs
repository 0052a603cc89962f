//! One cheap pass over the events of a YAML stream, before serde sees it.
//!
//! The YAML library parses a whole document into a list of events before
//! deserializing it (about 200 bytes per node), its scanner slows down with
//! the square of the nesting depth, its repetition limit for aliases has no
//! position, and serde keeps the last of two equal keys of a map without a
//! word. This pass runs the same parser (libyaml) event by event, keeping
//! nothing but a stack of open nodes, and stops at the first of:
//!
//! - a document longer than the caller's limit ([`MAX_DEPTH`] levels of
//!   nesting is the other limit);
//! - two equal keys in one mapping (the second is the error);
//! - aliases that expand a document to more than [`ALIAS_FACTOR`] times its
//!   own number of events (an alias bomb), which is also the YAML library's
//!   limit, so the library never meets one;
//! - a character the YAML reader refuses (a control character), located at
//!   its line and column.
//!
//! On the way it records where each document starts, so that a document
//! can later be read again on its own (to locate a node) instead of
//! re-reading the stream up to it. A syntax error ends the pass quietly:
//! serde reports it, in its words, when it meets it.

use std::collections::HashMap;
use std::ffi::CStr;
use std::mem::MaybeUninit;

use super::YamlError;

/// The deepest nesting of mappings and sequences accepted. The format needs
/// about 8 (a filter inside an effect inside an action inside a step).
pub(crate) const MAX_DEPTH: usize = 64;

/// How many times its own size (in parser events) aliases may expand a
/// document to: the YAML library's own limit.
pub(crate) const ALIAS_FACTOR: u64 = 100;

/// Where a document starts: the byte offset of its first line and that
/// line's number (from 1). It runs to the next document's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DocStart {
    pub offset: usize,
    pub line: usize,
}

/// Scans `text`: the start of each document, or the first problem found.
/// `max_doc` is the longest document accepted, in bytes; `what` names a
/// document in that error ("case", "file").
pub(crate) fn scan(text: &str, max_doc: usize, what: &str) -> Result<Vec<DocStart>, YamlError> {
    let mut parser = Parser::new(text.as_bytes());
    let mut docs = Vec::new();
    let mut doc = Doc::default();
    loop {
        let want_value = doc.expects_key();
        let event = match parser.next(want_value) {
            Ok(e) => e,
            Err(Failure::Reader { offset, problem }) => {
                let (line, column) = line_col(text, offset);
                return Err(YamlError {
                    line,
                    column,
                    message: problem,
                });
            }
            // The deserializer meets the same error and words it, but it
            // reads the document up to it first: the aliases before it
            // must not expand beyond the limit.
            Err(Failure::Syntax) => {
                doc.end()?;
                return Ok(docs);
            }
        };
        let at = event.mark;
        match event.kind {
            Kind::StreamEnd => return Ok(docs),
            Kind::StreamStart => continue,
            Kind::DocumentStart => {
                // The start of its line as the parser counts lines (a lone
                // CR and U+2028 end one too): `column` characters back.
                let before = text.get(..at.index).unwrap_or(text);
                let offset = match at.column {
                    0 => before.len(),
                    n => before.char_indices().rev().nth(n - 1).map_or(0, |(i, _)| i),
                };
                docs.push(DocStart {
                    offset,
                    line: at.line + 1,
                });
                doc = Doc {
                    start: offset,
                    ..Doc::default()
                };
                continue;
            }
            Kind::DocumentEnd => {
                doc.end()?;
                continue;
            }
            _ => {}
        }
        if event.end.saturating_sub(doc.start) > max_doc {
            return Err(at.error(format!(
                "this {what} is longer than {} (the limit of a {what}); split it",
                size(max_doc)
            )));
        }
        doc.event(event)?;
    }
}

/// A size in bytes, in the largest whole unit.
pub(crate) fn size(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// The line and column (from 1, the column in characters) of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// A parser position, from 0 as libyaml counts.
#[derive(Clone, Copy, Debug)]
struct Mark {
    index: usize,
    line: usize,
    column: usize,
}

impl Mark {
    fn error(self, message: String) -> YamlError {
        YamlError {
            line: self.line + 1,
            column: self.column + 1,
            message,
        }
    }
}

/// What the pass needs of an event.
struct Event {
    kind: Kind,
    /// Where it starts.
    mark: Mark,
    /// The byte offset where it ends.
    end: usize,
}

enum Kind {
    /// The stream's start: nothing to do.
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(Vec<u8>),
    /// A scalar: its anchor, and its value when asked for (a mapping key).
    Scalar(Option<Vec<u8>>, Option<Vec<u8>>),
    /// A sequence or mapping starts (true: a mapping), with its anchor.
    Start(bool, Option<Vec<u8>>),
    End,
}

/// A mapping or sequence being read.
struct Open {
    /// The document's expanded size when it started.
    expanded_before: u64,
    anchor: Option<Vec<u8>>,
    /// For a mapping: its keys so far with their positions, and whether the
    /// next node is a key.
    keys: Option<(HashMap<Vec<u8>, Mark>, bool)>,
}

/// The state of the document being read.
#[derive(Default)]
struct Doc {
    /// Its byte offset.
    start: usize,
    open: Vec<Open>,
    /// Its events so far, as the YAML library counts them (nodes and the
    /// ends of collections).
    events: u64,
    /// Its size with every alias replaced by what it names.
    expanded: u64,
    /// The expanded size of each anchored node.
    anchors: HashMap<Vec<u8>, u64>,
    /// The alias that names the largest node, and that node's size.
    largest_alias: Option<(Mark, u64)>,
}

impl Doc {
    /// The next node is a mapping key.
    fn expects_key(&self) -> bool {
        matches!(
            self.open.last(),
            Some(Open {
                keys: Some((_, true)),
                ..
            })
        )
    }

    fn event(&mut self, event: Event) -> Result<(), YamlError> {
        let at = event.mark;
        self.events += 1;
        if !matches!(event.kind, Kind::End) {
            self.node(&event.kind, at)?;
        }
        match event.kind {
            Kind::Alias(name) => {
                let n = self.anchors.get(&name).copied().unwrap_or(1);
                self.expanded = self.expanded.saturating_add(n);
                if self.largest_alias.is_none_or(|(_, m)| n > m) {
                    self.largest_alias = Some((at, n));
                }
            }
            Kind::Scalar(anchor, _) => {
                self.expanded = self.expanded.saturating_add(1);
                if let Some(a) = anchor {
                    self.anchors.insert(a, 1);
                }
            }
            Kind::Start(is_map, anchor) => {
                if self.open.len() >= MAX_DEPTH {
                    return Err(at.error(format!(
                        "nested deeper than {MAX_DEPTH} levels (the limit of a ruling file)"
                    )));
                }
                self.open.push(Open {
                    expanded_before: self.expanded,
                    anchor,
                    keys: is_map.then(|| (HashMap::new(), true)),
                });
                self.expanded = self.expanded.saturating_add(1);
            }
            Kind::End => {
                if let Some(done) = self.open.pop() {
                    if let Some(a) = done.anchor {
                        self.anchors
                            .insert(a, self.expanded.saturating_sub(done.expanded_before));
                    }
                }
            }
            Kind::StreamStart | Kind::StreamEnd | Kind::DocumentStart | Kind::DocumentEnd => {}
        }
        Ok(())
    }

    /// A node starts: if it is a mapping key, it must be new to its mapping.
    fn node(&mut self, kind: &Kind, at: Mark) -> Result<(), YamlError> {
        let Some(Open {
            keys: Some((keys, expect_key)),
            ..
        }) = self.open.last_mut()
        else {
            return Ok(());
        };
        let is_key = *expect_key;
        *expect_key = !is_key;
        let (true, Kind::Scalar(_, Some(key))) = (is_key, kind) else {
            return Ok(());
        };
        if let Some(first) = keys.get(key) {
            return Err(at.error(format!(
                "duplicate key `{}` in this mapping (first at line {} column {}); a key is given once",
                String::from_utf8_lossy(key),
                first.line + 1,
                first.column + 1
            )));
        }
        keys.insert(key.clone(), at);
        Ok(())
    }

    /// The document ends: its aliases must not expand it beyond the limit.
    fn end(&self) -> Result<(), YamlError> {
        let limit = self.events.saturating_mul(ALIAS_FACTOR);
        match self.largest_alias {
            Some((alias, _)) if self.expanded > limit => Err(alias.error(format!(
                "aliases expand this document to more than {ALIAS_FACTOR} times its {} nodes (an alias bomb?)",
                self.events
            ))),
            _ => Ok(()),
        }
    }
}

/// Why the parser stopped.
enum Failure {
    /// The reader refused a character at this byte offset.
    Reader { offset: usize, problem: String },
    /// Any other error: the deserializer reports it.
    Syntax,
}

/// libyaml's event parser over a borrowed input.
struct Parser<'input> {
    sys: Box<MaybeUninit<unsafe_libyaml::yaml_parser_t>>,
    _input: std::marker::PhantomData<&'input [u8]>,
}

impl<'input> Parser<'input> {
    fn new(input: &'input [u8]) -> Parser<'input> {
        let mut sys = Box::new(MaybeUninit::<unsafe_libyaml::yaml_parser_t>::uninit());
        let p = sys.as_mut_ptr();
        // SAFETY: as serde_yaml_ng does: the parser lives in a box that
        // never moves, and the input outlives it (the lifetime says so).
        // Initializing only fails when malloc does, which aborts in Rust.
        unsafe {
            let _ = unsafe_libyaml::yaml_parser_initialize(p);
            unsafe_libyaml::yaml_parser_set_encoding(p, unsafe_libyaml::YAML_UTF8_ENCODING);
            unsafe_libyaml::yaml_parser_set_input_string(p, input.as_ptr(), input.len() as u64);
        }
        Parser {
            sys,
            _input: std::marker::PhantomData,
        }
    }

    /// The next event; with `want_value`, a scalar's value is copied out.
    fn next(&mut self, want_value: bool) -> Result<Event, Failure> {
        let p = self.sys.as_mut_ptr();
        let mut raw = MaybeUninit::<unsafe_libyaml::yaml_event_t>::uninit();
        // SAFETY: the parser is initialized; after an error it is not asked
        // again (libyaml would return the same error). An event is read
        // only after a successful parse and deleted after use; the union
        // field read is the one its type names, and libyaml's strings are
        // NUL-terminated (anchors) or come with their length (values).
        unsafe {
            if (&*p).error != unsafe_libyaml::YAML_NO_ERROR
                || unsafe_libyaml::yaml_parser_parse(p, raw.as_mut_ptr()).fail
            {
                let state: &unsafe_libyaml::yaml_parser_t = &*p;
                return Err(if state.error == unsafe_libyaml::YAML_READER_ERROR {
                    let problem = if state.problem.is_null() {
                        "a character the YAML reader refuses".to_string()
                    } else {
                        CStr::from_ptr(state.problem.cast())
                            .to_string_lossy()
                            .into_owned()
                    };
                    Failure::Reader {
                        offset: state.problem_offset as usize,
                        problem,
                    }
                } else {
                    Failure::Syntax
                });
            }
            let e = raw.as_mut_ptr();
            let anchor =
                |a: *mut u8| (!a.is_null()).then(|| CStr::from_ptr(a.cast()).to_bytes().to_vec());
            let kind = match (*e).type_ {
                unsafe_libyaml::YAML_STREAM_END_EVENT => Kind::StreamEnd,
                unsafe_libyaml::YAML_DOCUMENT_START_EVENT => Kind::DocumentStart,
                unsafe_libyaml::YAML_DOCUMENT_END_EVENT => Kind::DocumentEnd,
                unsafe_libyaml::YAML_ALIAS_EVENT => {
                    Kind::Alias(anchor((*e).data.alias.anchor).unwrap_or_default())
                }
                unsafe_libyaml::YAML_SCALAR_EVENT => {
                    let s = (*e).data.scalar;
                    let value = (want_value && !s.value.is_null())
                        .then(|| std::slice::from_raw_parts(s.value, s.length as usize).to_vec());
                    Kind::Scalar(anchor(s.anchor), value)
                }
                unsafe_libyaml::YAML_SEQUENCE_START_EVENT => {
                    Kind::Start(false, anchor((*e).data.sequence_start.anchor))
                }
                unsafe_libyaml::YAML_MAPPING_START_EVENT => {
                    Kind::Start(true, anchor((*e).data.mapping_start.anchor))
                }
                unsafe_libyaml::YAML_SEQUENCE_END_EVENT
                | unsafe_libyaml::YAML_MAPPING_END_EVENT => Kind::End,
                _ => Kind::StreamStart,
            };
            let m = (*e).start_mark;
            let event = Event {
                kind,
                mark: Mark {
                    index: m.index as usize,
                    line: m.line as usize,
                    column: m.column as usize,
                },
                end: (*e).end_mark.index as usize,
            };
            unsafe_libyaml::yaml_event_delete(e);
            Ok(event)
        }
    }
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        // SAFETY: initialized in `new`, deleted once.
        unsafe { unsafe_libyaml::yaml_parser_delete(self.sys.as_mut_ptr()) }
    }
}
