//! The last ply counted, not listed ([`Position::count_legal`], perft's and the engine's leaf
//! counts): the moves of a piece that legality judges by set are counted by the size of its
//! destination set, kind by kind, with leapers counted at once; the lone royal piece's by its safe
//! destinations; only the moves legality must judge one by one are listed (see [`crate::movegen`]
//! for how legality is decided).

use crate::bits::CellSet;
use crate::game::{leaps, Game, HOMING_WIDTH};
use crate::kept_counts::KeptCounts;
use crate::legality::Legality;
use crate::pins::RoyalLines;
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};

impl<B: CellSet> Position<B> {
    /// The legal moves of the piece `ck` on `from` to the cells `t` (judged by set: in check,
    /// only those of `stops`), promotions counted as [`Position::push`] lists them.
    #[inline(always)]
    pub(crate) fn count_by_set(&self, game: &Game<B>, ck: usize, from: usize, t: B, stops: Option<B>, promotion: Option<&crate::game::Promotion<B>>) -> u64 {
        if t.is_empty() {
            return 0;
        }
        let t = stops.map_or(t, |s| t.and(s));
        let m = &game.piece_moves[ck * game.cells + from];
        let mut n = t.count() as u64;
        if let Some(p) = promotion.filter(|p| m.may_promote && (p.zone.intersects(t) || p.from.has(from))) {
            // As `push`: a move into the zone (or out of a `from-or-to` zone) is one move per
            // choice still open (`captured` choices while the side has lost one), plus the move
            // without promotion on the zone's optional cells and off the zone.
            let side = game.side_of[ck & 63] as usize;
            let open = p.choices.iter().zip(&p.limit).filter(|&(&c, &limit)| self.choice_open(game, side, c, limit)).count() as u64;
            let promoting = if p.from.has(from) { t } else { t.and(p.zone) };
            let optional = promoting.and_not(p.zone.and_not(p.optional)).count() as u64;
            n = n - promoting.count() as u64 + promoting.count() as u64 * open + optional;
        }
        n
    }

    /// The legal moves of the pinned piece `ck` on `from` to `targets` when its pin lines decide
    /// them ([`Position::pin_lines`]): counted by set too. With `listed` (no cell is watched), its
    /// moves that set en-passant cells, listed last in `scratch`, are judged by the same lines
    /// here and taken off the list, as `is_legal` would judge them (on a globe, whose lines wrap
    /// round behind the royal piece, pawns are often pinned). `None` for the pieces judged one
    /// by one.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn count_pinned(&self, game: &Game<B>, l: Option<&Legality<B>>, ck: usize, from: usize, targets: B, promotion: Option<&crate::game::Promotion<B>>, scratch: &mut Vec<Move>, listed: bool) -> Option<u64> {
        let l = l?;
        let allowed = self.pin_lines(game, l, from)?;
        let mut n = self.count_by_set(game, ck, from, targets.and(allowed), l.stops, promotion);
        if listed {
            // (The piece's moves are the last listed: found from the end, so that the count
            // need not keep where they start, which cost orthodox 0.6 instructions a leaf.)
            let mut i = scratch.len();
            while i > 0 && scratch[i - 1].from as usize == from {
                i -= 1;
            }
            while i < scratch.len() {
                let mv = scratch[i];
                if mv.kind == MoveKind::EnPassantTarget {
                    let to = mv.to as usize;
                    n += (allowed.has(to) && l.stops.is_none_or(|s| s.has(to))) as u64;
                    scratch.swap_remove(i);
                } else {
                    i += 1;
                }
            }
        }
        Some(n)
    }

    /// The number of legal moves of the side to move (what [`Position::legal_moves`] would
    /// append): the moves of a piece that legality judges by set (neither royal nor pinned, or a
    /// stack's top over a hidden royal piece) are counted by the size of its destination set, the
    /// lone royal piece's by its safe destinations, the others listed in `scratch` and judged one
    /// by one. Positions where royal pieces face each other list every move; with hops or
    /// winding rules, the moves from or to a watched cell are listed and judged one by one.
    pub fn count_legal(&mut self, game: &Game<B>, scratch: &mut Vec<Move>) -> u64 {
        self.count_moves::<false, false, false, false>(game, scratch, None, None, None)
    }

    /// [`Position::count_legal`] of a position [`Position::make_unsettled`] left: when its side
    /// to move has no legal move and the game eliminates such sides (`game-end last-standing`),
    /// the position is settled (the side goes out, the turn passes on) and counted again. A
    /// count above zero is the settled position's: settling leaves a side that has a move.
    pub fn count_legal_settling(&mut self, game: &Game<B>, scratch: &mut Vec<Move>) -> u64 {
        let n = self.count_legal(game, scratch);
        self.settled_count(game, scratch, n)
    }

    /// [`Position::count_legal_settling`] in perft's last ply, with the pieces' counts of
    /// `counts`, kept in the parent where `mv` was made ([`KeptCounts`]).
    pub(crate) fn count_legal_settling_counts(&mut self, game: &Game<B>, scratch: &mut Vec<Move>, counts: &KeptCounts<B>, mv: Move) -> u64 {
        let n = self.count_moves::<false, false, true, false>(game, scratch, None, None, Some((counts, mv)));
        self.settled_count(game, scratch, n)
    }

    /// [`Position::count_legal_settling`] with the lines out of the lone royal piece taken from
    /// `kept`, the parent's, and `mv`, the move made there (the caller has checked it with
    /// [`RoyalLines::applies_after`]; the settled position's count walks them again).
    pub(crate) fn count_legal_settling_kept(&mut self, game: &Game<B>, scratch: &mut Vec<Move>, kept: &RoyalLines<'_, B>, mv: Move) -> u64 {
        let n = self.count_moves::<false, false, false, false>(game, scratch, Some((kept, mv)), None, None);
        self.settled_count(game, scratch, n)
    }

    /// [`Position::count_legal_settling_kept`] with the pieces' counts of `counts` too
    /// ([`Position::count_legal_settling_counts`]).
    pub(crate) fn count_legal_settling_kept_counts(&mut self, game: &Game<B>, scratch: &mut Vec<Move>, kept: &RoyalLines<'_, B>, mv: Move, counts: &KeptCounts<B>) -> u64 {
        let n = self.count_moves::<false, false, true, true>(game, scratch, Some((kept, mv)), None, Some((counts, mv)));
        self.settled_count(game, scratch, n)
    }

    /// [`Position::count_legal_settling`] in a game with a facing rule (`pass ... facing`),
    /// taking the lines out of the lone royal piece from `kept` as
    /// [`Position::count_legal_settling_kept`] does, and whether royal pieces face each other
    /// from `facing` when known (perft's last ply: the parent's answer, after a move that
    /// touched none of the cells it read, [`Position::facing_read`]); and with the pieces'
    /// counts of `counts` when they are kept (also in the games with hops or winding rules).
    pub(crate) fn count_legal_settling_facing(&mut self, game: &Game<B>, scratch: &mut Vec<Move>, kept: Option<(&RoyalLines<'_, B>, Move)>, facing: Option<bool>, counts: Option<(&KeptCounts<B>, Move)>) -> u64 {
        let n = self.count_moves::<false, true, true, false>(game, scratch, kept, facing, counts);
        self.settled_count(game, scratch, n)
    }

    /// `n`, this unsettled position's count, unless it is 0 in a game that eliminates a side
    /// without a move: then the settled position's.
    #[inline(always)]
    fn settled_count(&mut self, game: &Game<B>, scratch: &mut Vec<Move>, n: u64) -> u64 {
        if n > 0 || !game.eliminations {
            return n;
        }
        self.settle(game);
        self.count_legal(game, scratch)
    }

    /// Whether the side to move has a legal move: [`Position::count_legal`], stopped at the first
    /// piece that has a move counted by set (eliminations ask this after every move).
    pub fn has_legal_move(&mut self, game: &Game<B>, scratch: &mut Vec<Move>) -> bool {
        self.surely_has_move(game, scratch) || self.count_moves::<true, false, false, false>(game, scratch, None, None, None) > 0
    }

    /// A quick sufficient answer to [`Position::has_legal_move`], without pins or check stops:
    /// out of check, a plain move of a piece that stands on none of its lone royal piece's lines
    /// (so it cannot be pinned) is legal. Only in games where nothing else can forbid such a
    /// move or end the game first (no bare-king, goal, passing, stack, hop, winding or
    /// cannot-check rules); `false`: not known, ask the full count.
    fn surely_has_move(&self, game: &Game<B>, scratch: &mut Vec<Move>) -> bool {
        if game.tables.rules.bare.is_some() || game.goals || game.passing.is_some() || game.stacks || game.hopping || game.winding || game.any_no_check {
            return false;
        }
        let us = self.to_move;
        let mut royals = self.royals(game, us);
        let Some(k) = royals.pop().filter(|_| royals.is_empty()) else { return false };
        if self.attacked_by_enemy(game, k, us) {
            return false;
        }
        let (enemy, _) = self.targets(game);
        let mut free = self.by_side[us].and_not(game.line_reach[k]);
        free.remove(k);
        let mut found = false;
        for from in free.iter() {
            let ck = self.board[from] as usize - 1;
            let (mut targets, _, _) = self.piece_moves::<true, false>(game, ck, from, enemy, false, scratch);
            if let Some(p) = &game.promotion[ck] {
                // (A move that may promote is as many moves as there are choices still open:
                // perhaps none.)
                if p.from.has(from) {
                    continue;
                }
                targets = targets.and_not(p.zone);
            }
            if !targets.is_empty() {
                found = true;
                break;
            }
        }
        scratch.clear();
        found
    }

    /// [`Position::count_legal`]; with `ANY`, a count that is only right as to being zero or not;
    /// with `HOPS`, the kept hop destinations are read in place (`Position::hop_moves_inline`):
    /// only in the count that perft's last ply calls in games with hops or a facing rule
    /// ([`Position::count_legal_settling_facing`]), as in every count it changed how the other
    /// games compiled (orthodox +0.6, Webball +2.0 instructions a leaf). `KEPT`: the count is
    /// given the parent's royal lines and counts (`count_legal_settling_kept_counts`), which
    /// games with stacks never keep (`Position::royal_lines_for_children`): their stacks' code
    /// is left out of that count (the globes -1.0 instructions a leaf; in the count with the
    /// lines alone it cost the 8x8 middle join and the ball with riders 0.2).
    #[inline(always)]
    fn count_moves<const ANY: bool, const HOPS: bool, const KEEP: bool, const KEPT: bool>(&mut self, game: &Game<B>, scratch: &mut Vec<Move>, kept: Option<(&RoyalLines<'_, B>, Move)>, facing: Option<bool>, counts: Option<(&KeptCounts<B>, Move)>) -> u64 {
        scratch.clear();
        debug_assert!(!KEPT || (kept.is_some() && !game.stacks), "a count with kept lines in a game with stacks");
        // As in `legal_moves`: no moves once a side is bare; crowning moves judged by playing.
        if game.tables.rules.bare.is_some() && self.may_be_bare(game) && self.bare_side(game).is_some() {
            return 0;
        }
        if game.goals && self.goal(game).is_some() {
            return 0;
        }
        if game.passing.is_some() && self.passing_ended() {
            return 0;
        }
        // (Most positions hold no piece, `Position::held`: soccer balls and Crowned Chess -1.3
        // to -1.8 instructions a leaf.)
        if !KEPT && game.stacks && self.held != 0 && self.crown_moves(game, scratch) {
            self.keep_legal_by_playing(game, scratch, 0);
            self.push_pass(game, scratch);
            return scratch.len() as u64;
        }
        let mut legality = Legality::new();
        // (The move made in the parent tells the direct checks, `Position::checked_by_move`; not in
        // the count with hops or winding rules, where it cannot, nor on sets of several words or
        // with the royal lines kept, where it changed how the count compiled: Webball +1.1
        // instructions a leaf, Minishogi +0.7, Shogi +0.3. The soccer balls and Crowned Chess,
        // whose stacks keep no lines, gain most.)
        let moved = if HOPS || B::CAPACITY > 64 || kept.is_some() { None } else { counts.map(|c| c.1) };
        let l = self.legality::<HOPS, KEPT>(game, &mut legality, kept, facing, moved).then_some(&legality);
        if game.passing.is_some() && l.is_some_and(|l| l.facing) {
            // Every move must end the facing: each is played (`is_legal`).
            self.legal_moves(game, scratch);
            return scratch.len() as u64;
        }
        let us = self.to_move;
        // The pieces whose moves are judged one by one (the others by set), and the cells a
        // piece judged by set may go to: all, or in check those that stop it.
        let (one_by_one, stops, lone_royal, watched) = match l {
            None => (B::default(), None, None, B::default()),
            Some(l) => (l.suspect.unwrap_or(self.by_side[us]).or(self.by_side[us].and(l.watched)), l.stops, l.lone_royal, l.watched),
        };
        let judged = Judged { l, one_by_one, stops, lone_royal, watched };
        // The pieces whose counts the parent kept (`crate::kept_counts`), where their moves are
        // counted by set as there (out of check, not judged one by one, neither on nor looking at
        // a watched cell): counted from those counts, and hidden from the count of the pieces.
        // (Kept with watched cells in the count of the games with hops, `HOPS`: Xiangqi -5.8, the
        // hop cube -10.2 instructions a leaf; in the other counts the test cost the 66-cell boards
        // 0.6.)
        let mut held = (B::default(), 0);
        if KEEP {
            if let Some((k, mv)) = counts.filter(|(k, _)| stops.is_none() && (watched.is_empty() || HOPS && k.marked(watched))) {
                let apart = if HOPS && !watched.is_empty() { one_by_one.or(k.looking_at(watched)) } else { one_by_one };
                held = k.hide(self, mv, apart);
            }
        }
        // Plain slides back to the start are looked for only in the games that have them
        // (`Game::homing`: never with hops or winding rules, only on `HOMING_WIDTH`).
        // The watched cells' handling is compiled only into the games that have any.
        // (With no watched cell the `WATCHED` copy counts alike: the early answer has one copy.)
        // The cells the lone royal piece's moves found unattacked, and its own cell when it is
        // not in check: castling's cells that need no test.
        let (mut n, known_safe) = if ANY {
            self.count_pieces::<true, true, true, false, false>(game, &judged, scratch)
        } else if game.hopping || game.winding {
            self.count_pieces::<true, false, false, HOPS, KEEP>(game, &judged, scratch)
        } else if B::CAPACITY == HOMING_WIDTH && game.homing {
            self.count_pieces::<false, false, true, false, KEEP>(game, &judged, scratch)
        } else {
            self.count_pieces::<false, false, false, false, KEEP>(game, &judged, scratch)
        };
        if KEEP {
            if let Some((k, _)) = counts.filter(|_| !held.0.is_empty()) {
                k.show(self);
                n += held.1;
            }
        }
        if ANY && n > 0 {
            return n;
        }
        n += self.castling_moves(game, l.map(|l| (l, known_safe)), scratch);
        if let Some(l) = l {
            self.keep_legal(game, l, scratch, 0);
        }
        if let Some(h) = &game.hands {
            n += self.drops(game, h, l.map(|l| (l.in_check, l.stops, l.watched)), None);
        }
        if let Some(p) = &game.passing {
            // The pass, where the rules allow one: not in check (royal pieces do not face here).
            n += (p.pass && !l.is_some_and(|l| l.in_check)) as u64;
        }
        n + scratch.len() as u64
    }

    /// In the count with hops, the plain moves of the piece `ck` on `from` to `onto` (watched
    /// cells, or the moves of a piece on one): those that do not promote judged at once
    /// ([`Position::watched_legal`]) and counted, the others listed in `scratch` for
    /// `is_legal`, as are all where `watched_legal` would play them.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn count_watched(&mut self, game: &Game<B>, l: Option<&Legality<B>>, ck: usize, from: usize, onto: B, promotion: Option<&crate::game::Promotion<B>>, scratch: &mut Vec<Move>) -> u64 {
        let (n, listed) = match l.filter(|_| !onto.is_empty()).and_then(|l| self.watched_legal(game, l, from, onto, promotion)) {
            Some((legal, promoting)) => (legal.count() as u64, promoting),
            None => (0, onto),
        };
        for to in listed.iter() {
            self.push(game, ck, from, to, MoveKind::Normal, 0, scratch);
        }
        n
    }

    /// The initial steps (`leaps::INITIAL`) of the piece with moves `m`, counted as if it had
    /// not moved (the caller keeps the count only if it has not): each is a move of its own (it
    /// sets en-passant cells) when the cells it passes and lands on are empty (in check, `stops`
    /// holds its destination).
    #[inline(always)]
    fn count_initial_steps(&self, game: &Game<B>, m: &crate::game::PieceMoves<B>, stops: Option<B>) -> u64 {
        let mut n = 0;
        for sp in &game.specials[m.specials.0 as usize..m.ep_only as usize] {
            // (Such a step passes at most one cell: `Special::pass`.)
            n += self.initial_step_open(sp.to, sp.pass, stops);
        }
        n
    }

    /// 1 when an initial step to `to`, passing `pass`, is open (both cells empty) and, in
    /// check, stops it; else 0.
    #[inline(always)]
    pub(crate) fn initial_step_open(&self, to: u16, pass: u16, stops: Option<B>) -> u64 {
        let (c, pass) = (to as usize, pass as usize);
        // (`&`, not `&&`: each condition depends on the board, and branches on them mispredict.)
        (!self.occupied.has(c) & !self.occupied.has(pass) & stops.is_none_or(|s| s.has(c))) as u64
    }

    /// The moves of the side to move's pieces counted by set, and the others listed in
    /// `scratch` (see [`Position::count_legal`]); `WATCHED`: whether the game has hops or
    /// winding rules, whose watched cells are judged one by one; `ANY`: stop after the first
    /// piece with a move counted; `HOME`: whether plain slides back to the start are looked for
    /// (`Game::homing`); `HOPS`: hop destinations read in place (see `count_moves`); `KEEP`:
    /// the pieces perft's kept counts set aside are passed (`Position::kept_aside`; in the
    /// counts that keep none, not looked at: Grand Chess and the 8x8 middle join, which keep
    /// none, 0.6 to 0.8 instructions a leaf less).
    #[inline(always)]
    fn count_pieces<const WATCHED: bool, const ANY: bool, const HOME: bool, const HOPS: bool, const KEEP: bool>(&mut self, game: &Game<B>, j: &Judged<'_, B>, scratch: &mut Vec<Move>) -> (u64, B) {
        let (enemy, enemy_unroyal) = self.targets(game);
        let us = self.to_move;
        let Judged { l, one_by_one, stops, lone_royal, watched } = *j;
        // (Most positions watch no cell.)
        let watching = WATCHED && !watched.is_empty();
        let mut n = 0u64;
        // The cells the lone royal piece's moves found unattacked (for castling).
        let mut known_safe = B::default();
        // Kind by kind, so that what depends on the kind is looked up once: the kinds present
        // (`Position::present`), or with `ANY` all, the likeliest to have a move first
        // (`Game::any_order`).
        let mut present = self.present & game.side_cks[us];
        // The leapers counted at once here (`PieceMoves::leaper`): not those with initial steps
        // while cells are watched (a step onto one is listed), nor those that can capture en
        // passant now (such captures are listed).
        let leap_kinds = leaps::PLAIN | if watching { 0 } else { leaps::INITIAL };
        let walk_all = if self.ep_cells.is_empty() { one_by_one } else { one_by_one.or(self.ep_capturing(game)) };
        let mut i = 0;
        loop {
            let ck = if ANY {
                if i == game.kinds {
                    break;
                }
                i += 1;
                game.any_order[us][i - 1] as usize
            } else {
                if present == 0 {
                    break;
                }
                let ck = present.trailing_zeros() as usize;
                present &= present - 1;
                ck
            };
            let pieces = if KEEP { self.by_ck[ck].and_not(self.kept_aside) } else { self.by_ck[ck] };
            if pieces.is_empty() {
                continue;
            }
            let enemy = if game.any_no_check && game.no_check[ck] { enemy_unroyal } else { enemy };
            let promotion = game.promotion[ck].as_ref();
            // The pieces judged by set whose class the position allows (`leap_kinds`) counted
            // at once (`PieceMoves::leaper`): their plain leaps as one set, and while unmoved
            // their initial steps; unless the set meets a watched cell (those moves are listed),
            // or the piece could capture en passant now (`walk_all`). Only kinds with such cells
            // (`Game::kind_leaps`) look; the others are walked.
            let mut walk = pieces;
            if game.kind_leaps[ck & 63] & leap_kinds != 0 {
                walk = pieces.and(walk_all);
                for from in pieces.and_not(walk_all).iter() {
                    let m = &game.piece_moves[ck * game.cells + from];
                    let t = m.leap_quiet.and_not(self.occupied).or(m.leap_capture.and(enemy));
                    if m.leaper & leap_kinds == 0 || (watching && t.intersects(watched)) {
                        walk.insert(from);
                        continue;
                    }
                    n += self.count_by_set(game, ck, from, t, stops, promotion);
                    if m.leaper != leaps::PLAIN {
                        // (Counted and then kept or not: whether the piece has moved is as hard
                        // to predict as the board.)
                        let steps = if m.one_step {
                            self.initial_step_open(m.step.0, m.step.1, stops)
                        } else {
                            self.count_initial_steps(game, m, stops)
                        };
                        n += steps & (self.virgin.has(from) as u64).wrapping_neg();
                    }
                    if ANY && n > 0 {
                        return (n, known_safe);
                    }
                }
            }
            // The cells that block this kind's rays: occupied by pieces it may not capture.
            let stuck = self.occupied.and_not(enemy);
            for from in walk.iter() {
                let m = &game.piece_moves[ck * game.cells + from];
                if m.gated && m.gates.and_not(stuck).is_empty() {
                    // Every ray is blocked where it starts (`PieceMoves::gates`): no move.
                    continue;
                }
                let mut by_set = !one_by_one.has(from);
                let listed = scratch.len();
                let (mut targets, mut sets_ep, mut stationary) = self.piece_moves::<HOME, HOPS>(game, ck, from, enemy, !by_set, scratch);
                // With hops or winding rules: every move of a piece on a watched cell is judged
                // one by one, and the moves of any other piece onto one.
                let mut pins_decide = true;
                if watching {
                    if watched.has(from) {
                        pins_decide = false;
                    } else {
                        if by_set && sets_ep.intersects(watched) {
                            // A move onto a watched cell that sets en-passant cells: all the piece's
                            // moves are listed instead (its en-passant captures, listed already,
                            // once).
                            scratch.truncate(listed);
                            by_set = false;
                            (targets, sets_ep, stationary) = self.piece_moves::<HOME, HOPS>(game, ck, from, enemy, true, scratch);
                        }
                        let onto = targets.and(watched);
                        // (In perft's last ply with hops, `HOPS`, counted here as `is_legal` would
                        // judge them listed, where it need not play them; with the moves of the
                        // pieces on watched cells, below: the hop cube -1.2 instructions a leaf,
                        // Grasshopper chess -3.1, Janggi -0.7, Xiangqi -0.6.)
                        if HOPS {
                            n += self.count_watched(game, l, ck, from, onto, promotion, scratch);
                        } else {
                            for to in onto.iter() {
                                self.push(game, ck, from, to, MoveKind::Normal, 0, scratch);
                            }
                        }
                        targets = targets.and_not(watched);
                    }
                }
                if by_set {
                    // A move that sets en-passant cells is a move of its own, even to a cell
                    // another ray of the piece reaches (only pieces with such moves have any).
                    n += self.count_by_set(game, ck, from, targets, stops, promotion);
                    if !sets_ep.is_empty() {
                        n += self.count_by_set(game, ck, from, sets_ep, stops, promotion);
                    }
                } else if lone_royal == Some(from) && promotion.is_none() && !(game.stacks && self.stacked.has(from)) {
                    // The lone royal piece: each plain move is legal iff its destination is safe
                    // (and, with `royal-path unattacked`, the cells it passes). On a stack it is
                    // judged by playing: its cell stays occupied, and the top piece may not be it.
                    if game.tables.rules.royal_path_unattacked && !targets.is_empty() {
                        let reach = self.royal_path_reach(game, from, us, targets, false);
                        let targets = targets.and(reach.normal);
                        // The empty cells passed on the way were tested as a destination is.
                        n += targets.and(reach.known).and_not(reach.hit).count() as u64;
                        n += self.safe_destinations(game, from, targets.and_not(reach.known), us).count() as u64;
                    } else {
                        let safe = self.safe_destinations(game, from, targets, us);
                        n += safe.count() as u64;
                        // Safe with the royal piece lifted is safe with it in place (it only
                        // blocks lines): castling need not test these cells again. (Not with
                        // hops or winding rules, whose tests put the piece on its destination.)
                        if !(game.hopping || game.winding) {
                            known_safe = safe.and_not(self.occupied);
                        }
                    }
                } else if let Some(count) = self.count_pinned(game, l.filter(|_| pins_decide), ck, from, targets, promotion, scratch, !watching) {
                    n += count;
                } else {
                    // (A piece on a watched cell, in the count with hops: its moves judged
                    // here as those onto one.)
                    if HOPS && watching && !pins_decide {
                        n += self.count_watched(game, l, ck, from, targets, promotion, scratch);
                    } else {
                        for to in targets.iter() {
                            self.push(game, ck, from, to, MoveKind::Normal, 0, scratch);
                        }
                    }
                }
                if stationary {
                    scratch.push(Move { from: from as u16, to: from as u16, kind: MoveKind::Stationary, promotion: NO_PROMOTION, aux: 0 });
                }
                if ANY && n > 0 {
                    return (n, known_safe);
                }
            }
        }
        (n, known_safe)
    }
}

/// How [`Position::count_legal`] judges the moves of one position: the pieces whose moves are
/// judged one by one (the others by set), the cells a piece judged by set may go to in check,
/// the lone royal piece and the watched cells.
#[derive(Clone, Copy)]
struct Judged<'a, B> {
    l: Option<&'a Legality<B>>,
    one_by_one: B,
    stops: Option<B>,
    lone_royal: Option<usize>,
    watched: B,
}
