//! YAML: the only module that sees it.
//!
//! A ruling file is a stream of YAML documents, one case each. Errors found
//! while reading carry the line and column the YAML library reports.
//! Errors found later (validation, the resolver) name a node by
//! [`NodePath`]; [`locate`] finds that node's line and column by reading
//! the document again with a visitor that walks the path and fails on
//! arrival, so the library marks exactly that node.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::error::{NodePath, Seg};
use crate::scenario::Case;

/// A YAML error: its message and position (1-based; 0 when unknown).
pub(crate) struct YamlError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The cases of a YAML stream, each with its document index. Stops at the
/// first error: after a syntax error the rest of the stream can't be trusted.
pub(crate) fn parse_cases(text: &str) -> Result<Vec<(usize, Case)>, YamlError> {
    let mut out = Vec::new();
    for (i, doc) in serde_yaml::Deserializer::from_str(text).enumerate() {
        match Option::<Case>::deserialize(doc) {
            Ok(Some(case)) => out.push((i, case)),
            Ok(None) => {}
            // The library's document iterator repeats a syntax error
            // forever; stopping here is also what keeps this loop finite.
            Err(e) => return Err(convert(&e)),
        }
    }
    Ok(out)
}

fn convert(e: &serde_yaml::Error) -> YamlError {
    let (line, column) = e.location().map_or((0, 0), |l| (l.line(), l.column()));
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

/// The line and column of the node at `path` in document `doc` of `text`.
pub(crate) fn locate(text: &str, doc: usize, path: &NodePath) -> Option<(usize, usize)> {
    let d = serde_yaml::Deserializer::from_str(text).nth(doc)?;
    match Locate(&path.0).deserialize(d) {
        Err(e) if e.to_string().contains(ARRIVED) => e.location().map(|l| (l.line(), l.column())),
        // The path leads nowhere in this document: fall back to its parent.
        _ if !path.0.is_empty() => {
            let parent = NodePath(path.0[..path.0.len() - 1].to_vec());
            locate(text, doc, &parent)
        }
        _ => None,
    }
}

/// Every document of a YAML stream as JSON data, as written (no defaults
/// filled in): what an editor validates against the schema.
pub(crate) fn documents_as_json(text: &str) -> Result<Vec<serde_json::Value>, YamlError> {
    let mut out = Vec::new();
    for doc in serde_yaml::Deserializer::from_str(text) {
        let value = serde_yaml::Value::deserialize(doc).map_err(|e| convert(&e))?;
        if value.is_null() {
            continue;
        }
        let json = serde_json::to_value(&value).map_err(|e| YamlError {
            line: 0,
            column: 0,
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
/// file), with the position of the first problem.
pub(crate) fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_yaml::from_str(text).map_err(|e| convert(&e))
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
