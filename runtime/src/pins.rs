//! Pins and checks along the lines out of a royal piece ([`Position::royal_lines`]), and their
//! reuse between sibling positions ([`RoyalLines`]).
//!
//! Every counted position walks the lines out of its lone royal piece once: the first piece on
//! a line, then the one behind it. The positions perft counts at its last ply are siblings: the
//! same side's royal piece on the same cell, after different moves of the side before. A walk
//! reads only the cells it passes (up to the piece where it stops) and, for the lines it skips
//! for want of an enemy line attacker, whether one arrives on them; a move that touches none of
//! these cells leaves the walk's answer as it was. So the parent walks them once for all its
//! children, noting those cells, and each child whose move misses them takes the answer.

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::{Move, MoveKind, Position};

/// Pins found for one position: which pieces are pinned and, for as many as fit, the cells they
/// may still move to (every pin line they stand on, from the royal piece to the pinner inclusive).
#[derive(Clone, Copy)]
pub struct Pins<B> {
    pub pinned: B,
    len: usize,
    cells: [u16; MAX_PINS],
    allowed: [B; MAX_PINS],
}

/// Pins beyond this many are still found, but their moves are tested by playing them.
const MAX_PINS: usize = 4;

impl<B: CellSet> Pins<B> {
    pub(crate) fn new() -> Pins<B> {
        Pins { pinned: B::default(), len: 0, cells: [0; MAX_PINS], allowed: [B::default(); MAX_PINS] }
    }

    /// The cells the pinned piece on `cell` may move to without exposing a royal piece, if known.
    pub(crate) fn allowed(&self, cell: usize) -> Option<B> {
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

/// The cells a walk along the lines out of a royal piece read ([`Position::royal_lines_of`]
/// with `TRACK`): a move from or to one of `read` may change its answer, and a move to one of
/// `arrive` (a line it skipped, which an enemy line attacker could reach).
#[derive(Clone, Copy, Default)]
pub(crate) struct Read<B> {
    read: B,
    arrive: B,
}

/// The answer of the walk along the lines out of `side`'s lone royal piece on `royal`, in a
/// parent position, for its children where `side` is to move: valid in a child reached by a plain
/// move that touches no cell the walk read, with no side gone out meanwhile.
pub(crate) struct RoyalLines<B> {
    side: usize,
    royal: usize,
    out: u64,
    pins: Pins<B>,
    check: bool,
    /// The answer may change with a move from one of these cells, or to one of `to`.
    from: B,
    to: B,
}

impl<B: CellSet> RoyalLines<B> {
    /// Whether the answer holds after `mv` (made in the parent; nothing else known).
    #[inline(always)]
    pub(crate) fn holds_after(&self, mv: Move) -> bool {
        // (Other moves change cells beyond their two: a victim en passant, a rook, a hand.)
        matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget)
            && !self.from.has(mv.from as usize)
            && !self.to.has(mv.to as usize)
    }
}

impl<B: CellSet> Position<B> {
    /// Adds to `pins` the pieces of the side to move that stand between one of its royal pieces
    /// and an enemy line attacker, with the line segments they may move along.
    pub(crate) fn pins(&self, game: &Game<B>, royals: B, pins: &mut Pins<B>) {
        for k in royals.iter() {
            self.royal_lines(game, k, pins);
        }
    }

    /// Walks once the lines out of the side to move's royal piece on `k`: adds to `pins` the
    /// pieces of the side pinned to it (the first piece on a line, when the next is an enemy
    /// line attacker along it), and answers whether the first piece on a line is an enemy line
    /// attacker (the royal piece is in check along a line).
    pub(crate) fn royal_lines(&self, game: &Game<B>, k: usize, pins: &mut Pins<B>) -> bool {
        self.royal_lines_of::<false>(game, k, self.to_move, pins, &mut Read::default())
    }

    /// [`Position::royal_lines`] of `side`'s royal piece on `k` in this position, kept for the
    /// children of this position where `side` is to move (perft's last ply); `None` (walk in
    /// each child) unless `side` has one royal piece with an enemy line piece on its lines, and
    /// in games with stacks.
    pub(crate) fn royal_lines_for_children(&self, game: &Game<B>, side: usize) -> Option<RoyalLines<B>> {
        // With stacks a move off a cell uncovers the piece beneath, which may be a line piece,
        // and moves on and off lines are most moves: the answer would seldom hold.
        if game.stacks {
            return None;
        }
        let mut royals = self.royals(game, side);
        let royal = royals.pop().filter(|_| royals.is_empty())?;
        // With no enemy line piece on its lines, each child finds it in two tests.
        let mut sliders = B::default();
        for &s in &game.opponents[side] {
            sliders = sliders.or(self.line_pieces[s]);
        }
        if !sliders.intersects(game.line_reach[royal]) {
            return None;
        }
        let mut pins = Pins::new();
        let mut read = Read::<B>::default();
        // (A move onto the royal piece's cell changes it.)
        read.read.insert(royal);
        let check = self.royal_lines_of::<true>(game, royal, side, &mut pins, &mut read);
        // A move to a cell the walk skipped may bring an enemy line attacker there.
        Some(RoyalLines { side, royal, out: self.out, pins, check, from: read.read, to: read.read.or(read.arrive) })
    }

    /// The pins and line check of [`Position::royal_lines`] for the lone royal piece on `k` of
    /// the side to move, taken from `kept` when it holds here (same side, royal cell and sides
    /// out; the caller has checked the move with [`RoyalLines::holds_after`]).
    #[inline(always)]
    pub(crate) fn royal_lines_kept(&self, game: &Game<B>, k: usize, pins: &mut Pins<B>, kept: Option<&RoyalLines<B>>) -> bool {
        match kept {
            Some(r) if r.side == self.to_move && r.royal == k && r.out == self.out => {
                *pins = r.pins;
                r.check
            }
            _ => self.royal_lines(game, k, pins),
        }
    }

    /// [`Position::royal_lines`] for `us`'s royal piece on `k`; with `TRACK`, the cells the walk
    /// read are added to `read`.
    #[inline(always)]
    fn royal_lines_of<const TRACK: bool>(&self, game: &Game<B>, k: usize, us: usize, pins: &mut Pins<B>, read: &mut Read<B>) -> bool {
        // Only lines with an enemy line attacker on them can pin or check.
        let mut sliders = B::default();
        for &side in &game.opponents[us] {
            sliders = sliders.or(self.line_pieces[side]);
        }
        if !sliders.intersects(game.line_reach[k]) {
            if TRACK {
                read.arrive = read.arrive.or(game.line_reach[k]);
            }
            return false;
        }
        let enemy = |side: usize| game.team[side] != game.team[us] && !self.is_out(side);
        let mut check = false;
        for line in &game.lines[game.line_index[k] as usize..game.line_index[k + 1] as usize] {
            if !line.set.intersects(sliders) {
                if TRACK {
                    read.arrive = read.arrive.or(line.set);
                }
                continue;
            }
            // The first piece on the line, then the next one behind it, run by run.
            let base = line.segments.0 as usize;
            let mut first = None;
            'line: for (i, run) in game.segments[base..line.segments.1 as usize].iter().enumerate() {
                let word = run.word as usize;
                let mut hit = run.mask & self.occupied.word(word);
                while hit != 0 {
                    let bit = if run.up { hit.trailing_zeros() } else { 63 - hit.leading_zeros() };
                    hit &= !(1u64 << bit);
                    let c = word * 64 + bit as usize;
                    let stop = match first {
                        None => {
                            let side = self.side_at(game, c);
                            if side != us {
                                check |= enemy(side) && (game.kinds_on(line, base + i, c) >> (self.board[c] - 1)) & 1 != 0;
                                true
                            } else if game.stacks && self.stacked.has(c) {
                                // A stack's top piece never empties its cell by moving: no pin.
                                true
                            } else {
                                first = Some(c);
                                false
                            }
                        }
                        // (A line round a globe may pass the first piece's cell again.)
                        Some(b) if b != c => {
                            let side = self.side_at(game, c);
                            if (game.kinds_on(line, base + i, c) >> (self.board[c] - 1)) & 1 != 0 && enemy(side) {
                                // Every cell from the royal piece to the pinner.
                                let (mut segment, _) = game.slide(line.segments, self.occupied.and_not(B::single(b)));
                                segment.insert(c);
                                pins.add(b, segment);
                            }
                            true
                        }
                        Some(_) => false,
                    };
                    if stop {
                        if TRACK {
                            // The run's cells up to this one.
                            let upto = if run.up { u64::MAX >> (63 - bit) } else { u64::MAX << bit };
                            read.read.or_word(word, run.mask & upto);
                        }
                        break 'line;
                    }
                }
                if TRACK {
                    read.read.or_word(word, run.mask);
                }
            }
        }
        check
    }
}
