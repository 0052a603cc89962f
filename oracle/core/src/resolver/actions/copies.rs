//! Becoming a copy of another object and copy effects ending (707).

use crate::error::NodePath;
use crate::resolver::{Bugs, Game, Log, Res};
use crate::scenario::Until;

impl<'c, B: Bugs> Game<'c, B> {
    /// A permanent becomes a copy of another object (707.2): the same
    /// object, so its counters, damage and the effects on it stay; only its
    /// copiable values change, in layer 1 (613.2a).
    pub(super) fn copy_step(
        &mut self,
        cs: &crate::scenario::CopyStep,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(&cs.object);
        self.require_battlefield(c, &path.key("object"), "become a copy")?;
        if let Some(n) = &cs.name {
            log.line(1, || format!("{n} resolves"));
        }
        let values = self.copiable(self.card_index(&cs.of), cs.except_pt);
        self.become_copy(
            c,
            &cs.copy_of(),
            values,
            cs.until.unwrap_or(Until::Forever),
            log,
        );
        Ok(())
    }

    /// Gives card `c` a copy effect of `copy.of`'s copiable values as they
    /// are now (707.2), lasting `until`.
    pub(super) fn become_copy(
        &mut self,
        c: usize,
        copy: &crate::scenario::CopyOf,
        values: crate::resolver::Copiable<'c>,
        until: Until,
        log: &mut Log,
    ) {
        let o = self.card_index(&copy.of);
        let ts = self.take_ts();
        let seq = self.take_seq();
        let (name, of) = (
            self.cards[c].name().to_string(),
            self.cards[o].name().to_string(),
        );
        log.line(1, || {
            let except = copy
                .except_pt
                .map(|pt| format!(", except it's {pt} [707.9b]"))
                .unwrap_or_default();
            format!(
                "{name} becomes a copy of {of} {until} (t={ts}): it takes {of}'s copiable values (printed, as copy effects, face-down status and the choice made as it entered modify them), not its counters, damage or other effects [707.2, 613.2a]{except}"
            )
        });
        let later = self.rules.copied_ability_takes_copy_timestamp;
        let card = &mut self.cards[c];
        card.copies.push(crate::resolver::CopyEffect {
            values,
            ts,
            seq,
            until,
        });
        // 613.7a: the static abilities it has through the copy effect take
        // the copy effect's timestamp where that is the later one.
        let abilities = !card.abilities().is_empty() || !card.level_abilities().is_empty();
        if abilities && !card.blank() && (card.ts, card.seq) < (ts, seq) {
            log.line(2, || {
                if later {
                    format!("its static abilities, gained through the copy effect, have the copy effect's timestamp t={ts}, later than its own t={} [613.7a]", card.ts)
                } else {
                    format!("its static abilities, gained through the copy effect, have its own timestamp t={}: in this edition a static ability's effect has its object's timestamp [613.7a: the copy effect's, when later, from 2005-10-01]", card.ts)
                }
            });
        }
    }

    /// 514.2: "until end of turn" copy effects end with the others.
    pub(super) fn end_copies(&mut self, log: &mut Log) {
        for card in &mut self.cards {
            let before = card.copies.len();
            card.copies.retain(|e| e.until != Until::EndOfTurn);
            if card.copies.len() < before {
                let name = card.name().to_string();
                log.line(1, || {
                    format!("{name} is no longer a copy until end of turn: its copiable values are what they were [514.2, 613.2a]")
                });
            }
        }
    }
}
