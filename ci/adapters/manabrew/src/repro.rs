// SPDX-License-Identifier: AGPL-3.0-or-later
//! Reproductions (ptoracle's docs/protocol.md, "Reproductions"): a case the
//! engine failed, written as a standalone Rust program against
//! manabrew-engine alone, a bin of the crate in `../repro/`.
//!
//! The program is what the adapter did, recorded as it plays the case
//! again (`Code`, which `Game` writes into at each call it makes into the
//! engine): the game, each card built and put in its zone with the state
//! the setup gives it, each spell or ability put on the engine's stack and
//! resolved, the state-based actions, the cleanup step, up to the step
//! where the engine differs from the rules; then the fields that differ,
//! read from the engine, beside the rules' values.

use serde_json::Value;

/// The program's lines, as the adapter plays the case.
#[derive(Default)]
pub struct Code {
    lines: Vec<String>,
    /// The variable of each card the program makes, by the engine's id.
    names: Vec<(u32, String)>,
    spells: usize,
}

/// A Rust string literal.
fn lit(s: &str) -> String {
    format!("{s:?}")
}

impl Code {
    /// A line of the program.
    pub fn line(&mut self, text: impl Into<String>) {
        self.lines.push(text.into());
    }

    /// A comment, after a blank line.
    pub fn comment(&mut self, text: &str) {
        self.lines.push(String::new());
        self.lines.push(format!("// {text}"));
    }

    /// The variable of the card with engine id `id`.
    pub fn var(&self, id: u32) -> String {
        self.names
            .iter()
            .find(|(i, _)| *i == id)
            .map_or(format!("CardId({id})"), |(_, n)| n.clone())
    }

    /// The game and its players.
    pub fn game(&mut self, players: &[String], life: &[(i32, i32)]) {
        let names: Vec<String> = players.iter().map(|p| lit(p)).collect();
        self.line(format!(
            "let mut g = GameState::new(&[{}], 20);",
            names.join(", ")
        ));
        for (i, (l, poison)) in life.iter().enumerate() {
            if *l != 20 {
                self.line(format!("g.player_mut(PlayerId({i})).life = {l};"));
            }
            if *poison != 0 {
                self.line(format!(
                    "g.player_mut(PlayerId({i})).poison_counters = {poison};"
                ));
            }
        }
        self.line("let mut game_loop = GameLoop::new(2);");
        self.line(
            "let mut agents: Vec<Box<dyn PlayerAgent>> = vec![Box::new(PassAgent), Box::new(PassAgent)];",
        );
    }

    /// A card of the case (its handle `handle`), created and moved to its
    /// zone; `card` is the `Card::new(...)` expression.
    pub fn card(&mut self, handle: &str, id: u32, card: &str, zone: &str, owner: u32) {
        let var = format!(
            "card_{}",
            handle
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                })
                .collect::<String>()
        );
        self.line(format!("let {var} = g.create_card({card});"));
        self.line(format!(
            "g.move_card({var}, ZoneType::{zone}, PlayerId({owner}));"
        ));
        self.names.push((id, var));
    }

    /// A state the setup gives a card, written on it: the engine has no
    /// action that puts a chosen card with counters or damage in a zone.
    pub fn set(&mut self, id: u32, field: &str, value: &str) {
        let var = self.var(id);
        self.line(format!("g.card_mut({var}).{field} = {value};"));
    }

    /// Counters the setup gives a card.
    pub fn counters(&mut self, id: u32, kind: &str, n: i32) {
        let var = self.var(id);
        let kind = match kind {
            "P1P1" | "M1M1" => format!("CounterType::{kind}"),
            other => format!("manabrew_engine::card::counter_type::parse_counter_type({other:?})"),
        };
        self.line(format!("g.card_mut({var}).add_counter(&{kind}, {n});"));
    }

    /// A new instant on the stack, the source of the adapter's spell.
    pub fn spell(&mut self, id: u32, name: &str, controller: u32) {
        self.spells += 1;
        let var = format!("spell_{}", self.spells);
        self.line(format!(
            "let {var} = g.create_card(instant({}, PlayerId({controller})));",
            lit(name)
        ));
        self.line(format!(
            "g.move_card({var}, ZoneType::Stack, PlayerId({controller}));"
        ));
        self.names.push((id, var));
    }

    /// A spell or ability put on the engine's stack and resolved.
    pub fn resolve(
        &mut self,
        source: u32,
        controller: u32,
        text: &str,
        card: Option<u32>,
        player: Option<u32>,
    ) {
        let card = card.map_or("None".to_string(), |c| format!("Some({})", self.var(c)));
        let player = player.map_or("None".to_string(), |p| format!("Some(PlayerId({p}))"));
        let source = self.var(source);
        self.line(format!(
            "resolve(&mut g, &mut game_loop, &mut agents, {source}, PlayerId({controller}), {}, {card}, {player});",
            lit(text)
        ));
    }

    /// The program: `message` is the `reproduce` request, `objects` the
    /// case's handles with their engine ids, `players` its players.
    pub fn program(
        &self,
        message: &Value,
        objects: &[(String, u32)],
        players: &[String],
    ) -> Result<String, String> {
        let case = &message["case"];
        let mut checks = Vec::new();
        let mut reads = Vec::new();
        let mut last = 0;
        for d in message["differences"]
            .as_array()
            .cloned()
            .unwrap_or_default()
        {
            let step = d["step"].as_u64().unwrap_or(0) as usize;
            last = last.max(step);
            let who = d["of"].as_str().unwrap_or("");
            let field = d["field"].as_str().unwrap_or("");
            if !OBSERVED.contains(&field) {
                return Err(format!("the reproduction does not read `{field}`"));
            }
            checks.push(format!(
                "    ({}, {}, {}, {}),",
                step + 1,
                lit(who),
                lit(field),
                lit(&d["reference"].to_string())
            ));
            let at = match objects.iter().find(|(h, _)| h == who) {
                Some((_, id)) => format!("observe(&g, {})", self.var(*id)),
                None => match players.iter().position(|p| p == who) {
                    Some(i) => format!("observe_player(&g, PlayerId({i}))"),
                    None => return Err(format!("{who} is no object or player of the case")),
                },
            };
            reads.push(format!(
                "    seen.push(({}, {}, {}, {at}[{}].clone()));",
                step + 1,
                lit(who),
                lit(field),
                lit(field)
            ));
        }
        if checks.is_empty() {
            return Err("the request names no field that differs".into());
        }
        let mut doc = vec![format!(
            "//! manabrew-engine: {}",
            case["title"].as_str().unwrap_or("")
        )];
        doc.push("//!".into());
        for line in wrap(case["description"].as_str().unwrap_or("")) {
            doc.push(format!("//! {line}").trim_end().to_string());
        }
        let rules: Vec<&str> = case["rules"]
            .as_array()
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        doc.push("//!".into());
        doc.push(format!(
            "//! Comprehensive Rules {}; ptoracle case {}, edition {}.",
            rules.join(", "),
            case["id"].as_str().unwrap_or(""),
            message["edition"].as_str().unwrap_or("")
        ));
        doc.push("//!".into());
        doc.push(format!("//! Run: {RUN}").replace("FILE", "this file"));
        doc.push(
            "//! It prints the engine's value of each field beside the rules' (ptoracle's".into(),
        );
        doc.push(
            "//! reference resolver), and exits 1 while one differs, 0 once they all agree.".into(),
        );
        doc.push(
            "//! Written by ptoracle's manabrew adapter (`ptoracle gate --reproduce`); it needs"
                .into(),
        );
        doc.push("//! only manabrew-engine (and serde_json, to compare the values).".into());
        let body: Vec<String> = self
            .lines
            .iter()
            .map(|l| {
                if l.is_empty() {
                    String::new()
                } else {
                    format!("    {l}")
                }
            })
            .collect();
        Ok(format!(
            "{}\n\n{PRELUDE}\n/// Forge's names of the keywords the adapter maps.\nconst KEYWORD_NAMES: &[&str] = &[{}];\n\nconst CHECKS: &[(usize, &str, &str, &str)] = &[ // (after step, object or player, field, the rules' value, as JSON)\n{}\n];\n\nfn main() {{\n{}\n\n    // The engine's values, after step {}.\n    let mut seen = Vec::new();\n{}\n    std::process::exit(report(&seen));\n}}\n",
            doc.join("\n"),
            crate::terms::KEYWORDS
                .iter()
                .map(|(_, f)| lit(f))
                .collect::<Vec<_>>()
                .join(", "),
            checks.join("\n"),
            body.join("\n").trim_start_matches('\n'),
            last + 1,
            reads.join("\n")
        ))
    }
}

/// How a program is run.
pub const RUN: &str = "cargo run --release --bin NAME in ci/adapters/manabrew/repro (a Cargo project with manabrew-engine 0.13.1; FILE is its src/bin/NAME.rs)";

/// The fields a program reads.
const OBSERVED: &[&str] = &[
    "zone",
    "power",
    "toughness",
    "base_power",
    "base_toughness",
    "total",
    "combat_damage",
    "counters",
    "damage",
    "deathtouch_damage",
    "tapped",
    "regeneration_shields",
    "keywords",
    "types",
    "summoning_sick",
    "life",
    "poison",
    "lost",
];

fn wrap(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > 80 {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push(line);
    }
    out
}

const PRELUDE: &str = r#"// The helpers below serve every reproduction; a case uses some of them.
#![allow(dead_code, unused_mut, unused_variables)]

use forge_foundation::{CardTypeLine, ColorSet, ManaCost, ZoneType};
use manabrew_engine::agent::{PassAgent, PlayerAgent};
use manabrew_engine::card::{Card, CounterType};
use manabrew_engine::game::GameState;
use manabrew_engine::game_loop::GameLoop;
use manabrew_engine::ids::{CardId, PlayerId};
use manabrew_engine::spellability::{SpellAbility, StackEntry};
use serde_json::{json, Value};

/// A zero-cost instant: the card of a spell the program casts.
fn instant(name: &str, controller: PlayerId) -> Card {
    Card::new(CardId(0), name.to_string(), controller, CardTypeLine::parse("Instant"),
              ManaCost::parse("{0}"), ColorSet::COLORLESS, None, None, Vec::new(), Vec::new())
}

/// Puts a spell (`SP$`) or an activated ability of `source` (`AB$`), with
/// its target, on the engine's stack, and resolves it as the engine's
/// priority loop does once every player has passed (`resolve_stack`).
#[allow(clippy::too_many_arguments)]
fn resolve(g: &mut GameState, game_loop: &mut GameLoop, agents: &mut [Box<dyn PlayerAgent>],
           source: CardId, controller: PlayerId, text: &str, card: Option<CardId>,
           player: Option<PlayerId>) {
    let mut sa = SpellAbility::new_simple(Some(source), controller, text);
    sa.target_chosen.target_card = card;
    if let Some(t) = card {
        sa.target_chosen.target_card_zone_timestamp = Some(g.card(t).zone_timestamp);
    }
    sa.target_chosen.target_player = player;
    let is_spell = text.starts_with("SP$");
    sa.is_spell = is_spell;
    sa.is_activated = !is_spell;
    g.stack.push(StackEntry {
        id: 0, spell_ability: sa, is_creature_spell: false, is_permanent_spell: false,
        is_pending_cast: false, cast_from_zone: if is_spell { Some(ZoneType::Hand) } else { None },
        optional_trigger_decider: None, optional_trigger_description: None,
        optional_trigger_source_name: None,
    });
    game_loop.resolve_stack(g, agents);
}

/// The engine's state-based actions, until none applies (704.3).
fn sba(g: &mut GameState) {
    for _ in 0..1000 {
        if !g.check_state_based_actions() {
            return;
        }
    }
    panic!("state-based actions never settle");
}

/// The fields of a card, as ptoracle's observations name them.
fn observe(g: &GameState, id: CardId) -> Value {
    let c = g.card(id);
    let zone = format!("{:?}", c.zone).to_lowercase();
    let has_pt = c.is_creature();
    let pt = |v: i32| if has_pt { json!(v) } else { Value::Null };
    let mut counters = serde_json::Map::new();
    for (kind, n) in &c.counters {
        let name = match kind {
            CounterType::P1P1 => "+1/+1".to_string(),
            CounterType::M1M1 => "-1/-1".to_string(),
            // Forge's `P1P0` is `+1/+0`.
            CounterType::Named(f) if f.len() >= 4 && f.starts_with(['P', 'M']) => {
                let i = 1 + f[1..].find(['P', 'M']).unwrap_or(0);
                let sign = |c: char| if c == 'P' { '+' } else { '-' };
                format!("{}{}/{}{}", sign(f.as_bytes()[0] as char), &f[1..i],
                        sign(f.as_bytes()[i] as char), &f[i + 1..])
            }
            CounterType::Named(f) => f.to_lowercase(),
            other => format!("{other:?}").to_lowercase(),
        };
        if *n != 0 {
            counters.insert(name, json!(n));
        }
    }
    json!({
        "zone": zone, "power": pt(c.power()), "toughness": pt(c.toughness()),
        "base_power": pt(c.static_set_power.or(c.base_power).unwrap_or(0)),
        "base_toughness": pt(c.static_set_toughness.or(c.base_toughness).unwrap_or(0)),
        "total": if has_pt { json!(c.power() as i64 + c.toughness() as i64) } else { Value::Null },
        "combat_damage": pt(c.power().max(0)), "counters": counters, "damage": c.damage,
        "deathtouch_damage": c.has_deathtouch_damage, "tapped": c.tapped,
        "regeneration_shields": c.regeneration_shields,
        "keywords": keywords(c),
        "types": types(c),
        "summoning_sick": c.zone == ZoneType::Battlefield && c.is_creature() && c.summoning_sick && !c.has_haste(),
    })
}

/// The card types of the card, sorted.
fn types(c: &Card) -> Value {
    let mut t: Vec<String> = c.type_line.core_types.iter().map(|t| format!("{t:?}")).collect();
    t.sort();
    json!(t)
}

/// The keywords the engine says the card has (`has_keyword`), by
/// ptoracle's names, sorted.
fn keywords(c: &Card) -> Value {
    let mut have: Vec<String> = KEYWORD_NAMES.iter().filter(|k| c.has_keyword(k)).map(|k| k.to_lowercase()).collect();
    have.sort();
    json!(have)
}

/// The fields of a player.
fn observe_player(g: &GameState, p: PlayerId) -> Value {
    let p = g.player(p);
    json!({"life": p.life, "poison": p.poison_counters, "lost": p.has_lost})
}

/// Prints each field, the engine's value beside the rules'; the exit
/// status: 1 while one differs.
fn report(seen: &[(usize, &str, &str, Value)]) -> i32 {
    let mut wrong = 0;
    for ((step, who, field, got), (_, _, _, want)) in seen.iter().zip(CHECKS) {
        let want: Value = serde_json::from_str(want).expect("a JSON value");
        let mark = if *got == want { "" } else { "   <- differs" };
        wrong += usize::from(*got != want);
        println!("after step {step}: {who}.{field}: engine {got}, rules {want}{mark}");
    }
    println!("{}", if wrong > 0 { "the bug is still there" } else { "fixed: the engine agrees with the rules" });
    i32::from(wrong > 0)
}
"#;

/// The `Card::new(...)` expression of a case's object, as the adapter
/// builds it.
#[allow(clippy::too_many_arguments)]
pub fn card_expr(
    name: &str,
    owner: u32,
    line: &str,
    cost: Option<&str>,
    o: &Value,
    power: Option<i32>,
    toughness: Option<i32>,
    keywords: &[String],
    abilities: &[String],
) -> String {
    let mut color = "ColorSet::COLORLESS".to_string();
    for c in o["colors"].as_array().cloned().unwrap_or_default() {
        if let Some(c) = c.as_str() {
            color = format!("{color}.union(ColorSet::{})", c.to_uppercase());
        }
    }
    let cost = cost.map_or("ManaCost::no_cost()".to_string(), |c| {
        format!("ManaCost::parse({})", lit(c))
    });
    let opt = |v: Option<i32>| v.map_or("None".to_string(), |v| format!("Some({v})"));
    let kws: Vec<String> = keywords
        .iter()
        .map(|k| format!("{}.to_string()", lit(k)))
        .collect();
    let lines: Vec<String> = abilities
        .iter()
        .map(|a| format!("{}.to_string()", lit(a)))
        .collect();
    let lines = if lines.is_empty() {
        "Vec::new()".to_string()
    } else {
        format!("vec![{}]", lines.join(", "))
    };
    format!(
        "Card::new(CardId(0), {}.to_string(), PlayerId({owner}), CardTypeLine::parse({}), {cost}, {color}, {}, {}, vec![{}], {lines})",
        lit(name),
        lit(line),
        opt(power),
        opt(toughness),
        kws.join(", ")
    )
}

impl Code {
    /// What the setup writes on a card besides its zone: counters, damage,
    /// deathtouch damage, tapped status, regeneration shields, printed
    /// loyalty; and that it
    /// has been there since before the turn (not summoning sick).
    pub fn setup_state(&mut self, id: u32, o: &Value) {
        let sick = o["sick"].as_bool().unwrap_or(false);
        self.set(id, "summoning_sick", &sick.to_string());
        if let Some(counters) = o["counters"].as_object() {
            for (kind, n) in counters {
                let n = n.as_i64().unwrap_or(0);
                let Some(kind) = crate::terms::forge_counter(kind) else {
                    continue;
                };
                if n > 0 {
                    self.counters(id, &kind, n as i32);
                }
            }
        }
        for (key, field) in [
            ("damage", "damage"),
            ("regeneration_shields", "regeneration_shields"),
        ] {
            if let Some(n) = o[key].as_i64().filter(|n| *n != 0) {
                self.set(id, field, &n.to_string());
            }
        }
        if let Some(l) = o["loyalty"].as_i64() {
            self.set(id, "initial_loyalty", &format!("Some(\"{l}\".to_string())"));
        }
        for (key, field) in [
            ("deathtouch_damage", "has_deathtouch_damage"),
            ("tapped", "tapped"),
        ] {
            if o[key].as_bool() == Some(true) {
                self.set(id, field, "true");
            }
        }
    }
}
