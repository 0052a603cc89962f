//! Performing a step's action: the only place, with [`super::sba`], that
//! changes the game state.

use std::collections::BTreeMap;

use super::{
    Bugs, DamageTrigger, Effect, Eval, Fault, Game, Log, Mutant, ObjRef, Pending, PreventionShield,
    Res, Resolution, Shielded, Stack, Trigger, Who, add,
};
use crate::cost::{ManaCost, ManaKind, PAYMENT_LIMIT, Payment, Pool, Symbol};
use crate::error::{NodePath, ScenarioError};
use crate::number::{Amount, Change, ModPt, checked};
use crate::observation::ObjectState;
use crate::scenario::{
    Action, Affects, Cast, CostPayment, Count, CounterMove, CounterPut, CounterRemove,
    CountersFrom, Crew, Damage, EffectSpec, Exchange, Exchanged, Handle, Prevention, Quantity,
    Scale, ScaleWhat, Until,
};
use crate::terms::{CardType, CounterKind, Keyword, Zone};

/// What an object that enters the battlefield comes with.
#[derive(Clone, Copy, Default)]
pub(super) struct Arrival<'a> {
    /// The counters it enters with (122.6).
    pub counters: Option<&'a BTreeMap<CounterKind, Count>>,
    /// The P/T its controller chooses as it enters (208.2b).
    pub choose: Option<crate::number::Pt>,
    /// It enters as a copy (707.5): its own "as this enters" abilities are
    /// not its text any more, so it makes none of their choices.
    pub entering_copy: bool,
    /// The player the effect names to put those counters on it (122.6a).
    pub by: Option<usize>,
}

/// What a source of damage is like as it deals damage (120.3).
pub(super) struct Source {
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
pub(super) enum Recipient {
    Player(usize),
    Permanent {
        card: usize,
        creature: bool,
        planeswalker: bool,
        battle: bool,
    },
}

impl<'c, B: Bugs> Game<'c, B> {
    /// Performs an action for player `actor`: the player who puts counters
    /// when the action names none (the first player for a step, the
    /// controller for a triggered ability; D31).
    pub(super) fn perform(
        &mut self,
        action: &Action,
        path: &NodePath,
        actor: usize,
        log: &mut Log,
    ) -> Res<()> {
        let by = |h: &Option<crate::scenario::Handle>| h.as_ref().map(|h| self.player_index(h));
        match action {
            Action::PutCounters(p) => {
                let by = by(&p.by).unwrap_or(actor);
                self.put_counters_action(p, by, log)
            }
            Action::RemoveCounters(r) => self.remove_counters(r, log),
            Action::DoubleCounters(d) => {
                let by = by(&d.by).unwrap_or(actor);
                self.double_counters(d, by, log)
            }
            Action::MoveCounters(m) => {
                let by = by(&m.by).unwrap_or(actor);
                self.move_counters(m, by, log)
            }
            Action::PutCountersFrom(p) => {
                let by = by(&p.by).unwrap_or(actor);
                self.put_counters_from(p, by, log)
            }
            Action::Effect(e) => self.create_effect(e, path, log),
            Action::Damage(d) => self.noncombat_damage(d, path, log),
            Action::Prevent(p) => self.prevent(p, path, log),
            Action::CombatDamage(v) => self.combat_damage(v, path, log),
            Action::Attack(v) => self.attack(v, path, log),
            Action::CombatDamageStep(d) => self.combat_damage_step(d, path, log),
            Action::AddMana(m) => self.add_mana(m, log),
            Action::PayCost(c) => self.pay_cost(c, path, log),
            Action::Double(s) => self.scale(s, 1, path, log),
            Action::Triple(s) => self.scale(s, 2, path, log),
            Action::Exchange(x) => self.exchange(x, path, log),
            Action::Copy(cs) => self.copy_step(cs, path, log),
            Action::Regenerate(h) => self.regenerate(h, path, log),
            Action::Destroy(h) => self.destroy_action(h, path, log),
            Action::Move(m) => self.move_action(m, by(&m.by), path, log),
            Action::Cast(cast) => self.cast(cast, path, log),
            Action::Resolve(h) => self.resolve_spell(h, path, log),
            Action::GainControl(gc) => self.gain_control(gc, path, log),
            Action::BeginTurn(h) => self.begin_turn(h, log),
            Action::Attach(a) => self.attach(a, path, log),
            Action::TurnFaceUp(h) => self.turn_over(h, false, path, log),
            Action::TurnFaceDown(h) => self.turn_over(h, true, path, log),
            Action::Transform(h) => self.transform(h, path, log),
            Action::Crew(c) => self.crew(c, path, log),
            Action::Cleanup => {
                self.cleanup(log);
                Ok(())
            }
            Action::StateBasedActions => {
                log.line(1, || "state-based actions are checked [704.3]".into());
                Ok(())
            }
        }
    }

    /// A mana ability adds mana, its amount read as it resolves (106.4, 608.2h, 107.1b).
    fn add_mana(&mut self, m: &crate::scenario::ManaAbility, log: &mut Log) -> Res<()> {
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

    /// A permanent gets a regeneration shield (701.19a).
    fn regenerate(
        &mut self,
        h: &crate::scenario::Handle,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(h);
        self.require_battlefield(c, path, "get a regeneration shield")?;
        let card = &mut self.cards[c];
        card.shields = add(card.shields, 1, || "regeneration shields".into())?;
        let name = card.name().to_string();
        log.line(1, || format!("{name} gets a regeneration shield [701.19a]"));
        Ok(())
    }

    /// A permanent is destroyed (701.8), unless indestructible or regenerated.
    fn destroy_action(
        &mut self,
        h: &crate::scenario::Handle,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(h);
        self.require_battlefield(c, path, "be destroyed")?;
        self.destroy_by_effect(c, "is destroyed [701.8]", log)
    }

    /// An object moves to another zone and becomes a new object (400.7); an instant or sorcery can't enter the battlefield (304.4, 307.4).
    fn move_action(
        &mut self,
        m: &crate::scenario::MoveZone,
        by: Option<usize>,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(&m.object);
        if self.cards[c].zone == m.to {
            return Err(invalid(
                path.key("to"),
                format!("`{}` is already in the {}", m.object, m.to),
            ));
        }
        // 304.4, 307.4: an instant or sorcery that would enter the
        // battlefield stays where it is (still the same object).
        let types = &self.cards[c].spec.types;
        if m.to == Zone::Battlefield
            && (types.contains(&CardType::Instant) || types.contains(&CardType::Sorcery))
        {
            let (name, from) = (self.cards[c].name().to_string(), self.cards[c].zone);
            log.line(1, || {
                    format!("{name} is an instant or sorcery: it can't enter the battlefield and stays in the {from} [304.4, 307.4]")
                });
            return Ok(());
        }
        // 707.2, 707.5: what it enters as a copy of, and the choice it makes
        // as it enters if the copied text asks one (707.6), known before it
        // moves.
        let copy = match &m.copy {
            Some(copy) => {
                let mut values = self.copiable(self.card_index(&copy.of), copy.except_pt);
                let names = (m.object.as_str(), copy.of.as_str());
                let choice = self
                    .entering_copy_choice(&mut values, m.choose, names, path)
                    .map_err(Fault::Invalid)?;
                Some((copy, values, choice))
            }
            None => None,
        };
        let lki = self.lki_if_leaving(c)?;
        let from = self.cards[c].zone;
        let name = self.cards[c].name().to_string();
        log.line(1, || {
            format!(
                "{name} moves from the {from} to the {}: it becomes a new object [400.7, 122.2]",
                m.to
            )
        });
        let arrival = Arrival {
            counters: Some(&m.counters),
            // A copy's `choose` is the copied text's choice, above.
            choose: if copy.is_some() { None } else { m.choose },
            entering_copy: copy.is_some(),
            by,
        };
        self.move_card(c, m.to, arrival, lki, log)?;
        if let Some((copy, values, choice)) = copy {
            // 707.2: it enters as a copy, a new object; counters and
            // effects on the original are not copied.
            self.become_copy(c, copy, values, Until::Forever, log);
            if let Some(i) = choice {
                let (name, spec) = (self.cards[c].name().to_string(), self.cards[c].face());
                let what = spec
                    .enters_as
                    .get(i)
                    .map(super::entry_label)
                    .unwrap_or_default();
                log.line(2, || {
                    format!("as {name} enters as a copy, the \"as this enters\" ability it copied applies, and its controller chooses {what}: its copiable P/T, on top of the copied values [707.5, 707.6, 208.2b]")
                });
            }
        }
        Ok(())
    }

    /// A player gains control of a permanent (613.1b), which then has not been under their control continuously (302.6).
    fn gain_control(
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

    /// A player's turn begins: their permanents have been under their control continuously since (302.6).
    fn begin_turn(&mut self, h: &crate::scenario::Handle, log: &mut Log) -> Res<()> {
        let p = self.player_index(h);
        let mut n = 0usize;
        for card in &mut self.cards {
            if card.on_battlefield() && card.controller == p {
                card.continuous = true;
                n += 1;
            }
        }
        log.line(1, || {
                format!("the turn of {h} begins: the {n} permanent{} {h} controls have been under that control continuously since it began [302.6]", if n == 1 { "" } else { "s" })
            });
        Ok(())
    }

    /// An Aura or Equipment becomes attached and gets a new timestamp (701.3,
    /// 613.7e), unless it is already attached to that object (701.3b).
    fn attach(&mut self, a: &crate::scenario::Attach, path: &NodePath, log: &mut Log) -> Res<()> {
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

    /// Turns a permanent face down (`down`) or face up (708.2a, 708.8).
    /// Nothing else of it changes: the object, its counters, damage and the
    /// effects that apply to it stay (708.8); its copiable values become
    /// the face-down ones or its printed ones (eval's `Early::printed`,
    /// `starting_pt`). It gets a new timestamp where the edition gives one
    /// (613.7f; DECISIONS.md D42).
    fn turn_over(
        &mut self,
        h: &crate::scenario::Handle,
        down: bool,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(h);
        let what = if down {
            "be turned face down"
        } else {
            "be turned face up"
        };
        self.require_battlefield(c, path, what)?;
        let name = self.cards[c].name().to_string();
        if down && self.cards[c].spec.back_face.is_some() {
            log.line(1, || {
                format!("{name} is a double-faced permanent, which can't be turned face down: nothing happens [712.16]")
            });
            return Ok(());
        }
        if self.cards[c].face_down == down {
            log.line(1, || {
                if down {
                    format!("{name} is already face down: nothing happens [708.2b]")
                } else {
                    format!("{name} is already face up: there is nothing to turn, and nothing happens [609.3]")
                }
            });
            return Ok(());
        }
        // 701.40g, 701.58g: a manifested or cloaked permanent that is an
        // instant or sorcery card is revealed and stays face down; it does
        // not turn face up, so it gets no timestamp either (613.7f). Any
        // face-down instant or sorcery of the model is one of those: morph
        // and disguise cards are permanent cards (D60).
        let types = &self.cards[c].spec.types;
        let spell = types.contains(&CardType::Instant) || types.contains(&CardType::Sorcery);
        if !down && spell && !self.bug(Mutant::FaceDownInstantTurnsUp) {
            log.line(1, || {
                format!("{name} would turn face up, but the card is an instant or sorcery: its controller reveals it and leaves it face down, a 2/2 creature [701.40g, 701.58g]")
            });
            return Ok(());
        }
        // 613.7f: a new timestamp each time it turns over (from 2015-07-17).
        let stamp = self.restamp(c, down || !self.bug(Mutant::FaceUpKeepsTimestamp));
        let card = &mut self.cards[c];
        card.face_down = down;
        // 613.2b: face-down status applied after the copy effects on it;
        // face up, those give its copiable values (707.2).
        let copy = card.copy().map(|v| v.spec.display_name().to_string());
        // 712.15a: a double-faced permanent turned face up has its front
        // face up.
        card.transformed = false;
        log.line(1, || {
            if down {
                format!("{name} is turned face down: a 2/2 creature with no name, text, subtypes or mana cost; its counters and the effects on it stay [708.2a]")
            } else {
                match &copy {
                    Some(of) => format!("{name} is turned face up: its copiable values are those of {of}, which it copies [613.2a, 613.2b, 707.2]; its counters and the effects on it stay, and its \"as it enters\" abilities do nothing [708.8]"),
                    None => format!("{name} is turned face up: its copiable values are its printed ones again; its counters and the effects on it stay, and its \"as it enters\" abilities do nothing [708.8]"),
                }
            }
        });
        say_stamp(log, stamp, "613.7f");
        Ok(())
    }

    /// 613.7f, 613.7g: the new timestamp card `c` gets as it turns over or
    /// transforms, in the editions that give one (from 2015-07-17) and
    /// unless `take` is false; before, it keeps the one it entered with.
    fn restamp(&mut self, c: usize, take: bool) -> Option<i64> {
        if !(take && self.rules.turning_over_takes_timestamp) {
            return None;
        }
        let (ts, seq) = (self.take_ts(), self.take_seq());
        let card = &mut self.cards[c];
        card.ts = ts;
        card.seq = seq;
        Some(ts)
    }

    /// Transforms a double-faced permanent (701.27a): its other face is up.
    /// The same object: counters, damage and effects stay; a new timestamp
    /// where the edition gives one (613.7g; DECISIONS.md D43).
    fn transform(
        &mut self,
        h: &crate::scenario::Handle,
        path: &NodePath,
        log: &mut Log,
    ) -> Res<()> {
        let c = self.card_index(h);
        self.require_battlefield(c, path, "transform")?;
        let name = self.cards[c].name().to_string();
        if self.cards[c].spec.back_face.is_none() {
            log.line(1, || {
                format!("{name} is not a double-faced permanent: nothing happens [701.27c]")
            });
            return Ok(());
        }
        if self.cards[c].face_down {
            log.line(1, || {
                format!("{name} is face down, and a face-down permanent can't transform: nothing happens [712.15a]")
            });
            return Ok(());
        }
        let stamp = self.restamp(c, true);
        let card = &mut self.cards[c];
        card.transformed = !card.transformed;
        let (up, back) = (card.transformed, card.back().and_then(|b| b.name.clone()));
        log.line(1, || {
            if up {
                format!(
                    "{name} transforms: its back face{} is up, with only its characteristics; its counters and the effects on it stay [701.27a, 712.8e]",
                    back.map(|n| format!(", {n},")).unwrap_or_default()
                )
            } else {
                format!("{name} transforms: its front face is up again [701.27a, 712.8d]")
            }
        });
        say_stamp(log, stamp, "613.7g");
        Ok(())
    }

    /// Bad input: the object must be on the battlefield for this.
    pub(super) fn require_battlefield(&self, c: usize, path: &NodePath, what: &str) -> Res<()> {
        let card = &self.cards[c];
        if card.on_battlefield() {
            return Ok(());
        }
        let why = if card.lki.is_some() {
            " (it has left the battlefield and is a new object, 400.7)"
        } else {
            ""
        };
        Err(invalid(
            path.clone(),
            format!(
                "`{}` is in the {}, not on the battlefield, so it can't {what}{why}",
                card.spec.id, card.zone
            ),
        ))
    }

    /// 601.2a, 601.2b: the card moves to the stack, a new object (400.7),
    /// controlled by the player who casts it; X is announced (107.3a).
    fn cast(&mut self, cast: &Cast, path: &NodePath, log: &mut Log) -> Res<()> {
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
    fn resolve_spell(&mut self, h: &Handle, path: &NodePath, log: &mut Log) -> Res<()> {
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

    pub(super) fn lki_if_leaving(&self, c: usize) -> Res<Option<ObjectState>> {
        if !self.cards[c].on_battlefield() {
            return Ok(None);
        }
        let eval = Eval::new(self, false);
        Ok(Some(eval.object_state(c)?))
    }

    /// 701.10e: doubling the counters of a kind gives the object or player
    /// as many of them as it already has; they are put (122.6), so what
    /// changes putting counters applies (122.1c, 614.1a, 122.7).
    fn double_counters(
        &mut self,
        d: &crate::scenario::CounterDouble,
        by: usize,
        log: &mut Log,
    ) -> Res<()> {
        let (have, name) = match self.who(&d.on) {
            Who::Player(i) => (self.players[i].poison, d.on.to_string()),
            Who::Card(c) => (
                self.cards[c].count(&d.kind),
                self.cards[c].name().to_string(),
            ),
        };
        log.line(1, || {
            format!(
                "the {} counters on {name} are doubled: it has {have}, so {have} more [701.10e]",
                d.kind
            )
        });
        if have <= 0 {
            return Ok(());
        }
        if let (true, Who::Card(c)) = (self.bug(Mutant::DoubleCountersSetsCount), self.who(&d.on)) {
            let stack = self.cards[c].counters.get_mut(&d.kind);
            if let Some(stack) = stack {
                stack.count = add(stack.count, have, || "the doubled counters".into())?;
            }
            return Ok(());
        }
        let put = CounterPut {
            on: d.on.clone(),
            kind: d.kind.clone(),
            count: crate::scenario::Count(have),
            by: None,
        };
        self.put_counters_action(&put, by, log)
    }

    fn put_counters_action(&mut self, p: &CounterPut, by: usize, log: &mut Log) -> Res<()> {
        let who = self.players[by].handle.clone();
        match self.who(&p.on) {
            Who::Player(i) => {
                let n = self.give_poison(i, p.count.0, by, log)?;
                log.line(1, || {
                    format!("{who} gives {} {n} poison counter{} [122.1f]", p.on, s(n))
                });
                Ok(())
            }
            Who::Card(c) => {
                let n = self.put_counters(c, &p.kind, p.count.0, by, None, log)?;
                let name = self.cards[c].name().to_string();
                let ts = self.cards[c].counters.get(&p.kind).map_or(0, |s| s.ts);
                log.line(1, || {
                    format!(
                        "{who} puts {n} {} counter{} on {name} (t={ts}) [122.1, 613.7c]",
                        p.kind,
                        s(n)
                    )
                });
                Ok(())
            }
        }
    }

    /// Player `by` gives player `p` poison counters (122.1f, 120.3b);
    /// returns how many.
    pub(super) fn give_poison(&mut self, p: usize, n: i64, by: usize, log: &mut Log) -> Res<i64> {
        let n = self.counters_to_put(
            Who::Player(p),
            &CounterKind::named("poison"),
            n,
            by,
            false,
            log,
        )?;
        let pl = &mut self.players[p];
        let who = pl.handle.clone();
        pl.poison = add(pl.poison, n, || format!("the poison counters of {who}"))?;
        Ok(n)
    }

    /// Player `by` puts `n` counters of `kind` on card `c` (122.6a), as many
    /// as [`Game::counters_to_put`] leaves. The whole kind gets a new
    /// timestamp (613.7c), or, as the card enters with them, the card's own
    /// (`at`). Returns how many were put.
    pub(super) fn put_counters(
        &mut self,
        c: usize,
        kind: &CounterKind,
        n: i64,
        by: usize,
        at: Option<(i64, u64)>,
        log: &mut Log,
    ) -> Res<i64> {
        let n = self.counters_to_put(Who::Card(c), kind, n, by, at.is_some(), log)?;
        if n == 0 {
            return Ok(0);
        }
        let (ts, seq) = match at {
            Some(t) if !self.bug(Mutant::EnteringCountersTakeTimestamp) => t,
            _ => (self.take_ts(), self.take_seq()),
        };
        let id = self.cards[c].spec.id.clone();
        let before = self.cards[c].count(kind);
        let stack =
            self.cards[c]
                .counters
                .entry(kind.clone())
                .or_insert(Stack { count: 0, ts, seq });
        stack.count = add(stack.count, n, || {
            format!("the number of {kind} counters on {id}")
        })?;
        stack.ts = ts;
        stack.seq = seq;
        // 122.6: entering with counters is putting them on it too.
        self.counters_put(c, kind, before);
        Ok(n)
    }

    /// 122.6, 122.7, 107.15a: what triggers when counters of `kind` are put
    /// on `c` (on the battlefield, or as it enters), which had `before`.
    fn counters_put(&mut self, c: usize, kind: &CounterKind, before: i64) {
        let card = &self.cards[c];
        if !card.on_battlefield()
            || (card.spec.chapters.is_empty() && card.spec.counter_triggers.is_empty())
        {
            return;
        }
        // 613.1f: a permanent that lost all abilities has no triggered
        // abilities left to trigger.
        if !Eval::new(self, false).early[c].abilities {
            return;
        }
        let after = card.count(kind);
        let crossed = |n: i64| before < n && n <= after;
        let spec = card.spec;
        let object = card.object;
        let name = card.name().to_string();
        let path = self.spec_path(c);
        let mut new = Vec::new();
        if kind.is_named("lore") {
            for (ci, ch) in spec.chapters.iter().enumerate() {
                for n in ch.at.iter().filter(|n| crossed(n.0)) {
                    let label = ch
                        .name
                        .clone()
                        .unwrap_or_else(|| format!("chapter {} of {name}", roman(n.0)));
                    new.push((
                        n.0,
                        Pending {
                            card: c,
                            object,
                            label: format!("{label} (lore counters {before} → {after})"),
                            rule: "107.15a",
                            controller: card.controller,
                            chapter: true,
                            effect: Resolution::Perform(&ch.action),
                            path: path.key("chapters").index(ci).key("do"),
                        },
                    ));
                }
            }
        }
        for (ti, t) in spec.counter_triggers.iter().enumerate() {
            if &t.kind == kind && crossed(t.nth.0) {
                let label = t.name.clone().unwrap_or_else(|| {
                    format!(
                        "{name}'s \"when the {} {kind} counter is put on it\" ability",
                        ordinal(t.nth.0)
                    )
                });
                new.push((
                    t.nth.0,
                    Pending {
                        card: c,
                        object,
                        label: format!("{label} ({before} → {after})"),
                        rule: "122.7",
                        controller: card.controller,
                        chapter: false,
                        effect: Resolution::Perform(&t.action),
                        path: path.key("counter_triggers").index(ti).key("do"),
                    },
                ));
            }
        }
        new.sort_by_key(|(n, _)| *n);
        self.pending.extend(new.into_iter().map(|(_, p)| p));
    }

    /// Removes up to `n` counters; returns how many it removed.
    pub(super) fn take_counters(&mut self, c: usize, kind: &CounterKind, n: i64) -> i64 {
        let card = &mut self.cards[c];
        let Some(stack) = card.counters.get_mut(kind) else {
            return 0;
        };
        let taken = n.min(stack.count);
        stack.count -= taken;
        if stack.count == 0 {
            card.counters.remove(kind);
            if taken > 0 && kind.is_named("defense") {
                self.last_defense_counter_removed(c);
            }
        }
        taken
    }

    /// 310.11b: a Siege's intrinsic ability triggers when its last defense
    /// counter is removed (by damage, 120.3h, or any other way).
    fn last_defense_counter_removed(&mut self, c: usize) {
        let card = &self.cards[c];
        if !card.on_battlefield() || !card.spec.subtypes.iter().any(|t| t == "Siege") {
            return;
        }
        let eval = Eval::new(self, false);
        // 613.1f: a battle that lost all abilities has no such ability; a
        // permanent that is no longer a battle is no Siege.
        if !eval.early[c].abilities || !eval.has_type(c, CardType::Battle) {
            return;
        }
        drop(eval);
        let card = &self.cards[c];
        self.pending.push(Pending {
            card: c,
            object: card.object,
            label: format!(
                "{}'s Siege ability (its last defense counter was removed)",
                card.name()
            ),
            rule: "310.11b",
            controller: card.controller,
            chapter: false,
            effect: Resolution::ExileSiege,
            path: self.spec_path(c),
        });
    }

    fn remove_counters(&mut self, r: &CounterRemove, log: &mut Log) -> Res<()> {
        let c = self.card_index(&r.from);
        let taken = self.take_counters(c, &r.kind, r.count.0);
        // Removing counters creates nothing that needs a timestamp: the
        // counters left keep theirs (613.7c).
        if self.bug(Mutant::RemovalTakesTimestamp) {
            self.take_ts();
        }
        let name = self.cards[c].name().to_string();
        log.line(1, || {
            format!(
                "remove {taken} {} counter{} from {name} [122.1]",
                r.kind,
                s(taken)
            )
        });
        Ok(())
    }

    /// 122.5: a counter moves only if it can be removed from the first
    /// object and put on the second; otherwise nothing happens.
    fn move_counters(&mut self, m: &CounterMove, by: usize, log: &mut Log) -> Res<()> {
        let (from, to) = (self.card_index(&m.from), self.card_index(&m.to));
        let why_not = if from == to {
            Some("the two objects are the same")
        } else if !self.cards[from].on_battlefield() || !self.cards[to].on_battlefield() {
            Some("both objects must be on the battlefield")
        } else if self.cards[from].count(&m.kind) == 0 {
            Some("the first object has no such counter")
        } else if self.refuses_counters(to) {
            Some("the second object can't have counters put onto it")
        } else {
            None
        };
        if let Some(why) = why_not {
            log.line(1, || format!("no {} counter moves: {why} [122.5]", m.kind));
            return Ok(());
        }
        let moved = self.take_counters(from, &m.kind, m.count.0);
        let put = self.put_counters(to, &m.kind, moved, by, None, log)?;
        log.line(1, || self.move_text(from, to, &m.kind, (moved, put), by));
        Ok(())
    }

    /// 122.5: a move removes counters from one object and puts them on the
    /// other; what changes how many are put (614.1a) changes only the second
    /// half.
    fn move_text(
        &self,
        from: usize,
        to: usize,
        kind: &CounterKind,
        (moved, put): (i64, i64),
        by: usize,
    ) -> String {
        let (a, b, who) = (
            self.cards[from].name(),
            self.cards[to].name(),
            &self.players[by].handle,
        );
        if put == moved {
            format!(
                "{who} moves {moved} {kind} counter{} from {a} to {b} [122.5]",
                s(moved)
            )
        } else {
            format!(
                "{who} moves {moved} {kind} counter{} from {a} to {b}: {moved} removed from {a}, {put} put on {b} [122.5, 614.1a]",
                s(moved)
            )
        }
    }

    /// "Put its counters on …": while the first object is on the
    /// battlefield the counters move (122.5); once it has left, the same
    /// number of each kind it had as it last existed is put on the second
    /// object (122.8), nothing being removed from anything.
    fn put_counters_from(&mut self, p: &CountersFrom, by: usize, log: &mut Log) -> Res<()> {
        let (from, to) = (self.card_index(&p.from), self.card_index(&p.to));
        let wanted = |k: &CounterKind| p.kinds.is_empty() || p.kinds.contains(k);
        let (a, b) = (
            self.cards[from].name().to_string(),
            self.cards[to].name().to_string(),
        );
        if !self.cards[to].on_battlefield() {
            log.line(1, || {
                format!("{b} is not on the battlefield: no counters are put on it [122.5, 122.8]")
            });
            return Ok(());
        }
        if self.cards[from].on_battlefield() {
            let kinds: Vec<(CounterKind, i64)> = self.cards[from]
                .counters
                .iter()
                .filter(|(k, _)| wanted(k))
                .map(|(k, s)| (k.clone(), s.count))
                .collect();
            if from == to {
                log.line(1, || {
                    format!("{a} would move its counters onto itself: nothing moves [122.5]")
                });
                return Ok(());
            }
            if self.refuses_counters(to) {
                log.line(1, || {
                    format!("{b} can't have counters put onto it: no counter moves, {a} keeps them [122.5]")
                });
                return Ok(());
            }
            for (kind, n) in kinds {
                let moved = self.take_counters(from, &kind, n);
                let put = self.put_counters(to, &kind, moved, by, None, log)?;
                log.line(1, || self.move_text(from, to, &kind, (moved, put), by));
            }
            return Ok(());
        }
        let Some(lki) = self.cards[from].lki.as_deref() else {
            log.line(1, || {
                format!(
                    "{a} has never been on the battlefield here: it has no counters to give [122.8]"
                )
            });
            return Ok(());
        };
        let kinds: Vec<(CounterKind, i64)> = lki
            .counters
            .iter()
            .filter(|(k, _)| wanted(k))
            .map(|(k, n)| (k.clone(), *n))
            .collect();
        if kinds.is_empty() {
            log.line(1, || format!("{a} had no such counters as it last existed on the battlefield: none are put on {b} [122.8, 608.2h]"));
        }
        let who = self.players[by].handle.clone();
        for (kind, n) in kinds {
            let put = self.put_counters(to, &kind, n, by, None, log)?;
            log.line(1, || format!("{a} has left the battlefield: {who} puts {put} {kind} counter{} on {b} for the {n} it had as it last existed; nothing is moved [122.8, 608.2h, 122.6a]", s(put)));
        }
        Ok(())
    }

    /// Reads an amount as an ability resolves (608.2h); 107.1b: a negative
    /// result is 0.
    fn amount_at_resolution(
        &self,
        eval: &Eval<'_, 'c, B>,
        q: &Quantity,
        what: &str,
        log: &mut Log,
    ) -> Res<i64> {
        let raw = eval.locked_quantity(q)?;
        if let Quantity::Ref(_) = q {
            log.line(1, || {
                format!(
                    "{what} is {} as it resolves: {raw} [608.2h]",
                    self.describe(q)
                )
            });
        }
        if raw < 0 {
            log.line(1, || {
                format!("{what} would be {raw}, a negative result, so 0 is used [107.1b]")
            });
        }
        Ok(raw.max(0))
    }

    fn create_effect(&mut self, e: &EffectSpec, path: &NodePath, log: &mut Log) -> Res<()> {
        let eval = Eval::new(self, false);
        let source = e.source.as_ref().map(|h| self.card_index(h));
        let affected: Vec<ObjRef> = match &e.affects {
            Affects::Objects(hs) => {
                let mut v = Vec::new();
                for (i, h) in hs.iter().enumerate() {
                    let c = self.card_index(h);
                    self.require_battlefield(
                        c,
                        &path.key("affects").index(i),
                        "be affected by an effect",
                    )?;
                    v.push(self.obj_ref(c));
                }
                v
            }
            Affects::Filter(f) => {
                let mut v = Vec::new();
                for c in 0..self.cards.len() {
                    if !eval.matches(f, c, &eval.early[c], source) {
                        continue;
                    }
                    if f.tests_pt() && !super::eval::pt_matches(f, eval.pt(c)?.map(|i| i.pt)) {
                        continue;
                    }
                    v.push(self.obj_ref(c));
                }
                v
            }
            Affects::This | Affects::Attached => Vec::new(),
        };
        let label = e.name.clone().unwrap_or_else(|| "an effect".into());
        let (mut x_set, mut x_modify) = (0, 0);
        if let Some(q) = &e.x {
            let raw = eval.locked_quantity(q)?;
            x_set = raw;
            x_modify = raw;
            log.line(1, || {
                format!(
                    "X = {} = {raw}, read once as {label} resolves [608.2h]",
                    self.describe(q)
                )
            });
            if raw < 0
                && e.modify.is_some_and(|m| m.uses_x())
                && self.rules.clamp_negative_modification
                && !self.bug(Mutant::UnclampedX)
            {
                x_modify = 0;
                log.line(1, || {
                    "X is negative in a +X/+Y change, so 0 is used; only setting, doubling and tripling P/T may use a negative result [107.1b]".into()
                });
            }
        }
        drop(eval);
        let until = e.until.unwrap_or(Until::Forever);
        let source_ref = source.map(|c| self.obj_ref(c));
        if until == Until::SourceLeaves && source.is_some_and(|c| !self.cards[c].on_battlefield()) {
            log.line(1, || {
                format!(
                    "{label} does nothing: its source has already left the battlefield [611.2b]"
                )
            });
            return Ok(());
        }
        let ts = match e.timestamp {
            Some(t) => self.take_explicit_ts(t.0.0),
            None => self.take_ts(),
        };
        let seq = self.take_seq();
        if log.on() {
            let names: Vec<String> = affected
                .iter()
                .map(|r| self.cards[r.card].name().to_string())
                .collect();
            let who = if names.is_empty() {
                "nothing".to_string()
            } else {
                names.join(", ")
            };
            let locked = if matches!(e.affects, Affects::Filter(_)) {
                ", the affected set locked as it resolves [611.2c]"
            } else {
                ""
            };
            log.line(1, || {
                format!("{label} (t={ts}): {who} {} {until}{locked}", e.summary())
            });
        }
        self.effects.push(Effect {
            spec: e.clone(),
            label,
            source: source_ref,
            ts,
            seq,
            until,
            affected,
            x_set,
            x_modify,
        });
        Ok(())
    }

    /// 701.10 / 701.11: doubling adds X, tripling adds 2X, where X is the
    /// value as it resolves; a negative value lowers it where the edition
    /// says so, and otherwise counts as 0 (107.1b).
    /// Exchanges two numerical values (701.12a, 701.12g): each becomes the
    /// other's value as the exchange happens. A power or toughness takes
    /// the other value through an effect that sets it in 7b (613.4b), so
    /// modifications and counters still apply on top; a life total takes it
    /// by gaining or losing the difference (119.3). If either value is not
    /// there, nothing is exchanged (701.12a).
    fn exchange(&mut self, x: &Exchange, path: &NodePath, log: &mut Log) -> Res<()> {
        let label = x.name.clone().unwrap_or_else(|| "the exchange".into());
        let mut values = Vec::with_capacity(2);
        {
            let eval = Eval::new(self, false);
            for v in &x.values {
                let value = match v {
                    Exchanged::Life(h) => Some(self.players[self.player_index(h)].life),
                    Exchanged::Power(h) | Exchanged::Toughness(h) => {
                        let c = self.card_index(h);
                        let pt = if self.cards[c].on_battlefield() {
                            eval.pt(c)?.map(|i| i.pt)
                        } else {
                            None
                        };
                        pt.map(|pt| match v {
                            Exchanged::Power(_) => pt.power,
                            _ => pt.toughness,
                        })
                    }
                };
                values.push(value);
            }
        }
        let (Some(Some(va)), Some(Some(vb)), [a, b]) =
            (values.first(), values.get(1), x.values.as_slice())
        else {
            let missing = x
                .values
                .iter()
                .zip(&values)
                .find(|(_, v)| v.is_none())
                .map(|(e, _)| e.to_string())
                .unwrap_or_default();
            log.line(1, || {
                format!("{label} does nothing: {missing} is not there (not a creature on the battlefield), and an exchange happens whole or not at all [701.12a]")
            });
            return Ok(());
        };
        let (va, vb) = (*va, *vb);
        log.line(1, || {
            let show = |e: &Exchanged| match e {
                Exchanged::Power(h) => {
                    format!("the power of {}", self.cards[self.card_index(h)].name())
                }
                Exchanged::Toughness(h) => {
                    format!("the toughness of {}", self.cards[self.card_index(h)].name())
                }
                Exchanged::Life(h) => format!("the life total of {h}"),
            };
            format!(
                "{label} exchanges {} ({va}) and {} ({vb}): each becomes the other's value [701.12g]",
                show(a),
                show(b)
            )
        });
        for (side, from, to) in [(a, va, vb), (b, vb, va)] {
            match side {
                Exchanged::Life(h) => {
                    let p = self.player_index(h);
                    let player = &mut self.players[p];
                    let was = player.life;
                    player.life = to;
                    let diff = checked(to.checked_sub(was), || format!("the life total of {h}"))?;
                    log.line(1, || {
                        let (verb, n) = if diff < 0 {
                            ("loses", -diff)
                        } else {
                            ("gains", diff)
                        };
                        format!("player {h} {verb} {n} life: {was} becomes {to} [701.12g, 119.3]")
                    });
                }
                Exchanged::Power(h) | Exchanged::Toughness(h) => {
                    let power = matches!(side, Exchanged::Power(_));
                    // 701.12g: a continuous effect sets the value in 7b (613.4b).
                    let mut spec = EffectSpec {
                        name: Some(label.clone()),
                        affects: Affects::Objects(vec![h.clone()]),
                        until: Some(x.until.unwrap_or(Until::Forever)),
                        set_power: power.then_some(to),
                        set_toughness: (!power).then_some(to),
                        ..EffectSpec::default()
                    };
                    if self.bug(Mutant::ExchangeModifies) {
                        let d = checked(to.checked_sub(from), || format!("the exchange on {h}"))?;
                        let change = Change {
                            minus: d < 0,
                            amount: Amount::Fixed(checked(d.checked_abs(), || {
                                format!("the exchange on {h}")
                            })?),
                        };
                        let none = Change {
                            minus: false,
                            amount: Amount::Fixed(0),
                        };
                        spec.set_power = None;
                        spec.set_toughness = None;
                        spec.modify = Some(if power {
                            ModPt {
                                power: change,
                                toughness: none,
                            }
                        } else {
                            ModPt {
                                power: none,
                                toughness: change,
                            }
                        });
                    }
                    self.create_effect(&spec, path, log)?;
                }
            }
        }
        Ok(())
    }

    fn scale(&mut self, sc: &Scale, factor: i64, path: &NodePath, log: &mut Log) -> Res<()> {
        let c = self.card_index(&sc.affects);
        let (verb, rule, lowers) = if factor == 1 {
            ("doubles", "701.10", self.rules.double_negative_lowers)
        } else {
            ("triples", "701.11", self.rules.triple_negative_lowers)
        };
        let lowers = lowers && !self.bug(Mutant::DoubleClampsNegative);
        self.require_battlefield(
            c,
            &path.key("affects"),
            "have its power or toughness changed",
        )?;
        let eval = Eval::new(self, false);
        let Some(info) = eval.pt(c)? else {
            return Err(invalid(
                path.key("affects"),
                format!(
                    "`{}` is not a creature: it has no power or toughness to change (208.3)",
                    sc.affects
                ),
            ));
        };
        drop(eval);
        let id = &sc.affects;
        let extra = |v: i64| -> Res<i64> {
            let x = checked(v.checked_mul(factor), || {
                format!("{verb} the value {v} of {id}")
            })?;
            Ok(if v < 0 && !lowers { 0 } else { x })
        };
        let (dp, dt) = match sc.what {
            ScaleWhat::Power => (extra(info.pt.power)?, 0),
            ScaleWhat::Toughness => (0, extra(info.pt.toughness)?),
            ScaleWhat::Both => (extra(info.pt.power)?, extra(info.pt.toughness)?),
        };
        let change = |v: i64| -> Res<Change> {
            Ok(Change {
                minus: v < 0,
                amount: Amount::Fixed(checked(v.checked_abs(), || format!("{verb} {id}"))?),
            })
        };
        let spec = EffectSpec {
            name: sc.name.clone(),
            affects: Affects::Objects(vec![id.clone()]),
            until: Some(sc.until),
            modify: Some(ModPt {
                power: change(dp)?,
                toughness: change(dt)?,
            }),
            ..EffectSpec::default()
        };
        let label = sc
            .name
            .clone()
            .unwrap_or_else(|| format!("{verb} ({rule})"));
        let name = self.cards[c].name().to_string();
        log.line(1, || {
            format!(
                "{label} {verb} {} of {name} ({}): a modification of {} locked in as it resolves [{rule}a, 608.2h]",
                match sc.what {
                    ScaleWhat::Power => "the power",
                    ScaleWhat::Toughness => "the toughness",
                    ScaleWhat::Both => "the power and toughness",
                },
                info.pt,
                spec.modify.map(|m| m.to_string()).unwrap_or_default()
            )
        });
        let negative = match sc.what {
            ScaleWhat::Power => info.pt.power < 0,
            ScaleWhat::Toughness => info.pt.toughness < 0,
            ScaleWhat::Both => info.pt.power < 0 || info.pt.toughness < 0,
        };
        if negative {
            if lowers {
                log.line(1, || format!("a negative value {verb} downward: it gets -X where X is 0 minus the value [{rule}c]"));
            } else {
                log.line(1, || {
                    "a negative value counts as 0 in this edition [107.1b]".into()
                });
            }
        }
        let ts = match sc.timestamp {
            Some(t) => self.take_explicit_ts(t.0.0),
            None => self.take_ts(),
        };
        let seq = self.take_seq();
        let target = self.obj_ref(c);
        self.effects.push(Effect {
            spec,
            label,
            source: None,
            ts,
            seq,
            until: sc.until,
            affected: vec![target],
            x_set: 0,
            x_modify: 0,
        });
        Ok(())
    }

    pub(super) fn source_info(&self, eval: &Eval<'_, 'c, B>, c: usize) -> Source {
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

    fn recipient(
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

    fn noncombat_damage(&mut self, d: &Damage, path: &NodePath, log: &mut Log) -> Res<()> {
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

    fn combat_damage(
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
    pub(super) fn prevent_damage(
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
    fn prevent(&mut self, p: &Prevention, path: &NodePath, log: &mut Log) -> Res<()> {
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
    fn prevent_by_shields(&mut self, plan: &mut Vec<(Source, Recipient, i64)>, log: &mut Log) {
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
    pub(super) fn deal_damage(
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
                    log.line(1, || format!("{name} deals {amount} damage to {who}: its controller gives {who} {n} poison counter{} (infect) [120.3b]", s(n)));
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
                        log.line(1, || format!("{name} deals {amount} damage to {tn}: its controller puts {n} -1/-1 counter{} on it instead of marking damage [120.3d; {why}]", s(n)));
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
    fn deathtouch_dealt(&mut self, src: &Source, card: usize, log: &mut Log) {
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

    /// Destroys a permanent as the result of an effect (701.8): a shield
    /// counter is removed instead (122.1c), else as [`Game::destroy`].
    pub(super) fn destroy_by_effect(&mut self, c: usize, why: &str, log: &mut Log) -> Res<()> {
        let eval = Eval::new(self, false);
        let indestructible = eval.has_keyword(c, Keyword::Indestructible);
        let lki = eval.object_state(c)?;
        drop(eval);
        // 122.1c: "if this permanent would be destroyed as the result of
        // an effect, instead remove a shield counter from it". Not by a
        // state-based action (704.5g, 704.5h). An indestructible permanent
        // would not be destroyed, so its counter stays; before a
        // regeneration shield, its controller uses the counter (D39).
        let shield = CounterKind::named("shield");
        if !indestructible && self.cards[c].count(&shield) > 0 {
            self.take_counters(c, &shield, 1);
            let name = self.cards[c].name().to_string();
            log.line(1, || format!("{name} would be destroyed [701.8]; instead a shield counter is removed from it [122.1c, 614.1a]"));
            return Ok(());
        }
        self.destroy(c, indestructible, lki, why, log)
    }

    /// Destroys a permanent: indestructible ignores it (702.12b); a
    /// regeneration shield replaces it (701.19a).
    pub(super) fn destroy(
        &mut self,
        c: usize,
        indestructible: bool,
        lki: ObjectState,
        why: &str,
        log: &mut Log,
    ) -> Res<()> {
        let name = self.cards[c].name().to_string();
        if indestructible {
            log.line(2, || {
                format!("{name} {why}, but it is indestructible: nothing happens [702.12b]")
            });
            return Ok(());
        }
        if self.cards[c].shields > 0 {
            let card = &mut self.cards[c];
            card.shields -= 1;
            card.tapped = true;
            card.damage = 0;
            // 701.19a: "If it's an attacking or blocking creature, remove
            // it from combat" (419.6b of 2003-03-15 on, in every text).
            if self.remove_from_combat(c, true) {
                log.line(2, || format!("{name} {why}, but it regenerates instead: tapped, all damage removed, and removed from combat: it no longer attacks or blocks and deals and is dealt no combat damage [701.19a, 506.4]"));
            } else {
                log.line(2, || format!("{name} {why}, but it regenerates instead: tapped, all damage removed [701.19a]"));
            }
            return Ok(());
        }
        log.line(2, || {
            format!("{name} {why}: put into its owner's graveyard")
        });
        self.move_card(c, Zone::Graveyard, Arrival::default(), Some(lki), log)
    }

    /// Moves a card to a zone: a new object with no memory of the old one
    /// (400.7): counters cease to exist (122.2), damage and effects are gone,
    /// and its owner controls it. A permanent that enters has not been
    /// under its controller's control since their turn began (302.6), and
    /// its P/T is chosen anew if it is chosen as it enters (208.2b; `choose`,
    /// else the card's own choice).
    pub(super) fn move_card(
        &mut self,
        c: usize,
        to: Zone,
        arrival: Arrival<'_>,
        lki: Option<ObjectState>,
        log: &mut Log,
    ) -> Res<()> {
        let Arrival {
            counters,
            choose,
            entering_copy,
            by,
        } = arrival;
        let old = self.obj_ref(c);
        let from = self.cards[c].zone;
        // 107.3m: a permanent spell's own "enters with" effect uses the
        // spell's X, read while it is still a spell.
        let spell_x =
            if from == Zone::Stack && to == Zone::Battlefield && !self.bug(Mutant::EntersWithXZero)
            {
                Some(Eval::new(self, false).x_of(c, true, None)?)
            } else {
                None
            };
        if from == Zone::Battlefield {
            self.effects
                .retain(|e| !(e.until == Until::SourceLeaves && e.source == Some(old)));
            for other in &mut self.cards {
                if other.attached_to == Some(old) {
                    other.attached_to = None;
                }
            }
        }
        let object = self.take_object();
        let ts = self.take_ts();
        let seq = self.take_seq();
        let keep_counters = self.bug(Mutant::CountersSurviveZoneChange);
        let card = &mut self.cards[c];
        card.object = object;
        card.zone = to;
        card.ts = ts;
        card.seq = seq;
        if !keep_counters {
            card.counters.clear();
        }
        card.damage = 0;
        card.deathtouch = false;
        card.shields = 0;
        card.tapped = false;
        card.attached_to = None;
        card.controller = card.owner;
        card.continuous = false;
        // 708.9, 400.7: a face-down permanent that leaves the battlefield is
        // revealed; the new object is face up, its front face up (712.14).
        card.face_down = false;
        card.transformed = false;
        // 400.7: the new object copies nothing.
        card.copies.clear();
        if !(from == Zone::Stack
            && to == Zone::Battlefield
            && self.bugs.has(Mutant::PermanentKeepsX))
        {
            card.x = None;
        }
        card.choice = if to == Zone::Battlefield && !entering_copy {
            card.spec.entry_choice(choose)
        } else {
            None
        };
        if let Some(ch) = card.chosen() {
            let (name, what) = (card.name().to_string(), super::entry_label(ch));
            log.line(2, || {
                format!("as {name} enters, its controller chooses {what}: its copiable P/T [208.2b, 613.2a]")
            });
        }
        if from == Zone::Battlefield {
            card.lki = lki.map(Box::new);
        }
        if to == Zone::Battlefield {
            card.lki = None;
            // 614.12: it is read as the permanent would exist on the
            // battlefield, but for the X of 107.3m.
            self.cards[c].etb_x = spell_x;
            let entering = self.enters_with(c, log);
            self.cards[c].etb_x = None;
            let entering = entering?;
            let (controller, name) = (self.cards[c].controller, self.cards[c].name().to_string());
            // 122.6a: the effect may name the player who puts the counters
            // it enters with; otherwise its controller puts them.
            let by = by.unwrap_or(controller);
            let who = self.players[by].handle.clone();
            for (kind, n) in counters.into_iter().flatten() {
                let put = self.put_counters(c, kind, n.0, by, Some((ts, seq)), log)?;
                log.line(1, || {
                    format!("{name} enters with {put} {kind} counter{}, put on it by {who} [122.6, 122.6a]", s(put))
                });
            }
            // 122.6a: its own "enters with" ability names nobody: its
            // controller puts them.
            for (kind, n) in &entering {
                let put = self.put_counters(c, kind, *n, controller, Some((ts, seq)), log)?;
                log.line(1, || {
                    format!("{name} enters with {put} {kind} counter{}, put on it by its controller [122.6, 122.6a]", s(put))
                });
            }
            // 714.3a: as a Saga enters, its controller puts a lore counter
            // on it, in addition to any an effect gives it.
            if self.cards[c].final_chapter().is_some() {
                let lore = CounterKind::named("lore");
                let put = self.put_counters(c, &lore, 1, controller, Some((ts, seq)), log)?;
                log.line(1, || {
                    format!("{name} enters with {put} lore counter{}, put on it by its controller [714.3a]", s(put))
                });
            }
            // 306.5b: a planeswalker enters with its printed loyalty, in
            // addition to any loyalty counters an effect gives it; no
            // player is named, so its controller puts them (122.6a).
            let spec = self.cards[c].spec;
            if let Some(l) = spec.loyalty {
                if spec.types.contains(&CardType::Planeswalker) {
                    let loyalty = CounterKind::named("loyalty");
                    self.put_counters(c, &loyalty, l.0, controller, Some((ts, seq)), log)?;
                }
            }
            // 310.4b: a battle's intrinsic replacement effect gives it
            // its printed defense in defense counters as it enters.
            if let Some(d) = spec.defense {
                if spec.types.contains(&CardType::Battle) {
                    let defense = CounterKind::named("defense");
                    let put =
                        self.put_counters(c, &defense, d.0, controller, Some((ts, seq)), log)?;
                    log.line(1, || {
                        format!(
                            "{name} enters with {put} defense counter{} [310.4b]",
                            s(put)
                        )
                    });
                }
            }
        }
        if from == Zone::Battlefield && to == Zone::Graveyard {
            self.death_triggers(c, log);
        }
        Ok(())
    }

    /// The counters card `c`'s own "enters with" replacement effect gives
    /// it (614.1c, 122.6), read as it enters, as it exists on the
    /// battlefield (614.12); an X is the X of the spell it was (107.3m), or
    /// 0 if it was not cast (107.3g).
    fn enters_with(&self, c: usize, log: &mut Log) -> Res<Vec<(CounterKind, i64)>> {
        let card = &self.cards[c];
        if card.spec.enters_with.is_empty() {
            return Ok(Vec::new());
        }
        let eval = Eval::new(self, false);
        let (name, spell) = (card.name(), card.etb_x.is_some());
        let mut out = Vec::new();
        for (kind, q) in &card.spec.enters_with {
            let raw = eval.locked_quantity(q)?;
            log.line(1, || {
                format!(
                    "{name} enters the battlefield with {} {kind} counters: {raw} [614.1c, 122.6]",
                    self.describe(q)
                )
            });
            if q.reads_x() {
                log.line(2, || {
                    if spell {
                        "X is the X of the spell it was, though the permanent's own X is 0 [107.3m]"
                            .into()
                    } else {
                        "it was not cast, and X is 0 for a card that is not on the stack [107.3g]"
                            .into()
                    }
                });
            }
            if raw < 0 {
                log.line(2, || format!("{raw} is negative: it gets none [107.1b]"));
            }
            out.push((kind.clone(), raw.max(0)));
        }
        Ok(out)
    }

    /// Undying and persist look at the creature as it last existed on the
    /// battlefield (603.10a, 704.8).
    fn death_triggers(&mut self, c: usize, log: &mut Log) {
        let card = &self.cards[c];
        let Some(lki) = &card.lki else { return };
        let name = card.name().to_string();
        for (keyword, kind, rule) in [
            (Keyword::Undying, CounterKind::PLUS_ONE, "702.93a"),
            (Keyword::Persist, CounterKind::MINUS_ONE, "702.79a"),
        ] {
            if !lki.keywords.contains(&keyword) {
                continue;
            }
            if lki.counters.get(&kind).copied().unwrap_or(0) > 0 {
                log.line(2, || {
                    format!("{keyword} does not return {name}: as it last existed on the battlefield it had a {kind} counter [{rule}, 704.8]")
                });
                continue;
            }
            log.line(2, || {
                format!("{name} had no {kind} counter: its {keyword} ability triggers [{rule}]")
            });
            self.triggers.push(Trigger {
                card: c,
                object: card.object,
                kind,
                keyword: keyword.name(),
                rule,
            });
        }
    }

    fn crew(&mut self, cr: &Crew, path: &NodePath, log: &mut Log) -> Res<()> {
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
    fn pay_cost(&mut self, pc: &CostPayment, path: &NodePath, log: &mut Log) -> Res<()> {
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
                s(count)
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
    fn cost_to_pay(
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
    fn payer_resources(&self, p: usize) -> (Pool, i64) {
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
    fn cost_description(
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
    fn spend(&mut self, p: usize, payment: &Payment) -> Res<()> {
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

    /// 514.2: simultaneously, all damage is removed and "until end of turn"
    /// effects end. Regeneration shields ("this turn", 701.19a) and mana
    /// (500.5) go too.
    fn cleanup(&mut self, log: &mut Log) {
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
            format!("cleanup: all marked damage is removed and {ended} \"until end of turn\" effect{} end, at the same time [514.2]; regeneration shields expire [701.19a]; mana empties [500.5]", if ended == 1 { "" } else { "s" })
        });
    }
}

pub(super) fn invalid(path: NodePath, message: String) -> Fault {
    Fault::Invalid(ScenarioError::new(path, message))
}

fn s(n: i64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A chapter number as printed: I, II, III, IV, …
fn roman(n: i64) -> String {
    const DIGITS: [(i64, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    if !(1..=3999).contains(&n) {
        return n.to_string();
    }
    let (mut n, mut out) = (n, String::new());
    for (v, s) in DIGITS {
        while n >= v {
            out.push_str(s);
            n -= v;
        }
    }
    out
}

/// 1st, 2nd, 3rd, 4th, 11th, 21st, …
fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Explains the timestamp a permanent turned over or transformed got, or
/// kept, under `rule` (613.7f or 613.7g).
fn say_stamp(log: &mut Log, stamp: Option<i64>, rule: &'static str) {
    log.line(2, || match stamp {
        Some(ts) => format!("it gets a new timestamp t={ts} [{rule}]"),
        None => format!("it keeps its timestamp: in this edition an object's timestamp is the time it entered its zone [613.7d; {rule} from 2015-07-17]"),
    });
}

impl<'c, B: Bugs> Game<'c, B> {
    /// A permanent becomes a copy of another object (707.2): the same
    /// object, so its counters, damage and the effects on it stay; only its
    /// copiable values change, in layer 1 (613.2a).
    fn copy_step(
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
    fn become_copy(
        &mut self,
        c: usize,
        copy: &crate::scenario::CopyOf,
        values: super::Copiable<'c>,
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
        card.copies.push(super::CopyEffect {
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
    fn end_copies(&mut self, log: &mut Log) {
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
