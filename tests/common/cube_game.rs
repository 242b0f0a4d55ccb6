//! The two-player games of the Cube-Surface Chess reference, on the lattice of
//! [`super::cube_reference`]: the pieces, moves and positions, the pawns, promotion, castling and
//! the setups of the 8x8 and 5x5 games as described in the test brief (tests/cube_games.rs), move
//! generation and perft, and the [`Reference`] trait the tests drive these and the four-player
//! game (tests/common/cube_four.rs) through. Kept apart from the lattice, so that the rules of
//! play and the cube's geometry each read on their own.
#![allow(dead_code)]

use super::cube_reference::{add, axis, scale, unit, Cube, KnightDef, P};
use std::collections::{BTreeMap, BTreeSet};

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

/// Plays `mv` on `board` and `virgin` (the piece moved or promoted, the victim of en passant
/// taken, the rook of castling moved), as every game of the reference does; returns the
/// en-passant cell and pawn it leaves, if any.
pub fn move_pieces(board: &mut [Option<(u8, u8)>], virgin: &mut [bool], mv: Move) -> Option<(usize, usize)> {
    let piece = board[mv.from].take().expect("a piece to move");
    virgin[mv.from] = false;
    virgin[mv.to] = false;
    match mv.kind {
        Kind::EnPassant(victim) => {
            board[victim] = None;
            virgin[victim] = false;
        }
        Kind::Castle(rf, rt) => {
            let rook = board[rf].take().expect("a rook");
            virgin[rf] = false;
            board[rt] = Some(rook);
        }
        _ => {}
    }
    board[mv.to] = Some(match mv.promotion {
        Some(k) => (piece.0, k),
        None => piece,
    });
    match mv.kind {
        Kind::Double(passed) => Some((passed, mv.to)),
        _ => None,
    }
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
        p.ep = move_pieces(&mut p.board, &mut p.virgin, mv);
        p.turn = 1 - p.turn;
        p
    }

    pub fn legal_moves(&self, pos: &Pos) -> Vec<Move> {
        let mut moves: Vec<Move> = self.pseudo_moves(pos).into_iter().filter(|&mv| !self.in_check(&self.make(pos, mv), pos.turn)).collect();
        moves.sort();
        moves.dedup();
        moves
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
    fn key(&self, mv: Move) -> String;

    /// Leaf counts from `pos`, by playing every legal move (the same for both games).
    fn perft(&self, pos: &Self::Pos, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves(pos);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&mv| self.perft(&self.make(pos, mv), depth - 1)).sum()
    }

    /// Leaf counts per move, by [`Reference::key`].
    fn divide(&self, pos: &Self::Pos, depth: usize) -> BTreeMap<String, u64> {
        self.legal_moves(pos).into_iter().map(|mv| (self.key(mv), self.perft(&self.make(pos, mv), depth - 1))).collect()
    }
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
    fn key(&self, mv: Move) -> String {
        Game::key(self, mv)
    }
}
