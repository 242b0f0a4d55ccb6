//! Property: over random playouts of every example and polygon test board, the attacks along
//! lines found from the attackers' slides (`Position::attacked_along_lines_among`, where the game
//! found a piece's lines to be its slides) are exactly those each target's lines find, direct
//! attacks aside (a slide's first cell is one) and transit cells aside (never a destination),
//! for every side, with the board as it is and with
//! each royal piece lifted off it (as a royal move is judged). On boards of up to two words the
//! attacks found from the pairs of cells (`Game::line_pairs`) are held to each line walked too.
//!
//! And: perft's last ply, which takes the lines out of a royal piece from the parent and walks
//! again only those the move that led there touched (runtime/src/pins.rs), counts what a count
//! after each move played in full does.

use crate::common;

use orbis_runtime::bits::CellSet;
use orbis_runtime::{Game, Move, Perft, Position};
use proptest::prelude::*;

fn agree<B: CellSet>(game: &Game<B>, pos: &Position<B>, path: &str) {
    let all = B::from_cells(0..game.cells);
    for side in 0..game.sides {
        let mut boards = vec![pos.occupied];
        boards.extend(pos.royals(game, side).iter().map(|r| pos.occupied.and_not(B::single(r))));
        for occupied in boards {
            let found = pos.attacked_along_lines_among(game, all, side, occupied);
            for t in (0..game.cells).filter(|&t| !game.is_transit(t)) {
                let direct = pos.attacked_directly_by_enemy(game, t, side);
                let walked = pos.attacked_along_lines_by_enemy(game, t, side, occupied);
                assert_eq!(found.has(t) || direct, walked || direct, "{path}: cell {} attacked along lines by the enemies of side {side}, in {}", game.cell_name(t as u16), pos.to_general(game));
                // The pairs (boards of up to two words) against each line walked.
                let lined = game.opponents[side].iter().any(|&s| !pos.is_out(s) && pos.attacked_along_lines_walked(game, t, s, occupied));
                assert_eq!(walked, lined, "{path}: cell {} attacked along lines by the enemies of side {side} (pairs against lines), in {}", game.cell_name(t as u16), pos.to_general(game));
            }
        }
    }
}

fn playout<B: CellSet>(game: &Game<B>, path: &str, seed: u64, plies: usize) {
    common::playout(game, seed, plies, |pos, _| agree(game, pos, path));
}

/// Perft 2 (its last ply taking the lines out of the royal piece from the parent where they
/// hold) against each move made in full and its position counted afresh.
fn kept_lines_count_as_walked<B: CellSet>(game: &Game<B>, pos: &mut Position<B>, moves: &[Move], path: &str) {
    let mut scratch = Vec::new();
    let mut walked = 0;
    for &mv in moves {
        let undo = pos.make(game, mv);
        walked += pos.count_legal_settling(game, &mut scratch);
        pos.unmake(game, &undo);
    }
    assert_eq!(Perft::new().count(game, pos, 2), walked, "{path}: perft(2) of {}", pos.to_general(game));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn attacks_from_the_attackers_agree_with_the_lines(seed in any::<u64>()) {
        let mut files = common::variant_files();
        files.extend(common::orbis_files(&common::root().join("tests/polygon")).into_iter().map(|p| p.strip_prefix(common::root()).expect("under the root").display().to_string()));
        for path in files {
            orbis_runtime::with_game!(common::engine(&path), game => playout(&game, &path, seed, 80))
        }
    }

    #[test]
    fn lines_kept_from_the_parent_count_as_walked(seed in any::<u64>()) {
        let mut files = common::variant_files();
        files.extend(common::orbis_files(&common::root().join("tests/polygon")).into_iter().map(|p| p.strip_prefix(common::root()).expect("under the root").display().to_string()));
        for path in files {
            orbis_runtime::with_game!(common::engine(&path), game => common::playout(&game, seed, 60, |pos, moves| kept_lines_count_as_walked(&game, pos, moves, &path)))
        }
    }
}
