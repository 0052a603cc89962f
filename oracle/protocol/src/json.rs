//! JSON details of the protocol: integers only (107.1a), every key once,
//! and one canonical text per value.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::{ErrorKind, ProtocolError};

/// Checks that every number in `value` is an integer that fits in 64 bits
/// (107.1a: the game uses only integers). The error names the first
/// offending number by its path, e.g. `steps[0].objects.ogre.power`.
///
/// ```
/// use ptoracle_protocol::integers_only;
/// let v: serde_json::Value = serde_json::from_str(r#"{"a":[1,{"b":2.5}]}"#).unwrap();
/// let e = integers_only(&v).unwrap_err();
/// assert!(e.contains("a[1].b"), "{e}");
/// assert!(integers_only(&serde_json::json!({"a": -3})).is_ok());
/// ```
pub fn integers_only(value: &Value) -> Result<(), String> {
    let mut path = String::new();
    walk(value, &mut path)
}

fn walk(value: &Value, path: &mut String) -> Result<(), String> {
    match value {
        Value::Number(n) if n.is_f64() => Err(not_integer(path, n.as_f64().unwrap_or(f64::NAN))),
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                walk(v, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        Value::Object(map) => {
            for (k, v) in map {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                walk(v, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Why a number `f` read as a float is no protocol integer.
fn not_integer(path: &str, f: f64) -> String {
    // i64::MIN is exactly -2^63, and 2^63 is the first float beyond i64::MAX.
    let bound = -(i64::MIN as f64);
    if f.fract() != 0.0 || !f.is_finite() {
        number_error(path, &format!("{f:?}: not an integer"))
    } else if f >= bound || f < -bound {
        too_large(path, &format!("{f:?}"))
    } else {
        number_error(path, &format!("{f:?}: written as a float"))
    }
}

fn too_large(path: &str, n: &str) -> String {
    number_error(path, &format!("{n}: an integer too large for 64 bits"))
}

fn number_error(path: &str, what: &str) -> String {
    format!(
        "`{}` is {what}; every number in the protocol is a signed 64-bit integer (107.1a)",
        if path.is_empty() { "." } else { path }
    )
}

/// Checks the text of a JSON line before it is decoded, where a parsed
/// value would hide what is wrong: a key given twice in one object (a
/// parsed map keeps the last), and a number that is no signed 64-bit
/// integer, however it is written: a float, an integer beyond 64 bits or
/// one beyond even a float's range (all of kind `non-integer`).
pub(crate) fn check_text(line: &[u8]) -> Result<(), ProtocolError> {
    let mut path = String::new();
    let mut found = None;
    let mut de = serde_json::Deserializer::from_slice(line);
    let read = Check {
        path: &mut path,
        found: &mut found,
    }
    .deserialize(&mut de)
    .and_then(|()| de.end());
    match (read, found) {
        (_, Some((kind, message))) => Err(ProtocolError::new(kind, message)),
        (Ok(()), None) => Ok(()),
        // serde_json stops on a number beyond a float's range before any
        // visitor sees it; it is still a number that is no 64-bit integer.
        (Err(e), None) if e.to_string().starts_with("number out of range") => Err(
            ProtocolError::new(ErrorKind::NonInteger, too_large(&path, "a number")),
        ),
        (Err(e), None) => Err(super::not_json(e, line)),
    }
}

/// A visitor of any JSON value that records the first problem
/// [`check_text`] looks for, and where it is.
struct Check<'a> {
    path: &'a mut String,
    found: &'a mut Option<(ErrorKind, String)>,
}

impl Check<'_> {
    fn inner(&mut self) -> Check<'_> {
        Check {
            path: self.path,
            found: self.found,
        }
    }

    fn fail<E: de::Error>(self, kind: ErrorKind, message: String) -> Result<(), E> {
        let e = E::custom(&message);
        *self.found = Some((kind, message));
        Err(e)
    }
}

impl<'de> DeserializeSeed<'de> for Check<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<(), E> {
        if i64::try_from(n).is_ok() {
            return Ok(());
        }
        let message = too_large(self.path, &n.to_string());
        self.fail(ErrorKind::NonInteger, message)
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> Result<(), E> {
        let message = not_integer(self.path, f);
        self.fail(ErrorKind::NonInteger, message)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        for i in 0.. {
            let len = self.path.len();
            self.path.push_str(&format!("[{i}]"));
            if seq.next_element_seed(self.inner())?.is_none() {
                break;
            }
            self.path.truncate(len);
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let len = self.path.len();
            if !self.path.is_empty() {
                self.path.push('.');
            }
            self.path.push_str(&key);
            if !seen.insert(key) {
                let message = format!(
                    "`{}` is given twice; every key of an object is given once",
                    self.path
                );
                return self.fail(ErrorKind::Protocol, message);
            }
            map.next_value_seed(self.inner())?;
            self.path.truncate(len);
        }
        Ok(())
    }
}

/// A map that refuses a key given twice, where serde's maps keep the last
/// one; also two spellings of one key (`+1/+1` and `+01/+1`).
pub(crate) struct Unique<K, V>(pub(crate) BTreeMap<K, V>);

impl<'de, K, V> Deserialize<'de> for Unique<K, V>
where
    K: Deserialize<'de> + Ord + fmt::Display,
    V: Deserialize<'de>,
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Unique<K, V>, D::Error> {
        struct Entries<K, V>(PhantomData<(K, V)>);
        impl<'de, K, V> Visitor<'de> for Entries<K, V>
        where
            K: Deserialize<'de> + Ord + fmt::Display,
            V: Deserialize<'de>,
        {
            type Value = Unique<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique<K, V>, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((k, v)) = map.next_entry::<K, V>()? {
                    let shown = k.to_string();
                    if out.insert(k, v).is_some() {
                        return Err(de::Error::custom(format!(
                            "the key `{shown}` is given twice"
                        )));
                    }
                }
                Ok(Unique(out))
            }
        }
        d.deserialize_map(Entries(PhantomData))
    }
}

/// Deserializes a map field with [`Unique`].
pub(crate) fn unique_map<'de, D, K, V>(d: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + fmt::Display,
    V: Deserialize<'de>,
{
    Unique::deserialize(d).map(|u| u.0)
}

/// Deserializes an optional map field with [`Unique`].
pub(crate) fn unique_map_opt<'de, D, K, V>(d: D) -> Result<Option<BTreeMap<K, V>>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord + fmt::Display,
    V: Deserialize<'de>,
{
    Option::<Unique<K, V>>::deserialize(d).map(|u| u.map(|u| u.0))
}

/// The canonical JSON text of a value: no whitespace, object keys sorted
/// by their bytes, numbers as integers. The same value always gives the
/// same bytes, so exported files can be compared with `diff` or a hash.
///
/// ```
/// let v = serde_json::json!({"b": 1, "a": [true, null, "x"]});
/// assert_eq!(ptoracle_protocol::canonical(&v), r#"{"a":[true,null,"x"],"b":1}"#);
/// ```
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write(&map[k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}
