//! A combat played by the rules: attackers and blockers declared (508,
//! 509), then one or two combat damage steps (510, 702.4, 702.7) in which
//! each creature assigns its damage as the rules direct (510.1, 702.19,
//! 702.2c), with the attacking player's choices written in the case.

use std::collections::BTreeMap;

use super::actions::{Recipient, invalid};
use super::{Bugs, Eval, Game, Log, Mutant, ObjRef, Res, Who};
use crate::error::NodePath;
use crate::scenario::{AttackDeclaration, Count, DamageStep, Handle};
use crate::terms::{CardType, Keyword};

/// The combat in progress: what was declared, and how far its damage
/// steps have gone.
#[derive(Clone)]
pub(crate) struct Combat {
    pub attacks: Vec<Attack>,
    /// 510.4: the creatures in combat that had first strike or double
    /// strike as the first combat damage step began; `None` until a
    /// first-strike step has been played.
    pub first_strikers: Option<Vec<ObjRef>>,
    /// 506.4: the creatures removed from combat since it was declared; one
    /// that becomes a creature again stays out.
    pub removed: Vec<ObjRef>,
}

/// One attacking creature, what it attacks and who blocks it.
#[derive(Clone)]
pub(crate) struct Attack {
    pub attacker: ObjRef,
    pub handle: Handle,
    /// A player, or a planeswalker or battle as the object it was.
    pub defender: Defender,
    /// In declared order: the damage assignment order where one binds.
    pub blockers: Vec<(ObjRef, Handle)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Defender {
    Player(usize),
    Permanent(ObjRef),
}

/// Damage one creature assigns, before it is dealt.
struct Assignment {
    from: usize,
    to: Target,
    amount: i64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Creature(usize),
    Defender(Defender),
}

impl<'c, B: Bugs> Game<'c, B> {
    fn obj(&self, c: usize) -> ObjRef {
        ObjRef {
            card: c,
            object: self.cards[c].object,
        }
    }

    /// 506.4: a creature leaves combat when it leaves the battlefield (a new
    /// object, 400.7) or stops being a creature.
    fn in_combat(&self, eval: &Eval<'_, 'c, B>, r: ObjRef) -> bool {
        let card = &self.cards[r.card];
        let out = self.combat.as_ref().is_some_and(|c| c.removed.contains(&r));
        !out && card.object == r.object
            && card.on_battlefield()
            && eval.has_type(r.card, CardType::Creature)
    }

    /// 310.8a, 310.11a: the protector of battle `d`, where a case can
    /// tell: its controller if it has no battle type; for a Siege, chosen
    /// among its controller's opponents, the one other player of a
    /// two-player game (with more players, `None`: the case does not say).
    fn protector(&self, d: usize) -> Option<usize> {
        let card = &self.cards[d];
        if !card.spec.subtypes.iter().any(|t| t == "Siege") {
            return Some(card.controller);
        }
        match self.players.len() {
            2 => Some(1 - card.controller.min(1)),
            _ => None,
        }
    }

    /// 508.1b, 310.8b: whether a creature controlled by player `p` can
    /// attack permanent `d`: a planeswalker another player controls, or a
    /// battle `p` does not protect (a Siege its own controller can attack).
    fn attackable_by(&self, eval: &Eval<'_, 'c, B>, d: usize, p: usize) -> bool {
        let walker = eval.has_type(d, CardType::Planeswalker) && self.cards[d].controller != p;
        let battle = eval.has_type(d, CardType::Battle) && self.protector(d) != Some(p);
        walker || battle
    }

    /// 506.4: a planeswalker or battle being attacked stays in combat while
    /// it is the same object on the battlefield, still a planeswalker or a
    /// battle, and not removed (its controller changed).
    fn defender_in_combat(&self, eval: &Eval<'_, 'c, B>, d: Defender) -> bool {
        let Defender::Permanent(r) = d else {
            return true;
        };
        let card = &self.cards[r.card];
        let out = self.combat.as_ref().is_some_and(|c| c.removed.contains(&r));
        !out && card.object == r.object
            && card.on_battlefield()
            && (eval.has_type(r.card, CardType::Planeswalker)
                || eval.has_type(r.card, CardType::Battle))
    }

    /// Whether handle `h` names what an attacker attacks, `d`.
    fn is_defender(&self, h: &Handle, d: Defender) -> bool {
        match (self.who(h), d) {
            (Who::Player(p), Defender::Player(d)) => p == d,
            (Who::Card(x), Defender::Permanent(r)) => x == r.card,
            _ => false,
        }
    }

    /// 506.4: after each step, the creatures that have left the
    /// battlefield or stopped being creatures, and the attacked
    /// planeswalkers and battles that have left it or stopped being one,
    /// are out of combat for good.
    pub(super) fn leave_combat(&mut self) {
        let Some(combat) = &self.combat else { return };
        let eval = Eval::new(self, false);
        let mut out: Vec<ObjRef> = combat
            .attacks
            .iter()
            .flat_map(|a| std::iter::once(a.attacker).chain(a.blockers.iter().map(|b| b.0)))
            .filter(|&r| !self.in_combat(&eval, r) && !combat.removed.contains(&r))
            .collect();
        for a in &combat.attacks {
            if let Defender::Permanent(r) = a.defender {
                if !self.defender_in_combat(&eval, a.defender)
                    && !combat.removed.contains(&r)
                    && !out.contains(&r)
                {
                    out.push(r);
                }
            }
        }
        drop(eval);
        if let Some(c) = &mut self.combat {
            c.removed.extend(out);
        }
    }

    /// 506.4: removes permanent `c` from combat, if it is in it: an
    /// attacking or blocking creature (regeneration, 701.19a: `creatures`
    /// only), or also a planeswalker or battle being attacked (a change of
    /// control). Returns whether it was in combat. A removed creature
    /// stops attacking or blocking and deals and is dealt no combat damage
    /// in the later damage steps; the attacker it blocked stays blocked
    /// (509.1h); a removed planeswalker or battle is attacked no more.
    pub(super) fn remove_from_combat(&mut self, c: usize, creatures_only: bool) -> bool {
        let r = self.obj(c);
        let Some(combat) = &self.combat else {
            return false;
        };
        if combat.removed.contains(&r) {
            return false;
        }
        let fighting = combat
            .attacks
            .iter()
            .any(|a| a.attacker == r || a.blockers.iter().any(|b| b.0 == r));
        let attacked = combat
            .attacks
            .iter()
            .any(|a| a.defender == Defender::Permanent(r));
        if !(fighting || (attacked && !creatures_only)) {
            return false;
        }
        if self.bug(Mutant::RemovedFromCombatStillFights) {
            return true;
        }
        if let Some(combat) = &mut self.combat {
            combat.removed.push(r);
        }
        true
    }

    /// 508.1, 509.1: declares the attackers and blockers; attacking taps a
    /// creature without vigilance (508.1f).
    pub(super) fn attack(
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
    fn creature_for_combat(
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

    /// 510: the next combat damage step.
    pub(super) fn combat_damage_step(
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
    fn check_divide(
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
    fn combat_power(&self, eval: &Eval<'_, 'c, B>, c: usize, log: &mut Log) -> Res<i64> {
        let power = eval.pt(c)?.map_or(0, |i| i.pt.power);
        if power <= 0 {
            let name = self.cards[c].name().to_string();
            log.line(2, || {
                format!("{name} has power {power}: it assigns no combat damage [510.1a]")
            });
        }
        Ok(power.max(0))
    }

    fn target_name(&self, t: Target) -> String {
        match t {
            Target::Creature(c) | Target::Defender(Defender::Permanent(ObjRef { card: c, .. })) => {
                self.cards[c].name().to_string()
            }
            Target::Defender(Defender::Player(p)) => self.players[p].handle.to_string(),
        }
    }

    /// 510.1b, 510.1c, 702.19b: where one attacking creature's damage goes.
    fn attacker_assigns(
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
    fn explicit_split(
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
    fn lethal_to_assign(
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
