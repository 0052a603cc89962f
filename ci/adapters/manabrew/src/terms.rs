// SPDX-License-Identifier: AGPL-3.0-or-later
//! ptoracle's names (keywords, card types, colors, counters, zones, mana
//! costs) and the engine's, and the small readers of the case's values.

use forge_foundation::{ColorSet, CoreType, ZoneType};
use manabrew_engine::card::counter_type::parse_counter_type;
use manabrew_engine::card::CounterType;
use serde_json::Value;

use crate::{unsupported, Failure, Res};

/// ptoracle's keyword names and Forge's.
pub const KEYWORDS: &[(&str, &str)] = &[
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
    // Their "dies" triggers are the engine's (`keyword_gen.rs`).
    ("undying", "Undying"),
    ("persist", "Persist"),
    // Inert keywords (ptoracle gives them no effect): those the engine
    // holds by name with no ability of their own a case could set off.
    // Flanking (a trigger as it blocks), protection and morph (a quality or
    // a cost the case does not give), outlast (an ability) are refused.
    ("changeling", "Changeling"),
    ("flash", "Flash"),
    ("shroud", "Shroud"),
    ("fear", "Fear"),
    ("intimidate", "Intimidate"),
    ("horsemanship", "Horsemanship"),
    ("banding", "Banding"),
    // Landwalk (702.14) is an evasion ability; ptoracle gives it no effect
    // and the adapter declares blockers itself, so it is inert here.
    // Forge's cards write it `Landwalk:Island`.
    ("islandwalk", "Landwalk:Island"),
];

pub const TYPES: &[(&str, CoreType)] = &[
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

pub const COLORS: &[(&str, ColorSet)] = &[
    ("white", ColorSet::WHITE),
    ("blue", ColorSet::BLUE),
    ("black", ColorSet::BLACK),
    ("red", ColorSet::RED),
    ("green", ColorSet::GREEN),
];

/// Keyword counters the engine can hold (122.1b), by their Forge names.
const KEYWORD_COUNTERS: &[&str] = &[
    "flying",
    "deathtouch",
    "decayed",
    "exalted",
    "haste",
    "hexproof",
    "indestructible",
    "lifelink",
    "menace",
    "reach",
    "shadow",
    "trample",
    "vigilance",
];

/// Forge's name of a counter kind (its `CounterType$`): `P1P1`, `M0M1`
/// for the P/T counters (each sign and number in turn, as Forge's counter
/// list spells `+1/+0` `P1P0`), the keyword's name in capitals for a
/// keyword counter, `CHARGE`, `LOYALTY`. The engine parses it (`parse_counter_type`):
/// its own kinds for +1/+1, -1/-1 and charge, a named kind for the rest.
pub fn forge_counter(kind: &str) -> Option<String> {
    if let Some((p, t)) = kind.split_once('/') {
        let mut name = String::new();
        for part in [p, t] {
            let (sign, n) = part.split_at(part.len().min(1));
            let letter = match sign {
                "+" => 'P',
                "-" => 'M',
                _ => return None,
            };
            if n.is_empty() || n.len() > 2 || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            name.push(letter);
            name.push_str(n);
        }
        return Some(name);
    }
    if kind == "charge" || kind == "loyalty" || KEYWORD_COUNTERS.contains(&kind) {
        return Some(kind.to_ascii_uppercase());
    }
    None
}

/// The engine's counter kind for ptoracle's name.
pub fn counter_kind(kind: &str) -> Option<CounterType> {
    forge_counter(kind).map(|f| parse_counter_type(&f))
}

/// ptoracle's name of one of the engine's counter kinds.
pub fn counter_name(kind: &CounterType) -> String {
    let forge = match kind {
        CounterType::P1P1 => return "+1/+1".into(),
        CounterType::M1M1 => return "-1/-1".into(),
        CounterType::Named(n) => n.clone(),
        other => format!("{other:?}").to_ascii_uppercase(),
    };
    // `P1P0` back to `+1/+0`.
    let b = forge.as_bytes();
    if let Some(i) = forge[1..].find(['P', 'M']).map(|i| i + 1) {
        if matches!(b[0], b'P' | b'M') && forge[1..i].bytes().all(|c| c.is_ascii_digit()) {
            let sign = |c: u8| if c == b'P' { '+' } else { '-' };
            return format!(
                "{}{}/{}{}",
                sign(b[0]),
                &forge[1..i],
                sign(b[i]),
                &forge[i + 1..]
            );
        }
    }
    forge.to_ascii_lowercase()
}

pub fn forge_keyword(name: &str) -> Option<&'static str> {
    KEYWORDS.iter().find(|(k, _)| *k == name).map(|(_, f)| *f)
}

/// An amount that is a number (an amount read from the game is not mapped).
pub fn fixed(v: &Value, where_: &str) -> Res<i64> {
    match v.as_i64() {
        Some(n) => Ok(n),
        None => unsupported(format!("{where_}: an amount read from the game ({v})")),
    }
}

/// A value that fits the engine's `i32` P/T, counters, damage and life.
pub fn small(n: i64, where_: &str) -> Res<i32> {
    i32::try_from(n).map_err(|_| {
        Failure::Unsupported(format!(
            "{where_}: {n} does not fit the engine's 32-bit values"
        ))
    })
}

/// `2/3`, `+1/-2`, `X/X` with `x`.
pub fn parse_pt(text: &str, where_: &str, x: Option<i64>, signed: bool) -> Res<(i64, i64)> {
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

pub fn empty(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) | Some(Value::Bool(false)) => true,
        Some(Value::Array(a)) => a.is_empty(),
        Some(Value::Object(o)) => o.is_empty(),
        _ => false,
    }
}

pub fn zone_type(zone: &str) -> Option<ZoneType> {
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
pub fn forge_cost(cost: &str) -> String {
    cost.split('}')
        .map(|s| s.trim_start_matches('{'))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}
