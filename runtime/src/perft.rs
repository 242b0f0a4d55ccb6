//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator.
//!
//! Buffers are allocated once per depth, so the count itself allocates nothing; the last ply is
//! counted in bulk (the number of legal moves) instead of being played.

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::{Move, Position};

/// Reusable move buffers, one per ply.
pub struct Perft {
    buffers: Vec<Vec<Move>>,
}

impl Perft {
    pub fn new(depth: usize) -> Perft {
        Perft { buffers: (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect() }
    }

    /// Leaf nodes at `depth` plies below `pos`.
    pub fn count<B: CellSet>(&mut self, game: &Game<B>, pos: &mut Position<B>, depth: usize) -> u64 {
        if self.buffers.len() < depth {
            self.buffers.resize_with(depth, || Vec::with_capacity(256));
        }
        if depth == 0 {
            return 1;
        }
        self.recurse(game, pos, depth, 0)
    }

    fn recurse<B: CellSet>(&mut self, game: &Game<B>, pos: &mut Position<B>, depth: usize, ply: usize) -> u64 {
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
