//! Legal move generation, table-driven.
//!
//! For each piece the rays of its colored kind and cell are walked; destinations are collected per
//! piece in two bit sets (quiet, capture), so a cell reached by several paths is one move. Legality:
//! pins are found along the attack lines of each royal piece; a pinned piece may move only along
//! its pin lines, a lone royal piece only to unattacked cells; in check, a piece other than a lone
//! royal one only to a cell that stops every check (captures the checker or stands on its line);
//! en-passant captures, castling, the remaining royal and pinned moves (and every move in check
//! when a side has several royal pieces) are played and tested; all others are legal by
//! construction.

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::{Move, MoveKind, Position, CROWN_HIDDEN, NO_PROMOTION};
use crate::tables::ray;

/// Pins found for one position: which pieces are pinned and, for as many as fit, the cells they
/// may still move to (every pin line they stand on, from the royal piece to the pinner inclusive).
pub struct Pins<B> {
    pub pinned: B,
    len: usize,
    cells: [u16; MAX_PINS],
    allowed: [B; MAX_PINS],
}

/// Pins beyond this many are still found, but their moves are tested by playing them.
const MAX_PINS: usize = 16;

impl<B: CellSet> Pins<B> {
    /// The cells the pinned piece on `cell` may move to without exposing a royal piece, if known.
    fn allowed(&self, cell: usize) -> Option<B> {
        (0..self.len).find(|&i| self.cells[i] as usize == cell).map(|i| self.allowed[i])
    }

    fn add(&mut self, cell: usize, segment: B) {
        if self.pinned.has(cell) {
            // Pinned along two lines: it must stay on both.
            if let Some(i) = (0..self.len).find(|&i| self.cells[i] as usize == cell) {
                self.allowed[i] = self.allowed[i].and(segment);
            }
            return;
        }
        self.pinned.insert(cell);
        if self.len < MAX_PINS {
            self.cells[self.len] = cell as u16;
            self.allowed[self.len] = segment;
            self.len += 1;
        }
    }
}

impl<B: CellSet> Position<B> {
    /// Keeps the moves from `start` on that do not leave the mover's royal pieces attacked,
    /// judged by playing each.
    fn keep_legal_by_playing(&mut self, game: &Game<B>, out: &mut Vec<Move>, start: usize) {
        let us = self.to_move;
        let mut i = start;
        while i < out.len() {
            if self.legal_by_playing(game, out[i], us) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// Whether `mv` leaves no royal piece of `us` attacked, judged by playing it (on the move
    /// alone, before any side goes out).
    fn legal_by_playing(&mut self, game: &Game<B>, mv: Move, us: usize) -> bool {
        let undo = self.make_move(game, mv);
        let ok = !self.in_check(game, us);
        self.unmake(game, &undo);
        ok
    }

    /// Pieces of the side to move that stand between one of its royal pieces and an enemy line
    /// attacker, with the line segments they may move along.
    pub fn pins(&self, game: &Game<B>, royals: B) -> Pins<B> {
        let us = self.to_move;
        let mut pins = Pins { pinned: B::default(), len: 0, cells: [0; MAX_PINS], allowed: [B::default(); MAX_PINS] };
        for k in royals.iter() {
            for line in &game.lines[game.line_index[k] as usize..game.line_index[k + 1] as usize] {
                let cells = game.cells_of(line.cells);
                let mut blocker: Option<usize> = None;
                for (i, &c) in cells.iter().enumerate() {
                    let c = c as usize;
                    let code = self.board[c];
                    if code == 0 || Some(c) == blocker {
                        continue;
                    }
                    match blocker {
                        None => {
                            // A stack's top piece never empties its cell by moving: no pin.
                            if self.side_at(game, c) != us || (game.stacks && self.stacked.has(c)) {
                                break;
                            }
                            blocker = Some(c);
                        }
                        Some(b) => {
                            let mask = game.masks[line.masks as usize + i];
                            let side = self.side_at(game, c);
                            if (mask >> (code - 1)) & 1 != 0 && game.team[side] != game.team[us] && !self.is_out(side) {
                                pins.add(b, B::from_cells(cells[..=i].iter().map(|&x| x as usize)));
                            }
                            break;
                        }
                    }
                }
            }
        }
        pins
    }

    /// With the side to move in check on `royal`: the cells a piece other than the royal one must
    /// land on to stop every check (each checking piece's cell and the cells its line passes, met
    /// over all checks; empty when no one cell stops them all).
    fn check_stops(&self, game: &Game<B>, royal: usize, us: usize) -> B {
        let mut stops: Option<B> = None;
        let mut meet = |cells: B| stops = Some(stops.map_or(cells, |s| s.and(cells)));
        for &side in &game.opponents[us] {
            if self.is_out(side) {
                continue;
            }
            let di = royal * game.sides + side;
            for &(ck, set) in &game.direct[game.direct_index[di] as usize..game.direct_index[di + 1] as usize] {
                for c in self.by_ck[ck as usize].and(set).iter() {
                    meet(B::single(c));
                }
            }
            let ours = game.side_cks[side];
            for line in &game.lines[game.line_index[royal] as usize..game.line_index[royal + 1] as usize] {
                let cells = game.cells_of(line.cells);
                for (i, &c) in cells.iter().enumerate() {
                    let code = self.board[c as usize];
                    if code != 0 {
                        if (game.masks[line.masks as usize + i] & ours) >> (code - 1) & 1 != 0 {
                            meet(B::from_cells(cells[..=i].iter().map(|&x| x as usize)));
                        }
                        break;
                    }
                }
            }
        }
        stops.unwrap_or_default()
    }

    /// Appends every pseudo-legal move of the side to move to `out`. Returns nothing; legality is
    /// decided by [`Position::legal_moves`].
    pub fn pseudo_moves(&self, game: &Game<B>, out: &mut Vec<Move>) {
        let us = self.to_move;
        let own = self.by_side[us];
        let enemy = self.capturable(game);
        // Pieces that cannot check may not capture a royal piece either.
        let enemy_unroyal = if game.any_no_check {
            let mut royal = B::default();
            for &s in &game.opponents[us] {
                royal = royal.or(self.royals(game, s));
            }
            enemy.and_not(royal)
        } else {
            enemy
        };
        let empty_ok = game.tables.rules.stationary_moves;
        for from in own.iter() {
            let ck = self.board[from] as usize - 1;
            let enemy = if game.any_no_check && game.no_check[ck] {
                enemy_unroyal
            } else {
                enemy
            };
            let mut quiet = B::default();
            let mut capture = B::default();
            let mut stationary = false;
            for (ri, r) in game.rays_of(ck, from).iter().enumerate() {
                let f = r.flags;
                if f & ray::INITIAL != 0 && !self.virgin.has(from) {
                    continue;
                }
                if r.passes && r.must_empty.intersects(self.occupied) {
                    continue;
                }
                let cells = game.cells_of(r.cells);
                if f & ray::PASS_UNATTACKED != 0 {
                    // Rare and costly: test the passed cells only when the move could be made.
                    let c = cells[0] as usize;
                    let possible = if self.occupied.has(c) { f & ray::CAPTURE != 0 && enemy.has(c) } else { f & ray::QUIET != 0 };
                    if !possible || r.must_empty.iter().any(|p| self.attacked_by_enemy(game, p, us)) {
                        continue;
                    }
                }
                if f & ray::SLIDE != 0 {
                    let mut blocked = false;
                    for &c in cells {
                        let c = c as usize;
                        if self.occupied.has(c) {
                            if f & ray::CAPTURE != 0 && enemy.has(c) {
                                capture.insert(c);
                            }
                            blocked = true;
                            break;
                        }
                        if f & ray::QUIET != 0 {
                            quiet.insert(c);
                        }
                    }
                    if !blocked && empty_ok && f & ray::RETURNS != 0 && f & ray::QUIET != 0 {
                        stationary = true;
                    }
                } else {
                    let c = cells[0] as usize;
                    if self.occupied.has(c) {
                        if f & ray::CAPTURE != 0 && enemy.has(c) {
                            capture.insert(c);
                        }
                    } else {
                        if f & ray::QUIET != 0 {
                            if f & ray::EP_TARGET != 0 {
                                let ray_index = game.ray_index[ck * game.cells + from] as usize + ri;
                                self.push(game, ck, from, c, MoveKind::EnPassantTarget, ray_index as u32, out);
                            } else {
                                quiet.insert(c);
                            }
                        }
                        if f & ray::EP_CAPTURE != 0
                            && self.ep_cells.has(c)
                            && self.ep_victim != crate::tables::NO_CELL
                            && enemy.has(self.ep_victim as usize)
                        {
                            self.push(game, ck, from, c, MoveKind::EnPassant, 0, out);
                        }
                    }
                }
            }
            if game.winding {
                for w in &game.winders[ck] {
                    if w.zone.has(from) {
                        let (empty, hit) = self.flood(w, from);
                        if w.flags & ray::QUIET != 0 {
                            quiet = quiet.or(empty);
                        }
                        if w.flags & ray::CAPTURE != 0 {
                            capture = capture.or(hit.and(enemy));
                        }
                    }
                }
            }
            // A move never ends on a transit cell (rays reach them for attacks only).
            for to in quiet.and_not(game.transit).or(capture).iter() {
                self.push(game, ck, from, to, MoveKind::Normal, 0, out);
            }
            if stationary {
                out.push(Move { from: from as u16, to: from as u16, kind: MoveKind::Stationary, promotion: NO_PROMOTION, aux: 0 });
            }
        }
        self.castling_moves(game, out);
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn push(&self, game: &Game<B>, ck: usize, from: usize, to: usize, kind: MoveKind, aux: u32, out: &mut Vec<Move>) {
        let mv = Move { from: from as u16, to: to as u16, kind, promotion: NO_PROMOTION, aux };
        match &game.promotion[ck] {
            Some(p) if p.zone.has(to) => {
                let side = ck / game.kinds;
                for (&choice, &limit) in p.choices.iter().zip(&p.limit) {
                    // `captured`: only while the side has fewer of the kind than it set up.
                    if limit == u32::MAX || self.by_ck[side * game.kinds + choice as usize].count() < limit {
                        out.push(Move { promotion: choice, ..mv });
                    }
                }
                if p.optional.has(to) {
                    out.push(mv);
                }
            }
            _ => out.push(mv),
        }
    }

    fn castling_moves(&self, game: &Game<B>, out: &mut Vec<Move>) {
        let us = self.to_move;
        for (i, c) in game.castles[us].iter().enumerate() {
            let (kf, rf) = (c.king_from as usize, c.rook_from as usize);
            if !self.virgin.has(kf) || !self.virgin.has(rf) {
                continue;
            }
            if self.board[kf] == 0 || self.board[rf] == 0 || self.side_at(game, kf) != us || self.side_at(game, rf) != us {
                continue;
            }
            if c.empty.intersects(self.occupied) {
                continue;
            }
            if c.safe.iter().any(|&s| self.attacked_by_enemy(game, s as usize, us)) {
                continue;
            }
            out.push(Move { from: c.king_from, to: c.king_to, kind: MoveKind::Castle, promotion: NO_PROMOTION, aux: i as u32 });
        }
    }

    /// Whether the piece on `from` would stand unattacked on `to` (the piece lifted off `from`, so
    /// lines through it open; a piece captured on `to` attacks nothing there).
    #[inline]
    fn safe_destination(&mut self, game: &Game<B>, from: usize, to: usize, us: usize) -> bool {
        let code = self.board[from];
        self.board[from] = 0;
        self.occupied.remove(from);
        let safe = !self.attacked_by_enemy(game, to, us);
        self.occupied.insert(from);
        self.board[from] = code;
        safe
    }

    /// Appends the crowning moves of the side to move: each piece in its hand onto each own
    /// piece (top or hidden) of a kind that may carry it. Returns whether a royal piece is in the
    /// hand (then these are its only moves).
    fn crown_moves(&self, game: &Game<B>, out: &mut Vec<Move>) -> bool {
        let us = self.to_move;
        let mut royal_in_hand = false;
        for k in 0..game.kinds {
            let ck = us * game.kinds + k;
            if self.hand[ck] > 0 && game.royal[ck] {
                royal_in_hand = true;
            }
        }
        for k in 0..game.kinds {
            let ck = us * game.kinds + k;
            if self.hand[ck] == 0 || (royal_in_hand && !game.royal[ck]) {
                continue;
            }
            for &carrier in &game.tables.kinds[k].crowns {
                let carrier_ck = us * game.kinds + carrier as usize;
                for c in self.by_ck[carrier_ck].iter() {
                    out.push(Move {
                        from: c as u16,
                        to: c as u16,
                        kind: MoveKind::Crown,
                        promotion: NO_PROMOTION,
                        aux: k as u32,
                    });
                }
                for c in self.stacked.and(self.by_side[us]).iter() {
                    if self.under[c] as usize == carrier_ck + 1 {
                        out.push(Move {
                            from: c as u16,
                            to: c as u16,
                            kind: MoveKind::Crown,
                            promotion: NO_PROMOTION,
                            aux: k as u32 | CROWN_HIDDEN,
                        });
                    }
                }
            }
        }
        royal_in_hand
    }

    /// With `royal-path unattacked`: whether the royal piece on `from` can reach `to` along one
    /// of its rays passing only cells no opponent attacks (judged with it lifted off `from`).
    fn royal_path_safe(&mut self, game: &Game<B>, from: usize, to: usize, us: usize) -> bool {
        let code = self.board[from];
        let ck = code as usize - 1;
        self.board[from] = 0;
        self.occupied.remove(from);
        let mut safe = false;
        for r in game.rays_of(ck, from) {
            if r.passes && r.must_empty.intersects(self.occupied) {
                continue;
            }
            let cells = game.cells_of(r.cells);
            let reach = if r.flags & ray::SLIDE != 0 {
                let mut at = None;
                for (i, &c) in cells.iter().enumerate() {
                    if c as usize == to {
                        at = Some(i);
                        break;
                    }
                    if self.occupied.has(c as usize) {
                        break;
                    }
                }
                at
            } else {
                (cells[0] as usize == to).then_some(0)
            };
            let Some(i) = reach else { continue };
            let ok = if self.occupied.has(to) {
                r.flags & ray::CAPTURE != 0
            } else {
                r.flags & ray::QUIET != 0
            };
            if !ok {
                continue;
            }
            let leaps = r.flags & ray::SLIDE == 0 && !r.passes;
            let passed_safe = leaps
                || (r
                    .must_empty
                    .iter()
                    .all(|c| !self.attacked_by_enemy(game, c, us))
                    && (r.flags & ray::SLIDE == 0
                        || cells[..i]
                            .iter()
                            .all(|&c| !self.attacked_by_enemy(game, c as usize, us))));
            if passed_safe {
                safe = true;
                break;
            }
        }
        self.occupied.insert(from);
        self.board[from] = code;
        safe
    }

    /// Appends the legal moves of the side to move to `out`.
    pub fn legal_moves(&mut self, game: &Game<B>, out: &mut Vec<Move>) {
        let start = out.len();
        let us = self.to_move;
        // A game over by a bare royal has no moves.
        if game.tables.rules.bare.is_some() && self.bare_side(game).is_some() {
            return;
        }
        // A game won or lost by a goal (`reach`, `check-limit`, `extinction`) has no moves.
        if game.goals && self.goal(game).is_some() {
            return;
        }
        if game.stacks {
            if self.crown_moves(game, out) {
                self.keep_legal_by_playing(game, out, start);
                return;
            }
            // Crowning moves (and, below, moves off stacks) are judged by playing them.
            self.pseudo_moves(game, out);
        } else {
            self.pseudo_moves(game, out);
        }
        let royals = self.royals(game, us);
        if royals.is_empty() {
            return;
        }
        let in_check = royals.iter().any(|r| self.attacked_by_enemy(game, r, us));
        // With one royal piece, a plain move of it is legal iff its destination is not attacked
        // once it has left its cell: no need to play it.
        let lone_royal = if royals.count() == 1 { royals.iter().next() } else { None };
        // In check with one royal piece, a plain move of an unpinned piece is legal iff it stops
        // every check; with several royal pieces every move is played.
        // Winding paths are not in the attack tables: with winders every move is played.
        let stops = lone_royal.filter(|_| in_check && !game.winding).map(|r| self.check_stops(game, r, us));
        let pins = if game.winding || (in_check && stops.is_none()) {
            None
        } else {
            Some(self.pins(game, royals))
        };
        // A move off a stack leaves its cell occupied, so it uncovers no line: unless the hidden
        // piece is royal (then the cell is in `royals`), it is judged as any unpinned move.
        let suspect = pins.as_ref().map(|p| p.pinned.or(royals));
        let royal_path = game.tables.rules.royal_path_unattacked;
        let mut i = start;
        while i < out.len() {
            let mv = out[i];
            let test = match suspect {
                None => true,
                Some(s) => s.has(mv.from as usize) || !matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget),
            };
            let from = mv.from as usize;
            let legal = if !test {
                stops.is_none_or(|s| s.has(mv.to as usize))
            } else if game.stacks && (self.stacked.has(from) || mv.kind == MoveKind::Crown) {
                // The cell stays occupied when its top piece leaves (the hidden one is
                // uncovered, and may be royal): judged by playing the move.
                self.legal_by_playing(game, mv, us)
            } else if royal_path
                && mv.kind == MoveKind::Normal
                && royals.has(from)
                && !self.royal_path_safe(game, from, mv.to as usize, us)
            {
                false
            } else if mv.kind == MoveKind::Stationary {
                !in_check
            } else if lone_royal == Some(mv.from as usize) && mv.kind == MoveKind::Normal && mv.promotion == NO_PROMOTION {
                self.safe_destination(game, mv.from as usize, mv.to as usize, us)
            } else if let Some(allowed) = pins
                .as_ref()
                .filter(|_| matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget) && !royals.has(mv.from as usize))
                .and_then(|p| p.allowed(mv.from as usize))
            {
                // A pinned piece stays legal exactly on its pin lines (and, in check, where it
                // stops the check).
                allowed.has(mv.to as usize) && stops.is_none_or(|s| s.has(mv.to as usize))
            } else {
                self.legal_by_playing(game, mv, us)
            };
            if legal {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }
}
