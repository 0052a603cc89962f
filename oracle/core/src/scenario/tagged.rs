//! Externally tagged enums as one-key mappings (`{ effect: {...} }`) or
//! plain strings for unit variants (`cleanup`), in every data format.
//!
//! serde's derive reads an enum through `deserialize_enum`, which the YAML
//! library only answers for YAML tags (`!effect {...}`); it also writes
//! tags. The format uses one-key mappings, which are also what JSON uses,
//! so these two functions are put on every field whose type is such an
//! enum.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, StrDeserializer};
use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Serialize, Serializer};

/// Writes an enum as a one-key mapping, or a string for a unit variant.
pub fn serialize<T: Serialize, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    // serde_json renders externally tagged enums in exactly this shape.
    serde_json::to_value(v)
        .map_err(serde::ser::Error::custom)?
        .serialize(s)
}

/// Reads an enum from a one-key mapping, a string (unit variant) or a YAML tag.
pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    d.deserialize_any(OneKey(PhantomData))
}

struct OneKey<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for OneKey<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a one-key mapping such as { effect: ... }, or a name such as cleanup")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        T::deserialize(StrDeserializer::<E>::new(v))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let value = T::deserialize(MapAccessDeserializer::new(&mut map))?;
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(
                "expected exactly one key here; found more than one",
            ));
        }
        Ok(value)
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<T, A::Error> {
        T::deserialize(de::value::EnumAccessDeserializer::new(data))
    }
}

/// The same for an optional field: `None` is left out (with
/// `skip_serializing_if`), `Some` is written as the enum.
pub mod option {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes `Some(v)` as `v` is written by [`super::serialize`].
    pub fn serialize<T: Serialize, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => super::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    /// Reads a present value as [`super::deserialize`] does.
    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        super::deserialize(d).map(Some)
    }
}
