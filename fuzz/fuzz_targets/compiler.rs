//! The whole compiler from source text (see orbis_fuzz::compiler).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| orbis_fuzz::compiler(data));
