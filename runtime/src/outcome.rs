//! How a game stands: going on, or ended by checkmate, stalemate, the fifty-move rule or
//! repetition, following the variant's `rules`.

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::Position;
use crate::tables::Outcome;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    /// The side to move has no legal move and a royal piece attacked.
    Checkmate { loser: usize },
    /// The side to move has no legal move and is not in check; `outcome` is for that side.
    Stalemate { side: usize, outcome: Outcome },
    /// `rules.fifty_move` plies without a capture or a `resets-clock` move.
    FiftyMove,
    /// The position occurred `rules.repetition` times.
    Repetition,
}

impl<B: CellSet> Position<B> {
    /// The status of this position; `history` holds the hashes of the earlier positions of the game.
    pub fn status(&mut self, game: &Game<B>, history: &[u64]) -> Status {
        let mut moves = Vec::new();
        self.legal_moves(game, &mut moves);
        let us = self.to_move;
        if moves.is_empty() {
            return if self.in_check(game, us) {
                Status::Checkmate { loser: us }
            } else {
                Status::Stalemate { side: us, outcome: game.tables.rules.stalemate }
            };
        }
        let rules = game.tables.rules;
        if rules.fifty_move > 0 && self.halfmove >= rules.fifty_move as u32 {
            return Status::FiftyMove;
        }
        if rules.repetition > 0 {
            let seen = 1 + history.iter().filter(|&&h| h == self.hash).count();
            if seen >= rules.repetition as usize {
                return Status::Repetition;
            }
        }
        Status::Ongoing
    }
}

/// The status in words, naming sides.
pub fn describe(status: Status, side_names: &[String]) -> String {
    match status {
        Status::Ongoing => "ongoing".into(),
        Status::Checkmate { loser } => format!("checkmate: {} is mated", side_names[loser]),
        Status::Stalemate { side, outcome } => {
            let result = match outcome {
                Outcome::Draw => "a draw",
                Outcome::Win => "a win for the stalemated side",
                Outcome::Loss => "a loss for the stalemated side",
            };
            format!("stalemate: {} cannot move; {}", side_names[side], result)
        }
        Status::FiftyMove => "draw by the fifty-move rule".into(),
        Status::Repetition => "draw by repetition".into(),
    }
}
