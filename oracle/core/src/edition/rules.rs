//! What an edition says on each rule that changed: the switches, and the
//! layer-7 plan's sublayers.

use super::*;

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
