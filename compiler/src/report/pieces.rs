//! Pieces: for each piece and side, on an otherwise empty board.
//!
//! - Mobility: the number of cells the piece can move to (quiet rays of a piece that has moved)
//!   from each cell it can stand on (every cell but transit cells and its own promotion zone): min, mean, max and
//!   where the extremes are. Attacked cells likewise when they differ from the moves.
//! - Binding classes: the connected components of the piece's move-and-capture graph. A piece never
//!   leaves its class; two classes that are the two colours of the grid make it colour-bound.
//! - Reversibility: for each rule, how many of its moves (origin, destination) the same piece can
//!   undo by a move or capture from the destination back to the origin.

use std::collections::BTreeMap;

use petgraph::unionfind::UnionFind;
use serde_json::{json, Value};

use super::{Ctx, RuleTexts};
use crate::model::{CellId, PieceId};

#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    pub min: usize,
    pub max: usize,
    pub mean: f64,
    pub min_cells: Vec<CellId>,
    pub max_cells: Vec<CellId>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RuleFacts {
    pub text: String,
    /// (origin, destination) pairs on the empty board.
    pub moves: usize,
    /// Moves the piece cannot undo.
    pub irreversible: usize,
    pub example: Option<(CellId, CellId)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PieceFacts {
    pub side: usize,
    pub piece: PieceId,
    pub royal: bool,
    pub mobility: Stats,
    /// `None` when the attacked cells are the move cells everywhere.
    pub attacks: Option<Stats>,
    /// The binding classes (sorted, each sorted), over the cells the piece can stand on.
    pub classes: Vec<Vec<CellId>>,
    pub colour_bound: bool,
    pub rules: Vec<RuleFacts>,
}

fn stats(cells: &[CellId], count: impl Fn(CellId) -> usize) -> Stats {
    let counts: Vec<(CellId, usize)> = cells.iter().map(|&c| (c, count(c))).collect();
    let min = counts.iter().map(|x| x.1).min().unwrap_or(0);
    let max = counts.iter().map(|x| x.1).max().unwrap_or(0);
    let sum: usize = counts.iter().map(|x| x.1).sum();
    Stats {
        min,
        max,
        mean: if counts.is_empty() { 0.0 } else { sum as f64 / counts.len() as f64 },
        min_cells: counts.iter().filter(|x| x.1 == min).map(|x| x.0).collect(),
        max_cells: counts.iter().filter(|x| x.1 == max).map(|x| x.0).collect(),
    }
}

pub fn analyze(ctx: &Ctx, texts: &RuleTexts) -> Vec<PieceFacts> {
    let v = ctx.v;
    let ncells = v.board.cells.len();
    let mut out = Vec::new();
    for side in 0..v.sides.len() {
        for (piece, p) in v.pieces.iter().enumerate() {
            // A piece that crowns others never stands on the board: its carriers' crowned kinds
            // are reported instead.
            if !p.crowns.is_empty() {
                continue;
            }
            let stand: Vec<CellId> = (0..ncells)
                .filter(|&c| !v.board.cells[c].transit && !ctx.promotes_on(side, piece, c))
                .collect();
            let moves = &ctx.moves[side][piece];
            let attacks = &ctx.attacks[side][piece];
            let mobility = stats(&stand, |c| moves[c].len());
            let same = stand.iter().all(|&c| moves[c] == attacks[c]);
            let attacks_stats = if same { None } else { Some(stats(&stand, |c| attacks[c].len())) };

            let mut uf = UnionFind::<usize>::new(ncells);
            for &c in &stand {
                for d in ctx.any_dest(side, piece, c) {
                    uf.union(c, d);
                }
            }
            let mut by_root: BTreeMap<usize, Vec<CellId>> = BTreeMap::new();
            for &c in &stand {
                by_root.entry(uf.find(c)).or_default().push(c);
            }
            let mut classes: Vec<Vec<CellId>> = by_root.into_values().collect();
            classes.sort();
            let colour_bound = classes.len() == 2 && {
                let colour = |c: CellId| v.board.cells[c].coords.map(|(x, y)| (x + y).rem_euclid(2));
                classes.iter().all(|cl| {
                    let first = colour(cl[0]);
                    first.is_some() && cl.iter().all(|&c| colour(c) == first)
                })
            };

            let mut rules = Vec::new();
            for (i, _) in p.rules.iter().enumerate() {
                let mut n = 0;
                let mut bad = 0;
                let mut example = None;
                for &o in &stand {
                    for (ri, r) in &ctx.rays[side][piece][o] {
                        if *ri != i {
                            continue;
                        }
                        for &d in r.cells.iter().filter(|&&d| !v.board.cells[d].transit) {
                            n += 1;
                            let back = !ctx.promotes_on(side, piece, d) && ctx.any_dest(side, piece, d).any(|x| x == o);
                            if !back {
                                bad += 1;
                                example.get_or_insert((o, d));
                            }
                        }
                    }
                }
                rules.push(RuleFacts { text: texts.get(v, piece, i), moves: n, irreversible: bad, example });
            }
            out.push(PieceFacts {
                side,
                piece,
                royal: p.royal,
                mobility,
                attacks: attacks_stats,
                classes,
                colour_bound,
                rules,
            });
        }
    }
    out
}

fn stats_text(s: &Stats, cells: &[String]) -> String {
    let where_ = |list: &[CellId]| super::list(&super::cell_names(cells, list), 6);
    if s.min == s.max {
        format!("{} everywhere", s.min)
    } else {
        format!("min {} ({}), mean {:.2}, max {} ({})", s.min, where_(&s.min_cells), s.mean, s.max, where_(&s.max_cells))
    }
}

fn body(f: &PieceFacts, cells: &[String]) -> String {
    let mut out = String::new();
    out.push_str(&format!("    moves on an empty board: {}\n", stats_text(&f.mobility, cells)));
    if let Some(a) = &f.attacks {
        out.push_str(&format!("    attacks on an empty board: {}\n", stats_text(a, cells)));
    }
    if f.classes.len() <= 1 {
        out.push_str("    binding: none (one class)\n");
    } else {
        let what = if f.colour_bound { "colour-bound, " } else { "" };
        out.push_str(&format!("    binding: {what}{} classes\n", f.classes.len()));
        for cl in f.classes.iter().take(4) {
            out.push_str(&format!("      {} cells: {}\n", cl.len(), super::list(&super::cell_names(cells, cl), super::SHOW)));
        }
        if f.classes.len() > 4 {
            out.push_str(&format!("      and {} more classes\n", f.classes.len() - 4));
        }
    }
    for r in &f.rules {
        let verdict = if r.moves == 0 {
            "no moves".to_string()
        } else if r.irreversible == 0 {
            "reversible".to_string()
        } else if r.irreversible == r.moves {
            let (o, d) = r.example.unwrap_or((0, 0));
            format!("never reversible (e.g. {}-{})", cells[o], cells[d])
        } else {
            let (o, d) = r.example.unwrap_or((0, 0));
            format!("{} of {} moves not reversible (e.g. {}-{})", r.irreversible, r.moves, cells[o], cells[d])
        };
        out.push_str(&format!("    `{}`: {verdict}\n", r.text));
    }
    out
}

pub fn text(facts: &[PieceFacts], cells: &[String], pieces: &[String], sides: &[String]) -> String {
    // Per piece, sides with identical facts are shown together.
    let mut out = String::new();
    let mut order: Vec<PieceId> = facts.iter().map(|f| f.piece).collect();
    order.dedup();
    order.sort();
    order.dedup();
    for piece in order {
        let mut groups: Vec<(Vec<usize>, String)> = Vec::new();
        for f in facts.iter().filter(|f| f.piece == piece) {
            let b = body(f, cells);
            match groups.iter_mut().find(|g| g.1 == b) {
                Some(g) => g.0.push(f.side),
                None => groups.push((vec![f.side], b)),
            }
        }
        for (ss, b) in groups {
            let names: Vec<&str> = ss.iter().map(|&s| sides[s].as_str()).collect();
            out.push_str(&format!("  {} ({})\n", pieces[piece], names.join(", ")));
            out.push_str(&b);
        }
    }
    out
}

fn stats_json(s: &Stats, cells: &[String]) -> Value {
    json!({
        "min": s.min, "max": s.max, "mean": (s.mean * 1000.0).round() / 1000.0,
        "min_cells": super::cell_names(cells, &s.min_cells),
        "max_cells": super::cell_names(cells, &s.max_cells),
    })
}

pub fn json(facts: &[PieceFacts], cells: &[String], pieces: &[String], sides: &[String]) -> Value {
    Value::Array(
        facts
            .iter()
            .map(|f| {
                json!({
                    "piece": pieces[f.piece],
                    "side": sides[f.side],
                    "royal": f.royal,
                    "mobility": stats_json(&f.mobility, cells),
                    "attacks": f.attacks.as_ref().map(|a| stats_json(a, cells)),
                    "binding": {
                        "classes": f.classes.len(),
                        "colour_bound": f.colour_bound,
                        "class_sizes": f.classes.iter().map(Vec::len).collect::<Vec<_>>(),
                        "cells": f.classes.iter().map(|c| super::cell_names(cells, c)).collect::<Vec<_>>(),
                    },
                    "rules": f.rules.iter().map(|r| json!({
                        "rule": r.text, "moves": r.moves, "irreversible": r.irreversible,
                        "reversible": r.irreversible == 0,
                        "example": r.example.map(|(o, d)| json!([cells[o], cells[d]])),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect(),
    )
}
