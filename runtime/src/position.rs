//! A position and the moves that change it: its state and the primitives that keep it (pieces put
//! and taken, stacks, hands, unmoved cells, en passant, eliminations, hash keys). Playing moves
//! ([`Position::make`], [`Position::unmake`]) is in `make.rs`, attack tests
//! ([`Position::attacked_by`], [`Position::in_check`]) in `attacks.rs`.
//!
//! State is kept incrementally (piece sets, occupancy, hash) so that make/unmake cost a handful of
//! bit operations and no allocation beyond the caller's undo stack.

use crate::bits::CellSet;
use crate::per64::Per64;
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
pub(crate) const REMOVED_HIDDEN: u16 = 1 << 15;

impl PartialEq for Removed {
    fn eq(&self, _: &Removed) -> bool {
        true
    }
}

impl Eq for Removed {}

/// A position. `board[cell]` is `0` for empty or `ck + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position<B: CellSet> {
    pub board: Vec<u8>,
    /// Per colored kind.
    pub by_ck: Per64<B>,
    /// The colored kinds that have a piece on top somewhere, a bit each (kept with `by_ck`):
    /// counting skips the others without looking at their sets.
    pub present: u64,
    /// Per side.
    pub by_side: Per64<B>,
    /// Per side: its pieces that attack along lines (kept with `by_ck`, for attack tests).
    pub line_pieces: Per64<B>,
    /// Per side: its royal pieces on top (kept with `by_ck`, for [`Position::royals`]).
    pub royal_tops: Per64<B>,
    /// Every side's royal pieces on top, at once (kept with `royal_tops`: what a side may not
    /// capture, with more than two sides).
    pub all_royal_tops: B,
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
    /// How many pieces all hands hold (kept with `hand`): most positions of the games with
    /// drops hold none, answered without reading `hand`. (A count, not a set of kinds, and
    /// here: it fits where the position had room. A set of kinds, or this count declared after
    /// `hand`, changed the layout, and the 8x8 cubes' count got dearer by 1.0 instructions a
    /// leaf.)
    pub held: u32,
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
    /// The side to move's pieces whose moves perft's last ply counted already
    /// (`crate::kept_counts`), which the count of the pieces passes; empty but in that count.
    pub kept_aside: B,
    /// Per colored kind: how many are in the hand.
    pub hand: Per64<u8>,
    /// Per side: the checks it has given (`check-limit`; zeros without it).
    pub checks: Per64<u8>,
    /// Whether the last move was a pass, or the game ended by passing or facing
    /// ([`crate::passing`]); always 0 without those rules.
    pub passes: u8,
    /// The hopping pieces' destinations last found on each cell (a cache, `crate::hops`).
    pub hop_memo: crate::hops::HopMemo<B>,
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
            by_ck: Per64::new(game.sides * game.kinds),
            present: 0,
            by_side: Per64::new(game.sides),
            line_pieces: Per64::new(game.sides),
            royal_tops: Per64::new(game.sides),
            all_royal_tops: B::default(),
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
            kept_aside: B::default(),
            hand: Per64::new(game.sides * game.kinds),
            held: 0,
            checks: Per64::new(game.sides),
            passes: 0,
            hop_memo: crate::hops::HopMemo::new(game),
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
    pub(crate) fn set_under(&mut self, game: &Game<B>, cell: usize, code: u8) {
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
        self.held = self.held.wrapping_add_signed(n);
    }

    /// Whether `side` is out of the game.
    #[inline(always)]
    pub fn is_out(&self, side: usize) -> bool {
        self.out >> side & 1 != 0
    }

    /// The side to move after a move of `side` (the next one still in the game), and whether the
    /// turn order wrapped round (a new full move).
    #[inline(always)]
    pub fn side_after(&self, game: &Game<B>, side: usize) -> (usize, bool) {
        if self.out != 0 {
            self.next_live(game, side)
        } else if side + 1 == game.sides {
            (0, true)
        } else {
            (side + 1, false)
        }
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
        self.capturable_by(game, self.to_move)
    }

    /// [`Position::capturable`] for `us` to move (perft's kept counts ask it for the side
    /// after the one to move: `crate::kept_counts`).
    #[inline(always)]
    pub(crate) fn capturable_by(&self, game: &Game<B>, us: usize) -> B {
        if game.sides == 2 {
            return self.by_side[1 - us];
        }
        self.capturable_by_teams(game, us)
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
    fn capturable_by_teams(&self, game: &Game<B>, us: usize) -> B {
        // The board less what may not be taken: every royal piece (on top or, with stacks,
        // hidden) and the pieces of `us`'s team, less the pieces of the sides that are out (a
        // side that is out loses every piece it leaves on the board).
        debug_assert_eq!(self.all_royal_tops, self.royal_tops.iter().fold(B::default(), |all, &r| all.or(r)));
        let mut kept = self.all_royal_tops;
        if game.stacks {
            kept = kept.or(self.hidden_royal);
        }
        let mut friends = game.team_sides[game.team[us]];
        while friends != 0 {
            kept = kept.or(self.by_side[friends.trailing_zeros() as usize]);
            friends &= friends - 1;
        }
        let mut out = self.out;
        while out != 0 {
            kept = kept.and_not(self.by_side[out.trailing_zeros() as usize]);
            out &= out - 1;
        }
        self.occupied.and_not(kept)
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
    pub(crate) fn place(&mut self, game: &Game<B>, cell: usize, ck: usize) {
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
            self.all_royal_tops.insert(cell);
        }
        self.occupied.insert(cell);
    }

    /// The piece of colored kind `ck` on `from` moved to the empty cell `to` without the hash:
    /// `lift` and `place` in one, each of the piece's sets looked up once.
    #[inline(always)]
    pub(crate) fn shift(&mut self, game: &Game<B>, from: usize, to: usize, ck: usize) {
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
        self.shift_marks(game, ck, side, from, to);
        self.occupied.remove(from);
        self.occupied.insert(to);
    }

    /// The piece of colored kind `ck` (of `side`) moved from `from` to `to` in the sets its kind
    /// marks besides `by_ck` and `by_side`: the line pieces and the royal tops (the shifts' part
    /// in common).
    #[inline(always)]
    fn shift_marks(&mut self, game: &Game<B>, ck: usize, side: usize, from: usize, to: usize) {
        if game.line_ck_mask >> (ck & 63) & 1 != 0 {
            let lines = &mut self.line_pieces[side];
            lines.remove(from);
            lines.insert(to);
        }
        if game.royal_ck_mask >> (ck & 63) & 1 != 0 {
            for royals in [&mut self.royal_tops[side], &mut self.all_royal_tops] {
                royals.remove(from);
                royals.insert(to);
            }
        }
    }

    /// The top piece of colored kind `ck` on the stack `from` moved to the empty cell `to`,
    /// without the hash: the hidden piece beneath comes on top in its place. `shift` and the
    /// uncovering in one, the cell's sets that stay occupied left as they are. Returns the code
    /// of the piece uncovered.
    #[inline(always)]
    pub(crate) fn shift_off_stack(&mut self, game: &Game<B>, from: usize, to: usize, ck: usize) -> u8 {
        debug_assert!(self.stacked.has(from) && self.board[to] == 0, "a shift off a stack onto an empty cell");
        let hidden = self.under[from];
        let hk = hidden as usize - 1;
        self.under[from] = 0;
        self.stacked.remove(from);
        self.hidden_royal.remove(from);
        self.board[to] = self.board[from];
        self.board[from] = hidden;
        let by_ck = &mut self.by_ck[ck];
        by_ck.remove(from);
        by_ck.insert(to);
        self.by_ck[hk].insert(from);
        self.present |= 1 << (hk & 63);
        let (side, hside) = (game.side_of[ck & 63] as usize, game.side_of[hk & 63] as usize);
        self.by_side[side].insert(to);
        if side != hside {
            self.by_side[side].remove(from);
            self.by_side[hside].insert(from);
        }
        // (The top piece's cell left before the hidden one's is marked.)
        self.shift_marks(game, ck, side, from, to);
        if game.line_ck_mask >> (hk & 63) & 1 != 0 {
            self.line_pieces[hside].insert(from);
        }
        if game.royal_ck_mask >> (hk & 63) & 1 != 0 {
            self.royal_tops[hside].insert(from);
            self.all_royal_tops.insert(from);
        }
        self.occupied.insert(to);
        hidden
    }

    /// Undoes [`Position::shift_off_stack`] (without the hash, as `unmake` restores it whole):
    /// the piece of colored kind `ck` on `from` goes back to `to`, over the piece there, which
    /// goes back beneath.
    #[inline(always)]
    pub(crate) fn shift_onto_stack(&mut self, game: &Game<B>, from: usize, to: usize, ck: usize) {
        debug_assert!(!self.stacked.has(to) && self.board[to] != 0, "a shift back onto an uncovered piece");
        let hidden = self.board[to];
        let hk = hidden as usize - 1;
        self.by_ck[hk].remove(to);
        if self.by_ck[hk].is_empty() {
            self.present &= !(1 << (hk & 63));
        }
        let (side, hside) = (game.side_of[ck & 63] as usize, game.side_of[hk & 63] as usize);
        if game.line_ck_mask >> (hk & 63) & 1 != 0 {
            self.line_pieces[hside].remove(to);
        }
        if game.royal_ck_mask >> (hk & 63) & 1 != 0 {
            self.royal_tops[hside].remove(to);
            self.all_royal_tops.remove(to);
        }
        self.under[to] = hidden;
        self.stacked.insert(to);
        if game.royal[hk] {
            self.hidden_royal.insert(to);
        }
        self.board[to] = self.board[from];
        self.board[from] = 0;
        let by_ck = &mut self.by_ck[ck];
        by_ck.remove(from);
        by_ck.insert(to);
        self.by_side[side].remove(from);
        if side != hside {
            self.by_side[hside].remove(to);
            self.by_side[side].insert(to);
        }
        self.shift_marks(game, ck, side, from, to);
        self.occupied.remove(from);
    }

    /// `take` without the hash.
    #[inline(always)]
    pub(crate) fn lift(&mut self, game: &Game<B>, cell: usize) -> u8 {
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
            self.all_royal_tops.remove(cell);
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
    pub(crate) fn castle_key(&self, game: &Game<B>, virgin: B) -> u64 {
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
            for &(ck, from) in &game.ep_capturers[c * game.sides + self.to_move] {
                able = able.or(from.and(self.by_ck[ck as usize]));
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
        if game.sides == 2 {
            // (Two tests, no loop: Crowned Chess -0.9 instructions a leaf, the soccer balls -0.6,
            // Shatranj -0.5.)
            return self.by_side[0].and_not(self.royal_tops[0]).is_empty() || self.by_side[1].and_not(self.royal_tops[1]).is_empty();
        }
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
