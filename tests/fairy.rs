//! The variants of examples/fairy/ beyond their perft suite (tests/perft/fairy.txt): counts with no
//! published figure confirmed by the slow reference generator.

mod common;

use common::reference::{from_general, perft, start};

/// Berolina chess has no published perft: its depth-4 count (also Fairy-Stockfish's) is confirmed
/// here by the reference generator (about a minute).
#[test]
#[ignore = "slow: the reference generator's perft 4"]
fn berolina_perft_4_matches_reference() {
    let v = common::variant("examples/fairy/berolina.orbis");
    assert_eq!(perft(&v, &start(&v), 4), 882_717);
}

/// Chess960 castling in a middlegame where both castlings are still allowed (the published
/// position 1): the reference agrees to depth 3.
#[test]
fn chess960_castling_matches_reference() {
    let path = "examples/fairy/chess960-sp1.orbis";
    let v = common::variant(path);
    let engine = common::engine(path);
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9";
    let p = from_general(&v, &engine.general_text(Some(fen)).unwrap());
    for depth in 1..=3 {
        assert_eq!(engine.perft(Some(fen), depth).unwrap(), perft(&v, &p, depth), "perft({depth})");
    }
}
