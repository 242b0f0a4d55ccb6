//! The frontend and analysis on the shipped examples and on targeted snippets.

use orbis_compiler::check;

/// The example's path (includes are resolved against it) and its text.
fn full(path: &str) -> String {
    format!("{}/../examples/{path}", env!("CARGO_MANIFEST_DIR"))
}

fn example(path: &str) -> String {
    std::fs::read_to_string(full(path)).unwrap_or_else(|e| panic!("{}: {e}", full(path)))
}

#[test]
fn examples_check_clean_without_warnings() {
    for path in ["orthodox.orbis", "cylindrical.orbis", "spherical/nadvorney.orbis"] {
        let checked = check(&full(path), &example(path));
        assert!(checked.diagnostics.is_empty(), "{path}:\n{}", checked.render(false));
        let variant = checked.variant.expect("a variant");
        assert_eq!(variant.board.cells.len(), 64);
        assert_eq!(variant.sides.len(), 2);
    }
}

#[test]
fn nadvorney_poles_reverse() {
    let variant = check(&full("spherical/nadvorney.orbis"), &example("spherical/nadvorney.orbis")).variant.expect("checks");
    let board = &variant.board;
    let cell = |n: &str| board.cells.iter().position(|c| c.name == n).expect("cell");
    let heading = |n: &str| board.headings.iter().position(|h| h.name == n).expect("heading");
    assert_eq!(board.step(cell("h8"), heading("NE")), Some((cell("e8"), heading("SE"))));
    assert_eq!(board.step(cell("e8"), heading("NW")), Some((cell("h8"), heading("SW"))));
    assert_eq!(board.step(cell("a8"), heading("N")), Some((cell("e8"), heading("S"))));
    assert_eq!(board.step(cell("a1"), heading("S")), Some((cell("e1"), heading("N"))));
    // Cylinder: h4 east is a4.
    assert_eq!(board.step(cell("h4"), heading("E")), Some((cell("a4"), heading("E"))));
}

#[test]
fn orthodox_edges_and_defaults() {
    let variant = check("o", &example("orthodox.orbis")).variant.expect("checks");
    let board = &variant.board;
    let cell = |n: &str| board.cells.iter().position(|c| c.name == n).expect("cell");
    let heading = |n: &str| board.headings.iter().position(|h| h.name == n).expect("heading");
    assert_eq!(board.step(cell("h4"), heading("E")), None);
    assert_eq!(board.step(cell("e4"), heading("NE")), Some((cell("f5"), heading("NE"))));
    assert_eq!(cell("a1"), 0);
    assert_eq!(cell("h1"), 7);
    assert_eq!(board.cells[cell("c3")].coords, Some((2, 2)));
    let knight = variant.pieces.iter().find(|p| p.name == "Knight").expect("knight");
    match &knight.rules[0].first {
        orbis_compiler::model::Dirs::Headings(hs) => assert_eq!(hs.len(), 4),
        other => panic!("{other:?}"),
    }
    assert_eq!(knight.rules[0].legs[0].turns, vec![1, -1]);
    assert_eq!(variant.sides[1].forward(0), [heading("S")]);
    assert!(variant.sides[0].castles[0].fen == Some('K'));
}

#[test]
fn rules_default_when_omitted() {
    let source = example("orthodox.orbis");
    let cut = source.find("rules {").expect("rules block");
    let checked = check("o", &source[..cut]);
    let rules = checked.variant.expect("checks").rules;
    assert_eq!(rules.fifty_move, 100);
    assert_eq!(rules.repetition, 3);
    assert!(!rules.stationary_moves);
    assert_eq!(rules.stalemate, orbis_compiler::model::Outcome::Draw);
}

#[test]
fn many_errors_in_one_run() {
    let source = example("orthodox.orbis")
        .replace("K e1", "K e9")
        .replace("slide diag", "slide diagonal")
        .replace("piece Queen Q", "piece Queen Qu");
    let checked = check("o", &source);
    assert!(checked.has_errors());
    let errors = checked.diagnostics.len();
    assert!(errors >= 3, "{}", checked.render(false));
    assert!(checked.variant.is_none());
}

#[test]
fn an_island_and_a_one_way_link_warn() {
    let source = r#"
variant "islands"
board {
  grid files a..c ranks 1..3
  headings { N (0, 1) E (1, 0) S (0, -1) W (-1, 0) }
  cells moon
  link c3 N -> a1 N
}
piece King K royal { step all }
side white { forward N setup { K a1 } }
side black { forward S setup { K c3 } }
"#;
    let checked = check("i.orbis", source);
    assert!(!checked.has_errors(), "{}", checked.render(false));
    let text = checked.render(false);
    assert!(text.contains("cell `moon` can never be reached"), "{text}");
    assert!(text.contains("reverse step from `a1` heading `S`"), "{text}");
}

#[test]
fn garbage_never_panics() {
    let source = example("spherical/nadvorney.orbis");
    for end in (0..source.len()).step_by(13).filter(|&i| source.is_char_boundary(i)) {
        let _ = check("t", &source[..end]).render(false);
    }
    for (from, to) in [("y > 7", "y / 0 > 7"), ("x + 4", "x * 9223372036854775807 * 2"), ("15 - y", "dx"), ("(dx, -dy)", "(dx, dy * 2)")] {
        let c = check("t", &source.replace(from, to));
        assert!(c.has_errors(), "{from} -> {to}");
        let _ = c.render(true);
    }
}
