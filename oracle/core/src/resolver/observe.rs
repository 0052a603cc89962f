//! What an engine would observe after a step.

use super::{Bugs, Eval, Game, Res};
use std::collections::BTreeMap;

use crate::observation::{Observation, PlayerState};
use crate::terms::Mana;

/// A pool as observed: no zero entries.
pub(super) fn pool(m: &BTreeMap<Mana, i64>) -> crate::scenario::ManaPool {
    crate::scenario::ManaPool(
        m.iter()
            .filter(|(_, n)| **n != 0)
            .map(|(m, n)| (*m, crate::scenario::Count(*n)))
            .collect(),
    )
}

impl<'c, B: Bugs> Game<'c, B> {
    pub(super) fn observe(&self, eval: &Eval<'_, 'c, B>) -> Res<Observation> {
        let mut obs = Observation::default();
        for (i, c) in self.cards.iter().enumerate() {
            let mut state = eval.object_state(i)?;
            state.lki = if c.on_battlefield() {
                None
            } else {
                c.lki.clone()
            };
            obs.objects.insert(c.spec.id.clone(), state);
        }
        for p in &self.players {
            obs.players.insert(
                p.handle.clone(),
                PlayerState {
                    life: p.life,
                    poison: p.poison,
                    mana: pool(&p.mana),
                    lost: p.lost,
                    snow_mana: pool(&p.snow),
                    payments: p.payments,
                },
            );
        }
        Ok(obs)
    }
}
