// SPDX-License-Identifier: AGPL-3.0-or-later
//! ptoracle's names (keywords, card types, colors, counters, zones, mana
//! costs) and the engine's, and the small readers of the case's values.

use forge_foundation::{ColorSet, CoreType, ZoneType};
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

pub fn counter_kind(kind: &str) -> Option<CounterType> {
    match kind {
        "+1/+1" => Some(CounterType::P1P1),
        "-1/-1" => Some(CounterType::M1M1),
        _ => None,
    }
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
