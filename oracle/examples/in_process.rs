//! A Rust engine checked against the reference in process: a toy engine
//! that wraps the reference resolver with a deliberate bug (it leaves
//! -1/-1 counters out of power and toughness), caught by
//! [`ptoracle::in_process`] on generated cases and shrunk to a ruling.
//!
//! ```sh
//! cargo run --example in_process            # prints the gate's report and the shrunk ruling
//! cargo test --example in_process           # the same, as a test (run by `cargo test --workspace`)
//! ```

use ptoracle::Edition;
use ptoracle::in_process::{Config, Played, RustEngine, failures, run_cases};
use ptoracle::protocol::EngineInfo;
use ptoracle::resolver::{self, Options};
use ptoracle::scenario::Case;
use ptoracle::terms::CounterKind;

/// The toy engine: the reference resolver, except that a creature's
/// -1/-1 counters do not lower its power and toughness (against 122.1a
/// and 613.4c).
struct Toy;

impl RustEngine for Toy {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "toy".into(),
            version: "0.1.0".into(),
            issues: None,
        }
    }

    fn play(&mut self, case: &Case, edition: Edition) -> Played {
        let mut run = resolver::resolve(case, edition, Options::default());
        let minus = CounterKind::Pt {
            power: -1,
            toughness: -1,
        };
        for step in &mut run.steps {
            for object in step.observation.objects.values_mut() {
                let n = object.counters.get(&minus).copied().unwrap_or(0);
                if let Some(pt) = &mut object.pt {
                    // The bug: the counters' -n/-n given back.
                    pt.power = pt.power.checked_add(n).unwrap_or(pt.power);
                    pt.toughness = pt.toughness.checked_add(n).unwrap_or(pt.toughness);
                }
            }
        }
        Played::from_run(run)
    }
}

/// The configuration of the example: 200 generated cases, the shrunk
/// rulings written to `dir`.
fn config(dir: std::path::PathBuf) -> Config {
    Config {
        generated: 200,
        seed: 1,
        out: Some(dir),
        ..Config::default()
    }
}

fn main() {
    let dir = std::env::temp_dir().join("ptoracle-in-process-example");
    // A test would call `ptoracle::in_process::check_cases(Toy, &config)`,
    // which panics with this text; the example prints it.
    match failures(&run_cases(Toy, &config(dir))) {
        Some(text) => println!("{text}"),
        None => println!("the toy engine agrees with the reference on every case"),
    }
}

#[test]
fn the_harness_catches_the_toy_engines_bug_with_a_shrunk_ruling() {
    let dir = std::env::temp_dir().join(format!(
        "ptoracle-in-process-example-test-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let text = failures(&run_cases(Toy, &config(dir.clone()))).expect("the bug is caught");
    assert!(text.contains("FAIL generated/1/"), "{text}");
    assert!(text.contains("shrunk ruling of generated/1/"), "{text}");
    assert!(text.contains("-1/-1"), "{text}");
    let written = std::fs::read_dir(&dir).expect("rulings written").count();
    assert!(written > 0);
    let _ = std::fs::remove_dir_all(&dir);
}
