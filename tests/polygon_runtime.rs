//! The runtime on boards of polygons (the cube, the 5x5 cube, the soccer ball, Webball and a cube
//! of 10x10 faces: up to 488 cells, so all four cell-set widths), cross-checked against the slow reference move generator
//! (tests/common/reference.rs): perft from test positions and after random plies.

mod common;

use common::reference::{board_part, general, legal, perft, start};

const FILES: [&str; 5] = [
    "tests/polygon/cube-riders.orbis",
    "tests/polygon/cube-5x5-riders.orbis",
    "tests/polygon/ball-riders.orbis",
    "tests/polygon/webball-riders.orbis",
    "tests/polygon/cube-10-riders.orbis",
];

#[test]
fn runtime_agrees_with_the_reference_on_boards_of_polygons() {
    for path in FILES {
        let v = common::variant(path);
        let engine = common::engine(path);
        let p = start(&v);
        for depth in 1..=2 {
            assert_eq!(engine.perft(None, depth).unwrap(), perft(&v, &p, depth), "{path} perft({depth})");
        }
        // A few random plies in, twice.
        let mut seed = 99u64;
        for _game in 0..2 {
            let mut p = start(&v);
            let mut played: Vec<String> = Vec::new();
            for _ply in 0..8 {
                let text = engine.play(None, &played.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
                let moves = engine.moves(Some(&text)).unwrap();
                let next = legal(&v, &p);
                assert_eq!(moves.len(), next.len(), "{path}: move count after {played:?}");
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                played.push(moves[(seed >> 33) as usize % moves.len()].notation.clone());
                let text = engine.play(None, &played.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
                let target = engine.general_text(Some(&text)).unwrap();
                p = next.into_iter().find(|q| general(&v, q) == board_part(&target)).unwrap_or_else(|| panic!("{path}: reference has no move to {target}"));
            }
            let text = engine.play(None, &played.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
            assert_eq!(engine.perft(Some(&text), 2).unwrap(), perft(&v, &p, 2), "{path} after {played:?}");
        }
    }
}

#[test]
fn the_widths_are_all_used() {
    use orbis_runtime::Engine;
    let widths: Vec<&str> = FILES
        .iter()
        .map(|f| match common::engine(f) {
            Engine::Narrow(_) => "narrow",
            Engine::Standing(_) => "standing",
            Engine::Medium(_) => "medium",
            Engine::Broad(_) => "broad",
            Engine::Large(_) => "large",
            Engine::Huge(_) => "huge",
        })
        .collect();
    assert_eq!(widths, ["large", "medium", "narrow", "broad", "huge"]);
}
