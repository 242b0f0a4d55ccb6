//! Attacks along lines found from the attackers' side: where a piece's line attacks are exactly
//! what its plain slides reach (riders on most boards), the cells it attacks are one slide reach
//! ([`Position::attacked_along_lines_among`]), instead of each target's lines walked to their
//! first occupied cell. A king with many destinations on a board wider than two words (where
//! the pairs of `Game::line_pairs` are not kept) is then judged with a few runs per rider, and a
//! royal rider's way that must pass no
//! attacked cell (`royal_path.rs`) with every attacked cell found at once
//! ([`Position::attack_map`]).
//!
//! The equivalence is not assumed: [`lines_as_slides`] checks it cell by cell when the game is
//! loaded, from the attack lines the compiler wrote and the slide runs generation follows.

use crate::bits::CellSet;
use crate::game::{Game, PieceMoves, SlideRun};
use crate::position::Position;
use crate::tables::{Attack, Tables};

/// Per colored kind: the cells from which the piece's line attacks, under any occupancy, are
/// the cells its plain slides reach, blockers included. That holds when the two match: the
/// attack lines of targets `t` on which the piece on `a` attacks, with the cells `c[j - 1], ..,
/// c[0]` between `a` and `t`, are, as sequences `c[j - 1], .., c[0], t`, exactly its slides from
/// `a` cut after each cell (slides and lines that branch count their shared first cells once);
/// and a slide's first cell is a direct attack or a line's target with nothing between. The sequences are compared as two multisets by their hashes (two 64-bit
/// lanes: a false match is about as likely as two random 128-bit numbers being equal), so that
/// the check costs a few operations per cell of each line and slide. Transit cells are never
/// occupied and never reached: left out of both.
pub(crate) fn lines_as_slides<B: CellSet>(tables: &Tables, piece_moves: &[PieceMoves<B>], slide_runs: &[SlideRun], direct_from: &[B], line_ck_mask: u64, transit: &[bool]) -> Vec<B> {
    const P: [u64; 2] = [0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F];
    // A strong mix of a sequence's hash, so that sums of them compare multisets.
    let mix = |h: u64, lane: usize| {
        let mut z = h ^ (lane as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let cells = tables.cells.len();
    let cks = piece_moves.len() / cells.max(1);
    let is_line_ck = |ck: usize| ck < 64 && line_ck_mask >> ck & 1 != 0;
    // Per colored kind and cell: the slides' sequences (each cut after its second cell or
    // later), hashed and summed; the same for the lines; the slides' first cells; those found
    // by a line with nothing between; and whether every line found a slide to start with.
    let mut slid = vec![[0u64; 2]; cks * cells];
    let mut lined = vec![[0u64; 2]; cks * cells];
    let mut firsts = vec![B::default(); cks * cells];
    let mut firsts_lined = vec![B::default(); cks * cells];
    let mut ok: Vec<bool> = piece_moves.iter().map(|m| m.plain_slides).collect();
    // Two pieces whose slides from a cell are the same runs (the sides' queens) share the sums.
    let same_runs = |x: &[SlideRun], bx: u32, y: &[SlideRun], by: u32| {
        x.len() == y.len()
            && x.iter().zip(y).all(|(p, q)| p.run.mask == q.run.mask && p.run.word == q.run.word && p.run.up == q.run.up && p.next - bx == q.next - by)
    };
    let mut seen: Vec<usize> = Vec::new();
    for i in (0..cells).flat_map(|a| (0..cks).map(move |ck| ck * cells + a)).filter(|&i| is_line_ck(i / cells) && piece_moves[i].plain_slides) {
        let m = &piece_moves[i];
        let runs = &slide_runs[m.slides.0 as usize..m.slides.1 as usize];
        if seen.last().is_some_and(|&e| e % cells != i % cells) {
            seen.clear();
        }
        let twin = seen.iter().copied().find(|&e| {
            let s = piece_moves[e].slides;
            same_runs(&slide_runs[s.0 as usize..s.1 as usize], s.0, runs, m.slides.0)
        });
        seen.push(i);
        if let Some(e) = twin {
            (slid[i], firsts[i]) = (slid[e], firsts[e]);
            continue;
        }
        // Slides that branch (bending) share their first cells with the one before: those
        // cells are counted once, as a line is found once.
        let (mut slide, mut before) = (Vec::new(), Vec::new());
        for (n, r) in runs.iter().enumerate() {
            slide.extend(r.run.cells());
            if runs.get(n + 1).is_some_and(|next| next.next == r.next) {
                continue;
            }
            let shared = slide.iter().zip(&before).take_while(|(x, y)| x == y).count();
            let mut h = [0u64; 2];
            for (k, &c) in slide.iter().enumerate() {
                for lane in 0..2 {
                    h[lane] = h[lane].wrapping_mul(P[lane]).wrapping_add(c as u64 + 1);
                    if k >= shared.max(1) {
                        slid[i][lane] = slid[i][lane].wrapping_add(mix(h[lane], lane));
                    }
                }
            }
            if let Some(&c) = slide.first() {
                firsts[i].insert(c as usize);
            }
            std::mem::swap(&mut slide, &mut before);
            slide.clear();
        }
    }
    // A target's line and the one before it (cells and masks, transit cells left out): lines
    // that branch share their first cells, and a piece there is counted once.
    let mut line: Vec<(u16, u64)> = Vec::new();
    let mut before: Vec<(u16, u64)> = Vec::new();
    for t in (0..cells).filter(|&t| !transit[t]) {
        let range = tables.attack_index[t] as usize..tables.attack_index[t + 1] as usize;
        before.clear();
        for a in &tables.attacks[range] {
            let Attack::Line { cells: c, masks } = *a else { continue };
            line.clear();
            line.extend((0..c.1 - c.0).map(|n| (tables.pool[(c.0 + n) as usize], tables.masks[(masks + n) as usize])).filter(|&(cell, _)| !transit[cell as usize]));
            let shared = line.iter().zip(&before).take_while(|(x, y)| x.0 == y.0).count();
            // The sequence `c[j - 1], .., c[0], t` hashed as a slide's is: `t` last.
            let (mut h, mut pow) = ([t as u64 + 1; 2], [1u64; 2]);
            for (j, &(cell, mask)) in line.iter().enumerate() {
                // (Counted already with the line before, where it shares the cells so far.)
                let counted = if j < shared { before[j].1 } else { 0 };
                let mut bits = mask & line_ck_mask & !counted;
                let mixed = if bits != 0 && j > 0 { [mix(h[0], 0), mix(h[1], 1)] } else { [0; 2] };
                while bits != 0 {
                    let ck = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    if ck >= cks {
                        continue;
                    }
                    let i = ck * cells + cell as usize;
                    if j == 0 {
                        ok[i] &= firsts[i].has(t);
                        firsts_lined[i].insert(t);
                    } else {
                        for lane in 0..2 {
                            lined[i][lane] = lined[i][lane].wrapping_add(mixed[lane]);
                        }
                    }
                }
                for lane in 0..2 {
                    pow[lane] = pow[lane].wrapping_mul(P[lane]);
                    h[lane] = h[lane].wrapping_add((cell as u64 + 1).wrapping_mul(pow[lane]));
                }
            }
            std::mem::swap(&mut line, &mut before);
        }
    }
    let mut out = vec![B::default(); cks];
    for i in (0..cks * cells).filter(|&i| is_line_ck(i / cells) && ok[i] && slid[i] == lined[i]) {
        if firsts[i].and_not(direct_from[i].or(firsts_lined[i])).is_empty() {
            out[i / cells].insert(i % cells);
        }
    }
    out
}

impl<B: CellSet> Position<B> {
    /// The cells of `targets` that an opponent of `side` still in the game attacks along lines
    /// with the cells `occupied` (a subset of the board's: a piece lifted off it), as
    /// [`Position::attacked_along_lines_by_enemy`] finds for each, perhaps with some it attacks
    /// directly (a slide's first cell). Found from the enemy line pieces that could reach one
    /// of them, each as its slides' reach, where loading found that the same
    /// (`Game::lines_as_slides`); else target by target. Transit cells are not answered for
    /// (no piece goes there).
    pub fn attacked_along_lines_among(&self, game: &Game<B>, targets: B, side: usize, occupied: B) -> B {
        self.attacked_along_lines_near(game, targets, side, occupied, self.lines_through(game, targets))
    }

    /// Every cell of a line through one of `targets` (`Game::line_reach`, joined).
    #[inline(always)]
    pub(crate) fn lines_through(&self, game: &Game<B>, targets: B) -> B {
        let mut lines = B::default();
        targets.each(|t| lines = lines.or(game.line_reach[t]));
        lines
    }

    /// [`Position::attacked_along_lines_among`], told the cells `lines` of a superset of the
    /// targets' lines.
    #[inline(never)]
    pub(crate) fn attacked_along_lines_near(&self, game: &Game<B>, targets: B, side: usize, occupied: B, lines: B) -> B {
        let riders = self.enemy_line_pieces(game, side);
        let mut hit = B::default();
        for c in riders.and(lines).iter() {
            let ck = self.board[c] as usize - 1;
            if !game.lines_as_slides[ck].has(c) {
                return self.attacked_along_lines_one_by_one(game, targets, side, occupied);
            }
            hit = hit.or(game.slide_reach(&game.piece_moves[ck * game.cells + c], occupied));
        }
        hit.and(targets)
    }

    /// The pieces of the opponents of `side` still in the game that attack along lines.
    #[inline(always)]
    pub(crate) fn enemy_line_pieces(&self, game: &Game<B>, side: usize) -> B {
        if game.sides == 2 {
            return self.line_pieces[1 - side];
        }
        let mut riders = B::default();
        for &s in &game.opponents[side] {
            if !self.is_out(s) {
                riders = riders.or(self.line_pieces[s]);
            }
        }
        riders
    }

    /// [`Position::attacked_along_lines_among`], each target's lines walked.
    pub(crate) fn attacked_along_lines_one_by_one(&self, game: &Game<B>, targets: B, side: usize, occupied: B) -> B {
        let mut hit = B::default();
        for t in targets.iter() {
            if self.attacked_along_lines_by_enemy(game, t, side, occupied) {
                hit.insert(t);
            }
        }
        hit
    }

    /// Every cell an opponent of `side` still in the game attacks, directly or along lines with
    /// the cells `occupied`, where every enemy line piece's lines are its slides
    /// (`Game::lines_as_slides`); `None` otherwise. Not with hops or winding rules (their
    /// attacks are neither).
    pub(crate) fn attack_map(&self, game: &Game<B>, side: usize, occupied: B) -> Option<B> {
        let mut hit = B::default();
        for &s in &game.opponents[side] {
            if self.is_out(s) {
                continue;
            }
            for c in self.line_pieces[s].iter() {
                let ck = self.board[c] as usize - 1;
                if !game.lines_as_slides[ck].has(c) {
                    return None;
                }
                hit = hit.or(game.slide_reach(&game.piece_moves[ck * game.cells + c], occupied));
            }
            // Kind by kind, the kinds present, less those that cannot check (the tables hold
            // no attack of theirs).
            let mut cks = self.present & game.side_cks[s];
            while cks != 0 {
                let ck = cks.trailing_zeros() as usize;
                cks &= cks - 1;
                if game.any_no_check && game.no_check[ck] {
                    continue;
                }
                for c in self.by_ck[ck].iter() {
                    hit = hit.or(game.direct_from[ck * game.cells + c]);
                }
            }
        }
        Some(hit)
    }
}
