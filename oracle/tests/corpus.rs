//! The corpus is the main test suite: one test per case id, so
//! `cargo test -- 613.5/gray-ogre` replays one ruling.

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
    for c in loaded.cases {
        let name = c.case.id.to_string();
        let skipped = c
            .case
            .editions
            .as_ref()
            .is_some_and(|r| !r.contains(Edition::current()));
        let trial = Trial::test(name, move || match check(&c.case, Edition::current()) {
            Verdict::Pass | Verdict::Skip(_) => Ok(()),
            Verdict::Fail(mismatches) => {
                let lines: Vec<String> = mismatches.iter().map(|m| m.to_string()).collect();
                Err(format!("{}\n{}", c.position(), lines.join("\n")).into())
            }
            Verdict::Error(Problem::Case(ResolveError::Invalid(e))) => {
                Err(c.locate(&e).to_string().into())
            }
            Verdict::Error(e) => Err(format!("{}: {e}", c.position()).into()),
        });
        trials.push(trial.with_ignored_flag(skipped));
    }
    libtest_mimic::run(&args, trials).exit();
}
