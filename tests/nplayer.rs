//! Games of more than two sides (docs/language.md, "Sides" and "Rules"): teams, eliminations,
//! the turn order and the rule for valid positions, cross-checked against the reference move
//! generator (tests/common/reference.rs) with exact perft counts.

mod common;

use common::reference::{board_part, from_general, general, legal, perft, start};
use orbis_runtime::position::Position;

const THREE: &str = "tests/nplayer/three.orbis";
const THREE_STAY: &str = "tests/nplayer/three-stay.orbis";
const THREE_FIRST: &str = "tests/nplayer/three-first.orbis";
const FOUR: &str = "tests/nplayer/four-teams.orbis";

/// Perft of the runtime from `position` (the start if `None`) against the reference, and both
/// against `expected` (depths 1, 2, ...).
fn cross_check(path: &str, position: Option<&str>, expected: &[u64]) {
    let v = common::variant(path);
    let engine = common::engine(path);
    let p = match position {
        Some(text) => from_general(&v, &engine.general_text(Some(text)).expect("position reads")),
        None => start(&v),
    };
    let mut runtime = Vec::new();
    let mut reference = Vec::new();
    for d in 1..=expected.len() {
        runtime.push(engine.perft(position, d).expect("perft"));
        reference.push(perft(&v, &p, d));
    }
    assert_eq!(runtime, reference, "{path} from {position:?}: runtime and reference differ");
    assert_eq!(runtime, expected, "{path} from {position:?}");
}

#[test]
fn start_positions_agree_with_the_reference() {
    cross_check(THREE, None, &[8, 35, 258, 2038]);
    cross_check(THREE_STAY, None, &[8, 35, 258, 2029]);
    cross_check(THREE_FIRST, None, &[8, 27, 196, 1520]);
    cross_check(FOUR, None, &[10, 74, 399, 2770]);
}
