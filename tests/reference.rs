//! Perft cross-checks of the table-driven runtime against the slow reference move generator
//! (tests/common/reference.rs) on every example.

mod common;

use common::reference::{board_part, general, legal, perft, start};

/// Depths whose count is above this are left to the games' own references (the cube games:
/// tests/cube_games.rs): the slow reference needs minutes for the 100,000 leaves of perft 3 on
/// the 296-cell cube with four players.
const REFERENCE_BUDGET: u64 = 60_000;

fn cross_check(path: &str, depth: usize) {
    let v = common::variant(path);
    let engine = common::engine(path);
    let p = start(&v);
    for d in 1..=depth {
        let count = engine.perft(None, d).unwrap();
        if d > 1 && count > REFERENCE_BUDGET {
            break;
        }
        assert_eq!(count, perft(&v, &p, d), "{path} perft({d}) differs from the reference");
    }
}

#[test]
fn reference_agrees_with_published_orthodox_counts() {
    let v = common::variant("examples/orthodox.orbis");
    assert_eq!(perft(&v, &start(&v), 3), 8902);
}

#[test]
fn runtime_agrees_with_reference_on_orthodox() {
    cross_check("examples/orthodox.orbis", 3);
}

#[test]
fn runtime_agrees_with_reference_on_every_example() {
    for path in common::variant_files() {
        cross_check(&path, 3);
    }
}

/// Deeper in: from a few plies into random games, where castling, captures across seams and
/// checks through poles occur.
#[test]
fn runtime_agrees_with_reference_in_random_middlegames() {
    for path in common::variant_files() {
        let path = path.as_str();
        let v = common::variant(path);
        let engine = common::engine(path);
        let mut seed = 12345u64;
        for _game in 0..6 {
            let mut p = start(&v);
            let mut played: Vec<String> = Vec::new();
            for _ply in 0..14 {
                let moves = engine.moves(Some(&engine.play(None, &played.iter().map(String::as_str).collect::<Vec<_>>()).unwrap())).unwrap();
                let next = legal(&v, &p);
                assert_eq!(moves.len(), next.len(), "{path}: move count after {played:?}");
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let pick = (seed >> 33) as usize % moves.len();
                played.push(moves[pick].notation.clone());
                // Follow the same move in the reference by matching the resulting board.
                let text = engine.play(None, &played.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
                let target = engine.general_text(Some(&text)).unwrap();
                p = next
                    .into_iter()
                    .find(|q| general(&v, q) == board_part(&target))
                    .unwrap_or_else(|| panic!("{path}: reference has no move to {target}"));
            }
            let text = engine.play(None, &played.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
            // With more than two sides the slow reference tests every move for eliminations, so
            // it counts one ply here (tests/cube_games.rs and tests/nplayer.rs go deeper).
            let depth = if v.sides.len() > 2 { 1 } else { 2 };
            assert_eq!(engine.perft(Some(&text), depth).unwrap(), perft(&v, &p, depth), "{path} after {played:?}");
        }
    }
}
