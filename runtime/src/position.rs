//! A position and the moves that change it: make, unmake and attack tests.
//!
//! State is kept incrementally (piece sets, occupancy, hash) so that make/unmake cost a handful of
//! bit operations and no allocation beyond the caller's undo stack.

use crate::bits::CellSet;
use crate::game::Game;
use crate::tables::NO_CELL;

/// What a move does beyond moving one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Normal,
    /// A move whose passed cells become en-passant targets; `aux` is its ray.
    EnPassantTarget,
    /// A capture en passant.
    EnPassant,
    /// Castling; `aux` is the index of the side's castling rule.
    Castle,
    /// A slide around a closed line back to its start (only where the rules allow it).
    Stationary,
    /// A piece from the hand crowns the piece on `to`; `aux` is the crown's kind, plus
    /// [`CROWN_HIDDEN`] when it crowns the hidden piece of a stack.
    Crown,
    /// A piece from the hand onto the empty cell `to` (`from` is `to`); `aux` is its kind.
    Drop,
    /// A pass (`pass`): nothing moves; `from` and `to` are the side's royal piece's cell.
    Pass,
}

/// In a crowning move's `aux`: the crowned piece is the hidden one of the stack.
pub const CROWN_HIDDEN: u32 = 1 << 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u16,
    pub to: u16,
    pub kind: MoveKind,
    /// The kind promoted to, or `NO_PROMOTION`.
    pub promotion: u8,
    pub aux: u32,
}

pub const NO_PROMOTION: u8 = u8::MAX;

impl Move {
    pub fn normal(from: usize, to: usize) -> Move {
        Move { from: from as u16, to: to as u16, kind: MoveKind::Normal, promotion: NO_PROMOTION, aux: 0 }
    }
}

/// The pieces eliminations took off the board (`eliminated remove`), for `unmake` to put back: an
/// undo stack, not part of the position (it compares equal to any other). A hidden piece's cell
/// has `REMOVED_HIDDEN` added.
#[derive(Clone, Debug, Default)]
pub struct Removed(pub Vec<(u16, u8)>);

/// In [`Removed`]: the piece was hidden beneath the top one on the cell.
const REMOVED_HIDDEN: u16 = 1 << 15;

impl PartialEq for Removed {
    fn eq(&self, _: &Removed) -> bool {
        true
    }
}

impl Eq for Removed {}

/// A position. `board[cell]` is `0` for empty or `ck + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position<B> {
    pub board: Vec<u8>,
    /// Per colored kind.
    pub by_ck: Vec<B>,
    /// The colored kinds that have a piece on top somewhere, a bit each (kept with `by_ck`):
    /// counting skips the others without looking at their sets.
    pub present: u64,
    /// Per side.
    pub by_side: Vec<B>,
    /// Per side: its pieces that attack along lines (kept with `by_ck`, for attack tests).
    pub line_pieces: Vec<B>,
    /// Per side: its royal pieces on top (kept with `by_ck`, for [`Position::royals`]).
    pub royal_tops: Vec<B>,
    pub occupied: B,
    /// Cells whose piece has not moved since the start (castling rights, `initial` rules).
    pub virgin: B,
    /// Cells that may be captured onto en passant this turn, and the piece that would be taken.
    pub ep_cells: B,
    pub ep_victim: u16,
    /// What the en-passant cells add to `hash`: their keys when the side to move can take there,
    /// else nothing.
    pub ep_hash: u64,
    pub to_move: usize,
    /// Plies since the last capture or move of a `resets-clock` piece.
    pub halfmove: u32,
    pub fullmove: u32,
    pub hash: u64,
    /// The sides out of the game (bit `side`), eliminated in games of three or more teams.
    pub out: u64,
    /// Pieces removed by eliminations, as (cell, `ck + 1`).
    pub removed: Removed,
    /// Per cell: the hidden piece beneath the one on top (`ck + 1`), or 0 (stacks, `atop`).
    pub under: Vec<u8>,
    /// The cells that hold a hidden piece.
    pub stacked: B,
    /// The cells of `stacked` whose hidden piece is royal, kept as `under` changes so that
    /// [`Position::royals`] needs no look beneath every stack.
    pub hidden_royal: B,
    /// Per colored kind: how many are in the hand.
    pub hand: Vec<u8>,
    /// Per side: the checks it has given (`check-limit`; zeros without it).
    pub checks: Vec<u8>,
    /// Whether the last move was a pass, or the game ended by passing or facing
    /// ([`crate::passing`]); always 0 without those rules.
    pub passes: u8,
}

/// What `make` needs to restore the position exactly.
#[derive(Clone, Copy, Debug)]
pub struct Undo<B> {
    pub mv: Move,
    pub moved: u8,
    pub captured: u8,
    pub captured_cell: u16,
    pub virgin: B,
    pub ep_cells: B,
    pub ep_victim: u16,
    pub ep_hash: u64,
    pub halfmove: u32,
    pub fullmove: u32,
    pub hash: u64,
    /// The side that made the move.
    pub mover: u8,
    /// The out-set before the move, and how many pieces `removed` held.
    pub out: u64,
    pub removed: u32,
    /// The hidden piece the move uncovered on `from` (it became the top piece); castling: on the
    /// king's start.
    pub revealed: bool,
    /// Castling: the hidden piece uncovered on the rook's start.
    pub revealed_rook: bool,
    /// The hidden piece captured with the top one, `ck + 1`, or 0.
    pub captured_under: u8,
    /// The move gave a check that counts (`check-limit`).
    pub gave_check: bool,
    /// [`Position::passes`] before the move.
    pub passes: u8,
}

impl<B: CellSet> Position<B> {
    /// An empty board, first side to move.
    pub fn empty(game: &Game<B>) -> Position<B> {
        Position {
            board: vec![0; game.cells],
            by_ck: vec![B::default(); game.sides * game.kinds],
            present: 0,
            by_side: vec![B::default(); game.sides],
            line_pieces: vec![B::default(); game.sides],
            royal_tops: vec![B::default(); game.sides],
            occupied: B::default(),
            virgin: B::default(),
            ep_cells: B::default(),
            ep_victim: NO_CELL,
            ep_hash: 0,
            to_move: 0,
            halfmove: 0,
            fullmove: 1,
            hash: game.zobrist.side[0],
            out: 0,
            removed: Removed::default(),
            under: vec![0; game.cells],
            stacked: B::default(),
            hidden_royal: B::default(),
            hand: vec![0; game.sides * game.kinds],
            checks: vec![0; game.sides],
            passes: 0,
        }
    }

    /// The initial position of the variant: every setup piece unmoved.
    pub fn start(game: &Game<B>) -> Position<B> {
        let mut p = Position::empty(game);
        for (s, side) in game.tables.sides.iter().enumerate() {
            for &(cell, kind) in &side.setup {
                p.put(game, cell as usize, s * game.kinds + kind as usize);
                p.set_virgin(game, cell as usize);
            }
            for &(cell, kind) in &side.atop {
                let below = p.take(game, cell as usize);
                p.put_under(game, cell as usize, below as usize - 1);
                p.put(game, cell as usize, s * game.kinds + kind as usize);
            }
            for &kind in &side.hand {
                p.add_to_hand(game, s * game.kinds + kind as usize, 1);
            }
        }
        p.settle(game);
        p
    }

    /// Puts `ck` beneath the piece on `cell` (hidden).
    pub fn put_under(&mut self, game: &Game<B>, cell: usize, ck: usize) {
        self.set_under(game, cell, ck as u8 + 1);
        self.hash ^= game.zobrist.under[ck * game.cells + cell];
    }

    /// Sets the hidden piece beneath `cell` to `code` (non-zero), leaving the hash to the caller.
    fn set_under(&mut self, game: &Game<B>, cell: usize, code: u8) {
        self.under[cell] = code;
        self.stacked.insert(cell);
        if game.royal[code as usize - 1] {
            self.hidden_royal.insert(cell);
        } else {
            self.hidden_royal.remove(cell);
        }
    }

    /// Takes the hidden piece from beneath `cell`'s top piece; returns its code.
    pub fn take_under(&mut self, game: &Game<B>, cell: usize) -> u8 {
        let code = self.under[cell];
        self.under[cell] = 0;
        self.stacked.remove(cell);
        self.hidden_royal.remove(cell);
        self.hash ^= game.zobrist.under[(code as usize - 1) * game.cells + cell];
        code
    }

    /// Adds `n` (or takes `-n`) pieces of `ck` to the hand.
    pub fn add_to_hand(&mut self, game: &Game<B>, ck: usize, n: i32) {
        let key = game.zobrist.hand[ck];
        self.hash ^= key.wrapping_mul(self.hand[ck] as u64);
        self.hand[ck] = (self.hand[ck] as i32 + n) as u8;
        self.hash ^= key.wrapping_mul(self.hand[ck] as u64);
    }

    /// Whether `side` is out of the game.
    #[inline(always)]
    pub fn is_out(&self, side: usize) -> bool {
        self.out >> side & 1 != 0
    }

    /// The side after `side` in turn order that is still in the game, and whether the order wrapped
    /// round past its last side on the way (a new full move).
    pub fn next_live(&self, game: &Game<B>, side: usize) -> (usize, bool) {
        let mut next = side;
        let mut wrapped = false;
        loop {
            next = (next + 1) % game.sides;
            wrapped |= next == 0;
            if !self.is_out(next) || next == side {
                return (next, wrapped);
            }
        }
    }

    /// The side before `side` in turn order that is still in the game.
    pub fn previous_live(&self, game: &Game<B>, side: usize) -> usize {
        let mut prev = side;
        loop {
            prev = (prev + game.sides - 1) % game.sides;
            if !self.is_out(prev) || prev == side {
                return prev;
            }
        }
    }

    /// The pieces the side to move may capture: those of the other teams' sides still in the game
    /// except their royal pieces (a royal piece is never captured, only mated), and every piece
    /// of a side that is out.
    #[inline(always)]
    pub fn capturable(&self, game: &Game<B>) -> B {
        if game.sides == 2 {
            return self.by_side[1 - self.to_move];
        }
        self.capturable_by_teams(game)
    }

    /// Whether the piece on `cell` is in [`Position::capturable`] (no piece: no), looked up
    /// for its side alone.
    fn capturable_at(&self, game: &Game<B>, cell: usize) -> bool {
        if self.board[cell] == 0 {
            return false;
        }
        let s = self.side_at(game, cell);
        if game.sides == 2 {
            return s != self.to_move;
        }
        self.is_out(s) || (game.team[s] != game.team[self.to_move] && !self.royals(game, s).has(cell))
    }

    /// [`Position::capturable`] in games of more than two sides.
    #[inline(never)]
    fn capturable_by_teams(&self, game: &Game<B>) -> B {
        let us = self.to_move;
        let mut set = B::default();
        for s in 0..game.sides {
            if self.is_out(s) {
                set = set.or(self.by_side[s]);
            } else if game.team[s] != game.team[us] {
                set = set.or(self.by_side[s].and_not(self.royals(game, s)));
            }
        }
        set
    }

    /// Puts `side` out of the game: under `eliminated remove` its pieces leave the board (kept in
    /// `removed` for `unmake`), its stacks whole (a stack is one side's), under `stay` they
    /// remain, inert.
    pub fn eliminate(&mut self, game: &Game<B>, side: usize) {
        self.out |= 1 << side;
        self.hash ^= game.zobrist.out[side];
        if game.tables.rules.eliminated == crate::tables::Eliminated::Remove {
            let before = self.virgin;
            if game.stacks {
                for c in self.stacked.and(self.by_side[side]).iter() {
                    let code = self.take_under(game, c);
                    self.removed.0.push((c as u16 | REMOVED_HIDDEN, code));
                }
            }
            for c in self.by_side[side].iter() {
                self.clear_virgin(game, c);
                let code = self.take(game, c);
                self.removed.0.push((c as u16, code));
            }
            if self.virgin != before {
                self.hash ^= self.castle_key(game, before) ^ self.castle_key(game, self.virgin);
            }
        }
    }

    /// Applies the rule of `game-end last-standing`: while three or more teams are in the game and
    /// the side to move has no legal move, that side is out and the turn passes on. Does nothing
    /// in games of fewer than three teams.
    pub fn settle(&mut self, game: &Game<B>) {
        if !game.eliminations {
            return;
        }
        let mut scratch = Vec::new();
        while game.live_teams(self.out) >= 3 {
            // Found as perft's last ply counts (by set sizes), up to the first move.
            if self.has_legal_move(game, &mut scratch) {
                return;
            }
            let side = self.to_move;
            self.eliminate(game, side);
            let (next, wrapped) = self.next_live(game, side);
            if wrapped {
                self.fullmove = self.fullmove.saturating_add(1);
            }
            self.set_to_move(game, next);
            // The en-passant right passes to the new side to move; its hash depends on who that is.
            let (cells, victim) = (self.ep_cells, self.ep_victim);
            self.set_en_passant(game, cells, victim);
        }
    }

    /// Side owning the piece on `cell` (which must be occupied).
    #[inline(always)]
    pub fn side_at(&self, game: &Game<B>, cell: usize) -> usize {
        game.side_of[(self.board[cell] as usize - 1) & 63] as usize
    }

    #[inline(always)]
    pub fn put(&mut self, game: &Game<B>, cell: usize, ck: usize) {
        self.place(game, cell, ck);
        self.hash ^= game.zobrist.piece[ck * game.cells + cell];
    }

    #[inline(always)]
    pub fn take(&mut self, game: &Game<B>, cell: usize) -> u8 {
        let code = self.lift(game, cell);
        self.hash ^= game.zobrist.piece[(code as usize - 1) * game.cells + cell];
        code
    }

    /// `put` without the hash (unmake restores the hash whole).
    #[inline(always)]
    fn place(&mut self, game: &Game<B>, cell: usize, ck: usize) {
        self.board[cell] = ck as u8 + 1;
        self.by_ck[ck].insert(cell);
        self.present |= 1 << (ck & 63);
        let side = game.side_of[ck & 63] as usize;
        self.by_side[side].insert(cell);
        if game.line_ck_mask >> (ck & 63) & 1 != 0 {
            self.line_pieces[side].insert(cell);
        }
        if game.royal_ck_mask >> (ck & 63) & 1 != 0 {
            self.royal_tops[side].insert(cell);
        }
        self.occupied.insert(cell);
    }

    /// The piece of colored kind `ck` on `from` moved to the empty cell `to` without the hash:
    /// `lift` and `place` in one, each of the piece's sets looked up once.
    #[inline(always)]
    fn shift(&mut self, game: &Game<B>, from: usize, to: usize, ck: usize) {
        debug_assert_ne!(from, to, "a shift leaves its cell empty");
        self.board[to] = self.board[from];
        self.board[from] = 0;
        let by_ck = &mut self.by_ck[ck];
        by_ck.remove(from);
        by_ck.insert(to);
        let side = game.side_of[ck & 63] as usize;
        let by_side = &mut self.by_side[side];
        by_side.remove(from);
        by_side.insert(to);
        if game.line_ck_mask >> (ck & 63) & 1 != 0 {
            let lines = &mut self.line_pieces[side];
            lines.remove(from);
            lines.insert(to);
        }
        if game.royal_ck_mask >> (ck & 63) & 1 != 0 {
            let royals = &mut self.royal_tops[side];
            royals.remove(from);
            royals.insert(to);
        }
        self.occupied.remove(from);
        self.occupied.insert(to);
    }

    /// `take` without the hash.
    #[inline(always)]
    fn lift(&mut self, game: &Game<B>, cell: usize) -> u8 {
        let code = self.board[cell];
        let ck = code as usize - 1;
        self.board[cell] = 0;
        self.by_ck[ck].remove(cell);
        if self.by_ck[ck].is_empty() {
            self.present &= !(1 << (ck & 63));
        }
        let side = game.side_of[ck & 63] as usize;
        self.by_side[side].remove(cell);
        if game.line_ck_mask >> (ck & 63) & 1 != 0 {
            self.line_pieces[side].remove(cell);
        }
        if game.royal_ck_mask >> (ck & 63) & 1 != 0 {
            self.royal_tops[side].remove(cell);
        }
        self.occupied.remove(cell);
        code
    }

    pub fn set_virgin(&mut self, game: &Game<B>, cell: usize) {
        if !self.virgin.has(cell) {
            let rights = self.castle_key(game, self.virgin);
            self.virgin.insert(cell);
            self.hash ^= game.zobrist.virgin[cell] ^ rights ^ self.castle_key(game, self.virgin);
        }
    }

    /// The castling rights of an unmoved-set, as hash keys.
    fn castle_key(&self, game: &Game<B>, virgin: B) -> u64 {
        let mut key = 0;
        for (i, &(k, r)) in game.castle_cells.iter().enumerate() {
            if virgin.has(k) && virgin.has(r) {
                key ^= game.zobrist.castle[i];
            }
        }
        key
    }

    /// The hash keys of the en-passant cells if the side to move can take on one of them (with
    /// more than two sides: and may take the piece there, not a teammate's).
    fn ep_key(&self, game: &Game<B>) -> u64 {
        let victim = self.ep_victim as usize;
        if game.sides > 2 && (self.ep_victim == NO_CELL || !self.capturable_at(game, victim)) {
            return 0;
        }
        if self.ep_capturing(game).is_empty() {
            0
        } else {
            self.ep_cells.iter().fold(0, |key, c| key ^ game.zobrist.ep[c])
        }
    }

    /// The pieces of the side to move that could capture en passant on the en-passant cells
    /// (`Game::ep_capturers`).
    #[inline(never)]
    pub(crate) fn ep_capturing(&self, game: &Game<B>) -> B {
        let mut able = B::default();
        for c in self.ep_cells.iter() {
            for &(ck, from) in &game.ep_capturers[c] {
                if game.side_of[ck as usize & 63] as usize == self.to_move {
                    able = able.or(from.and(self.by_ck[ck as usize]));
                }
            }
        }
        able
    }

    /// Sets the en-passant cells; call it after the side to move is set.
    pub fn set_en_passant(&mut self, game: &Game<B>, cells: B, victim: u16) {
        self.hash ^= self.ep_hash;
        self.ep_cells = cells;
        self.ep_victim = victim;
        self.ep_hash = if cells.is_empty() { 0 } else { self.ep_key(game) };
        self.hash ^= self.ep_hash;
    }

    pub fn set_to_move(&mut self, game: &Game<B>, side: usize) {
        self.hash ^= game.zobrist.side[self.to_move] ^ game.zobrist.side[side];
        self.to_move = side;
    }

    /// Cells of `side`'s royal pieces.
    #[inline(always)]
    pub fn royals(&self, game: &Game<B>, side: usize) -> B {
        let mut r = self.royal_tops[side];
        if game.stacks {
            // (A stack is one side's: its top piece's.)
            r = r.or(self.hidden_royal.and(self.by_side[side]));
        }
        r
    }

    /// The cells where `side` has a piece that is not royal (on top or hidden in a stack), or
    /// `None` when it holds one in the hand.
    fn non_royal_cells(&self, game: &Game<B>, side: usize) -> Option<B> {
        let mut rest = self.by_side[side];
        for k in 0..game.kinds {
            let ck = side * game.kinds + k;
            if game.royal[ck] {
                rest = rest.and_not(self.by_ck[ck]);
            } else if self.hand[ck] > 0 {
                return None;
            }
        }
        Some(rest.or(self.stacked.and_not(self.hidden_royal).and(self.by_side[side])))
    }

    /// Whether some side has no top piece but royal ones: without that no side is bare
    /// ([`Position::is_bare`]), which answers most positions without a call.
    #[inline(always)]
    pub fn may_be_bare(&self, game: &Game<B>) -> bool {
        (0..game.sides).any(|s| self.by_side[s].and_not(self.royal_tops[s]).is_empty())
    }

    /// Whether `side` has no piece left but royal ones, on the board, hidden or in the hand.
    pub fn is_bare(&self, game: &Game<B>, side: usize) -> bool {
        // Most often a top piece is not royal: that answers at once.
        if !self.by_side[side].and_not(self.royal_tops[side]).is_empty() {
            return false;
        }
        self.non_royal_cells(game, side).is_some_and(|cells| cells.is_empty())
    }

    /// Whether one capture could leave `side` bare: its pieces that are not royal all stand on
    /// one cell (a piece, or a stack), none in the hand.
    fn one_capture_bares(&self, game: &Game<B>, side: usize) -> bool {
        self.non_royal_cells(game, side).is_some_and(|cells| cells.iter().count() == 1)
    }

    /// The side that is bare, when the rules end the game on it (`bare`). With `counting-move`
    /// (two sides) a bare side to move plays on when one capture could bare the other side (as
    /// Fairy-Stockfish's shatranj), else it has lost; the game ends when the side that has just
    /// moved is bare and the side to move is not.
    pub fn bare_side(&self, game: &Game<B>) -> Option<usize> {
        game.tables.rules.bare?;
        if game.tables.rules.bare_counting {
            let mover = self.to_move;
            let last = 1 - mover;
            let (mover_bare, last_bare) = (self.is_bare(game, mover), self.is_bare(game, last));
            if last_bare && !mover_bare {
                return Some(last);
            }
            // The counting move is only worth playing when one capture could bare the other side.
            return (mover_bare && !last_bare && !self.one_capture_bares(game, last)).then_some(mover);
        }
        (0..game.sides).find(|&s| !self.is_out(s) && self.is_bare(game, s))
    }

    /// Whether any piece of `side` attacks `target`.
    #[inline]
    pub fn attacked_by(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        self.attacked_directly(game, target, side) || self.attacked_along_lines(game, target, side)
    }

    /// Whether a piece of `side` attacks `target` other than along a line: directly, winding
    /// or hopping.
    #[inline]
    pub fn attacked_directly(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        let di = target * game.sides + side;
        let near = self.by_side[side].and(game.direct_reach[di]);
        if game.direct_by_piece {
            // Many kinds attack directly: the few pieces near the target are looked at instead.
            for c in near.iter() {
                if game.direct_from[(self.board[c] as usize - 1) * game.cells + c].has(target) {
                    return true;
                }
            }
        } else if !near.is_empty() {
            for &(ck, set) in &game.direct[game.direct_index[di] as usize..game.direct_index[di + 1] as usize] {
                if self.by_ck[ck as usize].intersects(set) {
                    return true;
                }
            }
        }
        if game.winding && self.wound_by(game, target, side) {
            return true;
        }
        game.hopping && self.hopped_by(game, target, side)
    }

    /// Whether a line attacker of `side` attacks `target`.
    #[inline]
    fn attacked_along_lines(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        self.attacked_along_lines_on(game, target, side, self.occupied)
    }

    /// As [`Position::attacked_along_lines`] with the cells `occupied` (a subset of the board's:
    /// the pieces on the others are not looked at).
    #[inline(always)]
    fn attacked_along_lines_on(&self, game: &Game<B>, target: usize, side: usize, occupied: B) -> bool {
        let sliders = self.line_pieces[side];
        if !sliders.intersects(game.line_reach[target]) {
            return false;
        }
        let ours = game.side_cks[side];
        let lines = &game.lines[game.line_index[target] as usize..game.line_index[target + 1] as usize];
        for line in lines {
            if !line.set.intersects(sliders) {
                continue;
            }
            let mut along = game.occupied_along(line.segments, occupied);
            if let Some(b) = along.next() {
                if ((game.kinds_on(line, along.run(), b) & ours) >> (self.board[b] - 1)) & 1 != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// A winding rule's flood from `from`: the empty cells it reaches, and the occupied cells one
    /// step from the start or from a reached cell (those it could capture).
    #[inline]
    pub fn flood(&self, w: &crate::game::WindRule<B>, from: usize) -> (B, B) {
        self.flood_through(w, from, |cells| cells)
    }

    /// [`Position::flood`], going on only from the empty cells reached that `pass` keeps (a
    /// royal path's unattacked cells); the others are still reached.
    #[inline(always)]
    pub fn flood_through(&self, w: &crate::game::WindRule<B>, from: usize, mut pass: impl FnMut(B) -> B) -> (B, B) {
        let mut reached = B::single(from);
        let mut frontier = reached;
        let (mut empty, mut hit) = (B::default(), B::default());
        loop {
            let mut next = B::default();
            for c in frontier.iter() {
                next = next.or(w.next[c]);
            }
            let new = next.and_not(reached);
            if new.is_empty() {
                return (empty, hit);
            }
            reached = reached.or(new);
            hit = hit.or(new.and(self.occupied));
            let reached_empty = new.and_not(self.occupied);
            empty = empty.or(reached_empty);
            frontier = pass(reached_empty);
        }
    }

    /// Whether a winding piece of `side` could capture on `target`.
    fn wound_by(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        for &ck in &game.wind_cks[side] {
            for w in &game.winders[ck as usize] {
                // Rule by rule, so that a target off its zone, or no piece in it, costs one test.
                if w.flags & crate::tables::ray::CAPTURE == 0 || !w.zone.has(target) {
                    continue;
                }
                for p in self.by_ck[ck as usize].and(w.zone).iter() {
                    let (empty, hit) = self.flood(w, p);
                    if empty.or(hit).has(target) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The pieces of `side` that stop the flood of an enemy winding rule whose zone holds
    /// `target`: vacating one lets the flood go on, perhaps to `target`. A move of `side` that
    /// vacates none of them makes no winding capture on `target` (filling a cell only stops a
    /// flood; the enemy pieces stay where they are).
    pub fn wind_zone(&self, game: &Game<B>, target: usize, side: usize) -> B {
        let mut zone = B::default();
        for &s in &game.opponents[side] {
            for &ck in &game.wind_cks[s] {
                for w in &game.winders[ck as usize] {
                    if w.flags & crate::tables::ray::CAPTURE == 0 || !w.zone.has(target) {
                        continue;
                    }
                    for p in self.by_ck[ck as usize].and(w.zone).iter() {
                        zone = zone.or(self.flood(w, p).1);
                    }
                }
            }
        }
        zone.and(self.by_side[side])
    }

    /// Whether an opponent of `side` (a side of another team) still in the game attacks `target`.
    #[inline]
    pub fn attacked_by_enemy(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        // Two sides are two teams, and neither is ever out.
        if game.sides == 2 {
            return self.attacked_by(game, target, 1 - side);
        }
        game.opponents[side].iter().any(|&s| !self.is_out(s) && self.attacked_by(game, target, s))
    }

    /// As [`Position::attacked_by_enemy`], leaving out attacks along lines.
    pub fn attacked_directly_by_enemy(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        if game.sides == 2 {
            return self.attacked_directly(game, target, 1 - side);
        }
        game.opponents[side].iter().any(|&s| !self.is_out(s) && self.attacked_directly(game, target, s))
    }

    /// The cells of `targets` that an opponent of `side` still in the game attacks other than
    /// along lines (as [`Position::attacked_directly_by_enemy`] for each): the few enemy pieces
    /// that could attack one of them directly are looked up, each with all its direct attacks in
    /// one set, instead of every target's attackers kind by kind.
    #[inline(always)]
    pub fn attacked_directly_among(&self, game: &Game<B>, targets: B, side: usize) -> B {
        if game.winding || game.hopping {
            let mut hit = B::default();
            for t in targets.iter() {
                if self.attacked_directly_by_enemy(game, t, side) {
                    hit.insert(t);
                }
            }
            return hit;
        }
        let mut near = B::default();
        for &s in &game.opponents[side] {
            if self.is_out(s) {
                continue;
            }
            let mut reach = B::default();
            for t in targets.iter() {
                reach = reach.or(game.direct_reach[t * game.sides + s]);
            }
            near = near.or(reach.and(self.by_side[s]));
        }
        let mut hit = B::default();
        for c in near.iter() {
            hit = hit.or(game.direct_from[(self.board[c] as usize - 1) * game.cells + c]);
        }
        hit.and(targets)
    }

    /// As [`Position::attacked_by_enemy`], only along lines, with the cells `occupied` (a
    /// subset of the board's: a piece lifted off it).
    #[inline(always)]
    pub fn attacked_along_lines_by_enemy(&self, game: &Game<B>, target: usize, side: usize, occupied: B) -> bool {
        if game.sides == 2 {
            return self.attacked_along_lines_on(game, target, 1 - side, occupied);
        }
        game.opponents[side].iter().any(|&s| !self.is_out(s) && self.attacked_along_lines_on(game, target, s, occupied))
    }

    /// Whether `side` has a royal piece attacked by an opponent still in the game.
    pub fn in_check(&self, game: &Game<B>, side: usize) -> bool {
        self.royals(game, side).iter().any(|r| self.attacked_by_enemy(game, r, side))
    }

    /// Plays `mv` (which must be pseudo-legal here) and returns what undoes it. In games where
    /// sides can be eliminated, the sides that then have no legal move go out ([`Position::settle`]).
    #[inline]
    pub fn make(&mut self, game: &Game<B>, mv: Move) -> Undo<B> {
        let mut undo = self.make_move(game, mv);
        if game.eliminations {
            self.settle(game);
        }
        if !game.zobrist.checks.is_empty() {
            undo.gave_check = self.count_check(game, undo.mover as usize);
        }
        undo
    }

    /// [`Position::make`] for a position that is only counted next: the sides with no legal
    /// move are left in (the side to move may have none), and
    /// [`Position::count_legal_settling`] settles the position only when its count finds no
    /// move, instead of looking for one move first (perft's last ply). The hash is not kept
    /// ([`Position::make_move_unkeyed`]): a counted position is never looked up. Where checks
    /// are counted (`check-limit`), who is in check depends on who moves next: the whole `make`.
    #[inline]
    pub fn make_unsettled(&mut self, game: &Game<B>, mv: Move) -> Undo<B> {
        if game.zobrist.checks.is_empty() {
            self.make_move_unkeyed(game, mv)
        } else {
            self.make(game, mv)
        }
    }

    /// `make` without eliminations: the move alone, the turn passed to the next side in the game
    /// (what legality is judged on).
    pub fn make_move(&mut self, game: &Game<B>, mv: Move) -> Undo<B> {
        self.make_move_as::<true>(game, mv)
    }

    /// [`Position::make_move`] for a move that is only tested or counted, then taken back: the
    /// hash keys of the common moves (the pieces', the side to move's, the unmoved cells',
    /// castling's and en passant's) are left out, so `hash` and `ep_hash` are not the position's
    /// until [`Position::unmake`] restores them.
    /// Legality and move counts never read them.
    pub fn make_move_unkeyed(&mut self, game: &Game<B>, mv: Move) -> Undo<B> {
        self.make_move_as::<false>(game, mv)
    }

    /// [`Position::make_move`], with the hash kept (`KEYS`) or not ([`Position::make_move_unkeyed`]).
    #[inline(always)]
    fn make_move_as<const KEYS: bool>(&mut self, game: &Game<B>, mv: Move) -> Undo<B> {
        let from = mv.from as usize;
        let to = mv.to as usize;
        let us = self.to_move;
        let mut undo = Undo {
            mv,
            moved: self.board[from],
            captured: 0,
            captured_cell: NO_CELL,
            virgin: self.virgin,
            ep_cells: self.ep_cells,
            ep_victim: self.ep_victim,
            ep_hash: self.ep_hash,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            mover: us as u8,
            out: self.out,
            removed: self.removed.0.len() as u32,
            revealed: false,
            revealed_rook: false,
            captured_under: 0,
            gave_check: false,
            passes: self.passes,
        };
        let faced = game.passing.as_ref().is_some_and(|p| p.any_facing) && self.royals_face(game);
        let mut ep_cells = B::default();
        let mut ep_victim = NO_CELL;
        let mut reset = false;
        match mv.kind {
            MoveKind::Stationary | MoveKind::Pass => {}
            MoveKind::Drop => {
                let ck = us * game.kinds + mv.aux as usize;
                self.add_to_hand(game, ck, -1);
                self.put(game, to, ck);
                undo.moved = ck as u8 + 1;
                // On a cell where the side's setup has the kind, it counts as unmoved (as FEN
                // reads it): a pawn dropped on its second rank may step twice.
                if game.hands.as_ref().is_some_and(|h| h.virgin[ck].has(to)) && !self.virgin.has(to) {
                    self.virgin.insert(to);
                    self.hash ^= game.zobrist.virgin[to];
                }
            }
            MoveKind::Crown => {
                let crown = us * game.kinds + (mv.aux & 0xff) as usize;
                self.add_to_hand(game, crown, -1);
                let (carrier, twin) = if mv.aux & CROWN_HIDDEN != 0 {
                    let code = self.take_under(game, to);
                    (code, game.crowned_twin(code as usize - 1, crown))
                } else {
                    let code = self.take(game, to);
                    (code, game.crowned_twin(code as usize - 1, crown))
                };
                undo.moved = carrier;
                if mv.aux & CROWN_HIDDEN != 0 {
                    self.put_under(game, to, twin);
                } else {
                    self.put(game, to, twin);
                }
            }
            MoveKind::Castle => {
                let c = &game.castles[us][mv.aux as usize];
                let (kf, rf) = (c.king_from as usize, c.rook_from as usize);
                let king = self.take(game, kf);
                let rook = self.take(game, rf);
                if game.stacks {
                    // As any move off a stack: the hidden piece is uncovered and stays, unmoved
                    // (castling is no move when the king or rook would land on it).
                    undo.revealed = self.uncover(game, kf);
                    undo.revealed_rook = self.uncover(game, rf);
                }
                self.put(game, c.king_to as usize, king as usize - 1);
                self.put(game, c.rook_to as usize, rook as usize - 1);
                if !undo.revealed {
                    self.clear_virgin(game, kf);
                }
                if !undo.revealed_rook {
                    self.clear_virgin(game, rf);
                }
            }
            _ => {
                let victim_cell = if mv.kind == MoveKind::EnPassant { self.ep_victim as usize } else { to };
                if self.board[victim_cell] != 0 {
                    undo.captured = if KEYS { self.take(game, victim_cell) } else { self.lift(game, victim_cell) };
                    undo.captured_cell = victim_cell as u16;
                    if game.stacks && self.stacked.has(victim_cell) {
                        // A capture takes the whole stack.
                        undo.captured_under = self.take_under(game, victim_cell);
                    }
                    self.clear_virgin_as::<KEYS>(game, victim_cell);
                    reset = true;
                    if let Some(h) = game.hands.as_ref().filter(|h| h.capture_to_hand) {
                        self.add_to_hand(game, us * game.kinds + h.hand_kind[undo.captured as usize - 1] as usize, 1);
                    }
                }
                let code = self.board[from];
                if mv.promotion == NO_PROMOTION && !(game.stacks && self.stacked.has(from)) {
                    // (Most moves: the piece goes on as it is, and leaves its cell empty.)
                    let ck = code as usize - 1;
                    self.shift(game, from, to, ck);
                    if KEYS {
                        self.hash ^= game.zobrist.piece[ck * game.cells + from] ^ game.zobrist.piece[ck * game.cells + to];
                    }
                } else {
                    if KEYS {
                        self.take(game, from);
                    } else {
                        self.lift(game, from);
                    }
                    if game.stacks && self.stacked.has(from) {
                        let hidden = self.take_under(game, from);
                        self.put(game, from, hidden as usize - 1);
                        undo.revealed = true;
                    }
                    let ck = if mv.promotion != NO_PROMOTION {
                        us * game.kinds + mv.promotion as usize
                    } else {
                        code as usize - 1
                    };
                    if KEYS {
                        self.put(game, to, ck);
                    } else {
                        self.place(game, to, ck);
                    }
                }
                reset |= game.resets_clock[code as usize - 1];
                // An uncovered hidden piece has not moved.
                if !undo.revealed {
                    self.clear_virgin_as::<KEYS>(game, from);
                }
                if mv.kind == MoveKind::EnPassantTarget {
                    ep_cells = game.rays[mv.aux as usize].must_empty;
                    ep_victim = to as u16;
                }
            }
        }
        // (Rights change only with a king's or rook's start cell: most moves touch none.)
        let changed = undo.virgin.and_not(self.virgin).or(self.virgin.and_not(undo.virgin));
        if KEYS && changed.intersects(game.castle_cell_set) {
            self.hash ^= self.castle_key(game, undo.virgin) ^ self.castle_key(game, self.virgin);
        }
        self.halfmove = if reset { 0 } else { self.halfmove.saturating_add(1) };
        let (next, wrapped) = if self.out != 0 {
            self.next_live(game, us)
        } else if us + 1 == game.sides {
            (0, true)
        } else {
            (us + 1, false)
        };
        if wrapped {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        if KEYS {
            self.set_to_move(game, next);
        } else {
            self.to_move = next;
        }
        if !KEYS {
            self.ep_cells = ep_cells;
            self.ep_victim = ep_victim;
        } else if !(ep_cells.is_empty() && self.ep_cells.is_empty()) {
            self.set_en_passant(game, ep_cells, ep_victim);
        }
        if let Some(p) = &game.passing {
            let passes = self.passes_after(game, mv, undo.passes, faced);
            self.hash ^= p.keys[undo.passes as usize] ^ p.keys[passes as usize];
            self.passes = passes;
        }
        undo
    }

    /// With the top piece of `cell` taken: puts the hidden piece beneath it, if any, on top in
    /// its place; returns whether there was one.
    #[inline(always)]
    fn uncover(&mut self, game: &Game<B>, cell: usize) -> bool {
        if !self.stacked.has(cell) {
            return false;
        }
        let hidden = self.take_under(game, cell);
        self.put(game, cell, hidden as usize - 1);
        true
    }

    /// Undoes [`Position::uncover`] (without the hash, as `unmake` restores it whole): the piece
    /// on `cell` goes back beneath.
    #[inline(always)]
    fn cover(&mut self, game: &Game<B>, cell: usize) {
        let hidden = self.lift(game, cell);
        self.set_under(game, cell, hidden);
    }

    #[inline(always)]
    fn clear_virgin(&mut self, game: &Game<B>, cell: usize) {
        self.clear_virgin_as::<true>(game, cell);
    }

    /// `clear_virgin`, with the hash kept (`KEYS`) or not ([`Position::make_move_unkeyed`]).
    #[inline(always)]
    fn clear_virgin_as<const KEYS: bool>(&mut self, game: &Game<B>, cell: usize) {
        if self.virgin.has(cell) {
            self.virgin.remove(cell);
            if KEYS {
                self.hash ^= game.zobrist.virgin[cell];
            }
        }
    }

    /// Takes back the move `undo` came from.
    pub fn unmake(&mut self, game: &Game<B>, undo: &Undo<B>) {
        let mv = undo.mv;
        if self.out != undo.out {
            while self.removed.0.len() > undo.removed as usize {
                if let Some((cell, code)) = self.removed.0.pop() {
                    if cell & REMOVED_HIDDEN != 0 {
                        self.put_under(game, (cell & !REMOVED_HIDDEN) as usize, code as usize - 1);
                    } else {
                        self.place(game, cell as usize, code as usize - 1);
                    }
                }
            }
            self.out = undo.out;
        }
        let prev = undo.mover as usize;
        self.to_move = prev;
        if undo.gave_check {
            self.checks[prev] -= 1;
        }
        match mv.kind {
            MoveKind::Stationary | MoveKind::Pass => {}
            MoveKind::Drop => {
                self.lift(game, mv.to as usize);
                self.hand[prev * game.kinds + mv.aux as usize] += 1;
            }
            MoveKind::Crown => {
                let to = mv.to as usize;
                self.hand[prev * game.kinds + (mv.aux & 0xff) as usize] += 1;
                if mv.aux & CROWN_HIDDEN != 0 {
                    self.set_under(game, to, undo.moved);
                } else {
                    self.lift(game, to);
                    self.place(game, to, undo.moved as usize - 1);
                }
            }
            MoveKind::Castle => {
                let c = &game.castles[prev][mv.aux as usize];
                let king = self.lift(game, c.king_to as usize);
                let rook = self.lift(game, c.rook_to as usize);
                if undo.revealed {
                    self.cover(game, c.king_from as usize);
                }
                if undo.revealed_rook {
                    self.cover(game, c.rook_from as usize);
                }
                self.place(game, c.king_from as usize, king as usize - 1);
                self.place(game, c.rook_from as usize, rook as usize - 1);
            }
            _ => {
                if mv.promotion == NO_PROMOTION && !undo.revealed {
                    self.shift(game, mv.to as usize, mv.from as usize, undo.moved as usize - 1);
                } else {
                    if undo.revealed {
                        self.cover(game, mv.from as usize);
                    }
                    self.lift(game, mv.to as usize);
                    self.place(game, mv.from as usize, undo.moved as usize - 1);
                }
                if undo.captured != 0 {
                    self.place(game, undo.captured_cell as usize, undo.captured as usize - 1);
                    if let Some(h) = game.hands.as_ref().filter(|h| h.capture_to_hand) {
                        self.hand[prev * game.kinds + h.hand_kind[undo.captured as usize - 1] as usize] -= 1;
                    }
                }
                if undo.captured_under != 0 {
                    self.set_under(game, undo.captured_cell as usize, undo.captured_under);
                }
            }
        }
        self.virgin = undo.virgin;
        self.ep_cells = undo.ep_cells;
        self.ep_victim = undo.ep_victim;
        self.ep_hash = undo.ep_hash;
        self.halfmove = undo.halfmove;
        self.fullmove = undo.fullmove;
        self.hash = undo.hash;
        self.passes = undo.passes;
    }

    /// The hash computed from scratch; equals `hash` when incremental updates are right.
    pub fn full_hash(&self, game: &Game<B>) -> u64 {
        let mut h = game.zobrist.side[self.to_move];
        for c in 0..game.cells {
            if self.board[c] != 0 {
                h ^= game.zobrist.piece[(self.board[c] as usize - 1) * game.cells + c];
            }
        }
        for c in self.virgin.iter() {
            h ^= game.zobrist.virgin[c];
        }
        h ^= self.castle_key(game, self.virgin);
        for s in 0..game.sides {
            if self.is_out(s) {
                h ^= game.zobrist.out[s];
            }
        }
        for c in self.stacked.iter() {
            h ^= game.zobrist.under[(self.under[c] as usize - 1) * game.cells + c];
        }
        for (ck, &n) in self.hand.iter().enumerate() {
            h ^= game.zobrist.hand[ck].wrapping_mul(n as u64);
        }
        for (s, &n) in self.checks.iter().enumerate() {
            h ^= self.checks_key(game, s, n);
        }
        if let Some(p) = &game.passing {
            h ^= p.keys[self.passes as usize & 3];
        }
        h ^ self.ep_key(game)
    }
}
