//! What stands where and where a piece can go: the content of a diagram, independent of its format.

use crate::board::Board;
use orbis_runtime::tables::{hop, ray};

/// A piece: side and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub side: usize,
    pub kind: usize,
}

/// What a movement diagram marks on a destination cell.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mark {
    /// The piece can move there (the cell is empty).
    pub quiet: bool,
    /// The piece can capture the enemy piece standing there.
    pub capture: bool,
    /// The cell is empty and the piece could go there only by capturing.
    pub capture_only: bool,
}

impl Mark {
    pub fn any(&self) -> bool {
        self.quiet || self.capture || self.capture_only
    }
}

/// One step of a drawn path: from a cell with a heading to a cell, arriving with a heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub from: usize,
    pub heading: usize,
    pub to: usize,
    pub arrival: usize,
}

/// One ray as drawn: its steps, in order; `returns` when it ends back on its start.
#[derive(Debug, Clone)]
pub struct PathLine {
    pub heading: usize,
    pub steps: Vec<Step>,
    pub returns: bool,
}

/// A piece on a cell, the cells it reaches and (on request) its rays.
#[derive(Debug, Clone)]
pub struct Movement {
    pub piece: Piece,
    pub cell: usize,
    pub marks: Vec<Mark>,
    pub paths: Vec<PathLine>,
}

impl Movement {
    pub fn count(&self, f: impl Fn(&Mark) -> bool) -> usize {
        self.marks.iter().filter(|m| f(m)).count()
    }
}

/// Everything one diagram shows.
pub struct Scene {
    pub title: String,
    pub subtitle: String,
    /// A further line (the position's text).
    pub detail: Option<String>,
    /// The piece on each cell (the top one of a stack).
    pub pieces: Vec<Option<Piece>>,
    /// The hidden piece beneath it, on cells that hold a stack.
    pub under: Vec<Option<Piece>>,
    pub movement: Option<Movement>,
    /// Whether the movement's rays are drawn.
    pub paths: bool,
    /// Per cell: part of the last move played.
    pub last: Vec<bool>,
    /// Per cell: a royal piece in check stands there.
    pub check: Vec<bool>,
    /// Grid boards drawn turned round (the second side's view).
    pub flip: bool,
    /// SVG only: every cell carries a `data-cell` hit area on top, for pages that take clicks.
    pub interactive: bool,
}

/// The destinations of `piece` on `cell`, given what stands on the board and which cells still
/// hold unmoved pieces. Follows the rays exactly as the runtime does (blocking, initial moves),
/// without the legality test (checks and pins are not a matter of geometry).
pub fn movement(b: &Board, pieces: &[Option<Piece>], unmoved: &[bool], piece: Piece, cell: usize) -> Movement {
    let t = b.t;
    let n = t.cells.len();
    let ck = piece.side * t.kinds.len() + piece.kind;
    let mut marks = vec![Mark::default(); n];
    let mut paths = Vec::new();
    for r in t.rays_of(ck, cell) {
        if r.flags & ray::INITIAL != 0 && !unmoved[cell] {
            continue;
        }
        let must_empty = &t.pool[r.must_empty.0 as usize..r.must_empty.1 as usize];
        if must_empty.iter().any(|&c| c as usize != cell && pieces[c as usize].is_some()) {
            continue;
        }
        let cells = &t.pool[r.cells.0 as usize..r.cells.1 as usize];
        let mut reached = 0;
        let mut complete = true;
        for &c in cells {
            let c = c as usize;
            match pieces[c] {
                Some(p) if c != cell => {
                    if p.side != piece.side && r.flags & (ray::CAPTURE | ray::EP_CAPTURE) != 0 {
                        marks[c].capture = true;
                        reached += 1;
                    }
                    complete = false;
                    break;
                }
                _ => {
                    reached += 1;
                    if r.flags & ray::QUIET != 0 {
                        marks[c].quiet = true;
                    } else if r.flags & ray::CAPTURE != 0 {
                        marks[c].capture_only = true;
                    }
                }
            }
        }
        let returns = complete && r.flags & ray::RETURNS != 0;
        if reached == 0 {
            continue;
        }
        paths.push(trace(b, cell, r.heading as usize, must_empty, &cells[..reached], returns));
    }
    // Winding rules (`wind`): every zone cell reachable through empty zone cells, and the enemy
    // pieces next to them (no path is drawn: there are many).
    for w in t.winders.iter().filter(|w| w.kind as usize == piece.kind) {
        let Some(start) = w.zone.iter().position(|&c| c as usize == cell) else { continue };
        let mut seen = vec![false; w.zone.len()];
        seen[start] = true;
        let mut queue = vec![start];
        while let Some(i) = queue.pop() {
            for &d in &w.adjacency[i] {
                let j = w.zone.iter().position(|&z| z == d).unwrap_or(start);
                if seen[j] {
                    continue;
                }
                seen[j] = true;
                let d = d as usize;
                match pieces[d] {
                    Some(p) if p.side != piece.side && w.flags & ray::CAPTURE != 0 => marks[d].capture = true,
                    Some(_) => {}
                    None => {
                        if w.flags & ray::QUIET != 0 {
                            marks[d].quiet = true;
                        }
                        queue.push(j);
                    }
                }
            }
        }
    }
    // Hops and `takes` slides (`Tables::hoppers`): walked along their lines as the runtime does
    // (no path is drawn). On an empty board a hop has no screen and marks nothing.
    for h in t.hoppers.iter().filter(|h| h.ck as usize == ck) {
        let kind_of = |c: usize| pieces[c].map(|p| p.kind);
        for (_, line) in h.lines.iter().filter(|(from, _)| *from as usize == cell) {
            let mut start = 0;
            if h.flags & hop::SCREEN != 0 {
                let Some(s) = line.iter().position(|&c| c as usize != cell && pieces[c as usize].is_some()) else { continue };
                if kind_of(line[s] as usize).is_some_and(|k| h.over >> k & 1 == 0) {
                    continue;
                }
                start = s + 1;
            }
            let end = if h.flags & hop::NEXT != 0 { line.len().min(start + 1) } else { line.len() };
            for &c in &line[start.min(end)..end] {
                let c = c as usize;
                let onto = h.onto.binary_search(&(c as u16)).is_ok();
                match pieces[c] {
                    Some(p) if c != cell => {
                        if p.side != piece.side && h.flags & hop::CAPTURE != 0 && h.takes >> p.kind & 1 != 0 && onto {
                            marks[c].capture = true;
                        }
                        break;
                    }
                    _ => {
                        if h.flags & hop::QUIET != 0 && onto {
                            marks[c].quiet = true;
                        }
                    }
                }
            }
        }
    }
    Movement { piece, cell, marks, paths }
}

/// The steps of a ray: a slide follows the step function with its carried heading; a leap's way
/// there is found as the shortest walk (first step with the ray's heading, then any heading)
/// through its passed cells.
fn trace(b: &Board, start: usize, heading: usize, passed: &[u16], cells: &[u16], returns: bool) -> PathLine {
    let mut steps = Vec::new();
    let mut cur = (start, heading);
    let mut first = true;
    let mut targets: Vec<usize> = cells.iter().map(|&c| c as usize).collect();
    if returns {
        targets.push(start);
    }
    for &target in &targets {
        let direct = b.step(cur.0, cur.1).filter(|&(c, _)| c == target);
        if let Some((c, h)) = direct {
            steps.push(Step { from: cur.0, heading: cur.1, to: c, arrival: h });
            cur = (c, h);
        } else if let Some(walk) = search(b, cur, first, passed, target) {
            cur = (target, walk.last().map(|s| s.arrival).unwrap_or(cur.1));
            steps.extend(walk);
        } else {
            // Not reachable by a short walk: draw it as one jump.
            steps.push(Step { from: cur.0, heading: cur.1, to: target, arrival: cur.1 });
            cur = (target, cur.1);
        }
        first = false;
    }
    PathLine { heading, steps, returns }
}

/// Breadth-first search for the shortest walk (at most 4 steps) from `from` to `target`; the first
/// step keeps the given heading when `fixed`, later steps take any heading. Walks through the
/// passed cells are preferred.
fn search(b: &Board, from: (usize, usize), fixed: bool, passed: &[u16], target: usize) -> Option<Vec<Step>> {
    let nh = b.t.headings.len();
    let mut best: Option<(usize, Vec<Step>)> = None;
    let mut frontier: Vec<Vec<Step>> = vec![Vec::new()];
    for depth in 0..4 {
        let mut next = Vec::new();
        for walk in &frontier {
            let cell = walk.last().map(|s| s.to).unwrap_or(from.0);
            let headings: Vec<usize> = if depth == 0 && fixed { vec![from.1] } else { (0..nh).collect() };
            for h in headings {
                let Some((c, h2)) = b.step(cell, h) else { continue };
                let mut w = walk.clone();
                w.push(Step { from: cell, heading: h, to: c, arrival: h2 });
                if c == target {
                    let score = w[..w.len() - 1].iter().filter(|s| passed.contains(&(s.to as u16))).count();
                    if best.as_ref().is_none_or(|(s, _)| score > *s) {
                        best = Some((score, w));
                    }
                } else if next.len() < 20_000 {
                    next.push(w);
                }
            }
        }
        if best.is_some() {
            break;
        }
        frontier = next;
    }
    best.map(|(_, w)| w)
}
