//! A slow, independent reference move generator for Cube-Surface Chess (the Chess Variant Pages'
//! "Cube-Surface Board Chesses", by Kuyan Judith), written straight from the lattice model of
//! ../shared/seed-facts.md Part 3: cells are the integer points (x, y, z), 0..m, on the surface of
//! the n x n x n box (m = n - 1), named `xXyYzZ`. Nothing here uses the compiler's board model or
//! the runtime's tables: lines, knights and pawns are walked on the coordinates.
//!
//! - A step is a direction `d` (one unit axis vector: orthogonal; the sum of two: diagonal) in the
//!   plane of the face being travelled (outward normal `nrm`). If `p + d` leaves the box in exactly
//!   one coordinate `i`, the step crosses the edge: `d' = d - d_i e_i - |d_i| nrm`, and the face
//!   travelled becomes the one with normal `sign(d_i) e_i`.
//! - Rooks and bishops end their lines on a vertex; a queen goes through: a face diagonal into a
//!   vertex goes on along the edge between the other two faces, an edge line into a vertex goes on
//!   along the diagonal of the face perpendicular to that edge.
//! - Knights: three definitions ([`KnightDef`]).
//! - The two-player 8x8 and 5x5 games (pawns, promotion, castling, setups, move generation) are
//!   tests/common/cube_game.rs, the four-player 8x8 game tests/common/cube_four.rs, on these
//!   coordinates.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap, HashSet};

pub type P = [i32; 3];

pub fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn scale(a: P, k: i32) -> P {
    [a[0] * k, a[1] * k, a[2] * k]
}

pub(crate) fn unit(i: usize, s: i32) -> P {
    let mut v = [0; 3];
    v[i] = s;
    v
}

/// The axis of a unit vector.
pub(crate) fn axis(v: P) -> usize {
    (0..3).find(|&i| v[i] != 0).expect("a non-zero vector")
}

/// Where a slider or a leg is: the cell, the direction it goes on in, and the outward normal of
/// the face it travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub p: P,
    pub d: P,
    pub nrm: P,
}

/// What a knight's move is near a vertex (the page: the decomposition "does not matter").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnightDef {
    /// One orthogonal step, then one diagonal step outward; the middle cell is not a vertex.
    OrthDiag,
    /// Two straight orthogonal steps then one at right angles, or `OrthDiag`, or one diagonal step
    /// then one orthogonal step outward; no middle cell a vertex.
    Union,
    /// `OrthDiag`, but the middle cell may be a vertex (from an edge cell into the vertex, then
    /// to either of the vertex's other two edge cells).
    OrthDiagThroughVertex,
}

/// The box surface of side `n`.
pub struct Cube {
    pub n: i32,
    pub m: i32,
    pub cells: Vec<P>,
    index: HashMap<P, usize>,
}

impl Cube {
    pub fn new(n: i32) -> Cube {
        let m = n - 1;
        let mut cells = Vec::new();
        for x in 0..n {
            for y in 0..n {
                for z in 0..n {
                    let p = [x, y, z];
                    if p.iter().any(|&c| c == 0 || c == m) {
                        cells.push(p);
                    }
                }
            }
        }
        let index = cells.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        Cube { n, m, cells, index }
    }

    pub fn in_range(&self, p: P) -> bool {
        p.iter().all(|&c| (0..=self.m).contains(&c))
    }

    pub fn on_surface(&self, p: P) -> bool {
        self.in_range(p) && p.iter().any(|&c| c == 0 || c == self.m)
    }

    /// How many coordinates are 0 or m: 1 face cell, 2 edge cell, 3 vertex.
    pub fn boundary(&self, p: P) -> usize {
        p.iter().filter(|&&c| c == 0 || c == self.m).count()
    }

    pub fn is_vertex(&self, p: P) -> bool {
        self.boundary(p) == 3
    }

    /// The outward normals of the faces the cell lies on.
    pub fn faces(&self, p: P) -> Vec<P> {
        let mut out = Vec::new();
        for (i, &c) in p.iter().enumerate() {
            if c == 0 {
                out.push(unit(i, -1));
            }
            if c == self.m {
                out.push(unit(i, 1));
            }
        }
        out
    }

    pub fn id(&self, p: P) -> usize {
        *self.index.get(&p).unwrap_or_else(|| panic!("{p:?} is not a cell"))
    }

    pub fn name_of(p: P) -> String {
        format!("x{}y{}z{}", p[0], p[1], p[2])
    }

    pub fn name(&self, c: usize) -> String {
        Self::name_of(self.cells[c])
    }

    pub fn parse(&self, name: &str) -> usize {
        let parts: Vec<i32> = name[1..].split(|ch: char| ch.is_ascii_alphabetic()).map(|p| p.parse().expect("coordinate")).collect();
        self.id([parts[0], parts[1], parts[2]])
    }

    /// Orthogonal neighbours: one coordinate differs by 1.
    pub fn orth_neighbours(&self, p: P) -> Vec<P> {
        let mut out = Vec::new();
        for i in 0..3 {
            for s in [-1, 1] {
                let q = add(p, unit(i, s));
                if self.on_surface(q) {
                    out.push(q);
                }
            }
        }
        out
    }

    /// Diagonal neighbours: two coordinates differ by 1, and the two cells share a face.
    pub fn diag_neighbours(&self, p: P) -> Vec<P> {
        let mut out = Vec::new();
        for i in 0..3 {
            for j in i + 1..3 {
                for si in [-1, 1] {
                    for sj in [-1, 1] {
                        let q = add(add(p, unit(i, si)), unit(j, sj));
                        if self.on_surface(q) && self.faces(p).iter().any(|f| self.faces(q).contains(f)) {
                            out.push(q);
                        }
                    }
                }
            }
        }
        out
    }

    pub fn king_neighbours(&self, p: P) -> Vec<P> {
        let mut out = self.orth_neighbours(p);
        out.extend(self.diag_neighbours(p));
        out
    }

    /// One step in the state's direction, across an edge if need be; `None` if the step would leave
    /// the box in two coordinates (only from a vertex).
    pub fn step(&self, s: State) -> Option<State> {
        let q = add(s.p, s.d);
        let out: Vec<usize> = (0..3).filter(|&i| q[i] < 0 || q[i] > self.m).collect();
        match out.len() {
            0 => Some(State { p: q, ..s }),
            1 => {
                let i = out[0];
                let di = s.d[i];
                let d2 = sub(sub(s.d, unit(i, di)), scale(s.nrm, di.abs()));
                let q = add(s.p, d2);
                assert!(self.on_surface(q), "crossing from {:?} by {:?} lands off the surface at {q:?}", s.p, s.d);
                Some(State { p: q, d: d2, nrm: unit(i, di.signum()) })
            }
            _ => None,
        }
    }

    /// Every state leaving `p` orthogonally (`diagonal` false) or diagonally: each face of the
    /// cell, each direction in its plane.
    pub fn starts(&self, p: P, diagonal: bool) -> Vec<State> {
        let mut out = Vec::new();
        for nrm in self.faces(p) {
            let a = axis(nrm);
            let plane: Vec<usize> = (0..3).filter(|&i| i != a).collect();
            if diagonal {
                for si in [-1, 1] {
                    for sj in [-1, 1] {
                        out.push(State { p, d: add(unit(plane[0], si), unit(plane[1], sj)), nrm });
                    }
                }
            } else {
                for &i in &plane {
                    for s in [-1, 1] {
                        out.push(State { p, d: unit(i, s), nrm });
                    }
                }
            }
        }
        out
    }

    /// The state with which a queen leaves the vertex it arrived on in state `s`.
    fn through_vertex(&self, s: State) -> State {
        let v = s.p;
        let nonzero = s.d.iter().filter(|&&c| c != 0).count();
        if nonzero == 2 {
            // A diagonal of face `nrm` into the vertex goes on along the edge of the other two.
            let d = scale(s.nrm, -1);
            let other = (0..3).find(|&i| i != axis(s.nrm)).expect("an axis");
            let nrm = unit(other, if v[other] == 0 { -1 } else { 1 });
            State { p: v, d, nrm }
        } else {
            // An edge line into the vertex goes on along the diagonal of the face perpendicular to it.
            let k = axis(s.d);
            let mut d = [0; 3];
            for i in 0..3 {
                if i != k {
                    d[i] = if v[i] == 0 { 1 } else { -1 };
                }
            }
            State { p: v, d, nrm: s.d }
        }
    }

    /// The cells of the line from state `s0` on an empty board, up to a vertex (where rooks and
    /// bishops stop; a queen, `through`, goes on), or up to (not including) the start cell.
    pub fn line(&self, s0: State, through: bool) -> Vec<P> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut s = s0;
        while let Some(t) = self.step(s) {
            if t.p == s0.p {
                break;
            }
            out.push(t.p);
            s = if self.is_vertex(t.p) {
                if !through {
                    break;
                }
                self.through_vertex(t)
            } else {
                t
            };
            if !seen.insert(s) {
                break;
            }
        }
        out
    }

    /// The lines of a rider from `p`: rook (orth), bishop (diag) or queen (both, through vertices);
    /// lines with the same cells kept once.
    pub fn lines(&self, p: P, orth: bool, diag: bool) -> Vec<Vec<P>> {
        let through = orth && diag;
        let mut out: Vec<Vec<P>> = Vec::new();
        let mut starts = Vec::new();
        if orth {
            starts.extend(self.starts(p, false));
        }
        if diag {
            starts.extend(self.starts(p, true));
        }
        for s in starts {
            let l = self.line(s, through);
            if !l.is_empty() && !out.contains(&l) {
                out.push(l);
            }
        }
        out
    }

    /// The two unit vectors perpendicular to `d` (a unit vector) in the plane of face `nrm`.
    fn perpendicular(d: P, nrm: P) -> [P; 2] {
        let k = (0..3).find(|&i| i != axis(d) && i != axis(nrm)).expect("a third axis");
        [unit(k, 1), unit(k, -1)]
    }

    /// One orthogonal step then one diagonal step outward.
    fn orth_diag(&self, p: P, through_vertex: bool, out: &mut BTreeSet<P>) {
        for s0 in self.starts(p, false) {
            let Some(s1) = self.step(s0) else { continue };
            if self.is_vertex(s1.p) {
                if through_vertex {
                    // Entering the vertex from an edge cell: the vertex's other two edge cells.
                    for q in self.orth_neighbours(s1.p) {
                        if q != p {
                            out.insert(q);
                        }
                    }
                }
                continue;
            }
            for e in Self::perpendicular(s1.d, s1.nrm) {
                if let Some(s2) = self.step(State { d: add(s1.d, e), ..s1 }) {
                    out.insert(s2.p);
                }
            }
        }
    }

    /// Two orthogonal steps straight on, then one at right angles (no middle cell a vertex).
    fn orth_orth_turn(&self, p: P, out: &mut BTreeSet<P>) {
        for s0 in self.starts(p, false) {
            let Some(s1) = self.step(s0) else { continue };
            if self.is_vertex(s1.p) {
                continue;
            }
            let Some(s2) = self.step(s1) else { continue };
            if self.is_vertex(s2.p) {
                continue;
            }
            for e in Self::perpendicular(s2.d, s2.nrm) {
                if let Some(s3) = self.step(State { d: e, ..s2 }) {
                    out.insert(s3.p);
                }
            }
        }
    }

    /// One diagonal step, then one orthogonal step outward (no middle cell a vertex).
    fn diag_orth(&self, p: P, out: &mut BTreeSet<P>) {
        for s0 in self.starts(p, true) {
            let Some(s1) = self.step(s0) else { continue };
            if self.is_vertex(s1.p) {
                continue;
            }
            for i in 0..3 {
                if s1.d[i] != 0 {
                    if let Some(s2) = self.step(State { d: unit(i, s1.d[i]), ..s1 }) {
                        out.insert(s2.p);
                    }
                }
            }
        }
    }

    /// The knight's destinations from `p` on an empty board.
    pub fn knight(&self, p: P, def: KnightDef) -> BTreeSet<P> {
        let mut out = BTreeSet::new();
        match def {
            KnightDef::OrthDiag => self.orth_diag(p, false, &mut out),
            KnightDef::OrthDiagThroughVertex => self.orth_diag(p, true, &mut out),
            KnightDef::Union => {
                self.orth_diag(p, false, &mut out);
                self.orth_orth_turn(p, &mut out);
                self.diag_orth(p, &mut out);
            }
        }
        out.remove(&p);
        out
    }

    /// The two parts of the union separately (for the report): 2+1, 1+diag, diag+1.
    pub fn knight_parts(&self, p: P) -> [BTreeSet<P>; 3] {
        let mut a = BTreeSet::new();
        let mut b = BTreeSet::new();
        let mut c = BTreeSet::new();
        self.orth_orth_turn(p, &mut a);
        self.orth_diag(p, false, &mut b);
        self.diag_orth(p, &mut c);
        for s in [&mut a, &mut b, &mut c] {
            s.remove(&p);
        }
        [a, b, c]
    }

    /// The fewest king steps from `p` to a vertex.
    pub fn vertex_distance(&self, p: P) -> usize {
        let mut dist: HashMap<P, usize> = HashMap::new();
        let mut frontier: Vec<P> = self.cells.iter().copied().filter(|&q| self.is_vertex(q)).collect();
        for &v in &frontier {
            dist.insert(v, 0);
        }
        let mut d = 0;
        while !frontier.is_empty() {
            if let Some(&k) = dist.get(&p) {
                return k;
            }
            d += 1;
            let mut next = Vec::new();
            for q in frontier {
                for r in self.king_neighbours(q) {
                    if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(r) {
                        e.insert(d);
                        next.push(r);
                    }
                }
            }
            frontier = next;
        }
        dist[&p]
    }
}
