//! A combat damage step (510): who deals damage in it, the assignments
//! checked and dealt.

use super::*;

impl<'c, B: Bugs> Game<'c, B> {
    /// 510: the next combat damage step.
    pub(in crate::resolver) fn combat_damage_step(
        &mut self,
        s: &DamageStep,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let Some(mut combat) = self.combat.clone() else {
            return Err(invalid(
                path.clone(),
                "no combat to deal damage in: declare one with an `attack` step first (a combat has at most two damage steps, 510.4)".into(),
            ));
        };
        let eval = Eval::new(self, false);
        self.check_divide(&eval, &combat, s, path)?;
        let striking = |c: usize| {
            eval.has_keyword(c, Keyword::FirstStrike) || eval.has_keyword(c, Keyword::DoubleStrike)
        };
        let in_combat: Vec<ObjRef> = combat
            .attacks
            .iter()
            .flat_map(|a| std::iter::once(a.attacker).chain(a.blockers.iter().map(|b| b.0)))
            .filter(|&r| self.in_combat(&eval, r))
            .collect();
        // 510.4, 702.7b, 702.4b: who assigns damage in this step.
        let (assigns, last): (Vec<ObjRef>, bool) = match &combat.first_strikers {
            None if in_combat.iter().any(|r| striking(r.card)) => {
                let first: Vec<ObjRef> = in_combat
                    .iter()
                    .copied()
                    .filter(|r| striking(r.card))
                    .collect();
                log.line(1, || "first-strike combat damage step: only creatures with first strike or double strike assign combat damage [510.4, 702.7b]".into());
                combat.first_strikers = Some(first.clone());
                (first, false)
            }
            None => {
                log.line(1, || "combat damage step: no creature in combat has first strike or double strike [510.4]".into());
                (in_combat.clone(), true)
            }
            Some(first) => {
                let second: Vec<ObjRef> = in_combat
                    .iter()
                    .copied()
                    .filter(|r| {
                        let double = eval.has_keyword(r.card, Keyword::DoubleStrike);
                        let again = !first.contains(r) || double;
                        if self.bug(Mutant::FirstStrikeStrikesTwice) {
                            return true;
                        }
                        again
                    })
                    .collect();
                log.line(1, || "second combat damage step: the creatures that had neither first strike nor double strike as the first step began, and those that have double strike now [510.4, 702.4b, 702.7c]".into());
                (second, true)
            }
        };
        let mut plan: Vec<Assignment> = Vec::new();
        let mut assigned: BTreeMap<usize, i64> = BTreeMap::new();
        for attack in &combat.attacks {
            let a = attack.attacker;
            let split = s.assign.get(&attack.handle);
            let at = || path.key("assign").key(attack.handle.as_str().to_string());
            match split {
                Some(split) if assigns.contains(&a) => {
                    let explicit =
                        self.explicit_split(&eval, attack, split, &assigned, &at(), log)?;
                    if self.bug(Mutant::FreeDivisionFollowsOrder) {
                        self.attacker_assigns(&eval, attack, &[], &mut assigned, &mut plan, log)?;
                    } else {
                        for p in explicit {
                            if let Target::Creature(b) = p.to {
                                let total = assigned.entry(b).or_insert(0);
                                *total = total.saturating_add(p.amount);
                            }
                            plan.push(p);
                        }
                    }
                }
                // 510.4: a creature that assigns no damage in this step
                // has nothing to divide.
                Some(split) if split.values().any(|n| !n.is_zero()) => {
                    return Err(invalid(
                        at(),
                        format!(
                            "`{}` assigns no combat damage in this step (510.4, 702.7b, 506.4): it can be given no amounts",
                            attack.handle
                        ),
                    ));
                }
                Some(_) => {}
                None if assigns.contains(&a) => {
                    let order = s
                        .divide
                        .get(&attack.handle)
                        .map(Vec::as_slice)
                        .unwrap_or(&[]);
                    self.attacker_assigns(&eval, attack, order, &mut assigned, &mut plan, log)?;
                }
                None => {}
            }
            for &(b, _) in &attack.blockers {
                if !assigns.contains(&b) {
                    continue;
                }
                let power = self.combat_power(&eval, b.card, log)?;
                if power <= 0 {
                    continue;
                }
                // 510.1d: a blocker assigns all its damage to the creature it blocks.
                if self.in_combat(&eval, a) {
                    plan.push(Assignment {
                        from: b.card,
                        to: Target::Creature(a.card),
                        amount: power,
                    });
                } else {
                    let name = self.cards[b.card].name().to_string();
                    log.line(2, || format!("{name} is blocking no creature any more: it assigns no combat damage [510.1d]"));
                }
            }
        }
        let mut dealt = Vec::new();
        for p in &plan {
            let to = match p.to {
                Target::Creature(c) => Recipient::Permanent {
                    card: c,
                    creature: true,
                    planeswalker: eval.has_type(c, CardType::Planeswalker),
                    battle: eval.has_type(c, CardType::Battle),
                },
                Target::Defender(Defender::Player(pl)) => Recipient::Player(pl),
                Target::Defender(Defender::Permanent(r)) => Recipient::Permanent {
                    card: r.card,
                    creature: eval.has_type(r.card, CardType::Creature),
                    planeswalker: eval.has_type(r.card, CardType::Planeswalker),
                    battle: eval.has_type(r.card, CardType::Battle),
                },
            };
            if log.on() {
                let from = self.cards[p.from].name().to_string();
                let to_name = self.target_name(p.to);
                let n = p.amount;
                log.line(2, || format!("{from} assigns {n} damage to {to_name}"));
            }
            dealt.push((self.source_info(&eval, p.from), to, p.amount));
        }
        drop(eval);
        log.line(1, || "combat damage is dealt simultaneously [510.2]".into());
        self.prevent_damage(&mut dealt, log);
        for (src, to, amount) in &dealt {
            self.deal_damage(src, to, *amount, log)?;
        }
        if last {
            log.line(1, || {
                "combat ends: every creature is removed from combat [511.3]".into()
            });
            self.combat = None;
        } else {
            self.combat = Some(combat);
        }
        Ok(())
    }

    /// The attacking player's choices must be possible ones: blockers of
    /// the attacker, and what it attacks only last and only with trample
    /// (510.1c, 702.19b).
    pub(super) fn check_divide(
        &self,
        eval: &Eval<'_, 'c, B>,
        combat: &Combat,
        s: &DamageStep,
        path: &NodePath,
    ) -> Res<()> {
        for attacker in s.assign.keys() {
            if !combat.attacks.iter().any(|a| &a.handle == attacker) {
                let at = path.key("assign").key(attacker.as_str().to_string());
                return Err(invalid(at, format!("`{attacker}` is not attacking")));
            }
        }
        for (attacker, order) in &s.divide {
            let at = path.key("divide").key(attacker.as_str().to_string());
            let Some(attack) = combat.attacks.iter().find(|a| &a.handle == attacker) else {
                return Err(invalid(at, format!("`{attacker}` is not attacking")));
            };
            for (i, h) in order.iter().enumerate() {
                if attack.blockers.iter().any(|b| &b.1 == h) {
                    continue;
                }
                if !self.is_defender(h, attack.defender) {
                    return Err(invalid(
                        at.index(i),
                        format!("`{h}` is neither blocking `{attacker}` nor attacked by it"),
                    ));
                }
                if i + 1 != order.len() {
                    return Err(invalid(
                        at.index(i),
                        format!(
                            "what `{attacker}` attacks comes last: it gets damage only once every blocker has lethal damage (702.19b)"
                        ),
                    ));
                }
                let a = attack.attacker;
                let has_trample = self.cards[a.card].object == a.object
                    && eval.has_keyword(a.card, Keyword::Trample);
                if !has_trample {
                    return Err(invalid(
                        at.index(i),
                        format!(
                            "`{attacker}` has no trample: while it is blocked none of its damage can go to what it attacks (510.1c, 702.19b)"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// 510.1a: the damage a creature assigns is its power now; 0 or less
    /// assigns none.
    pub(super) fn combat_power(&self, eval: &Eval<'_, 'c, B>, c: usize, log: &mut Log) -> Res<i64> {
        let power = eval.pt(c)?.map_or(0, |i| i.pt.power);
        if power <= 0 {
            let name = self.cards[c].name().to_string();
            log.line(2, || {
                format!("{name} has power {power}: it assigns no combat damage [510.1a]")
            });
        }
        Ok(power.max(0))
    }

    pub(super) fn target_name(&self, t: Target) -> String {
        match t {
            Target::Creature(c) | Target::Defender(Defender::Permanent(ObjRef { card: c, .. })) => {
                self.cards[c].name().to_string()
            }
            Target::Defender(Defender::Player(p)) => self.players[p].handle.to_string(),
        }
    }
}
