//! Layer 7 (613.4): the effects that apply to an object's P/T, their order
//! by sublayer, timestamp and dependency (613.7, 613.8).

use super::filters::pt_in;
use super::{Eval, Layer7Entry, Origin, PtEntry, Target, Wide, by_time_last_first};
use crate::edition::PtClass;
use crate::number::Overflow;
use crate::resolver::{Bugs, Line, Mutant, Stack, order};
use crate::terms::CounterKind;

pub(super) fn effect_of(e: PtEntry) -> Option<usize> {
    match e {
        PtEntry::Set(a) | PtEntry::Modify(a) | PtEntry::Switch(a) | PtEntry::Granted(a) => Some(a),
        _ => None,
    }
}

impl<'g, 'c, B: Bugs> Eval<'g, 'c, B> {
    /// Everything that may change creature `c`'s P/T in layer 7, each with
    /// its class (which sublayer holds it) and its timestamp: its CDA,
    /// the effects that may affect it, hone counters on its Equipment and
    /// its P/T counters (613.4).
    pub(super) fn layer7_entries(&self, c: usize, creature: bool) -> Vec<Layer7Entry> {
        let g = self.g;
        let rules = g.rules;
        let card = &g.cards[c];
        let on_bf = card.on_battlefield();
        let mut entries: Vec<Layer7Entry> = Vec::new();
        // 707.9d: a copy whose exception sets P/T does not copy an ability
        // that defines them; a copy of a face-down one has none (707.2).
        let cda_here = card.face().cda.is_some()
            && card.copy().is_none_or(|cp| {
                (cp.except_pt.is_none() || !self.exception_drops_cda()) && !cp.face_down
            })
            && card.back().is_none()
            && self.early[c].abilities
            && (on_bf || rules.cda_in_every_zone && !g.bug(Mutant::CdaOnlyOnBattlefield));
        if cda_here {
            entries.push((PtClass::Cda, PtEntry::Cda, card.ts, card.seq));
        }
        if on_bf {
            for a in self.may_affect(c) {
                let act = &self.actives[a];
                // The 1999 rules apply an effect that changes types whole,
                // with its types: its P/T parts in a step of their own
                // (418.5e of 2003-03-15, 418.5b of 2003-12-01; D72).
                let whole = rules.type_changes_whole() && act.spec.changes_types();
                let modify_class = if whole {
                    PtClass::WithTypes
                } else if act.is_static() {
                    PtClass::ModifyStatic
                } else {
                    PtClass::ModifyResolved
                };
                if act.spec.sets_numbers() {
                    let class = if whole {
                        PtClass::WithTypes
                    } else if g.bug(Mutant::SetSharesTimestamps) {
                        modify_class
                    } else {
                        PtClass::Set
                    };
                    // 613.4b, 613.6: since 2005-10-01 the setting part of an
                    // effect that also changes types applies in 7b in
                    // timestamp order like any other.
                    let ts = if g.bug(Mutant::SetsWithItsTypes) && act.spec.changes_types() {
                        i64::MIN
                    } else {
                        act.ts
                    };
                    entries.push((class, PtEntry::Set(a), ts, act.seq));
                }
                if act.spec.modify.is_some() {
                    entries.push((modify_class, PtEntry::Modify(a), act.ts, act.seq));
                }
                if act.spec.grant_pt_ability.is_some() && self.granted_on(a, c) {
                    // 604.3a: an ability an effect grants is not a
                    // characteristic-defining ability, so it sets P/T in
                    // 7b (613.4b) among the other setting effects, with the
                    // later of the object's timestamp and the granting
                    // effect's (613.7a).
                    let class = if g.bug(Mutant::GrantedPtAsCda) {
                        PtClass::Cda
                    } else {
                        PtClass::Set
                    };
                    let (ts, seq) = (card.ts, card.seq).max((act.ts, act.seq));
                    entries.push((class, PtEntry::Granted(a), ts, seq));
                }
                if act.spec.switch {
                    let class = if whole {
                        PtClass::WithTypes
                    } else {
                        PtClass::Switch
                    };
                    entries.push((class, PtEntry::Switch(a), act.ts, act.seq));
                }
            }
            if rules.hone_counters {
                let from = self.hone.partition_point(|&(t, _)| t < c);
                let here = self.hone[from..].iter().take_while(|&&(t, _)| t == c);
                for &(_, ei) in here {
                    if let Some(s) = g.cards[ei].counters.get(&CounterKind::named("hone")) {
                        entries.push((
                            PtClass::Counters,
                            PtEntry::Hone {
                                equipment: ei,
                                count: s.count,
                                ts: s.ts,
                            },
                            s.ts,
                            s.seq,
                        ));
                    }
                }
            }
        }
        // 122.1a: +X/+Y counters count on a creature, and on a creature card
        // in another zone.
        if on_bf || creature && rules.pt_counters_off_battlefield {
            for (kind, Stack { count, ts, seq }) in &card.counters {
                if let CounterKind::Pt { power, toughness } = kind {
                    if *count > 0 {
                        entries.push((
                            PtClass::Counters,
                            PtEntry::Counter {
                                power: *power,
                                toughness: *toughness,
                                count: *count,
                                ts: *ts,
                            },
                            *ts,
                            *seq,
                        ));
                    }
                }
            }
        }
        entries
    }

    /// Explains that effect `a`, removing all abilities of `c`, removes the
    /// P/T-defining abilities older effects granted it (613.1f).
    pub(super) fn trace_lost_grants(&mut self, a: usize, c: usize) {
        for b in 0..self.actives.len() {
            let at = self.granted_at[b];
            if b == a || at == 0 || at >= self.clock {
                continue;
            }
            if !self.determined[b].as_ref().is_some_and(|d| d.contains(&c)) {
                continue;
            }
            let text = format!(
                "layer 6: the P/T ability {} granted is lost with the others by {}, which is later: it no longer sets P/T in 7b [613.1f, 613.7]",
                self.label(b),
                self.label(a)
            );
            self.early_lines[c].push(Line { depth: 0, text });
        }
    }

    /// Whether effect `a` granted object `c` an ability that defines P/T
    /// and `c` still has it after layer 6: it did not lose all abilities
    /// afterwards (613.1f).
    pub(super) fn granted_on(&self, a: usize, c: usize) -> bool {
        let at = self.granted_at.get(a).copied().unwrap_or(0);
        at > 0 && (at >= self.early[c].lost_at || self.g.bug(Mutant::GrantedPtOutlivesLoss))
    }

    /// Applies `entries` to `start` sublayer by sublayer, in timestamp
    /// and dependency order inside each (613.7, 613.8): the P/T and the
    /// base P/T (208.4b), before they are narrowed to 64 bits.
    pub(super) fn apply_layer7(
        &self,
        c: usize,
        entries: &[Layer7Entry],
        start: Wide,
        who: &dyn Fn() -> String,
    ) -> Result<(Wide, Wide), Overflow> {
        let g = self.g;
        let rules = g.rules;
        let card = &g.cards[c];
        let mut pt = start;
        let mut base = start;
        // Per active effect: whether it applies to this object, once decided
        // (613.6: the same answer in every sublayer).
        let mut decided: Vec<Option<bool>> = vec![None; self.actives.len()];
        let late_counters = g.bug(Mutant::CountersAfterSwitch);
        let mut switched = false;
        let mut set_applied = false;
        let fourth = g.bug(Mutant::CountersInFourthSublayer) && rules.layer7.len() >= 4;
        for (si, sub) in rules.layer7.iter().enumerate() {
            let mut pending: Vec<usize> = (0..entries.len())
                .filter(|&i| match entries[i].0 {
                    PtClass::Counters if fourth => si == 3,
                    class => sub.holds.contains(&class),
                })
                .filter(|&i| !(late_counters && entries[i].0 == PtClass::Counters))
                .collect();
            // Once no entry left can depend on another (613.8a: only one
            // whose filter tests P/T, not yet decided), none ever will:
            // the rest apply in timestamp order, sorted once.
            let mut sorted = false;
            while !pending.is_empty() {
                let may_depend = !sorted
                    && pending.len() > 1
                    && pending.iter().any(|&i| {
                        effect_of(entries[i].1)
                            .is_some_and(|a| decided[a].is_none() && self.filter_tests_pt(a))
                    });
                if !may_depend && !sorted {
                    sorted = true;
                    let key = |i: &usize| self.order_key(entries[*i].2, entries[*i].3);
                    by_time_last_first(&mut pending, key);
                }
                let (pick, jumped) = if sorted {
                    (pending.len() - 1, false)
                } else {
                    order::next(
                        &pending,
                        true,
                        |i| self.order_key(entries[i].2, entries[i].3),
                        |x, y| self.pt_depends(c, &entries[x].1, &entries[y].1, pt, &decided),
                    )
                };
                let i = pending.remove(pick);
                let entry = entries[i].1;
                if let Some(a) = effect_of(entry) {
                    let applies = match decided[a] {
                        Some(d) => d,
                        None => {
                            let d = self.applies_in_7(a, pt);
                            decided[a] = Some(d);
                            d
                        }
                    };
                    if !applies {
                        continue;
                    }
                }
                if let PtEntry::Set(_) | PtEntry::Granted(_) = entry {
                    set_applied = true;
                }
                if set_applied
                    && g.bug(Mutant::SetWipesCounters)
                    && matches!(entry, PtEntry::Counter { .. } | PtEntry::Hone { .. })
                {
                    continue;
                }
                if let PtEntry::Switch(_) = entry {
                    if switched && g.bug(Mutant::SwitchIsFlag) {
                        continue;
                    }
                    switched = true;
                }
                pt = self.apply_pt(c, entry, pt, sub, jumped, who)?;
                // 208.4b: base P/T is what CDAs and setting effects make of
                // the printed values, whichever sublayers the edition puts
                // them in (a setting effect's result does not depend on
                // what came before it; a CDA's only on the value it leaves).
                match entry {
                    PtEntry::Set(_) => base = pt,
                    PtEntry::Granted(a) => {
                        if let Some(gr) = &self.actives[a].spec.grant_pt_ability {
                            if gr.power.is_some() {
                                base.power = pt.power;
                            }
                            if gr.toughness.is_some() {
                                base.toughness = pt.toughness;
                            }
                        }
                    }
                    PtEntry::Cda => {
                        if let Some(cda) = &card.face().cda {
                            if cda.power.is_some() {
                                base.power = pt.power;
                            }
                            if cda.toughness.is_some() {
                                base.toughness = pt.toughness;
                            }
                        }
                    }
                    _ => {}
                }
                if g.bug(Mutant::ClampIntermediate)
                    && matches!(
                        entry,
                        PtEntry::Modify(_) | PtEntry::Counter { .. } | PtEntry::Hone { .. }
                    )
                {
                    pt = Wide {
                        power: pt.power.max(0),
                        toughness: pt.toughness.max(0),
                    };
                }
            }
        }
        if late_counters {
            let mut late: Vec<&Layer7Entry> = entries
                .iter()
                .filter(|e| e.0 == PtClass::Counters)
                .collect();
            late.sort_by_key(|e| (e.2, e.3));
            for e in late {
                pt = self.pt_step(c, e.1, pt, who, false)?.0;
            }
        }
        Ok((pt, base))
    }

    /// The order of two things with timestamps: timestamp, then creation (D3).
    pub(super) fn order_key(&self, ts: i64, seq: u64) -> (i64, u64) {
        if self.g.bug(Mutant::Nondeterministic) {
            return (ts, seq ^ self.noise);
        }
        (ts, seq)
    }

    pub(super) fn filter_tests_pt(&self, a: usize) -> bool {
        self.determined[a].is_none()
            && matches!(&self.actives[a].target, Target::Filter(f) if f.tests_pt())
    }

    /// Whether effect `a`, one of those that may affect the object being
    /// computed (see [`Eval::may_affect`]), applies to it given its P/T so
    /// far: decided the first time `a` is reached in layer 7.
    pub(super) fn applies_in_7(&self, a: usize, pt: Wide) -> bool {
        // Being a candidate, `a` has the object in its fixed or determined
        // set (613.6), or its filter matches it on all but P/T.
        if self.determined[a].is_some() {
            return true;
        }
        match &self.actives[a].target {
            Target::Filter(f) => pt_in(f, pt.power, pt.toughness),
            _ => true,
        }
    }

    /// 613.8a inside layer 7: `x` depends on `y` if applying `y` would
    /// change whether `x` applies to this object.
    pub(super) fn pt_depends(
        &self,
        c: usize,
        x: &PtEntry,
        y: &PtEntry,
        pt: Wide,
        decided: &[Option<bool>],
    ) -> bool {
        let Some(a) = effect_of(*x) else { return false };
        if decided[a].is_some() || !self.filter_tests_pt(a) {
            return false;
        }
        if let Some(b) = effect_of(*y) {
            if decided[b] == Some(false) || decided[b].is_none() && !self.applies_in_7(b, pt) {
                return false;
            }
        }
        let after = match self.pt_step(c, *y, pt, &String::new, false) {
            Ok((p, _)) => p,
            Err(_) => return false,
        };
        self.applies_in_7(a, pt) != self.applies_in_7(a, after)
    }

    pub(super) fn apply_pt(
        &self,
        c: usize,
        entry: PtEntry,
        pt: Wide,
        sub: &crate::edition::Sublayer,
        jumped: bool,
        who: &dyn Fn() -> String,
    ) -> Result<Wide, Overflow> {
        let (next, text) = self.pt_step(c, entry, pt, who, self.tracing)?;
        if self.tracing {
            let mut line = format!("{}: {text} → {next} [{}", sub.label, sub.rule);
            match entry {
                PtEntry::Counter { .. } => line.push_str(", 122.1a"),
                PtEntry::Hone { .. } => line.push_str(", 122.1j"),
                PtEntry::Cda => line.push_str(", 604.3"),
                PtEntry::Granted(_) => line.push_str(", 604.3a, 613.7a"),
                PtEntry::Set(a) | PtEntry::Modify(a) | PtEntry::Switch(a)
                    if matches!(self.actives[a].origin, Origin::Level { .. }) =>
                {
                    line.push_str(", 107.8")
                }
                _ => {}
            }
            line.push(']');
            if jumped {
                line.push_str(", ahead of an earlier effect that depends on it [613.8]");
            }
            self.line(c, 0, || line);
        }
        Ok(next)
    }
}
