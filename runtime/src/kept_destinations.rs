//! Attacks along lines on the lone royal piece's destinations, found once in perft's last parent
//! for all its children ([`KeptDestinations`]), as `crate::pins` keeps the lines out of the
//! royal piece itself. A cell is attacked along a line when the line's first occupied cell holds
//! an enemy piece that attacks along it; so the answer for a destination depends only on the
//! cells of its lines up to their first occupied cells, those included, and a move that touches
//! none of them leaves it as it was. Each child then looks at the lines only of the destinations
//! its move touched. That pays where a destination has many lines, or many enemy pieces on
//! them: a pole, with a line down every meridian (Nelson's king, one step from it, tested it in
//! nearly every position), the globes' long lines.
//!
//! The child's answers reach [`Position::safe_destinations`] through the position
//! ([`Position::know_destinations`], kept with the hop answers in `Position::hop_memo`), not as an
//! argument of the count: passed with the royal lines, it made every game's count compile
//! differently (Xiangqi, where nothing is kept, +2.7 instructions a leaf).

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::{Move, MoveKind, Position};

/// The most destinations kept (a king's eight and a pole, a royal knight's eight); those past
/// it are looked at in each child.
const MAX_KEPT: usize = 12;

/// The least [`Position::line_work`] of a destination kept: below it the parent's walk and the
/// child's test of the cells read cost more than a look at its lines. (Measured: from 3 to 6
/// the globes alike and the soccer ball with riders -2.8 instructions a leaf; at 8 the globes
/// +0.5, at 10 +1 to +1.5.)
const MIN_WORK: usize = 6;

/// The destinations of the next side's lone royal piece in a parent position that have an enemy
/// line piece on their lines, each with the cells its answer read, and those attacked along
/// lines with the royal piece lifted.
pub(crate) struct KeptDestinations<B> {
    side: usize,
    royal: usize,
    out: u64,
    len: usize,
    cells: [u16; MAX_KEPT],
    /// Per destination: each of its lines up to the first occupied cell, that cell included.
    read: [B; MAX_KEPT],
    /// Every destination's cells read.
    read_any: B,
    /// The destinations kept, and those an enemy piece attacks along a line.
    kept: B,
    attacked: B,
}

/// What a child took from its parent's [`KeptDestinations`] ([`Position::know_destinations`]):
/// for `side`'s royal piece on `royal`, with the sides `out` and the cells `occupied`, the
/// destinations whose attacks along lines are `known`, and those of them `attacked`. Not part of
/// the position: kept in `Position::hop_memo`, which compares equal to any other.
#[derive(Clone, Copy, Default)]
pub struct KnownDestinations<B> {
    side: usize,
    royal: usize,
    out: u64,
    occupied: Option<B>,
    known: B,
    attacked: B,
}

impl<B: CellSet> Position<B> {
    /// The attacks along lines on the destinations of `side`'s lone royal piece in this
    /// position, for its children where `side` is to move (see the module's doc): the
    /// destinations of its plain leaps (a king's steps, a royal knight's leaps; those of other
    /// moves, such as Boholy's king's across a pole, are looked at in each child; while only a
    /// piece with no other moves was kept, Boholy cost 1.6 instructions a leaf more). `None`
    /// unless `side` has one royal piece with such a destination with enemy line pieces on its
    /// lines, on a board whose lines meet again (`Game::many_ways`); nor in games with stacks
    /// (a move uncovers a piece), hops or winding rules (whose tests differ).
    #[inline(never)]
    pub(crate) fn destinations_for_children(&self, game: &Game<B>, side: usize) -> Option<KeptDestinations<B>> {
        if !game.many_ways || game.stacks || game.hopping || game.winding {
            return None;
        }
        let mut royals = self.royals(game, side);
        let royal = royals.pop().filter(|_| royals.is_empty())?;
        let ck = self.board[royal] as usize - 1;
        let m = &game.piece_moves[ck * game.cells + royal];
        // The cells the piece may go to in a child: those it may go to here (a move of the side
        // before may empty or fill one, and take one of `side`'s pieces, whose cell the child
        // looks at). Only those with an enemy line piece on their lines: a child finds the
        // others' answer at once.
        let sliders = self.enemy_line_pieces(game, side);
        let destinations = m.leap_quiet.or(m.leap_capture).and_not(self.by_side[side]);
        let occupied = self.occupied.and_not(B::single(royal));
        let mut kept = KeptDestinations { side, royal, out: self.out, len: 0, cells: [0; MAX_KEPT], read: [B::default(); MAX_KEPT], read_any: B::default(), kept: B::default(), attacked: B::default() };
        for d in destinations.iter().filter(|&d| self.line_work(game, d, sliders) >= MIN_WORK).take(MAX_KEPT) {
            let mut read = B::default();
            for line in game.lines_of(d) {
                let (passed, blocker) = game.slide(line.segments, occupied);
                read = read.or(passed);
                let Some(b) = blocker else { continue };
                read.insert(b);
                // (As `Position::attacked_along_lines_walked`: a piece next to `d` attacks it
                // directly if at all, `Game::kinds_on`.)
                if sliders.has(b) && !kept.attacked.has(d) {
                    if let Some((_, run)) = game.first_occupied(line.segments, occupied) {
                        if (game.kinds_on(line, run, b) >> (self.board[b] - 1)) & 1 != 0 {
                            kept.attacked.insert(d);
                        }
                    }
                }
            }
            kept.cells[kept.len] = d as u16;
            kept.read[kept.len] = read;
            kept.len += 1;
            kept.read_any = kept.read_any.or(read);
            kept.kept.insert(d);
        }
        (kept.len > 0).then_some(kept)
    }

    /// What a child's look at the lines of `d` would cost, roughly: the ways an enemy line
    /// piece of `sliders` could attack it (`Game::line_pairs`).
    fn line_work(&self, game: &Game<B>, d: usize, sliders: B) -> usize {
        sliders.and(game.line_reach[d]).and(self.occupied).iter().map(|a| game.line_pairs_of(d, a).len()).sum()
    }

    /// Takes from `kept` (the parent's) the destinations whose answer holds after `mv`, made
    /// there, for [`Position::safe_destinations`] in this position; nothing after a move that
    /// changes cells beyond its two (en passant, castling, a drop).
    #[inline(always)]
    pub(crate) fn know_destinations(&mut self, kept: &KeptDestinations<B>, mv: Move) {
        let (from, to) = (mv.from as usize, mv.to as usize);
        if !matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget) {
            self.hop_memo.destinations.occupied = None;
            return;
        }
        // (Most moves touch no destination's cells, or only one's.)
        let (known, attacked) = if !kept.read_any.has(from) && !kept.read_any.has(to) {
            (kept.kept, kept.attacked)
        } else {
            let mut known = B::default();
            for i in 0..kept.len {
                if !kept.read[i].has(from) && !kept.read[i].has(to) {
                    known.insert(kept.cells[i] as usize);
                }
            }
            (known, kept.attacked.and(known))
        };
        self.hop_memo.destinations = KnownDestinations { side: kept.side, royal: kept.royal, out: kept.out, occupied: Some(self.occupied), known, attacked };
    }

    /// Ends [`Position::know_destinations`].
    #[inline(always)]
    pub(crate) fn forget_destinations(&mut self) {
        self.hop_memo.destinations.occupied = None;
    }

    /// The destinations of the royal piece on `royal` whose attacks along lines are known, and
    /// those of them attacked, if [`Position::know_destinations`] was for this position (the same
    /// side to move, sides out and occupied cells) and this piece; else none.
    #[inline(always)]
    pub(crate) fn known_destinations(&self, royal: usize) -> (B, B) {
        let k = &self.hop_memo.destinations;
        if k.occupied == Some(self.occupied) && k.royal == royal && k.side == self.to_move && k.out == self.out {
            (k.known, k.attacked)
        } else {
            (B::default(), B::default())
        }
    }
}
