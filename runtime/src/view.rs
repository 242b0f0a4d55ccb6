//! A game as a player sees it: the position after the moves played, whose turn it is, the royal
//! pieces in check, the last move and the legal moves. `orbis play` and `orbis serve` show games
//! through [`Engine::view`], replaying the moves from the start each time, so neither keeps a
//! game state of its own that could drift from the rules.

use crate::bits::CellSet;
use crate::engine::{info, replay, Engine, MoveInfo, Replayed, RequestError};
use crate::outcome::{describe, Status};
use crate::with_game;

/// One moment of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameView {
    /// The position's text (FEN where the board allows it).
    pub text: String,
    /// `ongoing`, or how the game ended (as `orbis moves` reports it).
    pub status: String,
    /// The side to move.
    pub to_move: String,
    /// The cells of the side to move's royal pieces that stand attacked.
    pub check: Vec<String>,
    /// The last move played, if any.
    pub last: Option<MoveInfo>,
    /// The moves played, each in the engine's own notation (whatever form was given).
    pub played: Vec<String>,
    /// The legal moves, sorted by notation; none once the game is over.
    pub legal: Vec<MoveInfo>,
    /// Each side's pieces in hand, in side order; empty when the game has no hands (no drops,
    /// no crowning).
    pub hands: Vec<Hand>,
}

/// The pieces one side holds in its hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hand {
    pub side: String,
    /// The kinds held, in the variant's order of kinds, with how many of each (none held: empty).
    pub pieces: Vec<Held>,
}

/// One kind of piece in a hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub name: String,
    pub symbol: char,
    pub count: u8,
}

impl GameView {
    pub fn is_over(&self) -> bool {
        self.status != "ongoing"
    }
}

impl Engine {
    /// Plays `moves` (any accepted notation, refusing moves after the game's end) from the
    /// position and describes the game at that point.
    pub fn view(&self, position: Option<&str>, moves: &[&str]) -> Result<GameView, RequestError> {
        with_game!(self, g => {
            let Replayed { mut pos, history, played: moves } = replay(g, position, moves)?;
            let played = moves.iter().map(|m| m.notation.clone()).collect();
            let last = moves.last().cloned();
            let status = pos.status(g, &history);
            let us = pos.to_move;
            let check = pos
                .royals(g, us)
                .iter()
                .filter(|&r| pos.attacked_by_enemy(g, r, us))
                .map(|r| g.cell_name(r as u16).to_string())
                .collect();
            let mut legal = Vec::new();
            if status == Status::Ongoing {
                let mut moves = Vec::new();
                pos.legal_moves(g, &mut moves);
                legal = moves.into_iter().map(|m| info(g, &pos, m)).collect();
                legal.sort_by(|a: &MoveInfo, b: &MoveInfo| a.notation.cmp(&b.notation));
            }
            let hands = if g.hands.is_none() && !g.tables.kinds.iter().any(|k| !k.crowns.is_empty()) {
                Vec::new()
            } else {
                (0..g.sides)
                    .map(|s| Hand {
                        side: g.tables.sides[s].name.clone(),
                        pieces: (0..g.kinds)
                            .filter(|&k| pos.hand[s * g.kinds + k] > 0)
                            .map(|k| Held { name: g.tables.kinds[k].name.clone(), symbol: g.tables.kinds[k].symbol, count: pos.hand[s * g.kinds + k] })
                            .collect(),
                    })
                    .collect()
            };
            Ok(GameView {
                text: pos.to_text(g),
                status: describe(status, g, pos.out),
                to_move: g.tables.sides[us].name.clone(),
                check,
                last,
                played,
                legal,
                hands,
            })
        })
    }
}
