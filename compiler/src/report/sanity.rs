//! Rule sanity: rules that can never take effect, or take effect differently than written.
//!
//! - Promotion zones: the cells of each zone the promoting piece can ever reach (from its setup,
//!   by its own moves and captures on an empty board).
//! - Immobile pieces: setup pieces with no move from their setup cell even on an empty board, and
//!   pieces with no move from any cell.
//! - Castling: whether the king's and the rook's moves are lines (repeated steps of one heading),
//!   and whether the `empty` and `safe` lists cover the cells those lines pass.
//! - Royal pieces: whether any enemy piece (of another team; present or promotable) can ever attack a cell the royal
//!   piece can stand on; one that can never be checked makes check and checkmate impossible.
//! - Transit cells: cells pieces pass but never stop on; each should be crossed by some move (a
//!   cell a ray must pass, or a slide passes before its last cell).

use serde_json::{json, Value};

use super::Ctx;
use crate::model::{CellId, HeadingId, PieceId};

#[derive(Debug, Clone)]
pub struct PromotionFact {
    pub side: usize,
    /// Index in the side's promotions.
    pub index: usize,
    pub piece: PieceId,
    pub zone: Vec<CellId>,
    pub reachable: Vec<CellId>,
}

/// A line walked by one heading: the heading and the cells after the start, the goal last.
pub type Path = Option<(HeadingId, Vec<CellId>)>;

#[derive(Debug, Clone)]
pub struct CastleFact {
    pub side: usize,
    pub index: usize,
    pub name: String,
    pub king: (CellId, CellId),
    pub rook: (CellId, CellId),
    /// `None` when no line leads from the first cell to the second (or they are the same).
    pub king_path: Path,
    pub rook_path: Path,
    /// Cells the king or rook passes or lands on that are not listed `empty` (the two castling
    /// pieces' own cells excepted).
    pub not_empty_listed: Vec<CellId>,
    /// Cells of the king's line (start included) that are not listed `safe`.
    pub not_safe_listed: Vec<CellId>,
}

impl CastleFact {
    /// Whether the king and the rook each move along a line or stay where they are (a chess960
    /// king may already stand on its castling cell).
    pub fn lines(&self) -> bool {
        let ok = |path: &Path, (from, to): (CellId, CellId)| path.is_some() || from == to;
        ok(&self.king_path, self.king) && ok(&self.rook_path, self.rook)
    }

    /// Whether the king does not move along a line (else the rook), when [`Self::lines`] fails.
    pub fn king_off_line(&self) -> bool {
        self.king_path.is_none() && self.king.0 != self.king.1
    }
}

#[derive(Debug, Clone)]
pub struct RoyalFact {
    pub side: usize,
    pub piece: PieceId,
    /// Enemy (side, piece) that can attack some cell the royal piece can stand on.
    pub checked_by: Vec<(usize, PieceId)>,
}

#[derive(Debug, Clone)]
pub struct Sanity {
    pub promotions: Vec<PromotionFact>,
    /// Setup pieces that have no move from their setup cell on an empty board: (side, piece, cell).
    pub immobile: Vec<(usize, PieceId, CellId)>,
    /// Pieces with no move from any cell for this side: (side, piece).
    pub never_move: Vec<(usize, PieceId)>,
    pub castles: Vec<CastleFact>,
    pub royals: Vec<RoyalFact>,
    /// Transit cells and whether some move crosses them.
    pub transit: Vec<(CellId, bool)>,
}

/// Every line from `from` to `to` by repeating one heading's step (each stops at `to`).
pub fn lines(ctx: &Ctx, from: CellId, to: CellId) -> Vec<(HeadingId, Vec<CellId>)> {
    let board = &ctx.v.board;
    let mut out = Vec::new();
    for h0 in 0..board.headings.len() {
        let (mut c, mut h) = (from, h0);
        let mut cells = Vec::new();
        for _ in 0..board.cells.len() {
            let Some((n, nh)) = board.step(c, h) else { break };
            cells.push(n);
            if n == to {
                out.push((h0, cells.clone()));
                break;
            }
            if n == from {
                break;
            }
            c = n;
            h = nh;
        }
    }
    out
}

/// The line a castling piece takes: preferring lines whose cells the rule lists (`listed`), then
/// lines parallel to `parallel` (the king's heading: same or opposite vector), then the shortest.
fn castle_line(ctx: &Ctx, from: CellId, to: CellId, listed: &[CellId], parallel: Option<HeadingId>) -> Path {
    let hs = &ctx.v.board.headings;
    let is_parallel = |h: HeadingId| match (parallel.and_then(|p| hs[p].vector), hs[h].vector) {
        (Some((a, b)), Some((c, d))) => (a, b) == (c, d) || (a, b) == (-c, -d),
        _ => parallel.is_none(),
    };
    lines(ctx, from, to).into_iter().min_by_key(|(h, cells)| {
        let unlisted = cells.iter().filter(|c| !listed.contains(c)).count();
        (unlisted, !is_parallel(*h), cells.len())
    })
}

/// Whether some ray of some piece passes each transit cell before its last cell.
pub fn transit(ctx: &Ctx, cells: &[CellId]) -> Vec<(CellId, bool)> {
    cells
        .iter()
        .map(|&t| {
            let crossed = ctx.rays.iter().flatten().flatten().flatten().any(|(_, r)| {
                r.must_empty.contains(&t) || r.cells.iter().rev().skip(1).any(|&c| c == t)
            });
            (t, crossed)
        })
        .collect()
}

pub fn analyze(ctx: &Ctx) -> Sanity {
    let v = ctx.v;
    let ncells = v.board.cells.len();
    let mut promotions = Vec::new();
    let mut immobile = Vec::new();
    let mut never_move = Vec::new();
    let mut castles = Vec::new();
    let mut royals = Vec::new();
    for (s, side) in v.sides.iter().enumerate() {
        for (i, p) in side.promotions.iter().enumerate() {
            let reachable = p.zone.iter().copied().filter(|&c| ctx.reach[s][p.piece][c]).collect();
            promotions.push(PromotionFact { side: s, index: i, piece: p.piece, zone: p.zone.clone(), reachable });
        }
        for &(c, p) in &side.setup {
            if ctx.rays[s][p][c].is_empty() {
                immobile.push((s, p, c));
            }
        }
        for p in 0..v.pieces.len() {
            if (0..ncells).all(|c| ctx.rays[s][p][c].is_empty()) {
                never_move.push((s, p));
            }
        }
        for (i, k) in side.castles.iter().enumerate() {
            let mut listed: Vec<CellId> = k.empty.iter().chain(k.safe.iter()).copied().collect();
            listed.extend([k.king_from, k.rook_from]);
            let king_path = castle_line(ctx, k.king_from, k.king_to, &listed, None);
            let rook_path = castle_line(ctx, k.rook_from, k.rook_to, &listed, king_path.as_ref().map(|p| p.0));
            let mut not_empty = Vec::new();
            for path in [&king_path, &rook_path].into_iter().flatten() {
                for &c in &path.1 {
                    if c != k.king_from && c != k.rook_from && !k.empty.contains(&c) && !not_empty.contains(&c) {
                        not_empty.push(c);
                    }
                }
            }
            let mut not_safe = Vec::new();
            if let Some((_, cells)) = &king_path {
                for &c in std::iter::once(&k.king_from).chain(cells.iter()) {
                    if !k.safe.contains(&c) {
                        not_safe.push(c);
                    }
                }
            }
            castles.push(CastleFact {
                side: s,
                index: i,
                name: k.name.clone(),
                king: (k.king_from, k.king_to),
                rook: (k.rook_from, k.rook_to),
                king_path,
                rook_path,
                not_empty_listed: not_empty,
                not_safe_listed: not_safe,
            });
        }
        for (p, piece) in v.pieces.iter().enumerate() {
            if !piece.royal || !(0..ncells).any(|c| ctx.reach[s][p][c]) {
                continue;
            }
            let mut checked_by = Vec::new();
            // Opponents only: sides of one team never give each other check.
            for e in (0..v.sides.len()).filter(|&e| v.sides[e].team != v.sides[s].team) {
                for q in 0..v.pieces.len() {
                    let hits = (0..ncells)
                        .filter(|&o| ctx.reach[e][q][o])
                        .any(|o| ctx.attacks[e][q][o].iter().any(|&t| ctx.reach[s][p][t]));
                    if hits {
                        checked_by.push((e, q));
                    }
                }
            }
            royals.push(RoyalFact { side: s, piece: p, checked_by });
        }
    }
    let transit_cells: Vec<CellId> = (0..ncells).filter(|&c| v.board.cells[c].transit).collect();
    let transit = transit(ctx, &transit_cells);
    Sanity { promotions, immobile, never_move, castles, royals, transit }
}

fn path_text(p: &Path, (from, to): (CellId, CellId), cells: &[String], headings: &[String]) -> String {
    match p {
        Some((h, cs)) => format!("along {} ({})", headings[*h], super::cell_names(cells, cs).join(" ")),
        None if from == to => "(stays)".into(),
        None => "NOT along a line".into(),
    }
}

pub fn text(s: &Sanity, cells: &[String], headings: &[String], pieces: &[String], sides: &[String]) -> String {
    let mut out = String::new();
    if s.promotions.is_empty() {
        out.push_str("  promotion: none\n");
    }
    for p in &s.promotions {
        let verdict = if p.reachable.len() == p.zone.len() {
            format!("all {} cells reachable", p.zone.len())
        } else if p.reachable.is_empty() {
            format!("NEVER reached (0 of {} cells)", p.zone.len())
        } else {
            let missing: Vec<CellId> = p.zone.iter().copied().filter(|c| !p.reachable.contains(c)).collect();
            format!("{} of {} cells reachable; never {}", p.reachable.len(), p.zone.len(), super::cell_names(cells, &missing).join(" "))
        };
        out.push_str(&format!("  promotion of the {} {}: {verdict}\n", sides[p.side], pieces[p.piece]));
    }
    if s.immobile.is_empty() && s.never_move.is_empty() {
        out.push_str("  pieces without a first move: none\n");
    }
    for &(sd, p) in &s.never_move {
        out.push_str(&format!("  the {} {} has no move from any cell\n", sides[sd], pieces[p]));
    }
    for &(sd, p, c) in &s.immobile {
        out.push_str(&format!("  the {} {} on {} has no move from there, even on an empty board\n", sides[sd], pieces[p], cells[c]));
    }
    if s.castles.is_empty() {
        out.push_str("  castling: none\n");
    }
    for k in &s.castles {
        out.push_str(&format!(
            "  castling {} {}: king {}-{} {}; rook {}-{} {}\n",
            sides[k.side],
            k.name,
            cells[k.king.0],
            cells[k.king.1],
            path_text(&k.king_path, k.king, cells, headings),
            cells[k.rook.0],
            cells[k.rook.1],
            path_text(&k.rook_path, k.rook, cells, headings)
        ));
        if !k.not_empty_listed.is_empty() {
            out.push_str(&format!("    passed but not listed empty: {}\n", super::cell_names(cells, &k.not_empty_listed).join(" ")));
        }
        if !k.not_safe_listed.is_empty() {
            out.push_str(&format!("    king's cells not listed safe: {}\n", super::cell_names(cells, &k.not_safe_listed).join(" ")));
        }
    }
    for r in &s.royals {
        if r.checked_by.is_empty() {
            out.push_str(&format!("  royal {} {}: can NEVER be checked\n", sides[r.side], pieces[r.piece]));
        } else {
            let by: Vec<String> = r.checked_by.iter().map(|&(e, q)| format!("{} {}", sides[e], pieces[q])).collect();
            out.push_str(&format!("  royal {} {}: can be checked by {}\n", sides[r.side], pieces[r.piece], by.join(", ")));
        }
    }
    if s.transit.is_empty() {
        out.push_str("  transit cells: none declared\n");
    }
    for &(c, crossed) in &s.transit {
        out.push_str(&format!("  transit cell {}: {}\n", cells[c], if crossed { "crossed" } else { "NO move crosses it" }));
    }
    out
}

pub fn json(s: &Sanity, cells: &[String], headings: &[String], pieces: &[String], sides: &[String]) -> Value {
    let path = |p: &Path| p.as_ref().map(|(h, cs)| json!({ "heading": headings[*h], "cells": super::cell_names(cells, cs) }));
    json!({
        "promotions": s.promotions.iter().map(|p| json!({
            "side": sides[p.side], "piece": pieces[p.piece],
            "zone": super::cell_names(cells, &p.zone), "reachable": super::cell_names(cells, &p.reachable),
        })).collect::<Vec<_>>(),
        "immobile_pieces": s.immobile.iter().map(|&(sd, p, c)| json!({ "side": sides[sd], "piece": pieces[p], "cell": cells[c] })).collect::<Vec<_>>(),
        "pieces_without_moves": s.never_move.iter().map(|&(sd, p)| json!({ "side": sides[sd], "piece": pieces[p] })).collect::<Vec<_>>(),
        "castling": s.castles.iter().map(|k| json!({
            "side": sides[k.side], "name": k.name,
            "king": [cells[k.king.0], cells[k.king.1]], "rook": [cells[k.rook.0], cells[k.rook.1]],
            "king_line": path(&k.king_path), "rook_line": path(&k.rook_path),
            "lines": k.lines(),
            "not_listed_empty": super::cell_names(cells, &k.not_empty_listed),
            "not_listed_safe": super::cell_names(cells, &k.not_safe_listed),
        })).collect::<Vec<_>>(),
        "royals": s.royals.iter().map(|r| json!({
            "side": sides[r.side], "piece": pieces[r.piece], "checkable": !r.checked_by.is_empty(),
            "checked_by": r.checked_by.iter().map(|&(e, q)| json!({ "side": sides[e], "piece": pieces[q] })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "transit_cells": s.transit.iter().map(|&(c, crossed)| json!({ "cell": cells[c], "crossed": crossed })).collect::<Vec<_>>(),
    })
}
