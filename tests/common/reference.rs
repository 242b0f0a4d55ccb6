//! A slow, obviously-correct reference move generator over the checked model, for cross-checking
//! the table-driven runtime (tests/reference.rs on every example, tests/polygon_runtime.rs on the
//! boards of polygons).
//!
//! It shares only the path expansion (`lower::rule_rays`) with the compiler; attack tables, pins,
//! bit sets, incremental make/unmake and the binary format are all bypassed. Legality is decided
//! the naive way: play the move on a copy, then ask whether any enemy move could capture a royal.
//!
//! Games of more than two sides follow docs/language.md: an opponent is a side of another team
//! still in the game; royal pieces are never captured; pieces of sides that are out are inert
//! and anyone may capture them; under `game-end last-standing`, while three or more teams are in
//! the game, a side to move without a legal move goes out (its pieces leave the board under
//! `eliminated remove`) and the turn passes on in declared order, skipping sides that are out.

use orbis_compiler::lower::rule_rays;
use orbis_compiler::model::Variant;
use orbis_runtime::tables::ray;
use std::collections::BTreeSet;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct RefPos {
    /// (side, kind) per cell.
    pub board: Vec<Option<(usize, usize)>>,
    pub virgin: Vec<bool>,
    pub ep: Option<(Vec<usize>, usize)>,
    pub to_move: usize,
    /// Per side: out of the game.
    pub out: Vec<bool>,
}

#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum RefMove {
    /// from, to, promotion, en-passant cells set by the move, en-passant victim taken
    Step { from: usize, to: usize, promo: Option<usize>, sets_ep: Vec<usize>, takes: Option<usize> },
    Castle(usize),
    /// A slide around an empty closed line back to `from` (where the rules allow it).
    Stationary(usize),
}

pub fn start(v: &Variant) -> RefPos {
    let mut p = RefPos {
        board: vec![None; v.board.cells.len()],
        virgin: vec![false; v.board.cells.len()],
        ep: None,
        to_move: 0,
        out: vec![false; v.sides.len()],
    };
    for (s, side) in v.sides.iter().enumerate() {
        for &(c, k) in &side.setup {
            p.board[c] = Some((s, k));
            p.virgin[c] = true;
        }
    }
    settle(v, p)
}

/// The sides that can attack `side`: of another team, still in the game.
pub fn opponents(v: &Variant, p: &RefPos, side: usize) -> Vec<usize> {
    (0..v.sides.len()).filter(|&e| v.sides[e].team != v.sides[side].team && !p.out[e]).collect()
}

/// Whether the side to move may capture the piece on `cell`.
fn capturable(v: &Variant, p: &RefPos, cell: usize) -> bool {
    match p.board[cell] {
        None => false,
        Some((s, _)) if p.out[s] => true,
        Some((s, k)) => v.sides[s].team != v.sides[p.to_move].team && !v.pieces[k].royal,
    }
}

/// The teams with a side still in the game.
fn live_teams(v: &Variant, p: &RefPos) -> usize {
    let mut teams: Vec<&str> = (0..v.sides.len()).filter(|&s| !p.out[s]).map(|s| v.sides[s].team.as_str()).collect();
    teams.sort_unstable();
    teams.dedup();
    teams.len()
}

/// The side after `side` in declared order that is still in the game.
fn next_side(v: &Variant, p: &RefPos, side: usize) -> usize {
    let n = v.sides.len();
    (1..=n).map(|i| (side + i) % n).find(|&s| !p.out[s]).unwrap_or(side)
}

/// Eliminations: while three or more teams are in the game under `game-end last-standing` and
/// the side to move has no legal move, it goes out.
pub fn settle(v: &Variant, mut p: RefPos) -> RefPos {
    let teams = {
        let mut t: Vec<&str> = v.sides.iter().map(|s| s.team.as_str()).collect();
        t.sort_unstable();
        t.dedup();
        t.len()
    };
    if teams < 3 || !v.rules.last_standing {
        return p;
    }
    while live_teams(v, &p) >= 3 && unsettled_legal(v, &p).is_empty() {
        let side = p.to_move;
        p.out[side] = true;
        if v.rules.remove_eliminated {
            for c in 0..p.board.len() {
                if p.board[c].is_some_and(|(s, _)| s == side) {
                    p.board[c] = None;
                    p.virgin[c] = false;
                }
            }
        }
        p.to_move = next_side(v, &p, side);
    }
    p
}

/// Whether `side` could capture on `target` (ignoring en passant and legality).
pub fn attacks(v: &Variant, p: &RefPos, target: usize, side: usize) -> bool {
    for from in 0..p.board.len() {
        let Some((s, k)) = p.board[from] else { continue };
        if s != side {
            continue;
        }
        for rule in &v.pieces[k].rules {
            for r in rule_rays(v, s, &v.pieces[k], rule, from) {
                if r.flags & ray::CAPTURE == 0 || r.must_empty.iter().any(|&c| p.board[c].is_some()) {
                    continue;
                }
                for &c in &r.cells {
                    if c == target {
                        return true;
                    }
                    if p.board[c].is_some() || r.flags & ray::SLIDE == 0 {
                        break;
                    }
                }
            }
        }
    }
    false
}

pub fn pseudo(v: &Variant, p: &RefPos) -> BTreeSet<RefMove> {
    let us = p.to_move;
    let mut out = BTreeSet::new();
    let mut stationary = Vec::new();
    for from in 0..p.board.len() {
        let Some((s, k)) = p.board[from] else { continue };
        if s != us {
            continue;
        }
        let promo = v.sides[us].promotions.iter().find(|pr| pr.piece == k);
        let mut add = |to: usize, sets_ep: Vec<usize>, takes: Option<usize>| match promo {
            Some(pr) if pr.zone.contains(&to) => {
                for &c in &pr.choices {
                    out.insert(RefMove::Step { from, to, promo: Some(c), sets_ep: sets_ep.clone(), takes });
                }
            }
            _ => {
                out.insert(RefMove::Step { from, to, promo: None, sets_ep, takes });
            }
        };
        for rule in &v.pieces[k].rules {
            for r in rule_rays(v, s, &v.pieces[k], rule, from) {
                if r.flags & ray::INITIAL != 0 && !p.virgin[from] {
                    continue;
                }
                if r.must_empty.iter().any(|&c| p.board[c].is_some()) {
                    continue;
                }
                let enemies = opponents(v, p, us);
                if r.flags & ray::PASS_UNATTACKED != 0 && r.must_empty.iter().any(|&c| enemies.iter().any(|&e| attacks(v, p, c, e))) {
                    continue;
                }
                let around = r.flags & ray::RETURNS != 0 && r.flags & ray::QUIET != 0;
                if v.rules.stationary_moves && around && r.cells.iter().all(|&c| p.board[c].is_none()) {
                    stationary.push(from);
                }
                for &c in &r.cells {
                    match p.board[c] {
                        None => {
                            if r.flags & ray::QUIET != 0 && !v.board.cells[c].transit {
                                let sets = if r.flags & ray::EP_TARGET != 0 { r.must_empty.clone() } else { Vec::new() };
                                add(c, sets, None);
                            }
                            if r.flags & ray::EP_CAPTURE != 0 {
                                if let Some((cells, victim)) = &p.ep {
                                    if cells.contains(&c) && capturable(v, p, *victim) {
                                        add(c, Vec::new(), Some(*victim));
                                    }
                                }
                            }
                        }
                        Some(_) => {
                            if capturable(v, p, c) && r.flags & ray::CAPTURE != 0 {
                                add(c, Vec::new(), None);
                            }
                            break;
                        }
                    }
                    if r.flags & ray::SLIDE == 0 {
                        break;
                    }
                }
            }
        }
    }
    out.extend(stationary.into_iter().map(RefMove::Stationary));
    for (i, c) in v.sides[us].castles.iter().enumerate() {
        let own = |cell: usize| p.board[cell].is_some_and(|(s, _)| s == us) && p.virgin[cell];
        if !own(c.king_from) || !own(c.rook_from) {
            continue;
        }
        if c.empty.iter().any(|&e| e != c.king_from && e != c.rook_from && p.board[e].is_some()) {
            continue;
        }
        let enemies = opponents(v, p, us);
        if c.safe.iter().any(|&s| enemies.iter().any(|&e| attacks(v, p, s, e))) {
            continue;
        }
        out.insert(RefMove::Castle(i));
    }
    out
}

pub fn play(v: &Variant, p: &RefPos, m: &RefMove) -> RefPos {
    let mut q = p.clone();
    q.ep = None;
    match m {
        RefMove::Stationary(_) => {}
        RefMove::Castle(i) => {
            let c = &v.sides[p.to_move].castles[*i];
            let king = q.board[c.king_from].take();
            let rook = q.board[c.rook_from].take();
            q.board[c.king_to] = king;
            q.board[c.rook_to] = rook;
            q.virgin[c.king_from] = false;
            q.virgin[c.rook_from] = false;
        }
        RefMove::Step { from, to, promo, sets_ep, takes } => {
            if let Some(t) = takes {
                q.board[*t] = None;
                q.virgin[*t] = false;
            }
            let (s, k) = q.board[*from].take().unwrap();
            q.board[*to] = Some((s, promo.unwrap_or(k)));
            q.virgin[*from] = false;
            q.virgin[*to] = false;
            if !sets_ep.is_empty() {
                q.ep = Some((sets_ep.clone(), *to));
            }
        }
    }
    q.to_move = next_side(v, p, p.to_move);
    q
}

/// The positions after each legal move, before eliminations: a move is legal when it leaves no
/// royal piece of the mover attacked by an opponent.
fn unsettled_legal(v: &Variant, p: &RefPos) -> Vec<RefPos> {
    let us = p.to_move;
    pseudo(v, p)
        .iter()
        .map(|m| play(v, p, m))
        .filter(|q| {
            let enemies = opponents(v, q, us);
            (0..q.board.len()).all(|c| match q.board[c] {
                Some((s, k)) if s == us && v.pieces[k].royal => enemies.iter().all(|&e| !attacks(v, q, c, e)),
                _ => true,
            })
        })
        .collect()
}

/// The positions after each legal move, eliminations made.
pub fn legal(v: &Variant, p: &RefPos) -> Vec<RefPos> {
    unsettled_legal(v, p).into_iter().map(|q| settle(v, q)).collect()
}

pub fn perft(v: &Variant, p: &RefPos, depth: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    let next = legal(v, p);
    if depth == 1 {
        return next.len() as u64;
    }
    next.iter().map(|q| perft(v, q, depth - 1)).sum()
}

/// The placement part of the general notation, for matching boards.
pub fn board_part(general: &str) -> String {
    general.split_whitespace().filter(|t| !t.starts_with("clock=") && !t.starts_with("move=") && !t.starts_with("virgin=") && !t.starts_with("ep=")).collect::<Vec<_>>().join(" ")
}

pub fn general(v: &Variant, p: &RefPos) -> String {
    let mut parts = vec![format!("turn={}", v.sides[p.to_move].name)];
    for (s, side) in v.sides.iter().enumerate() {
        let pieces: Vec<String> = (0..p.board.len())
            .filter_map(|c| match p.board[c] {
                Some((ps, k)) if ps == s => Some(format!("{}{}", v.pieces[k].symbol, v.board.cells[c].name)),
                _ => None,
            })
            .collect();
        parts.push(format!("{}={}", side.name, pieces.join(",")));
    }
    if p.out.iter().any(|&o| o) {
        let out: Vec<&str> = (0..v.sides.len()).filter(|&s| p.out[s]).map(|s| v.sides[s].name.as_str()).collect();
        parts.push(format!("out={}", out.join(",")));
    }
    parts.join(" ")
}

/// A position from the general notation's `turn=`, side and `out=` fields (no en passant, no
/// unmoved pieces): for cross-checks from given positions.
#[allow(dead_code)]
pub fn from_general(v: &Variant, text: &str) -> RefPos {
    let mut p = RefPos {
        board: vec![None; v.board.cells.len()],
        virgin: vec![false; v.board.cells.len()],
        ep: None,
        to_move: 0,
        out: vec![false; v.sides.len()],
    };
    let side = |name: &str| v.sides.iter().position(|s| s.name == name).unwrap_or_else(|| panic!("no side {name}"));
    for token in text.split_whitespace() {
        let (key, value) = token.split_once('=').expect("KEY=VALUE");
        match key {
            "turn" => p.to_move = side(value),
            "out" => value.split(',').for_each(|s| p.out[side(s)] = true),
            "clock" | "move" => {}
            _ => {
                let s = side(key);
                for item in value.split(',').filter(|i| !i.is_empty()) {
                    let symbol = item.chars().next().expect("symbol");
                    let k = v.pieces.iter().position(|pc| pc.symbol == symbol).expect("piece");
                    let c = v.board.cells.iter().position(|cell| cell.name == item[symbol.len_utf8()..]).expect("cell");
                    p.board[c] = Some((s, k));
                }
            }
        }
    }
    settle(v, p)
}
