//! Properties of positions and moves as text, and of perft, over random games of every example
//! variant (issue 15). A game is a list of choices drawn by proptest: each picks one legal move by
//! index, so a failing game shrinks to a short one with small choices.
//!
//! 1. Every position reached, written (`to_text`: FEN where it describes the position, and
//!    `to_general`: the general notation), reads back (`Position::parse`) as the same position.
//! 2. Every legal move's notation reads back (`parse_move`) as that move, and so do the short
//!    forms the notation module accepts (`e2e4`, `e2-e4`, `Pe2e4`, `e2xd3`, under every name of a
//!    cell); no two legal moves share a notation; a promotion without its choice is refused.
//! 3. Perft equals the sum of its divide (depth 2 or 3) from random positions, through the engine's
//!    text API as the CLI counts; each divide count equals perft from the position after the move,
//!    read back from its text, and the total equals a naive count that plays every leaf.
//!
//! 4. (make then unmake restores the position and the hash) is tests/runtime/make_unmake.rs: it
//!    already plays every legal move of every position of random playouts of every example,
//!    compares the whole `Position` (hash included) after unmake and the incremental hash with
//!    `full_hash` after make, so it is not repeated here.

use crate::common;

use orbis_runtime::bits::CellSet;
use orbis_runtime::position::NO_PROMOTION;
use orbis_runtime::{Engine, Game, Move, MoveKind, Position};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// Longest random game (plies); games end earlier at mate or stalemate.
const MAX_PLIES: usize = 100;

/// Every example variant, compiled once for the whole file.
fn engines() -> &'static [(String, Engine)] {
    static ENGINES: OnceLock<Vec<(String, Engine)>> = OnceLock::new();
    ENGINES.get_or_init(|| {
        let list: Vec<(String, Engine)> = common::variant_files()
            .into_iter()
            .map(|p| {
                let e = common::engine(&p);
                (p, e)
            })
            .collect();
        assert!(list.iter().any(|(p, _)| p.ends_with("orthodox.orbis")), "the walker finds the examples");
        list
    })
}

use orbis_runtime::with_game;

fn legal<B: CellSet>(game: &Game<B>, pos: &mut Position<B>) -> Vec<Move> {
    let mut moves = Vec::new();
    pos.legal_moves(game, &mut moves);
    moves
}

/// Anything but a quiet move of one piece: captures, promotions, en passant, castling,
/// stationary moves, double steps. Random games favour them, so that they occur.
fn special<B: CellSet>(pos: &Position<B>, m: Move) -> bool {
    m.kind != MoveKind::Normal || m.promotion != NO_PROMOTION || pos.board[m.to as usize] != 0
}

/// Plays the game `choices` describes from the start, calling `visit` on every position reached
/// (the start included) with the choice of the next move; stops at the end of the game. A choice
/// whose low two bits are 0 picks among the special moves when there are any.
fn playout<B: CellSet>(game: &Game<B>, choices: &[u32], mut visit: impl FnMut(&mut Position<B>, u32)) -> Position<B> {
    let mut pos = Position::start(game);
    for &choice in choices {
        visit(&mut pos, choice >> 2);
        let moves = legal(game, &mut pos);
        if moves.is_empty() {
            return pos;
        }
        let specials: Vec<Move> = moves.iter().copied().filter(|&m| special(&pos, m)).collect();
        let mv = if choice & 3 == 0 && !specials.is_empty() {
            specials[(choice >> 2) as usize % specials.len()]
        } else {
            moves[(choice >> 2) as usize % moves.len()]
        };
        pos.make(game, mv);
    }
    visit(&mut pos, 0);
    pos
}

/// Cells whose unmoved state a rule depends on: castling cells, and setup cells of kinds with
/// `initial` moves (exactly where the hash has an unmoved key). Elsewhere FEN cannot say whether a
/// piece on its setup cell has moved, and reads it as unmoved (docs of `Position::to_text`).
fn unmoved_matters<B: CellSet>(game: &Game<B>) -> B {
    let mut set = B::default();
    for &(k, r) in &game.castle_cells {
        set.insert(k);
        set.insert(r);
    }
    for (c, &key) in game.zobrist.virgin.iter().enumerate() {
        if key != 0 {
            set.insert(c);
        }
    }
    set
}

fn move_names<B: CellSet>(game: &Game<B>, pos: &mut Position<B>) -> Vec<String> {
    let mut names: Vec<String> = legal(game, pos).into_iter().map(|m| pos.notation(game, m)).collect();
    names.sort();
    names
}

// ---------------------------------------------------------------------------------------------
// 1. Positions read back

fn check_position_text<B: CellSet>(path: &str, game: &Game<B>, pos: &mut Position<B>, matters: B) {
    assert_eq!(pos.hash, pos.full_hash(game), "{path}: incremental hash of {}", pos.to_general(game));

    // The general notation says everything: the read-back position is equal field for field.
    let general = pos.to_general(game);
    let back = Position::parse(game, &general)
        .unwrap_or_else(|e| panic!("{path}: the general notation of a reached position is refused: {e}\n  {general}"));
    assert_eq!(&back, pos, "{path}: general notation round trip\n  {general}");
    assert_eq!(back.to_general(game), general, "{path}: general notation is not canonical");

    // `to_text` (FEN where possible): same position for play and repetition.
    let text = pos.to_text(game);
    let mut back = Position::parse(game, &text)
        .unwrap_or_else(|e| panic!("{path}: the text of a reached position is refused: {e}\n  {text}\n  {general}"));
    let is_fen = text.split_whitespace().next().is_some_and(|f| !f.contains('='));
    if is_fen {
        // FEN cannot hold the unmoved state of pieces no rule asks about (a knight back on g1
        // reads as unmoved); everything else must come back, the hash included.
        let mut a = back.clone();
        let mut b = pos.clone();
        a.virgin = a.virgin.and(matters);
        b.virgin = b.virgin.and(matters);
        assert_eq!(a, b, "{path}: FEN round trip\n  FEN     {text}\n  general {general}\n  back    {}", back.to_general(game));
        assert_eq!(back.to_text(game), text, "{path}: FEN is not canonical");
    } else {
        assert_eq!(&back, pos, "{path}: to_text (general) round trip\n  {text}");
    }
    assert_eq!(move_names(game, &mut back), move_names(game, pos), "{path}: the read-back position plays differently\n  {text}");
}

// ---------------------------------------------------------------------------------------------
// 2. Moves read back

/// Every legal move's notation reads back; the short forms are tried on every special move and on
/// one ordinary move, picked by `pick` (they cost a `parse_move`, a full move generation, each).
fn check_move_texts<B: CellSet>(path: &str, game: &Game<B>, pos: &mut Position<B>, pick: u32) {
    let moves = legal(game, pos);
    let Some(&short_forms_of) = moves.get(pick as usize % moves.len().max(1)) else { return };
    let before = pos.clone();
    let general = pos.to_general(game);
    let mut by_name: BTreeMap<String, Vec<Move>> = BTreeMap::new();
    for &m in &moves {
        by_name.entry(pos.notation(game, m)).or_default().push(m);
    }
    let shared: Vec<_> = by_name.iter().filter(|(_, ms)| ms.len() > 1).collect();
    assert!(shared.is_empty(), "{path}: legal moves share a notation: {shared:?}\n  position {general}");

    for &m in &moves {
        let name = pos.notation(game, m);
        let whence = || format!("{path}: move {name} ({m:?})\n  position {general}");
        let got = pos.parse_move(game, &name);
        assert_eq!(got, Ok(m), "{}", whence());
        if matches!(m.kind, MoveKind::Castle | MoveKind::Crown | MoveKind::Drop | MoveKind::Pass)
            || !(special(pos, m) || m == short_forms_of)
        {
            continue;
        }
        // The short forms, under every name of the two cells.
        let symbol = game.symbol((pos.board[m.from as usize] as usize - 1) % game.kinds);
        let promo = if m.promotion == NO_PROMOTION { String::new() } else { format!("={}", game.symbol(m.promotion as usize)) };
        let ep = if m.kind == MoveKind::EnPassant { "ep" } else { "" };
        let mut forms = Vec::new();
        for from in game.cell_names(m.from) {
            for to in game.cell_names(m.to) {
                forms.push(format!("{from}{to}{promo}"));
                forms.push(format!("{from}-{to}{promo}"));
                forms.push(format!("{from}x{to}{promo}{ep}"));
                forms.push(format!("{symbol}{from}{to}{promo}"));
                forms.push(format!("{symbol}{from}-{to}{promo}{ep}"));
            }
        }
        for form in forms {
            // A short form reads as the move, unless another legal move is written the same
            // (Webball's `ND#N`: the King from ND# to N, or the Knight from D# to N); then the
            // error names both readings. A move's own notation wins over a short form of
            // another (Webball's `ND-N#` is the Knight from D to N#, not the King from ND).
            if let Some(&other) = moves.iter().find(|&&o| o != m && pos.notation(game, o) == form) {
                assert_eq!(pos.parse_move(game, &form), Ok(other), "notation {form:?} beside the short form of {}", whence());
                continue;
            }
            match pos.parse_move(game, &form) {
                Err(e) if e.0.contains("is ambiguous") => {
                    assert!(e.0.contains(&pos.notation(game, m)), "short form {form:?} of {}: {e}", whence())
                }
                got => assert_eq!(got, Ok(m), "short form {form:?} of {}", whence()),
            }
        }
        if m.promotion != NO_PROMOTION {
            let bare = format!("{}{}", game.cell_name(m.from), game.cell_name(m.to));
            // In an optional zone the move without promotion is a move of its own.
            let stays = moves.iter().find(|o| o.from == m.from && o.to == m.to && o.promotion == NO_PROMOTION && o.kind == m.kind);
            match stays {
                Some(&o) => assert_eq!(pos.parse_move(game, &bare), Ok(o), "{bare} ({})", whence()),
                None => {
                    let e = pos.parse_move(game, &bare).expect_err(&bare);
                    assert!(e.0.contains("promot"), "{bare}: {e} ({})", whence());
                }
            }
        }
    }
    assert_eq!(*pos, before, "{path}: parse_move changed the position");
}

// ---------------------------------------------------------------------------------------------
// 3. Perft and divide

/// Leaf nodes `depth` plies below `pos`, every leaf played (no bulk counting at the last ply):
/// an independent count to hold the engine's against.
fn naive_perft<B: CellSet>(game: &Game<B>, pos: &mut Position<B>, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for m in legal(game, pos) {
        let undo = pos.make(game, m);
        n += naive_perft(game, pos, depth - 1);
        pos.unmake(game, &undo);
    }
    n
}

/// Through the engine's text API, as the CLI counts: perft is the sum of divide, divide lists the
/// legal moves, each divide count is perft from the position after its move (read back from its
/// text), and the total equals a naive count.
fn check_perft<B: CellSet>(path: &str, engine: &Engine, game: &Game<B>, pos: &mut Position<B>, depth: usize) {
    let text = pos.to_text(game);
    let total = engine.perft(Some(&text), depth).unwrap_or_else(|e| panic!("{path}: perft {depth} of {text}: {e}"));
    let divide = engine.divide(Some(&text), depth).unwrap_or_else(|e| panic!("{path}: divide {depth} of {text}: {e}"));
    let sum: u64 = divide.iter().map(|(_, n)| n).sum();
    assert_eq!(sum, total, "{path}: perft {depth} is not the sum of its divide\n  {text}");
    let listed: Vec<String> = divide.iter().map(|(m, _)| m.notation.clone()).collect();
    assert_eq!(listed, move_names(game, pos), "{path}: divide lists other moves than the legal ones\n  {text}");
    assert_eq!(naive_perft(game, pos, depth), total, "{path}: perft {depth} vs a naive count\n  {text}");
    for (m, n) in divide {
        let mut child = pos.clone();
        let name = &m.notation;
        let mv = child.parse_move(game, name).unwrap_or_else(|e| panic!("{path}: {text}: {name}: {e}"));
        child.make(game, mv);
        let child = child.to_text(game);
        let again =
            engine.perft(Some(&child), depth - 1).unwrap_or_else(|e| panic!("{path}: {text} then {name}: {e}\n  {child}"));
        let below = depth - 1;
        assert_eq!(again, n, "{path}: divide of {name} vs perft {below} of the position after it\n  {text}\n  {child}");
    }
}

/// `cases` random games, kept small for the test suite; `PROPTEST_CASES=N` asks for more (a longer
/// hunt: `PROPTEST_CASES=500 cargo test --release --test runtime properties::`).
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(cases);
    // No regression files written into the source tree; a failure prints its minimal game.
    ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(cases) }
}

fn games() -> impl Strategy<Value = Vec<u32>> {
    prop::collection::vec(any::<u32>(), 0..MAX_PLIES)
}

proptest! {
    #![proptest_config(config(48))]
    #[test]
    fn positions_read_back(choices in games()) {
        for (path, engine) in engines() {
            with_game!(engine, g => {
                let matters = unmoved_matters(g);
                playout(g, &choices, |pos, _| check_position_text(path, g, pos, matters));
            });
        }
    }
}

proptest! {
    // The costly one: every legal move of every position is read back (`parse_move` generates
    // the moves again each time).
    #![proptest_config(config(8))]
    #[test]
    fn moves_read_back(choices in games()) {
        common::for_each_parallel(engines(), |(path, engine)| {
            with_game!(engine, g => {
                playout(g, &choices, |pos, pick| check_move_texts(path, g, pos, pick));
            });
        });
    }
}

proptest! {
    #![proptest_config(config(32))]
    #[test]
    fn perft_is_the_sum_of_divide(choices in games(), depth in 2usize..=3) {
        for (path, engine) in engines() {
            with_game!(engine, g => {
                let mut pos = playout(g, &choices, |_, _| {});
                check_perft(path, engine, g, &mut pos, depth);
            });
        }
    }
}

/// The random games are worth testing on: over a few fixed games of the kind proptest draws, every
/// kind of move occurs among the legal moves of the positions visited.
#[test]
fn random_games_reach_every_kind_of_move() {
    let mut seen = std::collections::BTreeSet::new();
    let mut state = 0x5eed_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u32
    };
    for (_, engine) in engines() {
        for _ in 0..4 {
            let choices: Vec<u32> = (0..MAX_PLIES).map(|_| next()).collect();
            with_game!(engine, g => {
                playout(g, &choices, |pos, _| {
                    for m in legal(g, pos) {
                        seen.insert(format!("{:?}", m.kind));
                        if m.promotion != NO_PROMOTION {
                            seen.insert("promotion".into());
                        }
                    }
                });
            });
        }
    }
    for kind in ["Normal", "EnPassantTarget", "EnPassant", "Castle", "promotion"] {
        assert!(seen.contains(kind), "random games never offer a move of kind {kind}: {seen:?}");
    }
}

#[test]
fn every_width_is_exercised() {
    let list = engines();
    assert!(list.iter().any(|(_, e)| matches!(e, Engine::Narrow(_))));
    assert!(list.iter().any(|(_, e)| matches!(e, Engine::Medium(_))));
}
