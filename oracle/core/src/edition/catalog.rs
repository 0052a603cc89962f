//! The catalog of editions and set release dates: data, one entry per
//! edition, each rule switch set from the presets its era shares.

use super::*;

pub(super) struct Entry {
    pub(super) id: &'static str,
    pub(super) alias: &'static str,
    /// The date of the first archived rules text that has this edition's
    /// rules (rulings/DECISIONS.md, provenance table): the day it came into
    /// force, for resolving a date to an edition.
    pub(super) since: &'static str,
    pub(super) name: &'static str,
    pub(super) rules: Rules,
}

/// 122.1b's keyword-counter list in the 2026 editions, in the order the
/// keywords joined it: the list of 2020-04-17, then shadow (2023-10-13),
/// exalted (2024-06-07) and decayed (2025-04-04); each older list is a
/// prefix (DECISIONS.md, D36).
pub(super) const KEYWORD_COUNTERS_2026: &[Keyword] = &[
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
pub(super) const KEYWORD_COUNTERS_2024: &[Keyword] = KEYWORD_COUNTERS_2026.split_at(14).0;

/// 122.1b from 2023-10-13: the 2020 list and shadow.
pub(super) const KEYWORD_COUNTERS_2023: &[Keyword] = KEYWORD_COUNTERS_2026.split_at(13).0;

/// 122.1b as it came in 2020-04-17.
pub(super) const KEYWORD_COUNTERS_2020: &[Keyword] = KEYWORD_COUNTERS_2026.split_at(12).0;

/// K.10 (1999–2002): the `*` text first (K.10.7), then the effects that
/// also change types, whole (418.5e of 2003-03-15, 418.5b of 2003-12-01 to
/// 2005-08-01: "the ordering rules for continuous effects" K.10.Ruling.1
/// defers to), then counters before every other effect (K.10.2), then
/// setting effects, pumps and switches alike in timestamp order
/// (K.10.Ruling.1).
pub(super) const LAYER_1999: &[Sublayer] = &[
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
pub(super) const LAYER_2007: &[Sublayer] = &[
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
pub(super) const LAYER7_2009: &[Sublayer] = &[
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
pub(super) const LAYER7_2020: &[Sublayer] = &[
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
pub(super) const CURRENT: Rules = Rules {
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
pub(super) const THB: Rules = Rules {
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
pub(super) const ORIGINS: Rules = Rules {
    clamp_negative_modification: false,
    double_negative_lowers: true,
    triple_negative_lowers: true,
    ..THB
};

/// 2011-06-17: +X/+Y counters count on a creature card off the
/// battlefield (121.1a); turning a permanent over gives it no new timestamp.
pub(super) const CARDS_COUNT_COUNTERS: Rules = Rules {
    turning_over_takes_timestamp: false,
    ..ORIGINS
};

/// 2011-02-04 (Mirrodin Besieged): a copy effect with an exception copies
/// no characteristic-defining ability for that characteristic (706.8d);
/// counters count only on the battlefield (121.1a).
pub(super) const BESIEGED: Rules = Rules {
    pt_counters_off_battlefield: false,
    ..CARDS_COUNT_COUNTERS
};

/// 2009-09-04: the counter-cap state-based action (704.5s then, 704.5r now);
/// a copied characteristic-defining ability applies over a copy effect's
/// exception (DECISIONS.md D70).
pub(super) const COUNTER_CAPS: Rules = Rules {
    copy_exception_drops_cda: false,
    ..BESIEGED
};

/// 2009-07 (Magic 2010): layer 7 with 7a–7e, no counter caps yet.
pub(super) const M10: Rules = Rules {
    counter_caps: false,
    ..COUNTER_CAPS_M10
};

/// 2009-09-04 to 2010-07-16: the counter caps of 2009-09-04, and deathtouch
/// that divides its damage freely (702.2b of 2009-07-11).
pub(super) const COUNTER_CAPS_M10: Rules = Rules {
    deathtouch_assigns_one_as_lethal: false,
    ..COUNTER_CAPS
};

/// 2006-10-01: layer 6 in sublayers 6a–6e, a negative value counts as 0
/// (104.2), every `*` is 0 out of play (208.2), and +1/+1 and -1/-1
/// counters annihilate (420.5n).
pub(super) const TIME_SPIRAL: Rules = Rules {
    layer7: LAYER_2007,
    negative_counts_as_zero: true,
    cda_in_every_zone: false,
    ..FUTURE_SIGHT
};

/// 2007-05: sublayers 6a–6e, lifelink and deathtouch triggered abilities
/// (502.68a, 502.63a).
pub(super) const FUTURE_SIGHT: Rules = Rules {
    layer7: LAYER_2007,
    lifelink_static: false,
    deathtouch_static: false,
    damage_assignment_order: false,
    ..M10
};

/// The catalog, oldest first. Index order is chronological order.
pub(super) static EDITIONS: &[Entry] = &[
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

/// Set codes and the day each set came out, for naming an edition by a set
/// (`M10`, `SHM`, `FDN`): the edition in force that day.
pub(super) const SETS: &[(&str, &str)] = &[
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
