//! Whether an object matches an effect's filter, P/T bounds included.

use super::{Early, Eval};
use crate::number::Pt;
use crate::resolver::Bugs;
use crate::scenario::Filter;

/// Whether `pt` passes the power and toughness tests of `f` (none: no P/T).
pub(crate) fn pt_matches(f: &Filter, pt: Option<Pt>) -> bool {
    match pt {
        Some(pt) => pt_in(f, pt.power.into(), pt.toughness.into()),
        None => !f.tests_pt(),
    }
}

pub(super) fn pt_in(f: &Filter, power: i128, toughness: i128) -> bool {
    let at = |v: Option<i64>| v.map(i128::from);
    at(f.power_at_most).is_none_or(|v| power <= v)
        && at(f.power_at_least).is_none_or(|v| power >= v)
        && at(f.toughness_at_most).is_none_or(|v| toughness <= v)
        && at(f.toughness_at_least).is_none_or(|v| toughness >= v)
}

impl<'g, 'c, B: Bugs> Eval<'g, 'c, B> {
    /// Whether card `c`, with characteristics `e`, matches `f` on everything
    /// but power and toughness (see [`pt_matches`]).
    pub fn matches(&self, f: &Filter, c: usize, e: &Early, source: Option<usize>) -> bool {
        let card = &self.g.cards[c];
        if card.zone != f.zone() {
            return false;
        }
        if !e.types.contains_all(&f.types) || e.types.contains_any(&f.not_types) {
            return false;
        }
        // 708.2a: a face-down permanent has no subtypes and no name;
        // 712.8e: a transformed one those of its back face.
        if !f.subtypes.iter().all(|s| card.subtypes().contains(s)) {
            return false;
        }
        if !e.colors.contains_all(&f.colors) {
            return false;
        }
        if let Some(ctl) = &f.controller {
            if self.g.players[card.controller].handle != *ctl {
                return false;
            }
        }
        if f.name
            .as_ref()
            .is_some_and(|n| card.face_name() != Some(n.as_str()))
        {
            return false;
        }
        if f.with_counter.as_ref().is_some_and(|k| card.count(k) == 0) {
            return false;
        }
        !(f.other && source == Some(c))
    }
}
