//! manabrew-engine: Noncombat damage from a source with wither or infect is not prevented
//!
//! The opponent casts Healing Salve to prevent the next 3 damage that would be
//! dealt to their Craw Wurm (6/4). Hateflayer (5/5, wither) then deals damage equal
//! to its power to the Wurm with its own ability. The shield prevents 3 of the 5
//! damage (615.7, 615.6); the 2 damage dealt is dealt as -1/-1 counters (120.3d,
//! 702.80a): two counters, a 4/2 that lives. manabrew's `DealDamage` puts -1/-1
//! counters for a wither or infect source directly (`damage_deal_effect.rs`,
//! `add_counter_with_context`), past its damage routine: no prevention shield
//! applies, and the counters go even on a permanent that is not a creature,
//! planeswalker or battle, which can't be dealt damage (120.1a, D8). The Wurm gets
//! five counters and dies. Found by the gate with generated cases (seed 1:
//! generated/1/2238; on noncreatures 1967, 5604, 6296).
//!
//! Comprehensive Rules 615.7, 615.6, 120.3d, 702.80a, 120.1a; ptoracle case manabrew/noncombat-wither-damage-skips-the-damage-rules, edition 2026-09-25.
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
    (2, "wurm", "combat_damage", "4"),
    (2, "wurm", "counters", "{\"-1/-1\":2}"),
    (2, "wurm", "power", "4"),
    (2, "wurm", "total", "6"),
    (2, "wurm", "toughness", "2"),
    (2, "wurm", "zone", "\"battlefield\""),
];

fn main() {
    let mut g = GameState::new(&["you", "opponent"], 20);
    let mut game_loop = GameLoop::new(2);
    let mut agents: Vec<Box<dyn PlayerAgent>> = vec![Box::new(PassAgent), Box::new(PassAgent)];

    // The case's setup: each card built and put in its zone, with what the setup gives it written on it (the engine has no action for a chosen state).
    let card_flayer = g.create_card(Card::new(CardId(0), "Hateflayer".to_string(), PlayerId(0), CardTypeLine::parse("Creature — Elemental"), ManaCost::parse("5 R R"), ColorSet::COLORLESS.union(ColorSet::RED), Some(5), Some(5), vec!["Wither".to_string()], Vec::new()));
    g.move_card(card_flayer, ZoneType::Battlefield, PlayerId(0));
    g.card_mut(card_flayer).summoning_sick = false;
    let card_wurm = g.create_card(Card::new(CardId(0), "Craw Wurm".to_string(), PlayerId(1), CardTypeLine::parse("Creature — Wurm"), ManaCost::parse("4 G G"), ColorSet::COLORLESS.union(ColorSet::GREEN), Some(6), Some(4), vec![], Vec::new()));
    g.move_card(card_wurm, ZoneType::Battlefield, PlayerId(1));
    g.card_mut(card_wurm).summoning_sick = false;

    // Step 1: {"prevent":{"amount":3,"to":"wurm"}}
    let spell_1 = g.create_card(instant("ptoracle prevent", PlayerId(0)));
    g.move_card(spell_1, ZoneType::Stack, PlayerId(0));
    resolve(&mut g, &mut game_loop, &mut agents, spell_1, PlayerId(0), "SP$ PreventDamage | ValidTgts$ Any | Amount$ 3", Some(card_wurm), None);
    sba(&mut g);

    // Step 2: {"damage":{"amount":5,"from":"flayer","to":"wurm"}}
    resolve(&mut g, &mut game_loop, &mut agents, card_flayer, PlayerId(0), "AB$ DealDamage | Cost$ 0 | ValidTgts$ Creature,Planeswalker | NumDmg$ 5", Some(card_wurm), None);
    sba(&mut g);

    // The engine's values, after step 2.
    let mut seen = Vec::new();
    seen.push((2, "wurm", "combat_damage", observe(&g, card_wurm)["combat_damage"].clone()));
    seen.push((2, "wurm", "counters", observe(&g, card_wurm)["counters"].clone()));
    seen.push((2, "wurm", "power", observe(&g, card_wurm)["power"].clone()));
    seen.push((2, "wurm", "total", observe(&g, card_wurm)["total"].clone()));
    seen.push((2, "wurm", "toughness", observe(&g, card_wurm)["toughness"].clone()));
    seen.push((2, "wurm", "zone", observe(&g, card_wurm)["zone"].clone()));
    std::process::exit(report(&seen));
}
