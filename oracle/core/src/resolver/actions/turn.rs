//! The turn's boundaries: a turn beginning and the cleanup step.

use crate::resolver::{Bugs, Game, Log, Mutant, Res};
use crate::scenario::Until;
use crate::text::plural;

impl<'c, B: Bugs> Game<'c, B> {
    /// A player's turn begins: their permanents have been under their control continuously since (302.6).
    pub(super) fn begin_turn(&mut self, h: &crate::scenario::Handle, log: &mut Log) -> Res<()> {
        let p = self.player_index(h);
        let mut n = 0usize;
        for card in &mut self.cards {
            if card.on_battlefield() && card.controller == p {
                card.continuous = true;
                n += 1;
            }
        }
        log.line(1, || {
                format!("the turn of {h} begins: the {n} permanent{} {h} controls have been under that control continuously since it began [302.6]", plural(n))
            });
        Ok(())
    }

    /// 514.2: simultaneously, all damage is removed and "until end of turn"
    /// effects end. Regeneration shields ("this turn", 701.19a) and mana
    /// (500.5) go too.
    pub(super) fn cleanup(&mut self, log: &mut Log) {
        let before = self.effects.len();
        if !self.bug(Mutant::CleanupKeepsEffects) {
            self.effects.retain(|e| e.until != Until::EndOfTurn);
            self.end_copies(log);
        }
        let ended = before - self.effects.len();
        let keep_damage = self.bug(Mutant::CleanupKeepsDamage);
        for card in &mut self.cards {
            if card.on_battlefield() {
                if !keep_damage {
                    card.damage = 0;
                }
                card.shields = 0;
            }
        }
        for p in &mut self.players {
            p.mana.clear();
            p.snow.clear();
        }
        // 615.7: "this turn".
        self.prevention.clear();
        // 511.3: combat is long over by the cleanup step.
        self.combat = None;
        log.line(1, || {
            format!("cleanup: all marked damage is removed and {ended} \"until end of turn\" effect{} end, at the same time [514.2]; regeneration shields expire [701.19a]; mana empties [500.5]", plural(ended))
        });
    }
}
