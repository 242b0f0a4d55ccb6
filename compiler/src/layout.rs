//! Layouts: how a board of polygon cells is drawn, computed once here from the complex so that
//! diagrams (which read only the tables) need no geometry. Grid boards get none: the diagram
//! crate draws them from their grid.
//!
//! - A `box` (every cell a lattice point on the surface of a box, [`box_net`]): the cross net of
//!   its six faces: top in the middle, north above, south below, east and west beside it, the
//!   bottom below the south face. Face squares are unit squares at their lattice points. An edge
//!   cell is drawn once, as a unit square centred on its edge: on the five folds of the net
//!   (top/north, top/south, top/east, top/west, south/bottom) that is the bent square straddling
//!   the fold, exactly as on the cube; on a cut edge it is drawn with the face that keeps it
//!   (the bottom keeps its four edges, east and west keep the upright ones) and its other half is
//!   left out, so the square still touches every neighbour drawn on that face. A corner cell is
//!   the right triangle between its two edge neighbours on the face that keeps it (the top's four
//!   on the top, the bottom's on the bottom): its two short sides touch those neighbours, its
//!   three corners the three face squares it steps to diagonally, and its long side faces the
//!   cut. So every cell appears once, shaped as it is (squares and triangles), and the faces read
//!   as ordinary boards, each labelled with its board number on the Cube-Surface Chess page (1
//!   the top, 2 south, 3 bottom, 4 north, 5 west, 6 east).
//! - A closed surface of genus 0 whose cells have points in space (the soccer ball, a mesh): its
//!   vertices on a sphere from those points; then an azimuthal equidistant projection centred on
//!   the first cell (pentagon A of the ball), edges drawn as projected great-circle arcs. The
//!   cell round the antipode (L) becomes the ring between its own border and the rim.
//! - A sphere with two or more holes (Webball, the `web` of a polyhedron), or a closed surface of
//!   genus 0 known only by its gluing: each hole filled with a virtual vertex joined to its
//!   border; a Tutte embedding (the cell farthest from the first as the outer face) lifted to the
//!   sphere and relaxed, then evened out (every cell pulled towards a regular polygon of one
//!   common side, every hole towards a regular polygon round its virtual vertex). Drawn as two
//!   halves ([`hemispheres`]), azimuthal equidistant projections seen from outside: `north`
//!   round the first cell (N), `south` round the cell farthest from it (S), each with the cells
//!   nearer its centre, the cells as near to both (the equator's), and every cell one step from
//!   its own: so every cell is whole in at least one view and every step lies within one. Holes
//!   stay empty, labelled (in the view nearer their centre) with the mark the names of the cells
//!   round them share (Webball's `*`, `#`, `+`, `?`, `$`).
//! - A disc: a Tutte (barycentric) embedding of the vertex graph with its border pinned on a
//!   circle.
//!
//! Everything is deterministic (no hash-map order, fixed iteration counts). Coordinates are in
//! board units (a typical cell about 1 across), y pointing up; each view is oriented so that the
//! cells' sides run counterclockwise on the page, as they do seen from outside the surface.

use crate::complex::{CellIdx, Complex, Geometry};
use crate::model::Board;
use orbis_runtime::tables::{Layout, LayoutCell, LayoutLabel, LayoutView};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::f64::consts::{PI, TAU};

type P2 = [f64; 2];
type P3 = [f64; 3];

/// The layout of a board of polygon cells; `None` for other boards and for surfaces no view
/// is computed for (of genus above 0, non-orientable, or in several pieces).
pub fn layout(board: &Board) -> Option<Layout> {
    let complex = board.complex.as_ref()?;
    if complex.is_empty() || !complex.check().is_empty() {
        return None;
    }
    let shades = shades(complex);
    let views = match box_net(complex) {
        Some(view) => vec![view],
        None => {
            let geo = complex.geometry();
            let s = complex.surface();
            if s.parts != 1 || !s.orientable || s.euler + s.border_components as i64 != 2 {
                return None;
            }
            let positioned = complex.positions.iter().all(Option::is_some);
            let mut views = if s.border_components == 0 && positioned {
                vec![sphere(complex, &geo)?]
            } else if s.border_components == 1 {
                vec![disc(complex, &geo)?]
            } else {
                hemispheres(complex, &geo)?
            };
            for view in &mut views {
                orient(complex, view);
            }
            normalise(&mut views);
            views
        }
    };
    Some(Layout { shades, views })
}

/// Shades: two colours when cells sharing a side can always differ (the cube); else the most
/// common polygon light and the others dark (the ball's pentagons); else a greedy colouring.
fn shades(c: &Complex) -> Vec<u8> {
    let n = c.len();
    let neighbours = |x: usize| c.sides[x].iter().flatten().map(|g| g.cell).collect::<Vec<_>>();
    let mut colour = vec![u8::MAX; n];
    let mut bipartite = true;
    for s in 0..n {
        if colour[s] != u8::MAX {
            continue;
        }
        colour[s] = 0;
        let mut queue = VecDeque::from([s]);
        while let Some(x) = queue.pop_front() {
            for y in neighbours(x) {
                if colour[y] == u8::MAX {
                    colour[y] = 1 - colour[x];
                    queue.push_back(y);
                } else if colour[y] == colour[x] {
                    bipartite = false;
                }
            }
        }
    }
    if bipartite {
        return colour;
    }
    let mut degrees: BTreeMap<usize, usize> = BTreeMap::new();
    for x in 0..n {
        *degrees.entry(c.degree(x)).or_default() += 1;
    }
    if degrees.len() > 1 {
        let common = degrees.iter().max_by_key(|&(d, k)| (*k, std::cmp::Reverse(*d))).map(|(d, _)| *d).unwrap_or(0);
        return (0..n).map(|x| u8::from(c.degree(x) != common)).collect();
    }
    let mut colour = vec![0u8; n];
    for x in 0..n {
        let used: Vec<u8> = neighbours(x).into_iter().filter(|&y| y < x).map(|y| colour[y]).collect();
        colour[x] = (0..4).find(|k| !used.contains(k)).unwrap_or(3);
    }
    colour
}

// ---------------------------------------------------------------------------------------------
// The box: a cross net.

/// A face of the box: the axis it is perpendicular to and whether it is the high side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Face {
    axis: usize,
    high: bool,
}

const TOP: Face = Face { axis: 2, high: true };
const BOTTOM: Face = Face { axis: 2, high: false };
const NORTH: Face = Face { axis: 1, high: true };
const SOUTH: Face = Face { axis: 1, high: false };

/// The net's folds: pairs of faces drawn side by side along their common edge.
const FOLDS: [(Face, Face); 5] = [
    (TOP, NORTH),
    (TOP, SOUTH),
    (TOP, Face { axis: 0, high: true }),
    (TOP, Face { axis: 0, high: false }),
    (SOUTH, BOTTOM),
];

/// The cross net of a box whose largest coordinates are `m`.
struct Net {
    m: [f64; 3],
}

impl Net {
    /// Where point `p` of face `f` is drawn.
    fn map(&self, f: Face, p: P3) -> P2 {
        let [x, y, z] = p;
        let [mx, my, mz] = self.m;
        match (f.axis, f.high) {
            (2, true) => [x, y],
            (1, true) => [x, my + mz - z],
            (1, false) => [x, z - mz],
            (0, true) => [mx + mz - z, y],
            (0, false) => [z - mz, y],
            _ => [x, -mz - y],
        }
    }

    /// How a direction on face `f` is drawn.
    fn dir(&self, f: Face, d: P3) -> P2 {
        let o = self.map(f, [0.0; 3]);
        let q = self.map(f, d);
        [q[0] - o[0], q[1] - o[1]]
    }

    /// The faces a lattice point lies on.
    fn faces(&self, p: P3) -> Vec<Face> {
        let mut out = Vec::new();
        for f in [TOP, SOUTH, NORTH, Face { axis: 0, high: true }, Face { axis: 0, high: false }, BOTTOM] {
            let at = if f.high { self.m[f.axis] } else { 0.0 };
            if p[f.axis] == at {
                out.push(f);
            }
        }
        out
    }

    /// The face that draws a cell: its own; for an edge, either face across a fold, else the
    /// bottom or else the east/west face; for a corner the top or the bottom.
    fn owner(&self, faces: &[Face]) -> Face {
        match faces {
            [f] => *f,
            [a, b] => {
                if FOLDS.iter().any(|&(x, y)| (x, y) == (*a, *b) || (y, x) == (*a, *b)) {
                    *a
                } else if faces.contains(&BOTTOM) {
                    BOTTOM
                } else {
                    *faces.iter().find(|f| f.axis == 0).unwrap_or(a)
                }
            }
            _ => {
                if faces.contains(&TOP) {
                    TOP
                } else {
                    BOTTOM
                }
            }
        }
    }
}

/// The cross net when the complex is a `box`: every cell a lattice point on the surface of the
/// box its points span, every point there, triangles at the corners and squares elsewhere.
fn box_net(c: &Complex) -> Option<LayoutView> {
    let points: Vec<P3> = c.positions.iter().copied().collect::<Option<Vec<_>>>()?;
    if points.iter().flatten().any(|v| v.fract() != 0.0 || *v < 0.0) {
        return None;
    }
    let m: [f64; 3] = std::array::from_fn(|i| points.iter().map(|p| p[i]).fold(0.0, f64::max));
    if m.iter().any(|&v| v < 2.0) {
        return None;
    }
    let net = Net { m };
    let surface = |mm: f64| mm + 1.0;
    let all = surface(m[0]) * surface(m[1]) * surface(m[2]);
    let inner = (m[0] - 1.0) * (m[1] - 1.0) * (m[2] - 1.0);
    if points.len() as f64 != all - inner {
        return None;
    }
    let mut cells = Vec::with_capacity(c.len());
    for (cell, &p) in points.iter().enumerate() {
        let faces = net.faces(p);
        let want = if faces.len() == 3 { 3 } else { 4 };
        if faces.is_empty() || c.degree(cell) != want {
            return None;
        }
        let f = net.owner(&faces);
        let centre = net.map(f, p);
        // Each side's direction on the page.
        let mut dirs = Vec::with_capacity(want);
        let mut normal_side = None;
        for (i, g) in c.sides[cell].iter().enumerate() {
            let q = points[g.as_ref()?.cell];
            let e: P3 = std::array::from_fn(|k| q[k] - p[k]);
            if e.iter().map(|v| v.abs()).sum::<f64>() != 1.0 {
                return None;
            }
            let d = if e[f.axis] == 0.0 {
                net.dir(f, e)
            } else if faces.len() == 2 {
                // Over the edge: outward along the other face's axis.
                let other = faces.iter().find(|x| x.axis != f.axis)?;
                let mut out = [0.0; 3];
                out[other.axis] = if other.high { 1.0 } else { -1.0 };
                net.dir(f, out)
            } else {
                normal_side = Some(i);
                [0.0, 0.0]
            };
            dirs.push(d);
        }
        let (contour, ports) = if let Some(h) = normal_side {
            // The corner triangle: the right angle between its two sides on the face.
            let t: Vec<P2> = (0..3).filter(|&i| i != h).map(|i| dirs[i]).collect();
            let (t1, t2) = (t[0], t[1]);
            let v12 = add(centre, scale(add(t1, t2), 0.5));
            let v1h = add(centre, scale(sub(t1, t2), 0.5));
            let v2h = add(centre, scale(sub(t2, t1), 0.5));
            let first = (0..3).find(|&i| i != h)?;
            let segment = |i: usize| -> (P2, P2) {
                if i == h {
                    (v1h, v2h)
                } else if i == first {
                    (v12, v1h)
                } else {
                    (v12, v2h)
                }
            };
            polygon_ports(3, segment)
        } else {
            let segment = |i: usize| {
                let d = dirs[i];
                let perp = [-d[1], d[0]];
                (add(centre, scale(add(d, perp), 0.5)), add(centre, scale(sub(d, perp), 0.5)))
            };
            polygon_ports(4, segment)
        };
        let label = centroid(&contour);
        cells.push(LayoutCell { cell: cell as u16, label: f32s(label), contours: vec![contour.iter().map(|&p| f32s(p)).collect()], ports: ports.iter().map(|&p| f32s(p)).collect() });
    }
    // The faces' numbers as the Cube-Surface Chess page gives its boards: 1 the top (z high),
    // 2 the south (y = 0), 3 the bottom, 4 the north, 5 the west (x = 0), 6 the east.
    let faces = [(TOP, "1"), (SOUTH, "2"), (BOTTOM, "3"), (NORTH, "4"), (Face { axis: 0, high: false }, "5"), (Face { axis: 0, high: true }, "6")];
    let labels = faces
        .iter()
        .map(|&(f, number)| {
            let mut centre = m.map(|v| v / 2.0);
            centre[f.axis] = if f.high { m[f.axis] } else { 0.0 };
            LayoutLabel { at: f32s(net.map(f, centre)), size: 2.5, text: number.to_string() }
        })
        .collect();
    Some(LayoutView { name: "net".into(), cells, labels })
}

/// A polygon of `k` sides given each side's segment (its two ends, in either order): corner `i`
/// is the end sides `i` and `i + 1` share; ports are side middles and corners in turn.
fn polygon_ports(k: usize, segment: impl Fn(usize) -> (P2, P2)) -> (Vec<P2>, Vec<P2>) {
    let close = |a: P2, b: P2| (a[0] - b[0]).abs() < 1e-6 && (a[1] - b[1]).abs() < 1e-6;
    let mut corners = Vec::with_capacity(k);
    let mut ports = Vec::with_capacity(2 * k);
    for i in 0..k {
        let (a, b) = segment(i);
        let (c, d) = segment((i + 1) % k);
        let corner = if close(a, c) || close(a, d) { a } else { b };
        corners.push(corner);
        ports.push(scale(add(a, b), 0.5));
        ports.push(corner);
    }
    (corners, ports)
}

// ---------------------------------------------------------------------------------------------
// Spheres and discs.

/// The vertex graph: each vertex's neighbours along the cells' sides, sorted.
fn vertex_graph(c: &Complex, geo: &Geometry) -> Vec<Vec<usize>> {
    let mut adj: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); geo.vertices.len()];
    for cell in 0..c.len() {
        let k = c.degree(cell);
        for i in 0..k {
            let (a, b) = (geo.vertex_of[cell][i], geo.vertex_of[cell][(i + 1) % k]);
            if a != b {
                adj[a].insert(b);
                adj[b].insert(a);
            }
        }
    }
    adj.into_iter().map(|s| s.into_iter().collect()).collect()
}

/// Side `i` of `cell` runs from corner `i - 1` to corner `i`.
fn side_ends(c: &Complex, geo: &Geometry, cell: CellIdx, i: usize) -> (usize, usize) {
    let k = c.degree(cell);
    (geo.vertex_of[cell][(i + k - 1) % k], geo.vertex_of[cell][i])
}

/// Barycentric (Tutte) positions: `pinned` vertices fixed, every other one the mean of its
/// neighbours (Gauss-Seidel, a fixed number of sweeps).
fn tutte(adj: &[Vec<usize>], pinned: &BTreeMap<usize, P2>) -> Vec<P2> {
    let mut pos: Vec<P2> = (0..adj.len()).map(|v| pinned.get(&v).copied().unwrap_or([0.0, 0.0])).collect();
    for _ in 0..4000 {
        let mut change: f64 = 0.0;
        for v in 0..adj.len() {
            if pinned.contains_key(&v) || adj[v].is_empty() {
                continue;
            }
            let mut s = [0.0, 0.0];
            for &w in &adj[v] {
                s = add(s, pos[w]);
            }
            let next = scale(s, 1.0 / adj[v].len() as f64);
            change = change.max((next[0] - pos[v][0]).abs() + (next[1] - pos[v][1]).abs());
            pos[v] = next;
        }
        if change < 1e-9 {
            break;
        }
    }
    pos
}

/// The border's cycles of vertices, each with the surface on its left (a hole's cycle runs
/// clockwise round the hole seen from outside).
fn border_cycles(c: &Complex, geo: &Geometry) -> Option<Vec<Vec<usize>>> {
    let mut next: BTreeMap<usize, usize> = BTreeMap::new();
    for cell in 0..c.len() {
        for (i, g) in c.sides[cell].iter().enumerate() {
            if g.is_none() {
                let (a, b) = side_ends(c, geo, cell, i);
                next.insert(a, b);
            }
        }
    }
    let mut cycles: Vec<Vec<usize>> = Vec::new();
    let mut seen = BTreeSet::new();
    for &start in next.keys() {
        if seen.contains(&start) {
            continue;
        }
        let mut cycle = vec![start];
        seen.insert(start);
        let mut v = *next.get(&start)?;
        while v != start {
            if !seen.insert(v) {
                return None;
            }
            cycle.push(v);
            v = *next.get(&v)?;
        }
        cycles.push(cycle);
    }
    Some(cycles)
}

/// A disc: Tutte with its border on the unit circle.
fn disc(c: &Complex, geo: &Geometry) -> Option<LayoutView> {
    let cycles = border_cycles(c, geo)?;
    let outer = cycles.iter().max_by_key(|c| c.len())?;
    let n = outer.len() as f64;
    let pinned: BTreeMap<usize, P2> = outer.iter().enumerate().map(|(i, &v)| (v, [(TAU * i as f64 / n).cos(), (TAU * i as f64 / n).sin()])).collect();
    let pos = tutte(&vertex_graph(c, geo), &pinned);
    let cells = (0..c.len())
        .map(|cell| {
            let k = c.degree(cell);
            let corners: Vec<P2> = (0..k).map(|i| pos[geo.vertex_of[cell][i]]).collect();
            let mut ports = Vec::with_capacity(2 * k);
            for i in 0..k {
                ports.push(scale(add(corners[(i + k - 1) % k], corners[i]), 0.5));
                ports.push(corners[i]);
            }
            LayoutCell { cell: cell as u16, label: f32s(centroid(&corners)), contours: vec![corners.iter().map(|&p| f32s(p)).collect()], ports: ports.iter().map(|&p| f32s(p)).collect() }
        })
        .collect();
    Some(LayoutView { name: "board".into(), cells, labels: Vec::new() })
}

/// Where the vertices lie on the unit sphere, and where the holes' centres lie (one per border
/// cycle, in the order of [`border_cycles`]): from the cells' points in space when the
/// construction knows them all (a mesh's face centres), else from the gluing alone with each hole
/// filled by a virtual vertex joined to its border ([`relaxed`]), turned so that the cells run
/// counterclockwise seen from outside.
fn sphere_dirs(c: &Complex, geo: &Geometry) -> Option<(Vec<P3>, Vec<P3>)> {
    let adj = vertex_graph(c, geo);
    let (dirs, holes) = match c.positions.iter().copied().collect::<Option<Vec<P3>>>() {
        Some(points) => {
            let n = points.len() as f64;
            let centre = points.iter().fold([0.0; 3], |a, p| add3(a, *p)).map(|v| v / n);
            let dirs = geo
                .vertices
                .iter()
                .map(|v| {
                    let s = v.corners.iter().fold([0.0; 3], |a, &(cell, _)| add3(a, points[cell]));
                    normalise3(sub3(s.map(|x| x / v.corners.len() as f64), centre))
                })
                .collect::<Vec<_>>();
            let holes = border_cycles(c, geo)?
                .iter()
                .map(|cycle| normalise3(cycle.iter().fold([0.0; 3], |a, &v| add3(a, dirs[v]))))
                .collect();
            (dirs, holes)
        }
        None => {
            let cycles = border_cycles(c, geo)?;
            let mut adj = adj;
            let first_hole = adj.len();
            for (h, cycle) in cycles.iter().enumerate() {
                adj.push(cycle.clone());
                for &v in cycle {
                    adj[v].push(first_hole + h);
                }
            }
            let mut all = relaxed(c, geo, &adj)?;
            evened(c, geo, &cycles, &mut all);
            // Seen from outside, the first cell's corners turn counterclockwise round it.
            let k = c.degree(0);
            let n0 = geo.vertex_of[0].iter().fold([0.0; 3], |a, &v| add3(a, all[v]));
            let turn: f64 = (0..k).map(|i| dot(cross(all[geo.vertex_of[0][i]], all[geo.vertex_of[0][(i + 1) % k]]), n0)).sum();
            if turn < 0.0 {
                for d in &mut all {
                    d[0] = -d[0];
                }
            }
            let holes = all.split_off(first_hole);
            (all, holes)
        }
    };
    if dirs.iter().chain(&holes).any(|d| d.iter().any(|x| !x.is_finite())) {
        return None;
    }
    Some((dirs, holes))
}

/// An azimuthal equidistant projection of the sphere seen from outside: `centre` in the middle,
/// `up` (a tangent direction there) up the page.
#[derive(Clone, Copy)]
struct Frame {
    centre: P3,
    up: P3,
    right: P3,
}

impl Frame {
    fn new(centre: P3, up: P3) -> Frame {
        let up = normalise3(reject(up, centre));
        Frame { centre, up, right: cross(up, centre) }
    }

    fn project(&self, d: P3) -> P2 {
        let theta = dot(d, self.centre).clamp(-1.0, 1.0).acos();
        let phi = dot(d, self.up).atan2(dot(d, self.right));
        [theta * phi.cos(), theta * phi.sin()]
    }
}

/// A cell drawn on the sphere: its sides as great-circle arcs of `arcs(side)` segments each, its
/// name at the projection of its corners' mean direction.
fn sphere_cell(c: &Complex, geo: &Geometry, dirs: &[P3], frame: &Frame, cell: CellIdx, arcs: &dyn Fn(P3, P3) -> usize) -> (Vec<P2>, Vec<P2>, P2) {
    let k = c.degree(cell);
    let mut contour = Vec::with_capacity(k * 6);
    let mut ports = Vec::with_capacity(2 * k);
    for i in 0..k {
        let (a, b) = side_ends(c, geo, cell, i);
        let arc = arcs(dirs[a], dirs[b]).max(1);
        for s in 0..arc {
            contour.push(frame.project(slerp(dirs[a], dirs[b], s as f64 / arc as f64)));
        }
        ports.push(frame.project(slerp(dirs[a], dirs[b], 0.5)));
        ports.push(frame.project(dirs[b]));
    }
    let label = frame.project(cell_dir(geo, dirs, cell));
    (contour, ports, label)
}

/// The mean direction of a cell's corners.
fn cell_dir(geo: &Geometry, dirs: &[P3], cell: CellIdx) -> P3 {
    normalise3(geo.vertex_of[cell].iter().fold([0.0; 3], |a, &v| add3(a, dirs[v])))
}

fn layout_cell(cell: CellIdx, label: P2, contours: &[Vec<P2>], ports: &[P2]) -> LayoutCell {
    LayoutCell {
        cell: cell as u16,
        label: f32s(label),
        contours: contours.iter().map(|k| k.iter().map(|&p| f32s(p)).collect()).collect(),
        ports: ports.iter().map(|&p| f32s(p)).collect(),
    }
}

/// A closed surface of genus 0: its vertices on the unit sphere, projected from the first cell.
fn sphere(c: &Complex, geo: &Geometry) -> Option<LayoutView> {
    let (dirs, _) = sphere_dirs(c, geo)?;
    // The frame: centred on the first cell, its first corner straight up.
    let n0 = cell_dir(geo, &dirs, 0);
    let frame = Frame::new(n0, dirs[geo.vertex_of[0][0]]);
    // The cell round the antipode, if any, is drawn as a ring.
    let anti = n0.map(|x| -x);
    let inside = |cell: CellIdx| {
        let k = c.degree(cell);
        (0..k).all(|i| {
            let (a, b) = side_ends(c, geo, cell, i);
            dot(cross(dirs[a], dirs[b]), anti) > 0.0
        })
    };
    let ring = (1..c.len()).find(|&cell| inside(cell));
    let mut cells = Vec::with_capacity(c.len());
    for cell in 0..c.len() {
        let (contour, ports, label) = sphere_cell(c, geo, &dirs, &frame, cell, &|_, _| 6);
        let (contours, label) = if Some(cell) == ring {
            // Outer rim, then the cell's own border; the name at the top of the ring. The rim is
            // the antipode's circle, moved out to leave the ring about a cell wide.
            let inner = contour.iter().map(|p| p[0].hypot(p[1])).fold(0.0, f64::max);
            let r = PI.max(inner + (4.0 * PI / c.len() as f64).sqrt());
            let rim: Vec<P2> = (0..96).map(|i| [r * (TAU * i as f64 / 96.0).cos(), r * (TAU * i as f64 / 96.0).sin()]).collect();
            let top = contour.iter().filter(|p| p[0].abs() < 0.3).map(|p| p[1]).fold(0.0, f64::max);
            (vec![rim, contour], [0.0, (top + r) / 2.0])
        } else {
            (vec![contour], label)
        };
        cells.push(layout_cell(cell, label, &contours, &ports));
    }
    Some(LayoutView { name: "sphere".into(), cells, labels: Vec::new() })
}

/// A sphere with holes, or a closed one known only by its gluing: two views, `north` round the
/// first cell and `south` round the cell farthest from it, both seen from outside (so the south
/// one as from below its pole) and turned so that the meridian at the bottom of the north view is
/// at the top of the south one. Each view holds the cells nearer its centre than the other's
/// (cells as near to both, such as those on the equator, in both) and every cell one step from
/// them, so each cell appears whole in at least one view and every step between two cells lies
/// whole in one. Holes are left empty.
fn hemispheres(c: &Complex, geo: &Geometry) -> Option<Vec<LayoutView>> {
    let (dirs, holes) = sphere_dirs(c, geo)?;
    // Per hole, the cells round it and the mark their names end with, if they share one that
    // is not a letter or digit.
    let cycles = border_cycles(c, geo)?;
    let marks: Vec<(Option<String>, Vec<CellIdx>)> = cycles
        .iter()
        .map(|cycle| {
            let round: Vec<CellIdx> = (0..c.len())
                .filter(|&x| (0..c.degree(x)).any(|i| c.sides[x][i].is_none() && cycle.contains(&side_ends(c, geo, x, i).0)))
                .collect();
            let last: BTreeSet<char> = round.iter().filter_map(|&x| c.names[x].chars().last()).collect();
            let mark = match last.iter().next() {
                Some(&ch) if last.len() == 1 && !ch.is_alphanumeric() => Some(ch.to_string()),
                _ => None,
            };
            (mark, round)
        })
        .collect();
    let centres: Vec<P3> = (0..c.len()).map(|cell| cell_dir(geo, &dirs, cell)).collect();
    let n0 = centres[0];
    let far = (0..c.len()).min_by(|&a, &b| dot(centres[a], n0).total_cmp(&dot(centres[b], n0)))?;
    let n1 = centres[far];
    let north = Frame::new(n0, dirs[geo.vertex_of[0][0]]);
    // Down the north view, then on round the sphere: up the south view.
    let down = north.up.map(|x| -x);
    let south_up = if reject(down, n1).iter().map(|x| x.abs()).sum::<f64>() > 1e-6 { down } else { dirs[geo.vertex_of[far][0]] };
    let south = Frame::new(n1, south_up);
    const TIE: f64 = 1e-2;
    let tie: Vec<bool> = centres.iter().map(|&d| (dot(d, n0) - dot(d, n1)).abs() <= TIE).collect();
    let mut views = Vec::new();
    for (name, frame, other) in [("north", north, n1), ("south", south, n0)] {
        let core: Vec<bool> = centres.iter().zip(&tie).map(|(&d, &t)| !t && dot(d, frame.centre) > dot(d, other)).collect();
        let mut member: Vec<bool> = core.iter().zip(&tie).map(|(&a, &b)| a || b).collect();
        for cell in (0..c.len()).filter(|&x| core[x]) {
            for (to, _) in geo.step[cell].iter().flatten() {
                member[*to] = true;
            }
        }
        let arcs = |a: P3, b: P3| (dot(a, b).clamp(-1.0, 1.0).acos() / 0.1).ceil() as usize;
        let cells = (0..c.len())
            .filter(|&x| member[x])
            .map(|cell| {
                let (contour, ports, label) = sphere_cell(c, geo, &dirs, &frame, cell, &|a, b| arcs(a, b).min(6));
                layout_cell(cell, label, &[contour], &ports)
            })
            .collect();
        // A hole's mark where the names of the cells round it share one (Webball's voids), in
        // the view whose centre is nearer the hole's.
        let labels = marks
            .iter()
            .zip(&holes)
            .filter(|((_, round), &centre)| dot(centre, frame.centre) >= dot(centre, other) - TIE && round.iter().any(|&x| member[x]))
            .filter_map(|((mark, _), &centre)| Some(LayoutLabel { at: f32s(frame.project(centre)), size: 0.9, text: mark.clone()? }))
            .collect();
        views.push(LayoutView { name: name.into(), cells, labels });
    }
    Some(views)
}

/// Vertex directions for a sphere known only by its gluing: a Tutte embedding with the cell
/// farthest from the first as the outer face, lifted onto the sphere and relaxed (each vertex
/// the direction of the sum of its neighbours, recentred every sweep).
fn relaxed(c: &Complex, geo: &Geometry, adj: &[Vec<usize>]) -> Option<Vec<P3>> {
    let mut dist = vec![usize::MAX; c.len()];
    dist[0] = 0;
    let mut queue = VecDeque::from([0]);
    while let Some(x) = queue.pop_front() {
        for g in c.sides[x].iter().flatten() {
            if dist[g.cell] == usize::MAX {
                dist[g.cell] = dist[x] + 1;
                queue.push_back(g.cell);
            }
        }
    }
    let far = (0..c.len()).max_by_key(|&x| (dist[x], std::cmp::Reverse(x)))?;
    let k = c.degree(far);
    // Seen from the other cells the outer cell's corners run clockwise.
    let pinned: BTreeMap<usize, P2> = (0..k).map(|i| (geo.vertex_of[far][i], [(-TAU * i as f64 / k as f64).cos(), (-TAU * i as f64 / k as f64).sin()])).collect();
    let flat = tutte(adj, &pinned);
    let mut dirs: Vec<P3> = flat
        .iter()
        .map(|q| {
            let r2 = q[0] * q[0] + q[1] * q[1];
            [2.0 * q[0] / (r2 + 1.0), 2.0 * q[1] / (r2 + 1.0), (r2 - 1.0) / (r2 + 1.0)]
        })
        .collect();
    for _ in 0..600 {
        let mut next: Vec<P3> = adj.iter().map(|ns| normalise3(ns.iter().fold([0.0; 3], |a, &w| add3(a, dirs[w])))).collect();
        let n = next.len() as f64;
        let mean = next.iter().fold([0.0; 3], |a, p| add3(a, *p)).map(|v| v / n);
        for p in &mut next {
            *p = normalise3(sub3(*p, mean));
        }
        dirs = next;
    }
    Some(dirs)
}

/// Evens out a relaxed embedding (whose cells shrink where many meet and grow where few do):
/// every cell pulled towards a regular polygon of one common side, each hole towards a regular
/// polygon of that side round its virtual vertex (the last vertices of `dirs`, one per cycle),
/// the side chosen so that these polygons' areas add up to the sphere's. Distances are chords,
/// each constraint met in turn (half the error from each end), then every vertex back on the
/// sphere; a fixed number of sweeps.
fn evened(c: &Complex, geo: &Geometry, cycles: &[Vec<usize>], dirs: &mut [P3]) {
    let area = |k: usize| k as f64 / (4.0 * (PI / k as f64).tan());
    let total: f64 = (0..c.len()).map(|x| area(c.degree(x))).sum::<f64>() + cycles.iter().map(|h| area(h.len())).sum::<f64>();
    let side = (4.0 * PI / total).sqrt();
    // Chord of a regular k-gon of side `side` between corners `d` apart.
    let chord = |k: usize, d: usize| side * (PI * d as f64 / k as f64).sin() / (PI / k as f64).sin();
    let mut springs: Vec<(usize, usize, f64)> = Vec::new();
    for cell in 0..c.len() {
        let (k, v) = (c.degree(cell), &geo.vertex_of[cell]);
        for i in 0..k {
            for j in i + 1..k {
                if v[i] != v[j] {
                    springs.push((v[i], v[j], chord(k, j - i)));
                }
            }
        }
    }
    let first_hole = dirs.len() - cycles.len();
    for (h, cycle) in cycles.iter().enumerate() {
        let m = cycle.len().max(3);
        let radius = side / (2.0 * (PI / m as f64).sin());
        for &v in cycle {
            springs.push((first_hole + h, v, radius));
        }
    }
    let mut count = vec![0.0f64; dirs.len()];
    for &(a, b, _) in &springs {
        count[a] += 1.0;
        count[b] += 1.0;
    }
    for _ in 0..3000 {
        let mut moves = vec![[0.0; 3]; dirs.len()];
        for &(a, b, target) in &springs {
            let d = sub3(dirs[b], dirs[a]);
            let len = dot(d, d).sqrt();
            if len < 1e-12 {
                continue;
            }
            let k = 0.5 * (len - target) / len;
            moves[a] = add3(moves[a], d.map(|x| x * k));
            moves[b] = sub3(moves[b], d.map(|x| x * k));
        }
        for (v, d) in dirs.iter_mut().enumerate() {
            if count[v] > 0.0 {
                *d = normalise3(add3(*d, moves[v].map(|x| x / count[v])));
            }
        }
    }
}

/// Mirrors a view whose first cell runs clockwise, so sides run counterclockwise on the page.
fn orient(c: &Complex, view: &mut LayoutView) {
    let Some(first) = view.cells.iter().find(|x| c.degree(x.cell as usize) >= 3 && x.contours.len() == 1) else { return };
    let pts: Vec<P2> = first.contours[0].iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
    if signed_area(&pts) >= 0.0 {
        return;
    }
    for label in &mut view.labels {
        label.at[0] = -label.at[0];
    }
    for cell in &mut view.cells {
        cell.label[0] = -cell.label[0];
        for p in cell.contours.iter_mut().flatten().chain(cell.ports.iter_mut()) {
            p[0] = -p[0];
        }
    }
}

/// Scales views alike so that their median cell is about one unit across.
fn normalise(views: &mut [LayoutView]) {
    let mut sizes: Vec<f64> = views
        .iter()
        .flat_map(|v| &v.cells)
        .filter(|x| x.contours.len() == 1)
        .map(|x| signed_area(&x.contours[0].iter().map(|p| [p[0] as f64, p[1] as f64]).collect::<Vec<_>>()).abs().sqrt())
        .collect();
    sizes.sort_by(f64::total_cmp);
    let Some(&median) = sizes.get(sizes.len() / 2) else { return };
    if median <= 0.0 {
        return;
    }
    let k = (1.0 / median) as f32;
    // Labels keep their size: it is given in median cells.
    for label in views.iter_mut().flat_map(|v| &mut v.labels) {
        label.at = label.at.map(|v| v * k);
    }
    for cell in views.iter_mut().flat_map(|v| &mut v.cells) {
        cell.label = cell.label.map(|v| v * k);
        for p in cell.contours.iter_mut().flatten().chain(cell.ports.iter_mut()) {
            *p = p.map(|v| v * k);
        }
    }
}

fn signed_area(p: &[P2]) -> f64 {
    (0..p.len()).map(|i| p[i][0] * p[(i + 1) % p.len()][1] - p[(i + 1) % p.len()][0] * p[i][1]).sum::<f64>() / 2.0
}

/// The area centroid of a polygon (its vertices' mean if it has no area).
fn centroid(p: &[P2]) -> P2 {
    let a = signed_area(p);
    if a.abs() < 1e-12 {
        let n = p.len().max(1) as f64;
        return p.iter().fold([0.0, 0.0], |s, q| add(s, *q)).map(|v| v / n);
    }
    let mut c = [0.0, 0.0];
    for i in 0..p.len() {
        let (q, r) = (p[i], p[(i + 1) % p.len()]);
        let w = q[0] * r[1] - r[0] * q[1];
        c = add(c, scale(add(q, r), w));
    }
    scale(c, 1.0 / (6.0 * a))
}

fn f32s(p: P2) -> [f32; 2] {
    [p[0] as f32, p[1] as f32]
}

fn add(a: P2, b: P2) -> P2 {
    [a[0] + b[0], a[1] + b[1]]
}

fn sub(a: P2, b: P2) -> P2 {
    [a[0] - b[0], a[1] - b[1]]
}

fn scale(a: P2, k: f64) -> P2 {
    [a[0] * k, a[1] * k]
}

fn add3(a: P3, b: P3) -> P3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub3(a: P3, b: P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: P3, b: P3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: P3, b: P3) -> P3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn normalise3(a: P3) -> P3 {
    let l = dot(a, a).sqrt();
    if l == 0.0 {
        a
    } else {
        a.map(|x| x / l)
    }
}

/// `v` less its component along the unit vector `n`.
fn reject(v: P3, n: P3) -> P3 {
    let k = dot(v, n);
    sub3(v, n.map(|x| x * k))
}

/// The point a fraction `t` along the great circle from `a` to `b` (unit vectors).
fn slerp(a: P3, b: P3, t: f64) -> P3 {
    let omega = dot(a, b).clamp(-1.0, 1.0).acos();
    if omega < 1e-9 {
        return a;
    }
    let s = omega.sin();
    let (wa, wb) = (((1.0 - t) * omega).sin() / s, (t * omega).sin() / s);
    normalise3(add3(a.map(|x| x * wa), b.map(|x| x * wb)))
}
