//! Betza's notation (`betza "..."`) and riders of leaps (`ride`): the notation expands into the
//! same rules as orbis's own forms, its directions follow each side's `forward` on boards that
//! list their headings either way round, and the nightrider rides the knight's leap.

mod common;

use common::set;
use orbis_runtime::{Engine, Tables};
use std::collections::BTreeSet;

/// A 9x9 board (centre e5) with the given `headings` block and pieces; white moves north,
/// black south.
fn source(headings: &str, pieces: &str) -> String {
    format!(
        "variant \"Betza test\"\n\
         board {{\n  grid files a..i ranks 1..9\n  headings {{ {headings} }}\n  group orth = N E S W\n  group diag = NE SE SW NW\n}}\n\
         piece King K royal {{ step all }}\n{pieces}\n\
         side white {{ forward N setup {{ K a1 }} }}\nside black {{ forward S setup {{ K i9 }} }}\n"
    )
}

const CLOCKWISE: &str = "N (0, 1) NE (1, 1) E (1, 0) SE (1, -1) S (0, -1) SW (-1, -1) W (-1, 0) NW (-1, 1)";
const COUNTERCLOCKWISE: &str = "N (0, 1) NW (-1, 1) W (-1, 0) SW (-1, -1) S (0, -1) SE (1, -1) E (1, 0) NE (1, 1)";

fn compile(source: &str) -> Tables {
    let checked = orbis_compiler::check("betza-test.orbis", source);
    match checked.variant {
        Some(v) if !checked.has_errors() => orbis_compiler::lower::lower(&v),
        _ => panic!("does not check:\n{}", checked.render(false)),
    }
}

/// The destinations of `side`'s piece `symbol` on `from`, on the empty board.
fn destinations(t: &Tables, side: usize, symbol: char, from: &str) -> BTreeSet<String> {
    let kind = t.kinds.iter().position(|k| k.symbol == symbol).expect("kind");
    let i = (side * t.kinds.len() + kind) * t.cells.len() + common::cell(t, from);
    t.rays_at(i)
        .iter()
        .flat_map(|r| t.pool[r.cells.0 as usize..r.cells.1 as usize].iter())
        .map(|&c| t.cells[c as usize].clone())
        .collect()
}

/// (Betza text, white's destinations from e5, black's destinations from e5).
const CASES: &[(&str, &str, &str)] = &[
    ("W", "e6 f5 e4 d5", "e6 f5 e4 d5"),
    ("F", "d6 f6 d4 f4", "d6 f6 d4 f4"),
    ("fW", "e6", "e4"),
    ("vW", "e6 e4", "e6 e4"),
    ("sW", "d5 f5", "d5 f5"),
    ("lF", "d6 d4", "f6 f4"),
    ("rbF", "f4", "d6"),
    ("fN", "d7 f7 c6 g6", "d3 f3 c4 g4"),
    ("ffN", "d7 f7", "d3 f3"),
    ("fsN", "c6 g6", "c4 g4"),
    ("llN", "c6 c4", "g6 g4"),
    ("lvN", "d7 d3", "f7 f3"),
    ("bN", "d3 f3 c4 g4", "d7 f7 c6 g6"),
    ("C", "b4 b6 h4 h6 d2 f2 d8 f8", "b4 b6 h4 h6 d2 f2 d8 f8"),
    ("Z", "b3 b7 h3 h7 c2 g2 c8 g8", "b3 b7 h3 h7 c2 g2 c8 g8"),
    ("D", "e7 e3 c5 g5", "e7 e3 c5 g5"),
    ("A", "c7 g7 c3 g3", "c7 g7 c3 g3"),
    ("H", "e8 e2 b5 h5", "e8 e2 b5 h5"),
    ("G", "b8 h8 b2 h2", "b8 h8 b2 h2"),
    ("fR", "e6 e7 e8 e9", "e4 e3 e2 e1"),
    ("W2", "e6 e7 e4 e3 d5 c5 f5 g5", "e6 e7 e4 e3 d5 c5 f5 g5"),
    ("fF2", "d6 c7 f6 g7", "d4 c3 f4 g3"),
    ("K", "d4 d5 d6 e4 e6 f4 f5 f6", "d4 d5 d6 e4 e6 f4 f5 f6"),
    ("fK", "d6 e6 f6", "d4 e4 f4"),
    ("fbWfF", "e6 e4 d6 f6", "e6 e4 d4 f4"),
];

/// The symbol of the i-th test piece: the letters other than the king's.
fn symbol(i: usize) -> char {
    "ABCDEFGHIJLMNOPQRSTUVWXYZ".as_bytes()[i] as char
}

#[test]
fn directions_follow_each_side_forward_whichever_way_the_headings_are_listed() {
    for headings in [CLOCKWISE, COUNTERCLOCKWISE] {
        let pieces: String = CASES
            .iter()
            .enumerate()
            .map(|(i, (text, _, _))| format!("piece P{i} {} {{ betza \"{text}\" }}\n", symbol(i)))
            .collect();
        let t = compile(&source(headings, &pieces));
        for (i, (text, white, black)) in CASES.iter().enumerate() {
            assert_eq!(destinations(&t, 0, symbol(i), "e5"), set(white), "white {text}");
            assert_eq!(destinations(&t, 1, symbol(i), "e5"), set(black), "black {text}");
        }
    }
}

/// The rules orthodox chess writes in orbis's own forms and in Betza's notation make the same
/// moves from every cell (the rays' order may differ) and the same perft.
#[test]
fn orthodox_in_betza_equals_orthodox() {
    let path = common::root().join("examples/orthodox.orbis");
    let orthodox = std::fs::read_to_string(&path).expect("readable");
    let start = orthodox.find("piece King").expect("pieces");
    let end = orthodox.find("side white").expect("sides");
    let pieces = "piece King K royal { betza \"K\" }\npiece Queen Q { betza \"Q\" }\npiece Rook R { betza \"R\" }\n\
                  piece Bishop B { betza \"B\" }\npiece Knight N { betza \"N\" }\n\
                  piece Pawn P resets-clock { betza \"fmWfceFifmnD\" }\n\n";
    let betza = format!("{}{pieces}{}", &orthodox[..start], &orthodox[end..]);
    let a = orbis_compiler::lower::lower(&common::variant("examples/orthodox.orbis"));
    let b = compile(&betza);
    let sorted = |t: &Tables| {
        let mut lines: Vec<String> = orbis_runtime::inspect::inspect(t).lines().map(String::from).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&a), sorted(&b));
    let (a, b) = (Engine::new(a).expect("loads"), Engine::new(b).expect("loads"));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    assert_eq!(b.perft(None, 4).expect("perft"), 197_281);
    assert_eq!(a.perft(Some(kiwipete), 3).expect("perft"), b.perft(Some(kiwipete), 3).expect("perft"));
    assert_eq!(b.perft(Some(kiwipete), 3).expect("perft"), 97_862);
}

/// `n`: a lame leaper is blocked on the first cell of its path (the xiangqi horse, `nN`), a
/// leaper is not.
#[test]
fn lame_leapers_are_blocked_where_leapers_are_not() {
    let pieces = "piece Horse H { betza \"nN\" }\npiece Knight N { betza \"N\" }\npiece Pawn P { betza \"fmW\" }";
    let engine = Engine::new(compile(&source(CLOCKWISE, pieces))).expect("loads");
    // A pawn on e6 blocks the horse's moves through e6 (to d7 and f7), not the knight's.
    let horse = destinations_from(&engine, "8k/9/9/4P4/4H4/9/9/9/K8 w - - 0 1", "e5");
    assert_eq!(horse, set("c6 g6 c4 g4 d3 f3"));
    let knight = destinations_from(&engine, "8k/9/9/4P4/4N4/9/9/9/K8 w - - 0 1", "e5");
    assert_eq!(knight, set("c6 g6 c4 g4 d3 f3 d7 f7"));
}

/// The destinations of the legal moves from `from` in `fen`.
fn destinations_from(engine: &Engine, fen: &str, from: &str) -> BTreeSet<String> {
    engine.moves(Some(fen)).expect("moves").into_iter().filter(|m| m.from == from).map(|m| m.to).collect()
}

/// The nightrider rides (1, 2) leaps while the cells it lands on are empty; the cells between are
/// leapt; it captures on the first occupied landing cell.
#[test]
fn the_nightrider_rides_the_knights_leap() {
    for piece in ["piece Nightrider R { ride step orth then step turn +-1 }", "piece Nightrider R { betza \"NN\" }"] {
        let t = compile(&source(CLOCKWISE, piece));
        assert_eq!(destinations(&t, 0, 'R', "a1"), set("b3 c5 d7 e9 c2 e3 g4 i5"), "{piece}");
        let engine = Engine::new(t).expect("loads");
        // A white king on c5 blocks the ride a1-b3-c5 beyond b3; a black king on e3 is the end of
        // a1-c2-e3 (it is in check: the nightrider attacks through the leapt b2, d2 and d3).
        let fen = "9/9/9/9/2K6/9/4k4/9/R8 b - - 0 1";
        // d4 is the white king's; the others are off the nightrider's lines.
        assert_eq!(destinations_from(&engine, fen, "e3"), set("d2 d3 e2 e4 f2 f3 f4"));
        // A black nightrider on e3 is captured, and ends that ride.
        assert_eq!(destinations_from(&engine, "8k/9/9/9/2K6/9/4r4/9/R8 w - - 0 1", "a1"), set("b3 c2 e3"));
    }
}

/// Every piece of the standard library (examples/lib/pieces.orbis) makes the moves its Betza
/// notation makes, on a 9x9 board for both sides.
#[test]
fn the_piece_library_matches_its_betza_notation() {
    let library: &[(&str, char, &str)] = &[
        ("King", 'K', "K"),
        ("Queen", 'Q', "Q"),
        ("Rook", 'R', "R"),
        ("Bishop", 'B', "B"),
        ("Knight", 'N', "N"),
        ("Pawn", 'P', "fmWfceFifmnD"),
        ("Ferz", 'F', "F"),
        ("Wazir", 'W', "W"),
        ("Commoner", 'U', "K"),
        ("Alfil", 'E', "A"),
        ("Dabbaba", 'D', "D"),
        ("Threeleaper", 'H', "H"),
        ("Camel", 'L', "C"),
        ("Zebra", 'Z', "Z"),
        ("Nightrider", 'S', "NN"),
        ("Archbishop", 'A', "BN"),
        ("Chancellor", 'C', "RN"),
        ("Amazon", 'M', "QN"),
        ("Centaur", 'T', "KN"),
    ];
    let board = source(CLOCKWISE, "");
    let (head, tail) = board.split_at(board.find("piece King").expect("king"));
    let tail = &tail[tail.find('\n').expect("line") + 1..];
    let names: Vec<&str> = library.iter().map(|l| l.0).collect();
    let (first_line, board_part) = head.split_at(head.find('\n').expect("line") + 1);
    let included = format!("{first_line}include \"../lib/pieces.orbis\" {{ {} }}\n{board_part}{tail}", names.join(" "));
    let written: String = library
        .iter()
        .map(|(name, symbol, betza)| {
            let royal = if *name == "King" { " royal" } else { "" };
            let clock = if *name == "Pawn" { " resets-clock" } else { "" };
            format!("piece {name} {symbol}{royal}{clock} {{ betza \"{betza}\" }}\n")
        })
        .collect();
    let betza = format!("{head}{written}{tail}");
    let a = orbis_compiler::lower::lower(&common::variant_from("examples/fairy/library-test.orbis", &included));
    let b = compile(&betza);
    assert_eq!(a.kinds.len(), library.len());
    let sorted = |t: &Tables| {
        let mut lines: Vec<String> = orbis_runtime::inspect::inspect(t).lines().map(String::from).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&a), sorted(&b));
}

/// Betza's hoppers and lame leapers: Xiangqi written with `betza` for every piece but the
/// general (the horse `nN`, the elephant `nA`, the cannon `mRcpR`) and Grasshopper chess with
/// `gQ` count the perft of the files written in orbis's own forms (Fairy-Stockfish's figures).
#[test]
fn betza_writes_xiangqi_and_the_grasshopper() {
    let replace = |path: &str, pairs: &[(&str, &str)]| {
        let mut text = std::fs::read_to_string(common::root().join(path)).expect("readable");
        for (from, to) in pairs {
            assert!(text.contains(from), "{path}: {from}");
            text = text.replace(from, to);
        }
        Engine::new(orbis_compiler::lower::lower(&common::variant_from(path, &text))).expect("loads")
    };
    let xiangqi = replace(
        "examples/fairy/xiangqi.orbis",
        &[
            ("piece Advisor A { step diag onto palace }", "piece Advisor A { betza \"F\" onto palace }"),
            ("piece Elephant B { step diag then step straight onto home }", "piece Elephant B { betza \"nA\" onto home }"),
            ("piece Horse N { step orth then step turn +-1 }", "piece Horse N { betza \"nN\" }"),
            ("piece Chariot R { slide orth }", "piece Chariot R { betza \"R\" }"),
            ("piece Cannon C {\n  move-only slide orth\n  capture-only hop orth\n}", "piece Cannon C { betza \"mRcpR\" }"),
            ("  step forward\n  step { E W } on across", "  betza \"fW\"\n  betza \"sW\" on across"),
        ],
    );
    assert_eq!(xiangqi.perft(None, 3).expect("perft"), 79_666);
    let grasshopper = replace("examples/fairy/grasshopper.orbis", &[("piece Grasshopper G { hop all next }", "piece Grasshopper G { betza \"gQ\" }")]);
    assert_eq!(grasshopper.perft(None, 3).expect("perft"), 22_314);
}
