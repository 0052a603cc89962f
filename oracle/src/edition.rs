//! Editions of the Comprehensive Rules, and the rule switches that tell them
//! apart.
//!
//! The resolver never hard-codes a rule that has changed over the years: it
//! reads it from [`Rules`], which each [`Edition`] carries as data. The layer-7
//! plan (which sublayer holds which kind of effect, in which order) is data
//! too, so an older edition's 6a–6e or 7a–7e is a different table, not a
//! different resolver.

use std::fmt;

use crate::terms::Keyword;

/// An edition of the rules, identified by its effective date.
///
/// ```
/// use ptoracle::Edition;
/// let e = Edition::parse("2026-09-25").unwrap();
/// assert_eq!(e, Edition::current());
/// assert!(Edition::parse("1066-10-14").unwrap_err().to_string().contains("2026-09-25"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edition(u8);

/// What one edition says on every rule that changed across editions.
#[derive(Debug)]
pub struct Rules {
    /// The sublayers of layer 7, in the order they apply.
    pub layer7: &'static [Sublayer],
    /// How many of the first sublayers make up base P/T (208.4b: 7a and 7b).
    pub base_sublayers: usize,
    /// 107.1b since 2017-07-14: a negative amount in "+X/+Y" becomes 0.
    /// (Before, "…or otherwise modifies P/T" let the negative value through.)
    pub clamp_negative_modification: bool,
    /// 701.10c since 2018-04-27: doubling a negative value lowers it.
    pub double_negative_lowers: bool,
    /// 701.11c since 2026-01-16: tripling a negative value lowers it.
    pub triple_negative_lowers: bool,
    /// 122.1j since 2026-09-25: a hone counter on an Equipment gives the
    /// equipped creature +1/+0.
    pub hone_counters: bool,
    /// 122.1b: the keywords a keyword counter can grant.
    pub keyword_counters: &'static [Keyword],
    /// 208.2a: a characteristic-defining ability works in every zone
    /// (K.10.5, 1999: every `*` was 0 outside play).
    pub cda_in_every_zone: bool,
    /// 122.1a: +X/+Y counters also count on a creature card in another zone.
    pub pt_counters_off_battlefield: bool,
    /// 704.5q: +1/+1 and -1/-1 counters annihilate.
    pub counter_annihilation: bool,
}

/// One sublayer of layer 7.
#[derive(Debug)]
pub struct Sublayer {
    /// Its label in this edition, e.g. `7c`.
    pub label: &'static str,
    /// The rule that defines it, e.g. `613.4c`.
    pub rule: &'static str,
    /// What applies in it, all in one timestamp order (613.7).
    pub holds: &'static [PtClass],
}

/// A kind of thing that changes P/T, for placing it in a sublayer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtClass {
    /// A characteristic-defining ability (604.3).
    Cda,
    /// An effect that sets P/T or base P/T, including level up (107.8).
    Set,
    /// A modification created by a resolved spell or ability (incl. double and triple).
    ModifyResolved,
    /// A modification from a static ability.
    ModifyStatic,
    /// +X/+Y counters (122.1a) and hone counters (122.1j).
    Counters,
    /// Switching power and toughness.
    Switch,
}

struct Entry {
    id: &'static str,
    name: &'static str,
    rules: Rules,
}

/// 122.1b's keyword-counter list in the 2026 editions.
const KEYWORD_COUNTERS_2026: &[Keyword] = &[
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
];

/// 613.4 since 2020-04-17: counters share 7c with modifying effects, switch is 7d.
const LAYER7_2020: &[Sublayer] = &[
    Sublayer {
        label: "7a",
        rule: "613.4a",
        holds: &[PtClass::Cda],
    },
    Sublayer {
        label: "7b",
        rule: "613.4b",
        holds: &[PtClass::Set],
    },
    Sublayer {
        label: "7c",
        rule: "613.4c",
        holds: &[
            PtClass::ModifyResolved,
            PtClass::ModifyStatic,
            PtClass::Counters,
        ],
    },
    Sublayer {
        label: "7d",
        rule: "613.4d",
        holds: &[PtClass::Switch],
    },
];

/// The catalog, oldest first. Index order is chronological order.
static EDITIONS: &[Entry] = &[Entry {
    id: "2026-09-25",
    name: "hone counters (122.1j); the current rules",
    rules: Rules {
        layer7: LAYER7_2020,
        base_sublayers: 2,
        clamp_negative_modification: true,
        double_negative_lowers: true,
        triple_negative_lowers: true,
        hone_counters: true,
        keyword_counters: KEYWORD_COUNTERS_2026,
        cda_in_every_zone: true,
        pt_counters_off_battlefield: true,
        counter_annihilation: true,
    },
}];

impl Edition {
    /// The newest edition: the default everywhere.
    pub fn current() -> Edition {
        Edition((EDITIONS.len() - 1) as u8)
    }

    /// Every known edition, oldest first.
    pub fn all() -> impl Iterator<Item = Edition> {
        (0..EDITIONS.len()).map(|i| Edition(i as u8))
    }

    /// The edition with this id (its effective date, e.g. `2026-09-25`).
    pub fn parse(id: &str) -> Result<Edition, UnknownEdition> {
        Edition::all()
            .find(|e| e.id() == id)
            .ok_or_else(|| UnknownEdition(id.to_string()))
    }

    /// Its id: the effective date.
    pub fn id(self) -> &'static str {
        EDITIONS[self.0 as usize].id
    }

    /// A readable name: what changed in it.
    pub fn name(self) -> &'static str {
        EDITIONS[self.0 as usize].name
    }

    /// The rules in force in it.
    pub fn rules(self) -> &'static Rules {
        &EDITIONS[self.0 as usize].rules
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// An edition id that is not in the catalog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEdition(pub String);

impl fmt::Display for UnknownEdition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown edition `{}`; known editions:", self.0)?;
        for e in Edition::all() {
            write!(f, " {} ({})", e.id(), e.name())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownEdition {}

/// A range of editions a ruling holds in: `2017-07-14..` (from), `..2020-01-22`
/// (up to and including), `2009-07..2020-01-22`, or one edition id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditionRange {
    /// The first edition it holds in, if bounded.
    pub from: Option<Edition>,
    /// The last edition it holds in, if bounded.
    pub to: Option<Edition>,
}

impl EditionRange {
    /// Whether `e` is in the range.
    pub fn contains(&self, e: Edition) -> bool {
        self.from.is_none_or(|f| f <= e) && self.to.is_none_or(|t| e <= t)
    }
}

impl fmt::Display for EditionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from, self.to) {
            (Some(a), Some(b)) if a == b => write!(f, "{a}"),
            (a, b) => {
                if let Some(a) = a {
                    write!(f, "{a}")?;
                }
                f.write_str("..")?;
                if let Some(b) = b {
                    write!(f, "{b}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::str::FromStr for EditionRange {
    type Err = String;
    fn from_str(s: &str) -> Result<EditionRange, String> {
        let bound = |part: &str| -> Result<Option<Edition>, String> {
            if part.is_empty() {
                Ok(None)
            } else {
                Edition::parse(part).map(Some).map_err(|e| e.to_string())
            }
        };
        let range = match s.split_once("..") {
            Some((a, b)) => EditionRange {
                from: bound(a)?,
                to: bound(b)?,
            },
            None => {
                let e = bound(s)?;
                EditionRange { from: e, to: e }
            }
        };
        if let (Some(a), Some(b)) = (range.from, range.to) {
            if a > b {
                return Err(format!("edition range `{s}` is empty: {a} comes after {b}"));
            }
        }
        Ok(range)
    }
}

crate::number::string_serde!(
    EditionRange,
    "EditionRange",
    "^([0-9]{4}-[0-9]{2}(-[0-9]{2})?)?(\\.\\.([0-9]{4}-[0-9]{2}(-[0-9]{2})?)?)?$",
    "the editions a ruling holds in: 2017-07-14.., ..2020-01-22, 2009-07..2020-01-22, or one edition"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        let r: EditionRange = "2026-09-25..".parse().unwrap();
        assert!(r.contains(Edition::current()));
        assert_eq!(r.to_string(), "2026-09-25..");
        assert!(
            "..".parse::<EditionRange>()
                .unwrap()
                .contains(Edition::current())
        );
        assert!("2031-01-01..".parse::<EditionRange>().is_err());
    }

    #[test]
    fn base_sublayers_are_within_the_plan() {
        for e in Edition::all() {
            assert!(e.rules().base_sublayers <= e.rules().layer7.len());
        }
    }
}
