//! `cargo fuzz run -s none roundtrip`: see fuzz/README.md and
//! `ptoracle::fuzzing::Target::Roundtrip`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ptoracle::fuzzing::Target;

fuzz_target!(|data: &[u8]| {
    if let Err(finding) = Target::Roundtrip.run(data) {
        panic!("{finding}");
    }
});
