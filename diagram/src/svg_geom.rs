//! Where the SVG views put cells: a [`Geom`] gives each cell a shape and a centre, and says how a
//! step between two cells is drawn (straight, between two points of a ring, or broken at a seam);
//! and the grid's squares. Apart from the drawing in `svg.rs`, which reads only a `Geom`, so that
//! a new layout adds a `Geom` here and nothing there.

use crate::board::Board;
use crate::scene::Step;
use crate::svg::n;

/// Where a cell is drawn.
#[derive(Clone)]
pub(crate) struct CellGeom {
    /// Outline path.
    pub(crate) d: String,
    pub(crate) cx: f64,
    pub(crate) cy: f64,
    /// Size of a piece glyph on it.
    pub(crate) size: f64,
}

/// How a step is drawn.
pub(crate) enum Link {
    Straight,
    /// A straight line between these two points instead of the centres (into or out of a ring).
    Between { from: (f64, f64), to: (f64, f64) },
    /// Leaves at `exit`, comes back in at `entry`.
    Break { exit: (f64, f64), entry: (f64, f64) },
}

pub(crate) enum Kind {
    /// Squares of side `s`; `flip` maps grid y to rows.
    Grid { s: f64 },
    /// Two discs: per cell its disc (0 north, 1 south), and the rim point of its file.
    Discs { disc: Vec<usize>, rim: Vec<(f64, f64)> },
    /// A view of a layout: per cell the points its headings leave through (empty when the cell
    /// is not in the view), whether it is drawn as a ring, and the view's centre.
    Layout { ports: Vec<Vec<(f64, f64)>>, ring: Vec<bool>, centre: (f64, f64), unit: f64 },
}

pub(crate) struct Geom {
    pub(crate) cells: Vec<Option<CellGeom>>,
    pub(crate) kind: Kind,
}

impl Geom {
    pub(crate) fn link(&self, b: &Board, st: &Step) -> Link {
        match &self.kind {
            Kind::Grid { s } => {
                if b.is_plain(st.from, st.heading, st.to) {
                    return Link::Straight;
                }
                let (Some(a), Some(c)) = (&self.cells[st.from], &self.cells[st.to]) else { return Link::Straight };
                let half = s / 2.0;
                let exit = match b.vectors[st.heading] {
                    Some((dx, dy)) => (a.cx + dx.signum() as f64 * half, a.cy - dy.signum() as f64 * half),
                    None => (a.cx, a.cy),
                };
                let entry = match b.vectors[st.arrival] {
                    Some((dx, dy)) => (c.cx - dx.signum() as f64 * half, c.cy + dy.signum() as f64 * half),
                    None => (c.cx, c.cy),
                };
                Link::Break { exit, entry }
            }
            Kind::Discs { disc, rim } => {
                if disc[st.from] == disc[st.to] {
                    Link::Straight
                } else {
                    Link::Break { exit: rim[st.from], entry: rim[st.to] }
                }
            }
            Kind::Layout { ports, ring, centre, unit } => {
                let (Some(a), Some(c)) = (&self.cells[st.from], &self.cells[st.to]) else { return Link::Straight };
                let exit = ports[st.from].get(st.heading).copied();
                // Where the step comes in: the port of the target that steps back to the start
                // (of the same kind, side or corner, when there is one).
                let back: Vec<usize> = (0..ports[st.to].len()).filter(|&g| b.step(st.to, g).map(|s| s.0) == Some(st.from)).collect();
                let entry_port = back.iter().copied().find(|g| g % 2 == st.heading % 2).or(back.first().copied());
                let entry = entry_port.and_then(|g| ports[st.to].get(g).copied());
                let (Some(exit), Some(entry)) = (exit, entry) else { return Link::Straight };
                // A ring's centre for this step: just inside it from the port.
                let inside = |p: (f64, f64)| {
                    let (dx, dy) = (p.0 - centre.0, p.1 - centre.1);
                    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                    (p.0 + dx / len * unit * 0.45, p.1 + dy / len * unit * 0.45)
                };
                let from = if ring[st.from] { inside(exit) } else { (a.cx, a.cy) };
                let to = if ring[st.to] { inside(entry) } else { (c.cx, c.cy) };
                // Glued in the drawing: the ports meet, or lie a side's length apart (the diagonal
                // through a vertex of three cells lands beyond the edge between the other two).
                let dist = |p: (f64, f64), q: (f64, f64)| ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2)).sqrt();
                let longest_side = |c: usize| {
                    let p = &ports[c];
                    (1..p.len()).step_by(2).map(|i| dist(p[i], p[(i + 2) % p.len()])).fold(0.0, f64::max)
                };
                let touching = dist(exit, entry) < 1.1 * longest_side(st.from).max(longest_side(st.to));
                if !touching {
                    Link::Break { exit, entry }
                } else if ring[st.from] || ring[st.to] {
                    Link::Between { from, to }
                } else {
                    Link::Straight
                }
            }
        }
    }

    /// The point a step from `cell` starts at or ends on: its centre, or inside a ring by the port.
    pub(crate) fn anchor(&self, cell: usize, port: (f64, f64)) -> (f64, f64) {
        match &self.kind {
            Kind::Layout { ring, centre, unit, .. } if ring[cell] => {
                let (dx, dy) = (port.0 - centre.0, port.1 - centre.1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                (port.0 + dx / len * unit * 0.45, port.1 + dy / len * unit * 0.45)
            }
            _ => self.cells[cell].as_ref().map_or(port, |g| (g.cx, g.cy)),
        }
    }
}

pub(crate) fn square(x: f64, y: f64, s: f64) -> CellGeom {
    CellGeom {
        d: format!("M{} {}h{}v{}h-{}Z", n(x), n(y), n(s), n(s), n(s)),
        cx: x + s / 2.0,
        cy: y + s / 2.0,
        size: s * 0.88,
    }
}

/// Where grid position (x, y) is drawn: its column from the left and row from the top.
pub(crate) fn place(b: &Board, flip: bool, x: i32, y: i32) -> (f64, f64) {
    let (w, h) = (b.width as i32, b.height as i32);
    if flip {
        ((w - 1 - x) as f64, y as f64)
    } else {
        (x as f64, (h - 1 - y) as f64)
    }
}

pub(crate) fn grid_geom(b: &Board, left: f64, top: f64, s: f64, flip: bool) -> Geom {
    let cells = (0..b.cells())
        .map(|c| {
            b.pos[c].map(|(x, y)| {
                let (col, row) = place(b, flip, x, y);
                square(left + col * s, top + row * s, s)
            })
        })
        .collect();
    Geom { cells, kind: Kind::Grid { s } }
}
