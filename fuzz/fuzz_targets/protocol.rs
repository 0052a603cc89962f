//! `cargo fuzz run -s none protocol`: see fuzz/README.md and
//! `ptoracle::fuzzing::Target::Protocol`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ptoracle::fuzzing::Target;

fuzz_target!(|data: &[u8]| {
    if let Err(finding) = Target::Protocol.run(data) {
        panic!("{finding}");
    }
});
