//! Webball (examples/webball/webball.orbis): the engine against the reference built from the
//! page's structure (tests/common/webball_reference.rs), the page's setup and names in positions
//! and moves, the promotion squares, and the lone-piece destinations derived by hand.

use crate::common;
use crate::webball_reference;

use orbis_runtime::position::Position;
use orbis_runtime::{Engine, Game, MoveInfo};
use std::collections::BTreeSet;
use webball_reference::{WebPosition, WebballReference};

const PATH: &str = "examples/webball/webball.orbis";

fn key(m: &MoveInfo) -> String {
    match m.promotion {
        Some(p) => format!("{}-{}={p}", m.from, m.to),
        None => format!("{}-{}", m.from, m.to),
    }
}

fn engine_moves(engine: &Engine, text: &str) -> BTreeSet<String> {
    engine.moves(Some(text)).unwrap_or_else(|e| panic!("{text}: {e}")).iter().map(key).collect()
}

fn names(list: &str) -> BTreeSet<String> {
    list.split_whitespace().map(String::from).collect()
}

#[test]
fn perft_from_the_start_matches_the_reference() {
    let engine = common::engine(PATH);
    let reference = WebballReference::new();
    let start = reference.start();
    for (d, n) in [21u64, 441, 10_899, 269_361].into_iter().enumerate() {
        let depth = d + 1;
        assert_eq!(engine.perft(None, depth).unwrap(), n, "engine perft({depth})");
        assert_eq!(reference.perft(&start, depth as u32), n, "reference perft({depth})");
    }
}

fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Random games, legal moves compared at every ply, perft(2) every tenth.
#[test]
fn random_games_agree_with_the_reference() {
    let engine = common::engine(PATH);
    let reference = WebballReference::new();
    let mut positions = 0;
    for seed in 0..12u64 {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut pos: WebPosition = reference.start();
        let mut text = engine.general_text(None).unwrap();
        let mut line: Vec<String> = Vec::new();
        for ply in 0..100 {
            let r: BTreeSet<String> = reference.legal_moves(&pos).into_iter().collect();
            let moves = engine.moves(Some(&text)).unwrap();
            let e: BTreeSet<String> = moves.iter().map(key).collect();
            assert_eq!(e, r, "legal moves after {line:?}\nposition {text}");
            positions += 1;
            if ply % 10 == 9 {
                assert_eq!(engine.perft(Some(&text), 2).unwrap(), reference.perft(&pos, 2), "perft(2) after {line:?}\n{text}");
            }
            if moves.is_empty() {
                break;
            }
            // Captures first, two times in three, so that the armies meet.
            let captures: Vec<&MoveInfo> = moves.iter().filter(|m| m.notation.contains('x')).collect();
            let mv = if !captures.is_empty() && !next(&mut state).is_multiple_of(3) {
                captures[(next(&mut state) % captures.len() as u64) as usize]
            } else {
                &moves[(next(&mut state) % moves.len() as u64) as usize]
            };
            let k = key(mv);
            text = engine.play(Some(&text), &[mv.notation.as_str()]).unwrap();
            pos = reference.play(&pos, &k);
            line.push(k);
        }
    }
    assert!(positions > 600, "{positions} positions");
}

#[test]
fn the_setup_of_the_page_with_its_names() {
    let engine = common::engine(PATH);
    let text = engine.general_text(None).unwrap();
    let field = |side: &str| -> BTreeSet<String> {
        let list = text.split_whitespace().find_map(|t| t.strip_prefix(&format!("{side}="))).unwrap();
        list.split(',').map(String::from).collect()
    };
    // White in the south, with the page's XS* read as XS+ (the connector XS borders # and +).
    let white = names("KS RPS* RPS+ RUS* RUS# RXS# RXS+ MS* MS# MS+ NPS NUS NXS PP PP* PP+ PU PU* PU# PX PX# PX+");
    let black = names("KN RNJ# RNJ+ RND* RND# RNA* RNA+ MN* MN# MN+ NNA NND NNJ PA PA* PA+ PD PD* PD# PJ PJ# PJ+");
    assert_eq!(field("white"), white);
    assert_eq!(field("black"), black);
    assert_eq!((white.len(), black.len()), (22, 22));
    assert!(text.starts_with("turn=white"));
    // Every move reads back, names with `* # + ? $` included.
    for m in engine.moves(None).unwrap() {
        let after = engine.play(None, &[m.notation.as_str()]).unwrap();
        assert_eq!(engine.general_text(Some(&after)).unwrap(), after);
    }
}

#[test]
fn names_with_marks_in_moves_and_positions() {
    let engine = common::engine(PATH);
    // A Ringer rides round the ring of the * void of N: N*, NA*, A*, ... ; written with the marks.
    let pos = "turn=white white=KS,RN* black=KU# clock=0 move=1";
    let moves = engine.moves(Some(pos)).unwrap();
    let notations: BTreeSet<String> = moves.iter().map(|m| m.notation.clone()).collect();
    for n in ["RN*-NA*", "RN*-ND*", "RN*-N"] {
        assert!(notations.contains(n), "{n} in {notations:?}");
    }
    assert_eq!(engine.play(Some(pos), &["RN*-NA*"]).unwrap(), engine.play(Some(pos), &["N*NA*"]).unwrap());
    // En-passant cells are separated by `,`, so `+` in names is read as part of them.
    let e = engine.general_text(Some("turn=white white=KS,PN+ black=KU# clock=0 move=1")).unwrap();
    assert!(e.contains("PN+"), "{e}");
}

#[test]
fn promotion_only_on_the_named_nodes() {
    let engine = common::engine(PATH);
    // A White pawn on the connector DE steps onto D (promotes) or E (does not), or the rings.
    let pos = "turn=white white=KS,PDE black=KU# clock=0 move=1";
    let moves = engine_moves(&engine, pos);
    let pawn: BTreeSet<String> = moves.iter().filter(|m| m.starts_with("DE-")).cloned().collect();
    assert_eq!(pawn, names("DE-D=M DE-D=N DE-D=R DE-E DE-DE* DE-DE?"));
    let reference = WebballReference::new();
    let p = reference.position(&[(0, 'K', "S"), (0, 'P', "DE"), (1, 'K', "U#")], 0);
    assert_eq!(moves, reference.legal_moves(&p).into_iter().collect());
}

/// The destinations of a lone white piece (no legality: no King on the board).
fn lone(g: &Game<orbis_runtime::bits::Wide<3>>, symbol: char, cell: &str) -> BTreeSet<String> {
    let mut pos: Position<orbis_runtime::bits::Wide<3>> = Position::empty(g);
    let kind = g.tables.kinds.iter().position(|k| k.symbol == symbol).unwrap();
    let c = g.cell_by_name(cell).unwrap() as usize;
    pos.put(g, c, kind);
    let mut moves = Vec::new();
    pos.pseudo_moves(g, &mut moves);
    moves.iter().map(|m| g.cell_name(m.to).to_string()).collect()
}

#[test]
fn lone_piece_destinations_derived_by_hand() {
    let tables = common::tables(PATH);
    let g: Game<orbis_runtime::bits::Wide<3>> = Game::new(tables);
    let reference = WebballReference::new();
    // Counts on a node (N), a connector (NA), a node-ring square (N*), an edge-ring square (NA*).
    let expect = [
        // King: every orthogonal and diagonal neighbour: (6+6), (4+4), (3+2), (3+2).
        ('K', [12, 8, 5, 5]),
        // Ringer: from N its three ring squares and three spine circles of nine, which share
        // N's three connectors' far nodes pairwise: 3 + 21; from NA two ring squares and two
        // circles (9 + 9 - NA's own two nodes counted once): 2 + 16; round a ring nine and the
        // spine square (node-ring), or also the opposite ring square across the connector.
        ('R', [24, 18, 10, 11]),
        // Mega-ringer: its lateral moves and every other one of the 50 spine squares.
        ('M', [3 + 49, 2 + 49, 10, 11]),
        // Knight: one orthogonal step, then a diagonal one on either side of straight on.
        ('N', [6, 4, 4, 4]),
        // Pawn: its orthogonal neighbours (captures need a piece).
        ('P', [6, 4, 3, 3]),
    ];
    for (symbol, counts) in expect {
        for (cell, n) in ["N", "NA", "N*", "NA*"].into_iter().zip(counts) {
            let e = lone(&g, symbol, cell);
            let r: BTreeSet<String> = reference.lone_destinations(symbol, cell).into_iter().collect();
            assert_eq!(e, r, "{symbol} on {cell}");
            assert_eq!(e.len(), n, "{symbol} on {cell}: {e:?}");
        }
    }
    // The page's definitions, literally: the Knight on NA, and the Ringer's jump across NA.
    assert_eq!(lone(&g, 'N', "NA"), names("AB? AC? ND# NJ#"));
    assert!(lone(&g, 'R', "NA*").contains("NA+"));
    assert_eq!(lone(&g, 'K', "N*"), names("N NA NA* ND ND*"));
}

/// A winding rule leaves its start through the cells next to it, so those are its gates: a
/// Mega-ringer whose steps to the rings are blocked by its own pieces still winds along an
/// empty spine, and has no move once its own pieces hold the spine squares next to it too. The
/// count (which skips a piece whose gates are all blocked) agrees with the listed moves.
#[test]
fn a_hemmed_in_mega_ringer_is_skipped_only_when_its_spine_is_blocked() {
    let engine = common::engine(PATH);
    let open = "turn=white white=MN,PN*,PN#,PN+,KS black=KX+ clock=0 move=1";
    let shut = "turn=white white=MN,PN*,PN#,PN+,PNA,PND,PNJ,KS black=KX+ clock=0 move=1";
    for (text, winds) in [(open, true), (shut, false)] {
        let moves = engine_moves(&engine, text);
        let mega: Vec<&String> = moves.iter().filter(|m| m.starts_with("N-")).collect();
        assert_eq!(!mega.is_empty(), winds, "{text}: {mega:?}");
        if winds {
            // Along the spine, past its neighbours.
            assert!(mega.iter().any(|m| *m == "N-NA") && mega.len() > 3, "{mega:?}");
        }
        assert_eq!(engine.perft(Some(text), 1).unwrap(), moves.len() as u64, "{text}");
    }
}
