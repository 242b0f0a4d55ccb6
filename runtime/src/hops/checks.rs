//! Hop checks (see `crate::hops`): whether an enemy piece captures a cell by a rule walked along
//! its lines ([`Position::hopped_by`], from the ways of `HopAttacks`, or from those found once
//! for a position, `LiveWays`), and a royal piece's hop zone, the cells where one move could make
//! or unmake such a capture ([`Position::hop_zone`]), which legality watches.

use super::at_most;
use crate::bits::CellSet;
use crate::game::Game;
use crate::position::Position;
use crate::tables::hop;

impl<B: CellSet> Position<B> {
    /// The hop zone of `target` against the opponents of `side`: the cells where one move of
    /// `side` could make or unmake a capture on `target` by an enemy piece that stands where it
    /// is, by a rule walked along its lines ([`Position::way_zone`], way by way). A move of
    /// `side` that leaves from none of them and lands on none neither makes nor unmakes such a
    /// capture (the enemy pieces stay where they are). Walked from the ways of
    /// [`HopAttacks`], so of the kinds that may check: a royal piece's zone. (The zone kept for
    /// the children, `hop_zone_read`, holds the others' too: more cells watched, none missed.)
    #[inline(always)]
    pub fn hop_zone(&self, game: &Game<B>, target: usize, side: usize) -> B {
        match self.known_hops(target).filter(|k| k.side == side) {
            Some(k) => k.zone,
            None => self.hop_zone_walk(game, target, side),
        }
    }

    /// [`Position::hop_zone`] walked. (A call of its own, and the check of what is known
    /// inline: the hop cube -0.4 instructions a leaf, Janggi -0.8; it changed how the other
    /// games' counts compiled, orthodox -1.0, Knightmate -1.2, Webball +0.25.)
    #[inline(never)]
    fn hop_zone_walk(&self, game: &Game<B>, target: usize, side: usize) -> B {
        // (From the pieces, each one's ways at once, rather than rule by rule as
        // `hop_zone_read` walks: the hop cube -0.2 instructions a leaf.)
        let mut zone = B::default();
        for &s in &game.opponents[side] {
            let a = &game.hop_attacks[target * game.sides + s];
            for p in self.hop_pieces(game, s).and(a.starts).iter() {
                for w in a.ways_of(p, Self::hop_slot(game, s, self.board[p] - 1)) {
                    zone = zone.or(self.way_zone(w.flags, p, w.between, w.before as usize));
                }
            }
        }
        zone
    }

    /// [`Position::hop_zone`] walked, and with `READ` the cells it depends on: each way's start
    /// and the cells it passes (their occupancy, and for a hop check the kinds of its screens),
    /// with `target`; and every cell where a way to `target` could start.
    #[inline(always)]
    pub(crate) fn hop_zone_read<const READ: bool>(&self, game: &Game<B>, target: usize, side: usize) -> (B, B, B) {
        let (mut zone, mut read, mut starts) = (B::default(), B::default(), B::default());
        if READ {
            read.insert(target);
        }
        for &s in &game.opponents[side] {
            for &ck in &game.hop_cks[s] {
                let pieces = self.by_ck[ck as usize];
                // (The starts count for kinds with no piece too: one may be dropped there.)
                if !READ && pieces.is_empty() {
                    continue;
                }
                for r in game.hoppers[ck as usize].iter().filter(|r| r.flags & hop::CAPTURE != 0) {
                    if READ {
                        starts = starts.or(r.starts[target]);
                    }
                    for (from, passed, before) in r.ways_from(target, pieces) {
                        zone = zone.or(self.way_zone(r.flags, from, passed, before as usize));
                        if READ {
                            read = read.or(passed);
                            read.insert(from);
                        }
                    }
                }
            }
        }
        (zone, read, starts)
    }

    /// The cells the ways of `side`'s opponents' hop rules to `target` read where they pass
    /// fewer than `crowded` pieces under `occupied` (each way's start, the cells it passes, and
    /// `target`); and every cell where such a way to `target` could start. A way that passes more
    /// takes more moves to open than a child of perft's last ply and its own move make
    /// (`crate::untouched`).
    pub(crate) fn hop_ways_read(&self, game: &Game<B>, target: usize, side: usize, occupied: B, crowded: u32) -> (B, B) {
        let (mut read, mut starts) = (B::single(target), B::default());
        for &s in &game.opponents[side] {
            for &ck in &game.hop_cks[s] {
                let pieces = self.by_ck[ck as usize];
                for r in game.hoppers[ck as usize].iter().filter(|r| r.flags & hop::CAPTURE != 0) {
                    for &(from, passed, _) in &r.reverse[target] {
                        if occupied.and(passed).count() < crowded {
                            starts.insert(from as usize);
                        }
                    }
                    for (from, passed, _) in r.ways_from(target, pieces) {
                        if occupied.and(passed).count() < crowded {
                            read = read.or(passed);
                            read.insert(from);
                        }
                    }
                }
            }
        }
        (read, starts)
    }

    /// The cells where one move (a piece leaving one cell and landing on another) could make or
    /// unmake a capture along one way: from the enemy piece on `from`, over the cells `passed`
    /// (the last of which is `before`) to the target, by a rule with `flags`. One move changes
    /// the number of pieces on `passed` by at most one. A way that captures now (or might: its
    /// screen's kind is not looked at) is unmade by a move onto a cell passed or off the screen,
    /// or by taking the piece on `from`: all of them. Otherwise:
    /// - a slide (no screen) is opened by the one piece on it leaving;
    /// - a hop with no piece on it, by a piece landing anywhere on it; with two, by one leaving;
    /// - a hop to the cell past its screen (`next`), which needs every cell passed but `before`
    ///   empty and a screen on `before`: with none of them occupied, by a piece landing on
    ///   `before`; with one, by that piece leaving or a piece landing on `before`.
    ///
    /// More pieces than that are more than one move can clear. (Inlined into its two callers,
    /// as when it had one.)
    #[inline(always)]
    fn way_zone(&self, flags: u8, from: usize, passed: B, before: usize) -> B {
        let on = self.occupied.and(passed);
        let whole = || {
            let mut z = passed;
            z.insert(from);
            z
        };
        if flags & hop::SCREEN == 0 {
            return if on.is_empty() { whole() } else if at_most(on, 1) { on } else { B::default() };
        }
        if flags & hop::NEXT == 0 {
            return if on.is_empty() {
                passed
            } else if at_most(on, 1) {
                whole()
            } else if at_most(on, 2) {
                on
            } else {
                B::default()
            };
        }
        let mut short = on;
        short.remove(before);
        if short.is_empty() {
            if on.is_empty() {
                B::single(before)
            } else {
                whole()
            }
        } else if at_most(short, 1) {
            short.insert(before);
            short
        } else {
            B::default()
        }
    }

    /// Whether a piece of `side` could capture on `target` by a rule walked along its lines: the
    /// piece on `target` of a kind it may take (any kind when `target` is empty).
    pub fn hopped_by(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        self.hopped_by_on(game, target, side, self.occupied, B::default(), |c| self.board[c])
    }

    /// Whether [`Position::know_hops`] made known that no piece can capture the royal piece on
    /// `target` by a hop. (A call of its own: inline in the check test it changed how the games
    /// without hops compiled, orthodox +0.4 instructions a leaf.)
    #[inline(never)]
    pub(crate) fn hops_known_clear(&self, target: usize) -> bool {
        self.known_hops(target).is_some_and(|k| k.checks == 0)
    }

    /// [`Position::hopped_by`], answered from [`Position::know_hops`] where that holds (for the
    /// checks on the royal piece it was known for).
    #[inline(always)]
    pub(crate) fn hopped_by_or_known(&self, game: &Game<B>, target: usize, side: usize) -> bool {
        match self.known_hops(target).filter(|k| k.opponents >> side & 1 != 0) {
            Some(k) => k.checks >> side & 1 != 0,
            None => self.hopped_by(game, target, side),
        }
    }

    /// Whether, after the plain move `from` -> `to` of a piece of `side`'s opponent (no royal
    /// piece of which moves), a piece of `side` could capture on `target` by a rule walked along
    /// its lines: [`Position::hopped_by`] without playing the move.
    pub fn hopped_by_after(&self, game: &Game<B>, target: usize, side: usize, from: usize, to: usize) -> bool {
        let mut occupied = self.occupied;
        occupied.remove(from);
        occupied.insert(to);
        let mover = self.board[from];
        self.hopped_by_on(game, target, side, occupied, B::single(to), |c| if c == to { mover } else { self.board[c] })
    }

    /// Finds the [`LiveWays`] of `side`'s royal piece on `royal` unless they are found.
    #[inline(always)]
    pub(crate) fn find_live_ways_once(&mut self, game: &Game<B>, royal: usize, side: usize) {
        let live = &self.hop_memo.live;
        if !(live.found && live.royal == royal && live.side == side) {
            self.find_live_ways(game, royal, side);
        }
    }

    /// Whether, after the plain move `from` -> `to` of a non-royal piece of the side whose
    /// [`LiveWays`] are found, an opponent could capture its lone royal piece by a hop
    /// ([`Position::hopped_by_after`] for every opponent still in the game, from the ways found
    /// once for the position: perft judges a few such moves in each position where cells are
    /// watched).
    #[inline(always)]
    pub(crate) fn live_ways_hit(&self, game: &Game<B>, from: usize, to: usize) -> bool {
        let mut occupied = self.occupied;
        occupied.remove(from);
        occupied.insert(to);
        let mover = self.board[from];
        let code_at = |c: usize| if c == to { mover } else { self.board[c] };
        // (A piece taken on `to` hops no more. A loop, as `any` was left a call of its own.)
        for &(from, w) in &self.hop_memo.live.ways {
            if from as usize != to && Self::way_hits(game, w.flags, w.over, w.before, w.between, occupied, code_at) {
                return true;
            }
        }
        false
    }

    /// [`Position::hop_zone`], for legality judging a new position: the [`LiveWays`] found
    /// for the last one are forgotten. (Apart from the zone, in legality's own branch for hops,
    /// the store changed how Webball's count compiled: +0.3 instructions a leaf.)
    #[inline(always)]
    pub(crate) fn watch_hops(&mut self, game: &Game<B>, target: usize, side: usize) -> B {
        self.hop_memo.live.found = false;
        self.hop_zone(game, target, side)
    }

    /// Finds the [`LiveWays`] of `side`'s royal piece on `royal`, as [`Position::hopped_by_on`]
    /// walks them: the capturing rules of the opponents' kinds that may check and take the
    /// royal piece's kind, from where their pieces stand.
    #[inline(never)]
    fn find_live_ways(&mut self, game: &Game<B>, royal: usize, side: usize) {
        let mut live = std::mem::take(&mut self.hop_memo.live);
        live.ways.clear();
        let victim = Self::kind_of_code(game, self.board[royal]);
        for &s in game.opponents[side].iter().filter(|&&s| !self.is_out(s)) {
            let a = &game.hop_attacks[royal * game.sides + s];
            for p in self.hop_pieces(game, s).and(a.starts).iter() {
                let slot = Self::hop_slot(game, s, self.board[p] - 1);
                // (A move changes the pieces on a way's cells by at most one: with three or
                // more, at least two stay, and no rule hops over two.)
                for w in a.ways_of(p, slot).iter().filter(|w| w.takes >> victim & 1 != 0 && at_most(self.occupied.and(w.between), 2)) {
                    live.ways.push((p as u16, *w));
                }
            }
        }
        live.found = true;
        live.royal = royal;
        live.side = side;
        self.hop_memo.live = live;
    }

    /// The slot of the colored kind `ck` of `side` in its [`HopAttacks`]: its place in
    /// `Game::hop_cks` (a side has few kinds with hop rules).
    #[inline(always)]
    fn hop_slot(game: &Game<B>, side: usize, ck: u8) -> usize {
        let slot = game.hop_cks[side].iter().position(|&c| c == ck);
        debug_assert!(slot.is_some(), "a piece of `hop_pieces` has a kind of `Game::hop_cks`");
        slot.unwrap_or(0)
    }

    /// The pieces of `side` with hop rules.
    #[inline(always)]
    pub(crate) fn hop_pieces(&self, game: &Game<B>, side: usize) -> B {
        let mut pieces = B::default();
        for &ck in &game.hop_cks[side] {
            pieces = pieces.or(self.by_ck[ck as usize]);
        }
        pieces
    }

    /// [`Position::hopped_by`] on the cells `occupied`, with the pieces on `gone` captured and
    /// `code_at` the board.
    #[inline(always)]
    fn hopped_by_on(&self, game: &Game<B>, target: usize, side: usize, occupied: B, gone: B, code_at: impl Fn(usize) -> u8) -> bool {
        // Only the side's pieces with hop rules where a way could start (most targets have
        // none); each one's ways looked up once, for all kinds (`HopAttacks`). (Against each
        // kind's rules in turn: Xiangqi -2.7 instructions a leaf, Janggi -2.2, the hop cube
        // and the grasshopper -1.1; the 8x8 cubes' count, without hops, compiled 1.0 dearer.)
        let a = &game.hop_attacks[target * game.sides + side];
        let pieces = self.hop_pieces(game, side).and(a.starts).and_not(gone);
        if pieces.is_empty() {
            return false;
        }
        let victim = (code_at(target) != 0).then(|| Self::kind_of_code(game, code_at(target)));
        for p in pieces.iter() {
            let ck = self.board[p] - 1;
            for w in a.ways_from(p) {
                if w.ck != ck || victim.is_some_and(|v| w.takes >> v & 1 == 0) {
                    continue;
                }
                if Self::way_hits(game, w.flags, w.over, w.before, w.between, occupied, &code_at) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a way by a rule with `flags`, that may jump over the kinds of `over`, captures
    /// on its target over the cells `between` (the last of which is `before`), with the cells
    /// `occupied` and `code_at` the board: without a screen every cell passed is empty; with
    /// one, exactly one piece stands there (the screen), with `next` on `before`, of a kind the
    /// rule may jump over.
    #[inline(always)]
    fn way_hits(game: &Game<B>, flags: u8, over: u64, before: u16, between: B, occupied: B, code_at: impl Fn(usize) -> u8) -> bool {
        let mut passed = occupied.and(between);
        if flags & hop::SCREEN == 0 {
            return passed.is_empty();
        }
        match passed.pop() {
            Some(screen) if passed.is_empty() => (flags & hop::NEXT == 0 || screen == before as usize) && over >> Self::kind_of_code(game, code_at(screen)) & 1 != 0,
            _ => false,
        }
    }
}
