//! The edition diff over the corpus: every change between two editions is
//! pinned by per-edition expectations, and every ruling whose expectations
//! differ between two editions shows up as changed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use ptoracle::{Edition, corpus, diff};

fn corpus() -> Vec<corpus::Loaded> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulings");
    let loaded = corpus::load(&[root]);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    loaded.cases
}

/// The ids whose expectations differ between the two editions, among the
/// cases that hold in both.
fn edition_diff_rulings(cases: &[corpus::Loaded], a: Edition, b: Edition) -> BTreeSet<String> {
    cases
        .iter()
        .filter(|c| {
            let holds = |e| c.case.editions.as_ref().is_none_or(|r| r.contains(e));
            holds(a)
                && holds(b)
                && c.case
                    .steps
                    .iter()
                    .any(|s| s.expect_for(a) != s.expect_for(b))
        })
        .map(|c| c.case.id.to_string())
        .collect()
}

#[test]
fn every_edition_pair_changes_exactly_its_edition_diff_rulings() {
    let cases = corpus();
    let all: Vec<Edition> = Edition::all().collect();
    for (i, &a) in all.iter().enumerate() {
        for &b in &all[i + 1..] {
            let report = diff::diff(&cases, a, b);
            let changed: BTreeSet<String> = report.changed.iter().map(|c| c.id.clone()).collect();
            let pinned = edition_diff_rulings(&cases, a, b);
            assert_eq!(
                changed, pinned,
                "{a} → {b}: changed vs per-edition expectations"
            );
            assert_eq!(report.unpinned().count(), 0, "{a} → {b}");
        }
    }
}

#[test]
fn the_same_edition_changes_nothing() {
    let cases = corpus();
    for e in Edition::all() {
        let report = diff::diff(&cases, e, e);
        assert!(report.changed.is_empty(), "{e}");
        assert!(report.only_from.is_empty() && report.only_to.is_empty());
    }
}

/// The commands of the "done when", as a user runs them.
#[test]
fn diff_command_reports_in_three_formats() {
    let bin = env!("CARGO_BIN_EXE_ptoracle");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let run = |args: &[&str]| {
        let out = Command::new(bin)
            .args(args)
            .current_dir(&root)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let cases = corpus();
    for from in ["2009-07", "1999-04"] {
        let (code, text) = run(&["diff", "--from", from, "--to", "2026-09-25"]);
        assert_eq!(code, Some(0), "{text}");
        let a = Edition::parse(from).unwrap();
        let expected = edition_diff_rulings(&cases, a, Edition::current());
        assert!(!expected.is_empty());
        for id in &expected {
            assert!(
                text.contains(&format!("{id} — ")),
                "{from}: {id} missing:\n{text}"
            );
        }
        let (code, json) = run(&["diff", "--from", from, "--to", "2026-09-25", "--json"]);
        assert_eq!(code, Some(0));
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let ids: BTreeSet<String> = v["changed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(ids, expected);
        let (_, md) = run(&["diff", "--from", from, "--to", "2026-09-25", "--markdown"]);
        assert!(
            md.starts_with(&format!("# Edition diff: {from} → 2026-09-25")),
            "{md}"
        );
        assert!(md.contains("| case | step | object | field | old | new | rules |"));
    }
    let (code, _) = run(&["diff", "--from", "1066", "--to", "2026-09-25"]);
    assert_eq!(code, Some(2));
}

/// Regression (issue 14): annihilation was dated to Magic 2010 from the
/// digest, so `diff --from 2007-05 --to 2009-07` listed counter changes that
/// the texts put in 2006-10-01; Magic 2010 changed the layer plan, made
/// lifelink and deathtouch static (D71) and bound the damage assignment
/// order.
#[test]
fn magic_2010_changed_only_the_layer_plan_lifelink_deathtouch_and_the_damage_assignment_order() {
    let (a, b) = (Edition::parse("2007-05"), Edition::parse("2009-07"));
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(
        a.rules().changed_rules(b.rules()),
        ["613.4", "702.15", "702.2", "510.1c"]
    );
    let changed = edition_diff_rulings(&corpus(), a, b);
    assert!(
        changed
            .iter()
            .all(|id| !id.starts_with("122.3/") && !id.starts_with("704.5q/")),
        "{changed:?}"
    );
}

/// `--edition` takes a date or a set code and says on stderr which edition
/// it chose; a prefix of several ids is "ambiguous", naming them.
#[test]
fn edition_given_as_a_date_or_set_code_is_resolved_and_named() {
    let bin = env!("CARGO_BIN_EXE_ptoracle");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let file = root.join("rulings/122-counters/annihilation.yaml");
    let run = |edition: &str| {
        let out = Command::new(bin)
            .args(["check", "--edition", edition])
            .arg(&file)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run("2008-05-01");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(
            "note: `2008-05-01` is edition 2007-05 (future-sight), in force on 2008-05-01"
        ),
        "{err}"
    );
    let (code, err) = run("shm");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("set SHM (released 2008-05-02) is edition 2007-05"),
        "{err}"
    );
    let (code, err) = run("2025");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("ambiguous: 2025-04-04, 2025-06-06"), "{err}");
}
