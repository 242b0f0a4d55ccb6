//! Pieces in hand and drops (docs/language.md, "Pieces in hand and drops"): Crazyhouse, Shogi and
//! Minishogi against the slow reference generator from positions with pieces in hand, the rules a drop
//! obeys (`not on`, `one-per-file`, `no-mate`), captures into the hand (`captured-as`),
//! promotion from a `from-or-to` zone, the notation (FEN hands, `+P`, `Q~`, `P@e4`, `c7c8+`), and
//! drops on a board without files (the 5x5 cube).

mod common;

use common::reference::{from_general, perft};

const CRAZYHOUSE: &str = "examples/fairy/crazyhouse.orbis";
const SHOGI: &str = "examples/fairy/shogi.orbis";
const MINISHOGI: &str = "examples/fairy/minishogi.orbis";

/// The runtime and the reference count the same from `fen` to `depth`.
fn agree(path: &str, fen: &str, depth: usize) {
    let v = common::variant(path);
    let engine = common::engine(path);
    let p = from_general(&v, &engine.general_text(Some(fen)).unwrap());
    for d in 1..=depth {
        assert_eq!(engine.perft(Some(fen), d).unwrap(), perft(&v, &p, d), "{path} {fen} perft({d})");
    }
}

/// The published Crazyhouse positions with pieces in hand (tests/perft/fairy.txt) at low depth.
#[test]
fn crazyhouse_hands_match_reference() {
    agree(CRAZYHOUSE, "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1", 1);
    agree(CRAZYHOUSE, "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1", 3);
    agree(CRAZYHOUSE, "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1", 2);
    // Promoted pieces on the board and in a position where they can be captured.
    agree(CRAZYHOUSE, "r3k2r/1Q~6/8/8/8/8/6q~1/R3K2R[Pp] w KQkq - 0 1", 2);
}

/// Loop chess and Chessgi (promoted pieces stay promoted in the hand; Chessgi's pawns may be
/// dropped on their first rank): the published positions.
#[test]
fn loop_and_chessgi_match_reference() {
    agree("examples/fairy/loop.orbis", "5R2/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnppp] b - - 1 1", 2);
    agree("examples/fairy/chessgi.orbis", "5Rp1/2p1Nb2/2B4k/6p1/8/P3PP2/1PPqR3/3R1BKn[QBNPPPPrrrnpp] b - - 1 48", 2);
}

/// Shogi from the positions of tests/perft/fairy.txt with pieces in hand and promoted pieces.
#[test]
fn shogi_hands_match_reference() {
    agree(SHOGI, "1ns4+B1/lr2gks2/+Np1p3pl/2Ngpp2p/8P/1P3P2L/2PPP1pP1/PBR2K1S1/L1S1GG1N1[PPp] b - - 0 26", 3);
    agree(SHOGI, "l1sg1k1nl/1r2gBs2/p1n2pPp1/1pp1p3p/9/2P1P4/PPNP1PpPP/LSB1GR2L/4K1SN1[Gp] b - - 0 26", 3);
    agree(SHOGI, "k8/2S6/1G7/9/4P4/9/9/9/4K4[PLp] w 0 1", 2);
}

/// Minishogi from the positions of tests/perft/fairy.txt with pieces in hand and promoted pieces.
#[test]
fn minishogi_hands_match_reference() {
    agree(MINISHOGI, "5/1+B1sk/P4/+B2g1/KGS2[PRr] w - - 0 17", 3);
    agree(MINISHOGI, "1b3/4k/+R2ps/2Bg1/K3+p[GSR] b - - 0 26", 3);
    agree(MINISHOGI, "4k/2S2/3G1/5/K4[Pp] w 0 1", 3);
}

/// Minishogi's rules on its 5x5 board: the zone is the last rank (promotion optional entering or
/// leaving it, compulsory for a pawn reaching it), no pawn drop there, nifu, uchifuzume.
#[test]
fn minishogi_promotes_and_drops_as_fairy_stockfish() {
    let engine = common::engine(MINISHOGI);
    let moves = |fen: &str, from: &str| -> Vec<String> { notations(&engine, fen).into_iter().filter(|m| m[1..].starts_with(from)).collect() };
    // A silver leaving the last rank may promote; a pawn reaching it must.
    assert_eq!(moves("k4/5/5/5/2S1K[] w 0 1", "c1"), ["Sc1-b2", "Sc1-c2", "Sc1-d2"]);
    assert_eq!(moves("2S1k/5/5/5/4K[] w 0 1", "c5"), ["Sc5-b4", "Sc5-b4=V", "Sc5-d4", "Sc5-d4=V"]);
    assert_eq!(moves("4k/P4/5/5/4K[] w 0 1", "a4"), ["Pa4-a5=T"]);
    let moves = notations(&engine, "4k/2S2/3G1/5/K4[Pp] w 0 1");
    assert!(!moves.contains(&"P@e4".to_string()), "a pawn drop that mates");
    assert!(moves.contains(&"P@e3".to_string()));
    assert!(!moves.iter().any(|m| m.starts_with("P@") && m.ends_with('5')), "no pawn drop on the last rank");
    assert!(!notations(&engine, "4k/5/5/P4/K4[P] w 0 1").iter().any(|m| m.starts_with("P@a")), "nifu");
    // Fairy-Stockfish's start, and its promotion and drop forms.
    assert_eq!(engine.position_text(Some("rbsgk/4p/5/P4/KGSBR[-] w 0 1")).unwrap(), engine.position_text(None).unwrap());
    let after = engine.play(Some("k4/2S2/5/5/4K[P] w 0 1"), &["c4b5+", "a5b5", "P@a3"]).unwrap();
    assert_eq!(after, "1k3/5/P4/5/4K[s] b - - 1 2");
}

fn notations(engine: &orbis_runtime::Engine, fen: &str) -> Vec<String> {
    engine.moves(Some(fen)).unwrap().into_iter().map(|m| m.notation).collect()
}

/// A capture puts the piece in the capturer's hand, a promoted queen as a pawn; FEN writes the
/// hand in brackets and the promoted piece as `Q~`, and reads the `/` form too.
#[test]
fn crazyhouse_captures_go_to_the_hand() {
    let engine = common::engine(CRAZYHOUSE);
    let after = engine.play(None, &["e2e4", "d7d5", "e4d5", "d8d5"]).unwrap();
    assert_eq!(after, "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3");
    assert!(notations(&engine, &after).contains(&"P@e4".to_string()));
    // A pawn may not be dropped on the first or last rank; dropped on its second rank it may step twice.
    let moves = notations(&engine, &after);
    assert!(!moves.iter().any(|m| m.starts_with("P@") && (m.ends_with('1') || m.ends_with('8'))));
    let dropped = engine.play(Some("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"), &["P@a2", "Ke8-d8"]).unwrap();
    assert!(notations(&engine, &dropped).contains(&"Pa2-a4".to_string()));
    // Promotion makes a `Q~`; taken, it goes to the hand as a pawn.
    let promoted = engine.play(Some("4k3/P7/8/8/8/8/4K3/7q[] w - - 0 1"), &["a7a8q"]).unwrap();
    assert_eq!(promoted, "Q~3k3/8/8/8/8/8/4K3/7q[] b - - 0 1");
    let taken = engine.play(Some(&promoted), &["Qh1xa8"]).unwrap();
    assert_eq!(taken, "q3k3/8/8/8/8/8/4K3/8[p] w - - 0 2");
    assert_eq!(engine.position_text(Some("2k5/8/8/8/8/8/8/4K3/Qn w - - 0 1")).unwrap(), "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1");
    // A drop can stop a check.
    let check = "4k3/8/8/8/8/8/8/r3K3[N] w - - 0 1";
    let drops: Vec<String> = notations(&engine, check).into_iter().filter(|m| m.contains('@')).collect();
    assert_eq!(drops, ["N@b1", "N@c1", "N@d1"]);
    // A rook dropped on its corner gives no castling right back.
    let rook = engine.play(Some("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1"), &["R@h1", "Ke8-d8"]).unwrap();
    assert!(!notations(&engine, &rook).contains(&"O-O".to_string()), "{rook}");
}

/// Shogi's drop rules: no pawn drop on a file with an own unpromoted pawn (nifu), no pawn drop
/// that mates (uchifuzume: a lance may), no pawn or lance drop on the last rank, no knight drop
/// on the last two.
#[test]
fn shogi_drops_follow_the_rules() {
    let engine = common::engine(SHOGI);
    let fen = "k8/2S6/1G7/9/4P4/9/9/9/4K4[PLNp] w 0 1";
    let moves = notations(&engine, fen);
    assert!(!moves.contains(&"P@a8".to_string()), "a pawn drop that mates");
    assert!(moves.contains(&"L@a8".to_string()), "a lance drop that mates");
    assert!(!moves.iter().any(|m| m.starts_with("P@e")), "nifu");
    assert!(!moves.iter().any(|m| (m.starts_with("P@") || m.starts_with("L@")) && m.ends_with('9')));
    assert!(!moves.iter().any(|m| m.starts_with("N@") && (m.ends_with('8') || m.ends_with('9'))));
    assert!(moves.contains(&"N@c6".to_string()) && moves.contains(&"P@d8".to_string()));
    // A tokin on the file does not count for nifu.
    assert!(notations(&engine, "k8/9/9/9/4+P4/9/9/9/4K4[P] w 0 1").contains(&"P@e4".to_string()));
}

/// Shogi promotion: optional for a move that starts or ends in the last three ranks, compulsory
/// where the piece could not move again; captured promoted pieces go to the hand unpromoted.
#[test]
fn shogi_promotes_entering_or_leaving_the_camp() {
    let engine = common::engine(SHOGI);
    let moves = |fen: &str, from: &str| -> Vec<String> { notations(&engine, fen).into_iter().filter(|m| m[1..].starts_with(from)).collect() };
    // A silver leaving the camp backwards may promote.
    let silver = moves("4k4/9/4S4/9/9/9/9/9/4K4[] w 0 1", "e7");
    for m in ["Se7-e8", "Se7-e8=V", "Se7-d6", "Se7-d6=V", "Se7-f6=V"] {
        assert!(silver.contains(&m.to_string()), "{m} in {silver:?}");
    }
    // A pawn must promote on the last rank, may on the seventh and eighth.
    assert_eq!(moves("k8/4P4/9/9/9/9/9/9/4K4[] w 0 1", "e8"), ["Pe8-e9=T"]);
    assert_eq!(moves("k8/9/9/4P4/9/9/9/9/4K4[] w 0 1", "e6"), ["Pe6-e7", "Pe6-e7=T"]);
    // A knight two ranks from the end must promote.
    assert_eq!(moves("k8/9/9/4N4/9/9/9/9/4K4[] w 0 1", "e6"), ["Ne6-d8=W", "Ne6-f8=W"]);
    // Fairy-Stockfish's forms: `+P` in FEN, `e8e9+` for the promotion (no move resets the
    // clock: Shogi has no fifty-move rule); a captured horse returns as a bishop.
    let after = engine.play(Some("k8/4P4/9/9/9/9/9/9/4K4[] w 0 1"), &["e8e9+"]).unwrap();
    assert_eq!(after, "k3+P4/9/9/9/9/9/9/9/4K4[] b - - 1 1");
    let taken = engine.play(Some("k8/9/9/9/9/9/9/9/r2+BK4[] b - - 0 1"), &["a1d1"]).unwrap();
    assert!(taken.ends_with("[b] w - - 0 2"), "{taken}");
    // The start in Fairy-Stockfish's form, without castling and en-passant fields.
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1";
    assert_eq!(engine.position_text(Some(start)).unwrap(), engine.position_text(None).unwrap());
}

/// Drops are general: on the 5x5 cube (a board of polygons, no files) captured pieces go to the
/// hand and come back, as the reference finds them.
#[test]
fn drops_on_the_cube() {
    let path = "examples/cube/cube-5x5.orbis";
    let source = std::fs::read_to_string(common::root().join(path)).unwrap();
    assert!(source.contains("rules {"), "the cube's rules block");
    let source = source.replacen("rules {", "rules {\n  drops", 1);
    let v = common::variant_from(path, &source);
    assert!(v.rules.drops);
    let engine = orbis_runtime::Engine::new(orbis_compiler::lower::lower(&v)).unwrap();
    // Play into a position where pieces were captured, then compare a few plies.
    let mut text = engine.position_text(None).unwrap();
    let mut seed = 99u64;
    let mut held = false;
    for _ in 0..40 {
        let moves = engine.moves(Some(&text)).unwrap();
        if moves.is_empty() {
            break;
        }
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        // A capture (the mover's hand grows) when there is one, else a move drawn at random.
        let after: Vec<String> = moves.iter().map(|m| engine.play(Some(&text), &[m.notation.as_str()]).unwrap()).collect();
        let hand = |t: &str| engine.general_text(Some(t)).unwrap().split_whitespace().find(|f| f.starts_with("hand=")).map_or(0, str::len);
        let now = hand(&text);
        text = match after.iter().find(|t| hand(t) > now) {
            Some(t) => t.clone(),
            None => after[(seed >> 33) as usize % after.len()].clone(),
        };
        held |= text.contains("hand=");
        if held && engine.moves(Some(&text)).unwrap().iter().any(|m| m.kind == "drop") {
            break;
        }
    }
    assert!(held, "no capture in 40 plies: {text}");
    let p = from_general(&v, &engine.general_text(Some(&text)).unwrap());
    for d in 1..=2 {
        assert_eq!(engine.perft(Some(&text), d).unwrap(), perft(&v, &p, d), "cube with drops, perft({d}) from {text}");
    }
}

/// The engine finds a mate by a drop, and in Shogi does not look for one with a pawn (a pawn drop
/// that mates is no move): `search` and `play` over hands.
#[test]
fn engine_drops_to_mate() {
    use orbis_runtime::search::{Score, SearchLimits};
    let limits = SearchLimits { depth: Some(2), ..SearchLimits::default() };
    let engine = common::engine(CRAZYHOUSE);
    // Back rank: the rook from the hand mates on the eighth rank.
    let fen = "6k1/5ppp/8/8/8/8/8/6K1[R] w - - 0 1";
    let report = engine.search(Some(fen), &[], limits).unwrap();
    assert_eq!(report.score, Score::Mate(1), "{:?}", report.pv);
    let best = report.best.unwrap();
    assert_eq!((best.kind, best.uci.as_str()), ("drop", best.notation.as_str()));
    let (_, status) = engine.play_status(Some(fen), &[best.notation.as_str()]).unwrap();
    assert!(status.starts_with("checkmate"), "{status}");
    // Shogi: only the lance may mate from the hand on a8; the engine drops it, not the pawn.
    let engine = common::engine(SHOGI);
    let fen = "k8/2S6/1G7/9/4P4/9/9/9/4K4[PLp] w 0 1";
    let report = engine.search(Some(fen), &[], limits).unwrap();
    assert_eq!(report.score, Score::Mate(1), "{:?}", report.pv);
    assert_eq!(report.best.unwrap().notation, "L@a8");
}

const CANNON_DROPS: &str = "tests/hops/cannon-drops.orbis";

/// Drops in a game with hops: a piece dropped between an enemy cannon and the own king is its
/// screen and puts the king in check, so it is no move; a pawn dropped as the screen of its own
/// side's cannon may mate, which `no-mate` forbids (only P@h7, which the king takes, stays on the
/// h-file). Both were allowed before drops onto a hop zone were played to be judged.
#[test]
fn drops_are_screens_for_hops() {
    let drops = |fen: &str| -> Vec<String> {
        let moves = common::engine(CANNON_DROPS).moves(Some(fen)).unwrap();
        moves.into_iter().filter(|m| m.kind == "drop").map(|m| m.notation).collect()
    };
    // The black cannon on e8 aims at the white king on e1 over an empty file.
    let screen = "k3c3/8/8/8/8/8/8/4K3[N] w - - 0 1";
    let on_file: Vec<String> = drops(screen).into_iter().filter(|d| d.contains("@e")).collect();
    assert!(on_file.is_empty(), "drops that screen the cannon's check: {on_file:?}");
    assert_eq!(drops(screen).len(), 64 - 3 - 6);
    // The white cannon on h1 and a pawn dropped on h2..h6 mate the king on h8.
    let mate = "6rk/6p1/8/8/8/8/8/K6C[P] w - - 0 1";
    let h_file: Vec<String> = drops(mate).into_iter().filter(|d| d.contains("@h")).collect();
    assert_eq!(h_file, ["P@h7"]);
    for fen in [screen, mate, "r3k2r/pppc1ppp/8/3p4/8/8/PPPC1PPP/R3K2R[NPnp] w - - 0 1"] {
        agree(CANNON_DROPS, fen, 2);
    }
}
