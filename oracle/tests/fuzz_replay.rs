//! The fuzz targets without libFuzzer: every committed seed and every
//! saved crash artifact (`fuzz/regressions/TARGET/`) replayed through the
//! same library functions the targets call, so a regression shows up in
//! `cargo test` on any machine.

use std::path::{Path, PathBuf};

use ptoracle::engine::Served;
use ptoracle::fuzzing::{self, Target, seeds};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Runs `target` on its seeds and regressions; returns how many inputs ran.
fn replay(target: Target) -> usize {
    // The differential target's engine: the reference behind the protocol,
    // so every difference is a bug (the tests share no global engine).
    let served = std::sync::Mutex::new(Served::new(None));
    let run = |data: &[u8]| match target {
        Target::Differential => fuzzing::differential(data, &mut *served.lock().unwrap()),
        _ => target.run(data),
    };
    let mut inputs = files_in(&fuzz_dir().join("seeds").join(target.seed_dir()));
    inputs.extend(files_in(
        &fuzz_dir().join("regressions").join(target.name()),
    ));
    let mut failures = Vec::new();
    for path in &inputs {
        let data = std::fs::read(path).unwrap();
        match std::panic::catch_unwind(|| run(&data)) {
            Ok(Ok(())) => {}
            Ok(Err(finding)) => failures.push(format!("{}: {finding}", path.display())),
            Err(_) => failures.push(format!("{}: panicked (message above)", path.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} inputs fail `{target}`; replay one with `cargo run -- fuzz replay {target} FILE`:\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n")
    );
    inputs.len()
}

#[test]
fn resolve_replays() {
    assert!(replay(Target::Resolve) > 100);
}

#[test]
fn ruling_yaml_replays() {
    assert!(replay(Target::RulingYaml) > 10);
}

#[test]
fn protocol_replays() {
    assert!(replay(Target::Protocol) > 100);
}

#[test]
fn roundtrip_replays() {
    assert!(replay(Target::Roundtrip) > 100);
}

#[test]
fn differential_replays() {
    assert!(replay(Target::Differential) > 100);
}

#[test]
fn every_regression_directory_is_a_target() {
    for dir in std::fs::read_dir(fuzz_dir().join("regressions")).unwrap() {
        let name = dir.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            Target::parse(&name).is_ok(),
            "fuzz/regressions/{name} is not a target's directory"
        );
    }
}

#[test]
fn seeds_and_dictionaries_are_current() {
    let rulings = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulings");
    let files = seeds::ruling_files(&rulings).unwrap();
    let made = seeds::seeds(&files);
    let changes = seeds::differences(&fuzz_dir(), &made, &seeds::dictionaries());
    let listed: Vec<String> = changes
        .iter()
        .map(|(p, b)| {
            format!(
                "{} {}",
                if b.is_some() {
                    "out of date:"
                } else {
                    "stale:"
                },
                p.display()
            )
        })
        .collect();
    assert!(
        changes.is_empty(),
        "the fuzz seeds do not match the rulings; run `cargo run -- fuzz seeds`:\n{}",
        listed.join("\n")
    );
}

#[test]
fn a_finding_fails_the_replay() {
    // The differential target against a broken engine: the replay must see it.
    let mut broken = fuzzing::engine_named(fuzzing::DEFAULT_ENGINE).unwrap();
    let seeds = files_in(&fuzz_dir().join("seeds/scenario"));
    let found = seeds
        .iter()
        .filter(|p| fuzzing::differential(&std::fs::read(p).unwrap(), broken.as_mut()).is_err())
        .count();
    assert!(found > 0, "no seed finds the default mutant");
}
