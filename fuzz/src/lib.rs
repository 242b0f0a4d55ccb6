//! The bodies of the fuzz targets, shared by `fuzz_targets/*.rs` (libFuzzer) and by the main
//! crate's `tests/runtime/fuzz_regressions.rs`, which includes this file with `#[path]` and replays every
//! input kept under `fuzz/regressions/` through the same code. It may therefore only use crates the
//! root package depends on (orbis-compiler, orbis-runtime, orbis-diagram) and std.
//!
//! Besides "never panic", the targets check a few properties cheaply (assertions are crashes to
//! libFuzzer): compiled tables load and round-trip through bytes, loaded tables round-trip, a
//! parsed position's texts read back to the same position, perft 1 counts the listed moves, and
//! every legal move's notation reads back as that move.

use orbis_runtime::format::{FORMAT_VERSION, HEADER_LEN, MAGIC};
use orbis_runtime::{Engine, Position, Tables};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The repository's `examples/`, found from this crate (fuzz/) or the root package.
pub fn examples_dir() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in [here.join("examples"), here.join("../examples")] {
        if dir.join("orthodox.orbis").is_file() {
            return dir;
        }
    }
    panic!("cannot find examples/ from {}", here.display());
}

/// The variants the position and moves targets play: the first input byte picks one.
pub const VARIANTS: [&str; 3] = ["orthodox.orbis", "spherical/nadvorney.orbis", "corner/variant2.orbis"];

/// Compiles an example file the way the CLI does (with its real path, so includes resolve).
pub fn compile_example(relative: &str) -> Tables {
    let path = examples_dir().join(relative);
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let checked = orbis_compiler::check(&path.display().to_string(), &source);
    let variant = checked.variant.as_ref().unwrap_or_else(|| panic!("{}:\n{}", path.display(), checked.render(false)));
    orbis_compiler::lower::lower(variant)
}

/// The engines of [`VARIANTS`], compiled once per process.
pub fn variants() -> &'static [Engine] {
    static ENGINES: OnceLock<Vec<Engine>> = OnceLock::new();
    ENGINES.get_or_init(|| {
        VARIANTS
            .iter()
            .map(|v| Engine::new(compile_example(v)).unwrap_or_else(|e| panic!("{v}: {e}")))
            .collect()
    })
}

/// A private directory that holds copies of the example libraries (`lib/*.orbis` and the boards
/// of `examples/boards/`, all in `lib/`) and of the examples' data files (mesh files such as
/// `soccer-ball.off`, in both), so fuzzed sources can `include "lib/globe.orbis"` or
/// `include "lib/soccer-ball.orbis"` and exercise that code without reaching any other file. The fuzzed file itself (`fuzz-input.orbis`) does not exist there.
pub fn sandbox() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("orbis-fuzz-{}", std::process::id()));
        let lib = dir.join("lib");
        std::fs::create_dir_all(&lib).expect("create the fuzz sandbox");
        let mut pending = vec![examples_dir()];
        while let Some(d) = pending.pop() {
            let Ok(entries) = std::fs::read_dir(&d) else { continue };
            for path in entries.flatten().map(|e| e.path()) {
                let Some(name) = path.file_name() else { continue };
                if path.is_dir() {
                    pending.push(path);
                } else if path.extension().is_none_or(|e| e != "orbis") {
                    let _ = std::fs::copy(&path, dir.join(name));
                    let _ = std::fs::copy(&path, lib.join(name));
                } else if d.file_name().is_some_and(|n| n == "lib" || n == "boards") {
                    let _ = std::fs::copy(&path, lib.join(name));
                }
            }
        }
        dir
    })
}

/// Whether every possible `include` or mesh file path of `source` stays inside the sandbox: no string literal
/// (taking every `"` as a possible opening quote, so comments cannot hide one) starts with `/` or
/// `\` or contains `..`. Such inputs are skipped: the fuzzer must not read `/dev/zero`, `/dev/stdin`
/// or the rest of the machine. (The grammar has no escapes in strings.)
pub fn includes_stay_inside(source: &str) -> bool {
    let mut rest = source;
    while let Some(i) = rest.find('"') {
        rest = &rest[i + 1..];
        let literal = &rest[..rest.find(['"', '\n']).unwrap_or(rest.len())];
        if literal.starts_with(['/', '\\']) || literal.contains("..") {
            return false;
        }
    }
    true
}

/// The whole compiler on a source text: check (parse, includes, frontend, analysis), diagnostics
/// rendered, the report, lowering, the tables' byte round trip, loading, and a small perft.
pub fn compiler(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else { return };
    if !includes_stay_inside(source) {
        return;
    }
    let name = sandbox().join("fuzz-input.orbis");
    let checked = orbis_compiler::check(&name.display().to_string(), source);
    let _ = checked.render(false);
    let _ = orbis_compiler::report(&checked);
    let Some(variant) = &checked.variant else { return };
    let tables = orbis_compiler::lower::lower(variant);
    let bytes = tables.to_bytes();
    assert_eq!(Tables::from_bytes(&bytes).as_ref(), Ok(&tables), "compiled tables read back");
    let engine = match Engine::new(tables) {
        Ok(engine) => engine,
        Err(e) => panic!("a checked variant does not load: {e}"),
    };
    play_start(&engine, true);
}

/// What a loaded engine is asked about its start position (the compiler and tables targets).
fn play_start(engine: &Engine, deeper: bool) {
    let _ = engine.position_text(None);
    let _ = engine.general_text(None);
    let Ok(moves) = engine.moves(None) else { return };
    let Ok(count) = engine.perft(None, 1) else { return };
    assert_eq!(count, moves.len() as u64, "perft 1 counts the legal moves");
    if deeper && count <= 64 {
        let _ = engine.perft(None, 2);
    }
    // The diagram crate draws from the same tables (orbis diagram FILE.orbt).
    let text = orbis_diagram::Options { format: orbis_diagram::Format::Text, ..Default::default() };
    let _ = orbis_diagram::render(engine, &text);
    let _ = orbis_diagram::render(engine, &orbis_diagram::Options::default());
}

/// CRC-32 (IEEE), as the table header stores it (the same as crc32fast's).
fn crc32(bytes: &[u8]) -> u32 {
    static TABLE: OnceLock<[u32; 256]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [0u32; 256];
        for (i, slot) in t.iter_mut().enumerate() {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            }
            *slot = c;
        }
        t
    });
    !bytes.iter().fold(!0u32, |c, &b| table[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8))
}

/// The bytes with a header that matches their payload (magic, version, no flags, length, CRC), so
/// that mutations reach the payload decoder and `validate` instead of stopping at the checksum.
pub fn fix_header(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < HEADER_LEN {
        return None;
    }
    let mut fixed = data.to_vec();
    let payload_len = u32::try_from(data.len() - HEADER_LEN).ok()?;
    let crc = crc32(&data[HEADER_LEN..]);
    fixed[0..4].copy_from_slice(&MAGIC);
    fixed[4..6].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    fixed[6..8].copy_from_slice(&0u16.to_le_bytes());
    fixed[8..12].copy_from_slice(&payload_len.to_le_bytes());
    fixed[12..16].copy_from_slice(&crc.to_le_bytes());
    Some(fixed)
}

/// Table bytes: the loader as is, then with a matching header; a table that loads must round-trip
/// through bytes, be dumped by `inspect`, and (if the engine takes it) have its start position
/// listed, counted and drawn.
pub fn tables(data: &[u8]) {
    let _ = Tables::from_bytes(data);
    let Some(fixed) = fix_header(data) else { return };
    let Ok(tables) = Tables::from_bytes(&fixed) else { return };
    assert_eq!(Tables::from_bytes(&tables.to_bytes()).as_ref(), Ok(&tables), "loaded tables read back");
    let _ = orbis_runtime::inspect::inspect(&tables);
    let Ok(engine) = Engine::new(tables) else { return };
    play_start(&engine, false);
}

use orbis_runtime::with_game;

/// Every legal move of the position `text` is written in a notation that reads back as that move.
fn notation_round_trip(engine: &Engine, text: &str) {
    with_game!(engine, g => {
        let Ok(mut pos) = Position::parse(g, text) else { return };
        let mut moves = Vec::new();
        pos.legal_moves(g, &mut moves);
        for mv in moves {
            let n = pos.notation(g, mv);
            assert_eq!(pos.parse_move(g, &n), Ok(mv), "the notation {n} in {text}");
        }
    })
}

/// The first byte picks a variant of [`VARIANTS`]; the rest is a position text (FEN or the general
/// notation). A position that reads must write texts that read back to the same texts and moves,
/// and perft 1 must count its moves.
pub fn position(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else { return };
    let engines = variants();
    let engine = &engines[which as usize % engines.len()];
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let _ = engine.general_text(Some(text));
    let Ok(normal) = engine.position_text(Some(text)) else { return };
    let moves = engine.moves(Some(text)).expect("a position that reads lists its moves");
    let count = engine.perft(Some(text), 1).expect("a position that reads has a perft");
    assert_eq!(count, moves.len() as u64, "perft 1 counts the legal moves of {text}");
    let general = engine.general_text(Some(text)).expect("a position that reads has a general text");
    assert_eq!(engine.position_text(Some(&normal)).as_ref(), Ok(&normal), "{text}: its text {normal} reads back");
    assert_eq!(engine.general_text(Some(&general)).as_ref(), Ok(&general), "{text}: its general text {general} reads back");
    // The general notation keeps everything: it reads back as the very position. FEN is written
    // only when it reads back as the same position for move generation and repetition (it may
    // then differ in the unmoved state of pieces whose moves do not depend on it).
    assert_eq!(engine.position_text(Some(&general)).as_ref(), Ok(&normal), "{text}: {general} is {normal}");
    assert_eq!(engine.moves(Some(&normal)).as_ref(), Ok(&moves), "{text}: {normal} has the same moves");
    notation_round_trip(engine, &normal);
}

/// The first byte picks a variant; the rest is text: a first line with a position (empty for the
/// start position) when the text has a newline, then moves separated by white space. The position
/// the moves reach must read back from its text, and its moves' notations must read back.
pub fn moves(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else { return };
    let engines = variants();
    let engine = &engines[which as usize % engines.len()];
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let (position, moves) = match text.split_once('\n') {
        Some((first, moves)) => (Some(first).filter(|p| !p.trim().is_empty()), moves),
        None => (None, text),
    };
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let Ok((reached, _status)) = engine.play_status(position, &moves) else { return };
    if let Err(e) = engine.moves(Some(&reached)) {
        panic!("the position {reached} reached by {moves:?} does not read back: {e}");
    }
    notation_round_trip(engine, &reached);
}
