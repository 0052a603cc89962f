//! The game's vocabulary: zones, card types, colors, keywords, mana and
//! counter kinds, with the names the ruling format uses for them.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::number::string_serde;

/// A zone (400.1).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Zone {
    /// The battlefield.
    Battlefield,
    /// A graveyard.
    Graveyard,
    /// Exile.
    Exile,
    /// A hand.
    Hand,
    /// A library.
    Library,
    /// The stack.
    Stack,
    /// The command zone.
    Command,
}

impl Zone {
    /// The name used in rulings.
    pub fn name(self) -> &'static str {
        match self {
            Zone::Battlefield => "battlefield",
            Zone::Graveyard => "graveyard",
            Zone::Exile => "exile",
            Zone::Hand => "hand",
            Zone::Library => "library",
            Zone::Stack => "stack",
            Zone::Command => "command",
        }
    }
}

/// "on the battlefield", "in the graveyard".
pub fn zone_phrase(z: Zone) -> String {
    match z {
        Zone::Battlefield => "on the battlefield".into(),
        Zone::Stack => "on the stack".into(),
        z => format!("in the {z}"),
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A card type (205.2a).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum CardType {
    /// Artifact.
    Artifact,
    /// Battle.
    Battle,
    /// Creature.
    Creature,
    /// Enchantment.
    Enchantment,
    /// Instant.
    Instant,
    /// Kindred.
    Kindred,
    /// Land.
    Land,
    /// Planeswalker.
    Planeswalker,
    /// Sorcery.
    Sorcery,
}

impl CardType {
    /// Every card type, in a fixed order.
    pub const ALL: [CardType; 9] = [
        CardType::Artifact,
        CardType::Battle,
        CardType::Creature,
        CardType::Enchantment,
        CardType::Instant,
        CardType::Kindred,
        CardType::Land,
        CardType::Planeswalker,
        CardType::Sorcery,
    ];

    /// Whether an object of this type is a permanent on the battlefield
    /// (110.4): artifact, battle, creature, enchantment, land, planeswalker.
    pub fn is_permanent(self) -> bool {
        !matches!(
            self,
            CardType::Instant | CardType::Sorcery | CardType::Kindred
        )
    }
}

impl fmt::Display for CardType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A color (105.1).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// White.
    White,
    /// Blue.
    Blue,
    /// Black.
    Black,
    /// Red.
    Red,
    /// Green.
    Green,
}

impl Color {
    /// Every color, in WUBRG order.
    pub const ALL: [Color; 5] = [
        Color::White,
        Color::Blue,
        Color::Black,
        Color::Red,
        Color::Green,
    ];
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Blue => "blue",
            Color::Black => "black",
            Color::Red => "red",
            Color::Green => "green",
        })
    }
}

/// A type of mana (106.1b): the five colors and colorless.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Mana {
    /// White mana, {W}.
    W,
    /// Blue mana, {U}.
    U,
    /// Black mana, {B}.
    B,
    /// Red mana, {R}.
    R,
    /// Green mana, {G}.
    G,
    /// Colorless mana, {C}.
    C,
}

impl fmt::Display for Mana {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// A keyword ability (702) that matters to P/T or to what follows from it.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum Keyword {
    /// 702.9.
    #[serde(rename = "flying")]
    Flying,
    /// 702.7.
    #[serde(rename = "first strike")]
    FirstStrike,
    /// 702.4.
    #[serde(rename = "double strike")]
    DoubleStrike,
    /// 702.2: damage from it destroys (704.5h).
    #[serde(rename = "deathtouch")]
    Deathtouch,
    /// 702.147.
    #[serde(rename = "decayed")]
    Decayed,
    /// 702.83.
    #[serde(rename = "exalted")]
    Exalted,
    /// 702.10.
    #[serde(rename = "haste")]
    Haste,
    /// 702.11.
    #[serde(rename = "hexproof")]
    Hexproof,
    /// 702.12: can't be destroyed (704.5g/h), still dies to 704.5f.
    #[serde(rename = "indestructible")]
    Indestructible,
    /// 702.15: its damage also gains its controller that much life (120.3f).
    #[serde(rename = "lifelink")]
    Lifelink,
    /// 702.111.
    #[serde(rename = "menace")]
    Menace,
    /// 702.17.
    #[serde(rename = "reach")]
    Reach,
    /// 702.28.
    #[serde(rename = "shadow")]
    Shadow,
    /// 702.19.
    #[serde(rename = "trample")]
    Trample,
    /// 702.20.
    #[serde(rename = "vigilance")]
    Vigilance,
    /// 702.3.
    #[serde(rename = "defender")]
    Defender,
    /// 702.80: its damage to creatures is -1/-1 counters (120.3d).
    #[serde(rename = "wither")]
    Wither,
    /// 702.90: wither, and poison instead of life loss (120.3b, 120.3d).
    #[serde(rename = "infect")]
    Infect,
    /// 702.79: returns with a -1/-1 counter if it had none.
    #[serde(rename = "persist")]
    Persist,
    /// 702.93: returns with a +1/+1 counter if it had none.
    #[serde(rename = "undying")]
    Undying,
}

impl Keyword {
    /// Every keyword, in a fixed order.
    pub const ALL: [Keyword; 20] = [
        Keyword::Flying,
        Keyword::FirstStrike,
        Keyword::DoubleStrike,
        Keyword::Deathtouch,
        Keyword::Decayed,
        Keyword::Exalted,
        Keyword::Haste,
        Keyword::Hexproof,
        Keyword::Indestructible,
        Keyword::Lifelink,
        Keyword::Menace,
        Keyword::Reach,
        Keyword::Shadow,
        Keyword::Trample,
        Keyword::Vigilance,
        Keyword::Defender,
        Keyword::Wither,
        Keyword::Infect,
        Keyword::Persist,
        Keyword::Undying,
    ];

    /// The name used in rulings and in card text.
    pub fn name(self) -> &'static str {
        match self {
            Keyword::Flying => "flying",
            Keyword::FirstStrike => "first strike",
            Keyword::DoubleStrike => "double strike",
            Keyword::Deathtouch => "deathtouch",
            Keyword::Decayed => "decayed",
            Keyword::Exalted => "exalted",
            Keyword::Haste => "haste",
            Keyword::Hexproof => "hexproof",
            Keyword::Indestructible => "indestructible",
            Keyword::Lifelink => "lifelink",
            Keyword::Menace => "menace",
            Keyword::Reach => "reach",
            Keyword::Shadow => "shadow",
            Keyword::Trample => "trample",
            Keyword::Vigilance => "vigilance",
            Keyword::Defender => "defender",
            Keyword::Wither => "wither",
            Keyword::Infect => "infect",
            Keyword::Persist => "persist",
            Keyword::Undying => "undying",
        }
    }

    /// The keyword with this name, if any.
    pub fn from_name(name: &str) -> Option<Keyword> {
        Keyword::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of counter (122.1). Counters of one kind are interchangeable.
///
/// Written as in card text: `+1/+1`, `-0/-1`, `flying`, `loyalty`, `hone`.
///
/// ```
/// use ptoracle_core::terms::CounterKind;
/// let k: CounterKind = "+1/+0".parse().unwrap();
/// assert_eq!(k, CounterKind::Pt { power: 1, toughness: 0 });
/// // A zero part takes the sign of the other part, as the cards print it.
/// assert_eq!("+0/-1".parse::<CounterKind>().unwrap().to_string(), "-0/-1");
/// assert_eq!("flying".parse::<CounterKind>().unwrap().to_string(), "flying");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CounterKind {
    /// A +X/+Y or -X/-Y counter (122.1a).
    Pt {
        /// Added to power (negative subtracts).
        power: i64,
        /// Added to toughness.
        toughness: i64,
    },
    /// A keyword counter (122.1b).
    Keyword(Keyword),
    /// Any other counter, by name: `loyalty`, `level`, `hone`, `poison`, `charge`…
    Named(String),
}

impl CounterKind {
    /// The +1/+1 counter.
    pub const PLUS_ONE: CounterKind = CounterKind::Pt {
        power: 1,
        toughness: 1,
    };
    /// The -1/-1 counter.
    pub const MINUS_ONE: CounterKind = CounterKind::Pt {
        power: -1,
        toughness: -1,
    };

    /// A named counter kind.
    pub fn named(name: &str) -> CounterKind {
        CounterKind::Named(name.to_string())
    }

    /// Whether this is the named kind `name`.
    pub fn is_named(&self, name: &str) -> bool {
        matches!(self, CounterKind::Named(n) if n == name)
    }
}

impl fmt::Display for CounterKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CounterKind::Pt { power, toughness } => {
                let negative = *power < 0 || *toughness < 0;
                let part = |v: i64, f: &mut fmt::Formatter<'_>| {
                    if v < 0 || (v == 0 && negative) {
                        write!(f, "-{}", v.unsigned_abs())
                    } else {
                        write!(f, "+{v}")
                    }
                };
                part(*power, f)?;
                f.write_str("/")?;
                part(*toughness, f)
            }
            CounterKind::Keyword(k) => f.write_str(k.name()),
            CounterKind::Named(n) => f.write_str(n),
        }
    }
}

impl FromStr for CounterKind {
    type Err = String;
    fn from_str(s: &str) -> Result<CounterKind, String> {
        if s.contains('/') {
            let change: crate::number::ModPt = s
                .parse()
                .map_err(|e: String| format!("invalid counter kind `{s}`: {e}"))?;
            let fixed = |c: crate::number::Change| match c.amount {
                crate::number::Amount::Fixed(_) => c.value(0),
                crate::number::Amount::X => None,
            };
            return match (fixed(change.power), fixed(change.toughness)) {
                (Some(power), Some(toughness)) => Ok(CounterKind::Pt { power, toughness }),
                _ => Err(format!(
                    "invalid counter kind `{s}`: a P/T counter has fixed numbers, like +1/+1"
                )),
            };
        }
        if let Some(k) = Keyword::from_name(s) {
            return Ok(CounterKind::Keyword(k));
        }
        let ok = !s.is_empty()
            && s.len() <= 40
            && s.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b' ' || b == b'-');
        if ok {
            Ok(CounterKind::Named(s.to_string()))
        } else {
            Err(format!(
                "invalid counter kind `{s}`: expected a P/T counter like +1/+1, a keyword, or a lowercase name like loyalty"
            ))
        }
    }
}

string_serde!(
    CounterKind,
    "CounterKind",
    "^([+-][0-9]+/[+-][0-9]+|[a-z][a-z0-9 -]*)$",
    "a kind of counter: +1/+1, -1/-1, +1/+0, a keyword (flying), or a name (loyalty, level, hone, poison)"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counter_kinds_round_trip() {
        for s in [
            "+1/+1",
            "-1/-1",
            "+1/+0",
            "-0/-1",
            "-1/-0",
            "+2/+2",
            "first strike",
            "loyalty",
            "hone",
        ] {
            assert_eq!(s.parse::<CounterKind>().unwrap().to_string(), s);
        }
        assert!("+X/+X".parse::<CounterKind>().is_err());
        assert!("Loyalty".parse::<CounterKind>().is_err());
        assert!("1/1".parse::<CounterKind>().is_err());
    }
}
