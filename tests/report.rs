//! The rule-consistency report (`orbis check --report`, issue 5): a snapshot of the text report of
//! every example, and the facts the seeds state, computed from the definitions.

mod common;

use orbis_compiler::report::{self, Report};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The report of a file under the workspace root (panics on errors).
fn report_of(path: &str) -> Report {
    let source = std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    report_of_source(&root().join(path).display().to_string(), &source)
}

fn report_of_source(name: &str, source: &str) -> Report {
    let checked = orbis_compiler::check(name, source);
    assert!(!checked.has_errors(), "{name}:\n{}", checked.render(false));
    orbis_compiler::report(&checked).expect("a variant")
}

#[test]
fn report_snapshots_of_every_example() {
    let mut any = false;
    for rel in common::example_files() {
        let path = root().join(&rel);
        let source = std::fs::read_to_string(&path).expect("readable");
        let checked = orbis_compiler::check(&path.display().to_string(), &source);
        let Some(report) = orbis_compiler::report(&checked) else {
            assert!(checked.library, "{} has errors:\n{}", path.display(), checked.render(false));
            continue;
        };
        let rel = path.strip_prefix(root().join("examples")).expect("under examples").with_extension("");
        let name = format!("report-{}", rel.display().to_string().replace(['/', '\\'], "-"));
        let text = report.text();
        // The JSON form renders and has the documented top-level fields.
        let json = report.json();
        for field in ["variant", "surface", "topology", "pieces", "position", "sanity", "warnings"] {
            assert!(json.get(field).is_some(), "{name}: no `{field}` in the JSON report");
        }
        insta::with_settings!({snapshot_path => "../snapshots", prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!(name, text)
        });
        any = true;
    }
    assert!(any);
}

fn surface(r: &Report) -> &report::surface::Classification {
    r.surface.complex.as_ref().expect("a square-cell surface")
}

fn piece<'a>(r: &'a Report, v: &orbis_compiler::model::Variant, name: &str, side: usize) -> &'a report::pieces::PieceFacts {
    let p = v.pieces.iter().position(|p| p.name == name).unwrap_or_else(|| panic!("no piece {name}"));
    r.pieces.iter().find(|f| f.piece == p && f.side == side).expect("facts")
}

fn variant_of(name: &str, source: &str) -> orbis_compiler::model::Variant {
    orbis_compiler::check(name, source).variant.expect("variant")
}

fn variant(path: &str) -> orbis_compiler::model::Variant {
    let full = root().join(path);
    variant_of(&full.display().to_string(), &std::fs::read_to_string(&full).expect("readable"))
}

#[test]
fn orthodox_is_a_disc_with_colour_bound_bishops_and_a_quiet_symmetric_start() {
    let r = report_of("examples/orthodox.orbis");
    let v = variant("examples/orthodox.orbis");
    let s = surface(&r);
    assert_eq!((s.vertices, s.edges, s.faces), (81, 144, 64));
    assert_eq!(s.euler_characteristic, 1);
    assert!(s.orientable);
    assert_eq!(s.boundary_components, 1);
    assert_eq!(s.name, "disc");
    assert!(s.cone_points.is_empty());
    assert_eq!(s.boundary_corners.len(), 4);
    assert!(s.boundary_corners.iter().all(|c| c.angle == 90));
    for side in 0..2 {
        let b = piece(&r, &v, "Bishop", side);
        assert!(b.colour_bound);
        assert_eq!(b.classes.len(), 2);
        assert_eq!(piece(&r, &v, "Rook", side).classes.len(), 1);
        assert_eq!(piece(&r, &v, "Knight", side).mobility.max, 8);
        assert_eq!(piece(&r, &v, "Knight", side).mobility.min, 2);
    }
    assert!(r.position.attacks.is_empty(), "FIDE start is quiet");
    assert_eq!(r.position.captures.as_deref(), Some(&[][..]));
    let sym = r.position.symmetry.as_ref().expect("two sides");
    assert!(sym.map.is_some());
    assert_eq!(sym.formula.as_deref(), Some("(x, y) -> (x, 7 - y)"));
    assert!(r.topology.self_adjacent.is_empty());
    assert!(r.topology.lines.is_empty());
    assert!(r.sanity.castles.iter().all(|k| k.king_path.is_some() && k.rook_path.is_some()));
    assert!(r.sanity.royals.iter().all(|k| !k.checked_by.is_empty()));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn cylinder_is_an_annulus() {
    let r = report_of("examples/cylindrical.orbis");
    let s = surface(&r);
    assert_eq!(s.euler_characteristic, 0);
    assert!(s.orientable);
    assert_eq!(s.boundary_components, 2);
    assert_eq!(s.name, "annulus (cylinder)");
    assert!(r.position.attacks.is_empty());
    // Ranks are closed lines of 8.
    assert!(r.topology.lines.iter().all(|l| l.kind == "orthogonal" && l.length == 8));
    assert_eq!(r.topology.lines.len(), 8);
}

#[test]
fn nadvorney_is_a_klein_bottle_and_unbinds_bishops() {
    let r = report_of("examples/spherical/nadvorney.orbis");
    let v = variant("examples/spherical/nadvorney.orbis");
    let s = surface(&r);
    assert_eq!(s.name, "Klein bottle");
    assert_eq!(s.euler_characteristic, 0);
    assert!(!s.orientable);
    assert_eq!(s.boundary_components, 0);
    assert!(s.cone_points.is_empty());
    // The pole gluings are reflections, decided by the diagonal steps (nothing left open).
    assert_eq!(r.surface.reflections, 8);
    assert!(r.surface.undetermined.is_empty());
    for side in 0..2 {
        let b = piece(&r, &v, "Bishop", side);
        assert_eq!(b.classes.len(), 1, "the Nadvorney bishop changes colour at the poles");
        assert!(!b.colour_bound);
    }
    // The 16-square bishop circuit through both poles (N-5).
    assert!(r.topology.lines.iter().filter(|l| l.kind == "diagonal").all(|l| l.length == 16 && l.distinct == 16));
    assert!(r.position.attacks.is_empty());
}

#[test]
fn yapsan_bishop_commands_16_squares_on_every_circuit_and_is_colour_bound() {
    let path = "examples/spherical/yapsan.orbis";
    if !root().join(path).exists() {
        return;
    }
    let r = report_of(path);
    let v = variant(path);
    let diagonal: Vec<_> = r.topology.lines.iter().filter(|l| l.kind == "diagonal").collect();
    assert!(!diagonal.is_empty());
    assert!(diagonal.iter().all(|l| l.length == 16 && l.distinct == 16), "Y-1: every circuit has 16 squares");
    for side in 0..2 {
        assert!(piece(&r, &v, "Bishop", side).colour_bound);
    }
}

/// Spherical corner chess, variant 1 (seed-facts 2.A, V1 step rule), written with seams: each
/// edge is folded onto its neighbour by a quarter turn about a pole, and a step out over a corner
/// doubles back. With the FIDE array on it (the corner arrays are missing from the source).
/// The FIDE array on the corner-pole board of Variant 1 (the board of examples/corner, included).
const CORNER_V1_FIDE: &str = r#"
variant "Corner chess V1 board, FIDE array"
include "lib/edge-join.orbis"
piece King K royal { step all }
piece Queen Q { slide all }
piece Rook R { slide orth }
piece Bishop B { slide diag }
piece Knight N { leap step orth then step turn +-1 }
piece Pawn P { move-only step forward  capture-only step forward turn +-1 }
side white { forward N setup { R a1 h1  N b1 g1  B c1 f1  Q d1  K e1  P a2 b2 c2 d2 e2 f2 g2 h2 } }
side black { forward S setup { R a8 h8  N b8 g8  B c8 f8  Q d8  K e8  P a7 b7 c7 d7 e7 f7 g7 h7 } }
"#;

/// Where CORNER_V1_FIDE pretends to live, so that its include resolves.
fn corner_v1_fide_name() -> String {
    root().join("examples/corner/fide-array-on-variant1-board.orbis").display().to_string()
}

fn cell_id(v: &orbis_compiler::model::Variant, name: &str) -> usize {
    v.board.cells.iter().position(|c| c.name == name).unwrap_or_else(|| panic!("no cell {name}"))
}

#[test]
fn corner_v1_board_is_a_sphere_with_three_cone_points() {
    let r = report_of("examples/corner/variant1.orbis");
    let v = variant("examples/corner/variant1.orbis");
    let s = surface(&r);
    assert_eq!(s.name, "sphere");
    assert_eq!(s.euler_characteristic, 2);
    assert!(s.orientable);
    assert_eq!(s.boundary_components, 0);
    let mut cones: Vec<(u32, Vec<String>)> = s
        .cone_points
        .iter()
        .map(|p| (p.angle, p.corners.iter().map(|(c, k)| format!("{c} {k}")).collect()))
        .collect();
    cones.sort();
    assert_eq!(
        cones,
        vec![
            (90, vec!["a8 NW".to_string()]),
            (90, vec!["h1 SE".to_string()]),
            (180, vec!["a1 SW".to_string(), "h8 NE".to_string()]),
        ]
    );
    assert_eq!(s.curvature, 720);

    // CC-2: the poles are thrice self-adjacent (and the equator's ends once each).
    let adj = |cell: &str| -> Vec<String> {
        let c = cell_id(&v, cell);
        r.topology
            .self_adjacent
            .iter()
            .find(|(x, _)| *x == c)
            .map(|(_, hs)| hs.iter().map(|&h| v.board.headings[h].name.clone()).collect())
            .unwrap_or_default()
    };
    assert_eq!(adj("a8"), ["N", "W", "NW"]);
    assert_eq!(adj("h1"), ["E", "SE", "S"]);
    assert_eq!(adj("a1"), ["SW"]);
    assert_eq!(adj("h8"), ["NE"]);
    assert_eq!(r.topology.self_adjacent.len(), 4);

    // CC-5: bishops are not colour-bound.
    for side in 0..2 {
        assert_eq!(piece(&r, &v, "Bishop", side).classes.len(), 1);
    }
    // The corner array starts quiet.
    assert!(r.position.attacks.is_empty());
    assert!(r.position.captures.as_ref().expect("runtime loads").is_empty());
}

/// The page: on this board "each army is threatened from behind by a few of the opponent's pieces
/// — in the case of the Western Orthodox array, (formerly) diagonally opposite rooks and knights, a
/// bishop and rook's pawn, as well as both queens, begin under mutual threat".
#[test]
fn fide_array_on_the_corner_v1_board_is_not_quiet() {
    let name = corner_v1_fide_name();
    let r = report_of_source(&name, CORNER_V1_FIDE);
    let v = variant_of(&name, CORNER_V1_FIDE);
    // Among others the queens see each other along rank 5 (d1 S: h5 g5 ... a5, then d8).
    let at = |a: &report::position::Attack, from: &str, to: &str| a.attacker.2 == cell_id(&v, from) && a.target.2 == cell_id(&v, to);
    let paths: Vec<Vec<&str>> = r
        .position
        .attacks
        .iter()
        .filter(|a| at(a, "d1", "d8"))
        .map(|a| a.path.iter().map(|&c| v.board.cells[c].name.as_str()).collect())
        .collect();
    assert!(paths.contains(&vec!["h5", "g5", "f5", "e5", "d5", "c5", "b5", "a5"]), "{paths:?}");
    // The pairs the page names: the formerly diagonally opposite rooks and knights, a bishop and a
    // rook's pawn, both queens; each under mutual threat.
    for (x, y) in [("a1", "h8"), ("b1", "g8"), ("c1", "h7"), ("d1", "d8")] {
        assert!(r.position.attacks.iter().any(|a| at(a, x, y)), "{x} attacks {y}");
        assert!(r.position.attacks.iter().any(|a| at(a, y, x)), "{y} attacks {x}");
    }
    assert!(!r.position.captures.as_ref().expect("runtime loads").is_empty());
}

/// A 3×3 strip whose right edge is glued to its left edge upside down: a Möbius band.
const MOBIUS: &str = r#"
variant "Möbius strip"
board {
  grid files a..c ranks 1..3
  headings {
    N (0, 1)  NE (1, 1)  E (1, 0)  SE (1, -1)
    S (0, -1) SW (-1, -1) W (-1, 0) NW (-1, 1)
  }
  seam twist-east when x > 2 and y >= 0 and y <= 2 : to (x - 3, 2 - y) heading (dx, -dy)
  seam twist-west when x < 0 and y >= 0 and y <= 2 : to (x + 3, 2 - y) heading (dx, -dy)
}
piece King K royal { step all }
side white { setup { K a1 } }
side black { setup { K b3 } }
"#;

#[test]
fn a_twisted_strip_is_a_moebius_band() {
    let r = report_of_source("mobius.orbis", MOBIUS);
    let s = surface(&r);
    assert_eq!(s.name, "Möbius band");
    assert_eq!(s.euler_characteristic, 0);
    assert!(!s.orientable);
    assert_eq!(s.boundary_components, 1);
    assert_eq!(r.surface.reflections, 3);
}

/// Links alone: a 2×2 board whose a1 steps west onto itself and whose files are joined by links
/// only one way.
const LINKS: &str = r#"
variant "Links"
board {
  grid files a..b ranks 1..2
  headings { N (0, 1) E (1, 0) S (0, -1) W (-1, 0) }
  link a1 W -> a1 E
  link b2 E -> a2 E
}
piece King K royal { step all }
side white { setup { K a1 } }
side black { setup { K b2 } }
"#;

#[test]
fn links_make_self_adjacency_and_irreversible_steps() {
    let r = report_of_source("links.orbis", LINKS);
    let v = variant_of("links.orbis", LINKS);
    let a1 = cell_id(&v, "a1");
    assert_eq!(r.topology.self_adjacent.len(), 1);
    assert_eq!(r.topology.self_adjacent[0].0, a1);
    // b2 E -> a2 E, but a2 W leads off the board.
    assert!(r.topology.irreversible.iter().any(|i| i.from == cell_id(&v, "b2") && i.back.is_none()));
    // A side glued one way only: not a surface of squares.
    assert!(r.surface.complex.is_none());
    assert!(r.warnings.iter().any(|w| w.contains("reverse step")));
}

/// Rules that can never take effect: each is a warning at the rule responsible.
const BAD_RULES: &str = r#"
variant "Bad rules"
board {
  grid files a..d ranks 1..4
  headings { N (0, 1) E (1, 0) S (0, -1) W (-1, 0) }
  cells hub
  transit hub
}
piece King K royal { move-only step { N S } }
piece Rook R { slide { E W } }
piece Wall X { step N then step turn +2 }
side white {
  setup { K a1 R b1 X d1 }
  promote R to X on rank 4
  castle C { king a1 -> c2 rook b1 -> b2 }
}
side black { setup { K a4 } }
"#;

#[test]
fn rules_that_never_apply_are_warnings_at_their_source() {
    let checked = orbis_compiler::check("bad-rules.orbis", BAD_RULES);
    assert!(!checked.has_errors(), "{}", checked.render(false));
    let text = checked.render(false);
    for expected in [
        "warning: the white Rook can never reach its promotion zone",
        "bad-rules.orbis:14:21",
        "warning: the white Wall has no move from any cell",
        "warning: castling `C` of white: the king's move a1-c2 is not along a line",
        "warning: the royal white King can never be checked",
        "warning: no move crosses the transit cell `hub`",
    ] {
        assert!(text.contains(expected), "missing `{expected}` in:\n{text}");
    }
    let r = orbis_compiler::report(&checked).expect("a variant");
    // The black king can be checked: the white rook sweeps rank 1, which it can reach.
    assert!(!text.contains("royal black King"));
    assert_eq!(r.warnings.len(), 6, "{:?}", r.warnings);
    assert!(r.sanity.promotions[0].reachable.is_empty());
}

/// CC-6: on Variant 2's board, joined through the middle of the edge squares, bishops and camels
/// are colour-bound (two binding classes each); the reconstructed array starts quiet.
#[test]
fn corner_v2_bishops_and_camels_are_colour_bound() {
    let r = report_of("examples/corner/variant2.orbis");
    let v = variant("examples/corner/variant2.orbis");
    for side in 0..2 {
        assert_eq!(piece(&r, &v, "Bishop", side).classes.len(), 2, "bishop");
        assert_eq!(piece(&r, &v, "Camel", side).classes.len(), 2, "camel");
        assert_eq!(piece(&r, &v, "Rook", side).classes.len(), 1, "rook");
    }
    assert!(r.position.attacks.is_empty());
}

/// Corner Variant 2 (9x9 labels joined through the middle of the edge squares) and the 8x8
/// middle-join board: spheres whose poles are quarter cells (cone points of 90 degrees inside
/// them) and whose third cone point lies inside the half cell a1 = i9 (180 degrees).
#[test]
fn middle_join_boards_are_spheres_with_cone_points_inside_cells() {
    for (path, cells, poles) in [("examples/corner/variant2.orbis", 66, ["i1", "a9"]), ("examples/corner/middle-join-8x8.orbis", 51, ["h1", "a8"])] {
        let r = report_of(path);
        let s = surface(&r);
        assert_eq!((s.name.as_str(), s.euler_characteristic, s.faces), ("sphere", 2, cells), "{path}");
        assert!(s.orientable && s.boundary_components == 0);
        let mut cones: Vec<(u32, String)> = s.cone_points.iter().map(|p| (p.angle, format!("{} {}", p.corners[0].0, p.corners[0].1))).collect();
        cones.sort();
        assert_eq!(cones, [(90, format!("{} inside", poles[1])), (90, format!("{} inside", poles[0])), (180, "a1 inside".to_string())].into_iter().collect::<std::collections::BTreeSet<_>>().into_iter().collect::<Vec<_>>(), "{path}");
        assert_eq!(s.curvature, 720);
    }
}
