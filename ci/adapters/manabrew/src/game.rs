// SPDX-License-Identifier: AGPL-3.0-or-later
//! A case's game: the engine's `GameState` built from the setup, and each
//! step played through the engine's mechanisms.

use forge_foundation::{CardTypeLine, ColorSet, ManaCost, ZoneType};
use manabrew_engine::agent::{PassAgent, PlayerAgent};
use manabrew_engine::card::Card;
use manabrew_engine::game::GameState;
use manabrew_engine::game_loop::GameLoop;
use manabrew_engine::ids::{CardId, PlayerId};
use manabrew_engine::spellability::{SpellAbility, StackEntry};
use serde_json::{json, Value};

use crate::repro;
use crate::script::{effect_scripts, selector, static_line};
use crate::terms::{
    counter_kind, forge_cost, forge_counter, forge_keyword, parse_pt, zone_type, COLORS,
};
use crate::{error, unsupported, Res};

pub struct Game {
    pub g: GameState,
    pub game_loop: GameLoop,
    pub agents: Vec<Box<dyn PlayerAgent>>,
    /// Case handles of the players, in seat order.
    pub players: Vec<String>,
    /// Case handles of the objects and their cards.
    pub objects: Vec<(String, CardId)>,
    /// The program being written, when the case is played for a
    /// reproduction (`repro.rs`): each call into the engine adds its lines.
    pub code: Option<repro::Code>,
    /// Whether the case has undying or persist: its state-based actions
    /// then go through the engine's trigger handler, and the triggers they
    /// cause are put on the stack and resolved.
    triggers: bool,
    /// The combat an `attack` step declared, if any: whether its
    /// first-strike damage step was played (510.4).
    pub declared: Option<bool>,
}

impl Game {
    pub fn new(case: &Value, code: Option<repro::Code>) -> Res<Game> {
        let setup = &case["setup"];
        let mut players: Vec<Value> = setup["players"].as_array().cloned().unwrap_or_default();
        if players.is_empty() {
            players = vec![json!({"id": "you"}), json!({"id": "opponent"})];
        }
        if players.len() == 1 {
            let other = if players[0]["id"] == "opponent" {
                "you"
            } else {
                "opponent"
            };
            players.push(json!({"id": other}));
        }
        let names: Vec<String> = players
            .iter()
            .map(|p| p["id"].as_str().unwrap_or("?").to_string())
            .collect();
        let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut g = GameState::new(&name_refs, 20);
        for (i, p) in players.iter().enumerate() {
            let pl = g.player_mut(PlayerId(i as u32));
            pl.life = p["life"].as_i64().unwrap_or(20) as i32;
            pl.poison_counters = p["poison"].as_i64().unwrap_or(0) as i32;
        }
        let mut game = Game {
            g,
            game_loop: GameLoop::new(2),
            agents: vec![Box::new(PassAgent), Box::new(PassAgent)],
            players: names,
            objects: Vec::new(),
            code,
            triggers: has_dies_triggers(case),
            declared: None,
        };
        if let Some(code) = &mut game.code {
            let lives: Vec<(i32, i32)> = (0..game.players.len())
                .map(|i| {
                    let p = game.g.player(PlayerId(i as u32));
                    (p.life, p.poison_counters)
                })
                .collect();
            code.game(&game.players, &lives);
            code.comment("The case's setup: each card built and put in its zone, with what the setup gives it written on it (the engine has no action for a chosen state).");
        }
        // The engine applies static abilities in the order their cards were
        // made (its layer system sorts by layer only, a stable sort): the
        // cards are made in timestamp order (613.7), the setup's list order
        // where the case gives none (docs/protocol.md "Timestamps"; equal
        // ones in list order, D3).
        let mut objects: Vec<(i64, Value)> = Vec::new();
        let mut counter = 1i64;
        for o in setup["objects"].as_array().cloned().unwrap_or_default() {
            let t = o["timestamp"].as_i64().unwrap_or(counter);
            counter = counter.max(t.saturating_add(1));
            objects.push((t, o));
        }
        objects.sort_by_key(|(t, _)| *t);
        for (_, o) in objects {
            game.put_card(&o)?;
        }
        Ok(game)
    }

    pub fn seat(&self, handle: &str) -> Option<PlayerId> {
        self.players
            .iter()
            .position(|p| p == handle)
            .map(|i| PlayerId(i as u32))
    }

    pub fn card_of(&self, handle: &str, where_: &str) -> Res<CardId> {
        match self.objects.iter().find(|(h, _)| h == handle) {
            Some((_, id)) => Ok(*id),
            None => unsupported(format!("{where_}: {handle} is not an object of the case")),
        }
    }

    fn put_card(&mut self, o: &Value) -> Res<()> {
        let handle = o["id"].as_str().unwrap_or("?").to_string();
        let owner = o["controller"]
            .as_str()
            .and_then(|c| self.seat(c))
            .unwrap_or(PlayerId(0));
        let mut type_text: Vec<&str> = o["types"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if type_text.is_empty() {
            type_text.push("");
        }
        let mut line = type_text.join(" ");
        let subtypes: Vec<&str> = o["subtypes"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if !subtypes.is_empty() {
            line = format!("{line} — {}", subtypes.join(" "));
        }
        let mut color = ColorSet::COLORLESS;
        for c in o["colors"].as_array().cloned().unwrap_or_default() {
            if let Some((_, set)) = COLORS.iter().find(|(n, _)| Some(*n) == c.as_str()) {
                color = color.union(*set);
            }
        }
        let (power, toughness) = match o["pt"].as_str() {
            Some(pt) => {
                let (p, t) = parse_pt(pt, &handle, None, false)?;
                (Some(p as i32), Some(t as i32))
            }
            None => (None, None),
        };
        let keywords: Vec<String> = o["keywords"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|k| k.as_str().and_then(forge_keyword))
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        let name = o["name"].as_str().unwrap_or(&handle).to_string();
        let cost = o["mana_cost"].as_str().map(forge_cost);
        let you = o["controller"]
            .as_str()
            .unwrap_or(&self.players[0])
            .to_string();
        let mut abilities = Vec::new();
        for a in o["abilities"].as_array().cloned().unwrap_or_default() {
            abilities.push(static_line(&a, &you, &handle)?);
        }
        let written = self.code.as_ref().map(|_| {
            repro::card_expr(
                &name,
                owner.0,
                &line,
                cost.as_deref(),
                o,
                power,
                toughness,
                &keywords,
                &abilities,
            )
        });
        let card = Card::new(
            CardId(0),
            name,
            owner,
            CardTypeLine::parse(&line),
            match o["mana_cost"].as_str() {
                Some(cost) => ManaCost::parse(&forge_cost(cost)),
                None => ManaCost::no_cost(),
            },
            color,
            power,
            toughness,
            keywords,
            abilities,
        );
        let id = self.g.create_card(card);
        let zone = zone_type(o["zone"].as_str().unwrap_or("battlefield")).unwrap();
        self.g.move_card(id, zone, owner);
        if let (Some(code), Some(expr)) = (&mut self.code, written) {
            code.card(&handle, id.0, &expr, &format!("{zone:?}"), owner.0);
            code.setup_state(id.0, o);
        }
        {
            let c = self.g.card_mut(id);
            // Under its controller's control since their turn began, unless
            // the case says `sick` (302.6).
            c.summoning_sick = o["sick"].as_bool().unwrap_or(false);
            if let Some(counters) = o["counters"].as_object() {
                for (kind, n) in counters {
                    let n = n.as_i64().unwrap_or(0) as i32;
                    if n > 0 {
                        c.add_counter(&counter_kind(kind).unwrap(), n);
                    }
                }
            }
            c.damage = o["damage"].as_i64().unwrap_or(0) as i32;
            c.has_deathtouch_damage = o["deathtouch_damage"].as_bool().unwrap_or(false);
            c.tapped = o["tapped"].as_bool().unwrap_or(false);
            c.regeneration_shields = o["regeneration_shields"].as_i64().unwrap_or(0) as i32;
            // The printed loyalty (306.5b), written after the card is put
            // in its zone: a planeswalker set up on the battlefield has the
            // counters the setup gives it; one that enters later gets its
            // loyalty counters from the engine's zone change.
            if let Some(l) = o["loyalty"].as_i64() {
                c.initial_loyalty = Some(l.to_string());
            }
        }
        self.objects.push((handle, id));
        Ok(())
    }

    /// A new instant card on the stack, the source of a spell.
    fn spell_card(&mut self, controller: PlayerId, name: &str) -> CardId {
        let card = Card::new(
            CardId(0),
            name.to_string(),
            controller,
            CardTypeLine::parse("Instant"),
            ManaCost::parse("{0}"),
            ColorSet::COLORLESS,
            None,
            None,
            Vec::new(),
            Vec::new(),
        );
        let id = self.g.create_card(card);
        self.g.move_card(id, ZoneType::Stack, controller);
        if let Some(code) = &mut self.code {
            code.spell(id.0, name, controller.0);
        }
        id
    }

    /// Puts a spell or ability on the engine's stack and lets its game loop
    /// resolve it: with `sba`, `step_with_priority` (priority passes, the
    /// stack resolves, state-based actions are checked as priority is
    /// given); without, only the resolution (`resolve_stack`).
    fn resolve(
        &mut self,
        source: CardId,
        controller: PlayerId,
        text: &str,
        target_card: Option<CardId>,
        target_player: Option<PlayerId>,
        sba: bool,
    ) -> Res<()> {
        if let Some(code) = &mut self.code {
            code.resolve(
                source.0,
                controller.0,
                text,
                target_card.map(|c| c.0),
                target_player.map(|p| p.0),
            );
        }
        let mut sa = SpellAbility::new_simple(Some(source), controller, text);
        sa.target_chosen.target_card = target_card;
        if let Some(t) = target_card {
            sa.target_chosen.target_card_zone_timestamp = Some(self.g.card(t).zone_timestamp);
        }
        sa.target_chosen.target_player = target_player;
        let is_spell = text.starts_with("SP$");
        // A spell (its card goes to the graveyard as it resolves) or an
        // activated ability of its source (which stays where it is).
        sa.is_spell = is_spell;
        sa.is_activated = !is_spell;
        self.g.stack.push(StackEntry {
            id: 0,
            spell_ability: sa,
            is_creature_spell: false,
            is_permanent_spell: false,
            is_pending_cast: false,
            cast_from_zone: if is_spell { Some(ZoneType::Hand) } else { None },
            optional_trigger_decider: None,
            optional_trigger_description: None,
            optional_trigger_source_name: None,
        });
        // The engine's resolution of the top of its stack (`resolve_stack`,
        // as its priority loop does once every player has passed); the
        // step's state-based actions follow in `play`. Not
        // `step_with_priority`: it checks state-based actions as it first
        // gives priority, before the spell resolves, and a scenario's step
        // resolves first (after a step with `sba: false`, or a setup with
        // lethal damage, that order shows).
        let _ = sba;
        self.game_loop.resolve_stack(&mut self.g, &mut self.agents);
        if !self.g.stack.is_empty() {
            return error("the engine's stack is not empty after the step's resolution");
        }
        Ok(())
    }

    pub fn creature_target(&self, handle: &str, where_: &str) -> Res<CardId> {
        let id = self.card_of(handle, where_)?;
        if self.g.card(id).zone != ZoneType::Battlefield {
            // The reference acts on the card where it is (a graveyard, say);
            // the adapter's spells and abilities target permanents. Both games
            // agree on the card's zone here: the gate compared it at the step
            // before.
            return unsupported(format!(
                "{where_}: {handle} is not on the battlefield (the adapter's spells and \
                 abilities target permanents)"
            ));
        }
        for kw in ["Shroud", "Hexproof"] {
            if self.g.card(id).has_keyword(kw) {
                // 702.18a, 702.11b: the adapter's spell or ability could not
                // target it, while the case's step acts on it.
                return unsupported(format!(
                    "{where_}: {handle} has {} (the adapter's spells and abilities target)",
                    kw.to_lowercase()
                ));
            }
        }
        Ok(id)
    }

    /// The engine's state-based actions, until none applies (704.3).
    fn sba(&mut self) -> Res<()> {
        if self.triggers {
            return self.sba_with_triggers();
        }
        if let Some(code) = &mut self.code {
            code.line("sba(&mut g);");
        }
        for _ in 0..1000 {
            if !self.g.check_state_based_actions() {
                return Ok(());
            }
        }
        error("state-based actions never settle")
    }

    /// State-based actions with the engine's trigger handler (the
    /// "dies" triggers of undying and persist, 702.93a, 702.79a), then the
    /// engine's priority round (`priority_round`: its own checks of
    /// state-based actions and the triggers put on the stack, 704.3,
    /// 603.3b; both players pass) and the stack resolved, until the stack
    /// stays empty.
    fn sba_with_triggers(&mut self) -> Res<()> {
        if self.code.is_some() {
            return unsupported("triggered abilities are not written into reproductions yet");
        }
        for _ in 0..100 {
            self.game_loop
                .trigger_handler
                .reset_active_triggers(&self.g);
            for _ in 0..1000 {
                if !self.g.check_state_based_actions_with_trigger_agents(
                    Some(&mut self.game_loop.trigger_handler),
                    &mut self.agents,
                ) {
                    break;
                }
            }
            if self.g.game_over {
                // The engine ends its game as a player loses (104.2a), and
                // resolves no more triggers; ptoracle's scenarios play on.
                return unsupported("a player has lost the game, which manabrew ends there");
            }
            self.game_loop
                .priority_round(&mut self.g, &mut self.agents, false);
            if self.g.game_over {
                return unsupported("a player has lost the game, which manabrew ends there");
            }
            if self.g.stack.is_empty() {
                return Ok(());
            }
            self.game_loop.resolve_stack(&mut self.g, &mut self.agents);
        }
        unsupported("the engine's triggers never settle (no fixpoint)")
    }

    pub fn play(&mut self, step: &Value, where_: &str) -> Res<()> {
        let action = &step["do"];
        let sba = step["sba"].as_bool().unwrap_or(true);
        if action.as_str() == Some("state_based_actions") {
            return self.sba();
        }
        if action.as_str() == Some("cleanup") {
            // The engine's cleanup step (514.2): damage removed, "until end
            // of turn" effects and regeneration shields end.
            if let Some(code) = &mut self.code {
                code.line("game_loop.step_cleanup(&mut g, &mut agents);");
            }
            self.game_loop.step_cleanup(&mut self.g, &mut self.agents);
            if sba {
                self.sba()?;
            }
            return Ok(());
        }
        let (name, body) = action.as_object().unwrap().iter().next().unwrap();
        let you = PlayerId(0);
        match name.as_str() {
            "put_counters" if self.seat(body["on"].as_str().unwrap_or("")).is_some() => {
                // Poison counters on a player: the engine's `Poison` effect.
                let p = self.seat(body["on"].as_str().unwrap_or("")).unwrap();
                let n = body.get("count").and_then(Value::as_i64).unwrap_or(1);
                if n <= 0 {
                    return unsupported(format!("{where_}: {n} counters"));
                }
                let src = self.spell_card(you, "ptoracle poison");
                let text = format!("SP$ Poison | ValidTgts$ Player | Num$ {n}");
                self.resolve(src, you, &text, None, Some(p), sba)?;
            }
            "combat_damage" => self.combat(body, where_)?,
            "attack" => self.attack(body, where_)?,
            "combat_damage_step" => self.combat_damage_step(body, where_)?,
            "move" => {
                // The engine's zone change (`GameState::move_card`, which
                // makes the card a new object, 400.7), to its owner's zone.
                let id = self.card_of(body["object"].as_str().unwrap_or(""), where_)?;
                let zone = zone_type(body["to"].as_str().unwrap_or("")).unwrap();
                let owner = self.g.card(id).owner;
                if self.triggers && self.g.card(id).zone == ZoneType::Battlefield {
                    // `move_card` fires no trigger: the "dies" of undying
                    // and persist would be missed.
                    return unsupported(format!(
                        "{where_}: a move from the battlefield in a case with undying or persist \
                         (the engine's move_card fires no trigger)"
                    ));
                }
                if let Some(counters) = body["counters"].as_object().filter(|c| !c.is_empty()) {
                    // Counters it enters with (122.6): Forge's zone change
                    // with `WithCountersType$`/`WithCountersAmount$` (one
                    // kind, put through the engine's AddCounter chain as the
                    // card enters), cast by its owner. Its origin is where
                    // the card is; `check` refused every other shape.
                    let (kind, n) = counters.iter().next().unwrap();
                    let kind = forge_counter(kind).unwrap_or_default();
                    let n = n.as_i64().unwrap_or(0);
                    let origin = format!("{:?}", self.g.card(id).zone);
                    let src = self.spell_card(owner, "ptoracle return");
                    let text = format!(
                        "SP$ ChangeZone | ValidTgts$ Card | TgtZone$ {origin} | Origin$ {origin} \
                         | Destination$ Battlefield | WithCountersType$ {kind} \
                         | WithCountersAmount$ {n}"
                    );
                    self.resolve(src, owner, &text, Some(id), None, sba)?;
                } else {
                    if let Some(code) = &mut self.code {
                        let var = code.var(id.0);
                        code.line(format!(
                            "g.move_card({var}, ZoneType::{zone:?}, PlayerId({}));",
                            owner.0
                        ));
                    }
                    self.g.move_card(id, zone, owner);
                }
            }
            "put_counters" | "remove_counters" => {
                let put = name == "put_counters";
                let on = if put { &body["on"] } else { &body["from"] };
                let tgt = self.creature_target(on.as_str().unwrap_or(""), where_)?;
                let n = body.get("count").and_then(Value::as_i64).unwrap_or(1);
                let kind = forge_counter(body["kind"].as_str().unwrap_or("")).unwrap_or_default();
                if n <= 0 {
                    // Nothing is put or removed: no spell of the engine's does nothing.
                    return unsupported(format!("{where_}: {n} counters"));
                }
                let src = self.spell_card(you, "ptoracle counters");
                let text = if put {
                    format!("SP$ PutCounter | ValidTgts$ Permanent | CounterType$ {kind} | CounterNum$ {n}")
                } else {
                    format!("SP$ RemoveCounter | ValidTgts$ Permanent | CounterType$ {kind} | CounterNum$ {n}")
                };
                self.resolve(src, you, &text, Some(tgt), None, sba)?;
            }
            "effect" => {
                let x = body.get("x").and_then(Value::as_i64);
                if let Some(list) = body["affects"].as_array() {
                    let scripts = effect_scripts(body, x, None, where_)?;
                    for h in list {
                        let tgt = self.creature_target(h.as_str().unwrap_or(""), where_)?;
                        for text in &scripts {
                            let src = self.spell_card(you, spell_name(text));
                            self.resolve(src, you, text, Some(tgt), None, sba)?;
                        }
                    }
                } else {
                    // A filter, locked as the spell resolves (611.2c): the
                    // `...All` form, cast by the filter's controller.
                    let by = body["affects"]["controller"]
                        .as_str()
                        .unwrap_or(&self.players[0]);
                    let caster = self.seat(by).unwrap_or(you);
                    let filter = selector(&body["affects"], by, where_)?;
                    for text in &effect_scripts(body, x, Some(&filter), where_)? {
                        let src = self.spell_card(caster, spell_name(text));
                        self.resolve(src, caster, text, None, None, sba)?;
                    }
                }
            }
            "destroy" => {
                let tgt = self.creature_target(body.as_str().unwrap_or(""), where_)?;
                if self.triggers {
                    // Not established: whether the engine's resolution of the
                    // adapter's spell collects the "dies" trigger (a persist
                    // creature destroyed stayed in the graveyard, seed 1).
                    return unsupported(format!(
                        "{where_}: a destruction in a case with undying or persist (not mapped yet)"
                    ));
                }
                let src = self.spell_card(you, "ptoracle destroy");
                self.resolve(
                    src,
                    you,
                    "SP$ Destroy | ValidTgts$ Permanent",
                    Some(tgt),
                    None,
                    sba,
                )?;
            }
            "gain_control" => {
                // `SP$ GainControl` (no duration: the change lasts
                // indefinitely, 613.1b), cast by the player who gains
                // control: the engine's control-changing effect.
                let tgt = self.creature_target(body["object"].as_str().unwrap_or(""), where_)?;
                let p = self
                    .seat(body["player"].as_str().unwrap_or(""))
                    .unwrap_or(you);
                let src = self.spell_card(p, "ptoracle gain control");
                self.resolve(
                    src,
                    p,
                    "SP$ GainControl | ValidTgts$ Permanent",
                    Some(tgt),
                    None,
                    sba,
                )?;
            }
            "exchange" => {
                // Forge's `ExchangePower`, as Serene Master's trigger
                // writes it: an ability of the first creature targeting
                // the second; the engine does nothing unless both are
                // creatures on the battlefield (701.12a).
                let first = body["values"][0]["power"].as_str().unwrap_or("");
                let second = body["values"][1]["power"].as_str().unwrap_or("");
                let from = self.card_of(first, where_)?;
                let tgt = match self.g.card(self.card_of(second, where_)?).zone {
                    ZoneType::Battlefield => self.creature_target(second, where_)?,
                    _ => self.card_of(second, where_)?,
                };
                let controller = self.g.card(from).controller;
                self.resolve(
                    from,
                    controller,
                    "AB$ ExchangePower | Cost$ 0 | ValidTgts$ Creature",
                    Some(tgt),
                    None,
                    sba,
                )?;
            }
            "double" | "triple" => {
                // 701.10b: Unleash Fury's script, `SP$ Pump | NumAtt$ +X`
                // with `SVar:X:Targeted$CardPower` on the spell (and
                // `Targeted$CardToughness` for the toughness): the engine
                // reads the value as the spell resolves and adds it. To
                // triple (701.11b) adds twice the value: Forge's `/Twice`.
                let times = if name == "triple" { "/Twice" } else { "" };
                let tgt = self.creature_target(body["affects"].as_str().unwrap_or(""), where_)?;
                let what = body["what"].as_str().unwrap_or("");
                let src = self.spell_card(you, "ptoracle double");
                let mut text = "SP$ Pump | ValidTgts$ Creature".to_string();
                let mut svars = Vec::new();
                if what == "power" || what == "both" {
                    text.push_str(" | NumAtt$ +X");
                    svars.push(("X", format!("Targeted$CardPower{times}")));
                }
                if what == "toughness" || what == "both" {
                    text.push_str(" | NumDef$ +Y");
                    svars.push(("Y", format!("Targeted$CardToughness{times}")));
                }
                if body["until"] == "forever" {
                    text.push_str(" | Duration$ Permanent");
                }
                for (k, v) in svars {
                    if let Some(code) = &mut self.code {
                        let var = code.var(src.0);
                        code.line(format!("g.card_mut({var}).set_s_var({k:?}, {v:?});"));
                    }
                    self.g.card_mut(src).set_s_var(k, v);
                }
                self.resolve(src, you, &text, Some(tgt), None, sba)?;
            }
            "begin_turn" => {
                // The engine's per-turn reset of a player's turn
                // (`new_turn_for_player`): their permanents are no longer
                // summoning sick (302.6). No untap, as the step says.
                let p = self.seat(body.as_str().unwrap_or("")).unwrap_or(you);
                if let Some(code) = &mut self.code {
                    code.line(format!("g.new_turn_for_player(PlayerId({}));", p.0));
                }
                self.g.new_turn_for_player(p);
            }
            "prevent" => {
                // Healing Salve's script: `SP$ PreventDamage | ValidTgts$ Any
                // | Amount$ N`, the engine's prevention shield on the card
                // or the player (615.7).
                let to = body["to"].as_str().unwrap_or("");
                let n = body["amount"].as_i64().unwrap_or(0);
                let (card, player) = match self.seat(to) {
                    Some(p) => (None, Some(p)),
                    None => (Some(self.creature_target(to, where_)?), None),
                };
                let src = self.spell_card(you, "ptoracle prevent");
                let text = format!("SP$ PreventDamage | ValidTgts$ Any | Amount$ {n}");
                self.resolve(src, you, &text, card, player, sba)?;
            }
            "regenerate" => {
                let tgt = self.creature_target(body.as_str().unwrap_or(""), where_)?;
                let src = self.spell_card(you, "ptoracle regenerate");
                self.resolve(
                    src,
                    you,
                    "SP$ Regenerate | ValidTgts$ Permanent",
                    Some(tgt),
                    None,
                    sba,
                )?;
            }
            "damage" => {
                let from = self.card_of(body["from"].as_str().unwrap_or(""), where_)?;
                let n = body["amount"].as_i64().unwrap_or(0).max(0);
                let to = body["to"].as_str().unwrap_or("");
                let controller = self.g.card(from).controller;
                // The source's own ability: its keywords (deathtouch, wither,
                // infect, lifelink) are the damage's.
                let (card, player, valid) = match self.seat(to) {
                    Some(p) => (None, Some(p), "Player"),
                    None => (
                        Some(self.creature_target(to, where_)?),
                        None,
                        "Creature,Planeswalker",
                    ),
                };
                let text = format!("AB$ DealDamage | Cost$ 0 | ValidTgts$ {valid} | NumDmg$ {n}");
                self.resolve(from, controller, &text, card, player, sba)?;
            }
            other => return unsupported(format!("{where_}: the step `{other}`")),
        }
        if sba {
            self.sba()?;
        }
        Ok(())
    }
}

/// The name of the instant that carries a spell's script (as the
/// reproductions name it).
fn spell_name(text: &str) -> &'static str {
    if text.starts_with("SP$ Animate") {
        "ptoracle set"
    } else if text.starts_with("SP$ Debuff") {
        "ptoracle debuff"
    } else {
        "ptoracle modify"
    }
}

/// Whether a keyword list anywhere in the case (an object's, a static
/// ability's, an effect's) has undying or persist.
pub fn has_dies_triggers(case: &Value) -> bool {
    has_keyword_anywhere(case, "undying") || has_keyword_anywhere(case, "persist")
}

/// Whether a keyword list anywhere in the case has `kw`.
pub fn has_keyword_anywhere(case: &Value, kw: &str) -> bool {
    match case {
        Value::Object(o) => o.iter().any(|(k, v)| {
            (k == "keywords" || k == "add_keywords")
                && v.as_array().is_some_and(|a| a.iter().any(|k| k == kw))
                || has_keyword_anywhere(v, kw)
        }),
        Value::Array(a) => a.iter().any(|v| has_keyword_anywhere(v, kw)),
        _ => false,
    }
}
