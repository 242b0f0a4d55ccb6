//! A slow, independent reference move generator for Chess on a Soccer Ball, written straight from
//! the polyhedron: examples/boards/soccer-ball.off is parsed here at run time and every piece's
//! moves are constructed from its faces, edges and vertices. Nothing here uses the orbis compiler
//! or runtime, so that the engine can be compared against it (tests/soccer_ball_reference.rs is
//! its self-test).
//!
//! Pieces: Rook R (straight lines across opposite sides), Bishop B (loops of five hexagons through
//! vertices), Wizard W (rides round the pentagon rings of the icosahedron), Knight N (graph distance
//! exactly 3), Ringmaster M (rings of hexagons round a pentagon), Satellite S (equators), Pawn P
//! and Guard G; the King is dropped onto a piece ("crowning") and makes it royal. Stacks of a
//! top and a hidden piece, crowning, check (optionally Chivalrous: the crowned piece gives no
//! check) and the royal ride rule are as in the brief of the self-test.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// The cell names, in the file's face order (12 pentagons, then 20 hexagons).
pub const NAMES: [&str; 32] = [
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "x0", "x1", "x2", "x3", "x4", "y0",
    "y1", "y2", "y3", "y4", "y5", "y6", "y7", "y8", "y9", "z0", "z1", "z2", "z3", "z4",
];

/// The piece kinds that can be crowned (and that give check).
pub const CROWNABLE: [char; 6] = ['W', 'S', 'B', 'R', 'N', 'M'];

/// Every piece kind that can stand on the board.
pub const KINDS: [char; 8] = ['W', 'S', 'B', 'R', 'N', 'M', 'P', 'G'];

fn checking(kind: char) -> bool {
    CROWNABLE.contains(&kind)
}

/// One occupied cell: a top piece and possibly one hidden piece of the same side beneath it.
/// `crowned` says which of the two carries the King: 0 neither, 1 the top, 2 the hidden one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Stack {
    pub side: usize,
    pub top: char,
    pub hidden: Option<char>,
    pub crowned: u8,
}

/// A position: the cells in face order, whether each side's King is still in hand, side to move.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct BallPosition {
    pub cells: Vec<Option<Stack>>,
    pub in_hand: [bool; 2],
    pub to_move: usize,
}

/// A move, before it is written as a string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Move {
    /// The King in hand goes onto the piece at `cell` (`level` 1: the top one, 2: the hidden one).
    Crown { cell: usize, level: u8 },
    /// The top piece of `from` goes to `to` (a capture if `to` holds an enemy stack); `promote`
    /// is its new kind when a Pawn or Guard changes type.
    Board {
        from: usize,
        to: usize,
        promote: Option<char>,
    },
}

/// How a piece reaches a cell: by a ride (with the cells it passes first) or by a step/leap.
#[derive(Clone, Debug)]
struct Reach {
    to: usize,
    passed: Option<Vec<usize>>,
}

type V3 = [f64; 3];

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Vertices and faces (vertex lists in order round each face) of an OFF file; `#` lines are
/// comments.
fn parse_off(text: &str) -> (Vec<V3>, Vec<Vec<usize>>) {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    assert_eq!(lines.next(), Some("OFF"), "not an OFF file");
    let counts: Vec<usize> = lines
        .next()
        .expect("counts")
        .split_whitespace()
        .map(|t| t.parse().expect("a count"))
        .collect();
    let (nv, nf) = (counts[0], counts[1]);
    let mut verts = Vec::new();
    for _ in 0..nv {
        let t: Vec<f64> = lines
            .next()
            .expect("a vertex")
            .split_whitespace()
            .map(|t| t.parse().expect("a coordinate"))
            .collect();
        verts.push([t[0], t[1], t[2]]);
    }
    let mut faces = Vec::new();
    for _ in 0..nf {
        let t: Vec<usize> = lines
            .next()
            .expect("a face")
            .split_whitespace()
            .map(|t| t.parse().expect("an index"))
            .collect();
        assert_eq!(t[0], t.len() - 1, "face vertex count");
        faces.push(t[1..].to_vec());
    }
    (verts, faces)
}

/// The geometry of the ball (everything precomputed per cell) and the rule version.
pub struct BallReference {
    /// Chivalrous version: the crowned piece gives no check (and may not capture a royal).
    pub chivalrous: bool,
    pub verts: Vec<V3>,
    /// Vertex lists, counterclockwise seen from outside.
    pub faces: Vec<Vec<usize>>,
    /// `adj[f][i]`: the face across side i of f (the edge from vertex i to vertex i+1).
    pub adj: Vec<Vec<usize>>,
    /// The three faces at each vertex.
    pub vertex_faces: Vec<Vec<usize>>,
    /// Pentagons sharing an adjacent hexagon (the icosahedron's edges), per cell.
    pub wizard_nb: Vec<Vec<usize>>,
    /// The antipodal pentagon of each pentagon (usize::MAX for hexagons).
    pub antipode: Vec<usize>,
    /// The 6 equators, each 10 hexagons in cyclic order.
    pub equators: Vec<Vec<usize>>,
    /// Side-adjacency graph distances.
    pub dist: Vec<Vec<usize>>,
    pub rook_rays: Vec<Vec<Vec<usize>>>,
    pub bishop_rays: Vec<Vec<Vec<usize>>>,
    pub wizard_rays: Vec<Vec<Vec<usize>>>,
    pub ring_rays: Vec<Vec<Vec<usize>>>,
    pub satellite_rays: Vec<Vec<Vec<usize>>>,
    pub knight: Vec<Vec<usize>>,
}

impl BallReference {
    pub fn new(chivalrous: bool) -> Self {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/boards/soccer-ball.off"
        );
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (verts, mut faces) = parse_off(&text);
        assert_eq!(faces.len(), NAMES.len(), "face count");
        // Orient counterclockwise from outside: the ball is centred at the origin, so the outward
        // normal points the way of the face's centroid.
        for f in faces.iter_mut() {
            let c = f.iter().fold([0.0; 3], |s, &v| {
                [s[0] + verts[v][0], s[1] + verts[v][1], s[2] + verts[v][2]]
            });
            let n = cross(sub(verts[f[1]], verts[f[0]]), sub(verts[f[2]], verts[f[0]]));
            if dot(n, c) < 0.0 {
                f.reverse();
            }
        }
        let nc = faces.len();
        let mut edges: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        let mut vertex_faces = vec![Vec::new(); verts.len()];
        for (fi, f) in faces.iter().enumerate() {
            for i in 0..f.len() {
                let (a, b) = (f[i], f[(i + 1) % f.len()]);
                edges.entry((a.min(b), a.max(b))).or_default().push(fi);
                vertex_faces[a].push(fi);
            }
        }
        assert!(
            edges.values().all(|fs| fs.len() == 2),
            "every edge joins two faces"
        );
        assert!(
            vertex_faces.iter().all(|fs| fs.len() == 3),
            "three faces at every vertex"
        );
        let adj: Vec<Vec<usize>> = faces
            .iter()
            .enumerate()
            .map(|(fi, f)| {
                (0..f.len())
                    .map(|i| {
                        let (a, b) = (f[i], f[(i + 1) % f.len()]);
                        let fs = &edges[&(a.min(b), a.max(b))];
                        if fs[0] == fi {
                            fs[1]
                        } else {
                            fs[0]
                        }
                    })
                    .collect()
            })
            .collect();
        let is_pent = |c: usize| faces[c].len() == 5;

        // Graph distances by breadth-first search over side-adjacency.
        let dist: Vec<Vec<usize>> = (0..nc)
            .map(|s| {
                let mut d = vec![usize::MAX; nc];
                d[s] = 0;
                let mut q = VecDeque::from([s]);
                while let Some(c) = q.pop_front() {
                    for &n in &adj[c] {
                        if d[n] == usize::MAX {
                            d[n] = d[c] + 1;
                            q.push_back(n);
                        }
                    }
                }
                d
            })
            .collect();

        // Wizard-neighbours: pentagons sharing an adjacent hexagon.
        let wizard_nb: Vec<Vec<usize>> = (0..nc)
            .map(|p| {
                if !is_pent(p) {
                    return Vec::new();
                }
                let set: BTreeSet<usize> = adj[p]
                    .iter()
                    .flat_map(|&h| adj[h].iter().copied())
                    .filter(|&q| q != p && is_pent(q))
                    .collect();
                set.into_iter().collect()
            })
            .collect();

        // Antipodes: the pentagon whose centre is farthest away.
        let centre = |c: usize| {
            let s = faces[c].iter().fold([0.0; 3], |s, &v| {
                [s[0] + verts[v][0], s[1] + verts[v][1], s[2] + verts[v][2]]
            });
            let n = faces[c].len() as f64;
            [s[0] / n, s[1] / n, s[2] / n]
        };
        let antipode: Vec<usize> = (0..nc)
            .map(|p| {
                if !is_pent(p) {
                    return usize::MAX;
                }
                (0..nc)
                    .filter(|&q| is_pent(q))
                    .min_by(|&a, &b| {
                        dot(centre(p), centre(a))
                            .partial_cmp(&dot(centre(p), centre(b)))
                            .unwrap()
                    })
                    .unwrap()
            })
            .collect();

        // Equators: the hexagons adjacent to neither of two antipodal pentagons, put in cyclic
        // order by walking from hexagon to adjacent hexagon inside the set.
        let mut equators = Vec::new();
        for (p, &q) in antipode.iter().enumerate() {
            if !is_pent(p) || q < p {
                continue;
            }
            let set: Vec<usize> = (0..nc)
                .filter(|&h| !is_pent(h) && !adj[h].contains(&p) && !adj[h].contains(&q))
                .collect();
            let inside = |h: usize| -> Vec<usize> {
                adj[h].iter().copied().filter(|n| set.contains(n)).collect()
            };
            assert!(
                set.iter().all(|&h| inside(h).len() == 2),
                "an equator is a chain of hexagons"
            );
            let mut cycle = vec![set[0]];
            let mut prev = set[0];
            let mut cur = inside(set[0])[0];
            while cur != set[0] {
                cycle.push(cur);
                let next = inside(cur).into_iter().find(|&n| n != prev).unwrap();
                prev = cur;
                cur = next;
            }
            assert_eq!(cycle.len(), set.len(), "an equator is one closed chain");
            equators.push(cycle);
        }

        let mut r = BallReference {
            chivalrous,
            verts,
            faces,
            adj,
            vertex_faces,
            wizard_nb,
            antipode,
            equators,
            dist,
            rook_rays: Vec::new(),
            bishop_rays: Vec::new(),
            wizard_rays: Vec::new(),
            ring_rays: Vec::new(),
            satellite_rays: Vec::new(),
            knight: Vec::new(),
        };
        r.rook_rays = (0..nc).map(|c| r.make_rook_rays(c)).collect();
        r.bishop_rays = (0..nc).map(|c| r.make_bishop_rays(c)).collect();
        r.wizard_rays = (0..nc).map(|c| r.make_wizard_rays(c)).collect();
        r.ring_rays = (0..nc).map(|c| r.make_ring_rays(c)).collect();
        r.satellite_rays = (0..nc).map(|c| r.make_satellite_rays(c)).collect();
        r.knight = (0..nc)
            .map(|c| {
                (0..nc)
                    .filter(|&t| r.dist[c][t] == 3 && !(r.is_pentagon(c) && r.is_pentagon(t)))
                    .collect()
            })
            .collect();
        r
    }

    // ---- geometry ----

    pub fn cell(&self, name: &str) -> usize {
        NAMES
            .iter()
            .position(|&n| n == name)
            .unwrap_or_else(|| panic!("no cell {name}"))
    }

    pub fn name(&self, cell: usize) -> &str {
        NAMES[cell]
    }

    pub fn cells(&self) -> usize {
        self.faces.len()
    }

    pub fn is_pentagon(&self, c: usize) -> bool {
        self.faces[c].len() == 5
    }

    pub fn pentagons(&self) -> Vec<usize> {
        (0..self.cells()).filter(|&c| self.is_pentagon(c)).collect()
    }

    pub fn hexagons(&self) -> Vec<usize> {
        (0..self.cells())
            .filter(|&c| !self.is_pentagon(c))
            .collect()
    }

    pub fn adjacency(&self) -> &Vec<Vec<usize>> {
        &self.adj
    }

    pub fn equators(&self) -> &Vec<Vec<usize>> {
        &self.equators
    }

    /// The 5 hexagons round each pentagon, in order round it (one ring per pentagon).
    pub fn rings(&self) -> Vec<Vec<usize>> {
        self.pentagons()
            .into_iter()
            .map(|p| self.adj[p].clone())
            .collect()
    }

    /// The maximal rook lines (pentagon, hexagon, hexagon, pentagon), each once.
    pub fn rook_lines(&self) -> Vec<Vec<usize>> {
        let mut seen = BTreeSet::new();
        let mut lines = Vec::new();
        for p in self.pentagons() {
            for ray in &self.rook_rays[p] {
                let mut line = vec![p];
                line.extend(ray);
                let key: BTreeSet<usize> = line.iter().copied().collect();
                if seen.insert(key) {
                    lines.push(line);
                }
            }
        }
        lines
    }

    /// The bishop loops (as sets of hexagons), each once.
    pub fn bishop_loops(&self) -> Vec<BTreeSet<usize>> {
        let mut loops = BTreeSet::new();
        for h in self.hexagons() {
            for ray in &self.bishop_rays[h] {
                let mut s: BTreeSet<usize> = ray.iter().copied().collect();
                s.insert(h);
                loops.insert(s);
            }
        }
        loops.into_iter().collect()
    }

    /// The rays of a riding kind from a cell (empty for leapers and steppers).
    pub fn rays(&self, kind: char, c: usize) -> &Vec<Vec<usize>> {
        match kind {
            'R' => &self.rook_rays[c],
            'B' => &self.bishop_rays[c],
            'W' => &self.wizard_rays[c],
            'M' => &self.ring_rays[c],
            'S' => &self.satellite_rays[c],
            _ => panic!("{kind} does not ride"),
        }
    }

    /// Index of side of `c` that borders `n`.
    fn side_towards(&self, c: usize, n: usize) -> usize {
        self.adj[c]
            .iter()
            .position(|&x| x == n)
            .expect("adjacent cells")
    }

    /// Rook: across a side, then on across the side opposite the entry side (3 round a hexagon);
    /// a pentagon has no opposite side, so a line ends on entering one.
    fn make_rook_rays(&self, start: usize) -> Vec<Vec<usize>> {
        let mut rays = Vec::new();
        for &first in &self.adj[start] {
            let mut ray = Vec::new();
            let (mut prev, mut cur) = (start, first);
            loop {
                if cur == start {
                    break;
                }
                ray.push(cur);
                assert!(ray.len() <= 32, "a rook line does not end");
                if self.is_pentagon(cur) {
                    break;
                }
                let entry = self.side_towards(cur, prev);
                let next = self.adj[cur][(entry + 3) % 6];
                prev = cur;
                cur = next;
            }
            rays.push(ray);
        }
        rays
    }

    /// One bishop step from hexagon `h` through its vertex `v`: at v are h, a pentagon P and a
    /// hexagon H2; the edge of P and H2 runs from v to w; the step lands on the third face at w.
    /// Returns (that face, w).
    fn bishop_step(&self, h: usize, v: usize) -> (usize, usize) {
        let fs = &self.vertex_faces[v];
        let p = *fs
            .iter()
            .find(|&&f| self.is_pentagon(f))
            .expect("a pentagon at every vertex");
        let h2 = *fs
            .iter()
            .find(|&&f| f != h && f != p)
            .expect("a second hexagon");
        let shared: Vec<usize> = self.faces[p]
            .iter()
            .copied()
            .filter(|x| self.faces[h2].contains(x))
            .collect();
        assert_eq!(shared.len(), 2, "P and H2 share an edge");
        let w = if shared[0] == v { shared[1] } else { shared[0] };
        let t = *self.vertex_faces[w]
            .iter()
            .find(|&&f| f != p && f != h2)
            .expect("a third face");
        (t, w)
    }

    /// Bishop (hexagons only): through each of the 6 vertices, then "straight" on through the
    /// vertex opposite (3 round) the one a hexagon was entered through.
    fn make_bishop_rays(&self, start: usize) -> Vec<Vec<usize>> {
        if self.is_pentagon(start) {
            return Vec::new();
        }
        let mut rays = Vec::new();
        for &v0 in &self.faces[start] {
            let mut ray = Vec::new();
            let (mut cur, mut v) = (start, v0);
            loop {
                let (t, w) = self.bishop_step(cur, v);
                assert!(!self.is_pentagon(t), "a bishop step lands on a hexagon");
                if t == start {
                    break;
                }
                ray.push(t);
                assert!(ray.len() <= 32, "a bishop loop does not close");
                let i = self.faces[t].iter().position(|&x| x == w).unwrap();
                v = self.faces[t][(i + 3) % 6];
                cur = t;
            }
            rays.push(ray);
        }
        rays
    }

    /// Wizard (pentagons only): for a wizard-neighbour P2 and each of the two pentagons Q next to
    /// both, round the 5-cycle of Q's wizard-neighbours from P2 away from the start.
    fn make_wizard_rays(&self, start: usize) -> Vec<Vec<usize>> {
        if !self.is_pentagon(start) {
            return Vec::new();
        }
        let mut rays = Vec::new();
        for &p2 in &self.wizard_nb[start] {
            for &q in self.wizard_nb[start]
                .iter()
                .filter(|q| self.wizard_nb[p2].contains(q))
            {
                let link = &self.wizard_nb[q];
                let mut ray = vec![p2];
                let (mut prev, mut cur) = (start, p2);
                loop {
                    let nexts: Vec<usize> = link
                        .iter()
                        .copied()
                        .filter(|&n| self.wizard_nb[cur].contains(&n) && n != prev)
                        .collect();
                    assert_eq!(
                        nexts.len(),
                        1,
                        "the wizard-neighbours of a pentagon form a 5-cycle"
                    );
                    let next = nexts[0];
                    if next == start {
                        break;
                    }
                    ray.push(next);
                    assert!(ray.len() <= 32, "a wizard ring does not close");
                    prev = cur;
                    cur = next;
                }
                rays.push(ray);
            }
        }
        rays
    }

    /// Both ways round a cycle from `start` (which is on it), stopping before coming back.
    fn both_ways(cycle: &[usize], start: usize) -> [Vec<usize>; 2] {
        let n = cycle.len();
        let i = cycle.iter().position(|&x| x == start).unwrap();
        [
            (1..n).map(|k| cycle[(i + k) % n]).collect(),
            (1..n).map(|k| cycle[(i + n - k) % n]).collect(),
        ]
    }

    /// Ringmaster (hexagons only): round the ring of 5 hexagons about each adjacent pentagon.
    fn make_ring_rays(&self, start: usize) -> Vec<Vec<usize>> {
        if self.is_pentagon(start) {
            return Vec::new();
        }
        let mut rays = Vec::new();
        for &q in self.adj[start].iter().filter(|&&q| self.is_pentagon(q)) {
            rays.extend(Self::both_ways(&self.adj[q], start));
        }
        rays
    }

    /// Satellite (hexagons only): round each equator through the cell, both ways.
    fn make_satellite_rays(&self, start: usize) -> Vec<Vec<usize>> {
        if self.is_pentagon(start) {
            return Vec::new();
        }
        let mut rays = Vec::new();
        for e in self.equators.iter().filter(|e| e.contains(&start)) {
            rays.extend(Self::both_ways(e, start));
        }
        rays
    }

    // ---- positions ----

    /// Place pieces freely: (side, top kind, hidden kind, crowned level 0/1/2, cell).
    pub fn position(
        &self,
        pieces: &[(usize, char, Option<char>, u8, &str)],
        in_hand: [bool; 2],
        to_move: usize,
    ) -> BallPosition {
        let mut cells = vec![None; self.cells()];
        for &(side, top, hidden, crowned, name) in pieces {
            assert!(
                side < 2 && KINDS.contains(&top) && hidden.is_none_or(|h| KINDS.contains(&h))
            );
            assert!(
                crowned <= 1 || hidden.is_some(),
                "a crowned hidden piece needs a hidden piece"
            );
            let c = self.cell(name);
            assert!(cells[c].is_none(), "two stacks on {name}");
            cells[c] = Some(Stack {
                side,
                top,
                hidden,
                crowned,
            });
        }
        BallPosition {
            cells,
            in_hand,
            to_move,
        }
    }

    /// The starting position (Kings in hand, white to move).
    pub fn start(&self) -> BallPosition {
        let mut pieces = vec![(0, 'G', Some('W'), 0, "L"), (1, 'G', Some('W'), 0, "A")];
        for (i, k) in ['S', 'B', 'R', 'N', 'M'].into_iter().enumerate() {
            pieces.push((0, 'P', Some(k), 0, ["z0", "z1", "z2", "z3", "z4"][i]));
            pieces.push((1, 'P', Some(k), 0, ["x0", "x1", "x2", "x3", "x4"][i]));
        }
        self.position(&pieces, [true, true], 0)
    }

    /// The cell holding `side`'s crowned piece (top or hidden).
    pub fn royal_cell(&self, p: &BallPosition, side: usize) -> Option<usize> {
        (0..self.cells())
            .find(|&c| matches!(p.cells[c], Some(s) if s.side == side && s.crowned != 0))
    }

    /// Bare: every piece the side has on the board is crowned (its King, in hand or not, is
    /// royal too), i.e. at most its crowned piece is left.
    fn bare(&self, p: &BallPosition, side: usize) -> bool {
        p.cells
            .iter()
            .flatten()
            .filter(|s| s.side == side)
            .all(|s| s.crowned == 1 && s.hidden.is_none())
    }

    pub fn is_over(&self, p: &BallPosition) -> bool {
        self.bare(p, 0) || self.bare(p, 1)
    }

    // ---- movement ----

    /// Where the top piece `kind` on `from` reaches by its (non-pawn) movement rule: rides stop
    /// at the first occupied cell (included, whoever holds it); leaps ignore what is between.
    fn reach(&self, cells: &[Option<Stack>], kind: char, from: usize) -> Vec<Reach> {
        let mut out = Vec::new();
        if kind == 'N' {
            for &t in &self.knight[from] {
                out.push(Reach {
                    to: t,
                    passed: None,
                });
            }
            return out;
        }
        for ray in self.rays(kind, from) {
            for (i, &t) in ray.iter().enumerate() {
                out.push(Reach {
                    to: t,
                    passed: Some(ray[..i].to_vec()),
                });
                if cells[t].is_some() {
                    break;
                }
            }
        }
        out
    }

    /// The cells attacked by `side`'s checking pieces (top pieces of kinds W S B R N M; in the
    /// Chivalrous version not the crowned one).
    fn attacked(&self, cells: &[Option<Stack>], side: usize) -> Vec<bool> {
        let mut att = vec![false; self.cells()];
        for c in 0..self.cells() {
            let Some(s) = cells[c] else { continue };
            if s.side != side || !checking(s.top) || (self.chivalrous && s.crowned == 1) {
                continue;
            }
            for r in self.reach(cells, s.top, c) {
                att[r.to] = true;
            }
        }
        att
    }

    /// Whether `side`'s royal cell is attacked by the other side.
    fn royal_attacked(&self, p: &BallPosition, side: usize) -> bool {
        match self.royal_cell(p, side) {
            Some(rc) => self.attacked(&p.cells, 1 - side)[rc],
            None => false,
        }
    }

    pub fn in_check(&self, p: &BallPosition) -> bool {
        self.royal_attacked(p, p.to_move)
    }

    fn apply(&self, p: &BallPosition, m: Move) -> BallPosition {
        let mut q = p.clone();
        let side = p.to_move;
        match m {
            Move::Crown { cell, level } => {
                let s = q.cells[cell].as_mut().expect("a piece to crown");
                s.crowned = level;
                q.in_hand[side] = false;
            }
            Move::Board { from, to, promote } => {
                let s = q.cells[from].expect("a piece to move");
                // The hidden piece, if any, becomes the top piece of the cell left.
                q.cells[from] = s.hidden.map(|h| Stack {
                    side,
                    top: h,
                    hidden: None,
                    crowned: if s.crowned == 2 { 1 } else { 0 },
                });
                // A capture removes the whole stack.
                q.cells[to] = Some(Stack {
                    side,
                    top: promote.unwrap_or(s.top),
                    hidden: None,
                    crowned: if s.crowned == 1 { 1 } else { 0 },
                });
            }
        }
        q.to_move = 1 - side;
        q
    }

    fn write(&self, p: &BallPosition, m: Move) -> String {
        let _ = p;
        match m {
            Move::Crown { cell, .. } => format!("K@{}", self.name(cell)),
            Move::Board { from, to, promote } => match promote {
                Some(k) => format!("{}-{}={}", self.name(from), self.name(to), k),
                None => format!("{}-{}", self.name(from), self.name(to)),
            },
        }
    }

    /// Board moves of the side to move, before the check test, with for the crowned piece's
    /// rides whether some ride to the destination passes only unattacked cells.
    fn board_moves(&self, p: &BallPosition) -> Vec<Move> {
        let side = p.to_move;
        let enemy_royal = self.royal_cell(p, 1 - side);
        let mut out = Vec::new();
        for from in 0..self.cells() {
            let Some(s) = p.cells[from] else { continue };
            if s.side != side {
                continue;
            }
            let empty = |c: usize| p.cells[c].is_none();
            let enemy = |c: usize| matches!(p.cells[c], Some(t) if t.side != side);
            match s.top {
                'P' => {
                    for &n in &self.adj[from] {
                        if !self.is_pentagon(n) && empty(n) {
                            out.push(Move::Board {
                                from,
                                to: n,
                                promote: None,
                            });
                        }
                        if self.is_pentagon(n) && enemy(n) && Some(n) != enemy_royal {
                            out.push(Move::Board {
                                from,
                                to: n,
                                promote: Some('G'),
                            });
                        }
                    }
                }
                'G' => {
                    for &n in &self.wizard_nb[from] {
                        if empty(n) {
                            out.push(Move::Board {
                                from,
                                to: n,
                                promote: None,
                            });
                        }
                    }
                    for &n in &self.adj[from] {
                        if !self.is_pentagon(n) && enemy(n) && Some(n) != enemy_royal {
                            out.push(Move::Board {
                                from,
                                to: n,
                                promote: Some('P'),
                            });
                        }
                    }
                }
                kind => {
                    let royal_mover = s.crowned == 1;
                    // The crowned piece's rides: the cells passed must be unattacked with the
                    // piece lifted off its start cell.
                    let lifted_attacks = if royal_mover {
                        let mut cells = p.cells.clone();
                        cells[from] = s.hidden.map(|h| Stack {
                            side,
                            top: h,
                            hidden: None,
                            crowned: 0,
                        });
                        Some(self.attacked(&cells, 1 - side))
                    } else {
                        None
                    };
                    let mut ok: BTreeMap<usize, bool> = BTreeMap::new();
                    for r in self.reach(&p.cells, kind, from) {
                        if !(empty(r.to) || enemy(r.to)) {
                            continue;
                        }
                        if royal_mover && self.chivalrous && Some(r.to) == enemy_royal {
                            continue;
                        }
                        let safe = match (&lifted_attacks, &r.passed) {
                            (Some(att), Some(passed)) => passed.iter().all(|&c| !att[c]),
                            _ => true,
                        };
                        *ok.entry(r.to).or_insert(false) |= safe;
                    }
                    for (to, safe) in ok {
                        if safe {
                            out.push(Move::Board {
                                from,
                                to,
                                promote: None,
                            });
                        }
                    }
                }
            }
        }
        out
    }

    /// Legal moves with their strings, deduplicated and sorted by string.
    fn legal(&self, p: &BallPosition) -> Vec<(String, Move)> {
        if self.is_over(p) {
            return Vec::new();
        }
        let side = p.to_move;
        let mut cands = Vec::new();
        if p.in_hand[side] {
            for c in 0..self.cells() {
                let Some(s) = p.cells[c] else { continue };
                if s.side != side {
                    continue;
                }
                if CROWNABLE.contains(&s.top) {
                    cands.push(Move::Crown { cell: c, level: 1 });
                }
                if s.hidden.is_some_and(|h| CROWNABLE.contains(&h)) {
                    cands.push(Move::Crown { cell: c, level: 2 });
                }
            }
        } else {
            cands = self.board_moves(p);
        }
        let mut out: BTreeMap<String, Move> = BTreeMap::new();
        for m in cands {
            let q = self.apply(p, m);
            if !self.royal_attacked(&q, side) {
                out.entry(self.write(p, m)).or_insert(m);
            }
        }
        out.into_iter().collect()
    }

    pub fn legal_moves(&self, p: &BallPosition) -> Vec<String> {
        self.legal(p).into_iter().map(|(s, _)| s).collect()
    }

    pub fn play(&self, p: &BallPosition, mv: &str) -> BallPosition {
        let legal = self.legal(p);
        match legal.iter().find(|(s, _)| s == mv) {
            Some(&(_, m)) => self.apply(p, m),
            None => panic!(
                "illegal move {mv}; legal: {:?}",
                legal.iter().map(|(s, _)| s).collect::<Vec<_>>()
            ),
        }
    }

    pub fn perft(&self, p: &BallPosition, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal(p);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|(_, m)| self.perft(&self.apply(p, m), depth - 1))
            .sum()
    }

    /// Empty board but for one white piece of `kind` (uncrowned) on `cell`: its destination
    /// cells, sorted names.
    pub fn lone_destinations(&self, kind: char, cell: &str) -> Vec<String> {
        let p = self.position(&[(0, kind, None, 0, cell)], [false, false], 0);
        let mut names: Vec<String> = self
            .board_moves(&p)
            .into_iter()
            .map(|m| match m {
                Move::Board { to, .. } => self.name(to).to_string(),
                Move::Crown { .. } => unreachable!(),
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        names.sort();
        names
    }
}
