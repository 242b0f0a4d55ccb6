//! Self-test of the independent Chess on a Soccer Ball reference (tests/common/ball_reference.rs):
//! the geometric facts it is built on, the first plies from the start, and (printed with
//! `--nocapture`) its perft numbers and the lone-piece destination counts, so that the engine can
//! later be compared against it.

#[path = "common/ball_reference.rs"]
mod ball_reference;

use ball_reference::{BallReference, KINDS};
use std::collections::BTreeSet;
use std::time::Instant;

fn names(r: &BallReference, cells: &[usize]) -> Vec<String> {
    cells.iter().map(|&c| r.name(c).to_string()).collect()
}

#[test]
fn geometry() {
    let r = BallReference::new(false);
    let pents = r.pentagons();
    let hexes = r.hexagons();
    assert_eq!(pents.len(), 12);
    assert_eq!(hexes.len(), 20);
    assert_eq!(
        names(&r, &pents),
        ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]
    );
    let adj = r.adjacency();
    assert_eq!(
        adj.iter().map(Vec::len).sum::<usize>(),
        180,
        "90 adjacencies"
    );
    for &h in &hexes {
        assert_eq!(
            adj[h].iter().filter(|&&n| r.is_pentagon(n)).count(),
            3,
            "{} touches 3 pentagons",
            r.name(h)
        );
        // Sides alternate pentagon / hexagon round a hexagon.
        for i in 0..6 {
            assert_ne!(r.is_pentagon(adj[h][i]), r.is_pentagon(adj[h][(i + 1) % 6]));
        }
    }
    for &p in &pents {
        assert!(
            adj[p].iter().all(|&n| !r.is_pentagon(n)),
            "pentagons only touch hexagons"
        );
    }
    // The page's names: x0-x4 round A, z0-z4 round L; A and L antipodal.
    let set = |v: &[usize]| names(&r, v).into_iter().collect::<BTreeSet<_>>();
    assert_eq!(
        set(&adj[r.cell("A")]),
        ["x0", "x1", "x2", "x3", "x4"].map(String::from).into()
    );
    assert_eq!(
        set(&adj[r.cell("L")]),
        ["z0", "z1", "z2", "z3", "z4"].map(String::from).into()
    );
    assert_eq!(r.antipode[r.cell("A")], r.cell("L"));

    // Rings: consecutive hexagons round a pentagon are adjacent.
    let rings = r.rings();
    assert_eq!(rings.len(), 12);
    for ring in &rings {
        assert_eq!(ring.len(), 5);
        for i in 0..5 {
            assert!(adj[ring[i]].contains(&ring[(i + 1) % 5]));
        }
    }

    // Rook lines: 30, each pentagon-hexagon-hexagon-pentagon; 3 cells per direction from a
    // pentagon, 1 or 2 from a hexagon.
    let lines = r.rook_lines();
    assert_eq!(lines.len(), 30);
    for l in &lines {
        assert_eq!(l.len(), 4);
        assert!(
            r.is_pentagon(l[0])
                && !r.is_pentagon(l[1])
                && !r.is_pentagon(l[2])
                && r.is_pentagon(l[3])
        );
    }
    for c in 0..32 {
        let lens: Vec<usize> = r.rook_rays[c].iter().map(Vec::len).collect();
        if r.is_pentagon(c) {
            assert_eq!(lens, vec![3; 5]);
        } else {
            assert_eq!(lens.iter().filter(|&&l| l == 1).count(), 3);
            assert_eq!(lens.iter().filter(|&&l| l == 2).count(), 3);
        }
    }

    // Bishop loops: 12 loops of 5 hexagons, 3 through each hexagon; 6 rays of 4 per hexagon.
    let loops = r.bishop_loops();
    assert_eq!(loops.len(), 12);
    assert!(loops
        .iter()
        .all(|l| l.len() == 5 && l.iter().all(|&c| !r.is_pentagon(c))));
    for &h in &hexes {
        assert_eq!(loops.iter().filter(|l| l.contains(&h)).count(), 3);
        assert_eq!(r.bishop_rays[h].len(), 6);
        assert!(r.bishop_rays[h].iter().all(|ray| ray.len() == 4));
        // Every bishop step goes to a hexagon at distance 2, and each loop is ridden both ways.
        for ray in &r.bishop_rays[h] {
            assert_eq!(r.dist[h][ray[0]], 2);
            let back: Vec<usize> = ray.iter().rev().copied().collect();
            assert!(r.bishop_rays[h].contains(&back));
        }
    }
    for &p in &pents {
        assert!(r.bishop_rays[p].is_empty());
    }

    // Wizard: the icosahedron's edges; 10 rays of 4 from each pentagon, reaching the 10
    // pentagons other than itself and its antipode.
    for &p in &pents {
        assert_eq!(r.wizard_nb[p].len(), 5);
        assert!(r.wizard_nb[p].iter().all(|&q| r.wizard_nb[q].contains(&p)));
        assert_eq!(r.wizard_rays[p].len(), 10);
        assert!(r.wizard_rays[p].iter().all(|ray| ray.len() == 4));
        let reached: BTreeSet<usize> = r.wizard_rays[p].iter().flatten().copied().collect();
        assert_eq!(reached.len(), 10);
        assert!(!reached.contains(&p) && !reached.contains(&r.antipode[p]));
    }
    assert_eq!(
        pents.iter().map(|&p| r.wizard_nb[p].len()).sum::<usize>(),
        60,
        "30 icosahedron edges"
    );

    // Equators: 6, each 10 hexagons in a closed chain, splitting the rest into two halves of
    // 5 hexagons + 6 pentagons; 3 through each hexagon.
    let eqs = r.equators();
    assert_eq!(eqs.len(), 6);
    for e in eqs {
        assert_eq!(e.len(), 10);
        for i in 0..10 {
            assert!(!r.is_pentagon(e[i]) && adj[e[i]].contains(&e[(i + 1) % 10]));
        }
        let mut rest: BTreeSet<usize> = (0..32).filter(|c| !e.contains(c)).collect();
        let mut parts = Vec::new();
        while let Some(&s) = rest.iter().next() {
            let mut part = BTreeSet::from([s]);
            let mut todo = vec![s];
            while let Some(c) = todo.pop() {
                for &n in &adj[c] {
                    if rest.contains(&n) && part.insert(n) {
                        todo.push(n);
                    }
                }
            }
            rest.retain(|c| !part.contains(c));
            parts.push(part);
        }
        assert_eq!(parts.len(), 2);
        for part in &parts {
            assert_eq!(part.iter().filter(|&&c| r.is_pentagon(c)).count(), 6);
            assert_eq!(part.iter().filter(|&&c| !r.is_pentagon(c)).count(), 5);
        }
    }
    for &h in &hexes {
        assert_eq!(eqs.iter().filter(|e| e.contains(&h)).count(), 3);
        assert_eq!(r.satellite_rays[h].len(), 6);
        assert!(r.satellite_rays[h].iter().all(|ray| ray.len() == 9));
        assert_eq!(r.ring_rays[h].len(), 6);
        assert!(r.ring_rays[h].iter().all(|ray| ray.len() == 4));
    }

    // Knights: distance exactly 3, never pentagon to pentagon.
    for c in 0..32 {
        for &t in &r.knight[c] {
            assert_eq!(r.dist[c][t], 3);
            assert!(!(r.is_pentagon(c) && r.is_pentagon(t)));
        }
    }
}

#[test]
fn lone_pieces() {
    let r = BallReference::new(false);
    for cell in ["A", "x0", "y0"] {
        let counts: Vec<String> = KINDS
            .iter()
            .map(|&k| format!("{k}:{}", r.lone_destinations(k, cell).len()))
            .collect();
        println!("lone on {cell}: {}", counts.join(" "));
        for &k in &KINDS {
            println!("  {k} {cell}: {}", r.lone_destinations(k, cell).join(" "));
        }
    }
    // Riders that only move from one kind of cell.
    for k in ['B', 'M', 'S'] {
        assert!(
            r.lone_destinations(k, "A").is_empty(),
            "{k} has no moves from a pentagon"
        );
    }
    assert!(r.lone_destinations('W', "x0").is_empty());
    assert_eq!(r.lone_destinations('W', "A").len(), 10);
    assert_eq!(r.lone_destinations('R', "A").len(), 15);
    assert_eq!(r.lone_destinations('G', "A").len(), 5);
    assert_eq!(r.lone_destinations('P', "x0").len(), 3);
}

#[test]
fn first_plies() {
    for chivalrous in [false, true] {
        let r = BallReference::new(chivalrous);
        let s = r.start();
        assert!(!r.is_over(&s) && !r.in_check(&s));
        assert_eq!(
            r.legal_moves(&s),
            ["K@L", "K@z0", "K@z1", "K@z2", "K@z3", "K@z4"]
        );
        let s1 = r.play(&s, "K@z2");
        assert_eq!(
            r.legal_moves(&s1),
            ["K@A", "K@x0", "K@x1", "K@x2", "K@x3", "K@x4"]
        );
        let s2 = r.play(&s1, "K@x2");
        let moves = r.legal_moves(&s2);
        println!("after K@z2 K@x2: {moves:?}");
        // Only the top pieces move: the Guard on L to the pentagons next to L's ring, the Pawns
        // on z0-z4 to hexagons.
        for m in &moves {
            let (from, to) = m.split_once('-').expect("a board move");
            assert!(!to.contains('='));
            let (f, t) = (r.cell(from), r.cell(to));
            assert!(["L", "z0", "z1", "z2", "z3", "z4"].contains(&from));
            assert_eq!(r.is_pentagon(f), r.is_pentagon(t), "{m}");
            if from == "L" {
                assert!(r.wizard_nb[f].contains(&t));
            } else {
                assert!(r.adjacency()[f].contains(&t));
            }
        }
        assert_eq!(moves.len(), 10);
        // Moving the Pawn off z2 uncovers the crowned Rook.
        let pawn = moves.iter().find(|m| m.starts_with("z2-")).unwrap().clone();
        let s3 = r.play(&s2, &pawn);
        let z2 = s3.cells[r.cell("z2")].unwrap();
        assert_eq!((z2.top, z2.hidden, z2.crowned), ('R', None, 1));
        let to = s3.cells[r.cell(&pawn[3..])].unwrap();
        assert_eq!((to.top, to.hidden, to.crowned, to.side), ('P', None, 0, 0));
        assert_eq!(r.royal_cell(&s3, 0), Some(r.cell("z2")));
        assert_eq!(r.royal_cell(&s3, 1), Some(r.cell("x2")));

        // A mate in three plies: the Bishop uncovered on z1 rides z1-y1-x0 onto Black's crowned
        // Satellite hidden on x0; Black's pawns can only reach the even y cells and nothing of
        // Black's can capture on z1.
        let m = r.play(&r.play(&r.play(&s, "K@z0"), "K@x0"), "z1-y3");
        assert!(r.in_check(&m) && r.legal_moves(&m).is_empty() && !r.is_over(&m));
        // The same with White's King on the Bishop: check only when the crowned piece gives check.
        let m = r.play(&r.play(&r.play(&s, "K@z1"), "K@x0"), "z1-y3");
        assert_eq!(r.in_check(&m), !chivalrous);
    }
}

#[test]
fn perft() {
    for chivalrous in [false, true] {
        let r = BallReference::new(chivalrous);
        let s = r.start();
        let mut found = Vec::new();
        for d in 1..=4 {
            let t = Instant::now();
            let n = r.perft(&s, d);
            println!(
                "chivalrous={chivalrous} perft({d}) = {n}  ({:.2?})",
                t.elapsed()
            );
            found.push(n);
        }
        assert_eq!(found[0], 6);
        assert_eq!(found[1], 36);
        // White's first board moves: the Guard on L to the 5 pentagons G-K, each Pawn on z0-z4
        // to its one free hexagon; Black has only Pawns and a Guard on top, so no check.
        assert_eq!(found[2], 360);
    }
}
