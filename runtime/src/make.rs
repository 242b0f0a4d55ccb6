//! Playing and taking back moves on a position: [`Position::make`] and its variants (unsettled,
//! unkeyed), [`Position::unmake`], and the helpers they share for stacks and unmoved cells.
//!
//! A second `impl` block of [`Position`], apart from `position.rs` (the position's state and the
//! primitives that keep it: `put`, `take`, `place`, `lift`, `shift`, hash keys) so that each file
//! holds one concern; the primitives it calls are `pub(crate)` there.

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::{Move, MoveKind, Position, Undo, CROWN_HIDDEN, NO_PROMOTION, REMOVED_HIDDEN};
use crate::tables::NO_CELL;

impl<B: CellSet> Position<B> {
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
    /// are counted (`check-limit`), a check changes the count only when it is the mover's last
    /// (the goal is met: no moves). Only then is it tested, with the whole `make` (who is in
    /// check depends on who moves next); below the limit the checks are left uncounted.
    /// `faced`: whether royal pieces face each other in this position, when the caller knows
    /// (perft's last ply makes every move of one position: it asks once).
    #[inline]
    pub fn make_unsettled(&mut self, game: &Game<B>, mv: Move, faced: Option<bool>) -> Undo<B> {
        let counts_checks = !game.zobrist.checks.is_empty();
        if !counts_checks || self.checks[self.to_move].saturating_add(1) < game.tables.rules.check_limit {
            self.make_move_unkeyed_facing(game, mv, faced)
        } else {
            self.make(game, mv)
        }
    }

    /// `make` without eliminations: the move alone, the turn passed to the next side in the game
    /// (what legality is judged on).
    pub fn make_move(&mut self, game: &Game<B>, mv: Move) -> Undo<B> {
        self.make_move_as::<true>(game, mv, None)
    }

    /// [`Position::make_move`] for a move that is only tested or counted, then taken back: the
    /// hash keys of the common moves (the pieces', the side to move's, the unmoved cells',
    /// castling's and en passant's) are left out, so `hash` and `ep_hash` are not the position's
    /// until [`Position::unmake`] restores them.
    /// Legality and move counts never read them.
    pub fn make_move_unkeyed(&mut self, game: &Game<B>, mv: Move) -> Undo<B> {
        self.make_move_unkeyed_facing(game, mv, None)
    }

    /// [`Position::make_move_unkeyed`], told whether royal pieces face each other before the
    /// move (`faced`, found when `None`).
    fn make_move_unkeyed_facing(&mut self, game: &Game<B>, mv: Move, faced: Option<bool>) -> Undo<B> {
        self.make_move_as::<false>(game, mv, faced)
    }

    /// [`Position::make_move`], with the hash kept (`KEYS`) or not ([`Position::make_move_unkeyed`]).
    #[inline(always)]
    fn make_move_as<const KEYS: bool>(&mut self, game: &Game<B>, mv: Move, faced: Option<bool>) -> Undo<B> {
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
        let faced = faced.unwrap_or_else(|| game.passing.as_ref().is_some_and(|p| p.any_facing) && self.royals_face(game));
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
                } else if mv.promotion == NO_PROMOTION {
                    // Off a stack: the piece goes on as it is, and uncovers the piece beneath.
                    let ck = code as usize - 1;
                    let hk = self.shift_off_stack(game, from, to, ck) as usize - 1;
                    if KEYS {
                        let z = &game.zobrist;
                        self.hash ^= z.piece[ck * game.cells + from] ^ z.piece[ck * game.cells + to] ^ z.under[hk * game.cells + from] ^ z.piece[hk * game.cells + from];
                    }
                    undo.revealed = true;
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
        let (next, wrapped) = self.side_after(game, us);
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
        let hidden = self.take_under(game, cell) as usize - 1;
        self.put(game, cell, hidden);
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
    pub(crate) fn clear_virgin(&mut self, game: &Game<B>, cell: usize) {
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
        self.unmake_inlined(game, undo);
    }

    /// [`Position::unmake`], inlined where it is called for every position counted (perft's
    /// last ply: a call cost the soccer ball 2.2, Shatranj 1.4, orthodox 0.9 instructions a leaf
    /// more; inlined there the binary is 5% larger, inlined everywhere 7%).
    #[inline(always)]
    pub(crate) fn unmake_inlined(&mut self, game: &Game<B>, undo: &Undo<B>) {
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
                self.held += 1;
            }
            MoveKind::Crown => {
                let to = mv.to as usize;
                self.hand[prev * game.kinds + (mv.aux & 0xff) as usize] += 1;
                self.held += 1;
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
                } else if mv.promotion == NO_PROMOTION {
                    self.shift_onto_stack(game, mv.to as usize, mv.from as usize, undo.moved as usize - 1);
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
                        self.held -= 1;
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
}
