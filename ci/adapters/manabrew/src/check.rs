// SPDX-License-Identifier: AGPL-3.0-or-later
//! What the adapter maps, checked before a case is played: everything else
//! is refused with the reason.

use serde_json::{json, Value};

use crate::game::{has_dies_triggers, has_keyword_anywhere};
use crate::script::{effect_scripts, selector, static_line};
use crate::terms::{counter_kind, empty, fixed, forge_keyword, parse_pt, small, zone_type, TYPES};
use crate::{unsupported, Res};

/// Refuses, with the reason, what the adapter does not map.
pub fn check(case: &Value) -> Res<()> {
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
        // An object on the stack is a card in the engine's stack zone (a
        // Shock there as the source of a `damage` step); nothing casts or
        // resolves it.
        if zone_type(zone).is_none() {
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
            "level_up",
            "crew",
            "attached_to",
            "max_counters",
            "defense",
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
        if let Some(l) = o.get("loyalty").filter(|l| !l.is_null()) {
            // 306.5b: the engine's printed loyalty (`initial_loyalty`).
            if !o["types"]
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t == "Planeswalker"))
            {
                return unsupported(format!("{where_}: a loyalty on a non-planeswalker"));
            }
            small(fixed(l, &where_)?, &where_)?;
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
                        "{where_}: {kind} counters (no such kind in Forge's counter list the adapter maps)"
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
        let you = o["controller"].as_str().unwrap_or(&handles[0]);
        for a in o["abilities"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
        {
            static_line(a, you, &where_)?;
        }
        if let Some(t) = o.get("timestamp").filter(|t| !t.is_null()) {
            fixed(t, &where_)?;
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
    // 603.3b: the order of two triggers of one controller is that
    // player's choice, which the engine's agent would make.
    if has_keyword_anywhere(case, "undying") && has_keyword_anywhere(case, "persist") {
        return unsupported(
            "undying and persist in one case: the order of their triggers is a choice (603.3b) \
             the engine's agent makes",
        );
    }
    // Two objects with undying or persist may die at once: the order of
    // their triggers is again a choice (603.3b).
    let dying = setup["objects"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter(|o| has_keyword_anywhere(o, "undying") || has_keyword_anywhere(o, "persist"))
        .count();
    if dying > 1 {
        return unsupported(
            "two objects with undying or persist: the order of their triggers is a choice \
             (603.3b) the engine's agent makes",
        );
    }
    // Timestamps (docs/protocol.md "Timestamps"): the reference's counter,
    // bounded below and above, since deaths also take one and are not known
    // before the case is played. Every object may die, and again after each
    // move.
    let objects = setup["objects"].as_array().map_or(0, Vec::len) as i64;
    let mut counter = 1i64;
    for o in setup["objects"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let t = o["timestamp"].as_i64().unwrap_or(counter);
        counter = counter.max(t.saturating_add(1));
    }
    let mut counter_hi = counter.saturating_add(objects);
    let mut last_effect = i64::MIN;
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
        if name != "effect" {
            // Counters put, a zone change: at most one more each, and an
            // object moved may die again.
            counter_hi = counter_hi.saturating_add(1);
            if name == "move" {
                counter_hi = counter_hi.saturating_add(1);
            }
        }
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
                        "{where_}: {kind} counters (no such kind in Forge's counter list the adapter maps)"
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
                let allowed = [
                    "name",
                    "source",
                    "affects",
                    "until",
                    "x",
                    "set",
                    "modify",
                    "timestamp",
                    "add_keywords",
                    "remove_keywords",
                    "remove_all_abilities",
                    "add_types",
                    "set_colors",
                ];
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
                let filter = if body["affects"].is_array() {
                    None
                } else {
                    // The spell is cast by the filter's controller, if any,
                    // so that it is `YouCtrl` (the selector knows no other).
                    let you = body["affects"]["controller"]
                        .as_str()
                        .unwrap_or(&handles[0]);
                    if !handles.iter().any(|h| h == you) {
                        return unsupported(format!("{where_}: a filter on the controller {you}"));
                    }
                    Some(selector(&body["affects"], you, &where_)?)
                };
                effect_scripts(body, x, filter.as_deref(), &where_)?;
                if let Some(t) = body.get("timestamp").filter(|t| !t.is_null()) {
                    let t = fixed(t, &where_)?;
                    // The engine applies resolved effects in the order they
                    // resolve: an explicit timestamp must not put this one
                    // before an earlier step's (613.7; equal ones follow
                    // creation order, D3).
                    if t < last_effect {
                        return unsupported(format!(
                            "{where_}: the timestamp {t}, maybe before an earlier step's effect (the \
                             engine applies resolved effects in the order they resolve)"
                        ));
                    }
                    last_effect = t;
                    counter = counter.max(t.saturating_add(1));
                    counter_hi = counter_hi.max(t.saturating_add(1));
                } else {
                    last_effect = last_effect.max(counter_hi);
                    counter = counter.saturating_add(1);
                    counter_hi = counter_hi.saturating_add(1);
                }
                continue;
            }
            "destroy" | "regenerate" => {
                if handles.iter().any(|h| Some(h.as_str()) == body.as_str()) {
                    return unsupported(format!("{where_}: `{name}` of a player"));
                }
            }
            "gain_control" => {
                if !handles
                    .iter()
                    .any(|h| Some(h.as_str()) == body["player"].as_str())
                {
                    return unsupported(format!("{where_}: control gained by {}", body["player"]));
                }
                // The static lines say `YouCtrl` from the setup controller's
                // point of view; the engine would read them from the new one's.
                if setup["objects"]
                    .as_array()
                    .is_some_and(|a| a.iter().any(|o| !empty(o.get("abilities"))))
                {
                    return unsupported(format!(
                        "{where_}: a control change in a case with static abilities"
                    ));
                }
            }
            "exchange" => {
                // 701.12g: Forge's `ExchangePower` (Serene Master's), an
                // ability of the first creature with the second as its
                // target; toughness and life exchanges are not mapped
                // (the engine's `ExchangeLifeVariant` exchanges two life
                // totals whatever its mode).
                let values = body["values"].as_array().cloned().unwrap_or_default();
                let objects: Vec<&str> =
                    values.iter().filter_map(|v| v["power"].as_str()).collect();
                if values.len() != 2 || objects.len() != 2 || objects[0] == objects[1] {
                    return unsupported(format!(
                        "{where_}: an exchange of other values than two creatures' powers"
                    ));
                }
                if body["until"].as_str() != Some("end-of-turn") {
                    return unsupported(format!(
                        "{where_}: an exchange lasting {} (Forge's ExchangePower ends with the turn)",
                        body["until"]
                    ));
                }
                for key in body.as_object().unwrap().keys() {
                    if !["name", "values", "until"].contains(&key.as_str()) {
                        return unsupported(format!("{where_}: an exchange with `{key}`"));
                    }
                }
            }
            "double" | "triple" => {
                if !["power", "toughness", "both"].contains(&body["what"].as_str().unwrap_or("")) {
                    return unsupported(format!("{where_}: a `{name}` of {}", body["what"]));
                }
                let until = body["until"].as_str().unwrap_or("");
                if until != "end-of-turn" && until != "forever" {
                    return unsupported(format!("{where_}: the duration {until}"));
                }
                for key in body.as_object().unwrap().keys() {
                    if !["name", "affects", "what", "until"].contains(&key.as_str()) {
                        return unsupported(format!("{where_}: a `{name}` with `{key}`"));
                    }
                }
                // A resolved effect: it takes a timestamp, as `effect` does.
                last_effect = last_effect.max(counter_hi);
                counter = counter.saturating_add(1);
                counter_hi = counter_hi.saturating_add(1);
            }
            "begin_turn" => {
                if !handles.iter().any(|h| Some(h.as_str()) == body.as_str()) {
                    return unsupported(format!("{where_}: the turn of {body}"));
                }
            }
            "prevent" => {
                let n = fixed(&body["amount"], &where_)?;
                if n <= 0 {
                    return unsupported(format!("{where_}: a shield that prevents {n} damage"));
                }
                small(n, &where_)?;
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
            "attack" => {
                for e in body.as_array().cloned().unwrap_or_default() {
                    for key in e
                        .as_object()
                        .map(|o| o.keys().cloned().collect())
                        .unwrap_or(Vec::<String>::new())
                    {
                        if !["attacker", "defender", "blockers"].contains(&key.as_str()) {
                            return unsupported(format!("{where_}: an attack with `{key}`"));
                        }
                    }
                }
            }
            "combat_damage_step" => {
                for key in body
                    .as_object()
                    .map(|o| o.keys().cloned().collect())
                    .unwrap_or(Vec::<String>::new())
                {
                    if key != "divide" {
                        return unsupported(format!("{where_}: a combat damage step with `{key}`"));
                    }
                }
            }
            "move" => {
                let to = body["to"].as_str().unwrap_or("");
                if zone_type(to).is_none() || to == "stack" {
                    return unsupported(format!("{where_}: a move to the zone {to}"));
                }
                for key in body.as_object().unwrap().keys() {
                    if !["object", "to", "counters"].contains(&key.as_str()) {
                        return unsupported(format!("{where_}: a move with `{key}`"));
                    }
                }
                if let Some(counters) = body["counters"].as_object().filter(|c| !c.is_empty()) {
                    // 122.6: Forge's zone change puts one kind of counter
                    // as the card enters (`WithCountersType$`).
                    if to != "battlefield" {
                        return unsupported(format!("{where_}: a move with counters to the {to}"));
                    }
                    if counters.len() > 1 {
                        return unsupported(format!(
                            "{where_}: a move with counters of several kinds (Forge's zone change \
                             puts one kind, `WithCountersType$`)"
                        ));
                    }
                    for (kind, n) in counters {
                        if counter_kind(kind).is_none() {
                            return unsupported(format!(
                                "{where_}: {kind} counters (no such kind in Forge's counter list the adapter maps)"
                            ));
                        }
                        let n = small(fixed(n, &where_)?, &where_)?;
                        if n <= 0 {
                            return unsupported(format!("{where_}: {n} counters"));
                        }
                    }
                    if has_dies_triggers(case) {
                        return unsupported(format!(
                            "{where_}: a move with counters in a case with undying or persist \
                             (not mapped yet)"
                        ));
                    }
                }
            }
            other => return unsupported(format!("{where_}: the step `{other}`")),
        }
    }
    Ok(())
}
