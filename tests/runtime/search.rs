//! The engine's search (runtime/src/search.rs): forced mates on the orthodox board and on two
//! spherical boards (through their seams), a legal move on every example, the limits, the ends of
//! games as each variant's rules say, and (ignored by default) matches against a random mover.

use crate::common;

use orbis_runtime::bits::CellSet;
use orbis_runtime::outcome::Status;
use orbis_runtime::search::{Evaluator, Score, SearchLimits};
use orbis_runtime::tables::Outcome;
use orbis_runtime::{Engine, Game, Position, RequestError, Searcher};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const ORTHODOX: &str = "examples/orthodox.orbis";
const NADVORNEY: &str = "examples/spherical/nadvorney.orbis";
const SPHERE_CHESS: &str = "examples/spherical/sphere-chess.orbis";

fn depth(d: u32) -> SearchLimits {
    SearchLimits { depth: Some(d), ..SearchLimits::default() }
}

/// Searches `fen` at `d` plies and at `d + 2` (a deeper search must see the same mate: it is
/// forced and none is shorter), checks the score and the first move, then plays the principal
/// variation and checks that it ends in checkmate.
fn assert_mate(engine: &Engine, fen: &str, d: u32, moves: i32, first: &str) {
    let report = engine.search(Some(fen), &[], depth(d)).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(report.score, Score::Mate(moves), "{fen}: pv {:?}", report.pv);
    assert_eq!(report.best.as_ref().map(|m| m.notation.as_str()), Some(first), "{fen}: pv {:?}", report.pv);
    assert_eq!(report.pv.first().map(String::as_str), Some(first));
    assert_eq!(report.pv.len() as i32, 2 * moves - 1, "{fen}: pv {:?}", report.pv);
    let deeper = engine.search(Some(fen), &[], depth(d + 2)).expect("deeper search");
    assert_eq!(deeper.score, Score::Mate(moves), "{fen} at depth {}: pv {:?}", d + 2, deeper.pv);
    let pv: Vec<&str> = report.pv.iter().map(String::as_str).collect();
    let (_, status) = engine.play_status(Some(fen), &pv).expect("the principal variation is legal");
    assert!(status.starts_with("checkmate"), "{fen}: {pv:?} ends in {status}");
}

/// Mates in two from well-known games and problems.
#[test]
fn orthodox_mates_in_two() {
    let engine = common::engine(ORTHODOX);
    let cases = [
        // Morphy's problem: 1.Ra6! threatens 2.Rxa7# (the rook guarded by b6, b8 by the king);
        // 1...bxa6 2.b7# (a7 and b8 are Black's own, b7 guarded by the king); a bishop move
        // 2.Rxa7#.
        ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "Ra1-a6"),
        // Morphy - Duke Karl and Count Isouard, Paris 1858 (the Opera game): 16.Qb8+! Nxb8
        // (the only move: d8 and e7 are the bishop's, nothing else reaches b8) 17.Rd8#.
        ("4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 1 16", "Qb3-b8"),
        // Légal's mate: 6.Bxf7+ Ke7 (the only square) 7.Nd5#.
        ("r2qkbnr/ppp2ppp/2np4/4N3/2B1P3/2N5/PPPP1PPP/R1BbK2R w KQkq - 0 6", "Bc4xf7"),
        // 1.Qd8+! Bxd8 (the king is walled in by its own bishop and pawns) 2.Re8#, the rook
        // guarded by the bishop on b5.
        ("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", "Qd5-d8"),
        // 1.Nf6+ gxf6 (Kf8 and the rest lose as fast) 2.Bxf7#: the e7 knight and d8 queen box
        // the king, the knight on e5 guards f7.
        ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "Nd5-f6"),
    ];
    for (fen, first) in cases {
        assert_mate(&engine, fen, 4, 2, first);
    }
}

/// Mates in three.
#[test]
fn orthodox_mates_in_three() {
    let engine = common::engine(ORTHODOX);
    let cases = [
        // The king hunt after the Fried Liver-like sacrifice: 1...Bc5+ 2.Kxc5 (2.Kd5 Qd6# at
        // once: c4, c6, d3 are the knight's, e6 the queen's) Qb6+ 3.Kd5 Qd6#.
        ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", "Bf8-c5"),
        // The end of Philidor's legacy: 1.Nh6+ (double check) Kh8 (1...Kf8 2.Qf7#) 2.Qg8+! Rxg8
        // (the knight guards g8 against the king) 3.Nf7#, smothered.
        ("r5k1/5Npp/8/8/2Q5/8/8/6K1 w - - 0 1", "Nf7-h6"),
        // Back rank: White's three heavy pieces on the e-file against Black's two rooks:
        // 1.Qe8+ Rxe8 2.Rxe8+ Rxe8 3.Rxe8# (every check leaves only the capture).
        ("2rr2k1/5ppp/8/8/8/4Q3/4RPPP/4R1K1 w - - 0 1", "Qe3-e8"),
    ];
    for (fen, first) in cases {
        assert_mate(&engine, fen, 6, 3, first);
    }
}

/// Short mates that only exist through a spherical board's seams (found by playing the engine
/// against a random mover, `harvest_sphere_mates`): each is checked as a forced mate on its
/// board, and the same position on the orthodox board has no such mate.
#[test]
fn spherical_mates_through_the_seams() {
    let orthodox = common::engine(ORTHODOX);
    let cases = [
        // Nadvorney: the queen leaves d1 north-west, c2 b3 a4, crosses the a/h seam to h5 and
        // goes on to g6 and f7: Qd1xf7#. On the flat board d1 sees none of it.
        (NADVORNEY, "rnb1kb1r/5p2/pP1ppB1p/8/2P5/8/P2PPPPP/RN1QKBNR w KQkq - 0 9", 1, "Qd1xf7"),
        // Nadvorney: 1...Qxg1+, check along the first rank round the a/h seam (g1 h1 a1 b1);
        // 2.Kb2 (the only move not mated at once) Qxf1#: from f1 south over the pole to b1
        // (four files on), then north to b2.
        (NADVORNEY, "r1b1kbnr/p2p1p1p/2p5/4p3/8/1P6/2PPPq2/1K3BN1 b kq - 0 15", 2, "Qf2xg1"),
        // Sphere Chess: the queen goes north-east from d2 (e3 f4 g5 h6), across the a/h seam to
        // a7 and b8, over the north pole (turning back, four files on) to f8: Qd2-f8#.
        (SPHERE_CHESS, "r1bqk1nr/1ppppp2/p1n3p1/P6p/2P5/2N2N2/1P1QPPPP/R1B1KB1R w KQkq - 2 7", 1, "Qd2-f8"),
        // Sphere Chess: 1.Bxg6+: from f1 south-west over the south pole to b1, then c2 d3 e4 f5
        // g6, giving check through f7; 1...hxg6 2.Qxg6#: d1 c2 b3 a4, across the a/h seam, h5 g6
        // (the king may not cross the pole or the seam to escape).
        (SPHERE_CHESS, "rnbqkbnr/pp1pp2p/5pp1/2p5/2P5/2N2N2/PP1PPPPP/R1BQKB1R w KQkq - 0 4", 2, "Bf1xg6"),
    ];
    for (path, fen, moves, first) in cases {
        let engine = common::engine(path);
        assert_mate(&engine, fen, 4, moves, first);
        let flat = orthodox.search(Some(fen), &[], depth(4)).expect("an orthodox position too");
        assert!(
            !matches!(flat.score, Score::Mate(n) if n > 0),
            "{path}: {fen} mates on the flat board too: {:?} {:?}",
            flat.score,
            flat.pv
        );
    }
}

/// Every example variant (four-player cube, stacks, winding pieces and all) gets a legal move at
/// depth 2 from its start position, quickly.
#[test]
fn a_legal_move_on_every_example() {
    for path in common::variant_files() {
        let engine = common::engine(&path);
        let started = Instant::now();
        let report = engine.search(None, &[], depth(2)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let best = report.best.unwrap_or_else(|| panic!("{path}: no move"));
        let legal = engine.moves(None).unwrap();
        assert!(legal.contains(&best), "{path}: {} is not legal", best.notation);
        assert_eq!(report.depth, 2, "{path}");
        assert!(started.elapsed() < Duration::from_secs(20), "{path}: {:?}", started.elapsed());
    }
}

/// Positions from random playouts of every example (stacks, crowning, eliminations, winding
/// pieces): the search always returns a legal move, and the game's end when there is none.
#[test]
fn a_legal_move_after_random_playouts() {
    for path in common::variant_files() {
        let engine = common::engine(&path);
        let mut rng = Rng(0x5eed_0f0b);
        for plies in [12usize, 40] {
            let mut played: Vec<String> = Vec::new();
            for _ in 0..plies {
                let now: Vec<&str> = played.iter().map(String::as_str).collect();
                let text = engine.play(None, &now).unwrap();
                let moves = engine.moves(Some(&text)).unwrap();
                let (_, status) = engine.play_status(None, &now).unwrap();
                if moves.is_empty() || status != "ongoing" {
                    break;
                }
                played.push(moves[(rng.next() % moves.len() as u64) as usize].notation.clone());
            }
            let now: Vec<&str> = played.iter().map(String::as_str).collect();
            let limits = SearchLimits { depth: Some(3), nodes: Some(200_000), ..SearchLimits::default() };
            let report = engine.search(None, &now, limits).unwrap_or_else(|e| panic!("{path} after {now:?}: {e}"));
            let (text, status) = engine.play_status(None, &now).unwrap();
            match report.best {
                Some(best) => {
                    assert!(engine.moves(Some(&text)).unwrap().contains(&best), "{path} after {now:?}");
                    let mut line = now.clone();
                    line.extend(report.pv.iter().map(String::as_str));
                    engine.play(None, &line).unwrap_or_else(|e| panic!("{path}: pv {:?}: {e}", report.pv));
                }
                None => assert_ne!(status, "ongoing", "{path} after {now:?}"),
            }
        }
    }
}

/// The variant `source` as an engine (read as if it were the orthodox example's file).
fn engine_from(source: &str) -> Engine {
    let tables = orbis_compiler::lower::lower(&common::variant_from(ORTHODOX, source));
    Engine::new(tables).expect("engine loads")
}

/// Orthodox chess with its `rules` block replaced.
fn orthodox_with(rules: &str) -> Engine {
    let source = std::fs::read_to_string(common::root().join(ORTHODOX)).unwrap();
    let start = source.find("rules {").expect("a rules block");
    engine_from(&format!("{}rules {{\n{rules}\n}}\n", &source[..start]))
}

/// Stalemate scores as the rules say: with `stalemate loss`, stalemating a lone king wins at
/// once (Bd1-c2 takes h7, the king's last square); with `stalemate win` the search avoids it; a
/// draw by default.
#[test]
fn stalemate_follows_the_rules() {
    let fen = "7k/5K2/8/8/8/8/8/3B4 w - - 0 1";
    let loss = orthodox_with("stalemate loss").search(Some(fen), &[], depth(3)).unwrap();
    assert_eq!(loss.score, Score::Mate(1));
    assert_eq!(loss.best.unwrap().notation, "Bd1-c2");
    let win = orthodox_with("stalemate win").search(Some(fen), &[], depth(3)).unwrap();
    assert_ne!(win.best.unwrap().notation, "Bd1-c2");
    assert!(matches!(win.score, Score::Cp(_)), "{:?}", win.score);
    let draw = common::engine(ORTHODOX).search(Some(fen), &[], depth(3)).unwrap();
    assert_ne!(draw.best.unwrap().notation, "Bd1-c2");
    // Stalemated: the game is over.
    let over = orthodox_with("stalemate loss").search(Some("7k/5K2/8/8/8/8/2B5/8 b - - 0 1"), &[], depth(3)).unwrap();
    assert_eq!((over.best, over.score), (None, Score::Mate(0)));
}

/// `bare loss`: taking the last piece beside the king wins.
#[test]
fn bare_follows_the_rules() {
    let fen = "k7/8/8/3n4/8/8/8/3R2K1 w - - 0 1";
    let bare = orthodox_with("bare loss").search(Some(fen), &[], depth(3)).unwrap();
    assert_eq!(bare.score, Score::Mate(1));
    assert_eq!(bare.best.unwrap().notation, "Rd1xd5");
    let plain = common::engine(ORTHODOX).search(Some(fen), &[], depth(3)).unwrap();
    assert_eq!(plain.best.unwrap().notation, "Rd1xd5");
    assert!(matches!(plain.score, Score::Cp(v) if v > 300), "{:?}", plain.score);
}

/// A game already over gives no move; moves after its end are refused.
#[test]
fn finished_games() {
    let engine = common::engine(ORTHODOX);
    let fools = ["f2-f3", "e7-e5", "g2-g4", "Qd8-h4"];
    let mated = engine.search(None, &fools, depth(3)).unwrap();
    assert_eq!((mated.best, mated.score, mated.pv.len()), (None, Score::Mate(0), 0));
    let after = engine.search(None, &["f2-f3", "e7-e5", "g2-g4", "Qd8-h4", "e1-f2"], depth(3));
    assert!(matches!(after, Err(RequestError::GameOver { number: 5, .. })), "{after:?}");
    assert!(matches!(engine.search(None, &["e2-e5"], depth(1)), Err(RequestError::Move { number: 1, .. })));
    assert!(matches!(engine.search(None, &[], depth(65)), Err(RequestError::Limit(_))));
    // With the history played, Black parries the threat of Qh5xf7#.
    let history = ["e2-e4", "e7-e5", "Qd1-h5", "Nb8-c6", "Bf1-c4"];
    let report = engine.search(None, &history, depth(3)).unwrap();
    let mut line = history.to_vec();
    line.push(&report.best.as_ref().unwrap().notation);
    let reply = engine.search(None, &line, depth(2)).unwrap();
    assert!(!matches!(reply.score, Score::Mate(_)), "{line:?}: {:?} {:?}", reply.score, reply.pv);
}

/// Repetitions count as draws, with the game's history: a side a queen down steers into a
/// position the game has seen, and only with that history.
#[test]
fn repetition_is_a_draw() {
    let engine = common::engine(ORTHODOX);
    let fen = "7k/8/8/8/8/8/8/K2Q4 b - - 0 1";
    // Back where it started, Black to move: Kh8-g8 now repeats the position after the first move.
    let history = ["Kh8-g8", "Qd1-d2", "Kg8-h8", "Qd2-d1"];
    let report = engine.search(Some(fen), &history, depth(4)).unwrap();
    assert_eq!(report.score, Score::Cp(0), "{:?}", report.pv);
    assert_eq!(report.best.unwrap().notation, "Kh8-g8");
    let fresh = engine.search(Some(fen), &[], depth(4)).unwrap();
    assert!(matches!(fresh.score, Score::Cp(v) if v < -500), "{:?}", fresh.score);
}

/// Node limits, a stop flag already set, a short movetime: a legal move every time.
#[test]
fn limits_always_leave_a_legal_move() {
    let engine = common::engine(NADVORNEY);
    let legal = engine.moves(None).unwrap();
    let few = engine.search(None, &[], SearchLimits { nodes: Some(5), ..SearchLimits::default() }).unwrap();
    assert!(legal.contains(&few.best.unwrap()));
    assert!(few.nodes <= 6);
    let stop = AtomicBool::new(true);
    let stopped = engine.search_until(None, &[], SearchLimits::default(), Some(&stop)).unwrap();
    assert!(legal.contains(&stopped.best.unwrap()));
    let started = Instant::now();
    let timed = engine.search(None, &[], SearchLimits { movetime: Some(Duration::from_millis(50)), ..SearchLimits::default() }).unwrap();
    assert!(started.elapsed() < Duration::from_millis(1000), "{:?}", started.elapsed());
    assert!(legal.contains(&timed.best.unwrap()));
    assert!(timed.depth >= 1);
}

/// Games of several sides: the paranoid search finds the mate that ends a game of two teams.
#[test]
fn teams_mate() {
    let engine = common::engine("tests/nplayer/four-two-teams.orbis");
    let report = engine.search(Some("turn=red red=Kd6,Rd5 blue=Kf1,Rf2 green=Kc3,Rb2 yellow=Ka6,Bb6"), &[], depth(3)).unwrap();
    assert_eq!(report.score, Score::Mate(1));
    assert_eq!(report.best.unwrap().notation, "Rd5-d1");
    for path in ["tests/nplayer/three.orbis", "tests/nplayer/four-teams.orbis", "tests/nplayer/three-first.orbis"] {
        let engine = common::engine(path);
        let report = engine.search(None, &[], depth(3)).unwrap();
        assert!(engine.moves(None).unwrap().contains(&report.best.unwrap()), "{path}");
    }
}

/// The values derived from mobility: on the orthodox board the usual scale comes out.
#[test]
fn piece_values_from_mobility() {
    let values = |path: &str| -> Vec<(String, i32)> {
        let e = common::engine(path);
        orbis_runtime::with_game!(&e, g => {
            let ev = Evaluator::new(g);
            g.tables.kinds.iter().enumerate().map(|(k, info)| (info.name.clone(), ev.values[k])).collect()
        })
    };
    let orthodox = values(ORTHODOX);
    let of = |name: &str| orthodox.iter().find(|(n, _)| n == name).unwrap().1;
    assert_eq!(of("King"), 0);
    assert_eq!(of("Pawn"), 100);
    assert!((270..=330).contains(&of("Knight")), "{orthodox:?}");
    assert!((300..=370).contains(&of("Bishop")), "{orthodox:?}");
    assert!(of("Bishop") > of("Knight"));
    assert!((450..=550).contains(&of("Rook")), "{orthodox:?}");
    assert!((850..=950).contains(&of("Queen")), "{orthodox:?}");
    // A crowned piece is worth its carrier.
    let crowned = values("examples/stacks/crowned-chess.orbis");
    let c = |name: &str| crowned.iter().find(|(n, _)| n == name).unwrap().1;
    assert_eq!(c("Queen+King"), c("Queen"));
    assert_eq!(c("King"), 0);
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Plays `games` games of the engine against a random mover, the engine taking the first side
/// in even games and the second in odd ones; returns the engine's (wins, draws, losses) and, with
/// `harvest`, the positions where the engine announced a mate in at most two.
fn against_random<B: CellSet>(
    game: &Game<B>,
    games: usize,
    seed: u64,
    limits: SearchLimits,
    harvest: bool,
) -> ((usize, usize, usize), Vec<(String, String)>) {
    let mut searcher = Searcher::new(game);
    let mut rng = Rng(seed | 1);
    let (mut w, mut d, mut l) = (0, 0, 0);
    let mut found = Vec::new();
    for i in 0..games {
        let engine_side = i % 2;
        let mut pos = Position::start(game);
        let mut history = Vec::new();
        let mut moves = Vec::new();
        let mut result = 0;
        for _ply in 0..1000 {
            let status = pos.status(game, &history);
            if status != Status::Ongoing {
                let for_side = |side: usize, o: Outcome| match o {
                    Outcome::Draw => 0,
                    Outcome::Win if side == engine_side => 1,
                    Outcome::Loss if side != engine_side => 1,
                    _ => -1,
                };
                result = match status {
                    Status::Checkmate { loser } if loser == engine_side => -1,
                    Status::Checkmate { .. } => 1,
                    Status::Stalemate { side, outcome } | Status::Bare { side, outcome } => for_side(side, outcome),
                    _ => 0,
                };
                break;
            }
            let mv = if pos.to_move == engine_side {
                let r = searcher.search(&mut pos, &history, &limits, None);
                if harvest && matches!(r.score, Score::Mate(1..=2)) {
                    let mut p = pos.clone();
                    let line: Vec<String> = r
                        .pv
                        .iter()
                        .map(|&m| {
                            let s = p.notation(game, m);
                            p.make(game, m);
                            s
                        })
                        .collect();
                    found.push((pos.to_text(game), format!("{:?} {}", r.score, line.join(" "))));
                }
                r.best.expect("a move while the game goes on")
            } else {
                moves.clear();
                pos.legal_moves(game, &mut moves);
                moves[(rng.next() % moves.len() as u64) as usize]
            };
            history.push(pos.hash);
            pos.make(game, mv);
        }
        match result {
            1 => w += 1,
            0 => d += 1,
            _ => l += 1,
        }
    }
    ((w, d, l), found)
}

/// The engine at depth 3 against a random mover, 100 games on the orthodox board and 100 on each
/// of two spheres, colours alternating: at least 95 wins each.
#[test]
#[ignore = "slow: 300 games at depth 3; results recorded in docs/performance.md"]
fn beats_a_random_mover() {
    for path in [ORTHODOX, NADVORNEY, SPHERE_CHESS] {
        let engine = common::engine(path);
        let started = Instant::now();
        let ((w, d, l), _) = orbis_runtime::with_game!(&engine, g => against_random(g, 100, 2024, depth(3), false));
        println!("{path}: engine (depth 3) against a random mover: {w} won, {d} drawn, {l} lost ({:.1} s)", started.elapsed().as_secs_f64());
        assert!(w >= 95, "{path}: {w}/{d}/{l}");
    }
}

/// Prints the positions where the engine, playing a random mover on the two spherical boards,
/// announced a mate in one or two, with the orthodox engine's view of the same position (how the
/// positions of `spherical_mates_through_the_seams` were found).
#[test]
#[ignore = "a tool, not a check: prints the mates that spherical_mates_through_the_seams asserts"]
fn harvest_sphere_mates() {
    let orthodox = common::engine(ORTHODOX);
    for path in [NADVORNEY, SPHERE_CHESS] {
        let engine = common::engine(path);
        let found = orbis_runtime::with_game!(&engine, g => against_random(g, 6, 99, depth(3), true).1);
        println!("{path}:");
        for (text, line) in found {
            let flat = orthodox
                .search(Some(&text), &[], depth(4))
                .map(|r| format!("{:?} {:?}", r.score, r.pv))
                .unwrap_or_else(|e| e.to_string());
            println!("  {text} | {line} | orthodox: {flat}");
        }
    }
}
