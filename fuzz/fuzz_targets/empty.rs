//! `cargo fuzz run -s none empty`: a target that does nothing, the
//! baseline the other targets' speed is measured against (fuzz/README.md).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    std::hint::black_box(data);
});
