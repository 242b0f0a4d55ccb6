//! The four-player 8x8 Cube-Surface Chess (examples/cube/cube-8x8-four-player.orbis) on the lattice
//! reference of [`super::cube_reference`]: White's setup turned round the x axis for Red, Black and
//! Blue; pawn directions from the breadth-first orthogonal distance to the side's home edge; check
//! by any opponent, kings never captured, sides without a move out while three or more play (their
//! pieces removed, the en-passant right passed to the next side to move).

#![allow(dead_code)]

use super::cube_game::*;
use super::cube_reference::*;
use std::collections::BTreeSet;


pub const SIDES4: [&str; 4] = ["white", "red", "black", "blue"];

/// The quarter turn round the x axis that takes each side's home edge to the next side's: White
/// (x,7,7) -> Red (x,0,7) -> Black (x,0,0) -> Blue (x,7,0) -> White.
pub fn quarter(p: P) -> P {
    [p[0], 7 - p[2], p[1]]
}

/// A position of the four-player game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos4 {
    pub board: Vec<Option<(u8, u8)>>,
    pub virgin: Vec<bool>,
    /// The cell passed by a double step just played, and the pawn that made it (for the next side
    /// to move only: any move clears it).
    pub ep: Option<(usize, usize)>,
    pub turn: u8,
    /// The sides out of the game (their pieces removed).
    pub out: [bool; 4],
}

pub struct FourGame {
    /// The two-player 8x8 game for its lines, king and knight (OrthDiag) tables.
    pub base: Game,
    /// Per side, the fewest orthogonal steps from its home edge.
    pub dist: [Vec<usize>; 4],
    pushes: [Vec<Vec<usize>>; 4],
    doubles: [Vec<Vec<(usize, usize)>>; 4],
    captures: [Vec<Vec<usize>>; 4],
    zone: [Vec<bool>; 4],
    /// Counts of eliminations made by `make` (for the tests: elimination happened).
    pub eliminations: std::cell::Cell<u64>,
}

impl FourGame {
    pub fn new() -> FourGame {
        let base = Game::eight(KnightDef::OrthDiag);
        let cube = &base.cube;
        let n = cube.cells.len();
        let mut home: [P; 8] = std::array::from_fn(|x| [x as i32, 7, 7]);
        let mut dist: [Vec<usize>; 4] = Default::default();
        let mut pushes: [Vec<Vec<usize>>; 4] = Default::default();
        let mut doubles: [Vec<Vec<(usize, usize)>>; 4] = Default::default();
        let mut captures: [Vec<Vec<usize>>; 4] = Default::default();
        let mut zone: [Vec<bool>; 4] = Default::default();
        let mut homes: Vec<Vec<P>> = Vec::new();
        for side in 0..4 {
            homes.push(home.to_vec());
            for h in home.iter_mut() {
                *h = quarter(*h);
            }
            // Breadth-first distance along orthogonal steps from the home edge.
            let mut d = vec![usize::MAX; n];
            let mut frontier: Vec<P> = homes[side].clone();
            for &h in &frontier {
                d[cube.id(h)] = 0;
            }
            let mut k = 0;
            while !frontier.is_empty() {
                k += 1;
                let mut next = Vec::new();
                for p in frontier {
                    for q in cube.orth_neighbours(p) {
                        if d[cube.id(q)] == usize::MAX {
                            d[cube.id(q)] = k;
                            next.push(q);
                        }
                    }
                }
                frontier = next;
            }
            assert!(d.iter().all(|&x| x != usize::MAX));
            dist[side] = d;
        }
        for side in 0..4 {
            let d = &dist[side];
            let far: Vec<usize> = homes[(side + 2) % 4].iter().map(|&p| cube.id(p)).collect();
            for c in 0..n {
                let p = cube.cells[c];
                let push: Vec<usize> = cube.orth_neighbours(p).into_iter().map(|q| cube.id(q)).filter(|&q| d[q] > d[c]).collect();
                // The double step: a forward step, then straight on (the lattice line, from the
                // setup cells never across an edge nor onto a vertex).
                let mut double = Vec::new();
                for &mid in &push {
                    let pm = cube.cells[mid];
                    let to = add(pm, sub(pm, p));
                    if !cube.is_vertex(pm) && cube.on_surface(to) {
                        double.push((mid, cube.id(to)));
                    }
                }
                let cands: Vec<usize> = cube.diag_neighbours(p).into_iter().map(|q| cube.id(q)).filter(|&q| d[q] > d[c]).collect();
                let best = cands.iter().map(|&q| d[q]).max();
                let capture: Vec<usize> = cands.iter().copied().filter(|&q| Some(d[q]) == best).collect();
                pushes[side].push(push);
                doubles[side].push(double);
                captures[side].push(capture);
                zone[side].push(far.contains(&c));
            }
        }
        FourGame { base, dist, pushes, doubles, captures, zone, eliminations: std::cell::Cell::new(0) }
    }

    pub fn cube(&self) -> &Cube {
        &self.base.cube
    }

    /// The side's home edge cell at `x` (castling).
    fn home_cell(&self, side: u8, x: i32) -> usize {
        let mut p = [x, 7, 7];
        for _ in 0..side {
            p = quarter(p);
        }
        self.cube().id(p)
    }

    /// A pawn's one-step moves, double-step destinations and captures from cell `c`.
    pub fn pawn_targets(&self, side: usize, c: usize) -> [BTreeSet<usize>; 3] {
        [
            self.pushes[side][c].iter().copied().collect(),
            self.doubles[side][c].iter().map(|&(_, to)| to).collect(),
            self.captures[side][c].iter().copied().collect(),
        ]
    }

    /// The start position: White's setup (as in the two-player game) turned round the x axis
    /// for each next side.
    pub fn start(&self) -> Pos4 {
        let cube = self.cube();
        let n = cube.cells.len();
        let mut pos = Pos4 { board: vec![None; n], virgin: vec![false; n], ep: None, turn: 0, out: [false; 4] };
        let mut white: Vec<(u8, P)> = Vec::new();
        for (x, kind) in [ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK].into_iter().enumerate() {
            white.push((kind, [x as i32, 7, 7]));
        }
        for x in 0..8 {
            white.push((PAWN, [x, 6, 7]));
            white.push((PAWN, [x, 7, 6]));
        }
        white.push((PAWN, [0, 6, 6]));
        white.push((PAWN, [7, 6, 6]));
        for side in 0..4u8 {
            for (kind, p) in white.iter_mut() {
                let c = cube.id(*p);
                assert!(pos.board[c].is_none(), "two pieces on {p:?}");
                pos.board[c] = Some((side, *kind));
                pos.virgin[c] = true;
                *p = quarter(*p);
            }
        }
        pos
    }

    /// Whether a piece of `side` attacks `target`.
    pub fn attacked_by(&self, pos: &Pos4, target: usize, side: u8) -> bool {
        for (c, sq) in pos.board.iter().enumerate() {
            let Some((s, kind)) = *sq else { continue };
            if s != side {
                continue;
            }
            let hit = match kind {
                KING | KNIGHT => self.base.leaps(kind, c).contains(&target),
                PAWN => self.captures[side as usize][c].contains(&target),
                _ => self.base.rider_lines(kind, c).iter().any(|l| {
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

    /// Whether an opponent of `side` still in the game attacks `target`.
    pub fn attacked(&self, pos: &Pos4, target: usize, side: u8) -> bool {
        (0..4u8).any(|s| s != side && !pos.out[s as usize] && self.attacked_by(pos, target, s))
    }

    pub fn in_check(&self, pos: &Pos4, side: u8) -> bool {
        (0..pos.board.len()).any(|c| pos.board[c] == Some((side, KING)) && self.attacked(pos, c, side))
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

    /// Moves by the rules of movement; a king is never captured.
    pub fn pseudo_moves(&self, pos: &Pos4) -> Vec<Move> {
        let side = pos.turn;
        let s = side as usize;
        let mut out = Vec::new();
        let takeable = |x: usize| matches!(pos.board[x], Some((o, k)) if o != side && k != KING);
        let free_or_takeable = |x: usize| pos.board[x].is_none() || takeable(x);
        for c in 0..pos.board.len() {
            let Some((o, kind)) = pos.board[c] else { continue };
            if o != side {
                continue;
            }
            let normal = |to: usize| Move { from: c, to, promotion: None, kind: Kind::Normal };
            match kind {
                KING | KNIGHT => {
                    for &to in self.base.leaps(kind, c) {
                        if free_or_takeable(to) {
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
                        if takeable(to) {
                            self.promotions(s, c, to, Kind::Normal, &mut out);
                        } else if pos.board[to].is_none() {
                            if let Some((passed, victim)) = pos.ep {
                                if passed == to && matches!(pos.board[victim], Some((o, PAWN)) if o != side) {
                                    self.promotions(s, c, to, Kind::EnPassant(victim), &mut out);
                                }
                            }
                        }
                    }
                }
                _ => {
                    let mut seen = BTreeSet::new();
                    for l in self.base.rider_lines(kind, c) {
                        for &x in l {
                            match pos.board[x] {
                                None => {
                                    if seen.insert(x) {
                                        out.push(normal(x));
                                    }
                                }
                                Some(_) => {
                                    if takeable(x) && seen.insert(x) {
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
        // Castling along the side's own edge.
        let cell = |x: i32| self.home_cell(side, x);
        for (rook_x, king_to, rook_to, empty, safe) in [(7, 6, 5, [5, 6].as_slice(), [4, 5, 6]), (0, 2, 3, [1, 2, 3].as_slice(), [4, 3, 2])] {
            let (k, r) = (cell(4), cell(rook_x));
            if pos.board[k] == Some((side, KING)) && pos.virgin[k] && pos.board[r] == Some((side, ROOK)) && pos.virgin[r]
                && empty.iter().all(|&x| pos.board[cell(x)].is_none()) && safe.iter().all(|&x| !self.attacked(pos, cell(x), side))
            {
                out.push(Move { from: k, to: cell(king_to), promotion: None, kind: Kind::Castle(r, cell(rook_to)) });
            }
        }
        out
    }

    /// The next side in the game after `side`.
    fn next_live(pos: &Pos4, side: u8) -> u8 {
        let mut s = side;
        loop {
            s = (s + 1) % 4;
            if !pos.out[s as usize] || s == side {
                return s;
            }
        }
    }

    /// The move alone, the turn passed to the next side in the game.
    fn make_only(&self, pos: &Pos4, mv: Move) -> Pos4 {
        let mut p = pos.clone();
        p.ep = move_pieces(&mut p.board, &mut p.virgin, mv);
        p.turn = Self::next_live(&p, p.turn);
        p
    }

    pub fn make_move_only(&self, pos: &Pos4, mv: Move) -> Pos4 {
        self.make_only(pos, mv)
    }

    fn legal(&self, pos: &Pos4, mv: Move) -> bool {
        !self.in_check(&self.make_only(pos, mv), pos.turn)
    }

    pub fn has_legal_move(&self, pos: &Pos4) -> bool {
        self.pseudo_moves(pos).into_iter().any(|mv| self.legal(pos, mv))
    }

    /// The move, then the eliminations: while three or more sides are in the game and the side to
    /// move has no legal move, it is out (its pieces leave the board) and the turn passes on (the
    /// en-passant state with it).
    pub fn make(&self, pos: &Pos4, mv: Move) -> Pos4 {
        let mut p = self.make_only(pos, mv);
        while p.out.iter().filter(|&&o| !o).count() >= 3 && !self.has_legal_move(&p) {
            let side = p.turn;
            p.out[side as usize] = true;
            for c in 0..p.board.len() {
                if matches!(p.board[c], Some((s, _)) if s == side) {
                    p.board[c] = None;
                    p.virgin[c] = false;
                }
            }
            p.turn = Self::next_live(&p, side);
            self.eliminations.set(self.eliminations.get() + 1);
        }
        p
    }

    pub fn legal_moves(&self, pos: &Pos4) -> Vec<Move> {
        let mut moves: Vec<Move> = self.pseudo_moves(pos).into_iter().filter(|&mv| self.legal(pos, mv)).collect();
        moves.sort();
        moves.dedup();
        moves
    }

    pub fn key(&self, mv: Move) -> String {
        self.base.key(mv)
    }

    /// The position in the engine's general notation.
    pub fn general(&self, pos: &Pos4) -> String {
        let cube = self.cube();
        let mut parts = vec![format!("turn={}", SIDES4[pos.turn as usize])];
        for (side, pieces) in self.pieces(pos).iter().enumerate() {
            parts.push(format!("{}={}", SIDES4[side], pieces.iter().cloned().collect::<Vec<_>>().join(",")));
        }
        let virgin: Vec<String> = (0..pos.board.len()).filter(|&c| pos.virgin[c] && pos.board[c].is_some()).map(|c| cube.name(c)).collect();
        if !virgin.is_empty() {
            parts.push(format!("virgin={}", virgin.join(",")));
        }
        if let Some((passed, victim)) = pos.ep {
            parts.push(format!("ep={}:{}", cube.name(passed), cube.name(victim)));
        }
        let out: Vec<&str> = (0..4).filter(|&s| pos.out[s]).map(|s| SIDES4[s]).collect();
        if !out.is_empty() {
            parts.push(format!("out={}", out.join(",")));
        }
        parts.join(" ")
    }

    pub fn pieces(&self, pos: &Pos4) -> [BTreeSet<String>; 4] {
        let mut out: [BTreeSet<String>; 4] = Default::default();
        for c in 0..pos.board.len() {
            if let Some((s, k)) = pos.board[c] {
                out[s as usize].insert(format!("{}{}", SYMBOLS[k as usize], self.cube().name(c)));
            }
        }
        out
    }

    /// A position in the general notation (`turn=`, one field per side, `virgin=`, `ep=`, `out=`).
    pub fn parse_general(&self, text: &str) -> Pos4 {
        let cube = self.cube();
        let n = cube.cells.len();
        let mut pos = Pos4 { board: vec![None; n], virgin: vec![false; n], ep: None, turn: 0, out: [false; 4] };
        for field in text.split_whitespace() {
            let (name, value) = field.split_once('=').expect("NAME=VALUE");
            let items = || value.split(',').filter(|s| !s.is_empty());
            match name {
                "turn" => pos.turn = SIDES4.iter().position(|&s| s == value).expect("a side") as u8,
                "virgin" => items().for_each(|c| pos.virgin[cube.parse(c)] = true),
                "out" => items().for_each(|s| pos.out[SIDES4.iter().position(|&x| x == s).expect("a side")] = true),
                "ep" => {
                    let (passed, victim) = value.split_once(':').expect("CELL:VICTIM");
                    pos.ep = Some((cube.parse(passed), cube.parse(victim)));
                }
                "clock" | "move" => {}
                side => {
                    let s = SIDES4.iter().position(|&x| x == side).unwrap_or_else(|| panic!("field {side}")) as u8;
                    for item in items() {
                        let kind = SYMBOLS.iter().position(|&k| item.starts_with(k)).expect("a piece symbol") as u8;
                        pos.board[cube.parse(&item[1..])] = Some((s, kind));
                    }
                }
            }
        }
        pos
    }

    /// A position from `Sym+cell` lists per side (none unmoved, no en passant, none out).
    pub fn position(&self, turn: u8, lists: [&str; 4]) -> Pos4 {
        let n = self.cube().cells.len();
        let mut pos = Pos4 { board: vec![None; n], virgin: vec![false; n], ep: None, turn, out: [false; 4] };
        for (side, list) in lists.into_iter().enumerate() {
            for item in list.split(',').filter(|s| !s.is_empty()) {
                let sym = item.chars().next().expect("a symbol");
                let kind = SYMBOLS.iter().position(|&k| k == sym).expect("a piece symbol") as u8;
                let c = self.cube().parse(&item[1..]);
                assert!(pos.board[c].is_none());
                pos.board[c] = Some((side as u8, kind));
            }
        }
        pos
    }
}

impl Reference for FourGame {
    type Pos = Pos4;
    const SIDES: &'static [&'static str] = &SIDES4;
    fn general(&self, pos: &Pos4) -> String {
        FourGame::general(self, pos)
    }
    fn legal_moves(&self, pos: &Pos4) -> Vec<Move> {
        FourGame::legal_moves(self, pos)
    }
    fn make(&self, pos: &Pos4, mv: Move) -> Pos4 {
        FourGame::make(self, pos, mv)
    }
    fn key(&self, mv: Move) -> String {
        FourGame::key(self, mv)
    }
}
