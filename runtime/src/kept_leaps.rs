//! Leapers' counts kept for perft's last ply. Above the last ply, every child is the position
//! after one move of the side to move there; the next side's pieces are the same in all of them.
//! A plain leaper's moves (`leaps::PLAIN`: one destination set, its size the count) depend only
//! on whether its destinations are occupied and by whom: counted once here, a leaper's count
//! holds in every child whose move touched neither its cell nor its destinations, where
//! legality counts its moves by set (no check, no watched cell, not judged one by one:
//! `Position::count_legal`). The count takes such leapers off their kinds' sets while it
//! walks the other pieces (`KeptLeaps::hide`), so that its own code is as it was: an argument
//! or a test added to the walk made the games that keep nothing compile differently (the 8x8
//! cubes +5 instructions a leaf).

use crate::bits::CellSet;
use crate::game::{leaps, Game};
use crate::position::{Move, MoveKind, Position};

/// The fewest plain leapers a side keeps counts for (see [`KeptLeaps::new`]).
const MIN_LEAPERS: usize = 8;

/// The next side's plain leapers counted in the position above the last ply, and, per cell, the
/// leapers whose count depends on it.
pub(crate) struct KeptLeaps<B> {
    /// Whether counts are kept at all (see [`KeptLeaps::new`]).
    pub enabled: bool,
    /// The cells of the leapers counted: the next side's plain leapers that may not promote.
    cached: B,
    /// Per cell: the number of moves of the leaper there (as counted by set).
    count: Vec<u16>,
    /// Per cell: the cells of the leapers that stand on it or have it among their destinations.
    affected: Vec<B>,
    /// The cells whose `affected` entry is set, cleared at the next `keep`.
    touched: Vec<u16>,
    /// The colored kinds counted, each with the cells of its leapers counted.
    kinds: Vec<(usize, B)>,
}

impl<B: CellSet> KeptLeaps<B> {
    /// Keeping counts pays where most of a side's pieces are plain leapers (Webball's pawns
    /// and knights, Makruk's and Shatranj's pieces), not where a few are among riders and
    /// pawns with double steps (orthodox chess: two knights); judged from `pos`, the count's
    /// root, for both sides. Only in two-sided games where every piece may capture every enemy
    /// piece (a side's targets are the other side's pieces).
    pub(crate) fn new(game: &Game<B>, pos: &Position<B>) -> Self {
        let facing = game.passing.as_ref().is_some_and(|p| p.any_facing);
        let enabled = game.sides == 2
            && !game.any_no_check
            && !game.hopping
            && !facing
            // (A promotion limited by the kinds captured counts the side's pieces, hidden ones
            // too: `KeptLeaps::hide`.)
            && game.promotion.iter().flatten().all(|p| p.limit.iter().all(|&l| l == u32::MAX))
            && (0..2).all(|s| {
                let n = Self::plain_leapers(game, pos, s);
                n >= MIN_LEAPERS && 2 * n >= pos.by_side[s].count() as usize
            });
        let cells = if enabled { game.cells } else { 0 };
        KeptLeaps { enabled, cached: B::default(), count: vec![0; cells], affected: vec![B::default(); cells], touched: Vec::new(), kinds: Vec::new() }
    }

    /// The number of `side`'s plain leapers in `pos` whose counts would be kept.
    fn plain_leapers(game: &Game<B>, pos: &Position<B>, side: usize) -> usize {
        (0..game.kinds)
            .map(|k| side * game.kinds + k)
            .map(|ck| pos.by_ck[ck].iter().filter(|&from| Self::keepable(game, ck, from)).count())
            .sum()
    }

    /// Whether the count of the piece `ck` on `from` may be kept: a plain leaper there that may
    /// not promote (promotions count as many moves as there are choices open) and is not royal
    /// (a royal piece's moves are judged one by one).
    #[inline(always)]
    fn keepable(game: &Game<B>, ck: usize, from: usize) -> bool {
        let m = &game.piece_moves[ck * game.cells + from];
        m.leaper == leaps::PLAIN && !game.royal[ck] && !(game.promotion[ck].is_some() && m.may_promote)
    }

    /// Counts the moves of `side`'s plain leapers in `pos` as `side` will count them in each
    /// child of `pos` (where `side` is to move and its targets are the other side's pieces);
    /// none where counts are not kept (`enabled`).
    pub(crate) fn keep(&mut self, game: &Game<B>, pos: &Position<B>, side: usize) {
        for &c in &self.touched {
            self.affected[c as usize] = B::default();
        }
        self.touched.clear();
        self.cached = B::default();
        self.kinds.clear();
        if !self.enabled || side == pos.to_move {
            return;
        }
        let enemy = pos.by_side[1 - side];
        let occupied = pos.occupied;
        for k in 0..game.kinds {
            let ck = side * game.kinds + k;
            if game.kind_leaps[ck & 63] & leaps::PLAIN == 0 {
                continue;
            }
            let mut of_kind = B::default();
            for from in pos.by_ck[ck].iter() {
                if !Self::keepable(game, ck, from) {
                    continue;
                }
                of_kind.insert(from);
                let m = &game.piece_moves[ck * game.cells + from];
                let t = m.leap_quiet.and_not(occupied).or(m.leap_capture.and(enemy));
                self.count[from] = t.count() as u16;
                self.cached.insert(from);
                // (Its own cell too: a move there captures it.)
                for c in m.leap_quiet.or(m.leap_capture).or(B::single(from)).iter() {
                    if self.affected[c].is_empty() {
                        self.touched.push(c as u16);
                    }
                    self.affected[c].insert(from);
                }
            }
            if !of_kind.is_empty() {
                self.kinds.push((ck, of_kind));
            }
        }
    }

    /// In the child after `mv`, the position kept: takes the leapers whose kept count holds
    /// (but those in `one_by_one`, whose moves are judged one by one) off their kinds' sets
    /// (`Position::by_ck`), so that the count of the pieces passes them, and returns them with
    /// the sum of their counts. [`KeptLeaps::show`] puts them back.
    #[inline(always)]
    pub(crate) fn hide(&self, pos: &mut Position<B>, mv: Move, one_by_one: B) -> (B, u64) {
        let held = self.holding_after(mv).and_not(one_by_one);
        if held.is_empty() {
            return (held, 0);
        }
        let mut n = 0;
        for c in held.iter() {
            n += self.count[c] as u64;
        }
        for &(ck, _) in &self.kinds {
            pos.by_ck[ck] = pos.by_ck[ck].and_not(held);
        }
        (held, n)
    }

    /// Puts back the leapers [`KeptLeaps::hide`] took off.
    #[inline(always)]
    pub(crate) fn show(&self, pos: &mut Position<B>, held: B) {
        for &(ck, of_kind) in &self.kinds {
            pos.by_ck[ck] = pos.by_ck[ck].or(held.and(of_kind));
        }
    }

    /// The leapers whose kept count holds in the child after `mv`, a move of the position
    /// kept: a plain move changes only its two cells (a capture en passant, castling, a drop
    /// or a crowning more, or another piece: none holds).
    #[inline(always)]
    fn holding_after(&self, mv: Move) -> B {
        if !matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget) {
            return B::default();
        }
        self.cached.and_not(self.affected[mv.from as usize].or(self.affected[mv.to as usize]))
    }
}
