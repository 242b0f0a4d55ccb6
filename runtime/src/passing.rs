//! Passing and facing royal pieces (`pass`, `facing GROUP`; Janggi's pass and bikjang).
//!
//! A pass changes nothing but the side to move. It is legal when the side is not in check, or
//! when its royal pieces face an enemy royal piece (then it is legal even in check). While royal
//! pieces face each other every other move must end the facing. The game ends in a draw after
//! two passes in a row, and after a move that leaves royal pieces facing each other as they did
//! before it (which only a pass can do). These ends are part of the position
//! ([`Position::passes`], in its hash): the same cells with the same pieces after a pass and
//! after a move are different positions.

use crate::bits::CellSet;
use crate::game::{Game, Segment};
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};
use crate::tables::Tables;

/// [`Position::passes`]: the last move was no pass (or is not known: a position read from FEN).
pub const NOT_PASSED: u8 = 0;
/// The last move was a pass.
pub const PASSED: u8 = 1;
/// The game ended in a draw: two passes in a row.
pub const ENDED_PASSING: u8 = 2;
/// The game ended in a draw: royal pieces faced each other before and after the last move.
pub const ENDED_FACING: u8 = 3;

/// The passing rules as the runtime uses them.
#[derive(Clone, Debug)]
pub struct Passing<B> {
    /// `pass`: a side may pass.
    pub pass: bool,
    /// Per cell: the lines along which a royal piece there faces another (`facing`); all empty
    /// without the rule.
    pub facing: Vec<Vec<FacingLine<B>>>,
    pub any_facing: bool,
    /// Hash keys per value of [`Position::passes`] (the first is 0).
    pub keys: [u64; 4],
}

/// A line along which a royal piece faces another.
#[derive(Clone, Debug)]
pub struct FacingLine<B> {
    /// Its runs, a range of `Game::segments` (the first piece on it is [`Game::first_occupied`]).
    pub runs: (u32, u32),
    /// Its cells: a line with no enemy royal piece on it is not walked.
    pub set: B,
    /// Its cells in order, out from the royal piece's cell.
    pub cells: Vec<u16>,
}

impl<B: CellSet> Passing<B> {
    /// `None` when the game has neither rule. The facing lines' runs are appended to `segments`.
    pub fn new(tables: &Tables, cells: usize, keys: [u64; 4], segments: &mut Vec<Segment>) -> Option<Passing<B>> {
        if !tables.rules.pass && tables.facing.is_empty() {
            return None;
        }
        let mut facing = vec![Vec::new(); cells];
        for (from, line) in &tables.facing {
            let set = B::from_cells(line.iter().map(|&c| c as usize));
            facing[*from as usize].push(FacingLine { runs: crate::game_build::segments_of(line, segments), set, cells: line.clone() });
        }
        Some(Passing { pass: tables.rules.pass, facing, any_facing: !tables.facing.is_empty(), keys: [0, keys[1], keys[2], keys[3]] })
    }
}

impl<B: CellSet> Position<B> {
    /// Whether a royal piece faces a royal piece of another team: the first piece on one of its
    /// facing lines.
    pub fn royals_face(&self, game: &Game<B>) -> bool {
        self.facing_cells::<false>(game).is_some()
    }

    /// Whether royal pieces face each other ([`Position::royals_face`]), and the cells a move
    /// must leave or land on to change that: the royal pieces' cells, and on each facing line
    /// with an enemy royal piece on it, the cells up to the first piece and that piece's (the
    /// walk `royals_face` makes, with the cells it read). `None` where this is not worked out:
    /// games without a facing rule, with more than two sides (sides go out) or with stacks (a
    /// move off a stack leaves a piece on its cell). (The cells between facing royal pieces
    /// change the answer only while they face, when a count plays every move anyway; they are
    /// named all the same, so that the answer taken is always exact.)
    pub(crate) fn facing_read(&self, game: &Game<B>) -> Option<(bool, B)> {
        let p = game.passing.as_ref().filter(|p| p.any_facing && game.sides == 2 && !game.stacks)?;
        let mut read = self.all_royal_tops;
        let mut faced = false;
        for r in self.royals(game, 0).iter() {
            for line in &p.facing[r] {
                if !line.set.intersects(self.royal_tops[1]) {
                    continue;
                }
                let Some((c, _)) = game.first_occupied(line.runs, self.occupied) else { continue };
                faced |= !self.is_out(0) && self.faces(game, 0, c);
                read.insert(c);
                for &x in line.cells.iter().take_while(|&&x| x as usize != c) {
                    read.insert(x as usize);
                }
            }
        }
        Some((faced, read))
    }

    /// Whether the piece on `c`, the first on a facing line of one of `side`'s royal pieces, is
    /// a royal piece of another team still in the game (the two face each other).
    #[inline]
    fn faces(&self, game: &Game<B>, side: usize, c: usize) -> bool {
        let code = self.board[c] as usize;
        let other = game.side_of[code - 1] as usize;
        game.team[other] != game.team[side] && !self.is_out(other) && game.royal[code - 1]
    }

    /// With royal pieces facing each other, the cells a move must leave or land on to end the
    /// facing (with `CELLS`; else none): each facing pair's cells and the empty cells between
    /// them. `None` when no royal pieces face each other.
    #[inline]
    pub(crate) fn facing_cells<const CELLS: bool>(&self, game: &Game<B>) -> Option<B> {
        let p = game.passing.as_ref().filter(|p| p.any_facing)?;
        let mut found = None;
        // Facing is mutual: the royal pieces of all sides but the last cover every pair.
        for side in 0..game.sides.saturating_sub(1) {
            if self.is_out(side) {
                continue;
            }
            // The top royal pieces of the other teams' sides still in: only a line with one on
            // it is walked.
            let enemies = if game.sides == 2 {
                // (With two sides the one opponent's, with no loop over the sides.)
                if game.team[1] != game.team[0] && !self.is_out(1) { self.royal_tops[1] } else { B::default() }
            } else {
                let mut enemies = B::default();
                for other in 0..game.sides {
                    if game.team[other] != game.team[side] && !self.is_out(other) {
                        enemies = enemies.or(self.royal_tops[other]);
                    }
                }
                enemies
            };
            for r in self.royals(game, side).iter() {
                for line in &p.facing[r] {
                    if !line.set.intersects(enemies) {
                        continue;
                    }
                    let Some((c, _)) = game.first_occupied(line.runs, self.occupied) else { continue };
                    if self.faces(game, side, c) {
                        if !CELLS {
                            return Some(B::default());
                        }
                        let cells = found.get_or_insert(B::default());
                        cells.insert(r);
                        cells.insert(c);
                        for &x in line.cells.iter().take_while(|&&x| x as usize != c) {
                            cells.insert(x as usize);
                        }
                    }
                }
            }
        }
        found
    }

    /// The pass of the side to move, written from and to its first royal piece's cell (as
    /// Fairy-Stockfish writes it, `e2e2`), or cell 0 without one.
    pub fn pass_move(&self, game: &Game<B>) -> Move {
        let cell = self.royals(game, self.to_move).iter().next().unwrap_or(0) as u16;
        Move { from: cell, to: cell, kind: MoveKind::Pass, promotion: NO_PROMOTION, aux: 0 }
    }

    /// Whether the game ended by passing or facing (no side has a move).
    #[inline]
    pub fn passing_ended(&self) -> bool {
        self.passes >= ENDED_PASSING
    }

    /// What [`Position::passes`] becomes after `mv`, given whether royal pieces faced each other
    /// before it (`faced`) and do now.
    pub(crate) fn passes_after(&self, game: &Game<B>, mv: Move, before: u8, faced: bool) -> u8 {
        if faced && self.royals_face(game) {
            ENDED_FACING
        } else if mv.kind != MoveKind::Pass {
            NOT_PASSED
        } else if before == PASSED {
            ENDED_PASSING
        } else {
            PASSED
        }
    }
}
