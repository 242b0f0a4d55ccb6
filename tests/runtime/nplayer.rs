//! Games of more than two sides (docs/language.md, "Sides" and "Rules"): teams, eliminations,
//! the turn order and the rule for valid positions, cross-checked against the reference move
//! generator (tests/common/reference.rs) with exact perft counts.

use crate::common;

use common::reference::{board_part, from_general, general, legal, perft, start};
use orbis_runtime::{Game, Position};

/// Three sides, each a team of its own; `eliminated remove` (the default).
const THREE: &str = "tests/nplayer/three.orbis";
/// The same with `eliminated stay`.
const THREE_STAY: &str = "tests/nplayer/three-stay.orbis";
/// The same with `game-end first-mate`.
const THREE_FIRST: &str = "tests/nplayer/three-first.orbis";
/// Four sides in three teams (red and green allies), `eliminated stay`.
const FOUR: &str = "tests/nplayer/four-teams.orbis";
/// Four sides in two teams (red and green against blue and yellow): nobody is ever out.
const FOUR_TWO: &str = "tests/nplayer/four-two-teams.orbis";
/// Three sides with stacks, `eliminated remove`: an eliminated side's stacks leave whole.
const THREE_STACKS: &str = "tests/nplayer/three-stacks.orbis";
/// `THREE_STAY` with kings that also take kings along open files (`takes K`).
const THREE_FLYING: &str = "tests/nplayer/three-flying.orbis";

/// Red to move: Rb2-b1 and Rb2-e2 mate blue; most other moves leave blue stalemated (the rook on
/// b2 guards e2, green's rook on d5 the d-file).
const BLUE_FALLS: &str = "turn=red red=Kc3,Rb2 blue=Ke1 green=Ke5,Rd5,Ra2";
/// The same with green to move: blue, next, has no move unless green frees e2.
const BLUE_STUCK: &str = "turn=green red=Kc3,Rb2 blue=Ke1 green=Ke5,Rd5,Ra2";
/// Red to move, blue with a stack on c4 (a Pawn, blocked by green's rook, on a Rook): most moves
/// leave blue without a move (Rb2-a2 too); once blue is out, nothing of it stays on c4.
const BLUE_FALLS_STACKED: &str = "turn=red red=Kc3,Rb2 blue=Ke1,P/Rc4 green=Ke5,Rd5,Rb4";
/// Green to move: Rc5-c6 mates yellow, whose turn comes next; red and green are allies.
const YELLOW_FALLS: &str = "turn=green red=Kc3,Re5 blue=Kf1,Be3 green=Kd1,Rc5 yellow=Ka6,Ba3";

/// Red to move in the game of two teams: Rd5-d1 mates blue (green's rook guards e2).
const BLUE_MATED_BY_TEAMS: &str = "turn=red red=Kd6,Rd5 blue=Kf1,Rf2 green=Kc3,Rb2 yellow=Ka6,Bb6";

/// Perft of the runtime from `position` (the start if `None`) against the reference, and both
/// against `expected` (depths 1, 2, ...).
fn cross_check(path: &str, position: Option<&str>, expected: &[u64]) {
    let v = common::variant(path);
    let engine = common::engine(path);
    let p = match position {
        Some(text) => from_general(&v, &engine.general_text(Some(text)).expect("position reads")),
        None => start(&v),
    };
    let mut runtime = Vec::new();
    let mut reference = Vec::new();
    for d in 1..=expected.len() {
        runtime.push(engine.perft(position, d).expect("perft"));
        reference.push(perft(&v, &p, d));
    }
    assert_eq!(runtime, reference, "{path} from {position:?}: runtime and reference differ");
    assert_eq!(runtime, expected, "{path} from {position:?}");
}

#[test]
fn start_positions_agree_with_the_reference() {
    cross_check(THREE, None, &[8, 35, 258, 2038]);
    // The first elimination comes at ply 2 (Rb1xd1 mates blue); inert pieces change the count at
    // ply 4.
    cross_check(THREE_STAY, None, &[8, 35, 258, 2029]);
    // Rb1xd1 ends the game instead.
    cross_check(THREE_FIRST, None, &[8, 27, 196, 1520]);
    cross_check(FOUR, None, &[10, 74, 399, 2770]);
    cross_check(FOUR_TWO, None, &[10, 33, 284, 813]);
    cross_check(THREE_STACKS, None, &[4, 36, 173, 1319, 10919, 88516]);
}

#[test]
fn eliminations_within_the_count_agree_with_the_reference() {
    cross_check(THREE, Some(BLUE_FALLS), &[12, 137, 1076, 13160]);
    cross_check(THREE_STAY, Some(BLUE_FALLS), &[12, 137, 1076, 13160]);
    // First mate: the stalemates and mates of blue end the game at ply 2.
    cross_check(THREE_FIRST, Some(BLUE_FALLS), &[12, 1, 14, 70]);
    cross_check(THREE, Some(BLUE_STUCK), &[13, 115, 844, 6656]);
    cross_check(THREE_FIRST, Some(BLUE_STUCK), &[13, 115, 58, 653]);
    cross_check(FOUR, Some(YELLOW_FALLS), &[6, 47, 353, 2808]);
    cross_check(FOUR_TWO, Some(BLUE_MATED_BY_TEAMS), &[12, 91, 981, 4021]);
    // (Before the hidden pieces left with their side, perft 5 was 39686: blue's Rook stayed
    // hidden on c4, beneath the next piece to land there.)
    cross_check(THREE_STACKS, Some(BLUE_FALLS_STACKED), &[9, 62, 495, 5135, 39648]);
}

/// A rule that takes only royal pieces makes no move with two sides (it only attacks:
/// `Game::walked`), but with three, once a side is out, its king is no longer royal and stays
/// (`eliminated stay`): red's king takes blue's along the a-file.
#[test]
fn a_rule_that_takes_kings_takes_those_of_a_side_that_is_out() {
    let position = "turn=red red=Ka1,Rb2 blue=Ka5 green=Kd3,Re4 out=blue";
    let moves = common::engine(THREE_FLYING).moves(Some(position)).unwrap();
    assert!(moves.iter().any(|m| m.notation == "Ka1xa5"), "{:?}", moves.iter().map(|m| &m.notation).collect::<Vec<_>>());
    cross_check(THREE_FLYING, Some(position), &[11, 121, 1067, 9585]);
}

/// Under `eliminated remove` an eliminated side's stacks leave the board whole; unmake puts
/// them back.
#[test]
fn an_eliminated_side_takes_its_stacks_with_it() {
    let engine = common::engine(THREE_STACKS);
    let (text, status) = engine.play_status(Some(BLUE_FALLS_STACKED), &["Rb2-a2"]).unwrap();
    assert_eq!(text, "turn=green red=Ra2,Kc3 blue= green=Rb4,Rd5,Ke5 out=blue clock=1 move=1");
    assert_eq!(status, "ongoing; out: blue");
    // Green's rook lands on c4 and leaves it: nothing was beneath it.
    let (text, _) = engine.play_status(Some(BLUE_FALLS_STACKED), &["Rb2-a2", "Rb4-c4", "Kc3-b3", "Rc4-c5"]).unwrap();
    assert_eq!(text, "turn=red red=Ra2,Kb3 blue= green=Rc5,Rd5,Ke5 out=blue clock=4 move=3");
    let game: Game<u64> = common::game(THREE_STACKS);
    let mut pos = Position::parse(&game, BLUE_FALLS_STACKED).unwrap();
    let before = pos.clone();
    let mut moves = Vec::new();
    pos.legal_moves(&game, &mut moves);
    let mv = *moves.iter().find(|&&m| pos.notation(&game, m) == "Rb2-a2").unwrap();
    let undo = pos.make(&game, mv);
    assert!(pos.stacked == 0 && pos.under.iter().all(|&u| u == 0), "blue's hidden Rook left");
    assert_eq!(pos.hash, pos.full_hash(&game));
    pos.unmake(&game, &undo);
    assert_eq!(pos, before);
}

/// Random games followed move by move in the reference (moves compared by count, positions by
/// their pieces and out-set), then perft 2 from where they end.
#[test]
fn random_games_agree_with_the_reference() {
    for path in [THREE, THREE_STAY, THREE_FIRST, FOUR, FOUR_TWO, THREE_STACKS] {
        let v = common::variant(path);
        let engine = common::engine(path);
        let mut seed = 777u64;
        for _game in 0..8 {
            let mut p = start(&v);
            let mut played: Vec<String> = Vec::new();
            for _ply in 0..24 {
                let now: Vec<&str> = played.iter().map(String::as_str).collect();
                let moves = engine.moves(Some(&engine.play(None, &now).unwrap())).unwrap();
                let next = legal(&v, &p);
                assert_eq!(moves.len(), next.len(), "{path}: move count after {played:?}");
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                played.push(moves[(seed >> 33) as usize % moves.len()].notation.clone());
                let now: Vec<&str> = played.iter().map(String::as_str).collect();
                let target = engine.general_text(Some(&engine.play(None, &now).unwrap())).unwrap();
                p = next
                    .into_iter()
                    .find(|q| general(&v, q) == board_part(&target))
                    .unwrap_or_else(|| panic!("{path}: reference has no move to {target}"));
            }
            let now: Vec<&str> = played.iter().map(String::as_str).collect();
            let text = engine.play(None, &now).unwrap();
            assert_eq!(engine.perft(Some(&text), 2).unwrap(), perft(&v, &p, 2), "{path} after {played:?}");
        }
    }
}

/// Every move of random playouts: unmake restores the position (removed pieces and out-set
/// included), the incremental hash equals the hash from scratch, and the position's text reads
/// back as the same position.
#[test]
fn make_unmake_and_notation_round_trip() {
    for path in [THREE, THREE_STAY, THREE_FIRST, FOUR, FOUR_TWO, THREE_STACKS] {
        let game: Game<u64> = common::game(path);
        let mut eliminations = 0;
        for seed in 1..=12u64 {
            let mut pos = Position::start(&game);
            let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut moves = Vec::new();
            for _ in 0..40 {
                moves.clear();
                pos.legal_moves(&game, &mut moves);
                if moves.is_empty() {
                    break;
                }
                for &mv in &moves {
                    let before = pos.clone();
                    let undo = pos.make(&game, mv);
                    assert_eq!(pos.hash, pos.full_hash(&game), "{path}: hash after {}", before.notation(&game, mv));
                    let back = Position::parse(&game, &pos.to_general(&game)).expect("reads back");
                    assert_eq!((back.hash, &back.board, back.out, back.to_move), (pos.hash, &pos.board, pos.out, pos.to_move), "{path}");
                    if pos.out != before.out {
                        eliminations += 1;
                    }
                    pos.unmake(&game, &undo);
                    assert_eq!(pos, before, "{path}: unmake of {}", before.notation(&game, mv));
                    assert_eq!(pos.removed.0.len(), before.removed.0.len());
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                pos.make(&game, moves[(rng % moves.len() as u64) as usize]);
            }
        }
        if path == THREE_FIRST || path == FOUR_TWO {
            assert_eq!(eliminations, 0, "{path}: no side goes out");
        } else {
            assert!(eliminations > 0, "{path}: no elimination happened in the playouts");
        }
    }
}

#[test]
fn eliminated_sides_are_shown_and_skipped_in_turn_order() {
    let engine = common::engine(THREE);
    let (text, status) = engine.play_status(Some(BLUE_FALLS), &["Rb2-b1"]).unwrap();
    assert_eq!(text, "turn=green red=Rb1,Kc3 blue= green=Ra2,Rd5,Ke5 out=blue clock=1 move=1");
    assert_eq!(status, "ongoing; out: blue");
    // Green, then red again: the full move counts up after green, the last side in play.
    let (text, _) = engine.play_status(Some(BLUE_FALLS), &["Rb2-b1", "Ke5-e4"]).unwrap();
    assert_eq!(text, "turn=red red=Rb1,Kc3 blue= green=Ra2,Ke4,Rd5 out=blue clock=2 move=2");
    // Inert pieces stay, and anyone may take them (the king of a side that is out included).
    let stay = common::engine(THREE_STAY);
    let (text, _) = stay.play_status(Some(BLUE_FALLS), &["Rb2-b1", "Ke5-e4", "Rb1xe1"]).unwrap();
    assert_eq!(text, "turn=green red=Re1,Kc3 blue= green=Ra2,Ke4,Rd5 out=blue clock=0 move=2");
    // A side that is out never moves again: its turn is skipped.
    let moves = stay.moves(Some("turn=green red=Rb1,Kc3 blue=Ke1 green=Ra2,Rd5,Ke5 out=blue move=1")).unwrap();
    assert!(moves.iter().all(|m| m.from != "e1"));
}

#[test]
fn results_name_the_teams() {
    let first = common::engine(THREE_FIRST);
    let (_, status) = first.play_status(Some(BLUE_FALLS), &["Rb2-b1"]).unwrap();
    assert_eq!(status, "checkmate: blue is mated; blue loses");
    let (_, status) = first.play_status(Some(BLUE_FALLS), &["Kc3-c4"]).unwrap();
    assert_eq!(status, "stalemate: blue cannot move; a draw");
    // Two teams left: the last mate ends the game and the other team wins.
    let four = common::engine(FOUR);
    let position = "turn=red red=Kd6,Rd5 blue=Kf1,Rf2 green=Kc3,Rb2 yellow=Ba3,Ka6 out=yellow";
    let (_, status) = four.play_status(Some(position), &["Rd5-d1"]).unwrap();
    assert_eq!(status, "checkmate: blue is mated; blue loses, team allies (red, green) wins; out: yellow");
    let two = common::engine(FOUR_TWO);
    let (_, status) = two.play_status(Some(BLUE_MATED_BY_TEAMS), &["Rd5-d1"]).unwrap();
    assert_eq!(status, "checkmate: blue is mated; team rivals (blue, yellow) loses, team allies (red, green) wins");
}

#[test]
fn teams_never_capture_nor_check_each_other() {
    let four = common::engine(FOUR);
    // Red's rook attacks green's king along the first rank: allies, so no check and no capture;
    // green's king is not in check and red moved last: the position is valid.
    let position = "turn=blue red=Kc3,Ra1 blue=Kf3 green=Kf1,Re6 yellow=Ka6,Bb6";
    let moves = four.moves(Some(position)).unwrap();
    assert!(!moves.is_empty());
    let red = four.moves(Some("turn=red red=Kc3,Rb1 blue=Kd5 green=Kf1,Re6 yellow=Ka6,Bb6")).unwrap();
    let notation: Vec<&str> = red.iter().map(|m| m.notation.as_str()).collect();
    assert!(notation.contains(&"Rb1-e1") && !notation.iter().any(|m| m.ends_with("f1")), "{notation:?}");
    assert!(notation.contains(&"Rb1xb6"), "{notation:?}");
}

#[test]
fn royal_pieces_are_never_captured() {
    // Blue's king stands attacked by red's rook (blue is not the side that moved last), and it is
    // red's turn: red may not take it.
    let engine = common::engine(THREE);
    let position = "turn=red red=Kc3,Rb1 blue=Ke1 green=Ke5,Rd5";
    let moves = engine.moves(Some(position)).unwrap();
    assert!(moves.iter().all(|m| m.to != "e1"));
    assert_eq!(moves.len(), 12);
}

#[test]
fn position_rules_for_three_or_more_teams() {
    let engine = common::engine(THREE);
    let refuse = |text: &str, needle: &str| {
        let e = engine.perft(Some(text), 1).unwrap_err().to_string();
        assert!(e.contains(needle), "{text}: {e}");
    };
    // The side that moved last (green, before red) may not be in check.
    refuse("turn=red red=Kc3,Re2 blue=Ka1 green=Ke5,Rd5", "green is in check, but it moved last (before red, whose turn it is)");
    refuse("turn=red red=Kc3 blue=Ka1 green=Ke5 out=green,blue", "fewer than two teams");
    refuse("turn=blue red=Kc3 blue=Ka1 green=Ke5 out=blue", "turn: blue is out of the game");
    refuse("turn=red red=Kc3 blue=Ka1 green=Ke5 out=blue", "blue is out, but has pieces on the board");
    refuse("turn=red red=Kc3 blue= green=Ke5 out=blue,blue", "listed twice");
    refuse("turn=red red=Kc3 blue= green=Ke5 out=pink", "'pink' is not a side");
    let first = common::engine(THREE_FIRST);
    let e = first.perft(Some("turn=red red=Kc3 blue= green=Ke5 out=blue"), 1).unwrap_err().to_string();
    assert!(e.contains("first-mate"), "{e}");
    // A side to move without a legal move while three teams play is out at once.
    let text = engine.general_text(Some("turn=blue red=Kc3,Rb2 blue=Ke1 green=Ke5,Rd5,Ra2")).unwrap();
    assert_eq!(text, "turn=green red=Rb2,Kc3 blue= green=Ra2,Rd5,Ke5 out=blue clock=0 move=1");
}
