//! `cargo fuzz run -s none ruling_yaml`: see fuzz/README.md and
//! `ptoracle::fuzzing::Target::RulingYaml`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ptoracle::fuzzing::Target;

fuzz_target!(|data: &[u8]| {
    if let Err(finding) = Target::RulingYaml.run(data) {
        panic!("{finding}");
    }
});
