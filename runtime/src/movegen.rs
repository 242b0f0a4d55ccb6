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

use crate::bits::CellSet;
use crate::game::{leaps, Game, RoyalReach};
use crate::pins::{Pins, RoyalLines};
use crate::position::{Move, MoveKind, Position, CROWN_HIDDEN, NO_PROMOTION};
use crate::tables::ray;

impl<B: CellSet> Position<B> {
    /// Keeps the moves from `start` on that do not leave the mover's royal pieces attacked,
    /// judged by playing each.
    pub(crate) fn keep_legal_by_playing(&mut self, game: &Game<B>, out: &mut Vec<Move>, start: usize) {
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
        let undo = self.make_move_unkeyed(game, mv);
        let ok = !self.in_check(game, us);
        self.unmake(game, &undo);
        ok
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
            let sliders = self.line_pieces[side];
            if !sliders.intersects(game.line_reach[royal]) {
                continue;
            }
            for line in &game.lines[game.line_index[royal] as usize..game.line_index[royal + 1] as usize] {
                if !line.set.intersects(sliders) {
                    continue;
                }
                if let Some((b, run)) = game.first_occupied(line.segments, self.occupied) {
                    if ((game.kinds_on(line, run, b) & ours) >> (self.board[b] - 1)) & 1 != 0 {
                        let (mut line_stops, _) = game.slide(line.segments, self.occupied);
                        line_stops.insert(b);
                        meet(line_stops);
                    }
                }
            }
        }
        stops.unwrap_or_default()
    }

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

    /// Whether the piece on `from` would stand unattacked on `to` (the piece lifted off `from`, so
    /// lines through it open; a piece captured on `to` attacks nothing there). With hops, whose
    /// captures may depend on the kind taken, the piece is put on `to` for the test.
    #[inline]
    fn safe_destination(&mut self, game: &Game<B>, from: usize, to: usize, us: usize) -> bool {
        let code = self.board[from];
        self.board[from] = 0;
        self.occupied.remove(from);
        let there = self.board[to];
        if game.hopping {
            self.board[to] = code;
        }
        let safe = if game.hopping && !game.winding && game.sides == 2 { !self.attacked_hops_last(game, to, us) } else { !self.attacked_by_enemy(game, to, us) };
        self.board[to] = there;
        self.occupied.insert(from);
        self.board[from] = code;
        safe
    }

    /// Whether castling by rule `i` of `us` leaves its king (the side's one royal piece)
    /// unattacked: judged with the king and the rook moved on the board, without playing the move
    /// (castling captures nothing and changes no enemy piece).
    fn castle_safe(&mut self, game: &Game<B>, i: usize, us: usize) -> bool {
        let c = &game.castles[us][i];
        if !c.recheck {
            return true;
        }
        let (kf, rf, kt, rt) = (c.king_from as usize, c.rook_from as usize, c.king_to as usize, c.rook_to as usize);
        let (king, rook) = (self.board[kf], self.board[rf]);
        let occupied = self.occupied;
        for cell in [kf, rf] {
            self.board[cell] = 0;
            self.occupied.remove(cell);
        }
        self.board[kt] = king;
        self.board[rt] = rook;
        self.occupied.insert(kt);
        self.occupied.insert(rt);
        let safe = !self.attacked_by_enemy(game, kt, us);
        self.board[kt] = 0;
        self.board[rt] = 0;
        self.board[kf] = king;
        self.board[rf] = rook;
        self.occupied = occupied;
        safe
    }

    /// The cells of `targets` the piece on `from` would stand unattacked on (see
    /// [`Position::safe_destination`]), the piece lifted off the board for the lines: direct
    /// attacks and lines are judged for all targets at once (they do not depend on the piece
    /// that stands on the target). A hop may depend on the kind it takes, so with hops each
    /// target left is judged for hops with the piece put there; a winding flood may pass the
    /// piece's own cell, so with winding rules each target is judged whole with the piece moved
    /// there, and so is a lone target with hops (Xiangqi's general mostly has one, and the sets
    /// cost it 2.6 instructions a leaf; Janggi's several save 12). In perft's last ply the lines
    /// of the targets whose answer the parent found are not looked at
    /// ([`Position::known_destinations`]).
    #[inline(never)]
    pub(crate) fn safe_destinations(&mut self, game: &Game<B>, from: usize, targets: B, us: usize) -> B {
        if targets.is_empty() {
            return targets;
        }
        if game.winding || (game.hopping && targets.count() == 1) {
            return self.safe_one_by_one(game, from, targets, us);
        }
        let near = self.royal_reach(game, from, targets);
        let leaped = match near {
            Some(r) => self.attacked_from_among(game, targets, r.direct.and(self.by_side[1 - us])),
            None => self.attacked_by_leaps_among(game, targets, us),
        };
        debug_assert_eq!(leaped, self.attacked_by_leaps_among(game, targets, us), "the leap attacks near a royal piece's leaps");
        let mut safe = targets.and_not(leaped);
        let occupied = self.occupied.and_not(B::single(from));
        let mut unknown = safe;
        if game.many_ways {
            let (known, attacked) = self.known_destinations(from);
            safe = safe.and_not(attacked);
            unknown = safe.and_not(known);
        }
        safe = safe.and_not(if (!game.by_pairs || game.hopping) && unknown.count() > 1 {
            // Several destinations on a wide board: each enemy rider followed once, rather than
            // every destination's lines. (Measured against doing so only with at least two
            // destinations per rider, or one per one, two or three riders: Knightmate -2.5
            // instructions a leaf, Makruk -2.4, Shogi -1.2; Grand Chess +1.5, whose nine riders
            // reach far.) With the pairs, destination by destination costs less everywhere
            // (Knightmate -4.5, Grand Chess -3.7) but in the games with hops (Janggi +3.2; the
            // choice costs most boards 0.1 in how the count compiles. More destinations than
            // riders as the rule instead: Janggi +0.8, Knightmate +0.9).
            let lines = near.map_or_else(|| self.lines_through(game, unknown), |r| r.lines);
            let hit = self.attacked_along_lines_near(game, unknown, us, occupied, lines);
            debug_assert_eq!(hit, self.attacked_along_lines_among(game, unknown, us, occupied), "the line attacks near a royal piece's leaps");
            hit
        } else {
            self.attacked_along_lines_one_by_one(game, unknown, us, occupied)
        });
        if game.hopping {
            let hopped = self.hopped_among(game, from, safe, us, near.map(|r| r.hops));
            debug_assert_eq!(hopped, self.hopped_among(game, from, safe, us, None), "the hop attacks near a royal piece's leaps");
            safe = safe.and_not(hopped);
        }
        safe
    }

    /// What could attack the destinations `targets` of the lone royal piece on `from`
    /// (`Game::royal_reach`), when they are all its plain leaps. (Only on sets of several words,
    /// where the unions cost most: Janggi -1.6 instructions a leaf for the direct attacks; on
    /// one word the pieces near all the leaps, more than near the destinations, made orthodox
    /// +0.2.)
    #[inline(always)]
    fn royal_reach(&self, game: &Game<B>, from: usize, targets: B) -> Option<RoyalReach<B>> {
        if B::CAPACITY <= 64 {
            return None;
        }
        let i = (self.board[from] as usize - 1) * game.cells + from;
        let r = *game.royal_reach.get(i)?;
        let m = &game.piece_moves[i];
        targets.and_not(m.leap_quiet.or(m.leap_capture)).is_empty().then_some(r)
    }

    /// The cells of `targets` the piece on `from` would stand unattacked on, each judged with
    /// [`Position::safe_destination`].
    fn safe_one_by_one(&mut self, game: &Game<B>, from: usize, targets: B, us: usize) -> B {
        let mut safe = B::default();
        for to in targets.iter() {
            if self.safe_destination(game, from, to, us) {
                safe.insert(to);
            }
        }
        safe
    }

    /// The cells of `targets` where an enemy piece could capture the piece on `from` by a hop,
    /// the piece put on each in turn (lifted off `from`). With two sides, `starts` may tell
    /// where the hop ways onto the targets start (`RoyalReach::hops`, a superset).
    fn hopped_among(&mut self, game: &Game<B>, from: usize, targets: B, us: usize, starts: Option<B>) -> B {
        let mut hit = B::default();
        // Only the targets that an enemy piece with hop rules could reach from where it stands
        // (`Game::hop_targets`; most have none) are tested, by putting the piece there.
        let mut reach = B::default();
        if game.sides == 2 {
            // (With two sides, no loop over the opponents, as `Position::attacked_by_leaps_among`.)
            let s = 1 - us;
            let pieces = self.hop_pieces(game, s);
            starts.map_or(pieces, |c| pieces.and(c)).each(|p| reach = reach.or(game.hop_targets[p * 2 + s]));
        } else {
            for &s in &game.opponents[us] {
                if !self.is_out(s) {
                    for p in self.hop_pieces(game, s).iter() {
                        reach = reach.or(game.hop_targets[p * game.sides + s]);
                    }
                }
            }
        }
        let targets = targets.and(reach);
        if targets.is_empty() {
            return hit;
        }
        let code = self.board[from];
        self.board[from] = 0;
        self.occupied.remove(from);
        for to in targets.iter() {
            let there = self.board[to];
            self.board[to] = code;
            if self.hopped_by_enemy(game, to, us) {
                hit.insert(to);
            }
            self.board[to] = there;
        }
        self.occupied.insert(from);
        self.board[from] = code;
        hit
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

    /// What legality needs to know of the position, computed once per generation into `l` (a
    /// fresh [`Legality::new`]); `false` when the side to move has no royal piece (every
    /// pseudo-legal move is legal). The lines out of a lone royal piece are taken from `kept` (the
    /// parent's and the move made there) where they hold ([`Position::royal_lines_kept`]); whether
    /// royal pieces face each other from `facing` when known; `CALL` as there; `moved`, the
    /// opponent's move that led here in perft's last ply, where it tells the direct checks
    /// ([`Position::checked_by_move`]).
    /// (Written in place and inlined: it is large, and on wide boards moving it cost a `memcpy`
    /// call per position.)
    #[inline(always)]
    pub(crate) fn legality<const CALL: bool>(&mut self, game: &Game<B>, l: &mut Legality<B>, kept: Option<(&RoyalLines<'_, B>, Move)>, facing: Option<bool>, moved: Option<Move>) -> bool {
        let us = self.to_move;
        let royals = self.royals(game, us);
        if royals.is_empty() {
            return false;
        }
        // With one royal piece, a plain move of it is legal iff its destination is not attacked
        // once it has moved there: no need to play it.
        // (Whether there is exactly one, without counting every word of a wide set.)
        let lone_royal = {
            let mut rest = royals;
            rest.pop().filter(|_| rest.is_empty())
        };
        // One walk along the lines of a lone royal piece finds its pins and its checks along
        // lines.
        let in_check = match lone_royal {
            Some(k) => self.royal_lines_kept::<CALL>(game, k, &mut l.pins, kept) || self.checked_directly(game, k, us, moved),
            _ => royals.iter().any(|r| self.attacked_by_enemy(game, r, us)),
        };
        // In check with one royal piece, a plain move of an unpinned piece is legal iff it stops
        // every check; with several royal pieces every move is played.
        // Winding paths are not in the attack tables, and a piece moved into one may stop it: in
        // check with them every move is played. Hops are not either, but a move that changes no
        // cell of the royal piece's hop zone (watched, below) leaves every hop check as it is: in
        // a hop check the unwatched moves stop nothing, out of one they stop what the tables say.
        let stops = lone_royal.filter(|_| in_check && !game.winding).map(|r| {
            let hop_check = game.hopping && game.opponents[us].iter().any(|&s| !self.is_out(s) && self.hopped_by_or_known(game, r, s));
            if hop_check {
                B::default()
            } else {
                self.check_stops(game, r, us)
            }
        });
        // With hops or winding rules, the moves that touch the cells they watch are played, the
        // others judged by pins (and stops); in check with winding rules, every move is played
        // (no stops are known).
        let pins_known = !(in_check && stops.is_none());
        if pins_known && lone_royal.is_none() {
            self.pins(game, royals, &mut l.pins);
        }
        // A move off a stack leaves its cell occupied, so it uncovers no line: unless the top
        // piece is royal, it is judged as any unpinned move, even when the hidden piece is royal
        // (that piece stays on its cell, under the same lines). With hops, whose attacks may
        // depend on the kind attacked, uncovering a royal piece is played.
        let mut suspect_royals = royals;
        if game.stacks && !game.hopping {
            for c in royals.and(self.stacked).iter() {
                if !game.royal[self.board[c] as usize - 1] {
                    suspect_royals.remove(c);
                }
            }
        }
        let suspect = pins_known.then(|| l.pins.pinned.or(suspect_royals));
        let facing = game.passing.as_ref().is_some_and(|p| p.any_facing) && facing.unwrap_or_else(|| self.royals_face(game));
        // (When every move is played, there is nothing to watch.)
        let mut watched = B::default();
        if (game.hopping || game.winding) && pins_known {
            for r in royals.iter() {
                if game.hopping {
                    watched = watched.or(self.watch_hops(game, r, us));
                }
                if game.winding {
                    watched = watched.or(self.wind_zone(game, r, us));
                }
            }
        }
        l.royals = royals;
        l.in_check = in_check;
        l.lone_royal = lone_royal;
        l.stops = stops;
        l.pins_known = pins_known;
        l.suspect = suspect;
        l.facing = facing;
        l.watched = watched;
        true
    }

    /// Whether the pseudo-legal `mv` is legal, as `l` (this position's) judges it.
    fn is_legal(&mut self, game: &Game<B>, l: &Legality<B>, mv: Move) -> bool {
        let us = self.to_move;
        if l.facing {
            if game.tables.rules.royal_path_unattacked && self.royal_path_refuses(game, mv, us) {
                return false;
            }
            // Playing the move records whether the royal pieces still face each other
            // (`passes`); the pass is added apart (`push_pass`).
            let undo = self.make_move_unkeyed(game, mv);
            let ok = !self.in_check(game, us) && self.passes != crate::passing::ENDED_FACING;
            self.unmake(game, &undo);
            return ok;
        }
        let from = mv.from as usize;
        let watched = (game.hopping || game.winding) && (l.watched.has(from) || l.watched.has(mv.to as usize));
        let test = match l.suspect {
            None => true,
            Some(s) => watched || s.has(from) || !matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget),
        };
        if !test {
            l.stops.is_none_or(|s| s.has(mv.to as usize))
        } else if game.tables.rules.royal_path_unattacked && self.royal_path_refuses(game, mv, us) {
            // (A royal piece that moves: on top, stacked or not.)
            false
        } else if game.stacks
            && (self.stacked.has(from)
                || mv.kind == MoveKind::Crown
                || (mv.kind == MoveKind::Castle && self.stacked.has(game.castles[us][mv.aux as usize].rook_from as usize)))
        {
            // The cell stays occupied when its top piece leaves (the hidden one is
            // uncovered, and may be royal): judged by playing the move (castling too, when
            // the king's or the rook's cell is a stack).
            self.legal_by_playing(game, mv, us)
        } else if mv.kind == MoveKind::Stationary {
            !l.in_check
        } else if mv.kind == MoveKind::Castle && l.lone_royal == Some(from) {
            self.castle_safe(game, mv.aux as usize, us)
        } else if l.lone_royal == Some(from) && mv.kind == MoveKind::Normal && mv.promotion == NO_PROMOTION {
            self.safe_destination(game, from, mv.to as usize, us)
        } else if let Some(allowed) =
            self.pin_lines(game, l, from).filter(|_| !watched && matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget))
        {
            // A pinned piece stays legal exactly on its pin lines (and, in check, where it
            // stops the check).
            allowed.has(mv.to as usize) && l.stops.is_none_or(|s| s.has(mv.to as usize))
        } else if let Some(ok) = if watched { self.legal_past_hops(game, l, mv) } else { None } {
            ok
        } else {
            self.legal_by_playing(game, mv, us)
        }
    }

    /// Whether the watched move `mv` is legal, judged without playing it where that is simple:
    /// a plain move that does not promote (or one that sets en-passant cells, which changes the
    /// board as a plain one does), where [`Position::past_hops_judged`] allows. `None`: play it.
    fn legal_past_hops(&mut self, game: &Game<B>, l: &Legality<B>, mv: Move) -> Option<bool> {
        if !matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget) || mv.promotion != NO_PROMOTION {
            return None;
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        let (royal, allowed) = self.past_hops_judged(game, l, from)?;
        if allowed.is_some_and(|a| !a.has(to)) {
            return Some(false);
        }
        self.find_live_ways_once(game, royal, self.to_move);
        Some(!self.hopped_checked(game, royal, from, to))
    }

    /// When the live ways judge the plain moves (not promoting) of the piece on `from`: out of
    /// check, in a game with hops (no winding rules, no stacks, no facing royal pieces), for a
    /// non-royal piece, with the pins known and one royal piece (the ways are found for it), such
    /// a move is legal iff it keeps to the piece's pin lines (the lines and direct attacks are as
    /// for any move) and no royal piece of the side to move can be hopped once it is made
    /// (tested on the cells alone, [`Position::live_ways_hit`]). The royal piece's cell and
    /// where the piece may go for its pins (`None` if it is not pinned); `None`: play the
    /// moves. (In check too, judged by the check stops where no hop checks: 45 moves of the hop
    /// cube's 3.2 million leaves, and the other games' counts compiled dearer, the
    /// grasshopper's +1.0 instructions a leaf.)
    #[inline(always)]
    fn past_hops_judged(&self, game: &Game<B>, l: &Legality<B>, from: usize) -> Option<(usize, Option<B>)> {
        let royal = l.lone_royal?;
        if l.facing || l.in_check || game.winding || game.stacks || game.tables.rules.royal_path_unattacked || l.royals.has(from) {
            return None;
        }
        let pins = l.pins()?;
        Some((royal, if pins.pinned.has(from) { Some(pins.allowed(from)?) } else { None }))
    }

    /// [`Position::live_ways_hit`], held to a walk of every opponent's rules in debug builds.
    #[inline(always)]
    fn hopped_checked(&self, game: &Game<B>, royal: usize, from: usize, to: usize) -> bool {
        let hopped = self.live_ways_hit(game, from, to);
        debug_assert_eq!(hopped, game.opponents[self.to_move].iter().any(|&s| !self.is_out(s) && self.hopped_by_after(game, royal, s, from, to)), "the live ways answer as walking them would");
        hopped
    }

    /// The cells of `onto` (watched cells, or the moves of a piece on one) that the non-royal
    /// piece on `from` may go to by a plain move that does not promote, judged as
    /// [`Position::legal_past_hops`] judges such moves one by one (`is_legal`), and the cells of
    /// `onto` where the move promotes (with `promotion`, the piece's): `is_legal` plays those, as
    /// the promoted piece may be a screen of a kind a hop rule may not jump, where the live ways
    /// see the piece that moved. `None` where it would play them all.
    #[inline(never)]
    pub(crate) fn watched_legal(&mut self, game: &Game<B>, l: &Legality<B>, from: usize, onto: B, promotion: Option<&crate::game::Promotion<B>>) -> Option<(B, B)> {
        let (royal, allowed) = self.past_hops_judged(game, l, from)?;
        let promoting = promotion.map_or(B::default(), |p| if p.from.has(from) { onto } else { onto.and(p.zone) });
        self.find_live_ways_once(game, royal, self.to_move);
        let mut legal = B::default();
        let onto = onto.and_not(promoting);
        for to in allowed.map_or(onto, |a| onto.and(a)).iter() {
            if !self.hopped_checked(game, royal, from, to) {
                legal.insert(to);
            }
        }
        Some((legal, promoting))
    }

    /// The cells the pinned piece on `from` may go to by a plain move (every pin line it stands
    /// on), when that decides its legality: not for a royal piece, nor for one on a stack (a
    /// stack's top piece is never pinned: its cell stays occupied).
    pub(crate) fn pin_lines(&self, game: &Game<B>, l: &Legality<B>, from: usize) -> Option<B> {
        if l.royals.has(from) || (game.stacks && self.stacked.has(from)) {
            return None;
        }
        l.pins()?.allowed(from)
    }

    /// Keeps the moves of `out` from `start` on that are legal.
    pub(crate) fn keep_legal(&mut self, game: &Game<B>, l: &Legality<B>, out: &mut Vec<Move>, start: usize) {
        let mut i = start;
        while i < out.len() {
            if self.is_legal(game, l, out[i]) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// [`Position::keep_legal`] for `legal_moves`' list: the plain moves of the pieces judged by
    /// set (not suspect, neither on nor onto a watched cell) are kept where they stop the
    /// check, if any, as `is_legal` would answer, without asking it (most moves: perft's lists
    /// above the last ply cost orthodox 2.0 instructions a leaf less, the soccer balls 3.3,
    /// Crowned Chess 4.2, every board less or the same).
    fn keep_legal_listed(&mut self, game: &Game<B>, l: &Legality<B>, out: &mut Vec<Move>, start: usize) {
        let Some(suspect) = l.suspect.filter(|_| !l.facing) else {
            return self.keep_legal(game, l, out, start);
        };
        let apart = suspect.or(l.watched);
        let mut i = start;
        while i < out.len() {
            let mv = out[i];
            let ok = if !apart.has(mv.from as usize) && !l.watched.has(mv.to as usize) && matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget) {
                l.stops.is_none_or(|s| s.has(mv.to as usize))
            } else {
                self.is_legal(game, l, mv)
            };
            if ok {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// With royal pieces facing each other, drops the moves of `out` from `start` on that
    /// cannot end the facing: plain moves and drops that neither leave nor land on a facing
    /// pair's cells or a cell between them (`Position::facing_cells`). The others are judged by
    /// playing them ([`Position::is_legal`]).
    #[inline(never)]
    fn keep_facing_enders(&self, game: &Game<B>, out: &mut Vec<Move>, start: usize) {
        let Some(cells) = self.facing_cells::<true>(game) else { return };
        let mut i = start;
        while i < out.len() {
            let mv = out[i];
            if matches!(mv.kind, MoveKind::Normal | MoveKind::Drop) && !cells.has(mv.from as usize) && !cells.has(mv.to as usize) {
                out.swap_remove(i);
            } else {
                i += 1;
            }
        }
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
        let l = self.legality::<false>(game, &mut legality, None, None, None).then_some(&legality);
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

/// What legality needs to know of one position (see [`Position::legality`]).
pub(crate) struct Legality<B> {
    pub(crate) royals: B,
    pub(crate) in_check: bool,
    pub(crate) lone_royal: Option<usize>,
    /// In check with one royal piece: the cells that stop every check.
    pub(crate) stops: Option<B>,
    /// The pins; they decide legality only where `suspect` is known (not in check with no
    /// stops, when every move is played).
    pub(crate) pins: Pins<B>,
    /// (Whether `suspect` is known, kept apart: deriving it from `suspect` made orthodox perft
    /// 1.4% dearer by instructions.)
    pub(crate) pins_known: bool,
    /// The pieces whose moves are judged one by one (pinned pieces, royal pieces, and stacks a
    /// royal piece tops); `None`: all.
    pub(crate) suspect: Option<B>,
    /// Royal pieces face each other (`facing`): every move but a pass must end it.
    pub(crate) facing: bool,
    /// The cells a move from or to is played to be judged: the royal pieces' hop zones
    /// ([`Position::hop_zone`]) and the pieces that stop a winding flood towards them
    /// ([`Position::wind_zone`]). Empty without hops and winding rules.
    pub(crate) watched: B,
}

impl<B: CellSet> Legality<B> {
    pub(crate) fn new() -> Legality<B> {
        Legality {
            royals: B::default(),
            in_check: false,
            lone_royal: None,
            stops: None,
            pins: Pins::new(),
            pins_known: false,
            suspect: None,
            facing: false,
            watched: B::default(),
        }
    }

    /// The pins, if they decide legality (see `pins`).
    pub(crate) fn pins(&self) -> Option<&Pins<B>> {
        self.pins_known.then_some(&self.pins)
    }
}

