//! The size limits of a case (`scenario::Size`): a case beyond one is
//! refused with the same located error by validation, the resolver, `serve`
//! and `check`, and a case at the limits resolves. No timing is asserted:
//! `ptoracle explore --bench --scaling` reports the time.

use std::process::Command;

use ptoracle::error::ResolveError;
use ptoracle::scenario::{MAX_EARLY_EFFECTS, MAX_OBJECTS, MAX_STEPS, MAX_WORK, Size, validate};
use ptoracle::{Case, Edition, resolver};
use serde_json::{Value, json};

fn creature(i: usize) -> Value {
    json!({ "id": format!("c{i}"), "types": ["Creature"], "pt": "2/2" })
}

fn case(objects: Vec<Value>, steps: Vec<Value>) -> Case {
    serde_json::from_value(json!({
        "id": "limits/x", "title": "t", "rules": ["613.4c"],
        "setup": { "objects": objects },
        "steps": steps,
    }))
    .expect("a well-formed case")
}

fn counter_on(i: usize) -> Value {
    json!({ "do": { "put_counters": { "on": format!("c{i}"), "kind": "+1/+1" } } })
}

fn anthem(i: usize) -> Value {
    let mut c = creature(i);
    c["abilities"] = json!([{ "affects": { "types": ["Creature"], "controller": "you", "other": true }, "modify": "+1/+1" }]);
    c
}

/// Validation's first error and the resolver's must be `path: message…`.
fn refused(case: &Case, path: &str, message: &str) {
    let errors = validate(case);
    let first = errors.first().expect("the case is refused");
    assert_eq!(first.path.to_string(), path);
    assert!(first.message.contains(message), "got {first}");
    let run = resolver::resolve(case, Edition::current(), resolver::Options::default());
    match &run.error {
        Some(ResolveError::Invalid(e)) => assert_eq!(e, first),
        other => panic!("the resolver gave {other:?}"),
    }
    assert!(run.steps.is_empty());
}

#[test]
fn too_many_objects_are_refused_by_every_entry_point() {
    let objects = (0..=MAX_OBJECTS).map(creature).collect();
    let case = case(objects, vec![counter_on(0)]);
    let message = format!("a case may have at most {MAX_OBJECTS} objects (it has 10001)");
    refused(&case, "setup.objects[10000]", &message);

    // `serve`: an error reply naming the limit, and the next request answered.
    let request = json!({ "type": "run", "seq": 1, "edition": "2026-09-25", "case": serde_json::to_value(&case).expect("serializable") });
    let input = format!(
        "{}\n{}\n{}\n",
        json!({ "type": "hello", "protocol": 1, "ptoracle": "0.1.0" }),
        request,
        json!({ "type": "bye" })
    );
    let mut out = Vec::new();
    ptoracle::serve::serve(input.as_bytes(), &mut out, None).expect("serve answers");
    let out = String::from_utf8(out).expect("UTF-8");
    let reply = out.lines().nth(1).expect("a reply to the run");
    assert!(
        reply.contains(r#""type":"error""#) && reply.contains(r#""seq":1"#),
        "{reply}"
    );
    assert!(
        reply.contains(&format!("setup.objects[10000]: {message}")),
        "{reply}"
    );

    // `check`: exit status 2, the error at the object's line and column.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("limits");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let file = dir.join("too-many-objects.yaml");
    let mut yaml = String::from(
        "id: limits/too-many-objects\ntitle: t\nrules: [\"613.4c\"]\nsetup:\n  objects:\n",
    );
    for i in 0..=MAX_OBJECTS {
        yaml.push_str(&format!(
            "    - {{ id: c{i}, types: [Creature], pt: 2/2 }}\n"
        ));
    }
    yaml.push_str("steps:\n  - do: state_based_actions\n");
    std::fs::write(&file, yaml).expect("written");
    let out = Command::new(env!("CARGO_BIN_EXE_ptoracle"))
        .arg("check")
        .arg(&file)
        .output()
        .expect("ptoracle runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Object 10000 is on line 6 + 10000.
    let at = format!(
        "{}:10006:7: setup.objects[10000]: {message}",
        file.display()
    );
    assert!(stderr.contains(&at), "expected {at}, got:\n{stderr}");
}

#[test]
fn too_many_steps_are_refused() {
    let steps = (0..=MAX_STEPS).map(|i| counter_on(i % 10)).collect();
    let case = case((0..10).map(creature).collect(), steps);
    refused(
        &case,
        "steps[10000]",
        &format!("a case may have at most {MAX_STEPS} steps (it has 10001)"),
    );
}

#[test]
fn too_many_observations_are_refused() {
    let case = case(
        (0..MAX_OBJECTS).map(creature).collect(),
        (0..101).map(counter_on).collect(),
    );
    refused(&case, "steps", "at most 1000000 objects × steps");
}

#[test]
fn too_much_work_is_refused() {
    // 2237 creatures each pumping all others: 2237 × 2238 > 5 × 10^6.
    let case = case(
        (0..2237).map(anthem).collect(),
        vec![json!({ "do": "state_based_actions" })],
    );
    assert!(Size::of(&case).work() > MAX_WORK);
    refused(
        &case,
        "steps",
        &format!("at most {MAX_WORK} units of resolution work"),
    );
}

#[test]
fn a_case_at_the_object_limit_resolves() {
    let case = case(
        (0..MAX_OBJECTS).map(creature).collect(),
        vec![counter_on(MAX_OBJECTS - 1)],
    );
    assert!(validate(&case).is_empty());
    let run = resolver::resolve(&case, Edition::current(), resolver::Options::default());
    assert!(run.error.is_none(), "{:?}", run.error);
    let last = &run.steps[0].observation.objects[&"c9999".parse().expect("a handle")];
    assert_eq!(last.pt.map(|p| p.to_string()).as_deref(), Some("3/3"));
}

#[test]
fn a_case_at_the_step_limit_resolves() {
    let case = case(
        (0..10).map(creature).collect(),
        (0..MAX_STEPS).map(|i| counter_on(i % 10)).collect(),
    );
    let run = resolver::resolve(&case, Edition::current(), resolver::Options::default());
    assert!(run.error.is_none(), "{:?}", run.error);
    assert_eq!(run.steps.len(), MAX_STEPS);
    let c0 = &run.steps[MAX_STEPS - 1].observation.objects[&"c0".parse().expect("a handle")];
    assert_eq!(c0.pt.map(|p| p.to_string()).as_deref(), Some("1002/1002"));
}

#[test]
fn a_case_at_the_early_effect_limit_resolves() {
    let mut c = creature(0);
    c["abilities"] = (0..MAX_EARLY_EFFECTS)
        .map(|_| json!({ "affects": "self", "add_keywords": ["flying"] }))
        .collect();
    let case = case(vec![c], vec![json!({ "do": "state_based_actions" })]);
    let run = resolver::resolve(&case, Edition::current(), resolver::Options::default());
    assert!(run.error.is_none(), "{:?}", run.error);
}

/// The largest of each measure over `cases`: objects, steps, effects,
/// early effects, objects × steps, work.
fn largest<'a>(cases: impl Iterator<Item = &'a Case>) -> [u64; 6] {
    let mut m = [0u64; 6];
    for c in cases {
        let s = Size::of(c);
        let v = [
            s.objects as u64,
            s.steps as u64,
            s.effects as u64,
            s.early_effects as u64,
            s.observations(),
            s.work(),
        ];
        for (m, v) in m.iter_mut().zip(v) {
            *m = (*m).max(v);
        }
    }
    m
}

/// Every limit over ten times what the corpus or the generator reaches.
fn far_below(m: [u64; 6], what: &str) {
    let limits = [
        MAX_OBJECTS as u64,
        MAX_STEPS as u64,
        ptoracle::scenario::MAX_EFFECTS as u64,
        MAX_EARLY_EFFECTS as u64,
        ptoracle::scenario::MAX_OBSERVATIONS,
        MAX_WORK,
    ];
    eprintln!("{what}: largest {m:?}, limits {limits:?}");
    for (v, limit) in m.iter().zip(limits) {
        assert!(
            v * 10 <= limit,
            "{what} comes near a limit: {m:?} against {limits:?}"
        );
    }
}

#[test]
fn the_corpus_and_the_generator_stay_far_below_the_limits() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulings");
    let corpus = ptoracle::corpus::load(&[dir]);
    assert!(corpus.errors.is_empty(), "{:?}", corpus.errors);
    far_below(largest(corpus.cases.iter().map(|c| &c.case)), "the corpus");
    let generated: Vec<Case> = (0..2000)
        .filter_map(|i| ptoracle::explore::case_at(1, i))
        .collect();
    far_below(largest(generated.iter()), "the generator");
}
