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
    /// 107.1b since 2017-07-07: a negative amount in "+X/+Y" becomes 0.
    /// (Before, "…or otherwise modifies P/T" let the negative value through.)
    pub clamp_negative_modification: bool,
    /// K.10.3 (1999–2002): a negative power or toughness counts as 0 for
    /// every purpose but changing P/T (the total power and toughness, the
    /// total power of a crew).
    pub negative_counts_as_zero: bool,
    /// 701.10c since 2018-04-27: doubling a negative value lowers it.
    pub double_negative_lowers: bool,
    /// 701.11c since 2025-06-06: tripling a negative value lowers it.
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
    /// 704.5r since 2009-09-04: a permanent that "can't have more than N"
    /// counters of a kind loses the excess as a state-based action.
    pub counter_caps: bool,
    /// 702.15 since Magic 2010: lifelink is static, the life is gained with
    /// the damage. Before, a trigger (2007-05-01 502.68a) gained it after
    /// the state-based actions, and only for a source on the battlefield
    /// as it dealt the damage (402.8 of 2007-05-01).
    pub lifelink_static: bool,
    /// 702.2 since Magic 2010 (702.2a of 2009-07-11): deathtouch is static,
    /// and a creature dealt damage by a deathtouch source is destroyed by
    /// the state-based action of 704.5h, together with any other. Before,
    /// a trigger (2007-05-01 502.63a, "destroy that creature") that
    /// resolves after the state-based actions, and only for a source on
    /// the battlefield as it dealt the damage (402.8 of 2007-05-01).
    pub deathtouch_static: bool,
    /// 613.7f and 613.7g since 2015-07-17 (613.6e and 613.6f then): a
    /// permanent gets a new timestamp each time it turns face up or face
    /// down, and a double-faced one each time it transforms. Before, an
    /// object's timestamp was the time it entered its zone (613.6c of
    /// 2015-03-27), and turning it over changed nothing of it.
    pub turning_over_takes_timestamp: bool,
    /// 509.2 and 510.1c–d from Magic 2010 (2009-07-11) until Foundations
    /// (2024-11-08): the damage assignment order announced as blockers are
    /// declared binds the attacker: no damage to a blocker unless each one
    /// ahead of it is assigned lethal damage. Before and since, the
    /// controller divides the damage as they choose (310.2c of 2009-05-01,
    /// 510.1c of 2024-11-08).
    pub damage_assignment_order: bool,
    /// 702.2c since Magic 2011 (702.2b of 2010-07-16): any nonzero combat
    /// damage assigned by a source with deathtouch is lethal damage. Under
    /// Magic 2010 (702.2b of 2009-07-11) a deathtouch creature divides its
    /// damage as it likes instead, its order aside, and lethal damage is
    /// read from toughness; before, deathtouch was a trigger (502.63a).
    pub deathtouch_assigns_one_as_lethal: bool,
    /// 707.2 (706.2, 503.2 then) since the text of 2005-10-01: the P/T
    /// (and keywords) chosen as a permanent entered are part of its
    /// copiable values. Before, a copy got the printed values (as modified
    /// by copy effects and face-down status) and no choice (DECISIONS.md
    /// D46).
    pub entry_choice_copiable: bool,
    /// 613.7a since the text of 2005-10-01 (418.5f then): the effect of a
    /// static ability a permanent has through a copy effect has the copy
    /// effect's timestamp when that is later than the permanent's. Before,
    /// every static ability's effect had the timestamp of its object
    /// (418.5f of 2005-08-01, 418.5c of 2003-03-15; DECISIONS.md D61).
    pub copied_ability_takes_copy_timestamp: bool,
    /// 707.9d since the text of 2011-02-04 (706.8d then): a copy effect
    /// that doesn't copy, keeps or modifies a characteristic copies no
    /// characteristic-defining ability defining it. Before, the original's
    /// ability was copied like any other and, a characteristic-defining
    /// ability of the copy (604.3a), applied in 7a over the exception
    /// (612.3a of 2009-07-11; DECISIONS.md D70).
    pub copy_exception_drops_cda: bool,
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

    /// 509.2, 510.1c: whether the damage assignment order announced as
    /// blockers were declared binds an attacking creature (with deathtouch
    /// or not) as it assigns its combat damage. Magic 2010's deathtouch
    /// divided freely (702.2b of 2009-07-11).
    ///
    /// ```
    /// use ptoracle_core::Edition;
    /// let binds = |e: &str, dt| Edition::parse(e).unwrap().rules().order_binds(dt);
    /// assert!(!binds("2007-05", false));
    /// assert!(binds("2009-07", false) && !binds("2009-07", true));
    /// assert!(binds("2010-07-16", true));
    /// assert!(!binds("2024-11-08", false));
    /// ```
    pub fn order_binds(&self, deathtouch: bool) -> bool {
        self.damage_assignment_order && (self.deathtouch_assigns_one_as_lethal || !deathtouch)
    }

    /// Whether an effect that also changes types applies whole where
    /// type-changing effects apply, its other parts included, before the
    /// effects that change no types (418.5e of 2003-03-15, 418.5b of
    /// 2003-12-01 to 2005-08-01; DECISIONS.md D72): the plans whose layer 7
    /// has a step for [`PtClass::WithTypes`]. Since 2005-10-01 each part
    /// applies in its own layer (613.6).
    ///
    /// ```
    /// use ptoracle_core::Edition;
    /// let whole = |e: &str| Edition::parse(e).unwrap().rules().type_changes_whole();
    /// assert!(whole("1999-04") && !whole("2005-10-01") && !whole("2026-09-25"));
    /// ```
    pub fn type_changes_whole(&self) -> bool {
        self.layer7
            .iter()
            .any(|sub| sub.holds.contains(&PtClass::WithTypes))
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
                "613.6",
                self.type_changes_whole() != other.type_changes_whole(),
            ),
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
            ("704.5r", self.counter_caps != other.counter_caps),
            ("702.15", self.lifelink_static != other.lifelink_static),
            ("702.2", self.deathtouch_static != other.deathtouch_static),
            (
                "613.7f",
                self.turning_over_takes_timestamp != other.turning_over_takes_timestamp,
            ),
            (
                "613.7g",
                self.turning_over_takes_timestamp != other.turning_over_takes_timestamp,
            ),
            (
                "510.1c",
                self.damage_assignment_order != other.damage_assignment_order,
            ),
            (
                "702.2c",
                self.deathtouch_assigns_one_as_lethal != other.deathtouch_assigns_one_as_lethal,
            ),
            (
                "707.2",
                self.entry_choice_copiable != other.entry_choice_copiable,
            ),
            (
                "613.7a",
                self.copied_ability_takes_copy_timestamp
                    != other.copied_ability_takes_copy_timestamp,
            ),
            (
                "707.9d",
                self.copy_exception_drops_cda != other.copy_exception_drops_cda,
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
    /// Any P/T part (setting, modifying, switching) of an effect that also
    /// changes card types or subtypes, in the plans that apply such an
    /// effect whole with its types (the 1999 one, [`Rules::type_changes_whole`]);
    /// the other plans have no step for it, and class each part as above.
    WithTypes,
}

struct Entry {
    id: &'static str,
    alias: &'static str,
    /// The date of the first archived rules text that has this edition's
    /// rules (rulings/DECISIONS.md, provenance table): the day it came into
    /// force, for resolving a date to an edition.
    since: &'static str,
    name: &'static str,
    rules: Rules,
}

/// 122.1b's keyword-counter list in the 2026 editions, in the order the
/// keywords joined it: the list of 2020-04-17, then shadow (2023-10-13),
/// exalted (2024-06-07) and decayed (2025-04-04); each older list is a
/// prefix (DECISIONS.md, D36).
const KEYWORD_COUNTERS_2026: &[Keyword] = &[
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
    Keyword::Shadow,
    Keyword::Exalted,
    Keyword::Decayed,
];

/// 122.1b from 2024-06-07: all but decayed.
const KEYWORD_COUNTERS_2024: &[Keyword] = KEYWORD_COUNTERS_2026.split_at(14).0;

/// 122.1b from 2023-10-13: the 2020 list and shadow.
const KEYWORD_COUNTERS_2023: &[Keyword] = KEYWORD_COUNTERS_2026.split_at(13).0;

/// 122.1b as it came in 2020-04-17.
const KEYWORD_COUNTERS_2020: &[Keyword] = KEYWORD_COUNTERS_2026.split_at(12).0;

/// K.10 (1999–2002): the `*` text first (K.10.7), then the effects that
/// also change types, whole (418.5e of 2003-03-15, 418.5b of 2003-12-01 to
/// 2005-08-01: "the ordering rules for continuous effects" K.10.Ruling.1
/// defers to), then counters before every other effect (K.10.2), then
/// setting effects, pumps and switches alike in timestamp order
/// (K.10.Ruling.1).
const LAYER_1999: &[Sublayer] = &[
    Sublayer {
        label: "*",
        rule: "K.10.7",
        holds: &[PtClass::Cda],
    },
    Sublayer {
        label: "types",
        rule: "K.10.Ruling.1, 418.5e of 2003",
        holds: &[PtClass::WithTypes],
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

/// Layer 6 from 2005-10-01 (418.5a) to Magic 2010: 6b holds setting effects and the changes
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
    counter_caps: true,
    lifelink_static: true,
    turning_over_takes_timestamp: true,
    damage_assignment_order: false,
    deathtouch_assigns_one_as_lethal: true,
    entry_choice_copiable: true,
    copied_ability_takes_copy_timestamp: true,
    deathtouch_static: true,
    copy_exception_drops_cda: true,
};

/// 2020-01-22 (Theros Beyond Death), the last edition before the counter
/// merge; also the rules of 2018-04-27.
const THB: Rules = Rules {
    layer7: LAYER7_2009,
    damage_assignment_order: true,
    triple_negative_lowers: false,
    hone_counters: false,
    keyword_counters: &[],
    ..CURRENT
};

/// 2015-07-17 (Magic Origins): a permanent gets a new timestamp as it
/// turns face up or face down (613.6e); the exception of 107.1b for effects
/// that change P/T still lets a negative X through.
const ORIGINS: Rules = Rules {
    clamp_negative_modification: false,
    double_negative_lowers: true,
    triple_negative_lowers: true,
    ..THB
};

/// 2011-06-17: +X/+Y counters count on a creature card off the
/// battlefield (121.1a); turning a permanent over gives it no new timestamp.
const CARDS_COUNT_COUNTERS: Rules = Rules {
    turning_over_takes_timestamp: false,
    ..ORIGINS
};

/// 2011-02-04 (Mirrodin Besieged): a copy effect with an exception copies
/// no characteristic-defining ability for that characteristic (706.8d);
/// counters count only on the battlefield (121.1a).
const BESIEGED: Rules = Rules {
    pt_counters_off_battlefield: false,
    ..CARDS_COUNT_COUNTERS
};

/// 2009-09-04: the counter-cap state-based action (704.5s then, 704.5r now);
/// a copied characteristic-defining ability applies over a copy effect's
/// exception (DECISIONS.md D70).
const COUNTER_CAPS: Rules = Rules {
    copy_exception_drops_cda: false,
    ..BESIEGED
};

/// 2009-07 (Magic 2010): layer 7 with 7a–7e, no counter caps yet.
const M10: Rules = Rules {
    counter_caps: false,
    ..COUNTER_CAPS_M10
};

/// 2009-09-04 to 2010-07-16: the counter caps of 2009-09-04, and deathtouch
/// that divides its damage freely (702.2b of 2009-07-11).
const COUNTER_CAPS_M10: Rules = Rules {
    deathtouch_assigns_one_as_lethal: false,
    ..COUNTER_CAPS
};

/// 2006-10-01: layer 6 in sublayers 6a–6e, a negative value counts as 0
/// (104.2), every `*` is 0 out of play (208.2), and +1/+1 and -1/-1
/// counters annihilate (420.5n).
const TIME_SPIRAL: Rules = Rules {
    layer7: LAYER_2007,
    negative_counts_as_zero: true,
    cda_in_every_zone: false,
    ..FUTURE_SIGHT
};

/// 2007-05: sublayers 6a–6e, lifelink and deathtouch triggered abilities
/// (502.68a, 502.63a).
const FUTURE_SIGHT: Rules = Rules {
    layer7: LAYER_2007,
    lifelink_static: false,
    deathtouch_static: false,
    damage_assignment_order: false,
    ..M10
};

/// The catalog, oldest first. Index order is chronological order.
static EDITIONS: &[Entry] = &[
    Entry {
        id: "1999-04",
        alias: "classic-sixth",
        since: "1999-04-01",
        name: "the 1999–2002 rulings summary (K.10), in force until 2005-08-01: counters before every other effect, setting and pump effects in one timestamp order, an effect that also changes types applies whole before them, a negative value counts as 0 except to change P/T, every * is 0 out of play",
        rules: Rules {
            layer7: LAYER_1999,
            counter_annihilation: false,
            entry_choice_copiable: false,
            copied_ability_takes_copy_timestamp: false,
            ..TIME_SPIRAL
        },
    },
    Entry {
        id: "2005-10-01",
        alias: "ravnica",
        since: "2005-10-01",
        name: "layer 6 in sublayers 6a–6e (418.5a): setting effects and resolved pumps share one timestamp order, static pumps after counters, switches last",
        rules: Rules {
            counter_annihilation: false,
            ..TIME_SPIRAL
        },
    },
    Entry {
        id: "2006-10-01",
        alias: "time-spiral",
        since: "2006-10-01",
        name: "+1/+1 and -1/-1 counters annihilate (420.5n)",
        rules: TIME_SPIRAL,
    },
    Entry {
        id: "2007-05",
        alias: "future-sight",
        since: "2007-05-01",
        name: "Future Sight: integers and negative values (104.1b); characteristic-defining abilities work in every zone; deathtouch and lifelink are keywords, triggered abilities (502.63a, 502.68a)",
        rules: FUTURE_SIGHT,
    },
    Entry {
        id: "2009-07",
        alias: "m10",
        since: "2009-07-11",
        name: "Magic 2010: layer 7 with sublayers 7a–7e (7d counters, 7e switch); deathtouch and lifelink static abilities (702.2a, 702.13a)",
        rules: M10,
    },
    Entry {
        id: "2009-09-04",
        alias: "counter-caps",
        since: "2009-09-04",
        name: "a permanent that can't have more than N counters of a kind loses the rest as a state-based action (704.5s)",
        rules: COUNTER_CAPS_M10,
    },
    Entry {
        id: "2010-07-16",
        alias: "m11",
        since: "2010-07-16",
        name: "Magic 2011: any nonzero combat damage from a deathtouch source is lethal damage when it is assigned (702.2b)",
        rules: COUNTER_CAPS,
    },
    Entry {
        id: "2011-02-04",
        alias: "mbs",
        since: "2011-02-04",
        name: "Mirrodin Besieged: a copy effect that doesn't copy, keeps or modifies a characteristic copies no characteristic-defining ability that defines it (706.8d)",
        rules: BESIEGED,
    },
    Entry {
        id: "2011-06-17",
        alias: "card-counters",
        since: "2011-06-17",
        name: "+X/+Y counters count on a creature card in every zone (121.1a)",
        rules: CARDS_COUNT_COUNTERS,
    },
    Entry {
        id: "2015-07-17",
        alias: "origins",
        since: "2015-07-17",
        name: "Magic Origins: a permanent gets a new timestamp as it turns face up or face down (613.6e) or transforms (613.6f)",
        rules: ORIGINS,
    },
    Entry {
        id: "2017-07-07",
        alias: "hou",
        since: "2017-07-07",
        name: "Hour of Devastation: +X with a negative X becomes +0 (107.1b)",
        rules: Rules {
            double_negative_lowers: false,
            ..THB
        },
    },
    Entry {
        id: "2018-04-27",
        alias: "dominaria",
        since: "2018-04-27",
        name: "Dominaria: double is a keyword action, a negative power doubles downward (701.10)",
        rules: THB,
    },
    Entry {
        id: "2020-01-22",
        alias: "thb",
        since: "2020-01-22",
        name: "Theros Beyond Death: the last rules with counters in a sublayer of their own (7d)",
        rules: THB,
    },
    Entry {
        id: "2020-04-17",
        alias: "ikoria",
        since: "2020-04-17",
        name: "Ikoria: counters merged into 7c, switch becomes 7d, counter timestamps, keyword counters",
        rules: Rules {
            layer7: LAYER7_2020,
            keyword_counters: KEYWORD_COUNTERS_2020,
            ..THB
        },
    },
    Entry {
        id: "2023-10-13",
        alias: "shadow-counters",
        since: "2023-10-13",
        name: "shadow counters (122.1b)",
        rules: Rules {
            layer7: LAYER7_2020,
            keyword_counters: KEYWORD_COUNTERS_2023,
            ..THB
        },
    },
    Entry {
        id: "2024-06-07",
        alias: "exalted-counters",
        since: "2024-06-07",
        name: "exalted counters (122.1b)",
        rules: Rules {
            layer7: LAYER7_2020,
            keyword_counters: KEYWORD_COUNTERS_2024,
            ..THB
        },
    },
    Entry {
        id: "2024-11-08",
        alias: "foundations",
        since: "2024-11-08",
        name: "Foundations: no damage assignment order; a blocked creature divides its combat damage among its blockers as its controller chooses (510.1c)",
        rules: Rules {
            layer7: LAYER7_2020,
            keyword_counters: KEYWORD_COUNTERS_2024,
            damage_assignment_order: false,
            ..THB
        },
    },
    Entry {
        id: "2025-04-04",
        alias: "decayed-counters",
        since: "2025-04-04",
        name: "decayed counters (122.1b)",
        rules: Rules {
            layer7: LAYER7_2020,
            keyword_counters: KEYWORD_COUNTERS_2026,
            damage_assignment_order: false,
            ..THB
        },
    },
    Entry {
        id: "2025-06-06",
        alias: "triple",
        since: "2025-06-06",
        name: "triple is a keyword action, a negative power triples downward (701.11)",
        rules: Rules {
            hone_counters: false,
            ..CURRENT
        },
    },
    Entry {
        id: "2026-09-25",
        alias: "hone",
        since: "2026-09-25",
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

    /// The edition named by `name`: its id (e.g. `2026-09-25`), its alias
    /// (e.g. `m10`), a prefix of one id only (`2020-01`), a set code
    /// (`SHM`, `fdn`: the edition in force the day the set came out), or any
    /// date (`2008-05-01`, `2008-05`, `2008`: the edition in force that day).
    ///
    /// ```
    /// use ptoracle_core::Edition;
    /// assert_eq!(Edition::parse("m10").unwrap().id(), "2009-07");
    /// assert_eq!(Edition::parse("2020-01").unwrap().id(), "2020-01-22");
    /// assert_eq!(Edition::parse("2008-05-01").unwrap().id(), "2007-05");
    /// assert_eq!(Edition::parse("SHM").unwrap().id(), "2007-05");
    /// // `2025` is the prefix of two editions: an error that lists them.
    /// let e = Edition::parse("2025").unwrap_err().to_string();
    /// assert!(e.contains("ambiguous: 2025-04-04, 2025-06-06"), "{e}");
    /// ```
    pub fn parse(name: &str) -> Result<Edition, UnknownEdition> {
        Edition::resolve(name).map(|(e, _)| e)
    }

    /// Like [`Edition::parse`], and when `name` is not an edition's id or
    /// alias, a sentence that says which edition it resolved to and why.
    ///
    /// ```
    /// use ptoracle_core::Edition;
    /// let (e, note) = Edition::resolve("2008-05-01").unwrap();
    /// assert_eq!(e.id(), "2007-05");
    /// assert!(note.unwrap().contains("in force on 2008-05-01"));
    /// assert_eq!(Edition::resolve("m10").unwrap().1, None);
    /// ```
    pub fn resolve(name: &str) -> Result<(Edition, Option<String>), UnknownEdition> {
        let err = |kind| UnknownEdition {
            name: name.to_string(),
            kind,
        };
        let lower = name.to_ascii_lowercase();
        if let Some(e) = Edition::all().find(|e| e.id() == name || e.alias() == lower) {
            return Ok((e, None));
        }
        let prefixed: Vec<Edition> = Edition::all()
            .filter(|e| !name.is_empty() && e.id().starts_with(name))
            .collect();
        match prefixed.as_slice() {
            [e] => return Ok((*e, Some(format!("`{name}` is edition {}", e.describe())))),
            [] => {}
            many => return Err(err(Unknown::Ambiguous(many.to_vec()))),
        }
        if let Some((code, released)) = SETS.iter().find(|(c, _)| c.eq_ignore_ascii_case(name)) {
            return match Edition::in_force(released) {
                Some(e) => Ok((
                    e,
                    Some(format!(
                        "set {code} (released {released}) is edition {}, in force that day",
                        e.describe()
                    )),
                )),
                None => Err(err(Unknown::TooEarly)),
            };
        }
        let (first, last) = date_span(name).ok_or_else(|| err(Unknown::Unknown))?;
        let a = Edition::in_force(&first).ok_or_else(|| err(Unknown::TooEarly))?;
        let b = Edition::in_force(&last).ok_or_else(|| err(Unknown::TooEarly))?;
        if a != b {
            let all = Edition::all().filter(|e| a <= *e && *e <= b).collect();
            return Err(err(Unknown::Ambiguous(all)));
        }
        Ok((
            a,
            Some(format!(
                "`{name}` is edition {}, in force on {first}",
                a.describe()
            )),
        ))
    }

    /// The edition in force on `date` (`YYYY-MM-DD`), if the catalog
    /// reaches back that far.
    fn in_force(date: &str) -> Option<Edition> {
        Edition::all()
            .filter(|e| EDITIONS[e.0 as usize].since <= date)
            .last()
    }

    /// Its id and alias, e.g. `2009-07 (m10)`.
    fn describe(self) -> String {
        format!("{} ({})", self.id(), self.alias())
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

/// A name that resolves to no single edition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEdition {
    /// The name as given.
    pub name: String,
    /// Why it names no edition.
    pub kind: Unknown,
}

/// Why a name resolves to no single edition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// No edition, alias, set code or date.
    Unknown,
    /// A date before the oldest edition of the catalog.
    TooEarly,
    /// A prefix, year or month that spans several editions.
    Ambiguous(Vec<Edition>),
}

impl fmt::Display for UnknownEdition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        match &self.kind {
            Unknown::Ambiguous(editions) => {
                let ids: Vec<&str> = editions.iter().map(|e| e.id()).collect();
                return write!(f, "edition `{name}` is ambiguous: {}", ids.join(", "));
            }
            Unknown::TooEarly => write!(
                f,
                "edition `{name}` predates the oldest edition of the catalog ({}); known editions:",
                EDITIONS[0].since
            )?,
            Unknown::Unknown => write!(
                f,
                "unknown edition `{name}` (not an edition, alias, set code or date); known editions:"
            )?,
        }
        for (i, e) in Edition::all().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(f, "{sep} {}", e.describe())?;
        }
        Ok(())
    }
}

/// The first and last day (`YYYY-MM-DD`) of a date written `YYYY`,
/// `YYYY-MM` or `YYYY-MM-DD`, if it is one.
fn date_span(s: &str) -> Option<(String, String)> {
    let parts: Vec<&str> = s.split('-').collect();
    let num = |p: &str, len: usize| -> Option<u32> {
        (p.len() == len && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse().ok())
            .flatten()
    };
    let days = |y: u32, m: u32| match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    let y = num(parts.first()?, 4)?;
    let (m0, m1) = match parts.get(1) {
        Some(p) => {
            let m = num(p, 2).filter(|m| (1..=12).contains(m))?;
            (m, m)
        }
        None => (1, 12),
    };
    let (d0, d1) = match parts.get(2) {
        Some(p) => {
            let d = num(p, 2).filter(|d| (1..=days(y, m0)).contains(d))?;
            (d, d)
        }
        None => (1, days(y, m1)),
    };
    if parts.len() > 3 {
        return None;
    }
    Some((
        format!("{y:04}-{m0:02}-{d0:02}"),
        format!("{y:04}-{m1:02}-{d1:02}"),
    ))
}

/// Set codes and the day each set came out, for naming an edition by a set
/// (`M10`, `SHM`, `FDN`): the edition in force that day.
const SETS: &[(&str, &str)] = &[
    ("6ED", "1999-04-28"),
    ("MMQ", "1999-10-04"),
    ("NEM", "2000-02-14"),
    ("PCY", "2000-06-05"),
    ("INV", "2000-10-02"),
    ("PLS", "2001-02-05"),
    ("7ED", "2001-04-11"),
    ("APC", "2001-06-04"),
    ("ODY", "2001-10-01"),
    ("TOR", "2002-02-04"),
    ("JUD", "2002-05-27"),
    ("ONS", "2002-10-07"),
    ("LGN", "2003-02-03"),
    ("SCG", "2003-05-26"),
    ("8ED", "2003-07-28"),
    ("MRD", "2003-10-02"),
    ("DST", "2004-02-06"),
    ("5DN", "2004-06-04"),
    ("CHK", "2004-10-01"),
    ("BOK", "2005-02-04"),
    ("SOK", "2005-06-03"),
    ("9ED", "2005-07-29"),
    ("RAV", "2005-10-07"),
    ("GPT", "2006-02-03"),
    ("DIS", "2006-05-05"),
    ("CSP", "2006-07-21"),
    ("TSP", "2006-10-06"),
    ("PLC", "2007-02-02"),
    ("FUT", "2007-05-04"),
    ("10E", "2007-07-13"),
    ("LRW", "2007-10-12"),
    ("MOR", "2008-02-01"),
    ("SHM", "2008-05-02"),
    ("EVE", "2008-07-25"),
    ("ALA", "2008-10-03"),
    ("CON", "2009-02-06"),
    ("ARB", "2009-04-30"),
    ("M10", "2009-07-17"),
    ("ZEN", "2009-10-02"),
    ("WWK", "2010-02-05"),
    ("ROE", "2010-04-23"),
    ("M11", "2010-07-16"),
    ("SOM", "2010-10-01"),
    ("MBS", "2011-02-04"),
    ("NPH", "2011-05-13"),
    ("CMD", "2011-06-17"),
    ("M12", "2011-07-15"),
    ("ISD", "2011-09-30"),
    ("DKA", "2012-02-03"),
    ("AVR", "2012-05-04"),
    ("M13", "2012-07-13"),
    ("RTR", "2012-10-05"),
    ("GTC", "2013-02-01"),
    ("DGM", "2013-05-03"),
    ("M14", "2013-07-19"),
    ("THS", "2013-09-27"),
    ("BNG", "2014-02-07"),
    ("JOU", "2014-05-02"),
    ("M15", "2014-07-18"),
    ("KTK", "2014-09-26"),
    ("FRF", "2015-01-23"),
    ("DTK", "2015-03-27"),
    ("ORI", "2015-07-17"),
    ("BFZ", "2015-10-02"),
    ("OGW", "2016-01-22"),
    ("SOI", "2016-04-08"),
    ("EMN", "2016-07-22"),
    ("KLD", "2016-09-30"),
    ("AER", "2017-01-20"),
    ("AKH", "2017-04-28"),
    ("HOU", "2017-07-14"),
    ("XLN", "2017-09-29"),
    ("RIX", "2018-01-19"),
    ("DOM", "2018-04-27"),
    ("M19", "2018-07-13"),
    ("GRN", "2018-10-05"),
    ("RNA", "2019-01-25"),
    ("WAR", "2019-05-03"),
    ("M20", "2019-07-12"),
    ("ELD", "2019-10-04"),
    ("THB", "2020-01-24"),
    ("IKO", "2020-04-24"),
    ("M21", "2020-07-03"),
    ("ZNR", "2020-09-25"),
    ("KHM", "2021-02-05"),
    ("STX", "2021-04-23"),
    ("AFR", "2021-07-23"),
    ("MID", "2021-09-24"),
    ("VOW", "2021-11-19"),
    ("NEO", "2022-02-18"),
    ("SNC", "2022-04-29"),
    ("DMU", "2022-09-09"),
    ("BRO", "2022-11-18"),
    ("ONE", "2023-02-10"),
    ("MOM", "2023-04-21"),
    ("WOE", "2023-09-08"),
    ("LCI", "2023-11-17"),
    ("MKM", "2024-02-09"),
    ("OTJ", "2024-04-19"),
    ("MH3", "2024-06-14"),
    ("BLB", "2024-08-02"),
    ("DSK", "2024-09-27"),
    ("FDN", "2024-11-15"),
    ("DFT", "2025-02-14"),
    ("TDM", "2025-04-11"),
    ("FIN", "2025-06-13"),
    ("EOE", "2025-08-01"),
    ("SPM", "2025-09-26"),
    ("TLA", "2025-11-21"),
];

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
            // One edition: an empty name is none, as `--edition ''` is,
            // not every edition (that is no `editions:` at all, or `..`).
            None => {
                let e = Edition::parse(s).map_err(|e| e.to_string())?;
                EditionRange {
                    from: Some(e),
                    to: Some(e),
                }
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
    "^([A-Za-z0-9-]+|[A-Za-z0-9-]*\\.\\.[A-Za-z0-9-]*)$",
    "the editions a ruling holds in: 2017-07-14.., ..2020-01-22, 2009-07..2020-01-22, or one edition; each bound an edition, alias, set code or date (the edition in force that day)"
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
        assert!("1994-04..".parse::<EditionRange>().is_err());
        // An empty range names no edition, as `--edition ''` does not.
        assert_eq!(
            "".parse::<EditionRange>().unwrap_err(),
            Edition::parse("").unwrap_err().to_string()
        );
    }

    #[test]
    fn a_date_resolves_to_the_edition_in_force_that_day() {
        let id = |s: &str| Edition::parse(s).map(|e| e.id()).map_err(|e| e.to_string());
        assert_eq!(id("2008-05-01"), Ok("2007-05"));
        assert_eq!(id("2009-07-10"), Ok("2007-05"));
        assert_eq!(id("2009-07-11"), Ok("2009-07"));
        assert_eq!(id("2017-07-14"), Ok("2017-07-07"));
        assert_eq!(id("2026-01-16"), Ok("2025-06-06"));
        assert_eq!(id("2031-01-01"), Ok("2026-09-25"));
        // A month or year inside one edition is that edition.
        assert_eq!(id("2008"), Ok("2007-05"));
        assert_eq!(id("2012-03"), Ok("2011-06-17"));
        assert!(id("2026-02-30").unwrap_err().contains("unknown edition"));
        assert!(id("1994-04").unwrap_err().contains("predates"));
        let r: EditionRange = "2008-05..2010".parse().unwrap();
        assert_eq!(r.to_string(), "2007-05..2010-07-16");
    }

    #[test]
    fn an_ambiguous_prefix_lists_the_editions_it_could_be() {
        let e = Edition::parse("2009").unwrap_err().to_string();
        assert_eq!(e, "edition `2009` is ambiguous: 2009-07, 2009-09-04");
        let e = Edition::parse("2025").unwrap_err().to_string();
        assert_eq!(e, "edition `2025` is ambiguous: 2025-04-04, 2025-06-06");
        // The prefix of one id names that edition, as it always did.
        assert_eq!(Edition::parse("2006").unwrap().id(), "2006-10-01");
    }

    #[test]
    fn set_codes_resolve_case_insensitively() {
        let id = |s: &str| Edition::parse(s).unwrap().id();
        assert_eq!(id("M10"), "2009-07");
        assert_eq!(id("m10"), "2009-07");
        assert_eq!(id("SHM"), "2007-05");
        assert_eq!(id("fdn"), "2024-11-08");
        assert_eq!(id("Hou"), "2017-07-07");
        assert_eq!(id("TSP"), "2006-10-01");
        let (_, note) = Edition::resolve("shm").unwrap();
        assert_eq!(
            note.as_deref(),
            Some(
                "set SHM (released 2008-05-02) is edition 2007-05 (future-sight), in force that day"
            )
        );
    }

    #[test]
    fn every_plan_places_each_class_once() {
        use PtClass::*;
        for e in Edition::all() {
            let rules = e.rules();
            let places = |class| {
                rules
                    .layer7
                    .iter()
                    .filter(|s| s.holds.contains(&class))
                    .count()
            };
            for class in [Cda, Set, ModifyResolved, ModifyStatic, Counters, Switch] {
                assert_eq!(places(class), 1, "{e}: {class:?}");
            }
            // The step for effects that also change types, only where they
            // apply whole (the 1999 plan).
            let whole = usize::from(rules.type_changes_whole());
            assert_eq!(places(WithTypes), whole, "{e}");
        }
    }

    #[test]
    fn each_switch_of_2009_to_2011_is_dated_by_its_text() {
        let id = |s: &str| Edition::parse(s).unwrap().id();
        // 706.8d is in the text of 2011-02-04, not in that of 2010-10-01.
        assert_eq!(id("2011-02-03"), "2010-07-16");
        assert_eq!(id("2011-02-04"), "2011-02-04");
        assert_eq!(id("MBS"), "2011-02-04");
        let rules = |s: &str| Edition::parse(s).unwrap().rules();
        assert!(!rules("2010-07-16").copy_exception_drops_cda);
        assert!(rules("2011-02-04").copy_exception_drops_cda);
        assert!(!rules("2011-02-04").pt_counters_off_battlefield);
        assert_eq!(
            rules("2010-07-16").changed_rules(rules("2011-02-04")),
            ["707.9d"]
        );
        // Deathtouch and lifelink became static together (2009-07-11).
        assert!(!rules("2007-05").deathtouch_static && !rules("2007-05").lifelink_static);
        assert!(rules("2009-07").deathtouch_static && rules("2009-07").lifelink_static);
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
            // Its own date resolves to it: `since` is chronological too.
            assert_eq!(Edition::in_force(EDITIONS[a.0 as usize].since), Some(*a));
        }
        for w in SETS.windows(2) {
            assert!(w[0].1 < w[1].1, "{} {}", w[0].0, w[1].0);
        }
    }
}
