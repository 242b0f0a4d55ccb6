//! The variants of examples/fairy/ beyond their perft suite (tests/perft/fairy.txt): counts with no
//! published figure confirmed by the slow reference generator, and Chess960's numbering.

mod common;

use common::reference::{from_general, perft, start};
use orbis_compiler::frontend::SetupChoice;

const CHESS960: &str = "examples/fairy/chess960.orbis";

/// Berolina chess has no published perft: its depth-4 count (also Fairy-Stockfish's) is confirmed
/// here by the reference generator (about a minute).
#[test]
#[ignore = "slow: the reference generator's perft 4"]
fn berolina_perft_4_matches_reference() {
    let v = common::variant("examples/fairy/berolina.orbis");
    assert_eq!(perft(&v, &start(&v), 4), 882_717);
}

/// Chess960 castling in a middlegame where both castlings are still allowed (the published
/// position 1, whose king castles short without moving): the reference agrees to depth 3.
#[test]
fn chess960_castling_matches_reference() {
    let v = common::variant_choice(CHESS960, SetupChoice::Number(1));
    let engine = common::engine_setup(CHESS960, 1);
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9";
    let p = from_general(&v, &engine.general_text(Some(fen)).unwrap());
    for depth in 1..=3 {
        assert_eq!(engine.perft(Some(fen), depth).unwrap(), perft(&v, &p, depth), "perft({depth})");
    }
}

/// White's first rank of a setup, as FEN letters.
fn first_rank(choice: SetupChoice) -> String {
    let v = common::variant_choice(CHESS960, choice);
    let mut rank = vec!['.'; 8];
    for &(cell, piece) in &v.sides[0].setup {
        let (x, y) = v.board.cells[cell].coords.unwrap();
        if y == 0 {
            rank[x as usize] = v.pieces[piece].symbol;
        }
    }
    rank.into_iter().collect()
}

/// The standard numbering's known arrays, the default (518) and black mirroring white.
#[test]
fn chess960_numbering_gives_the_known_arrays() {
    for (n, array) in [(518, "RNBQKBNR"), (0, "BBQNNRKR"), (1, "BQNBNRKR"), (874, "QRKRBBNN"), (906, "RKQRBBNN"), (959, "RKRNNQBB")] {
        assert_eq!(first_rank(SetupChoice::Number(n)), array, "setup {n}");
    }
    assert_eq!(first_rank(SetupChoice::Default), "RNBQKBNR");
    let engine = common::engine_setup(CHESS960, 0);
    assert_eq!(engine.position_text(None).unwrap(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
}

/// All 960 numbers give 960 different arrays, each with its bishops on both colours and its king
/// between its rooks; 960 is out of range.
#[test]
fn chess960_numbers_cover_every_array_once() {
    let mut seen = std::collections::HashSet::new();
    for n in 0..960 {
        let a: Vec<char> = first_rank(SetupChoice::Number(n)).chars().collect();
        let bishops: Vec<usize> = (0..8).filter(|&i| a[i] == 'B').collect();
        assert_eq!(bishops.len(), 2);
        assert_ne!(bishops[0] % 2, bishops[1] % 2, "setup {n}: bishops on one colour");
        let rooks: Vec<usize> = (0..8).filter(|&i| a[i] == 'R').collect();
        let king = a.iter().position(|&c| c == 'K').unwrap();
        assert!(rooks[0] < king && king < rooks[1], "setup {n}: king not between the rooks");
        assert!(seen.insert(a), "setup {n} repeats an array");
    }
    let source = std::fs::read_to_string(common::root().join(CHESS960)).unwrap();
    let checked = orbis_compiler::check_with(CHESS960, &source, SetupChoice::Number(960));
    assert!(checked.render(false).contains("setup 960 is out of range"), "{}", checked.render(false));
}

/// A seed always draws the same setup; different seeds draw different ones.
#[test]
fn chess960_seed_is_deterministic() {
    let a = first_rank(SetupChoice::Seed(7));
    assert_eq!(a, first_rank(SetupChoice::Seed(7)));
    let n = orbis_compiler::frontend::mix(7) % 960;
    assert_eq!(a, first_rank(SetupChoice::Number(n)));
    let drawn: std::collections::HashSet<String> = (0..20).map(|s| first_rank(SetupChoice::Seed(s))).collect();
    assert!(drawn.len() > 10, "seeds draw few setups: {drawn:?}");
}
