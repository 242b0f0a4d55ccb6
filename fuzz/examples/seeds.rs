//! Writes the seed corpora under fuzz/corpus/ from the examples and the tests:
//! `cargo run --manifest-path fuzz/Cargo.toml --example seeds` (scripts/fuzz.sh runs it when a corpus
//! is missing). Deterministic: the same repository gives the same files.
//!
//! - grammar, compiler: every `*.orbis` under examples/ (invalid files and libraries included);
//! - tables: the compiled tables of every example variant;
//! - position: a variant byte, then position texts: FEN and general-notation strings quoted in
//!   tests/ (with each variant byte), and each variant's start position and positions reached by
//!   fixed pseudo-random playouts, in both notations;
//! - moves: a variant byte, then move lists: the playouts (from the start and from a position
//!   line), and move lists quoted in tests/runtime/notation.rs.

use orbis_fuzz::{compile_example, examples_dir, variants};
use orbis_runtime::Engine;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn orbis_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).expect("read examples").flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            orbis_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "orbis") {
            out.push(path);
        }
    }
}

/// The corpus file name of an example: its path under examples/ with `/` as `_`.
fn flat_name(examples: &Path, path: &Path) -> String {
    path.strip_prefix(examples).unwrap().display().to_string().replace('/', "_")
}

/// Double-quoted string literals of a Rust or text file (no escapes handled: the ones we want have none).
fn quoted(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut parts = text.split('"');
    parts.next();
    while let Some(inside) = parts.next() {
        out.push(inside.to_string());
        parts.next();
    }
    out
}

/// Small variants whose tables make fast seeds: every kind of rule and board statement in little.
const SMALL: [(&str, &str); 3] = [
    (
        "mini",
        r#"variant "Mini"
board {
  grid files a..d ranks 1..4
  headings { N (0, 1) NE (1, 1) E (1, 0) SE (1, -1) S (0, -1) SW (-1, -1) W (-1, 0) NW (-1, 1) }
  group orth = N E S W
  group diag = NE SE SW NW
}
piece King K royal { step all }
piece Rook R { slide orth }
piece Knight N { leap step orth then step turn +-1 }
piece Pawn P resets-clock {
  move-only step forward
  move-only initial en-passant-target step forward then step straight
  capture-only en-passant step forward turn +-1
}
side white {
  forward N
  setup { K a1  R d1  P b2 c2 }
  promote P to R N on rank 4
  castle O-O { king a1 -> c1  rook d1 -> b1  empty b1 c1  safe a1 b1 c1  fen K }
}
side black {
  forward S
  setup { K a4  N d4  P b3 c3 }
  promote P to R N on rank 1
}
rules { stalemate draw  fifty-move 20  repetition 3 }
"#,
    ),
    (
        "cylinder",
        r#"variant "Small cylinder"
board {
  grid files a..c ranks 1..3
  wrap files
  headings { N (0, 1) E (1, 0) S (0, -1) W (-1, 0) NE (1, 1) NW (-1, 1) SE (1, -1) SW (-1, -1) }
  group orth = N E S W
  group diag = NE NW SE SW
}
piece King K royal { step all }
piece Bishop B { slide diag }
side white { forward N  setup { K a1  B c1 } }
side black { forward S  setup { K c3  B a3 } }
"#,
    ),
    (
        "cells",
        r#"variant "Cells beyond a grid"
board {
  grid files a..b ranks 1..2
  headings { N (0, 1) E (1, 0) S (0, -1) W (-1, 0) }
  headings spokes { via-a via-b }
  group orth = N E S W
  cells pole
  link { a2 b2 } N -> pole { via-b via-a }
  link pole { via-a via-b } -> { a2 b2 } S
}
piece King K royal { step orth then slide straight }
piece Queen Q { slide orth }
side white { forward N  setup { K a1 } }
side black { forward S  setup { K b2  Q pole } }
"#,
    ),
];

fn looks_like_fen(s: &str) -> bool {
    let fields: Vec<&str> = s.split_whitespace().collect();
    (4..=6).contains(&fields.len()) && fields[0].contains('/') && matches!(fields[1], "w" | "b")
}

fn looks_like_general(s: &str) -> bool {
    s.starts_with("turn=") || s.contains(" white=") || s.contains(" black=")
}

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A playout of at most `plies` moves from the start; returns the notations played.
fn playout(engine: &Engine, plies: usize, rng: &mut Rng) -> Vec<String> {
    let mut played: Vec<String> = Vec::new();
    for _ in 0..plies {
        let refs: Vec<&str> = played.iter().map(String::as_str).collect();
        let Ok((text, _)) = engine.play_status(None, &refs) else { break };
        let Ok(moves) = engine.moves(Some(&text)) else { break };
        if moves.is_empty() {
            break;
        }
        played.push(moves[rng.below(moves.len())].notation.clone());
    }
    played
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
}

fn with_byte(byte: u8, text: &str) -> Vec<u8> {
    let mut v = vec![byte];
    v.extend_from_slice(text.as_bytes());
    v
}

fn main() {
    let examples = examples_dir();
    let root = examples.parent().unwrap().to_path_buf();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for target in ["grammar", "compiler", "tables", "position", "moves"] {
        std::fs::create_dir_all(corpus.join(target)).unwrap();
    }

    // Sources.
    let mut files = Vec::new();
    orbis_files(&examples, &mut files);
    for path in &files {
        let text = std::fs::read(path).unwrap();
        let name = flat_name(&examples, path);
        write(&corpus.join("grammar"), &name, &text);
        write(&corpus.join("compiler"), &name, &text);
    }

    // Tables: two example variants (a plain grid, a globe with identified cells), two polygon
    // boards of the tests (with a layout), and the small variants below, whose tables are a few kilobytes (an example's are 100-300 KB, slow to mutate).
    for relative in ["orthodox.orbis", "spherical/nadvorney.orbis", "../tests/polygon/ball-riders.orbis", "../tests/polygon/cube-5x5-riders.orbis"] {
        let tables = compile_example(relative);
        let name = relative.trim_start_matches("../tests/").replace('/', "_").replace(".orbis", ".orbt");
        write(&corpus.join("tables"), &name, &tables.to_bytes());
    }
    // The polygon-board variants of the tests, including the boards from the fuzz sandbox's lib/.
    for entry in std::fs::read_dir(root.join("tests/polygon")).into_iter().flatten().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let text = text.replace("include \"../../examples/boards/", "include \"lib/");
        let name = format!("polygon_{}", entry.file_name().to_string_lossy());
        write(&corpus.join("grammar"), &name, text.as_bytes());
        write(&corpus.join("compiler"), &name, text.as_bytes());
    }
    for (name, source) in SMALL {
        let checked = orbis_compiler::check(&format!("{name}.orbis"), source);
        let variant = checked.variant.as_ref().unwrap_or_else(|| panic!("{name}:\n{}", checked.render(false)));
        let tables = orbis_compiler::lower::lower(variant);
        write(&corpus.join("tables"), &format!("small-{name}.orbt"), &tables.to_bytes());
        write(&corpus.join("grammar"), &format!("small-{name}.orbis"), source.as_bytes());
        write(&corpus.join("compiler"), &format!("small-{name}.orbis"), source.as_bytes());
    }

    // Position texts quoted in the tests.
    let mut quoted_positions = BTreeSet::new();
    let mut move_lists = BTreeSet::new();
    let mut test_files: Vec<PathBuf> =
        std::fs::read_dir(root.join("tests")).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    for dir in ["tests/perft", "tests/runtime"] {
        test_files.extend(std::fs::read_dir(root.join(dir)).unwrap().flatten().map(|e| e.path()));
    }
    test_files.sort();
    for path in &test_files {
        let text = std::fs::read_to_string(path).unwrap();
        let mut strings = quoted(&text);
        if path.extension().is_some_and(|e| e == "txt") {
            // Perft suites: name | FEN | counts.
            strings.extend(text.lines().filter_map(|l| l.split('|').nth(1)).map(|s| s.trim().to_string()));
        }
        for s in strings {
            if s.len() <= 200 && (looks_like_fen(&s) || looks_like_general(&s)) {
                quoted_positions.insert(s);
            }
        }
        // Move lists: arrays of move strings in tests/runtime/notation.rs, e.g. ["e2-e4", "c7-c5"].
        if path.file_name().is_some_and(|n| n == "notation.rs") {
            for line in text.lines() {
                let Some(start) = line.find("&[\"") else { continue };
                let Some(len) = line[start..].find(']') else { continue };
                let list: Vec<String> = quoted(&line[start..start + len]);
                if !list.is_empty() && list.iter().all(|m| m.len() <= 12 && !m.contains(' ')) {
                    move_lists.insert(list.join(" "));
                }
            }
        }
    }
    let position_dir = corpus.join("position");
    let moves_dir = corpus.join("moves");
    // The tests' positions are orthodox ones (variant byte 0).
    for (i, text) in quoted_positions.iter().enumerate() {
        write(&position_dir, &format!("tests-{i:03}"), &with_byte(0, text));
    }
    for (i, list) in move_lists.iter().enumerate() {
        write(&moves_dir, &format!("tests-{i:03}"), &with_byte(0, list));
    }

    // Start positions and playouts of each variant.
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (byte, engine) in variants().iter().enumerate() {
        let byte = byte as u8;
        for (k, plies) in [0usize, 1, 2, 4, 8, 16, 32, 64].into_iter().enumerate() {
            let played = playout(engine, plies, &mut rng);
            let refs: Vec<&str> = played.iter().map(String::as_str).collect();
            let (text, _) = engine.play_status(None, &refs).expect("a playout replays");
            let general = engine.general_text(Some(&text)).expect("a reached position reads");
            write(&position_dir, &format!("v{byte}-play{k}-text"), &with_byte(byte, &text));
            if general != text {
                write(&position_dir, &format!("v{byte}-play{k}-general"), &with_byte(byte, &general));
            }
            if !played.is_empty() {
                write(&moves_dir, &format!("v{byte}-play{k}"), &with_byte(byte, &played.join(" ")));
                // The same position as a position line, then a few more moves from it.
                let more = playout_from(engine, &text, 4, &mut rng);
                write(&moves_dir, &format!("v{byte}-play{k}-from"), &with_byte(byte, &format!("{text}\n{}", more.join(" "))));
            }
        }
    }
    for target in ["grammar", "compiler", "tables", "position", "moves"] {
        let n = std::fs::read_dir(corpus.join(target)).unwrap().count();
        println!("corpus/{target}: {n} files");
    }
}

/// A playout of at most `plies` moves from the position `text`.
fn playout_from(engine: &Engine, text: &str, plies: usize, rng: &mut Rng) -> Vec<String> {
    let mut played: Vec<String> = Vec::new();
    for _ in 0..plies {
        let refs: Vec<&str> = played.iter().map(String::as_str).collect();
        let Ok((now, _)) = engine.play_status(Some(text), &refs) else { break };
        let Ok(moves) = engine.moves(Some(&now)) else { break };
        if moves.is_empty() {
            break;
        }
        played.push(moves[rng.below(moves.len())].notation.clone());
    }
    played
}
