//! The soccer ball (examples/boards/soccer-ball.orbis, a truncated icosahedron from an OFF mesh)
//! as a complex of polygon cells: the page's geometric facts from the compiled step function and
//! the pieces' rays: 32 cells, 90 adjacencies, straight lines pentagon-hexagon-hexagon-pentagon
//! (30), diagonal loops of five hexagons (12, three through each hexagon), the pentagon-to-
//! pentagon diagonal step, the names round A and L.

mod common;

use orbis_compiler::walk::rule_rays;
use orbis_compiler::model::{CellId, Variant};
use orbis_runtime::tables::ray;
use std::collections::{BTreeSet, VecDeque};

fn ball() -> Variant {
    let source = r#"variant "ball"
include "boards/soccer-ball.orbis"
piece King K royal { step orth }
piece Rook R { slide orth }
piece Bishop B { slide diag }
side white { setup { K x0 } }
side black { setup { K z0 } }
"#;
    common::variant_from("examples/ball-test.orbis", source)
}

fn sides(v: &Variant, c: CellId) -> usize {
    v.board.complex.as_ref().expect("complex").degree(c)
}

fn name(v: &Variant, c: CellId) -> &str {
    &v.board.cells[c].name
}

fn id(v: &Variant, n: &str) -> CellId {
    v.board.cells.iter().position(|c| c.name == n).unwrap_or_else(|| panic!("no cell {n}"))
}

/// Neighbours across the sides, in order round the cell.
fn around(v: &Variant, c: CellId) -> Vec<CellId> {
    (0..sides(v, c)).filter_map(|i| v.board.step(c, 2 * i)).map(|(d, _)| d).collect()
}

fn rays(v: &Variant, piece: &str, c: CellId) -> Vec<orbis_compiler::walk::PathRay> {
    let k = v.pieces.iter().position(|p| p.name == piece).expect("piece");
    rule_rays(v, 0, &v.pieces[k], &v.pieces[k].rules[0], c)
}

#[test]
fn pentagons_hexagons_and_their_neighbours() {
    let v = ball();
    assert_eq!(v.board.cells.len(), 32);
    let pentagons: Vec<CellId> = (0..32).filter(|&c| sides(&v, c) == 5).collect();
    assert_eq!(pentagons.len(), 12);
    assert_eq!((0..32).filter(|&c| sides(&v, c) == 6).count(), 20);
    let mut adjacencies = BTreeSet::new();
    for c in 0..32 {
        let ns = around(&v, c);
        assert_eq!(ns.len(), sides(&v, c), "{} has a side on no cell", name(&v, c));
        if sides(&v, c) == 5 {
            assert!(ns.iter().all(|&d| sides(&v, d) == 6), "pentagons touch only hexagons");
        } else {
            // Pentagon, hexagon, pentagon ... round a hexagon.
            for (i, &d) in ns.iter().enumerate() {
                let next = ns[(i + 1) % 6];
                assert_ne!(sides(&v, d), sides(&v, next), "round {}", name(&v, c));
            }
        }
        for d in ns {
            adjacencies.insert((c.min(d), c.max(d)));
        }
    }
    assert_eq!(adjacencies.len(), 90);
    let ph = adjacencies.iter().filter(|&&(a, b)| sides(&v, a) != sides(&v, b)).count();
    assert_eq!((ph, 90 - ph), (60, 30));
    // Every vertex: one pentagon and two hexagons.
    let complex = v.board.complex.as_ref().expect("complex");
    let geometry = complex.geometry();
    assert_eq!(geometry.vertices.len(), 60);
    for vx in &geometry.vertices {
        let mut kinds: Vec<usize> = vx.corners.iter().map(|&(c, _)| sides(&v, c)).collect();
        kinds.sort();
        assert_eq!(kinds, [5, 6, 6]);
    }
    let s = complex.surface();
    assert_eq!((s.vertices, s.edges, s.faces, s.euler), (60, 90, 32, 2));
    assert_eq!(s.name(), "sphere");
}

#[test]
fn the_page_names_round_a_and_l() {
    let v = ball();
    let set = |names: &[&str]| names.iter().map(|n| id(&v, n)).collect::<BTreeSet<_>>();
    assert_eq!(around(&v, id(&v, "A")).into_iter().collect::<BTreeSet<_>>(), set(&["x0", "x1", "x2", "x3", "x4"]));
    assert_eq!(around(&v, id(&v, "L")).into_iter().collect::<BTreeSet<_>>(), set(&["z0", "z1", "z2", "z3", "z4"]));
    // L is A's antipode: the farthest cell, and the only one that far.
    let mut dist = vec![usize::MAX; 32];
    let mut queue = VecDeque::from([id(&v, "A")]);
    dist[id(&v, "A")] = 0;
    while let Some(c) = queue.pop_front() {
        for d in around(&v, c) {
            if dist[d] == usize::MAX {
                dist[d] = dist[c] + 1;
                queue.push_back(d);
            }
        }
    }
    let far = *dist.iter().max().expect("cells");
    assert_eq!((0..32).filter(|&c| dist[c] == far).collect::<Vec<_>>(), [id(&v, "L")]);
}

#[test]
fn straight_lines_run_pentagon_hexagon_hexagon_pentagon() {
    let v = ball();
    let mut lines = BTreeSet::new();
    for c in (0..32).filter(|&c| sides(&v, c) == 5) {
        let rs = rays(&v, "Rook", c);
        assert_eq!(rs.len(), 5, "{}", name(&v, c));
        for r in rs {
            let kinds: Vec<usize> = r.cells.iter().map(|&d| sides(&v, d)).collect();
            assert_eq!(kinds, [6, 6, 5], "from {}", name(&v, c));
            let end = *r.cells.last().expect("cells");
            lines.insert((c.min(end), c.max(end)));
        }
    }
    assert_eq!(lines.len(), 30);
    // From a hexagon: three lines, one cell one way and two the other, nine cells in all.
    for c in (0..32).filter(|&c| sides(&v, c) == 6) {
        let mut lengths: Vec<usize> = rays(&v, "Rook", c).iter().map(|r| r.cells.len()).collect();
        lengths.sort();
        assert_eq!(lengths, [1, 1, 1, 2, 2, 2], "{}", name(&v, c));
    }
}

#[test]
fn diagonals_through_hexagons_are_loops_of_five() {
    let v = ball();
    let mut loops = BTreeSet::new();
    for c in (0..32).filter(|&c| sides(&v, c) == 6) {
        let rs = rays(&v, "Bishop", c);
        assert_eq!(rs.len(), 6);
        for r in &rs {
            // Four other hexagons, then back to the start.
            assert_eq!(r.cells.len(), 4, "from {}", name(&v, c));
            assert!(r.flags & ray::RETURNS != 0);
            assert!(r.cells.iter().all(|&d| sides(&v, d) == 6));
            let mut members: Vec<CellId> = r.cells.clone();
            members.push(c);
            members.sort();
            loops.insert(members);
        }
        // No diagonal neighbour is a neighbour.
        let first: BTreeSet<CellId> = rs.iter().map(|r| r.cells[0]).collect();
        assert!(around(&v, c).iter().all(|d| !first.contains(d)));
    }
    assert_eq!(loops.len(), 12);
    for c in (0..32).filter(|&c| sides(&v, c) == 6) {
        assert_eq!(loops.iter().filter(|l| l.contains(&c)).count(), 3);
    }
}

#[test]
fn a_diagonal_step_from_a_pentagon_reaches_the_five_nearest_pentagons() {
    let v = ball();
    for c in (0..32).filter(|&c| sides(&v, c) == 5) {
        let rs = rays(&v, "Bishop", c);
        // A pentagon has no corner opposite a corner: the diagonal ends after one step.
        let targets: BTreeSet<CellId> = rs.iter().map(|r| {
            assert_eq!(r.cells.len(), 1);
            r.cells[0]
        }).collect();
        assert_eq!(targets.len(), 5);
        for &t in &targets {
            assert_eq!(sides(&v, t), 5);
            // Two steps away: a hexagon between them touches both.
            let between = around(&v, c).into_iter().filter(|&h| around(&v, h).contains(&t)).count();
            assert_eq!(between, 2, "{} -> {}: the edge between two hexagons", name(&v, c), name(&v, t));
        }
    }
}

#[test]
fn zones_of_cells_by_their_sides() {
    let source = r#"variant "ball zones"
include "boards/soccer-ball.orbis"
piece King K royal { step orth }
piece Pawn P { move-only step orth on hexagons }
piece Guard G { step orth }
side white { zone hexagons sides 6  zone pentagons sides 5  setup { K A P x0 }  promote P to G on pentagons }
side black { zone hexagons sides 6  setup { K L } }
"#;
    let v = common::variant_from("examples/ball-zones.orbis", source);
    let pentagons: BTreeSet<CellId> = v.sides[0].promotions[0].zone.iter().copied().collect();
    assert_eq!(pentagons, (0..32).filter(|&c| sides(&v, c) == 5).collect());
    let pawn = v.pieces.iter().position(|p| p.name == "Pawn").expect("pawn");
    for c in 0..32 {
        let rays = rule_rays(&v, 0, &v.pieces[pawn], &v.pieces[pawn].rules[0], c);
        assert_eq!(rays.is_empty(), sides(&v, c) == 5, "{}", name(&v, c));
    }
    // On a grid there are no polygon cells to count.
    let grid = std::fs::read_to_string(common::root().join("examples/orthodox.orbis")).expect("orthodox");
    let checked = orbis_compiler::check("o", &grid.replacen("promote P to Q R B N on rank 8", "promote P to Q R B N on sides 4", 1));
    assert!(checked.render(false).contains("`sides` zone on a board without polygon cells"), "{}", checked.render(false));
}

#[test]
fn rings_round_pentagons_and_equators() {
    let v = ball();
    let pentagons: Vec<CellId> = (0..32).filter(|&c| sides(&v, c) == 5).collect();
    let adjacent = |a: CellId, b: CellId| around(&v, a).contains(&b);
    // Round each pentagon a ring of five hexagons, each touching the next.
    for &p in &pentagons {
        let ring = around(&v, p);
        assert_eq!(ring.len(), 5);
        for i in 0..5 {
            assert!(adjacent(ring[i], ring[(i + 1) % 5]), "round {}", name(&v, p));
        }
    }
    // Each hexagon lies on three rings (it touches three pentagons).
    for h in (0..32).filter(|&c| sides(&v, c) == 6) {
        assert_eq!(pentagons.iter().filter(|&&p| around(&v, p).contains(&h)).count(), 3);
    }
    // Equators: for each pair of antipodal pentagons (the farthest apart), the hexagons touching
    // neither form a closed chain of ten; six equators, three through each hexagon.
    let dist = |from: CellId| {
        let mut d = vec![usize::MAX; 32];
        d[from] = 0;
        let mut queue = VecDeque::from([from]);
        while let Some(c) = queue.pop_front() {
            for n in around(&v, c) {
                if d[n] == usize::MAX {
                    d[n] = d[c] + 1;
                    queue.push_back(n);
                }
            }
        }
        d
    };
    let mut equators = BTreeSet::new();
    for &p in &pentagons {
        let d = dist(p);
        let far = pentagons.iter().copied().max_by_key(|&q| d[q]).expect("pentagons");
        let band: BTreeSet<CellId> = (0..32).filter(|&c| sides(&v, c) == 6 && !around(&v, p).contains(&c) && !around(&v, far).contains(&c)).collect();
        assert_eq!(band.len(), 10, "equator of {} and {}", name(&v, p), name(&v, far));
        // A closed chain: each of its hexagons touches exactly two others of it.
        for &h in &band {
            assert_eq!(around(&v, h).iter().filter(|n| band.contains(n)).count(), 2);
        }
        equators.insert(band.into_iter().collect::<Vec<_>>());
    }
    assert_eq!(equators.len(), 6);
    for h in (0..32).filter(|&c| sides(&v, c) == 6) {
        assert_eq!(equators.iter().filter(|e| e.contains(&h)).count(), 3);
    }
}
