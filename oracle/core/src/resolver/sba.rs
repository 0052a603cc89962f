//! State-based actions (704) and the death triggers they cause.
//!
//! 704.3: every applicable state-based action is performed at once, as one
//! event, and the check repeats until none applies; then waiting triggered
//! abilities are put on the stack (here: resolved at once, see
//! DECISIONS.md), and the check repeats again.

use std::collections::BTreeMap;

use super::actions::Arrival;
use super::{Bugs, DamageTrigger, Eval, Fault, Game, Log, Mutant, Res, Resolution};
use crate::terms::{CardType, CounterKind, Keyword, Zone};
use crate::text::plural;

/// More rounds than any real scenario needs; past this, SBAs and triggers
/// are looping (104.4b would make the game a draw).
const MAX_ROUNDS: usize = 1000;

enum Leave {
    /// Put into the graveyard: not destruction (704.5f, 704.5i).
    Graveyard(String),
    /// Destroyed (704.5g, 704.5h): regeneration and indestructible apply.
    Destroy(String),
}

/// Counters removed by a state-based action: the card, the kind, how many
/// and why (704.5q, 704.5r).
type Removal = (usize, CounterKind, i64, String);

impl<'c, B: Bugs> Game<'c, B> {
    /// Performs state-based actions and resolves the triggers they cause,
    /// until nothing more happens.
    pub(super) fn settle(&mut self, log: &mut Log) -> Res<()> {
        let mut any = false;
        let mut checked = false;
        for _ in 0..MAX_ROUNDS {
            let skip = checked && self.bug(Mutant::SingleSbaPass);
            checked = true;
            if !skip && self.sba_batch(any, log)? {
                any = true;
                continue;
            }
            if !self.damage_triggers.is_empty() {
                any = true;
                let t = self.damage_triggers.remove(0);
                self.resolve_damage_trigger(t, log)?;
                continue;
            }
            if !self.triggers.is_empty() || !self.pending.is_empty() {
                any = true;
                self.resolve_triggers(log)?;
                self.resolve_pending(log)?;
                continue;
            }
            if !any {
                log.line(1, || "state-based actions: none apply [704.3]".into());
            }
            return Ok(());
        }
        Err(Fault::NoFixpoint)
    }

    /// Resolves a deathtouch or lifelink trigger of the editions before
    /// Magic 2010 (502.63a, 502.68a of 2007), one at a time, with the
    /// state-based actions checked before the next (704.3): a player who
    /// has lost meanwhile has left the game with their permanents, and
    /// their trigger with them (800.4a).
    fn resolve_damage_trigger(&mut self, t: DamageTrigger, log: &mut Log) -> Res<()> {
        let p = match t {
            DamageTrigger::Lifelink { player, .. } => player,
            DamageTrigger::Deathtouch { controller, .. } => controller,
        };
        let who = self.players[p].handle.clone();
        if self.players[p].lost {
            log.line(1, || {
                format!("{who} has lost the game: their trigger does nothing [800.4a]")
            });
            return Ok(());
        }
        match t {
            DamageTrigger::Lifelink { amount, .. } => {
                let pl = &mut self.players[p];
                pl.life = super::add(pl.life, amount, || format!("the life total of {who}"))?;
                log.line(1, || {
                    format!("lifelink trigger: {who} gains {amount} life [502.68a of 2007]")
                });
            }
            DamageTrigger::Deathtouch {
                source,
                card,
                object,
                ..
            } => {
                let c = &self.cards[card];
                let name = c.name().to_string();
                // 202.2a of 2007: "that creature" is that object, even if
                // it is no longer a creature; a new object is not it (400.7).
                if c.object != object || !c.on_battlefield() {
                    log.line(1, || {
                        format!("{source}'s deathtouch trigger does nothing: {name} has left the battlefield [400.7]")
                    });
                    return Ok(());
                }
                log.line(1, || {
                    format!("{source}'s deathtouch trigger resolves: destroy {name} [502.63a of 2007, 202.2a]")
                });
                self.destroy_by_effect(card, "is destroyed [701.8]", log)?;
            }
        }
        Ok(())
    }

    /// One simultaneous batch. Returns whether it changed anything.
    fn sba_batch(&mut self, again: bool, log: &mut Log) -> Res<bool> {
        let eval = Eval::new(self, false);
        let mut leaving: Vec<(usize, Leave)> = Vec::new();
        let mut removals: Vec<Removal> = Vec::new();
        // Under the mutant: creatures destroyed for lethal damage that were
        // also dealt deathtouch damage, destroyed again by 704.5h.
        let mut twice: Vec<usize> = Vec::new();
        for (c, card) in self.cards.iter().enumerate() {
            if !card.on_battlefield() {
                continue;
            }
            if let Some(l) = self.leaves_battlefield(&eval, c, log)? {
                if self.bug(Mutant::StateBasedDestroysSeparately)
                    && card.deathtouch
                    && matches!(l, Leave::Destroy(_))
                    && eval.pt(c)?.is_some_and(|i| card.damage >= i.pt.toughness)
                {
                    twice.push(c);
                }
                leaving.push((c, l));
            }
            for (kind, (n, why)) in self.counter_removals(c) {
                removals.push((c, kind, n, why.join("; ")));
            }
        }
        let snapshots = self.last_known(&eval, &leaving, &removals)?;
        drop(eval);
        if self.anything_applies(&leaving, &removals) {
            log.line(1, || {
                if again {
                    "state-based actions are checked again; these happen at the same time [704.3]:"
                        .into()
                } else {
                    "state-based actions, performed at the same time as one event [704.3]:".into()
                }
            });
        }
        let changed = log.nested(|log| self.perform_batch(leaving, snapshots, removals, log))?;
        // 704.5h looks at damage dealt since the last check: this was a check.
        for card in &mut self.cards {
            card.deathtouch = false;
        }
        for c in twice {
            // 704.7: one event; the mutant makes 704.5h a second one, for a
            // creature that regenerated (its damage removed).
            let card = &mut self.cards[c];
            if card.on_battlefield() && card.damage == 0 {
                card.deathtouch = true;
            }
        }
        Ok(changed)
    }

    /// Whether card `c`, on the battlefield, leaves it in this batch, and
    /// how: toughness 0 or less (704.5f), lethal damage (704.5g),
    /// deathtouch damage (704.5h), a planeswalker without loyalty (704.5i)
    /// or a Saga past its final chapter (704.5s).
    fn leaves_battlefield(
        &self,
        eval: &Eval<'_, 'c, B>,
        c: usize,
        log: &mut Log,
    ) -> Res<Option<Leave>> {
        let card = &self.cards[c];
        let name = card.name();
        if let Some(info) = eval.pt(c)? {
            let t = info.pt.toughness;
            if t <= 0 && self.bug(Mutant::ZeroToughnessIsDestruction) {
                return Ok(Some(Leave::Destroy(format!("{name} has toughness {t}"))));
            } else if t <= 0 {
                return Ok(Some(Leave::Graveyard(format!(
                    "{name} has toughness {t}, 0 or less: it is put into its owner's graveyard; this is not destruction, so neither regeneration nor indestructible helps [704.5f]"
                ))));
            } else if card.damage >= t && !(self.bug(Mutant::LethalIsGreater) && card.damage == t) {
                return Ok(Some(Leave::Destroy(format!(
                    "{name} has {} damage marked and toughness {t}: lethal damage, it is destroyed [704.5g, 120.6]",
                    card.damage
                ))));
            } else if card.deathtouch
                && self.rules.deathtouch_static
                && !self.bug(Mutant::DeathtouchIgnored)
            {
                return Ok(Some(Leave::Destroy(format!(
                    "{name} was dealt damage by a source with deathtouch since the last check: it is destroyed [704.5h, 702.2b]"
                ))));
            }
        }
        if eval.has_type(c, CardType::Planeswalker)
            && card.count(&CounterKind::named("loyalty")) == 0
        {
            return Ok(Some(Leave::Graveyard(format!(
                "{name} is a planeswalker with 0 loyalty: it is put into its owner's graveyard [704.5i]"
            ))));
        }
        // 704.5v: a battle with defense 0 is put into its owner's
        // graveyard, unless it is the source of an ability that has
        // triggered and not yet left the stack (a Siege's, 310.11b).
        if eval.has_type(c, CardType::Battle) && card.count(&CounterKind::named("defense")) == 0 {
            let waiting = self
                .pending
                .iter()
                .any(|p| p.card == c && p.object == card.object);
            if !waiting || self.bug(Mutant::SiegeToGraveyard) {
                return Ok(Some(Leave::Graveyard(format!(
                    "{name} is a battle with defense 0: it is put into its owner's graveyard [704.5v]"
                ))));
            }
            log.line(2, || format!("{name} is a battle with defense 0, but an ability it is the source of has yet to resolve: it stays [704.5v]"));
        }
        // 704.5s: a Saga whose lore counters reached its final chapter
        // is sacrificed, unless one of its chapter abilities has
        // triggered and not yet left the stack.
        if let Some(last) = card.final_chapter() {
            let lore = card.count(&CounterKind::named("lore"));
            let waiting = self
                .pending
                .iter()
                .any(|p| p.chapter && p.card == c && p.object == card.object);
            if lore >= last && !waiting {
                return Ok(Some(Leave::Graveyard(format!(
                    "{name} is a Saga with {lore} lore counter{} and final chapter {last}, and no chapter ability of it waits to resolve: it is sacrificed [704.5s, 714.4]",
                    plural(lore)
                ))));
            } else if lore >= last {
                log.line(2, || format!("{name} has reached its final chapter, but a chapter ability of it has yet to resolve: it stays [704.5s]"));
            }
        }
        Ok(None)
    }

    /// The counters removed from card `c` in this batch, by kind, with the
    /// reasons: +1/+1 and -1/-1 counters annihilate (704.5q), counters
    /// beyond a cap go (704.5r).
    fn counter_removals(&self, c: usize) -> BTreeMap<CounterKind, (i64, Vec<String>)> {
        let card = &self.cards[c];
        let name = card.name();
        // 704.5q and 704.5r happen in the same event; when both remove
        // counters of one kind, the larger removal is performed (see
        // DECISIONS.md).
        let mut remove: BTreeMap<CounterKind, (i64, Vec<String>)> = BTreeMap::new();
        if self.rules.counter_annihilation && !self.bug(Mutant::NoAnnihilation) {
            let (p, m) = (
                card.count(&CounterKind::PLUS_ONE),
                card.count(&CounterKind::MINUS_ONE),
            );
            let n = p.min(m);
            if n > 0 {
                remove.entry(CounterKind::PLUS_ONE).or_default().0 = n;
                let minus = if self.bug(Mutant::LopsidedAnnihilation) {
                    m
                } else {
                    n
                };
                remove.entry(CounterKind::MINUS_ONE).or_default().0 = minus;
                remove.entry(CounterKind::PLUS_ONE).or_default().1.push(format!(
                    "{name} has {p} +1/+1 and {m} -1/-1 counters: {n} of each are removed [704.5q, 122.3]"
                ));
            }
        }
        // 708.2a: a face-down permanent has no "can't have more than N".
        let caps = if self.rules.counter_caps && !card.face_down {
            card.spec.max_counters.iter()
        } else {
            Default::default()
        };
        for (kind, max) in caps {
            let have = card.count(kind);
            if have > max.0 {
                let entry = remove.entry(kind.clone()).or_insert((0, Vec::new()));
                entry.0 = entry.0.max(have - max.0);
                entry.1.push(format!(
                    "{name} can't have more than {} {kind} counters and has {have}: all but {} are removed [704.5r, 122.4]",
                    max.0, max.0
                ));
            }
        }
        remove
    }

    /// 704.8: the last known information of what leaves is the state
    /// before this batch, and whether it was indestructible then.
    fn last_known(
        &self,
        eval: &Eval<'_, 'c, B>,
        leaving: &[(usize, Leave)],
        removals: &[Removal],
    ) -> Res<Vec<(crate::observation::ObjectState, bool)>> {
        let mut snapshots = Vec::new();
        for (c, _) in leaving {
            snapshots.push((
                eval.object_state(*c)?,
                eval.has_keyword(*c, Keyword::Indestructible),
            ));
        }
        if self.bug(Mutant::LkiAfterAnnihilation) {
            for ((c, _), (lki, _)) in leaving.iter().zip(snapshots.iter_mut()) {
                for (rc, kind, n, _) in removals {
                    if rc == c {
                        if let Some(count) = lki.counters.get_mut(kind) {
                            *count -= (*n).min(*count);
                        }
                        lki.counters.retain(|_, n| *n > 0);
                    }
                }
            }
        }
        Ok(snapshots)
    }

    /// Whether this batch does anything: something leaves, counters go, or
    /// a player still in the game has 0 or less life or too much poison
    /// (704.5a, 704.5c).
    fn anything_applies(&self, leaving: &[(usize, Leave)], removals: &[Removal]) -> bool {
        !leaving.is_empty()
            || !removals.is_empty()
            || self
                .players
                .iter()
                .any(|p| !p.lost && (p.life <= 0 || self.poisoned(p.poison)))
    }

    fn perform_batch(
        &mut self,
        leaving: Vec<(usize, Leave)>,
        snapshots: Vec<(crate::observation::ObjectState, bool)>,
        removals: Vec<Removal>,
        log: &mut Log,
    ) -> Res<bool> {
        let mut changed = false;
        let poisoned: Vec<bool> = self
            .players
            .iter()
            .map(|p| self.poisoned(p.poison))
            .collect();
        for (p, poisoned) in self.players.iter_mut().zip(poisoned) {
            if p.lost {
                continue;
            }
            if p.life <= 0 {
                p.lost = true;
                changed = true;
                let (who, life) = (p.handle.clone(), p.life);
                log.line(1, || {
                    format!("{who} has {life} life, 0 or less: {who} loses the game [704.5a]")
                });
            } else if poisoned {
                p.lost = true;
                changed = true;
                let (who, poison) = (p.handle.clone(), p.poison);
                log.line(1, || format!("{who} has {poison} poison counters, 10 or more: {who} loses the game [704.5c]"));
            }
        }
        for (c, kind, n, why) in removals {
            if !why.is_empty() {
                log.line(1, || why);
            }
            self.take_counters(c, &kind, n);
            changed = true;
        }
        for ((c, leave), (lki, indestructible)) in leaving.into_iter().zip(snapshots) {
            let lki_text = if log.on() {
                describe_lki(&lki)
            } else {
                String::new()
            };
            match leave {
                Leave::Graveyard(why) => {
                    log.line(1, || why);
                    log.line(2, || {
                        format!("its last known information: {lki_text} [704.8]")
                    });
                    let to = Zone::Graveyard;
                    self.move_card(c, to, Arrival::default(), Some(lki), log)?;
                    changed = true;
                }
                Leave::Destroy(why) => {
                    log.line(1, || why);
                    let before = (self.cards[c].object, self.cards[c].shields);
                    if !indestructible && self.cards[c].shields == 0 {
                        log.line(2, || {
                            format!("its last known information: {lki_text} [704.8]")
                        });
                    }
                    self.destroy(c, indestructible, lki, "is destroyed", log)?;
                    changed |= (self.cards[c].object, self.cards[c].shields) != before;
                }
            }
        }
        Ok(changed)
    }

    /// 704.5c: ten or more poison counters.
    fn poisoned(&self, poison: i64) -> bool {
        if self.bug(Mutant::PoisonAtEleven) {
            poison > 10
        } else {
            poison >= 10
        }
    }

    fn resolve_triggers(&mut self, log: &mut Log) -> Res<()> {
        let triggers = std::mem::take(&mut self.triggers);
        for t in triggers {
            let card = &self.cards[t.card];
            let name = card.name().to_string();
            if card.object != t.object || card.zone != Zone::Graveyard {
                log.line(1, || {
                    format!(
                        "{} does nothing: {name} is no longer in the graveyard [603.6, 400.7]",
                        t.keyword
                    )
                });
                continue;
            }
            log.line(1, || {
                format!("{} resolves: {name} returns to the battlefield with a {} counter, as a new object [{}, 122.6, 400.7]", t.keyword, t.kind, t.rule)
            });
            let counters = BTreeMap::from([(t.kind.clone(), crate::scenario::Count(1))]);
            // 122.6a: undying and persist name no player, so the returning
            // creature's controller (its owner, 702.79a) puts the counter.
            let arrival = Arrival {
                counters: Some(&counters),
                ..Arrival::default()
            };
            self.move_card(t.card, Zone::Battlefield, arrival, None, log)?;
        }
        Ok(())
    }
}

impl<'c, B: Bugs> Game<'c, B> {
    /// Resolves the waiting chapter and counter abilities, in the order
    /// they triggered (see DECISIONS.md, D2).
    fn resolve_pending(&mut self, log: &mut Log) -> Res<()> {
        let pending = std::mem::take(&mut self.pending);
        for p in pending {
            log.line(1, || format!("{} resolves [{}, 603.3]", p.label, p.rule));
            match p.effect {
                // 603.3a: the ability's controller acts for it (D31).
                Resolution::Perform(action) => self.perform(action, &p.path, p.controller, log)?,
                Resolution::ExileSiege => self.exile_siege(p.card, p.object, log)?,
            }
        }
        Ok(())
    }

    /// 310.11b: "exile it, then you may cast it transformed without paying
    /// its mana cost". The scenario has no back faces: its controller
    /// declines to cast it, and it stays in exile (D38). If it has already
    /// left the battlefield, it is a new object that "it" no longer finds
    /// (400.7).
    fn exile_siege(&mut self, c: usize, object: u64, log: &mut Log) -> Res<()> {
        let card = &self.cards[c];
        let name = card.name().to_string();
        if card.object != object || !card.on_battlefield() {
            log.line(2, || {
                format!("{name} has left the battlefield: the ability does nothing [400.7]")
            });
            return Ok(());
        }
        log.line(2, || format!("{name} is exiled; its back face is not modelled, so its controller does not cast it [310.11b]"));
        let lki = self.lki_if_leaving(c)?;
        self.move_card(c, Zone::Exile, Default::default(), lki, log)
    }
}

fn describe_lki(s: &crate::observation::ObjectState) -> String {
    let pt = s.pt.map_or("no P/T".to_string(), |p| p.to_string());
    let counters: Vec<String> = s.counters.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let counters = if counters.is_empty() {
        "no counters".to_string()
    } else {
        counters.join(", ")
    };
    format!("{pt}, {counters}, {} damage", s.damage)
}
