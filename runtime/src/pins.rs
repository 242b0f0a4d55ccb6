//! Pins and checks along the lines out of a royal piece ([`Position::royal_lines`]), and their
//! reuse between sibling positions ([`RoyalLines`]).
//!
//! Every counted position walks the lines out of its lone royal piece once: the first piece on
//! a line, then the one behind it. The positions perft counts at its last ply are siblings: the
//! same side's royal piece on the same cell, after different moves of the side before. A walk
//! reads only the cells it passes (up to the piece where it stops) and, for the lines it skips
//! for want of an enemy line attacker, whether one arrives on them out to their second piece; a
//! move that touches none of these cells leaves the walk's answer as it was. So the parent walks
//! them once for all its children, noting those cells line by line, and each child takes the
//! answer of every line its move missed, walking again only the lines it touched (found from the
//! move's two cells in the parent's marks by cell, `RoyalLines::marks`).

use crate::bits::CellSet;
use crate::game::{Game, Line};
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
pub(crate) const MAX_PINS: usize = 4;

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

/// Lines out of a royal piece followed one by one in a kept answer (as many as a mark of
/// `RoyalLines::marks` names); a royal piece with more is walked whole in a child whose move
/// touches a cell the parent's walk read.
const MAX_LINES: usize = u16::BITS as usize;

/// What the parent's walk found on one line out of the royal piece, and what it read there.
#[derive(Clone, Copy, Default)]
struct LineRead<B> {
    /// The cells walked, up to the piece where the walk stopped: when it stopped at a pinner,
    /// the cells the pinned piece may still move to. A line with no enemy line piece on it is
    /// not walked; then the cells out to its second piece, where one arriving would count.
    read: B,
    /// The piece pinned along it, or `NO_PIN`.
    pinned: u16,
}

const NO_PIN: u16 = u16::MAX;

/// The set bits of a word of lines, lowest first.
struct Bits(u16);

impl Iterator for Bits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        (self.0 != 0).then(|| {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            i
        })
    }
}

/// Adds `bit` to the marks of the cells of `set`, word by word (a wide set's own walk costs
/// more per member).
#[inline(always)]
fn mark<B: CellSet>(marks: &mut [u16], set: B, bit: u16) {
    for w in 0..B::CAPACITY.div_ceil(64) {
        let mut bits = set.word(w);
        while bits != 0 {
            marks[w * 64 + bits.trailing_zeros() as usize] |= bit;
            bits &= bits - 1;
        }
    }
}

/// The answer of the walk along the lines out of `side`'s lone royal piece on `royal`, in a
/// parent position, for its children where `side` is to move, reached by plain moves with no
/// side gone out meanwhile: whole after a move that touches no cell the walk read, line by line
/// after one that does (the lines it touched are walked again).
pub(crate) struct RoyalLines<'m, B> {
    royal: usize,
    out: u64,
    pins: Pins<B>,
    check: bool,
    /// Line by line, when there are at most `MAX_LINES`; and as bit sets by line, the lines
    /// that check and the lines that pin.
    lines: Option<[LineRead<B>; MAX_LINES]>,
    check_lines: u16,
    pin_lines: u16,
    /// The lines with an enemy line piece on them (all, without the answer line by line):
    /// on the others a move off a cell uncovers none ([`RoyalLines::untouched_by_line_piece`]).
    slider_lines: u16,
    /// The cells every walk read (for [`RoyalLines::uncovering`] without the answer line by
    /// line).
    read: B,
    /// By cell, the lines whose walk read it (bit `i`: line `i`, or all bits for any line when
    /// there are more than `MAX_LINES`; the royal piece's cell: all), so that a child finds the
    /// lines its move touched in two lookups: the answer may change only with a move from or
    /// to a marked cell.
    marks: &'m [u16],
    /// The royal piece's lines (`Game::lines_of`), looked up once.
    royal_lines: &'m [Line<B>],
}

impl<B: CellSet> RoyalLines<'_, B> {
    /// Whether the answer, whole or line by line, may be used after `mv` (made in the parent).
    #[inline(always)]
    pub(crate) fn applies_after(&self, mv: Move) -> bool {
        // (Other moves change cells beyond their two: a victim en passant, a rook, a hand.)
        matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget)
    }

    /// Whether the lines of the royal piece on `royal` (with the sides `out` out) do not
    /// check, where they hold (`crate::untouched`).
    pub(crate) fn unchecked(&self, royal: usize, out: u64) -> bool {
        self.royal == royal && self.out == out && !self.check
    }

    /// Whether a line pins.
    pub(crate) fn pinning(&self) -> bool {
        !self.pins.pinned.is_empty()
    }

    /// The pins, with every cell the walks along the lines that pin read (a move there may
    /// unpin) and whether each pinned piece is pinned along one line only (its cells are then
    /// those of that line); `None` without the answer line by line, or with more pins than are
    /// kept.
    pub(crate) fn pins_read(&self) -> Option<(&Pins<B>, B, bool)> {
        let per_line = self.lines.as_ref()?;
        let mut read = B::default();
        for i in Bits(self.pin_lines) {
            read = read.or(per_line[i].read);
        }
        let single = self.pin_lines.count_ones() == self.pins.pinned.count();
        self.pins.pinned.iter().all(|p| self.pins.allowed(p).is_some()).then_some((&self.pins, read, single))
    }

    /// Whether a plain move of a line piece that promotes nothing, from `from` to `to`,
    /// leaves every line's answer as it is, where they do not check
    /// ([`RoyalLines::unchecked`]; the caller freezes the lines that pin): no walk read the
    /// cell it took, nor along a line with an enemy line piece the cell it left (on
    /// the others, it uncovers none). A piece that attacks along no line leaves it as it is
    /// wherever it lands (it is a line's first piece or the one behind the side's own, and
    /// neither checks nor pins) unless it moves off a cell of [`RoyalLines::uncovering`].
    #[inline(always)]
    pub(crate) fn untouched_by_line_piece(&self, from: usize, to: usize) -> bool {
        self.marks[from] & self.slider_lines == 0 && self.marks[to] == 0
    }

    /// In `pos`, where they were found for `side`: what a plain move of the other side's line
    /// piece from `from`, the pinner on one line that pins and on no other line with an enemy
    /// line piece, to `to` does to the piece it pins: off the line, to a cell no walk read,
    /// leaves it unpinned where no line piece behind pins it again or checks (`None` cells);
    /// along the line, towards it or away, leaves it pinned to the cells up to `to` where the
    /// piece is the next one behind it and attacks along the line from there (those cells).
    /// `None` otherwise.
    pub(crate) fn pin_after(&self, game: &Game<B>, pos: &Position<B>, side: usize, from: usize, to: usize) -> Option<(usize, Option<B>)> {
        let per_line = self.lines.as_ref()?;
        let lines = self.marks[from] & self.slider_lines;
        if lines.count_ones() != 1 || lines & self.pin_lines == 0 {
            return None;
        }
        let i = lines.trailing_zeros() as usize;
        let line = &self.royal_lines[i];
        let pinned = per_line[i].pinned;
        if pinned == NO_PIN || self.marks[to] & !lines != 0 {
            return None;
        }
        if line.set.has(to) {
            // (Along the line the pinned piece must still come first, the piece moved next,
            // and attack along the line from there. Not `walk_line`, which reads the kinds
            // off the board, where the piece is not on `to` yet.)
            let ck = pos.board[from] as usize - 1;
            let after = pos.occupied.and_not(B::single(from)).or(B::single(to));
            if game.first_occupied(line.segments, after).map(|(c, _)| c) != Some(pinned as usize) {
                return None;
            }
            let (mut cells, next) = game.slide(line.segments, after.and_not(B::single(pinned as usize)));
            let (_, run) = game.first_occupied(line.segments, B::single(to))?;
            if next != Some(to) || ck >= 64 || game.kinds_on(line, run, to) >> ck & 1 == 0 {
                return None;
            }
            cells.insert(to);
            return Some((pinned as usize, Some(cells)));
        }
        if self.marks[to] != 0 {
            return None;
        }
        let lifted = B::single(from);
        match pos.walk_line::<false>(game, line, side, pos.enemy_line_pieces(game, side).and_not(lifted), pos.occupied.and_not(lifted), &mut B::default()) {
            (false, None) => Some((pinned as usize, None)),
            _ => None,
        }
    }

    /// In `pos`, where they were found for `side`: the other side's pieces whose move away
    /// would uncover a check or a pin, on a line with an enemy line piece the one where the
    /// walk stopped, with a line attacker behind it, each given to `add` with the cells where
    /// it would block the line again (`None`: none known; without the answer line by line,
    /// every other side's piece a walk read) and the piece it would leave pinned to those
    /// cells, if any. Found only where asked (`crate::untouched`): found with the lines, it
    /// cost Boholy, whose children never use it, 0.9 instructions a leaf.
    pub(crate) fn uncovering(&self, game: &Game<B>, pos: &Position<B>, side: usize, mut add: impl FnMut(usize, Option<B>, Option<usize>)) {
        let Some(per_line) = &self.lines else {
            self.read.and_not(pos.by_side[side]).and(pos.occupied).each(|x| add(x, None, None));
            return;
        };
        let sliders = pos.enemy_line_pieces(game, side);
        for i in Bits(self.slider_lines) {
            if let Some(x) = per_line[i].read.and(pos.occupied).and_not(pos.by_side[side]).iter().next() {
                // (A pin's cells run from the royal piece to the pinner: landing between, it
                // blocks again.)
                match pos.walk_line::<false>(game, &self.royal_lines[i], side, sliders, pos.occupied.and_not(B::single(x)), &mut B::default()) {
                    (true, _) => add(x, None, None),
                    (false, Some((pinned, segment))) => add(x, Some(segment), Some(pinned)),
                    (false, None) => {}
                }
            }
        }
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
    /// attacker (the royal piece is in check along a line). On boards of up to two words the
    /// same is found from the enemy line pieces in reach ([`Position::royal_pairs`]).
    pub(crate) fn royal_lines(&self, game: &Game<B>, k: usize, pins: &mut Pins<B>) -> bool {
        let us = self.to_move;
        // Only lines with an enemy line attacker on them can pin or check.
        let sliders = self.enemy_line_pieces(game, us);
        if !sliders.intersects(game.line_reach[k]) {
            return false;
        }
        if game.by_pairs {
            return self.royal_pairs(game, k, us, sliders, pins);
        }
        let mut check = false;
        for line in game.lines_of(k) {
            if line.set.intersects(sliders) {
                let (c, pin) = self.walk_line::<false>(game, line, us, sliders, self.occupied, &mut B::default());
                check |= c;
                if let Some((b, segment)) = pin {
                    pins.add(b, segment);
                }
            }
        }
        check
    }

    /// [`Position::royal_lines`] from the pairs (`Game::line_pairs`, boards of up to two
    /// words): each enemy line piece on one of the royal piece's lines checks along it with no
    /// piece between, and pins one of `us` that is the only piece between (to the cells
    /// between and its own).
    #[inline(always)]
    fn royal_pairs(&self, game: &Game<B>, k: usize, us: usize, sliders: B, pins: &mut Pins<B>) -> bool {
        let mut check = false;
        for a in sliders.and(game.line_reach[k]).iter() {
            let ck = self.board[a] as usize - 1;
            for p in game.line_pairs_of(k, a) {
                if (p.kinds >> ck) & 1 == 0 {
                    continue;
                }
                let mut between = p.between.and(self.occupied);
                let Some(b) = between.pop() else {
                    check = true;
                    continue;
                };
                // (A stack's top piece never empties its cell by moving: no pin.)
                if between.is_empty() && self.by_side[us].has(b) && !(game.stacks && self.stacked.has(b)) {
                    let mut segment = p.between;
                    segment.insert(a);
                    pins.add(b, segment);
                }
            }
        }
        check
    }

    /// [`Position::royal_lines`] of `side`'s royal piece in this position, kept for the
    /// children of this position where `side` is to move (perft's last ply); `None` (walk in
    /// each child) unless `side` has one royal piece with an enemy line piece on its lines, and
    /// in games with stacks. `marks` is reused for [`RoyalLines`]'s marks by cell.
    pub(crate) fn royal_lines_for_children<'m>(&self, game: &'m Game<B>, side: usize, marks: &'m mut Vec<u16>) -> Option<RoyalLines<'m, B>> {
        // With stacks a move off a cell uncovers the piece beneath, which may be a line piece,
        // and moves on and off lines are most moves: the answer would seldom hold.
        if game.stacks {
            return None;
        }
        let mut royals = self.royals(game, side);
        let royal = royals.pop().filter(|_| royals.is_empty())?;
        // With no enemy line piece on its lines, each child finds it in two tests.
        let sliders = self.enemy_line_pieces(game, side);
        if !sliders.intersects(game.line_reach[royal]) {
            return None;
        }
        let lines = game.lines_of(royal);
        let mut per_line = (lines.len() <= MAX_LINES).then(|| [LineRead::default(); MAX_LINES]);
        marks.clear();
        marks.resize(game.cells, 0);
        // (A move onto or off the royal piece's cell changes every line.)
        marks[royal] = if lines.len() >= MAX_LINES { u16::MAX } else { (1 << lines.len()) - 1 };
        let mut pins = Pins::new();
        let mut check = false;
        let (mut check_lines, mut pin_lines) = (0u16, 0u16);
        let mut slider_lines = if per_line.is_none() { u16::MAX } else { 0 };
        // (Without the answer line by line, the cells read are marked all at once.)
        let mut read = B::default();
        for (i, line) in lines.iter().enumerate() {
            if !line.set.intersects(sliders) {
                // A move onto a line skipped may bring an enemy line attacker there; only out
                // to its second piece, though (beyond it two pieces stand between), or by
                // moving one of its first two pieces away.
                let near = self.out_to_second_piece(game, line);
                read = read.or(near);
                if let Some(per_line) = &mut per_line {
                    per_line[i] = LineRead { read: near, pinned: NO_PIN };
                    mark(marks, near, 1 << i);
                }
                continue;
            }
            if per_line.is_some() {
                slider_lines |= 1 << i;
            }
            let mut line_read = B::default();
            let (c, pin) = self.walk_line::<true>(game, line, side, sliders, self.occupied, &mut line_read);
            check |= c;
            read = read.or(line_read);
            if let Some((b, segment)) = pin {
                pins.add(b, segment);
            }
            if let Some(per_line) = &mut per_line {
                let pinned = pin.map_or(NO_PIN, |(b, _)| b as u16);
                per_line[i] = LineRead { read: line_read, pinned };
                mark(marks, line_read, 1 << i);
                check_lines |= u16::from(c) << i;
                pin_lines |= u16::from(pin.is_some()) << i;
            }
        }
        if per_line.is_none() {
            mark(marks, read, u16::MAX);
        }
        Some(RoyalLines { royal, out: self.out, pins, check, lines: per_line, check_lines, pin_lines, slider_lines, read, marks, royal_lines: lines })
    }

    /// The pins and line check of [`Position::royal_lines`] for the lone royal piece on `k` of
    /// the side to move, taken from `kept` (the answer in the parent, and the move made there,
    /// which [`RoyalLines::applies_after`]) when it is for this royal cell and sides out: whole
    /// when the move touched no cell it read, else with the lines it touched walked again. (The
    /// side needs no test: another side's royal piece stands on the parent's royal cell only
    /// after a move onto it, which touched every line, and each is walked for the side to move.)
    /// `CALL`: the lines touched are walked in a call rather than inline (in the count of the
    /// games with hops or a facing rule, where it made the code around it cheaper: Grasshopper
    /// chess -0.8 instructions a leaf, Janggi -0.4; called in every count, Webball gained 0.8
    /// and the globes lost 0.8).
    #[inline(always)]
    pub(crate) fn royal_lines_kept<const CALL: bool>(&self, game: &Game<B>, k: usize, pins: &mut Pins<B>, kept: Option<(&RoyalLines<'_, B>, Move)>) -> bool {
        let Some((r, mv)) = kept.filter(|(r, _)| r.royal == k && r.out == self.out) else {
            return self.royal_lines(game, k, pins);
        };
        // The lines the move touched where the walk read are walked again; every other line
        // keeps its answer. (Without the answer line by line, any touch walks them all.)
        let touched = r.marks[mv.from as usize] | r.marks[mv.to as usize];
        if touched == 0 {
            *pins = r.pins;
            return r.check;
        }
        if CALL {
            self.royal_lines_touched(game, k, pins, r, mv, touched)
        } else {
            self.royal_lines_touched_inline(game, k, pins, r, mv, touched)
        }
    }

    /// [`Position::royal_lines_touched_inline`], called.
    #[inline(never)]
    fn royal_lines_touched(&self, game: &Game<B>, k: usize, pins: &mut Pins<B>, r: &RoyalLines<'_, B>, mv: Move, touched: u16) -> bool {
        self.royal_lines_touched_inline(game, k, pins, r, mv, touched)
    }

    /// [`Position::royal_lines_kept`] after a move that touched the lines `touched`.
    #[inline(always)]
    fn royal_lines_touched_inline(&self, game: &Game<B>, k: usize, pins: &mut Pins<B>, r: &RoyalLines<'_, B>, mv: Move, touched: u16) -> bool {
        let Some(per_line) = &r.lines else {
            return self.royal_lines(game, k, pins);
        };
        let mut check = r.check_lines & !touched != 0;
        for i in Bits(r.pin_lines & !touched) {
            pins.add(per_line[i].pinned as usize, per_line[i].read);
        }
        let sliders = self.enemy_line_pieces(game, self.to_move);
        // A piece not ours that attacks along no line, landing on a line whose walk read its
        // cell and left from none: it is the line's first piece, or the one behind ours; either
        // way the line neither checks nor pins. (Ours only after a turn that comes round again.)
        let to = mv.to as usize;
        let walked = if sliders.has(to) || self.by_side[self.to_move].has(to) { touched } else { r.marks[mv.from as usize] };
        let lines = r.royal_lines;
        for i in Bits(walked) {
            let line = &lines[i];
            if line.set.intersects(sliders) {
                let (c, pin) = self.walk_line::<false>(game, line, self.to_move, sliders, self.occupied, &mut B::default());
                check |= c;
                if let Some((b, segment)) = pin {
                    pins.add(b, segment);
                }
            }
        }
        #[cfg(debug_assertions)]
        {
            let mut fresh = Pins::new();
            let fresh_check = self.royal_lines(game, k, &mut fresh);
            debug_assert_eq!((check, pins.pinned), (fresh_check, fresh.pinned), "kept royal lines not current");
            // (Past `MAX_PINS` pins, which ones have their cells listed depends on the order.)
            debug_assert!(pins.pinned.iter().all(|b| pins.allowed(b).zip(fresh.allowed(b)).is_none_or(|(a, f)| a == f)), "kept pins not current");
        }
        check
    }

    /// The cells of `line` out to its second piece, that piece included (all of them when it
    /// has fewer): where an enemy line piece arriving could check or pin along it.
    #[inline(always)]
    fn out_to_second_piece(&self, game: &Game<B>, line: &Line<B>) -> B {
        // The cells passed with the first piece lifted, up to the next (a line round a globe
        // may pass the first piece's cell again: it is empty then), and that piece.
        let (_, first) = game.slide(line.segments, self.occupied);
        let (mut near, second) = game.slide(line.segments, first.map_or(self.occupied, |b| self.occupied.and_not(B::single(b))));
        if let Some(c) = second {
            near.insert(c);
        }
        near
    }

    /// Walks one line out of `us`'s royal piece, with the cells `occupied` occupied (the
    /// position's, or with one piece lifted): whether its first piece is an enemy line
    /// attacker along it, and the piece of `us` pinned along it with the cells it may move to;
    /// with `TRACK`, the cells walked (up to the piece where it stopped) are added to `read`.
    #[inline(always)]
    fn walk_line<const TRACK: bool>(&self, game: &Game<B>, line: &Line<B>, us: usize, sliders: B, occupied: B, read: &mut B) -> (bool, Option<(usize, B)>) {
        // The first piece on the line, then the next one behind it, run by run. Only an enemy
        // line piece (`sliders`, of the opponents still in the game) attacks along the line;
        // any other piece but one of `us` stops it.
        let base = line.segments.0 as usize;
        let mut first = None;
        for (i, run) in game.segments[base..line.segments.1 as usize].iter().enumerate() {
            let word = run.word as usize;
            let mut hit = run.mask & occupied.word(word);
            while hit != 0 {
                let bit = if run.up { hit.trailing_zeros() } else { 63 - hit.leading_zeros() };
                hit &= !(1u64 << bit);
                let c = word * 64 + bit as usize;
                let slider = sliders.word(word) >> bit & 1 != 0;
                let answer = match first {
                    None => {
                        if slider {
                            Some(((game.kinds_on(line, base + i, c) >> (self.board[c] - 1)) & 1 != 0, None))
                        } else if self.by_side[us].word(word) >> bit & 1 == 0 {
                            Some((false, None))
                        } else if game.stacks && self.stacked.has(c) {
                            // A stack's top piece never empties its cell by moving: no pin.
                            Some((false, None))
                        } else {
                            first = Some(c);
                            None
                        }
                    }
                    // (A line round a globe may pass the first piece's cell again.)
                    Some(b) if b != c => {
                        let pin = (slider && (game.kinds_on(line, base + i, c) >> (self.board[c] - 1)) & 1 != 0).then(|| {
                            // Every cell from the royal piece to the pinner.
                            let (mut segment, _) = game.slide(line.segments, occupied.and_not(B::single(b)));
                            segment.insert(c);
                            (b, segment)
                        });
                        Some((false, pin))
                    }
                    Some(_) => None,
                };
                if let Some(answer) = answer {
                    if TRACK {
                        // The run's cells up to this one.
                        let upto = if run.up { u64::MAX >> (63 - bit) } else { u64::MAX << bit };
                        read.or_word(word, run.mask & upto);
                    }
                    return answer;
                }
            }
            if TRACK {
                read.or_word(word, run.mask);
            }
        }
        (false, None)
    }
}
