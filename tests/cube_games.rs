//! Cube-Surface Chess (examples/cube/): the games cross-checked against an independent reference
//! (tests/common/cube_reference.rs) that walks the cube's lattice directly, with its own start
//! positions built from the page's setup (not read from the files): the lattice facts of
//! ../shared/seed-facts.md 3.B, the three knight definitions, perft and legal moves in
//! positions reached by fixed pseudo-random playouts; and the four-player game (its pawn
//! directions, perft, playouts, eliminations and en passant among four).

mod common;

use common::cube_four::{FourGame, Pos4, SIDES4};
use common::cube_game::{Game, Kind, Move, Pos, Reference};
use common::cube_game::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, SIDES, SYMBOLS};
use common::cube_reference::{Cube, KnightDef, P};
use orbis_runtime::tables::ray;
use orbis_runtime::{Engine, MoveInfo, Tables};
use std::collections::{BTreeMap, BTreeSet};

const EIGHT: &str = "examples/cube/cube-8x8.orbis";
const EIGHT_UNION: &str = "examples/cube/cube-8x8-knight-union.orbis";
const EIGHT_VERTEX: &str = "examples/cube/cube-8x8-knight-through-vertex.orbis";
const FIVE: &str = "examples/cube/cube-5x5.orbis";

fn parity(p: P) -> i32 {
    (p[0] + p[1] + p[2]).rem_euclid(2)
}

// ---------------------------------------------------------------------------------------------
// The lattice (seed-facts 3.A, 3.B), on the reference.

#[test]
fn cells_and_king_neighbours() {
    for (n, cells) in [(8, 296), (5, 98)] {
        let cube = Cube::new(n);
        assert_eq!(cube.cells.len(), cells);
        let m = n - 1;
        assert_eq!(cube.cells.len() as i32, 6 * (n - 2) * (n - 2) + 12 * (n - 2) + 8);
        for &p in &cube.cells {
            let (orth, diag) = (cube.orth_neighbours(p), cube.diag_neighbours(p));
            let expect = if cube.is_vertex(p) { 3 } else { 4 };
            assert_eq!((orth.len(), diag.len()), (expect, expect), "{p:?}");
            // An edge square is one square, of one colour: orthogonal neighbours have the other
            // colour, diagonal ones the same.
            assert!(orth.iter().all(|&q| parity(q) != parity(p)), "{p:?}");
            assert!(diag.iter().all(|&q| parity(q) == parity(p)), "{p:?}");
            // The first cells of the lines are the neighbours.
            let firsts = |diagonal: bool| -> BTreeSet<P> { cube.starts(p, diagonal).into_iter().filter_map(|s| cube.step(s)).map(|s| s.p).collect() };
            assert_eq!(firsts(false), orth.iter().copied().collect(), "{p:?}");
            assert_eq!(firsts(true), diag.iter().copied().collect(), "{p:?}");
        }
        let edge_squares = cube.cells.iter().filter(|&&p| cube.boundary(p) == 2).count();
        assert_eq!(edge_squares as i32, 12 * (n - 2));
        assert_eq!(cube.king_neighbours([0, 0, 0]).len(), 6);
        assert_eq!(cube.king_neighbours([0, 0, 2]).len(), 8);
        assert_eq!(cube.king_neighbours([m, 2, m]).len(), 8);
    }
}

#[test]
fn bishops_keep_their_colour_and_reach_every_square_of_it() {
    for n in [8, 5] {
        let cube = Cube::new(n);
        let mut reached = BTreeSet::new();
        for &p in &cube.cells {
            for line in cube.lines(p, false, true) {
                for &q in &line {
                    assert_eq!(parity(q), parity(p), "bishop from {p:?}: {line:?}");
                    reached.insert(q);
                }
                // A bishop line ends on a vertex or comes back round to its start.
                let last = *line.last().expect("a cell");
                let back = cube.diag_neighbours(p).contains(&last);
                assert!(cube.is_vertex(last) || back, "{p:?}: {line:?}");
                assert!(line[..line.len() - 1].iter().all(|&q| !cube.is_vertex(q)), "{p:?}: {line:?}");
            }
        }
        assert_eq!(reached.len(), cube.cells.len());
    }
}

#[test]
fn rook_lines_through_faces_are_loops_and_edge_lines_end_on_vertices() {
    let cube = Cube::new(8);
    for &p in &cube.cells {
        for line in cube.lines(p, true, false) {
            if cube.boundary(p) == 1 {
                assert_eq!(line.len(), 27, "{p:?}: {line:?}");
            }
            if line.len() != 27 {
                assert!(cube.is_vertex(*line.last().unwrap()), "{p:?}: {line:?}");
            }
        }
    }
    assert_eq!(cube.lines([0, 7, 7], true, false).iter().map(Vec::len).collect::<Vec<_>>(), [7, 7, 7]);
}

#[test]
fn a_diagonal_next_to_a_vertex_bends_round_it() {
    let cube = Cube::new(8);
    let lines = cube.lines([5, 4, 7], false, true);
    let line = lines.iter().find(|l| l[0] == [6, 5, 7]).expect("the line");
    assert_eq!(&line[..4], &[[6, 5, 7], [7, 6, 7], [7, 7, 6], [6, 7, 5]]);
}

#[test]
fn a_queen_switches_between_diagonal_and_edge_line_at_a_vertex() {
    let cube = Cube::new(8);
    let from = |p: P, first: P| -> Vec<P> { cube.lines(p, true, true).into_iter().find(|l| l[0] == first).expect("a line") };
    let line = from([4, 4, 7], [5, 5, 7]);
    assert_eq!(&line[..6], &[[5, 5, 7], [6, 6, 7], [7, 7, 7], [7, 7, 6], [7, 7, 5], [7, 7, 4]]);
    let line = from([7, 7, 4], [7, 7, 5]);
    assert_eq!(&line[..5], &[[7, 7, 5], [7, 7, 6], [7, 7, 7], [6, 6, 7], [5, 5, 7]]);
    // Rooks and bishops stop on the vertex.
    assert_eq!(cube.lines([4, 4, 7], false, true).into_iter().find(|l| l[0] == [5, 5, 7]).unwrap(), [[5, 5, 7], [6, 6, 7], [7, 7, 7]]);
    assert_eq!(cube.lines([7, 7, 4], true, false).into_iter().find(|l| l[0] == [7, 7, 5]).unwrap(), [[7, 7, 5], [7, 7, 6], [7, 7, 7]]);
    // Every queen line through every vertex: arriving diagonally it leaves along an edge, and
    // the reverse.
    for n in [8, 5] {
        let cube = Cube::new(n);
        let mut passes = 0;
        for &p in &cube.cells {
            for line in cube.lines(p, true, true) {
                let cells: Vec<P> = std::iter::once(p).chain(line.iter().copied()).collect();
                for i in 1..cells.len() - 1 {
                    let v = cells[i];
                    if cube.is_vertex(v) {
                        let (before, after) = (cells[i - 1], cells[i + 1]);
                        let diag_in = cube.diag_neighbours(v).contains(&before);
                        assert_ne!(diag_in, cube.diag_neighbours(v).contains(&after), "{p:?}: {cells:?}");
                        assert_eq!(diag_in, cube.orth_neighbours(v).contains(&after), "{p:?}: {cells:?}");
                        // The diagonal's face is the one perpendicular to the edge.
                        let (d, e) = if diag_in { (before, after) } else { (after, before) };
                        let k = (0..3).find(|&k| e[k] != v[k]).expect("the edge's axis");
                        assert_eq!(d[k], v[k], "{p:?}: {cells:?}");
                        passes += 1;
                    }
                }
            }
        }
        assert!(passes > 0);
    }
}

// ---------------------------------------------------------------------------------------------
// The knight.

#[test]
fn knight_definitions_agree_except_near_vertices() {
    for n in [8, 5] {
        let cube = Cube::new(n);
        let mut differ = BTreeSet::new();
        let mut near = 0;
        for &p in &cube.cells {
            let od = cube.knight(p, KnightDef::OrthDiag);
            let un = cube.knight(p, KnightDef::Union);
            let tv = cube.knight(p, KnightDef::OrthDiagThroughVertex);
            let dist = cube.vertex_distance(p);
            if dist > 2 {
                assert_eq!(od, un, "{p:?}");
                assert_eq!(od, tv, "{p:?}");
                assert_eq!(od.len(), 8, "{p:?}");
                // Away from vertices every decomposition gives the same 8 cells.
                let [a, b, c] = cube.knight_parts(p);
                assert_eq!((&a, &b), (&c, &od), "{p:?}");
            } else {
                near += 1;
            }
            if od != un {
                differ.insert(p);
            }
            // No destination is a neighbour or the start.
            assert!(!od.contains(&p) && od.iter().all(|q| !cube.king_neighbours(p).contains(q)), "{p:?}: {od:?}");
            assert!(od.is_subset(&un), "{p:?}");
            assert!(od.is_subset(&tv), "{p:?}");
        }
        // Where the three decompositions (2+1, 1+diagonal, diagonal+1) do not all agree.
        let mut decompositions = BTreeSet::new();
        for &p in &cube.cells {
            let [a, b, c] = cube.knight_parts(p);
            if !(cube.is_vertex(p) || a == b && b == c) {
                decompositions.insert(p);
            }
        }
        let count = |s: &BTreeSet<P>, b: usize| s.iter().filter(|&&p| cube.boundary(p) == b).count();
        eprintln!(
            "{n}x{n}: OrthDiag and Union differ on {} cells ({} edge, {} face, {} vertex); the decompositions disagree on {} ({} edge, {} face); {near} cells within 2 steps of a vertex",
            differ.len(),
            count(&differ, 2),
            count(&differ, 1),
            count(&differ, 3),
            decompositions.len(),
            count(&decompositions, 2),
            count(&decompositions, 1),
        );
        // OrthDiag and Union differ only on the edge squares next to a vertex: the union adds
        // the diagonal step onto the next edge square and the orthogonal step round the vertex
        // (from (0,0,1) by (1,0,0) to (1,1,0)).
        assert_eq!((differ.len(), count(&differ, 2)), (24, 24));
        assert!(differ.iter().all(|&p| cube.vertex_distance(p) == 1));
        let extra: Vec<P> = cube.knight([0, 0, 1], KnightDef::Union).difference(&cube.knight([0, 0, 1], KnightDef::OrthDiag)).copied().collect();
        assert_eq!(extra, [[1, 1, 0]]);
        // seed-facts 3.A: the decompositions disagree on 72 cells, the 48 edge squares within two
        // steps of a vertex and the 24 face squares diagonally next to one.
        for &p in &decompositions {
            let dist = cube.vertex_distance(p);
            assert!(dist <= 2, "{p:?}");
            if cube.boundary(p) == 1 {
                assert_eq!(dist, 1, "{p:?}");
            }
        }
        if n == 8 {
            assert_eq!((decompositions.len(), count(&decompositions, 2), count(&decompositions, 1)), (72, 48, 24));
        }
    }
}

#[test]
fn knight_examples() {
    let cube = Cube::new(8);
    // seed-facts 3.A: from the edge square (0,0,2), one orthogonal and one diagonal outward
    // reaches (0,1,0) and (1,0,0); two straight and one would pass through the vertex.
    let od = cube.knight([0, 0, 2], KnightDef::OrthDiag);
    assert!(od.contains(&[0, 1, 0]) && od.contains(&[1, 0, 0]), "{od:?}");
    // Through the vertex from (0,0,1): the vertex's other two edge cells.
    let tv = cube.knight([0, 0, 1], KnightDef::OrthDiagThroughVertex);
    let od = cube.knight([0, 0, 1], KnightDef::OrthDiag);
    assert_eq!(tv.difference(&od).copied().collect::<Vec<_>>(), [[0, 1, 0], [1, 0, 0]]);
    // A knight on a face square in the middle.
    assert_eq!(cube.knight([3, 3, 7], KnightDef::OrthDiag), [[1, 2, 7], [1, 4, 7], [2, 1, 7], [2, 5, 7], [4, 1, 7], [4, 5, 7], [5, 2, 7], [5, 4, 7]].into_iter().collect());
    // Across an edge: from (3,6,7) two cells up leave board 1 onto board 4.
    let n = cube.knight([3, 6, 7], KnightDef::OrthDiag);
    assert!(n.contains(&[2, 7, 6]) && n.contains(&[4, 7, 6]), "{n:?}");
}

// ---------------------------------------------------------------------------------------------
// Against the engine.

fn key(m: &MoveInfo) -> String {
    match m.promotion {
        Some(p) => format!("{}-{}={p}", m.from, m.to),
        None => format!("{}-{}", m.from, m.to),
    }
}

fn engine_moves(engine: &Engine, text: &str) -> BTreeSet<String> {
    engine.moves(Some(text)).unwrap_or_else(|e| panic!("{text}: {e}")).iter().map(key).collect()
}

fn reference_moves<G: Reference>(g: &G, pos: &G::Pos) -> BTreeSet<String> {
    g.legal_moves(pos).into_iter().map(|mv| g.key(mv)).collect()
}

fn set_diff(engine: &BTreeSet<String>, reference: &BTreeSet<String>) -> String {
    format!(
        "engine only: {:?}\nreference only: {:?}",
        engine.difference(reference).collect::<Vec<_>>(),
        reference.difference(engine).collect::<Vec<_>>()
    )
}

/// Follows a perft mismatch down to a position whose legal moves differ, and panics describing it.
fn locate<G: Reference>(path: &str, engine: &Engine, g: &G, pos: &G::Pos, depth: usize, line: Vec<String>) -> ! {
    let text = g.general(pos);
    if depth == 1 {
        let (e, r) = (engine_moves(engine, &text), reference_moves(g, pos));
        panic!("{path}: after {line:?}\nposition {text}\n{}", set_diff(&e, &r));
    }
    let e: BTreeMap<String, u64> = engine.divide(Some(&text), depth).unwrap().into_iter().map(|(m, n)| (key(&m), n)).collect();
    let r = g.divide(pos, depth);
    let mut report = String::new();
    for k in e.keys().chain(r.keys()).collect::<BTreeSet<_>>() {
        if e.get(k) != r.get(k) {
            report += &format!("  {k}: engine {:?}, reference {:?}\n", e.get(k), r.get(k));
        }
    }
    eprintln!("{path}: divide({depth}) after {line:?} differs:\n{report}");
    let ek: BTreeSet<String> = e.keys().cloned().collect();
    let rk: BTreeSet<String> = r.keys().cloned().collect();
    if ek != rk {
        panic!("{path}: after {line:?}\nposition {text}\n{}", set_diff(&ek, &rk));
    }
    let k = e.keys().find(|k| e[*k] != r[*k]).expect("a differing move").clone();
    let mv = g.legal_moves(pos).into_iter().find(|&mv| g.key(mv) == k).expect("the move");
    let mut line = line;
    line.push(k);
    locate(path, engine, g, &g.make(pos, mv), depth - 1, line)
}

fn check_perft<G: Reference>(path: &str, engine: &Engine, g: &G, pos: &G::Pos, depth: usize) -> u64 {
    let text = g.general(pos);
    let r = g.perft(pos, depth);
    let e = engine.perft(Some(&text), depth).unwrap_or_else(|e| panic!("{path}: {text}: {e}"));
    if e != r {
        eprintln!("{path}: perft({depth}) engine {e}, reference {r}\nposition {text}");
        locate(path, engine, g, pos, depth, vec![]);
    }
    r
}

/// The pieces of a position in the general notation, per side.
fn pieces_of<G: Reference>(general: &str) -> Vec<BTreeSet<String>> {
    let field = |name: &str| -> BTreeSet<String> {
        general
            .split_whitespace()
            .find_map(|t| t.strip_prefix(&format!("{name}=")))
            .map(|v| v.split(',').filter(|s| !s.is_empty()).map(String::from).collect())
            .unwrap_or_default()
    };
    G::SIDES.iter().map(|s| field(s)).collect()
}

fn require(path: &str) {
    assert!(common::exists(path), "{path} is not written yet");
}

/// The engine's start position is the reference's, and perft 1..=3 from it agree.
fn perft_test(path: &str, g: &Game, expect: [u64; 3]) {
    require(path);
    let engine = common::engine(path);
    let start = g.start();
    let theirs = engine.general_text(None).unwrap();
    assert_eq!(pieces_of::<Game>(&theirs), g.pieces(&start), "{path}: the start position\n{theirs}\n{}", g.general(&start));
    let mut got = Vec::new();
    for depth in 1..=3 {
        let t = std::time::Instant::now();
        let n = check_perft(path, &engine, g, &start, depth);
        eprintln!("{path}: reference perft({depth}) = {n} in {:.2?}", t.elapsed());
        assert_eq!(engine.perft(None, depth).unwrap(), n, "{path}: perft({depth}) from the file's own start position");
        got.push(n);
    }
    assert_eq!(got, expect, "{path}: reference perft 1..=3");
}

/// Fixed pseudo-random playouts of the reference; at every ply the legal moves agree. Moves that
/// castle, promote or take en passant are preferred, then pawn moves and captures.
fn playout_test(path: &str, g: &Game, seeds: std::ops::RangeInclusive<u64>, plies: usize) -> [usize; 4] {
    require(path);
    let engine = common::engine(path);
    let mut special = [0usize; 4]; // castles, en passant, promotions, double steps
    for seed in seeds {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut rand = move |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let mut pos = g.start();
        let mut line: Vec<String> = Vec::new();
        for _ in 0..plies {
            let text = g.general(&pos);
            let moves = g.legal_moves(&pos);
            let (e, r) = (engine_moves(&engine, &text), moves.iter().map(|&mv| g.key(mv)).collect::<BTreeSet<_>>());
            assert_eq!(e, r, "{path} seed {seed} after {line:?}\nposition {text}\n{}", set_diff(&e, &r));
            if moves.is_empty() {
                break;
            }
            let mv = pick(&moves, &pos.board, &mut rand, Favour::Pawns);
            match mv.kind {
                Kind::Castle(..) => special[0] += 1,
                Kind::EnPassant(_) => special[1] += 1,
                Kind::Double(_) => special[3] += 1,
                Kind::Normal => {}
            }
            if mv.promotion.is_some() {
                special[2] += 1;
            }
            line.push(g.key(mv));
            pos = g.make(&pos, mv);
        }
        check_perft(path, &engine, g, &pos, 2);
    }
    eprintln!("{path}: played castles, en passant, promotions, double steps: {special:?}");
    special
}

/// What a playout tries after castling, en passant and promotions (each tried half the time).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Favour {
    /// Pawn moves (a third of the time), then captures (half).
    Pawns,
    /// Captures (half the time), then pawn moves (half).
    Captures,
}

/// A playout's next move, biased toward the moves that exercise the rules.
fn pick(moves: &[Move], board: &[Option<(u8, u8)>], rand: &mut impl FnMut(usize) -> usize, favour: Favour) -> Move {
    let preferred: Vec<_> = moves.iter().copied().filter(|mv| matches!(mv.kind, Kind::Castle(..) | Kind::EnPassant(_)) || mv.promotion.is_some()).collect();
    let captures: Vec<_> = moves.iter().copied().filter(|mv| board[mv.to].is_some()).collect();
    let pawns: Vec<_> = moves.iter().copied().filter(|mv| matches!(board[mv.from], Some((_, PAWN)))).collect();
    let (first, first_odds, second) = match favour {
        Favour::Pawns => (&pawns, 3, &captures),
        Favour::Captures => (&captures, 2, &pawns),
    };
    if !preferred.is_empty() && rand(2) == 0 {
        preferred[rand(preferred.len())]
    } else if !first.is_empty() && rand(first_odds) == 0 {
        first[rand(first.len())]
    } else if !second.is_empty() && rand(2) == 0 {
        second[rand(second.len())]
    } else {
        moves[rand(moves.len())]
    }
}

// The riders on the 8x8 cube in tests/polygon/cube-riders.orbis (its knight is the through-vertex
// one): no pawns or castling, so the lines and knights alone; and on the 5x5.
#[test]
fn riders_agree_with_the_engine() {
    let path = "tests/polygon/cube-riders.orbis";
    let g = Game::eight(KnightDef::OrthDiagThroughVertex);
    let engine = common::engine(path);
    let pos = g.position(0, "Kx4y7z7,Qx6y6z7,Rx7y7z7,Bx5y7z6,Nx1y7z7", "Kx3y0z0,Qx1y1z0,Rx0y0z0,Bx2y0z1,Nx6y0z0");
    assert_eq!(pieces_of::<Game>(&engine.general_text(None).unwrap()), g.pieces(&pos));
    for depth in 1..=3 {
        check_perft(path, &engine, &g, &pos, depth);
    }
    // The 5x5 cube's riders (tests/polygon/cube-5x5-riders.orbis, no knights).
    let path = "tests/polygon/cube-5x5-riders.orbis";
    let g = Game::five();
    let engine = common::engine(path);
    let pos = g.position(0, "Kx2y4z4,Qx3y3z4,Rx4y4z4,Bx1y4z3", "Kx2y0z0,Qx1y1z0,Rx0y0z0,Bx3y0z1");
    assert_eq!(pieces_of::<Game>(&engine.general_text(None).unwrap()), g.pieces(&pos));
    for depth in 1..=3 {
        check_perft(path, &engine, &g, &pos, depth);
    }
}

#[test]
fn perft_8x8() {
    perft_test(EIGHT, &Game::eight(KnightDef::OrthDiag), [48, 2304, 122540]);
}

#[test]
fn perft_8x8_knight_union() {
    perft_test(EIGHT_UNION, &Game::eight(KnightDef::Union), [48, 2304, 122924]);
}

#[test]
fn perft_8x8_knight_through_vertex() {
    perft_test(EIGHT_VERTEX, &Game::eight(KnightDef::OrthDiagThroughVertex), [48, 2304, 122924]);
}

#[test]
fn perft_5x5() {
    perft_test(FIVE, &Game::five(), [37, 1353, 52762]);
}

/// Middlegame positions (40 plies) and longer games (160 plies). (Random games seldom promote or
/// take en passant: see `special_positions_*`.)
fn playouts(path: &str, g: &Game, seeds: u64) {
    let short = playout_test(path, g, 1..=seeds, 40);
    let long = playout_test(path, g, 101..=100 + seeds / 2, 160);
    let total: Vec<usize> = (0..4).map(|i| short[i] + long[i]).collect();
    assert!(total[3] > 0, "{path}: no double step played");
    if !g.five {
        assert!(total[0] > 0, "{path}: no castling played");
    }
}

#[test]
fn playouts_8x8() {
    playouts(EIGHT, &Game::eight(KnightDef::OrthDiag), 8);
}

#[test]
fn playouts_8x8_knight_union() {
    playouts(EIGHT_UNION, &Game::eight(KnightDef::Union), 4);
}

#[test]
fn playouts_8x8_knight_through_vertex() {
    playouts(EIGHT_VERTEX, &Game::eight(KnightDef::OrthDiagThroughVertex), 4);
}

#[test]
fn playouts_5x5() {
    playouts(FIVE, &Game::five(), 8);
}

/// Perft 4 from the start, the engine against the reference (about 4 s each for the reference on
/// the 8x8 cube at opt-level 2, 1 s on the 5x5).
fn perft4(path: &str, g: &Game, expect: u64) {
    require(path);
    let engine = common::engine(path);
    let t = std::time::Instant::now();
    let n = check_perft(path, &engine, g, &g.start(), 4);
    eprintln!("{path}: reference perft(4) = {n} in {:.2?}", t.elapsed());
    assert_eq!(n, expect);
}

#[test]
fn perft4_8x8() {
    perft4(EIGHT, &Game::eight(KnightDef::OrthDiag), 6490182);
}

#[test]
fn perft4_8x8_knight_union() {
    perft4(EIGHT_UNION, &Game::eight(KnightDef::Union), 6531014);
}

#[test]
fn perft4_8x8_knight_through_vertex() {
    perft4(EIGHT_VERTEX, &Game::eight(KnightDef::OrthDiagThroughVertex), 6531014);
}

#[test]
fn perft4_5x5() {
    perft4(FIVE, &Game::five(), 2035961);
}

#[test]
#[ignore = "slow: the reference's perft 5 on the 8x8 cube took 289 s at opt-level 2 (engine and reference agree)"]
fn perft5_8x8() {
    let g = Game::eight(KnightDef::OrthDiag);
    require(EIGHT);
    let engine = common::engine(EIGHT);
    let t = std::time::Instant::now();
    let n = check_perft(EIGHT, &engine, &g, &g.start(), 5);
    eprintln!("{EIGHT}: reference perft(5) = {n} in {:.2?}", t.elapsed());
}

/// The reference's own perft from the page's start positions (independent of the files).
#[test]
fn reference_perft() {
    for (name, g, expect) in [
        ("8x8", Game::eight(KnightDef::OrthDiag), [48, 2304, 122540]),
        ("8x8 union", Game::eight(KnightDef::Union), [48, 2304, 122924]),
        ("8x8 through vertex", Game::eight(KnightDef::OrthDiagThroughVertex), [48, 2304, 122924]),
        ("5x5", Game::five(), [37, 1353, 52762]),
    ] {
        let start = g.start();
        let mut got = Vec::new();
        for depth in 1..=3 {
            let t = std::time::Instant::now();
            let n = g.perft(&start, depth);
            eprintln!("{name}: perft({depth}) = {n} in {:.2?}", t.elapsed());
            got.push(n);
        }
        assert_eq!(got, expect, "{name}");
    }
}


/// The engine's rays for a side's piece on `cell`, as cell-name lists, with their flags.
fn engine_rays(t: &Tables, side: usize, kind: usize, cell: usize) -> Vec<(Vec<String>, u8)> {
    let i = (side * t.kinds.len() + kind) * t.cells.len() + cell;
    t.rays_at(i)
        .iter()
        .map(|r| (t.pool[r.cells.0 as usize..r.cells.1 as usize].iter().map(|&c| t.cells[c as usize].clone()).collect(), r.flags))
        .collect()
}

/// Every piece's moves from every cell on an empty board, the engine's rays against the
/// reference's lines, leaps and pawn steps (pawns on the cells they can reach, both sides).
#[allow(clippy::needless_range_loop)] // `side` indexes several tables and names the side
fn destinations_test(path: &str, g: &Game) {
    require(path);
    let t = common::tables(path);
    assert!(t.transit.is_empty());
    let cube = &g.cube;
    assert_eq!(t.cells.len(), cube.cells.len());
    let names = |cells: &[usize]| -> Vec<String> { cells.iter().map(|&c| cube.name(c)).collect() };
    let kind_of = |k: u8| t.kinds.iter().position(|i| i.symbol == SYMBOLS[k as usize]).unwrap_or_else(|| panic!("{path}: no {}", SYMBOLS[k as usize]));
    for c in 0..cube.cells.len() {
        let cell = common::cell(&t, &cube.name(c));
        for k in [QUEEN, ROOK, BISHOP] {
            let ours: BTreeSet<Vec<String>> = g.rider_lines(k, c).iter().map(|l| names(l)).collect();
            let theirs: BTreeSet<Vec<String>> = engine_rays(&t, 0, kind_of(k), cell).into_iter().map(|(l, _)| l).collect();
            assert_eq!(theirs, ours, "{path}: {} lines from {}", SYMBOLS[k as usize], cube.name(c));
        }
        for k in [KING, KNIGHT] {
            let ours: BTreeSet<String> = names(g.leaps(k, c)).into_iter().collect();
            let theirs: BTreeSet<String> = engine_rays(&t, 0, kind_of(k), cell).into_iter().flat_map(|(l, _)| l).collect();
            assert_eq!(theirs, ours, "{path}: {} from {}", SYMBOLS[k as usize], cube.name(c));
        }
    }
    let start = g.start();
    for side in 0..2 {
        let cells = g.pawn_cells(side);
        for &c in &cells {
            let cell = common::cell(&t, &cube.name(c));
            let rays = engine_rays(&t, side, kind_of(PAWN), cell);
            let pick = |f: &dyn Fn(u8) -> bool, last: bool| -> BTreeSet<String> {
                rays.iter().filter(|(_, fl)| f(*fl)).flat_map(|(l, _)| if last { l[l.len() - 1..].to_vec() } else { l.clone() }).collect()
            };
            let theirs = [
                pick(&|f| f & ray::QUIET != 0 && f & ray::INITIAL == 0, false),
                pick(&|f| f & ray::INITIAL != 0, true),
                pick(&|f| f & ray::CAPTURE != 0 && f & ray::QUIET == 0, false),
            ];
            let mut ours = g.pawn_targets(side, c).map(|s| s.into_iter().map(|x| cube.name(x)).collect::<BTreeSet<_>>());
            let mut theirs = theirs;
            // Only an unmoved pawn steps twice: on its setup cell. (Elsewhere the engine's tables
            // may hold double steps no pawn can make, e.g. White's from x0y0z1 through the
            // vertex x0y0z0 to x1y1z0.)
            if start.board[c] != Some((side as u8, PAWN)) {
                ours[1].clear();
                theirs[1].clear();
            }
            assert_eq!(theirs, ours, "{path}: {} pawn on {} (moves, double steps, captures)", SIDES[side], cube.name(c));
        }
        eprintln!("{path}: {} pawns can stand on {} cells", SIDES[side], cells.len());
    }
}

#[test]
fn destinations_8x8() {
    destinations_test(EIGHT, &Game::eight(KnightDef::OrthDiag));
}

#[test]
fn destinations_8x8_knight_union() {
    destinations_test(EIGHT_UNION, &Game::eight(KnightDef::Union));
}

#[test]
fn destinations_8x8_knight_through_vertex() {
    destinations_test(EIGHT_VERTEX, &Game::eight(KnightDef::OrthDiagThroughVertex));
}

#[test]
fn destinations_5x5() {
    destinations_test(FIVE, &Game::five());
}

/// Sets the en-passant state of a hand-built position: the pawn on `victim` has just passed
/// `passed`.
fn with_ep(g: &Game, mut pos: Pos, passed: &str, victim: &str) -> Pos {
    pos.ep = Some((g.cube.parse(passed), g.cube.parse(victim)));
    pos
}

fn with_virgin(g: &Game, mut pos: Pos, cells: &str) -> Pos {
    for c in cells.split_whitespace() {
        pos.virgin[g.cube.parse(c)] = true;
    }
    pos
}

/// Legal moves and perft 2 in hand-built positions (promotion, en passant, castling, the vertex
/// and board-5/6 pawn rules), engine against reference; each position must contain the moves
/// named (by the reference).
fn special_test(path: &str, g: &Game, positions: &[(Pos, &[&str])]) {
    require(path);
    let engine = common::engine(path);
    for (pos, want) in positions {
        let text = g.general(pos);
        let r = reference_moves(g, pos);
        for w in *want {
            assert!(r.contains(*w), "reference: {w} is not legal in {text}: {r:?}");
        }
        let e = engine_moves(&engine, &text);
        assert_eq!(e, r, "{path}: position {text}\n{}", set_diff(&e, &r));
        check_perft(path, &engine, g, pos, 2);
    }
}

fn special_8x8(path: &str, g: &Game) {
    let p = |turn: u8, w: &str, b: &str| g.position(turn, w, b);
    let positions: Vec<(Pos, &[&str])> = vec![
        // Promotion on the far edge, vertices included: straight on (board 2 and 3), by capture,
        // and the board-5 pawn next to the vertex capturing onto it.
        (
            p(0, "Kx0y4z4,Px3y0z1,Px6y1z0,Px0y1z1,Px7y1z1", "Kx7y4z3,Rx0y0z0,Nx5y0z0,Bx7y0z0,Qx2y0z0"),
            &["x3y0z1-x3y0z0=Q", "x3y0z1-x2y0z0=N", "x6y1z0-x5y0z0=R", "x6y1z0-x7y0z0=B", "x0y1z1-x0y0z0=Q", "x0y1z1-x0y0z1", "x7y1z1-x7y0z1"],
        ),
        // The same for Black on White's home edge.
        (
            p(1, "Kx7y4z3,Rx0y7z7,Nx5y7z7,Bx7y7z7,Qx2y7z7", "Kx0y4z4,Px3y7z6,Px6y6z7,Px0y6z6,Px7y6z6"),
            &["x3y7z6-x3y7z7=Q", "x6y6z7-x5y7z7=R", "x0y6z6-x0y7z7=N", "x7y6z6-x7y7z6"],
        ),
        // En passant on board 1 (a single forward), board 4, and board 5 (two forwards: the
        // capture between them).
        (with_ep(g, p(1, "Kx4y7z7,Px3y4z7", "Kx4y0z0,Px2y4z7,Px4y4z7"), "x3y5z7", "x3y4z7"), &["x2y4z7-x3y5z7", "x4y4z7-x3y5z7"]),
        (with_ep(g, p(1, "Kx4y7z7,Px5y7z4", "Kx4y0z0,Px4y7z4,Px6y7z4"), "x5y7z5", "x5y7z4"), &["x4y7z4-x5y7z5", "x6y7z4-x5y7z5"]),
        (with_ep(g, p(1, "Kx4y7z7,Px0y6z4", "Kx4y0z0,Px0y5z4"), "x0y6z5", "x0y6z4"), &["x0y5z4-x0y6z5"]),
        (with_ep(g, p(0, "Kx4y7z7,Px0y2z3", "Kx4y0z0,Px0y1z3"), "x0y1z2", "x0y1z3"), &["x0y2z3-x0y1z2"]),
        // Double steps from the start cells, on every kind of start cell.
        (
            with_virgin(g, p(0, "Kx4y7z7,Px0y6z7,Px0y7z6,Px0y6z6,Px3y6z7,Px3y7z6", "Kx4y0z0"), "x0y6z7 x0y7z6 x0y6z6 x3y6z7 x3y7z6"),
            &["x0y6z7-x0y4z7", "x0y7z6-x0y7z4", "x0y6z6-x0y4z6", "x0y6z6-x0y6z4", "x3y6z7-x3y4z7", "x3y7z6-x3y7z4"],
        ),
        // Castling: both ways; then a passed cell attacked, the king in check, a cell between
        // occupied.
        (with_virgin(g, p(0, "Kx4y7z7,Rx0y7z7,Rx7y7z7", "Kx4y0z0"), "x4y7z7 x0y7z7 x7y7z7"), &["x4y7z7-x6y7z7", "x4y7z7-x2y7z7"]),
        (with_virgin(g, p(1, "Kx4y7z7", "Kx4y0z0,Rx0y0z0,Rx7y0z0,Bx3y2z0"), "x4y0z0 x0y0z0 x7y0z0"), &["x4y0z0-x6y0z0", "x4y0z0-x2y0z0"]),
        (with_virgin(g, p(0, "Kx4y7z7,Rx0y7z7,Rx7y7z7", "Kx4y0z0,Rx5y3z7"), "x4y7z7 x0y7z7 x7y7z7"), &["x4y7z7-x2y7z7"]),
        (with_virgin(g, p(0, "Kx4y7z7,Rx0y7z7,Rx7y7z7", "Kx4y0z0,Bx2y5z7"), "x4y7z7 x0y7z7 x7y7z7"), &[]),
        (with_virgin(g, p(0, "Kx4y7z7,Rx0y7z7,Rx7y7z7,Nx1y7z7", "Kx4y0z0,Qx3y3z7"), "x4y7z7 x0y7z7 x7y7z7"), &["x4y7z7-x6y7z7"]),
        // Queens, rooks, bishops and knights round vertices and edges.
        (p(0, "Kx4y7z7,Qx6y6z7,Rx7y0z3,Bx1y1z0,Nx0y0z2", "Kx3y0z0,Qx7y7z0,Bx0y6z1,Nx1y0z7"), &["x6y6z7-x7y7z7", "x0y0z2-x1y0z0"]),
    ];
    special_test(path, g, &positions);
}

#[test]
fn special_positions_8x8() {
    special_8x8(EIGHT, &Game::eight(KnightDef::OrthDiag));
}

#[test]
fn special_positions_8x8_knight_union() {
    special_8x8(EIGHT_UNION, &Game::eight(KnightDef::Union));
}

#[test]
fn special_positions_8x8_knight_through_vertex() {
    special_8x8(EIGHT_VERTEX, &Game::eight(KnightDef::OrthDiagThroughVertex));
}

#[test]
fn special_positions_5x5() {
    let g = Game::five();
    let p = |turn: u8, w: &str, b: &str| g.position(turn, w, b);
    let positions: Vec<(Pos, &[&str])> = vec![
        // White pawns at the far vertices: either edge square of the far face (promoting), the
        // capture between; next to a vertex: onto it (no promotion), captures beside it promote.
        (
            p(0, "Kx2y2z4,Px0y0z0,Px4y4z0,Px0y0z1,Px2y0z1", "Kx2y2z0,Nx1y1z0,Bx3y3z0,Rx0y1z0,Qx1y0z0"),
            &["x0y0z0-x1y1z0=Q", "x4y4z0-x3y4z0=Q", "x4y4z0-x3y3z0=N", "x0y0z1-x0y1z0=R", "x2y0z1-x1y0z0=Q"],
        ),
        (p(1, "Kx2y2z4,Nx1y1z4,Qx0y1z4", "Kx2y2z0,Px0y0z4,Px0y0z3"), &["x0y0z4-x1y1z4=Q", "x0y0z4-x1y0z4=Q", "x0y0z3-x0y1z4=Q"]),
        // En passant on a side face and on a vertical edge.
        (with_ep(&g, p(1, "Kx2y2z4,Px2y0z2", "Kx2y2z0,Px1y0z2,Px3y0z2"), "x2y0z3", "x2y0z2"), &["x1y0z2-x2y0z3", "x3y0z2-x2y0z3"]),
        (with_ep(&g, p(1, "Kx2y2z4,Px0y0z2", "Kx2y2z0,Px1y0z2,Px0y1z2"), "x0y0z3", "x0y0z2"), &["x1y0z2-x0y0z3", "x0y1z2-x0y0z3"]),
        // Double steps from the ring, vertices included.
        (with_virgin(&g, p(0, "Kx2y2z4,Px0y0z4,Px2y0z4", "Kx2y2z0"), "x0y0z4 x2y0z4"), &["x0y0z4-x0y0z2", "x2y0z4-x2y0z2"]),
    ];
    special_test(FIVE, &g, &positions);
}

// ---------------------------------------------------------------------------------------------
// The four-player game (examples/cube/cube-8x8-four-player.orbis) against the reference's
// `FourGame`: every player for themselves round the x axis, eliminations under `last-standing`.

const FOUR: &str = "examples/cube/cube-8x8-four-player.orbis";


/// The reference's pawn steps against the engine's rays, every side, every cell a pawn of the
/// side can stand on (short of its promotion zone).
#[test]
#[allow(clippy::needless_range_loop)] // `side` indexes several tables and names the side
fn four_player_pawn_directions() {
    require(FOUR);
    let g = FourGame::new();
    let t = common::tables(FOUR);
    let cube = g.cube();
    let pawn = t.kinds.iter().position(|i| i.symbol == 'P').expect("a pawn");
    let start = g.start();
    for side in 0..4 {
        for c in 0..cube.cells.len() {
            let rays = engine_rays(&t, side, pawn, common::cell(&t, &cube.name(c)));
            let pick = |f: &dyn Fn(u8) -> bool, last: bool| -> BTreeSet<String> {
                rays.iter().filter(|(_, fl)| f(*fl)).flat_map(|(l, _)| if last { l[l.len() - 1..].to_vec() } else { l.clone() }).collect()
            };
            let mut theirs = [
                pick(&|f| f & ray::QUIET != 0 && f & ray::INITIAL == 0, false),
                pick(&|f| f & ray::INITIAL != 0, true),
                pick(&|f| f & ray::CAPTURE != 0 && f & ray::QUIET == 0, false),
            ];
            let mut ours = g.pawn_targets(side, c).map(|s| s.into_iter().map(|x| cube.name(x)).collect::<BTreeSet<_>>());
            // Only an unmoved pawn steps twice: on its setup cell.
            if start.board[c] != Some((side as u8, PAWN)) {
                ours[1].clear();
                theirs[1].clear();
            }
            assert_eq!(theirs, ours, "{FOUR}: {} pawn on {} (moves, double steps, captures)", SIDES4[side], cube.name(c));
        }
    }
    // Red's pawn on its board-5 setup cell x0y1z6 steps both ways and captures between them.
    let [push, double, capture] = g.pawn_targets(1, cube.parse("x0y1z6")).map(|s| s.into_iter().map(|x| cube.name(x)).collect::<Vec<_>>());
    assert_eq!((push, double, capture), (vec!["x0y1z5".to_string(), "x0y2z6".to_string()], vec!["x0y1z4".to_string(), "x0y3z6".to_string()], vec!["x0y2z5".to_string()]));
}

/// The start position is the reference's (pieces and unmoved pieces), and perft 1..=4 agree.
#[test]
fn perft_four_player() {
    require(FOUR);
    let g = FourGame::new();
    let engine = common::engine(FOUR);
    let start = g.start();
    let theirs = engine.general_text(None).unwrap();
    assert_eq!(pieces_of::<FourGame>(&theirs), g.pieces(&start), "{FOUR}: the start position\n{theirs}\n{}", g.general(&start));
    let mut got = Vec::new();
    for depth in 1..=4 {
        let t = std::time::Instant::now();
        let n = check_perft(FOUR, &engine, &g, &start, depth);
        eprintln!("{FOUR}: reference perft({depth}) = {n} in {:.2?}", t.elapsed());
        assert_eq!(engine.perft(None, depth).unwrap(), n, "{FOUR}: perft({depth}) from the file's own start position");
        got.push(n);
    }
    assert_eq!(got, [48, 2304, 110592, 5308416]);
}

/// The engine's position (general notation) is the reference's: pieces, side to move, sides out,
/// en passant (where the engine writes it: it may leave out an en-passant cell nobody can use).
fn assert_same_position(g: &FourGame, theirs: &str, pos: &Pos4, context: &str) {
    let ours = g.general(pos);
    let p = g.parse_general(theirs);
    assert_eq!((g.pieces(&p), p.turn, p.out), (g.pieces(pos), pos.turn, pos.out), "{FOUR}: {context}
engine    {theirs}
reference {ours}");
    if p.ep.is_some() {
        assert_eq!(p.ep, pos.ep, "{FOUR}: {context}
engine    {theirs}
reference {ours}");
    }
    let virgin = |q: &Pos4| -> Vec<usize> { (0..q.board.len()).filter(|&c| q.virgin[c] && q.board[c].is_some()).collect() };
    assert_eq!(virgin(&p), virgin(pos), "{FOUR}: {context}
engine    {theirs}
reference {ours}");
}

/// Fixed pseudo-random playouts of the reference (captures preferred, so that the players meet);
/// at every ply the legal moves and the position after the move agree, perft 3 after the first two
/// captures of each playout and perft 2 at its end.
#[test]
fn playouts_four_player() {
    require(FOUR);
    let g = FourGame::new();
    let engine = common::engine(FOUR);
    let t0 = std::time::Instant::now();
    // captures between sides, en passant, promotions, castles, eliminations, perft-2 checks
    let mut stats = [0usize; 6];
    for seed in 1..=16u64 {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut rand = move |n: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % n
        };
        let mut pos = g.start();
        let mut line: Vec<String> = Vec::new();
        let mut checked = 0;
        for _ in 0..200 {
            let text = g.general(&pos);
            let moves = g.legal_moves(&pos);
            let (e, r) = (engine_moves(&engine, &text), moves.iter().map(|&mv| g.key(mv)).collect::<BTreeSet<_>>());
            assert_eq!(e, r, "{FOUR} seed {seed} after {line:?}\nposition {text}\n{}", set_diff(&e, &r));
            if moves.is_empty() {
                break;
            }
            let mv = pick(&moves, &pos.board, &mut rand, Favour::Captures);
            let capture = pos.board[mv.to].is_some() || matches!(mv.kind, Kind::EnPassant(_));
            stats[0] += capture as usize;
            stats[1] += matches!(mv.kind, Kind::EnPassant(_)) as usize;
            stats[2] += mv.promotion.is_some() as usize;
            stats[3] += matches!(mv.kind, Kind::Castle(..)) as usize;
            line.push(g.key(mv));
            let before = g.eliminations.get();
            pos = g.make(&pos, mv);
            stats[4] += (g.eliminations.get() - before) as usize;
            // The engine's position after the same move is the reference's.
            let notation = engine.moves(Some(&text)).unwrap().into_iter().find(|m| key(m) == g.key(mv)).expect("the move").notation;
            let theirs = engine.general_text(Some(&engine.play(Some(&text), &[&notation]).unwrap())).unwrap();
            assert_same_position(&g, &theirs, &pos, &format!("seed {seed} after {line:?}"));
            if capture && checked < 2 {
                check_perft(FOUR, &engine, &g, &pos, 3);
                checked += 1;
                stats[5] += 1;
            }
        }
        check_perft(FOUR, &engine, &g, &pos, 2);
        stats[5] += 1;
        eprintln!("{FOUR} seed {seed}: {} plies, out {:?}", line.len(), pos.out);
    }
    eprintln!("{FOUR}: captures, en passant, promotions, castles, eliminations, perft checks: {stats:?} in {:.2?}", t0.elapsed());
    assert!(stats[0] > 20, "{stats:?}");
}

/// Hand-built positions (found by a search with the reference) where White's move leaves Red
/// without a legal move: checkmated or stalemated on its home edge with four sides in the game
/// (Red goes out, Black moves next), a move that leaves Red and then Black without a move (both
/// go out, Blue moves), and with Black already out (Red goes out, leaving White against Blue, who
/// may then be mated: the game ends). Legal moves, the position after each eliminating move and
/// perft 3 (4 where small) agree; the reference counts eliminations within its perft.
#[test]
fn eliminations_four_player() {
    require(FOUR);
    let g = FourGame::new();
    let engine = common::engine(FOUR);
    let positions: [(&str, &str); 9] = [
        ("mate", "turn=white white=Kx3y7z5,Nx0y6z1,Qx1y7z5 red=Kx0y0z7 black=Kx0y0z1 blue=Bx4y7z7,Kx7y7z4,Rx4y7z4"),
        ("mate", "turn=white white=Kx7y4z2,Qx3y0z5,Qx7y5z5 red=Kx7y0z7,Px7y7z6 black=Kx2y1z7,Rx5y7z6 blue=Kx0y2z3"),
        ("mate", "turn=white white=Bx6y7z5,Kx1y5z7,Qx0y3z5 red=Kx0y0z7,Px2y0z0,Rx7y0z6 black=Kx2y2z7 blue=Kx3y7z0"),
        ("stalemate", "turn=white white=Kx4y7z7,Px3y0z4,Qx5y7z4 red=Kx7y0z7 black=Kx6y2z7 blue=Kx0y6z2,Nx7y1z3,Px2y0z5"),
        ("stalemate", "turn=white white=Kx5y1z0,Qx7y4z1 red=Kx0y0z7 black=Kx2y0z4,Px7y3z1,Qx3y7z1 blue=Kx7y2z5,Nx7y0z5"),
        ("two out", "turn=white white=Kx0y2z3,Nx3y7z4,Qx4y6z7 red=Bx7y5z2,Kx7y0z7 black=Kx0y7z1 blue=Kx0y0z1,Rx6y1z7"),
        ("two out", "turn=white white=Bx6y7z5,Kx0y3z3,Nx7y7z4,Qx6y7z6 red=Kx0y0z7 black=Kx5y0z7 blue=Bx2y7z5,Kx0y7z5"),
        ("three left", "turn=white white=Kx7y0z0,Qx6y3z0 red=Bx5y5z7,Kx0y0z7,Px4y0z2 black= blue=Bx0y5z1,Kx0y2z3 out=black"),
        ("three left", "turn=white white=Kx6y6z0,Px7y5z4,Qx2y7z7,Rx0y4z1 red=Kx0y0z7 black= blue=Kx7y0z2,Px2y7z5 out=black"),
    ];
    for (what, text) in positions {
        let pos = g.parse_general(text);
        assert_eq!(g.general(&pos), text);
        let r = reference_moves(&g, &pos);
        let e = engine_moves(&engine, text);
        assert_eq!(e, r, "{FOUR}: position {text}\n{}", set_diff(&e, &r));
        // The eliminating moves: the engine's position after each is the reference's.
        let mut eliminating = 0;
        let mut kinds = BTreeSet::new();
        for mv in g.legal_moves(&pos) {
            let before = g.eliminations.get();
            let after = g.make(&pos, mv);
            let k = g.eliminations.get() - before;
            if k == 0 {
                continue;
            }
            eliminating += 1;
            let mated = g.in_check(&g.make_move_only(&pos, mv), 1);
            let black_out = pos.out[2];
            match (k, black_out) {
                (1, false) => assert!(after.out == [false, true, false, false] && after.turn == 2),
                (1, true) | (2, false) => assert!(after.out == [false, true, true, false] && after.turn == 3),
                _ => panic!("{k} eliminations after {} in {text}", g.key(mv)),
            }
            kinds.insert(match (k, black_out, mated) {
                (2, _, _) => "two out",
                (_, true, _) => "three left",
                (_, _, true) => "mate",
                _ => "stalemate",
            });
            let notation = engine.moves(Some(text)).unwrap().into_iter().find(|m| key(m) == g.key(mv)).expect("the move").notation;
            let theirs = engine.general_text(Some(&engine.play(Some(text), &[&notation]).unwrap())).unwrap();
            assert_same_position(&g, &theirs, &after, &format!("{text} after {}", g.key(mv)));
        }
        assert!(kinds.contains(what), "{what}: {text}: {kinds:?}");
        let depth = if g.perft(&pos, 3) < 10_000 { 4 } else { 3 };
        let t = std::time::Instant::now();
        let before = g.eliminations.get();
        let n = check_perft(FOUR, &engine, &g, &pos, depth);
        eprintln!("{FOUR}: {what}: {eliminating} eliminating moves; perft({depth}) = {n} ({} eliminations within it) in {:.2?}\n  {text}", g.eliminations.get() - before, t.elapsed());
    }
}

/// En passant among four: after White's double step only the next side to move may take en
/// passant (Red; Black's pawn beside it may not on its own turn); when the double step leaves Red
/// without a move, Red goes out and the right passes to Black. The line is played in both, the
/// positions and legal moves compared, and perft 4 from the start of each.
#[test]
fn en_passant_four_player() {
    require(FOUR);
    let g = FourGame::new();
    let engine = common::engine(FOUR);
    let lines: [(&str, &[&str], &str); 4] = [
        // Red takes: the pawn on x3y4z7 leaves.
        ("turn=white white=Kx6y7z3,Px3y6z7 red=Kx7y0z3,Px2y4z7 black=Kx4y0z0,Px4y4z7 blue=Kx4y7z0 virgin=x3y6z7", &["x3y6z7-x3y4z7", "x2y4z7-x3y5z7"], ""),
        // Red does not: Black's pawn next to it may not take.
        ("turn=white white=Kx6y7z3,Px3y6z7 red=Kx7y0z3,Px2y4z7 black=Kx4y0z0,Px4y4z7 blue=Kx4y7z0 virgin=x3y6z7", &["x3y6z7-x3y4z7", "x7y0z3-x7y0z4"], "x4y4z7-x3y5z7"),
        // The double step stalemates Red (found by a search): Black moves next and may take.
        ("turn=white white=Kx5y4z7,Px3y6z7,Qx3y0z1 red=Kx2y4z7 black=Kx2y0z5,Px4y4z7 blue=Bx6y7z4,Kx6y6z0,Rx1y7z1 virgin=x3y6z7", &["x3y6z7-x3y4z7", "x4y4z7-x3y5z7"], ""),
        ("turn=white white=Kx7y6z4,Px3y6z7,Qx5y1z7 red=Kx3y2z7 black=Kx7y2z6,Px4y4z7 blue=Kx2y7z0,Nx5y0z3,Rx2y5z7 virgin=x3y6z7", &["x3y6z7-x3y4z7", "x4y4z7-x3y5z7"], ""),
    ];
    for (text, line, absent) in lines {
        let mut pos = g.parse_general(text);
        assert_eq!(g.general(&pos), text);
        let n = check_perft(FOUR, &engine, &g, &pos, 4);
        eprintln!("{FOUR}: perft(4) = {n}\n  {text}");
        for (i, &k) in line.iter().enumerate() {
            let here = g.general(&pos);
            let r = reference_moves(&g, &pos);
            let e = engine_moves(&engine, &here);
            assert_eq!(e, r, "{FOUR}: position {here}\n{}", set_diff(&e, &r));
            let mv = g.legal_moves(&pos).into_iter().find(|&mv| g.key(mv) == k).unwrap_or_else(|| panic!("{k} is not legal in {here}"));
            if i == 1 && absent.is_empty() {
                assert!(matches!(mv.kind, Kind::EnPassant(_)), "{k} in {here}");
            }
            let notation = engine.moves(Some(&here)).unwrap().into_iter().find(|m| key(m) == k).expect("the move").notation;
            let theirs = engine.general_text(Some(&engine.play(Some(&here), &[&notation]).unwrap())).unwrap();
            pos = g.make(&pos, mv);
            assert_same_position(&g, &theirs, &pos, &format!("{here} after {k}"));
        }
        let here = g.general(&pos);
        let r = reference_moves(&g, &pos);
        assert_eq!(engine_moves(&engine, &here), r, "{FOUR}: position {here}");
        if !absent.is_empty() {
            assert_eq!(pos.turn, 2);
            assert!(!r.contains(absent), "{absent} in {here}");
        }
    }
}
