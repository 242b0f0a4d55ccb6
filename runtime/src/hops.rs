//! Rules walked along their lines (`Tables::hoppers`): hops (`hop`, the cannon and the
//! grasshopper) and slides whose captures are restricted by kind (`takes`).
//!
//! They have no rays and no attack entries: move generation walks each line from the piece's
//! cell, and attack tests walk the lines of every such piece of the attacking side. A hop's screen
//! can be any piece, so pins and check stops are not in the attack tables. Instead a royal piece
//! has a *hop zone* ([`Position::hop_zone`]): the cells where one move could make or unmake a
//! capture of it by an enemy piece that stands on one of its hop lines. A move that leaves from
//! and lands on no cell of the zones of the mover's royal pieces cannot start a hop check on
//! them, so legality judges it as in any other game (pins along lines, and in check the check
//! stops: none in a hop check); a move that does is played to be judged, or judged on the cells
//! as they would be ([`Position::hopped_by_after`]) when it is a plain move of a non-royal piece
//! out of check. In perft's last ply the zone and the hop checks of the next side's royal
//! piece are found once in the parent, and taken from there in each child whose move touched
//! none of the cells they depend on ([`Position::keep_hops_for_children`],
//! [`Position::know_hops`]).

use std::cell::Cell;

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};
use crate::tables::{hop, Hopper};

mod checks;

/// A hopper as move generation uses it.
#[derive(Clone, Debug)]
pub struct HopRule<B> {
    pub flags: u8,
    /// Bit `kind`: the kinds it may jump over, and capture.
    pub over: u64,
    pub takes: u64,
    /// The cells its moves may end on.
    pub onto: B,
    /// Whether `over`, `takes` and `onto` hold every kind and cell (the usual case): then move
    /// generation looks up no kind and tests no destination.
    any_over: bool,
    any_take: bool,
    anywhere: bool,
    /// Per cell: its lines from there.
    pub lines: Vec<Vec<HopLine<B>>>,
    /// Per target cell of `onto`: the ways to reach it for attack tests, as (start cell, the
    /// cells passed before it, the cell just before it or `NO_CELL`), sorted by start cell.
    pub reverse: Vec<Vec<(u16, B, u16)>>,
    /// Per target cell: the start cells of its `reverse` ways, to skip the rule at once when no
    /// piece stands on any.
    pub starts: Vec<B>,
    /// Per target cell, per start cell in `starts` in order (its rank there): where its ways
    /// begin in `reverse`, and after the last, their number.
    blocks: Vec<Vec<u16>>,
}

/// A line of a [`HopRule`] from a cell: its cells in order (it reads as that slice), and as a
/// set, to tell whether a change of occupancy touched it (`Position::hop_walk_kept`).
#[derive(Clone, Debug)]
pub struct HopLine<B> {
    cells: Box<[u16]>,
    set: B,
}

impl<B> std::ops::Deref for HopLine<B> {
    type Target = [u16];

    fn deref(&self) -> &[u16] {
        &self.cells
    }
}

impl<B: CellSet> HopRule<B> {
    pub fn new(h: &Hopper, cells: usize, kinds: usize) -> HopRule<B> {
        let mut lines = vec![Vec::new(); cells];
        let mut reverse = vec![Vec::new(); cells];
        let onto = B::from_cells(h.onto.iter().map(|&c| c as usize));
        for (from, line) in &h.lines {
            lines[*from as usize].push(HopLine { cells: line.clone().into_boxed_slice(), set: B::from_cells(line.iter().map(|&c| c as usize)) });
            for (i, &t) in line.iter().enumerate() {
                if onto.has(t as usize) && (h.flags & hop::SCREEN == 0 || i > 0) {
                    let before = if i > 0 { line[i - 1] } else { crate::tables::NO_CELL };
                    reverse[t as usize].push((*from, B::from_cells(line[..i].iter().map(|&c| c as usize)), before));
                }
            }
        }
        for ways in &mut reverse {
            ways.sort_by_key(|w: &(u16, B, u16)| w.0);
        }
        let starts: Vec<B> = reverse.iter().map(|ways: &Vec<(u16, B, u16)>| B::from_cells(ways.iter().map(|w| w.0 as usize))).collect();
        let blocks = reverse
            .iter()
            .map(|ways: &Vec<(u16, B, u16)>| {
                let mut block: Vec<u16> = (0..ways.len()).filter(|&i| i == 0 || ways[i - 1].0 != ways[i].0).map(|i| i as u16).collect();
                block.push(ways.len() as u16);
                block
            })
            .collect();
        let all = if kinds >= 64 { u64::MAX } else { (1u64 << kinds) - 1 };
        let (any_over, any_take) = (h.over & all == all, h.takes & all == all);
        let anywhere = onto.count() as usize == cells;
        HopRule { flags: h.flags, over: h.over, takes: h.takes, onto, any_over, any_take, anywhere, lines, reverse, starts, blocks }
    }

    /// The ways to `target` (as in `reverse`) that start on a cell of `pieces`.
    #[inline(always)]
    fn ways_from(&self, target: usize, pieces: B) -> impl Iterator<Item = (usize, B, u16)> + '_ {
        let (ways, block, starts) = (&self.reverse[target], &self.blocks[target], self.starts[target]);
        pieces.and(starts).iter().flat_map(move |p| {
            let k = starts.rank(p);
            ways[block[k] as usize..block[k + 1] as usize].iter().map(|&(from, between, before)| (from as usize, between, before))
        })
    }
}

/// The ways by which the pieces of one side could capture on one cell by a hop rule: every
/// capturing rule of its kinds that may check (`HopRule::reverse`), start by start and, for
/// each, kind by kind, so that an attack test looks up the ways of each piece's kind at once
/// ([`Position::hopped_by`]).
#[derive(Clone, Debug, Default)]
pub struct HopAttacks<B> {
    /// The cells where a way starts (most targets have none of the side's pieces there).
    pub starts: B,
    /// The side's kinds with hop rules (`Game::hop_cks`), each a slot (`Position::hop_slot`).
    slots: usize,
    /// Per start cell in `starts` in order, and per slot: where its ways begin in `ways`, and
    /// after the last, their number.
    blocks: Box<[u32]>,
    ways: Box<[HopWay<B>]>,
}

impl<B: CellSet> HopAttacks<B> {
    /// The ways that start on `p`, a cell of `starts`, of the kind in `slot`: the hop zone's
    /// walk and the live ways take only the piece's own kind's ways (rather than testing each
    /// way's kind: the hop cube -0.1 instructions a leaf; in the attack test, which every
    /// game's check test compiles, it saved nothing, [`HopAttacks::ways_from`]).
    #[inline(always)]
    fn ways_of(&self, p: usize, slot: usize) -> &[HopWay<B>] {
        let k = self.starts.rank(p) * self.slots + slot;
        &self.ways[self.blocks[k] as usize..self.blocks[k + 1] as usize]
    }

    /// The ways that start on `p`, a cell of `starts`, of every kind.
    #[inline(always)]
    fn ways_from(&self, p: usize) -> &[HopWay<B>] {
        let k = self.starts.rank(p) * self.slots;
        &self.ways[self.blocks[k] as usize..self.blocks[k + self.slots] as usize]
    }
}

/// One way of [`HopAttacks`]: a piece of the colored kind `ck` on its start cell captures on
/// the target by a rule with `flags` that may jump over the kinds of `over` and take those of
/// `takes`, over the cells `between` (the last of which is `before`).
#[derive(Clone, Copy, Debug)]
struct HopWay<B> {
    ck: u8,
    flags: u8,
    before: u16,
    over: u64,
    takes: u64,
    between: B,
}

/// Per cell and side (`cell * sides + side`): every cell of the hop zone ([`Position::hop_zone`])
/// of a royal piece of the side on the cell, whatever the board holds: the start cells and the
/// cells passed of every capturing rule's way there of the opponents' kinds (`hop_cks`). Empty
/// without hop rules.
pub fn hop_watch<B: CellSet>(rules: &[Vec<HopRule<B>>], hop_cks: &[Vec<u8>], opponents: &[Vec<usize>], cells: usize) -> Vec<B> {
    let sides = opponents.len();
    if rules.iter().all(|r| r.is_empty()) {
        return Vec::new();
    }
    (0..cells * sides)
        .map(|i| {
            let (target, side) = (i / sides, i % sides);
            let mut zone = B::default();
            for &s in &opponents[side] {
                for &ck in &hop_cks[s] {
                    for r in rules[ck as usize].iter().filter(|r| r.flags & hop::CAPTURE != 0) {
                        for &(from, between, _) in r.reverse.get(target).into_iter().flatten() {
                            zone = zone.or(between);
                            zone.insert(from as usize);
                        }
                    }
                }
            }
            zone
        })
        .collect()
}

/// Per target cell and side (`target * sides + side`) the [`HopAttacks`] of `rules`, with
/// per side the colored kinds that have any (`hop_cks`), leaving out the kinds that may not
/// check.
pub fn hop_attacks<B: CellSet>(rules: &[Vec<HopRule<B>>], hop_cks: &[Vec<u8>], no_check: &[bool], cells: usize) -> Vec<HopAttacks<B>> {
    let mut all = Vec::with_capacity(cells * hop_cks.len());
    for t in 0..cells {
        for cks in hop_cks {
            // Each way with its start and its kind's slot (`Position::hop_slot`).
            let mut ways: Vec<(u16, usize, HopWay<B>)> = Vec::new();
            for (slot, &ck) in cks.iter().enumerate().filter(|&(_, &ck)| !no_check[ck as usize]) {
                for r in rules[ck as usize].iter().filter(|r| r.flags & hop::CAPTURE != 0) {
                    for &(from, between, before) in &r.reverse[t] {
                        ways.push((from, slot, HopWay { ck, flags: r.flags, before, over: r.over, takes: r.takes, between }));
                    }
                }
            }
            // (Stable: each start's ways of one kind keep the order of its rules.)
            ways.sort_by_key(|w| (w.0, w.1));
            let starts = B::from_cells(ways.iter().map(|w| w.0 as usize));
            let mut blocks = Vec::with_capacity(starts.count() as usize * cks.len() + 1);
            let mut i = 0;
            for p in starts.iter() {
                for slot in 0..cks.len() {
                    blocks.push(i as u32);
                    while ways.get(i).is_some_and(|w| w.0 as usize == p && w.1 == slot) {
                        i += 1;
                    }
                }
            }
            blocks.push(ways.len() as u32);
            all.push(HopAttacks { starts, slots: cks.len(), blocks: blocks.into(), ways: ways.into_iter().map(|w| w.2).collect() });
        }
    }
    all
}

/// A lone royal piece's hop zone and hop checks in a parent position, for its children where
/// its side is to move ([`Position::keep_hops_for_children`], [`Position::know_hops`]).
#[derive(Clone, Copy)]
pub(crate) struct HopKept<B> {
    side: usize,
    royal: usize,
    out: u64,
    zone: B,
    /// Bit `s`: side `s` is an opponent, and (in `checks`) one of its pieces could capture the
    /// royal piece by a hop.
    opponents: u64,
    checks: u64,
    /// The cells of the ways found, and the royal piece's: a move from or to one may change
    /// the answer.
    read: B,
    /// Where a way to the royal piece could start: a piece with hop rules arriving on one may
    /// open one.
    starts: B,
}

/// Per colored kind its hop rules, and per side the colored kinds that have any.
pub fn hop_rules<B: CellSet>(hoppers: &[Hopper], cells: usize, colored: usize, sides: usize, kinds: usize) -> (Vec<Vec<HopRule<B>>>, Vec<Vec<u8>>) {
    let mut rules: Vec<Vec<HopRule<B>>> = vec![Vec::new(); colored];
    let mut cks = vec![Vec::new(); sides];
    for h in hoppers {
        let ck = h.ck as usize;
        rules[ck].push(HopRule::new(h, cells, kinds));
        let side: &mut Vec<u8> = &mut cks[ck / kinds.max(1)];
        if !side.contains(&h.ck) {
            side.push(h.ck);
        }
    }
    (rules, cks)
}

/// How [`HopMemo`] keeps a colored kind's hop destinations (`Game::hop_memo`).
#[derive(Clone, Debug)]
pub struct MemoKind {
    /// Where the kind's entries begin, in cells.
    base: usize,
    /// The colored kinds its rules may neither hop over nor take (the same for all of them), a
    /// bit each (at most 64 colored kinds, `format::MAX_COLORED_KINDS`).
    apart_cks: u64,
}

/// At most this many bytes of [`HopMemo`] a position (the kinds past it are walked every time).
pub const HOP_MEMO_BYTES: usize = 1 << 20;

/// Per colored kind, how [`HopMemo`] keeps its destinations: for the kinds whose rules treat
/// one set of kinds apart (they may neither be hopped over nor taken; usually none), as then a
/// walk's moves depend on which cells it read are occupied and which hold such kinds alone,
/// up to [`HOP_MEMO_BYTES`]. `None` for the others, and the number of cells the entries take.
pub fn hop_memo_kinds<B: CellSet>(rules: &[Vec<HopRule<B>>], cells: usize, kinds: usize) -> (Vec<Option<MemoKind>>, usize) {
    let all = if kinds >= 64 { u64::MAX } else { (1u64 << kinds) - 1 };
    let most = HOP_MEMO_BYTES / std::mem::size_of::<Kept<B>>();
    let mut base = 0;
    let memo = rules
        .iter()
        .map(|rs| {
            let apart = !rs.first()?.over & all;
            if !rs.iter().all(|r| !r.over & all == apart && !r.takes & all == apart) || base + cells > most {
                return None;
            }
            let cks = (0..rules.len().min(64)).filter(|ck| apart >> (ck % kinds) & 1 != 0).fold(0u64, |m, ck| m | 1 << ck);
            base += cells;
            Some(MemoKind { base: base - cells, apart_cks: cks })
        })
        .collect();
    (memo, base)
}

/// Per colored kind, the cells from which the lines of all its rules are pairwise disjoint:
/// there each line's destinations and read cells depend on that line's cells alone, and a
/// [`HopMemo`] entry that no longer holds is mended by walking again only the lines whose cells
/// changed ([`Position::hop_walk_kept`]).
pub fn hop_disjoint_cells<B: CellSet>(rules: &[Vec<HopRule<B>>], cells: usize) -> Vec<B> {
    let disjoint = |rs: &Vec<HopRule<B>>, c: usize| {
        let mut seen = B::default();
        rs.iter().flat_map(|r| &r.lines[c]).all(|line| {
            let apart = !seen.intersects(line.set);
            seen = seen.or(line.set);
            apart
        })
    };
    rules.iter().map(|rs| B::from_cells((0..cells).filter(|&c| disjoint(rs, c)))).collect()
}

/// The destinations of a hopping piece found last on each cell (`ck * cells + cell`), with the
/// cells its walk read: a cache, read while those cells are occupied as they were then (the
/// walk would read the same and find the same; in perft the same pieces are counted after each
/// sibling move, most of which touch none of those cells). Only for the kinds of
/// `Game::hop_memo`. Not part of the position: it compares equal to any other.
pub struct HopMemo<B> {
    entries: Vec<Cell<Kept<B>>>,
    /// Perft's last ply: the parent's [`HopKept`], and whether it holds in the child being
    /// counted ([`Position::know_hops`]). (A flag, where it was the child's occupied cells,
    /// compared at each look: the hop cube -0.45 instructions a leaf, Janggi -0.7.)
    kept: Option<HopKept<B>>,
    known: bool,
    /// The occupied cells where `known` was set (checked in debug builds).
    #[cfg(debug_assertions)]
    known_occupied: B,
    /// Perft's last ply: the lone royal piece's destinations whose attacks along lines the
    /// parent found (`crate::kept_destinations`). Kept here, with the other answers a child
    /// takes from its parent: as a field of its own the position's layout changed, and the
    /// 8x8 cubes' count with it (+0.8 instructions a leaf).
    pub(crate) destinations: crate::kept_destinations::KnownDestinations<B>,
    /// The ways the opponents' pieces could hop onto the lone royal piece, found once for the
    /// watched moves of a position ([`Position::live_ways_hit`]).
    live: LiveWays<B>,
}

/// The ways by which an opponent's piece could capture the lone royal piece `royal` of `side`
/// by a hop (`HopRule::reverse`), from where the opponents' pieces with hop rules stand: every
/// way a watched move could open or close. Found for the position [`Position::legality`] last
/// judged (which forgets them, [`Position::watch_hops`]), at its first watched move that is
/// judged without playing, and kept for the others.
#[derive(Clone, Default)]
struct LiveWays<B> {
    found: bool,
    royal: usize,
    side: usize,
    /// Each way with the cell of the piece it starts from.
    ways: Vec<(u16, HopWay<B>)>,
}

/// One entry of [`HopMemo`]: the cells read, which of them were occupied and which held a
/// kind apart (`MemoKind::apart`), and the quiet moves and possible captures (those of an enemy
/// piece) found.
#[derive(Clone, Copy)]
struct Kept<B> {
    read: B,
    occupied: B,
    apart: B,
    quiet: B,
    capture: B,
}

impl<B: CellSet> HopMemo<B> {
    /// Entries for `game`'s memoized kinds that are never read: each has read its own cell and
    /// found it empty, but a piece that asks stands there.
    pub fn new(game: &Game<B>) -> HopMemo<B> {
        let none = B::default();
        HopMemo {
            entries: (0..game.hop_memo_cells).map(|i| Cell::new(Kept { read: B::single(i % game.cells), occupied: none, apart: none, quiet: none, capture: none })).collect(),
            kept: None,
            known: false,
            #[cfg(debug_assertions)]
            known_occupied: none,
            destinations: Default::default(),
            live: LiveWays::default(),
        }
    }
}

impl<B: CellSet> Clone for HopMemo<B> {
    fn clone(&self) -> HopMemo<B> {
        HopMemo {
            entries: self.entries.clone(),
            kept: self.kept,
            known: self.known,
            #[cfg(debug_assertions)]
            known_occupied: self.known_occupied,
            destinations: self.destinations,
            live: self.live.clone(),
        }
    }
}

impl<B> PartialEq for HopMemo<B> {
    fn eq(&self, _: &HopMemo<B>) -> bool {
        true
    }
}

impl<B> Eq for HopMemo<B> {}

impl<B> std::fmt::Debug for HopMemo<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HopMemo")
    }
}

/// Whether `set` has at most `n` cells (without counting them all).
#[inline]
fn at_most<B: CellSet>(mut set: B, n: usize) -> bool {
    for _ in 0..n {
        if set.pop().is_none() {
            return true;
        }
    }
    set.is_empty()
}

impl<B: CellSet> Position<B> {
    /// The kind (not colored) of the piece with board code `code` (non-zero).
    #[inline]
    fn kind_of_code(game: &Game<B>, code: u8) -> usize {
        game.kind_of[(code as usize - 1) & 63] as usize
    }

    /// Where the line's walk may end: the index just past the screen (or 0 without one), or
    /// `None` when the line has no usable screen.
    #[inline]
    fn past_screen(&self, game: &Game<B>, r: &HopRule<B>, line: &[u16]) -> Option<usize> {
        if r.flags & hop::SCREEN == 0 {
            return Some(0);
        }
        let s = line.iter().position(|&c| self.occupied.has(c as usize))?;
        (r.any_over || r.over >> Self::kind_of_code(game, self.board[line[s] as usize]) & 1 != 0).then_some(s + 1)
    }

    /// A hop rule `r` reaching `c` past its screen: a quiet move there when it is empty, a
    /// capture when it holds a piece of `enemy` the rule may take. Returns whether `c` is
    /// occupied (the hop goes no further).
    #[inline(always)]
    fn hop_lands(&self, game: &Game<B>, r: &HopRule<B>, c: usize, enemy: B, quiet: &mut B, capture: &mut B) -> bool {
        if !self.occupied.has(c) {
            if r.flags & hop::QUIET != 0 && (r.anywhere || r.onto.has(c)) {
                quiet.insert(c);
            }
            return false;
        }
        if r.flags & hop::CAPTURE != 0
            && enemy.has(c)
            && (r.any_take || r.takes >> Self::kind_of_code(game, self.board[c]) & 1 != 0)
            && (r.anywhere || r.onto.has(c))
        {
            capture.insert(c);
        }
        true
    }

    /// The destinations of the hop rules of `ck` from `from`: (quiet cells, captures of pieces in
    /// `enemy`).
    #[inline(never)]
    pub fn hop_moves(&self, game: &Game<B>, ck: usize, from: usize, enemy: B) -> (B, B) {
        self.hop_moves_inline(game, ck, from, enemy)
    }

    /// [`Position::hop_moves`] in place, for perft's last ply in games with hops
    /// (`Position::count_legal_settling_facing`): most calls read the kept entry back, and the
    /// call was about half of such an answer's instructions. (The walk is a call.)
    #[inline(always)]
    pub(crate) fn hop_moves_inline(&self, game: &Game<B>, ck: usize, from: usize, enemy: B) -> (B, B) {
        let Some(memo) = &game.hop_memo[ck] else {
            return self.hop_walk(game, ck, from, enemy);
        };
        // (The piece stands on `from`: `HopMemo::new`'s entries are never read.)
        debug_assert!(self.occupied.has(from));
        let kept = &self.hop_memo.entries[memo.base + from];
        let k = kept.get();
        // (Most kinds set no kind apart: their test is the occupied cells'. Those that do read
        // the board only where the occupied cells hold: on `k.occupied`, then the cells read
        // that are occupied. Looked at first on all of them, the hop cube cost 0.5
        // instructions a leaf more, Janggi 0.6.)
        if self.occupied.and(k.read) == k.occupied && self.apart_cells(memo, k.occupied) == k.apart {
            return (k.quiet, k.capture.and(enemy));
        }
        self.hop_walk_kept(game, ck, from, enemy, kept, memo)
    }

    /// The cells of `cells` that hold a kind `memo` sets apart, read from the board. (When
    /// perft's kept counts took the pieces they held off `Position::by_ck` while the count walked
    /// the others, read from it, an entry written while a cannon was hidden held for the cannon's
    /// cell as if none stood there, and a Janggi count missed a capture.)
    #[inline(always)]
    fn apart_cells(&self, memo: &MemoKind, cells: B) -> B {
        let mut apart = B::default();
        if memo.apart_cks != 0 {
            // (An occupied cell's code is `ck + 1`.)
            cells.and(self.occupied).each(|c| {
                if memo.apart_cks >> (self.board[c] - 1) & 1 != 0 {
                    apart.insert(c);
                }
            });
        }
        apart
    }

    /// [`Position::hop_moves`] when the entry `kept` no longer holds: walked, and kept anew.
    /// Where the kind's lines from `from` are disjoint (`Game::hop_disjoint`), only the lines
    /// that hold a cell read whose occupancy (or kind apart) changed are walked again; the
    /// others' destinations and read cells are the entry's. (Most moves touch one or two of a
    /// grasshopper's eight lines.)
    #[inline(never)]
    fn hop_walk_kept(&self, game: &Game<B>, ck: usize, from: usize, enemy: B, kept: &Cell<Kept<B>>, memo: &MemoKind) -> (B, B) {
        // (An entry never written has read only the piece's own cell, on no line.)
        let k = game.hop_disjoint[ck].has(from).then(|| kept.get()).filter(|k| !k.read.has(from));
        let (quiet, capture, read) = if let Some(k) = k {
            let now = self.occupied.and(k.read);
            let apart = self.apart_cells(memo, k.read);
            let changed = now.and_not(k.occupied).or(k.occupied.and_not(now)).or(apart.and_not(k.apart)).or(k.apart.and_not(apart));
            let (mut quiet, mut capture, mut read) = (k.quiet, k.capture, k.read);
            for r in &game.hoppers[ck] {
                let grasshopper = r.flags & (hop::SCREEN | hop::NEXT) == hop::SCREEN | hop::NEXT;
                for line in &r.lines[from] {
                    let set = line.set;
                    if set.intersects(changed) {
                        (quiet, capture, read) = (quiet.and_not(set), capture.and_not(set), read.and_not(set));
                        if grasshopper {
                            self.hop_walk_line::<true>(game, r, line, &mut quiet, &mut capture, &mut read);
                        } else {
                            self.hop_walk_line::<false>(game, r, line, &mut quiet, &mut capture, &mut read);
                        }
                    }
                }
            }
            debug_assert_eq!((quiet, capture, read), self.hop_walk_read(game, ck, from), "a hop entry mended wrongly");
            (quiet, capture, read)
        } else {
            self.hop_walk_read(game, ck, from)
        };
        kept.set(Kept { read, occupied: self.occupied.and(read), apart: self.apart_cells(memo, read), quiet, capture });
        (quiet, capture.and(enemy))
    }

    /// The cells the hop rules of the `ck` piece on `from` read ([`Position::hop_walk_read`]'s
    /// third answer): its kept entry's where the kind has entries, since its moves were just
    /// found ([`Position::hop_moves`] leaves the entry current); walked for the others.
    /// (For `crate::kept_counts`, which walked them again: Grasshopper chess -2.4 instructions
    /// a leaf, Janggi -0.7. Not inlined, as the walk it replaces was not: inlined, it changed
    /// how the other games' kept counts compiled, Crowned Chess +0.4.)
    #[inline(never)]
    pub(crate) fn hop_read_after_moves(&self, game: &Game<B>, ck: usize, from: usize) -> B {
        let Some(memo) = &game.hop_memo[ck] else {
            return self.hop_walk_read(game, ck, from).2;
        };
        let k = self.hop_memo.entries[memo.base + from].get();
        debug_assert_eq!(k.read, self.hop_walk_read(game, ck, from).2, "a hop entry not current");
        k.read
    }

    /// A `next` hop rule's landing cell on `line` (the grasshopper's): the cell just past the
    /// first piece, when there is one and the rule may hop over that piece. With `READ`, the
    /// cells it looked at are added to `read` (up to the screen, and the landing cell).
    #[inline(always)]
    fn past_next_screen<const READ: bool>(&self, game: &Game<B>, r: &HopRule<B>, line: &[u16], read: &mut B) -> Option<usize> {
        let mut s = 0;
        loop {
            let c = *line.get(s)? as usize;
            if READ {
                read.insert(c);
            }
            if self.occupied.has(c) {
                break;
            }
            s += 1;
        }
        // (The cell past the screen looked for before the screen's kind: on a line that ends at
        // the screen there is no hop to judge.)
        let c = *line.get(s + 1)? as usize;
        if !(r.any_over || r.over >> Self::kind_of_code(game, self.board[line[s] as usize]) & 1 != 0) {
            return None;
        }
        if READ {
            read.insert(c);
        }
        Some(c)
    }

    /// [`Position::hop_walk`] for a kind of `Game::hop_memo` (or any kind with hop rules),
    /// capturing any piece it may take (met with the enemy pieces after), with the cells read:
    /// all its destinations depend on (`crate::kept_counts` keeps a count while they hold).
    pub(crate) fn hop_walk_read(&self, game: &Game<B>, ck: usize, from: usize) -> (B, B, B) {
        let (mut quiet, mut capture, mut read) = (B::default(), B::default(), B::default());
        for r in &game.hoppers[ck] {
            // (The rule's kind of walk chosen once for all its lines.)
            if r.flags & (hop::SCREEN | hop::NEXT) == hop::SCREEN | hop::NEXT {
                for line in &r.lines[from] {
                    self.hop_walk_line::<true>(game, r, line, &mut quiet, &mut capture, &mut read);
                }
            } else {
                for line in &r.lines[from] {
                    self.hop_walk_line::<false>(game, r, line, &mut quiet, &mut capture, &mut read);
                }
            }
        }
        (quiet, capture, read)
    }

    /// One line of [`Position::hop_walk_read`] by the rule `r` (with `GRASSHOPPER`, a rule with
    /// a screen that lands just past it): its destinations and the cells it read added to
    /// `quiet`, `capture` and `read`.
    #[inline(always)]
    fn hop_walk_line<const GRASSHOPPER: bool>(&self, game: &Game<B>, r: &HopRule<B>, line: &[u16], quiet: &mut B, capture: &mut B, read: &mut B) {
        if GRASSHOPPER {
            // Only the cell just past the screen: no walk beyond.
            if let Some(c) = self.past_next_screen::<true>(game, r, line, read) {
                self.hop_lands(game, r, c, self.occupied, quiet, capture);
            }
            return;
        }
        let (screen, next) = (r.flags & hop::SCREEN != 0, r.flags & hop::NEXT != 0);
        let mut past = !screen;
        for &c in line.iter() {
            let c = c as usize;
            read.insert(c);
            if !past {
                if self.occupied.has(c) {
                    if !(r.any_over || r.over >> Self::kind_of_code(game, self.board[c]) & 1 != 0) {
                        break;
                    }
                    past = true;
                }
                continue;
            }
            if self.hop_lands(game, r, c, self.occupied, quiet, capture) || next {
                break;
            }
        }
    }

    /// [`Position::hop_moves`], walked along the lines.
    #[inline(never)]
    fn hop_walk(&self, game: &Game<B>, ck: usize, from: usize, enemy: B) -> (B, B) {
        let (mut quiet, mut capture) = (B::default(), B::default());
        for r in &game.hoppers[ck] {
            if r.flags & (hop::SCREEN | hop::NEXT) == hop::SCREEN | hop::NEXT {
                // (The grasshopper's.) Only the cell just past the screen: no walk beyond.
                for line in &r.lines[from] {
                    if let Some(c) = self.past_next_screen::<false>(game, r, line, &mut B::default()) {
                        self.hop_lands(game, r, c, enemy, &mut quiet, &mut capture);
                    }
                }
                continue;
            }
            // (Every cell past the screen, up to the first piece: `next` always comes with a
            // screen, `Tables::validate`.)
            for line in &r.lines[from] {
                let Some(start) = self.past_screen(game, r, line) else { continue };
                for &c in &line[start..] {
                    if self.hop_lands(game, r, c as usize, enemy, &mut quiet, &mut capture) {
                        break;
                    }
                }
            }
        }
        (quiet, capture)
    }

    /// [`Position::hop_walk`] on the cells `occupied`, the board read through `code_at` (for
    /// the cells after a move not made: `crate::kept_counts`). (`hop_walk` keeps its own walk,
    /// whose helpers the walks that record the cells they read share.)
    pub(crate) fn hop_walk_on(&self, game: &Game<B>, ck: usize, from: usize, enemy: B, occupied: B, code_at: impl Fn(usize) -> u8) -> (B, B) {
        let (mut quiet, mut capture) = (B::default(), B::default());
        for r in &game.hoppers[ck] {
            // (The grasshopper's: only the cell just past the screen.)
            let next = r.flags & (hop::SCREEN | hop::NEXT) == hop::SCREEN | hop::NEXT;
            for line in &r.lines[from] {
                let start = if r.flags & hop::SCREEN == 0 {
                    0
                } else {
                    let Some(s) = line.iter().position(|&c| occupied.has(c as usize)) else { continue };
                    if !(r.any_over || r.over >> Self::kind_of_code(game, code_at(line[s] as usize)) & 1 != 0) {
                        continue;
                    }
                    s + 1
                };
                for &c in line.get(start..).unwrap_or(&[]) {
                    let c = c as usize;
                    if !occupied.has(c) {
                        if r.flags & hop::QUIET != 0 && (r.anywhere || r.onto.has(c)) {
                            quiet.insert(c);
                        }
                        if next {
                            break;
                        }
                        continue;
                    }
                    if r.flags & hop::CAPTURE != 0 && enemy.has(c) && (r.any_take || r.takes >> Self::kind_of_code(game, code_at(c)) & 1 != 0) && (r.anywhere || r.onto.has(c)) {
                        capture.insert(c);
                    }
                    break;
                }
            }
        }
        (quiet, capture)
    }

    /// Keeps [`Position::hop_zone`] and the hop checks ([`Position::hopped_by`]) of `side`'s
    /// lone royal piece in this position, with the cells they depend on, for its children where
    /// `side` is to move (perft's last ply: [`Position::know_hops`] in each child, then
    /// [`Position::drop_kept_hops`]). Whether it kept them: not with stacks (a move off one
    /// uncovers a piece) nor without a lone royal piece.
    pub(crate) fn keep_hops_for_children(&mut self, game: &Game<B>, side: usize) -> bool {
        self.drop_kept_hops();
        if game.stacks {
            return false;
        }
        let mut royals = self.royals(game, side);
        let Some(royal) = royals.pop().filter(|_| royals.is_empty()) else { return false };
        let (zone, read, starts) = self.hop_zone_read::<true>(game, royal, side);
        let opponents = game.opponents[side].iter().fold(0u64, |m, &s| m | 1 << s);
        let checks = game.opponents[side].iter().fold(0u64, |c, &s| c | (self.hopped_by(game, royal, s) as u64) << s);
        self.hop_memo.kept = Some(HopKept { side, royal, out: self.out, zone, opponents, checks, read, starts });
        true
    }

    /// In a child of the position that kept them ([`Position::keep_hops_for_children`]),
    /// reached by `mv`: makes the kept answers known here when they hold, that is when `mv` is
    /// a plain move, a drop or a pass that left from and landed on no cell they read and did not
    /// bring a piece with hop rules onto a cell where a way to the royal piece starts (the
    /// opponents' pieces on the ways, and the cells the ways pass, are then as they were). Until
    /// [`Position::forget_hops`], [`Position::hop_zone`] and the check tests answer from them
    /// when asked of this position's royal piece.
    #[inline(always)]
    pub(crate) fn know_hops(&mut self, game: &Game<B>, mv: Move) {
        let Some(kept) = &self.hop_memo.kept else { return };
        let (from, to) = (mv.from as usize, mv.to as usize);
        // (A drop adds a piece on `to`; a pass moves nothing. Other moves change cells beyond
        // their two: a victim en passant, a rook, a stack.)
        let plain = matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget | MoveKind::Drop | MoveKind::Pass) && mv.promotion == NO_PROMOTION;
        // (Whether this is the side and the sides out the answers were kept for, `known_hops`
        // asks.)
        let holds = plain && !kept.read.has(from) && !kept.read.has(to) && (!kept.starts.has(to) || game.hoppers[self.board[to] as usize - 1].is_empty());
        self.hop_memo.known = holds;
        #[cfg(debug_assertions)]
        {
            self.hop_memo.known_occupied = self.occupied;
        }
    }

    /// Ends [`Position::know_hops`] (before the move is unmade).
    #[inline(always)]
    pub(crate) fn forget_hops(&mut self) {
        self.hop_memo.known = false;
    }

    /// Ends [`Position::keep_hops_for_children`].
    #[inline(always)]
    pub(crate) fn drop_kept_hops(&mut self) {
        self.hop_memo.kept = None;
        self.hop_memo.known = false;
    }

    /// What [`Position::know_hops`] made known, if it was for this position (the same side to
    /// move, sides out and occupied cells) and its royal piece on `target`.
    #[inline(always)]
    fn known_hops(&self, target: usize) -> Option<&HopKept<B>> {
        let m = &self.hop_memo;
        let k = m.kept.as_ref()?;
        // (A position reached from the child by moves made in its count has another side to
        // move, or other sides out: the cells need not be compared.)
        let hit = m.known && k.royal == target && k.side == self.to_move && k.out == self.out;
        #[cfg(debug_assertions)]
        debug_assert!(!hit || m.known_occupied == self.occupied, "hops known for another position");
        hit.then_some(k)
    }
}
