//! How an attacker assigns its damage among its blockers and what it
//! attacks: lethal damage in order, trample, deathtouch, a written split
//! (510.1c, 702.19b, 702.2c).

use super::*;

impl<'c, B: Bugs> Game<'c, B> {
    /// 510.1b, 510.1c, 702.19b: where one attacking creature's damage goes.
    pub(super) fn attacker_assigns(
        &self,
        eval: &Eval<'_, 'c, B>,
        attack: &Attack,
        order: &[Handle],
        assigned: &mut BTreeMap<usize, i64>,
        plan: &mut Vec<Assignment>,
        log: &mut Log,
    ) -> Res<()> {
        let c = attack.attacker.card;
        let name = self.cards[c].name().to_string();
        let power = self.combat_power(eval, c, log)?;
        if power <= 0 {
            return Ok(());
        }
        // 510.1b, 506.4, 506.4c: a planeswalker or battle that has left the
        // battlefield, stopped being one or changed controller is removed
        // from combat; the creature attacking it attacks nothing.
        let defender_there = self.defender_in_combat(eval, attack.defender);
        let to_defender = |plan: &mut Vec<Assignment>, amount: i64, log: &mut Log| {
            if defender_there {
                plan.push(Assignment {
                    from: c,
                    to: Target::Defender(attack.defender),
                    amount,
                });
            } else {
                log.line(2, || {
                    format!(
                        "{name} is attacking nothing any more: that damage is not assigned [510.1b]"
                    )
                });
            }
        };
        if attack.blockers.is_empty() {
            to_defender(plan, power, log);
            return Ok(());
        }
        let trample = eval.has_keyword(c, Keyword::Trample);
        // 702.19b, 510.1a: with what it attacks gone from combat, a trampler
        // can assign its excess only among its blockers, and must assign
        // all its damage (702.19f: nothing goes to the player instead).
        let tramples_over =
            trample && (defender_there || self.bug(Mutant::TrampleExcessLostWithoutDefender));
        let deathtouch = eval.has_keyword(c, Keyword::Deathtouch);
        let blockers: Vec<usize> = attack
            .blockers
            .iter()
            .filter(|b| self.in_combat(eval, b.0))
            .map(|b| b.0.card)
            .collect();
        if blockers.is_empty() {
            if trample {
                // 702.19d: as though every blocker had lethal damage.
                log.line(2, || format!("{name} is blocked but no creature blocks it any more: with trample, all its damage goes to what it attacks [702.19d]"));
                to_defender(plan, power, log);
            } else {
                log.line(2, || format!("{name} is blocked but no creature blocks it any more: it assigns no combat damage [510.1c]"));
            }
            return Ok(());
        }
        // The attacking player's order, then the blockers it leaves out.
        let named: Vec<usize> = order
            .iter()
            .filter_map(|h| match self.who(h) {
                Who::Card(b) if blockers.contains(&b) => Some(b),
                _ => None,
            })
            .collect();
        let defender_last = match order.last() {
            None => trample,
            Some(h) => self.is_defender(h, attack.defender),
        };
        // 509.2, 510.1c (2009-07 to 2024-11-08): the order announced as
        // blockers were declared binds; under Magic 2010 a deathtouch
        // creature was free of it (702.2b of 2009-07-11).
        let bound = self.rules.order_binds(deathtouch);
        let sequence: Vec<usize> = if bound {
            if !named.is_empty() && log.on() {
                log.line(2, || format!("{name}'s damage assignment order was announced as blockers were declared: it binds [509.2, 510.1c]"));
            }
            blockers.clone()
        } else {
            named
                .iter()
                .copied()
                .chain(blockers.iter().copied().filter(|b| !named.contains(b)))
                .collect()
        };
        let mut left = power;
        for (i, &b) in sequence.iter().enumerate() {
            let last_one = i + 1 == sequence.len();
            let give = if last_one && !(tramples_over && defender_last) {
                left
            } else {
                let lethal = self.lethal_to_assign(eval, b, deathtouch, assigned)?;
                if log.on() {
                    let bn = self.cards[b].name().to_string();
                    log.line(2, || format!("lethal damage for {bn} is {lethal}, counting damage already marked and assigned this step [510.1c, 702.19b{}]", if deathtouch && self.rules.deathtouch_assigns_one_as_lethal { ", 702.2c" } else { "" }));
                }
                lethal.min(left)
            };
            if give > 0 {
                let total = assigned.entry(b).or_insert(0);
                *total = total.saturating_add(give);
                plan.push(Assignment {
                    from: c,
                    to: Target::Creature(b),
                    amount: give,
                });
                left -= give;
            }
        }
        if left > 0 {
            // 702.19b: the rest, once every blocker has lethal damage.
            log.line(2, || format!("{name} has trample: the {left} damage beyond lethal goes to what it attacks [702.19b]"));
            to_defender(plan, left, log);
        }
        Ok(())
    }

    /// 510.1a-c, 702.19b: the attacking player's own division of an
    /// attacker's combat damage, `split` (recipient to amount), checked
    /// against the edition's rules; the assignments it makes, blockers in
    /// declared order, then what it attacks.
    pub(super) fn explicit_split(
        &self,
        eval: &Eval<'_, 'c, B>,
        attack: &Attack,
        split: &BTreeMap<Handle, Count>,
        assigned: &BTreeMap<usize, i64>,
        at: &NodePath,
        log: &mut Log,
    ) -> Res<Vec<Assignment>> {
        let c = attack.attacker.card;
        let who = &attack.handle;
        let power = self.combat_power(eval, c, log)?;
        let defender_there = self.defender_in_combat(eval, attack.defender);
        let trample = eval.has_keyword(c, Keyword::Trample);
        let deathtouch = eval.has_keyword(c, Keyword::Deathtouch);
        let live: Vec<(usize, &Handle)> = attack
            .blockers
            .iter()
            .filter(|b| self.in_combat(eval, b.0))
            .map(|b| (b.0.card, &b.1))
            .collect();
        // 510.1a: a creature assigns all its power or, with 0 or less,
        // nothing; 510.1b, 506.4c: nothing while it attacks nothing;
        // 510.1c: nothing once no creature blocks it, but with trample all
        // of it to what it attacks (702.19d).
        let total = match (attack.blockers.is_empty(), live.is_empty()) {
            _ if power <= 0 => 0,
            (true, _) => {
                if defender_there {
                    power
                } else {
                    0
                }
            }
            (false, false) => power,
            (false, true) => {
                if trample && defender_there {
                    power
                } else {
                    0
                }
            }
        };
        let mut sum: i64 = 0;
        let mut to_defender: Option<(&Handle, i64)> = None;
        for (h, n) in split {
            let to = at.key(h.as_str().to_string());
            let blocker = attack.blockers.iter().find(|b| &b.1 == h);
            let defender = self.is_defender(h, attack.defender);
            if blocker.is_none() && !defender {
                return Err(invalid(
                    to,
                    format!(
                        "`{h}` is neither blocking `{who}` nor attacked by it (510.1b, 510.1c)"
                    ),
                ));
            }
            if n.is_zero() {
                continue;
            }
            sum = sum.checked_add(n.0).ok_or_else(|| {
                invalid(
                    at.clone(),
                    format!("`{who}`'s amounts add up to more than any power (107.1)"),
                )
            })?;
            if let Some(b) = blocker {
                if !live.iter().any(|l| l.0 == b.0.card) {
                    return Err(invalid(
                        to,
                        format!(
                            "`{h}` no longer blocks `{who}` (it left the battlefield, stopped being a creature or was removed from combat): it can be assigned no combat damage (506.4, 510.1c)"
                        ),
                    ));
                }
                continue;
            }
            if !defender_there {
                return Err(invalid(
                    to,
                    format!(
                        "`{h}` has left combat: `{who}` can assign it no combat damage (506.4, 510.1b)"
                    ),
                ));
            }
            if !attack.blockers.is_empty() && !trample {
                return Err(invalid(
                    to,
                    format!(
                        "`{who}` is blocked and has no trample: none of its damage can go to what it attacks (510.1c, 702.19b)"
                    ),
                ));
            }
            to_defender = Some((h, n.0));
        }
        if sum != total {
            return Err(invalid(
                at.clone(),
                format!(
                    "`{who}`'s amounts add up to {sum}, but it assigns {total} combat damage in this step: all of it, divided among its recipients (510.1a, 510.1c)"
                ),
            ));
        }
        let given = |h: &Handle| split.get(h).map_or(0, |n| n.0);
        // 509.2, 510.1c (2009-07 to 2024-11-08): where the order binds, a
        // blocker gets damage only once each one before it has lethal
        // damage; 702.19b: what it attacks only once every blocker has.
        let bound = self.rules.order_binds(deathtouch);
        let mut short: Option<(&Handle, i64)> = None;
        let mut plan = Vec::new();
        for &(b, h) in &live {
            let g = given(h);
            if g > 0 {
                if let (true, Some((first, lethal))) = (bound, short) {
                    return Err(invalid(
                        at.key(h.as_str().to_string()),
                        format!(
                            "`{who}` assigns damage to `{h}` before `{first}`, ahead of it in the damage assignment order, has lethal damage ({lethal}): the order binds in this edition (509.2, 510.1c of 2009-07-11 to 2024-08-02)"
                        ),
                    ));
                }
                plan.push(Assignment {
                    from: c,
                    to: Target::Creature(b),
                    amount: g,
                });
            }
            let lethal = self.lethal_to_assign(eval, b, deathtouch, assigned)?;
            if g < lethal && short.is_none() {
                short = Some((h, lethal));
            }
        }
        if let Some((d, amount)) = to_defender {
            if let Some((first, lethal)) = short {
                return Err(invalid(
                    at.key(d.as_str().to_string()),
                    format!(
                        "`{who}` assigns damage to `{d}`, what it attacks, before `{first}` has lethal damage ({lethal}): with trample, every blocker must first be assigned lethal damage (702.19b{})",
                        if deathtouch && self.rules.deathtouch_assigns_one_as_lethal {
                            ", 702.2c"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            plan.push(Assignment {
                from: c,
                to: Target::Defender(attack.defender),
                amount,
            });
        }
        if log.on() {
            let name = self.cards[c].name().to_string();
            log.line(2, || format!("{name}'s controller divides its {total} damage as the case writes, checked against the rules [510.1c, 702.19b]"));
        }
        Ok(plan)
    }

    /// 510.1c, 702.19b: the damage that is lethal to blocker `b`, counting
    /// the damage already marked on it and the damage assigned to it so
    /// far in this step, not what prevention would do; 702.2c: from a
    /// deathtouch source, any nonzero amount.
    pub(super) fn lethal_to_assign(
        &self,
        eval: &Eval<'_, 'c, B>,
        b: usize,
        deathtouch: bool,
        assigned: &BTreeMap<usize, i64>,
    ) -> Res<i64> {
        let toughness = eval.pt(b)?.map_or(0, |i| i.pt.toughness);
        let marked = if self.bug(Mutant::TrampleIgnoresMarkedDamage) {
            0
        } else {
            self.cards[b].damage
        };
        let so_far = assigned.get(&b).copied().unwrap_or(0);
        let rest = toughness
            .saturating_sub(marked)
            .saturating_sub(so_far)
            .max(0);
        Ok(
            if deathtouch && self.rules.deathtouch_assigns_one_as_lethal {
                rest.min(1)
            } else {
                rest
            },
        )
    }
}
