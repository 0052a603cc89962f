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
        if self.declared.is_some() {
            return unsupported(format!(
                "{where_}: a combat_damage step during a declared combat"
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
                if !self.g.card(to).is_creature() && !self.attacked_walker(to) {
                    return unsupported(format!(
                        "{where_}: combat damage to {t}, not a creature or planeswalker"
                    ));
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
        let mut attackers: Vec<(CardId, DefenderId)> = Vec::new();
        let mut blockers: Vec<(CardId, CardId)> = Vec::new();
        for ((f, t), &from) in entries.iter().zip(&ids) {
            if let Some(p) = self.seat(t) {
                if self.g.card(from).controller != attacking || p == attacking {
                    return unsupported(format!(
                        "{where_}: combat damage to players from creatures of both players"
                    ));
                }
                attackers.push((from, DefenderId::Player(p)));
                continue;
            }
            let to = self.card_of(t, where_)?;
            if self.attacked_walker(to) {
                // 506.3, 510.1b: a creature dealing combat damage to a
                // planeswalker attacks it.
                if self.g.card(from).controller != attacking
                    || self.g.card(to).controller == attacking
                {
                    return unsupported(format!(
                        "{where_}: combat damage to a planeswalker of the attacking player"
                    ));
                }
                attackers.push((from, DefenderId::Permanent(to)));
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
                attackers.push((from, DefenderId::Player(b)));
                blockers.push((to, from));
            } else if !back {
                // A creature of the defending player dealing damage to an
                // attacker that deals none back (its power is 0 or less,
                // 510.1a): the attacker is `to`, blocked by `from`.
                attackers.push((to, DefenderId::Player(a)));
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
        for (a, d) in &attackers {
            let ts = self.g.card(*a).zone_timestamp;
            combat.declare_attacker(*a, *d, ts);
        }
        for (b, a) in &blockers {
            let ts = self.g.card(*b).zone_timestamp;
            combat.declare_blocker(*b, *a, ts);
        }
        self.deal_combat_damage(false);
        self.game_loop.combat.clear_with_cards(&mut self.g.cards);
        Ok(())
    }
}

impl Game {
    /// Whether a permanent is a planeswalker that is no creature: what a
    /// creature may attack besides a player (battles are not mapped).
    fn attacked_walker(&self, id: CardId) -> bool {
        let c = self.g.card(id);
        c.type_line.is_planeswalker() && !c.is_creature()
    }

    /// One combat damage step as the engine deals it (the first-strike
    /// one if `first_strike_only`): its own assignment and damage, then
    /// the counters that damage puts (wither, infect) through its
    /// replacement of counter effects.
    fn deal_combat_damage(&mut self, first_strike_only: bool) {
        self.g.copy_last_state();
        let res = self.game_loop.combat.resolve_damage_step(
            &mut self.g,
            &mut self.agents,
            first_strike_only,
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
    }

    /// The `attack` step through the engine's declaration (as its game
    /// loop's declare-attackers step does it): each attacker tapped unless
    /// it has vigilance (508.1f) and recorded as attacking the defending
    /// player; each blocker recorded as blocking it (509.1), in the case's
    /// order (the engine's damage assignment order, D44).
    pub fn attack(&mut self, body: &Value, where_: &str) -> Res<()> {
        if self.declared.is_some() {
            return unsupported(format!("{where_}: a second combat"));
        }
        let entries = body.as_array().cloned().unwrap_or_default();
        if entries.is_empty() {
            return unsupported(format!("{where_}: an attack with no attacker"));
        }
        let mut attacking: Option<PlayerId> = None;
        let mut declared: Vec<(CardId, PlayerId, DefenderId, Vec<CardId>)> = Vec::new();
        for e in &entries {
            let a = self.creature_target(e["attacker"].as_str().unwrap_or(""), where_)?;
            let card = self.g.card(a);
            if !card.is_creature() || card.tapped || card.has_sickness() && !card.has_haste() {
                // 508.1a: only an untapped creature that is not summoning
                // sick can attack; the reference refuses the step.
                return unsupported(format!(
                    "{where_}: {} cannot attack (tapped, sick or no creature)",
                    e["attacker"]
                ));
            }
            let controller = card.controller;
            if attacking.is_some_and(|p| p != controller) {
                return unsupported(format!("{where_}: attackers of two players"));
            }
            attacking = Some(controller);
            let (defender, target) = match e.get("defender").and_then(Value::as_str) {
                None => {
                    let p = PlayerId(1 - controller.0.min(1));
                    (p, DefenderId::Player(p))
                }
                Some(d) => match self.seat(d) {
                    Some(p) if p != controller => (p, DefenderId::Player(p)),
                    Some(_) => return unsupported(format!("{where_}: an attack on {d}")),
                    None => {
                        // 508.1b: a planeswalker an opponent controls.
                        let pw = self.card_of(d, where_)?;
                        let pc = self.g.card(pw);
                        if pc.zone != forge_foundation::ZoneType::Battlefield
                            || !self.attacked_walker(pw)
                            || pc.controller == controller
                        {
                            return unsupported(format!(
                                "{where_}: an attack on {d} (only players and opponents' \
                                 planeswalkers are mapped; battles are not)"
                            ));
                        }
                        (pc.controller, DefenderId::Permanent(pw))
                    }
                },
            };
            let mut blockers = Vec::new();
            for b in e["blockers"].as_array().cloned().unwrap_or_default() {
                let b_id = self.creature_target(b.as_str().unwrap_or(""), where_)?;
                let bc = self.g.card(b_id);
                if !bc.is_creature() || bc.tapped || bc.controller != defender {
                    return unsupported(format!(
                        "{where_}: {b} cannot block (tapped, no creature, or not the defending player's)"
                    ));
                }
                if declared.iter().any(|(_, _, _, bs)| bs.contains(&b_id))
                    || blockers.contains(&b_id)
                {
                    return unsupported(format!("{where_}: {b} blocks twice"));
                }
                blockers.push(b_id);
            }
            declared.push((a, defender, target, blockers));
        }
        let combat = &mut self.game_loop.combat;
        combat.clear();
        combat.attacking_player = attacking;
        if let Some(code) = &mut self.code {
            code.line("game_loop.combat.clear();");
            code.line(format!(
                "game_loop.combat.attacking_player = Some(PlayerId({}));",
                attacking.map_or(0, |p| p.0)
            ));
            for (a, d, target, blockers) in &declared {
                let v = code.var(a.0);
                let target = match target {
                    DefenderId::Player(p) => format!(
                        "manabrew_engine::combat::DefenderId::Player(PlayerId({}))",
                        p.0
                    ),
                    DefenderId::Permanent(c) => format!(
                        "manabrew_engine::combat::DefenderId::Permanent({})",
                        code.var(c.0)
                    ),
                };
                if !self.g.card(*a).has_vigilance() {
                    code.line(format!("g.tap({v});"));
                }
                code.line(format!("g.card_mut({v}).mark_attacked_this_turn();"));
                code.line(format!(
                    "g.card_mut({v}).set_attacking_player(PlayerId({}));",
                    d.0
                ));
                code.line(format!(
                    "game_loop.combat.defending_player = Some(PlayerId({}));",
                    d.0
                ));
                code.line(format!(
                    "game_loop.combat.declare_attacker({v}, {target}, g.card({v}).zone_timestamp);"
                ));
                for b in blockers {
                    let bv = code.var(b.0);
                    code.line(format!(
                        "game_loop.combat.declare_blocker({bv}, {v}, g.card({bv}).zone_timestamp);"
                    ));
                }
                if !blockers.is_empty() {
                    let list: Vec<String> = blockers.iter().map(|b| code.var(b.0)).collect();
                    code.line(format!(
                        "game_loop.combat.damage_order.insert({v}, vec![{}]);",
                        list.join(", ")
                    ));
                }
            }
        }
        for (a, defender, target, blockers) in &declared {
            if !self.g.card(*a).has_vigilance() {
                self.g.tap(*a);
            }
            self.g.card_mut(*a).mark_attacked_this_turn();
            self.g.card_mut(*a).set_attacking_player(*defender);
            let ts = self.g.card(*a).zone_timestamp;
            let combat = &mut self.game_loop.combat;
            combat.defending_player = Some(*defender);
            combat.declare_attacker(*a, *target, ts);
            for b in blockers {
                let ts = self.g.card(*b).zone_timestamp;
                self.game_loop.combat.declare_blocker(*b, *a, ts);
            }
            if !blockers.is_empty() {
                self.game_loop
                    .combat
                    .damage_order
                    .insert(*a, blockers.clone());
            }
        }
        self.declared = Some(false);
        Ok(())
    }

    /// The `combat_damage_step` step: the engine's first-strike damage step
    /// if a creature in combat has first or double strike (its
    /// `has_first_strikers`) and none was played yet, else its regular
    /// one, after which combat ends (510.4), as its game loop plays them:
    /// creatures gone from the battlefield or no longer creatures removed
    /// from combat (`remove_absent_combatants`, 506.4), then
    /// `resolve_damage_step` with its own damage assignment (the agent's
    /// lethal damage to each blocker in order, the rest to the last or,
    /// with trample, to the player, 510.1c), and the counters it puts.
    pub fn combat_damage_step(&mut self, body: &Value, where_: &str) -> Res<()> {
        let Some(fs_done) = self.declared else {
            return unsupported(format!("{where_}: a combat damage step without a combat"));
        };
        self.game_loop
            .combat
            .remove_absent_combatants(&self.g.cards);
        if let Some(code) = &mut self.code {
            code.line("game_loop.combat.remove_absent_combatants(&g.cards);");
        }
        if let Some(divide) = body.get("divide").and_then(Value::as_object) {
            for (a, order) in divide {
                let a_id = self.card_of(a, where_)?;
                let blockers = self.game_loop.combat.get_blockers_for(a_id);
                let mut list = Vec::new();
                for (i, h) in order
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                {
                    let h = h.as_str().unwrap_or("");
                    if self.seat(h).is_some() {
                        let last = i + 1 == order.as_array().map_or(0, Vec::len);
                        if !last || !self.g.card(a_id).has_trample() {
                            return unsupported(format!(
                                "{where_}: a division that sends damage to {h} not last or without trample"
                            ));
                        }
                        continue;
                    }
                    list.push(self.card_of(h, where_)?);
                }
                let mut sorted = list.clone();
                sorted.sort_by_key(|c| c.0);
                let mut have = blockers.clone();
                have.sort_by_key(|c| c.0);
                if sorted != have {
                    return unsupported(format!(
                        "{where_}: a division of {a} that does not name each of its blockers once"
                    ));
                }
                if let Some(code) = &mut self.code {
                    let names: Vec<String> = list.iter().map(|b| code.var(b.0)).collect();
                    code.line(format!(
                        "game_loop.combat.damage_order.insert({}, vec![{}]);",
                        code.var(a_id.0),
                        names.join(", ")
                    ));
                }
                self.game_loop.combat.damage_order.insert(a_id, list);
            }
        }
        // The agent's assignment gives an indestructible blocker all the
        // damage (a choice of the engine's player, not the rules'
        // division of 510.1c, which the case makes).
        for (a, _) in self.game_loop.combat.attackers.clone() {
            let blockers = self.game_loop.combat.get_blockers_for(a);
            let ac = self.g.card(a);
            if (blockers.len() > 1 || ac.has_trample())
                && !ac.has_wither()
                && !ac.has_infect()
                && blockers
                    .iter()
                    .any(|b| self.g.card(*b).has_keyword("Indestructible"))
            {
                return unsupported(format!(
                    "{where_}: an indestructible blocker among several or before a trampler (the \
                     engine's player assigns it all the damage)"
                ));
            }
        }
        let first = !fs_done && self.game_loop.combat.has_first_strikers(&self.g);
        if let Some(code) = &mut self.code {
            code.line("{");
            code.line("    g.copy_last_state();");
            code.line(format!(
                "    let res = game_loop.combat.resolve_damage_step(&mut g, &mut agents, {first}, &std::collections::HashSet::new());"
            ));
            code.line("    res.counter_table.replace_counter_effect(&mut g, None, Some(&mut agents[..]), None, false, Default::default());");
            if !first {
                code.line("    game_loop.combat.clear_with_cards(&mut g.cards);");
            }
            code.line("}");
        }
        self.deal_combat_damage(first);
        if first {
            self.declared = Some(true);
        } else {
            self.game_loop.combat.clear_with_cards(&mut self.g.cards);
            self.declared = None;
        }
        Ok(())
    }
}
