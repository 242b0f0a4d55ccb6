//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator.
//!
//! One move buffer per ply, allocated the first time the count gets that deep (a deep count of a
//! finished game allocates nothing), then reused; the last ply is counted in bulk (the number of
//! legal moves) instead of being played. Depths are capped at [`MAX_DEPTH`] by the callers that
//! take them from users ([`crate::Engine`]).

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::{Move, Position};

/// The deepest perft (and search) the engine accepts from a user: far beyond what can finish, and
/// shallow enough that the recursion's stack stays small.
pub const MAX_DEPTH: usize = 64;

/// Reusable move buffers, one per ply reached so far.
#[derive(Default)]
pub struct Perft {
    buffers: Vec<Vec<Move>>,
}

impl Perft {
    pub fn new() -> Perft {
        Perft::default()
    }

    /// Leaf nodes at `depth` plies below `pos`.
    pub fn count<B: CellSet>(&mut self, game: &Game<B>, pos: &mut Position<B>, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.recurse(game, pos, depth, 0)
    }

    fn recurse<B: CellSet>(&mut self, game: &Game<B>, pos: &mut Position<B>, depth: usize, ply: usize) -> u64 {
        if self.buffers.len() <= ply {
            self.buffers.push(Vec::with_capacity(256));
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.legal_moves(game, &mut moves);
        let nodes = if depth == 1 {
            moves.len() as u64
        } else {
            let mut n = 0;
            for &mv in &moves {
                let undo = pos.make(game, mv);
                n += self.recurse(game, pos, depth - 1, ply + 1);
                pos.unmake(game, &undo);
            }
            n
        };
        self.buffers[ply] = moves;
        nodes
    }

    /// Leaf counts below each legal move (perft "divide").
    pub fn divide<B: CellSet>(&mut self, game: &Game<B>, pos: &mut Position<B>, depth: usize) -> Vec<(Move, u64)> {
        let mut moves = Vec::new();
        pos.legal_moves(game, &mut moves);
        moves
            .into_iter()
            .map(|mv| {
                let undo = pos.make(game, mv);
                let n = self.count(game, pos, depth.saturating_sub(1));
                pos.unmake(game, &undo);
                (mv, n)
            })
            .collect()
    }
}
