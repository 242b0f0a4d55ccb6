//! Boards as complexes of polygon cells, and the headings their geometry gives.
//!
//! A cell is a polygon: its sides in order round it (counterclockwise seen from outside the
//! surface), side `i` glued to one side of another cell or to nothing (the border). Corner `i` is
//! where side `i` ends and side `i + 1` begins.
//!
//! A move leaves a cell through a *port*: port `2i` is side `i` (an orthogonal step), port
//! `2i + 1` is corner `i` (a diagonal step). A cell of `k` sides has `2k` ports, and the port
//! opposite port `p` is `p + k` (mod `2k`): in a hexagon a side faces a side, in a pentagon or a
//! triangle a side faces a corner. The heading of a piece in a cell is the port it would leave
//! by going straight on; `turn t` moves `t` ports round the cell. So:
//! - through side `i` the step lands in the glued cell, entering through its side `j`; straight
//!   on is the port opposite `2j`;
//! - through corner `i` (a vertex `v`), the step lands in the cell opposite when an even number of
//!   cells meet at `v`, entering through its corner at `v`; when three meet (hexagonal boards), in
//!   the cell beyond the edge between the other two, entering through its corner at that edge's
//!   other end (the hexagonal-chess bishop). Other vertices (on the border, or an odd number of
//!   cells other than three) give no diagonal step.
//!
//! Everything here is computed once from the gluing; [`Complex::check`] reports what makes a
//! gluing no surface, and the steps are then total and well defined.

use std::collections::HashMap;

/// Index of a cell of the complex.
pub type CellIdx = usize;

/// Where a side is glued: side `side` of `cell`, traversed the opposite way (`flip: false`, the
/// two cells are oriented alike) or the same way (`flip: true`: orientation reverses across it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Glue {
    pub cell: CellIdx,
    pub side: usize,
    pub flip: bool,
}

/// A gluing of polygons.
#[derive(Debug, Clone, Default)]
pub struct Complex {
    pub names: Vec<String>,
    /// Per cell, per side in order: what that side is glued to (`None`: the border).
    pub sides: Vec<Vec<Option<Glue>>>,
    /// Per cell, a point in space where the construction knows one (the lattice point of a
    /// `box`, the centre of a mesh file's face), for drawing; parallel to `names`.
    pub positions: Vec<Option<[f64; 3]>>,
}

/// What makes a gluing no surface. Cells and sides are indices into the complex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A cell with fewer than three sides.
    TooFewSides { cell: CellIdx },
    /// Side `side` of `cell` is glued to a side that is not glued back to it.
    OneWay { cell: CellIdx, side: usize },
    /// A side glued to its own cell's side (the same side).
    ToItself { cell: CellIdx, side: usize },
    /// The cells round the corner do not close into one disc (or half-disc on the border).
    VertexNotDisc { cell: CellIdx, corner: usize },
}

/// One vertex: the corners that meet there, in order round it, and whether it lies on the border.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vertex {
    /// `(cell, corner)` in turn round the vertex (counterclockwise seen from the first cell's side).
    pub corners: Vec<(CellIdx, usize)>,
    /// The vertex is on the border: the walk round it met the border on both sides.
    pub border: bool,
}

/// The derived geometry: vertices and the step through every port.
#[derive(Debug, Clone)]
pub struct Geometry {
    pub vertices: Vec<Vertex>,
    /// `vertex_of[cell][corner]`.
    pub vertex_of: Vec<Vec<usize>>,
    /// `step[cell][port]`: the cell a step through that port reaches and the heading (port) it
    /// has there, going straight on.
    pub step: Vec<Vec<Option<(CellIdx, usize)>>>,
}

/// The vertices, and per cell per corner the vertex it belongs to.
pub type Vertices = (Vec<Vertex>, Vec<Vec<usize>>);

/// Walking round vertices stops after this many corners (a vertex has at most one corner per
/// cell side, so a longer walk is a malformed gluing).
const MAX_ROUND: usize = 4096;

impl Complex {
    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Sides of `cell`.
    pub fn degree(&self, cell: CellIdx) -> usize {
        self.sides[cell].len()
    }

    /// The largest number of sides of a cell.
    pub fn max_degree(&self) -> usize {
        self.sides.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Every problem of the gluing; none means [`Complex::geometry`] is well defined.
    pub fn check(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        for (cell, sides) in self.sides.iter().enumerate() {
            if sides.len() < 3 {
                out.push(Problem::TooFewSides { cell });
            }
            for (side, glue) in sides.iter().enumerate() {
                let Some(g) = glue else { continue };
                if g.cell == cell && g.side == side {
                    out.push(Problem::ToItself { cell, side });
                    continue;
                }
                let back = self.sides.get(g.cell).and_then(|s| s.get(g.side)).copied().flatten();
                if back != Some(Glue { cell, side, flip: g.flip }) {
                    out.push(Problem::OneWay { cell, side });
                }
            }
        }
        if out.is_empty() {
            if let Err(problems) = self.vertices() {
                out.extend(problems);
            }
        }
        out
    }

    /// From corner `corner` of `cell`, having come through side `came` (one of the two sides
    /// meeting there), the next corner round the vertex: across the other side. `None` at the
    /// border.
    fn next_round(&self, cell: CellIdx, corner: usize, came: usize) -> Option<(CellIdx, usize, usize)> {
        let k = self.degree(cell);
        // Corner `c` joins side `c` (it ends there) and side `c + 1` (it starts there).
        let leave = if came == corner { (corner + 1) % k } else { corner };
        let g = self.sides[cell][leave]?;
        let kg = self.degree(g.cell);
        // Where `leave` starts (at `corner` iff leave == corner + 1) is, across an unflipped
        // glue, where the other side ends, and the reverse.
        let at_start_of_leave = leave == (corner + 1) % k;
        let at_end_of_other = at_start_of_leave != g.flip;
        let other_corner = if at_end_of_other { g.side } else { (g.side + kg - 1) % kg };
        Some((g.cell, other_corner, g.side))
    }

    /// The vertices, each corner in exactly one; problems where the corners do not close into
    /// discs.
    pub fn vertices(&self) -> Result<Vertices, Vec<Problem>> {
        let mut vertex_of: Vec<Vec<usize>> = self.sides.iter().map(|s| vec![usize::MAX; s.len()]).collect();
        let mut vertices = Vec::new();
        let mut problems = Vec::new();
        for cell in 0..self.len() {
            let k = self.degree(cell);
            for corner in 0..k {
                if vertex_of[cell][corner] != usize::MAX {
                    continue;
                }
                let id = vertices.len();
                // Counterclockwise: leave through side corner + 1 (came through side `corner`).
                let mut ring = vec![(cell, corner)];
                let mut closed = false;
                let mut here = (cell, corner, corner);
                let mut bad = false;
                while let Some(next) = self.next_round(here.0, here.1, here.2) {
                    if (next.0, next.1) == (cell, corner) {
                        closed = true;
                        break;
                    }
                    if ring.contains(&(next.0, next.1)) || ring.len() > MAX_ROUND {
                        bad = true;
                        break;
                    }
                    ring.push((next.0, next.1));
                    here = next;
                }
                let mut border = false;
                if !closed && !bad {
                    // The border on one side: walk the other way from the start too.
                    border = true;
                    let mut back = Vec::new();
                    let mut here = (cell, corner, (corner + 1) % k);
                    while let Some(next) = self.next_round(here.0, here.1, here.2) {
                        if ring.contains(&(next.0, next.1)) || back.contains(&(next.0, next.1)) || back.len() > MAX_ROUND {
                            bad = true;
                            break;
                        }
                        back.push((next.0, next.1));
                        here = next;
                    }
                    back.reverse();
                    back.extend(ring);
                    ring = back;
                }
                if bad || ring.iter().any(|&(c, i)| vertex_of[c][i] != usize::MAX) {
                    problems.push(Problem::VertexNotDisc { cell, corner });
                    for &(c, i) in &ring {
                        if vertex_of[c][i] == usize::MAX {
                            vertex_of[c][i] = id;
                        }
                    }
                    vertices.push(Vertex { corners: ring, border });
                    continue;
                }
                for &(c, i) in &ring {
                    vertex_of[c][i] = id;
                }
                vertices.push(Vertex { corners: ring, border });
            }
        }
        if problems.is_empty() {
            Ok((vertices, vertex_of))
        } else {
            Err(problems)
        }
    }

    /// Straight on after entering `cell` through `port`: the port opposite.
    fn straight(&self, cell: CellIdx, port: usize) -> usize {
        let n = 2 * self.degree(cell);
        (port + n / 2) % n
    }

    /// The vertices and the step through every port. Call after [`Complex::check`] found nothing.
    pub fn geometry(&self) -> Geometry {
        let (vertices, vertex_of) = self.vertices().unwrap_or_default();
        let mut step = Vec::with_capacity(self.len());
        for cell in 0..self.len() {
            let k = self.degree(cell);
            let mut ports = vec![None; 2 * k];
            for i in 0..k {
                if let Some(g) = self.sides[cell][i] {
                    ports[2 * i] = Some((g.cell, self.straight(g.cell, 2 * g.side)));
                }
                if let Some(&v) = vertex_of.get(cell).and_then(|c| c.get(i)) {
                    if let Some((target, corner)) = vertices.get(v).and_then(|vx| self.diagonal(vx, cell, i, &vertices, &vertex_of)) {
                        ports[2 * i + 1] = Some((target, self.straight(target, 2 * corner + 1)));
                    }
                }
            }
            step.push(ports);
        }
        Geometry { vertices, vertex_of, step }
    }

    /// The cell a diagonal step through corner `corner` of `cell` (at vertex `v`) reaches, with
    /// the corner it enters by.
    fn diagonal(&self, v: &Vertex, cell: CellIdx, corner: usize, vertices: &[Vertex], vertex_of: &[Vec<usize>]) -> Option<(CellIdx, usize)> {
        if v.border {
            return None;
        }
        let m = v.corners.len();
        let at = v.corners.iter().position(|&c| c == (cell, corner))?;
        let round = |j: usize| v.corners[(at + j) % m];
        if m.is_multiple_of(2) && m >= 4 {
            return Some(round(m / 2));
        }
        if m != 3 {
            return None;
        }
        // Three cells: beyond the edge between the other two, at its far end.
        let (c1, k1) = round(1);
        let (c2, _) = round(2);
        // The side of c1 at corner k1 that is glued to c2.
        let deg = self.degree(c1);
        let side = [k1, (k1 + 1) % deg].into_iter().find(|&s| self.sides[c1][s].is_some_and(|g| g.cell == c2))?;
        // Its far end: the other corner of that side.
        let far = if side == k1 { (k1 + deg - 1) % deg } else { (k1 + 1) % deg };
        let w = &vertices[*vertex_of.get(c1)?.get(far)?];
        if w.border || w.corners.len() != 3 {
            return None;
        }
        w.corners.iter().copied().find(|&(c, _)| c != c1 && c != c2)
    }

    /// Names to indices (the first cell of a name wins; duplicate names are the caller's error).
    pub fn index(&self) -> HashMap<&str, CellIdx> {
        let mut out = HashMap::new();
        for (i, n) in self.names.iter().enumerate() {
            out.entry(n.as_str()).or_insert(i);
        }
        out
    }

    /// Vertices, edges, faces, Euler characteristic, border components and orientability.
    pub fn surface(&self) -> Surface {
        let (vertices, vertex_of) = self.vertices().unwrap_or_default();
        let glued: usize = self.sides.iter().flatten().filter(|g| g.is_some()).count();
        let border: usize = self.sides.iter().flatten().filter(|g| g.is_none()).count();
        let edges = glued / 2 + border;
        let faces = self.len();
        let euler = vertices.len() as i64 - edges as i64 + faces as i64;
        // Border components: border sides chained through their border vertices.
        let mut seen = vec![false; vertices.len()];
        let mut components = 0;
        for (i, v) in vertices.iter().enumerate() {
            if !v.border || seen[i] {
                continue;
            }
            components += 1;
            let mut stack = vec![i];
            while let Some(x) = stack.pop() {
                if std::mem::replace(&mut seen[x], true) {
                    continue;
                }
                // Border sides at this vertex lead to their other end.
                for &(c, corner) in &vertices[x].corners {
                    let k = self.degree(c);
                    for s in [corner, (corner + 1) % k] {
                        if self.sides[c][s].is_none() {
                            let other = if s == corner { (corner + k - 1) % k } else { (corner + 1) % k };
                            stack.push(vertex_of[c][other]);
                        }
                    }
                }
            }
        }
        // Orientable iff the cells can be oriented so that every glue is unflipped.
        let mut sign: Vec<Option<bool>> = vec![None; faces];
        let mut orientable = true;
        for start in 0..faces {
            if sign[start].is_some() {
                continue;
            }
            sign[start] = Some(false);
            let mut stack = vec![start];
            while let Some(c) = stack.pop() {
                let sc = sign[c].unwrap_or(false);
                for g in self.sides[c].iter().flatten() {
                    let want = sc != g.flip;
                    match sign[g.cell] {
                        None => {
                            sign[g.cell] = Some(want);
                            stack.push(g.cell);
                        }
                        Some(s) if s != want => orientable = false,
                        Some(_) => {}
                    }
                }
            }
        }
        let parts = self.components();
        Surface { vertices: vertices.len(), edges, faces, euler, border_components: components, orientable, parts }
    }

    /// The holes (border components), each as the cells with a side on it, in order of their
    /// first cell.
    pub fn holes(&self) -> Vec<Vec<CellIdx>> {
        // Border sides chained end to end: the side after (c, s) along the border is found by
        // walking round the vertex at its end until the next border side.
        let Ok((vertices, vertex_of)) = self.vertices() else { return Vec::new() };
        let mut seen: Vec<Vec<bool>> = self.sides.iter().map(|s| vec![false; s.len()]).collect();
        let mut out = Vec::new();
        for c in 0..self.len() {
            for s in 0..self.degree(c) {
                if self.sides[c][s].is_some() || seen[c][s] {
                    continue;
                }
                let mut ring: Vec<CellIdx> = Vec::new();
                let mut stack = vec![(c, s)];
                while let Some((d, t)) = stack.pop() {
                    if std::mem::replace(&mut seen[d][t], true) {
                        continue;
                    }
                    if !ring.contains(&d) {
                        ring.push(d);
                    }
                    // Both ends of the side: every border side at those vertices is on this hole.
                    let k = self.degree(d);
                    for corner in [t, (t + k - 1) % k] {
                        let v = &vertices[vertex_of[d][corner]];
                        for &(e, m) in &v.corners {
                            let ke = self.degree(e);
                            for side in [m, (m + 1) % ke] {
                                if self.sides[e][side].is_none() && !seen[e][side] {
                                    stack.push((e, side));
                                }
                            }
                        }
                    }
                }
                ring.sort();
                out.push(ring);
            }
        }
        out
    }

    /// How many connected pieces the cells form.
    fn components(&self) -> usize {
        let mut seen = vec![false; self.len()];
        let mut count = 0;
        for start in 0..self.len() {
            if seen[start] {
                continue;
            }
            count += 1;
            let mut stack = vec![start];
            while let Some(c) = stack.pop() {
                if std::mem::replace(&mut seen[c], true) {
                    continue;
                }
                stack.extend(self.sides[c].iter().flatten().map(|g| g.cell));
            }
        }
        count
    }
}

/// The topology of a complex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Surface {
    pub vertices: usize,
    pub edges: usize,
    pub faces: usize,
    pub euler: i64,
    pub border_components: usize,
    pub orientable: bool,
    /// Connected components.
    pub parts: usize,
}

impl Surface {
    /// The surface's name by the classification of compact surfaces.
    pub fn name(&self) -> String {
        if self.parts != 1 {
            return format!("{} separate pieces", self.parts);
        }
        crate::report::surface::surface_name(self.euler, self.orientable, self.border_components)
    }
}
