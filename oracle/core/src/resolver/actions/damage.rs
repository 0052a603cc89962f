//! Dealing, preventing and marking damage (120, 615).

use std::collections::BTreeMap;

use super::invalid;
use crate::error::NodePath;
use crate::number::checked;
use crate::resolver::{
    Bugs, DamageTrigger, Eval, Game, Log, Mutant, PreventionShield, Res, Shielded, Who, add,
};
use crate::scenario::{Damage, Prevention};
use crate::terms::{CardType, CounterKind, Keyword};
use crate::text::plural;

/// What a source of damage is like as it deals damage (120.3).
pub(in crate::resolver) struct Source {
    pub name: String,
    pub controller: usize,
    /// Whether it is a permanent on the battlefield as it deals the damage:
    /// the triggered deathtouch and lifelink of the editions before Magic
    /// 2010 are abilities of "this permanent" and function only there
    /// (502.63a, 502.68a, 402.8 of 2007-05-01).
    pub on_battlefield: bool,
    pub deathtouch: bool,
    pub wither: bool,
    pub infect: bool,
    pub lifelink: bool,
}

/// What is dealt damage.
pub(in crate::resolver) enum Recipient {
    Player(usize),
    Permanent {
        card: usize,
        creature: bool,
        planeswalker: bool,
        battle: bool,
    },
}

impl<'c, B: Bugs> Game<'c, B> {
    pub(in crate::resolver) fn source_info(&self, eval: &Eval<'_, 'c, B>, c: usize) -> Source {
        let card = &self.cards[c];
        // 702.2e, 702.15c, 702.80b, 702.90d: keywords of a source that has left the
        // battlefield are read from its last known information.
        let lki = card
            .lki
            .as_ref()
            .filter(|_| !self.bug(Mutant::DamageKeywordsFromCard));
        let has = |k: Keyword| -> bool {
            if card.on_battlefield() {
                eval.has_keyword(c, k)
            } else if let Some(lki) = lki {
                lki.keywords.contains(&k)
            } else {
                eval.has_keyword(c, k)
            }
        };
        Source {
            name: card.name().to_string(),
            controller: card.controller,
            on_battlefield: card.on_battlefield(),
            deathtouch: has(Keyword::Deathtouch),
            wither: has(Keyword::Wither),
            infect: has(Keyword::Infect),
            lifelink: has(Keyword::Lifelink),
        }
    }

    pub(super) fn recipient(
        &self,
        eval: &Eval<'_, 'c, B>,
        h: &crate::scenario::Handle,
        path: &NodePath,
    ) -> Res<Recipient> {
        Ok(match self.who(h) {
            Who::Player(p) => Recipient::Player(p),
            Who::Card(c) => {
                self.require_battlefield(c, path, "be dealt damage")?;
                Recipient::Permanent {
                    card: c,
                    creature: eval.has_type(c, CardType::Creature),
                    planeswalker: eval.has_type(c, CardType::Planeswalker),
                    battle: eval.has_type(c, CardType::Battle),
                }
            }
        })
    }

    pub(super) fn noncombat_damage(
        &mut self,
        d: &Damage,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let eval = Eval::new(self, false);
        let src = self.source_info(&eval, self.card_index(&d.from));
        let to = self.recipient(&eval, &d.to, &path.key("to"))?;
        let amount = self.amount_at_resolution(&eval, &d.amount, "the damage", log)?;
        drop(eval);
        let mut plan = vec![(src, to, amount)];
        self.prevent_damage(&mut plan, log);
        for (src, to, amount) in &plan {
            self.deal_damage(src, to, *amount, log)?;
        }
        Ok(())
    }

    pub(super) fn combat_damage(
        &mut self,
        v: &[crate::scenario::CombatAssignment],
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let eval = Eval::new(self, false);
        let mut plan = Vec::new();
        let mut assigned: BTreeMap<usize, i64> = BTreeMap::new();
        for (i, a) in v.iter().enumerate() {
            let c = self.card_index(&a.from);
            self.require_battlefield(c, &path.index(i).key("from"), "deal combat damage")?;
            let Some(info) = eval.pt(c)? else {
                return Err(invalid(
                    path.index(i).key("from"),
                    format!(
                        "`{}` is not a creature, so it deals no combat damage",
                        a.from
                    ),
                ));
            };
            // 510.1a: a creature assigns damage equal to its power; 0 or less assigns none.
            let power = if self.bug(Mutant::AbsolutePowerInCombat) {
                info.pt.power.saturating_abs()
            } else {
                info.pt.power.max(0)
            };
            let amount = a.amount.map_or(power, |n| n.0);
            let total = assigned.entry(c).or_insert(0);
            *total = add(*total, amount, || "assigned combat damage".into())?;
            if *total > power {
                return Err(invalid(
                    path.index(i).key("amount"),
                    format!(
                        "`{}` assigns {} in all but its power is {} (510.1a)",
                        a.from, total, info.pt.power
                    ),
                ));
            }
            let name = self.cards[c].name().to_string();
            if info.pt.power <= 0 {
                log.line(1, || {
                    format!(
                        "{name} has power {}: it assigns no combat damage [510.1a]",
                        info.pt.power
                    )
                });
            }
            let to = self.recipient(&eval, &a.to, &path.index(i).key("to"))?;
            plan.push((self.source_info(&eval, c), to, amount));
        }
        drop(eval);
        log.line(1, || "combat damage is dealt simultaneously [510.2]".into());
        self.prevent_damage(&mut plan, log);
        for (src, to, amount) in &plan {
            self.deal_damage(src, to, *amount, log)?;
        }
        Ok(())
    }

    /// 120.4b, 122.1c, 615.6: the damage of one event that would be dealt
    /// to a permanent with shield counters is prevented, all of it, and one
    /// shield counter is removed (however many sources and counters; the
    /// single effect of the text of 2023-11-17, D39). Prevented damage is
    /// never dealt, so it has no results: it leaves the plan.
    pub(in crate::resolver) fn prevent_damage(
        &mut self,
        plan: &mut Vec<(Source, Recipient, i64)>,
        log: &mut Log,
    ) {
        let shield = CounterKind::named("shield");
        let mut spent: Vec<usize> = Vec::new();
        plan.retain(|(src, to, amount)| {
            let Recipient::Permanent { card, .. } = *to else {
                return true;
            };
            let per_source = self.bug(Mutant::ShieldPerSource);
            let used = spent.iter().filter(|&&c| c == card).count() as i64;
            let left = self.cards[card].count(&shield) - if per_source { used } else { 0 };
            // 120.8: 0 damage is not dealt, so there is nothing to prevent.
            if *amount <= 0 || left <= 0 {
                return true;
            }
            let (name, tn) = (&src.name, self.cards[card].name());
            log.line(1, || format!("{name} would deal {amount} damage to {tn}: prevented by its shield counter [122.1c, 615.6]"));
            if per_source || !spent.contains(&card) {
                spent.push(card);
            }
            false
        });
        for card in spent {
            self.take_counters(card, &shield, 1);
            let name = self.cards[card].name().to_string();
            log.line(1, || {
                format!("a shield counter is removed from {name} [122.1c]")
            });
        }
        // 616.1: both prevent the same damage; the shield counter first
        // (D49), so a prevention shield is kept for later damage.
        self.prevent_by_shields(plan, log);
    }

    /// 615.7: "prevent the next N damage that would be dealt to it this
    /// turn", a shield that lasts until the cleanup step or until it has
    /// prevented N damage; on a permanent, only while it stays the same
    /// object (400.7).
    pub(super) fn prevent(&mut self, p: &Prevention, path: &NodePath, log: &mut Log) -> Res<()> {
        let label = p
            .name
            .clone()
            .unwrap_or_else(|| "a prevention effect".into());
        let (to, name) = match self.handles.get(p.to.as_str()) {
            Some(Who::Player(i)) => (Shielded::Player(*i), format!("player {}", p.to)),
            _ => {
                let c = self.card_index(&p.to);
                self.require_battlefield(c, &path.key("to"), "get a prevention shield")?;
                let card = &self.cards[c];
                (
                    Shielded::Permanent {
                        card: c,
                        object: card.object,
                    },
                    card.name().to_string(),
                )
            }
        };
        let n = p.amount.0;
        log.line(1, || {
            format!("{label}: the next {n} damage that would be dealt to {name} this turn is prevented [615.7]")
        });
        self.prevention
            .push(PreventionShield { to, left: n, label });
        Ok(())
    }

    /// 615.7: the prevention shields of each recipient prevent its damage 1
    /// for 1, the damage of the step in the order it lists it (the choice
    /// 615.7 gives the protected player, D49), older shields first.
    /// Damage they prevent entirely leaves the plan: it is not dealt.
    pub(super) fn prevent_by_shields(
        &mut self,
        plan: &mut Vec<(Source, Recipient, i64)>,
        log: &mut Log,
    ) {
        if self.prevention.iter().all(|s| s.left <= 0) {
            return;
        }
        let whole = self.bug(Mutant::PreventionShieldWholeEvent);
        let mut emptied = vec![false; plan.len()];
        for (i, (src, to, amount)) in plan.iter_mut().enumerate() {
            let target = match *to {
                Recipient::Player(p) => Shielded::Player(p),
                Recipient::Permanent { card, .. } => Shielded::Permanent {
                    card,
                    object: self.cards[card].object,
                },
            };
            let recipient = match target {
                Shielded::Player(p) => format!("player {}", self.players[p].handle),
                Shielded::Permanent { card, .. } => self.cards[card].name().to_string(),
            };
            for sh in self.prevention.iter_mut() {
                if *amount <= 0 {
                    break;
                }
                if sh.to != target || sh.left <= 0 {
                    continue;
                }
                let n = if whole {
                    *amount
                } else {
                    (*amount).min(sh.left)
                };
                sh.left = (sh.left - n).max(0);
                *amount -= n;
                let (left, label, from) = (sh.left, &sh.label, &src.name);
                log.line(1, || {
                    format!("{label} prevents {n} of the damage {from} would deal to {recipient} ({left} left to prevent) [615.7]")
                });
                if *amount <= 0 {
                    emptied[i] = true;
                }
            }
        }
        let mut i = 0;
        plan.retain(|_| {
            i += 1;
            !emptied[i - 1]
        });
    }

    /// The results of damage (120.3), once its amount is known.
    pub(in crate::resolver) fn deal_damage(
        &mut self,
        src: &Source,
        to: &Recipient,
        amount: i64,
        log: &mut Log,
    ) -> Res<()> {
        let name = &src.name;
        if amount <= 0 {
            log.line(1, || {
                format!("{name} deals no damage (0 damage is not dealt) [120.8]")
            });
            return Ok(());
        }
        let mut dealt = false;
        match *to {
            Recipient::Player(p) => {
                let pl = &mut self.players[p];
                let who = pl.handle.clone();
                if src.infect {
                    // 120.3b: the source's controller gives them.
                    let n = self.give_poison(p, amount, src.controller, log)?;
                    log.line(1, || format!("{name} deals {amount} damage to {who}: its controller gives {who} {n} poison counter{} (infect) [120.3b]", plural(n)));
                } else {
                    pl.life = checked(pl.life.checked_sub(amount), || {
                        format!("the life total of {who}")
                    })?;
                    log.line(1, || format!("{name} deals {amount} damage to {who}: {who} loses {amount} life [120.3a]"));
                }
                dealt = true;
            }
            Recipient::Permanent {
                card,
                creature,
                planeswalker,
                battle,
            } => {
                let tn = self.cards[card].name().to_string();
                if planeswalker {
                    let n = self.take_counters(card, &CounterKind::named("loyalty"), amount);
                    log.line(1, || format!("{name} deals {amount} damage to {tn}: {n} loyalty counters removed [120.3c]"));
                    dealt = true;
                }
                if battle {
                    let n = self.take_counters(card, &CounterKind::named("defense"), amount);
                    log.line(1, || format!("{name} deals {amount} damage to {tn}: {n} defense counters removed [120.3h]"));
                    dealt = true;
                }
                if creature {
                    if (src.wither || src.infect) && !self.bug(Mutant::WitherMarksDamage) {
                        // 120.3d: the source's controller puts them.
                        let n = self.put_counters(
                            card,
                            &CounterKind::MINUS_ONE,
                            amount,
                            src.controller,
                            None,
                            log,
                        )?;
                        let why = if src.infect {
                            "infect, 702.90"
                        } else {
                            "wither, 702.80"
                        };
                        log.line(1, || format!("{name} deals {amount} damage to {tn}: its controller puts {n} -1/-1 counter{} on it instead of marking damage [120.3d; {why}]", plural(n)));
                    } else {
                        let cd = &mut self.cards[card];
                        cd.damage = add(cd.damage, amount, || format!("the damage on {tn}"))?;
                        log.line(1, || format!("{name} deals {amount} damage to {tn}: marked on it, {} in all [120.3e]", self.cards[card].damage));
                    }
                    if src.deathtouch {
                        self.cards[card].deathtouch = true;
                        self.deathtouch_dealt(src, card, log);
                    }
                    dealt = true;
                }
                if !dealt {
                    log.line(1, || format!("{tn} is not a creature, planeswalker or battle: no damage is dealt to it [120.1a]"));
                }
            }
        }
        if dealt && src.lifelink && !self.rules.lifelink_static {
            // 502.68a (2007-05-01): "whenever this permanent deals damage,
            // you gain that much life", after the state-based actions;
            // 402.8: an ability of a permanent functions only on the
            // battlefield.
            if src.on_battlefield {
                self.damage_triggers.push(DamageTrigger::Lifelink {
                    player: src.controller,
                    amount,
                });
                log.line(1, || {
                    format!("lifelink triggers: {amount} life once state-based actions are done [702.15, 502.68a of 2007]")
                });
            } else {
                log.line(1, || {
                    format!("{name} is not on the battlefield: its lifelink, a triggered ability of a permanent in this edition, does not trigger [502.68a, 402.8 of 2007]")
                });
            }
        } else if dealt && src.lifelink {
            let pl = &mut self.players[src.controller];
            let who = pl.handle.clone();
            pl.life = add(pl.life, amount, || format!("the life total of {who}"))?;
            log.line(1, || {
                format!("lifelink: {who} gains {amount} life [120.3f]")
            });
        }
        Ok(())
    }

    /// Damage from a deathtouch source was dealt to creature `card`: since
    /// Magic 2010 a fact for the next check of state-based actions (704.5h);
    /// before, a trigger of the source, if it is a permanent on the
    /// battlefield (502.63a, 402.8 of 2007-05-01; D71).
    pub(super) fn deathtouch_dealt(&mut self, src: &Source, card: usize, log: &mut Log) {
        let (name, tn) = (&src.name, self.cards[card].name().to_string());
        if self.rules.deathtouch_static {
            log.line(1, || {
                format!("{tn} has been dealt damage by a source with deathtouch [702.2b]")
            });
        } else if !src.on_battlefield {
            log.line(1, || {
                format!("{name} is not on the battlefield: its deathtouch, a triggered ability of a permanent in this edition, does not trigger [502.63a, 402.8 of 2007]")
            });
        } else if !self.bug(Mutant::DeathtouchIgnored) {
            self.damage_triggers.push(DamageTrigger::Deathtouch {
                source: src.name.clone(),
                controller: src.controller,
                card,
                object: self.cards[card].object,
            });
            log.line(1, || {
                format!("deathtouch triggers: {name} will destroy {tn} once state-based actions are done [702.2, 502.63a of 2007]")
            });
        }
    }
}
