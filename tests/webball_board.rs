//! The Webball board (examples/boards/webball.orbis, the `web` of a dodecahedron): the page's
//! 170 square names, the neighbours of its example squares, the counts of orthogonal and diagonal
//! neighbours by kind of square, straight lines through a node, the two-colouring and the surface.

mod common;

use orbis_compiler::model::{CellId, Variant};
use std::collections::{BTreeMap, BTreeSet};

fn webball() -> Variant {
    let source = r#"variant "webball board"
include "boards/webball.orbis"
piece King K royal { step all }
piece Rook R { slide orth }
side white { setup { K S } }
side black { setup { K N } }
"#;
    common::variant_from("examples/webball-test.orbis", source)
}

fn id(v: &Variant, n: &str) -> CellId {
    v.board.cells.iter().position(|c| c.name == n).unwrap_or_else(|| panic!("no square {n}"))
}

fn names(v: &Variant, cells: &BTreeSet<CellId>) -> BTreeSet<String> {
    cells.iter().map(|&c| v.board.cells[c].name.clone()).collect()
}

fn set(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(String::from).collect()
}

/// Orthogonal (through sides) or diagonal (through corners) neighbours.
fn neighbours(v: &Variant, c: CellId, diagonal: bool) -> BTreeSet<CellId> {
    (0..v.board.headings.len()).filter(|&h| (h % 2 == 1) == diagonal).filter_map(|h| v.board.step(c, h)).map(|(d, _)| d).collect()
}

/// The page's naming rule, applied to its node links and voids: node letters, connectors (N
/// first, S last, else alphabetical), and ring squares: a spine square plus its void's label.
fn page_names() -> BTreeSet<String> {
    let edges = "NA ND NJ AB AC DE DF JK JL BL CE FK SP SU SX PQ PR UV UW XY XZ QZ RV WY BQ CZ EY FW KV LR";
    let voids = [
        ("*", "N A C E D"),
        ("#", "N D F K J"),
        ("+", "N J L B A"),
        ("?", "D E Y W F"),
        ("?", "J K V R L"),
        ("?", "A B Q Z C"),
        ("$", "F K V U W"),
        ("$", "C E Y X Z"),
        ("$", "B L R P Q"),
        ("*", "S U V R P"),
        ("#", "S X Y W U"),
        ("+", "S X Z Q P"),
    ];
    let mut out = BTreeSet::new();
    let order = |x: char| match x {
        'N' => 0,
        'S' => 2,
        _ => 1,
    };
    let spine = |a: char, b: char| {
        let (a, b) = if (order(a), a) <= (order(b), b) { (a, b) } else { (b, a) };
        format!("{a}{b}")
    };
    for e in edges.split_whitespace() {
        let mut c = e.chars();
        let (a, b) = (c.next().unwrap(), c.next().unwrap());
        out.insert(spine(a, b));
        out.insert(a.to_string());
        out.insert(b.to_string());
    }
    for (label, cycle) in voids {
        let nodes: Vec<char> = cycle.split_whitespace().map(|n| n.chars().next().unwrap()).collect();
        for i in 0..nodes.len() {
            let (a, b) = (nodes[i], nodes[(i + 1) % nodes.len()]);
            out.insert(format!("{a}{label}"));
            out.insert(format!("{}{label}", spine(a, b)));
        }
    }
    out
}

#[test]
fn every_square_has_the_page_name() {
    let v = webball();
    assert_eq!(v.board.cells.len(), 170);
    let built: BTreeSet<String> = v.board.cells.iter().map(|c| c.name.clone()).collect();
    assert_eq!(built, page_names());
    for example in ["NA", "BQ", "XZ", "N#", "L+", "FW$", "PS"] {
        assert!(built.contains(example), "{example}");
    }
    // The misprint of the setup: the connector XS borders the voids # and +, not *.
    assert!(!built.contains("XS*") && built.contains("XS+") && built.contains("XS#"));
}

#[test]
fn neighbours_of_the_page_examples() {
    let v = webball();
    let n = |name: &str, diagonal: bool| names(&v, &neighbours(&v, id(&v, name), diagonal));
    assert_eq!(n("N", false), set("NA ND NJ N* N# N+"));
    assert_eq!(n("N", true), set("NA* NA+ ND* ND# NJ# NJ+"));
    assert_eq!(n("NA", false), set("N A NA* NA+"));
    assert_eq!(n("NA", true), set("N* N+ A* A+"));
    assert_eq!(n("N*", false), set("N NA* ND*"));
    assert_eq!(n("N*", true), set("NA ND"));
    assert_eq!(n("NA*", false), set("NA N* A*"));
    assert_eq!(n("NA*", true), set("N A"));
}

#[test]
fn counts_by_kind_of_square_and_the_colouring() {
    let v = webball();
    let complex = v.board.complex.as_ref().expect("complex");
    let mut kinds: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for c in 0..170 {
        let counts = (neighbours(&v, c, false).len(), neighbours(&v, c, true).len());
        *kinds.entry(counts).or_default() += 1;
        // Nodes are the hexagons.
        assert_eq!(complex.degree(c) == 6, counts == (6, 6), "{}", v.board.cells[c].name);
    }
    assert_eq!(kinds, BTreeMap::from([((6, 6), 20), ((4, 4), 30), ((3, 2), 120)]));
    // Orthogonal neighbours alternate colour, diagonal ones share it: a two-colouring by the
    // orthogonal steps, 80 (nodes and edge ring squares) and 90.
    let mut colour = vec![None; 170];
    colour[id(&v, "N")] = Some(0);
    let mut stack = vec![id(&v, "N")];
    while let Some(c) = stack.pop() {
        let k = colour[c].expect("coloured");
        for d in neighbours(&v, c, false) {
            match colour[d] {
                None => {
                    colour[d] = Some(1 - k);
                    stack.push(d);
                }
                Some(x) => assert_ne!(x, k, "orthogonal neighbours of one colour"),
            }
        }
        for d in neighbours(&v, c, true) {
            if let Some(x) = colour[d] {
                assert_eq!(x, k, "diagonal neighbours of two colours");
            }
        }
    }
    let light = colour.iter().filter(|&&c| c == Some(0)).count();
    assert_eq!((light, 170 - light), (80, 90));
    assert_eq!(colour[id(&v, "NA*")], Some(0));
    assert_eq!(colour[id(&v, "NA")], Some(1));
}

#[test]
fn straight_on_through_a_node_leaves_by_the_ring_square_opposite() {
    let v = webball();
    let rook = v.pieces.iter().position(|p| p.name == "Rook").expect("rook");
    let na = id(&v, "NA");
    let rays = orbis_compiler::walk::rule_rays(&v, 0, &v.pieces[rook], &v.pieces[rook].rules[0], na);
    let through_n: Vec<String> = rays.iter().find(|r| r.cells[0] == id(&v, "N")).expect("a line through N").cells.iter().take(2).map(|&c| v.board.cells[c].name.clone()).collect();
    assert_eq!(through_n, ["N", "N#"]);
    for (from, opposite) in [("ND", "N+"), ("NJ", "N*")] {
        let rays = orbis_compiler::walk::rule_rays(&v, 0, &v.pieces[rook], &v.pieces[rook].rules[0], id(&v, from));
        let line = rays.iter().find(|r| r.cells[0] == id(&v, "N")).expect("a line through N");
        assert_eq!(v.board.cells[line.cells[1]].name, opposite);
    }
    let s = v.board.complex.as_ref().expect("complex").surface();
    assert_eq!(s.name(), "sphere with 12 holes");
    assert_eq!(s.border_components, 12);
}

#[test]
fn zones_from_the_gluing() {
    // Each zone is the set of cells a rule applies from (`on ZONE`).
    let source = r#"variant "webball zones"
include "boards/webball.orbis"
piece King K royal { step all }
piece Star A { step all on star }
piece Rings B { step all on rings }
piece Spine C { step all on spine }
piece Near D { step all on near-n }
side white { zone star ring N*  zone rings border  zone spine inner  zone near-n around N  setup { K S } }
side black { zone star ring S*  zone rings border  zone spine inner  zone near-n around S  setup { K N } }
"#;
    let v = common::variant_from("examples/webball-zones.orbis", source);
    let zone = |piece: &str| -> BTreeSet<String> {
        let p = v.pieces.iter().find(|p| p.name == piece).expect("piece");
        let origins = p.rules[0].origins.as_ref().expect("on a zone");
        origins[0].iter().map(|&c| v.board.cells[c].name.clone()).collect()
    };
    // The ring of the void * at the north pole: N A C E D with the edges between.
    assert_eq!(zone("Star"), set("N* NA* A* AC* C* CE* E* DE* D* ND*"));
    assert_eq!(zone("Rings").len(), 120);
    assert_eq!(zone("Spine").len(), 50);
    assert!(zone("Spine").iter().all(|n| !n.ends_with(['*', '#', '+', '?', '$'])));
    assert_eq!(zone("Near"), set("NA ND NJ N* N# N+ NA* NA+ ND* ND# NJ# NJ+"));
}
