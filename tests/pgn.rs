//! PGN that other chess tools read and write: orbis's saved games (SAN on grid boards of two
//! sides) replayed by shakmaty, and shakmaty's random games (with move numbers stuck to moves,
//! comments, variations and glyphs) read back by orbis, both ending in the same position.

mod common;

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, EnPassantMode, Position};

/// What stands where and whose turn it is, in orbis's general notation (orbis writes the
/// general notation where FEN cannot tell which pieces are unmoved, so both texts go through it).
fn key(engine: &orbis_runtime::Engine, text: &str) -> String {
    let general = engine.general_text(Some(text)).expect("a position");
    general.split_whitespace().filter(|t| ["turn=", "white=", "black="].iter().any(|p| t.starts_with(p))).collect::<Vec<_>>().join(" ")
}

/// A random legal game of up to `plies` plies by shakmaty, in SAN with `+`/`#`.
fn random_game(seed: u64, plies: usize) -> (Vec<String>, Chess) {
    let mut pos = Chess::default();
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut sans = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let m = moves[(state >> 33) as usize % moves.len()].clone();
        sans.push(SanPlus::from_move_and_play_unchecked(&mut pos, &m).to_string());
    }
    (sans, pos)
}

#[test]
fn orbis_san_replays_in_shakmaty() {
    let engine = common::engine("examples/orthodox.orbis");
    for seed in 0..40 {
        // The same random game, played through orbis by coordinates.
        let (sans, expected) = random_game(seed, 120);
        let mut pos = Chess::default();
        let mut coordinates = Vec::new();
        for san in &sans {
            let m = san.trim_end_matches(['+', '#']).parse::<San>().expect("SAN").to_move(&pos).expect("legal");
            coordinates.push(promotion_upper(&m.to_uci(shakmaty::CastlingMode::Standard).to_string()));
            pos = pos.play(&m).expect("plays");
        }
        let refs: Vec<&str> = coordinates.iter().map(String::as_str).collect();
        let written = engine.san(None, &refs).expect("orbis plays the game");
        assert_eq!(written, sans, "seed {seed}: orbis writes the SAN shakmaty writes");
        let end = engine.play(None, &refs).expect("plays");
        assert_eq!(key(&engine, &end), key(&engine, &Fen::from_position(expected, EnPassantMode::Legal).to_string()), "seed {seed}");
    }
}

/// `e7e8q` as orbis reads it: `e7e8=Q`.
fn promotion_upper(uci: &str) -> String {
    match uci.chars().last() {
        Some(c) if c.is_ascii_lowercase() && uci.len() == 5 => format!("{}={}", &uci[..4], c.to_ascii_uppercase()),
        _ => uci.to_string(),
    }
}

#[test]
fn pgn_from_another_tool_loads_in_play() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for seed in 0..5 {
        let (sans, expected) = random_game(100 + seed, 80);
        // Move numbers stuck to the moves, a comment, a variation and a glyph, as PGN allows.
        let mut body = String::new();
        for (i, san) in sans.iter().enumerate() {
            if i % 2 == 0 {
                body += &format!("{}.", i / 2 + 1);
            }
            body += san;
            body += if i == 2 { " {a comment} (1... a6 2. a3) $1 " } else { " " };
        }
        let pgn = format!("[Event \"shakmaty\"]\n[Variant \"Standard\"]\n[Result \"*\"]\n\n{body}*\n");
        let path = dir.join(format!("g{seed}.pgn"));
        std::fs::write(&path, pgn).expect("written");
        let saved = dir.join(format!("back{seed}.pgn"));
        let input = format!("load {}\nsave {}\nquit\n", path.display(), saved.display());
        let out = play_with(&input);
        assert!(!out.contains("cannot") && !out.contains("illegal"), "{out}");
        // Saved again, the game is the same SAN.
        let back = std::fs::read_to_string(&saved).expect("saved");
        let first = sans[0].clone();
        assert!(back.contains(&format!("1. {first} ")), "{back}");
        let moves: Vec<String> = back.lines().last().expect("movetext").split_whitespace().filter(|t| !t.ends_with('.') && *t != "*").map(str::to_string).collect();
        assert_eq!(moves, sans, "seed {seed}");
        // And the position it ends in is shakmaty's.
        let engine = common::engine("examples/orthodox.orbis");
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let end = engine.play(None, &refs).expect("plays");
        assert_eq!(key(&engine, &end), key(&engine, &Fen::from_position(expected, EnPassantMode::Legal).to_string()), "seed {seed}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `orbis play` on the orthodox board with `input` typed; its standard output.
fn play_with(input: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_orbis"))
        .args(["play", "examples/orthodox.orbis"])
        .current_dir(common::root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("orbis runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("typed");
    let out = child.wait_with_output().expect("ends");
    String::from_utf8_lossy(&out.stdout).into_owned()
}
