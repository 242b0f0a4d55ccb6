//! Spherical Corner Chess (the Chess Variant Pages' "Spherical Corner Chess" page; facts 2.A-2.E):
//! both neighbour diagrams of the page, CC-1..CC-8, the king and knight sets of 2.A, the bishops'
//! colours, the merged squares of Variant 2 under both names, the reconstructed setups' constraints
//! and perft from the start, all through the compiled tables.

use crate::common;

use common::{cell, destinations, heading, legal, ray_cells, set, walk};
use orbis_runtime::tables::{ray, Tables};
use orbis_runtime::{Game, Position};
use std::collections::{BTreeSet, VecDeque};

const V1: &str = "examples/corner/variant1.orbis";
const V1_UNI: &str = "examples/corner/variant1-unidirectional.orbis";
const V2: &str = "examples/corner/variant2.orbis";
const V2_BEROLINA: &str = "examples/corner/variant2-berolina.orbis";
const MIDDLE_8X8: &str = "examples/corner/middle-join-8x8.orbis";

const COMPASS: [(&str, i32, i32); 8] =
    [("N", 0, 1), ("NE", 1, 1), ("E", 1, 0), ("SE", 1, -1), ("S", 0, -1), ("SW", -1, -1), ("W", -1, 0), ("NW", -1, 1)];
const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// The Variant 1 neighbour diagram as the page prints it (F1:25-39, seed-facts 2.A): two virtual
/// ranks and files around the board (`.`), top rank first. Row 3 ends with the page's misprint.
const V1_DIAGRAM: &str = "
b7 a7 b8 b7 b6 b5 b4 b3 b2 b1 h7 g7
b8 a8 a8 a7 a6 a5 a4 a3 a2 a1 h8 g8
a7 a8 .  .  .  .  .  .  .  .  a8 b8
b7 b8 .  .  .  .  .  .  .  .  b1 b2
c7 c8 .  .  .  .  .  .  .  .  c1 c2
d7 d8 .  .  .  .  .  .  .  .  d1 d2
e7 e8 .  .  .  .  .  .  .  .  e1 e2
f7 f8 .  .  .  .  .  .  .  .  f1 f2
g7 g8 .  .  .  .  .  .  .  .  g1 g2
h7 h8 .  .  .  .  .  .  .  .  h1 h2
b1 a1 h8 h7 h6 h5 h4 h3 h2 h1 h1 g1
b2 a2 g8 g7 g6 g5 g4 g3 g2 g1 h2 g2";

/// The entries of the V1 diagram the page misprints (2.E.1): (x, y, printed, what the join gives).
const V1_MISPRINTS: [(i32, i32, &str, &str); 2] = [(8, 7, "a8", "a1"), (9, 7, "b8", "a2")];

/// The Variant 2 neighbour diagram (F1:53-68), on the 9x9 labels; merged squares appear under
/// either of their names.
const V2_DIAGRAM: &str = "
c7 b7 c9 c8 c7 c6 c5 c4 c3 c2 i7 h7 g7
c8 b8 b9 b8 b7 b6 b5 b4 b3 b2 i8 h8 g8
c9 b9 .  .  .  .  .  .  .  .  .  h9 g9
b7 b8 .  .  .  .  .  .  .  .  .  b2 b3
c7 c8 .  .  .  .  .  .  .  .  .  c2 c3
d7 d8 .  .  .  .  .  .  .  .  .  d2 d3
e7 e8 .  .  .  .  .  .  .  .  .  e2 e3
f7 f8 .  .  .  .  .  .  .  .  .  f2 f3
g7 g8 .  .  .  .  .  .  .  .  .  g2 g3
h7 h8 .  .  .  .  .  .  .  .  .  h2 h3
i7 i8 .  .  .  .  .  .  .  .  .  i2 i3
c2 b2 h9 h8 h7 h6 h5 h4 h3 h2 i2 h2 g2
c3 b3 g9 g8 g7 g6 g5 g4 g3 g2 i3 h3 g3";

/// A neighbour diagram: what a square `(x, y)` of the board or up to two beyond it is called.
struct Diagram {
    rows: Vec<Vec<String>>,
    size: i32,
}

impl Diagram {
    fn new(text: &str, size: i32) -> Diagram {
        let rows: Vec<Vec<String>> = text.trim().lines().map(|l| l.split_whitespace().map(String::from).collect()).collect();
        assert_eq!(rows.len(), size as usize + 4);
        assert!(rows.iter().all(|r| r.len() == size as usize + 4));
        Diagram { rows, size }
    }

    /// The name at virtual position (x, y), x and y in -2..size+2; board squares by their label.
    fn at(&self, x: i32, y: i32) -> String {
        if (0..self.size).contains(&x) && (0..self.size).contains(&y) {
            return format!("{}{}", (b'a' + x as u8) as char, y + 1);
        }
        self.rows[(self.size + 1 - y) as usize][(x + 2) as usize].clone()
    }

    fn covers(&self, x: i32, y: i32) -> bool {
        (-2..self.size + 2).contains(&x) && (-2..self.size + 2).contains(&y)
    }
}

/// The cell a name means (its own name or an alias), by its own name.
fn own(t: &Tables, name: &str) -> String {
    let c = t.cell_by_name(name).unwrap_or_else(|| panic!("no cell named {name}"));
    t.cells[c as usize].clone()
}

fn own_set(t: &Tables, names: &str) -> BTreeSet<String> {
    names.split_whitespace().map(|n| own(t, n)).collect()
}

/// Checks a diagram against the compiled step function: every straight line of one or two steps
/// in each of the eight headings, and every knight leap, from every labelled square. `frame` turns
/// a heading written in a square's own frame into the frame of the cell that square names (a merged
/// square's second name sees the board turned). Returns how many entries were compared.
fn check_diagram(
    t: &Tables,
    d: &Diagram,
    frame: impl Fn(i32, i32, (i32, i32)) -> (i32, i32),
    misprints: &[(i32, i32, &str, &str)],
) -> usize {
    let mut compared = 0;
    let expected = |x: i32, y: i32| -> String {
        match misprints.iter().find(|m| (m.0, m.1) == (x, y)) {
            Some(m) => {
                assert_eq!(d.at(x, y), m.2, "the diagram as printed");
                m.3.to_string()
            }
            None => d.at(x, y),
        }
    };
    for x in 0..d.size {
        for y in 0..d.size {
            let origin = d.at(x, y);
            let from = t.cell_by_name(&origin).expect("a square of the board") as usize;
            for (_, dx, dy) in COMPASS {
                let (fx, fy) = frame(x, y, (dx, dy));
                let h = COMPASS.iter().find(|c| (c.1, c.2) == (fx, fy)).map(|c| heading(t, c.0)).expect("a heading");
                for k in 1..=2 {
                    let (vx, vy) = (x + k * dx, y + k * dy);
                    if !d.covers(vx, vy) {
                        continue;
                    }
                    let steps = walk(t, from, h, k as usize);
                    assert_eq!(steps.len(), k as usize, "{origin} {k} x ({dx}, {dy}) leaves the board");
                    let got = &t.cells[steps[k as usize - 1].0];
                    assert_eq!(*got, own(t, &expected(vx, vy)), "{origin} {k} x ({dx}, {dy})");
                    compared += 1;
                }
            }
            let knight: BTreeSet<String> =
                KNIGHT.iter().map(|&(dx, dy)| own(t, &expected(x + dx, y + dy))).filter(|n| *n != t.cells[from]).collect();
            assert_eq!(destinations(t, "Knight", &t.cells[from]), knight, "knight on {origin}");
            compared += 8;
        }
    }
    compared
}

// ------------------------------------------------------------------------------------- Variant 1

/// CC-7 (Variant 1): every entry of the neighbour diagram is where the orthogonal, diagonal and
/// knight moves lead, except the misprinted pair east of h8, which the join makes a1 a2.
#[test]
fn cc7_v1_neighbour_diagram() {
    let t = common::tables(V1);
    let d = Diagram::new(V1_DIAGRAM, 8);
    let n = check_diagram(&t, &d, |_, _, v| v, &V1_MISPRINTS);
    assert!(n > 1000, "{n}");
    // The misprint really is one: h8 E is a1, then a2.
    let h8 = cell(&t, "h8");
    let line: Vec<&str> = walk(&t, h8, heading(&t, "E"), 2).iter().map(|&(c, _)| t.cells[c].as_str()).collect();
    assert_eq!(line, ["a1", "a2"]);
}

/// CC-1: "e1 orthogonally adjacent to h4": e1 S lands on h4 heading W, h4 E on e1 heading N.
#[test]
fn cc1_e1_next_to_h4() {
    let t = common::tables(V1);
    assert_eq!(walk(&t, cell(&t, "e1"), heading(&t, "S"), 1), [(cell(&t, "h4"), heading(&t, "W"))]);
    assert_eq!(walk(&t, cell(&t, "h4"), heading(&t, "E"), 1), [(cell(&t, "e1"), heading(&t, "N"))]);
}

/// CC-2: "the poles being thrice adjacent to themselves": a8 by N, W and NW, h1 by E, S and SE.
#[test]
fn cc2_poles_thrice_self_adjacent() {
    let t = common::tables(V1);
    for (pole, hs) in [("a8", ["N", "W", "NW"]), ("h1", ["E", "S", "SE"])] {
        let c = cell(&t, pole);
        let selves: Vec<&str> =
            COMPASS.iter().map(|h| h.0).filter(|h| walk(&t, c, heading(&t, h), 1).first().map(|s| s.0) == Some(c)).collect();
        let selves: BTreeSet<&str> = selves.into_iter().collect();
        assert_eq!(selves, hs.into_iter().collect(), "{pole}");
    }
    // A self-step is no move: the king on a pole has three moves.
    assert_eq!(destinations(&t, "King", "a8"), set("a7 b7 b8"));
}

/// CC-3: "a diagonal move along the equator doubles back on itself at the join".
#[test]
fn cc3_equator_doubles_back() {
    let t = common::tables(V1);
    // The corner steps: h8 NE stays on h8 turned SW, a1 SW stays on a1 turned NE.
    assert_eq!(walk(&t, cell(&t, "h8"), heading(&t, "NE"), 2), [(cell(&t, "h8"), heading(&t, "SW")), (cell(&t, "g7"), heading(&t, "SW"))]);
    assert_eq!(walk(&t, cell(&t, "a1"), heading(&t, "SW"), 2), [(cell(&t, "a1"), heading(&t, "NE")), (cell(&t, "b2"), heading(&t, "NE"))]);
    // Bishop f6 NE: g7, h8, back over h8 and g7 to f6, where the slide stops.
    let (cells, flags) = ray_cells(&t, "Bishop", "f6", "NE");
    assert_eq!(cells, ["g7", "h8", "h8", "g7"]);
    assert!(flags & ray::RETURNS != 0);
    // Variant 2: bishop e5 NE doubles back at the equator square a1 = i9.
    let t2 = common::tables(V2);
    let (cells, flags) = ray_cells(&t2, "Bishop", "e5", "NE");
    assert_eq!(cells, ["f6", "g7", "h8", "a1", "h8", "g7", "f6"]);
    assert!(flags & ray::RETURNS != 0);
    assert_eq!(own(&t2, "i9"), "a1");
}

/// CC-8: the unidirectional-equator subvariant: a1 SW goes on to h8 heading SW, h8 NE to a1 heading
/// NE, and the a1-h8 diagonal is a loop of eight squares.
#[test]
fn cc8_unidirectional_equator() {
    let t = common::tables(V1_UNI);
    assert_eq!(walk(&t, cell(&t, "a1"), heading(&t, "SW"), 1), [(cell(&t, "h8"), heading(&t, "SW"))]);
    assert_eq!(walk(&t, cell(&t, "h8"), heading(&t, "NE"), 1), [(cell(&t, "a1"), heading(&t, "NE"))]);
    let (cells, flags) = ray_cells(&t, "Bishop", "a1", "NE");
    assert_eq!(cells.join(" "), "b2 c3 d4 e5 f6 g7 h8");
    assert!(flags & ray::RETURNS != 0);
    // The poles still reflect, and the rest of the board is Variant 1's.
    assert_eq!(walk(&t, cell(&t, "a8"), heading(&t, "NW"), 1), [(cell(&t, "a8"), heading(&t, "SE"))]);
    let v1 = common::tables(V1);
    let differs: Vec<String> = (0..t.step.len()).filter(|&i| t.step[i] != v1.step[i]).map(|i| t.cells[i / t.headings.len()].clone()).collect();
    assert_eq!(differs, ["a1", "h8"]);
}

/// The king and knight sets of seed-facts 2.A for Variant 1.
#[test]
fn v1_king_and_knight_sets() {
    let t = common::tables(V1);
    let cases = [
        ("a8", "a7 b7 b8", "a6 a7 b6 b7 b8 c7 c8"),
        ("h1", "g1 g2 h2", "f1 f2 g1 g2 g3 h2 h3"),
        ("a1", "a2 b1 b2 g8 h7 h8", "a2 b1 b3 c2 f8 g7 h6"),
        ("h8", "a1 a2 b1 g7 g8 h7", "a3 b2 c1 f7 g6 g8 h7"),
        ("e1", "d1 d2 e2 f1 f2 h3 h4 h5", "c2 d3 f3 g2 g3 g5 h2 h6"),
    ];
    for (c, king, knight) in cases {
        assert_eq!(destinations(&t, "King", c), set(king), "king on {c}");
        assert_eq!(destinations(&t, "Knight", c), set(knight), "knight on {c}");
    }
}

/// Lines of seed-facts 2.A: rank and file loops of 16, the a file and rank 8 one line through a8.
#[test]
fn v1_lines() {
    let t = common::tables(V1);
    assert_eq!(ray_cells(&t, "Rook", "e1", "S").0.join(" "), "h4 g4 f4 e4 d4 c4 b4 a4 e8 e7 e6 e5 e4 e3 e2");
    assert_eq!(ray_cells(&t, "Bishop", "e1", "SW").0.join(" "), "h5 g6 f7 e8 a5 b6 c7 d8 a4 b3 c2 d1 h4 g3 f2");
    assert_eq!(ray_cells(&t, "Rook", "a8", "E").0.len(), 14);
}

/// CC-5: the bishops of Variant 1 are not colour-bound: from any square a bishop reaches every
/// square in some number of moves on the empty board.
#[test]
fn cc5_v1_bishops_not_colour_bound() {
    let t = common::tables(V1);
    for start in ["g1", "h2", "a7", "e4"] {
        assert_eq!(closure(&t, "Bishop", start).len(), 64, "bishop from {start}");
    }
}

/// The Variant 1 pawn: forward is the orthogonal most directly away from the own king's start; the
/// central pawn steps either way and captures on every diagonal but the one toward its king; no
/// double step; promotion on rank 8 and the a file.
#[test]
fn v1_pawns() {
    let game = common::game(V1);
    let t = &game.tables;
    // From the start: the rank-side pawns step west, the file-side ones north; the central pawn
    // (f3) is hemmed in by its neighbours.
    let start = legal(&game, &game_start(&game));
    assert!(!start.iter().any(|m| m.starts_with("Pf3")));
    for m in ["Pe2-d2", "Pe3-d3", "Pf4-f5", "Pg4-g5"] {
        assert!(start.contains(m), "{m}: {start:?}");
    }
    assert!(!start.iter().any(|m| m.starts_with("Pe2-e") || m.starts_with("Pf4-e") || m.starts_with("Pe3-c3")));
    // The central pawn's captures: NW, NE, SW, not SE (toward h1).
    let central = legal(&game, "turn=white white=Kh1,Pe4 black=Ka8,Pd5,Pf5,Pd3,Pf3");
    let caps: BTreeSet<&str> = central.iter().filter(|m| m.starts_with("Pe4x")).map(String::as_str).collect();
    assert_eq!(caps, ["Pe4xd3", "Pe4xd5", "Pe4xf5"].into_iter().collect());
    // Capturing toward the enemy king keeps it on the long diagonal, with both moves.
    let after = legal(&game, "turn=white white=Kh1,Pd5 black=Ka8,Pc2");
    assert!(after.contains("Pd5-c5") && after.contains("Pd5-d6"));
    // Off the diagonal it is a pawn of that side: d4 steps west only.
    let off = legal(&game, "turn=white white=Kh1,Pd4 black=Ka8");
    assert!(off.contains("Pd4-c4") && !off.contains("Pd4-d5"));
    // Promotion: the 15 squares of rank 8 and the a file (2.D), for White.
    let zone: BTreeSet<String> = t.sides[0].promotions[0].zone.iter().map(|&c| t.cells[c as usize].clone()).collect();
    assert_eq!(zone, set("a1 a2 a3 a4 a5 a6 a7 a8 b8 c8 d8 e8 f8 g8 h8"));
    // Stepping forward from b1 reaches a1 and promotes; a capture across the join (h7xa1) too.
    assert!(legal(&game, "turn=white white=Kh1,Pb1 black=Ka8").contains("Pb1-a1=Q"));
    assert!(legal(&game, "turn=white white=Kh1,Ph7 black=Ke8,Na1").contains("Ph7xa1=Q"));
    // No double step anywhere.
    assert!(!t.rays.iter().any(|r| r.flags & ray::INITIAL != 0));
    // On every square, White's forward is the planar rule: from h1 the pawn is a = 7 - x squares
    // west and b = y squares north; west when a > b, north when b > a, both when equal (counted in
    // king steps the joins keep these distances); none on the far line (rank 8 and the a file).
    let v = common::variant(V1);
    for (c, name) in t.cells.iter().enumerate() {
        let (x, y) = xy(name);
        let (a, b) = (7 - x, y);
        let mut expected = BTreeSet::new();
        if a >= b && x > 0 {
            expected.insert("W");
        }
        if b >= a && y < 7 {
            expected.insert("N");
        }
        let got: BTreeSet<&str> = v.sides[0].forward(c).iter().map(|&h| v.board.headings[h].name.as_str()).collect();
        assert_eq!(got, expected, "forward on {name}");
    }
}

/// Castling "as usual; the king moves two spaces", along either arm of the back line.
#[test]
fn v1_castling() {
    let game = common::game(V1);
    let fen = "k7/8/8/8/7R/8/8/4R2K w KQ - 0 1";
    let moves = legal(&game, fen);
    assert!(moves.contains("O-O-rank") && moves.contains("O-O-file"), "{moves:?}");
    let mut pos = Position::parse(&game, fen).unwrap();
    let mv = pos.parse_move(&game, "O-O-rank").unwrap();
    pos.make(&game, mv);
    assert_eq!(pos.to_fen(&game).unwrap(), "k7/8/8/8/7R/8/8/5KR1 b - - 1 1");
    let mut pos = Position::parse(&game, fen).unwrap();
    let mv = pos.parse_move(&game, "O-O-file").unwrap();
    pos.make(&game, mv);
    assert_eq!(pos.to_fen(&game).unwrap(), "k7/8/8/8/8/7K/7R/4R3 b - - 1 1");
}

/// The reconstructed Variant 1 array meets every constraint the page states (seed-facts 2.C).
#[test]
fn v1_setup_constraints() {
    let game = common::game(V1);
    let t = &game.tables;
    let at = |side: usize, sym: char| -> Vec<String> {
        let k = t.kinds.iter().position(|k| k.symbol == sym).unwrap();
        t.sides[side].setup.iter().filter(|s| s.1 as usize == k).map(|s| t.cells[s.0 as usize].clone()).collect()
    };
    for (side, king) in [(0, "h1"), (1, "a8")] {
        // K Q 2R 2B 2N and 7 pawns: the usual equipment less a pawn.
        let counts: Vec<usize> = "KQRBNP".chars().map(|s| at(side, s).len()).collect();
        assert_eq!(counts, [1, 1, 2, 2, 2, 7]);
        assert_eq!(at(side, 'K'), [king], "kings on the poles");
        // One pawn on the long diagonal between the kings, three on each side of it.
        let pawns: Vec<(i32, i32)> = at(side, 'P').iter().map(|c| xy(c)).collect();
        let sums: Vec<i32> = pawns.iter().map(|p| p.0 + p.1).collect();
        assert_eq!(sums.iter().filter(|&&s| s == 7).count(), 1);
        assert_eq!(sums.iter().filter(|&&s| s < 7).count(), 3);
        assert_eq!(sums.iter().filter(|&&s| s > 7).count(), 3);
        // Both bishops of a side on one colour.
        let colours: BTreeSet<i32> = at(side, 'B').iter().map(|c| (xy(c).0 + xy(c).1) % 2).collect();
        assert_eq!(colours.len(), 1);
    }
    // Black's array is White's mirrored in the a1-h8 diagonal.
    for sym in "KQRBNP".chars() {
        let mirrored: BTreeSet<String> = at(0, sym).iter().map(|c| name(xy(c).1, xy(c).0)).collect();
        assert_eq!(mirrored, at(1, sym).into_iter().collect(), "{sym}");
    }
    // A legal, quiet position: nobody in check, nothing can be captured (the page: corner arrays
    // do not start "under mutual threat").
    let start = game_start(&game);
    let captures: Vec<String> = legal(&game, &start).into_iter().filter(|m| m.contains('x')).collect();
    assert!(captures.is_empty(), "{captures:?}");
}

// ------------------------------------------------------------------------------------- Variant 2

/// A heading written in the frame of grid position (x, y) of the 9x9 board, in the frame of the cell
/// it names: the i file and the a file are the first and ninth ranks turned a quarter.
fn v2_frame(x: i32, y: i32, (dx, dy): (i32, i32)) -> (i32, i32) {
    if (x == 8 && y > 0) || (x == 0 && y > 0 && y < 8) {
        (-dy, dx)
    } else {
        (dx, dy)
    }
}

/// CC-7 (Variant 2): every entry of the neighbour diagram, under either name of a merged square.
#[test]
fn cc7_v2_neighbour_diagram() {
    let t = common::tables(V2);
    let d = Diagram::new(V2_DIAGRAM, 9);
    let n = check_diagram(&t, &d, v2_frame, &[]);
    assert!(n > 1300, "{n}");
}

/// CC-4 and 2.A: the join through the middle of the squares merges 15 pairs on 9x9 (66 cells) and
/// 13 on 8x8 (51 cells); a8 and h1 become poles, and rank 1 and the h file are one file.
#[test]
fn cc4_merged_squares() {
    let t = common::tables(V2);
    assert_eq!(t.cells.len(), 66);
    assert_eq!(t.aliases.len(), 15);
    let pairs = "b1=i8 c1=i7 d1=i6 e1=i5 f1=i4 g1=i3 h1=i2 a1=i9 b9=a8 c9=a7 d9=a6 e9=a5 f9=a4 g9=a3 h9=a2";
    for pair in pairs.split_whitespace() {
        let (a, b) = pair.split_once('=').unwrap();
        assert_eq!(own(&t, b), a, "{pair}");
    }
    let t8 = common::tables(MIDDLE_8X8);
    assert_eq!(t8.cells.len(), 51);
    // h1 is a pole: all four orthogonal steps lead to g1 (= h2), all diagonal ones to g2.
    let h1 = cell(&t8, "h1");
    for (h, _, _) in COMPASS {
        let to = &t8.cells[walk(&t8, h1, heading(&t8, h), 1)[0].0];
        assert_eq!(to, if h.len() == 1 { "g1" } else { "g2" }, "h1 {h}");
    }
    // "the first rank and h file ... become one file": a rook on e1 runs to the pole and back.
    assert_eq!(ray_cells(&t8, "Rook", "e1", "E").0.join(" "), "f1 g1 h1 g1 f1");
    assert_eq!(own(&t8, "h5"), "d1");
    assert_eq!(own(&t8, "a3"), "f8");
}

/// The king and knight sets of seed-facts 2.A for Variant 2 (names as the page writes them).
#[test]
fn v2_king_and_knight_sets() {
    let t = common::tables(V2);
    let kings = [
        ("i1", "h1 h2"),
        ("a9", "a8 b8"),
        ("h1", "g1 g2 h2 h3 i1"),
        ("a1", "a2 b1 b2 h8"),
        ("b2", "a1 a2 a3 b1 b3 c1 c2 c3"),
    ];
    for (c, expected) in kings {
        assert_eq!(destinations(&t, "King", &own(&t, c)), own_set(&t, expected), "king on {c}");
    }
    let knights = [
        ("i1", "g2 h3"),
        ("a9", "b7 c8"),
        ("h1", "f2 g1 g3 h2 h4"),
        ("a1", "b3 c2 g8 h7"),
        ("f1", "d2 e3 g3 g5 h2 h6"),
        ("b2", "a2 a4 b1 c4 d1 d3 g8 h7"),
    ];
    for (c, expected) in knights {
        assert_eq!(destinations(&t, "Knight", &own(&t, c)), own_set(&t, expected), "knight on {c}");
    }
    // The same cell under its other name: i4 is f1.
    assert_eq!(destinations(&t, "Knight", &own(&t, "i4")), own_set(&t, "d2 e3 g3 g5 h2 h6"));
}

/// 2.A: rank 1 = the i file is one line from the pole to the equator square; the e file and rank 5
/// form a loop of eight; a bishop doubles back at the pole.
#[test]
fn v2_lines() {
    let t = common::tables(V2);
    assert_eq!(ray_cells(&t, "Rook", "e1", "E").0.join(" "), "f1 g1 h1 i1 h1 g1 f1");
    assert_eq!(ray_cells(&t, "Rook", "e5", "S").0.join(" "), "e4 e3 e2 e1 h5 g5 f5");
    assert_eq!(ray_cells(&t, "Bishop", "g3", "SE").0.join(" "), "h2 i1 h2");
    assert_eq!(ray_cells(&t, "Bishop", "c3", "SW").0.join(" "), "b2 a1 b2");
}

/// CC-6: the bishops and camels of Variant 2 are colour-bound (every move keeps the colour, the
/// parity of file + rank under either name), and a camel is a (1, 3) leaper.
#[test]
fn cc6_v2_bishops_and_camels_colour_bound() {
    let t = common::tables(V2);
    for piece in ["Bishop", "Camel"] {
        for c in &t.cells {
            let colour = parity(c);
            for d in destinations(&t, piece, c) {
                assert_eq!(parity(&d), colour, "{piece} {c}-{d}");
            }
        }
        // All the squares of the colour, from either colour (34 dark, 32 light).
        for start in ["e5", "e4"] {
            let colour = t.cells.iter().filter(|c| parity(c) == parity(start)).count();
            assert_eq!(closure(&t, piece, start).len(), colour, "{piece} from {start}");
        }
    }
    assert_eq!(destinations(&t, "Camel", "e5"), set("b4 b6 d2 d8 f2 f8 h4 h6"));
    // Colours agree under both names of every merged square.
    for (alias, c) in &t.aliases {
        assert_eq!(parity(alias), parity(&t.cells[*c as usize]), "{alias}");
    }
}

/// The Variant 2 pawn: either orthogonal move away from its king's start and the most directly
/// away diagonal capture; three moves and two captures on the king's own line; a double step behind
/// the front diagonal only; promotion on the line through the enemy king's start.
#[test]
fn v2_pawns() {
    let game = common::game_medium(V2);
    let t = &game.tables;
    // An ordinary pawn (e4): two moves, one capture diagonal.
    let moves = legal(&game, "turn=white white=Ki1,Pe4 black=Ka9,Pd5,Pf5,Pd3");
    let pawn: BTreeSet<&str> = moves.iter().filter(|m| m.starts_with('P')).map(String::as_str).collect();
    assert_eq!(pawn, ["Pe4-d4", "Pe4-e5", "Pe4xd5"].into_iter().collect());
    // On the king's line (f1 = i4): three moves and two captures, across the join too (seed 2.C).
    let moves = legal(&game, "turn=white white=Ki1,Pf1 black=Ka9,Pe2,Ph5");
    let pawn: BTreeSet<&str> = moves.iter().filter(|m| m.starts_with('P')).map(String::as_str).collect();
    assert_eq!(pawn, ["Pf1-e1", "Pf1-f2", "Pf1-h4", "Pf1xe2", "Pf1xh5"].into_iter().collect());
    // The double step: only the pawns behind the front diagonal, on either orthogonal.
    let start = legal(&game, &game_start(&game));
    assert!(!start.iter().any(|m| m.starts_with('P') && is_double(t, m)), "{start:?}");
    // Once the front pawns have moved, a rear pawn may go two squares.
    let opened = engine_after(V2, &["Pe3-d3", "Pb4-b3", "Pd3-c3", "Pc5-c4"]);
    assert!(opened.contains(&"Pe2-e4".to_string()), "{opened:?}");
    let moves = legal(&game, "turn=white white=Ki1,Pe2,Pc1 black=Ka9 virgin=e2,c1");
    assert!(moves.contains("Pe2-c2") && moves.contains("Pe2-e4"), "{moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("Pc1") && is_double(t, m)), "{moves:?}");
    // Promotion: the line through a9 (its one orthogonal line), for White; a1 is on both sides'.
    let zone: BTreeSet<String> = t.sides[0].promotions[0].zone.iter().map(|&c| t.cells[c as usize].clone()).collect();
    assert_eq!(zone, set("a9 b9 c9 d9 e9 f9 g9 h9 a1"));
    // There stepping forward is only possible in one direction: from e8 a pawn steps to e9 and d8;
    // on e9 (were it not promoted) forward would be d9 only.
    let moves = legal(&game, "turn=white white=Ki1,Pe8 black=Ka9");
    assert!(moves.contains("Pe8-e9=C") && moves.contains("Pe8-d8"));
    let e9 = cell(t, "e9");
    assert_eq!(common::variant(V2).sides[0].forward(e9).len(), 1);
}

/// Castling "as usual; either rook may be castled with, the king moving two spaces in either case".
#[test]
fn v2_castling_with_either_rook() {
    let game = common::game_medium(V2);
    assert!(legal(&game, "turn=white white=Ki1,Rf1,Re1 black=Ka9 virgin=i1,f1,e1").contains("O-O"));
    let far = legal(&game, "turn=white white=Ki1,Re1 black=Ka9 virgin=i1,e1");
    assert!(far.contains("O-O-O"));
    let engine = common::engine(V2);
    let after = engine.play(Some("turn=white white=Ki1,Re1 black=Ka9 virgin=i1,e1"), &["O-O-O"]).unwrap();
    assert_eq!(after, "k8/9/9/9/9/9/9/9/6KR1 b - - 1 1");
}

/// The reconstructed Variant 2 array meets what the page states (seed-facts 2.C): the army, kings on
/// the poles, pawns on the king's line and behind the front diagonal, the camels next to each other
/// on opposite colours, one of them able to move at once and then threatening only defended pawns.
#[test]
fn v2_setup_constraints() {
    let game = common::game_medium(V2);
    let t = &game.tables;
    let at = |side: usize, sym: char| -> Vec<String> {
        let k = t.kinds.iter().position(|k| k.symbol == sym).unwrap();
        t.sides[side].setup.iter().filter(|s| s.1 as usize == k).map(|s| t.cells[s.0 as usize].clone()).collect()
    };
    let v = common::variant(V2);
    for (side, king) in [(0, "i1"), (1, "a9")] {
        let counts: Vec<usize> = "KQRBNCP".chars().map(|s| at(side, s).len()).collect();
        assert_eq!(counts, [1, 1, 2, 2, 3, 2, 10]);
        assert_eq!(at(side, 'K'), [king]);
        // The camels stand next to each other (one orthogonal step), on opposite colours.
        let camels = at(side, 'C');
        assert!(destinations(t, "King", &camels[0]).contains(&camels[1]));
        assert!(COMPASS.iter().filter(|h| h.0.len() == 1).any(|h| walk(t, cell(t, &camels[0]), heading(t, h.0), 1)[0].0 == cell(t, &camels[1])));
        assert_ne!(parity(&camels[0]), parity(&camels[1]));
        // The bishops on opposite colours.
        let bishops = at(side, 'B');
        assert_ne!(parity(&bishops[0]), parity(&bishops[1]));
        // Pawns on the king's orthogonal line (with three moves there), and pawns behind the front.
        let line: Vec<String> = t.sides[1 - side].promotions[0].zone.iter().map(|&c| t.cells[c as usize].clone()).collect();
        let aligned: Vec<String> = at(side, 'P').into_iter().filter(|c| line.contains(c)).collect();
        assert_eq!(aligned.len(), 1, "a pawn on the king's line");
        assert_eq!(v.sides[side].forward(cell(t, &aligned[0])).len(), 3);
        let rear: Vec<CellName> = at(side, 'P').into_iter().filter(|c| {
            let r = cell(t, c);
            v.pieces[kind_of(t, 'P')].rules.iter().any(|rule| rule.initial && rule.origins.as_ref().is_some_and(|o| o[side].contains(&r)))
        }).collect();
        assert_eq!(rear.len(), 4, "pawns behind the front diagonal");
    }
    // Black's array is White's mirrored in the a1-i9 diagonal.
    for sym in "KQRBNCP".chars() {
        let mirrored: BTreeSet<String> = at(0, sym).iter().map(|c| own(t, &name(xy(c).1, xy(c).0))).collect();
        assert_eq!(mirrored, at(1, sym).into_iter().collect(), "{sym}");
    }
    // "one can move immediately if desired"; "only pawns, defended ..., are at any risk from them".
    let engine = common::engine(V2);
    let start = engine.moves(None).unwrap();
    let camel_moves: Vec<String> = start.iter().map(|m| m.notation.clone()).filter(|m| m.starts_with('C')).collect();
    let movers: BTreeSet<&str> = camel_moves.iter().map(|m| &m[1..3]).collect();
    assert_eq!(movers.len(), 1, "{camel_moves:?}");
    for m in &camel_moves {
        let after = engine.play(None, &[m.as_str()]).unwrap();
        // The camel's captures if White moved again.
        let again = after.replacen(" b ", " w ", 1);
        let to = m.split('-').nth(1).unwrap();
        for cap in engine.moves(Some(&again)).unwrap().into_iter().map(|c| c.notation).filter(|c| c.starts_with(&format!("C{to}x"))) {
            let target = cap.split('x').nth(1).unwrap().to_string();
            let general = engine.general_text(Some(&again)).unwrap();
            let black = general.split_whitespace().find(|w| w.starts_with("black=")).unwrap();
            assert!(black[6..].split(',').any(|p| p == format!("P{target}")), "{m} then {cap}: not a pawn");
            // Defended: Black can take back.
            let taken = engine.play(Some(&again), &[cap.as_str()]).unwrap();
            let replies = engine.moves(Some(&taken)).unwrap();
            assert!(replies.iter().any(|r| r.notation.ends_with(&format!("x{target}"))), "{m} then {cap}");
        }
    }
    // A legal, quiet start: no captures for White.
    assert!(!start.iter().any(|m| m.notation.contains('x')));
}

/// Merged squares are read under both names and written under their own: the general notation,
/// FEN (a piece may stand at either grid position, not both), moves and diagnostics.
#[test]
fn merged_squares_both_names_one_in_output() {
    let game = common::game_medium(V2);
    // The general notation.
    let pos = Position::parse(&game, "turn=white white=Ki1,Ri5,Na2 black=Ka9").unwrap();
    let text = pos.to_general(&game);
    assert!(text.contains("Re1") && text.contains("Nh9") && !text.contains("i5"), "{text}");
    // FEN: the rook written on i5 (rank 5, file i) is read as e1 and written there.
    let fen = "k8/9/9/9/8R/9/9/9/8K w - - 0 1";
    let pos = Position::parse(&game, fen).unwrap();
    assert_eq!(pos.to_fen(&game).unwrap(), "k8/9/9/9/9/9/9/9/4R3K w - - 0 1");
    // Both positions of one cell given: an error naming the cell and its names.
    let err = Position::parse(&game, "k8/9/9/9/8R/9/9/9/4R3K w - - 0 1").unwrap_err().to_string();
    assert!(err.contains("two pieces on e1") && err.contains("i5"), "{err}");
    // Moves: either name of either square; the notation uses the cells' own names.
    let mut pos = Position::parse(&game, "turn=white white=Ki1,Re1 black=Ka9").unwrap();
    for text in ["Ri5-i7", "Re1-c1", "i5c1", "Ri5-c1"] {
        let mv = pos.parse_move(&game, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.notation(&game, mv), "Re1-c1");
    }
    // Diagnostics name the cell by its own name.
    let path = "examples/corner/merged-diagnostic.orbis";
    let source = "variant \"x\"\ninclude \"lib/variant2.orbis\"\nside white { setup { N i2 } }\n";
    let checked = orbis_compiler::check(path, source);
    let text = checked.render(false);
    assert!(text.contains("two pieces on `h1`") && text.contains("written `i2`"), "{text}");
}

/// The berolina subvariant: moves on the away diagonal, captures on the away orthogonals.
#[test]
fn v2_berolina_pawns() {
    let game = common::game_medium(V2_BEROLINA);
    let moves = legal(&game, "turn=white white=Ki1,Pe4 black=Ka9,Nd4,Ne5,Nd5");
    let pawn: BTreeSet<&str> = moves.iter().filter(|m| m.starts_with('P')).map(String::as_str).collect();
    assert_eq!(pawn, ["Pe4xd4", "Pe4xe5"].into_iter().collect());
    let moves = legal(&game, "turn=white white=Ki1,Pe4 black=Ka9");
    assert!(moves.contains("Pe4-d5"));
    // On the king's line: two moves, three captures.
    let moves = legal(&game, "turn=white white=Ki1,Pf1 black=Ka9,Ne1,Nf2,Nh4");
    let pawn: BTreeSet<&str> = moves.iter().filter(|m| m.starts_with('P')).map(String::as_str).collect();
    assert_eq!(pawn, ["Pf1-e2", "Pf1-h5", "Pf1xe1", "Pf1xf2", "Pf1xh4"].into_iter().collect());
}

/// `orbis check` is clean on every file of the family: no errors and no warnings.
#[test]
fn every_file_checks_clean() {
    for path in [V1, V1_UNI, V2, V2_BEROLINA, MIDDLE_8X8] {
        let source = std::fs::read_to_string(common::root().join(path)).unwrap();
        let checked = orbis_compiler::check(path, &source);
        assert!(checked.diagnostics.is_empty(), "{path}:\n{}", checked.render(false));
        assert!(checked.variant.is_some());
    }
}

/// perft(1..4) from the start of both variants, as snapshots.
#[test]
fn start_perft_snapshots() {
    for path in [V1, V2] {
        let engine = common::engine(path);
        let counts: Vec<String> = (1..=4).map(|d| format!("perft({d}) = {}", engine.perft(None, d).unwrap())).collect();
        let name = path.trim_start_matches("examples/").trim_end_matches(".orbis").replace('/', "-");
        insta::with_settings!({ snapshot_path => "../../snapshots", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(format!("perft-start-{name}"), counts.join("\n"));
        });
    }
}

// ------------------------------------------------------------------------------------- helpers

type CellName = String;

fn kind_of(t: &Tables, sym: char) -> usize {
    t.kinds.iter().position(|k| k.symbol == sym).unwrap()
}

/// Grid coordinates of a cell name (file letter, rank number), 0-based.
fn xy(name: &str) -> (i32, i32) {
    ((name.as_bytes()[0] - b'a') as i32, name[1..].parse::<i32>().unwrap() - 1)
}

fn name(x: i32, y: i32) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

fn parity(name: &str) -> i32 {
    let (x, y) = xy(name);
    (x + y) % 2
}

/// Every cell `piece` reaches from `start` in any number of moves on the empty board.
fn closure(t: &Tables, piece: &str, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::from([start.to_string()]);
    let mut queue = VecDeque::from([start.to_string()]);
    while let Some(c) = queue.pop_front() {
        for d in destinations(t, piece, &c) {
            if seen.insert(d.clone()) {
                queue.push_back(d);
            }
        }
    }
    seen
}

/// The start position in FEN.
fn game_start<B: orbis_runtime::CellSet>(game: &Game<B>) -> String {
    Position::start(game).to_text(game)
}

/// Whether a pawn move goes two steps (its from and to are not neighbours).
fn is_double(t: &Tables, m: &str) -> bool {
    let body = m.trim_start_matches('P');
    let (from, to) = body.split_once(['-', 'x']).unwrap();
    let to = to.split('=').next().unwrap();
    !destinations(t, "King", from).contains(to)
}

/// The legal moves after playing `moves` from the start.
fn engine_after(path: &str, moves: &[&str]) -> Vec<String> {
    let engine = common::engine(path);
    let text = engine.play(None, moves).unwrap();
    engine.moves(Some(&text)).unwrap().into_iter().map(|m| m.notation).collect()
}
