//! `cargo fuzz run -s none resolve`: see fuzz/README.md and
//! `ptoracle::fuzzing::Target::Resolve`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ptoracle::fuzzing::Target;

fuzz_target!(|data: &[u8]| {
    if let Err(finding) = Target::Resolve.run(data) {
        panic!("{finding}");
    }
});
