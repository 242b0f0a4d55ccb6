//! Compiled table bytes (see orbis_fuzz::tables).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| orbis_fuzz::tables(data));
