//! Property: over random playouts of every example, unmake restores the position exactly after
//! every legal move, and the incremental hash always equals the hash computed from scratch.

use crate::common;

use orbis_runtime::bits::CellSet;
use orbis_runtime::Game;
use proptest::prelude::*;

fn playout<B: CellSet>(game: &Game<B>, seed: u64, plies: usize) {
    common::playout(game, seed, plies, |pos, moves| {
        for &mv in moves {
            let before = pos.clone();
            let undo = pos.make(game, mv);
            assert_eq!(pos.hash, pos.full_hash(game), "hash after {}", before.notation(game, mv));
            pos.unmake(game, &undo);
            assert_eq!(*pos, before, "unmake of {}", before.notation(game, mv));
        }
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn unmake_restores_every_example(seed in any::<u64>()) {
        common::for_each_parallel(&common::variant_files(), |path| {
            orbis_runtime::with_game!(common::engine(path), game => playout(&game, seed, 120))
        });
    }
}

/// Test boards of what no example reaches: castling off stacks, royal paths of stationary and
/// first moves, across transit cells (one-word sets that never hold them), of hops and of
/// winding moves.
const TEST_BOARDS: [&str; 6] = [
    "tests/stacks/castle-off-stacks.orbis",
    "tests/stacks/royal-stationary-paths.orbis",
    "tests/stacks/royal-initial-paths.orbis",
    "tests/stacks/royal-pole-paths.orbis",
    "tests/hops/royal-hop-paths.orbis",
    "tests/hops/royal-wind-paths.orbis",
];

#[test]
fn unmake_restores_on_test_boards() {
    for path in TEST_BOARDS {
        for seed in 1..=24u64 {
            orbis_runtime::with_game!(common::engine(path), game => playout(&game, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15), 120))
        }
    }
}

#[test]
fn every_example_is_exercised() {
    let list = common::variant_files();
    assert!(list.iter().any(|p| p.ends_with("orthodox.orbis")));
    assert!(list.iter().any(|p| p.ends_with("nadvorney.orbis")));
}
