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

/// The orthodox example with one textual change.
fn orthodox_with(from: &str, to: &str) -> String {
    let source = example("orthodox.orbis");
    assert!(source.contains(from), "{from}");
    source.replacen(from, to, 1)
}

#[test]
fn a_castling_king_that_stays_is_no_warning() {
    // A chess960 array (RNBQKBRN ... ) with the king on g1: O-O leaves the king where it is.
    let source = orthodox_with("castle O-O   { king e1 -> g1  rook h1 -> f1  empty f1 g1     safe e1 f1 g1  fen K }", "castle O-O   { king e1 -> e1  rook h1 -> f1  empty f1 g1     safe e1  fen K }");
    let checked = check("o", &source);
    assert!(checked.diagnostics.is_empty(), "{}", checked.render(false));
    let report = orbis_compiler::report(&checked).expect("a report");
    assert!(report.text().contains("king e1-e1 (stays)"), "{}", report.text());
}

#[test]
fn rank_ranges_make_zones() {
    let checked = check("o", &orthodox_with("promote P to Q R B N on rank 8", "promote P to Q R B N on ranks 7..8"));
    assert!(!checked.has_errors(), "{}", checked.render(false));
    let variant = checked.variant.expect("a variant");
    let zone: Vec<&str> = variant.sides[0].promotions[0].zone.iter().map(|&c| variant.board.cells[c].name.as_str()).collect();
    assert_eq!(zone, ["a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"]);
    // (Optional: the pawns on a2 and b2 may not stand in a compulsory zone of theirs.)
    let checked = check("o", &orthodox_with("promote P to Q R B N on rank 8", "promote P to Q R B N on files a..b optional"));
    assert!(!checked.has_errors(), "{}", checked.render(false));
    let variant = checked.variant.expect("a variant");
    assert_eq!(variant.sides[0].promotions[0].zone.len(), 16);
}

/// A piece of `legs` legs (the first `first`, then `then` each) on the orthodox board.
fn with_legs(first: &str, then: &str, legs: usize) -> String {
    let rule = std::iter::once(first.to_string()).chain(std::iter::repeat_n(then.to_string(), legs - 1)).collect::<Vec<_>>().join(" then ");
    orthodox_with("piece Queen Q { slide all }", &format!("piece Queen Q {{ slide all }}\npiece Walker W {{ {rule} }}"))
}

#[test]
fn leaps_expand_by_state_and_paths_are_bounded() {
    // Twenty step legs turning either way: about 2^19 paths from each cell, but a leap needs only
    // its reachable (leg, cell, heading) states. It checks at once and gives the cells a path of
    // 20 king-like orthogonal-then-turning steps reaches.
    let start = std::time::Instant::now();
    let checked = check("o", &with_legs("leap step orth", "step turn +-1", 20));
    assert!(!checked.has_errors(), "{}", checked.render(false));
    assert!(start.elapsed().as_secs() < 20, "the expansion is not by state");
    // By state or by path, a leap reaches the same cells: compared with every path walked
    // naively (eight legs: 4 x 2^7 paths from each cell), for each first heading.
    let checked = check("o", &with_legs("leap step orth", "step turn +-1", 8));
    let variant = checked.variant.expect("a variant");
    let board = &variant.board;
    let walker = &variant.pieces[variant.pieces.iter().position(|p| p.name == "Walker").expect("walker")];
    for origin in [0, 27, 63] {
        let mut by_state: Vec<(usize, usize)> = orbis_compiler::walk::rule_rays(&variant, 0, walker, &walker.rules[0], origin)
            .iter()
            .map(|r| (r.heading, r.cells[0]))
            .collect();
        by_state.sort();
        let before = by_state.len();
        by_state.dedup();
        assert_eq!(before, by_state.len(), "a ray given twice");
        let mut naive = Vec::new();
        for h0 in ["N", "E", "S", "W"] {
            let h0 = board.headings.iter().position(|h| h.name == h0).expect("heading");
            let mut ends = vec![(origin, h0)];
            for leg in 0..8 {
                let mut next = Vec::new();
                for (c, h) in ends {
                    for t in if leg == 0 { vec![0] } else { vec![1, -1] } {
                        if let Some(s) = board.step(c, board.rotate(h, t)) {
                            next.push(s);
                        }
                    }
                }
                ends = next;
            }
            naive.extend(ends.into_iter().filter(|&(c, _)| c != origin).map(|(c, _)| (h0, c)));
        }
        naive.sort();
        naive.dedup();
        assert_eq!(by_state, naive, "from cell {origin}");
    }
    // The same rule without `leap` has a path per turn sequence: refused with a located error.
    let checked = check("o", &with_legs("step orth", "step turn +-1", 20));
    let text = checked.render(false);
    assert!(checked.has_errors() && text.contains("multiply beyond what orbis expands"), "{text}");
    assert!(text.contains("piece Walker W { step orth then"), "{text}");
    // Several slide legs: the same.
    let checked = check("o", &with_legs("slide orth", "slide turn +-1", 7));
    assert!(checked.render(false).contains("multiply beyond"), "{}", checked.render(false));
}

#[test]
fn walked_rays_are_each_rules_own() {
    // `check` walks every rule once and keeps the rays; what the analysis and lowering read
    // there must be what walking the rule gives, for every side (pawns differ by side, the
    // four-player cube has four).
    for path in ["orthodox.orbis", "cube/cube-8x8-four-player.orbis", "fairy/shogi.orbis"] {
        let variant = check(&full(path), &example(path)).variant.expect("a variant");
        let walked = variant.walked();
        let mut per_side = 0;
        for (k, piece) in variant.pieces.iter().enumerate() {
            for (r, rule) in piece.rules.iter().enumerate() {
                per_side += usize::from(!walked.same_for_every_side(k, r));
                for side in 0..variant.sides.len() {
                    for origin in (0..variant.board.cells.len()).step_by(7) {
                        let walked_now = orbis_compiler::walk::rule_rays(&variant, side, piece, rule, origin);
                        assert_eq!(walked.rule(k, r, side, origin), walked_now.as_slice(), "{path}: piece {k} rule {r} side {side} cell {origin}");
                    }
                }
            }
        }
        assert!(per_side > 0, "{path}: a rule that differs by side (the pawn's)");
    }
}
