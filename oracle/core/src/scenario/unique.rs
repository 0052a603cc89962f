//! Maps whose keys are given once.
//!
//! serde keeps the last of two equal keys of a map without a word, so
//! `expect: {c: {pt: 9/9}, c: {pt: 2/2}}` would check only 2/2. The YAML
//! loader already refuses keys written twice; these functions, put on every
//! map field of the format, also refuse two keys that are written
//! differently but mean the same (`m10..` and `2009-07-17..`, `+1/+1` and
//! `+01/+1`), in every data format. The error is raised while the second
//! key is read, so the YAML library locates it at that key.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::value::StrDeserializer;
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, Visitor};

/// Reads a map, refusing a key equal to one before it.
pub fn deserialize<'de, K, V, D>(d: D) -> Result<BTreeMap<K, V>, D::Error>
where
    K: Ord + Deserialize<'de>,
    V: Deserialize<'de>,
    D: Deserializer<'de>,
{
    d.deserialize_map(Unique(PhantomData))
}

/// The same for an optional map.
pub mod option {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer};

    /// Reads a present map as [`super::deserialize`] does.
    pub fn deserialize<'de, K, V, D>(d: D) -> Result<Option<BTreeMap<K, V>>, D::Error>
    where
        K: Ord + Deserialize<'de>,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        super::deserialize(d).map(Some)
    }
}

struct Unique<K, V>(PhantomData<(K, V)>);

impl<'de, K, V> Visitor<'de> for Unique<K, V>
where
    K: Ord + Deserialize<'de>,
    V: Deserialize<'de>,
{
    type Value = BTreeMap<K, V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a mapping")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = BTreeMap::new();
        while let Some(key) = map.next_key_seed(NewKey(&out))? {
            let value = map.next_value()?;
            out.insert(key, value);
        }
        Ok(out)
    }
}

/// A key, read as text, that must not be in the map so far.
struct NewKey<'a, K, V>(&'a BTreeMap<K, V>);

impl<'de, K, V> DeserializeSeed<'de> for NewKey<'_, K, V>
where
    K: Ord + Deserialize<'de>,
{
    type Value = K;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, K, V> Visitor<'de> for NewKey<'_, K, V>
where
    K: Ord + Deserialize<'de>,
{
    type Value = K;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<K, E> {
        let key = K::deserialize(StrDeserializer::<E>::new(v))?;
        if self.0.contains_key(&key) {
            return Err(E::custom(format!(
                "duplicate key `{v}`: it means the same as a key before it in this mapping; a key is given once"
            )));
        }
        Ok(key)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<K, E> {
        self.visit_str(&v.to_string())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<K, E> {
        self.visit_str(&v.to_string())
    }
}
