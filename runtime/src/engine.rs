//! The runtime's entry point: a game at the cell-set width its board needs.
//!
//! [`Engine`] validates tables, picks the cell sets' width once (`bits.rs`), and offers the operations
//! the CLI needs on position texts. Code that wants the typed API uses [`Game`] and [`Position`].

use crate::bits::{CellSet, Standing64, Wide};
use crate::game::Game;
use crate::notation::{MoveError, PositionError};
use crate::perft::{self, PerftTable, MAX_DEPTH, MAX_TABLE_MB, MAX_THREADS};
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};
use crate::outcome::{describe, Status};
use crate::search::{Score, SearchLimits};
use crate::tables::Tables;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Boards above this many cells are not supported by this build.
pub const MAX_CELLS: usize = 512;

/// The most moves a request plays before answering (`--after`): longer than any game the
/// fifty-move rule allows on a board this size.
pub const MAX_PLAYED_MOVES: usize = 20_000;

/// Why a request about a position cannot be answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// The position text cannot be read, or describes an impossible position.
    Position(PositionError),
    /// Move `number` (counted from 1) of the moves to play is not legal where it comes.
    Move { number: usize, error: MoveError },
    /// The game ended before move `number`.
    GameOver { number: usize, text: String, status: String },
    /// A request beyond a documented limit (docs/limits.md).
    Limit(String),
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::Position(e) => e.fmt(f),
            RequestError::Move { number, error } => write!(f, "move {number}: {error}"),
            RequestError::GameOver { number, text, status } => write!(f, "move {number}: '{text}' comes after the game ended ({status})"),
            RequestError::Limit(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for RequestError {}

impl From<PositionError> for RequestError {
    fn from(e: PositionError) -> Self {
        RequestError::Position(e)
    }
}

/// Refuses depths beyond [`MAX_DEPTH`].
fn check_depth(depth: usize) -> Result<(), RequestError> {
    if depth > MAX_DEPTH {
        return Err(RequestError::Limit(format!("depth {depth} is beyond the limit of {MAX_DEPTH} plies")));
    }
    Ok(())
}

/// How [`Engine::perft_with`] counts: on how many threads, with a table of how many MiB (0: none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerftOptions {
    pub threads: usize,
    pub table_mb: usize,
}

impl Default for PerftOptions {
    fn default() -> Self {
        PerftOptions { threads: 1, table_mb: 0 }
    }
}

impl PerftOptions {
    /// The table the options ask for, after checking both limits.
    fn table(&self) -> Result<Option<PerftTable>, RequestError> {
        if self.threads == 0 || self.threads > MAX_THREADS {
            return Err(RequestError::Limit(format!("{} threads; a perft uses 1 to {MAX_THREADS}", self.threads)));
        }
        if self.table_mb > MAX_TABLE_MB {
            return Err(RequestError::Limit(format!("a perft table of {} MiB; the limit is {MAX_TABLE_MB}", self.table_mb)));
        }
        if self.table_mb == 0 {
            return Ok(None);
        }
        match PerftTable::new(self.table_mb) {
            Some(t) => Ok(Some(t)),
            None => Err(RequestError::Limit(format!("cannot allocate a perft table of {} MiB", self.table_mb))),
        }
    }
}

/// A loaded game at the cell-set width its board needs. (The widest variant is large, a game's
/// tables per colored kind being fixed arrays, `crate::per64::Per64`: an engine is built once a
/// load and passed by reference, and `with_game!` binds its game as the match does, so the
/// variants hold their games unboxed.)
#[allow(clippy::large_enum_variant)]
pub enum Engine {
    Narrow(Game<u64>),
    /// More than 64 cells, all those past the 64th transit cells (Boholy's poles): one word,
    /// which never holds them.
    Standing(Game<Standing64>),
    /// 65 to 128 cells: two words (faster than `u128`, whose variable shifts are costly).
    Medium(Game<Wide<2>>),
    /// 129 to 192 cells (Webball's 170): three words.
    Broad(Game<Wide<3>>),
    /// 193 to 320 cells (the 8x8 cube's 296): five words, so that every set operation costs
    /// five words, not eight.
    Large(Game<Wide<5>>),
    /// 321 to [`MAX_CELLS`] cells.
    Huge(Game<Wide<8>>),
}

/// Tables the runtime cannot play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(pub String);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

/// A legal move, described for output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveInfo {
    pub from: String,
    pub to: String,
    pub promotion: Option<char>,
    pub notation: String,
    /// UCI's (and Fairy-Stockfish's) form: `e2e4`, `e7e8q`, `c7c8+` (a promotion to a `+X`
    /// kind), `P@e4` (a drop); castling as the king's move.
    pub uci: String,
    pub kind: &'static str,
}

/// What [`Engine::search`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchReport {
    /// The move to play; `None` when the game is over in the position.
    pub best: Option<MoveInfo>,
    /// From the side to move's point of view.
    pub score: Score,
    /// The principal variation, in move notation, starting with `best`.
    pub pv: Vec<String>,
    /// The last iteration the search completed.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// `with_game!(engine, g => body)`: `body` with `g` bound to the engine's `Game` at whatever cell-set
/// width it has (for code generic over `CellSet`).
#[macro_export]
macro_rules! with_game {
    ($engine:expr, $g:ident => $body:expr) => {
        match $engine {
            $crate::Engine::Narrow($g) => $body,
            $crate::Engine::Standing($g) => $body,
            $crate::Engine::Medium($g) => $body,
            $crate::Engine::Broad($g) => $body,
            $crate::Engine::Large($g) => $body,
            $crate::Engine::Huge($g) => $body,
        }
    };
}

impl Engine {
    pub fn new(tables: Tables) -> Result<Engine, LoadError> {
        tables.validate().map_err(|e| LoadError(e.to_string()))?;
        let cells = tables.cells.len();
        Ok(if cells <= 64 {
            Engine::Narrow(Game::new(tables))
        } else if Self::standing(&tables) {
            Engine::Standing(Game::new(tables))
        } else if cells <= 128 {
            Engine::Medium(Game::new(tables))
        } else if cells <= 192 {
            Engine::Broad(Game::new(tables))
        } else if cells <= 320 {
            Engine::Large(Game::new(tables))
        } else if cells <= MAX_CELLS {
            Engine::Huge(Game::new(tables))
        } else {
            return Err(LoadError(format!("the board has {cells} cells; this build supports up to {MAX_CELLS}")));
        })
    }

    /// Whether the board's cells past the 64th are all transit cells, so that its sets may
    /// leave them out ([`Standing64`]). Not with hop or winding rules, which follow their
    /// captures through sets of cells, a transit cell's too.
    fn standing(tables: &Tables) -> bool {
        let cells = tables.cells.len();
        cells <= MAX_CELLS
            && tables.hoppers.is_empty()
            && tables.winders.is_empty()
            && tables.transit_from(64)
    }

    pub fn tables(&self) -> &Tables {
        with_game!(self, g => &g.tables)
    }

    /// The start position, or the given one, normalised to text (FEN where possible).
    pub fn position_text(&self, position: Option<&str>) -> Result<String, PositionError> {
        with_game!(self, g => Ok(load(g, position)?.to_text(g)))
    }

    /// The position in the general notation.
    pub fn general_text(&self, position: Option<&str>) -> Result<String, PositionError> {
        with_game!(self, g => Ok(load(g, position)?.to_general(g)))
    }

    /// The sides out of the game in the position (as read: a side to move without a legal move
    /// while three or more teams play is out at once), in turn order.
    pub fn out_sides(&self, position: Option<&str>) -> Result<Vec<String>, PositionError> {
        with_game!(self, g => {
            let pos = load(g, position)?;
            Ok((0..g.sides).filter(|&s| pos.is_out(s)).map(|s| g.tables.sides[s].name.clone()).collect())
        })
    }

    /// Whether the variant's initial position could arise in play ([`Position::check`]: the side
    /// before the first in turn order not in check, no piece in a compulsory promotion zone of
    /// its own, ...). The compiler reports one that could not; the other requests take the
    /// initial position as it is.
    pub fn check_start(&self) -> Result<(), PositionError> {
        with_game!(self, g => Position::start(g).check(g))
    }

    /// The legal moves, sorted by notation.
    pub fn moves(&self, position: Option<&str>) -> Result<Vec<MoveInfo>, PositionError> {
        with_game!(self, g => {
            let mut pos = load(g, position)?;
            let mut moves = Vec::new();
            pos.legal_moves(g, &mut moves);
            let mut out: Vec<MoveInfo> = moves.into_iter().map(|m| info(g, &pos, m)).collect();
            out.sort_by(|a, b| a.notation.cmp(&b.notation));
            Ok(out)
        })
    }

    pub fn perft(&self, position: Option<&str>, depth: usize) -> Result<u64, RequestError> {
        self.perft_with(position, depth, PerftOptions::default())
    }

    /// Perft over several threads and with a table of counts, as `options` say.
    pub fn perft_with(&self, position: Option<&str>, depth: usize, options: PerftOptions) -> Result<u64, RequestError> {
        check_depth(depth)?;
        let table = options.table()?;
        with_game!(self, g => {
            let pos = load(g, position)?;
            Ok(perft::count_parallel(g, &pos, depth, options.threads, table.as_ref()))
        })
    }

    /// Leaf counts per legal move, sorted by notation.
    pub fn divide(&self, position: Option<&str>, depth: usize) -> Result<Vec<(MoveInfo, u64)>, RequestError> {
        self.divide_with(position, depth, PerftOptions::default())
    }

    /// [`Engine::divide`] over several threads and with a table of counts, as `options` say.
    pub fn divide_with(&self, position: Option<&str>, depth: usize, options: PerftOptions) -> Result<Vec<(MoveInfo, u64)>, RequestError> {
        check_depth(depth)?;
        let table = options.table()?;
        with_game!(self, g => {
            let pos = load(g, position)?;
            let counts = perft::divide_parallel(g, &pos, depth, options.threads, table.as_ref());
            let mut out: Vec<(MoveInfo, u64)> = counts.into_iter().map(|(m, n)| (info(g, &pos, m), n)).collect();
            out.sort_by(|a, b| a.0.notation.cmp(&b.0.notation));
            Ok(out)
        })
    }

    /// Plays the moves in turn from the position and returns the resulting position text.
    pub fn play(&self, position: Option<&str>, moves: &[&str]) -> Result<String, RequestError> {
        Ok(self.play_status(position, moves)?.0)
    }

    /// Plays the moves in turn (refusing any after the game has ended) and returns the resulting
    /// position text and the game's status, repetitions counted over the moves played.
    pub fn play_status(&self, position: Option<&str>, moves: &[&str]) -> Result<(String, String), RequestError> {
        with_game!(self, g => {
            let Replayed { mut pos, history, .. } = replay(g, position, moves)?;
            let status = pos.status(g, &history);
            Ok((pos.to_text(g), describe(status, g, pos.out)))
        })
    }

    /// Searches for the best move after playing `history` (moves, as for [`Engine::play`]) from
    /// the position: see [`crate::search`] for the search and the evaluation. History positions
    /// count for repetitions. A game already over gives no move (`best` is `None`). Without any
    /// limit the search goes to [`crate::search::DEFAULT_DEPTH`].
    pub fn search(&self, position: Option<&str>, history: &[&str], limits: SearchLimits) -> Result<SearchReport, RequestError> {
        self.search_until(position, history, limits, None)
    }

    /// [`Engine::search`] that also stops when `stop` is set (from another thread), returning the
    /// best move found so far.
    pub fn search_until(
        &self,
        position: Option<&str>,
        history: &[&str],
        limits: SearchLimits,
        stop: Option<&AtomicBool>,
    ) -> Result<SearchReport, RequestError> {
        if let Some(depth) = limits.depth {
            check_depth(depth as usize)?;
        }
        with_game!(self, g => {
            let Replayed { mut pos, history: hashes, .. } = replay(g, position, history)?;
            let result = crate::search::search(g, &mut pos, &hashes, &limits, stop);
            let best = result.best.map(|m| info(g, &pos, m));
            let mut line = pos.clone();
            let mut pv = Vec::new();
            for &m in &result.pv {
                pv.push(line.notation(g, m));
                line.make(g, m);
            }
            Ok(SearchReport { best, score: result.score, pv, depth: result.depth, nodes: result.nodes, elapsed: result.elapsed })
        })
    }
}

/// A game replayed: the position reached, the hashes of the positions before each move (for
/// repetitions) and each move as played.
pub(crate) struct Replayed<B: CellSet> {
    pub pos: Position<B>,
    pub history: Vec<u64>,
    pub played: Vec<MoveInfo>,
}

/// Plays `moves` in turn from the position (the start when `None`), refusing any after the game
/// has ended.
pub(crate) fn replay<B: CellSet>(g: &Game<B>, position: Option<&str>, moves: &[&str]) -> Result<Replayed<B>, RequestError> {
    if moves.len() > MAX_PLAYED_MOVES {
        return Err(RequestError::Limit(format!("{} moves to play; the limit is {MAX_PLAYED_MOVES}", moves.len())));
    }
    let mut pos = load(g, position)?;
    let mut history = Vec::with_capacity(moves.len());
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let number = i + 1;
        let status = pos.status(g, &history);
        if status != Status::Ongoing {
            return Err(RequestError::GameOver { number, text: text.to_string(), status: describe(status, g, pos.out) });
        }
        let mv = pos.parse_move(g, text).map_err(|error| RequestError::Move { number, error })?;
        played.push(info(g, &pos, mv));
        history.push(pos.hash);
        pos.make(g, mv);
    }
    Ok(Replayed { pos, history, played })
}

pub(crate) fn load<B: CellSet>(g: &Game<B>, position: Option<&str>) -> Result<Position<B>, PositionError> {
    match position {
        Some(text) => Position::parse(g, text),
        None => Ok(Position::start(g)),
    }
}

pub(crate) fn info<B: CellSet>(g: &Game<B>, pos: &Position<B>, m: Move) -> MoveInfo {
    MoveInfo {
        from: g.cell_name(m.from).to_string(),
        to: g.cell_name(m.to).to_string(),
        promotion: (m.promotion != NO_PROMOTION).then(|| g.symbol(m.promotion as usize)),
        notation: pos.notation(g, m),
        uci: match m.kind {
            MoveKind::Drop => format!("{}@{}", g.symbol(m.aux as usize), g.cell_name(m.to)),
            MoveKind::Castle => {
                let c = &g.castles[pos.to_move][m.aux as usize];
                format!("{}{}", g.cell_name(c.king_from), g.cell_name(c.king_to))
            }
            _ => {
                let promotion = if m.promotion != NO_PROMOTION { g.uci_promotion(m.promotion as usize) } else { String::new() };
                format!("{}{}{promotion}", g.cell_name(m.from), g.cell_name(m.to))
            }
        },
        kind: match m.kind {
            MoveKind::Normal => "normal",
            MoveKind::EnPassantTarget => "en-passant-target",
            MoveKind::EnPassant => "en-passant",
            MoveKind::Castle => "castle",
            MoveKind::Stationary => "stationary",
            MoveKind::Crown => "crown",
            MoveKind::Drop => "drop",
            MoveKind::Pass => "pass",
        },
    }
}
