//! Chess on a Soccer Ball (examples/soccer-ball/): the engine against the reference that walks the
//! polyhedron directly (tests/common/ball_reference.rs), the page's facts, the choices written in
//! the variant's header (stacks, crowning, checks, royal paths, baring), and the lone-piece
//! destination counts derived by hand.

use crate::ball_reference;
use crate::common;

use ball_reference::{BallPosition, BallReference};
use orbis_runtime::position::Position;
use orbis_runtime::{Engine, Game, MoveInfo};
use std::collections::BTreeSet;

const DEFAULT: &str = "examples/soccer-ball/soccer-ball.orbis";
const CHIVALROUS: &str = "examples/soccer-ball/soccer-ball-chivalrous.orbis";

/// A move as the reference writes it: `from-to[=X]`, `K@cell` for crowning.
fn key(m: &MoveInfo) -> String {
    if m.kind == "crown" {
        return format!("K@{}", m.to);
    }
    match m.promotion {
        Some(p) => format!("{}-{}={p}", m.from, m.to),
        None => format!("{}-{}", m.from, m.to),
    }
}

fn engine_moves(engine: &Engine, text: &str) -> BTreeSet<String> {
    engine
        .moves(Some(text))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .iter()
        .map(key)
        .collect()
}

#[test]
fn perft_from_the_start_matches_the_reference() {
    for (path, chivalrous, expect) in [
        (DEFAULT, false, [6, 36, 360, 3360]),
        (CHIVALROUS, true, [6, 36, 360, 3400]),
    ] {
        let engine = common::engine(path);
        let reference = BallReference::new(chivalrous);
        let start = reference.start();
        for (d, &n) in expect.iter().enumerate() {
            let depth = d + 1;
            assert_eq!(
                engine.perft(None, depth).unwrap(),
                n,
                "{path}: engine perft({depth})"
            );
            assert_eq!(
                reference.perft(&start, depth as u32),
                n,
                "{path}: reference perft({depth})"
            );
        }
    }
}

#[test]
fn perft_5_matches_the_reference() {
    for (path, chivalrous, expect) in [(DEFAULT, false, 48338), (CHIVALROUS, true, 49822)] {
        let engine = common::engine(path);
        let reference = BallReference::new(chivalrous);
        assert_eq!(engine.perft(None, 5).unwrap(), expect, "{path}");
        assert_eq!(reference.perft(&reference.start(), 5), expect, "{path}");
    }
}

/// A small deterministic generator (the tests must not depend on a crate's sequence).
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Random games, legal moves compared at every ply and perft(2) every tenth; captures are
/// favoured so that stacks are taken, pieces revealed and sides bared.
fn playouts(
    path: &str,
    chivalrous: bool,
    seeds: std::ops::Range<u64>,
    plies: usize,
) -> (usize, usize) {
    let engine = common::engine(path);
    let reference = BallReference::new(chivalrous);
    let (mut positions, mut ended) = (0, 0);
    for seed in seeds {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut pos: BallPosition = reference.start();
        let mut text = engine.general_text(None).unwrap();
        let mut line: Vec<String> = Vec::new();
        for ply in 0..plies {
            let r: BTreeSet<String> = reference.legal_moves(&pos).into_iter().collect();
            let e = engine_moves(&engine, &text);
            assert_eq!(e, r, "{path}: legal moves after {line:?}\nposition {text}");
            positions += 1;
            if ply % 10 == 9 {
                assert_eq!(
                    engine.perft(Some(&text), 2).unwrap(),
                    reference.perft(&pos, 2),
                    "{path}: perft(2) after {line:?}\n{text}"
                );
            }
            if r.is_empty() {
                ended += 1;
                break;
            }
            let moves: Vec<&String> = r.iter().collect();
            let captures: Vec<&String> = moves
                .iter()
                .copied()
                .filter(|k| engine_text_captures(&engine, &text, k))
                .collect();
            let pool = if !captures.is_empty() && !next(&mut state).is_multiple_of(3) {
                &captures
            } else {
                &moves
            };
            let k = pool[(next(&mut state) % pool.len() as u64) as usize].clone();
            let mv = engine
                .moves(Some(&text))
                .unwrap()
                .into_iter()
                .find(|m| key(m) == k)
                .unwrap();
            text = engine.play(Some(&text), &[mv.notation.as_str()]).unwrap();
            pos = reference.play(&pos, &k);
            line.push(k);
        }
    }
    (positions, ended)
}

fn engine_text_captures(engine: &Engine, text: &str, k: &str) -> bool {
    engine
        .moves(Some(text))
        .unwrap()
        .iter()
        .any(|m| key(m) == k && m.notation.contains('x'))
}

#[test]
fn random_games_agree_with_the_reference() {
    let (positions, ended) = playouts(DEFAULT, false, 0..40, 120);
    assert!(positions > 800, "{positions} positions");
    assert!(
        ended > 10,
        "only {ended} of 40 games ended (mate, stalemate or bare)"
    );
}

#[test]
fn random_chivalrous_games_agree_with_the_reference() {
    let (positions, ended) = playouts(CHIVALROUS, true, 100..130, 120);
    assert!(positions > 800, "{positions} positions");
    assert!(ended > 5, "only {ended} of 30 games ended");
}

// ---------------------------------------------------------------------------------------------
// The page's facts and the variant's choices.

#[test]
fn the_setup_of_the_page() {
    // 4.C: White's Wizard on L under a Guard, Satellite z0, Bishop z1, Rook z2, Knight z3,
    // Ringmaster z4 under Pawns; Black the same round A; both Kings off the board.
    let engine = common::engine(DEFAULT);
    assert_eq!(
        engine.general_text(None).unwrap(),
        "turn=white white=G/WL,P/Sz0,P/Bz1,P/Rz2,P/Nz3,P/Mz4 black=G/WA,P/Sx0,P/Bx1,P/Rx2,P/Nx3,P/Mx4 \
         hand=white:K,black:K virgin=A,L,x0,x1,x2,x3,x4,z0,z1,z2,z3,z4 clock=0 move=1"
    );
    // The first move crowns one of the six pieces: "Any piece in the initial setup may be chosen"
    // (the page's royal forms are those six; a Pawn or Guard carries no King).
    let first: BTreeSet<String> = engine
        .moves(None)
        .unwrap()
        .iter()
        .map(|m| m.notation.clone())
        .collect();
    let expect: BTreeSet<String> = ["K@WL", "K@Sz0", "K@Bz1", "K@Rz2", "K@Nz3", "K@Mz4"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(first, expect);
    // A crowned hidden piece stays paralysed: after both crownings White's moves are the Guard's
    // and the Pawns' only.
    let text = engine.play(None, &["K@Rz2", "K@Nx3"]).unwrap();
    let movers: BTreeSet<String> = engine
        .moves(Some(&text))
        .unwrap()
        .iter()
        .map(|m| m.from.clone())
        .collect();
    assert_eq!(
        movers,
        ["L", "z0", "z1", "z2", "z3", "z4"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
    assert!(
        text.contains("P/R(K)z2") && text.contains("P/N(K)x3"),
        "{text}"
    );
}

/// Figure 2a: White's King carried by the Rook, Black's by the Knight.
fn figure_2a(extra_white: &str, extra_black: &str, turn: &str) -> String {
    format!("turn={turn} white=R(K)A{extra_white} black=N(K)x3{extra_black} clock=0 move=10")
}

#[test]
fn figure_2a_checks() {
    // The royal Rook on A stands next to x3 on the line A-x3-...: it attacks the royal Knight.
    let default = common::engine(DEFAULT);
    let chivalrous = common::engine(CHIVALROUS);
    let pos = figure_2a(",Pz2", ",Pz0", "black");
    assert_eq!(default.play_status(Some(&pos), &[]).unwrap().1, "ongoing");
    let reference = BallReference::new(false);
    let p = reference.position(
        &[
            (0, 'R', None, 1, "A"),
            (0, 'P', None, 0, "z2"),
            (1, 'N', None, 1, "x3"),
            (1, 'P', None, 0, "z0"),
        ],
        [false, false],
        1,
    );
    assert!(
        reference.in_check(&p),
        "the royal Rook checks the royal Knight"
    );
    let moves = engine_moves(&default, &pos);
    assert_eq!(
        moves,
        reference.legal_moves(&p).into_iter().collect(),
        "{pos}"
    );
    // Every answer moves the Knight out of the Rook's line or takes the Rook.
    assert!(
        moves
            .iter()
            .all(|m| m.starts_with("x3-") || m.ends_with("-A")),
        "{moves:?}"
    );
    // In the Chivalrous version a royal piece attacks no royal piece: no check, and the Knight
    // may not take the Rook (nor the Rook the Knight).
    let chiv = BallReference::new(true);
    assert!(!chiv.in_check(&p));
    let moves = engine_moves(&chivalrous, &pos);
    assert_eq!(moves, chiv.legal_moves(&p).into_iter().collect());
    assert!(
        moves.iter().any(|m| m.starts_with("z0-")),
        "the Pawn may move: {moves:?}"
    );
    assert!(!moves.contains("x3-A"), "{moves:?}");
}

#[test]
fn pawns_and_guards_give_no_check_and_take_no_royal() {
    // A black Guard on pentagon A next to the white royal Knight on x0: a Guard captures onto a
    // neighbouring hexagon, but not a royal piece, and it gives no check.
    let engine = common::engine(DEFAULT);
    let pos = "turn=black white=N(K)x0,Bz2 black=GA,W(K)L clock=0 move=10";
    let moves = engine_moves(&engine, pos);
    assert!(!moves.iter().any(|m| m == "A-x0=P"), "{moves:?}");
    // With White to move the same position is legal: the Guard gives no check.
    let pos_white = "turn=white white=N(K)x0,Bz2 black=GA,W(K)L clock=0 move=10";
    assert_eq!(
        engine.play_status(Some(pos_white), &[]).unwrap().1,
        "ongoing"
    );
    // The same Guard takes an ordinary piece there and becomes a Pawn.
    let pos = "turn=black white=N(K)z2,Bx0 black=GA,W(K)L clock=0 move=10";
    assert!(engine_moves(&engine, pos).contains("A-x0=P"));
}

#[test]
fn capturing_a_stack_takes_both_pieces_and_moving_off_reveals_the_hidden_one() {
    let engine = common::engine(DEFAULT);
    // White's Pawn leaves z1: the Bishop beneath is revealed.
    let text = engine.play(None, &["K@Rz2", "K@Nx3", "Pz1-y3"]).unwrap();
    assert!(text.contains("Bz1") && text.contains("Py3"), "{text}");
    // A white Knight takes the black stack on x4 (a Pawn on the Ringmaster): both leave.
    let pos = "turn=white white=R(K)L,Nz3 black=P/Mx4,W(K)A clock=0 move=10";
    let moves = engine.moves(Some(pos)).unwrap();
    let take = moves
        .iter()
        .find(|m| m.from == "z3" && m.to == "x4")
        .expect("the Knight reaches x4");
    let after = engine.play(Some(pos), &[take.notation.as_str()]).unwrap();
    assert!(
        after.starts_with("turn=black white=R(K)L,Nx4 black=W(K)A"),
        "{after}"
    );
    // Black is now bare: only its royal Wizard is left, and the game is over.
    let (_, status) = engine.play_status(Some(&after), &[]).unwrap();
    assert_eq!(
        status,
        "bare: black has only royal pieces left; a loss for black"
    );
    assert!(engine.moves(Some(&after)).unwrap().is_empty());
}

#[test]
fn a_royal_rider_may_not_pass_an_attacked_cell() {
    // The white royal Rook on A rides the line A-x0-?-? ; a black Bishop attacks a cell on it.
    let engine = common::engine(DEFAULT);
    let reference = BallReference::new(false);
    let line = reference
        .rook_lines()
        .into_iter()
        .find(|l| l[0] == reference.cell("A") || l[3] == reference.cell("A"))
        .unwrap();
    let line: Vec<usize> = if line[0] == reference.cell("A") {
        line
    } else {
        line.into_iter().rev().collect()
    };
    let (first, second, last) = (
        reference.name(line[1]).to_string(),
        reference.name(line[2]).to_string(),
        reference.name(line[3]).to_string(),
    );
    // A black Knight that attacks `second` (the middle hexagon) but neither A nor `last`.
    let knight_on = (0..32)
        .map(|c| reference.name(c).to_string())
        .find(|c| {
            let d = reference.lone_destinations('N', c);
            d.contains(&second)
                && !d.contains(&last)
                && !d.contains(&"A".to_string())
                && !d.contains(&first)
                && *c != first
                && *c != last
        })
        .expect("a knight cell");
    let pos = format!("turn=white white=R(K)A,Pz0 black=N{knight_on},W(K)L clock=0 move=10");
    let moves = engine_moves(&engine, &pos);
    let p = reference.position(
        &[
            (0, 'R', None, 1, "A"),
            (0, 'P', None, 0, "z0"),
            (1, 'N', None, 0, &knight_on),
            (1, 'W', None, 1, "L"),
        ],
        [false, false],
        0,
    );
    assert_eq!(
        moves,
        reference.legal_moves(&p).into_iter().collect(),
        "{pos}"
    );
    assert!(moves.contains(&format!("A-{first}")), "{moves:?}");
    assert!(
        !moves.contains(&format!("A-{second}")),
        "into check: {moves:?}"
    );
    assert!(
        !moves.contains(&format!("A-{last}")),
        "through check: {moves:?}"
    );
    // An ordinary Rook passes the same cell.
    let pos = format!("turn=white white=RA,G/W(K)B black=N{knight_on},G/W(K)L clock=0 move=10");
    let moves = engine_moves(&engine, &pos);
    assert!(
        moves.contains(&format!("A-{last}")),
        "{pos}: {moves:?} (line {first} {second} {last})"
    );
}

#[test]
fn stalemate_loses_for_the_stalemated_side() {
    // Black's Guard on A, over its royal Wizard, has its five nearest pentagons taken by white
    // Rooks (which do not reach A) and no piece to take: no move, no check.
    let engine = common::engine(DEFAULT);
    let pos = "turn=black white=RB,RC,RD,RE,RF,W(K)L black=G/W(K)A clock=0 move=20";
    let (_, status) = engine.play_status(Some(pos), &[]).unwrap();
    assert_eq!(
        status,
        "stalemate: black cannot move; a loss for the stalemated side"
    );
    let reference = BallReference::new(false);
    let mut pieces: Vec<(usize, char, Option<char>, u8, &str)> = ["B", "C", "D", "E", "F"]
        .iter()
        .map(|&c| (0, 'R', None, 0, c))
        .collect();
    pieces.push((0, 'W', None, 1, "L"));
    pieces.push((1, 'G', Some('W'), 2, "A"));
    let p = reference.position(&pieces, [false, false], 1);
    assert!(reference.legal_moves(&p).is_empty() && !reference.in_check(&p));
}

// ---------------------------------------------------------------------------------------------
// Lone pieces, counted by hand.

/// The destinations of a lone white piece on `cell` (no legality: there is no King on the board).
fn lone(g: &Game<u64>, symbol: char, cell: &str) -> usize {
    let mut pos: Position<u64> = Position::empty(g);
    let kind = g
        .tables
        .kinds
        .iter()
        .position(|k| k.symbol == symbol)
        .unwrap();
    let c = g.cell_by_name(cell).unwrap() as usize;
    pos.put(g, c, kind);
    let mut moves = Vec::new();
    pos.pseudo_moves(g, &mut moves);
    moves.iter().map(|m| m.to).collect::<BTreeSet<_>>().len()
}

#[test]
fn lone_piece_destinations_counted_by_hand() {
    let g = common::game(DEFAULT);
    let reference = BallReference::new(false);
    // On pentagon A / on hexagon x0, and why:
    let expect = [
        // Rook: five lines of three cells from a pentagon; from a hexagon three lines, each one
        // cell (the pentagon) one way and two (hexagon, pentagon) the other.
        ('R', 5 * 3, 3 * (1 + 2)),
        // Bishop: never on a pentagon; three loops of five through a hexagon, four others each,
        // each two loops sharing one further hexagon: 12 - 3.
        ('B', 0, 3 * 4 - 3),
        // Wizard: every pentagon but itself and its antipode (five at one step, five at two).
        ('W', 10, 0),
        // Knight: from a pentagon the five hexagons three steps away; from a hexagon six
        // hexagons and three pentagons.
        ('N', 5, 6 + 3),
        // Ringmaster: three rings of five round the pentagons it touches, four others each, each
        // two rings sharing one hexagon.
        ('M', 0, 3 * 4 - 3),
        // Satellite: three equators of ten, nine others each; together every other hexagon.
        ('S', 0, 19),
        // Pawn: its moves go to the three neighbouring hexagons (its captures to the three
        // pentagons, with nothing to take here). It never stands on a pentagon (it becomes a
        // Guard there); if it did, its moves would go to the five hexagons round it.
        ('P', 5, 3),
        // Guard: the five nearest pentagons; on a hexagon (where it never stands) its moves
        // would go to pentagons, which are not one diagonal step away: none.
        ('G', 5, 0),
    ];
    for (symbol, on_a, on_x0) in expect {
        assert_eq!(lone(&g, symbol, "A"), on_a, "{symbol} on A");
        assert_eq!(lone(&g, symbol, "x0"), on_x0, "{symbol} on x0");
        assert_eq!(
            reference.lone_destinations(symbol, "A").len(),
            on_a,
            "reference {symbol} on A"
        );
        assert_eq!(
            reference.lone_destinations(symbol, "x0").len(),
            on_x0,
            "reference {symbol} on x0"
        );
        // Every hexagon is alike, and every pentagon.
        assert_eq!(
            lone(&g, symbol, "y4"),
            lone(&g, symbol, "x0"),
            "{symbol} on y4"
        );
        assert_eq!(
            lone(&g, symbol, "G"),
            lone(&g, symbol, "A"),
            "{symbol} on G"
        );
    }
}

#[test]
fn positions_with_stacks_and_hands_read_back() {
    let engine = common::engine(DEFAULT);
    let text = engine
        .play(None, &["K@Rz2", "K@Nx3", "Gl-G"])
        .err()
        .map(|e| e.to_string());
    assert!(text.is_some(), "a misspelt move is refused");
    let text = engine.play(None, &["K@Rz2", "K@Nx3", "GL-G"]).unwrap();
    assert!(text.contains("WL") && text.contains("GG"), "{text}");
    assert_eq!(engine.general_text(Some(&text)).unwrap(), text);
    for bad in [
        "turn=white white=P/Q(K)z2 black=N(K)x3",
        "turn=white white=P/R(P)z2 black=N(K)x3",
        "turn=white white=R(K)z2 black=N(K)x3 hand=white:KK",
        "turn=white white=P/R(K z2 black=N(K)x3",
    ] {
        assert!(
            engine.general_text(Some(bad)).is_err(),
            "{bad} should be refused"
        );
    }
}
