//! Standard algebraic notation (SAN: `e4`, `Nf3`, `exd5`, `e8=Q+`, `O-O#`) on grid boards, so that
//! games saved as PGN read in other chess tools, and their PGN reads here.
//!
//! SAN names a move by its piece letter (none for the piece whose symbol is `P`, by the
//! convention of chess notation), the least of the starting file or rank that tells it from
//! another move of the same kind of piece to the same cell, `x` for a capture, the destination,
//! the promotion and `+` or `#`. Pawn-like captures name their starting file. Moves without a
//! SAN form (crowning, stationary moves) and boards without a grid keep orbis's own notation.

use crate::bits::CellSet;
use crate::engine::{load, Engine, RequestError, MAX_PLAYED_MOVES};
use crate::game::Game;
use crate::notation::MoveError;
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};
use crate::with_game;

/// The file and rank names of a grid cell (its first position on the grid).
fn file_rank<B: CellSet>(game: &Game<B>, cell: u16) -> Option<(&str, &str)> {
    let grid = game.tables.grid.as_ref()?;
    let i = grid.cell_at.iter().position(|&c| c == cell)?;
    let (x, y) = (i % grid.width as usize, i / grid.width as usize);
    Some((grid.files[x].as_str(), grid.ranks[y].as_str()))
}

impl<B: CellSet> Position<B> {
    /// The SAN spellings of `mv` without `+`/`#`, shortest first (extra disambiguation is
    /// accepted when reading); `None` when the move has no SAN form here.
    fn san_forms(&self, game: &Game<B>, mv: Move, legal: &[Move]) -> Option<Vec<String>> {
        game.tables.grid.as_ref()?;
        match mv.kind {
            MoveKind::Castle | MoveKind::Drop | MoveKind::Pass => return Some(vec![self.notation(game, mv)]),
            MoveKind::Crown | MoveKind::Stationary => return None,
            _ => {}
        }
        let (from_file, from_rank) = file_rank(game, mv.from)?;
        let piece = self.board[mv.from as usize];
        let symbol = game.symbol((piece as usize - 1) % game.kinds);
        let capture = self.board[mv.to as usize] != 0 || mv.kind == MoveKind::EnPassant;
        let promotion = if mv.promotion != NO_PROMOTION { format!("={}", game.symbol(mv.promotion as usize)) } else { String::new() };
        let to = game.cell_name(mv.to);
        let x = if capture { "x" } else { "" };
        if symbol == 'P' {
            let start = if capture { from_file } else { "" };
            return Some(vec![format!("{start}{x}{to}{promotion}")]);
        }
        // Other moves of the same kind of piece to the same cell.
        let rivals: Vec<(&str, &str)> = legal
            .iter()
            .filter(|m| m.to == mv.to && m.from != mv.from && m.kind != MoveKind::Castle && self.board[m.from as usize] == piece)
            .filter_map(|m| file_rank(game, m.from))
            .collect();
        let least = if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|r| r.0 != from_file) {
            from_file.to_string()
        } else if rivals.iter().all(|r| r.1 != from_rank) {
            from_rank.to_string()
        } else {
            format!("{from_file}{from_rank}")
        };
        let mut forms = Vec::new();
        for d in [least, from_file.to_string(), from_rank.to_string(), format!("{from_file}{from_rank}")] {
            let form = format!("{symbol}{d}{x}{to}{promotion}");
            if !forms.contains(&form) {
                forms.push(form);
            }
        }
        Some(forms)
    }

    /// `mv` in SAN with `+` or `#`, or in orbis's notation when it has no SAN form.
    pub fn san(&mut self, game: &Game<B>, mv: Move) -> String {
        let mut legal = Vec::new();
        self.legal_moves(game, &mut legal);
        let Some(forms) = self.san_forms(game, mv, &legal) else { return self.notation(game, mv) };
        let undo = self.make(game, mv);
        let check = self.in_check(game, self.to_move);
        let mate = check && {
            let mut replies = Vec::new();
            self.legal_moves(game, &mut replies);
            replies.is_empty()
        };
        self.unmake(game, &undo);
        format!("{}{}", forms[0], if mate { "#" } else if check { "+" } else { "" })
    }

    /// The legal move (of `legal`) that `text` writes in SAN, if exactly one does.
    pub(crate) fn parse_san(&self, game: &Game<B>, legal: &[Move], text: &str) -> Result<Option<Move>, MoveError> {
        let bare = text.trim_end_matches(['+', '#', '!', '?']).replace("0-0", "O-O");
        let found: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&mv| self.san_forms(game, mv, legal).is_some_and(|forms| forms.contains(&bare)))
            .collect();
        match found[..] {
            [] => Ok(None),
            [mv] => Ok(Some(mv)),
            _ => {
                let readings: Vec<String> = found.iter().map(|&mv| self.notation(game, mv)).collect();
                Err(MoveError(format!("'{text}' is ambiguous: it reads as {}", readings.join(" or "))))
            }
        }
    }
}

impl Engine {
    /// The moves (any accepted notation) played from the position, each in SAN where it has a
    /// SAN form (see the module documentation).
    pub fn san(&self, position: Option<&str>, moves: &[&str]) -> Result<Vec<String>, RequestError> {
        if moves.len() > MAX_PLAYED_MOVES {
            return Err(RequestError::Limit(format!("{} moves to play; the limit is {MAX_PLAYED_MOVES}", moves.len())));
        }
        with_game!(self, g => {
            let mut pos = load(g, position)?;
            let mut out = Vec::with_capacity(moves.len());
            for (i, text) in moves.iter().enumerate() {
                let mv = pos.parse_move(g, text).map_err(|error| RequestError::Move { number: i + 1, error })?;
                out.push(pos.san(g, mv));
                pos.make(g, mv);
            }
            Ok(out)
        })
    }
}
