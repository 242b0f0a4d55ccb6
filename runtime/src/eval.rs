//! The search's evaluation ([`Evaluator`]), derived from the tables with no code per variant:
//! - material: each kind's value comes from its mobility. For each cell, the destinations its
//!   rays reach on an empty board are counted, a destination `i` cells along a slide (or behind
//!   `i` cells that must be empty) weighted `0.7^i` (the chance that the cells before it are empty
//!   when each cell is occupied with probability 0.3), a destination only moved to or only
//!   captured on weighted one half, an `initial` one a further half; a destination reached several
//!   ways counts once, at its best weight. `m` is the mean of that count over all cells and
//!   sides, and the value is `max(100, round(70 * (m - 1)))` centipawns. On the orthodox board
//!   this gives Pawn 100 (the minimum: a pawn only steps forward and only captures diagonally),
//!   Knight 298, Bishop 345, Rook 497, Queen 912. The discount for distance is what makes a
//!   Bishop worth about a Knight: counted plainly, it reaches two thirds more cells. Royal kinds
//!   have no material value (they are never captured); a crowned kind is worth its carrier;
//!   pieces hidden in stacks and in the hand count at their kind's value.
//! - position: a piece gets `5 * (w - m)` centipawns where `w` is its weighted mobility on its cell
//!   (a cheap approximation of the count of its moves, read from a table instead of generating
//!   them at every leaf: centralisation as the board's geometry defines it, which on a sphere is
//!   almost flat); a piece that promotes gets `gain * 0.12 / 2^(d - 1)`
//!   where `d` is the number of its own moves to its promotion zone on an empty board and `gain`
//!   the value of its best promotion over its own.
//! - royal pieces: `10 * (w - m)` for centralisation, scaled by how much of the opponents'
//!   material is gone (an endgame king belongs in the centre, and a lone king driven to the edge
//!   is nearer to mate), and `-8` per cell one move away from it that an opponent attacks, scaled
//!   by how much of the opponents' material is left.
//!

use crate::bits::CellSet;
use crate::game::Game;
use crate::position::Position;
use crate::search::EVAL_LIMIT;
use crate::tables::ray;

/// Weight of a destination one cell further along a slide (the chance a cell is empty).
const KEEP: f64 = 0.7;
/// Centipawns per unit of weighted mobility above one.
const VALUE_SLOPE: f64 = 70.0;
/// The least value of a kind that is not royal.
const MIN_VALUE: i32 = 100;
const CENTRE_WEIGHT: f64 = 5.0;
const ROYAL_CENTRE_WEIGHT: f64 = 10.0;
const ROYAL_SAFETY: i32 = 8;
/// Share of a promotion's gain a piece one move from its zone gets; halved per move further.
const ADVANCE_SHARE: f64 = 0.12;

/// The evaluation tables of a game, derived once from its rays.
#[derive(Clone, Debug)]
pub struct Evaluator<B> {
    /// Per kind: its material value in centipawns.
    pub values: Vec<i32>,
    /// Per kind: its mean weighted mobility `m` (the mean over sides).
    pub mobility: Vec<f64>,
    /// Per `ck * cells + cell`: the positional bonus of a piece that is not royal.
    place: Vec<i32>,
    /// Per `ck * cells + cell`: the centralisation of a royal piece, at the full endgame weight.
    royal_place: Vec<i32>,
    /// Per `ck * cells + cell` (royal kinds only, else empty sets): the cells one move away.
    near: Vec<B>,
    /// Per side: its royal colored kinds.
    royal_cks: Vec<Vec<usize>>,
    /// Per side: the material of its opponents at the start (at least 1).
    start_opponents: Vec<i32>,
    cells: usize,
}

impl<B: CellSet> Evaluator<B> {
    pub fn new(game: &Game<B>) -> Evaluator<B> {
        let (cells, kinds, sides) = (game.cells, game.kinds, game.sides);
        let standing: Vec<usize> = (0..cells).filter(|&c| !game.is_transit(c)).collect();
        let mut weight = vec![0f64; cells];
        let mut reach = vec![0f64; sides * kinds * cells];
        let mut mobility = vec![0f64; kinds];
        for ck in 0..sides * kinds {
            let mut sum = 0.0;
            for &c in &standing {
                let w = weighted_reach(game, ck, c, &mut weight);
                reach[ck * cells + c] = w;
                sum += w;
            }
            mobility[ck % kinds] += sum / standing.len().max(1) as f64 / sides as f64;
        }
        let kind_info = &game.tables.kinds;
        let mut values: Vec<i32> = (0..kinds)
            .map(|k| {
                if kind_info[k].royal {
                    0
                } else {
                    ((VALUE_SLOPE * (mobility[k] - 1.0)).round() as i32).max(MIN_VALUE)
                }
            })
            .collect();
        // A crowned kind is worth its carrier (whose value is computed above: carriers are never
        // crowned kinds themselves).
        for k in 0..kinds {
            if let Some((carrier, _)) = kind_info[k].crowned {
                let carrier = carrier as usize;
                values[k] = if kind_info[carrier].royal {
                    0
                } else {
                    ((VALUE_SLOPE * (mobility[carrier] - 1.0)).round() as i32).max(MIN_VALUE)
                };
            }
        }
        let mut place = vec![0i32; sides * kinds * cells];
        let mut royal_place = vec![0i32; sides * kinds * cells];
        let mut near = vec![B::default(); sides * kinds * cells];
        let mut royal_cks = vec![Vec::new(); sides];
        for ck in 0..sides * kinds {
            let (side, k) = (ck / kinds, ck % kinds);
            let royal = game.royal[ck];
            if royal {
                royal_cks[side].push(ck);
            }
            // The mean of this colored kind (sides may differ).
            let mean = standing.iter().map(|&c| reach[ck * cells + c]).sum::<f64>() / standing.len().max(1) as f64;
            let advance = if royal { None } else { promotion_distance(game, ck) };
            let gain = game.promotion[ck]
                .as_ref()
                .map_or(0, |p| p.choices.iter().map(|&c| values[c as usize] - values[k]).max().unwrap_or(0).max(0));
            for &c in &standing {
                let i = ck * cells + c;
                let central = reach[i] - mean;
                if royal {
                    royal_place[i] = (ROYAL_CENTRE_WEIGHT * central).round() as i32;
                    near[i] = one_move(game, ck, c);
                } else {
                    let mut bonus = (CENTRE_WEIGHT * central).round() as i32;
                    if let Some(d) = advance.as_ref().map(|d| d[c]) {
                        if (1..=16).contains(&d) {
                            bonus += (gain as f64 * ADVANCE_SHARE / f64::from(1u32 << (d - 1))).round() as i32;
                        }
                    }
                    place[i] = bonus;
                }
            }
        }
        let mut material = vec![0i32; sides];
        for (s, side) in game.tables.sides.iter().enumerate() {
            // `atop` pieces stand on setup pieces: both count.
            for &(_, k) in side.setup.iter().chain(&side.atop) {
                material[s] += values[k as usize];
            }
            for &k in &side.hand {
                material[s] += values[k as usize];
            }
        }
        let start_opponents = (0..sides)
            .map(|s| game.opponents[s].iter().map(|&o| material[o]).sum::<i32>().max(1))
            .collect();
        Evaluator { values, mobility, place, royal_place, near, royal_cks, start_opponents, cells }
    }

    /// The value of a colored kind (for move ordering).
    #[inline(always)]
    pub(crate) fn value_of_code(&self, game: &Game<B>, code: u8) -> i32 {
        if code == 0 {
            0
        } else {
            self.values[(code as usize - 1) % game.kinds]
        }
    }

    /// Each side's material (board, stacks and hand) and its positional terms, apart from those
    /// that depend on the opponents' material.
    fn side_terms(&self, game: &Game<B>, pos: &Position<B>, side: usize) -> (i32, i32) {
        let kinds = game.kinds;
        let (mut material, mut positional) = (0i32, 0i32);
        for k in 0..kinds {
            let ck = side * kinds + k;
            let set = pos.by_ck[ck];
            if set.is_empty() {
                continue;
            }
            material += self.values[k] * set.count() as i32;
            if !game.royal[ck] {
                for c in set.iter() {
                    positional += self.place[ck * self.cells + c];
                }
            }
        }
        if game.stacks {
            for c in pos.stacked.and(pos.by_side[side]).iter() {
                material += self.value_of_code(game, pos.under[c]);
            }
            for k in 0..kinds {
                material += self.values[k] * i32::from(pos.hand[side * kinds + k]);
            }
        }
        (material, positional)
    }

    /// Per side still in the game: its total score (0 for sides that are out).
    fn side_scores(&self, game: &Game<B>, pos: &Position<B>, scores: &mut [i32]) {
        let sides = game.sides;
        let mut material = [0i32; 64];
        let mut positional = [0i32; 64];
        for s in 0..sides {
            if !pos.is_out(s) {
                (material[s], positional[s]) = self.side_terms(game, pos, s);
            }
        }
        for s in 0..sides {
            scores[s] = 0;
            if pos.is_out(s) {
                continue;
            }
            let start = self.start_opponents[s];
            let left: i32 = game.opponents[s].iter().map(|&o| material[o]).sum::<i32>().clamp(0, start);
            let mut royal = 0i32;
            for &ck in &self.royal_cks[s] {
                for c in pos.by_ck[ck].iter() {
                    let i = ck * self.cells + c;
                    royal += self.royal_place[i] * (start - left) / start;
                    let attacked = self.near[i].iter().filter(|&n| pos.attacked_by_enemy(game, n, s)).count() as i32;
                    royal -= ROYAL_SAFETY * attacked * left / start;
                }
            }
            scores[s] = material[s] + positional[s] + royal;
        }
    }

    /// The evaluation for the side to move, in the paranoid reading of games of more than two
    /// teams when `root_team` is given: the root team's score minus all other teams', negated
    /// when the side to move is not of the root team. Without `root_team`, the side to move's team
    /// against the rest.
    pub fn evaluate(&self, game: &Game<B>, pos: &Position<B>, root_team: Option<usize>) -> i32 {
        let mut scores = [0i32; 64];
        self.side_scores(game, pos, &mut scores);
        let us = pos.to_move;
        let v = if game.sides == 2 {
            scores[us] - scores[1 - us]
        } else {
            let team = root_team.unwrap_or(game.team[us]);
            let mut total = 0;
            for (s, &score) in scores.iter().enumerate().take(game.sides) {
                if game.team[s] == team {
                    total += score;
                } else {
                    total -= score;
                }
            }
            if game.team[us] == team {
                total
            } else {
                -total
            }
        };
        v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// The weighted number of destinations of colored kind `ck` on `cell` on an empty board
/// (see the module documentation). `weight` is scratch space, one entry per cell.
fn weighted_reach<B: CellSet>(game: &Game<B>, ck: usize, cell: usize, weight: &mut [f64]) -> f64 {
    let mut touched: Vec<usize> = Vec::new();
    let mut mark = |c: usize, w: f64, weight: &mut [f64]| {
        if c == cell || game.is_transit(c) {
            return;
        }
        if weight[c] == 0.0 {
            touched.push(c);
        }
        if w > weight[c] {
            weight[c] = w;
        }
    };
    let share = |flags: u8| {
        let captures = flags & (ray::CAPTURE | ray::EP_CAPTURE) != 0;
        let mut f = if flags & ray::QUIET != 0 && captures { 1.0 } else { 0.5 };
        if flags & ray::INITIAL != 0 {
            f *= 0.5;
        }
        f
    };
    for (ri, r) in game.rays_indexed(ck, cell) {
        // (From the tables' list: a set may not hold a transit cell passed, `Game::passed`.)
        let passed = (game.passed(ri).count() as i32).min(64);
        let base = share(r.flags) * KEEP.powi(passed);
        let cells = game.cells_of(r.cells);
        if r.flags & ray::SLIDE != 0 {
            for (i, &c) in cells.iter().enumerate() {
                mark(c as usize, base * KEEP.powi(i.min(64) as i32), weight);
            }
        } else if let Some(&c) = cells.first() {
            mark(c as usize, base, weight);
        }
    }
    // Hops (and `takes` slides) along their lines, as slides: a hop's cells beyond the first
    // count as reached past one cell (its screen must stand somewhere before them).
    for h in &game.hoppers[ck] {
        let flags = h.flags & (ray::QUIET | ray::CAPTURE);
        let screen = usize::from(h.flags & crate::tables::hop::SCREEN != 0);
        for line in &h.lines[cell] {
            for (i, &c) in line.iter().enumerate().skip(screen) {
                if h.onto.has(c as usize) {
                    mark(c as usize, share(flags) * KEEP.powi(i.min(64) as i32), weight);
                }
            }
        }
    }
    for w in &game.winders[ck] {
        if !w.zone.has(cell) {
            continue;
        }
        let base = share(w.flags);
        let mut reached = B::single(cell);
        let mut frontier = reached;
        let mut distance = 0;
        while !frontier.is_empty() {
            let mut next = B::default();
            for c in frontier.iter() {
                next = next.or(w.next[c]);
            }
            frontier = next.and_not(reached);
            reached = reached.or(frontier);
            for c in frontier.iter() {
                mark(c, base * KEEP.powi(distance.min(64)), weight);
            }
            distance += 1;
        }
    }
    let mut sum = 0.0;
    for c in touched {
        sum += weight[c];
        weight[c] = 0.0;
    }
    sum
}

/// The cells a piece of `ck` on `cell` could move to in one move on an empty board.
fn one_move<B: CellSet>(game: &Game<B>, ck: usize, cell: usize) -> B {
    let mut set = B::default();
    for r in game.rays_of(ck, cell) {
        if let Some(&c) = game.cells_of(r.cells).first() {
            set.insert(c as usize);
        }
    }
    set.remove(cell);
    set.and_not(game.transit)
}

/// Per cell: the fewest moves (not `initial` ones) a piece of `ck` needs to reach its promotion
/// zone on an empty board (0 in the zone, `u32::MAX` where it cannot); `None` without promotion.
fn promotion_distance<B: CellSet>(game: &Game<B>, ck: usize) -> Option<Vec<u32>> {
    let zone = game.promotion[ck].as_ref()?.zone;
    let cells = game.cells;
    // Reverse edges: for each destination, the cells a move reaches it from.
    let mut from: Vec<Vec<u16>> = vec![Vec::new(); cells];
    for c in 0..cells {
        for r in game.rays_of(ck, c) {
            if r.flags & ray::INITIAL != 0 {
                continue;
            }
            let dest = game.cells_of(r.cells);
            let dest = if r.flags & ray::SLIDE != 0 { dest } else { &dest[..dest.len().min(1)] };
            for &d in dest {
                if d as usize != c {
                    from[d as usize].push(c as u16);
                }
            }
        }
    }
    let mut distance = vec![u32::MAX; cells];
    let mut queue: std::collections::VecDeque<usize> = zone.iter().collect();
    for c in zone.iter() {
        distance[c] = 0;
    }
    while let Some(c) = queue.pop_front() {
        for &p in &from[c] {
            let p = p as usize;
            if distance[p] == u32::MAX {
                distance[p] = distance[c] + 1;
                queue.push_back(p);
            }
        }
    }
    Some(distance)
}
