//! The cube-surface board (examples/boards/cube-8x8.orbis, cube-5x5.orbis) as a complex of
//! polygon cells: every geometric fact of the page that the board alone determines, from the
//! compiled step function and the pieces' rays, checked against the lattice model of the page
//! (cells are the points (x, y, z) on the surface of the box; orthogonal neighbours differ by one
//! in one coordinate, diagonal ones in two, on a common face).

mod common;

use orbis_compiler::walk::rule_rays;
use orbis_compiler::model::{CellId, Variant};
use std::collections::BTreeSet;

/// A variant on the box board of side `n` with the FIDE riders, so rays can be asked for.
fn cube(n: usize) -> Variant {
    let library = match n {
        8 => "cube-8x8",
        5 => "cube-5x5",
        _ => panic!("no library for {n}"),
    };
    let source = format!(
        r#"variant "cube {n}"
include "boards/{library}.orbis"
piece King K royal {{ step all }}
piece Queen Q {{ slide all }}
piece Rook R {{ slide orth }}
piece Bishop B {{ slide diag }}
side white {{ setup {{ K x0y1z0 }} }}
side black {{ setup {{ K x{m}y{m}z{m} }} }}
"#,
        m = n - 1
    );
    common::variant_from("examples/cube-test.orbis", &source)
}

fn coords(v: &Variant, c: CellId) -> [i32; 3] {
    let name = &v.board.cells[c].name;
    let parts: Vec<i32> = name[1..].split(|ch: char| ch.is_ascii_alphabetic()).map(|p| p.parse().expect("coordinate")).collect();
    [parts[0], parts[1], parts[2]]
}

fn cell(v: &Variant, p: [i32; 3]) -> CellId {
    let name = format!("x{}y{}z{}", p[0], p[1], p[2]);
    v.board.cells.iter().position(|c| c.name == name).unwrap_or_else(|| panic!("no cell {name}"))
}

/// Coordinates at the boundary (0 or n-1).
fn boundary(p: [i32; 3], n: i32) -> usize {
    p.iter().filter(|&&c| c == 0 || c == n - 1).count()
}

/// The faces (axis, value) a cell lies on.
fn faces(p: [i32; 3], n: i32) -> Vec<(usize, i32)> {
    (0..3).filter(|&i| p[i] == 0 || p[i] == n - 1).map(|i| (i, p[i])).collect()
}

/// The cells one step away through the sides (orthogonal) or the corners (diagonal).
fn steps(v: &Variant, c: CellId, diagonal: bool) -> BTreeSet<CellId> {
    let h = v.board.headings.len();
    (0..h).filter(|&k| (k % 2 == 1) == diagonal).filter_map(|k| v.board.step(c, k)).map(|(d, _)| d).collect()
}

#[test]
fn cell_counts() {
    assert_eq!(cube(8).board.cells.len(), 296);
    assert_eq!(cube(5).board.cells.len(), 98);
}

#[test]
fn neighbours_are_those_of_the_lattice_model() {
    for n in [8, 5] {
        let v = cube(n);
        let ni = n as i32;
        for c in 0..v.board.cells.len() {
            let p = coords(&v, c);
            let orth = steps(&v, c, false);
            let diag = steps(&v, c, true);
            let expect_orth: BTreeSet<CellId> = (0..v.board.cells.len())
                .filter(|&d| {
                    let q = coords(&v, d);
                    (0..3).map(|i| (p[i] - q[i]).abs()).sum::<i32>() == 1
                })
                .collect();
            let expect_diag: BTreeSet<CellId> = (0..v.board.cells.len())
                .filter(|&d| {
                    let q = coords(&v, d);
                    let diff: Vec<i32> = (0..3).map(|i| (p[i] - q[i]).abs()).collect();
                    let common = faces(p, ni).iter().any(|f| faces(q, ni).contains(f));
                    diff.iter().sum::<i32>() == 2 && diff.iter().all(|&x| x <= 1) && common
                })
                .collect();
            assert_eq!(orth, expect_orth, "orthogonal neighbours of {:?}", p);
            assert_eq!(diag, expect_diag, "diagonal neighbours of {:?}", p);
            let (o, d) = if boundary(p, ni) == 3 { (3, 3) } else { (4, 4) };
            assert_eq!((orth.len(), diag.len()), (o, d), "{:?}", p);
        }
    }
}

/// The cells of the ray of `piece` from `from` whose first cell is `first`.
fn ray(v: &Variant, piece: &str, from: [i32; 3], first: [i32; 3]) -> Vec<[i32; 3]> {
    let k = v.pieces.iter().position(|p| p.name == piece).expect("piece");
    let origin = cell(v, from);
    let first = cell(v, first);
    let rays = rule_rays(v, 0, &v.pieces[k], &v.pieces[k].rules[0], origin);
    let r = rays.iter().find(|r| r.cells[0] == first).unwrap_or_else(|| panic!("no {piece} ray from {from:?} through {:?}", coords(v, first)));
    r.cells.iter().map(|&c| coords(v, c)).collect()
}

#[test]
fn a_queen_switches_between_diagonal_and_edge_line_at_a_vertex() {
    let v = cube(8);
    // The face diagonal of board 1 into the vertex (7,7,7) goes on along the edge x=7, y=7.
    let line = ray(&v, "Queen", [4, 4, 7], [5, 5, 7]);
    assert_eq!(&line[..6], &[[5, 5, 7], [6, 6, 7], [7, 7, 7], [7, 7, 6], [7, 7, 5], [7, 7, 4]]);
    // And the reverse: along the edge into the vertex, then down the diagonal of board 1.
    let line = ray(&v, "Queen", [7, 7, 4], [7, 7, 5]);
    assert_eq!(&line[..5], &[[7, 7, 5], [7, 7, 6], [7, 7, 7], [6, 6, 7], [5, 5, 7]]);
    // A rook and a bishop stop on the vertex.
    assert_eq!(ray(&v, "Bishop", [4, 4, 7], [5, 5, 7]), [[5, 5, 7], [6, 6, 7], [7, 7, 7]]);
    assert_eq!(ray(&v, "Rook", [7, 7, 4], [7, 7, 5]), [[7, 7, 5], [7, 7, 6], [7, 7, 7]]);
}

#[test]
fn a_diagonal_next_to_a_vertex_bends_round_it() {
    let v = cube(8);
    let line = ray(&v, "Bishop", [5, 4, 7], [6, 5, 7]);
    assert_eq!(&line[..4], &[[6, 5, 7], [7, 6, 7], [7, 7, 6], [6, 7, 5]]);
}

#[test]
fn rook_lines_through_faces_are_loops_of_28_and_edge_lines_run_vertex_to_vertex() {
    let v = cube(8);
    let k = v.pieces.iter().position(|p| p.name == "Rook").expect("rook");
    for c in 0..v.board.cells.len() {
        let p = coords(&v, c);
        for r in rule_rays(&v, 0, &v.pieces[k], &v.pieces[k].rules[0], c) {
            let cells: Vec<[i32; 3]> = r.cells.iter().map(|&d| coords(&v, d)).collect();
            let last = *cells.last().expect("a cell");
            match boundary(p, 8) {
                // From a face square: round the cube and back (27 other cells), unless the line
                // runs into a vertex (never, from a face interior).
                1 => assert_eq!(cells.len(), 27, "{p:?} {cells:?}"),
                _ => {
                    // From an edge or vertex: a line of 28 round the cube, or along the edge to a
                    // vertex (at most 7 further cells, ending on the vertex).
                    if cells.len() != 27 {
                        assert_eq!(boundary(last, 8), 3, "{p:?} {cells:?}");
                        assert!(cells.len() <= 7, "{p:?} {cells:?}");
                    }
                }
            }
        }
    }
    // The edge from (0,7,7) to (7,7,7) is a line of 8.
    assert_eq!(ray(&v, "Rook", [0, 7, 7], [1, 7, 7]).len(), 7);
}

#[test]
fn bishops_keep_their_colour() {
    let v = cube(8);
    let k = v.pieces.iter().position(|p| p.name == "Bishop").expect("bishop");
    let mut reached: BTreeSet<CellId> = BTreeSet::new();
    for c in 0..v.board.cells.len() {
        let parity = coords(&v, c).iter().sum::<i32>() % 2;
        for r in rule_rays(&v, 0, &v.pieces[k], &v.pieces[k].rules[0], c) {
            for &d in &r.cells {
                assert_eq!(coords(&v, d).iter().sum::<i32>() % 2, parity, "from {:?}", coords(&v, c));
                reached.insert(d);
            }
        }
    }
    assert_eq!(reached.len(), 296);
}

#[test]
fn the_surface_is_a_sphere() {
    for (n, cells) in [(8, 296), (5, 98)] {
        let v = cube(n);
        let s = v.board.complex.as_ref().expect("a complex").surface();
        assert_eq!(s.faces, cells);
        assert_eq!(s.euler, 2, "{s:?}");
        assert!(s.orientable);
        assert_eq!(s.border_components, 0);
        assert_eq!(s.name(), "sphere");
    }
}
