//! Perft cross-checks of the table-driven runtime against the slow reference move generator
//! (tests/common/reference.rs) on every example, and deeper and in long games on the examples
//! with stacks, crowning, `cannot-check`, `royal-path unattacked` and `bare`, and on those with
//! hops and winding.

mod common;

use common::reference::{board_part, from_general, general, legal, perft, start};

/// Depths whose count is above this are left to the games' own references (the cube games:
/// tests/cube_games.rs): the slow reference needs minutes for the 100,000 leaves of perft 3 on
/// the 296-cell cube with four players.
const REFERENCE_BUDGET: u64 = 60_000;

fn cross_check(path: &str, depth: usize) {
    let v = common::variant(path);
    let engine = common::engine(path);
    let p = start(&v);
    for d in 1..=depth {
        let count = engine.perft(None, d).unwrap();
        if d > 1 && count > REFERENCE_BUDGET {
            break;
        }
        assert_eq!(count, perft(&v, &p, d), "{path} perft({d}) differs from the reference");
    }
}

/// The runtime's perft of `position` (either notation) at depths 1 to `depth` against the
/// reference's.
fn agrees_to_depth(engine: &orbis_runtime::Engine, v: &orbis_compiler::model::Variant, position: &str, depth: usize) {
    let p = from_general(v, &engine.general_text(Some(position)).unwrap());
    for d in 1..=depth {
        assert_eq!(engine.perft(Some(position), d).unwrap(), perft(v, &p, d), "{position} perft({d})");
    }
}

#[test]
fn reference_agrees_with_published_orthodox_counts() {
    let v = common::variant("examples/orthodox.orbis");
    assert_eq!(perft(&v, &start(&v), 3), 8902);
}

#[test]
fn runtime_agrees_with_reference_on_orthodox() {
    cross_check("examples/orthodox.orbis", 3);
}

#[test]
fn runtime_agrees_with_reference_on_every_example() {
    for path in common::variant_files() {
        cross_check(&path, 3);
    }
}

/// A side with more pieces than perft keeps counts for (`MAX_KEPT` in runtime/src/kept_counts.rs):
/// those past it are counted in each position.
#[test]
fn runtime_agrees_with_reference_past_the_pieces_kept() {
    cross_check("tests/kept/many-pieces.orbis", 3);
}

/// Deeper in: from a few plies into random games, where castling, captures across seams and
/// checks through poles occur.
#[test]
fn runtime_agrees_with_reference_in_random_middlegames() {
    for path in common::variant_files() {
        let path = path.as_str();
        let v = common::variant(path);
        let engine = common::engine(path);
        let mut seed = 12345u64;
        for _game in 0..6 {
            let mut p = start(&v);
            let mut played: Vec<String> = Vec::new();
            for _ply in 0..14 {
                let moves = engine.moves(Some(&engine.play(None, &played.iter().map(String::as_str).collect::<Vec<_>>()).unwrap())).unwrap();
                let next = legal(&v, &p);
                assert_eq!(moves.len(), next.len(), "{path}: move count after {played:?}");
                if moves.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let pick = (seed >> 33) as usize % moves.len();
                played.push(moves[pick].notation.clone());
                // Follow the same move in the reference by matching the resulting board.
                let text = engine.play(None, &played.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
                let target = engine.general_text(Some(&text)).unwrap();
                p = next
                    .into_iter()
                    .find(|q| general(&v, q) == board_part(&target))
                    .unwrap_or_else(|| panic!("{path}: reference has no move to {target}"));
            }
            let text = engine.play(None, &played.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
            // With more than two sides the slow reference tests every move for eliminations, so
            // it counts one ply here (tests/cube_games.rs and tests/runtime/nplayer.rs go deeper).
            let depth = if v.sides.len() > 2 { 1 } else { 2 };
            assert_eq!(engine.perft(Some(&text), depth).unwrap(), perft(&v, &p, depth), "{path} after {played:?}");
        }
    }
}

/// Perft's kept counts with Janggi's cannons kept: while the count walks the other pieces the
/// kept ones are off their kinds' sets, and a cannon's hop entries (`HopMemo`, whose rules set
/// cannons apart: no hop over one, no capture of one) must still see a hidden cannon. Positions
/// from random playouts where a count once missed a capture beyond a cannon's former cell
/// (tests/runtime/line_attacks.rs found them: 2 205 for 2 206, 1 598 for 1 599, 1 478 for 1 472).
#[test]
fn hidden_cannons_still_stand_apart() {
    let path = "examples/fairy/janggi.orbis";
    let v = common::variant(path);
    let engine = common::engine(path);
    for position in [
        "turn=white white=Bc1,Ae1,Bg1,Nh1,Ra2,Cc3,Ke3,Ri3,Pc4,Pf4,Ph4,Pi4,Pb5,Cg5,Na6 black=Ph5,Nb6,Pd7,Ph7,Cb8,Kd8,Ch8,Ad9,Rf9,Rb10,Bc10,Af10,Bg10,Nh10 virgin=c1,g1,h1,c4,i4,b8,h8,c10,f10,g10,h10 clock=12 move=24",
        "turn=white white=Ra1,Nb1,Bc1,Af1,Bg1,Rb2,Ad2,Ke2,Ng2,Cb3,Ph4,Pi4,Pc5,Pf5,Ch7,Pa8 black=Pd6,Pc7,Pg7,Cb8,Cd8,Af8,Ng8,Rf9,Nb10,Bc10,Ad10,Kf10,Bg10,Rh10 virgin=a1,b1,c1,f1,g1,b3,i4,c7,b8,b10,c10,d10,g10 clock=5 move=21",
        "turn=white white=Nb1,Bc1,Kd1,Bg1,Nh1,Re2,Af2,Ad3,Ch3,Pc4,Ph4,Pi4,Pd5,Pf5,Cd10 black=Ce5,Ph5,Pa7,Pg7,Pi7,Ce8,Af8,Kd9,Ri9,Bc10,Ae10,Nf10,Bg10,Ri10 virgin=b1,c1,g1,h1,h3,i7,c10,g10,i10 clock=16 move=24",
    ] {
        agrees_to_depth(&engine, &v, position, 3);
    }
}

/// A rider whose slide may come back to its start (Yapsan's globe, `stationary-moves allowed`:
/// the rook on a4 round the a- and e-files over both poles) kept by perft's last ply: its
/// stationary move counts in the kept count. Left out there, perft(3) is 12 277, not 12 531.
#[test]
fn a_slide_home_kept_agrees_with_reference() {
    let path = "examples/spherical/yapsan.orbis";
    let v = common::variant(path);
    let engine = common::engine(path);
    let fen = "2b2kn1/1ppp4/8/8/R7/8/1PPP4/3K2N1 w - - 0 1";
    assert!(engine.moves(Some(fen)).unwrap().iter().any(|m| m.notation == "Ra4-a4"), "the rook's stationary move");
    agrees_to_depth(&engine, &v, fen, 3);
}

/// Castling whose rook, leaving its cell, opens a line across the seam onto the king's
/// destination (cylindrical chess, where the rules are marked `recheck`): refused, as the
/// reference finds by playing it; and both castlings where nothing stands behind. (Counting
/// skips `is_legal` for castling only without `recheck`.)
#[test]
fn castling_that_opens_a_line_agrees_with_reference() {
    let path = "examples/cylindrical.orbis";
    let v = common::variant(path);
    let engine = common::engine(path);
    for (fen, castlings) in [
        ("k7/8/8/8/8/8/8/r1B1K2R w K - 0 1", 0),
        ("3k4/8/8/8/8/8/8/R3KB1r w Q - 0 1", 0),
        ("3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1", 2),
    ] {
        let moves = engine.moves(Some(fen)).unwrap();
        assert_eq!(moves.iter().filter(|m| m.notation.starts_with("O-O")).count(), castlings, "{fen}");
        agrees_to_depth(&engine, &v, fen, 3);
    }
}

/// The examples with stacks, a hand, crowning, `cannot-check`, `royal-path unattacked` and
/// `bare`: the features the reference models beyond plain moves. And test boards: crowned
/// chess with free royal paths, where the lone crowned piece is judged by its safe destinations
/// unless it is hidden, Kings (and royal Queens with royal paths) atop stacks, whose cells
/// stay occupied when they move off, castling whose king or rook tops a stack, and royal paths
/// of stationary moves and of first moves (`initial`, `en-passant-target`), and across transit
/// cells (Boholy's poles, which the attack map leaves out and no one-word set holds).
const CROWNING_EXAMPLES: [&str; 10] = [
    "examples/soccer-ball/soccer-ball.orbis",
    "examples/soccer-ball/soccer-ball-chivalrous.orbis",
    "examples/stacks/crowned-chess.orbis",
    "tests/stacks/crowned-free-paths.orbis",
    "tests/stacks/royal-atop.orbis",
    "tests/stacks/royal-atop-paths.orbis",
    "tests/stacks/castle-off-stacks.orbis",
    "tests/stacks/royal-stationary-paths.orbis",
    "tests/stacks/royal-initial-paths.orbis",
    "tests/stacks/royal-pole-paths.orbis",
];

/// Deeper than every example: after both sides crowned and a few moves, where checks of crowned
/// pieces, hidden royal pieces and the royal paths start to count.
#[test]
fn runtime_agrees_with_reference_on_crowning_examples_deeper() {
    for path in CROWNING_EXAMPLES {
        cross_check(path, 5);
    }
}

/// Long random games on the crowning examples, where the games end (mate, bare).
#[test]
fn runtime_agrees_with_reference_in_long_crowning_games() {
    for path in CROWNING_EXAMPLES {
        long_games(path, 12, 120, 987654321);
    }
}

/// The examples with hops (the cannon, the grasshopper, the flying general's capture) and
/// winding (Webball's Mega-ringer): legality plays only the moves that change a cell it watches
/// (runtime/src/hops.rs, `Position::wind_zone`), so every other move is judged by pins alone;
/// long games reach the screens, discovered checks through screens and floods, and pins that
/// this must get right. And four test boards: royal hoppers and royal winders under `royal-path
/// unattacked`, whose hops, `takes` slides and winding moves pass cells, and winders and hoppers
/// in games of three sides (a king in check from either opponent's flood or hop, also from the
/// side that moved before the last: perft's last ply takes hop checks from the parent).
const WATCHED_EXAMPLES: [&str; 9] = [
    "examples/fairy/xiangqi.orbis",
    "examples/fairy/janggi.orbis",
    "examples/fairy/grasshopper.orbis",
    "examples/cube/cube-5x5-hoppers.orbis",
    "examples/webball/webball.orbis",
    "tests/hops/royal-hop-paths.orbis",
    "tests/hops/royal-wind-paths.orbis",
    "tests/hops/three-winders.orbis",
    "tests/hops/three-cannons.orbis",
];

#[test]
fn runtime_agrees_with_reference_in_long_hop_and_winding_games() {
    for path in WATCHED_EXAMPLES {
        long_games(path, 8, 120, 24681357);
    }
}

/// The test boards among them, deeper from the start (the examples: every example's test).
#[test]
fn runtime_agrees_with_reference_on_hop_and_winding_test_boards_deeper() {
    for path in WATCHED_EXAMPLES.into_iter().filter(|p| p.starts_with("tests/")) {
        cross_check(path, 5);
    }
}

/// Positions the long games found, where counting by set once differed from judging move by
/// move: a piece pinned on the 5x5 cube whose moves enter a cannon's hop zone, and Webball's
/// black king in check from a winding Mega-ringer, whose own cell stops the flood until it moves.
/// Then grasshopper positions where moves are judged on the cells without playing them: a hop
/// check (stopped by taking the grasshopper, moving its screen or adding a second one), a hop and
/// a rook check at once (only the king may move), and out of check a knight that is a second
/// screen (none of its moves is legal) beside a pinned pawn.
#[test]
fn counts_by_set_where_screens_and_floods_matter() {
    let cases = [
        ("examples/fairy/grasshopper.orbis", "turn=white white=Ke1,Pe2,Nc3,Rh3,Pa2 black=Ke8,Ge4,Pd3,Ga7 clock=0 move=1"),
        ("examples/fairy/grasshopper.orbis", "turn=white white=Ke1,Pe2,Nc3,Rh3,Pa2 black=Ke8,Ge4,Pd3,Rh1 clock=0 move=1"),
        ("examples/fairy/grasshopper.orbis", "turn=white white=Ke1,Pe2,Ne3,Pd2,Gc1,Ra1 black=Ke8,Ge5,Bb4,Pd4,Gh4 clock=0 move=1"),
        (
            "examples/cube/cube-5x5-hoppers.orbis",
            "turn=black white=Nx1y4z0,Nx4y0z1,Px3y0z2,Px4y0z2,Px0y2z2,Px3y4z2,Qx0y0z3,Px4y2z3,Px0y3z3,Px4y3z3,Gx3y4z3,Px0y0z4,\
             Kx4y0z4,Rx4y1z4,Rx1y2z4,Px0y3z4,Cx1y3z4,Bx3y3z4,Px1y4z4,Px2y4z4,Px4y4z4 black=Rx3y0z0,Px0y1z0,Kx1y2z0,Nx3y3z0,\
             Px0y4z0,Px4y4z0,Gx0y2z1,Cx0y3z1,Px4y3z1,Px3y4z1,Rx1y0z2,Px2y0z2,Px4y1z2,Px0y3z2,Px1y4z2,Px2y4z2,Bx4y4z3 \
             virgin=x0y1z0,x0y4z0,x4y4z0,x0y0z4,x0y3z4,x1y3z4,x3y3z4,x1y4z4,x2y4z4,x4y4z4 clock=2 move=39",
        ),
        (
            "examples/webball/webball.orbis",
            "turn=black white=PU,MS,RLR,PPQ,NQZ,NUS,NXS,PXY,PP*,PUV*,PU*,RUS*,MS*,RPS*,PX#,RXS#,RUS#,MS+,RXS+,PX+,PP+,KPS+ \
             black=PA,PJ,MY,KND,MN*,RNA*,PAC*,NE*,PD*,RND*,MN#,RND#,PD#,PJ#,RNJ#,RNJ+,NB+,PA+,RNA+,PDF?,PJ?,NJK? \
             virgin=US,XS,N*,NA*,D*,ND*,N#,ND#,D#,J#,NJ#,NJ+,A+,NA+,P*,U*,US*,S*,PS*,X#,XS#,US#,XS+,X+,P+ clock=2 move=17",
        ),
        // The king may take the Mega-ringer on N only if the other one, on ND, cannot wind onto
        // N: it can (N is next to it), so that capture is illegal.
        ("examples/webball/webball.orbis", "turn=white white=KNA black=MN,MND,KP clock=0 move=1"),
        // Hop zones out of check (`Position::way_zone`), a grasshopper on e8 and the king on e1:
        // a rook on e5 and e2 empty (Re5-e2 makes the screen: illegal; leaving the file, legal);
        // the rook on e5 and a pawn on e2 (the rook leaving the file opens the hop: illegal);
        // nothing between (Nc3-e2 makes the screen: illegal; Ra4-e4, legal).
        ("examples/fairy/grasshopper.orbis", "turn=white white=Ke1,Re5,Nc3,Pa2 black=Kh8,Ge8 clock=0 move=1"),
        ("examples/fairy/grasshopper.orbis", "turn=white white=Ke1,Re5,Pe2,Nc3 black=Kh8,Ge8 clock=0 move=1"),
        ("examples/fairy/grasshopper.orbis", "turn=white white=Ke1,Nc3,Ra4 black=Kh8,Ge8 clock=0 move=1"),
        // A cannon with two pieces between it and the general (either leaving opens the hop),
        // then with none (any piece landing between makes the screen).
        ("examples/fairy/xiangqi.orbis", "turn=white white=Ke1,Re3,Ne6,Ra4 black=Ke10,Ce9 clock=0 move=1"),
        ("examples/fairy/xiangqi.orbis", "turn=white white=Kd1,Ra4,Nc3 black=Kf10,Cd9 clock=0 move=1"),
        // A grasshopper that may not jump over a pawn nor take a knight.
        ("tests/hops/grasshopper-kinds.orbis", "turn=white white=Kh1,Gd4,Ne5,Pd3 black=Kh8,Nf6,Pd5,Qb4,Rf4,Bc3,Pb2 clock=0 move=1"),
    ];
    for (path, position) in cases {
        let v = common::variant(path);
        let engine = common::engine(path);
        let p = from_general(&v, position);
        let listed = engine.moves(Some(position)).unwrap().len() as u64;
        assert_eq!(listed, legal(&v, &p).len() as u64, "{path}: the legal moves of {position}");
        for depth in 1..=2 {
            assert_eq!(engine.perft(Some(position), depth).unwrap(), perft(&v, &p, depth), "{path}: perft({depth}) of {position}");
        }
    }
}

/// `games` random games of up to `plies` plies on `path`: at every ply the positions after each
/// legal move must be the same in both (not only their number), the count by set (perft 1) must
/// match, and the reference must read back the engine's general notation.
fn long_games(path: &str, games: usize, plies: usize, mut seed: u64) {
    let v = common::variant(path);
    let engine = common::engine(path);
    let mut endings: Vec<String> = Vec::new();
    for _game in 0..games {
        let mut p = start(&v);
        let mut text = engine.position_text(None).unwrap();
        for _ply in 0..plies {
            let general_now = engine.general_text(Some(&text)).unwrap();
            assert_eq!(
                general(&v, &from_general(&v, &board_part(&general_now))),
                board_part(&general_now),
                "{path}: reading {general_now}"
            );
            let next = legal(&v, &p);
            let mut theirs: Vec<String> = Vec::new();
            let mut played = Vec::new();
            for m in engine.moves(Some(&text)).unwrap() {
                let (after, _) = engine.play_status(Some(&text), &[m.notation.as_str()]).unwrap();
                theirs.push(board_part(&engine.general_text(Some(&after)).unwrap()));
                played.push(after);
            }
            let mut ours: Vec<String> = next.iter().map(|q| general(&v, q)).collect();
            let mut sorted = theirs.clone();
            sorted.sort();
            ours.sort();
            assert_eq!(sorted, ours, "{path}: positions after the moves of {general_now}");
            assert_eq!(engine.perft(Some(&text), 1).unwrap(), next.len() as u64, "{path}: perft(1) of {general_now}");
            if played.is_empty() {
                endings.push(engine.play_status(Some(&text), &[]).unwrap().1);
                break;
            }
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = (seed >> 33) as usize % played.len();
            p = next.into_iter().find(|q| general(&v, q) == theirs[pick]).unwrap();
            text = played.swap_remove(pick);
        }
    }
    println!("{path}: {endings:?}");
}

/// A pin along a line that passes the pinned piece's cell twice (round the globe, over a pole):
/// the piece behind it is the pinner, and the pinned queen may not leave the line (a random
/// game found `Qd7-b7` allowed here, leaving the king in check).
/// A side with two royal pieces (two kings) finds the pins on both (`Position::legality`'s
/// branch for several royal pieces): the bishop pinned to the king on e1 has no move.
#[test]
fn pins_of_a_side_with_two_royal_pieces() {
    let path = "examples/orthodox.orbis";
    let position = "turn=white white=Ka1,Ke1,Be2 black=Re8,Kh8 clock=0 move=1";
    let v = common::variant(path);
    let engine = common::engine(path);
    let p = from_general(&v, position);
    let moves = engine.moves(Some(position)).unwrap();
    assert_eq!(moves.len(), 7, "the kings' moves alone");
    assert_eq!(moves.len(), legal(&v, &p).len());
    agrees_to_depth(&engine, &v, position, 3);
}

#[test]
fn pin_along_a_line_through_the_pinned_cell_twice() {
    let path = "examples/spherical/grayber.orbis";
    let position = "turn=white white=Rb1,Bc1,Re1,Nd2,Pf2,Kg2,Pa3,Pb4,Pc4,Qd7 \
                    black=Qd3,Bg4,Ph4,Pe5,Na6,Nf6,Rh6,Ra7,Pf7,Pg7,Bd8,Kg8 virgin=c1,f2,f7,g7 clock=0 move=29";
    let v = common::variant(path);
    let engine = common::engine(path);
    let p = from_general(&v, position);
    let moves = engine.moves(Some(position)).unwrap();
    assert_eq!(moves.len(), legal(&v, &p).len());
    assert!(!moves.iter().any(|m| m.notation == "Qd7-b7"), "the pinned queen leaves its line");
    agrees_to_depth(&engine, &v, position, 2);
}

/// When a game is loaded, a ray whose cells begin another ray of the same piece, which lands
/// wherever it lands, is dropped, and the cells a lame leap passes become landing cells where
/// the piece lands on them anyway (`simplify_runs` in runtime/src/game_build.rs). Pieces where
/// either would change the moves, checked against the reference: a two-step along a line the
/// piece slides only quietly (its capture stays), one along a line it slides only to capture
/// (its quiet move stays), and a lame leap past a cell the piece also steps to.
#[test]
fn runtime_agrees_with_reference_on_rays_that_share_cells() {
    let path = "examples/orthodox.orbis";
    let source = std::fs::read_to_string(common::root().join(path)).unwrap();
    let source = source
        .replace("piece Rook R { slide orth }", "piece Rook R { move-only slide orth  step orth then step straight }")
        .replace("piece Bishop B { slide diag }", "piece Bishop B { capture-only slide diag  move-only step diag then step straight }")
        .replace("piece Knight N { leap step orth then step turn +-1 }", "piece Knight N { step orth then step turn +-1  step orth }");
    let v = common::variant_from(path, &source);
    let engine = orbis_runtime::Engine::new(orbis_compiler::lower::lower(&v)).unwrap();
    for fen in ["4k3/8/2b5/1r3p2/3R4/2p5/1B3N2/4K3 w - - 0 1", "4k3/8/2b5/1r3p2/3R4/2p5/1B3N2/4K3 b - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"] {
        agrees_to_depth(&engine, &v, fen, 3);
    }
}
