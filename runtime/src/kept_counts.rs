//! Pieces' counts kept for perft's last ply. Above the last ply, every child is the position
//! after one move of the side to move there; the next side's pieces are the same in all of them.
//! The moves of a plain leaper (`leaps::PLAIN`), of a pawn with initial steps (`leaps::INITIAL`)
//! and of a rider or hopper with no special ray depend only on the cells they look at: their
//! destinations, the cells a step must find empty, the cells a slide passes and the one that
//! blocks it, the cells a hop rule's walk reads (`Position::hop_walk_read`: up to its screen and
//! past it, whose kinds it may judge too). Counted once here, such a piece's count holds in
//! every child whose move touched neither its cell nor a cell it looked at, where legality
//! counts its moves by set (no check, not judged one by one, and with hops or winding rules
//! neither on nor looking at a watched cell: `Position::count_legal`). The count sets such pieces
//! aside (`Position::kept_aside`, [`KeptCounts::hide`]) while it walks the others. For the
//! children counted without their move (`crate::untouched`), the counts a plain move touched
//! are found again with its two cells changed ([`KeptCounts::after`]). (Taking them
//! off their kinds' sets and putting them back, kind by kind, cost 3 to 5 instructions a leaf
//! more: orthodox 65.0 against 61.8, Shatranj 75.5 against 70.3.)

use crate::bits::CellSet;
use crate::game::{leaps, Game, PieceMoves};
use crate::position::{Move, MoveKind, Position};

/// The fewest pieces a side keeps counts for (see [`KeptCounts::new`]).
const MIN_KEPT: usize = 3;

/// The most pieces a position keeps counts for: a piece is a bit of a [`Pieces`] (a side's
/// pieces past it are counted as in any other position).
const MAX_KEPT: usize = Pieces::BITS as usize;

/// The pieces counted, a bit each (a `u32`: with a `u64`, clearing `KeptCounts::affected` cost
/// the 8x8 cubes 1 instruction a leaf).
type Pieces = u32;

/// The next side's pieces counted in the position above the last ply, and, per cell, the pieces
/// whose count depends on it.
pub(crate) struct KeptCounts<B> {
    /// Whether counts are kept at all (see [`KeptCounts::new`]).
    pub enabled: bool,
    /// The cells of the pieces counted (see [`KeptCounts::keepable`]), each piece also a bit:
    /// the `i`th piece counted is bit `i`, on `cell[i]`, with `count[i]` moves (as counted by
    /// set).
    cached: B,
    len: usize,
    cell: [u16; MAX_KEPT],
    count: [u16; MAX_KEPT],
    how: [Recount; MAX_KEPT],
    /// The next side's targets in the position kept: those of its pieces, and of those that
    /// cannot check ([`KeptCounts::after`]).
    enemy: B,
    enemy_unroyal: B,
    /// Per cell: the bit of the piece counted there.
    bit_of: Vec<u8>,
    /// The bits of the pieces with initial steps (`leaps::INITIAL`), and their cells: their
    /// counts do not hold after a move that sets en-passant cells (they may capture there).
    initial: Pieces,
    /// Per piece whose `how` is `Made`: how a piece that may promote would be found again by
    /// set before its promotions are counted, one move per choice (`Position::count_by_set`),
    /// only after a move off a stack ([`KeptCounts::after_landing`]); `Made` for the others.
    /// (Written only for `Made` pieces: no mask to clear for every parent.)
    promoting_how: [Recount; MAX_KEPT],
    initial_cells: B,
    /// The sum of `count`, and over `initial`: a child's sum is this less the counts that do
    /// not hold there, usually few (adding up those that hold cost Webball 15 instructions a
    /// leaf).
    total: u64,
    initial_total: u64,
    /// Per cell: the bits of the pieces that stand on it or look at it (a [`Pieces`] a cell
    /// rather than a set of cells: setting a three-word set for every cell a piece looks at cost
    /// Webball 3.3 instructions a leaf more).
    affected: Vec<Pieces>,
    /// The cells `affected` holds the pieces of: the others' are left 0 ([`KeptCounts::touched`]).
    touched: B,
}

/// How a kept piece's count is found again in a child where a plain move changed a cell it
/// looks at ([`KeptCounts::after`]): as [`KeptCounts::keep`] found it, by [`by_set`], or not
/// at all (`Made`: its child is made and counted).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Recount {
    /// A plain leaper (`leaps::PLAIN`) with no hop rule.
    #[default]
    Leaper,
    /// A pawn with initial steps (`leaps::INITIAL`), or a leaper once moved that has moved
    /// (`PieceMoves::moved_leaper`: found as one, with no initial step).
    Initial,
    /// A piece with plain slides and plain leaps, no hop rule.
    Rider,
    /// Any other, or one that may promote (but after a move off a stack: `promoting_how`).
    Made,
    /// A piece with hop rules besides plain slides and leaps (no slide back to its start):
    /// found again after a move as a rider, with its hops walked on the cells after it
    /// (`Position::hop_walk_on`), but only in the games with hops' loop; its count pinned is
    /// not. (After `Made`: [`Recount::by_set`] is one test.)
    Hopper,
}

impl Recount {
    /// Whether [`by_set`] alone finds the piece's count again (not `Made`, not `Hopper`).
    #[inline(always)]
    fn by_set(self) -> bool {
        (self as u8) < Recount::Made as u8
    }
}

/// The moves by set of the piece on `from` whose moves there are `m`, found as `how` says with
/// the cells `occupied` occupied and `enemy` its targets, its moves beside them (initial steps,
/// a slide back to its start) and its slides' reach; pinned, only those onto the cells
/// `within` (as `Position::count_pinned` counts them).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn by_set<B: CellSet>(game: &Game<B>, pos: &Position<B>, m: &PieceMoves<B>, how: Recount, from: usize, occupied: B, enemy: B, within: Option<B>) -> (B, u64, B) {
    let leaps = m.leap_quiet.and_not(occupied).or(m.leap_capture.and(enemy));
    let (t, more, reach) = match how {
        Recount::Initial => {
            // Its initial steps while unmoved, as `Position::count_pieces` counts them.
            let mut steps = 0;
            if pos.virgin.has(from) {
                for sp in &game.specials[m.specials.0 as usize..m.ep_only as usize] {
                    steps += (!occupied.has(sp.to as usize) & !occupied.has(sp.pass as usize) & within.is_none_or(|w| w.has(sp.to as usize))) as u64;
                }
            }
            (leaps, steps, B::default())
        }
        Recount::Rider | Recount::Hopper => {
            // (Most riders: the cells reached are its moves, as `piece_moves` finds them, read
            // once. A slide back to the start reaches it: a stationary move, legal where counts
            // are kept, out of check; Yapsan -15.4 instructions a leaf.)
            let reach = game.slide_reach(m, occupied);
            let home = (m.homing && reach.has(from)) as u64;
            (m.leap_quiet.or(reach).and_not(occupied).or(m.leap_capture.or(reach).and(enemy)), home, reach)
        }
        _ => (leaps, 0, B::default()),
    };
    (within.map_or(t, |w| t.and(w)), more, reach)
}

/// Per colored kind, the cells where its count may be kept (`Game::keep_cells`,
/// [`KeptCounts::keepable`]): found once, when the game is loaded, rather than for every piece
/// of every parent (and the parent walks only the kinds present, `Position::present`): perft
/// costs orthodox 0.8 instructions a leaf less, the soccer balls 3.6, Crowned Chess 4.6.
pub(crate) fn keep_cells<B: CellSet>(game: &Game<B>) -> Vec<B> {
    (0..game.sides * game.kinds).map(|ck| B::from_cells((0..game.cells).filter(|&c| KeptCounts::keepable(game, ck, c)))).collect()
}

impl<B: CellSet> KeptCounts<B> {
    /// Keeping counts pays where each side has at least `MIN_KEPT` pieces to keep, judged from
    /// `pos`, the count's root (with five, before the children counted without their move,
    /// `crate::untouched`, fewer did not pay; since, three: the 8x8 middle join, four pieces a
    /// side, 62.6 -> 56.5 instructions a leaf, orthodox position 3 -18%). With any number of
    /// sides: the next side's targets are those it may capture in the position kept
    /// (`Position::targets_of`, cannot-check pieces' without the royal ones).
    pub(crate) fn new(game: &Game<B>, pos: &Position<B>) -> Self {
        let enabled = (0..game.sides).all(|s| pos.is_out(s) || Self::keepable_pieces(game, pos, s) >= MIN_KEPT);
        let cells = if enabled { game.cells } else { 0 };
        KeptCounts {
            enabled,
            cached: B::default(),
            len: 0,
            cell: [0; MAX_KEPT],
            count: [0; MAX_KEPT],
            how: [Recount::Leaper; MAX_KEPT],
            enemy: B::default(),
            enemy_unroyal: B::default(),
            bit_of: vec![0; cells],
            initial: 0,
            promoting_how: [Recount::Made; MAX_KEPT],
            initial_cells: B::default(),
            total: 0,
            initial_total: 0,
            affected: vec![0; cells],
            touched: B::default(),
        }
    }

    /// The number of `side`'s pieces in `pos` whose counts would be kept.
    fn keepable_pieces(game: &Game<B>, pos: &Position<B>, side: usize) -> usize {
        (0..game.kinds)
            .map(|k| side * game.kinds + k)
            .map(|ck| pos.by_ck[ck].and(game.keep_cells[ck]).count() as usize)
            .sum()
    }

    /// Whether the count of the piece `ck` on `from` may be kept: a plain leaper there, a pawn
    /// with initial steps (`leaps::INITIAL`), or a piece with slides, plain leaps and hop rules
    /// only (no special ray, no winding rule whose zone holds `from`, no slide back to its
    /// start but a plain one, whose stationary move is found from the reach, and not with
    /// stacks), that is not royal (a royal piece's moves are judged one by one). A piece that may
    /// promote is kept too, its promotions one move per choice, unless the choices are limited
    /// by the kinds captured.
    #[inline(always)]
    fn keepable(game: &Game<B>, ck: usize, from: usize) -> bool {
        let m = &game.piece_moves[ck * game.cells + from];
        // (A kind with winding rules is kept on the cells outside their zones, where it has
        // none: Webball's Mega-ringers on the rings.)
        let winds_here = game.walked[ck] && game.winders[ck].iter().any(|w| w.zone.has(from));
        let hops = game.walked[ck] && !game.hoppers[ck].is_empty();
        let rider = (m.leaper == leaps::NO || hops && m.leaper == leaps::PLAIN) && m.specials.0 == m.specials.1 && (!m.homing || m.plain_slides && !game.stacks) && !winds_here;
        // (A promotion whose choices are limited by the kinds captured counts differently after
        // a capture: not kept where the piece may promote.)
        let limited = m.may_promote && game.promotion[ck].as_ref().is_some_and(|p| p.limit.iter().any(|&l| l != u32::MAX));
        (m.leaper != leaps::NO && !hops || rider || m.moved_leaper) && !game.royal[ck] && !limited
    }

    /// The cells whose pieces looking at them [`KeptCounts::keep`] must mark, for the children
    /// after `moves` (the moves of `pos`) where `side` is to move: those the moves start from
    /// or go to, the cells [`KeptCounts::hide`] reads (marking only these: the soccer ball -3.1,
    /// Crowned Chess -2.4, Shatranj -1.3, orthodox -0.8 instructions a leaf; with winding rules
    /// too, Webball -3.5). With hops also every cell the side's royal pieces may watch
    /// (`Game::hop_watch`), which a child asks of ([`KeptCounts::looking_at`]). (Marking the
    /// hop zone kept for the children instead, and keeping no count in a child that watches a
    /// cell left unmarked: Janggi -0.9, but Xiangqi +3.1, Grasshopper chess +2.5, the 5x5 cube
    /// with hoppers +6.4.) The side to move's pieces stand for the cells moves start from; the
    /// moves' kinds are not looked at (leaving out the destinations of drops and castling cost
    /// more than it saved, Minishogi too).
    pub(crate) fn touched(game: &Game<B>, pos: &Position<B>, moves: &[Move], side: usize) -> B {
        let mut cells = pos.by_side[pos.to_move];
        if game.hopping {
            for r in pos.royals(game, side).iter() {
                cells = cells.or(game.hop_watch[r * game.sides + side]);
            }
        }
        for mv in moves {
            cells.insert(mv.to as usize);
        }
        cells
    }

    /// Whether every cell of `cells` was marked ([`KeptCounts::touched`]), so that
    /// [`KeptCounts::looking_at`] may be asked of them (with winding rules and a facing rule, a
    /// child may watch cells no move touched: it keeps no count).
    #[inline(always)]
    pub(crate) fn marked(&self, cells: B) -> bool {
        cells.and_not(self.touched).is_empty()
    }

    /// Counts the moves of `side`'s keepable pieces in `pos` as `side` will count them in each
    /// child of `pos` (where `side` is to move and its targets are those it may capture here:
    /// a plain move changes them only on its two cells, which the pieces looking at them do
    /// not keep); none where counts are not kept (`enabled`).
    /// Only the cells of `touched` are marked with the pieces that look at them
    /// ([`KeptCounts::touched`]).
    pub(crate) fn keep(&mut self, game: &Game<B>, pos: &Position<B>, side: usize, touched: B) {
        self.affected.fill(0);
        self.touched = touched;
        self.cached = B::default();
        self.len = 0;
        self.initial = 0;
        self.initial_cells = B::default();
        self.total = 0;
        self.initial_total = 0;
        if !self.enabled || side == pos.to_move {
            return;
        }
        let (enemy, enemy_unroyal) = pos.targets_of(game, side);
        (self.enemy, self.enemy_unroyal) = (enemy, enemy_unroyal);
        let occupied = pos.occupied;
        // (The kinds present, `Position::present`: with many kinds, most have no piece.)
        let mut present = pos.present & game.side_cks[side];
        while present != 0 {
            let ck = present.trailing_zeros() as usize;
            present &= present - 1;
            let enemy = if game.any_no_check && game.no_check[ck] { enemy_unroyal } else { enemy };
            for from in pos.by_ck[ck].and(game.keep_cells[ck]).iter() {
                if self.len == MAX_KEPT {
                    continue;
                }
                let i = self.len;
                let m = &game.piece_moves[ck * game.cells + from];
                let hops = game.walked[ck] && !game.hoppers[ck].is_empty();
                let mut how = if m.leaper == leaps::PLAIN && !hops {
                    Recount::Leaper
                } else if m.leaper == leaps::INITIAL {
                    Recount::Initial
                } else if m.moved_leaper {
                    // (Before riders: with no slide, `plain_slides` holds too.)
                    Recount::Initial
                } else if m.plain_slides && !hops {
                    Recount::Rider
                } else if hops && m.plain_slides && !m.homing {
                    Recount::Hopper
                } else {
                    self.promoting_how[i] = Recount::Made;
                    Recount::Made
                };
                // Its destinations by set, its moves beside them (initial steps, a slide back
                // to its start) and the cells they depend on.
                let (t, more, deps) = match how {
                    Recount::Leaper => (by_set(game, pos, m, how, from, occupied, enemy, None).0, 0, m.leap_quiet.or(m.leap_capture)),
                    Recount::Initial => {
                        // (A piece that is a leaper once moved, and has not moved: not kept.)
                        if m.moved_leaper && pos.virgin.has(from) {
                            continue;
                        }
                        self.initial |= 1 << i;
                        self.initial_cells.insert(from);
                        let mut deps = m.leap_quiet.or(m.leap_capture);
                        if pos.virgin.has(from) {
                            for sp in &game.specials[m.specials.0 as usize..m.ep_only as usize] {
                                deps.insert(sp.to as usize);
                                deps.insert(sp.pass as usize);
                            }
                        }
                        let (t, steps, _) = by_set(game, pos, m, how, from, occupied, enemy, None);
                        (t, steps, deps)
                    }
                    // (No special ray, no winding walk: nothing is listed.) The cells its slides
                    // look at: those passed and each blocker, their reach.
                    Recount::Rider => {
                        let (t, home, reach) = by_set(game, pos, m, how, from, occupied, enemy, None);
                        (t, home, m.leap_quiet.or(m.leap_capture).or(reach))
                    }
                    // And those its hop rules read (kept with hops: Grasshopper chess -27
                    // instructions a leaf).
                    Recount::Made | Recount::Hopper => {
                        let deps = m.leap_quiet.or(m.leap_capture).or(game.slide_reach(m, occupied));
                        let (t, _, _) = pos.piece_moves::<false, false>(game, ck, from, enemy, false, &mut Vec::new());
                        (t, 0, if hops { deps.or(pos.hop_read_after_moves(game, ck, from)) } else { deps })
                    }
                };
                // (Promotions as the count counts them: one move per choice, which without
                // limits on the choices does not depend on the position.)
                let n = match &game.promotion[ck] {
                    Some(p) if m.may_promote && !m.moved_leaper => {
                        self.promoting_how[i] = how;
                        how = Recount::Made;
                        pos.count_by_set(game, ck, from, t, None, Some(p))
                    }
                    _ => t.count() as u64,
                } + more;
                self.how[i] = how;
                self.cell[i] = from as u16;
                self.count[i] = n as u16;
                self.len += 1;
                self.bit_of[from] = i as u8;
                self.cached.insert(from);
                self.total += n;
                if self.initial >> i & 1 != 0 {
                    self.initial_total += n;
                }
                // (Its own cell too: a move there captures it.)
                for c in deps.or(B::single(from)).and(touched).iter() {
                    self.affected[c] |= 1 << i;
                }
            }
        }
    }

    /// The cells of `cells`, and those of the pieces counted that look at one of them: with
    /// hops or winding rules, the pieces whose counts do not hold where `cells` are watched (a
    /// piece on a watched cell, or with a move onto one, has moves judged one by one).
    #[inline(never)]
    pub(crate) fn looking_at(&self, cells: B) -> B {
        let mut looking = 0;
        debug_assert!(cells.and_not(self.touched).is_empty(), "cells kept counts were not marked for");
        cells.each(|c| looking |= self.affected[c]);
        let mut s = cells;
        while looking != 0 {
            s.insert(self.cell[looking.trailing_zeros() as usize] as usize);
            looking &= looking - 1;
        }
        s
    }

    /// In the child after `mv`, the position kept: sets the pieces whose kept count holds (but
    /// those in `one_by_one`, whose moves are judged one by one) aside (`Position::kept_aside`),
    /// so that the count of the pieces passes them, and returns them with the sum of their
    /// counts. [`KeptCounts::show`] puts them back. A plain move changes only
    /// its two cells: the counts that hold are those of the pieces that look at neither (a
    /// capture en passant, castling, a drop or a crowning more, or another piece: none holds);
    /// after a move that sets en-passant cells, not those of pawns with initial steps (they
    /// may capture there).
    #[inline(always)]
    pub(crate) fn hide(&self, pos: &mut Position<B>, mv: Move, one_by_one: B) -> (B, u64) {
        let (mut held, mut n, gone) = match mv.kind {
            MoveKind::Normal => (self.cached, self.total, 0),
            MoveKind::EnPassantTarget => (self.cached.and_not(self.initial_cells), self.total - self.initial_total, self.initial),
            _ => return (B::default(), 0),
        };
        debug_assert!(self.touched.has(mv.from as usize) && self.touched.has(mv.to as usize), "a move off the cells kept counts were marked for");
        let mut lost = self.affected[mv.from as usize] | self.affected[mv.to as usize];
        self.cached.and(one_by_one).each(|c| lost |= 1 << self.bit_of[c]);
        lost &= !gone;
        while lost != 0 {
            let i = lost.trailing_zeros() as usize;
            held.remove(self.cell[i] as usize);
            n -= self.count[i] as u64;
            lost &= lost - 1;
        }
        if held.is_empty() {
            return (held, 0);
        }
        pos.kept_aside = held;
        (held, n)
    }

    /// The sum of the kept counts in the child after a plain move from `from` to `to` (in
    /// `pos`, the position kept) that captures and promotes nothing and after which the next
    /// side's pieces are neither in check nor pinned nor judged one by one (`crate::untouched`):
    /// the counts that hold, and those of the pieces that look at either cell found again with
    /// the move's two cells changed; `None` where one of those is not found so
    /// ([`Recount::Made`]; [`Recount::Hopper`] only with `HOPPERS`, in the games with hops).
    #[inline(always)]
    pub(crate) fn after<const HOPPERS: bool>(&self, game: &Game<B>, pos: &Position<B>, from: usize, to: usize) -> Option<u64> {
        let lost = self.affected[from] | self.affected[to];
        if lost == 0 {
            return Some(self.total);
        }
        self.recount::<false, HOPPERS>(game, pos, from, to, lost, None)
    }

    /// [`KeptCounts::after`] after a plain move from `from` that captures the piece counted on
    /// `to` (the caller has checked it is counted): the victim's count lost, and those of the
    /// pieces that look at either cell found again (its cell stays occupied, by a target now).
    #[inline(never)]
    pub(crate) fn after_capture(&self, game: &Game<B>, pos: &Position<B>, from: usize, to: usize) -> Option<u64> {
        let victim = self.bit_of[to] as usize;
        let lost = (self.affected[from] | self.affected[to]) & !(1 << victim);
        Some(self.recount::<false, false>(game, pos, from, to, lost, None)? - self.count[victim] as u64)
    }

    /// [`KeptCounts::after`] after a move off a stack of the other side's to the empty cell
    /// `to` of a piece that is not royal (`crate::untouched`): the piece beneath stays on the
    /// cell left, a target as the stack was, so only the counts of the pieces that look at
    /// `to` are found again, with a target there.
    #[inline(never)]
    pub(crate) fn after_landing(&self, game: &Game<B>, pos: &Position<B>, to: usize) -> Option<u64> {
        let lost = self.affected[to];
        if lost == 0 {
            return Some(self.total);
        }
        let landed = |mut cells: B| {
            cells.insert(to);
            cells
        };
        let after = (landed(pos.occupied), landed(self.enemy), landed(self.enemy_unroyal));
        self.recount_on::<false, false, true>(game, pos, (to, to), after, lost, None)
    }

    /// [`KeptCounts::after`] where the move leaves one piece pinned (`pin`: its cell and the
    /// cells it is pinned to): its count found again pinned.
    #[inline(never)]
    pub(crate) fn after_pinned(&self, game: &Game<B>, pos: &Position<B>, from: usize, to: usize, pin: (usize, B)) -> Option<u64> {
        if !self.cached.has(pin.0) {
            return None;
        }
        let lost = self.affected[from] | self.affected[to] | 1 << self.bit_of[pin.0];
        self.recount::<true, false>(game, pos, from, to, lost, Some(pin))
    }

    /// [`KeptCounts::after`] where the pieces `lost` look at the move's cells or are pinned.
    /// (Its loop as it is: through `found_again`, it cost the Berolina corner variant 0.7
    /// instructions a leaf.)
    #[inline(never)]
    fn recount<const PINNED: bool, const HOPPERS: bool>(&self, game: &Game<B>, pos: &Position<B>, from: usize, to: usize, lost: Pieces, pin: Option<(usize, B)>) -> Option<u64> {
        self.recount_on::<PINNED, HOPPERS, false>(game, pos, (from, to), self.after_move(pos, from, to), lost, pin)
    }

    /// [`KeptCounts::recount`] on the cells `after` the move (occupied, and the next side's
    /// two sets of targets); `PROMOTING`: the pieces that may promote are found again too (in
    /// every recount, the test cost orthodox about 0.1 instructions a leaf).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn recount_on<const PINNED: bool, const HOPPERS: bool, const PROMOTING: bool>(&self, game: &Game<B>, pos: &Position<B>, (from, to): (usize, usize), (occupied, enemy, enemy_unroyal): (B, B, B), mut lost: Pieces, pin: Option<(usize, B)>) -> Option<u64> {
        let mut n = self.total;
        while lost != 0 {
            let i = lost.trailing_zeros() as usize;
            lost &= lost - 1;
            let how = if PROMOTING && self.how[i] == Recount::Made { self.promoting_how[i] } else { self.how[i] };
            if if HOPPERS { how == Recount::Made } else { !how.by_set() } {
                return None;
            }
            let c = self.cell[i] as usize;
            let ck = pos.board[c] as usize - 1;
            let enemy = if game.any_no_check && game.no_check[ck] { enemy_unroyal } else { enemy };
            let within = if PINNED { pin.filter(|&(p, _)| p == c).map(|(_, cells)| cells) } else { None };
            let (mut t, more, _) = by_set(game, pos, &game.piece_moves[ck * game.cells + c], how, c, occupied, enemy, within);
            if HOPPERS && how == Recount::Hopper {
                t = t.or(self.hops_after(game, pos, ck, c, (from, to), occupied, enemy, within));
            }
            let now = if PROMOTING && self.how[i] == Recount::Made { pos.count_by_set(game, ck, c, t, None, game.promotion[ck].as_ref()) } else { t.count() as u64 };
            n = n - self.count[i] as u64 + now + more;
        }
        Some(n)
    }

    /// The hop destinations of the piece `ck` on `c` (a [`Recount::Hopper`]) after the plain
    /// move `from` -> `to` in `pos`, on the cells `occupied` after it with targets `enemy`
    /// (onto `within` only, if given). (A call: it is seldom needed.)
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn hops_after(&self, game: &Game<B>, pos: &Position<B>, ck: usize, c: usize, (from, to): (usize, usize), occupied: B, enemy: B, within: Option<B>) -> B {
        let code = pos.board[from];
        let (quiet, capture) = pos.hop_walk_on(game, ck, c, enemy, occupied, |x| if x == to { code } else { pos.board[x] });
        let t = quiet.or(capture);
        within.map_or(t, |w| t.and(w))
    }

    /// The occupied cells and the next side's two sets of targets after a plain move in `pos`
    /// from `from` to `to` (a capture leaves `to` occupied, by a target if the mover was one).
    #[inline(always)]
    fn after_move(&self, pos: &Position<B>, from: usize, to: usize) -> (B, B, B) {
        let mut occupied = pos.occupied;
        occupied.remove(from);
        occupied.insert(to);
        // (The piece moved stays a target, or not, on its new cell.)
        let moved = |mut targets: B| {
            if targets.has(from) {
                targets.remove(from);
                targets.insert(to);
            }
            targets
        };
        (occupied, moved(self.enemy), moved(self.enemy_unroyal))
    }

    /// The count of the `i`th piece counted, found again on the cells `after`
    /// ([`KeptCounts::after_move`]), pinned to `within` if given; `None` where it is not found
    /// so ([`Recount::Made`]).
    #[inline(always)]
    fn found_again(&self, game: &Game<B>, pos: &Position<B>, i: usize, (occupied, enemy, enemy_unroyal): (B, B, B), within: Option<B>) -> Option<u64> {
        if !self.how[i].by_set() {
            return None;
        }
        let c = self.cell[i] as usize;
        let ck = pos.board[c] as usize - 1;
        let enemy = if game.any_no_check && game.no_check[ck] { enemy_unroyal } else { enemy };
        let (t, more, _) = by_set(game, pos, &game.piece_moves[ck * game.cells + c], self.how[i], c, occupied, enemy, within);
        Some(t.count() as u64 + more)
    }

    /// [`KeptCounts::after`] in a position kept with pinned pieces, `pins` (each one's cell, the
    /// cells it is pinned to and its count pinned, which the caller counts beside the kept
    /// counts, as it takes off theirs): those of `freed` (bits of `pins`) unpinned by the move,
    /// those of `repinned` pinned to the cells `pins` gives, which the move changed, the others
    /// pinned to the same cells. What the caller's sum needs: each piece pinned still that
    /// looks at a cell of the move, or is repinned, is found again pinned, and counts what it
    /// counts now less its count pinned; each piece freed counts its count kept (found again
    /// if it looks at one) less its count pinned.
    #[inline(never)]
    pub(crate) fn after_pins(&self, game: &Game<B>, pos: &Position<B>, from: usize, to: usize, pins: &[(u16, B, u16)], (freed, repinned): (u8, u8)) -> Option<u64> {
        let lost = self.affected[from] | self.affected[to];
        let mut pinned: Pieces = 0;
        for &(c, _, _) in pins {
            if !self.cached.has(c as usize) {
                return None;
            }
            pinned |= 1 << self.bit_of[c as usize];
        }
        let mut n = self.recount::<false, false>(game, pos, from, to, lost & !pinned, None)?;
        let after = self.after_move(pos, from, to);
        for (j, &(c, allowed, count_pinned)) in pins.iter().enumerate() {
            let i = self.bit_of[c as usize] as usize;
            let free = freed >> j & 1 != 0;
            let now = match (free, lost >> i & 1 != 0 || repinned >> j & 1 != 0) {
                (false, false) => continue,
                (true, false) => self.count[i] as u64,
                (true, true) => self.found_again(game, pos, i, after, None)?,
                (false, true) => self.found_again(game, pos, i, after, Some(allowed))?,
            };
            n = n + now - count_pinned as u64;
        }
        Some(n)
    }

    /// Of the piece counted on `cell`, pinned to the cells `allowed` in the position kept,
    /// `pos`: its count pinned (as `Position::count_pinned` counts it), its count kept, and the
    /// cells marked that it looks at; `None` where not found so (not counted, or
    /// [`Recount::Made`], or a slide back to its start).
    pub(crate) fn pinned(&self, game: &Game<B>, pos: &Position<B>, cell: usize, allowed: B) -> Option<(u64, u64, B)> {
        if !self.cached.has(cell) {
            return None;
        }
        let i = self.bit_of[cell] as usize;
        let ck = pos.board[cell] as usize - 1;
        let m = &game.piece_moves[ck * game.cells + cell];
        if !self.how[i].by_set() || m.homing {
            return None;
        }
        let enemy = if game.any_no_check && game.no_check[ck] { self.enemy_unroyal } else { self.enemy };
        let (t, more, _) = by_set(game, pos, m, self.how[i], cell, pos.occupied, enemy, Some(allowed));
        let mut looked = B::default();
        self.touched.each(|c| {
            if self.affected[c] >> i & 1 != 0 {
                looked.insert(c);
            }
        });
        Some((t.count() as u64 + more, self.count[i] as u64, looked))
    }

    /// The cells of the pieces counted.
    pub(crate) fn cached(&self) -> B {
        self.cached
    }

    /// The sum of the pieces' counts.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// Puts back the pieces [`KeptCounts::hide`] set aside.
    #[inline(always)]
    pub(crate) fn show(&self, pos: &mut Position<B>) {
        pos.kept_aside = B::default();
    }
}

