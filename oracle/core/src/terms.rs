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

/// A keyword ability (702): one of those that matter to P/T or to what
/// follows from it, or any other keyword ability, carried as an inert one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Keyword {
    /// 702.9.
    Flying,
    /// 702.7.
    FirstStrike,
    /// 702.4.
    DoubleStrike,
    /// 702.2: damage from it destroys (704.5h).
    Deathtouch,
    /// 702.147.
    Decayed,
    /// 702.83.
    Exalted,
    /// 702.10.
    Haste,
    /// 702.11.
    Hexproof,
    /// 702.12: can't be destroyed (704.5g/h), still dies to 704.5f.
    Indestructible,
    /// 702.15: its damage also gains its controller that much life (120.3f).
    Lifelink,
    /// 702.111.
    Menace,
    /// 702.17.
    Reach,
    /// 702.28.
    Shadow,
    /// 702.19.
    Trample,
    /// 702.20.
    Vigilance,
    /// 702.3.
    Defender,
    /// 702.80: its damage to creatures is -1/-1 counters (120.3d).
    Wither,
    /// 702.90: wither, and poison instead of life loss (120.3b, 120.3d).
    Infect,
    /// 702.79: returns with a -1/-1 counter if it had none.
    Persist,
    /// 702.93: returns with a +1/+1 counter if it had none.
    Undying,
    /// Any other keyword ability (flanking, shroud, changeling…): an
    /// object has it, gains and loses it (613.1f), and it is observed, but
    /// it changes nothing ptoracle models.
    Inert(InertKeyword),
}

/// A keyword ability whose effects ptoracle does not model: its name, by
/// its place in [`INERT_KEYWORDS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InertKeyword(u16);

impl InertKeyword {
    /// The inert keyword at this place in [`INERT_KEYWORDS`].
    pub fn from_index(i: usize) -> Option<InertKeyword> {
        if i < INERT_KEYWORDS.len() {
            u16::try_from(i).ok().map(InertKeyword)
        } else {
            None
        }
    }

    /// Its place in [`INERT_KEYWORDS`].
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// Its name, as in [`INERT_KEYWORDS`].
    pub fn name(self) -> &'static str {
        INERT_KEYWORDS
            .get(usize::from(self.0))
            .copied()
            .unwrap_or("")
    }
}

/// The keyword abilities of 702 other than those in [`Keyword::ALL`], by
/// name (without a number or cost: `rampage`, `ward`). A scenario may give
/// an object any of them; each is carried as an inert keyword.
pub const INERT_KEYWORDS: &[&str] = &[
    "absorb",
    "afflict",
    "affinity",
    "afterlife",
    "aftermath",
    "amplify",
    "annihilator",
    "ascend",
    "assist",
    "aura swap",
    "awaken",
    "backup",
    "banding",
    "bargain",
    "battle cry",
    "bestow",
    "blitz",
    "bloodthirst",
    "boast",
    "bushido",
    "buyback",
    "cascade",
    "casualty",
    "champion",
    "changeling",
    "cipher",
    "cleave",
    "companion",
    "compleated",
    "conspire",
    "convoke",
    "craft",
    "crew",
    "cumulative upkeep",
    "cycling",
    "dash",
    "daybound",
    "delve",
    "demonstrate",
    "dethrone",
    "devoid",
    "devour",
    "disguise",
    "disturb",
    "dredge",
    "echo",
    "embalm",
    "emerge",
    "enchant",
    "encore",
    "enlist",
    "entwine",
    "epic",
    "equip",
    "escalate",
    "escape",
    "eternalize",
    "evoke",
    "evolve",
    "exploit",
    "extort",
    "fabricate",
    "fading",
    "fear",
    "flanking",
    "flash",
    "flashback",
    "forecast",
    "foretell",
    "fortify",
    "freerunning",
    "frenzy",
    "fuse",
    "gift",
    "graft",
    "gravestorm",
    "haunt",
    "hidden agenda",
    "hideaway",
    "horsemanship",
    "impending",
    "improvise",
    "ingest",
    "intimidate",
    "jump-start",
    "kicker",
    "landwalk",
    "forestwalk",
    "islandwalk",
    "mountainwalk",
    "plainswalk",
    "swampwalk",
    "level up",
    "living metal",
    "living weapon",
    "madness",
    "melee",
    "mentor",
    "miracle",
    "modular",
    "morph",
    "megamorph",
    "mutate",
    "myriad",
    "nightbound",
    "ninjutsu",
    "offering",
    "offspring",
    "outlast",
    "overload",
    "partner",
    "phasing",
    "plot",
    "poisonous",
    "protection",
    "prototype",
    "provoke",
    "prowess",
    "prowl",
    "rampage",
    "ravenous",
    "read ahead",
    "rebound",
    "reconfigure",
    "recover",
    "reinforce",
    "renown",
    "replicate",
    "retrace",
    "riot",
    "ripple",
    "saddle",
    "scavenge",
    "shroud",
    "skulk",
    "soulbond",
    "soulshift",
    "spectacle",
    "splice",
    "split second",
    "spree",
    "squad",
    "storm",
    "sunburst",
    "surge",
    "suspend",
    "toxic",
    "training",
    "transfigure",
    "transmute",
    "tribute",
    "umbra armor",
    "undaunted",
    "unearth",
    "unleash",
    "vanishing",
    "ward",
];

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
            Keyword::Inert(k) => k.name(),
        }
    }

    /// The keyword of [`Keyword::ALL`] with this name, if any (the
    /// keywords that can be keyword counters, 122.1b).
    pub fn from_name(name: &str) -> Option<Keyword> {
        Keyword::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Any keyword with this name: one of [`Keyword::ALL`], else an inert one.
    pub fn parse(name: &str) -> Option<Keyword> {
        Keyword::from_name(name).or_else(|| {
            let i = INERT_KEYWORDS.iter().position(|k| *k == name)?;
            InertKeyword::from_index(i).map(Keyword::Inert)
        })
    }

    /// Whether it is inert: not one of [`Keyword::ALL`], whose effects ptoracle models.
    pub fn is_inert(self) -> bool {
        matches!(self, Keyword::Inert(_))
    }
}

impl FromStr for Keyword {
    type Err = String;
    fn from_str(s: &str) -> Result<Keyword, String> {
        Keyword::parse(s).ok_or_else(|| {
            format!(
                "unknown keyword `{s}`: expected a keyword ability of 702 by its name, such as flying, first strike or flanking"
            )
        })
    }
}

impl Serialize for Keyword {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Keyword {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Keyword;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a keyword ability by its name, such as flying")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Keyword, E> {
                v.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

impl JsonSchema for Keyword {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Keyword".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = Keyword::ALL
            .iter()
            .map(|k| k.name())
            .chain(INERT_KEYWORDS.iter().copied())
            .collect();
        schemars::json_schema!({
            "type": "string",
            "enum": names,
            "description": "a keyword ability (702) by its name; those other than the ones ptoracle models are inert",
        })
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
    fn every_keyword_name_parses_to_itself_once() {
        let names: Vec<&str> = Keyword::ALL
            .iter()
            .map(|k| k.name())
            .chain(INERT_KEYWORDS.iter().copied())
            .collect();
        for name in &names {
            let k: Keyword = name.parse().unwrap();
            assert_eq!(k.name(), *name);
            assert_eq!(k.is_inert(), !Keyword::ALL.contains(&k));
            assert_eq!(names.iter().filter(|n| *n == name).count(), 1, "{name}");
        }
        assert!("flyng".parse::<Keyword>().is_err());
        // Only the keywords ptoracle models are keyword counters (122.1b).
        assert_eq!(
            "shroud".parse::<CounterKind>().unwrap(),
            CounterKind::named("shroud")
        );
    }

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
