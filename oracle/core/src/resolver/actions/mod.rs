//! Performing a step's action: the only place, with [`super::sba`], that
//! changes the game state.
//!
//! [`Game::perform`] dispatches an action to the module of its kind:
//! counters, damage, effects, zones, control, faces, spells, costs, copies
//! and the turn's boundaries.

use super::{Bugs, Fault, Game, Log, Res};
use crate::error::{NodePath, ScenarioError};
use crate::scenario::Action;

mod control;
mod copies;
mod costs;
mod counters;
mod damage;
mod effects;
mod faces;
mod spells;
mod turn;
mod zones;

pub(super) use damage::Recipient;
pub(super) use zones::Arrival;

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
}

pub(super) fn invalid(path: NodePath, message: String) -> Fault {
    Fault::Invalid(ScenarioError::new(path, message))
}
