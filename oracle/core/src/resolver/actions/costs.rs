//! Paying costs: mana abilities, crewing and cost payments (107.4, 118, 702.122).

use super::invalid;
use crate::cost::{ManaCost, ManaKind, PAYMENT_LIMIT, Payment, Pool, Symbol};
use crate::error::NodePath;
use crate::resolver::{Bugs, Effect, Eval, Game, Log, Mutant, Res, add};
use crate::scenario::{Affects, CostPayment, Crew, EffectSpec, Until};
use crate::terms::{CardType, Zone};
use crate::text::plural;

impl<'c, B: Bugs> Game<'c, B> {
    /// A mana ability adds mana, its amount read as it resolves (106.4, 608.2h, 107.1b).
    pub(super) fn add_mana(&mut self, m: &crate::scenario::ManaAbility, log: &mut Log) -> Res<()> {
        let eval = Eval::new(self, false);
        let amount = if self.bug(Mutant::UnclampedMana) {
            eval.locked_quantity(&m.amount)?
        } else {
            self.amount_at_resolution(&eval, &m.amount, "the amount of mana", log)?
        };
        drop(eval);
        let p = m.player.as_ref().map_or(0, |h| self.player_index(h));
        let name = m.name.clone().unwrap_or_else(|| "a mana ability".into());
        let player = &mut self.players[p];
        let pool = player.mana.entry(m.mana).or_insert(0);
        *pool = add(*pool, amount, || "a mana pool".into())?;
        if m.snow {
            // 107.4h: mana from a snow source can pay {S}; it
            // stays apart from the rest of the pool.
            let snow = player.snow.entry(m.mana).or_insert(0);
            *snow = add(*snow, amount, || "a mana pool".into())?;
        }
        let who = player.handle.clone();
        let from_snow = if m.snow { " from a snow source" } else { "" };
        log.line(1, || {
            format!(
                "{name} adds {amount} {{{}}}{from_snow} to {who}'s mana pool [106.4, 608.2h]",
                m.mana
            )
        });
        Ok(())
    }

    pub(super) fn crew(&mut self, cr: &Crew, path: &NodePath, log: &mut Log) -> Res<()> {
        let v = self.card_index(&cr.vehicle);
        self.require_battlefield(v, &path.key("vehicle"), "be crewed")?;
        let eval = Eval::new(self, false);
        let vname = self.cards[v].name().to_string();
        let crew_n = match self.cards[v].spec.crew {
            Some(n) if eval.early[v].abilities => n.0,
            _ => {
                log.line(1, || {
                    format!("{vname} has no crew ability: nothing happens [702.122]")
                });
                return Ok(());
            }
        };
        let mut total = 0i64;
        let mut tapped = Vec::new();
        for (i, h) in cr.with.iter().enumerate() {
            let c = self.card_index(h);
            self.require_battlefield(c, &path.key("with").index(i), "crew a Vehicle")?;
            let card = &self.cards[c];
            let problem = if card.tapped {
                Some("is tapped")
            } else if card.controller != self.cards[v].controller {
                Some("is controlled by another player")
            } else {
                None
            };
            let info = eval.pt(c)?;
            let problem = problem.or(if info.is_none() {
                Some("is not a creature")
            } else {
                None
            });
            if let Some(p) = problem {
                let n = card.name().to_string();
                log.line(1, || {
                    format!("{n} {p}, so the crew cost can't be paid: nothing happens [702.122a]")
                });
                return Ok(());
            }
            let mut power = info.map_or(0, |i| i.pt.power);
            if self.rules.negative_counts_as_zero {
                // K.10.3 (1999): a negative power counts as 0 but to change P/T.
                power = power.max(0);
            }
            total = add(total, power, || "the total power of the crew".into())?;
            tapped.push(c);
        }
        drop(eval);
        if total < crew_n {
            log.line(1, || {
                format!("the crew's total power is {total}, less than {crew_n}: {vname} can't be crewed [702.122a, 107.1b]")
            });
            return Ok(());
        }
        for c in &tapped {
            self.cards[*c].tapped = true;
        }
        let ts = self.take_ts();
        let seq = self.take_seq();
        let target = self.obj_ref(v);
        let spec = EffectSpec {
            name: Some(format!("crew {crew_n}")),
            affects: Affects::Objects(vec![cr.vehicle.clone()]),
            until: Some(Until::EndOfTurn),
            add_types: vec![CardType::Artifact, CardType::Creature],
            ..EffectSpec::default()
        };
        log.line(1, || {
            format!("crew {crew_n} is paid with total power {total}: {vname} becomes an artifact creature until end of turn (t={ts}) [702.122a, 613.1d]")
        });
        self.effects.push(Effect {
            spec,
            label: format!("crew {crew_n} ({vname})"),
            source: Some(target),
            ts,
            seq,
            until: Until::EndOfTurn,
            affected: vec![target],
            x_set: 0,
            x_modify: 0,
        });
        Ok(())
    }

    /// 118.3: a cost is paid only with the resources to pay it fully; the
    /// ways to pay it are in [`crate::cost`]. Paying mana removes it from
    /// the pool (118.3a); paying life loses it (119.4).
    pub(super) fn pay_cost(&mut self, pc: &CostPayment, path: &NodePath, log: &mut Log) -> Res<()> {
        let (base, x, of) = self.cost_to_pay(pc, path)?;
        let p = pc.player.as_ref().map_or(0, |h| self.player_index(h));
        let (pool, life) = self.payer_resources(p);
        let mutated;
        let cost = if self.bug(Mutant::ColorlessAsGeneric) {
            let symbols = base.symbols().iter().map(|s| match s {
                Symbol::Colorless => Symbol::Generic(1),
                s => *s,
            });
            mutated = ManaCost::from_symbols(symbols.collect()).unwrap_or_else(|_| base.clone());
            &mutated
        } else {
            &base
        };
        let found = cost.payments(&pool, life, x, PAYMENT_LIMIT);
        let count = i64::try_from(found.list.len()).unwrap_or(i64::MAX);
        let who = self.players[p].handle.clone();
        let what = self.cost_description(pc, &base, x, of);
        self.players[p].payments = Some(count);
        if let Some(why) = &found.why_not {
            log.line(1, || {
                format!("{who} can't pay {what}: {why}; nothing is paid [118.3]")
            });
            return Ok(());
        }
        let chosen = usize::try_from(pc.payment.0)
            .ok()
            .and_then(|i| found.list.get(i));
        let Some(payment) = chosen else {
            return Err(invalid(
                path.key("payment"),
                format!(
                    "{what} has {count}{} distinct payments, numbered from 0; there is no payment {}",
                    if found.capped { " or more" } else { "" },
                    pc.payment.0
                ),
            ));
        };
        let more = if found.capped { " or more" } else { "" };
        log.line(1, || {
            format!(
                "{what} can be paid in {count}{more} distinct way{} (by the mana of each kind spent and the life paid) [107.4]",
                plural(count)
            )
        });
        self.spend(p, payment)?;
        let life = if payment.life > 0 {
            format!("; {who} pays {} life [107.4f, 119.4]", payment.life)
        } else {
            String::new()
        };
        log.line(1, || {
            format!(
                "{who} pays {what} (payment {}): {payment} [107.4, 118.3a]{life}",
                pc.payment.0
            )
        });
        Ok(())
    }

    /// The cost a payment step pays, its X, and the card whose mana cost
    /// it is (`cost_of`).
    pub(super) fn cost_to_pay(
        &self,
        pc: &CostPayment,
        path: &NodePath,
    ) -> Res<(ManaCost, i64, Option<usize>)> {
        // 107.3h: an object's mana cost is paid with its X as a spell on the
        // stack, and with X = 0 anywhere else.
        match (&pc.cost, &pc.cost_of) {
            (Some(cost), _) => Ok((cost.clone(), pc.x.0, None)),
            (None, Some(h)) => {
                let c = self.card_index(h);
                let Some(cost) = &self.cards[c].spec.mana_cost else {
                    return Err(invalid(
                        path.key("cost_of"),
                        format!("`{h}` has no `mana_cost` to pay"),
                    ));
                };
                // 107.1b: an X its text defines as negative costs 0.
                let x = Eval::new(self, false).x_of(c, true, None)?.max(0);
                Ok((cost.clone(), x, Some(c)))
            }
            (None, None) => Err(invalid(
                path.clone(),
                "give the cost to pay: `cost` or `cost_of`".into(),
            )),
        }
    }

    /// What player `p` can pay with: the mana in their pool by kind (snow
    /// apart) and their life.
    pub(super) fn payer_resources(&self, p: usize) -> (Pool, i64) {
        let player = &self.players[p];
        let mut pool = Pool::default();
        for (m, all) in &player.mana {
            let snow = if self.bug(Mutant::SnowIgnored) {
                *all
            } else {
                player.snow.get(m).copied().unwrap_or(0)
            };
            pool.set(
                ManaKind {
                    mana: *m,
                    snow: true,
                },
                snow,
            );
            pool.set(
                ManaKind {
                    mana: *m,
                    snow: false,
                },
                all.checked_sub(snow).unwrap_or(0),
            );
        }
        let life = if self.bug(Mutant::LifeAbovePayment) {
            player.life.saturating_sub(1)
        } else {
            player.life
        };
        (pool, life)
    }

    /// The cost as `explain` names it: its symbols, what it is for, and X.
    pub(super) fn cost_description(
        &self,
        pc: &CostPayment,
        cost: &ManaCost,
        x: i64,
        of: Option<usize>,
    ) -> String {
        let mut what = match (&pc.name, cost.has_x()) {
            (Some(n), true) => format!("{cost} for {n}, with X = {x}"),
            (Some(n), false) => format!("{cost} for {n}"),
            (None, true) => format!("{cost} with X = {x} [107.3a]"),
            (None, false) => cost.to_string(),
        };
        if let Some(c) = of {
            let card = &self.cards[c];
            what = format!("{what}, the mana cost of {}", card.name());
            if cost.has_x() {
                what.push_str(if card.zone == Zone::Stack {
                    ", with the X of the spell [107.3h]"
                } else {
                    ", with X = 0 as it is not a spell on the stack [107.3h]"
                });
            }
        }
        what
    }

    /// Takes a chosen payment's mana and life from player `p`.
    pub(super) fn spend(&mut self, p: usize, payment: &Payment) -> Res<()> {
        let player = &mut self.players[p];
        for (kind, n) in &payment.mana {
            let all = player.mana.entry(kind.mana).or_insert(0);
            *all = crate::number::checked(all.checked_sub(*n), || "a mana pool".into())?;
            if kind.snow {
                let snow = player.snow.entry(kind.mana).or_insert(0);
                *snow = crate::number::checked(snow.checked_sub(*n), || "a mana pool".into())?;
            }
        }
        player.mana.retain(|_, n| *n != 0);
        player.snow.retain(|_, n| *n != 0);
        let who = &player.handle;
        player.life = crate::number::checked(player.life.checked_sub(payment.life), || {
            format!("the life total of {who}")
        })?;
        Ok(())
    }
}
