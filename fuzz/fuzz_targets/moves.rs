//! The move parser and playing moves on fixed variants (see orbis_fuzz::moves).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| orbis_fuzz::moves(data));
