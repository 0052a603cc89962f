//! `ptoracle::in_process`: a Rust engine checked in process by the gate's
//! verdicts and shrinking, whose shrunk rulings reproduce through
//! `ptoracle check` and `ptoracle gate`.

mod common;

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::Command;

use ptoracle::Edition;
use ptoracle::in_process::{
    self, Config, Played, RustEngine, check_cases, check_corpus, corpus_dir, failures, fuzz,
    fuzz_check, run_cases,
};
use ptoracle::protocol::EngineInfo;
use ptoracle::resolver::{self, Mutant, Options};
use ptoracle::scenario::Case;

/// The reference resolver as a Rust engine, with a deliberate bug if asked.
struct Resolver(Option<Mutant>);

impl RustEngine for Resolver {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: match self.0 {
                Some(m) => format!("resolver with {m}"),
                None => "resolver".into(),
            },
            version: "1".into(),
            issues: None,
        }
    }

    fn play(&mut self, case: &Case, edition: Edition) -> Played {
        let options = Options {
            mutant: self.0,
            ..Options::default()
        };
        Played::from_run(resolver::resolve(case, edition, options))
    }
}

const MUTANT: Mutant = Mutant::CountersAfterSwitch;

fn config(generated: u64, out: Option<&Path>) -> Config {
    Config {
        generated,
        seed: 3,
        out: out.map(Path::to_path_buf),
        ..Config::default()
    }
}

fn ptoracle(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ptoracle"))
        .args(args)
        .current_dir(common::root())
        .output()
        .expect("ptoracle runs")
}

#[test]
fn the_reference_as_a_rust_engine_passes_generated_cases_and_the_corpus() {
    check_cases(Resolver(None), &config(100, None));
    let corpus = corpus_dir(common::root().join("rulings")).expect("the corpus loads");
    check_corpus(Resolver(None), corpus, &Config::default());
}

#[test]
fn a_mutant_fails_with_a_shrunk_ruling_that_check_and_gate_reproduce() {
    let out = common::scratch("in_process", "shrunk");
    let report = run_cases(Resolver(Some(MUTANT)), &config(300, Some(&out)));
    let text = failures(&report).expect("the mutant is caught");
    assert!(text.contains("shrunk ruling of generated/3/"), "{text}");
    let mut ruling = None;
    report
        .for_each(&mut |r| {
            if ruling.is_none() {
                ruling = r.shrunk.as_ref().and_then(|s| s.ruling.clone());
            }
            Ok(())
        })
        .expect("the records read back");
    let ruling = ruling.expect("a shrunk ruling is written");
    let ruling = ruling.as_str();
    // The reference passes it...
    let check = ptoracle(&["check", ruling]);
    assert!(check.status.success(), "{check:?}");
    // ...and the gate fails the same bug behind the protocol on it.
    let exe = env!("CARGO_BIN_EXE_ptoracle");
    let bad = format!("{exe} serve --mutant {MUTANT}");
    let gate_out = common::scratch("in_process", "gate");
    let gate_out = gate_out.to_str().unwrap();
    let gate = ptoracle(&[
        "gate", "--engine", &bad, "--jobs", "1", "--out", gate_out, ruling,
    ]);
    let stdout = String::from_utf8_lossy(&gate.stdout);
    assert_eq!(gate.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAIL gate/resolver-with-"), "{stdout}");
    let good = format!("{exe} serve");
    let gate = ptoracle(&[
        "gate", "--engine", &good, "--jobs", "1", "--out", gate_out, ruling,
    ]);
    assert!(gate.status.success(), "{gate:?}");
}

#[test]
fn check_cases_fails_the_test_with_the_verdict_and_the_shrunk_ruling() {
    let failed = catch_unwind(AssertUnwindSafe(|| {
        check_cases(Resolver(Some(MUTANT)), &config(300, None))
    }));
    let message = *failed
        .expect_err("the mutant fails the test")
        .downcast::<String>()
        .unwrap();
    assert!(message.contains("FAIL generated/3/"), "{message}");
    assert!(message.contains("expected"), "{message}");
    assert!(
        message.contains("origin:\n  invariant: agrees-with-reference"),
        "{message}"
    );
}

/// A ruling of three steps that the mutant fails at the second only.
const SWITCH: &str = r#"
id: demo/switch
title: counters apply before the switch
rules: ["613.4c", "613.4d"]
setup:
  objects:
    - { id: c, types: [Creature], pt: 1/4, counters: { +1/+0: 1 } }
    - { id: d, types: [Creature], pt: 2/2 }
steps:
  - do: state_based_actions
  - do: { effect: { affects: [c], switch: true, until: end-of-turn } }
    expect: { c: { pt: 4/2 } }
  - do: state_based_actions
"#;

#[test]
fn the_fuzz_entry_shrinks_a_finding_to_a_ruling() {
    let data = [b"Y".as_slice(), SWITCH.as_bytes()].concat();
    let out = common::scratch("in_process", "fuzz");
    let config = config(0, Some(&out));
    assert!(fuzz_check(&data, &mut Resolver(None), &config).is_ok());
    let found = fuzz_check(&data, &mut Resolver(Some(MUTANT)), &config).unwrap_err();
    let ruling = found.ruling.as_ref().expect("shrunk to a ruling");
    assert!(ruling.steps.len() <= 2, "{found}");
    assert_eq!(ruling.setup.objects.len(), 1, "{found}");
    let Some(Ok(path)) = &found.written else {
        panic!("written: {found}");
    };
    assert!(found.to_string().contains("shrunk ruling"), "{found}");
    let check = ptoracle(&["check", path.to_str().unwrap()]);
    assert!(check.status.success(), "{check:?}");
    let failed = catch_unwind(AssertUnwindSafe(|| {
        fuzz(&data, &mut Resolver(Some(MUTANT)), &config)
    }));
    assert!(failed.is_err());
}

/// An engine that panics on every case.
struct Panicking;

impl RustEngine for Panicking {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "panicking".into(),
            version: "1".into(),
            issues: None,
        }
    }

    fn play(&mut self, _case: &Case, _edition: Edition) -> Played {
        panic!("not yet")
    }
}

#[test]
fn an_engine_that_panics_gets_an_error_verdict_naming_the_panic() {
    let report = run_cases(Panicking, &config(3, None));
    assert!(report.summary.errored > 0);
    let text = failures(&report).unwrap();
    assert!(text.contains("the engine panicked: not yet"), "{text}");
}

/// The reference, declaring no features and not observing life.
struct Narrow;

impl RustEngine for Narrow {
    fn info(&self) -> EngineInfo {
        Resolver(None).info()
    }

    fn features(&self) -> BTreeSet<ptoracle::protocol::Feature> {
        BTreeSet::new()
    }

    fn unobserved(&self) -> BTreeSet<ptoracle::protocol::Observable> {
        [ptoracle::protocol::Observable::Life].into()
    }

    fn play(&mut self, case: &Case, edition: Edition) -> Played {
        Resolver(None).play(case, edition)
    }
}

#[test]
fn generated_cases_stay_within_the_features_an_engine_declares() {
    let report = in_process::run_cases(Narrow, &config(50, None));
    assert!(report.summary.passed > 0);
    assert_eq!(report.summary.skipped, 0);
    assert!(failures(&report).is_none());
}
