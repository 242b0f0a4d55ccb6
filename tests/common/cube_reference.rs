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
//! - Pawns, promotion, castling and the setups of the two-player 8x8 and 5x5 games as described in
//!   the test brief (tests/cube_games.rs).
//! - The four-player 8x8 game is tests/common/cube_four.rs, on these coordinates.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

pub type P = [i32; 3];

pub fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: P, k: i32) -> P {
    [a[0] * k, a[1] * k, a[2] * k]
}

fn unit(i: usize, s: i32) -> P {
    let mut v = [0; 3];
    v[i] = s;
    v
}

/// The axis of a unit vector.
fn axis(v: P) -> usize {
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

// ---------------------------------------------------------------------------------------------
// The games.

pub const KING: u8 = 0;
pub const QUEEN: u8 = 1;
pub const ROOK: u8 = 2;
pub const BISHOP: u8 = 3;
pub const KNIGHT: u8 = 4;
pub const PAWN: u8 = 5;
pub const SYMBOLS: [char; 6] = ['K', 'Q', 'R', 'B', 'N', 'P'];
pub const SIDES: [&str; 2] = ["white", "black"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Normal,
    /// A pawn's double step, passing the cell.
    Double(usize),
    /// Takes the pawn on the cell.
    EnPassant(usize),
    /// The rook's move from, to.
    Castle(usize, usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Move {
    pub from: usize,
    pub to: usize,
    pub promotion: Option<u8>,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    /// (side, kind) per cell.
    pub board: Vec<Option<(u8, u8)>>,
    /// Pieces that have not moved.
    pub virgin: Vec<bool>,
    /// The cell passed by a double step just played, and the pawn that made it.
    pub ep: Option<(usize, usize)>,
    pub turn: u8,
}

/// A two-player game of the page: the 8x8 cube (castling, the board-5/6 pawn rule) or the 5x5.
pub struct Game {
    pub cube: Cube,
    pub knight_def: KnightDef,
    pub five: bool,
    king: Vec<Vec<usize>>,
    knight: Vec<Vec<usize>>,
    /// Lines per rider kind (queen, rook, bishop) per cell.
    lines: [Vec<Vec<Vec<usize>>>; 3],
    /// Per side, per cell: one-step pawn moves, double steps (passed, to), captures.
    pushes: [Vec<Vec<usize>>; 2],
    doubles: [Vec<Vec<(usize, usize)>>; 2],
    captures: [Vec<Vec<usize>>; 2],
    zone: [Vec<bool>; 2],
}

impl Game {
    pub fn eight(knight_def: KnightDef) -> Game {
        Game::new(Cube::new(8), knight_def, false)
    }

    pub fn five() -> Game {
        Game::new(Cube::new(5), KnightDef::OrthDiag, true)
    }

    fn new(cube: Cube, knight_def: KnightDef, five: bool) -> Game {
        let ids = |ps: Vec<P>| -> Vec<usize> { ps.into_iter().map(|q| cube.id(q)).collect() };
        let king = cube.cells.iter().map(|&p| ids(cube.king_neighbours(p))).collect();
        let knight = cube.cells.iter().map(|&p| ids(cube.knight(p, knight_def).into_iter().collect())).collect();
        let rider = |orth: bool, diag: bool| -> Vec<Vec<Vec<usize>>> {
            cube.cells.iter().map(|&p| cube.lines(p, orth, diag).into_iter().map(&ids).collect()).collect()
        };
        let lines = [rider(true, true), rider(true, false), rider(false, true)];
        let mut g = Game {
            knight_def,
            five,
            king,
            knight,
            lines,
            pushes: [vec![], vec![]],
            doubles: [vec![], vec![]],
            captures: [vec![], vec![]],
            zone: [vec![], vec![]],
            cube,
        };
        for side in 0..2 {
            for c in 0..g.cube.cells.len() {
                let p = g.cube.cells[c];
                let (push, double, capture) = g.pawn(side, p);
                g.pushes[side].push(ids_of(&g.cube, push));
                g.doubles[side].push(double.into_iter().map(|(a, b)| (g.cube.id(a), g.cube.id(b))).collect());
                g.captures[side].push(ids_of(&g.cube, capture));
                g.zone[side].push(g.in_zone(side, p));
            }
        }
        g
    }

    /// A pawn's one-step moves, double-step destinations and captures from cell `c` on an empty
    /// board.
    pub fn pawn_targets(&self, side: usize, c: usize) -> [BTreeSet<usize>; 3] {
        [
            self.pushes[side][c].iter().copied().collect(),
            self.doubles[side][c].iter().map(|&(_, to)| to).collect(),
            self.captures[side][c].iter().copied().collect(),
        ]
    }

    /// The cells a pawn of `side` can stand on: reached from its setup by its moves, short of the
    /// promotion zone.
    pub fn pawn_cells(&self, side: usize) -> BTreeSet<usize> {
        let start = self.start();
        let mut seen: BTreeSet<usize> = (0..start.board.len()).filter(|&c| start.board[c] == Some((side as u8, PAWN))).collect();
        let mut todo: Vec<usize> = seen.iter().copied().collect();
        while let Some(c) = todo.pop() {
            let [a, b, d] = self.pawn_targets(side, c);
            for to in a.into_iter().chain(b).chain(d) {
                if !self.zone[side][to] && seen.insert(to) {
                    todo.push(to);
                }
            }
        }
        seen
    }

    /// The lines of a rider kind (queen, rook, bishop) from cell `c`, as cell numbers.
    pub fn rider_lines(&self, kind: u8, c: usize) -> &[Vec<usize>] {
        &self.lines[Self::rider_index(kind).expect("a rider")][c]
    }

    pub fn leaps(&self, kind: u8, c: usize) -> &[usize] {
        if kind == KING {
            &self.king[c]
        } else {
            &self.knight[c]
        }
    }

    /// Black's pawns are White's mirrored: (x, m-y, m-z) on the 8x8 cube (the half turn that
    /// swaps the 1/4 and 2/3 edges), (x, y, m-z) on the 5x5.
    fn mirror(&self, p: P) -> P {
        let m = self.cube.m;
        if self.five {
            [p[0], p[1], m - p[2]]
        } else {
            [p[0], m - p[1], m - p[2]]
        }
    }

    fn in_zone(&self, side: usize, p: P) -> bool {
        let p = if side == 1 { self.mirror(p) } else { p };
        if self.five {
            p[2] == 0 && !self.cube.is_vertex(p)
        } else {
            p[1] == 0 && p[2] == 0
        }
    }

    /// A pawn's one-step moves, double steps and captures from `p`.
    fn pawn(&self, side: usize, p: P) -> (Vec<P>, Vec<(P, P)>, Vec<P>) {
        if side == 1 {
            let (a, b, c) = self.pawn(0, self.mirror(p));
            let f = |q: P| self.mirror(q);
            return (a.into_iter().map(f).collect(), b.into_iter().map(|(x, y)| (f(x), f(y))).collect(), c.into_iter().map(f).collect());
        }
        let cube = &self.cube;
        let m = cube.m;
        let (x, y, z) = ([1, 0, 0], [0, 1, 0], [0, 0, 1]);
        let on = |q: P| cube.on_surface(q);
        if self.five {
            // The far vertices (of z = 0): the board-5/6 rule.
            if p[2] == 0 && cube.is_vertex(p) {
                let a = scale(x, if p[0] == 0 { 1 } else { -1 });
                let b = scale(y, if p[1] == 0 { 1 } else { -1 });
                return (vec![add(p, a), add(p, b)], vec![], vec![add(add(p, a), b)]);
            }
            let side_face = p[0] == 0 || p[0] == m || p[1] == 0 || p[1] == m;
            let u = scale(z, -1);
            if !side_face || !on(add(p, u)) {
                return (vec![], vec![], vec![]);
            }
            let mut captures = Vec::new();
            for nrm in cube.faces(p) {
                if axis(nrm) == 2 {
                    continue;
                }
                let k = 1 - axis(nrm); // the other horizontal axis
                for s in [-1, 1] {
                    let q = add(add(p, u), unit(k, s));
                    if on(q) && !captures.contains(&q) {
                        captures.push(q);
                    }
                }
            }
            let double = if on(add(p, scale(u, 2))) { vec![(add(p, u), add(p, scale(u, 2)))] } else { vec![] };
            return (vec![add(p, u)], double, captures);
        }
        // The 8x8 cube: forward vectors per face (board 1 z=m: -y, 2 y=0: -z, 3 z=0: -y, 4 y=m: -z,
        // 5 x=0 and 6 x=m: -y and -z).
        let mut forwards: Vec<P> = Vec::new();
        for nrm in cube.faces(p) {
            let vs: Vec<P> = match (axis(nrm), nrm[axis(nrm)]) {
                (2, 1) | (2, -1) => vec![scale(y, -1)],
                (1, -1) | (1, 1) => vec![scale(z, -1)],
                _ => vec![scale(y, -1), scale(z, -1)],
            };
            for u in vs {
                if on(add(p, u)) && !forwards.contains(&u) {
                    forwards.push(u);
                }
            }
        }
        let pushes: Vec<P> = forwards.iter().map(|&u| add(p, u)).collect();
        let doubles: Vec<(P, P)> = forwards.iter().filter(|&&u| on(add(p, scale(u, 2)))).map(|&u| (add(p, u), add(p, scale(u, 2)))).collect();
        let mut captures = Vec::new();
        match forwards.len() {
            2 => {
                let q = add(add(p, forwards[0]), forwards[1]);
                if on(q) {
                    captures.push(q);
                }
            }
            1 => {
                let u = forwards[0];
                for nrm in cube.faces(p) {
                    // Boards 1-4 (normals along y or z) whose plane holds u.
                    if axis(nrm) == 0 || axis(nrm) == axis(u) {
                        continue;
                    }
                    let k = (0..3).find(|&i| i != axis(nrm) && i != axis(u)).expect("axis");
                    for s in [-1, 1] {
                        let q = add(add(p, u), unit(k, s));
                        if on(q) && !captures.contains(&q) {
                            captures.push(q);
                        }
                    }
                }
            }
            _ => {}
        }
        (pushes, doubles, captures)
    }

    /// The start position of the page's two-player game.
    pub fn start(&self) -> Pos {
        let cube = &self.cube;
        let mut pos = Pos { board: vec![None; cube.cells.len()], virgin: vec![false; cube.cells.len()], ep: None, turn: 0 };
        let mut put = |side: u8, kind: u8, p: P| {
            let p = if side == 1 { self.mirror(p) } else { p };
            let c = cube.id(p);
            assert!(pos.board[c].is_none(), "two pieces on {p:?}");
            pos.board[c] = Some((side, kind));
            pos.virgin[c] = true;
        };
        for side in 0..2 {
            if self.five {
                for (kind, cells) in [
                    (QUEEN, [[1, 3], [2, 3]].as_slice()),
                    (BISHOP, [[3, 3], [3, 2]].as_slice()),
                    (ROOK, [[1, 2], [1, 1]].as_slice()),
                    (KING, [[2, 2]].as_slice()),
                    (KNIGHT, [[2, 1], [3, 1]].as_slice()),
                ] {
                    for &[x, y] in cells {
                        put(side, kind, [x, y, 4]);
                    }
                }
                for x in 0..5 {
                    for y in 0..5 {
                        if x == 0 || x == 4 || y == 0 || y == 4 {
                            put(side, PAWN, [x, y, 4]);
                        }
                    }
                }
            } else {
                for (x, kind) in [ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK].into_iter().enumerate() {
                    put(side, kind, [x as i32, 7, 7]);
                }
                for x in 0..8 {
                    put(side, PAWN, [x, 6, 7]);
                    put(side, PAWN, [x, 7, 6]);
                }
                put(side, PAWN, [0, 6, 6]);
                put(side, PAWN, [7, 6, 6]);
            }
        }
        pos
    }

    fn rider_index(kind: u8) -> Option<usize> {
        match kind {
            QUEEN => Some(0),
            ROOK => Some(1),
            BISHOP => Some(2),
            _ => None,
        }
    }

    /// Whether a piece of `side` attacks `target`.
    pub fn attacked(&self, pos: &Pos, target: usize, side: u8) -> bool {
        for (c, sq) in pos.board.iter().enumerate() {
            let Some((s, kind)) = *sq else { continue };
            if s != side {
                continue;
            }
            let hit = match kind {
                KING => self.king[c].contains(&target),
                KNIGHT => self.knight[c].contains(&target),
                PAWN => self.captures[side as usize][c].contains(&target),
                _ => self.lines[Self::rider_index(kind).expect("rider")][c].iter().any(|l| {
                    for &x in l {
                        if x == target {
                            return true;
                        }
                        if pos.board[x].is_some() {
                            return false;
                        }
                    }
                    false
                }),
            };
            if hit {
                return true;
            }
        }
        false
    }

    pub fn king_cell(&self, pos: &Pos, side: u8) -> usize {
        pos.board.iter().position(|&b| b == Some((side, KING))).expect("a king")
    }

    pub fn in_check(&self, pos: &Pos, side: u8) -> bool {
        self.attacked(pos, self.king_cell(pos, side), 1 - side)
    }

    fn promotions(&self, side: usize, from: usize, to: usize, kind: Kind, out: &mut Vec<Move>) {
        if self.zone[side][to] {
            for promo in [QUEEN, ROOK, BISHOP, KNIGHT] {
                out.push(Move { from, to, promotion: Some(promo), kind });
            }
        } else {
            out.push(Move { from, to, promotion: None, kind });
        }
    }

    /// Moves by the rules of movement, before the test that the king is safe.
    pub fn pseudo_moves(&self, pos: &Pos) -> Vec<Move> {
        let side = pos.turn;
        let s = side as usize;
        let mut out = Vec::new();
        let free_or_enemy = |x: usize| match pos.board[x] {
            None => true,
            Some((o, _)) => o != side,
        };
        for c in 0..pos.board.len() {
            let Some((o, kind)) = pos.board[c] else { continue };
            if o != side {
                continue;
            }
            let normal = |to: usize| Move { from: c, to, promotion: None, kind: Kind::Normal };
            match kind {
                KING | KNIGHT => {
                    let dests = if kind == KING { &self.king[c] } else { &self.knight[c] };
                    for &to in dests {
                        if free_or_enemy(to) {
                            out.push(normal(to));
                        }
                    }
                }
                PAWN => {
                    for &to in &self.pushes[s][c] {
                        if pos.board[to].is_none() {
                            self.promotions(s, c, to, Kind::Normal, &mut out);
                        }
                    }
                    if pos.virgin[c] {
                        for &(mid, to) in &self.doubles[s][c] {
                            if pos.board[mid].is_none() && pos.board[to].is_none() {
                                self.promotions(s, c, to, Kind::Double(mid), &mut out);
                            }
                        }
                    }
                    for &to in &self.captures[s][c] {
                        match pos.board[to] {
                            Some((o, _)) if o != side => self.promotions(s, c, to, Kind::Normal, &mut out),
                            None => {
                                if let Some((passed, victim)) = pos.ep {
                                    if passed == to && matches!(pos.board[victim], Some((o, PAWN)) if o != side) {
                                        self.promotions(s, c, to, Kind::EnPassant(victim), &mut out);
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
                _ => {
                    let mut seen = BTreeSet::new();
                    for l in &self.lines[Self::rider_index(kind).expect("rider")][c] {
                        for &x in l {
                            match pos.board[x] {
                                None => {
                                    if seen.insert(x) {
                                        out.push(normal(x));
                                    }
                                }
                                Some((o, _)) => {
                                    if o != side && seen.insert(x) {
                                        out.push(normal(x));
                                    }
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
        // Castling on the 8x8 cube, along the home edge (x, m, m) for White, (x, 0, 0) for Black.
        if !self.five {
            let cell = |x: i32| self.cube.id(if side == 0 { [x, 7, 7] } else { [x, 0, 0] });
            for (rook_x, king_to, rook_to, empty, safe) in [(7, 6, 5, [5, 6].as_slice(), [4, 5, 6]), (0, 2, 3, [1, 2, 3].as_slice(), [4, 3, 2])] {
                let (k, r) = (cell(4), cell(rook_x));
                if pos.board[k] == Some((side, KING)) && pos.virgin[k] && pos.board[r] == Some((side, ROOK)) && pos.virgin[r]
                    && empty.iter().all(|&x| pos.board[cell(x)].is_none()) && safe.iter().all(|&x| !self.attacked(pos, cell(x), 1 - side))
                {
                    out.push(Move { from: k, to: cell(king_to), promotion: None, kind: Kind::Castle(r, cell(rook_to)) });
                }
            }
        }
        out
    }

    pub fn make(&self, pos: &Pos, mv: Move) -> Pos {
        let mut p = pos.clone();
        let piece = p.board[mv.from].take().expect("a piece to move");
        p.virgin[mv.from] = false;
        p.virgin[mv.to] = false;
        match mv.kind {
            Kind::EnPassant(victim) => {
                p.board[victim] = None;
                p.virgin[victim] = false;
            }
            Kind::Castle(rf, rt) => {
                let rook = p.board[rf].take().expect("a rook");
                p.virgin[rf] = false;
                p.board[rt] = Some(rook);
            }
            _ => {}
        }
        p.board[mv.to] = Some(match mv.promotion {
            Some(k) => (piece.0, k),
            None => piece,
        });
        p.ep = match mv.kind {
            Kind::Double(passed) => Some((passed, mv.to)),
            _ => None,
        };
        p.turn = 1 - p.turn;
        p
    }

    pub fn legal_moves(&self, pos: &Pos) -> Vec<Move> {
        let mut moves: Vec<Move> = self.pseudo_moves(pos).into_iter().filter(|&mv| !self.in_check(&self.make(pos, mv), pos.turn)).collect();
        moves.sort();
        moves.dedup();
        moves
    }

    pub fn perft(&self, pos: &Pos, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves(pos);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&mv| self.perft(&self.make(pos, mv), depth - 1)).sum()
    }

    /// Leaf counts per move, by [`Game::key`].
    pub fn divide(&self, pos: &Pos, depth: usize) -> BTreeMap<String, u64> {
        self.legal_moves(pos).into_iter().map(|mv| (self.key(mv), self.perft(&self.make(pos, mv), depth - 1))).collect()
    }

    /// A move as `FROM-TO` (`=X` for a promotion), the king's cells for castling: what the
    /// engine's move information gives.
    pub fn key(&self, mv: Move) -> String {
        let mut s = format!("{}-{}", self.cube.name(mv.from), self.cube.name(mv.to));
        if let Some(k) = mv.promotion {
            s.push('=');
            s.push(SYMBOLS[k as usize]);
        }
        s
    }

    /// The position in the engine's general notation.
    pub fn general(&self, pos: &Pos) -> String {
        let mut parts = vec![format!("turn={}", SIDES[pos.turn as usize])];
        for side in 0..2u8 {
            let pieces: Vec<String> = (0..pos.board.len())
                .filter_map(|c| match pos.board[c] {
                    Some((s, k)) if s == side => Some(format!("{}{}", SYMBOLS[k as usize], self.cube.name(c))),
                    _ => None,
                })
                .collect();
            parts.push(format!("{}={}", SIDES[side as usize], pieces.join(",")));
        }
        let virgin: Vec<String> = (0..pos.board.len()).filter(|&c| pos.virgin[c] && pos.board[c].is_some()).map(|c| self.cube.name(c)).collect();
        if !virgin.is_empty() {
            parts.push(format!("virgin={}", virgin.join(",")));
        }
        if let Some((passed, victim)) = pos.ep {
            parts.push(format!("ep={}:{}", self.cube.name(passed), self.cube.name(victim)));
        }
        parts.join(" ")
    }

    /// The pieces as `Sym+cell` per side (to compare with a position the engine writes).
    pub fn pieces(&self, pos: &Pos) -> [BTreeSet<String>; 2] {
        let mut out = [BTreeSet::new(), BTreeSet::new()];
        for c in 0..pos.board.len() {
            if let Some((s, k)) = pos.board[c] {
                out[s as usize].insert(format!("{}{}", SYMBOLS[k as usize], self.cube.name(c)));
            }
        }
        out
    }

    /// A position of the pieces given as `Sym+cell` lists (none unmoved, no en passant).
    pub fn position(&self, turn: u8, white: &str, black: &str) -> Pos {
        let n = self.cube.cells.len();
        let mut pos = Pos { board: vec![None; n], virgin: vec![false; n], ep: None, turn };
        for (side, list) in [white, black].into_iter().enumerate() {
            for item in list.split(',').filter(|s| !s.is_empty()) {
                let sym = item.chars().next().expect("a symbol");
                let kind = SYMBOLS.iter().position(|&k| k == sym).expect("a piece symbol") as u8;
                pos.board[self.cube.parse(&item[1..])] = Some((side as u8, kind));
            }
        }
        pos
    }
}

fn ids_of(cube: &Cube, ps: Vec<P>) -> Vec<usize> {
    ps.into_iter().map(|q| cube.id(q)).collect()
}

/// What the tests ask of a reference game (two players: [`Game`]; four: `cube_four::FourGame`), so
/// that one driver follows a mismatch down whatever the number of players.
pub trait Reference {
    type Pos;
    /// The sides' names in turn order (the fields of the general notation).
    const SIDES: &'static [&'static str];
    fn general(&self, pos: &Self::Pos) -> String;
    fn legal_moves(&self, pos: &Self::Pos) -> Vec<Move>;
    fn make(&self, pos: &Self::Pos, mv: Move) -> Self::Pos;
    fn perft(&self, pos: &Self::Pos, depth: usize) -> u64;
    fn divide(&self, pos: &Self::Pos, depth: usize) -> BTreeMap<String, u64>;
    fn key(&self, mv: Move) -> String;
}

impl Reference for Game {
    type Pos = Pos;
    const SIDES: &'static [&'static str] = &["white", "black"];
    fn general(&self, pos: &Pos) -> String {
        Game::general(self, pos)
    }
    fn legal_moves(&self, pos: &Pos) -> Vec<Move> {
        Game::legal_moves(self, pos)
    }
    fn make(&self, pos: &Pos, mv: Move) -> Pos {
        Game::make(self, pos, mv)
    }
    fn perft(&self, pos: &Pos, depth: usize) -> u64 {
        Game::perft(self, pos, depth)
    }
    fn divide(&self, pos: &Pos, depth: usize) -> BTreeMap<String, u64> {
        Game::divide(self, pos, depth)
    }
    fn key(&self, mv: Move) -> String {
        Game::key(self, mv)
    }
}
