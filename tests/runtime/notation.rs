//! Positions and moves as text: FEN and the general notation round-trip, move notation is read back
//! to the same move, and the game status is reported as the rules say.

use crate::common;

use orbis_runtime::tables::Outcome;
use orbis_runtime::{Game, Move, MoveKind, Position, Status};
use std::collections::BTreeSet;

const ORTHODOX: &str = "examples/orthodox.orbis";
const CYLINDRICAL: &str = "examples/cylindrical.orbis";
const NADVORNEY: &str = "examples/spherical/nadvorney.orbis";

fn parse(g: &Game<u64>, text: &str) -> Position<u64> {
    Position::parse(g, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn fen(g: &Game<u64>, p: &Position<u64>) -> String {
    p.to_fen(g).expect("a two-sided grid board has FEN")
}

fn legal(g: &Game<u64>, p: &mut Position<u64>) -> Vec<Move> {
    let mut moves = Vec::new();
    p.legal_moves(g, &mut moves);
    moves
}

/// Plays the moves written in `moves` and returns the FEN reached.
fn play(g: &Game<u64>, start: &str, moves: &[&str]) -> String {
    let mut p = parse(g, start);
    for m in moves {
        let mv = p.parse_move(g, m).unwrap_or_else(|e| panic!("{m} in {}: {e}", fen(g, &p)));
        p.make(g, mv);
    }
    fen(g, &p)
}

/// The FEN lines of the orthodox perft suite.
fn suite_fens() -> Vec<String> {
    let text = std::fs::read_to_string(common::root().join("tests/perft/orthodox.txt")).unwrap();
    let fens: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains('|'))
        .map(|l| l.split('|').nth(1).unwrap().trim().to_string())
        .collect();
    assert_eq!(fens.len(), 6);
    fens
}

// ---------------------------------------------------------------------------------------------
// FEN

#[test]
fn fen_round_trips() {
    let g = common::game(ORTHODOX);
    let mut fens = suite_fens();
    fens.extend(
        [
            // En passant after 1.e4, and after 1.e4 d5 2.e5 f5 (capturable).
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
            // Partial castling rights.
            "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 5 20",
            "r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w q - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
            // Clocks.
            "4k3/8/8/8/8/8/8/4K3 w - - 99 150",
        ]
        .map(String::from),
    );
    for f in &fens {
        let p = parse(&g, f);
        assert_eq!(&fen(&g, &p), f, "FEN round trip");
        assert_eq!(p.hash, p.full_hash(&g), "{f}: the hash of a parsed position");
        // Through the general notation and back.
        let general = p.to_general(&g);
        let q = parse(&g, &general);
        assert_eq!(&fen(&g, &q), f, "FEN -> general -> FEN via {general}");
        assert_eq!(q, p, "{f}: the general notation keeps everything");
        assert_eq!(q.to_general(&g), general);
        // to_text prefers FEN on grid boards.
        assert_eq!(&p.to_text(&g), f);
    }
}

#[test]
fn fen_fields_are_optional_and_trimmed() {
    let g = common::game(ORTHODOX);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(fen(&g, &parse(&g, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")), start);
    assert_eq!(fen(&g, &parse(&g, "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  KQkq -  0  1 \n")), start);
    assert_eq!(parse(&g, start), Position::start(&g), "the start FEN is the start position");
}

#[test]
fn fen_after_moves() {
    let g = common::game(ORTHODOX);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(play(&g, start, &["e2-e4"]), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(play(&g, start, &["e2-e4", "c7-c5"]), "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2");
    assert_eq!(
        play(&g, start, &["e2-e4", "c7-c5", "Ng1-f3"]),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    // Rights go when the king or a rook moves, or a rook is taken.
    assert_eq!(play(&g, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &["Ra1-a2"]), "r3k2r/8/8/8/8/8/R7/4K2R b Kkq - 1 1");
    assert_eq!(play(&g, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &["Ke1-e2"]), "r3k2r/8/8/8/8/8/4K3/R6R b kq - 1 1");
    assert_eq!(play(&g, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &["Ra1xa8"]), "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 1");
}

// ---------------------------------------------------------------------------------------------
// Random playouts on every board: both notations and every move's notation round-trip.

/// A deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn check_position_round_trips(g: &Game<u64>, p: &mut Position<u64>, seen_kinds: &mut BTreeSet<String>) {
    let f = fen(g, p);
    let general = p.to_general(g);
    let from_fen = parse(g, &f);
    assert_eq!(fen(g, &from_fen), f, "FEN round trip");
    let from_general = parse(g, &general);
    assert_eq!(&from_general, p, "general notation round trip of {general}");
    assert_eq!(fen(g, &from_general), f, "FEN -> general -> FEN");
    // The FEN position plays exactly like the original.
    let mut a: Vec<String> = legal(g, p).into_iter().map(|m| p.notation(g, m)).collect();
    let mut q = from_fen.clone();
    let mut b: Vec<String> = legal(g, &mut q).into_iter().map(|m| q.notation(g, m)).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b, "{f}: the FEN position has other moves");

    // Every legal move has its own notation, which reads back as that move.
    let moves = legal(g, p);
    let distinct: BTreeSet<String> = moves.iter().map(|&m| p.notation(g, m)).collect();
    assert_eq!(distinct.len(), moves.len(), "{f}: two legal moves share a notation: {a:?}");
    for mv in moves {
        let n = p.notation(g, mv);
        assert_eq!(p.parse_move(g, &n), Ok(mv), "{f}: {n}");
        let kind = format!("{:?}{}", mv.kind, if mv.promotion != u8::MAX { "+promotion" } else { "" });
        seen_kinds.insert(kind);
        if mv.kind != MoveKind::Castle {
            // Without the piece letter, and as FROMTO.
            let from = g.cell_name(mv.from).to_string();
            let to = g.cell_name(mv.to).to_string();
            let rest = &n[1..];
            assert!(rest.starts_with(&from), "{n}");
            assert_eq!(p.parse_move(g, rest), Ok(mv), "{f}: {rest}");
            let promo = n.find('=').map(|i| &n[i..i + 2]).unwrap_or("");
            let plain = format!("{from}{to}{promo}");
            assert_eq!(p.parse_move(g, &plain), Ok(mv), "{f}: {plain}");
        }
    }
}

fn playouts(path: &str, seed: u64, games: usize, plies: usize) -> BTreeSet<String> {
    let g = common::game(path);
    let mut rng = Rng(seed);
    let mut seen = BTreeSet::new();
    for _ in 0..games {
        let mut p = Position::start(&g);
        for _ in 0..plies {
            check_position_round_trips(&g, &mut p, &mut seen);
            let moves = legal(&g, &mut p);
            if moves.is_empty() {
                break;
            }
            // Prefer captures, promotions and castling now and then so that they occur.
            let special: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.kind != MoveKind::Normal || m.promotion != u8::MAX || p.board[m.to as usize] != 0)
                .collect();
            let mv = if !special.is_empty() && rng.next().is_multiple_of(3) {
                special[rng.next() as usize % special.len()]
            } else {
                moves[rng.next() as usize % moves.len()]
            };
            p.make(&g, mv);
            assert_eq!(p.hash, p.full_hash(&g));
        }
    }
    seen
}

#[test]
fn playout_round_trips_orthodox() {
    let seen = playouts(ORTHODOX, 1, 12, 120);
    for kind in ["Normal", "EnPassantTarget", "Castle"] {
        assert!(seen.contains(kind), "the playouts never saw {kind}: {seen:?}");
    }
}

#[test]
fn playout_round_trips_cylindrical() {
    playouts(CYLINDRICAL, 2, 12, 120);
}

#[test]
fn playout_round_trips_nadvorney() {
    let seen = playouts(NADVORNEY, 3, 12, 120);
    assert!(seen.contains("Castle"), "{seen:?}");
}

// ---------------------------------------------------------------------------------------------
// Move notation

#[test]
fn parse_move_spellings() {
    let g = common::game(ORTHODOX);
    let mut p = Position::start(&g);
    let e4 = p.parse_move(&g, "Pe2-e4").unwrap();
    assert_eq!((g.cell_name(e4.from), g.cell_name(e4.to), e4.kind), ("e2", "e4", MoveKind::EnPassantTarget));
    for s in ["e2-e4", "e2e4", "Pe2e4", " e2-e4 "] {
        assert_eq!(p.parse_move(&g, s), Ok(e4), "{s:?}");
    }
    let nf3 = p.parse_move(&g, "Ng1-f3").unwrap();
    for s in ["g1-f3", "g1f3", "Ng1f3"] {
        assert_eq!(p.parse_move(&g, s), Ok(nf3), "{s:?}");
    }
    // Standard algebraic notation (SAN), as PGN from other tools writes it.
    assert_eq!(p.parse_move(&g, "e4"), Ok(e4));
    assert_eq!(p.parse_move(&g, "Nf3"), Ok(nf3));
    assert_eq!(p.parse_move(&g, "Ngf3"), Ok(nf3), "more disambiguation than needed is accepted");
    assert_eq!(p.san(&g, nf3), "Nf3");
    for bad in ["e2-e5", "e5", "Nf4", "Qd1-d3", "Ke1-e2", "", "e2", "O-O", "Pe2-e4=Q", "Ne2-e4", "ee2-e4", "e2--e4"] {
        let e = p.parse_move(&g, bad).expect_err(bad);
        assert!(e.0.contains("illegal move"), "{bad:?}: {e}");
    }

    // Captures: with x, with -, without the piece letter.
    let mut p = parse(&g, "rnbqkbnr/ppp1pppp/8/1B1p4/4P3/8/PPPP1PPP/RNBQK1NR b KQkq - 1 2");
    let c6 = p.parse_move(&g, "Pc7-c6").unwrap();
    p.make(&g, c6);
    let bxc6 = p.parse_move(&g, "Bb5xc6").unwrap();
    assert_eq!(p.notation(&g, bxc6), "Bb5xc6");
    for s in ["b5xc6", "b5-c6", "b5c6", "Bb5-c6"] {
        assert_eq!(p.parse_move(&g, s), Ok(bxc6), "{s:?}");
    }
    let exd5 = p.parse_move(&g, "Pe4xd5").unwrap();
    assert_eq!(p.notation(&g, exd5), "Pe4xd5");
}

#[test]
fn en_passant_is_notated_ep_and_takes_the_passed_pawn() {
    let g = common::game(ORTHODOX);
    // Black captures: 1.e4 ... d4 stands ready.
    let mut p = parse(&g, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
    let ep: Vec<Move> = legal(&g, &mut p).into_iter().filter(|m| m.kind == MoveKind::EnPassant).collect();
    assert_eq!(ep.len(), 1);
    assert_eq!(p.notation(&g, ep[0]), "Pd4xe3ep");
    for s in ["Pd4xe3ep", "d4xe3ep", "d4xe3", "d4-e3", "d4e3"] {
        assert_eq!(p.parse_move(&g, s), Ok(ep[0]), "{s:?}");
    }
    p.make(&g, ep[0]);
    assert_eq!(fen(&g, &p), "rnbqkbnr/ppp1pppp/8/8/8/4p3/PPPP1PPP/RNBQKBNR w KQkq - 0 4");

    // White captures, played from the start; the right lasts one move only.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let line = ["e2-e4", "a7-a6", "e4-e5", "d7-d5"];
    assert_eq!(play(&g, start, &line), "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    let mut with_ep = line.to_vec();
    with_ep.push("Pe5xd6ep");
    assert_eq!(play(&g, start, &with_ep), "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    let mut late = parse(&g, &play(&g, start, &["e2-e4", "a7-a6", "e4-e5", "d7-d5", "Ng1-f3", "a6-a5"]));
    assert!(late.parse_move(&g, "e5xd6").is_err(), "en passant only on the next move");
    assert!(late.parse_move(&g, "Pe5xd6ep").is_err());
}

#[test]
fn promotion_is_notated_with_equals() {
    let g = common::game(ORTHODOX);
    let mut p = parse(&g, "2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let names: BTreeSet<String> = legal(&g, &mut p).into_iter().map(|m| p.notation(&g, m)).collect();
    for n in ["Pb7-b8=Q", "Pb7-b8=R", "Pb7-b8=B", "Pb7-b8=N", "Pb7xc8=Q", "Pb7xc8=R", "Pb7xc8=B", "Pb7xc8=N"] {
        assert!(names.contains(n), "{n} missing from {names:?}");
    }
    assert!(!names.iter().any(|n| n.ends_with("=K") || n.ends_with("=P") || n == "Pb7-b8"), "{names:?}");

    let q = p.parse_move(&g, "b7-b8=Q").unwrap();
    assert_eq!(g.symbol(q.promotion as usize), 'Q');
    assert_eq!(p.parse_move(&g, "Pb7-b8=Q"), Ok(q));
    assert_eq!(p.parse_move(&g, "b7b8=Q"), Ok(q));
    // Without the choice it is no move, and the error says what is missing.
    for missing in ["b7-b8", "Pb7-b8", "b7b8", "b7xc8"] {
        let e = p.parse_move(&g, missing).expect_err(missing);
        assert!(e.0.contains("promot") && e.0.contains("=Q") && e.0.contains("=N"), "{missing}: {e}");
    }
    assert!(p.parse_move(&g, "b7-b8=K").is_err());
    assert!(p.parse_move(&g, "b7-b8=P").is_err());
    let n = p.parse_move(&g, "b7xc8=N").unwrap();
    p.make(&g, n);
    assert_eq!(fen(&g, &p), "2N1k3/8/8/8/8/8/8/4K3 b - - 0 1");

    // Black promotes on rank 1.
    let mut p = parse(&g, "4k3/8/8/8/8/8/6p1/4K3 b - - 3 40");
    let r = p.parse_move(&g, "Pg2-g1=R").unwrap();
    p.make(&g, r);
    assert_eq!(fen(&g, &p), "4k3/8/8/8/8/8/8/4K1r1 w - - 0 41");
}

#[test]
fn castling_by_name() {
    let g = common::game(ORTHODOX);
    let fen0 = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(play(&g, fen0, &["O-O"]), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    assert_eq!(play(&g, fen0, &["O-O-O"]), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    assert_eq!(play(&g, fen0, &["O-O", "O-O-O"]), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    let mut p = parse(&g, fen0);
    let oo = p.parse_move(&g, "O-O").unwrap();
    assert_eq!(oo.kind, MoveKind::Castle);
    assert_eq!(p.notation(&g, oo), "O-O");
    for bad in ["-O", "O-", "o-o"] {
        assert!(p.parse_move(&g, bad).is_err(), "{bad:?} is not a castling name");
    }
    // Zeros (as PGN writers sometimes do), the king's move (coordinate notation) and SAN's check.
    for also in ["0-0", "e1g1", "Ke1-g1", "O-O+"] {
        assert_eq!(p.parse_move(&g, also), Ok(oo), "{also:?}");
    }
    // No right, no castling; castling out of check is refused.
    let mut p = parse(&g, "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
    assert!(p.parse_move(&g, "O-O").is_err());
    let mut p = parse(&g, "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
    assert!(p.parse_move(&g, "O-O-O").is_ok());
    let mut p = parse(&g, "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert!(p.parse_move(&g, "O-O").is_err() && p.parse_move(&g, "O-O-O").is_err());

    // Nadvorney's extra castlings across the a/h seam.
    let n = common::game(NADVORNEY);
    assert_eq!(play(&n, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", &["C0-0-0"]), "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
    assert_eq!(play(&n, "2k5/8/8/8/8/8/8/R3K3 w Q - 0 1", &["C0-0"]), "2k5/8/8/8/8/8/8/5RK1 b - - 1 1");
}

// ---------------------------------------------------------------------------------------------
// Status

#[test]
fn status_checkmate_and_stalemate() {
    let g = common::game(ORTHODOX);
    let mut mate = parse(&g, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(mate.status(&g, &[]), Status::Checkmate { loser: 0 });
    let mut back_rank = parse(&g, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    assert_eq!(back_rank.status(&g, &[]), Status::Checkmate { loser: 1 });
    let mut stale = parse(&g, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stale.status(&g, &[]), Status::Stalemate { side: 1, outcome: Outcome::Draw });
    let mut check = parse(&g, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert_eq!(check.status(&g, &[]), Status::Ongoing, "check is not mate");
    assert_eq!(Position::start(&g).status(&g, &[]), Status::Ongoing);
}

#[test]
fn status_fifty_move_rule() {
    let g = common::game(ORTHODOX);
    let mut p = parse(&g, "4k3/8/8/8/8/8/8/4K2R w K - 100 80");
    assert_eq!(p.status(&g, &[]), Status::FiftyMove);
    let mut p = parse(&g, "4k3/8/8/8/8/8/8/4K2R w K - 99 80");
    assert_eq!(p.status(&g, &[]), Status::Ongoing);
    let mv = p.parse_move(&g, "Rh1-h2").unwrap();
    p.make(&g, mv);
    assert_eq!(p.halfmove, 100);
    assert_eq!(p.status(&g, &[]), Status::FiftyMove);
    // A pawn move resets the clock.
    let mut p = parse(&g, "4k3/8/8/8/8/8/P7/4K3 w - - 99 80");
    let mv = p.parse_move(&g, "a2-a3").unwrap();
    p.make(&g, mv);
    assert_eq!(p.halfmove, 0);
    assert_eq!(p.status(&g, &[]), Status::Ongoing);
    // Checkmate on the hundredth ply is still checkmate.
    let mut p = parse(&g, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    let mv = p.parse_move(&g, "Ra1-a8").unwrap();
    p.make(&g, mv);
    assert_eq!(p.status(&g, &[]), Status::Checkmate { loser: 1 });
}

#[test]
fn status_repetition_through_the_engine() {
    let e = common::engine(ORTHODOX);
    let shuffle = ["Ng1-f3", "Ng8-f6", "Nf3-g1", "Nf6-g8"];
    let moves: Vec<&str> = shuffle.iter().cycle().take(12).copied().collect();
    // The start position recurs after 4 and 8 plies: the third occurrence is a draw.
    for plies in 0..8 {
        let (_, status) = e.play_status(None, &moves[..plies]).unwrap();
        assert_eq!(status, "ongoing", "after {plies} plies");
    }
    let (text, status) = e.play_status(None, &moves[..8]).unwrap();
    assert_eq!(text, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5");
    assert_eq!(status, "draw by repetition");
    let err = e.play_status(None, &moves[..9]).expect_err("no move after the draw");
    let err = err.to_string();
    assert!(err.contains("Ng1-f3") && err.contains("repetition"), "{err}");

    // Repetitions count only positions with the same castling rights: a rook that moved and came
    // back has lost its right. Positions after plies 0 and 8 have the same pieces but not the same
    // rights; those after plies 2, 6 and 10 (both rooks on b1/b8, no rights) are the first triple.
    let rook = ["Ra1-b1", "Ra8-b8", "Rb1-a1", "Rb8-a8"];
    let moves: Vec<&str> = rook.iter().cycle().take(12).copied().collect();
    let from = Some("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1");
    for plies in 0..10 {
        let (_, status) = e.play_status(from, &moves[..plies]).unwrap();
        assert_eq!(status, "ongoing", "after {plies} plies");
    }
    let (_, status) = e.play_status(from, &moves[..10]).unwrap();
    assert_eq!(status, "draw by repetition");

    // Other statuses as words.
    let (_, status) = e.play_status(None, &["f2-f3", "e7-e5", "g2-g4", "Qd8-h4"]).unwrap();
    assert_eq!(status, "checkmate: white is mated");
    let (_, status) = e.play_status(Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), &[]).unwrap();
    assert_eq!(status, "stalemate: black cannot move; a draw");
    let (_, status) = e.play_status(Some("4k3/8/8/8/8/8/8/4K2R w K - 100 80"), &[]).unwrap();
    assert_eq!(status, "draw by the fifty-move rule");
}

#[test]
fn engine_texts_round_trip() {
    let e = common::engine(NADVORNEY);
    let start = e.position_text(None).unwrap();
    assert_eq!(start, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let general = e.general_text(None).unwrap();
    assert!(general.starts_with("turn=white white="), "{general}");
    assert_eq!(e.position_text(Some(&general)).unwrap(), start);
    assert_eq!(e.general_text(Some(&start)).unwrap(), general);
    let after = e.play(None, &["e2-e4", "d7-d5"]).unwrap();
    assert_eq!(after, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
    assert_eq!(e.position_text(Some(&after)).unwrap(), after);
}

/// For repetition, an en-passant cell belongs to the position only when the side to move can
/// take there (FIDE 9.2.2), and unmoved pieces only through the castling rights they carry.
#[test]
fn hash_counts_only_en_passant_that_can_be_taken() {
    let engine = common::engine("examples/orthodox.orbis");
    let orbis_runtime::Engine::Narrow(game) = &engine else { panic!("an 8x8 board is narrow") };
    let hash = |fen: &str| orbis_runtime::Position::parse(game, fen).unwrap().hash;
    // No black pawn can take on e3: the same position as without the en-passant cell.
    assert_eq!(hash("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"), hash("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"));
    // A black pawn on d4 can: a different position.
    assert_ne!(hash("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"), hash("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1"));
    // A king whose rooks are gone carries no right: the same position whether it moved or not.
    let moved = engine.play(Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), &["Ke1-d1", "Ke8-d8", "Kd1-e1", "Kd8-e8"]).unwrap();
    assert_eq!(hash(&moved), hash("4k3/8/8/8/8/8/8/4K3 w - - 4 3"));
}

/// FEN reads en-passant cells as the general text does: a cell the victim passed must be
/// empty (fuzzing found FEN accepting `d5` with a pawn on it, whose general text then failed
/// to read back: fuzz/regressions/position/fen-en-passant-occupied).
#[test]
fn fen_en_passant_cells_must_be_empty() {
    let engine = common::engine("examples/orthodox.orbis");
    let orbis_runtime::Engine::Narrow(game) = &engine else { panic!("an 8x8 board is narrow") };
    let read = |fen: &str| orbis_runtime::Position::parse(game, fen).map(|_| ()).map_err(|e| e.to_string());
    // Black's d7-d5 passed d6: fine.
    assert_eq!(read("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"), Ok(()));
    // A white piece on d6 cannot stand on a cell a black pawn just passed.
    let e = read("4k3/8/3N4/3pP3/8/8/8/4K3 w - d6 0 1").unwrap_err();
    assert!(e.contains("cannot just have passed d6"), "{e}");
    // Several cells run together (Fairy-Stockfish's form), one of them occupied.
    let e = read("4k3/8/3N4/3pP3/8/8/8/4K3 w - d6d5 0 1").unwrap_err();
    assert!(e.contains("cannot just have passed"), "{e}");
}
