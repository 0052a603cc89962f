// SPDX-License-Identifier: AGPL-3.0-or-later
//! Forge script text for what a case's effects and static abilities do:
//! the lines the engine parses (`S$ Mode$ Continuous | ...` on a card,
//! `SP$ Animate | ...`, `SP$ Pump | ...`, `SP$ Debuff | ...` resolved on its
//! stack), built the same way when the case is checked and when it is
//! played, so a case is refused exactly when its script can't be written.

use serde_json::Value;

use crate::terms::{forge_keyword, parse_pt, small};
use crate::{unsupported, Res};

/// Forge's name of a color, as `Colors$` and filters spell it.
fn color_name(c: &str) -> Option<&'static str> {
    Some(match c {
        "white" => "White",
        "blue" => "Blue",
        "black" => "Black",
        "red" => "Red",
        "green" => "Green",
        _ => return None,
    })
}

/// Forge's names of a list of keywords.
fn keywords(list: &Value, where_: &str) -> Res<Vec<&'static str>> {
    let mut out = Vec::new();
    for k in list.as_array().map(Vec::as_slice).unwrap_or_default() {
        let k = k.as_str().unwrap_or("");
        match forge_keyword(k) {
            Some(f) => out.push(f),
            None => return unsupported(format!("{where_}: the keyword {k}")),
        }
    }
    Ok(out)
}

/// A ptoracle filter as a Forge card selector (`Affected$` of a static
/// ability, `ValidCards$` of an `...All` effect), relative to `you`, the
/// controller of the ability's source: one card type, `nonLand` or
/// `nonCreature`, `YouCtrl`, `Other`, one color, one subtype and an exact
/// name, as Forge's scripts write them; anything else is refused.
pub fn selector(f: &Value, you: &str, where_: &str) -> Res<String> {
    let Some(obj) = f.as_object() else {
        return unsupported(format!("{where_}: the affected set {f}"));
    };
    let mut parts: Vec<String> = Vec::new();
    let strs = |k: &str| -> Vec<String> {
        obj.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    for key in obj.keys() {
        if ![
            "types",
            "not_types",
            "subtypes",
            "colors",
            "controller",
            "name",
            "other",
            "zone",
        ]
        .contains(&key.as_str())
        {
            return unsupported(format!(
                "{where_}: a filter on `{key}` (the engine's card selector has no such test)"
            ));
        }
    }
    if obj
        .get("zone")
        .is_some_and(|z| !z.is_null() && z != "battlefield")
    {
        return unsupported(format!("{where_}: a filter of another zone"));
    }
    let types = strs("types");
    // One card type, by its name, as Forge's scripts write it
    // (`Affected$ Artifact.nonCreature`, March of the Machines): the
    // engine's static selector (`CardFilter`) knows `Creature` and `Land`
    // and reads any other word as a subtype (engine bug 14); its `...All`
    // effects' matching knows them all.
    let base = match types.as_slice() {
        [] => "Permanent",
        [t] if [
            "Creature",
            "Land",
            "Artifact",
            "Enchantment",
            "Planeswalker",
        ]
        .contains(&t.as_str()) =>
        {
            t.as_str()
        }
        _ => {
            return unsupported(format!(
                "{where_}: a filter on the card types {types:?} (one type at most)"
            ))
        }
    };
    parts.push(base.to_string());
    match strs("not_types").as_slice() {
        [] => {}
        [t] if t == "Land" => parts.push("nonLand".into()),
        [t] if t == "Creature" => parts.push("nonCreature".into()),
        other => {
            return unsupported(format!(
                "{where_}: a filter excluding the card types {other:?}"
            ))
        }
    }
    if let Some(c) = obj.get("controller").and_then(Value::as_str) {
        if c != you {
            return unsupported(format!(
                "{where_}: a filter on another controller than the source's (the engine's selector \
                 has `YouCtrl` only)"
            ));
        }
        parts.push("YouCtrl".into());
    }
    if obj.get("other") == Some(&Value::Bool(true)) {
        parts.push("Other".into());
    }
    match strs("colors").as_slice() {
        [] => {}
        [c] => match color_name(c) {
            Some(n) => parts.push(n.into()),
            None => return unsupported(format!("{where_}: the color {c}")),
        },
        more => {
            return unsupported(format!(
                "{where_}: a filter on several colors {more:?} (the engine's selector tests one)"
            ))
        }
    }
    match strs("subtypes").as_slice() {
        [] => {}
        [s] if s.chars().all(|c| c.is_ascii_alphabetic()) => parts.push(s.clone()),
        more => {
            return unsupported(format!(
                "{where_}: a filter on the subtypes {more:?} (the engine's selector tests one)"
            ))
        }
    }
    if let Some(n) = obj.get("name").and_then(Value::as_str) {
        if n.contains(['.', '+', '|', '$']) {
            return unsupported(format!("{where_}: a filter on the name {n:?}"));
        }
        parts.push(format!("named{n}"));
    }
    let (first, rest) = parts.split_first().expect("a base type");
    if rest.is_empty() {
        Ok(first.clone())
    } else {
        Ok(format!("{first}.{}", rest.join("+")))
    }
}

/// A static ability of an object (`abilities:`) as a Forge continuous
/// static line on its card. `you` is the object's controller. The engine's
/// layer system applies `AddType$` (4), `AddKeyword$` and
/// `RemoveAllAbilities$` (6), `SetPower$`/`SetToughness$` (7b) and
/// `AddPower$`/`AddToughness$` (7c); it has no color change, type or
/// keyword removal in a static ability.
pub fn static_line(a: &Value, you: &str, where_: &str) -> Res<String> {
    let Some(obj) = a.as_object() else {
        return unsupported(format!("{where_}: a static ability {a}"));
    };
    for key in obj.keys() {
        if ![
            "affects",
            "name",
            "set",
            "modify",
            "add_keywords",
            "add_types",
            "remove_all_abilities",
        ]
        .contains(&key.as_str())
        {
            return unsupported(format!(
                "{where_}: a static ability with `{key}` (the engine's continuous static \
                 abilities have no such part)"
            ));
        }
    }
    let affected = match &a["affects"] {
        Value::String(s) if s == "self" => "Card.Self".to_string(),
        Value::String(s) => {
            return unsupported(format!("{where_}: a static ability affecting {s}"));
        }
        f => selector(f, you, where_)?,
    };
    let mut line = format!("S$ Mode$ Continuous | Affected$ {affected}");
    let types: Vec<&str> = a["add_types"]
        .as_array()
        .map(|t| t.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if !types.is_empty() {
        line.push_str(&format!(" | AddType$ {}", types.join(" & ")));
    }
    let kws = keywords(&a["add_keywords"], where_)?;
    if !kws.is_empty() {
        line.push_str(&format!(" | AddKeyword$ {}", kws.join(" & ")));
    }
    if a["remove_all_abilities"] == true {
        line.push_str(" | RemoveAllAbilities$ True");
    }
    if let Some(s) = a["set"].as_str() {
        let (p, t) = parse_pt(s, where_, None, false)?;
        line.push_str(&format!(
            " | SetPower$ {} | SetToughness$ {}",
            small(p, where_)?,
            small(t, where_)?
        ));
    }
    if let Some(s) = a["modify"].as_str() {
        let (p, t) = parse_pt(s, where_, None, true)?;
        line.push_str(&format!(
            " | AddPower$ {} | AddToughness$ {}",
            small(p, where_)?,
            small(t, where_)?
        ));
    }
    Ok(line)
}

/// What a resolved effect (`effect:` of a step) is on the engine's stack:
/// Forge's own idioms, as its card scripts write them. `SP$ Animate` for
/// what a creature becomes (`Power$`/`Toughness$`, `Types$`, `Colors$`
/// with `OverwriteColors$`, `RemoveAllAbilities$`, as Turn to Frog's
/// script has them), `SP$ Debuff | Keywords$` for keywords lost,
/// `SP$ Pump` for `NumAtt$`/`NumDef$` and keywords gained (`KW$`). Over a
/// filter (`target` is `None`) the `...All` forms with `ValidCards$`.
/// `Duration$ Permanent` for an effect that lasts indefinitely.
pub fn effect_scripts(
    body: &Value,
    x: Option<i64>,
    filter: Option<&str>,
    where_: &str,
) -> Res<Vec<String>> {
    let duration = if body["until"] == "forever" {
        " | Duration$ Permanent"
    } else {
        ""
    };
    let (sp, valid) = match filter {
        Some(f) => ("All", format!("ValidCards$ {f}")),
        None => ("", String::new()),
    };
    let mut out = Vec::new();
    let mut animate = String::new();
    if let Some(s) = body["set"].as_str() {
        let (p, t) = parse_pt(s, where_, x, false)?;
        animate.push_str(&format!(
            " | Power$ {} | Toughness$ {}",
            small(p, where_)?,
            small(t, where_)?
        ));
    }
    let types: Vec<&str> = body["add_types"]
        .as_array()
        .map(|t| t.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if !types.is_empty() {
        animate.push_str(&format!(" | Types$ {}", types.join(",")));
    }
    if let Some(colors) = body["set_colors"].as_array() {
        let mut names = Vec::new();
        for c in colors {
            let c = c.as_str().unwrap_or("");
            match color_name(c) {
                Some(n) => names.push(n),
                None => return unsupported(format!("{where_}: the color {c}")),
            }
        }
        if names.is_empty() {
            names.push("Colorless");
        }
        animate.push_str(&format!(
            " | Colors$ {} | OverwriteColors$ True",
            names.join(",")
        ));
    }
    if body["remove_all_abilities"] == true {
        animate.push_str(" | RemoveAllAbilities$ True");
    }
    if !animate.is_empty() {
        let tgt = if filter.is_some() {
            valid.clone()
        } else if types.is_empty() {
            "ValidTgts$ Creature".to_string()
        } else {
            // What becomes a creature may not be one yet.
            "ValidTgts$ Permanent".to_string()
        };
        out.push(format!("SP$ Animate{sp} | {tgt}{animate}{duration}"));
    }
    let lost = keywords(&body["remove_keywords"], where_)?;
    if !lost.is_empty() {
        if filter.is_some() {
            return unsupported(format!(
                "{where_}: keywords lost by a filter's creatures (the engine has no DebuffAll)"
            ));
        }
        out.push(format!(
            "SP$ Debuff | ValidTgts$ Creature | Keywords$ {}{duration}",
            lost.join(" & ")
        ));
    }
    let gained = keywords(&body["add_keywords"], where_)?;
    let mut pump = String::new();
    if let Some(s) = body["modify"].as_str() {
        let (p, t) = parse_pt(s, where_, x, true)?;
        pump.push_str(&format!(
            " | NumAtt$ {:+} | NumDef$ {:+}",
            small(p, where_)?,
            small(t, where_)?
        ));
    }
    if !gained.is_empty() {
        pump.push_str(&format!(" | KW$ {}", gained.join(" & ")));
    }
    if !pump.is_empty() {
        let tgt = if filter.is_some() {
            valid
        } else {
            "ValidTgts$ Creature".to_string()
        };
        out.push(format!("SP$ Pump{sp} | {tgt}{pump}{duration}"));
    }
    if out.is_empty() {
        return unsupported(format!(
            "{where_}: an effect that changes nothing the adapter maps"
        ));
    }
    Ok(out)
}
