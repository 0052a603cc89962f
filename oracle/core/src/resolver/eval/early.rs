//! Layers 1–6 (613.1a–f) for every permanent at once, effect by effect, in
//! timestamp or dependency order (613.7, 613.8).

use super::{Early, EarlyEntry, Eval, Target, by_time_last_first};
use crate::resolver::bits::Bits;
use crate::resolver::{Bugs, Line, Mutant, order};
use crate::scenario::EffectSpec;
use crate::terms::CounterKind;

pub(super) fn has_part_in(spec: &EffectSpec, layer: u8) -> bool {
    match layer {
        4 => spec.changes_types(),
        5 => spec.set_colors.is_some(),
        6 => {
            spec.remove_all_abilities
                || spec.grant_pt_ability.is_some()
                || !spec.add_keywords.is_empty()
                || !spec.remove_keywords.is_empty()
        }
        _ => false,
    }
}

pub(super) fn apply_part(layer: u8, spec: &EffectSpec, e: &mut Early) {
    match layer {
        4 => {
            for t in &spec.add_types {
                e.types.insert(*t);
            }
            for t in &spec.remove_types {
                e.types.remove(*t);
            }
        }
        5 => {
            if let Some(c) = &spec.set_colors {
                e.colors = Bits::of(c);
            }
        }
        6 => {
            if spec.remove_all_abilities {
                e.keywords = Bits::empty();
                e.abilities = false;
            }
            for k in &spec.remove_keywords {
                e.keywords.remove(*k);
            }
            for k in &spec.add_keywords {
                e.keywords.insert(*k);
            }
        }
        _ => {}
    }
}

pub(super) fn part_summary(layer: u8, spec: &EffectSpec) -> String {
    let only = EffectSpec {
        add_types: if layer == 4 {
            spec.add_types.clone()
        } else {
            Vec::new()
        },
        remove_types: if layer == 4 {
            spec.remove_types.clone()
        } else {
            Vec::new()
        },
        add_all_creature_types: layer == 4 && spec.add_all_creature_types,
        set_colors: if layer == 5 {
            spec.set_colors.clone()
        } else {
            None
        },
        add_keywords: if layer == 6 {
            spec.add_keywords.clone()
        } else {
            Vec::new()
        },
        remove_keywords: if layer == 6 {
            spec.remove_keywords.clone()
        } else {
            Vec::new()
        },
        remove_all_abilities: layer == 6 && spec.remove_all_abilities,
        grant_pt_ability: if layer == 6 {
            spec.grant_pt_ability.clone()
        } else {
            None
        },
        ..EffectSpec::default()
    };
    only.summary()
}

pub(super) fn layer_rule(layer: u8) -> &'static str {
    match layer {
        4 => "613.1d",
        5 => "613.1e",
        _ => "613.1f",
    }
}

impl<'g, 'c, B: Bugs> Eval<'g, 'c, B> {
    /// The layers whose parts of `spec` apply in `layer`: its own part,
    /// or, where the edition applies an effect that changes types whole
    /// (the 1999 rules: 418.5e of 2003-03-15, 418.5b of 2003-12-01 to
    /// 2005-08-01), every part of such an effect in layer 4 and none later.
    pub(super) fn parts_in(&self, layer: u8, spec: &EffectSpec) -> &'static [u8] {
        if self.g.rules.type_changes_whole() && spec.changes_types() {
            return if layer == 4 { &[4, 5, 6] } else { &[] };
        }
        match layer {
            4 if has_part_in(spec, 4) => &[4],
            5 if has_part_in(spec, 5) => &[5],
            6 if has_part_in(spec, 6) => &[6],
            _ => &[],
        }
    }

    pub(super) fn early_layers(&mut self) {
        for layer in [4u8, 5, 6] {
            let mut pending: Vec<EarlyEntry> = Vec::new();
            for (a, act) in self.actives.iter().enumerate() {
                if !self.parts_in(layer, act.spec).is_empty() {
                    pending.push(EarlyEntry::Effect(a));
                }
            }
            if layer == 6 {
                for (ci, card) in self.g.cards.iter().enumerate() {
                    if !card.on_battlefield() {
                        continue;
                    }
                    for (kind, stack) in &card.counters {
                        if let CounterKind::Keyword(k) = kind {
                            if stack.count > 0 && self.g.rules.keyword_counters.contains(k) {
                                pending.push(EarlyEntry::KeywordCounter {
                                    card: ci,
                                    keyword: *k,
                                    stack: *stack,
                                });
                            }
                        }
                    }
                }
            }
            self.apply_early_layer(layer, pending);
        }
    }

    pub(super) fn apply_early_layer(&mut self, layer: u8, mut pending: Vec<EarlyEntry>) {
        // Once no entry left can depend on another, none ever will: the
        // rest apply in timestamp order, sorted once.
        let mut sorted = false;
        while !pending.is_empty() {
            if !sorted && !self.early_may_depend(layer, &pending) {
                sorted = true;
                by_time_last_first(&mut pending, |p| p.key(self));
            }
            let (pick, jumped) = if sorted {
                (pending.len() - 1, false)
            } else {
                let positions: Vec<usize> = (0..pending.len()).collect();
                order::next(
                    &positions,
                    true,
                    |p| pending[p].key(self),
                    |a, b| self.early_depends(layer, &pending[a], &pending[b]),
                )
            };
            let entry = pending.remove(pick);
            self.apply_early(layer, &entry, jumped);
        }
    }

    /// Whether an entry of `pending` may depend on another in this layer
    /// (see [`Eval::may_depend_on`]). When this says no,
    /// [`Eval::early_depends`] says no for every pair; the state changes
    /// only by entries leaving `pending` and sets being determined, so the
    /// answer stays no.
    pub(super) fn early_may_depend(&self, layer: u8, pending: &[EarlyEntry]) -> bool {
        let effects: Vec<usize> = pending
            .iter()
            .filter_map(|p| match p {
                EarlyEntry::Effect(a) => Some(*a),
                EarlyEntry::KeywordCounter { .. } => None,
            })
            .collect();
        effects.len() > 1
            && effects.iter().enumerate().any(|(i, &a)| {
                effects
                    .iter()
                    .enumerate()
                    .any(|(j, &b)| i != j && self.may_depend_on(layer, a, b))
            })
    }

    /// Whether active `a` may depend on active `b` in this layer (613.8a),
    /// from what `a` reads and `b` changes, whatever the state: in layers 4
    /// and 5 only an affected set looked up by a filter on the types or
    /// colors `b` changes can change, and in layer 6 only whether a static
    /// ability exists, by an effect that removes all abilities (see
    /// [`Eval::exists`]).
    pub(super) fn may_depend_on(&self, layer: u8, a: usize, b: usize) -> bool {
        let by = self.actives[b].spec;
        self.parts_in(layer, by)
            .iter()
            .any(|&part| self.may_depend_on_part(part, a, b))
    }

    /// [`Eval::may_depend_on`] for the part of `b` in layer `part`.
    pub(super) fn may_depend_on_part(&self, part: u8, a: usize, b: usize) -> bool {
        let (act, by) = (&self.actives[a], self.actives[b].spec);
        let open = self.determined[a].is_none();
        match part {
            4 => {
                open && matches!(act.target, Target::Filter(f) if by.add_types.iter().chain(&by.remove_types).any(|t| f.types.contains(t) || f.not_types.contains(t)))
            }
            5 => open && matches!(act.target, Target::Filter(f) if !f.colors.is_empty()),
            _ if !by.remove_all_abilities => false,
            _ if act.is_static() => open,
            _ => self.g.bug(Mutant::PumpsFollowSource),
        }
    }

    /// 613.8a: `a` depends on `b` if applying `b` would change whether `a`
    /// exists or what it applies to.
    pub(super) fn early_depends(&self, layer: u8, a: &EarlyEntry, b: &EarlyEntry) -> bool {
        let (EarlyEntry::Effect(ai), EarlyEntry::Effect(bi)) = (*a, *b) else {
            // A keyword counter only adds a keyword to its own object.
            return false;
        };
        if !self.may_depend_on(layer, ai, bi) {
            return false;
        }
        let mut trial = self.early.clone();
        self.apply_early_to(layer, b, &mut trial);
        if self.exists(ai, &self.early) != self.exists(ai, &trial) {
            return true;
        }
        self.determined[ai].is_none()
            && matches!(self.actives[ai].target, Target::Filter(_))
            && self.affected_now(ai, &self.early) != self.affected_now(ai, &trial)
    }

    /// Applies an entry's layer part to a copy of the characteristics (for
    /// dependency trials): the affected set as it would be determined now.
    pub(super) fn apply_early_to(&self, layer: u8, entry: &EarlyEntry, early: &mut [Early]) {
        match *entry {
            EarlyEntry::Effect(a) => {
                if !self.exists(a, early) {
                    return;
                }
                let targets = match &self.determined[a] {
                    Some(d) => d.clone(),
                    None => self.affected_now(a, early),
                };
                let spec = self.actives[a].spec;
                for c in targets {
                    for &part in self.parts_in(layer, spec) {
                        apply_part(part, spec, &mut early[c]);
                    }
                }
            }
            EarlyEntry::KeywordCounter { card, keyword, .. } => {
                early[card].keywords.insert(keyword)
            }
        }
    }

    pub(super) fn apply_early(&mut self, layer: u8, entry: &EarlyEntry, jumped: bool) {
        match *entry {
            EarlyEntry::Effect(a) => {
                if !self.exists(a, &self.early) {
                    if self.tracing {
                        if let Some(src) = self.actives[a].source {
                            let text = format!(
                                "layer {layer}: {} does not apply: {} lost that ability [604.2]",
                                self.label(a),
                                self.g.cards[src].name()
                            );
                            self.early_lines[src].push(Line { depth: 0, text });
                        }
                    }
                    return;
                }
                let targets = match self.determined[a].take() {
                    Some(d) => d,
                    None => self.affected_now(a, &self.early),
                };
                let spec = self.actives[a].spec;
                let parts = self.parts_in(layer, spec);
                for &c in &targets {
                    for &part in parts.iter().filter(|&&p| has_part_in(spec, p)) {
                        apply_part(part, spec, &mut self.early[c]);
                        if self.tracing {
                            let act = &self.actives[a];
                            let mut text = format!(
                                "layer {layer}: {} by {} (t={}) [{}]",
                                part_summary(part, act.spec),
                                self.label(a),
                                act.ts,
                                layer_rule(part)
                            );
                            if part != layer {
                                text.push_str(", with its types: this edition applies an effect that changes types whole [418.5b of 2003]");
                            }
                            if jumped {
                                text.push_str(
                                    ", ahead of earlier effects that depend on it [613.8]",
                                );
                            }
                            self.early_lines[c].push(Line { depth: 0, text });
                        }
                    }
                }
                if parts.contains(&6) {
                    // 613.1f, 613.7: abilities are gained and lost in the
                    // order of layer 6; an ability granted before an
                    // object loses all abilities is gone, one granted
                    // after stays. The effect's own removal ("loses all
                    // other abilities") spares what it grants.
                    self.clock = self.clock.saturating_add(1);
                    let spec = self.actives[a].spec;
                    if spec.remove_all_abilities {
                        for &c in &targets {
                            self.early[c].lost_at = self.clock;
                            if self.tracing {
                                self.trace_lost_grants(a, c);
                            }
                        }
                    }
                    if spec.grant_pt_ability.is_some() {
                        self.granted_at[a] = self.clock;
                    }
                }
                self.determined[a] = Some(targets);
            }
            EarlyEntry::KeywordCounter {
                card,
                keyword,
                stack,
            } => {
                self.early[card].keywords.insert(keyword);
                if self.tracing {
                    let text = format!(
                        "layer 6: gains {keyword} from {} {keyword} counter(s) (t={}) [122.1b, 613.7c]",
                        stack.count, stack.ts
                    );
                    self.early_lines[card].push(Line { depth: 0, text });
                }
            }
        }
    }
}
