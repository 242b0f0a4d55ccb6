//! Games won or lost by a goal rather than by mate: a piece reaching its cells (`reach`: King of
//! the Hill), a number of checks given (`check-limit`: Three-check) and the loss of every piece of
//! a kind (`extinction`). A position where a goal is met has no legal moves.

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::Position;

/// A goal met: who won or lost, and by which rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// `side` has a piece on a cell it must reach.
    Reached { side: usize },
    /// `side` has given as many checks as the limit.
    Checks { side: usize },
    /// `side` has no piece left of a kind it must keep (a loss for it).
    Extinct { side: usize, kind: usize },
}

impl<B: CellSet> Position<B> {
    /// The goal met in this position, if any (the first in side order).
    pub fn goal(&self, game: &Game<B>) -> Option<Goal> {
        if !game.goals {
            return None;
        }
        let limit = game.tables.rules.check_limit;
        for s in 0..game.sides {
            if self.is_out(s) {
                continue;
            }
            if game.reach[s].iter().any(|&(ck, cells)| !self.by_ck[ck].and(cells).is_empty()) {
                return Some(Goal::Reached { side: s });
            }
            if limit > 0 && self.checks[s] >= limit {
                return Some(Goal::Checks { side: s });
            }
            let mut mask = game.tables.rules.extinction;
            while mask != 0 {
                let kind = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let ck = s * game.kinds + kind;
                let hidden = game.stacks && self.stacked.iter().any(|c| self.under[c] as usize == ck + 1);
                if self.by_ck[ck].is_empty() && self.hand[ck] == 0 && !hidden {
                    return Some(Goal::Extinct { side: s, kind });
                }
            }
        }
        None
    }

    /// What `checks[side] == n` adds to the hash (nothing for 0 or without `check-limit`).
    pub(crate) fn checks_key(&self, game: &Game<B>, side: usize, n: u8) -> u64 {
        let limit = usize::from(game.tables.rules.check_limit);
        if n == 0 || game.zobrist.checks.is_empty() {
            return 0;
        }
        game.zobrist.checks[side * (limit + 1) + usize::from(n).min(limit)]
    }

    /// After `mover`'s move: counts a check when the side now to move is in check; whether it did.
    pub(crate) fn count_check(&mut self, game: &Game<B>, mover: usize) -> bool {
        if !self.in_check(game, self.to_move) {
            return false;
        }
        let n = self.checks[mover];
        self.set_checks(game, mover, n.saturating_add(1));
        true
    }

    /// Sets the checks `side` has given (FEN's check counters), keeping the hash.
    pub fn set_checks(&mut self, game: &Game<B>, side: usize, n: u8) {
        let old = self.checks[side];
        self.hash ^= self.checks_key(game, side, old) ^ self.checks_key(game, side, n);
        self.checks[side] = n;
    }
}
