//! Quantities (the numbers an ability reads from the game) and filters (the
//! objects an effect or a count is about).

use std::fmt;

use schemars::JsonSchema;
use serde::de::value::MapAccessDeserializer;
use serde::{Deserialize, Serialize};

use super::Handle;
use crate::terms::{CardType, Color, CounterKind, Zone};

/// A number read from the game: a constant or a reference.
///
/// Written as an integer, or as a one-key mapping such as
/// `{ power_of: colossus }`.
#[derive(Clone, Debug, PartialEq)]
pub enum Quantity {
    /// A constant.
    Fixed(i64),
    /// A value read from the game.
    Ref(Box<QuantityRef>),
}

/// A value read from the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum QuantityRef {
    /// An object's power (its last known power once it has left the battlefield, 608.2h).
    PowerOf(Handle),
    /// An object's toughness.
    ToughnessOf(Handle),
    /// The number of counters of a kind on an object.
    Counters(CountersOn),
    /// The number of objects that match a filter, in the filter's zone.
    Count(Filter),
    /// A player's life total.
    Life(Handle),
    /// The number of cards in a player's hand.
    HandSize(Handle),
    /// The sum of several quantities.
    Sum(Vec<Quantity>),
    /// Half of a quantity, rounded the way the card says (107.1a).
    Half(Half),
    /// The value of X for an object: while it is a spell on the stack, the
    /// value announced for it (107.3a) or defined by its text (107.3c); 0
    /// anywhere else (107.3g). Read as a permanent enters, in its own
    /// "enters with" counters, it is still the spell's (107.3m).
    XOf(Handle),
    /// An object's mana value (202.3), X counted as `x_of` that object
    /// (202.3e), a negative X as 0 (107.1b).
    ManaValueOf(Handle),
}

/// Half of a quantity, rounded up or down (107.1a).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Half {
    /// The quantity to halve.
    pub of: Quantity,
    /// Which way to round a half: up (toward the larger number) or down.
    pub round: Round,
}

/// A direction of rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Round {
    /// Toward the larger integer: 2.5 is 3, -1.5 is -1.
    Up,
    /// Toward the smaller integer: 2.5 is 2, -1.5 is -2.
    Down,
}

impl Half {
    /// Half of `v`, rounded as asked; never overflows.
    ///
    /// ```
    /// use ptoracle_core::scenario::{Half, Quantity, Round};
    /// let h = |round| Half { of: Quantity::Fixed(0), round };
    /// assert_eq!(h(Round::Up).apply(5), 3);
    /// assert_eq!(h(Round::Down).apply(5), 2);
    /// assert_eq!(h(Round::Down).apply(-3), -2);
    /// assert_eq!(h(Round::Up).apply(-3), -1);
    /// assert_eq!(h(Round::Down).apply(i64::MIN), i64::MIN / 2);
    /// assert_eq!(h(Round::Up).apply(i64::MAX), i64::MAX / 2 + 1);
    /// ```
    pub fn apply(&self, v: i64) -> i64 {
        let floor = v.div_euclid(2);
        match self.round {
            Round::Down => floor,
            Round::Up => floor + v.rem_euclid(2),
        }
    }
}

/// The counters of a kind on an object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountersOn {
    /// The object.
    pub on: Handle,
    /// The kind of counter.
    pub kind: CounterKind,
}

impl Quantity {
    /// Describes the quantity in words, naming objects and players with `name`.
    pub fn describe(&self, name: &dyn Fn(&Handle) -> String) -> String {
        match self {
            Quantity::Fixed(n) => n.to_string(),
            Quantity::Ref(r) => match r.as_ref() {
                QuantityRef::PowerOf(h) => format!("the power of {}", name(h)),
                QuantityRef::ToughnessOf(h) => format!("the toughness of {}", name(h)),
                QuantityRef::Counters(c) => {
                    format!("the number of {} counters on {}", c.kind, name(&c.on))
                }
                QuantityRef::Count(flt) => format!("the number of {}", flt.describe(name)),
                QuantityRef::Life(h) => format!("{}'s life total", name(h)),
                QuantityRef::HandSize(h) => format!("the number of cards in {}'s hand", name(h)),
                QuantityRef::Sum(v) => v
                    .iter()
                    .map(|q| q.describe(name))
                    .collect::<Vec<_>>()
                    .join(" plus "),
                QuantityRef::XOf(h) => format!("the value of X of {}", name(h)),
                QuantityRef::ManaValueOf(h) => format!("the mana value of {}", name(h)),
                QuantityRef::Half(h) => {
                    let way = match h.round {
                        Round::Up => "up",
                        Round::Down => "down",
                    };
                    format!("half of {}, rounded {way}", h.of.describe(name))
                }
            },
        }
    }
}

impl Quantity {
    /// Whether it reads the X or the mana value of some object.
    pub fn reads_x(&self) -> bool {
        match self {
            Quantity::Fixed(_) => false,
            Quantity::Ref(r) => match r.as_ref() {
                QuantityRef::XOf(_) | QuantityRef::ManaValueOf(_) => true,
                QuantityRef::Half(h) => h.of.reads_x(),
                QuantityRef::Sum(v) => v.iter().any(Quantity::reads_x),
                _ => false,
            },
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&|h| h.to_string()))
    }
}

impl Serialize for Quantity {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Quantity::Fixed(n) => s.serialize_i64(*n),
            Quantity::Ref(r) => super::tagged::serialize(r, s),
        }
    }
}

impl<'de> Deserialize<'de> for Quantity {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Quantity, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Quantity;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an integer, or a mapping such as { power_of: handle }")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Quantity, E> {
                Ok(Quantity::Fixed(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Quantity, E> {
                i64::try_from(v)
                    .map(Quantity::Fixed)
                    .map_err(|_| E::custom(format!("{v} does not fit in a 64-bit integer")))
            }
            fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Quantity, E> {
                Err(E::custom(format!("{v} does not fit in a 64-bit integer")))
            }
            fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Quantity, E> {
                Err(E::custom(format!("{v} does not fit in a 64-bit integer")))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Quantity, E> {
                Err(E::custom(format!(
                    "{v} is not an integer; the game uses only integers (107.1)"
                )))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, a: A) -> Result<Quantity, A::Error> {
                QuantityRef::deserialize(MapAccessDeserializer::new(a))
                    .map(|r| Quantity::Ref(Box::new(r)))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for Quantity {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Quantity".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let r = g.subschema_for::<QuantityRef>();
        schemars::json_schema!({
            "description": "an integer, or a value read from the game such as { power_of: handle }",
            "anyOf": [ { "type": "integer" }, r ]
        })
    }
}

/// Which objects: every condition given must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// The zone to look in (default: battlefield; effects only ever affect the battlefield).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<Zone>,
    /// It has all these card types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<CardType>,
    /// It has none of these card types ("noncreature").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_types: Vec<CardType>,
    /// It has all these subtypes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<String>,
    /// It has all these colors.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub colors: Vec<Color>,
    /// Its controller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<Handle>,
    /// Its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// It has at least one counter of this kind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with_counter: Option<CounterKind>,
    /// "Other": not the source of the ability.
    #[serde(default, skip_serializing_if = "is_false")]
    pub other: bool,
    /// Its power is at most this (layer-7-only static abilities).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_at_most: Option<i64>,
    /// Its power is at least this (layer-7-only static abilities).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_at_least: Option<i64>,
    /// Its toughness is at most this (layer-7-only static abilities).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toughness_at_most: Option<i64>,
    /// Its toughness is at least this (layer-7-only static abilities).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toughness_at_least: Option<i64>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Filter {
    /// Whether it tests power or toughness.
    pub fn tests_pt(&self) -> bool {
        self.power_at_most.is_some()
            || self.power_at_least.is_some()
            || self.toughness_at_most.is_some()
            || self.toughness_at_least.is_some()
    }

    /// The zone it looks in.
    pub fn zone(&self) -> Zone {
        self.zone.unwrap_or(Zone::Battlefield)
    }
}

impl Filter {
    /// Describes the objects in words, naming players with `name`.
    pub fn describe(&self, name: &dyn Fn(&Handle) -> String) -> String {
        let mut words: Vec<String> = Vec::new();
        if self.other {
            words.push("other".into());
        }
        words.extend(self.colors.iter().map(|c| c.to_string()));
        words.extend(
            self.not_types
                .iter()
                .map(|t| format!("non{}", t.to_string().to_lowercase())),
        );
        words.extend(self.subtypes.iter().cloned());
        let zone = self.zone();
        // Off the battlefield an object is a card (or a token briefly):
        // "creature cards in your graveyard".
        let on_bf = zone == Zone::Battlefield;
        let t: Vec<String> = self
            .types
            .iter()
            .map(|t| t.to_string().to_lowercase())
            .collect();
        let subtype = (t.is_empty() && on_bf && !self.subtypes.is_empty())
            .then(|| words.pop())
            .flatten();
        words.push(match (t.is_empty(), on_bf) {
            // "Swamps you control".
            (true, true) if subtype.is_some() => format!("{}s", subtype.unwrap_or_default()),
            (true, true) => "objects".into(),
            (true, false) => "cards".into(),
            (false, true) => format!("{}s", t.join(" ")),
            (false, false) => format!("{} cards", t.join(" ")),
        });
        if let Some(n) = &self.name {
            words.push(format!("named {n}"));
        }
        if let Some(k) = &self.with_counter {
            words.push(format!("with a {k} counter"));
        }
        for (v, what) in [
            (self.power_at_most, "power at most"),
            (self.power_at_least, "power at least"),
            (self.toughness_at_most, "toughness at most"),
            (self.toughness_at_least, "toughness at least"),
        ] {
            if let Some(v) = v {
                words.push(format!("with {what} {v}"));
            }
        }
        let whose = self.controller.as_ref().map(name);
        match (&whose, on_bf) {
            (Some(p), true) if p == "you" => words.push("you control".into()),
            (Some(p), true) => words.push(format!("{p} controls")),
            (Some(p), false) if p == "you" => words.push(format!("in your {zone}")),
            (Some(p), false) => words.push(format!("in {p}'s {zone}")),
            (None, true) => {}
            (None, false) => words.push(format!("in {zone}")),
        }
        words.join(" ")
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&|h| h.to_string()))
    }
}
