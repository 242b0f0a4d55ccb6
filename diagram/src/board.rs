//! What a diagram needs to know about a board, read off the compiled tables only.
//!
//! Nothing here knows a variant: the grid layout says where cells sit, the step function says where
//! a step goes. A heading's vector is the grid offset most of its steps make; a step that does not
//! land on that grid neighbour crosses a *seam* (a wrap, a pole, any `seam` or `link`).

use orbis_runtime::tables::{Tables, NO_CELL};
use std::collections::BTreeMap;

/// A side of the grid's bounding rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Edge {
    Top,
    Right,
    Bottom,
    Left,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::Top, Edge::Right, Edge::Bottom, Edge::Left];

    /// The outward unit vector (y grows towards the last rank).
    pub fn outward(self) -> (i32, i32) {
        match self {
            Edge::Top => (0, 1),
            Edge::Right => (1, 0),
            Edge::Bottom => (0, -1),
            Edge::Left => (-1, 0),
        }
    }

    /// The edge across the board (where this one lies when the board is turned round).
    pub fn opposite(self) -> Edge {
        match self {
            Edge::Top => Edge::Bottom,
            Edge::Right => Edge::Left,
            Edge::Bottom => Edge::Top,
            Edge::Left => Edge::Right,
        }
    }

    fn from_outward(v: (i32, i32)) -> Option<Edge> {
        Edge::ALL.into_iter().find(|e| e.outward() == v)
    }
}

/// One step off an edge, straight out, that lands somewhere (a seam tab in the diagram).
#[derive(Debug, Clone)]
pub struct EdgeStep {
    pub edge: Edge,
    /// The cell on the edge and the heading that leaves the board.
    pub cell: usize,
    pub heading: usize,
    /// Where the step lands and the heading it arrives with.
    pub target: usize,
    pub arrival: usize,
    /// Index into [`Board::seam_groups`].
    pub group: usize,
}

/// Edge steps that join the same two edges with the same heading change.
#[derive(Debug, Clone)]
pub struct SeamGroup {
    pub from: Edge,
    pub heading: usize,
    /// The edge the steps come in through (the side the arrival heading points away from).
    pub to: Option<Edge>,
    pub arrival: usize,
    /// The offset along the edge when every step of the group shares one (modulo the edge length).
    pub shift: Option<i32>,
    pub count: usize,
}

pub struct Board<'t> {
    pub t: &'t Tables,
    pub width: usize,
    pub height: usize,
    /// Grid position per cell (x = file index, y = rank index), `None` for cells off the grid.
    pub pos: Vec<Option<(i32, i32)>>,
    /// Cells without a grid position, in order.
    pub extra: Vec<usize>,
    /// The grid vector of each heading (the offset most of its steps make).
    pub vectors: Vec<Option<(i32, i32)>>,
    pub edge_steps: Vec<EdgeStep>,
    pub seam_groups: Vec<SeamGroup>,
}

impl<'t> Board<'t> {
    pub fn new(t: &'t Tables) -> Result<Board<'t>, String> {
        let Some(grid) = t.grid.as_ref() else {
            if t.layout.as_ref().is_some_and(|l| !l.views.is_empty()) {
                // A board of polygon cells, drawn from the layout its tables carry.
                let n = t.cells.len();
                return Ok(Board { t, width: 0, height: 0, pos: vec![None; n], extra: Vec::new(), vectors: vec![None; t.headings.len()], edge_steps: Vec::new(), seam_groups: Vec::new() });
            }
            return Err("this board has neither a grid nor a layout to draw it from".to_string());
        };
        let (width, height) = (grid.width as usize, grid.height as usize);
        let mut pos = vec![None; t.cells.len()];
        for y in 0..height {
            for x in 0..width {
                let c = grid.cell_at[y * width + x];
                // A cell with several grid positions (`identify`) is drawn at its own.
                if c != NO_CELL && !t.is_alias_position(x, y) {
                    pos[c as usize] = Some((x as i32, y as i32));
                }
            }
        }
        let extra = (0..t.cells.len()).filter(|&c| pos[c].is_none()).collect();
        let nh = t.headings.len();
        let mut vectors = Vec::with_capacity(nh);
        for h in 0..nh {
            let mut counts: BTreeMap<(i32, i32), usize> = BTreeMap::new();
            for c in 0..t.cells.len() {
                let (to, _) = t.step[c * nh + h];
                if to == NO_CELL {
                    continue;
                }
                if let (Some(a), Some(b)) = (pos[c], pos[to as usize]) {
                    let d = (b.0 - a.0, b.1 - a.1);
                    if d != (0, 0) {
                        *counts.entry(d).or_default() += 1;
                    }
                }
            }
            let best = counts
                .into_iter()
                .max_by_key(|&(d, n)| (n, std::cmp::Reverse(d.0.abs() + d.1.abs()), std::cmp::Reverse(d)));
            vectors.push(best.map(|(d, _)| d));
        }
        let mut board = Board { t, width, height, pos, extra, vectors, edge_steps: Vec::new(), seam_groups: Vec::new() };
        board.find_edge_steps();
        Ok(board)
    }

    pub fn cells(&self) -> usize {
        self.t.cells.len()
    }

    pub fn name(&self, cell: usize) -> &str {
        &self.t.cells[cell]
    }

    pub fn heading_name(&self, h: usize) -> &str {
        &self.t.headings[h]
    }

    pub fn cell_at(&self, x: i32, y: i32) -> Option<usize> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            return None;
        }
        let c = self.t.grid.as_ref()?.cell_at[y as usize * self.width + x as usize];
        (c != NO_CELL).then_some(c as usize)
    }

    /// The step from `cell` with heading `h`: where it lands and the heading it arrives with.
    pub fn step(&self, cell: usize, h: usize) -> Option<(usize, usize)> {
        let (to, h2) = self.t.step[cell * self.t.headings.len() + h];
        (to != NO_CELL).then_some((to as usize, h2 as usize))
    }

    pub fn heading_with(&self, v: (i32, i32)) -> Option<usize> {
        self.vectors.iter().position(|&w| w == Some(v))
    }

    /// `h` turned by `k` compass points (positions in the headings list).
    pub fn turn(&self, h: usize, k: i32) -> usize {
        let n = self.t.headings.len() as i32;
        (h as i32 + k).rem_euclid(n) as usize
    }

    /// Whether the step from `a` with heading `h` lands on `b` as a plain grid step (no seam).
    pub fn is_plain(&self, a: usize, h: usize, b: usize) -> bool {
        match (self.pos[a], self.pos[b], self.vectors[h]) {
            (Some(p), Some(q), Some(v)) => (p.0 + v.0, p.1 + v.1) == q,
            _ => false,
        }
    }

    /// Whether the board is drawn from a layout (a board of polygon cells) instead of a grid.
    pub fn is_polygonal(&self) -> bool {
        self.t.grid.is_none() && self.t.layout.is_some()
    }

    /// The shade of a cell: 0 light, 1 dark, 2 and 3 further colours (polygon boards).
    pub fn shade(&self, cell: usize) -> u8 {
        match &self.t.layout {
            Some(l) if self.t.grid.is_none() => l.shades.get(cell).copied().unwrap_or(0),
            _ => u8::from(!self.is_light(cell)),
        }
    }

    /// Light or dark square, by grid parity (a1 dark, as on a chess board).
    pub fn is_light(&self, cell: usize) -> bool {
        if self.is_polygonal() {
            return self.shade(cell) == 0;
        }
        match self.pos[cell] {
            Some((x, y)) => (x + y) % 2 == 1,
            None => true,
        }
    }

    fn find_edge_steps(&mut self) {
        let mut keys: Vec<(Edge, usize, Option<Edge>, usize)> = Vec::new();
        let mut shifts: Vec<Option<Option<i32>>> = Vec::new();
        let mut counts: Vec<usize> = Vec::new();
        for edge in Edge::ALL {
            let Some(h) = self.heading_with(edge.outward()) else { continue };
            let along: Vec<(i32, i32)> = match edge {
                Edge::Top => (0..self.width as i32).map(|x| (x, self.height as i32 - 1)).collect(),
                Edge::Bottom => (0..self.width as i32).map(|x| (x, 0)).collect(),
                Edge::Left => (0..self.height as i32).rev().map(|y| (0, y)).collect(),
                Edge::Right => (0..self.height as i32).rev().map(|y| (self.width as i32 - 1, y)).collect(),
            };
            for (x, y) in along {
                let Some(cell) = self.cell_at(x, y) else { continue };
                if self.t.is_alias_position(x as usize, y as usize) {
                    continue;
                }
                let Some((target, arrival)) = self.step(cell, h) else { continue };
                if self.is_plain(cell, h, target) {
                    continue;
                }
                let to = self.vectors[arrival].and_then(|v| Edge::from_outward((-v.0, -v.1)));
                let key = (edge, h, to, arrival);
                let shift = match (self.pos[target], edge) {
                    (Some((tx, _)), Edge::Top | Edge::Bottom) => Some((tx - x).rem_euclid(self.width as i32)),
                    (Some((_, ty)), Edge::Left | Edge::Right) => Some((ty - y).rem_euclid(self.height as i32)),
                    _ => None,
                };
                let group = match keys.iter().position(|k| *k == key) {
                    Some(g) => g,
                    None => {
                        keys.push(key);
                        shifts.push(Some(shift));
                        counts.push(0);
                        keys.len() - 1
                    }
                };
                counts[group] += 1;
                if shifts[group] != Some(shift) {
                    shifts[group] = None;
                }
                self.edge_steps.push(EdgeStep { edge, cell, heading: h, target, arrival, group });
            }
        }
        self.seam_groups = keys
            .into_iter()
            .zip(shifts)
            .zip(counts)
            .map(|(((from, heading, to, arrival), shift), count)| SeamGroup {
                from,
                heading,
                to,
                arrival,
                shift: shift.flatten(),
                count,
            })
            .collect();
    }

    /// A readable name of an edge: "top edge (rank 8)".
    pub fn edge_name(&self, e: Edge) -> String {
        let g = self.t.grid.as_ref().expect("grid");
        match e {
            Edge::Top => format!("top edge (rank {})", g.ranks[self.height - 1]),
            Edge::Bottom => format!("bottom edge (rank {})", g.ranks[0]),
            Edge::Left => format!("left edge (file {})", g.files[0]),
            Edge::Right => format!("right edge (file {})", g.files[self.width - 1]),
        }
    }

    /// One line per seam group: "top edge (rank 8) → top edge (rank 8), 4 files on: N turns into S".
    pub fn seam_description(&self, g: &SeamGroup) -> String {
        let to = match g.to {
            Some(e) => self.edge_name(e),
            None => "elsewhere".to_string(),
        };
        let shift = match (g.shift, g.from, g.to) {
            (Some(0), _, _) | (None, _, _) => String::new(),
            (Some(s), Edge::Top | Edge::Bottom, _) => format!(", {s} file{} on", if s == 1 { "" } else { "s" }),
            (Some(s), _, _) => format!(", {s} rank{} on", if s == 1 { "" } else { "s" }),
        };
        let turn = if g.heading == g.arrival {
            format!("{} stays {}", self.heading_name(g.heading), self.heading_name(g.arrival))
        } else {
            format!("{} turns into {}", self.heading_name(g.heading), self.heading_name(g.arrival))
        };
        format!("{} → {}{}: {}", self.edge_name(g.from), to, shift, turn)
    }

    /// The cell reached from the board towards the off-grid position (vx, vy), and the heading the
    /// walk arrives with: straight out from the nearest edge cell, across corners first along the
    /// rank, then turned (by compass points, as a piece turns) towards the rank direction; if that
    /// walk falls off, the other order.
    pub fn virtual_cell(&self, vx: i32, vy: i32) -> Option<(usize, usize)> {
        let cx = vx.clamp(0, self.width as i32 - 1);
        let cy = vy.clamp(0, self.height as i32 - 1);
        let start = self.cell_at(cx, cy)?;
        let (dx, dy) = (vx - cx, vy - cy);
        // A position that is another name of a cell (`identify`) sees the board in its own frame.
        let k = self.position_turn(cx, cy);
        let hx = (dx != 0).then(|| self.heading_with((dx.signum(), 0))).flatten().map(|h| self.turn(h, k));
        let hy = (dy != 0).then(|| self.heading_with((0, dy.signum()))).flatten().map(|h| self.turn(h, k));
        let legs = |first: Option<usize>, n1: i32, second: Option<usize>, n2: i32| -> Option<(usize, usize)> {
            let mut cur = (start, first.or(second)?);
            let mut heading = cur.1;
            for _ in 0..n1 {
                let (c, h) = self.step(cur.0, heading)?;
                cur = (c, h);
                heading = h;
            }
            if n2 > 0 {
                let second = second?;
                if n1 > 0 {
                    let k = second as i32 - first? as i32;
                    heading = self.turn(heading, k);
                } else {
                    heading = second;
                }
                for _ in 0..n2 {
                    let (c, h) = self.step(cur.0, heading)?;
                    cur = (c, h);
                    heading = h;
                }
            }
            Some((cur.0, heading))
        };
        if (dx != 0 && hx.is_none()) || (dy != 0 && hy.is_none()) {
            return None;
        }
        if dx == 0 {
            return legs(hy, dy.abs(), None, 0);
        }
        if dy == 0 {
            return legs(hx, dx.abs(), None, 0);
        }
        legs(hx, dx.abs(), hy, dy.abs()).or_else(|| legs(hy, dy.abs(), hx, dx.abs()))
    }

    /// For a grid position that is another name of a cell drawn elsewhere (`identify`), how many
    /// compass points its frame is turned against the cell's: the turn that makes the most of its
    /// orthogonal grid neighbours the cell's neighbours in the same directions. 0 elsewhere.
    pub fn position_turn(&self, x: i32, y: i32) -> i32 {
        if x < 0 || y < 0 || !self.t.is_alias_position(x as usize, y as usize) {
            return 0;
        }
        let Some(c) = self.cell_at(x, y) else { return 0 };
        let mut votes: BTreeMap<i32, usize> = BTreeMap::new();
        for v in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            let (Some(h), Some(n)) = (self.heading_with(v), self.cell_at(x + v.0, y + v.1)) else { continue };
            if n == c {
                continue;
            }
            for g in 0..self.t.headings.len() {
                if self.step(c, g).map(|s| s.0) == Some(n) {
                    let k = (g as i32 - h as i32).rem_euclid(self.t.headings.len() as i32);
                    *votes.entry(k).or_default() += 1;
                }
            }
        }
        votes.into_iter().max_by_key(|&(k, n)| (n, std::cmp::Reverse(k))).map_or(0, |(k, _)| k)
    }

    /// Whether every rank is a closed ring (the last file steps on to the first) and both end ranks
    /// close over a pole (a step off the top or bottom edge lands on that same edge).
    pub fn has_poles(&self) -> bool {
        let (Some(e), Some(_), Some(_)) =
            (self.heading_with((1, 0)), self.heading_with((0, 1)), self.heading_with((0, -1)))
        else {
            return false;
        };
        if self.width < 2 || self.height < 2 || !self.extra.is_empty() {
            return false;
        }
        let rings = (0..self.height as i32).all(|y| match (self.cell_at(self.width as i32 - 1, y), self.cell_at(0, y)) {
            (Some(last), Some(first)) => self.step(last, e).map(|s| s.0) == Some(first),
            _ => false,
        });
        let pole = |edge: Edge| {
            let n = self.edge_steps.iter().filter(|s| s.edge == edge && self.seam_groups[s.group].to == Some(edge)).count();
            n == self.width
        };
        rings && pole(Edge::Top) && pole(Edge::Bottom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orbis_runtime::tables::GridInfo;

    /// A 4 × 2 cylinder (files wrap) with the four orthogonal headings, built by hand.
    fn cylinder() -> Tables {
        let (w, h) = (4i32, 2i32);
        let headings = ["N", "E", "S", "W"];
        let vec = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        let mut step = Vec::new();
        for y in 0..h {
            for x in 0..w {
                for v in vec {
                    let (nx, ny) = ((x + v.0).rem_euclid(w), y + v.1);
                    let d = vec.iter().position(|&u| u == v).unwrap() as u8;
                    step.push(if (0..h).contains(&ny) { ((ny * w + nx) as u16, d) } else { (NO_CELL, 0) });
                }
            }
        }
        Tables {
            name: "cylinder".into(),
            cells: ["a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"].map(String::from).to_vec(),
            headings: headings.map(String::from).to_vec(),
            grid: Some(GridInfo {
                width: 4,
                height: 2,
                files: ["a", "b", "c", "d"].map(String::from).to_vec(),
                ranks: ["1", "2"].map(String::from).to_vec(),
                cell_at: (0..8).collect(),
            }),
            step,
            ..Tables::default()
        }
    }

    #[test]
    fn vectors_seams_and_neighbours_come_from_the_step_function() {
        let t = cylinder();
        let b = Board::new(&t).unwrap();
        assert_eq!(b.vectors, vec![Some((0, 1)), Some((1, 0)), Some((0, -1)), Some((-1, 0))]);
        // d1 E → a1 is a seam; a1 E → b1 is not.
        assert!(!b.is_plain(3, 1, 0));
        assert!(b.is_plain(0, 1, 1));
        assert_eq!(b.seam_groups.len(), 2);
        assert_eq!(b.seam_description(&b.seam_groups[0]), "right edge (file d) → left edge (file a): E stays E");
        assert_eq!(b.edge_steps.iter().filter(|s| s.group == 0).count(), 2);
        // Beyond the right edge: a, then b; beyond the top: nothing.
        assert_eq!(b.virtual_cell(4, 0).map(|v| b.name(v.0).to_string()), Some("a1".into()));
        assert_eq!(b.virtual_cell(5, 1).map(|v| b.name(v.0).to_string()), Some("b2".into()));
        assert_eq!(b.virtual_cell(0, 2), None);
        assert!(!b.has_poles());
    }
}
