//! The findings register (`ci/findings.yaml`, issue 18) against the adapters'
//! `findings/` directories: every confirmed bug's minimal ruling is listed in
//! the register, and every ruling the register names exists, so an entry
//! can never go stale silently. The rulings themselves are replayed against
//! the reference and the engines by the adapters' gate tests (`gate.rs`).

use std::collections::BTreeSet;
use std::path::Path;

/// The repository's root (the parent of the `oracle` crate).
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the oracle crate sits in the repository root")
}

/// The `ruling:` paths of the register, in order.
fn register_rulings() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("ci/findings.yaml")).expect("ci/findings.yaml");
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("ruling: "))
        .map(|path| path.trim().to_owned())
        .collect()
}

/// Every `ci/adapters/*/findings/*.yaml`, relative to the root.
fn adapter_findings() -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for adapter in std::fs::read_dir(root().join("ci/adapters")).expect("ci/adapters") {
        let adapter = adapter.expect("an adapter directory entry");
        let findings = adapter.path().join("findings");
        let Ok(entries) = std::fs::read_dir(&findings) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a findings entry").path();
            if path.extension().is_some_and(|ext| ext == "yaml") {
                let relative = path.strip_prefix(root()).expect("under the root");
                found.insert(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found
}

#[test]
fn every_adapter_finding_is_in_the_register_and_every_register_ruling_exists() {
    let listed = register_rulings();
    let listed_set: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(
        listed.len(),
        listed_set.len(),
        "a ruling listed twice in ci/findings.yaml"
    );
    for ruling in &listed {
        assert!(
            root().join(ruling).is_file(),
            "ci/findings.yaml names a missing ruling: {ruling}"
        );
    }
    let missing: Vec<_> = adapter_findings()
        .difference(&listed_set)
        .cloned()
        .collect();
    assert!(
        missing.is_empty(),
        "findings not in ci/findings.yaml: {missing:?}"
    );
}

#[test]
fn every_register_entry_has_engine_rules_and_status() {
    let text = std::fs::read_to_string(root().join("ci/findings.yaml")).expect("ci/findings.yaml");
    let entries = text.split("\n  - engine: ").skip(1);
    for entry in entries {
        for field in [
            "versions: ",
            "ruling: ",
            "rules: [\"",
            "upstream: ",
            "status: ",
        ] {
            assert!(entry.contains(field), "entry without {field:?}: {entry}");
        }
    }
}

/// The severities a finding may have (issue 31): what it breaks in games.
const SEVERITIES: [&str; 3] = [
    "changes the outcome of ordinary games",
    "rare interaction",
    "state nothing reads",
];

#[test]
fn every_entry_has_its_reproduction_severity_and_real_cards() {
    let text = std::fs::read_to_string(root().join("ci/findings.yaml")).expect("ci/findings.yaml");
    let mut entries = 0;
    for entry in text.split("\n  - engine: ").skip(1) {
        entries += 1;
        let engine = entry.lines().next().unwrap_or("").trim();
        let value = |key: &str| -> Option<String> {
            entry
                .lines()
                .find_map(|l| l.strip_prefix(&format!("    {key}: ")))
                .map(|v| v.trim().trim_matches('"').to_owned())
        };
        for key in ["reproduction", "severity", "severity_reason", "reproduced"] {
            assert!(value(key).is_some(), "entry without {key}: {entry}");
        }
        for key in ["query", "count", "examples"] {
            assert!(
                entry.contains(&format!("\n      {key}: ")),
                "entry without cards.{key}: {entry}"
            );
        }
        let severity = value("severity").unwrap();
        assert!(
            SEVERITIES.contains(&severity.as_str()),
            "severity {severity:?} is none of {SEVERITIES:?}: {entry}"
        );
        assert!(
            !value("severity_reason").unwrap().is_empty(),
            "an empty severity_reason: {entry}"
        );
        let reproduction = value("reproduction").unwrap();
        assert!(
            root().join(&reproduction).is_file(),
            "ci/findings.yaml names a missing reproduction of a {engine} finding: {reproduction}"
        );
        // What CI's .ci/reproductions.py compares with the programs' runs.
        let reproduced = value("reproduced").unwrap();
        assert!(
            reproduced.starts_with("still failing in ") || reproduced.starts_with("fixed in "),
            "reproduced: {reproduced:?}: {entry}"
        );
    }
    assert!(entries >= 39, "{entries} entries");
}
