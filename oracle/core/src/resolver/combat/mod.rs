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

mod assignment;
mod damage;
mod declaration;

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
}
