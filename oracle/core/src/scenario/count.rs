//! Counts, timestamps and mana pools as the format writes them.

use super::*;

/// The mana in a pool, by type (106.4).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(transparent)]
pub struct ManaPool(pub BTreeMap<Mana, Count>);

// Read without its zero entries: `{G: 0}` is the empty pool, and written
// as such (found by the protocol fuzz target, where it did not read back).
impl<'de> Deserialize<'de> for ManaPool {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ManaPool, D::Error> {
        unique::deserialize(d).map(|m| ManaPool(m).normalized())
    }
}

impl ManaPool {
    /// Whether it holds no mana.
    pub fn is_empty(&self) -> bool {
        self.0.values().all(|c| c.0 == 0)
    }

    /// The pool without zero entries, for comparing.
    pub fn normalized(&self) -> ManaPool {
        ManaPool(
            self.0
                .iter()
                .filter(|(_, c)| c.0 != 0)
                .map(|(m, c)| (*m, *c))
                .collect(),
        )
    }
}

impl fmt::Display for ManaPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.normalized();
        if n.0.is_empty() {
            return f.write_str("empty");
        }
        for (i, (m, c)) in n.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}{{{m}}}", c.0)?;
        }
        Ok(())
    }
}

/// A number of things: an integer from 0 to 2^63-1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Count(pub i64);

impl Count {
    /// Whether it is zero.
    pub fn is_zero(&self) -> bool {
        self.0 == 0
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number from 0 to 9223372036854775807")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Count, E> {
                if v < 0 {
                    Err(E::custom(format!("{v} is negative; a count is 0 or more")))
                } else {
                    Ok(Count(v))
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Count, E> {
                i64::try_from(v).map(Count).map_err(|_| {
                    E::custom(format!(
                        "{v} is too large; a count is at most 9223372036854775807 (2^63-1)"
                    ))
                })
            }
            fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Count, E> {
                Err(E::custom(format!(
                    "{v} is too large; a count is at most 9223372036854775807 (2^63-1)"
                )))
            }
            fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Count, E> {
                Err(E::custom(format!(
                    "{v} is out of range; a count is a whole number from 0 to 9223372036854775807"
                )))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Count, E> {
                Err(E::custom(format!(
                    "{v} is not a whole number; the game uses only integers (107.1a), and a count is from 0 to 9223372036854775807"
                )))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for Count {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Count".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "integer",
            "minimum": 0,
            "maximum": i64::MAX,
        })
    }
    fn inline_schema() -> bool {
        true
    }
}

/// A timestamp (613.7): a positive integer; later is larger.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(transparent)]
pub struct Timestamp(pub Count);
