use super::*;

fn example(path: &str) -> String {
    let full = format!("{}/../examples/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

const EXAMPLES: [&str; 3] = ["orthodox.orbis", "cylindrical.orbis", "spherical/nadvorney.orbis"];

#[test]
fn examples_parse() {
    for path in EXAMPLES {
        let source = example(path);
        let file = parse(&source).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        if file.includes.is_empty() {
            assert_eq!(file.items.len(), 10, "{path}: board, 6 pieces, 2 sides, rules");
        } else {
            // Nadvorney builds on the shared globe: its own seams and knight.
            assert_eq!(file.includes.len(), 2, "{path}");
            assert_eq!(file.items.len(), 2, "{path}: board (seams), knight");
        }
    }
}

#[test]
fn spans_point_at_names() {
    let source = example("spherical/nadvorney.orbis");
    let file = parse(&source).expect("parses");
    assert_eq!(&source[file.variant.span.range()], "Spherical chess (Nadvorney)");
    let board = file
        .items
        .iter()
        .find_map(|i| match i {
            Item::Board(b) => Some(b),
            _ => None,
        })
        .expect("a board");
    let seams: Vec<&Seam> = board
        .statements
        .iter()
        .filter_map(|s| match s {
            BoardStmt::Seam(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(seams.len(), 2);
    assert_eq!(&source[seams[0].name.span.range()], "north-pole");
    assert_eq!(&source[seams[0].when.span.range()], "y > 7");
    assert_eq!(&source[seams[0].to.x.span.range()], "x + 4");
    let pieces: Vec<&Piece> = file
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Piece(p) => Some(p),
            _ => None,
        })
        .collect();
    let knight = pieces.iter().find(|p| p.name.text == "Knight").expect("a knight");
    assert_eq!(knight.rules[0].legs.len(), 2);
    match &knight.rules[0].legs[1].dirs {
        LegDirs::Turn(t) => assert_eq!(t.amounts, vec![1, -1]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn expressions_have_precedence() {
    let source = "variant \"v\" board { seam s when not x-1 < 2 * y mod 3 and dx == 0 or y > 7 : to (-x, -(y)) heading same }";
    let file = parse(source).expect("parses");
    let Item::Board(board) = &file.items[0] else { panic!() };
    let BoardStmt::Seam(seam) = &board.statements[0] else { panic!() };
    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(i) => i.to_string(),
            ExprKind::Var(v) => v.clone(),
            ExprKind::Neg(e) => format!("(-{})", show(e)),
            ExprKind::Not(e) => format!("(not {})", show(e)),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.symbol(), show(b)),
        }
    }
    assert_eq!(show(&seam.when), "(((not ((x - 1) < ((2 * y) mod 3))) and (dx == 0)) or (y > 7))");
    assert_eq!(show(&seam.to.x), "(-x)");
}

#[test]
fn errors_read_as_words() {
    let cases = [
        ("", "expected a variant, found end of file"),
        ("variant \"v\" piece King K { step all", "found end of file"),
        ("variant \"v\" piece King K { jump all }", "expected `crowns`, `}` or a piece rule, found `jump`"),
        ("variant \"v\" rules { stalemate maybe }", "expected `draw`, `win` or `loss`, found `maybe`"),
        ("variant \"v\" board { grid files a..h ranks 1..8 } banana", "found `banana`"),
    ];
    for (source, wanted) in cases {
        let errors = parse(source).expect_err(source);
        assert_eq!(errors.len(), 1);
        let message = &errors[0].message;
        assert!(message.contains(wanted), "{source:?}: {message}");
        assert!(!message.contains("kw_") && !message.contains("Rule::"), "{message}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("variant \"v\" board {{ seam s when {}y{} > 7 : to (x, y) heading same }}", "(".repeat(10_000), ")".repeat(10_000));
    assert!(parse(&deep).is_err());
    let long = format!("variant \"v\" board {{ seam s when y{} > 7 : to (x, y) heading same }}", " + 1".repeat(10_000));
    assert!(parse(&long).is_err());
    let nots = format!("variant \"v\" board {{ seam s when {} y > 7 : to (x, y) heading same }}", "not ".repeat(10_000));
    assert!(parse(&nots).is_err());
}

/// `identify`, derived directions, side zones, `lines ... through` and rules `on` cells.
#[test]
fn identify_directions_zones_and_on() {
    let source = example("corner/lib/variant2.orbis");
    let file = parse(&source).unwrap_or_else(|e| panic!("{e:?}"));
    let board = file.items.iter().find_map(|i| match i {
        Item::Board(b) => Some(b),
        _ => None,
    });
    assert!(board.is_none(), "the board is in the included library");
    let board_file = parse(&example("corner/lib/middle-join-9x9.orbis")).expect("parses");
    let Some(Item::Board(board)) = board_file.items.first() else { panic!("a board") };
    let ids: Vec<&Seam> = board
        .statements
        .iter()
        .filter_map(|s| match s {
            BoardStmt::Identify(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(ids.len(), 2);
    assert_eq!(ids[0].name.text, "i-file-is-rank-1");
    let pawn = file
        .items
        .iter()
        .find_map(|i| match i {
            Item::Piece(p) if p.name.text == "Pawn" => Some(p),
            _ => None,
        })
        .expect("a pawn");
    assert!(matches!(&pawn.rules[1].on, Some(RuleOn { target: OnTarget::Zone(z), .. }) if z.text == "rear-pawns"));
    let white = file
        .items
        .iter()
        .find_map(|i| match i {
            Item::Side(s) if s.name.text == "white" => Some(s),
            _ => None,
        })
        .expect("white");
    let mut seen = (false, false, false, false);
    for st in &white.statements {
        match st {
            SideStmt::Forward { spec: DirectionSpec::Derived(d), .. } => {
                assert!(d.mode == Derivation::Away && matches!(&d.from, Zone::Named { name, .. } if name.text == "i1"));
                seen.0 = true;
            }
            SideStmt::Direction { name, spec: DirectionSpec::Derived(d), .. } => {
                assert!(d.mode == Derivation::Farthest && name.text == "away-diagonal");
                seen.1 = true;
            }
            SideStmt::Zone { name, zone: Zone::Cells { cells, .. }, .. } => {
                assert_eq!((name.text.as_str(), cells.len()), ("rear-pawns", 4));
                seen.2 = true;
            }
            SideStmt::Promote(p) => {
                assert!(matches!(&p.zone, Zone::Lines { through, .. } if through.text == "a9"));
                seen.3 = true;
            }
            _ => {}
        }
    }
    assert_eq!(seen, (true, true, true, true));
}

#[test]
fn truncated_and_mutated_inputs_never_panic() {
    let source = example("spherical/nadvorney.orbis");
    for end in (0..=source.len()).filter(|&i| source.is_char_boundary(i)) {
        let _ = parse(&source[..end]);
    }
    // Delete each byte-aligned character in turn (cheap mutation coverage).
    let bytes = source.as_bytes();
    for i in (0..bytes.len()).step_by(7) {
        let mut mutated = bytes.to_vec();
        mutated.remove(i);
        if let Ok(text) = String::from_utf8(mutated) {
            let _ = parse(&text);
        }
    }
}

mod random {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,200}") {
            let _ = parse(&s);
        }

        #[test]
        fn token_soup_never_panics(tokens in proptest::collection::vec(prop_oneof![
            Just("variant"), Just("\"x\""), Just("board"), Just("{"), Just("}"), Just("("), Just(")"),
            Just("grid"), Just("files"), Just("ranks"), Just("a..h"), Just("1..8"), Just("seam"),
            Just("when"), Just("y"), Just(">"), Just("7"), Just(":"), Just("to"), Just(","), Just("heading"),
            Just("same"), Just("piece"), Just("K"), Just("step"), Just("then"), Just("turn"), Just("+-1"),
            Just("side"), Just("setup"), Just("castle"), Just("->"), Just("rules"), Just("-"), Just("mod"),
            Just("identify"), Just("forward"), Just("direction"), Just("away"), Just("farthest"), Just("from"),
            Just("by"), Just("zone"), Just("lines"), Just("through"), Just("on"), Just("orth"),
        ], 0..60)) {
            let _ = parse(&tokens.join(" "));
        }
    }
}

#[test]
fn teams_and_the_rules_of_many_sides() {
    let source = "variant \"t\"\nside red { team north  setup { K a1 } }\nside blue { setup { K b1 } }\n\
                  rules { game-end first-mate  eliminated stay }\n";
    let file = parse(source).unwrap_or_else(|e| panic!("{e:?}"));
    let Some(Item::Side(red)) = file.items.first() else { panic!("a side") };
    let team = red.statements.iter().find_map(|s| match s {
        SideStmt::Team { name, .. } => Some(name),
        _ => None,
    });
    assert_eq!(team.map(|t| (t.text.as_str(), &source[t.span.start..t.span.end])), Some(("north", "north")));
    let Some(Item::Rules(rules)) = file.items.last() else { panic!("rules") };
    let kinds: Vec<SettingKind> = rules.settings.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [SettingKind::GameEnd(GameEnd::FirstMate), SettingKind::Eliminated(Eliminated::Stay)]);
    let e = parse("variant \"t\"\nrules { eliminated gone }\n").unwrap_err();
    assert!(e.iter().any(|e| e.message.contains("`remove` or `stay`")), "{e:?}");
}
