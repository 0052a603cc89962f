// SPDX-License-Identifier: AGPL-3.0-or-later
//
// ptoracle's engine protocol (version 1) in front of manabrew-engine, a Rust
// port of Forge's rules engine. A separate program: it reads JSON lines on
// stdin and writes JSON lines on stdout (docs/protocol.md of ptoracle), and
// links no ptoracle crate. See README.md here.
//
// Every case is a fresh `GameState`: the setup's objects are cards built with
// `Card::new` (printed types, colors, P/T, keywords) and moved to the
// battlefield with the engine's `move_card`; every step that changes a
// creature is a Forge ability (`SP$ PutCounter`, `SP$ RemoveCounter`,
// `SP$ Pump`, `SP$ Animate`, `SP$ Destroy`, `SP$ Regenerate`, and
// `AB$ DealDamage` of the damage's source) put on the engine's stack and
// resolved by its game loop (`GameLoop::resolve_stack`, two passing agents);
// state-based actions after a step, and a `state_based_actions` step, are the
// engine's `check_state_based_actions`, repeated until none applies.
// The adapter never computes a rules result: what it cannot map is answered
// `unsupported` with the reason.

use std::io::{self, BufRead, Write};

use forge_foundation::{CardTypeLine, ColorSet, CoreType, ManaCost, ZoneType};
use manabrew_engine::agent::{PassAgent, PlayerAgent};
use manabrew_engine::card::{Card, CounterType};
use manabrew_engine::combat::DefenderId;
use manabrew_engine::game::GameState;
use manabrew_engine::game_loop::GameLoop;
use manabrew_engine::ids::{CardId, PlayerId};
use manabrew_engine::spellability::{SpellAbility, StackEntry};
use serde_json::{json, Map, Value};

mod repro;

const PROTOCOL: i64 = 1;
const EDITION: &str = "2026-09-25";
const ENGINE_VERSION: &str = "0.13.1";

/// What the adapter maps onto the engine's mechanisms.
const FEATURES: &[&str] = &[
    "counters",
    "set",
    "modify",
    "damage",
    "deathtouch",
    "wither",
    "infect",
    "lifelink",
    "indestructible",
    "destroy",
    "regeneration",
    "deferred-sba",
    "zones",
    "combat-damage",
    "cleanup",
    // Only a printed mana cost on an object (the card's `ManaCost`); casting,
    // X and the rest of the feature are answered `unsupported`.
    "spells",
];
/// Last known information: the engine keeps only a power and toughness
/// (`lki_power`), not the object; not reported.
const UNOBSERVED: &[&str] = &["lki"];

/// ptoracle's keyword names and Forge's.
const KEYWORDS: &[(&str, &str)] = &[
    ("flying", "Flying"),
    ("first strike", "First Strike"),
    ("double strike", "Double Strike"),
    ("deathtouch", "Deathtouch"),
    ("decayed", "Decayed"),
    ("exalted", "Exalted"),
    ("haste", "Haste"),
    ("hexproof", "Hexproof"),
    ("indestructible", "Indestructible"),
    ("lifelink", "Lifelink"),
    ("menace", "Menace"),
    ("reach", "Reach"),
    ("shadow", "Shadow"),
    ("trample", "Trample"),
    ("vigilance", "Vigilance"),
    ("defender", "Defender"),
    ("wither", "Wither"),
    ("infect", "Infect"),
];

const TYPES: &[(&str, CoreType)] = &[
    ("Artifact", CoreType::Artifact),
    ("Battle", CoreType::Battle),
    ("Creature", CoreType::Creature),
    ("Enchantment", CoreType::Enchantment),
    ("Instant", CoreType::Instant),
    ("Kindred", CoreType::Kindred),
    ("Land", CoreType::Land),
    ("Planeswalker", CoreType::Planeswalker),
    ("Sorcery", CoreType::Sorcery),
];

const COLORS: &[(&str, ColorSet)] = &[
    ("white", ColorSet::WHITE),
    ("blue", ColorSet::BLUE),
    ("black", ColorSet::BLACK),
    ("red", ColorSet::RED),
    ("green", ColorSet::GREEN),
];

type Res<T> = Result<T, Failure>;

enum Failure {
    Unsupported(String),
    Error(String),
}

fn unsupported<T>(msg: impl Into<String>) -> Res<T> {
    Err(Failure::Unsupported(msg.into()))
}

fn error<T>(msg: impl Into<String>) -> Res<T> {
    Err(Failure::Error(msg.into()))
}

fn counter_kind(kind: &str) -> Option<CounterType> {
    match kind {
        "+1/+1" => Some(CounterType::P1P1),
        "-1/-1" => Some(CounterType::M1M1),
        _ => None,
    }
}

fn forge_keyword(name: &str) -> Option<&'static str> {
    KEYWORDS.iter().find(|(k, _)| *k == name).map(|(_, f)| *f)
}

/// An amount that is a number (an amount read from the game is not mapped).
fn fixed(v: &Value, where_: &str) -> Res<i64> {
    match v.as_i64() {
        Some(n) => Ok(n),
        None => unsupported(format!("{where_}: an amount read from the game ({v})")),
    }
}

/// A value that fits the engine's `i32` P/T, counters, damage and life.
fn small(n: i64, where_: &str) -> Res<i32> {
    i32::try_from(n).map_err(|_| {
        Failure::Unsupported(format!(
            "{where_}: {n} does not fit the engine's 32-bit values"
        ))
    })
}

/// `2/3`, `+1/-2`, `X/X` with `x`.
fn parse_pt(text: &str, where_: &str, x: Option<i64>, signed: bool) -> Res<(i64, i64)> {
    let parts: Vec<&str> = text.split('/').collect();
    if parts.len() != 2 {
        return unsupported(format!("{where_}: the value {text:?}"));
    }
    let mut out = [0i64; 2];
    for (i, part) in parts.iter().enumerate() {
        let (sign, body) = if signed {
            match part.as_bytes().first() {
                Some(b'-') => (-1, &part[1..]),
                Some(b'+') => (1, &part[1..]),
                _ => (1, *part),
            }
        } else {
            (1, *part)
        };
        let value = if body == "X" {
            match x {
                None => return unsupported(format!("{where_}: X without a value")),
                // 107.1b: a +X with a negative X counts as 0 for a modification.
                Some(x) if signed && x < 0 => 0,
                Some(x) => x,
            }
        } else if let Ok(n) = body.parse::<i64>() {
            n
        } else {
            return unsupported(format!(
                "{where_}: the value {text:?} (characteristic-defining or `*`)"
            ));
        };
        out[i] = sign * value;
    }
    Ok((out[0], out[1]))
}

fn empty(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) | Some(Value::Bool(false)) => true,
        Some(Value::Array(a)) => a.is_empty(),
        Some(Value::Object(o)) => o.is_empty(),
        _ => false,
    }
}

/// Refuses, with the reason, what the adapter does not map.
fn check(case: &Value) -> Res<()> {
    let setup = &case["setup"];
    let players = setup["players"].as_array().cloned().unwrap_or_default();
    if players.len() > 2 {
        return unsupported("more than two players");
    }
    let mut handles: Vec<String> = players
        .iter()
        .filter_map(|p| p["id"].as_str().map(String::from))
        .collect();
    if handles.is_empty() {
        handles = vec!["you".into(), "opponent".into()];
    }
    for p in &players {
        let id = p["id"].as_str().unwrap_or("?");
        for key in ["mana", "snow_mana", "hand"] {
            if !empty(p.get(key)) && p.get(key) != Some(&json!(0)) {
                return unsupported(format!("player {id}: `{key}`"));
            }
        }
        small(fixed(p.get("life").unwrap_or(&json!(20)), id)?, id)?;
        small(fixed(p.get("poison").unwrap_or(&json!(0)), id)?, id)?;
    }
    for o in setup["objects"].as_array().cloned().unwrap_or_default() {
        let where_ = format!("setup object {}", o["id"].as_str().unwrap_or("?"));
        let zone = o["zone"].as_str().unwrap_or("battlefield");
        if zone_type(zone).is_none() || zone == "stack" {
            return unsupported(format!("{where_}: an object in the zone {zone}"));
        }
        if zone != "battlefield"
            && (!empty(o.get("damage")) && o.get("damage") != Some(&json!(0))
                || o["tapped"].as_bool() == Some(true)
                || !empty(o.get("regeneration_shields"))
                    && o.get("regeneration_shields") != Some(&json!(0))
                || o["deathtouch_damage"].as_bool() == Some(true))
        {
            return unsupported(format!(
                "{where_}: permanent state on a card off the battlefield"
            ));
        }
        if let Some(cost) = o["mana_cost"].as_str() {
            if cost.contains('X') || cost.contains('S') {
                return unsupported(format!("{where_}: the mana cost {cost} (X and snow mana)"));
            }
        }
        for key in [
            "cda",
            "abilities",
            "level_up",
            "crew",
            "attached_to",
            "max_counters",
            "loyalty",
            "defense",
            "timestamp",
            "sick",
            "enters_with",
            "chapters",
            "counter_triggers",
            "x",
            "x_is",
            "on_resolve",
            "choose",
            "enters_as",
            "cant_have_counters_put",
            "counters_put_by",
            "snow",
        ] {
            if !empty(o.get(key)) {
                return unsupported(format!("{where_}: `{key}`"));
            }
        }
        for t in o["types"].as_array().cloned().unwrap_or_default() {
            let t = t.as_str().unwrap_or("");
            if !TYPES.iter().any(|(n, _)| *n == t) {
                return unsupported(format!("{where_}: the card type {t}"));
            }
        }
        if let Some(pt) = o["pt"].as_str() {
            let (p, t) = parse_pt(pt, &where_, None, false)?;
            small(p, &where_)?;
            small(t, &where_)?;
        }
        if let Some(counters) = o["counters"].as_object() {
            for (kind, n) in counters {
                if counter_kind(kind).is_none() {
                    return unsupported(format!(
                        "{where_}: {kind} counters (the engine counts +1/+1 and -1/-1 counters only)"
                    ));
                }
                small(fixed(n, &where_)?, &where_)?;
            }
        }
        for k in o["keywords"].as_array().cloned().unwrap_or_default() {
            let k = k.as_str().unwrap_or("");
            if forge_keyword(k).is_none() {
                return unsupported(format!("{where_}: the keyword {k}"));
            }
        }
        small(
            fixed(o.get("damage").unwrap_or(&json!(0)), &where_)?,
            &where_,
        )?;
        small(
            fixed(o.get("regeneration_shields").unwrap_or(&json!(0)), &where_)?,
            &where_,
        )?;
    }
    for (i, step) in case["steps"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let where_ = format!("step {}", i + 1);
        let action = &step["do"];
        if action.as_str() == Some("state_based_actions") || action.as_str() == Some("cleanup") {
            continue;
        }
        let Some(obj) = action.as_object() else {
            return unsupported(format!(
                "{where_}: the step `{}`",
                action.as_str().unwrap_or("?")
            ));
        };
        let Some((name, body)) = obj.iter().next() else {
            return unsupported(format!("{where_}: an empty step"));
        };
        match name.as_str() {
            "put_counters" | "remove_counters" => {
                let on = if name == "put_counters" {
                    &body["on"]
                } else {
                    &body["from"]
                };
                let kind = body["kind"].as_str().unwrap_or("");
                if handles.iter().any(|h| Some(h.as_str()) == on.as_str()) {
                    if name != "put_counters" || kind != "poison" {
                        return unsupported(format!("{where_}: {kind} counters on a player"));
                    }
                    small(
                        fixed(body.get("count").unwrap_or(&json!(1)), &where_)?,
                        &where_,
                    )?;
                    if !empty(body.get("by")) {
                        return unsupported(format!("{where_}: `by`"));
                    }
                    continue;
                }
                if counter_kind(kind).is_none() {
                    return unsupported(format!(
                        "{where_}: {kind} counters (the engine counts +1/+1 and -1/-1 counters only)"
                    ));
                }
                small(
                    fixed(body.get("count").unwrap_or(&json!(1)), &where_)?,
                    &where_,
                )?;
                if !empty(body.get("by")) {
                    return unsupported(format!("{where_}: `by`"));
                }
            }
            "effect" => {
                if !body["affects"].is_array() {
                    return unsupported(format!(
                        "{where_}: an effect whose affected set is a filter"
                    ));
                }
                let allowed = ["name", "source", "affects", "until", "x", "set", "modify"];
                let mut extra: Vec<&String> = body
                    .as_object()
                    .unwrap()
                    .keys()
                    .filter(|k| !allowed.contains(&k.as_str()))
                    .collect();
                extra.sort();
                if !extra.is_empty() {
                    return unsupported(format!("{where_}: effect parts {extra:?}"));
                }
                let until = body["until"].as_str().unwrap_or("");
                if until != "end-of-turn" && until != "forever" {
                    return unsupported(format!("{where_}: the duration {until}"));
                }
                let x = match body.get("x") {
                    Some(v) if !v.is_null() => Some(fixed(v, &where_)?),
                    _ => None,
                };
                if let Some(s) = body["set"].as_str() {
                    let (p, t) = parse_pt(s, &where_, x, false)?;
                    small(p, &where_)?;
                    small(t, &where_)?;
                }
                if let Some(s) = body["modify"].as_str() {
                    let (p, t) = parse_pt(s, &where_, x, true)?;
                    small(p, &where_)?;
                    small(t, &where_)?;
                }
                if body.get("set").is_none() && body.get("modify").is_none() {
                    return unsupported(format!("{where_}: an effect that changes no P/T"));
                }
            }
            "destroy" | "regenerate" => {
                if handles.iter().any(|h| Some(h.as_str()) == body.as_str()) {
                    return unsupported(format!("{where_}: `{name}` of a player"));
                }
            }
            "damage" => {
                let n = fixed(&body["amount"], &where_)?;
                small(n, &where_)?;
                let from = body["from"].as_str().unwrap_or("");
                if handles.iter().any(|h| h == from) {
                    return unsupported(format!("{where_}: damage from a player"));
                }
                for key in body.as_object().unwrap().keys() {
                    if !["from", "to", "amount"].contains(&key.as_str()) {
                        return unsupported(format!("{where_}: damage with `{key}`"));
                    }
                }
            }
            "combat_damage" => {
                for e in body.as_array().cloned().unwrap_or_default() {
                    for key in e
                        .as_object()
                        .map(|o| o.keys().cloned().collect())
                        .unwrap_or(Vec::<String>::new())
                    {
                        if key != "from" && key != "to" {
                            return unsupported(format!(
                                "{where_}: combat damage with `{key}` (the engine's creatures deal their power)"
                            ));
                        }
                    }
                }
            }
            "move" => {
                let to = body["to"].as_str().unwrap_or("");
                if zone_type(to).is_none() || to == "stack" {
                    return unsupported(format!("{where_}: a move to the zone {to}"));
                }
                for key in body.as_object().unwrap().keys() {
                    if !["object", "to"].contains(&key.as_str()) {
                        return unsupported(format!("{where_}: a move with `{key}`"));
                    }
                }
            }
            other => return unsupported(format!("{where_}: the step `{other}`")),
        }
    }
    Ok(())
}

fn zone_type(zone: &str) -> Option<ZoneType> {
    Some(match zone {
        "battlefield" => ZoneType::Battlefield,
        "graveyard" => ZoneType::Graveyard,
        "exile" => ZoneType::Exile,
        "hand" => ZoneType::Hand,
        "library" => ZoneType::Library,
        "command" => ZoneType::Command,
        "stack" => ZoneType::Stack,
        _ => return None,
    })
}

/// `{2}{G}{G}` in Forge's notation, `2 G G`.
fn forge_cost(cost: &str) -> String {
    cost.split('}')
        .map(|s| s.trim_start_matches('{'))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

struct Game {
    g: GameState,
    game_loop: GameLoop,
    agents: Vec<Box<dyn PlayerAgent>>,
    /// Case handles of the players, in seat order.
    players: Vec<String>,
    /// Case handles of the objects and their cards.
    objects: Vec<(String, CardId)>,
    /// The program being written, when the case is played for a
    /// reproduction (`repro.rs`): each call into the engine adds its lines.
    code: Option<repro::Code>,
}

impl Game {
    fn new(case: &Value, code: Option<repro::Code>) -> Res<Game> {
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
        for o in setup["objects"].as_array().cloned().unwrap_or_default() {
            game.put_card(&o)?;
        }
        Ok(game)
    }

    fn seat(&self, handle: &str) -> Option<PlayerId> {
        self.players
            .iter()
            .position(|p| p == handle)
            .map(|i| PlayerId(i as u32))
    }

    fn card_of(&self, handle: &str, where_: &str) -> Res<CardId> {
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
            Vec::new(),
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
            // Set up on the battlefield since before the turn: not summoning sick.
            c.summoning_sick = false;
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

    fn creature_target(&self, handle: &str, where_: &str) -> Res<CardId> {
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
        Ok(id)
    }

    /// The engine's state-based actions, until none applies (704.3).
    fn sba(&mut self) -> Res<()> {
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

    fn play(&mut self, step: &Value, where_: &str) -> Res<()> {
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
            "move" => {
                // The engine's zone change (`GameState::move_card`, which
                // makes the card a new object, 400.7), to its owner's zone.
                let id = self.card_of(body["object"].as_str().unwrap_or(""), where_)?;
                let zone = zone_type(body["to"].as_str().unwrap_or("")).unwrap();
                let owner = self.g.card(id).owner;
                if let Some(code) = &mut self.code {
                    let var = code.var(id.0);
                    code.line(format!(
                        "g.move_card({var}, ZoneType::{zone:?}, PlayerId({}));",
                        owner.0
                    ));
                }
                self.g.move_card(id, zone, owner);
            }
            "put_counters" | "remove_counters" => {
                let put = name == "put_counters";
                let on = if put { &body["on"] } else { &body["from"] };
                let tgt = self.creature_target(on.as_str().unwrap_or(""), where_)?;
                let n = body.get("count").and_then(Value::as_i64).unwrap_or(1);
                let kind = if body["kind"] == "+1/+1" {
                    "P1P1"
                } else {
                    "M1M1"
                };
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
                let forever = body["until"] == "forever";
                let duration = if forever {
                    " | Duration$ Permanent"
                } else {
                    ""
                };
                for h in body["affects"].as_array().unwrap() {
                    let tgt = self.creature_target(h.as_str().unwrap_or(""), where_)?;
                    if let Some(s) = body["set"].as_str() {
                        let (p, t) = parse_pt(s, where_, x, false)?;
                        let src = self.spell_card(you, "ptoracle set");
                        let text = format!(
                            "SP$ Animate | ValidTgts$ Creature | Power$ {p} | Toughness$ {t}{duration}"
                        );
                        self.resolve(src, you, &text, Some(tgt), None, sba)?;
                    }
                    if let Some(s) = body["modify"].as_str() {
                        let (p, t) = parse_pt(s, where_, x, true)?;
                        let src = self.spell_card(you, "ptoracle modify");
                        let text = format!(
                            "SP$ Pump | ValidTgts$ Creature | NumAtt$ {p:+} | NumDef$ {t:+}{duration}"
                        );
                        self.resolve(src, you, &text, Some(tgt), None, sba)?;
                    }
                }
            }
            "destroy" => {
                let tgt = self.creature_target(body.as_str().unwrap_or(""), where_)?;
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
            "regenerate" => {
                let tgt = self.creature_target(body.as_str().unwrap_or(""), where_)?;
                let src = self.spell_card(you, "ptoracle regenerate");
                self.resolve(
                    src,
                    you,
                    "SP$ Regenerate | ValidTgts$ Creature",
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

    /// A `combat_damage` step through the engine's combat: each creature
    /// dealing damage to a player attacks that player; two creatures that
    /// deal damage to each other are an attacker (controlled by the
    /// attacking player) and its blocker. Then the engine's combat damage
    /// step (`CombatState::resolve_damage_step`, regular damage) and the
    /// counters it puts (wither, infect: its counter table).
    fn combat(&mut self, body: &Value, where_: &str) -> Res<()> {
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
        let has_pt = c.is_creature() && c.base_power.is_some() && c.base_toughness.is_some();
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
            let name = match kind {
                CounterType::P1P1 => "+1/+1".to_string(),
                CounterType::M1M1 => "-1/-1".to_string(),
                other => format!("{other:?}").to_lowercase(),
            };
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
            "regeneration_shields": c.regeneration_shields,
            "attached_to": Value::Null,
        })
    }

    fn observe(&self) -> Value {
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

/// The observations after each step, and the error that stopped the case
/// (`invalid`: a step the engine's game cannot play, as it went another way
/// before), if any.
fn run(case: &Value) -> Res<(Vec<Value>, Option<Value>)> {
    check(case)?;
    let mut game = Game::new(case, None)?;
    let mut out = Vec::new();
    for (k, step) in case["steps"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let where_ = format!("step {}", k + 1);
        if game.g.game_over {
            // The engine's game is over once a player has lost (104.2a) and
            // its game loop gives no more priority, while ptoracle's
            // scenarios play on.
            return unsupported(format!(
                "{where_}: a player has lost the game, which manabrew ends there"
            ));
        }
        match game.play(step, &where_) {
            Ok(()) => out.push(game.observe()),
            Err(Failure::Error(m)) => {
                let e = json!({"step": k, "code": "invalid", "message": m});
                return Ok((out, Some(e)));
            }
            Err(u) => return Err(u),
        }
    }
    Ok((out, None))
}

/// The reproduction a `reproduce` request asks for (`repro.rs`): the case
/// played again up to the step where the engine differs, each call into the
/// engine written into the program.
fn reproduce(message: &Value) -> Res<String> {
    let case = &message["case"];
    check(case)?;
    let last = message["differences"]
        .as_array()
        .and_then(|d| d.iter().filter_map(|d| d["step"].as_u64()).max())
        .unwrap_or(0) as usize;
    let mut game = Game::new(case, Some(repro::Code::default()))?;
    for (k, step) in case["steps"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .enumerate()
        .take(last + 1)
    {
        if let Some(code) = &mut game.code {
            code.comment(&format!("Step {}: {}", k + 1, step["do"]));
        }
        game.play(step, &format!("step {}", k + 1))?;
    }
    let objects: Vec<(String, u32)> = game
        .objects
        .iter()
        .map(|(h, id)| (h.clone(), id.0))
        .collect();
    let code = game.code.take().unwrap_or_default();
    code.program(message, &objects, &game.players)
        .map_err(Failure::Unsupported)
}

fn hello(offer: &Value) -> Value {
    let mut reply = json!({
        "type": "hello",
        "protocol": PROTOCOL,
        "engine": {
            "name": "manabrew-engine",
            "version": ENGINE_VERSION,
            "issues": "https://github.com/witchesofthehill/manabrew/issues",
        },
        "features": FEATURES,
        "editions": [EDITION],
        "unobserved": UNOBSERVED,
    });
    if offer.get("pipeline").is_some() {
        // One request at a time from stdin, answered in order.
        reply["pipeline"] = json!(16);
    }
    if offer["reproduce"] == true {
        reply["reproduce"] = json!({"language": "rust", "extension": "rs", "run": repro::RUN});
    }
    reply
}

fn answer(message: &Value) -> Value {
    let seq = message.get("seq").cloned().unwrap_or(Value::Null);
    match message["type"].as_str() {
        Some("hello") => hello(message),
        Some("reproduce") => {
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| reproduce(message)));
            match result {
                Ok(Ok(program)) => json!({"type": "reproduction", "seq": seq, "program": program}),
                Ok(Err(Failure::Unsupported(reason))) => {
                    json!({"type": "unsupported", "seq": seq, "reason": reason})
                }
                Ok(Err(Failure::Error(m))) => json!({"type": "error", "seq": seq, "message": m}),
                Err(_) => json!({"type": "error", "seq": seq, "message": "the engine panicked"}),
            }
        }
        Some("run") => {
            if message["edition"].as_str() != Some(EDITION) {
                return json!({"type": "unsupported", "seq": seq,
                    "reason": format!("edition {} (manabrew implements today's rules, {EDITION})", message["edition"])});
            }
            let case = &message["case"];
            // The engine may panic on a case it was not written for: that is
            // an error of the case, and the adapter stays up.
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(case)));
            match result {
                Ok(Ok((steps, None))) => json!({"type": "result", "seq": seq, "steps": steps}),
                Ok(Ok((steps, Some(e)))) => {
                    json!({"type": "result", "seq": seq, "steps": steps, "error": e})
                }
                Ok(Err(Failure::Unsupported(reason))) => {
                    json!({"type": "unsupported", "seq": seq, "reason": reason})
                }
                Ok(Err(Failure::Error(m))) => json!({"type": "error", "seq": seq, "message": m}),
                Err(panic) => {
                    let m = panic
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "unknown panic".into());
                    json!({"type": "error", "seq": seq, "message": format!("the engine panicked: {m}")})
                }
            }
        }
        other => {
            json!({"type": "error", "seq": seq, "message": format!("unknown message type {other:?}")})
        }
    }
}

fn main() {
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(&line) {
            Ok(message) => {
                if message["type"] == "bye" {
                    return;
                }
                answer(&message)
            }
            Err(e) => {
                json!({"type": "error", "seq": Value::Null, "message": format!("bad JSON: {e}")})
            }
        };
        let _ = writeln!(stdout, "{reply}");
        let _ = stdout.flush();
    }
}
