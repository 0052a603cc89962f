// SPDX-License-Identifier: AGPL-3.0-or-later
//! Observations read from the engine after each step.

use forge_foundation::ZoneType;
use manabrew_engine::ids::{CardId, PlayerId};
use serde_json::{json, Map, Value};

use crate::game::Game;
use crate::terms::{counter_name, COLORS, KEYWORDS, TYPES};

impl Game {
    fn observe_card(&self, id: CardId) -> Value {
        let c = self.g.card(id);
        let zone = match c.zone {
            ZoneType::Battlefield => "battlefield",
            ZoneType::Graveyard => "graveyard",
            ZoneType::Exile => "exile",
            ZoneType::Hand => "hand",
            ZoneType::Library => "library",
            ZoneType::Stack => "stack",
            ZoneType::Command => "command",
            _ => "none",
        };
        let types: Vec<&str> = TYPES
            .iter()
            .filter(|(_, t)| c.type_line.core_types.contains(t))
            .map(|(n, _)| *n)
            .collect();
        let colors: Vec<&str> = COLORS
            .iter()
            .filter(|(_, s)| c.color.mask() & s.mask() != 0)
            .map(|(n, _)| *n)
            .collect();
        // A creature has the P/T the engine computes for it: `power()`
        // counts a card with no printed P/T as 0/0 (208.3a).
        let has_pt = c.is_creature();
        let (power, toughness, base_p, base_t) = if has_pt {
            let bp = c.static_set_power.or(c.base_power).unwrap_or(0);
            let bt = c.static_set_toughness.or(c.base_toughness).unwrap_or(0);
            (json!(c.power()), json!(c.toughness()), json!(bp), json!(bt))
        } else {
            (Value::Null, Value::Null, Value::Null, Value::Null)
        };
        let mut counters = Map::new();
        for (kind, n) in &c.counters {
            if *n == 0 {
                continue;
            }
            let name = counter_name(kind);
            counters.insert(name, json!(n));
        }
        let keywords: Vec<&str> = KEYWORDS
            .iter()
            .filter(|(_, f)| c.has_keyword(f))
            .map(|(k, _)| *k)
            .collect();
        let total = match (c.power(), c.toughness()) {
            (p, t) if has_pt => json!(p as i64 + t as i64),
            _ => Value::Null,
        };
        let combat = if has_pt {
            json!(c.power().max(0))
        } else {
            Value::Null
        };
        json!({
            "zone": zone,
            "types": types,
            "colors": colors,
            "power": power,
            "toughness": toughness,
            "base_power": base_p,
            "base_toughness": base_t,
            "total": total,
            "combat_damage": combat,
            "counters": counters,
            "damage": c.damage,
            "deathtouch_damage": c.has_deathtouch_damage,
            "keywords": keywords,
            "tapped": c.tapped,
            // The engine's own test of whether 302.6 stops a permanent
            // (`game_loop/action_space.rs`), on the battlefield.
            "summoning_sick": c.zone == ZoneType::Battlefield
                && c.is_creature()
                && c.summoning_sick
                && !c.has_haste(),
            "regeneration_shields": c.regeneration_shields,
            "attached_to": Value::Null,
        })
    }

    pub fn observe(&self) -> Value {
        let mut objects = Map::new();
        for (h, id) in &self.objects {
            objects.insert(h.clone(), self.observe_card(*id));
        }
        let mut players = Map::new();
        for (i, h) in self.players.iter().enumerate() {
            let p = self.g.player(PlayerId(i as u32));
            players.insert(
                h.clone(),
                json!({"life": p.life, "poison": p.poison_counters, "mana": {}, "lost": p.has_lost}),
            );
        }
        json!({"objects": objects, "players": players})
    }
}
