//! Legal move generation, table-driven.
//!
//! For each piece its moves from its cell are collected in one destination set (so a cell reached
//! by several paths is one move): the plain leaps are a precomputed set, the plain slides are
//! followed run by run (`game.rs`), the rays with conditions one by one. Legality: pins are found
//! along the attack lines of each royal piece (`crate::pins`); a pinned piece may move only along
//! its pin lines, a lone royal piece only to unattacked cells (castling judged with king and rook
//! moved on the board); in check, a piece other than a lone royal one only to a cell that stops
//! every check (captures the checker or stands on its line); en-passant captures, the remaining
//! royal and pinned moves (and every move in check when a side has several royal pieces) are played
//! and tested; all others are legal by construction. Hops and winding paths are not in the attack
//! tables: with them, the moves from or to a *watched* cell (`crate::hops`) are played and tested
//! too; in a hop check every other move is illegal, and in check with winding rules every move is
//! played. [`Position::count_legal`] (`crate::count`) counts without listing: the moves of a piece
//! legal by construction are counted by the size of its set.
//!
//! The judgement itself is in `crate::legality` (what a generation knows of the position, and
//! each move judged with it) and `crate::royal_safety` (a royal piece's destinations).

use crate::bits::CellSet;
use crate::game::{leaps, Game};
use crate::legality::Legality;
use crate::position::{Move, MoveKind, Position, CROWN_HIDDEN, NO_PROMOTION};
use crate::tables::ray;

impl<B: CellSet> Position<B> {
    /// The pieces the side to move may capture: all capturable ones, and those a piece that
    /// cannot check may capture (not the royal ones).
    #[inline(always)]
    pub(crate) fn targets(&self, game: &Game<B>) -> (B, B) {
        self.targets_of(game, self.to_move)
    }

    /// [`Position::targets`] of `us` (the side to move, or for perft's kept counts the next
    /// one).
    #[inline(always)]
    pub(crate) fn targets_of(&self, game: &Game<B>, us: usize) -> (B, B) {
        if game.sides == 2 && !game.any_no_check {
            // (Most games: the other side's pieces, found without a call.)
            let enemy = self.by_side[1 - us];
            return (enemy, enemy);
        }
        self.targets_apart(game, us)
    }

    /// [`Position::targets_of`] with more than two sides or pieces that cannot check.
    #[inline(never)]
    fn targets_apart(&self, game: &Game<B>, us: usize) -> (B, B) {
        let enemy = self.capturable_by(game, us);
        // Pieces that cannot check may not capture a royal piece either.
        let enemy_unroyal = if game.any_no_check && game.sides == 2 {
            enemy.and_not(self.royals(game, 1 - us))
        } else if game.any_no_check {
            let mut royal = B::default();
            for &s in &game.opponents[us] {
                royal = royal.or(self.royals(game, s));
            }
            enemy.and_not(royal)
        } else {
            enemy
        };
        (enemy, enemy_unroyal)
    }

    /// Appends every pseudo-legal move of the side to move to `out`. Returns nothing; legality is
    /// decided by [`Position::legal_moves`]. The leapers' moves are read from their leap sets,
    /// and the pieces hemmed in by their own skipped, as the count does (`count.rs`): perft's
    /// lists above the last ply cost orthodox 2.1 instructions a leaf less, Webball and Crowned
    /// Chess 4.6, Shatranj 2.8.
    pub fn pseudo_moves(&self, game: &Game<B>, out: &mut Vec<Move>) {
        let (enemy, enemy_unroyal) = self.targets(game);
        // (The pieces that could capture en passant now take the walk, as in the count.)
        let ep_capturing = if self.ep_cells.is_empty() { B::default() } else { self.ep_capturing(game) };
        for from in self.by_side[self.to_move].iter() {
            let ck = self.board[from] as usize - 1;
            let enemy = if game.any_no_check && game.no_check[ck] { enemy_unroyal } else { enemy };
            let m = &game.piece_moves[ck * game.cells + from];
            // (Kings, knights, pawns, most of Shatranj's pieces: their leap sets, and initial
            // steps, are their moves, listed in the order `piece_moves` lists them, without its
            // walk.)
            if m.leaper == leaps::PLAIN {
                for to in m.leap_quiet.and_not(self.occupied).or(m.leap_capture.and(enemy)).iter() {
                    self.push(game, ck, from, to, MoveKind::Normal, 0, out);
                }
                continue;
            }
            if m.leaper == leaps::INITIAL && !ep_capturing.has(from) {
                if self.virgin.has(from) {
                    self.push_initial_steps(game, m, from, out);
                }
                for to in m.leap_quiet.and_not(self.occupied).or(m.leap_capture.and(enemy)).iter() {
                    self.push(game, ck, from, to, MoveKind::Normal, 0, out);
                }
                continue;
            }
            if m.gated && m.gates.and_not(self.occupied.and_not(enemy)).is_empty() {
                // Every ray is blocked where it starts (`PieceMoves::gates`): no move.
                continue;
            }
            let (targets, _, stationary) = self.piece_moves::<true, false>(game, ck, from, enemy, true, out);
            for to in targets.iter() {
                self.push(game, ck, from, to, MoveKind::Normal, 0, out);
            }
            if stationary {
                out.push(Move { from: from as u16, to: from as u16, kind: MoveKind::Stationary, promotion: NO_PROMOTION, aux: 0 });
            }
        }
        self.castling_moves(game, None, out);
    }

    /// Appends the open initial steps of the unmoved piece with moves `m` on `from`
    /// (`leaps::INITIAL`), as `piece_moves` lists them (such a piece never promotes here: no
    /// choice to list). (A call, in a branch of its own: with one branch for every leaper and
    /// the steps inline, the boards without such steps cost up to 1.5 instructions a leaf more,
    /// Crowned Chess, Shatranj 0.9.)
    #[inline(never)]
    fn push_initial_steps(&self, game: &Game<B>, m: &crate::game::PieceMoves<B>, from: usize, out: &mut Vec<Move>) {
        for sp in &game.specials[m.specials.0 as usize..m.ep_only as usize] {
            if self.initial_step_open(sp.to, sp.pass, None) != 0 {
                out.push(Move { from: from as u16, to: sp.to, kind: MoveKind::EnPassantTarget, promotion: NO_PROMOTION, aux: sp.ray });
            }
        }
    }

    /// The plain moves of the piece of colored kind `ck` on `from` as the cells it may go to
    /// (quiet or capturing `enemy`), the cells of its moves that set en-passant cells (appended
    /// to `out` instead when `list`), and whether it may make a stationary move; its captures en
    /// passant are appended to `out`. `HOME`: whether plain slides back to the start are looked
    /// for (`Game::homing`: the count passes `false` in the games with none); `HOPS`: whether
    /// hop destinations are read in place (`Position::count_moves`).
    #[inline(always)]
    pub(crate) fn piece_moves<const HOME: bool, const HOPS: bool>(&self, game: &Game<B>, ck: usize, from: usize, enemy: B, list: bool, out: &mut Vec<Move>) -> (B, B, bool) {
        let m = &game.piece_moves[ck * game.cells + from];
        debug_assert!(HOME || !(m.homing && m.plain_slides), "a slide back to the start overlooked");
        let occupied = self.occupied;
        let mut quiet = m.leap_quiet.and_not(occupied);
        let mut capture = m.leap_capture;
        // Plain slides, run by run: the cells passed, and the first occupied cell if it may be
        // captured (`capture` is met with `enemy` at the end); a slide back to the start met
        // unblocked makes a stationary move.
        let mut stationary = false;
        let runs = &game.slide_runs[m.slides.0 as usize..m.slides.1 as usize];
        let base = m.slides.0 as usize;
        let mut i = 0;
        if m.plain_slides {
            // (Most riders.) The cells reached, blockers included: the empty ones are quiet
            // moves, the occupied ones captures.
            let reach = game.slide_reach(m, occupied);
            i = runs.len();
            quiet = quiet.or(reach.and_not(occupied));
            capture = capture.or(reach.and(occupied));
            if HOME {
                // (The start cell is reached only by the run that holds it alone, after a slide
                // got back: `PieceMoves::homing`.)
                stationary = m.homing & reach.has(from);
            }
        }
        // (After plain slides `i` is past the last run: this loop is for the others.)
        while let Some(r) = runs.get(i) {
            let k = r.run.word as usize;
            let (passed, blocker) = r.run.walk(occupied.word(k));
            if r.quiet {
                quiet.or_word(k, passed);
            }
            match blocker {
                None => {
                    stationary |= r.returns;
                    i += 1;
                }
                Some(b) => {
                    if r.capture {
                        capture.or_word(k, 1 << b);
                    }
                    i = r.next as usize - base;
                }
            }
        }
        let mut capture = capture.and(enemy);
        let end = if self.ep_cells.is_empty() { m.ep_only } else { m.specials.1 };
        // (In games with winding or hop rules, only the kinds that have them go on.)
        let walked = (game.winding || game.hopping) && game.walked[ck];
        if m.specials.0 == end && !walked {
            // (The leap sets and slide runs leave transit cells out.)
            return (quiet.or(capture), B::default(), stationary);
        }
        let mut sets_ep = B::default();
        let empty_ok = game.tables.rules.stationary_moves;
        for sp in &game.specials[m.specials.0 as usize..end as usize] {
            let r = &game.rays[sp.ray as usize];
            let f = sp.flags;
            if f & ray::INITIAL != 0 && !self.virgin.has(from) {
                continue;
            }
            if r.passes && r.must_empty.intersects(self.occupied) {
                continue;
            }
            if f & ray::PASS_UNATTACKED != 0 {
                // Rare and costly: test the passed cells only when the move could be made.
                let c = game.cells_of(r.cells)[0] as usize;
                let possible = if self.occupied.has(c) { f & ray::CAPTURE != 0 && enemy.has(c) } else { f & ray::QUIET != 0 };
                let to_move = self.to_move;
                // (On a `CLIPPED` board the passed cells are listed: a set may not hold them.)
                if !possible
                    || if B::CLIPPED {
                        game.passed(sp.ray as usize).any(|p| self.attacked_by_enemy(game, p, to_move))
                    } else {
                        r.must_empty.iter().any(|p| self.attacked_by_enemy(game, p, to_move))
                    }
                {
                    continue;
                }
            }
            if f & ray::SLIDE != 0 {
                let (passed, blocker) = game.slide(r.segments, self.occupied);
                if f & ray::QUIET != 0 {
                    quiet = quiet.or(passed);
                }
                match blocker {
                    Some(b) => {
                        if f & ray::CAPTURE != 0 && enemy.has(b) {
                            capture.insert(b);
                        }
                    }
                    None => stationary |= empty_ok && f & ray::RETURNS != 0 && f & ray::QUIET != 0,
                }
            } else {
                let c = game.pool[r.cells.0 as usize] as usize;
                if self.occupied.has(c) {
                    if f & ray::CAPTURE != 0 && enemy.has(c) {
                        capture.insert(c);
                    }
                } else {
                    if f & ray::QUIET != 0 {
                        if f & ray::EP_TARGET != 0 {
                            if list {
                                self.push(game, ck, from, c, MoveKind::EnPassantTarget, sp.ray, out);
                            } else {
                                sets_ep.insert(c);
                            }
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
        if walked {
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
            if !game.hoppers[ck].is_empty() {
                let (q, c) = if HOPS { self.hop_moves_inline(game, ck, from, enemy) } else { self.hop_moves(game, ck, from, enemy) };
                quiet = quiet.or(q);
                capture = capture.or(c);
            }
        }
        // A move never ends on a transit cell (rays reach them for attacks only).
        (quiet.and_not(game.transit).or(capture), sets_ep, stationary)
    }

    /// Whether `side` may promote to `choice` now: always, or under `captured` (a `limit`) only
    /// while it has fewer of that kind than it set up.
    #[inline(always)]
    pub(crate) fn choice_open(&self, game: &Game<B>, side: usize, choice: u8, limit: u32) -> bool {
        limit == u32::MAX || self.by_ck[side * game.kinds + choice as usize].count() < limit
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push(&self, game: &Game<B>, ck: usize, from: usize, to: usize, kind: MoveKind, aux: u32, out: &mut Vec<Move>) {
        let mv = Move { from: from as u16, to: to as u16, kind, promotion: NO_PROMOTION, aux };
        match &game.promotion[ck] {
            Some(p) if p.zone.has(to) || p.from.has(from) => {
                let side = game.side_of[ck & 63] as usize;
                for (&choice, &limit) in p.choices.iter().zip(&p.limit) {
                    if self.choice_open(game, side, choice, limit) {
                        out.push(Move { promotion: choice, ..mv });
                    }
                }
                // Staying as it is: on the zone's optional cells, and off the zone (a move that
                // promotes only because it starts in a `from-or-to` zone).
                if p.optional.has(to) || !p.zone.has(to) {
                    out.push(mv);
                }
            }
            _ => out.push(mv),
        }
    }

    /// Appends the castling moves of the side to move whose cells are free and safe.
    ///
    /// When counting ([`Position::count_legal`]), `judged` holds the position's legality and
    /// the cells the lone royal piece's moves found unattacked: castling tests those cells no
    /// more, and counts the moves that are then surely legal instead of appending them (the
    /// lone royal piece's castling, where `is_legal` would only ask `castle_safe` and a rule
    /// with no `recheck` is safe once its cells are).
    #[inline(always)]
    pub(crate) fn castling_moves(&self, game: &Game<B>, judged: Option<(&Legality<B>, B)>, out: &mut Vec<Move>) -> u64 {
        // Most positions have no castling right left, or none with its cells empty: answered
        // without a call.
        let us = self.to_move;
        if !self.virgin.intersects(game.castle_kings[us]) || game.castles[us].iter().all(|c| c.empty.intersects(self.occupied)) {
            return 0;
        }
        self.castling_moves_with_rights(game, judged, out)
    }

    /// [`Position::castling_moves`] when the side to move has a castling right.
    #[inline(never)]
    fn castling_moves_with_rights(&self, game: &Game<B>, judged: Option<(&Legality<B>, B)>, out: &mut Vec<Move>) -> u64 {
        let us = self.to_move;
        let (mut safe, mut sure) = (B::default(), None);
        if let Some((l, known_safe)) = judged {
            if !l.in_check {
                // (The royal piece's own cell, then.)
                safe = known_safe.or(l.lone_royal.map_or(B::default(), B::single));
            }
            // (Unless the royal path may refuse them; facing was answered before.)
            sure = l.lone_royal.filter(|_| !game.tables.rules.royal_path_unattacked);
        }
        // The cheap conditions first, rule by rule; then the cells the open rules need safe,
        // tested together (a cell two rules need, once).
        let castles = &game.castles[us];
        let mut open = 0u64;
        let mut need = B::default();
        for (i, c) in castles.iter().enumerate() {
            if self.castle_open(game, c, us) {
                open |= 1 << (i & 63);
                need = need.or(c.safe_set);
            }
        }
        if open == 0 {
            return 0;
        }
        need = need.and_not(safe);
        let mut attacked = self.attacked_directly_among(game, need, us);
        for s in need.and_not(attacked).iter() {
            if self.attacked_along_lines_by_enemy(game, s, us, self.occupied) {
                attacked.insert(s);
            }
        }
        let mut n = 0;
        for (i, c) in castles.iter().enumerate() {
            // (Beyond 64 rules, the cheap conditions are asked again.)
            let is_open = if i < 64 { open >> i & 1 != 0 } else { self.castle_open(game, c, us) };
            if is_open && !c.safe_set.intersects(attacked) {
                if !c.recheck && sure == Some(c.king_from as usize) && !(game.stacks && (self.stacked.has(c.king_from as usize) || self.stacked.has(c.rook_from as usize))) {
                    n += 1;
                } else {
                    out.push(Move { from: c.king_from, to: c.king_to, kind: MoveKind::Castle, promotion: NO_PROMOTION, aux: i as u32 });
                }
            }
        }
        n
    }

    /// Whether castling rule `c` of `us` passes the cheap conditions: king and rook unmoved and
    /// at home, the cells between empty (not yet whether the cells to pass are safe).
    #[inline(always)]
    fn castle_open(&self, game: &Game<B>, c: &crate::game::Castle<B>, us: usize) -> bool {
        let (kf, rf) = (c.king_from as usize, c.rook_from as usize);
        if !c.home.and_not(self.virgin.and(self.by_side[us])).is_empty() || c.empty.intersects(self.occupied) {
            return false;
        }
        // Castling moves the top pieces: one hidden beneath stays on its cell, where neither
        // the king nor the rook may land.
        !(game.stacks && [kf, rf].iter().any(|&x| self.stacked.has(x) && (x == c.king_to as usize || x == c.rook_to as usize)))
    }

    /// Appends the crowning moves of the side to move: each piece in its hand onto each own
    /// piece (top or hidden) of a kind that may carry it. Returns whether a royal piece is in the
    /// hand (then these are its only moves).
    #[inline(always)]
    pub(crate) fn crown_moves(&self, game: &Game<B>, out: &mut Vec<Move>) -> bool {
        // Most positions have no crowning piece in the hand: answered without a call.
        if game.crowning_cks[self.to_move].iter().all(|&ck| self.hand[ck as usize] == 0) {
            return false;
        }
        self.list_crown_moves(game, out)
    }

    /// [`Position::crown_moves`] with a crowning piece in the hand.
    #[inline(never)]
    fn list_crown_moves(&self, game: &Game<B>, out: &mut Vec<Move>) -> bool {
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

    /// Appends the legal moves of the side to move to `out`.
    pub fn legal_moves(&mut self, game: &Game<B>, out: &mut Vec<Move>) {
        let start = out.len();
        // A game over by a bare royal has no moves.
        if game.tables.rules.bare.is_some() && self.may_be_bare(game) && self.bare_side(game).is_some() {
            return;
        }
        // A game won or lost by a goal (`reach`, `check-limit`, `extinction`) has no moves.
        if game.goals && self.goal(game).is_some() {
            return;
        }
        if self.passing_ended() {
            return;
        }
        if game.stacks && self.crown_moves(game, out) {
            self.keep_legal_by_playing(game, out, start);
            self.push_pass(game, out);
            return;
        }
        // Crowning moves are judged by playing them (`is_legal`), and moves off stacks whose top
        // piece is royal.
        self.pseudo_moves(game, out);
        let mut legality = Legality::new();
        let l = self.legality::<false, false>(game, &mut legality, None, None, None).then_some(&legality);
        if let Some(l) = l {
            if l.facing {
                self.keep_facing_enders(game, out, start);
            }
            self.keep_legal_listed(game, l, out, start);
        }
        if let Some(h) = &game.hands {
            let dropped = out.len();
            self.drops(game, h, l.map(|l| (l.in_check, l.stops, l.watched)), Some(out));
            if let Some(l) = l.filter(|l| l.facing) {
                // A drop must end the facing too (the moves before the drops are judged).
                self.keep_facing_enders(game, out, dropped);
                let mut i = dropped;
                while i < out.len() {
                    if out[i].kind == MoveKind::Drop && !self.is_legal(game, l, out[i]) {
                        out.swap_remove(i);
                    } else {
                        i += 1;
                    }
                }
            }
        }
        self.push_pass(game, out);
    }

    /// Adds the pass where the rules allow one (`pass`): not in check, unless royal pieces face
    /// each other (`facing`).
    pub(crate) fn push_pass(&mut self, game: &Game<B>, out: &mut Vec<Move>) {
        if game.passing.as_ref().is_some_and(|p| p.pass) && (self.royals_face(game) || !self.in_check(game, self.to_move)) {
            out.push(self.pass_move(game));
        }
    }
}
