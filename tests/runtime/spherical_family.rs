//! Every concrete move example of the Spherical Chess page (the Chess Variant Pages' "Spherical Chess" page;
//! facts of Part 1: GM-1..GM-7, Y-1..Y-6, GLO-1, SPH-1, SPH-2, CHA-1, CHA-2, SUM-1 and
//! the king table 1.A.7), checked through the compiled tables of each version's file. Nadvorney's
//! examples are in tests/runtime/nadvorney.rs; Boholy's in tests/runtime/boholy.rs.

use crate::common;

use common::{cell, destinations, heading, legal, ray_cells, set, walk};
use orbis_runtime::tables::{ray, Tables};
use std::collections::BTreeMap;

fn tables(version: &str) -> Tables {
    common::tables(&format!("examples/spherical/{version}.orbis"))
}

fn names(t: &Tables, states: &[(usize, usize)]) -> Vec<String> {
    states.iter().map(|&(c, _)| t.cells[c].clone()).collect()
}

/// GM-1 (Grayber, Pritchard): "Bh3-a2-b1-h1-a2-b3": the path re-crosses a2.
#[test]
fn gm1_grayber_bishop_loops_over_the_pole() {
    let t = tables("grayber");
    assert_eq!(ray_cells(&t, "Bishop", "h3", "SE").0[..5], ["a2", "b1", "h1", "a2", "b3"]);
}

/// GM-2 (Miller, Dickins' tour): the full 64-step circuit from g4 heading SE.
#[test]
fn gm2_miller_bishop_tour_from_g4() {
    let t = tables("miller");
    let expected = "h3 a2 b1 h1 a2 b3 c4 d5 e6 f7 g8 e8 f7 g6 h5 a4 b3 c2 d1 b1 c2 d3 e4 f5 g6 h7 a8 g8 h7 a6 b5 c4 d3 e2 f1 d1 \
                    e2 f3 g4 h5 a6 b7 c8 a8 b7 c6 d5 e4 f3 g2 h1 f1 g2 h3 a4 b5 c6 d7 e8 c8 d7 e6 f5 g4";
    let g4 = cell(&t, "g4");
    let states = walk(&t, g4, heading(&t, "SE"), 64);
    assert_eq!(names(&t, &states).join(" "), expected);
    // Back on g4 with the heading it started with: the circuit closes after 64 steps ...
    assert_eq!(states[63], (g4, heading(&t, "SE")));
    // ... passing g4 once on the way, at step 39, heading NE ("a different direction of travel").
    assert_eq!(states[38], (g4, heading(&t, "NE")));
    // Every square of g4's colour twice.
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for n in names(&t, &states) {
        *count.entry(n).or_default() += 1;
    }
    assert_eq!(count.len(), 32);
    assert!(count.values().all(|&n| n == 2));
    // As a move, the slide stops where it would come back to g4 (no stationary move).
    let (cells, flags) = ray_cells(&t, "Bishop", "g4", "SE");
    assert_eq!(cells.len(), 38);
    assert!(flags & ray::RETURNS != 0);
}

/// GM-3: "There are four such tours that the Bishop can make from g4": four start headings, two
/// distinct cycles (one the reverse of the other), covering the same 32 squares.
#[test]
fn gm3_four_tours_two_cycles() {
    let t = tables("miller");
    let g4 = cell(&t, "g4");
    let cycle = |h: &str| walk(&t, g4, heading(&t, h), 64);
    let se = cycle("SE");
    let ne = cycle("NE");
    // The NE start is the same cycle as the SE start, entered at step 39.
    assert_eq!(ne[..25], se[39..]);
    let sw = cycle("SW");
    let nw = cycle("NW");
    for c in [&sw, &nw] {
        assert_eq!(c[63].0, g4);
        let squares: std::collections::BTreeSet<_> = c.iter().map(|s| s.0).collect();
        let squares_se: std::collections::BTreeSet<_> = se.iter().map(|s| s.0).collect();
        assert_eq!(squares, squares_se);
    }
}

/// GM-4 (Duniho): from h3 heading SE, stopping at the first return to h3, the bishop misses d7 and
/// passes some squares only once.
#[test]
fn gm4_duniho_first_return_to_h3() {
    let t = tables("grayber");
    let h3 = cell(&t, "h3");
    let states = walk(&t, h3, heading(&t, "SE"), 64);
    let first_return = states.iter().position(|s| s.0 == h3).unwrap() + 1;
    assert_eq!(first_return, 53);
    let visited = names(&t, &states[..first_return]);
    assert!(!visited.contains(&"d7".to_string()));
    for once in ["a4", "b5", "c6", "c8", "e6", "e8", "f5", "g4", "h3"] {
        assert_eq!(visited.iter().filter(|n| *n == once).count(), 1, "{once}");
    }
}

/// GM-5 (Grayber knight): "Ng2: a1,a3,h4,f4,e3,e1 Ng1: a2,b2,h3,f3,e2,d2"; six moves one or two
/// ranks from a pole.
#[test]
fn gm5_grayber_knight() {
    let t = tables("grayber");
    assert_eq!(destinations(&t, "Knight", "g2"), set("a1 a3 h4 f4 e3 e1"));
    assert_eq!(destinations(&t, "Knight", "g1"), set("a2 b2 h3 f3 e2 d2"));
    for c in &t.cells {
        let rank: u32 = c[1..].parse().unwrap();
        let expected = if matches!(rank, 1 | 2 | 7 | 8) { 6 } else { 8 };
        assert_eq!(destinations(&t, "Knight", c).len(), expected, "knight on {c}");
    }
}

/// GM-6/GM-7 (Miller knight): g1 as Grayber's; g2 also reaches b1 and d1 (eight moves).
#[test]
fn gm6_gm7_miller_knight() {
    let t = tables("miller");
    assert_eq!(destinations(&t, "Knight", "g1"), set("a2 b2 h3 f3 e2 d2"));
    assert_eq!(destinations(&t, "Knight", "g2"), set("a1 a3 h4 f4 e3 e1 b1 d1"));
    // GM-7: the g1 knight reaches b2/d2 through the pole (g1, c1, then one diagonal step outward).
    assert!(destinations(&t, "Knight", "g1").is_superset(&set("b2 d2")));
    for c in &t.cells {
        let rank: u32 = c[1..].parse().unwrap();
        let expected = if matches!(rank, 1 | 8) { 6 } else { 8 };
        assert_eq!(destinations(&t, "Knight", c).len(), expected, "knight on {c}");
    }
}

/// Y-1: the bishop's 16-square loop from g3; every diagonal loop of the turning globe has 16 squares.
#[test]
fn y1_yapsan_bishop_loop() {
    let t = tables("yapsan");
    let (cells, flags) = ray_cells(&t, "Bishop", "g3", "SW");
    assert_eq!(cells.join(" "), "f2 e1 a1 b2 c3 d4 e5 f6 g7 h8 d8 c7 b6 a5 h4");
    assert!(flags & ray::RETURNS != 0);
    for c in &t.cells {
        for h in ["NE", "SE", "SW", "NW"] {
            let (cells, flags) = ray_cells(&t, "Bishop", c, h);
            assert_eq!(cells.len() + 1, 16, "{c} {h}");
            assert!(flags & ray::RETURNS != 0);
        }
    }
}

/// Y-3: Yapsan's knight always has eight moves; Ng1 and Ng2 as derived from his wording.
#[test]
fn y3_yapsan_knight() {
    let t = tables("yapsan");
    assert_eq!(destinations(&t, "Knight", "g1"), set("h3 f3 a2 e2 b2 d2 a1 e1"));
    assert_eq!(destinations(&t, "Knight", "g2"), set("h4 f4 a3 e3 a1 e1 b1 d1"));
    for c in &t.cells {
        assert_eq!(destinations(&t, "Knight", c).len(), 8, "knight on {c}");
    }
}

/// Y-4 and CHA-2: "White has a King on e1 and a Rook on h1, but castles by moving to c1 and the Rook
/// from h1 moving to d1."
#[test]
fn y4_cha2_castling_from_either_side() {
    for version in ["yapsan", "chess-on-the-dot"] {
        let game = common::game(&format!("examples/spherical/{version}.orbis"));
        let moves = legal(&game, "8/8/2k5/8/8/8/8/4K2R w K - 0 1");
        assert!(moves.contains("C0-0-0") && moves.contains("O-O"), "{version}: {moves:?}");
        let after = game_after(&game, "8/8/2k5/8/8/8/8/4K2R w K - 0 1", "C0-0-0");
        assert_eq!(after, "8/8/2k5/8/8/8/8/2KR4 b - - 1 1");
    }
    // Global Chess castles as in chess only.
    let game = common::game("examples/spherical/global-chess.orbis");
    let moves = legal(&game, "8/8/2k5/8/8/8/8/4K2R w K - 0 1");
    assert!(moves.contains("O-O") && !moves.contains("C0-0-0"));
}

fn game_after(game: &orbis_runtime::Game<u64>, fen: &str, mv: &str) -> String {
    let mut pos = orbis_runtime::Position::parse(game, fen).unwrap();
    let m = pos.parse_move(game, mv).unwrap();
    pos.make(game, m);
    pos.to_fen(game).unwrap()
}

/// Y-5: Pritchard's "inter-polar move (e.g. a7-b1)" does not exist: no single step joins a7 and b1.
#[test]
fn y5_no_inter_polar_step() {
    let t = tables("yapsan");
    assert!(!destinations(&t, "King", "a7").contains("b1"));
}

/// Y-6 and CHA-1: Yapsan allows a move around a closed loop back to the start; Chao forbids it.
#[test]
fn y6_cha1_stationary_moves() {
    let fen = "8/8/2k5/8/8/R7/8/4K3 w - - 0 1";
    let yapsan = common::game("examples/spherical/yapsan.orbis");
    assert!(legal(&yapsan, fen).contains("Ra3-a3"));
    // It is one move, however many loops lead back (the rank and the file loop).
    assert_eq!(legal(&yapsan, fen).iter().filter(|m| *m == "Ra3-a3").count(), 1);
    for version in ["chess-on-the-dot", "nadvorney", "global-chess"] {
        let game = common::game(&format!("examples/spherical/{version}.orbis"));
        assert!(!legal(&game, fen).contains("Ra3-a3"), "{version}");
    }
    // A loop with a piece on it is no stationary move: block the rank and the file loop.
    assert!(!legal(&yapsan, "8/8/2k5/8/8/R6P/P7/4K3 w - - 0 1").contains("Ra3-a3"));
}

/// GLO-1: the card's knight reaches the squares two files away on its own rank next to a pole; the
/// later web page's does not.
#[test]
fn glo1_global_chess_knights() {
    assert_eq!(destinations(&tables("global-chess"), "Knight", "g1"), set("a1 a2 b2 d2 e1 e2 f3 h3"));
    assert_eq!(destinations(&tables("global-chess-web"), "Knight", "g1"), set("a2 b2 d2 e2 f3 h3"));
}

/// SPH-1: knights do not cross the poles; they still wrap across a/h.
#[test]
fn sph1_sphere_chess_knight() {
    let t = tables("sphere-chess");
    assert_eq!(destinations(&t, "Knight", "b1"), set("d2 c3 a3 h2"));
    assert_eq!(destinations(&t, "Knight", "b2"), set("d1 d3 c4 a4 h3 h1"));
}

/// SPH-2: "It cannot cross the pole or the a/h divide."
#[test]
fn sph2_sphere_chess_king() {
    let t = tables("sphere-chess");
    assert_eq!(destinations(&t, "King", "g1"), set("f1 h1 f2 g2 h2"));
    assert_eq!(destinations(&t, "King", "a1"), set("a2 b1 b2"));
    // The other pieces still cross both.
    assert!(destinations(&t, "Queen", "a1").contains("h1"));
    assert!(destinations(&t, "Rook", "a1").contains("e1"));
}

/// SUM-1 and the king table 1.A.7: a king on g1 per version.
#[test]
fn king_next_to_the_pole() {
    let cases = [
        ("grayber", "f1 h1 f2 g2 h2 c1 e1 a1"),
        ("miller", "f1 h1 f2 g2 h2 c1 e1 a1"),
        ("nadvorney", "f1 h1 f2 g2 h2 c1 d1 b1"),
        ("yapsan", "f1 h1 f2 g2 h2 c1"),
        ("global-chess", "f1 h1 f2 g2 h2 c1"),
        ("global-chess-web", "f1 h1 f2 g2 h2 c1"),
        ("chess-on-the-dot", "f1 h1 f2 g2 h2 c1"),
        ("sphere-chess", "f1 h1 f2 g2 h2"),
    ];
    for (version, expected) in cases {
        assert_eq!(destinations(&tables(version), "King", "g1"), set(expected), "{version}");
    }
}

/// "Rooks and Pawns move the same in all versions": a rook on a3 crosses to e1 in every version,
/// and a pawn on a4 captures on h5.
#[test]
fn rooks_and_pawns_alike_everywhere() {
    for version in ["grayber", "miller", "yapsan", "nadvorney", "global-chess", "global-chess-web", "sphere-chess", "chess-on-the-dot"] {
        let t = tables(version);
        assert_eq!(ray_cells(&t, "Rook", "a3", "S").0[..6], ["a2", "a1", "e1", "e2", "e3", "e4"], "{version}");
        let game = common::game(&format!("examples/spherical/{version}.orbis"));
        assert!(legal(&game, "8/8/2k5/7p/P7/8/8/4K3 w - - 0 1").contains("Pa4xh5"), "{version}");
    }
}

/// perft(1..4) from the start of every version, as snapshots.
#[test]
fn start_perft_of_every_version() {
    for version in ["grayber", "miller", "yapsan", "boholy", "nelson", "global-chess", "global-chess-web", "sphere-chess", "chess-on-the-dot"] {
        let engine = common::engine(&format!("examples/spherical/{version}.orbis"));
        let counts: Vec<String> = (1..=4).map(|d| format!("perft({d}) = {}", engine.perft(None, d).unwrap())).collect();
        insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(format!("perft-start-spherical-{version}"), counts.join("\n"));
        });
    }
}
