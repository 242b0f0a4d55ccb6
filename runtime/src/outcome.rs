//! How a game stands: going on, or ended by checkmate, stalemate, the fifty-move rule or
//! repetition, following the variant's `rules`.

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::Position;
use crate::tables::Outcome;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    /// The side to move has no legal move and a royal piece attacked: its team loses. (While
    /// three or more teams are in a game under `game-end last-standing`, such a side is out
    /// instead and play goes on: no status says so.)
    Checkmate { loser: usize },
    /// The side to move has no legal move and is not in check; `outcome` is for that side.
    Stalemate {
        side: usize,
        outcome: Outcome,
    },
    /// `side` has no piece left but royal ones (`bare`); `outcome` is for that side.
    Bare {
        side: usize,
        outcome: Outcome,
    },
    /// A goal met (`reach`, `check-limit`, `extinction`).
    Goal(crate::goals::Goal),
    /// `rules.fifty_move` plies without a capture or a `resets-clock` move.
    FiftyMove,
    /// The position occurred `rules.repetition` times.
    Repetition,
    /// Two passes in a row (`pass`): a draw.
    Passed,
    /// Royal pieces faced each other before and after the last move (`facing`): a draw.
    Facing,
}

impl<B: CellSet> Position<B> {
    /// The status of this position; `history` holds the hashes of the earlier positions of the game.
    pub fn status(&mut self, game: &Game<B>, history: &[u64]) -> Status {
        if let (Some(side), Some(outcome)) = (self.bare_side(game), game.tables.rules.bare) {
            return Status::Bare { side, outcome };
        }
        if let Some(goal) = self.goal(game) {
            return Status::Goal(goal);
        }
        match self.passes {
            crate::passing::ENDED_PASSING => return Status::Passed,
            crate::passing::ENDED_FACING => return Status::Facing,
            _ => {}
        }
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

/// The status in words, naming sides. With two sides: who is mated or stalemated. With more,
/// also the team that loses (and wins, when one other team is left) and the sides out.
pub fn describe<B: CellSet>(status: Status, game: &Game<B>, out: u64) -> String {
    let sides = &game.tables.sides;
    let name = |s: usize| sides[s].name.as_str();
    // A team by its name, with its sides when it has several or is named otherwise.
    let team = |t: usize| {
        let members: Vec<&str> = (0..sides.len()).filter(|&s| game.team[s] == t).map(name).collect();
        let team_name = &sides[(0..sides.len()).find(|&s| game.team[s] == t).unwrap_or(0)].team;
        if members.len() == 1 && members[0] == team_name {
            team_name.to_string()
        } else {
            format!("team {team_name} ({})", members.join(", "))
        }
    };
    let two = sides.len() == 2;
    let live_others = |t: usize| -> Vec<usize> {
        (0..game.team_sides.len()).filter(|&o| o != t && game.team_sides[o] & !out != 0).collect()
    };
    let mut text = match status {
        Status::Ongoing => "ongoing".into(),
        Status::Checkmate { loser } if two => format!("checkmate: {} is mated", name(loser)),
        Status::Checkmate { loser } => {
            let t = game.team[loser];
            let mut text = format!("checkmate: {} is mated; {} loses", name(loser), team(t));
            if let [winner] = live_others(t)[..] {
                text += &format!(", {} wins", team(winner));
            }
            text
        }
        Status::Stalemate { side, outcome } => {
            let result = match (outcome, two) {
                (Outcome::Draw, _) => "a draw".to_string(),
                (Outcome::Win, true) => "a win for the stalemated side".to_string(),
                (Outcome::Loss, true) => "a loss for the stalemated side".to_string(),
                (Outcome::Win, false) => format!("a win for {}", team(game.team[side])),
                (Outcome::Loss, false) => format!("a loss for {}", team(game.team[side])),
            };
            format!("stalemate: {} cannot move; {}", name(side), result)
        }
        Status::Bare { side, outcome } => {
            let result = match outcome {
                Outcome::Draw => "a draw".to_string(),
                Outcome::Win => format!("a win for {}", team(game.team[side])),
                Outcome::Loss => format!("a loss for {}", team(game.team[side])),
            };
            format!(
                "bare: {} has only royal pieces left; {}",
                name(side),
                result
            )
        }
        Status::Goal(crate::goals::Goal::Reached { side }) => format!("{} reached its goal; {} wins", name(side), team(game.team[side])),
        Status::Goal(crate::goals::Goal::Checks { side }) => {
            format!("{} gave {} checks; {} wins", name(side), game.tables.rules.check_limit, team(game.team[side]))
        }
        Status::Goal(crate::goals::Goal::Extinct { side, kind }) => {
            format!("extinction: {} has no {} left; {} loses", name(side), game.tables.kinds[kind].name, team(game.team[side]))
        }
        Status::FiftyMove => "draw by the fifty-move rule".into(),
        Status::Repetition => "draw by repetition".into(),
        Status::Passed => "draw: both sides passed".into(),
        Status::Facing => "draw: the royal pieces still face each other (a pass while facing)".into(),
    };
    if out != 0 {
        let names: Vec<&str> = (0..sides.len()).filter(|&s| out >> s & 1 != 0).map(name).collect();
        text += &format!("; out: {}", names.join(", "));
    }
    text
}
