//! manabrew-engine: A keyword a creature lost until end of turn stays lost on its card after it dies
//!
//! Radjan Spirit makes the opponent's Serra Angel (4/4, flying, vigilance) lose
//! flying until end of turn; then Murder destroys the Angel. The effect applied to
//! the permanent, and the card in the graveyard is a new object it does not apply
//! to (400.7, 611.2c): the card has flying. Put back onto the battlefield the same
//! turn, it is a new permanent with flying again. manabrew's `Debuff` writes the
//! lost keyword in the card's `cant_have_keywords`, which only the cleanup step
//! clears (`phase_handler.rs`): the card in the graveyard and the Angel returned
//! from it lack flying until the turn ends. The same holds for Exterminatus and
//! Hour of Devastation's "lose indestructible until end of turn". Found by the gate
//! with generated cases (seed 1: generated/1/9204).
//!
//! Comprehensive Rules 400.7, 611.2c, 613.1f; ptoracle case manabrew/a-keyword-lost-until-end-of-turn-stays-lost-on-the-card, edition 2026-09-25.
//!
//! Run: cargo run --release --bin NAME in ci/adapters/manabrew/repro (a Cargo project with manabrew-engine 0.13.1; this file is its src/bin/NAME.rs)
//! It prints the engine's value of each field beside the rules' (ptoracle's
//! reference resolver), and exits 1 while one differs, 0 once they all agree.
//! Written by ptoracle's manabrew adapter (`ptoracle gate --reproduce`); it needs
//! only manabrew-engine (and serde_json, to compare the values).

// The helpers below serve every reproduction; a case uses some of them.
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

/// Forge's names of the keywords the adapter maps.
const KEYWORD_NAMES: &[&str] = &["Flying", "First Strike", "Double Strike", "Deathtouch", "Decayed", "Exalted", "Haste", "Hexproof", "Indestructible", "Lifelink", "Menace", "Reach", "Shadow", "Trample", "Vigilance", "Defender", "Wither", "Infect", "Undying", "Persist", "Changeling", "Flash", "Shroud", "Fear", "Intimidate", "Horsemanship", "Banding", "Landwalk:Island"];

const CHECKS: &[(usize, &str, &str, &str)] = &[ // (after step, object or player, field, the rules' value, as JSON)
    (2, "angel", "keywords", "[\"flying\",\"vigilance\"]"),
];

fn main() {
    let mut g = GameState::new(&["you", "opponent"], 20);
    let mut game_loop = GameLoop::new(2);
    let mut agents: Vec<Box<dyn PlayerAgent>> = vec![Box::new(PassAgent), Box::new(PassAgent)];

    // The case's setup: each card built and put in its zone, with what the setup gives it written on it (the engine has no action for a chosen state).
    let card_angel = g.create_card(Card::new(CardId(0), "Serra Angel".to_string(), PlayerId(1), CardTypeLine::parse("Creature — Angel"), ManaCost::parse("3 W W"), ColorSet::COLORLESS.union(ColorSet::WHITE), Some(4), Some(4), vec!["Flying".to_string(), "Vigilance".to_string()], Vec::new()));
    g.move_card(card_angel, ZoneType::Battlefield, PlayerId(1));
    g.card_mut(card_angel).summoning_sick = false;

    // Step 1: {"effect":{"affects":["angel"],"remove_keywords":["flying"],"until":"end-of-turn"}}
    let spell_1 = g.create_card(instant("ptoracle debuff", PlayerId(0)));
    g.move_card(spell_1, ZoneType::Stack, PlayerId(0));
    resolve(&mut g, &mut game_loop, &mut agents, spell_1, PlayerId(0), "SP$ Debuff | ValidTgts$ Creature | Keywords$ Flying", Some(card_angel), None);
    sba(&mut g);

    // Step 2: {"destroy":"angel"}
    let spell_2 = g.create_card(instant("ptoracle destroy", PlayerId(0)));
    g.move_card(spell_2, ZoneType::Stack, PlayerId(0));
    resolve(&mut g, &mut game_loop, &mut agents, spell_2, PlayerId(0), "SP$ Destroy | ValidTgts$ Permanent", Some(card_angel), None);
    sba(&mut g);

    // The engine's values, after step 2.
    let mut seen = Vec::new();
    seen.push((2, "angel", "keywords", observe(&g, card_angel)["keywords"].clone()));
    std::process::exit(report(&seen));
}
