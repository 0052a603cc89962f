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

use serde_json::{json, Value};

mod check;
mod combat;
mod game;
mod observe;
mod repro;
mod script;
mod terms;

use check::check;
use game::Game;

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
    "combat",
    "cleanup",
    "static-abilities",
    "ability-changes",
    "type-changes",
    "color-changes",
    "timestamps",
    "locked-sets",
    "inert-keywords",
    "keyword-counters",
    "other-counters",
    "prevention",
    "summoning-sickness",
    "undying",
    "persist",
    "control-changes",
    // Two creatures' powers only (Forge's `ExchangePower`); the rest of
    // the feature is answered `unsupported`.
    "exchange",
    // Loyalty, damage to planeswalkers, attacks on them: the engine's.
    "planeswalkers",
    // Power, toughness or both, as Unleash Fury's script does it.
    "double",
    "triple",
    // Only a printed mana cost on an object (the card's `ManaCost`); casting,
    // X and the rest of the feature are answered `unsupported`.
    "spells",
];
/// Last known information: the engine keeps only a power and toughness
/// (`lki_power`), not the object; not reported.
const UNOBSERVED: &[&str] = &["lki"];

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
