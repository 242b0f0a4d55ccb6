//! The board as a surface made of square cells.
//!
//! Every cell is a unit square with four sides (N, E, S, W: the headings with vectors (0, 1),
//! (1, 0), (0, -1), (-1, 0)) and four corners (NE, SE, SW, NW). The orthogonal step from cell `c`
//! heading `h` that arrives on `c'` heading `a` glues side `h` of `c` to the side of `c'` the piece
//! came in through (the side opposite `a`). A side without a step is on the boundary.
//!
//! A gluing of two sides can be made in two ways: keeping the frames' handedness (a *rotation*: the
//! corner on the right of the crossing stays on the right) or reversing it (a *reflection*). The
//! step of the orthogonal heading alone does not say which; the diagonal steps do. The diagonal step
//! through a corner of `c` lands in the cell across that corner, which is the cell next to `c'`
//! beyond the corresponding corner of `c'`: under a rotation that is one neighbour of `c'`, under a
//! reflection the other. Each gluing is decided by these witnesses (up to four: two corners, seen
//! from both cells). A gluing no witness decides is *undetermined*; then both readings are reported.
//!
//! Corners are identified along glued sides; the classes are the vertices, the glued side pairs and
//! boundary sides the edges, the cells the faces. Orientability is a two-colouring of the cells
//! (reflections flip); boundary components are the cycles of boundary sides. A vertex where the
//! corners do not add up to 360° (inside) or 180° (on the boundary) is a cone point or a boundary
//! corner; Gauss-Bonnet (the angle defects sum to 360°·χ) is checked as a consequence.

use petgraph::unionfind::UnionFind;
use serde_json::{json, Value};

use crate::model::{CellId, HeadingId, Variant};

pub const SIDES: [&str; 4] = ["N", "E", "S", "W"];
pub const CORNERS: [&str; 4] = ["NE", "SE", "SW", "NW"];
const ORTH: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// Corner `k` lies between sides `k` and `k + 1`.
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// A vertex: the corners `(cell name, corner name)` identified into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vertex {
    pub corners: Vec<(String, String)>,
    /// The sum of the corner angles, in degrees.
    pub angle: u32,
}

impl Vertex {
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self.corners.iter().take(4).map(|(c, k)| format!("{c} {k}")).collect();
        if self.corners.len() > 4 {
            format!("{} and {} more corners", parts.join(" = "), self.corners.len() - 4)
        } else {
            parts.join(" = ")
        }
    }
}

/// The classification of one reading of the complex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    pub vertices: usize,
    pub edges: usize,
    pub faces: usize,
    pub euler_characteristic: i64,
    pub orientable: bool,
    pub boundary_components: usize,
    pub components: usize,
    pub name: String,
    /// Interior vertices whose angle is not 360°.
    pub cone_points: Vec<Vertex>,
    /// Boundary vertices whose angle is not 180°.
    pub boundary_corners: Vec<Vertex>,
    /// Sum of the angle defects in degrees; equals 360·χ for a surface.
    pub curvature: i64,
}

#[derive(Debug, Clone)]
pub struct Surface {
    /// `None` when the board is not made of square cells; `reason` says why.
    pub complex: Option<Classification>,
    /// When some gluings are undetermined: the reading with reflections there (`complex` holds the
    /// one with rotations).
    pub alternative: Option<Classification>,
    pub reason: Option<String>,
    /// Gluings decided by diagonal witnesses: (rotations, reflections).
    pub rotations: usize,
    pub reflections: usize,
    /// Gluings no witness decides, e.g. "g8 N | c8 N".
    pub undetermined: Vec<String>,
    /// Gluings whose witnesses contradict each other.
    pub contradictory: Vec<String>,
    /// Whether `complex` reads the undetermined gluings as reflections (else as rotations).
    pub undetermined_as_reflections: bool,
    /// The board is a complex of polygon cells: the gluing is given, not read off the steps.
    pub polygons: bool,
}

impl Surface {
    fn none(reason: impl Into<String>) -> Surface {
        Surface {
            complex: None,
            alternative: None,
            reason: Some(reason.into()),
            rotations: 0,
            reflections: 0,
            undetermined: Vec::new(),
            contradictory: Vec::new(),
            undetermined_as_reflections: false,
            polygons: false,
        }
    }
}

/// One glued pair of sides: `(c, s)` to `(c2, s2)`.
#[derive(Debug, Clone, Copy)]
struct Gluing {
    c: CellId,
    s: usize,
    c2: CellId,
    s2: usize,
}

pub fn analyze(v: &Variant) -> Surface {
    let board = &v.board;
    if let Some(complex) = &board.complex {
        return polygons(complex);
    }
    let find = |vec: (i32, i32)| board.headings.iter().position(|h| h.vector == Some(vec));
    let orth: Vec<Option<HeadingId>> = ORTH.iter().map(|&d| find(d)).collect();
    if orth.iter().any(Option::is_none) {
        return Surface::none("the board has no four orthogonal headings (vectors (0, 1), (1, 0), (0, -1), (-1, 0))");
    }
    let orth: Vec<HeadingId> = orth.into_iter().flatten().collect();
    let diag: Vec<Option<HeadingId>> = DIAG.iter().map(|&d| find(d)).collect();
    let side_of = |h: HeadingId| orth.iter().position(|&o| o == h);
    let ncells = board.cells.len();
    let name = |c: CellId| board.cells[c].name.as_str();

    // The gluings, each unordered pair once; sides glued twice make the board no surface.
    let mut glued: Vec<Option<(CellId, usize)>> = vec![None; ncells * 4];
    for c in 0..ncells {
        for s in 0..4 {
            let Some((c2, arrival)) = board.step(c, orth[s]) else { continue };
            let Some(t) = side_of(arrival) else {
                return Surface::none(format!(
                    "the orthogonal step from {} heading {} arrives with the non-orthogonal heading {}",
                    name(c),
                    SIDES[s],
                    board.headings[arrival].name
                ));
            };
            glued[c * 4 + s] = Some((c2, (t + 2) % 4));
        }
    }
    let mut gluings = Vec::new();
    // Sides of a square that are one side of the cell: a cell folded round a cone point (Corner
    // Variant 2's half and quarter cells) reaches the same side of its neighbour through two of
    // its square's sides; the neighbour's side leads back through one of them.
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for c in 0..ncells {
        for s in 0..4 {
            let Some((c2, s2)) = glued[c * 4 + s] else { continue };
            let back = glued[c2 * 4 + s2];
            if let Some((c3, s3)) = back.filter(|&(c3, s3)| c3 == c && s3 != s && glued[c3 * 4 + s3] == Some((c2, s2))) {
                merged.push((c * 4 + s, c3 * 4 + s3));
                continue;
            }
            if glued[c2 * 4 + s2] != Some((c, s)) {
                let back = match glued[c2 * 4 + s2] {
                    Some((c3, s3)) => format!("side {} of {}", SIDES[s3], name(c3)),
                    None => "the boundary".to_string(),
                };
                return Surface::none(format!(
                    "side {} of {} is glued to side {} of {}, but that side leads to {back}: the cells do not form a surface of squares",
                    SIDES[s],
                    name(c),
                    SIDES[s2],
                    name(c2)
                ));
            }
            if (c, s) <= (c2, s2) {
                gluings.push(Gluing { c, s, c2, s2 });
            }
        }
    }

    // Orientation of each gluing from the diagonal witnesses.
    let neighbour = |c: CellId, s: usize| board.step(c, orth[s % 4]).map(|x| x.0);
    let votes = |c: CellId, s: usize, c2: CellId, s2: usize| -> (usize, usize) {
        let (mut rot, mut refl) = (0, 0);
        // Right corner `s`, left corner `s - 1`.
        for (corner, rot_side, refl_side) in [(s, s2 + 3, s2 + 1), (s + 3, s2 + 1, s2 + 3)] {
            let Some(d) = diag[corner % 4] else { continue };
            let Some((across, _)) = board.step(c, d) else { continue };
            let r = neighbour(c2, rot_side) == Some(across);
            let f = neighbour(c2, refl_side) == Some(across);
            if r && !f {
                rot += 1;
            } else if f && !r {
                refl += 1;
            }
        }
        (rot, refl)
    };
    let mut surface = Surface {
        complex: None,
        alternative: None,
        reason: None,
        rotations: 0,
        reflections: 0,
        undetermined: Vec::new(),
        contradictory: Vec::new(),
        undetermined_as_reflections: false,
        polygons: false,
    };
    // Some(true): reflection; None: undetermined.
    let mut reflect: Vec<Option<bool>> = Vec::with_capacity(gluings.len());
    for g in &gluings {
        let (r1, f1) = votes(g.c, g.s, g.c2, g.s2);
        let (r2, f2) = votes(g.c2, g.s2, g.c, g.s);
        let (r, f) = (r1 + r2, f1 + f2);
        let label = format!("{} {} = {} {}", name(g.c), SIDES[g.s], name(g.c2), SIDES[g.s2]);
        if r > 0 && f > 0 {
            surface.contradictory.push(label.clone());
        }
        reflect.push(if r > f {
            surface.rotations += 1;
            Some(false)
        } else if f > r {
            surface.reflections += 1;
            Some(true)
        } else {
            surface.undetermined.push(label);
            None
        });
    }

    let rot_reading: Vec<bool> = reflect.iter().map(|r| r.unwrap_or(false)).collect();
    let rotations = classify(v, &gluings, &merged, &rot_reading, &diag);
    if surface.undetermined.is_empty() {
        surface.complex = Some(rotations);
    } else {
        // Undetermined gluings are read all as rotations or all as reflections; the flatter
        // reading (the smaller total angle defect) is reported, the other as the alternative.
        let refl_reading: Vec<bool> = reflect.iter().map(|r| r.unwrap_or(true)).collect();
        let reflections = classify(v, &gluings, &merged, &refl_reading, &diag);
        surface.undetermined_as_reflections = defect(&reflections) < defect(&rotations);
        let (main, alt) = if surface.undetermined_as_reflections { (reflections, rotations) } else { (rotations, reflections) };
        surface.complex = Some(main);
        surface.alternative = Some(alt);
    }
    surface
}

/// Total absolute angle defect of a reading, in degrees.
/// A board of polygon cells, each taken as a regular polygon: vertices, edges and faces from the
/// gluing; a vertex whose corners do not add up to 360° (180° on the border) is a cone point or a
/// border corner (a cube's corner triangle, with three squares: 330°).
fn polygons(complex: &crate::complex::Complex) -> Surface {
    let t = complex.surface();
    let geometry = complex.geometry();
    let corner = |c: usize| 180.0 * (complex.degree(c) as f64 - 2.0) / complex.degree(c) as f64;
    let mut cone_points = Vec::new();
    let mut boundary_corners = Vec::new();
    let mut curvature = 0.0;
    for vx in &geometry.vertices {
        let angle: f64 = vx.corners.iter().map(|&(c, _)| corner(c)).sum();
        let full = if vx.border { 180.0 } else { 360.0 };
        curvature += full - angle;
        if (angle - full).abs() > 1e-6 {
            let v = Vertex {
                corners: vx.corners.iter().map(|&(c, k)| (complex.names[c].clone(), format!("corner{}", k + 1))).collect(),
                angle: angle.round() as u32,
            };
            if vx.border { boundary_corners.push(v) } else { cone_points.push(v) }
        }
    }
    let name = if t.parts == 1 { surface_name(t.euler, t.orientable, t.border_components) } else { format!("{} separate pieces", t.parts) };
    let flipped = complex.sides.iter().flatten().flatten().filter(|g| g.flip).count() / 2;
    let glued = complex.sides.iter().flatten().flatten().count() / 2;
    Surface {
        complex: Some(Classification {
            vertices: t.vertices,
            edges: t.edges,
            faces: t.faces,
            euler_characteristic: t.euler,
            orientable: t.orientable,
            boundary_components: t.border_components,
            components: t.parts,
            name,
            cone_points,
            boundary_corners,
            curvature: curvature.round() as i64,
        }),
        rotations: glued - flipped,
        reflections: flipped,
        polygons: true,
        reason: None,
        ..Surface::none("")
    }
}

fn defect(c: &Classification) -> u32 {
    c.cone_points.iter().map(|p| p.angle.abs_diff(360)).sum::<u32>() + c.boundary_corners.iter().map(|p| p.angle.abs_diff(180)).sum::<u32>()
}

/// `merged`: (side, side) pairs of one cell that are one side of it (see `analyze`).
fn classify(v: &Variant, gluings: &[Gluing], merged: &[(usize, usize)], reflect: &[bool], diag: &[Option<HeadingId>]) -> Classification {
    let ncells = v.board.cells.len();
    let corner_name = |k: usize| diag[k].map(|h| v.board.headings[h].name.clone()).unwrap_or_else(|| CORNERS[k].to_string());
    // Corners `c * 4 + k`; side `s` of a cell has corners `s - 1` (left, seen from inside going
    // out) and `s` (right).
    let mut corners = UnionFind::<usize>::new(ncells * 4);
    let mut cells = UnionFind::<usize>::new(ncells);
    let mut glued_side = vec![false; ncells * 4];
    // Orientation: parity union-find over 2 * cells (cell, flipped).
    let mut parity = UnionFind::<usize>::new(ncells * 2);
    for (g, &refl) in gluings.iter().zip(reflect) {
        let (c, s, c2, s2) = (g.c, g.s, g.c2, g.s2);
        let left = (s + 3) % 4;
        let left2 = (s2 + 3) % 4;
        if refl {
            corners.union(c * 4 + s, c2 * 4 + s2);
            corners.union(c * 4 + left, c2 * 4 + left2);
            parity.union(c * 2, c2 * 2 + 1);
            parity.union(c * 2 + 1, c2 * 2);
        } else {
            corners.union(c * 4 + s, c2 * 4 + left2);
            corners.union(c * 4 + left, c2 * 4 + s2);
            parity.union(c * 2, c2 * 2);
            parity.union(c * 2 + 1, c2 * 2 + 1);
        }
        cells.union(c, c2);
        glued_side[c * 4 + s] = true;
        glued_side[c2 * 4 + s2] = true;
    }
    // A side merged into another is glued through it; corners of one cell whose diagonal steps
    // arrive alike are one corner (the cell is folded round a cone point there).
    for &(x, _) in merged {
        glued_side[x] = true;
    }
    // `folded[corner]`: the corner is one with an earlier corner of its cell.
    let mut folded = vec![false; ncells * 4];
    for c in 0..ncells {
        for k1 in 0..4 {
            for k2 in k1 + 1..4 {
                let arrive = |k: usize| diag[k].and_then(|d| v.board.step(c, d));
                if arrive(k1).is_some() && arrive(k1) == arrive(k2) && !folded[c * 4 + k2] {
                    corners.union(c * 4 + k1, c * 4 + k2);
                    folded[c * 4 + k2] = true;
                }
            }
        }
    }
    let orientable = (0..ncells).all(|c| !parity.equiv(c * 2, c * 2 + 1));
    let components = (0..ncells).filter(|&c| cells.find(c) == c).count();

    // Vertices.
    let mut root_index = vec![usize::MAX; ncells * 4];
    let mut vertices: Vec<Vec<usize>> = Vec::new();
    for corner in 0..ncells * 4 {
        let r = corners.find(corner);
        if root_index[r] == usize::MAX {
            root_index[r] = vertices.len();
            vertices.push(Vec::new());
        }
        vertices[root_index[r]].push(corner);
    }
    let vertex_of = |corner: usize| root_index[corners.find(corner)];
    let boundary_sides: Vec<usize> = (0..ncells * 4).filter(|&i| !glued_side[i]).collect();
    let mut on_boundary = vec![false; vertices.len()];
    let mut loops = UnionFind::<usize>::new(vertices.len());
    for &side in &boundary_sides {
        let (c, s) = (side / 4, side % 4);
        let a = vertex_of(c * 4 + (s + 3) % 4);
        let b = vertex_of(c * 4 + s);
        on_boundary[a] = true;
        on_boundary[b] = true;
        loops.union(a, b);
    }
    let boundary_components = (0..vertices.len()).filter(|&i| on_boundary[i] && loops.find(i) == i).count();

    // A corner counts 90 degrees, once however many of its square's corners it joins.
    let angle_of = |corners: &[usize]| 90 * corners.iter().filter(|&&k| !folded[k]).count() as i64;
    let describe = |corners: &[usize]| Vertex {
        corners: corners.iter().map(|&k| (v.board.cells[k / 4].name.clone(), corner_name(k % 4))).collect(),
        angle: angle_of(corners) as u32,
    };
    let mut cone_points = Vec::new();
    let mut boundary_corners = Vec::new();
    let mut curvature: i64 = 0;
    // A cell folded round a cone point (fewer than four corners of its own) holds it inside: a
    // cell of `d` corners of 90 degrees has a cone point of `90 d` degrees.
    for c in 0..ncells {
        let own = (0..4).filter(|&k| !folded[c * 4 + k]).count() as i64;
        if own < 4 {
            curvature += 360 - 90 * own;
            cone_points.push(Vertex { corners: vec![(v.board.cells[c].name.clone(), "inside".to_string())], angle: (90 * own) as u32 });
        }
    }
    for (i, vx) in vertices.iter().enumerate() {
        let angle = angle_of(vx);
        if on_boundary[i] {
            curvature += 180 - angle;
            if angle != 180 {
                boundary_corners.push(describe(vx));
            }
        } else {
            curvature += 360 - angle;
            if angle != 360 {
                cone_points.push(describe(vx));
            }
        }
    }

    let edges = gluings.len() + boundary_sides.len();
    let euler = vertices.len() as i64 - edges as i64 + ncells as i64;
    let name = if components == 1 {
        surface_name(euler, orientable, boundary_components)
    } else {
        format!("{components} separate pieces")
    };
    Classification {
        vertices: vertices.len(),
        edges,
        faces: ncells,
        euler_characteristic: euler,
        orientable,
        boundary_components,
        components,
        name,
        cone_points,
        boundary_corners,
        curvature,
    }
}

/// The name of a connected compact surface from its Euler characteristic, orientability and
/// number of boundary components.
pub fn surface_name(euler: i64, orientable: bool, boundary: usize) -> String {
    let b = boundary as i64;
    if orientable {
        let twice_genus = 2 - b - euler;
        if twice_genus < 0 || twice_genus % 2 != 0 {
            return format!("no surface (χ = {euler}, orientable, {boundary} boundary components)");
        }
        match (twice_genus / 2, boundary) {
            (0, 0) => "sphere".into(),
            (0, 1) => "disc".into(),
            (0, 2) => "annulus (cylinder)".into(),
            (1, 0) => "torus".into(),
            (0, n) => format!("sphere with {n} holes"),
            (g, 0) => format!("orientable surface of genus {g}"),
            (g, n) => format!("orientable surface of genus {g} with {n} boundary components"),
        }
    } else {
        let crosscaps = 2 - b - euler;
        if crosscaps < 1 {
            return format!("no surface (χ = {euler}, non-orientable, {boundary} boundary components)");
        }
        match (crosscaps, boundary) {
            (1, 0) => "projective plane".into(),
            (1, 1) => "Möbius band".into(),
            (2, 0) => "Klein bottle".into(),
            (2, 1) => "Klein bottle with a hole".into(),
            (k, 0) => format!("non-orientable surface with {k} cross-caps"),
            (k, n) => format!("non-orientable surface with {k} cross-caps and {n} boundary components"),
        }
    }
}

fn class_text(c: &Classification, cells: &str, indent: &str) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{indent}{cells}: V {} - E {} + F {} = Euler characteristic {}\n",
        c.vertices, c.edges, c.faces, c.euler_characteristic
    ));
    out.push_str(&format!(
        "{indent}{}, {} boundary component{}{}\n",
        if c.orientable { "orientable" } else { "non-orientable" },
        c.boundary_components,
        if c.boundary_components == 1 { "" } else { "s" },
        if c.components == 1 { String::new() } else { format!(", {} separate pieces", c.components) }
    ));
    out.push_str(&format!("{indent}surface: {}\n", c.name));
    if c.cone_points.is_empty() {
        out.push_str(&format!("{indent}cone points: none\n"));
    } else {
        out.push_str(&format!("{indent}cone points:\n"));
        // Many alike (a polyhedron's vertices): one line for the angle, with the first of them.
        let mut grouped: Vec<u32> = Vec::new();
        for p in &c.cone_points {
            let alike = c.cone_points.iter().filter(|q| q.angle == p.angle).count();
            if alike <= 8 {
                out.push_str(&format!("{indent}  {}° at {}\n", p.angle, p.describe()));
            } else if !grouped.contains(&p.angle) {
                grouped.push(p.angle);
                out.push_str(&format!("{indent}  {}° at {alike} vertices, e.g. {}\n", p.angle, p.describe()));
            }
        }
    }
    if !c.boundary_corners.is_empty() {
        let list: Vec<String> = c.boundary_corners.iter().take(8).map(|p| format!("{}° at {}", p.angle, p.describe())).collect();
        let more = c.boundary_corners.len().saturating_sub(8);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        out.push_str(&format!("{indent}boundary corners: {}{more}\n", list.join(", ")));
    }
    out.push_str(&format!("{indent}angle defects sum to {}° = 360° × χ\n", c.curvature));
    out
}

pub fn text(s: &Surface) -> String {
    let mut out = String::new();
    let Some(c) = &s.complex else {
        out.push_str(&format!("  not a surface of square cells: {}\n", s.reason.as_deref().unwrap_or("")));
        return out;
    };
    out.push_str(&class_text(c, if s.polygons { "polygon cells" } else { "square cells" }, "  "));
    if s.polygons {
        out.push_str(&format!(
            "  a complex of polygon cells: {} side gluings, {} of them reversing the orientation\n",
            s.rotations + s.reflections,
            s.reflections
        ));
        return out;
    }
    out.push_str(&format!(
        "  side gluings: {} rotation{}, {} reflection{} (decided by the diagonal steps)\n",
        s.rotations,
        if s.rotations == 1 { "" } else { "s" },
        s.reflections,
        if s.reflections == 1 { "" } else { "s" }
    ));
    if !s.contradictory.is_empty() {
        out.push_str(&format!(
            "  note: the diagonal steps contradict each other at {} gluing(s) ({}): diagonals there are not corner crossings\n",
            s.contradictory.len(),
            short(&s.contradictory)
        ));
    }
    if let Some(alt) = &s.alternative {
        let (chosen, other) = if s.undetermined_as_reflections { ("reflections", "rotations") } else { ("rotations", "reflections") };
        out.push_str(&format!(
            "  note: {} gluing(s) are not decided by the diagonal steps, which do not cross their corners as a square's corners are crossed\n    ({}).\n    The figures above read them as {chosen} (the flatter reading); read as {other}:\n",
            s.undetermined.len(),
            short(&s.undetermined)
        ));
        out.push_str(&class_text(alt, "square cells", "    "));
    }
    out
}

/// `a1 S = e1 S, b1 S = f1 S and 6 more`.
fn short(list: &[String]) -> String {
    let shown: Vec<&str> = list.iter().take(3).map(String::as_str).collect();
    if list.len() > 3 {
        format!("{} and {} more", shown.join(", "), list.len() - 3)
    } else {
        shown.join(", ")
    }
}

fn class_json(c: &Classification) -> Value {
    let vx = |v: &Vertex| json!({ "corners": v.corners.iter().map(|(c, k)| format!("{c} {k}")).collect::<Vec<_>>(), "angle": v.angle });
    json!({
        "name": c.name,
        "euler_characteristic": c.euler_characteristic,
        "orientable": c.orientable,
        "boundary_components": c.boundary_components,
        "vertices": c.vertices,
        "edges": c.edges,
        "faces": c.faces,
        "components": c.components,
        "cone_points": c.cone_points.iter().map(vx).collect::<Vec<_>>(),
        "boundary_corners": c.boundary_corners.iter().map(vx).collect::<Vec<_>>(),
        "curvature": c.curvature,
    })
}

pub fn json(s: &Surface) -> Value {
    match &s.complex {
        None => json!({ "name": Value::Null, "reason": s.reason }),
        Some(c) => {
            let mut obj = class_json(c);
            obj["gluings"] = json!({
                "rotations": s.rotations,
                "reflections": s.reflections,
                "undetermined": s.undetermined,
                "undetermined_read_as": if s.undetermined.is_empty() { Value::Null } else if s.undetermined_as_reflections { json!("reflections") } else { json!("rotations") },
                "contradictory": s.contradictory,
            });
            obj["alternative"] = s.alternative.as_ref().map(class_json).unwrap_or(Value::Null);
            obj["cells"] = json!(if s.polygons { "polygons" } else { "squares" });
            obj
        }
    }
}
