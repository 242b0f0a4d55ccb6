//! Self-test of the independent Webball reference (tests/common/webball_reference.rs): the facts
//! of seed-facts 5.A/5.B it is built on, hand-checked piece moves and check rules, and (printed
//! with `--nocapture`) perft from the start and every piece's lone destinations, so that the
//! engine can be compared against it.

#[path = "common/webball_reference.rs"]
mod webball_reference;

use std::collections::HashMap;
use std::collections::{BTreeSet, VecDeque};
use std::time::Instant;
use webball_reference::{connector_name, Shape, WebballReference, KINDS, VOIDS};

fn set(r: &WebballReference, cells: &[usize]) -> BTreeSet<String> {
    cells.iter().map(|&c| r.name(c).to_string()).collect()
}

fn strs(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

fn lone(r: &WebballReference, kind: char, cell: &str) -> BTreeSet<String> {
    r.lone_destinations(kind, cell).into_iter().collect()
}

#[test]
fn squares_and_names() {
    let r = WebballReference::new();
    assert_eq!(r.cells(), 170);
    let count = |s: Shape| (0..r.cells()).filter(|&c| r.shape(c) == s).count();
    assert_eq!(count(Shape::Node), 20);
    assert_eq!(count(Shape::Connector), 30);
    assert_eq!(count(Shape::NodeRing) + count(Shape::EdgeRing), 120);
    for name in ["NA", "BQ", "XZ", "PS", "N#", "L+", "FW$", "NA*"] {
        assert_eq!(r.name(r.cell(name)), name);
    }
    // Names the page's diagram shows round N, A, J and L.
    for name in [
        "N#", "N*", "N+", "NJ#", "NJ", "NJ+", "NA*", "NA", "NA+", "A*", "A+", "A?", "AC*", "AC?",
        "AB+", "AB?", "K#", "K?", "JK#", "JK?", "J#", "J+", "J?", "JL?", "JL+", "L?", "B?", "B+",
    ] {
        r.cell(name);
    }
    // N first, S last, otherwise alphabetical; XS* does not exist (XS borders # and + only).
    for c in 0..r.cells() {
        if r.shape(c) == Shape::Connector {
            let n: Vec<char> = r.name(c).chars().collect();
            assert!(n[1] != 'N' && n[0] != 'S', "{}", r.name(c));
            if n[0] != 'N' && n[1] != 'S' {
                assert!(n[0] < n[1], "{}", r.name(c));
            }
        }
    }
    assert!((0..r.cells()).all(|c| r.name(c) != "XS*"));
    assert_eq!(
        set(&r, &r.orthogonal(r.cell("XS"))),
        strs(&["X", "S", "XS#", "XS+"])
    );
}

#[test]
fn adjacency_as_in_seed_facts() {
    let r = WebballReference::new();
    let o = |n: &str| set(&r, &r.orthogonal(r.cell(n)));
    let d = |n: &str| set(&r, &r.diagonal(r.cell(n)));
    assert_eq!(o("N"), strs(&["NA", "ND", "NJ", "N*", "N#", "N+"]));
    assert_eq!(d("N"), strs(&["NA*", "NA+", "ND*", "ND#", "NJ#", "NJ+"]));
    assert_eq!(o("NA"), strs(&["N", "A", "NA*", "NA+"]));
    assert_eq!(d("NA"), strs(&["N*", "N+", "A*", "A+"]));
    assert_eq!(o("N*"), strs(&["N", "NA*", "ND*"]));
    assert_eq!(d("N*"), strs(&["NA", "ND"]));
    assert_eq!(o("NA*"), strs(&["NA", "N*", "A*"]));
    assert_eq!(d("NA*"), strs(&["N", "A"]));
    // Cyclic order round NA: N, NA*/NA+, A, the other; N* lies at the corner between N and NA*.
    let p = r.polygon(r.cell("NA"));
    let names: Vec<String> = p
        .sides
        .iter()
        .map(|s| r.name(s.unwrap()).to_string())
        .collect();
    let i = names.iter().position(|n| n == "NA*").unwrap();
    let corner_names: Vec<&str> = p.corners.iter().map(|c| r.name(c.unwrap())).collect();
    let at = |a: usize, b: usize| {
        // the corner between sides a and b (adjacent)
        if (a + 1) % 4 == b {
            corner_names[a]
        } else {
            corner_names[b]
        }
    };
    let n_side = names.iter().position(|n| n == "N").unwrap();
    let a_side = names.iter().position(|n| n == "A").unwrap();
    assert_eq!(at(n_side, i), "N*");
    assert_eq!(at(i, a_side), "A*");
    // Straight lines through N: NA-N-N#, ND-N-N+, NJ-N-N*.
    let hex = r.polygon(r.cell("N"));
    for (a, b) in [("NA", "N#"), ("ND", "N+"), ("NJ", "N*")] {
        let ia = hex
            .sides
            .iter()
            .position(|&s| s == Some(r.cell(a)))
            .unwrap();
        assert_eq!(hex.sides[(ia + 3) % 6], Some(r.cell(b)));
    }
}

#[test]
fn polygons_fit_together() {
    let r = WebballReference::new();
    for c in 0..r.cells() {
        let p = r.polygon(c);
        let (no, nd) = (r.orthogonal(c).len(), r.diagonal(c).len());
        let expected = match r.shape(c) {
            Shape::Node => (6, 6),
            Shape::Connector => (4, 4),
            Shape::NodeRing | Shape::EdgeRing => (3, 2),
        };
        assert_eq!((no, nd), expected, "{}", r.name(c));
        let k = p.sides.len();
        for i in 0..k {
            // Symmetry, and the two polygons agree (in reverse) on the corner they share.
            if let Some(nb) = p.sides[i] {
                let q = r.polygon(nb);
                let m = q.sides.len();
                let j = q.sides.iter().position(|&s| s == Some(c)).unwrap();
                assert_eq!(
                    q.corners[(j + m - 1) % m],
                    p.sides[(i + 1) % k],
                    "{}",
                    r.name(c)
                );
                assert_eq!(q.sides[(j + m - 1) % m], p.corners[i], "{}", r.name(c));
            }
            if let Some(d) = p.corners[i] {
                assert!(r.diagonal(d).contains(&c));
                assert!(!r.orthogonal(d).contains(&c));
            }
        }
    }
    // The page's counterclockwise orders: A, D, J round N from above; P, U, X round S from below.
    for (node, order) in [("N", ["NA", "ND", "NJ"]), ("S", ["PS", "US", "XS"])] {
        let sides: Vec<usize> = r
            .polygon(r.cell(node))
            .sides
            .iter()
            .map(|s| s.unwrap())
            .filter(|&s| r.shape(s) == Shape::Connector)
            .collect();
        let i = sides.iter().position(|&s| s == r.cell(order[0])).unwrap();
        for (d, name) in order.iter().enumerate() {
            assert_eq!(r.name(sides[(i + d) % 3]), *name);
        }
    }
    // Rings and spine circles: every ring square in one ring, node in 3 circles, connector in 2.
    let mut in_ring = vec![0; r.cells()];
    let mut in_spine = vec![0; r.cells()];
    for ring in r.rings() {
        for (i, &c) in ring.iter().enumerate() {
            in_ring[c] += 1;
            assert!(r.orthogonal(c).contains(&ring[(i + 1) % 10]));
        }
    }
    for spine in r.spines() {
        for (i, &c) in spine.iter().enumerate() {
            in_spine[c] += 1;
            assert!(r.orthogonal(c).contains(&spine[(i + 1) % 10]));
        }
    }
    for c in 0..r.cells() {
        let (ring, spine) = match r.shape(c) {
            Shape::Node => (0, 3),
            Shape::Connector => (0, 2),
            _ => (1, 0),
        };
        assert_eq!((in_ring[c], in_spine[c]), (ring, spine), "{}", r.name(c));
    }
}

#[test]
fn colouring() {
    let r = WebballReference::new();
    let mut colour = vec![None; r.cells()];
    colour[0] = Some(0);
    let mut queue = VecDeque::from([0]);
    while let Some(c) = queue.pop_front() {
        for t in r.orthogonal(c) {
            match colour[t] {
                None => {
                    colour[t] = Some(1 - colour[c].unwrap());
                    queue.push_back(t);
                }
                Some(k) => assert_ne!(Some(k), colour[c], "orthogonal neighbours differ"),
            }
        }
    }
    for c in 0..r.cells() {
        for t in r.diagonal(c) {
            assert_eq!(colour[t], colour[c], "diagonal neighbours agree");
        }
        let expect = matches!(r.shape(c), Shape::Node | Shape::EdgeRing);
        assert_eq!(colour[c] == Some(0), expect, "{}", r.name(c));
    }
    let zeros = colour.iter().filter(|&&k| k == Some(0)).count();
    assert_eq!((zeros, r.cells() - zeros), (80, 90));
}

#[test]
fn start_position() {
    let r = WebballReference::new();
    let p = r.start();
    assert_eq!(p.to_move, 0);
    for side in 0..2 {
        let mine: Vec<char> = p
            .board
            .iter()
            .flatten()
            .filter(|x| x.0 == side)
            .map(|x| x.1)
            .collect();
        assert_eq!(mine.len(), 22);
        let n = |k: char| mine.iter().filter(|&&m| m == k).count();
        assert_eq!([n('K'), n('R'), n('M'), n('N'), n('P')], [1, 6, 3, 3, 9]);
    }
    assert!(!r.in_check(&p));
    // By hand: White's King, Ringers and Mega-ringers are boxed in; each Knight has 2 leaps
    // (PS -> PQ$, PR$ through P), and the pawns 3 + 1 + 1 at each of P, U, X: 6 + 15.
    let moves = r.legal_moves(&p);
    assert_eq!(moves.len(), 21, "{moves:?}");
    for m in ["PS-PQ$", "PS-PR$", "P-P$", "P*-PR*", "X+-XZ+", "U#-UW#"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
}

#[test]
fn knight_leaps() {
    let r = WebballReference::new();
    // From N both seed-facts readings give these six.
    assert_eq!(
        lone(&r, 'N', "N"),
        strs(&["A*", "A+", "D*", "D#", "J#", "J+"])
    );
    // From NA: through N out of N# (opposite NA), through A out of A?; NA* and NA+ open on
    // their void. (Seed-facts 5.E.1's other readings give 8 or 4 different squares.)
    assert_eq!(lone(&r, 'N', "NA"), strs(&["AB?", "AC?", "ND#", "NJ#"]));
    assert_eq!(lone(&r, 'N', "N*"), strs(&["NJ#", "NJ+", "A", "D"]));
    assert_eq!(lone(&r, 'N', "NA*"), strs(&["N+", "A+", "ND", "AC"]));
    // The leap is not symmetric: NA reaches ND#, ND# does not reach NA.
    assert!(!lone(&r, 'N', "ND#").contains("NA"));
    let p = r.position(&[(0, 'K', "S"), (0, 'N', "NA"), (1, 'K', "ND#")], 1);
    assert!(r.in_check(&p));
    let p = r.position(&[(0, 'K', "NA"), (1, 'N', "ND#"), (1, 'K', "S")], 0);
    assert!(!r.in_check(&p));
    let pairs: usize = (0..r.cells()).map(|c| r.knight(c).len()).sum();
    let one_way = (0..r.cells())
        .flat_map(|c| r.knight(c).into_iter().map(move |t| (c, t)))
        .filter(|&(c, t)| !r.knight(t).contains(&c))
        .count();
    println!("knight: {pairs} leaps, {one_way} of them not reversible");
    // Only node <-> node-ring leaps (N -> A*, A* -> N) go both ways.
    assert_eq!((pairs, one_way), (720, 480));
}

#[test]
fn ringer_and_mega_ringer() {
    let r = WebballReference::new();
    // Lone: lateral + ring / spine circles (duplicates merged: N -> A along * and along +).
    assert_eq!(lone(&r, 'R', "N").len(), 3 + 21);
    assert_eq!(lone(&r, 'R', "NA").len(), 2 + 16);
    assert_eq!(lone(&r, 'R', "N*").len(), 1 + 9);
    assert_eq!(lone(&r, 'R', "NA*").len(), 2 + 9);
    assert_eq!(lone(&r, 'M', "N").len(), 3 + 49);
    assert_eq!(lone(&r, 'M', "NA").len(), 2 + 49);
    assert_eq!(lone(&r, 'M', "N*"), lone(&r, 'R', "N*"));
    assert_eq!(lone(&r, 'M', "NA*"), lone(&r, 'R', "NA*"));
    assert!(lone(&r, 'R', "NA*").contains("NA+"));
    // A Ringer on N does not turn off its circle: ND -> D -> DE is *, D -> DF is #, both fine,
    // but reaching E needs void * and reaching W needs a second turn.
    assert!(lone(&r, 'R', "N").contains("E"));
    assert!(!lone(&r, 'R', "N").contains("EY"));
    assert!(lone(&r, 'M', "N").contains("EY"));

    // The two-step jump needs the connector empty; ring rides stop at the first piece.
    let p = r.position(
        &[
            (0, 'K', "S"),
            (1, 'K', "Y"),
            (0, 'R', "NA*"),
            (1, 'P', "NA"),
            (1, 'P', "C*"),
            (1, 'P', "D*"),
        ],
        0,
    );
    let m = r.legal_moves(&p);
    assert!(m.contains(&"NA*-NA".to_string()));
    assert!(!m.contains(&"NA*-NA+".to_string()));
    assert!(m.contains(&"NA*-C*".to_string()));
    assert!(!m.contains(&"NA*-CE*".to_string()));
    assert!(m.contains(&"NA*-ND*".to_string()));
    assert!(m.contains(&"NA*-D*".to_string()));
    assert!(!m.contains(&"NA*-DE*".to_string()));
    // Winding: a wall of own pieces round the start stops it; an enemy next to the flood is taken.
    let p = r.position(
        &[
            (0, 'K', "S"),
            (1, 'K', "Y"),
            (0, 'M', "N"),
            (0, 'P', "ND"),
            (0, 'P', "NJ"),
            (1, 'P', "AB"),
            (1, 'P', "AC"),
        ],
        0,
    );
    let m: BTreeSet<String> = r
        .legal_moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("N-"))
        .collect();
    assert_eq!(
        m,
        strs(&["N-NA", "N-A", "N-AB", "N-AC", "N-N*", "N-N#", "N-N+"])
    );
}

#[test]
fn pawns_and_check() {
    let r = WebballReference::new();
    // A white pawn reaching the node A promotes (quietly or by capture); A* is not A.
    let p = r.position(
        &[(0, 'K', "S"), (1, 'K', "Y"), (0, 'P', "NA"), (1, 'P', "A*")],
        0,
    );
    let m: Vec<String> = r
        .legal_moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("NA-"))
        .collect();
    assert_eq!(
        m,
        ["NA-A*", "NA-A=M", "NA-A=N", "NA-A=R", "NA-N", "NA-NA*", "NA-NA+"]
    );
    let p = r.position(
        &[(0, 'K', "S"), (1, 'K', "Y"), (0, 'P', "NA*"), (1, 'N', "A")],
        0,
    );
    let m: Vec<String> = r
        .legal_moves(&p)
        .into_iter()
        .filter(|m| m.starts_with("NA*-"))
        .collect();
    assert_eq!(
        m,
        ["NA*-A*", "NA*-A=M", "NA*-A=N", "NA*-A=R", "NA*-N*", "NA*-NA"]
    );
    // A black pawn does not promote on A, but on P.
    let p = r.position(
        &[(0, 'K', "S"), (1, 'K', "Y"), (1, 'P', "NA"), (1, 'P', "PQ")],
        1,
    );
    let m = r.legal_moves(&p);
    assert!(m.contains(&"NA-A".to_string()));
    assert!(m.contains(&"PQ-P=N".to_string()));
    // The King may not step onto a square a pawn attacks (pawns attack diagonally only), and a
    // pinned Ringer may not leave the ring.
    let p = r.position(&[(0, 'K', "N*"), (1, 'P', "ND"), (1, 'K', "S")], 0);
    assert!(r.in_check(&p));
    let m = r.legal_moves(&p);
    assert!(
        m.contains(&"N*-N".to_string()),
        "N is orthogonal to ND, not attacked"
    );
    assert!(m.contains(&"N*-ND".to_string()), "capturing the checker");
    let p = r.position(&[(0, 'K', "N*"), (1, 'P', "D#"), (1, 'K', "S")], 0);
    assert!(!r.in_check(&p));
    assert_eq!(r.legal_moves(&p), ["N*-N", "N*-NA", "N*-NA*", "N*-ND*"]);
    let p = r.position(
        &[
            (0, 'K', "N*"),
            (0, 'R', "NA*"),
            (1, 'R', "A*"),
            (1, 'K', "S"),
        ],
        0,
    );
    let m = r.legal_moves(&p);
    assert!(m.contains(&"NA*-A*".to_string()));
    assert!(!m.contains(&"NA*-NA".to_string()));
    let q = r.play(&p, "NA*-A*");
    assert_eq!(q.board[r.cell("A*")], Some((0, 'R')));
    assert_eq!(q.to_move, 1);
    // Checkmate: the Ringer on A* checks both ways round ring * (covering NA* and ND*), the
    // Mega-ringer winds from PQ to every empty spine square (N, NA, ND).
    let p = r.position(
        &[
            (1, 'K', "N*"),
            (0, 'R', "A*"),
            (0, 'M', "PQ"),
            (0, 'K', "S"),
        ],
        1,
    );
    assert!(r.in_check(&p));
    assert_eq!(r.legal_moves(&p), Vec::<String>::new(), "mate");
    assert_eq!(r.perft(&p, 3), 0);
}

#[test]
fn lone_pieces_and_perft() {
    let r = WebballReference::new();
    for kind in KINDS {
        for cell in ["N", "NA", "N*", "NA*"] {
            let d = r.lone_destinations(kind, cell);
            println!("lone {kind} on {cell}: {} {:?}", d.len(), d);
        }
    }
    let king = |c: &str| r.lone_destinations('K', c).len();
    assert_eq!(
        [king("N"), king("NA"), king("N*"), king("NA*")],
        [12, 8, 5, 5]
    );
    let pawn = |c: &str| r.lone_destinations('P', c).len();
    assert_eq!(
        [pawn("N"), pawn("NA"), pawn("N*"), pawn("NA*")],
        [6, 4, 3, 3]
    );

    let start = r.start();
    let mut results = vec![];
    for depth in 1..=4 {
        let t = Instant::now();
        let n = r.perft(&start, depth);
        println!("perft {depth} = {n} ({:.2?})", t.elapsed());
        results.push(n);
    }
    assert_eq!(results[0], 21);
}

/// The rotation of the globe taking N, A, D, J to S, P, U, X (the page's two counterclockwise
/// orders), as a map of square names, built from the oriented voids alone.
fn pole_swap(r: &WebballReference) -> Vec<usize> {
    let faces: Vec<(char, Vec<char>)> = VOIDS
        .iter()
        .map(|&(l, s)| (l, s.chars().collect()))
        .collect();
    let face_of = |x: char, y: char| {
        faces
            .iter()
            .position(|(_, ns)| (0..5).any(|i| ns[i] == x && ns[(i + 1) % 5] == y))
            .unwrap()
    };
    let mut node: HashMap<char, char> =
        HashMap::from([('N', 'S'), ('A', 'P'), ('D', 'U'), ('J', 'X')]);
    let mut face: HashMap<usize, usize> = HashMap::new();
    let mut todo = vec![('N', 'A')];
    while let Some((x, y)) = todo.pop() {
        let (f, g) = (face_of(x, y), face_of(node[&x], node[&y]));
        if face.insert(f, g).is_some() {
            continue;
        }
        let (a, b) = (&faces[f].1, &faces[g].1);
        let (i, j) = (
            a.iter().position(|&c| c == x).unwrap(),
            b.iter().position(|&c| c == node[&x]).unwrap(),
        );
        for d in 0..5 {
            let (u, v) = (a[(i + d) % 5], b[(j + d) % 5]);
            assert_eq!(*node.entry(u).or_insert(v), v, "not a rotation");
        }
        for d in 0..5 {
            let (u, w) = (a[(i + d) % 5], a[(i + d + 1) % 5]);
            todo.push((w, u));
        }
    }
    assert_eq!((node.len(), face.len()), (20, 12));
    let mut names: HashMap<String, String> = HashMap::new();
    for (f, (label, ns)) in faces.iter().enumerate() {
        let image = faces[face[&f]].0;
        for i in 0..5 {
            let (x, y) = (ns[i], ns[(i + 1) % 5]);
            let (x2, y2) = (node[&x], node[&y]);
            names.insert(x.to_string(), x2.to_string());
            names.insert(connector_name(x, y), connector_name(x2, y2));
            names.insert(format!("{x}{label}"), format!("{x2}{image}"));
            names.insert(
                format!("{}{label}", connector_name(x, y)),
                format!("{}{image}", connector_name(x2, y2)),
            );
        }
    }
    (0..r.cells()).map(|c| r.cell(&names[r.name(c)])).collect()
}

#[test]
fn symmetric_under_the_pole_swap() {
    let r = WebballReference::new();
    let m = pole_swap(&r);
    for c in 0..r.cells() {
        let image = |v: Vec<usize>| v.into_iter().map(|t| m[t]).collect::<BTreeSet<_>>();
        assert_eq!(
            image(r.orthogonal(c)),
            r.orthogonal(m[c]).into_iter().collect()
        );
        assert_eq!(image(r.diagonal(c)), r.diagonal(m[c]).into_iter().collect());
        assert_eq!(image(r.knight(c)), r.knight(m[c]).into_iter().collect());
    }
    // The setup maps to itself with the colours exchanged (so XS+ is the right reading of XS*).
    let start = r.start();
    for (c, &mc) in m.iter().enumerate() {
        assert_eq!(
            start.board[mc],
            start.board[c].map(|(s, k)| (1 - s, k)),
            "{}",
            r.name(c)
        );
    }
    let mut black = start.clone();
    black.to_move = 1;
    let rename = |mv: &str| {
        let (body, promo) = match mv.split_once('=') {
            Some((b, p)) => (b, format!("={p}")),
            None => (mv, String::new()),
        };
        let (a, b) = body.split_once('-').unwrap();
        format!("{}-{}{promo}", r.name(m[r.cell(a)]), r.name(m[r.cell(b)]))
    };
    let mut mapped: Vec<String> = r.legal_moves(&black).iter().map(|mv| rename(mv)).collect();
    mapped.sort();
    assert_eq!(mapped, r.legal_moves(&start));
    assert_eq!(r.perft(&black, 3), r.perft(&start, 3));
}

/// Deeper numbers for comparison runs: `cargo test --test webball_reference -- --ignored`.
#[test]
#[ignore]
fn perft_5() {
    let r = WebballReference::new();
    let t = Instant::now();
    println!("perft 5 = {} ({:.2?})", r.perft(&r.start(), 5), t.elapsed());
}
