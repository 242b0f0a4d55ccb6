//! A game-playing search for every variant, driven by the tables alone.
//!
//! **Search.** Negamax alpha-beta with iterative deepening and principal-variation search (the
//! first move with the full window, the others with a null window, re-searched when they beat
//! it), a check extension, and a quiescence search at the horizon: captures and promotions, with
//! stand-pat unless the side to move is in check (then every legal move is searched, so a mate
//! at the horizon is seen). Quiescence leaves out under-promotions, captures that cannot bring
//! the score near alpha (delta pruning) and captures by a more valuable piece onto a defended
//! cell: without them, boards where every queen sees half the board (the spheres) made a few
//! depth-3 searches take millions of nodes. A transposition table keyed by [`Position::hash`]
//! (fixed size, depth-preferred per key) keeps the best move, the depth and the kind of bound;
//! mate scores are stored relative to the node, not the root, so they stay right wherever the
//! position recurs. (As in most engines, the draws below, which depend on the path, are not in
//! the key.)
//! Move ordering: the table's move, then captures by most valuable victim / least valuable
//! attacker (promotions count their gain), two killer moves per ply, then the history heuristic.
//!
//! **Game ends** are those of the variant's `rules`, read the way [`Position::status`] reads
//! them: a side that is bare (`bare`) ends the game with that rule's outcome for it; no legal
//! move is checkmate in check, else stalemate with `rules.stalemate`'s outcome for the stalemated
//! side; `rules.fifty_move` plies without a capture or a `resets-clock` move draw; a position that
//! already occurred on the current path or in the game's history (since the last irreversible
//! move) is a draw at once, when the rules count repetitions at all: whoever could repeat it once
//! can repeat it up to the rule's count.
//!
//! **Evaluation**: [`crate::eval`], derived from the tables with no code per variant.
//!
//! The score is from the side to move's point of view. With more than two teams the search is
//! *paranoid*: the team of the side to move at the root is one party, all other teams together the
//! other; a side of the root's team maximises the root team's material (and position) minus
//! everybody else's, every other side minimises it. Nodes where the turn passes within a party
//! keep the sign and the window instead of negating them.

use crate::bits::CellSet;
use crate::game::Game;
use crate::outcome::Status;
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};
use crate::tables::Outcome;
pub use crate::eval::Evaluator;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The deepest ply the search reaches, extensions and quiescence included.
pub const MAX_PLY: usize = 128;
/// The value of mating at the root; a mate `n` plies away is worth `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Values beyond this are mates.
const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
const INF: i32 = MATE + 1;
/// Evaluations are kept clear of mate values.
pub(crate) const EVAL_LIMIT: i32 = MATE_BOUND - 1;
/// The deepest iteration a search asks for (as perft's depth limit).
pub const MAX_DEPTH: u32 = crate::perft::MAX_DEPTH as u32;
/// The depth of a search given no limit at all (no depth, time, node count or stop flag).
pub const DEFAULT_DEPTH: u32 = 6;
/// The transposition table has `2^TT_BITS` entries of 24 bytes (24 MiB, allocated zeroed, so
/// pages a short search never touches cost nothing).
pub const TT_BITS: u32 = 20;
/// Delta pruning: a capture in quiescence must be able to bring the score this close to alpha.
const DELTA_MARGIN: i32 = 200;
/// How often (in nodes) the clock and the stop flag are read.
const CHECK_EVERY: u64 = 2048;

/// When to stop: at the first limit reached. Without any, the search goes to [`DEFAULT_DEPTH`]
/// (or, given a stop flag, until it is set, up to [`MAX_DEPTH`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Iterations to complete (plies, before extensions and quiescence).
    pub depth: Option<u32>,
    pub movetime: Option<Duration>,
    pub nodes: Option<u64>,
}

/// A score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in `n` moves of the side to move (`n` > 0), or mated in `-n` (`n` < 0: the opponent
    /// mates on their `-n`-th move). `Mate(0)`: the game is already decided (not drawn) in this
    /// position. A "mate" is any game end the rules score as a win or a loss (bare, stalemate).
    /// Moves are counted as in two-sided games (plies / 2, rounded up for a win).
    Mate(i32),
}

impl Score {
    /// The score of an internal value (mates as `MATE - plies`).
    pub fn from_value(v: i32) -> Score {
        if v > MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v < -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2))
        } else {
            Score::Cp(v)
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is over in the position.
    pub best: Option<Move>,
    pub score: Score,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The last iteration completed (0 when not even the first was).
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

const BOUND_EXACT: u64 = 1;
const BOUND_LOWER: u64 = 2;
const BOUND_UPPER: u64 = 3;
const USED: u64 = 1 << 48;
/// No move in the table.
const NO_MOVE: u64 = u64::MAX;

/// A move as the table keeps it: enough to recognise it among the legal moves (which is the only
/// way a table move is ever played, so a collision cannot play an illegal move).
fn pack(m: Move) -> u64 {
    let kind = match m.kind {
        MoveKind::Normal => 0u64,
        MoveKind::EnPassantTarget => 1,
        MoveKind::EnPassant => 2,
        MoveKind::Castle => 3,
        MoveKind::Stationary => 4,
        MoveKind::Crown => 5,
        MoveKind::Drop => 6,
        MoveKind::Pass => 7,
    };
    u64::from(m.from) | u64::from(m.to) << 16 | (u64::from(m.aux) & 0xffff) << 32 | u64::from(m.promotion) << 48 | kind << 56
}

struct Entry {
    mv: u64,
    score: i32,
    depth: i32,
    bound: u64,
}

/// A null move for empty killer slots (no legal move goes from a cell to itself as a normal move).
const NULL: Move = Move { from: u16::MAX, to: u16::MAX, kind: MoveKind::Normal, promotion: NO_PROMOTION, aux: 0 };

const STRIDE: usize = MAX_PLY + 2;

/// A search with its tables, reusable from one search to the next (the transposition table and
/// the history are kept: a game's successive searches profit from them).
pub struct Searcher<'a, B: CellSet> {
    game: &'a Game<B>,
    pub eval: Evaluator<B>,
    tt: Vec<[u64; 3]>,
    tt_mask: u64,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    pv: Vec<Move>,
    pv_len: Vec<usize>,
    /// Hashes of the positions before each move: the game's, then the current path's.
    path: Vec<u64>,
    buffers: Vec<Vec<Move>>,
    orders: Vec<Vec<i32>>,
    nodes: u64,
    aborted: bool,
    /// The root side's team (paranoid search), and the key mixed into table keys for it.
    root_team: usize,
    salt: u64,
    root_best: Option<(Move, i32, Vec<Move>)>,
    iteration: u32,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    stop: Option<&'a AtomicBool>,
}

/// Searches `pos` (left as it was) within `limits`; `history` holds the hashes of the game's
/// earlier positions (for repetitions). A one-off [`Searcher`].
pub fn search<B: CellSet>(
    game: &Game<B>,
    pos: &mut Position<B>,
    history: &[u64],
    limits: &SearchLimits,
    stop: Option<&AtomicBool>,
) -> SearchResult {
    Searcher::new(game).search(pos, history, limits, stop)
}

impl<'a, B: CellSet> Searcher<'a, B> {
    pub fn new(game: &'a Game<B>) -> Searcher<'a, B> {
        Searcher::with_table_bits(game, TT_BITS)
    }

    /// A searcher whose transposition table has `2^bits` entries (`bits` clamped to 10..=26).
    pub fn with_table_bits(game: &'a Game<B>, bits: u32) -> Searcher<'a, B> {
        let bits = bits.clamp(10, 26);
        Searcher {
            game,
            eval: Evaluator::new(game),
            tt: vec![[0u64; 3]; 1 << bits],
            tt_mask: (1u64 << bits) - 1,
            killers: vec![[NULL; 2]; STRIDE],
            history: vec![0; game.sides * game.kinds * game.cells],
            pv: vec![NULL; STRIDE * STRIDE],
            pv_len: vec![0; STRIDE],
            path: Vec::new(),
            buffers: (0..STRIDE).map(|_| Vec::new()).collect(),
            orders: (0..STRIDE).map(|_| Vec::new()).collect(),
            nodes: 0,
            aborted: false,
            root_team: 0,
            salt: 0,
            root_best: None,
            iteration: 0,
            deadline: None,
            node_limit: None,
            stop: None,
        }
    }

    /// Searches `pos` (restored before returning) within `limits` or until `stop` is set.
    /// `history`: the hashes of the game's positions before `pos`, oldest first.
    pub fn search(
        &mut self,
        pos: &mut Position<B>,
        history: &[u64],
        limits: &SearchLimits,
        stop: Option<&'a AtomicBool>,
    ) -> SearchResult {
        let started = Instant::now();
        let game = self.game;
        self.nodes = 0;
        self.aborted = false;
        self.stop = stop;
        self.deadline = limits.movetime.map(|t| started + t);
        self.node_limit = limits.nodes;
        self.root_team = game.team[pos.to_move];
        self.salt = if game.team_sides.len() > 2 { splitmix(self.root_team as u64 + 1) } else { 0 };
        for h in &mut self.history {
            *h /= 8;
        }
        self.killers.iter_mut().for_each(|k| *k = [NULL; 2]);
        self.path.clear();
        self.path.extend_from_slice(history);

        let status = pos.status(game, history);
        if status != Status::Ongoing {
            let score = match status {
                Status::FiftyMove | Status::Repetition | Status::Passed | Status::Facing => Score::Cp(0),
                Status::Stalemate { outcome: Outcome::Draw, .. } | Status::Bare { outcome: Outcome::Draw, .. } => Score::Cp(0),
                _ => Score::Mate(0),
            };
            return SearchResult { best: None, score, pv: Vec::new(), depth: 0, nodes: 0, elapsed: started.elapsed() };
        }
        // A move to play whatever happens: the first in the search's own order.
        let fallback = {
            let mut moves = Vec::new();
            pos.legal_moves(game, &mut moves);
            let tt = self.probe(pos.hash ^ self.salt).map_or(NO_MOVE, |e| e.mv);
            let best = moves.iter().copied().max_by_key(|&m| self.order(pos, m, tt, 0));
            best.unwrap_or(NULL)
        };
        let mut result = SearchResult {
            best: Some(fallback),
            score: Score::Cp(self.evaluate(pos)),
            pv: vec![fallback],
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        let unlimited = limits.depth.is_none() && limits.movetime.is_none() && limits.nodes.is_none();
        let max_depth = match limits.depth {
            Some(d) => d.clamp(1, MAX_DEPTH),
            None if unlimited && stop.is_none() => DEFAULT_DEPTH,
            None => MAX_DEPTH,
        };
        for depth in 1..=max_depth {
            self.iteration = depth;
            self.root_best = None;
            let value = self.negamax(pos, depth as i32, -INF, INF, 0);
            if self.aborted {
                if let Some((mv, value, pv)) = self.root_best.take() {
                    result.best = Some(mv);
                    result.score = Score::from_value(value);
                    result.pv = pv;
                }
                break;
            }
            let pv: Vec<Move> = self.pv[..self.pv_len[0]].to_vec();
            if let Some(&first) = pv.first() {
                result.best = Some(first);
                result.pv = pv;
            }
            result.score = Score::from_value(value);
            result.depth = depth;
            // A mate within the horizon is proven: deeper iterations cannot change it.
            if value.abs() > MATE_BOUND && (MATE - value.abs()) as u32 <= depth {
                break;
            }
            // Half the time gone: the next iteration would not finish.
            if let Some(t) = limits.movetime {
                if started.elapsed() * 2 > t {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result.elapsed = started.elapsed();
        result
    }

    /// Nodes searched by the last (or current) search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The evaluation of `pos` for its side to move (paranoid with respect to the side to move at
    /// the root of the current search).
    fn evaluate(&self, pos: &Position<B>) -> i32 {
        self.eval.evaluate(self.game, pos, Some(self.root_team))
    }

    /// The party a side belongs to: the side itself with two sides, else whether it is of the
    /// root's team.
    #[inline(always)]
    fn party(&self, side: usize) -> usize {
        if self.game.sides == 2 {
            side
        } else {
            usize::from(self.game.team[side] == self.root_team)
        }
    }

    /// Whether the search must stop now (limits read every [`CHECK_EVERY`] nodes).
    #[inline]
    fn out_of_time(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        let nodes_done = self.node_limit.is_some_and(|n| self.nodes >= n);
        // Reading the clock costs more than a node: only now and then.
        let stopped = || {
            self.nodes.is_multiple_of(CHECK_EVERY)
                && (self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) || self.deadline.is_some_and(|d| Instant::now() >= d))
        };
        if nodes_done || stopped() {
            self.aborted = true;
        }
        self.aborted
    }

    /// A result the rules give for `side` (`outcome`), seen by the side to move `us`, at `ply`.
    fn outcome_value(&self, outcome: Outcome, side: usize, us: usize, ply: usize) -> i32 {
        let v = match outcome {
            Outcome::Draw => 0,
            Outcome::Win => MATE - ply as i32,
            Outcome::Loss => -(MATE - ply as i32),
        };
        if self.party(side) == self.party(us) {
            v
        } else {
            -v
        }
    }

    /// The game's end by a bare side, a goal or passing (`pass`, `facing`: a draw), if any.
    #[inline]
    fn bare_value(&self, pos: &Position<B>, ply: usize) -> Option<i32> {
        if pos.passing_ended() {
            return Some(self.outcome_value(Outcome::Draw, pos.to_move, pos.to_move, ply));
        }
        if self.game.goals {
            use crate::goals::Goal;
            match pos.goal(self.game) {
                Some(Goal::Reached { side } | Goal::Checks { side }) => return Some(self.outcome_value(Outcome::Win, side, pos.to_move, ply)),
                Some(Goal::Extinct { side, .. }) => return Some(self.outcome_value(Outcome::Loss, side, pos.to_move, ply)),
                None => {}
            }
        }
        let outcome = self.game.tables.rules.bare?;
        let side = pos.bare_side(self.game)?;
        Some(self.outcome_value(outcome, side, pos.to_move, ply))
    }

    /// The value of a position without legal moves: checkmate or stalemate.
    fn no_moves_value(&self, pos: &Position<B>, in_check: bool, ply: usize) -> i32 {
        if in_check {
            -(MATE - ply as i32)
        } else {
            self.outcome_value(self.game.tables.rules.stalemate, pos.to_move, pos.to_move, ply)
        }
    }

    fn fifty_moves(&self, pos: &Position<B>) -> bool {
        let limit = self.game.tables.rules.fifty_move;
        limit > 0 && pos.halfmove >= u32::from(limit)
    }

    /// Whether the position occurred before on the path or in the game since the last
    /// irreversible move.
    fn repeated(&self, pos: &Position<B>) -> bool {
        if self.game.tables.rules.repetition == 0 {
            return false;
        }
        let n = self.path.len();
        let back = (pos.halfmove as usize).min(n);
        self.path[n - back..].iter().rev().any(|&h| h == pos.hash)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let e = &self.tt[(key & self.tt_mask) as usize];
        if e[0] != key || e[2] & USED == 0 {
            return None;
        }
        Some(Entry {
            mv: e[1],
            score: e[2] as u32 as i32,
            depth: ((e[2] >> 32) & 0xff) as i32,
            bound: (e[2] >> 40) & 0xff,
        })
    }

    fn store(&mut self, key: u64, mv: u64, score: i32, depth: i32, bound: u64) {
        let e = &mut self.tt[(key & self.tt_mask) as usize];
        let old_depth = ((e[2] >> 32) & 0xff) as i32;
        if e[0] == key && e[2] & USED != 0 && old_depth > depth && bound != BOUND_EXACT {
            return;
        }
        let mv = if mv == NO_MOVE && e[0] == key { e[1] } else { mv };
        *e = [key, mv, u64::from(score as u32) | (depth.clamp(0, 255) as u64) << 32 | bound << 40 | USED];
    }

    /// Whether `mv` captures (or, for ordering and quiescence, promotes).
    #[inline]
    fn tactical(pos: &Position<B>, mv: Move) -> bool {
        mv.promotion != NO_PROMOTION || Self::captures(pos, mv)
    }

    #[inline]
    fn captures(pos: &Position<B>, mv: Move) -> bool {
        match mv.kind {
            MoveKind::Normal | MoveKind::EnPassantTarget => pos.board[mv.to as usize] != 0,
            MoveKind::EnPassant => true,
            _ => false,
        }
    }

    /// Whether a capture or promotion is worth searching in quiescence: not an under-promotion,
    /// not (delta pruning) a capture that cannot lift the score to `alpha` even with a margin,
    /// not a capture by a more valuable piece onto a cell the opponents defend (a cheap exchange
    /// test). Where taking the last piece wins (`bare`), every capture is searched.
    fn worth_at_horizon(&self, pos: &Position<B>, mv: Move, stand: i32, alpha: i32) -> bool {
        let game = self.game;
        let values = &self.eval.values;
        let code = pos.board[mv.from as usize];
        if code == 0 {
            return true;
        }
        let ck = code as usize - 1;
        let mut gain = 0;
        if mv.promotion != NO_PROMOTION {
            let best = game.promotion[ck]
                .as_ref()
                .and_then(|p| p.choices.iter().map(|&c| values[c as usize]).max())
                .unwrap_or(0);
            if values[mv.promotion as usize] < best {
                return false;
            }
            gain = values[mv.promotion as usize] - values[ck % game.kinds];
        }
        if !Self::captures(pos, mv) || game.tables.rules.bare.is_some() {
            return true;
        }
        let cell = if mv.kind == MoveKind::EnPassant { pos.ep_victim as usize } else { mv.to as usize };
        let mut victim = self.eval.value_of_code(game, pos.board[cell]);
        if game.stacks {
            victim += self.eval.value_of_code(game, pos.under[cell]);
        }
        if stand + victim + gain + DELTA_MARGIN < alpha {
            return false;
        }
        let attacker = values[ck % game.kinds];
        !(attacker > victim + gain && pos.attacked_by_enemy(game, mv.to as usize, pos.to_move))
    }

    /// The ordering key of `mv` (higher first).
    fn order(&self, pos: &Position<B>, mv: Move, tt: u64, ply: usize) -> i32 {
        if tt != NO_MOVE && pack(mv) == tt {
            return 1 << 30;
        }
        let game = self.game;
        if Self::tactical(pos, mv) {
            let victim_cell = if mv.kind == MoveKind::EnPassant { pos.ep_victim as usize } else { mv.to as usize };
            let mut victim = 0;
            if Self::captures(pos, mv) && victim_cell < game.cells {
                victim = self.eval.value_of_code(game, pos.board[victim_cell]);
                if game.stacks {
                    victim += self.eval.value_of_code(game, pos.under[victim_cell]);
                }
            }
            let attacker = self.eval.value_of_code(game, pos.board[mv.from as usize]);
            let gain = if mv.promotion != NO_PROMOTION { self.eval.values[mv.promotion as usize] - attacker } else { 0 };
            return (1 << 28) + (victim + gain).clamp(0, 60_000) * 4096 / 2 - attacker.clamp(0, 4000);
        }
        if self.killers[ply][0] == mv {
            return 1 << 27;
        }
        if self.killers[ply][1] == mv {
            return (1 << 27) - 1;
        }
        let code = pos.board[mv.from as usize];
        if code == 0 {
            return 0;
        }
        self.history[(code as usize - 1) * game.cells + mv.to as usize].min(1 << 26)
    }

    /// Moves the best remaining move (by `orders[ply]`) to index `i`.
    #[inline]
    fn pick(&mut self, moves: &mut [Move], ply: usize, i: usize) {
        let orders = &mut self.orders[ply];
        let mut best = i;
        for j in i + 1..moves.len() {
            if orders[j] > orders[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        orders.swap(i, best);
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply * STRIDE + ply] = mv;
        let end = self.pv_len[ply + 1].max(ply + 1);
        for j in ply + 1..end {
            self.pv[ply * STRIDE + j] = self.pv[(ply + 1) * STRIDE + j];
        }
        self.pv_len[ply] = end;
    }

    /// The child's value seen from the parent: negated with the window when the turn passes to
    /// the other party, kept when it stays within one (paranoid games of more than two teams).
    #[inline]
    fn child(&mut self, pos: &mut Position<B>, depth: i32, alpha: i32, beta: i32, ply: usize, flip: bool) -> i32 {
        match (flip, depth > 0) {
            (true, true) => -self.negamax(pos, depth, -beta, -alpha, ply),
            (false, true) => self.negamax(pos, depth, alpha, beta, ply),
            (true, false) => -self.quiesce_entry(pos, -beta, -alpha, ply),
            (false, false) => self.quiesce_entry(pos, alpha, beta, ply),
        }
    }

    /// Quiescence from the main search: the checks a node does before anything else.
    fn quiesce_entry(&mut self, pos: &mut Position<B>, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.repeated(pos) {
            return 0;
        }
        self.quiesce(pos, alpha, beta, ply)
    }

    fn negamax(&mut self, pos: &mut Position<B>, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.out_of_time() {
            return 0;
        }
        let game = self.game;
        let root = ply == 0;
        if !root {
            if let Some(v) = self.bare_value(pos, ply) {
                return v;
            }
            if self.repeated(pos) {
                return 0;
            }
            // No mate found further away can beat one already possible nearer the root.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let us = pos.to_move;
        let in_check = pos.in_check(game, us);
        if in_check && ply < 2 * self.iteration as usize + 4 {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        let pv_node = beta - alpha > 1;
        let key = pos.hash ^ self.salt;
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.probe(key) {
            tt_move = e.mv;
            if !root && !pv_node && e.depth >= depth {
                let s = from_table(e.score, ply);
                let cut = match e.bound {
                    BOUND_EXACT => true,
                    BOUND_LOWER => s >= beta,
                    BOUND_UPPER => s <= alpha,
                    _ => false,
                };
                if cut {
                    return s;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.legal_moves(game, &mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return self.no_moves_value(pos, in_check, ply);
        }
        if !root && self.fifty_moves(pos) {
            self.buffers[ply] = moves;
            return 0;
        }
        let mut orders = std::mem::take(&mut self.orders[ply]);
        orders.clear();
        orders.extend(moves.iter().map(|&m| self.order(pos, m, tt_move, ply)));
        self.orders[ply] = orders;

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        for i in 0..moves.len() {
            self.pick(&mut moves, ply, i);
            let mv = moves[i];
            let quiet = !Self::tactical(pos, mv);
            let code = pos.board[mv.from as usize];
            self.path.push(pos.hash);
            let undo = pos.make(game, mv);
            let flip = self.party(us) != self.party(pos.to_move);
            let score = if i == 0 {
                self.child(pos, depth - 1, alpha, beta, ply + 1, flip)
            } else {
                let s = self.child(pos, depth - 1, alpha, alpha + 1, ply + 1, flip);
                if s > alpha && s < beta && !self.aborted {
                    self.child(pos, depth - 1, alpha, beta, ply + 1, flip)
                } else {
                    s
                }
            };
            pos.unmake(game, &undo);
            self.path.pop();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = pack(mv);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if root {
                        self.root_best = Some((mv, score, self.pv[..self.pv_len[0]].to_vec()));
                    }
                    if score >= beta {
                        if quiet {
                            if self.killers[ply][0] != mv {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = mv;
                            }
                            if code != 0 {
                                let h = &mut self.history[(code as usize - 1) * game.cells + mv.to as usize];
                                *h += depth * depth;
                                if *h > 1 << 24 {
                                    self.history.iter_mut().for_each(|h| *h /= 2);
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        if self.aborted {
            return 0;
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else if best > original_alpha {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        self.store(key, best_move, to_table(best, ply), depth, bound);
        best
    }

    fn quiesce(&mut self, pos: &mut Position<B>, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.out_of_time() {
            return 0;
        }
        self.nodes += 1;
        if let Some(v) = self.bare_value(pos, ply) {
            return v;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        let game = self.game;
        let us = pos.to_move;
        let in_check = pos.in_check(game, us);
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        pos.legal_moves(game, &mut moves);
        if moves.is_empty() {
            self.buffers[ply] = moves;
            return self.no_moves_value(pos, in_check, ply);
        }
        if self.fifty_moves(pos) {
            self.buffers[ply] = moves;
            return 0;
        }
        let mut best = -INF;
        if !in_check {
            let stand = self.evaluate(pos);
            if stand >= beta {
                self.buffers[ply] = moves;
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
            moves.retain(|&m| Self::tactical(pos, m) && self.worth_at_horizon(pos, m, stand, alpha));
        }
        let mut orders = std::mem::take(&mut self.orders[ply]);
        orders.clear();
        orders.extend(moves.iter().map(|&m| self.order(pos, m, NO_MOVE, ply)));
        self.orders[ply] = orders;
        for i in 0..moves.len() {
            self.pick(&mut moves, ply, i);
            let mv = moves[i];
            let undo = pos.make(game, mv);
            let flip = self.party(us) != self.party(pos.to_move);
            let score = if flip {
                -self.quiesce(pos, -beta, -alpha, ply + 1)
            } else {
                self.quiesce(pos, alpha, beta, ply + 1)
            };
            pos.unmake(game, &undo);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        if self.aborted {
            return 0;
        }
        best
    }
}

/// A value as the table keeps it: mates counted from this node, not from the root.
fn to_table(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v + ply as i32
    } else if v < -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

fn from_table(v: i32, ply: usize) -> i32 {
    if v > MATE_BOUND {
        v - ply as i32
    } else if v < -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
