//! Continuous effects and their parts: static abilities, filters,
//! quantities, exchanges.

use super::*;

impl<'a> Validator<'a> {
    /// 701.12g: two numerical values, each a creature's power or toughness
    /// or a player's life total.
    pub(super) fn exchange(&mut self, x: &crate::scenario::Exchange, path: &NodePath) {
        use crate::scenario::Exchanged;
        let at = path.key("values");
        if x.values.len() != 2 {
            self.err(
                at.clone(),
                format!(
                    "an exchange has two values, not {} (701.12g)",
                    x.values.len()
                ),
            );
        }
        for (i, v) in x.values.iter().enumerate() {
            let want = match v {
                Exchanged::Life(_) => Kind::Player,
                Exchanged::Power(_) | Exchanged::Toughness(_) => Kind::Object,
            };
            self.kind_of(v.of(), Some(want), &at.index(i));
        }
        if let [a, b] = x.values.as_slice() {
            if a == b {
                self.err(at.index(1), format!("{a} can't be exchanged with itself"));
            } else if a.of() == b.of() && !matches!(a, Exchanged::Life(_)) {
                self.err(
                    at.index(1),
                    format!(
                        "exchanging a creature's power and toughness is switching them (701.12g, 613.4d): write an effect with `switch: true` on `{}`",
                        a.of()
                    ),
                );
            }
        }
    }

    pub(super) fn static_ability(&mut self, e: &EffectSpec, path: &NodePath) {
        if e.source.is_some() {
            self.err(
                path.key("source"),
                "a static ability's source is the object that has it",
            );
        }
        if e.until.is_some() {
            self.err(path.key("until"), "a static ability lasts while its object is on the battlefield (611.3b); remove `until`");
        }
        if e.timestamp.is_some() {
            self.err(
                path.key("timestamp"),
                "a static ability has its object's timestamp (613.7a); remove `timestamp`",
            );
        }
        match &e.affects {
            Affects::Objects(_) => self.err(
                path.key("affects"),
                "a static ability affects `self`, `attached`, or a filter (611.3a)",
            ),
            Affects::Filter(f) => {
                self.filter(f, &path.key("affects"));
                if f.zone() != Zone::Battlefield {
                    self.err(
                        path.key("affects").key("zone"),
                        "effects here only affect permanents on the battlefield",
                    );
                }
                if f.tests_pt() && e.has_early_parts() {
                    self.err(
                        path.key("affects"),
                        "a filter on power or toughness is only allowed for an ability whose parts are all in layer 7 (see DECISIONS.md)",
                    );
                }
            }
            Affects::This | Affects::Attached => {}
        }
        self.effect_parts(e, path);
    }

    pub(super) fn effect_parts(&mut self, e: &EffectSpec, path: &NodePath) {
        if e.add_all_creature_types && self.all_creature_types.is_none() {
            self.all_creature_types = Some(path.key("add_all_creature_types"));
        }
        if let Some(g) = &e.grant_pt_ability {
            let at = path.key("grant_pt_ability");
            if g.power.is_none() && g.toughness.is_none() {
                self.err(
                    at.clone(),
                    "a granted ability that defines P/T says the power, the toughness or both: add `power:` or `toughness:` (604.3a)",
                );
            }
            for (side, q) in [("power", &g.power), ("toughness", &g.toughness)] {
                if let Some(q) = q {
                    self.quantity(q, &at.key(side));
                }
            }
        }
        if !e.has_parts() {
            self.err(
                path.clone(),
                "this effect does nothing: give it a part (add_types, set, modify, switch, …)",
            );
        }
        if e.set.is_some() && (e.set_power.is_some() || e.set_toughness.is_some()) {
            self.err(
                path.key("set"),
                "`set` sets both values: leave out `set_power` and `set_toughness`, or write them without `set`",
            );
        }
        match (&e.x, e.uses_x()) {
            (Some(_), false) => self.err(
                path.key("x"),
                "`x` is given but neither `set` nor `modify` uses X",
            ),
            (None, true) => self.err(
                path.clone(),
                "`set` or `modify` uses X: say what X is with `x:`",
            ),
            (Some(q), true) => self.quantity(q, &path.key("x")),
            (None, false) => {}
        }
    }

    pub(super) fn filter(&mut self, f: &Filter, path: &NodePath) {
        if let Some(c) = &f.controller {
            self.player_ref(c, &path.key("controller"));
        }
        if !f.subtypes.is_empty() && self.subtype_filter.is_none() {
            self.subtype_filter = Some(path.key("subtypes"));
        }
    }

    pub(super) fn quantity(&mut self, q: &Quantity, path: &NodePath) {
        let Quantity::Ref(r) = q else { return };
        match r.as_ref() {
            QuantityRef::PowerOf(h) => self.object_ref(h, &path.key("power_of")),
            QuantityRef::ToughnessOf(h) => self.object_ref(h, &path.key("toughness_of")),
            QuantityRef::Counters(c) => self.object_ref(&c.on, &path.key("counters").key("on")),
            QuantityRef::Count(f) => {
                self.filter(f, &path.key("count"));
                if f.tests_pt() {
                    self.err(
                        path.key("count"),
                        "a count can't test power or toughness (see DECISIONS.md)",
                    );
                }
                if f.other {
                    self.err(
                        path.key("count").key("other"),
                        "`other` needs an effect's source; a count has none",
                    );
                }
            }
            QuantityRef::XOf(h) => self.object_ref(h, &path.key("x_of")),
            QuantityRef::ManaValueOf(h) => self.object_ref(h, &path.key("mana_value_of")),
            QuantityRef::Life(h) => self.player_ref(h, &path.key("life")),
            QuantityRef::HandSize(h) => self.player_ref(h, &path.key("hand_size")),
            QuantityRef::Half(h) => self.quantity(&h.of, &path.key("half").key("of")),
            QuantityRef::Sum(v) => {
                if v.is_empty() {
                    self.err(path.key("sum"), "a sum needs at least one term");
                }
                for (i, q) in v.iter().enumerate() {
                    self.quantity(q, &path.key("sum").index(i));
                }
            }
        }
    }

    /// `by:`, the player who puts counters (122.6a).
    pub(super) fn putter(&mut self, by: &Option<Handle>, path: &NodePath) {
        if let Some(p) = by {
            self.player_ref(p, &path.key("by"));
        }
    }

    pub(super) fn non_negative(&mut self, q: &Quantity, path: &NodePath, what: &str) {
        match q {
            Quantity::Fixed(n) if *n < 0 => {
                self.err(path.clone(), format!("{what} can't be negative (107.1b)"));
            }
            _ => self.quantity(q, path),
        }
    }

    /// A resolved effect: what it affects, how long it lasts (611.2), and its parts.
    pub(super) fn resolved_effect(&mut self, e: &crate::scenario::EffectSpec, path: &NodePath) {
        if let Some(s) = &e.source {
            self.object_ref(s, &path.key("source"));
        }
        match &e.affects {
                Affects::Objects(v) => {
                    if v.is_empty() {
                        self.err(path.key("affects"), "name at least one object");
                    }
                    for (i, h) in v.iter().enumerate() {
                        self.object_ref(h, &path.key("affects").index(i));
                    }
                }
                Affects::Filter(f) => {
                    self.filter(f, &path.key("affects"));
                    if f.zone() != Zone::Battlefield {
                        self.err(path.key("affects").key("zone"), "effects here only affect permanents on the battlefield");
                    }
                    if f.other && e.source.is_none() {
                        self.err(path.key("affects").key("other"), "`other` needs a `source:`");
                    }
                }
                Affects::This | Affects::Attached => self.err(
                    path.key("affects"),
                    "`self` and `attached` are for static abilities; a resolved effect names its objects or a filter",
                ),
            }
        if e.until.is_none() {
            self.err(
                path.clone(),
                "a resolved effect needs `until:` (end-of-turn, source-leaves or forever)",
            );
        }
        if e.until == Some(crate::scenario::Until::SourceLeaves) && e.source.is_none() {
            self.err(
                path.key("until"),
                "`until: source-leaves` needs a `source:`",
            );
        }
        self.effect_parts(e, path);
    }
}
