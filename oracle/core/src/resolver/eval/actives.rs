//! The continuous effects that exist and the objects each may affect
//! (611.2c, 611.3a, 613.1), gathered once per evaluation.

use super::{Active, Candidates, Early, Eval, Origin, Target, XVal};
use crate::resolver::{Bugs, Mutant};
use crate::scenario::{Affects, EffectSpec};
use crate::terms::CounterKind;

impl<'g, 'c, B: Bugs> Eval<'g, 'c, B> {
    /// `(creature, equipment)` for every Equipment on the battlefield
    /// with hone counters, attached to an object, sorted (122.1j).
    pub(super) fn honed(&self) -> Vec<(usize, usize)> {
        let g = self.g;
        let mut v: Vec<(usize, usize)> = g
            .cards
            .iter()
            .enumerate()
            .filter(|(_, eq)| {
                eq.on_battlefield()
                    && eq.subtypes().iter().any(|s| s == "Equipment")
                    && eq.counters.contains_key(&CounterKind::named("hone"))
            })
            .filter_map(|(ei, eq)| Some((eq.attached_to.and_then(|r| g.live(r))?, ei)))
            .collect();
        v.sort_unstable();
        v
    }

    pub(super) fn candidates(&self) -> &Candidates {
        self.candidates.get_or_init(|| {
            let g = self.g;
            let n = g.cards.len();
            let mut filters = Vec::new();
            // Each fixed-set effect with the objects of its set, once each:
            // a locked set may name an object twice.
            let mut sets: Vec<(usize, Vec<usize>)> = Vec::new();
            for a in 0..self.actives.len() {
                if !self.exists(a, &self.early) {
                    continue;
                }
                let mut set = match (&self.determined[a], &self.actives[a].target) {
                    (Some(d), _) => d.clone(),
                    (None, Target::Filter(_)) => {
                        filters.push(a);
                        continue;
                    }
                    (None, _) => self.affected_now(a, &self.early),
                };
                if set.len() > 1 {
                    set.sort_unstable();
                    set.dedup();
                }
                sets.push((a, set));
            }
            // Bucketed by object, each bucket in increasing effect order.
            let mut start = vec![0usize; n + 1];
            for c in sets.iter().flat_map(|(_, set)| set) {
                start[c + 1] += 1;
            }
            for i in 0..n {
                start[i + 1] += start[i];
            }
            let mut fill = start.clone();
            let mut list = vec![0usize; start[n]];
            for (a, set) in &sets {
                for &c in set {
                    list[fill[c]] = *a;
                    fill[c] += 1;
                }
            }
            Candidates {
                start,
                list,
                filters,
            }
        })
    }

    /// The active effects that may apply to `c` in layer 7 (before any P/T
    /// test), in increasing order.
    pub(super) fn may_affect(&self, c: usize) -> Vec<usize> {
        let cand = self.candidates();
        let fixed = cand
            .start
            .get(c)
            .zip(cand.start.get(c + 1))
            .and_then(|(&from, &to)| cand.list.get(from..to))
            .unwrap_or_default();
        let mut filtered =
            cand.filters
                .iter()
                .copied()
                .filter(|&a| match &self.actives[a].target {
                    Target::Filter(f) => self.matches(f, c, &self.early[c], self.actives[a].source),
                    _ => false,
                });
        // Merge the two increasing lists.
        let mut out = Vec::with_capacity(fixed.len());
        let mut next = filtered.next();
        for &a in fixed {
            while let Some(b) = next.filter(|&b| b < a) {
                out.push(b);
                next = filtered.next();
            }
            out.push(a);
        }
        out.extend(next);
        out.extend(filtered);
        out
    }

    pub(super) fn collect_actives(&mut self) {
        let g = self.g;
        for (i, eff) in g.effects.iter().enumerate() {
            self.actives.push(Active {
                spec: &eff.spec,
                origin: Origin::Resolved(i),
                source: eff.source.and_then(|s| g.live(s)),
                ts: eff.ts,
                seq: eff.seq,
                x: match (&eff.spec.x, g.bug(Mutant::XReread)) {
                    (Some(q), true) => XVal::Live(q),
                    _ => XVal::Locked {
                        set: eff.x_set,
                        modify: eff.x_modify,
                    },
                },
                target: Target::Locked(&eff.affected),
            });
        }
        for (ci, card) in g.cards.iter().enumerate() {
            if !card.on_battlefield() {
                continue;
            }
            // 613.7a: a static ability's effect has its object's
            // timestamp, or that of the copy effect that gave it the
            // ability if later; 611.3a: its affected set is looked up all
            // the time.
            let (ts, seq) = if !g.rules.copied_ability_takes_copy_timestamp
                || g.bug(Mutant::CopiedAbilityKeepsObjectTimestamp)
            {
                (card.ts, card.seq)
            } else {
                card.ability_stamp()
            };
            let active = |spec: &'g EffectSpec, origin: Origin| Active {
                spec,
                origin,
                source: Some(ci),
                ts,
                seq,
                x: spec.x.as_ref().map_or(XVal::None, XVal::Live),
                target: match &spec.affects {
                    Affects::This => Target::Card(Some(ci)),
                    Affects::Attached => Target::Card(card.attached_to.and_then(|r| g.live(r))),
                    Affects::Filter(f) => Target::Filter(f),
                    Affects::Objects(_) => Target::Card(None),
                },
            };
            for (ai, ab) in card.abilities().iter().enumerate() {
                let origin = Origin::Static {
                    card: ci,
                    ability: ai,
                };
                self.actives.push(active(ab, origin));
            }
            // 107.8a, 107.8b: what a level band gives (base P/T, keywords,
            // abilities) exists while its level counters are in the band.
            // 707.2: a copy has the original's bands, and its own counters.
            let levels = card.count(&CounterKind::named("level"));
            for la in card.level_abilities() {
                if card.back().is_none() && card.face().level_up[la.band].contains(levels) {
                    self.actives
                        .push(active(&la.spec, Origin::Level { card: ci }));
                }
            }
        }
    }

    pub(super) fn label(&self, a: usize) -> String {
        let act = &self.actives[a];
        let g = self.g;
        match act.origin {
            Origin::Resolved(i) => g.effects[i].label.clone(),
            Origin::Static { card, ability } => {
                let c = &g.cards[card];
                match &act.spec.name {
                    Some(n) => format!("{n} of {}", c.name()),
                    None if c.abilities().len() > 1 => {
                        format!("{}'s ability #{}", c.name(), ability + 1)
                    }
                    None => format!("{}'s ability", c.name()),
                }
            }
            Origin::Level { card, .. } => {
                format!(
                    "{} ({})",
                    act.spec.name.as_deref().unwrap_or("level up"),
                    g.cards[card].name()
                )
            }
        }
    }

    /// Whether a static ability's effect exists: its source still has the
    /// ability, or the effect already started applying (613.6).
    pub(super) fn exists(&self, a: usize, early: &[Early]) -> bool {
        let act = &self.actives[a];
        match act.origin {
            // 611.2a: a resolved effect does not depend on its source.
            Origin::Resolved(_) => {
                !(self.g.bug(Mutant::PumpsFollowSource)
                    && act.source.is_some_and(|s| !early[s].abilities))
            }
            Origin::Static { card, .. } | Origin::Level { card, .. } => {
                self.determined[a].is_some() || early[card].abilities
            }
        }
    }

    /// The battlefield cards an effect applies to, in the state `early`.
    pub(super) fn affected_now(&self, a: usize, early: &[Early]) -> Vec<usize> {
        let act = &self.actives[a];
        match &act.target {
            Target::Locked(refs) => refs
                .iter()
                .filter_map(|r| self.g.live(*r))
                .filter(|c| self.g.cards[*c].on_battlefield())
                .collect(),
            Target::Card(c) => c
                .filter(|c| self.g.cards[*c].on_battlefield())
                .into_iter()
                .collect(),
            Target::Filter(f) => (0..self.g.cards.len())
                .filter(|c| self.matches(f, *c, &early[*c], act.source) && !f.tests_pt())
                .collect(),
        }
    }
}
