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
/// use ptoracle_core::Edition;
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
    /// 107.1b since 2017-07-14: a negative amount in "+X/+Y" becomes 0.
    /// (Before, "…or otherwise modifies P/T" let the negative value through.)
    pub clamp_negative_modification: bool,
    /// K.10.3 (1999–2002): a negative power or toughness counts as 0 for
    /// every purpose but changing P/T (the total power and toughness, the
    /// total power of a crew).
    pub negative_counts_as_zero: bool,
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

impl Rules {
    /// Whether `class` applies in a sublayer of its own, in no common
    /// timestamp order with anything else (613.4; K.10.Ruling.1 and 6b of
    /// 2007 mix setting effects, pumps and switches).
    ///
    /// ```
    /// use ptoracle_core::Edition;
    /// use ptoracle_core::edition::PtClass;
    /// let alone = |e: &str, c| Edition::parse(e).unwrap().rules().alone(c);
    /// assert!(!alone("2007-05", PtClass::Set));
    /// assert!(alone("2009-07", PtClass::Set));
    /// assert!(!alone("1999-04", PtClass::Switch));
    /// assert!(alone("2007-05", PtClass::Switch));
    /// ```
    pub fn alone(&self, class: PtClass) -> bool {
        self.layer7
            .iter()
            .any(|sub| sub.holds == [class].as_slice())
    }

    /// The rules (by number) on which two editions differ, one per switch
    /// that differs: what a rules update changed.
    ///
    /// ```
    /// use ptoracle_core::Edition;
    /// let a = Edition::parse("2020-01-22").unwrap().rules();
    /// let b = Edition::parse("2020-04-17").unwrap().rules();
    /// assert_eq!(a.changed_rules(b), ["613.4", "122.1b"]);
    /// ```
    pub fn changed_rules(&self, other: &Rules) -> Vec<&'static str> {
        let plan = |r: &Rules| -> Vec<(&str, &[PtClass])> {
            r.layer7.iter().map(|s| (s.label, s.holds)).collect()
        };
        let switches = [
            ("613.4", plan(self) != plan(other)),
            (
                "107.1b",
                self.clamp_negative_modification != other.clamp_negative_modification
                    || self.negative_counts_as_zero != other.negative_counts_as_zero,
            ),
            (
                "701.10c",
                self.double_negative_lowers != other.double_negative_lowers,
            ),
            (
                "701.11c",
                self.triple_negative_lowers != other.triple_negative_lowers,
            ),
            ("122.1j", self.hone_counters != other.hone_counters),
            ("122.1b", self.keyword_counters != other.keyword_counters),
            ("208.2a", self.cda_in_every_zone != other.cda_in_every_zone),
            (
                "122.1a",
                self.pt_counters_off_battlefield != other.pt_counters_off_battlefield,
            ),
            (
                "704.5q",
                self.counter_annihilation != other.counter_annihilation,
            ),
        ];
        switches
            .into_iter()
            .filter(|(_, d)| *d)
            .map(|(r, _)| r)
            .collect()
    }
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
    alias: &'static str,
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

/// 122.1b as it came in 2020-04-17: the 2026 list before shadow (by
/// 2023-11-17), exalted (2025-02-07) and decayed (2025-04-04) joined it
/// (see DECISIONS.md, D19).
const KEYWORD_COUNTERS_2020: &[Keyword] = &[
    Keyword::Flying,
    Keyword::FirstStrike,
    Keyword::DoubleStrike,
    Keyword::Deathtouch,
    Keyword::Haste,
    Keyword::Hexproof,
    Keyword::Indestructible,
    Keyword::Lifelink,
    Keyword::Menace,
    Keyword::Reach,
    Keyword::Trample,
    Keyword::Vigilance,
];

/// K.10 (1999–2002): the `*` text first (K.10.7), then counters before every
/// other effect (K.10.2), then setting effects, pumps and switches alike in
/// timestamp order (K.10.Ruling.1).
const LAYER_1999: &[Sublayer] = &[
    Sublayer {
        label: "*",
        rule: "K.10.7",
        holds: &[PtClass::Cda],
    },
    Sublayer {
        label: "counters",
        rule: "K.10.2",
        holds: &[PtClass::Counters],
    },
    Sublayer {
        label: "effects",
        rule: "K.10.Ruling.1",
        holds: &[
            PtClass::Set,
            PtClass::ModifyResolved,
            PtClass::ModifyStatic,
            PtClass::Switch,
        ],
    },
];

/// Layer 6 of Future Sight (2007): 6b holds setting effects and the changes
/// of resolved spells and abilities in one timestamp order, so a newer
/// setting effect overrides an older pump; static pumps come after counters.
const LAYER_2007: &[Sublayer] = &[
    Sublayer {
        label: "6a",
        rule: "613.4a",
        holds: &[PtClass::Cda],
    },
    Sublayer {
        label: "6b",
        rule: "613.4b, 613.4c",
        holds: &[PtClass::Set, PtClass::ModifyResolved],
    },
    Sublayer {
        label: "6c",
        rule: "613.4c",
        holds: &[PtClass::Counters],
    },
    Sublayer {
        label: "6d",
        rule: "613.4c",
        holds: &[PtClass::ModifyStatic],
    },
    Sublayer {
        label: "6e",
        rule: "613.4d",
        holds: &[PtClass::Switch],
    },
];

/// Layer 7 from Magic 2010 (2009-07) to 2020-01-22: every modification in
/// 7c, counters in their own 7d, switch in 7e.
const LAYER7_2009: &[Sublayer] = &[
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
        holds: &[PtClass::ModifyResolved, PtClass::ModifyStatic],
    },
    Sublayer {
        label: "7d",
        rule: "613.4c",
        holds: &[PtClass::Counters],
    },
    Sublayer {
        label: "7e",
        rule: "613.4d",
        holds: &[PtClass::Switch],
    },
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

/// The rules of the current edition, which the older ones are written
/// against: each older entry says only what differs.
const CURRENT: Rules = Rules {
    layer7: LAYER7_2020,
    clamp_negative_modification: true,
    negative_counts_as_zero: false,
    double_negative_lowers: true,
    triple_negative_lowers: true,
    hone_counters: true,
    keyword_counters: KEYWORD_COUNTERS_2026,
    cda_in_every_zone: true,
    pt_counters_off_battlefield: true,
    counter_annihilation: true,
};

/// 2020-01-22 (Theros Beyond Death), the last edition before the counter
/// merge; also the rules of 2018-04-27.
const THB: Rules = Rules {
    layer7: LAYER7_2009,
    triple_negative_lowers: false,
    hone_counters: false,
    keyword_counters: &[],
    ..CURRENT
};

/// 2009-07 (Magic 2010): layer 7 with 7a–7e; the exception of 107.1b for
/// effects that change P/T lets a negative X through.
const M10: Rules = Rules {
    clamp_negative_modification: false,
    double_negative_lowers: true,
    triple_negative_lowers: true,
    pt_counters_off_battlefield: false,
    ..THB
};

/// The catalog, oldest first. Index order is chronological order.
static EDITIONS: &[Entry] = &[
    Entry {
        id: "1999-04",
        alias: "classic-sixth",
        name: "the 1999–2002 rulings summary (K.10): counters before every other effect, setting and pump effects in one timestamp order, a negative value counts as 0 except to change P/T, every * is 0 out of play",
        rules: Rules {
            layer7: LAYER_1999,
            negative_counts_as_zero: true,
            cda_in_every_zone: false,
            counter_annihilation: false,
            ..M10
        },
    },
    Entry {
        id: "2007-05",
        alias: "future-sight",
        name: "Future Sight: integers and negative values; sublayers 6a–6e, where setting effects and resolved pumps share one timestamp order",
        rules: Rules {
            layer7: LAYER_2007,
            counter_annihilation: false,
            ..M10
        },
    },
    Entry {
        id: "2009-07",
        alias: "m10",
        name: "Magic 2010: layer 7 with sublayers 7a–7e (7d counters, 7e switch)",
        rules: M10,
    },
    Entry {
        id: "2017-07-14",
        alias: "hou",
        name: "Hour of Devastation: +X with a negative X becomes +0 (107.1b)",
        rules: Rules {
            double_negative_lowers: false,
            ..THB
        },
    },
    Entry {
        id: "2018-04-27",
        alias: "dominaria",
        name: "Dominaria: double is a keyword action, a negative power doubles downward (701.10)",
        rules: THB,
    },
    Entry {
        id: "2020-01-22",
        alias: "thb",
        name: "Theros Beyond Death: the last rules with counters in a sublayer of their own (7d)",
        rules: THB,
    },
    Entry {
        id: "2020-04-17",
        alias: "ikoria",
        name: "Ikoria: counters merged into 7c, switch becomes 7d, counter timestamps, keyword counters",
        rules: Rules {
            layer7: LAYER7_2020,
            keyword_counters: KEYWORD_COUNTERS_2020,
            ..THB
        },
    },
    Entry {
        id: "2026-01-16",
        alias: "triple",
        name: "triple is a keyword action, a negative power triples downward (701.11)",
        rules: Rules {
            hone_counters: false,
            ..CURRENT
        },
    },
    Entry {
        id: "2026-09-25",
        alias: "hone",
        name: "hone counters (122.1j); the current rules",
        rules: CURRENT,
    },
];

impl Edition {
    /// The newest edition: the default everywhere.
    pub fn current() -> Edition {
        Edition((EDITIONS.len() - 1) as u8)
    }

    /// Every known edition, oldest first.
    pub fn all() -> impl Iterator<Item = Edition> {
        (0..EDITIONS.len()).map(|i| Edition(i as u8))
    }

    /// The edition with this id (its effective date, e.g. `2026-09-25`), its
    /// alias (e.g. `m10`), or a prefix of one id only (`2020-01`).
    ///
    /// ```
    /// use ptoracle_core::Edition;
    /// assert_eq!(Edition::parse("m10").unwrap().id(), "2009-07");
    /// assert_eq!(Edition::parse("2020-01").unwrap().id(), "2020-01-22");
    /// // `2026` is the prefix of two editions: an error that lists them all.
    /// assert!(Edition::parse("2026").unwrap_err().to_string().contains("2026-01-16"));
    /// ```
    pub fn parse(id: &str) -> Result<Edition, UnknownEdition> {
        let unknown = || UnknownEdition(id.to_string());
        if let Some(e) = Edition::all().find(|e| e.id() == id || e.alias() == id) {
            return Ok(e);
        }
        let mut prefixed = Edition::all().filter(|e| !id.is_empty() && e.id().starts_with(id));
        match (prefixed.next(), prefixed.next()) {
            (Some(e), None) => Ok(e),
            _ => Err(unknown()),
        }
    }

    /// Its id: the effective date.
    pub fn id(self) -> &'static str {
        EDITIONS[self.0 as usize].id
    }

    /// A short alias, e.g. `m10` for 2009-07.
    pub fn alias(self) -> &'static str {
        EDITIONS[self.0 as usize].alias
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
        for (i, e) in Edition::all().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep} {} ({})", e.id(), e.alias())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownEdition {}

/// A range of editions a ruling holds in: `2017-07-14..` (from), `..2020-01-22`
/// (up to and including), `2009-07..2020-01-22`, or one edition id.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct EditionRange {
    /// The first edition it holds in, if bounded.
    pub from: Option<Edition>,
    /// The last edition it holds in, if bounded.
    pub to: Option<Edition>,
}

impl EditionRange {
    /// Whether the two ranges share an edition.
    pub fn overlaps(&self, other: &EditionRange) -> bool {
        Edition::all().any(|e| self.contains(e) && other.contains(e))
    }

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
    fn every_plan_places_each_class_once() {
        use PtClass::*;
        for e in Edition::all() {
            for class in [Cda, Set, ModifyResolved, ModifyStatic, Counters, Switch] {
                let n = e
                    .rules()
                    .layer7
                    .iter()
                    .filter(|s| s.holds.contains(&class))
                    .count();
                assert_eq!(n, 1, "{e}: {class:?}");
            }
        }
    }

    #[test]
    fn ids_are_chronological_and_names_unique() {
        let all: Vec<Edition> = Edition::all().collect();
        for w in all.windows(2) {
            assert!(w[0].id() < w[1].id(), "{} {}", w[0], w[1]);
        }
        for a in &all {
            assert_eq!(Edition::parse(a.id()), Ok(*a));
            assert_eq!(Edition::parse(a.alias()), Ok(*a));
        }
    }
}
