//! Casting a spell and resolving it.

use super::{Arrival, invalid};
use crate::error::NodePath;
use crate::resolver::{Bugs, Eval, Game, Log, Mutant, Res};
use crate::scenario::{Cast, Handle};
use crate::terms::Zone;

impl<'c, B: Bugs> Game<'c, B> {
    /// 601.2a, 601.2b: the card moves to the stack, a new object (400.7),
    /// controlled by the player who casts it; X is announced (107.3a).
    pub(super) fn cast(&mut self, cast: &Cast, path: &NodePath, log: &mut Log) -> Res<()> {
        let c = self.card_index(&cast.object);
        let zone = self.cards[c].zone;
        if matches!(zone, Zone::Stack | Zone::Battlefield) {
            return Err(invalid(
                path.key("object"),
                format!(
                    "`{}` is {}: only a card that is not yet on the stack or the battlefield can be cast",
                    cast.object,
                    crate::terms::zone_phrase(zone)
                ),
            ));
        }
        let p = cast.by.as_ref().map_or(0, |h| self.player_index(h));
        let lki = self.lki_if_leaving(c)?;
        let (name, who) = (
            self.cards[c].name().to_string(),
            self.players[p].handle.clone(),
        );
        log.line(1, || {
            format!("{who} casts {name}: it moves from the {zone} to the stack and becomes a new object [601.2a, 400.7]")
        });
        self.move_card(c, Zone::Stack, Arrival::default(), lki, log)?;
        if self.bug(Mutant::XFixedAtCast) {
            if let Some(q) = &self.cards[c].spec.x_is {
                let x = Eval::new(self, false).locked_quantity(q)?;
                self.cards[c].x = Some(x);
            }
        }
        let card = &mut self.cards[c];
        card.controller = p;
        if card.spec.mana_cost.as_ref().is_some_and(|m| m.has_x()) {
            let x = cast.x.map_or(0, |x| x.0);
            card.x = Some(x);
            log.line(1, || format!("{who} announces X = {x} [601.2b, 107.3a]"));
        }
        Ok(())
    }

    /// 608.2, 608.3: the spell resolves. An instant or sorcery follows its
    /// instructions (608.2c) and is put into its owner's graveyard
    /// (608.2n); a permanent spell enters the battlefield under its
    /// controller's control (608.3a).
    pub(super) fn resolve_spell(&mut self, h: &Handle, path: &NodePath, log: &mut Log) -> Res<()> {
        let c = self.card_index(h);
        let card = &self.cards[c];
        if card.zone != Zone::Stack {
            return Err(invalid(
                path.clone(),
                format!(
                    "`{h}` is in the {}, not on the stack, so it can't resolve",
                    card.zone
                ),
            ));
        }
        let (spec, controller) = (card.spec, card.controller);
        let name = card.name().to_string();
        if spec.types.iter().any(|t| t.is_permanent()) {
            log.line(1, || {
                format!("{name} resolves: a permanent spell, it enters the battlefield under its controller's control [608.3a]")
            });
            self.move_card(c, Zone::Battlefield, Arrival::default(), None, log)?;
            self.cards[c].controller = controller;
            return Ok(());
        }
        log.line(1, || format!("{name} resolves [608.2]"));
        if let Some(a) = &spec.on_resolve {
            let at = self.spec_path(c).key("on_resolve").key(a.key());
            // 608.2c: its controller follows its instructions.
            log.nested(|log| self.perform(a, &at, controller, log))?;
        }
        log.line(1, || {
            format!("{name} is put into its owner's graveyard, a new object [608.2n, 400.7]")
        });
        self.move_card(c, Zone::Graveyard, Arrival::default(), None, log)
    }
}
