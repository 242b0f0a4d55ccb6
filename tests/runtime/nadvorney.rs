//! Every concrete Nadvorney example of the Chess Variant Pages' "Spherical Chess" page (seed-facts N-1..N-10 and
//! the neighbour diagram), checked through the compiled tables.

use crate::common;

use common::{cell, destinations, heading, legal, ray_cells, set, walk};
use orbis_runtime::tables::ray;
use orbis_runtime::Position;

const FILE: &str = "examples/spherical/nadvorney.orbis";

/// The page's neighbour diagram (F0:87-107, laid out as in seed-facts 1.A.5): the board in the
/// middle, two virtual files on each side and two virtual ranks beyond each pole.
const DIAGRAM: &str = "
c7 d7 e7 f7 g7 h7 a7 b7 c7 d7 e7 f7
c8 d8 e8 f8 g8 h8 a8 b8 c8 d8 e8 f8
g8 h8 a8 b8 c8 d8 e8 f8 g8 h8 a8 b8
g7 h7 a7 b7 c7 d7 e7 f7 g7 h7 a7 b7
g6 h6 a6 b6 c6 d6 e6 f6 g6 h6 a6 b6
g5 h5 a5 b5 c5 d5 e5 f5 g5 h5 a5 b5
g4 h4 a4 b4 c4 d4 e4 f4 g4 h4 a4 b4
g3 h3 a3 b3 c3 d3 e3 f3 g3 h3 a3 b3
g2 h2 a2 b2 c2 d2 e2 f2 g2 h2 a2 b2
g1 h1 a1 b1 c1 d1 e1 f1 g1 h1 a1 b1
c1 d1 e1 f1 g1 h1 a1 b1 c1 d1 e1 f1
c2 d2 e2 f2 g2 h2 a2 b2 c2 d2 e2 f2";

/// Every square of the diagram reached from a board square by one or two steps in a straight
/// line (any of the eight headings) is where the step function leads.
#[test]
fn neighbour_diagram_is_the_step_function() {
    let t = common::tables(FILE);
    let rows: Vec<Vec<&str>> = DIAGRAM.trim().lines().map(|l| l.split_whitespace().collect()).collect();
    let at = |x: i32, y: i32| rows[(9 - y) as usize][(x + 2) as usize];
    let vectors = [("N", 0, 1), ("NE", 1, 1), ("E", 1, 0), ("SE", 1, -1), ("S", 0, -1), ("SW", -1, -1), ("W", -1, 0), ("NW", -1, 1)];
    let mut checked = 0;
    for x in 0..8 {
        for y in 0..8 {
            for (h, dx, dy) in vectors {
                for k in 1..=2 {
                    let (vx, vy) = (x + k * dx, y + k * dy);
                    if !(-2..=9).contains(&vx) || !(-2..=9).contains(&vy) {
                        continue;
                    }
                    let from = &t.cells[cell(&t, &format!("{}{}", (b'a' + x as u8) as char, y + 1))];
                    let got = walk(&t, cell(&t, from), heading(&t, h), k as usize);
                    assert_eq!(got.len(), k as usize, "{from} {k}x{h} leaves the board");
                    assert_eq!(t.cells[got[k as usize - 1].0], at(vx, vy), "{from} {k}x{h}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 900);
}

#[test]
fn rook_through_the_pole_a3_a1_e1_e4() {
    let t = common::tables(FILE);
    let (cells, _) = ray_cells(&t, "Rook", "a3", "S");
    assert_eq!(cells[..6], ["a2", "a1", "e1", "e2", "e3", "e4"]);
}

#[test]
fn bishop_paths_of_rule_3() {
    let t = common::tables(FILE);
    // Bh3-g2-f1-a1-h2-g3 and Bd3-e2-f1-c1-d2-e3 are legal paths ...
    assert_eq!(ray_cells(&t, "Bishop", "h3", "SW").0[..5], ["g2", "f1", "a1", "h2", "g3"]);
    assert_eq!(ray_cells(&t, "Bishop", "d3", "SE").0[..5], ["e2", "f1", "c1", "d2", "e3"]);
    // ... but not Bh3-g2-f1-c1: through f1 the h3 bishop emerges on a1.
    assert_ne!(ray_cells(&t, "Bishop", "h3", "SW").0[2], "c1");
    // Pritchard's example: h3 along a2-b1-g1-h2-a3.
    assert_eq!(ray_cells(&t, "Bishop", "h3", "SE").0[..5], ["a2", "b1", "g1", "h2", "a3"]);
}

#[test]
fn bishop_circuit_from_g3_has_sixteen_squares_and_returns() {
    let t = common::tables(FILE);
    let (cells, flags) = ray_cells(&t, "Bishop", "g3", "SW");
    assert_eq!(cells.join(" "), "f2 e1 h1 g2 f3 e4 d5 c6 b7 a8 d8 c7 b6 a5 h4");
    assert!(flags & ray::RETURNS != 0, "the circuit closes on g3");
    // It changes colour at the poles: e1 is dark, h1 light.
    assert!(cells.contains(&"e1".to_string()) && cells.contains(&"h1".to_string()));
}

#[test]
fn knight_destinations() {
    let t = common::tables(FILE);
    // Sd1-h1-g2/a2 (rule 4), and the full set.
    let d1 = destinations(&t, "Knight", "d1");
    assert!(d1.contains("g2") && d1.contains("a2"));
    assert_eq!(d1, set("a2 b1 b2 c3 e3 f1 f2 g2"));
    // A knight on g1 reaches Miller's six plus a1 and e1 (F0:109): always eight.
    assert_eq!(destinations(&t, "Knight", "g1"), set("a1 a2 b2 d2 e1 e2 f3 h3"));
    assert_eq!(destinations(&t, "Knight", "g2"), set("a1 a3 b1 d1 e1 e3 f4 h4"));
    for c in &t.cells {
        assert_eq!(destinations(&t, "Knight", c).len(), 8, "knight on {c}");
    }
}

#[test]
fn king_next_to_the_pole_has_eight_moves() {
    let t = common::tables(FILE);
    assert_eq!(destinations(&t, "King", "g1"), set("f1 h1 f2 g2 h2 c1 d1 b1"));
}

#[test]
fn no_stationary_moves() {
    let game = common::game(FILE);
    // A rook alone on rank 3: the rank is a closed loop, but Ra3-a3 is not a move.
    let moves = legal(&game, "8/8/2k5/8/8/R7/8/4K3 w - - 0 1");
    assert!(!moves.iter().any(|m| m.starts_with("Ra3") && m.ends_with("a3")));
    let (cells, flags) = ray_cells(&game.tables, "Rook", "a3", "E");
    assert_eq!(cells.len(), 7);
    assert!(flags & ray::RETURNS != 0);
    // The file loop: 15 squares, then back to a3.
    assert_eq!(ray_cells(&game.tables, "Rook", "a3", "S").0.len(), 15);
}

#[test]
fn both_extra_castling_forms() {
    let game = common::game(FILE);
    let t = &game.tables;
    // The h rook alone: O-O and C0-0-0 (Ke1-c1, Rh1-d1 over a1).
    let moves = legal(&game, "8/8/2k5/8/8/8/8/4K2R w K - 0 1");
    assert!(moves.contains("O-O") && moves.contains("C0-0-0"), "{moves:?}");
    // The a rook alone: O-O-O and C0-0 (Ke1-g1, Ra1-f1 over h1).
    let moves = legal(&game, "8/8/2k5/8/8/8/8/R3K3 w Q - 0 1");
    assert!(moves.contains("O-O-O") && moves.contains("C0-0"), "{moves:?}");
    // With both rooks home, the extra forms are blocked by the other rook.
    let moves = legal(&game, "8/8/2k5/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(moves.contains("O-O") && moves.contains("O-O-O"));
    assert!(!moves.contains("C0-0") && !moves.contains("C0-0-0"));
    // The result of C0-0-0.
    let mut pos = Position::parse(&game, "8/8/2k5/8/8/8/8/4K2R w K - 0 1").unwrap();
    let mv = pos.parse_move(&game, "C0-0-0").unwrap();
    pos.make(&game, mv);
    assert_eq!(pos.to_fen(&game).unwrap(), "8/8/2k5/8/8/8/8/2KR4 b - - 1 1");
    // An attacked crossing square forbids it: a black rook on d8 sees d1.
    let moves = legal(&game, "3r4/8/2k5/8/8/8/8/4K2R w K - 0 1");
    assert!(!moves.contains("C0-0-0") && moves.contains("O-O"));
    let _ = t;
}

#[test]
fn pawns_capture_across_the_seam() {
    let game = common::game(FILE);
    let moves = legal(&game, "4k3/8/8/7p/P7/8/8/4K3 w - - 0 1");
    assert!(moves.contains("Pa4xh5"), "{moves:?}");
}
