//! The counter actions (122): put, double, remove, move, and the scaling
//! of an amount.

use super::*;

/// Put `count` counters of a kind on an object or a player (poison only).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterPut {
    /// The object or player.
    pub on: Handle,
    /// The kind of counter.
    pub kind: CounterKind,
    /// How many (default 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: Count,
    /// The player who puts them (default: the first player; in a
    /// triggered ability, its controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Handle>,
}

/// Double the number of counters of a kind on an object, or of poison
/// counters on a player (701.10e): as many more are put on it as it has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterDouble {
    /// The object or player.
    pub on: Handle,
    /// The kind of counter.
    pub kind: CounterKind,
    /// The player who puts them (default: the first player; in a
    /// triggered ability, its controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Handle>,
}

/// Remove up to `count` counters of a kind from an object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterRemove {
    /// The object.
    pub from: Handle,
    /// The kind of counter.
    pub kind: CounterKind,
    /// How many at most (default 1).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: Count,
}

/// Move counters of a kind from one permanent to another (122.5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterMove {
    /// Where the counters are.
    pub from: Handle,
    /// Where they go.
    pub to: Handle,
    /// The kind of counter.
    pub kind: CounterKind,
    /// How many (default 1); each counter moves only if it can.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: Count,
    /// The player who moves them, and so puts them on `to` (default: the
    /// first player; in a triggered ability, its controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Handle>,
}

/// "Put its counters on …": every kind, or the kinds listed (122.8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountersFrom {
    /// The object whose counters they are (it may have left the battlefield).
    pub from: Handle,
    /// The permanent that gets them.
    pub to: Handle,
    /// Only these kinds (default: every kind it had).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<CounterKind>,
    /// The player who puts them (default: the first player; in a
    /// triggered ability, its controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<Handle>,
}

/// Double or triple a creature's power and/or toughness (701.10, 701.11).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scale {
    /// The creature.
    pub affects: Handle,
    /// Which value(s).
    pub what: ScaleWhat,
    /// How long the resulting +X/+Y lasts.
    pub until: Until,
    /// The spell or ability's name, for explanations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Its timestamp (default: the next timestamp).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<Timestamp>,
}

/// Which values a doubling or tripling changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScaleWhat {
    /// Power only.
    Power,
    /// Toughness only.
    Toughness,
    /// Power and toughness.
    Both,
}
