//! Polygon boards: `polygon`, `mesh` and `box` statements build one complex of polygon cells
//! ([`crate::complex`]); its geometry gives the headings (the ports of a cell: its sides and
//! corners) and the step function. Such a board has no grid, seams or links.

use super::{BoardInfo, Frontend, Sources, StepOrigin, MAX_CELLS};
use crate::complex::{Complex, Glue, Problem};
use crate::model::{self, CellId, HeadingId, Kind};
use orbis_grammar::ast::{self, BoardStmt, Span};
use std::collections::HashMap;

/// A mesh vertex by name: where it is first named, and its corners (cell, corner).
type MeshVertex = (String, Span, Vec<(usize, usize)>);

/// The most sides a cell may have: its sides and corners are headings (`MAX_HEADINGS`).
const MAX_SIDES: usize = super::MAX_HEADINGS / 2;

/// The largest box side: names stay short and the surface within the cell limit anyway.
const MAX_BOX_SIDE: i64 = 100;

impl Frontend {
    /// Whether `b` is a board of polygon cells.
    pub(super) fn is_polygon_board(b: &ast::Board) -> bool {
        b.statements.iter().any(|s| matches!(s, BoardStmt::Polygon(_) | BoardStmt::Mesh(_) | BoardStmt::Box(_) | BoardStmt::Web(_)))
    }

    /// The board of a `board { ... }` block made of polygon cells.
    pub(super) fn polygon_board(&mut self, b: &ast::Board) -> BoardInfo {
        let mut sources = Sources { board: b.keyword, ..Sources::default() };
        let mut complex = Complex::default();
        let mut spans: Vec<Span> = Vec::new();
        let mut ok = true;
        let mut groups = Vec::new();
        let mut transit = Vec::new();
        let mut polygons = Vec::new();
        // Mesh corners by vertex name: (cell, corner), to check each vertex is one disc.
        let mut mesh_vertices: Vec<MeshVertex> = Vec::new();
        for stmt in &b.statements {
            match stmt {
                BoardStmt::Polygon(p) => polygons.push(p),
                BoardStmt::Mesh(m) => ok &= self.mesh(m, &mut complex, &mut spans, &mut mesh_vertices),
                BoardStmt::Box(bx) => ok &= self.box_surface(bx, &mut complex, &mut spans),
                BoardStmt::Web(w) => match self.web(w) {
                    Some(cells) => ok &= self.polygons(&cells.iter().collect::<Vec<_>>(), &mut complex, &mut spans),
                    None => ok = false,
                },
                BoardStmt::Group(g) => groups.push(g),
                BoardStmt::Transit(t) => transit.push(t),
                other => {
                    let span = board_stmt_span(other);
                    let label = self.primary(span, "not on a board of polygons");
                    self.error("a board of polygon cells has no grid, headings, seams or links", vec![label], vec![
                        "note: its headings are the sides and corners of each cell (groups `orth` and `diag`), and its steps come from how the cells are glued".into(),
                    ]);
                    ok = false;
                }
            }
        }
        if !polygons.is_empty() {
            ok &= self.polygons(&polygons, &mut complex, &mut spans);
        }
        // Names are unique across all statements.
        let mut cells_by_name: HashMap<String, CellId> = HashMap::new();
        for (i, name) in complex.names.iter().enumerate() {
            if let Some(&first) = cells_by_name.get(name) {
                self.duplicate("cell", name, spans[first], spans[i]);
                ok = false;
            } else {
                cells_by_name.insert(name.clone(), i);
            }
        }
        if complex.len() > MAX_CELLS {
            let label = self.primary(b.keyword, format!("{} cells", complex.len()));
            self.error(format!("board too large: at most {MAX_CELLS} cells"), vec![label], vec![]);
            ok = false;
        }
        if ok {
            for problem in complex.check() {
                self.complex_problem(&complex, &spans, &problem);
                ok = false;
            }
        }
        if ok && !mesh_vertices.is_empty() {
            // A mesh vertex whose faces do not meet round it edge to edge (two fans touching at a
            // point) is two vertices of the gluing: no disc.
            if let Ok((_, vertex_of)) = complex.vertices() {
                for (name, span, corners) in &mesh_vertices {
                    let mut at: Vec<usize> = corners.iter().map(|&(c, k)| vertex_of[c][k]).collect();
                    at.sort();
                    at.dedup();
                    if at.len() > 1 {
                        let label = self.primary(*span, format!("the faces round vertex `{name}` form {} separate fans", at.len()));
                        self.error(format!("vertex `{name}` is not a disc"), vec![label], vec![
                            "note: the faces round a vertex must follow each other edge to edge (or, on the border, in one row)".into(),
                        ]);
                        ok = false;
                    }
                }
            }
        }

        // Headings: the ports of the largest cell, side and corner in turn.
        let k = complex.max_degree();
        let mut headings = Vec::with_capacity(2 * k);
        for i in 0..k {
            headings.push(model::Heading { name: format!("side{}", i + 1), vector: None, ring: 0, kind: Kind::Orthogonal });
            headings.push(model::Heading { name: format!("corner{}", i + 1), vector: None, ring: 0, kind: Kind::Diagonal });
        }
        let headings_by_name: HashMap<String, HeadingId> = headings.iter().enumerate().map(|(i, h)| (h.name.clone(), i)).collect();
        let mut group_map: HashMap<String, Vec<HeadingId>> = HashMap::new();
        group_map.insert("orth".into(), (0..k).map(|i| 2 * i).collect());
        group_map.insert("diag".into(), (0..k).map(|i| 2 * i + 1).collect());
        for g in groups {
            if group_map.contains_key(&g.name.text) || headings_by_name.contains_key(&g.name.text) || super::is_reserved_direction(&g.name.text) {
                let label = self.primary(g.name.span, "already a heading or group of this board");
                self.error(format!("group `{}` is predefined on a board of polygons", g.name.text), vec![label], vec![
                    "note: `orth` are the sides of each cell, `diag` its corners, `sideN`/`cornerN` one of them".into(),
                ]);
                continue;
            }
            let members = self.group_members(g, &headings_by_name, &group_map, 2 * k, ok);
            group_map.insert(g.name.text.clone(), members);
        }

        let cells: Vec<model::Cell> = complex.names.iter().map(|n| model::Cell { name: n.clone(), coords: None, transit: false }).collect();
        let mut board = model::Board {
            cells,
            headings,
            grid: None,
            step: Vec::new(),
            crossed: Vec::new(),
            seams: vec!["wrap".to_string()],
            rings: vec![(0..2 * k).collect()],
            aliases: Vec::new(),
            complex: None,
        };
        let len = board.cells.len() * board.headings.len();
        board.step = vec![None; len];
        board.crossed = vec![0; len];
        sources.step_origin = vec![StepOrigin::None; len];
        if ok {
            let geometry = complex.geometry();
            for (cell, ports) in geometry.step.iter().enumerate() {
                for (port, step) in ports.iter().enumerate() {
                    board.step[cell * 2 * k + port] = *step;
                    if step.is_some() {
                        sources.step_origin[cell * 2 * k + port] = StepOrigin::Grid;
                    }
                }
            }
        }
        sources.cell_decls = spans;
        sources.heading_decls = vec![b.keyword; board.headings.len()];
        for t in transit {
            for n in &t.cells {
                match cells_by_name.get(&n.text) {
                    Some(&c) => board.cells[c].transit = true,
                    None if ok => self.unknown("cell", n, " on this board", cells_by_name.keys().map(String::as_str)),
                    None => {}
                }
            }
        }
        board.complex = Some(complex);
        BoardInfo {
            board,
            sources,
            seams: Vec::new(),
            seams_ok: ok,
            wrap: false,
            link_steps: Vec::new(),
            alias_at: HashMap::new(),
            cells_by_name,
            headings_by_name,
            groups: group_map,
            cells_complete: ok,
            headings_complete: ok,
        }
    }

    /// `polygon` statements: each cell with its neighbours in order. The `n`-th time `A` names
    /// `B` is glued to the `n`-th time from the end that `B` names `A` (so two cells may share
    /// several sides).
    fn polygons(&mut self, polygons: &[&ast::Polygon], complex: &mut Complex, spans: &mut Vec<Span>) -> bool {
        if let Some(p) = polygons.iter().find(|p| p.sides.len() > MAX_SIDES) {
            self.too_many_sides(&p.name.text, p.sides.len(), p.span);
            return false;
        }
        let base = complex.len();
        let mut index: HashMap<&str, usize> = HashMap::new();
        for (i, p) in polygons.iter().enumerate() {
            index.entry(p.name.text.as_str()).or_insert(base + i);
            complex.names.push(p.name.text.clone());
            complex.sides.push(vec![None; p.sides.len()]);
            complex.positions.push(None);
            spans.push(p.span);
        }
        let mut ok = true;
        for (i, p) in polygons.iter().enumerate() {
            let cell = base + i;
            for (side, n) in p.sides.iter().enumerate() {
                let Some(n) = n else { continue };
                let Some(&other) = index.get(n.text.as_str()) else {
                    self.unknown("cell", n, " (a neighbour must be a `polygon` of the same board)", index.keys().copied());
                    ok = false;
                    continue;
                };
                let q = polygons[other - base];
                // Which occurrence of `n` in p's list this is, and the matching one in q's.
                let nth = p.sides[..side].iter().flatten().filter(|m| m.text == n.text).count();
                let back: Vec<usize> = q.sides.iter().enumerate().filter(|(_, m)| m.as_ref().is_some_and(|m| m.text == p.name.text)).map(|(j, _)| j).collect();
                let forth = p.sides.iter().flatten().filter(|m| m.text == n.text).count();
                if back.len() != forth {
                    let labels = vec![self.primary(n.span, format!("`{}` names `{}` {forth} time(s)", p.name.text, n.text)), self.secondary(q.span, format!("`{}` names `{}` {} time(s)", q.name.text, p.name.text, back.len()))];
                    self.error(format!("the neighbour lists of `{}` and `{}` disagree", p.name.text, n.text), labels, vec![
                        "note: each side is glued to exactly one side of the neighbour it names, so two cells name each other equally often".into(),
                    ]);
                    ok = false;
                    continue;
                }
                let j = back[back.len() - 1 - nth];
                complex.sides[cell][side] = Some(Glue { cell: other, side: j, flip: false });
            }
        }
        ok
    }

    /// A `mesh`: faces as cycles of vertices, glued where they share an edge.
    fn mesh(&mut self, m: &ast::Mesh, complex: &mut Complex, spans: &mut Vec<Span>, vertices: &mut Vec<MeshVertex>) -> bool {
        let mut centres: Vec<Option<[f64; 3]>> = Vec::new();
        let faces: Vec<(String, Vec<String>, Span)> = match &m.source {
            ast::MeshSource::Inline(faces) => faces.iter().map(|f| (f.name.text.clone(), f.vertices.iter().map(|v| v.text.clone()).collect(), f.span)).collect(),
            ast::MeshSource::File { path, names } => {
                let text = match crate::input::read_source(std::path::Path::new(&path.text)) {
                    Ok(t) => t,
                    Err(e) => {
                        let label = self.primary(path.span, "the mesh file");
                        self.error(e, vec![label], vec![]);
                        return false;
                    }
                };
                let parsed = if path.text.to_ascii_lowercase().ends_with(".obj") { parse_obj(&text) } else { parse_off(&text) };
                let (points, cycles) = match parsed {
                    Ok(c) => c,
                    Err(e) => {
                        let label = self.primary(path.span, "in this file");
                        self.error(format!("`{}` is not a mesh orbis reads: {e}", path.text), vec![label], vec![
                            "note: OFF (`OFF`, counts, vertices, then faces as `k i1 ... ik`) or OBJ (`v x y z` and `f i j k ...` lines)".into(),
                        ]);
                        return false;
                    }
                };
                if cycles.len() != names.len() {
                    let label = self.primary(m.span, format!("{} names for {} faces", names.len(), cycles.len()));
                    self.error("a mesh file's faces need one name each", vec![label], vec!["help: list one name per face, in the file's order".into()]);
                    return false;
                }
                centres = cycles
                    .iter()
                    .map(|c| {
                        let k = c.len().max(1) as f64;
                        let sum = c.iter().filter_map(|&v| points.get(v)).fold([0.0; 3], |a, p| [a[0] + p[0], a[1] + p[1], a[2] + p[2]]);
                        Some(sum.map(|x| x / k))
                    })
                    .collect();
                names.iter().zip(cycles).map(|(n, c)| (n.text.clone(), c.iter().map(|v| v.to_string()).collect(), n.span)).collect()
            }
        };
        let mut ok = true;
        let base = complex.len();
        let mut mesh_vertices: Vec<MeshVertex> = Vec::new();
        // Each directed edge (u, v) -> (face, side).
        let mut edges: HashMap<(String, String), Vec<(usize, usize)>> = HashMap::new();
        if let Some((name, vertices, span)) = faces.iter().find(|f| f.1.len() > MAX_SIDES) {
            self.too_many_sides(name, vertices.len(), *span);
            return false;
        }
        if complex.len() + faces.len() > MAX_CELLS {
            let label = self.primary(m.span, format!("{} faces", faces.len()));
            self.error(format!("board too large: at most {MAX_CELLS} cells"), vec![label], vec![]);
            return false;
        }
        for (f, (name, vertices, span)) in faces.iter().enumerate() {
            let k = vertices.len();
            let mut seen: Vec<&String> = Vec::new();
            for v in vertices {
                if seen.contains(&v) {
                    let label = self.primary(*span, format!("vertex `{v}` twice"));
                    self.error(format!("face `{name}` repeats a vertex"), vec![label], vec!["note: a face is a polygon: its vertices in order round it, each once".into()]);
                    ok = false;
                }
                seen.push(v);
            }
            complex.names.push(name.clone());
            complex.sides.push(vec![None; k]);
            complex.positions.push(centres.get(f).copied().flatten());
            spans.push(*span);
            for (i, v) in vertices.iter().enumerate() {
                // Corner i (between sides i and i + 1) lies at vertex i + 1.
                let corner = (i + k - 1) % k;
                match mesh_vertices.iter_mut().find(|(n, _, _)| n == v) {
                    Some((_, _, list)) => list.push((base + f, corner)),
                    None => mesh_vertices.push((v.clone(), *span, vec![(base + f, corner)])),
                }
            }
            for i in 0..k {
                let (u, v) = (&vertices[i], &vertices[(i + 1) % k]);
                let key = if u <= v { (u.clone(), v.clone()) } else { (v.clone(), u.clone()) };
                edges.entry(key).or_default().push((base + f, i));
            }
        }
        let mut keys: Vec<_> = edges.keys().cloned().collect();
        keys.sort();
        for key in keys {
            let uses = &edges[&key];
            match uses.as_slice() {
                [_] => {}
                [(a, i), (b, j)] => {
                    let dir = |cell: usize, side: usize| {
                        let vs = &faces[cell - base].1;
                        vs[side] == key.0
                    };
                    let flip = dir(*a, *i) == dir(*b, *j);
                    complex.sides[*a][*i] = Some(Glue { cell: *b, side: *j, flip });
                    complex.sides[*b][*j] = Some(Glue { cell: *a, side: *i, flip });
                }
                more => {
                    let label = self.primary(spans[more[2].0], format!("the edge {}-{}", key.0, key.1));
                    self.error(format!("the edge {}-{} belongs to {} faces", key.0, key.1, more.len()), vec![label], vec!["note: on a surface an edge joins at most two faces".into()]);
                    ok = false;
                }
            }
        }
        vertices.extend(mesh_vertices);
        ok
    }

    /// `box X Y Z`: the cells of the surface of a box of X by Y by Z cells, named `xIyJzK`,
    /// each joined to the cells one step away along an axis, in order round its outward normal.
    fn box_surface(&mut self, bx: &ast::BoxSurface, complex: &mut Complex, spans: &mut Vec<Span>) -> bool {
        let [x, y, z] = bx.sizes.map(|i| i.value);
        if [x, y, z].iter().any(|&n| !(3..=MAX_BOX_SIDE).contains(&n)) {
            let label = self.primary(bx.span, "each side from 3 to 100 cells");
            self.error("a box needs sides of 3 to 100 cells", vec![label], vec!["note: smaller boxes have no cells along their edges".into()]);
            return false;
        }
        let inner = (x - 2) * (y - 2) * (z - 2);
        let count = x * y * z - inner;
        if count > MAX_CELLS as i64 {
            let label = self.primary(bx.span, format!("{count} cells"));
            self.error(format!("board too large: at most {MAX_CELLS} cells"), vec![label], vec![]);
            return false;
        }
        let size = [x, y, z];
        let on_surface = |p: [i64; 3]| (0..3).all(|i| (0..size[i]).contains(&p[i])) && (0..3).any(|i| p[i] == 0 || p[i] == size[i] - 1);
        let base = complex.len();
        let mut cells: Vec<[i64; 3]> = Vec::new();
        for k in 0..z {
            for j in 0..y {
                for i in 0..x {
                    if on_surface([i, j, k]) {
                        cells.push([i, j, k]);
                    }
                }
            }
        }
        let index: HashMap<[i64; 3], usize> = cells.iter().enumerate().map(|(n, &p)| (p, base + n)).collect();
        let mut neighbours: Vec<Vec<usize>> = Vec::new();
        for &p in &cells {
            let normal: [f64; 3] = std::array::from_fn(|i| if p[i] == 0 { -1.0 } else if p[i] == size[i] - 1 { 1.0 } else { 0.0 });
            // A tangent basis (t1, t2 = n x t1) to order the neighbours counterclockwise.
            let axis = if normal[0].abs() < 0.5 { [1.0, 0.0, 0.0] } else { [0.0, 1.0, 0.0] };
            let t1 = reject(axis, normal);
            let t2 = cross(normal, t1);
            let mut around: Vec<(f64, usize)> = Vec::new();
            for axis in 0..3 {
                for d in [-1, 1] {
                    let mut q = p;
                    q[axis] += d;
                    if let Some(&n) = index.get(&q).filter(|_| on_surface(q)) {
                        let mut v = [0.0; 3];
                        v[axis] = d as f64;
                        let v = reject(v, normal);
                        around.push((dot(v, t2).atan2(dot(v, t1)), n));
                    }
                }
            }
            around.sort_by(|a, b| a.0.total_cmp(&b.0));
            neighbours.push(around.into_iter().map(|(_, n)| n).collect());
        }
        for (n, &p) in cells.iter().enumerate() {
            complex.names.push(format!("x{}y{}z{}", p[0], p[1], p[2]));
            complex.positions.push(Some(p.map(|c| c as f64)));
            spans.push(bx.span);
            let sides = neighbours[n]
                .iter()
                .map(|&m| {
                    // The neighbour's side that names this cell.
                    let side = neighbours[m - base].iter().position(|&c| c == base + n).unwrap_or(0);
                    Some(Glue { cell: m, side, flip: false })
                })
                .collect();
            complex.sides.push(sides);
        }
        true
    }

    /// A cell with more sides than its ports fit in headings (checked before any work that grows
    /// with the square of a cell's sides).
    fn too_many_sides(&mut self, name: &str, sides: usize, span: Span) {
        let label = self.primary(span, format!("{sides} sides"));
        self.error(format!("cell `{name}` has more than {MAX_SIDES} sides"), vec![label], vec![
            "note: each side and each corner of a cell is a heading, and a board has at most 256 headings".into(),
        ]);
    }

    /// The diagnostic for a problem of the gluing.
    fn complex_problem(&mut self, complex: &Complex, spans: &[Span], problem: &Problem) {
        let name = |c: usize| complex.names[c].clone();
        match *problem {
            Problem::TooFewSides { cell } => {
                let label = self.primary(spans[cell], format!("{} side(s)", complex.degree(cell)));
                self.error(format!("cell `{}` has fewer than three sides", name(cell)), vec![label], vec!["note: a cell is a polygon: list its neighbours (or `-` for the border) side by side".into()]);
            }
            Problem::OneWay { cell, side } => {
                let label = self.primary(spans[cell], format!("side {} of `{}`", side + 1, name(cell)));
                self.error(format!("a side of `{}` is glued one way only", name(cell)), vec![label], vec![]);
            }
            Problem::ToItself { cell, side } => {
                let label = self.primary(spans[cell], format!("side {} of `{}`", side + 1, name(cell)));
                self.error(format!("a side of `{}` is glued to itself", name(cell)), vec![label], vec![]);
            }
            Problem::VertexNotDisc { cell, corner } => {
                let k = complex.degree(cell);
                let around = |s: usize| complex.sides[cell][s].map_or("the border".to_string(), |g| format!("`{}`", name(g.cell)));
                let label = self.primary(spans[cell], format!("the corner of `{}` between {} and {}", name(cell), around(corner), around((corner + 1) % k)));
                self.error("the cells round a corner do not close into a disc", vec![label], vec![
                    "help: list every cell's neighbours in the same sense, counterclockwise seen from outside the surface".into(),
                ]);
            }
        }
    }
}

fn board_stmt_span(s: &BoardStmt) -> Span {
    match s {
        BoardStmt::Grid(g) => g.span,
        BoardStmt::Wrap(span) => *span,
        BoardStmt::Headings(h) => h.span,
        BoardStmt::Group(g) => g.span,
        BoardStmt::Seam(s) | BoardStmt::Identify(s) => s.span,
        BoardStmt::Cells(c) | BoardStmt::Transit(c) => c.span,
        BoardStmt::Link(l) => l.span,
        BoardStmt::Polygon(p) => p.span,
        BoardStmt::Mesh(m) => m.span,
        BoardStmt::Box(b) => b.span,
        BoardStmt::Web(w) => w.span,
    }
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `v` less its component along `n`.
fn reject(v: [f64; 3], n: [f64; 3]) -> [f64; 3] {
    let k = dot(v, n) / dot(n, n);
    [v[0] - k * n[0], v[1] - k * n[1], v[2] - k * n[2]]
}

/// A mesh file: its vertices' coordinates and its faces as cycles of vertex indices.
type MeshData = (Vec<[f64; 3]>, Vec<Vec<usize>>);

/// The vertices and faces of an OFF file.
fn parse_off(text: &str) -> Result<MeshData, String> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim())).filter(|(_, l)| !l.is_empty());
    let (_, head) = lines.next().ok_or("the file is empty")?;
    let counts_line = if head.starts_with("OFF") {
        let rest = head.trim_start_matches("OFF").trim();
        if rest.is_empty() {
            lines.next().ok_or("no counts after `OFF`")?
        } else {
            (1, rest)
        }
    } else {
        return Err("it does not start with `OFF`".into());
    };
    let counts: Vec<usize> = counts_line.1.split_whitespace().map(|w| w.parse::<usize>()).collect::<Result<_, _>>().map_err(|_| format!("line {}: the counts are not numbers", counts_line.0))?;
    let (nv, nf) = match counts.as_slice() {
        [nv, nf, ..] => (*nv, *nf),
        _ => return Err(format!("line {}: expected the vertex and face counts", counts_line.0)),
    };
    if nf > MAX_CELLS {
        return Err(format!("{nf} faces; a board has at most {MAX_CELLS} cells"));
    }
    let mut points = Vec::with_capacity(nv.min(1 << 16));
    for _ in 0..nv {
        let (n, line) = lines.next().ok_or("fewer vertex lines than the count says")?;
        let xyz: Vec<f64> = line.split_whitespace().take(3).map(|w| w.parse::<f64>()).collect::<Result<_, _>>().map_err(|_| format!("line {n}: not a vertex (three numbers)"))?;
        points.push([xyz.first().copied().unwrap_or(0.0), xyz.get(1).copied().unwrap_or(0.0), xyz.get(2).copied().unwrap_or(0.0)]);
    }
    let mut faces = Vec::with_capacity(nf);
    for _ in 0..nf {
        let (n, line) = lines.next().ok_or("fewer face lines than the count says")?;
        let nums: Vec<usize> = line.split_whitespace().map(|w| w.parse::<usize>()).collect::<Result<_, _>>().map_err(|_| format!("line {n}: not a face (numbers)"))?;
        let (&k, rest) = nums.split_first().ok_or(format!("line {n}: an empty face"))?;
        if rest.len() < k {
            return Err(format!("line {n}: a face of {k} vertices lists {}", rest.len()));
        }
        if let Some(&bad) = rest[..k].iter().find(|&&v| v >= nv) {
            return Err(format!("line {n}: vertex {bad} does not exist (there are {nv})"));
        }
        faces.push(rest[..k].to_vec());
    }
    Ok((points, faces))
}

/// The vertices and faces of an OBJ file (`v` and `f` lines; `v/t/n` references, 1-based or
/// negative).
fn parse_obj(text: &str) -> Result<MeshData, String> {
    let mut points: Vec<[f64; 3]> = Vec::new();
    let mut faces = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let vertices = points.len();
        match words.next() {
            Some("v") => {
                let xyz: Vec<f64> = words.take(3).map(|w| w.parse::<f64>().unwrap_or(0.0)).collect();
                points.push([xyz.first().copied().unwrap_or(0.0), xyz.get(1).copied().unwrap_or(0.0), xyz.get(2).copied().unwrap_or(0.0)]);
            }
            Some("f") => {
                let mut face = Vec::new();
                for w in words {
                    let first = w.split('/').next().unwrap_or("");
                    let r: i64 = first.parse().map_err(|_| format!("line {}: `{w}` is not a vertex reference", i + 1))?;
                    let v = if r > 0 { r - 1 } else { vertices as i64 + r };
                    if v < 0 || v as usize >= vertices {
                        return Err(format!("line {}: vertex {r} does not exist", i + 1));
                    }
                    face.push(v as usize);
                }
                faces.push(face);
                if faces.len() > MAX_CELLS {
                    return Err(format!("more than {MAX_CELLS} faces"));
                }
            }
            _ => {}
        }
    }
    if faces.is_empty() {
        return Err("no faces (`f` lines)".into());
    }
    Ok((points, faces))
}
