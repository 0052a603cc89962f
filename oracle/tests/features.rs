//! A case asks only for the features it reads (oracle/protocol/src/features/).
//!
//! - adding or removing a field no step, ability, expectation or
//!   observation reads changes neither the case's features nor the
//!   reference's run of it, over the corpus and over generated cases;
//! - an engine without a stack plays at least as many corpus cases as it
//!   would if no card in the corpus had its printed mana cost.
//!
//! "Reads" is decided here from the case alone, apart from the derivation
//! it tests: a printed mana cost, a mana value, an announced or a
//! text-defined X and what a spell does as it resolves are read only in a
//! case that casts, resolves, pays `cost_of` or has an `x_of` or
//! `mana_value_of` quantity (202.1, 202.3, 107.3g, 608.2); `crew` only in a
//! case that crews (702.122a); a back face only in a case that transforms
//! (712.8e) or turns a permanent face down (712.16); `by` on a step that puts counters only in a case with a
//! `counters_put_by` ability (122.6a, 614.1a). The run staying the same is
//! what shows the field unread; the features staying the same is what the
//! derivation owes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use ptoracle::protocol::{Feature, Reach, required_features};
use ptoracle::resolver::{self, Options};
use ptoracle::scenario::{Case, validate};
use ptoracle::{Edition, corpus, explore};
use serde_json::{Value, json};

/// Where a mutation applies, and what it does.
#[derive(Clone, Copy, Debug)]
enum Mutation {
    /// Every spell field of every object removed.
    StripSpellText,
    /// A printed mana cost on one object (the `usize`-th, modulo), from
    /// [`COSTS`].
    AddManaCost(usize, usize),
    /// A mana value on one object that has no mana cost.
    AddManaValue(usize, i64),
    /// Every `crew` removed.
    StripCrew,
    /// Crew N on one object.
    AddCrew(usize, i64),
    /// The subtype Vehicle on one object.
    AddVehicle(usize),
    /// Every back face removed.
    StripBackFace,
    /// A back face on one object.
    AddBackFace(usize, i64),
    /// Every `by` removed from the steps that put counters.
    StripBy,
    /// `by` set on every step that puts counters, to the n-th player.
    AddBy(usize),
}

const COSTS: &[&str] = &[
    "{1}{G}",
    "{X}{R}",
    "{2}{W/U}{W/U}",
    "{3000000000}",
    "{B/P}{S}",
    "{0}",
];

/// The actions a case can perform: its steps', and its objects' chapter,
/// Nth-counter and resolution actions.
fn action_keys(case: &Case) -> BTreeSet<&'static str> {
    case.actions().map(|a| a.key()).collect()
}

/// Whether `key` is a key anywhere in `v`.
fn has_key(v: &Value, key: &str) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, v)| k == key || has_key(v, key)),
        Value::Array(a) => a.iter().any(|v| has_key(v, key)),
        _ => false,
    }
}

/// How many strings equal to `s` are in `v`.
fn count_str(v: &Value, s: &str) -> usize {
    match v {
        Value::String(t) => usize::from(t == s),
        Value::Object(m) => m.values().map(|v| count_str(v, s)).sum(),
        Value::Array(a) => a.iter().map(|v| count_str(v, s)).sum(),
        _ => 0,
    }
}

/// Whether the case reads spell text: it casts, resolves, pays the mana
/// cost of an object, or reads an X or a mana value.
fn plays_spells(case: &Case, json: &Value) -> bool {
    let keys = action_keys(case);
    keys.contains("cast")
        || keys.contains("resolve")
        || ["cost_of", "x_of", "mana_value_of"]
            .iter()
            .any(|k| has_key(json, k))
}

fn objects(json: &mut Value) -> Vec<&mut serde_json::Map<String, Value>> {
    json.pointer_mut("/setup/objects")
        .and_then(Value::as_array_mut)
        .map(|a| a.iter_mut().filter_map(Value::as_object_mut).collect())
        .unwrap_or_default()
}

/// The steps' counter-putting bodies (`put_counters`, `double_counters`,
/// `move_counters`, `put_counters_from`, `move`).
fn counter_steps(json: &mut Value) -> Vec<&mut serde_json::Map<String, Value>> {
    const KEYS: &[&str] = &[
        "put_counters",
        "double_counters",
        "move_counters",
        "put_counters_from",
        "move",
    ];
    json.pointer_mut("/steps")
        .and_then(Value::as_array_mut)
        .map(|steps| {
            steps
                .iter_mut()
                .filter_map(|s| s.get_mut("do").and_then(Value::as_object_mut))
                .flat_map(|d| d.iter_mut())
                .filter(|(k, _)| KEYS.contains(&k.as_str()))
                .filter_map(|(_, v)| v.as_object_mut())
                .collect()
        })
        .unwrap_or_default()
}

/// The case with `m` applied, if `m` changes only what the case does not
/// read and leaves a valid case; `None` where it does not apply.
fn mutate(case: &Case, m: Mutation) -> Option<Case> {
    let mut json = serde_json::to_value(case).ok()?;
    let keys = action_keys(case);
    let spells = plays_spells(case, &json);
    let vehicles_as_subtypes = case
        .setup
        .objects
        .iter()
        .filter(|o| o.subtypes.iter().any(|s| s == "Vehicle"))
        .count();
    let vehicle_elsewhere = count_str(&json, "Vehicle") > vehicles_as_subtypes;
    let put_by = case
        .setup
        .objects
        .iter()
        .any(|o| o.counters_put_by.is_some());
    let players: Vec<String> = case
        .setup
        .players
        .iter()
        .map(|p| p.id.to_string())
        .collect();
    let n = case.setup.objects.len();
    match m {
        Mutation::StripSpellText | Mutation::AddManaCost(..) | Mutation::AddManaValue(..)
            if spells =>
        {
            return None;
        }
        Mutation::StripCrew | Mutation::AddCrew(..) | Mutation::AddVehicle(_)
            if keys.contains("crew") =>
        {
            return None;
        }
        // A filter may name the subtype: then it is read.
        Mutation::AddVehicle(_) if vehicle_elsewhere => return None,
        Mutation::StripBackFace | Mutation::AddBackFace(..)
            if keys.contains("transform") || keys.contains("turn_face_down") =>
        {
            return None;
        }
        Mutation::StripBy | Mutation::AddBy(_) if put_by => return None,
        Mutation::AddManaCost(..)
        | Mutation::AddManaValue(..)
        | Mutation::AddCrew(..)
        | Mutation::AddVehicle(_)
        | Mutation::AddBackFace(..)
            if n == 0 =>
        {
            return None;
        }
        _ => {}
    }
    match m {
        Mutation::StripSpellText => {
            for o in objects(&mut json) {
                for k in ["mana_cost", "mana_value", "x", "x_is", "on_resolve"] {
                    o.remove(k);
                }
            }
        }
        Mutation::AddManaCost(i, c) => {
            let o = objects(&mut json).into_iter().nth(i % n)?;
            o.remove("mana_value");
            o.insert("mana_cost".into(), json!(COSTS[c % COSTS.len()]));
        }
        Mutation::AddManaValue(i, v) => {
            let o = objects(&mut json).into_iter().nth(i % n)?;
            if o.contains_key("mana_cost") {
                return None;
            }
            o.insert("mana_value".into(), json!(v));
        }
        Mutation::StripCrew => {
            for o in objects(&mut json) {
                o.remove("crew");
            }
        }
        Mutation::AddCrew(i, v) => {
            let o = objects(&mut json).into_iter().nth(i % n)?;
            o.insert("crew".into(), json!(v));
        }
        Mutation::AddVehicle(i) => {
            let o = objects(&mut json).into_iter().nth(i % n)?;
            let subtypes = o.entry("subtypes").or_insert_with(|| json!([]));
            subtypes.as_array_mut()?.push(json!("Vehicle"));
        }
        Mutation::StripBackFace => {
            for o in objects(&mut json) {
                o.remove("back_face");
            }
        }
        Mutation::AddBackFace(i, p) => {
            let o = objects(&mut json).into_iter().nth(i % n)?;
            o.insert(
                "back_face".into(),
                json!({
                    "name": "Test Night Face",
                    "types": ["Creature"],
                    "colors": ["black"],
                    "pt": format!("{p}/4"),
                    "keywords": ["deathtouch", "lifelink", "flanking"],
                    "abilities": [{ "affects": { "types": ["Creature"] }, "modify": "+1/+1" }],
                }),
            );
        }
        Mutation::StripBy => {
            for s in counter_steps(&mut json) {
                s.remove("by");
            }
        }
        Mutation::AddBy(p) => {
            let player = players.get(p % players.len().max(1))?.clone();
            let steps = counter_steps(&mut json);
            if steps.is_empty() {
                return None;
            }
            for s in steps {
                s.insert("by".into(), json!(player));
            }
        }
    }
    let mutated: Case = serde_json::from_value(json).ok()?;
    (mutated != *case && validate(&mutated).is_empty()).then_some(mutated)
}

/// Checks that `m` on `case` changes neither its features nor its run
/// (under every edition it holds in that `editions` lists); whether `m`
/// applied.
fn unread_stays_unread(case: &Case, m: Mutation, editions: &[Edition]) -> Result<bool, String> {
    let Some(mutated) = mutate(case, m) else {
        return Ok(false);
    };
    let (before, after) = (required_features(case), required_features(&mutated));
    if before != after {
        return Err(format!(
            "{}: {m:?} changed the features from {before:?} to {after:?}",
            case.id
        ));
    }
    for &e in editions {
        if case.editions.as_ref().is_some_and(|r| !r.contains(e)) {
            continue;
        }
        let a = resolver::resolve(case, e, Options::default());
        let b = resolver::resolve(&mutated, e, Options::default());
        if a != b {
            return Err(format!(
                "{}: {m:?} changed the reference's run under {e}, so the field is read: the test's idea of reading is wrong",
                case.id
            ));
        }
    }
    Ok(true)
}

fn every_mutation(i: usize, v: i64) -> [Mutation; 10] {
    [
        Mutation::StripSpellText,
        Mutation::AddManaCost(i, i),
        Mutation::AddManaValue(i, v),
        Mutation::StripCrew,
        Mutation::AddCrew(i, v),
        Mutation::AddVehicle(i),
        Mutation::StripBackFace,
        Mutation::AddBackFace(i, v),
        Mutation::StripBy,
        Mutation::AddBy(i),
    ]
}

fn rulings() -> Vec<PathBuf> {
    vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulings")]
}

/// Every corpus case, every mutation, under today's rules and the oldest.
#[test]
fn corpus_cases_ask_nothing_for_unread_fields() {
    let loaded = corpus::load(&rulings());
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    let oldest = Edition::all().next().expect("an edition");
    let editions = [Edition::current(), oldest];
    let mut failures = Vec::new();
    let mut applied = [0usize; 10];
    for (i, c) in loaded.cases.iter().enumerate() {
        for (k, m) in every_mutation(i, 3_000_000_000).into_iter().enumerate() {
            match unread_stays_unread(&c.case, m, &editions) {
                Ok(true) => applied[k] += 1,
                Ok(false) => {}
                Err(e) => failures.push(e),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Each mutation that adds a field must apply to some case, or it tests
    // nothing (the corpus has no Vehicle no step crews, say: the generated
    // cases test taking fields away).
    for (k, m) in every_mutation(0, 0).into_iter().enumerate() {
        let adds = !matches!(
            m,
            Mutation::StripCrew | Mutation::StripBackFace | Mutation::StripBy
        );
        assert!(!adds || applied[k] > 0, "{m:?} applied to no corpus case");
    }
}

/// Generated cases (every switch of the generator), mutations and values
/// drawn by proptest, deterministically.
#[test]
fn generated_cases_ask_nothing_for_unread_fields() {
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 600,
            failure_persistence: None,
            ..Config::default()
        },
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let strategy = (
        0u64..200_000,
        0usize..10,
        0usize..64,
        prop_oneof![Just(2i64), Just(7), Just(3_000_000_000)],
    );
    let applied: [AtomicUsize; 10] = Default::default();
    let result = runner.run(&strategy, |(index, which, pick, value)| {
        let Some(case) = explore::case_at(20_261_128, index) else {
            return Ok(());
        };
        let m = every_mutation(pick, value)[which];
        if unread_stays_unread(&case, m, &[Edition::current()]).map_err(TestCaseError::fail)? {
            applied[which].fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    for (k, m) in every_mutation(0, 0).into_iter().enumerate() {
        assert!(
            applied[k].load(Ordering::Relaxed) > 0,
            "{m:?} applied to no generated case"
        );
    }
}

/// The features of the template adapter's engine (ci/adapters/python-example).
fn template_features() -> BTreeSet<Feature> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/adapters/python-example/adapter.py");
    let text = std::fs::read_to_string(&path).expect("the template adapter");
    let list = text
        .split_once("FEATURES = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("FEATURES in the template adapter");
    list.split(',')
        .map(|s| s.trim().trim_matches('"'))
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a feature the template declares"))
        .collect()
}

/// Issue 30's bar: an engine without a stack (the template's features and
/// damage, zones and timestamps, not `spells`) sees at least as many
/// corpus cases as it would if no card had its printed mana cost, and at
/// least the 30 it saw of the 215 cases of the corpus before mana costs
/// were added (ba6e7b3^, counted with `ptoracle export`'s index).
#[test]
fn an_engine_without_a_stack_loses_nothing_to_printed_mana_costs() {
    let mut declared = template_features();
    declared.extend([Feature::Damage, Feature::Zones, Feature::Timestamps]);
    assert!(!declared.contains(&Feature::Spells));
    let loaded = corpus::load(&rulings());
    let now = Edition::current();
    let held: Vec<&Case> = loaded
        .cases
        .iter()
        .map(|c| &c.case)
        .filter(|c| c.editions.as_ref().is_none_or(|r| r.contains(now)))
        .collect();
    let reach = Reach::of(held.iter().map(|c| required_features(c)), &declared);
    let without_costs = Reach::of(
        held.iter().map(|c| {
            let mut c = (*c).clone();
            for o in &mut c.setup.objects {
                o.mana_cost = None;
                o.mana_value = ptoracle::scenario::Count(0);
            }
            required_features(&c)
        }),
        &declared,
    );
    assert!(
        reach.playable >= without_costs.playable,
        "{} cases played, {} without printed mana costs",
        reach.playable,
        without_costs.playable
    );
    const BEFORE_MANA_COSTS: usize = 30;
    assert!(
        reach.playable >= BEFORE_MANA_COSTS,
        "{} of {} cases played, fewer than the {BEFORE_MANA_COSTS} before mana costs",
        reach.playable,
        reach.cases
    );
}
