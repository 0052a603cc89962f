//! Changes of control and of attachment.

use crate::error::NodePath;
use crate::resolver::{Bugs, Game, Log, Res};

impl<'c, B: Bugs> Game<'c, B> {
    /// A player gains control of a permanent (613.1b), which then has not been under their control continuously (302.6).
    pub(super) fn gain_control(
        &mut self,
        gc: &crate::scenario::GainControl,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(&gc.object);
        self.require_battlefield(c, &path.key("object"), "change control")?;
        let p = self.player_index(&gc.player);
        let name = self.cards[c].name().to_string();
        let who = self.players[p].handle.clone();
        let card = &mut self.cards[c];
        if card.controller == p {
            log.line(1, || {
                format!(
                    "{who} already controls {name}: its control does not change [613.1b, 302.6]"
                )
            });
            return Ok(());
        }
        card.controller = p;
        card.continuous = false;
        log.line(1, || {
                format!("{who} gains control of {name} indefinitely (layer 2) [613.1b]; it has not been under its new controller's control continuously since their most recent turn began [302.6]")
            });
        // 506.4: a permanent whose controller changes is removed from
        // combat (306.2 of 2003-03-15 on): an attacker or blocker, and a
        // planeswalker or battle being attacked.
        if self.remove_from_combat(c, false) {
            log.line(1, || {
                format!("{name} changed controller: it is removed from combat [506.4]")
            });
        }
        Ok(())
    }

    /// An Aura or Equipment becomes attached and gets a new timestamp (701.3,
    /// 613.7e), unless it is already attached to that object (701.3b).
    pub(super) fn attach(
        &mut self,
        a: &crate::scenario::Attach,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let (o, t) = (self.card_index(&a.object), self.card_index(&a.to));
        self.require_battlefield(o, &path.key("object"), "be attached")?;
        self.require_battlefield(t, &path.key("to"), "have something attached to it")?;
        let target = self.obj_ref(t);
        if self.cards[o].attached_to.and_then(|r| self.live(r)) == Some(t) {
            // 701.3b: attaching it to what it is already attached to does
            // nothing, so no new timestamp either (701.3c, 613.7e are for a
            // different object; DECISIONS.md D50).
            let (on, tn) = (self.cards[o].name(), self.cards[t].name());
            log.line(1, || {
                format!("{on} is already attached to {tn}: nothing happens [701.3b]")
            });
            return Ok(());
        }
        let ts = self.take_ts();
        let seq = self.take_seq();
        let card = &mut self.cards[o];
        card.attached_to = Some(target);
        card.ts = ts;
        card.seq = seq;
        let (on, tn) = (
            self.cards[o].name().to_string(),
            self.cards[t].name().to_string(),
        );
        log.line(1, || {
            format!("{on} becomes attached to {tn} and gets a new timestamp t={ts} [613.7e]")
        });
        Ok(())
    }
}
