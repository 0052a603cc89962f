// SPDX-License-Identifier: AGPL-3.0-or-later
//! The `combat_damage` step through the engine's combat.

use manabrew_engine::combat::DefenderId;
use manabrew_engine::ids::{CardId, PlayerId};
use serde_json::Value;

use crate::game::Game;
use crate::{unsupported, Res};

impl Game {
    /// A `combat_damage` step through the engine's combat: each creature
    /// dealing damage to a player attacks that player; two creatures that
    /// deal damage to each other are an attacker (controlled by the
    /// attacking player) and its blocker. Then the engine's combat damage
    /// step (`CombatState::resolve_damage_step`, regular damage) and the
    /// counters it puts (wither, infect: its counter table).
    pub fn combat(&mut self, body: &Value, where_: &str) -> Res<()> {
        if self.code.is_some() {
            return unsupported(format!(
                "{where_}: a combat is not written into reproductions yet"
            ));
        }
        let entries: Vec<(String, String)> = body
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["from"].as_str().unwrap_or("").to_string(),
                    e["to"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        if entries.is_empty() {
            return unsupported(format!("{where_}: combat damage from no creature"));
        }
        let mut ids = Vec::new();
        for (f, t) in &entries {
            let from = self.creature_target(f, where_)?;
            if !self.g.card(from).is_creature() {
                return unsupported(format!("{where_}: combat damage from {f}, not a creature"));
            }
            for kw in ["First Strike", "Double Strike"] {
                if self.g.card(from).has_keyword(kw) {
                    return unsupported(format!(
                        "{where_}: {f} has {} (the engine deals first-strike damage in a step of its own; \
                         the scenario's step deals all at once)",
                        kw.to_lowercase()
                    ));
                }
            }
            ids.push(from);
            if self.seat(t).is_none() {
                let to = self.creature_target(t, where_)?;
                if !self.g.card(to).is_creature() {
                    return unsupported(format!("{where_}: combat damage to {t}, not a creature"));
                }
            }
        }
        // The attacking player: the controller of the creatures that deal
        // damage to a player, else of the first creature.
        let attacking = entries
            .iter()
            .zip(&ids)
            .find(|((_, t), _)| self.seat(t).is_some())
            .map(|(_, id)| self.g.card(*id).controller)
            .unwrap_or(self.g.card(ids[0]).controller);
        let mut attackers: Vec<(CardId, PlayerId)> = Vec::new();
        let mut blockers: Vec<(CardId, CardId)> = Vec::new();
        for ((f, t), &from) in entries.iter().zip(&ids) {
            if let Some(p) = self.seat(t) {
                if self.g.card(from).controller != attacking || p == attacking {
                    return unsupported(format!(
                        "{where_}: combat damage to players from creatures of both players"
                    ));
                }
                attackers.push((from, p));
                continue;
            }
            let back = entries.iter().any(|(f2, t2)| f2 == t && t2 == f);
            let to_power = self.g.card(self.card_of(t, where_)?).power();
            if !back && to_power > 0 {
                return unsupported(format!(
                    "{where_}: {f} deals combat damage to {t}, which deals none back though its power \
                     is above 0 (in the engine's combat a blocker and its attacker deal damage to each other)"
                ));
            }
            let to = self.card_of(t, where_)?;
            let (a, b) = (self.g.card(from).controller, self.g.card(to).controller);
            if a == b {
                return unsupported(format!(
                    "{where_}: combat damage between two creatures of one player"
                ));
            }
            if a == attacking {
                attackers.push((from, b));
                blockers.push((to, from));
            } else if !back {
                // A creature of the defending player dealing damage to an
                // attacker that deals none back (its power is 0 or less,
                // 510.1a): the attacker is `to`, blocked by `from`.
                attackers.push((to, a));
                blockers.push((from, to));
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (a, _) in &attackers {
            if !seen.insert(*a) {
                return unsupported(format!(
                    "{where_}: a creature that deals combat damage to two things (damage assignment)"
                ));
            }
        }
        for (b, _) in &blockers {
            if !seen.insert(*b) {
                return unsupported(format!(
                    "{where_}: a creature that deals combat damage to two things (damage assignment)"
                ));
            }
        }
        let combat = &mut self.game_loop.combat;
        combat.clear();
        for (a, p) in &attackers {
            let ts = self.g.card(*a).zone_timestamp;
            combat.declare_attacker(*a, DefenderId::Player(*p), ts);
        }
        for (b, a) in &blockers {
            let ts = self.g.card(*b).zone_timestamp;
            combat.declare_blocker(*b, *a, ts);
        }
        self.g.copy_last_state();
        let res = self.game_loop.combat.resolve_damage_step(
            &mut self.g,
            &mut self.agents,
            false,
            &std::collections::HashSet::new(),
        );
        res.counter_table.replace_counter_effect(
            &mut self.g,
            None,
            Some(&mut self.agents[..]),
            None,
            false,
            Default::default(),
        );
        self.game_loop.combat.clear_with_cards(&mut self.g.cards);
        Ok(())
    }
}
