//! A slow, independent reference move generator for Webball (JR Schmidt, the Chess Variant
//! Pages), written straight from the dodecahedron so that the orbis engine can be compared
//! against it. Nothing here uses an orbis crate (std only); tests/webball_reference.rs is its
//! self-test.
//!
//! Every cell is built as a polygon seen from outside the globe: its sides counterclockwise (the
//! orthogonal neighbours, or the void) and the cell touching each corner (the diagonal
//! neighbours). Both adjacencies and the Knight are read off those polygons; the Ringer's lines
//! are the rings and spine circles of the voids.
#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap, VecDeque};

/// The 12 voids: label and corner nodes, counterclockwise seen from outside the globe (as in
/// examples/boards/webball.orbis): three round N, three `?` and three `$` round the equator, three
/// round S.
pub const VOIDS: [(char, &str); 12] = [
    ('*', "NACED"),
    ('#', "NDFKJ"),
    ('+', "NJLBA"),
    ('?', "DEYWF"),
    ('?', "JKVRL"),
    ('?', "ABQZC"),
    ('$', "WUVKF"),
    ('$', "ZXYEC"),
    ('$', "BLRPQ"),
    ('*', "PRVUS"),
    ('#', "UWYXS"),
    ('+', "SXZQP"),
];

/// The 20 node letters; node cells are numbered in this order.
pub const NODES: &str = "NABCDEFJKLPQRSUVWXYZ";

/// The piece kinds: King, Ringer, Mega-ringer, Knight, Pawn.
pub const KINDS: [char; 5] = ['K', 'R', 'M', 'N', 'P'];

/// What a pawn may become (player's choice).
const PROMOTIONS: [char; 3] = ['R', 'M', 'N'];

/// The four shapes of square.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    /// A hexagonal node square.
    Node,
    /// A spine square between two nodes.
    Connector,
    /// A ring square beside a node (`N*`).
    NodeRing,
    /// A ring square beside a connector (`NA*`).
    EdgeRing,
}

/// A cell as a polygon seen from outside: `sides` counterclockwise, `corners[i]` the cell that
/// touches it only at the corner between `sides[i]` and `sides[i + 1]`; `None` is the void.
#[derive(Clone, Debug)]
pub struct Cell {
    pub name: String,
    pub shape: Shape,
    pub sides: Vec<Option<usize>>,
    pub corners: Vec<Option<usize>>,
}

/// A position: per cell `Some((side, kind))` (side 0 White, 1 Black), and the side to move.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct WebPosition {
    pub board: Vec<Option<(usize, char)>>,
    pub to_move: usize,
}

/// An internal move: from, to, promotion kind.
type Mv = (usize, usize, Option<char>);

/// The board and every precomputed line; positions are separate values.
pub struct WebballReference {
    cells: Vec<Cell>,
    index: HashMap<String, usize>,
    orth: Vec<Vec<usize>>,
    diag: Vec<Vec<usize>>,
    /// King steps: orthogonal and diagonal neighbours.
    king: Vec<Vec<usize>>,
    /// Knight landing squares (one orthogonal step, then a diagonal step outward).
    knight: Vec<Vec<usize>>,
    /// Ringer one-step lateral moves (spine <-> ring).
    lateral: Vec<Vec<usize>>,
    /// Ringer two-step lateral move from an edge-ring square: (connector crossed, landing).
    jump: Vec<Option<(usize, usize)>>,
    /// Ring rides from a ring square: both ways round its ring, 9 squares each.
    ring_rays: Vec<Vec<Vec<usize>>>,
    /// Spine rides from a spine square: both ways round each spine circle through it, 9 each.
    spine_rays: Vec<Vec<Vec<usize>>>,
    /// Spine adjacency (node <-> its connectors), the Mega-ringer's winding graph.
    spine_adj: Vec<Vec<usize>>,
    /// The 12 rings (10 squares each, in cyclic order) and spine circles, in `VOIDS` order.
    rings: Vec<Vec<usize>>,
    spines: Vec<Vec<usize>>,
    /// Per side, whether a pawn of that side promotes on arriving at the cell.
    promo: [Vec<bool>; 2],
}

impl Default for WebballReference {
    fn default() -> Self {
        Self::new()
    }
}

/// The page's connector name: N always first, S always last, otherwise alphabetical.
pub fn connector_name(a: char, b: char) -> String {
    let (x, y) = if a == 'N' || b == 'S' {
        (a, b)
    } else if b == 'N' || a == 'S' {
        (b, a)
    } else if a < b {
        (a, b)
    } else {
        (b, a)
    };
    format!("{x}{y}")
}

impl WebballReference {
    pub fn new() -> Self {
        let letters: Vec<char> = NODES.chars().collect();
        let node_of = |ch: char| letters.iter().position(|&l| l == ch).unwrap();
        let faces: Vec<(char, Vec<usize>)> = VOIDS
            .iter()
            .map(|&(l, s)| (l, s.chars().map(node_of).collect()))
            .collect();

        // Directed edge x->y to the face that has it on its counterclockwise boundary; on a
        // consistently oriented closed surface every edge is used once each way.
        let mut dface: HashMap<(usize, usize), usize> = HashMap::new();
        // (node, successor in a face) -> (predecessor, face): rotating counterclockwise round
        // the node from the edge to the successor sweeps the face and reaches the predecessor.
        let mut rot: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
        for (f, (_, ns)) in faces.iter().enumerate() {
            for i in 0..5 {
                let (p, x, q) = (ns[(i + 4) % 5], ns[i], ns[(i + 1) % 5]);
                assert!(dface.insert((x, q), f).is_none(), "edge used twice one way");
                assert!(rot.insert((x, q), (p, f)).is_none());
            }
        }
        for &(x, y) in dface.keys() {
            assert!(
                dface.contains_key(&(y, x)),
                "globe not consistently oriented"
            );
        }
        assert_eq!(dface.len(), 60, "30 edges");

        let mut cells: Vec<Cell> = Vec::new();
        let push = |cells: &mut Vec<Cell>, name: String, shape: Shape| {
            cells.push(Cell {
                name,
                shape,
                sides: vec![],
                corners: vec![],
            });
            cells.len() - 1
        };
        for &l in &letters {
            push(&mut cells, l.to_string(), Shape::Node);
        }
        let mut conn: HashMap<(usize, usize), usize> = HashMap::new();
        let mut edges: Vec<(usize, usize)> = Vec::new();
        for (_, ns) in &faces {
            for i in 0..5 {
                let (x, y) = (ns[i], ns[(i + 1) % 5]);
                if !conn.contains_key(&(x, y)) {
                    let c = push(
                        &mut cells,
                        connector_name(letters[x], letters[y]),
                        Shape::Connector,
                    );
                    conn.insert((x, y), c);
                    conn.insert((y, x), c);
                    edges.push((x, y));
                }
            }
        }
        let mut nring: HashMap<(usize, usize), usize> = HashMap::new();
        let mut ering: HashMap<(usize, usize, usize), usize> = HashMap::new();
        for (f, (label, ns)) in faces.iter().enumerate() {
            for i in 0..5 {
                let (x, y) = (ns[i], ns[(i + 1) % 5]);
                let c = push(
                    &mut cells,
                    format!("{}{label}", letters[x]),
                    Shape::NodeRing,
                );
                nring.insert((x, f), c);
                let name = format!("{}{label}", cells[conn[&(x, y)]].name);
                let c = push(&mut cells, name, Shape::EdgeRing);
                ering.insert((x, y, f), c);
                ering.insert((y, x, f), c);
            }
        }
        let n = cells.len();
        assert_eq!(n, 170);

        // Node X: counterclockwise XY1, Xf1, XY2, Xf2, XY3, Xf3 with f_i the void between XY_i and
        // XY_{i+1}; the corner between XY_i and Xf_i is XY_i f_i, between Xf_i and XY_{i+1} is
        // XY_{i+1} f_i.
        for x in 0..letters.len() {
            let first = *rot
                .keys()
                .filter(|k| k.0 == x)
                .map(|(_, q)| q)
                .min()
                .unwrap();
            let mut cur = first;
            let (mut sides, mut corners) = (vec![], vec![]);
            for _ in 0..3 {
                let (next, f) = rot[&(x, cur)];
                sides.push(Some(conn[&(x, cur)]));
                sides.push(Some(nring[&(x, f)]));
                corners.push(Some(ering[&(x, cur, f)]));
                corners.push(Some(ering[&(x, next, f)]));
                cur = next;
            }
            assert_eq!(cur, first, "a node has 3 edges");
            cells[x].sides = sides;
            cells[x].corners = corners;
        }
        // Connector XY, v the void left of X->Y, w the void right of it: with X to the west,
        // counterclockwise the sides are X, XYw (south), Y, XYv (north).
        for &(x, y) in &edges {
            let (v, w) = (dface[&(x, y)], dface[&(y, x)]);
            let c = conn[&(x, y)];
            cells[c].sides = vec![
                Some(x),
                Some(ering[&(x, y, w)]),
                Some(y),
                Some(ering[&(x, y, v)]),
            ];
            cells[c].corners = vec![
                Some(nring[&(x, w)]),
                Some(nring[&(y, w)]),
                Some(nring[&(y, v)]),
                Some(nring[&(x, v)]),
            ];
        }
        for (f, (_, ns)) in faces.iter().enumerate() {
            for i in 0..5 {
                let (p, x, q) = (ns[(i + 4) % 5], ns[i], ns[(i + 1) % 5]);
                // Node-ring Xf with the node to the south and the void to the north: the face
                // runs p -> x -> q counterclockwise, so q is to the east and p to the west.
                let c = nring[&(x, f)];
                cells[c].sides = vec![
                    Some(x),
                    Some(ering[&(x, q, f)]),
                    None,
                    Some(ering[&(x, p, f)]),
                ];
                cells[c].corners = vec![Some(conn[&(x, q)]), None, None, Some(conn[&(x, p)])];
                // Edge-ring (xq)f, the void (left of x->q) to the north, x west, q east.
                let c = ering[&(x, q, f)];
                cells[c].sides = vec![
                    Some(conn[&(x, q)]),
                    Some(nring[&(q, f)]),
                    None,
                    Some(nring[&(x, f)]),
                ];
                cells[c].corners = vec![Some(q), None, None, Some(x)];
            }
        }

        let index: HashMap<String, usize> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.clone(), i))
            .collect();
        assert_eq!(index.len(), n, "names are unique");

        let orth: Vec<Vec<usize>> = cells
            .iter()
            .map(|c| c.sides.iter().flatten().copied().collect())
            .collect();
        let diag: Vec<Vec<usize>> = cells
            .iter()
            .map(|c| c.corners.iter().flatten().copied().collect())
            .collect();
        let king: Vec<Vec<usize>> = (0..n)
            .map(|c| orth[c].iter().chain(&diag[c]).copied().collect())
            .collect();

        // Knight: enter Y through side s, leave through a corner of the side opposite s.
        let mut knight = vec![vec![]; n];
        for (a, dests) in knight.iter_mut().enumerate() {
            let mut set = BTreeSet::new();
            for y in orth[a].iter().copied() {
                let cy = &cells[y];
                let k = cy.sides.len();
                let s = cy.sides.iter().position(|&t| t == Some(a)).unwrap();
                let opp = (s + k / 2) % k;
                for t in [cy.corners[(opp + k - 1) % k], cy.corners[opp]]
                    .into_iter()
                    .flatten()
                {
                    if t != a {
                        set.insert(t);
                    }
                }
            }
            *dests = set.into_iter().collect();
        }

        let mut rings = vec![];
        let mut spines = vec![];
        for (f, (_, ns)) in faces.iter().enumerate() {
            let (mut ring, mut spine) = (vec![], vec![]);
            for i in 0..5 {
                let (x, y) = (ns[i], ns[(i + 1) % 5]);
                ring.push(nring[&(x, f)]);
                ring.push(ering[&(x, y, f)]);
                spine.push(x);
                spine.push(conn[&(x, y)]);
            }
            rings.push(ring);
            spines.push(spine);
        }
        // Both ways round a 10-cycle from position i, 9 squares each (never back to the start).
        let rays_round = |cycle: &[usize], i: usize| -> [Vec<usize>; 2] {
            [
                (1..10).map(|d| cycle[(i + d) % 10]).collect(),
                (1..10).map(|d| cycle[(i + 10 - d) % 10]).collect(),
            ]
        };
        let mut ring_rays = vec![vec![]; n];
        for ring in &rings {
            for (i, &c) in ring.iter().enumerate() {
                ring_rays[c].extend(rays_round(ring, i));
            }
        }
        let mut spine_rays = vec![vec![]; n];
        for spine in &spines {
            for (i, &c) in spine.iter().enumerate() {
                spine_rays[c].extend(rays_round(spine, i));
            }
        }

        let mut lateral = vec![vec![]; n];
        let mut jump = vec![None; n];
        let mut spine_adj = vec![vec![]; n];
        for c in 0..n {
            match cells[c].shape {
                Shape::Node => {
                    lateral[c] = orth[c]
                        .iter()
                        .copied()
                        .filter(|&t| cells[t].shape == Shape::NodeRing)
                        .collect();
                    spine_adj[c] = orth[c]
                        .iter()
                        .copied()
                        .filter(|&t| cells[t].shape == Shape::Connector)
                        .collect();
                }
                Shape::Connector => {
                    lateral[c] = orth[c]
                        .iter()
                        .copied()
                        .filter(|&t| cells[t].shape == Shape::EdgeRing)
                        .collect();
                    spine_adj[c] = orth[c]
                        .iter()
                        .copied()
                        .filter(|&t| cells[t].shape == Shape::Node)
                        .collect();
                }
                Shape::NodeRing => {
                    lateral[c] = orth[c]
                        .iter()
                        .copied()
                        .filter(|&t| cells[t].shape == Shape::Node)
                        .collect();
                }
                Shape::EdgeRing => {
                    let over = cells[c].sides[0].unwrap();
                    lateral[c] = vec![over];
                    let other = orth[over]
                        .iter()
                        .copied()
                        .find(|&t| cells[t].shape == Shape::EdgeRing && t != c)
                        .unwrap();
                    jump[c] = Some((over, other));
                }
            }
        }

        let promo = [
            (0..n)
                .map(|c| ["A", "D", "J"].contains(&cells[c].name.as_str()))
                .collect(),
            (0..n)
                .map(|c| ["P", "U", "X"].contains(&cells[c].name.as_str()))
                .collect(),
        ];

        WebballReference {
            cells,
            index,
            orth,
            diag,
            king,
            knight,
            lateral,
            jump,
            ring_rays,
            spine_rays,
            spine_adj,
            rings,
            spines,
            promo,
        }
    }

    pub fn cell(&self, name: &str) -> usize {
        *self
            .index
            .get(name)
            .unwrap_or_else(|| panic!("no square {name}"))
    }

    pub fn name(&self, c: usize) -> &str {
        &self.cells[c].name
    }

    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    pub fn shape(&self, c: usize) -> Shape {
        self.cells[c].shape
    }

    /// The polygon of a cell (sides and corners, counterclockwise from outside).
    pub fn polygon(&self, c: usize) -> &Cell {
        &self.cells[c]
    }

    pub fn orthogonal(&self, c: usize) -> Vec<usize> {
        self.orth[c].clone()
    }

    pub fn diagonal(&self, c: usize) -> Vec<usize> {
        self.diag[c].clone()
    }

    pub fn knight(&self, c: usize) -> Vec<usize> {
        self.knight[c].clone()
    }

    pub fn rings(&self) -> &[Vec<usize>] {
        &self.rings
    }

    pub fn spines(&self) -> &[Vec<usize>] {
        &self.spines
    }

    /// Free placement: (side 0 white / 1 black, kind, cell name), and the side to move.
    pub fn position(&self, pieces: &[(usize, char, &str)], to_move: usize) -> WebPosition {
        let mut board = vec![None; self.cells()];
        for &(side, kind, name) in pieces {
            assert!(side < 2 && KINDS.contains(&kind), "bad piece {side} {kind}");
            let c = self.cell(name);
            assert!(board[c].is_none(), "{name} placed twice");
            board[c] = Some((side, kind));
        }
        WebPosition { board, to_move }
    }

    /// The page's setup, with XS+ for its misprinted XS*; White moves first.
    pub fn start(&self) -> WebPosition {
        let white: [(char, &str); 22] = [
            ('K', "S"),
            ('R', "PS*"),
            ('R', "PS+"),
            ('R', "US*"),
            ('R', "US#"),
            ('R', "XS#"),
            ('R', "XS+"),
            ('M', "S*"),
            ('M', "S#"),
            ('M', "S+"),
            ('N', "PS"),
            ('N', "US"),
            ('N', "XS"),
            ('P', "P"),
            ('P', "P*"),
            ('P', "P+"),
            ('P', "U"),
            ('P', "U*"),
            ('P', "U#"),
            ('P', "X"),
            ('P', "X#"),
            ('P', "X+"),
        ];
        let black: [(char, &str); 22] = [
            ('K', "N"),
            ('R', "NJ#"),
            ('R', "NJ+"),
            ('R', "ND*"),
            ('R', "ND#"),
            ('R', "NA*"),
            ('R', "NA+"),
            ('M', "N*"),
            ('M', "N#"),
            ('M', "N+"),
            ('N', "NA"),
            ('N', "ND"),
            ('N', "NJ"),
            ('P', "A"),
            ('P', "A*"),
            ('P', "A+"),
            ('P', "D"),
            ('P', "D*"),
            ('P', "D#"),
            ('P', "J"),
            ('P', "J#"),
            ('P', "J+"),
        ];
        let pieces: Vec<(usize, char, &str)> = white
            .iter()
            .map(|&(k, s)| (0, k, s))
            .chain(black.iter().map(|&(k, s)| (1, k, s)))
            .collect();
        self.position(&pieces, 0)
    }

    /// Slide along a ray: empty squares, then the first enemy; stop at anything.
    fn ride(
        &self,
        b: &[Option<(usize, char)>],
        side: usize,
        ray: &[usize],
        from: usize,
        out: &mut Vec<Mv>,
    ) {
        for &t in ray {
            match b[t] {
                None => out.push((from, t, None)),
                Some((s, _)) => {
                    if s != side {
                        out.push((from, t, None));
                    }
                    break;
                }
            }
        }
    }

    /// Every pseudo-legal move of the piece on `from` (duplicates possible), whoever is to move.
    fn piece_moves(&self, b: &[Option<(usize, char)>], from: usize, out: &mut Vec<Mv>) {
        let (side, kind) = b[from].expect("a piece");
        let free = |t: usize| b[t].is_none_or(|(s, _)| s != side);
        match kind {
            'K' => {
                for &t in &self.king[from] {
                    if free(t) {
                        out.push((from, t, None));
                    }
                }
            }
            'N' => {
                for &t in &self.knight[from] {
                    if free(t) {
                        out.push((from, t, None));
                    }
                }
            }
            'P' => {
                let mut add = |t: usize| {
                    if self.promo[side][t] {
                        for k in PROMOTIONS {
                            out.push((from, t, Some(k)));
                        }
                    } else {
                        out.push((from, t, None));
                    }
                };
                for &t in &self.orth[from] {
                    if b[t].is_none() {
                        add(t);
                    }
                }
                for &t in &self.diag[from] {
                    if matches!(b[t], Some((s, _)) if s != side) {
                        add(t);
                    }
                }
            }
            'R' | 'M' => {
                for &t in &self.lateral[from] {
                    if free(t) {
                        out.push((from, t, None));
                    }
                }
                if let Some((over, t)) = self.jump[from] {
                    if b[over].is_none() && free(t) {
                        out.push((from, t, None));
                    }
                }
                for ray in &self.ring_rays[from] {
                    self.ride(b, side, ray, from, out);
                }
                if kind == 'R' {
                    for ray in &self.spine_rays[from] {
                        self.ride(b, side, ray, from, out);
                    }
                } else if !self.spine_adj[from].is_empty() {
                    // Winding: flood through empty spine squares; capture enemies next to the
                    // start or to any square reached.
                    let mut seen = vec![false; b.len()];
                    seen[from] = true;
                    let mut queue = VecDeque::from([from]);
                    while let Some(c) = queue.pop_front() {
                        for &t in &self.spine_adj[c] {
                            if seen[t] {
                                continue;
                            }
                            match b[t] {
                                None => {
                                    seen[t] = true;
                                    out.push((from, t, None));
                                    queue.push_back(t);
                                }
                                Some((s, _)) => {
                                    if s != side {
                                        seen[t] = true;
                                        out.push((from, t, None));
                                    }
                                }
                            }
                        }
                    }
                }
            }
            _ => unreachable!("kind {kind}"),
        }
    }

    /// Whether a piece of side `by` could capture onto `sq` (found by generating its moves).
    fn attacked(&self, b: &[Option<(usize, char)>], sq: usize, by: usize) -> bool {
        let mut buf = Vec::new();
        for c in 0..b.len() {
            if matches!(b[c], Some((s, _)) if s == by) {
                buf.clear();
                self.piece_moves(b, c, &mut buf);
                if buf.iter().any(|m| m.1 == sq) {
                    return true;
                }
            }
        }
        false
    }

    fn king_of(&self, b: &[Option<(usize, char)>], side: usize) -> Option<usize> {
        b.iter().position(|&p| p == Some((side, 'K')))
    }

    /// Whether the side to move's King is attacked (false without a King).
    pub fn in_check(&self, p: &WebPosition) -> bool {
        match self.king_of(&p.board, p.to_move) {
            Some(k) => self.attacked(&p.board, k, 1 - p.to_move),
            None => false,
        }
    }

    fn apply(&self, p: &WebPosition, m: Mv) -> WebPosition {
        let mut board = p.board.clone();
        let (side, kind) = board[m.0].take().unwrap();
        board[m.1] = Some((side, m.2.unwrap_or(kind)));
        WebPosition {
            board,
            to_move: 1 - p.to_move,
        }
    }

    /// Legal moves, deduplicated by (from, to, promotion).
    fn legal(&self, p: &WebPosition) -> Vec<Mv> {
        let mut moves = Vec::new();
        for c in 0..p.board.len() {
            if matches!(p.board[c], Some((s, _)) if s == p.to_move) {
                self.piece_moves(&p.board, c, &mut moves);
            }
        }
        moves.sort();
        moves.dedup();
        moves.retain(|&m| {
            let q = self.apply(p, m);
            match self.king_of(&q.board, p.to_move) {
                Some(k) => !self.attacked(&q.board, k, q.to_move),
                None => true,
            }
        });
        moves
    }

    fn move_name(&self, m: Mv) -> String {
        match m.2 {
            Some(k) => format!("{}-{}={k}", self.name(m.0), self.name(m.1)),
            None => format!("{}-{}", self.name(m.0), self.name(m.1)),
        }
    }

    /// Sorted legal moves, "from-to" or "from-to=X".
    pub fn legal_moves(&self, p: &WebPosition) -> Vec<String> {
        let mut v: Vec<String> = self
            .legal(p)
            .into_iter()
            .map(|m| self.move_name(m))
            .collect();
        v.sort();
        v
    }

    /// Plays a legal move given by name (panics if it is not legal).
    pub fn play(&self, p: &WebPosition, mv: &str) -> WebPosition {
        let m = self
            .legal(p)
            .into_iter()
            .find(|&m| self.move_name(m) == mv)
            .unwrap_or_else(|| panic!("{mv} is not legal"));
        self.apply(p, m)
    }

    pub fn perft(&self, p: &WebPosition, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal(p);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| self.perft(&self.apply(p, m), depth - 1))
            .sum()
    }

    /// A lone white piece of `kind` on `cell` on an empty board: its destinations, sorted names.
    pub fn lone_destinations(&self, kind: char, cell: &str) -> Vec<String> {
        let p = self.position(&[(0, kind, cell)], 0);
        let mut moves = Vec::new();
        self.piece_moves(&p.board, self.cell(cell), &mut moves);
        let set: BTreeSet<String> = moves.iter().map(|m| self.name(m.1).to_string()).collect();
        set.into_iter().collect()
    }
}
