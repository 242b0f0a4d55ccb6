//! The position parser and writers on fixed variants (see orbis_fuzz::position).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| orbis_fuzz::position(data));
