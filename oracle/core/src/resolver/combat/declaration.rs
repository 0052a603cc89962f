//! Attackers and blockers declared (508, 509): who may attack whom, and
//! who may block.

use super::*;

impl<'c, B: Bugs> Game<'c, B> {
    /// 508.1, 509.1: declares the attackers and blockers; attacking taps a
    /// creature without vigilance (508.1f).
    pub(in crate::resolver) fn attack(
        &mut self,
        v: &[AttackDeclaration],
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let eval = Eval::new(self, false);
        let mut attacks = Vec::new();
        let mut taps = Vec::new();
        for (i, a) in v.iter().enumerate() {
            let at = path.index(i);
            let c = self.card_index(&a.attacker);
            self.creature_for_combat(&eval, c, &at.key("attacker"), "attack")?;
            // 508.1a: an untapped creature that is not summoning sick (302.6).
            if eval.summoning_sick(c) {
                return Err(invalid(
                    at.key("attacker"),
                    format!(
                        "`{}` can't attack: it has not been under its controller's control since their turn began and has no haste (302.6); give it haste or a `begin_turn` step",
                        a.attacker
                    ),
                ));
            }
            let controller = self.cards[c].controller;
            let defender = match &a.defender {
                Some(h) => match self.who(h) {
                    Who::Player(p) if p == controller => {
                        return Err(invalid(
                            at.key("defender"),
                            format!(
                                "`{h}` controls `{}`: it can't attack them (508.1b)",
                                a.attacker
                            ),
                        ));
                    }
                    Who::Player(p) => Defender::Player(p),
                    Who::Card(d) => {
                        self.require_battlefield(d, &at.key("defender"), "be attacked")?;
                        // 508.1b, 310.8b: a planeswalker of another
                        // player, or a battle its protector does not
                        // attack (a Siege's controller can attack it).
                        if !self.attackable_by(&eval, d, controller) {
                            return Err(invalid(
                                at.key("defender"),
                                format!(
                                    "`{h}` is neither a planeswalker another player controls nor a battle the attacking player does not protect: it can't be attacked (508.1b, 310.8b, 310.11a)"
                                ),
                            ));
                        }
                        Defender::Permanent(self.obj(d))
                    }
                },
                None => match (0..self.players.len()).find(|&p| p != controller) {
                    Some(p) => Defender::Player(p),
                    None => {
                        return Err(invalid(
                            at.key("attacker"),
                            "no other player to attack (508.1b)".into(),
                        ));
                    }
                },
            };
            let mut blockers = Vec::new();
            for (j, b) in a.blockers.iter().enumerate() {
                let bc = self.card_index(b);
                let bp = at.key("blockers").index(j);
                self.creature_for_combat(&eval, bc, &bp, "block")?;
                if self.cards[bc].controller == controller {
                    return Err(invalid(
                        bp,
                        format!(
                            "`{b}` is controlled by the attacking player: it can't block (509.1a)"
                        ),
                    ));
                }
                blockers.push((self.obj(bc), b.clone()));
            }
            if !eval.has_keyword(c, Keyword::Vigilance) {
                taps.push(c);
            }
            let name = self.cards[c].name().to_string();
            log.line(1, || match blockers.len() {
                0 => format!("{name} attacks and is not blocked [508.1, 509.1h]"),
                _ => format!(
                    "{name} attacks; blocked by {} [508.1, 509.1]",
                    a.blockers
                        .iter()
                        .map(|b| self.name_of(b))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
            attacks.push(Attack {
                attacker: self.obj(c),
                handle: a.attacker.clone(),
                defender,
                blockers,
            });
        }
        drop(eval);
        for c in taps {
            self.cards[c].tapped = true;
        }
        if log.on() {
            log.line(1, || {
                "attacking creatures without vigilance tap [508.1f]".into()
            });
        }
        self.combat = Some(Combat {
            attacks,
            first_strikers: None,
            removed: Vec::new(),
        });
        Ok(())
    }

    /// A creature on the battlefield and untapped: one that can attack or
    /// block (508.1a, 509.1a).
    pub(super) fn creature_for_combat(
        &self,
        eval: &Eval<'_, 'c, B>,
        c: usize,
        path: &NodePath,
        what: &str,
    ) -> Res<()> {
        self.require_battlefield(c, path, what)?;
        let name = self.cards[c].name();
        if !eval.has_type(c, CardType::Creature) {
            return Err(invalid(
                path.clone(),
                format!("{name} is not a creature, so it can't {what} (508.1a, 509.1a)"),
            ));
        }
        if self.cards[c].tapped {
            return Err(invalid(
                path.clone(),
                format!("{name} is tapped, so it can't {what} (508.1a, 509.1a)"),
            ));
        }
        Ok(())
    }
}
