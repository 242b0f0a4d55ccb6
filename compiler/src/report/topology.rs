//! Topology of moves: the step function seen as a map on (cell, heading) states.
//!
//! - Self-adjacent cells: a step that lands on its own cell, with the headings that do it.
//! - Irreversible steps: from X heading H to Y heading H', where the step from Y heading
//!   reverse(H') does not come back to X heading reverse(H) (reverse: the negated vector).
//! - Closed lines: cycles of the step map. A slide along one comes back to its start. Lines are
//!   counted once whichever way and wherever they are entered; the length is the number of steps
//!   (a line that doubles back on itself passes cells twice).
//! - Cells no piece can reach: no piece of any side can ever stand there (transit cells aside) (moves on an empty board
//!   from the setup, promotions included).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use super::Ctx;
use crate::model::{CellId, HeadingId};

#[derive(Debug, Clone)]
pub struct Irreversible {
    pub from: CellId,
    pub heading: HeadingId,
    pub to: CellId,
    pub arrival: HeadingId,
    /// Where the reverse step goes instead (`None`: off the board).
    pub back: Option<(CellId, HeadingId)>,
}

#[derive(Debug, Clone)]
pub struct Line {
    /// Steps until the line is back at its start.
    pub length: usize,
    /// Distinct cells on the line.
    pub distinct: usize,
    /// "orthogonal", "diagonal" or "mixed" (by the headings' vectors), or "other".
    pub kind: String,
    /// The cells in order from `start`, the start cell last.
    pub cells: Vec<CellId>,
    pub start: CellId,
    pub heading: HeadingId,
}

#[derive(Debug, Clone)]
pub struct Topology {
    pub self_adjacent: Vec<(CellId, Vec<HeadingId>)>,
    pub irreversible: Vec<Irreversible>,
    pub lines: Vec<Line>,
    /// Cells no piece of any side can ever stand on.
    pub unreachable: Vec<CellId>,
}

fn kind_of(vector: Option<(i32, i32)>) -> &'static str {
    match vector {
        Some((dx, dy)) if dx == 0 || dy == 0 => "orthogonal",
        Some((dx, dy)) if dx.abs() == dy.abs() => "diagonal",
        _ => "other",
    }
}

pub fn analyze(ctx: &Ctx) -> Topology {
    let board = &ctx.v.board;
    let nh = board.headings.len();
    let ncells = board.cells.len();

    let mut self_adjacent = Vec::new();
    for c in 0..ncells {
        let hs: Vec<HeadingId> = (0..nh).filter(|&h| board.step(c, h).is_some_and(|(to, _)| to == c)).collect();
        if !hs.is_empty() {
            self_adjacent.push((c, hs));
        }
    }

    let reverse = board.reverse_headings();
    let mut irreversible = Vec::new();
    for from in 0..ncells {
        for h in 0..nh {
            let Some((to, arrival)) = board.step(from, h) else { continue };
            let (Some(rh), Some(ra)) = (reverse[h], reverse[arrival]) else { continue };
            let back = board.step(to, ra);
            if back != Some((from, rh)) {
                irreversible.push(Irreversible { from, heading: h, to, arrival, back });
            }
        }
    }

    // Cycles of the step map on states `cell * nh + heading`.
    let nstates = ncells * nh;
    let next = |s: usize| board.step(s / nh, s % nh).map(|(c, h)| c * nh + h);
    // 0 unvisited, 1 on the current path, 2 done.
    let mut mark = vec![0u8; nstates];
    let mut seen_lines: BTreeSet<Vec<CellId>> = BTreeSet::new();
    let mut lines = Vec::new();
    for start in 0..nstates {
        if mark[start] != 0 {
            continue;
        }
        let mut path = Vec::new();
        let mut s = Some(start);
        while let Some(cur) = s {
            if mark[cur] == 2 {
                break;
            }
            if mark[cur] == 1 {
                // A cycle: from `cur` to the end of the path.
                let at = path.iter().position(|&p| p == cur).expect("on the path");
                let cycle: Vec<usize> = path[at..].to_vec();
                let cells: Vec<CellId> = cycle.iter().map(|&p| p / nh).collect();
                let key = canonical(&cells);
                if seen_lines.insert(key) {
                    // Start at the smallest state of the cycle, for a stable example.
                    let first = (0..cycle.len()).min_by_key(|&i| cycle[i]).unwrap_or(0);
                    let st = cycle[first];
                    let mut seq: Vec<CellId> = (1..=cycle.len()).map(|k| cycle[(first + k) % cycle.len()] / nh).collect();
                    if seq.is_empty() {
                        seq.push(st / nh);
                    }
                    let kinds: BTreeSet<&str> = cycle.iter().map(|&p| kind_of(board.headings[p % nh].vector)).collect();
                    let kind = if kinds.len() == 1 { kinds.into_iter().next().unwrap_or("other").to_string() } else { "mixed".to_string() };
                    let distinct = cells.iter().collect::<BTreeSet<_>>().len();
                    lines.push(Line { length: cycle.len(), distinct, kind, cells: seq, start: st / nh, heading: st % nh });
                }
                break;
            }
            mark[cur] = 1;
            path.push(cur);
            s = next(cur);
        }
        for p in path {
            mark[p] = 2;
        }
    }
    lines.sort_by(|a, b| (&a.kind, a.length, a.start, a.heading).cmp(&(&b.kind, b.length, b.start, b.heading)));

    let unreachable = (0..ncells)
        .filter(|&c| !board.cells[c].transit && !ctx.reach.iter().any(|side| side.iter().any(|piece| piece[c])))
        .collect();
    Topology { self_adjacent, irreversible, lines, unreachable }
}

/// The smallest rotation of the sequence or of its reverse: one key per line, whichever way.
fn canonical(cells: &[CellId]) -> Vec<CellId> {
    let n = cells.len();
    let mut best: Option<Vec<CellId>> = None;
    let rev: Vec<CellId> = cells.iter().rev().copied().collect();
    for seq in [cells, &rev[..]] {
        for r in 0..n {
            let cand: Vec<CellId> = (0..n).map(|i| seq[(r + i) % n]).collect();
            if best.as_ref().is_none_or(|b| cand < *b) {
                best = Some(cand);
            }
        }
    }
    best.unwrap_or_default()
}

/// Lines grouped by (kind, length, distinct cells): count and the first line.
fn groups(t: &Topology) -> BTreeMap<(String, usize, usize), (usize, &Line)> {
    let mut g: BTreeMap<(String, usize, usize), (usize, &Line)> = BTreeMap::new();
    for l in &t.lines {
        g.entry((l.kind.clone(), l.length, l.distinct)).or_insert((0, l)).0 += 1;
    }
    g
}

pub fn text(t: &Topology, cells: &[String], headings: &[String]) -> String {
    let mut out = String::new();
    if t.self_adjacent.is_empty() {
        out.push_str("  self-adjacent cells: none\n");
    } else {
        out.push_str("  self-adjacent cells:\n");
        for (c, hs) in &t.self_adjacent {
            let hs: Vec<&str> = hs.iter().map(|&h| headings[h].as_str()).collect();
            out.push_str(&format!("    {} by {} ({}×)\n", cells[*c], hs.join(" "), hs.len()));
        }
    }
    if t.irreversible.is_empty() {
        out.push_str("  irreversible steps: none\n");
    } else {
        out.push_str(&format!("  irreversible steps: {}\n", t.irreversible.len()));
        for i in t.irreversible.iter().take(super::SHOW / 2) {
            let back = match i.back {
                Some((c, h)) => format!("{} heading {}", cells[c], headings[h]),
                None => "off the board".into(),
            };
            out.push_str(&format!(
                "    {} {} -> {} heading {}; back leads to {back}\n",
                cells[i.from], headings[i.heading], cells[i.to], headings[i.arrival]
            ));
        }
    }
    if t.lines.is_empty() {
        out.push_str("  closed lines: none\n");
    } else {
        out.push_str(&format!("  closed lines: {}\n", t.lines.len()));
        for ((kind, length, distinct), (count, l)) in groups(t) {
            let seq: Vec<String> = l.cells.iter().map(|&c| cells[c].clone()).collect();
            let cells_note = if distinct == length { String::new() } else { format!(" through {distinct} cells") };
            out.push_str(&format!(
                "    {count} {kind} of length {length}{cells_note}, e.g. {} {}: {}\n",
                cells[l.start],
                headings[l.heading],
                super::list(&seq, 20)
            ));
        }
    }
    out.push_str(&format!(
        "  cells no piece can reach: {}\n",
        super::list(&super::cell_names(cells, &t.unreachable), super::SHOW)
    ));
    out
}

pub fn json(t: &Topology, cells: &[String], headings: &[String]) -> Value {
    json!({
        "self_adjacent": t.self_adjacent.iter().map(|(c, hs)| json!({
            "cell": cells[*c],
            "headings": hs.iter().map(|&h| headings[h].clone()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "irreversible_steps": t.irreversible.iter().map(|i| json!({
            "from": cells[i.from], "heading": headings[i.heading],
            "to": cells[i.to], "arrival": headings[i.arrival],
            "back": i.back.map(|(c, h)| json!({ "cell": cells[c], "heading": headings[h] })),
        })).collect::<Vec<_>>(),
        "closed_lines": t.lines.iter().map(|l| json!({
            "kind": l.kind, "length": l.length, "distinct_cells": l.distinct,
            "start": cells[l.start], "heading": headings[l.heading],
            "cells": l.cells.iter().map(|&c| cells[c].clone()).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "unreachable_cells": super::cell_names(cells, &t.unreachable),
    })
}
