//! `cargo fuzz run -s none differential`: see fuzz/README.md and
//! `ptoracle::fuzzing::Target::Differential`. The engine is the one
//! `PTORACLE_FUZZ_ENGINE` names (by default a deliberately broken
//! `ptoracle serve`, to show what a finding looks like).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ptoracle::fuzzing::{self, Target};

fuzz_target!(
    init: {
        match fuzzing::engine_from_env() {
            Ok((spec, engine)) => {
                eprintln!("differential: engine `{spec}` (set {} to change it)", fuzzing::ENGINE_VAR);
                fuzzing::install_engine(engine);
            }
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        }
    },
    |data: &[u8]| {
        if let Err(finding) = Target::Differential.run(data) {
            panic!("{finding}");
        }
    }
);
