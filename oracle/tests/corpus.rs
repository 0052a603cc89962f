//! The corpus is the main test suite: one test per case id, so
//! `cargo test -- 613.5/gray-ogre` replays one ruling (under every edition
//! it holds in).

use std::path::Path;

use libtest_mimic::{Arguments, Trial};
use ptoracle::error::ResolveError;
use ptoracle::verdict::Problem;
use ptoracle::{Edition, Verdict, check, corpus};

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulings");
    let loaded = corpus::load(&[root]);
    let errors: Vec<String> = loaded.errors.iter().map(|e| e.to_string()).collect();
    let mut trials = vec![Trial::test("corpus/loads-without-errors", move || {
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("\n").into())
        }
    })];
    // Each case is replayed under every edition it holds in, with that
    // edition's expectations (`expect_in`).
    for c in loaded.cases {
        let name = c.case.id.to_string();
        let trial = Trial::test(name, move || {
            let mut failures = Vec::new();
            for edition in Edition::all() {
                let failure = match check(&c.case, edition) {
                    Verdict::Pass | Verdict::Skip(_) => continue,
                    Verdict::Fail(mismatches) => {
                        let lines: Vec<String> = mismatches.iter().map(|m| m.to_string()).collect();
                        format!("{}\n{}", c.position(), lines.join("\n"))
                    }
                    Verdict::Error(Problem::Case(ResolveError::Invalid(e))) => {
                        c.locate(&e).to_string()
                    }
                    Verdict::Error(e) => format!("{}: {e}", c.position()),
                };
                failures.push(format!("under edition {edition}: {failure}"));
            }
            if failures.is_empty() {
                Ok(())
            } else {
                Err(failures.join("\n").into())
            }
        });
        trials.push(trial);
    }
    libtest_mimic::run(&args, trials).exit();
}
