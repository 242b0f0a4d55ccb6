//! Passing and facing royal pieces (docs/language.md, "Passing and facing"), with Janggi
//! (`examples/fairy/janggi.orbis`): the positions of tests/perft/fairy.txt against the slow
//! reference generator, the pass in the notation (`pass`, Fairy-Stockfish's `e2e2`), and the two
//! ends of the game (two passes in a row; a pass while the generals face each other).

mod common;

use common::reference::{from_general, perft};

const JANGGI: &str = "examples/fairy/janggi.orbis";
/// The start with the two e-file soldiers gone: the generals face each other (bikjang).
const FACING: &str = "rnba1abnr/4k4/1c5c1/p1p3p1p/9/9/P1P3P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

/// The runtime and the reference count the same from `fen` (and `after` these moves) to `depth`.
fn agree(fen: &str, after: &[&str], depth: usize) {
    let v = common::variant(JANGGI);
    let engine = common::engine(JANGGI);
    let text = engine.play(Some(fen), after).unwrap();
    let p = from_general(&v, &engine.general_text(Some(&text)).unwrap());
    for d in 1..=depth {
        assert_eq!(engine.perft(Some(&text), d).unwrap(), perft(&v, &p, d), "{fen} after {after:?}: perft({d})");
    }
}

/// Facing generals, a check with and without facing, Fairy-Stockfish's published middlegame,
/// and a position right after a pass (the next pass ends the game).
#[test]
fn janggi_positions_match_reference() {
    agree(FACING, &[], 3);
    agree("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", &[], 3);
    agree("4k4/9/9/9/9/9/9/9/r3K4/9 w - - 0 1", &[], 3);
    agree("3k5/9/9/9/9/9/9/9/r3K4/9 w - - 0 1", &[], 3);
    agree("1n1kaabn1/cr2N4/5C1c1/p1pNp3p/9/9/P1PbP1P1P/3r1p3/4A4/R1BA1KB1R b - - 0 1", &[], 2);
    agree("4k4/4a4/9/9/9/9/9/9/4A4/3K5 w - - 0 1", &["pass"], 3);
    // Facing generals parted by a chariot that gives check (Ra2-e2): black may not pass in that
    // check, as the generals no longer face each other.
    agree("4k4/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", &[], 3);
}

fn notations(engine: &orbis_runtime::Engine, position: &str) -> Vec<String> {
    engine.moves(Some(position)).unwrap().into_iter().map(|m| m.notation).collect()
}

/// A pass is written `pass` and read as `pass` or as the general's move to its own cell, as
/// Fairy-Stockfish writes it; two in a row end the game in a draw.
#[test]
fn two_passes_end_the_game() {
    let engine = common::engine(JANGGI);
    let start = engine.moves(None).unwrap();
    let pass = start.iter().find(|m| m.notation == "pass").expect("a pass at the start");
    assert_eq!((pass.uci.as_str(), pass.kind), ("e2e2", "pass"));
    let (after_one, status) = engine.play_status(None, &["e2e2"]).unwrap();
    assert_eq!(status, "ongoing");
    assert!(after_one.contains("pass=last"), "{after_one}");
    // The position after a pass reads back (the general notation keeps the pass).
    assert_eq!(engine.general_text(Some(&after_one)).unwrap(), after_one);
    let (after_two, status) = engine.play_status(None, &["pass", "e9e9"]).unwrap();
    assert_eq!(status, "draw: both sides passed");
    assert!(notations(&engine, &after_two).is_empty());
    // A move between the passes: play goes on.
    let (_, status) = engine.play_status(None, &["pass", "a7a6", "pass"]).unwrap();
    assert_eq!(status, "ongoing");
}

/// In check a side may not pass, unless the generals face each other.
#[test]
fn no_pass_in_check_unless_facing() {
    let engine = common::engine(JANGGI);
    let check = "3k5/9/9/9/9/9/9/9/r3K4/9 w - - 0 1";
    assert!(!notations(&engine, check).contains(&"pass".to_string()));
    let err = engine.play(Some(check), &["pass"]).unwrap_err().to_string();
    assert!(err.contains("illegal move 'pass'"), "{err}");
    assert!(notations(&engine, "4k4/9/9/9/9/9/9/9/r3K4/9 w - - 0 1").contains(&"pass".to_string()));
}

/// Moving into bikjang is legal; facing generals must be parted by every move but the pass, and
/// a pass while they face each other ends the game.
#[test]
fn bikjang() {
    let engine = common::engine(JANGGI);
    let mut moves = notations(&engine, FACING);
    moves.sort();
    // The general's steps off the e-file, the elephants' leaps between the generals, and the
    // pass (Fairy-Stockfish lists the same seven).
    assert_eq!(moves, ["Bc1-e4", "Bg1-e4", "Ke2-d2", "Ke2-d3", "Ke2-f2", "Ke2-f3", "pass"], "{moves:?}");
    let err = engine.play(Some(FACING), &["Ke2-e1"]).unwrap_err().to_string();
    assert!(err.contains("illegal move"), "{err}");
    let (after, status) = engine.play_status(Some(FACING), &["pass"]).unwrap();
    assert_eq!(status, "draw: the royal pieces still face each other (a pass while facing)");
    assert!(after.contains("pass=facing"), "{after}");
    // Opening the file is legal: the soldier on e4 steps aside, and the generals face.
    let open = "rnba1abnr/4k4/1c5c1/p1p3p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    let (_, status) = engine.play_status(Some(open), &["e4d4"]).unwrap();
    assert_eq!(status, "ongoing");
    agree(open, &["e4d4"], 2);
}

/// `pass` is no Janggi-only rule: added to Crowned Chess (crowning from the hand, stacks) and to
/// the 5x5 cube, it adds one move to every position not in check, and the runtime counts as the
/// reference generator does.
#[test]
fn passing_on_other_boards() {
    for (path, depth) in [("examples/stacks/crowned-chess.orbis", 3), ("examples/cube/cube-5x5.orbis", 2)] {
        let text = std::fs::read_to_string(common::root().join(path)).unwrap();
        let with_pass = if text.contains("\nrules {") { text.replacen("\nrules {", "\nrules {\n  pass", 1) } else { text + "\nrules { pass }\n" };
        let v = common::variant_from(path, &with_pass);
        let engine = orbis_runtime::Engine::new(orbis_compiler::lower::lower(&v)).unwrap();
        let without = common::engine(path);
        assert_eq!(engine.perft(None, 1).unwrap(), without.perft(None, 1).unwrap() + 1, "{path}");
        let p = common::reference::start(&v);
        for d in 1..=depth {
            assert_eq!(engine.perft(None, d).unwrap(), perft(&v, &p, d), "{path} perft({d})");
        }
    }
}

/// The general notation's `pass=` is checked against the rules and the position.
#[test]
fn pass_field_is_checked() {
    let engine = common::engine(JANGGI);
    let start = engine.general_text(None).unwrap();
    for (field, error) in [
        ("pass=facing", "no royal pieces face each other"),
        ("pass=often", "is not last, twice or facing"),
    ] {
        let err = engine.general_text(Some(&format!("{start} {field}"))).unwrap_err().to_string();
        assert!(err.contains(error), "{field}: {err}");
    }
    let twice = engine.general_text(Some(&format!("{start} pass=twice"))).unwrap();
    assert!(notations(&engine, &twice).is_empty());
    let orthodox = common::engine("examples/orthodox.orbis");
    let start = orthodox.general_text(None).unwrap();
    let err = orthodox.general_text(Some(&format!("{start} pass=last"))).unwrap_err().to_string();
    assert!(err.contains("no `pass` or `facing` rule"), "{err}");
}

/// A pass in check while the generals face each other ends the game; the position after it, with
/// the side that passed still in check, reads back (random games found it refused once).
#[test]
fn a_pass_in_check_while_facing_reads_back() {
    let engine = common::engine(JANGGI);
    let (after, status) = engine.play_status(Some("4k4/9/9/9/9/9/9/9/r3K4/9 w - - 0 1"), &["pass"]).unwrap();
    assert_eq!(status, "draw: the royal pieces still face each other (a pass while facing)");
    assert!(after.contains("pass=facing"), "{after}");
    assert_eq!(engine.general_text(Some(&after)).unwrap(), after);
}
