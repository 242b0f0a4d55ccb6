//! The parser on any UTF-8 text: it never panics (a syntax error is a value).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(source) = std::str::from_utf8(data) {
        let _ = orbis_grammar::parse(source);
    }
});
