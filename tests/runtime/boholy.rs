//! Boholy's optimal version (poles as transit cells) and Nelson's (poles as squares): the page's
//! examples (facts B-1..B-5, 1.A.6, 1.E.13), through the compiled tables.

use crate::common;

use common::{destinations, legal, ray_cells, set};
use orbis_runtime::bits::CellSet;
use orbis_runtime::{Engine, Game, Perft, Position};

const BOHOLY: &str = "examples/spherical/boholy.orbis";
const NELSON: &str = "examples/spherical/nelson.orbis";

/// B-1: "a Knight on b1 can move to a3, c3, h2, d2, g1, and e1 ... g1, from which a Knight may move to
/// h3, a2, b1, d1, e2, and f3"; "a Knight on g2 could move to h4, a3, a1, e1, e3, or f4".
#[test]
fn b1_knight() {
    let t = common::tables(BOHOLY);
    assert_eq!(destinations(&t, "Knight", "b1"), set("a3 c3 h2 d2 g1 e1"));
    assert_eq!(destinations(&t, "Knight", "g1"), set("h3 a2 b1 d1 e2 f3"));
    assert_eq!(destinations(&t, "Knight", "g2"), set("h4 a3 a1 e1 e3 f4"));
}

/// The poles are transit cells: 66 cells, two of which no piece can stand on.
#[test]
fn poles_are_neutral_transit_cells() {
    let t = common::tables(BOHOLY);
    assert_eq!(t.cells.len(), 66);
    assert_eq!(t.transit.len(), 2);
    // (At both widths: one word holds no pole, so the board, not a set, tells.)
    // A pole is no en-passant cell either: no move ends there.
    for refused in ["turn=white white=Ke1,Rsouth-pole black=Ke8", "turn=white white=Kg1 black=Ke8 ep=south-pole:e8", "turn=white white=Kg1 black=Ke8,Pe4 ep=south-pole:e4"] {
        assert!(Position::parse(&common::game_standing(BOHOLY), refused).is_err(), "{refused}");
        assert!(Position::parse(&common::game_medium(BOHOLY), refused).is_err(), "{refused}");
    }
}

/// B-2: the bishop crosses the pole as in Yapsan's version: g1 heading SW comes out on c1 heading NE.
#[test]
fn b2_bishop_crosses_like_yapsan() {
    let t = common::tables(BOHOLY);
    let (cells, _) = ray_cells(&t, "Bishop", "g1", "SW");
    assert_eq!(cells[..4], ["south-pole", "c1", "d2", "e3"]);
    assert!(!destinations(&t, "Bishop", "g1").contains("south-pole"));
    // The rook goes four files on.
    assert_eq!(ray_cells(&t, "Rook", "a3", "S").0[..5], ["a2", "a1", "south-pole", "e1", "e2"]);
}

/// B-3: "the King can cross a pole only by moving directly across it. This gives the King six
/// possible moves".
#[test]
fn b3_king_six_moves_next_to_the_pole() {
    let t = common::tables(BOHOLY);
    assert_eq!(destinations(&t, "King", "g1"), set("f1 h1 f2 g2 h2 c1"));
    let game = common::game_standing(BOHOLY);
    assert!(legal(&game, "8/8/8/4k3/8/8/8/6K1 w - - 0 1").contains("Kg1-c1"));
}

/// B-4: "a King may pass over a pole only if it is not attacked": by a rook, bishop or queen whose
/// path reaches it, by a knight on the first or second rank, but not by a knight further away.
#[test]
fn b4_king_crosses_only_an_unattacked_pole() {
    // At the engine's width, whose sets hold no pole (the pole's attackers are found from the
    // tables' list of the cells a move passes), and at two words.
    b4_on(&common::game_standing(BOHOLY));
    b4_on(&common::game_medium(BOHOLY));
}

fn b4_on<B: CellSet>(game: &Game<B>) {
    let crosses = |fen: &str| legal(game, fen).contains("Kg1-c1");
    let counts = |fen: &str| {
        let mut pos = Position::parse(game, fen).unwrap();
        let mut moves = Vec::new();
        pos.legal_moves(game, &mut moves);
        assert_eq!(pos.count_legal(game, &mut Vec::new()), moves.len() as u64, "{fen}");
    };
    for fen in ["8/8/8/4k3/8/8/8/6K1 w - - 0 1", "8/8/8/r3k3/8/8/8/6K1 w - - 0 1", "8/8/8/4k3/8/8/8/1n4K1 w - - 0 1"] {
        counts(fen);
    }
    assert!(crosses("8/8/8/4k3/8/8/8/6K1 w - - 0 1"));
    // A rook on the a file sees the pole through a1.
    assert!(!crosses("8/8/8/r3k3/8/8/8/6K1 w - - 0 1"));
    // ... but not when a1 is blocked.
    assert!(crosses("8/8/8/r3k3/8/8/8/P5K1 w - - 0 1"));
    // A bishop on a3: a3-b2-c1, then across.
    assert!(!crosses("8/8/8/4k3/8/b7/8/6K1 w - - 0 1"));
    // A knight on the first rank (b1-c1-d1, then into the pole) or the second (b2-c2-c1-pole).
    assert!(!crosses("8/8/8/4k3/8/8/8/1n4K1 w - - 0 1"));
    assert!(!crosses("8/8/8/4k3/8/8/1n6/6K1 w - - 0 1"));
    // A knight on the third rank does not attack the pole.
    assert!(crosses("8/8/8/4k3/8/4n3/8/6K1 w - - 0 1"));
    // Three headings from g1 (south-east, south, south-west) cross to c1; move generation keeps
    // the crossing once, so that the pole's attack is tested once (white's kinds come first).
    let king = game.tables.kinds.iter().position(|k| k.royal).unwrap();
    let g1 = game.cell_by_name("g1").unwrap() as usize;
    let m = &game.piece_moves[king * game.cells + g1];
    let crossings = game.specials[m.specials.0 as usize..m.specials.1 as usize].iter().filter(|sp| sp.flags & orbis_runtime::tables::ray::PASS_UNATTACKED != 0);
    assert_eq!(crossings.count(), 1);
}

/// B-5: castling as in chess.
#[test]
fn b5_orthodox_castling() {
    let game = common::game_standing(BOHOLY);
    let moves = legal(&game, "8/8/2k5/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(moves.contains("O-O") && moves.contains("O-O-O"));
    assert!(!moves.iter().any(|m| m.starts_with("C0")));
}

/// Nelson: the poles are squares (66 cells), crossed with the Yapsan-type diagonal; pieces may stop
/// on them and move from them.
#[test]
fn nelson_poles_are_squares() {
    let t = common::tables(NELSON);
    assert_eq!(t.cells.len(), 66);
    assert!(t.transit.is_empty());
    let (cells, _) = ray_cells(&t, "Bishop", "g1", "SW");
    assert_eq!(cells[..3], ["south-pole", "c1", "d2"]);
    assert!(destinations(&t, "Bishop", "g1").contains("south-pole"));
    // From a pole a rook slides up any file, a king steps to any square of the end rank.
    let rook = destinations(&t, "Rook", "south-pole");
    assert!(["a1", "a8", "e4", "h7"].iter().all(|c| rook.contains(*c)));
    assert_eq!(destinations(&t, "King", "south-pole"), set("a1 b1 c1 d1 e1 f1 g1 h1"));
    // A game position with a piece on a pole is written in the general notation (FEN cannot).
    let engine = common::engine(NELSON);
    let after = engine.play(None, &["Ra1-south-pole"]).unwrap();
    assert!(after.starts_with("turn=black") && after.contains("Rsouth-pole"), "{after}");
}

/// Boholy's poles are its only cells past the 64th, so the engine gives it sets of one word that
/// never hold them (`Standing64`); Nelson's poles are squares, and it keeps two words. One word
/// and two agree: the start's perft, and along random games every position's legal moves, its
/// count, its perft 2 and its evaluation.
#[test]
fn one_word_sets_agree_with_two_words() {
    assert!(matches!(common::engine(BOHOLY), Engine::Standing(_)));
    assert!(matches!(common::engine(NELSON), Engine::Medium(_)));
    let (one, two) = (common::game_standing(BOHOLY), common::game_medium(BOHOLY));
    let perft = |depth| (Perft::new().count(&one, &mut Position::start(&one), depth), Perft::new().count(&two, &mut Position::start(&two), depth));
    let (a, b) = perft(3);
    assert_eq!((a, b), (9322, 9322));
    // (The engine's evaluation too, which reads the cells a move passes.)
    let eval = (orbis_runtime::eval::Evaluator::new(&one), orbis_runtime::eval::Evaluator::new(&two));
    for seed in 1..=12 {
        let mut played = Vec::new();
        common::playout(&one, seed, 80, |pos, moves| {
            let text = pos.to_text(&one);
            let mut wide = Position::parse(&two, &text).unwrap();
            let (mut listed, mut scratch) = (Vec::new(), Vec::new());
            wide.legal_moves(&two, &mut listed);
            assert_eq!(names(pos, &one, moves), names(&wide, &two, &listed), "{text} after {played:?}");
            assert_eq!(pos.count_legal(&one, &mut scratch), moves.len() as u64, "{text}");
            assert_eq!(eval.0.evaluate(&one, pos, None), eval.1.evaluate(&two, &wide, None), "{text}");
            assert_eq!(Perft::new().count(&one, pos, 2), Perft::new().count(&two, &mut wide, 2), "{text}");
            played.push(text);
        });
    }
}

/// The moves `moves` of `pos` in notation.
fn names<B: CellSet>(pos: &Position<B>, game: &Game<B>, moves: &[orbis_runtime::Move]) -> std::collections::BTreeSet<String> {
    moves.iter().map(|&m| pos.notation(game, m)).collect()
}
