//! The variants of examples/fairy/ beyond their perft suite (tests/perft/fairy.txt): counts with no
//! published figure confirmed by the slow reference generator, and Chess960's numbering.

use crate::common;

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

/// Three-check's counters: read in both of Fairy-Stockfish's forms, written as checks still to
/// give, counted by the moves that check, and the third check ends the game.
#[test]
fn three_check_counts_checks_and_ends_the_game() {
    let engine = common::engine("examples/fairy/threecheck.orbis");
    let given = engine.position_text(Some("7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1 39 +2+0")).unwrap();
    assert_eq!(given, "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39");
    // Ra6+ is White's third check: the game is over, Black has no move.
    let after = engine.play(Some(&given), &["Ra5xa6"]).unwrap();
    assert!(after.contains(" 0+3 "), "{after}");
    assert!(engine.moves(Some(&after)).unwrap().is_empty());
    let v = common::variant("examples/fairy/threecheck.orbis");
    let p = from_general(&v, &engine.general_text(Some(&given)).unwrap());
    for depth in 1..=2 {
        assert_eq!(engine.perft(Some(&given), depth).unwrap(), perft(&v, &p, depth), "perft({depth})");
    }
}

/// King of the Hill: a king on a centre cell ends the game; the reference agrees on the
/// published position.
#[test]
fn king_of_the_hill_ends_on_the_centre() {
    let path = "examples/fairy/kingofthehill.orbis";
    let engine = common::engine(path);
    let after = engine.play(Some("8/8/8/8/8/4K3/8/k7 w - - 0 1"), &["Ke3-e4"]).unwrap();
    assert!(engine.moves(Some(&after)).unwrap().is_empty(), "{after}");
    let fen = "rnb2b1r/ppp2ppp/3k4/8/1PKp1pn1/3Pq3/PBP1P2P/RN1Q1B1R w - - 4 12";
    let v = common::variant(path);
    let p = from_general(&v, &engine.general_text(Some(fen)).unwrap());
    for depth in 1..=2 {
        assert_eq!(engine.perft(Some(fen), depth).unwrap(), perft(&v, &p, depth), "perft({depth})");
    }
}

/// `extinction Q`: a side left without a queen loses at once; the reference agrees.
#[test]
fn extinction_ends_the_game_when_a_kind_dies_out() {
    let source = std::fs::read_to_string(common::root().join("examples/orthodox.orbis")).unwrap();
    let source = source.replace("  repetition 3\n}", "  repetition 3\n  extinction Queen\n}");
    let v = common::variant_from("examples/orthodox.orbis", &source);
    assert_eq!(v.rules.extinction.len(), 1);
    let engine = orbis_runtime::Engine::new(orbis_compiler::lower::lower(&v)).unwrap();
    let fen = "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1";
    let after = engine.play(Some(fen), &["Qd2xd5"]).unwrap();
    assert!(engine.moves(Some(&after)).unwrap().is_empty(), "{after}");
    let p = from_general(&v, &engine.general_text(Some(fen)).unwrap());
    for depth in 1..=3 {
        assert_eq!(engine.perft(Some(fen), depth).unwrap(), perft(&v, &p, depth), "perft({depth})");
    }
}

const GRAND: &str = "examples/fairy/grand.orbis";

/// The moves of the piece on `from`, in notation.
fn moves_from(engine: &orbis_runtime::Engine, fen: &str, from: &str) -> Vec<String> {
    engine.moves(Some(fen)).unwrap().into_iter().map(|m| m.notation).filter(|n| n[1..].starts_with(from)).collect()
}

/// Grand chess promotion: optional on the eighth and ninth ranks, compulsory on the tenth, and only
/// to a kind the side has lost; a pawn may stand in its optional zone, not on the tenth rank.
#[test]
fn grand_chess_promotes_to_captured_pieces_only() {
    let engine = common::engine(GRAND);
    // Nothing lost: into the optional zone the pawn stays a pawn; onto the tenth rank it cannot go.
    let full = "r8r/1nbqkcabn1/pppp1ppppp/4P5/10/10/10/PPPP1PPPPP/1NBQKCABN1/R8R w - - 0 1";
    assert_eq!(moves_from(&engine, full, "e7"), ["Pe7-e8", "Pe7xd8", "Pe7xf8"]);
    let ninth = "r6k1r/1nbqPcabn1/pppp1ppppp/10/10/10/10/PPPP1PPPPP/1NBQKCABN1/R8R w - - 0 1";
    assert!(moves_from(&engine, ninth, "e9").is_empty(), "nothing lost, no move to the tenth rank");
    // The queen lost: the queen is a choice, and on the ninth rank staying a pawn is too.
    let lost = "k9/4P5/10/10/10/10/10/10/3PK5/10 w - - 0 1";
    let ninth_moves = moves_from(&engine, lost, "e9");
    assert_eq!(ninth_moves.len(), 6, "{ninth_moves:?}");
    assert!(!ninth_moves.contains(&"Pe9-e10".to_string()));
    let eighth = moves_from(&engine, "k9/10/4P5/10/10/10/10/10/4K5/10 w - - 0 1", "e8");
    assert_eq!(eighth.len(), 7, "six promotions and the plain step: {eighth:?}");
    assert!(engine.moves(Some("k3P5/10/10/10/10/10/10/10/4K5/10 w - - 0 1")).is_err());
    // The reference agrees where promotions happen.
    let v = common::variant(GRAND);
    for fen in [lost, "k9/10/4P5/10/10/10/10/10/4K5/10 w - - 0 1", full] {
        let p = from_general(&v, &engine.general_text(Some(fen)).unwrap());
        for depth in 1..=2 {
            assert_eq!(engine.perft(Some(fen), depth).unwrap(), perft(&v, &p, depth), "{fen} perft({depth})");
        }
    }
}

const XIANGQI: &str = "examples/fairy/xiangqi.orbis";

/// Fairy-Stockfish's two published Xiangqi positions (tests/perft/fairy.txt): the reference
/// generator, which walks hops straight from the language's description, agrees to depth 3.
#[test]
fn xiangqi_positions_match_reference() {
    let v = common::variant(XIANGQI);
    let engine = common::engine(XIANGQI);
    for fen in [
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    ] {
        let p = from_general(&v, &engine.general_text(Some(fen)).unwrap());
        for depth in 1..=3 {
            assert_eq!(engine.perft(Some(fen), depth).unwrap(), perft(&v, &p, depth), "{fen}: perft({depth})");
        }
    }
}

/// The legal moves of a position as `from` + `to`, sorted.
fn move_list(path: &str, fen: &str) -> Vec<String> {
    let mut out: Vec<String> = common::engine(path).moves(Some(fen)).unwrap().into_iter().map(|m| m.from + &m.to).collect();
    out.sort();
    out
}

/// Checks through screens, pins by a cannon over two pieces and the flying general, each against
/// Fairy-Stockfish's legal moves (pyffish 0.0.90, `legal_moves`).
#[test]
fn xiangqi_hops_and_facing_generals_match_fairy_stockfish() {
    let cases: [(&str, &[&str]); 4] = [
        // The cannon on e2 checks over the soldier on e6; d10 would face the general on d1.
        ("4k4/9/9/9/4P4/9/9/9/4C4/3K5 b - - 0 1", &["e10f10"]),
        // The horse alone between the generals may not leave the file.
        ("4k4/9/9/9/4n4/9/9/9/9/4K4 b - - 0 1", &["e10d10", "e10e9", "e10f10"]),
        // With the generals apart, it may.
        ("4k4/9/9/9/4n4/9/9/9/9/3K5 b - - 0 1", &["e10e9", "e10f10", "e6c5", "e6c7", "e6d4", "e6d8", "e6f4", "e6f8", "e6g5", "e6g7"]),
        // The cannon on e7 aims over the horse (a screen) at the soldier: moving the horse makes
        // the soldier the screen and checks the general; moving the soldier keeps the horse one.
        ("3k5/9/9/4c4/9/4N4/9/9/4P4/4K4 w - - 0 1", &["e1f1", "e2e3"]),
    ];
    for (fen, expected) in cases {
        assert_eq!(move_list(XIANGQI, fen), expected, "{fen}");
    }
}

/// A grasshopper attacks the cell just beyond the piece it would jump over: the black king may
/// not step to e7, beyond its own pawn on the grasshopper's line (Fairy-Stockfish's moves).
#[test]
fn grasshopper_check_matches_fairy_stockfish() {
    let fen = "4k3/8/4p3/8/4G3/8/8/4K3 b - - 0 1";
    assert_eq!(move_list("examples/fairy/grasshopper.orbis", fen), ["e6e5", "e8d7", "e8d8", "e8f7", "e8f8"]);
}

/// Fairy-Stockfish writes Berolina's en-passant field as the cells reached and passed run
/// together (`c5d6`). Here another black pawn (d4) could have passed c5 on a longer path; the
/// pawn standing on a written cell is the one that moved, so d6 is the target and d5xd6 takes c5
/// (Fairy-Stockfish's 34 moves; found by scripts/fsf-compare.py).
#[test]
fn berolina_en_passant_field_names_the_pawn_that_moved() {
    let engine = common::engine("examples/fairy/berolina.orbis");
    let fen = "1nb1k1n1/r1P5/p4b2/2pP1p2/3p2p1/R1PpPpq1/1B1PP1Br/1Q3K1R w - c5d6 0 23";
    let moves = engine.moves(Some(fen)).expect("moves");
    assert_eq!(moves.len(), 34);
    assert!(moves.iter().any(|m| m.from == "d5" && m.to == "d6"), "d5xd6 en passant");
    assert!(engine.position_text(Some(fen)).expect("position").contains(" d6 "));
}

/// Lame moves followed as runs (`Game::slide_runs`): a Mao, whose knight's move is blocked by a
/// piece on its first step, and a Gryphon-like piece that steps orthogonally onto an empty cell
/// and then slides diagonally outward (a slide that starts past a cell that must be empty). The
/// reference walks the rules cell by cell; they agree from the start and in a middlegame where
/// both are blocked on some lines and capture on others.
#[test]
fn lame_leaps_and_slides_past_an_empty_cell_match_reference() {
    let source = std::fs::read_to_string(common::root().join("examples/orthodox.orbis")).unwrap();
    let source = source
        .replace("piece Bishop B { slide diag }", "piece Bishop B { step orth then slide turn +-1 }")
        .replace("piece Knight N { leap step orth then step turn +-1 }", "piece Knight N { step orth then step turn +-1 }");
    let v = common::variant_from("examples/orthodox.orbis", &source);
    let engine = orbis_runtime::Engine::new(orbis_compiler::lower::lower(&v)).unwrap();
    // From d5 the Gryphon steps to d6, c5 and e5 and slides on from there (to c7, b6, f4, ...);
    // d4 is occupied, so it goes nowhere south.
    let fen = "r3k2r/pp1n1ppp/2p5/3B4/2PpN3/1P3n2/P4PPP/R3K2R w KQkq - 0 1";
    let gryphon = moves_from(&engine, fen, "d5");
    assert!(gryphon.iter().any(|m| m.contains("c7")), "{gryphon:?}");
    assert!(!gryphon.iter().any(|m| m.contains("c3") || m.contains("e3")), "{gryphon:?}");
    for fen in [None, Some(fen)] {
        let p = match fen {
            Some(f) => from_general(&v, &engine.general_text(Some(f)).unwrap()),
            None => start(&v),
        };
        for depth in 1..=3 {
            assert_eq!(engine.perft(fen, depth).unwrap(), perft(&v, &p, depth), "{fen:?}: perft({depth})");
        }
    }
}

/// A grasshopper that may not jump over a pawn (`over not P`) nor take a knight (`takes not N`),
/// on d4: over the pawns on d3 and d5 it has no move, over the knight on e5 it would land on the
/// black knight on f6, which it may not take; over the rook on f4, the queen on b4 and the
/// bishop on c3 it lands on g4 and a4 and takes the pawn on b2.
#[test]
fn grasshopper_screens_and_captures_by_kind() {
    let engine = common::engine("tests/hops/grasshopper-kinds.orbis");
    let fen = "7k/8/5n2/3pN3/1q1G1r2/2bP4/1p6/7K w - - 0 1";
    assert_eq!(moves_from(&engine, fen, "d4"), ["Gd4-a4", "Gd4-g4", "Gd4xb2"]);
}

/// Along random games, every hopping piece's destinations equal those of the same position
/// with nothing kept (`orbis_runtime::hops::HopMemo`): the kept entries of earlier plies are
/// read again after moves that changed or did not change the cells they read. Returns the
/// kinds whose entries are kept.
fn kept_hops_match_fresh_walks<B: orbis_runtime::bits::CellSet>(game: &orbis_runtime::Game<B>, name: &str, games: u64) -> Vec<usize> {
    let hopping: Vec<usize> = (0..game.hop_memo.len()).filter(|&ck| !game.hoppers[ck].is_empty()).collect();
    let mut checked = 0;
    for seed in 1..=games {
        common::playout(game, seed * 7919, 200, |p, _| {
            let fresh = orbis_runtime::Position { hop_memo: orbis_runtime::hops::HopMemo::new(game), ..p.clone() };
            for &ck in &hopping {
                for from in p.by_ck[ck].iter() {
                    assert_eq!(p.hop_moves(game, ck, from, p.occupied), fresh.hop_moves(game, ck, from, p.occupied), "{name}: seed {seed}, piece {ck} on {from}");
                    checked += 1;
                }
            }
        });
    }
    assert!(checked > 1000, "{name}: {checked} pieces checked");
    hopping.into_iter().filter(|&ck| game.hop_memo[ck].is_some()).collect()
}

/// The hop destinations a position keeps are those a walk finds
/// ([`kept_hops_match_fresh_walks`]): grasshoppers (no kind set apart), Janggi's cannons
/// (which may neither hop over nor take a cannon) and Xiangqi's. The lines of these pieces
/// from every cell are disjoint, so an entry whose cells changed is mended by walking again
/// only the lines that changed (`Game::hop_disjoint`): the comparisons check those mends.
#[test]
fn kept_hop_destinations_are_walked_again_when_their_cells_change() {
    fn check<B: orbis_runtime::bits::CellSet>(game: &orbis_runtime::Game<B>, name: &str, games: u64) {
        // (Each side's hoppers: Xiangqi's general also has a rule walked along its lines, which
        // may take only a general, and keeps nothing.)
        let kept = kept_hops_match_fresh_walks(game, name, games);
        assert_eq!(kept.len(), 2, "{name}: the kinds that keep their destinations");
        for ck in kept {
            assert_eq!(game.hop_disjoint[ck].count() as usize, game.cells, "{name}: piece {ck}'s lines are disjoint from every cell");
        }
    }
    check(&common::game("examples/fairy/grasshopper.orbis"), "Grasshopper chess", 20);
    check(&common::game_medium("examples/fairy/janggi.orbis"), "Janggi", 20);
    check(&common::game_medium("examples/fairy/xiangqi.orbis"), "Xiangqi", 20);
}

/// A piece with two hop rules along the same lines (a cannon's hop and a grasshopper's) has no
/// cell whose lines are disjoint: its entries are walked again in full, never mended line by
/// line, and still match a fresh walk.
#[test]
fn a_hopper_whose_lines_overlap_is_walked_again_in_full() {
    let source = r#"variant "Overlapping hop lines"
board {
  grid files a..f ranks 1..6
  headings {
    N (0, 1)  NE (1, 1)  E (1, 0)  SE (1, -1)
    S (0, -1) SW (-1, -1) W (-1, 0) NW (-1, 1)
  }
  group orth = N E S W
  group diag = NE SE SW NW
}
piece King K royal { step all }
piece Hopper H { hop orth  hop all next }
piece Pawn P { move-only step forward  capture-only step forward turn +-1 }
side white {
  forward N
  setup { K a1  H c1 d1  P a2..f2 }
  promote P to H on rank 6
}
side black {
  forward S
  setup { K f6  H c6 d6  P a5..f5 }
  promote P to H on rank 1
}
"#;
    let game: orbis_runtime::Game<u64> = orbis_runtime::Game::new(orbis_compiler::lower::lower(&common::variant_from("tests/hops/overlap-test.orbis", source)));
    let kept = kept_hops_match_fresh_walks(&game, "Overlapping hop lines", 20);
    assert_eq!(kept.len(), 2, "both sides' hoppers keep their destinations");
    assert!(kept.iter().all(|&ck| orbis_runtime::CellSet::is_empty(&game.hop_disjoint[ck])), "no cell of an overlapping hopper is mended line by line");
}

/// A grasshopper that may not hop over pawns nor take knights (the kinds it sets apart differ
/// between hopping and taking) keeps nothing: it is walked every time.
#[test]
fn a_hopper_that_hops_over_what_it_may_not_take_keeps_nothing() {
    let game = common::game("tests/hops/grasshopper-kinds.orbis");
    let hopping: Vec<usize> = (0..game.hop_memo.len()).filter(|&ck| !game.hoppers[ck].is_empty()).collect();
    assert!(!hopping.is_empty());
    assert!(hopping.iter().all(|&ck| game.hop_memo[ck].is_none()));
}
