//! Lowering: the checked model to the runtime's tables.
//!
//! Here the geometry is walked once, on an empty board: every rule of every piece, from every cell,
//! for every side, becomes rays (cells that must be empty, then destinations in order). The rays are
//! then inverted into attack structures per target cell: direct attackers as cell sets per colored
//! kind, and lines out from the target (a trie of reversed paths, flattened root to leaf) with the
//! colored kinds that attack from each cell. Nothing here can fail: the model is already checked.

use crate::model::{Board, CellId, Dirs, Geometry, HeadingId, Kind, Mode, Piece, Variant};
use orbis_runtime::tables::{self, ray, Attack, CastleInfo, GridInfo, KindInfo, PromotionInfo, RulesInfo, SideInfo, Tables, NO_CELL};
use std::collections::BTreeMap;
// Walks hash small keys millions of times on large boards: FxHash, not SipHash (no untrusted keys).
use rustc_hash::FxHashSet as HashSet;
use rustc_hash::FxHashMap as HashMap;

/// A ray on the empty board, before it is pooled.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct PathRay {
    pub flags: u8,
    pub heading: HeadingId,
    pub must_empty: Vec<CellId>,
    pub cells: Vec<CellId>,
}

/// Walks a slide from `(cell, heading)`: the cells in order, and whether it came back to `origin`.
/// It stops at the board's edge, at the origin, when a (cell, heading) state repeats (a slide
/// may never be endless), or on a cell where going straight on would give a heading of a kind not
/// in `kinds` (the kinds its rule names).
///
/// `bend` (a `bending` cycle, empty for straight on) turns the heading at every cell after the
/// first step, by its amounts in turn: the kind test applies to the heading it leaves with.
#[allow(clippy::too_many_arguments)]
fn slide(
    board: &Board,
    geo: &Geometry,
    avoid: &Avoid,
    kinds: u8,
    origin: CellId,
    cell: CellId,
    heading: HeadingId,
    bend: &[i32],
) -> (Vec<(CellId, HeadingId)>, bool) {
    let mut out = Vec::new();
    let mut seen = HashSet::default();
    let mut step = 0usize;
    // Headings of no kind (a pole's spokes) never end a slide, and a slide that starts on one
    // keeps to no kind.
    let lines = Kind::Orthogonal.bit() | Kind::Diagonal.bit();
    let keep = if kinds & lines == 0 { u8::MAX } else { kinds | Kind::Other.bit() };
    let (mut c, mut h) = (cell, heading);
    while let Some((n, nh)) = avoid.step(geo, c, h) {
        if n == origin {
            return (out, true);
        }
        let next = if bend.is_empty() {
            nh
        } else {
            board.rotate_at(n, nh, bend[step % bend.len()])
        };
        if board.headings[next].kind.bit() & keep == 0 {
            // Straight on turned it into another kind of line (a rook's line into a diagonal at
            // a vertex of the cube): the slide ends on this cell.
            out.push((n, nh));
            break;
        }
        if !seen.insert((
            n,
            next,
            if bend.is_empty() {
                0
            } else {
                step % bend.len()
            },
        )) {
            break;
        }
        out.push((n, nh));
        c = n;
        h = next;
        step += 1;
    }
    (out, false)
}

/// How much one rule may expand from one cell for one side: each leg followed from a cell counts
/// one, and each ray given counts its cells. The paths of a rule that does not leap are separate
/// moves (the cells each passes must be empty), so rules whose legs multiply (several slide legs)
/// grow exponentially; the frontend refuses them with a located error ([`expansion_limit`]), so
/// lowering never meets one. A queen on a 512-cell torus counts about 4,000 (docs/limits.md).
pub const MAX_RULE_EXPANSION: usize = 16_384;

/// How much all rules together may expand (over every side and cell): about the cells the tables
/// hold, two bytes each.
pub const MAX_EXPANSION: usize = 32_000_000;

/// A rule's expansion went past its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

/// Where [`expansion_limit`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    /// Rule `rule` of piece `piece` expands past [`MAX_RULE_EXPANSION`] for `side` from `origin`.
    Rule { piece: usize, rule: usize, side: usize, origin: CellId },
    /// All rules together pass [`MAX_EXPANSION`].
    Total,
}

/// All rays of one rule of `piece` for `side` on `origin`.
pub fn rule_rays(v: &Variant, side: usize, piece: &Piece, rule: &crate::model::MoveRule, origin: CellId) -> Vec<PathRay> {
    // Checked variants passed `expansion_limit`, so the budget is never exhausted here.
    let mut budget = usize::MAX;
    rule_rays_within(v, side, piece, rule, origin, &mut budget).unwrap_or_default()
}

/// As [`rule_rays`], taking one unit of `budget` per step of the expansion.
pub fn rule_rays_within(
    v: &Variant,
    side: usize,
    piece: &Piece,
    rule: &crate::model::MoveRule,
    origin: CellId,
    budget: &mut usize,
) -> Result<Vec<PathRay>, TooLarge> {
    let geo = v.board.geometry(piece);
    let mut flags = match rule.mode {
        Mode::Both => ray::QUIET | ray::CAPTURE,
        Mode::MoveOnly => ray::QUIET,
        Mode::CaptureOnly => ray::CAPTURE,
    };
    if rule.initial {
        flags |= ray::INITIAL;
    }
    if rule.en_passant_target {
        flags |= ray::EP_TARGET;
    }
    if rule.en_passant {
        flags |= ray::EP_CAPTURE;
    }
    if rule.across_transit {
        flags |= ray::PASS_UNATTACKED;
    }
    if rule.origins.as_ref().is_some_and(|o| !o[side].contains(&origin)) {
        return Ok(Vec::new());
    }
    if rule.wind.is_some() || rule.hop.is_some() || rule.takes.is_some() {
        // Winding is flooded by the runtime over `Tables::winders`, hops and `takes` are walked
        // over `Tables::hoppers`: they have no rays.
        return Ok(Vec::new());
    }
    let onto = rule.onto.as_ref().map(|o| &o[side]);
    if let Some((steps, by)) = &rule.distance {
        return distance_rays(v, &geo, flags, origin, *steps, by, onto, budget);
    }
    let starts: Vec<HeadingId> = match &rule.first {
        Dirs::Headings(hs) => hs.clone(),
        Dirs::Side { direction, turns } => {
            let mut out = Vec::new();
            for &h in &v.sides[side].directions[*direction][origin] {
                for &t in turns {
                    let r = v.board.rotate_at(origin, h, t);
                    if !out.contains(&r) {
                        out.push(r);
                    }
                }
            }
            out
        }
    };
    // Legs as (slides, turns, avoid); the first leg's turns are applied already through `starts`.
    let mut legs = vec![Leg {
        slides: rule.first_slides,
        turns: vec![0],
        avoid: Avoid {
            seams: rule.first_avoid,
            cells: &rule.first_avoid_cells,
        },
        bends: bend_cycles(&rule.first_bending),
    }];
    legs.extend(rule.legs.iter().map(|l| Leg {
        slides: l.slides,
        turns: l.turns.clone(),
        avoid: Avoid {
            seams: l.avoid,
            cells: &l.avoid_cells,
        },
        bends: bend_cycles(&l.bending),
    }));
    if rule.ride {
        let mut out = ride_rays(&v.board, &geo, flags, origin, &starts, &legs, budget)?;
        if let Some(onto) = onto {
            out = only_onto(out, onto);
        }
        return Ok(out);
    }
    // A leap's rays do not depend on the cells passed, so it is walked by its reachable
    // (leg, cell, heading) states, each once, instead of by its paths.
    let by_state = rule.leap && flags & ray::PASS_UNATTACKED == 0;
    let first_kinds = starts.iter().fold(0, |k, &h| k | v.board.headings[h].kind.bit());
    let mut walk = Walk {
        board: &v.board,
        geo: &geo,
        leap: rule.leap,
        flags,
        origin,
        legs: &legs,
        by_state,
        first_kinds,
        visited: HashSet::default(),
        found: HashSet::default(),
        budget,
        out: Vec::new(),
    };
    for h0 in starts {
        walk.visited.clear();
        walk.expand(h0, 0, origin, h0, &mut Vec::new())?;
    }
    let mut out = walk.out;
    if let Some(onto) = onto {
        out = only_onto(out, onto);
    }
    if rule.across_transit {
        // Only paths whose every passed cell is a transit cell (and that pass at least one).
        out.retain(|r| !r.must_empty.is_empty() && r.must_empty.iter().all(|&c| v.board.cells[c].transit));
    }
    Ok(out)
}

/// Whether every rule expands within [`MAX_RULE_EXPANSION`] from every cell, and all of them
/// within [`MAX_EXPANSION`]; each over-large rule is found after at most its budget of work.
pub fn expansion_limit(v: &Variant) -> Option<Overflow> {
    let mut total = 0usize;
    for (piece_id, piece) in v.pieces.iter().enumerate() {
        for (rule_id, rule) in piece.rules.iter().enumerate() {
            // A rule the same for every side costs each side what it costs the first.
            let (sides, times) = if rule.same_for_every_side() { (1, v.sides.len()) } else { (v.sides.len(), 1) };
            for side in 0..sides {
                for origin in 0..v.board.cells.len() {
                    let mut budget = MAX_RULE_EXPANSION;
                    if rule_rays_within(v, side, piece, rule, origin, &mut budget).is_err() {
                        return Some(Overflow::Rule { piece: piece_id, rule: rule_id, side, origin });
                    }
                    total += (MAX_RULE_EXPANSION - budget) * times;
                    if total > MAX_EXPANSION {
                        return Some(Overflow::Total);
                    }
                }
            }
        }
    }
    None
}

struct Leg<'a> {
    slides: bool,
    turns: Vec<i32>,
    avoid: Avoid<'a>,
    /// The concrete `bending` cycles (every combination of the alternatives); `[[]]` when the
    /// slide goes straight on.
    bends: Vec<Vec<i32>>,
}

/// Every combination of a `bending` list's alternatives (`+-2 -2` gives `[2, -2]` and
/// `[-2, -2]`); one empty cycle for no bending.
fn bend_cycles(bending: &[Vec<i32>]) -> Vec<Vec<i32>> {
    let mut out: Vec<Vec<i32>> = vec![Vec::new()];
    for alternatives in bending {
        out = out
            .iter()
            .flat_map(|c| {
                alternatives
                    .iter()
                    .map(move |&a| [c.as_slice(), &[a]].concat())
            })
            .collect();
    }
    out
}

/// A `ride` rule: for each first heading and each choice of every later leg's turn, the path
/// repeated, each repetition starting with the heading it arrived with turned back by the
/// path's own turns (so on a grid it keeps its direction: the nightrider's (1, 2) leaps). The
/// landing cells form one sliding ray; the cells within a repetition are leapt. It stops at the
/// board's edge, at the origin (a closed line) and when a landing (cell, heading) repeats.
fn ride_rays(
    board: &Board,
    geo: &Geometry,
    flags: u8,
    origin: CellId,
    starts: &[HeadingId],
    legs: &[Leg],
    budget: &mut usize,
) -> Result<Vec<PathRay>, TooLarge> {
    // Every combination of the later legs' turns.
    let mut combos: Vec<Vec<i32>> = vec![Vec::new()];
    for leg in &legs[1..] {
        combos = combos.iter().flat_map(|c| leg.turns.iter().map(move |&t| [c.as_slice(), &[t]].concat())).collect();
    }
    let mut out = Vec::new();
    for &h0 in starts {
        for combo in &combos {
            let back = -combo.iter().sum::<i32>();
            let (mut cell, mut heading) = (origin, h0);
            let mut cells = Vec::new();
            let mut seen = HashSet::default();
            let mut returns = false;
            'repeat: loop {
                let (mut c, mut h) = (cell, heading);
                for (i, leg) in legs.iter().enumerate() {
                    *budget = budget.checked_sub(1).ok_or(TooLarge)?;
                    let turned = if i == 0 { h } else { board.rotate_at(c, h, combo[i - 1]) };
                    match leg.avoid.step(geo, c, turned) {
                        Some(next) => (c, h) = next,
                        None => break 'repeat,
                    }
                }
                if c == origin {
                    returns = true;
                    break;
                }
                if !seen.insert((c, h)) {
                    break;
                }
                cells.push(c);
                (cell, heading) = (c, board.rotate_at(c, h, back));
            }
            if !cells.is_empty() {
                let mut f = flags | ray::SLIDE;
                if returns {
                    f |= ray::RETURNS;
                }
                *budget = budget.checked_sub(cells.len()).ok_or(TooLarge)?;
                out.push(PathRay { flags: f, heading: h0, must_empty: Vec::new(), cells });
            }
        }
    }
    Ok(out)
}

/// A `distance N by GROUP` rule: a leap to every cell exactly `steps` steps away (the fewest
/// steps along `by`), in the order the cells are found.
#[allow(clippy::too_many_arguments)]
fn distance_rays(
    v: &Variant,
    geo: &Geometry,
    flags: u8,
    origin: CellId,
    steps: u32,
    by: &[HeadingId],
    onto: Option<&Vec<CellId>>,
    budget: &mut usize,
) -> Result<Vec<PathRay>, TooLarge> {
    let mut dist: Vec<Option<u32>> = vec![None; v.board.cells.len()];
    dist[origin] = Some(0);
    let mut frontier = vec![origin];
    for d in 1..=steps {
        let mut next = Vec::new();
        for &c in &frontier {
            for &h in by {
                *budget = budget.checked_sub(1).ok_or(TooLarge)?;
                if let Some((t, _)) = geo.step(c, h, 0) {
                    if dist[t].is_none() {
                        dist[t] = Some(d);
                        next.push(t);
                    }
                }
            }
        }
        frontier = next;
    }
    Ok(frontier
        .into_iter()
        .filter(|c| onto.is_none_or(|o| o.contains(c)))
        .map(|c| PathRay {
            flags,
            heading: 0,
            must_empty: Vec::new(),
            cells: vec![c],
        })
        .collect())
}

/// Rays that end only on `onto`: a slide becomes one ray per allowed destination, the cells
/// before it to be passed (empty).
fn only_onto(rays: Vec<PathRay>, onto: &[CellId]) -> Vec<PathRay> {
    let mut out = Vec::new();
    for r in rays {
        if r.flags & ray::SLIDE == 0 {
            if onto.contains(&r.cells[0]) {
                out.push(r);
            }
            continue;
        }
        for (i, &c) in r.cells.iter().enumerate() {
            if onto.contains(&c) {
                let mut must_empty = r.must_empty.clone();
                must_empty.extend_from_slice(&r.cells[..i]);
                let flags = r.flags & !(ray::SLIDE | ray::RETURNS);
                out.push(PathRay {
                    flags,
                    heading: r.heading,
                    must_empty,
                    cells: vec![c],
                });
            }
        }
    }
    out
}

/// What a leg may not do: cross these seams (a bit mask) or enter these cells (sorted).
struct Avoid<'a> {
    seams: u32,
    cells: &'a [CellId],
}

impl Avoid<'_> {
    /// One step, unless it crosses an avoided seam or enters an avoided cell.
    fn step(&self, geo: &Geometry, cell: CellId, heading: HeadingId) -> Option<(CellId, HeadingId)> {
        geo.step(cell, heading, self.seams).filter(|(c, _)| self.cells.binary_search(c).is_err())
    }
}

/// One rule being walked from one origin.
struct Walk<'a> {
    board: &'a Board,
    geo: &'a Geometry<'a>,
    leap: bool,
    flags: u8,
    origin: CellId,
    legs: &'a [Leg<'a>],
    /// Walk states once each (leaps): `visited` holds (leg, cell, heading) for the current first
    /// heading, and `found` the rays already given.
    by_state: bool,
    /// The kinds of the first leg's headings: its slides keep to them (a later leg's slide keeps
    /// to the kind it starts with).
    first_kinds: u8,
    visited: HashSet<(usize, CellId, HeadingId)>,
    found: HashSet<PathRay>,
    budget: &'a mut usize,
    out: Vec<PathRay>,
}

impl Walk<'_> {
    fn emit(&mut self, r: PathRay) -> Result<(), TooLarge> {
        *self.budget = self.budget.checked_sub(r.must_empty.len() + r.cells.len()).ok_or(TooLarge)?;
        if !self.by_state || self.found.insert(r.clone()) {
            self.out.push(r);
        }
        Ok(())
    }

    /// Follows leg `leg` from `(cell, heading)`; `passed` holds the cells passed so far.
    fn expand(&mut self, h0: HeadingId, leg: usize, cell: CellId, heading: HeadingId, passed: &mut Vec<CellId>) -> Result<(), TooLarge> {
        if self.by_state && !self.visited.insert((leg, cell, heading)) {
            return Ok(());
        }
        *self.budget = self.budget.checked_sub(1).ok_or(TooLarge)?;
        let legs = self.legs;
        let Leg {
            slides,
            turns,
            avoid,
            bends,
        } = &legs[leg];
        let last = leg + 1 == legs.len();
        // `across-transit` keeps the passed cells even on a leap: they are checked for attacks.
        let keeps_passed = !(self.leap && self.flags & ray::PASS_UNATTACKED == 0);
        let must_empty = |passed: &Vec<CellId>| if keeps_passed { passed.clone() } else { Vec::new() };
        for &t in turns {
            let h = if leg == 0 { heading } else { self.board.rotate_at(cell, heading, t) };
            if *slides {
                let kinds = if leg == 0 {
                    self.first_kinds
                } else {
                    self.board.headings[h].kind.bit()
                };
                for bend in bends {
                    let (cells, returns) = slide(
                        self.board,
                        self.geo,
                        avoid,
                        kinds,
                        self.origin,
                        cell,
                        h,
                        bend,
                    );
                    if last {
                        if !cells.is_empty() {
                            let mut f = self.flags | ray::SLIDE;
                            if returns {
                                f |= ray::RETURNS;
                            }
                            self.emit(PathRay {
                                flags: f,
                                heading: h0,
                                must_empty: must_empty(passed),
                                cells: cells.iter().map(|c| c.0).collect(),
                            })?;
                        }
                    } else {
                        let depth = passed.len();
                        for &(c, nh) in &cells {
                            self.expand(h0, leg + 1, c, nh, passed)?;
                            passed.push(c);
                        }
                        passed.truncate(depth);
                    }
                }
            } else if let Some((c, nh)) = avoid.step(self.geo, cell, h) {
                if last {
                    // A path that ends on its own start is no move.
                    if c != self.origin {
                        self.emit(PathRay { flags: self.flags, heading: h0, must_empty: must_empty(passed), cells: vec![c] })?;
                    }
                } else if c == self.origin {
                    // A path may pass its own start (a step off a pole that comes back onto it, then
                    // on): the cell is empty once the piece has left it, so it is not `passed`.
                    self.expand(h0, leg + 1, c, nh, passed)?;
                } else {
                    passed.push(c);
                    self.expand(h0, leg + 1, c, nh, passed)?;
                    passed.pop();
                }
            }
        }
        Ok(())
    }
}

/// Lowers a checked variant to tables.
/// A castling rule's `empty` cells plus its landing cells (other than the king's and rook's own).
fn castle_empty(c: &crate::model::Castle) -> Vec<u16> {
    let mut empty = c.empty.clone();
    for to in [c.king_to, c.rook_to] {
        if to != c.king_from && to != c.rook_from && !empty.contains(&to) {
            empty.push(to);
        }
    }
    empty.into_iter().map(|x| x as u16).collect()
}

pub fn lower(v: &Variant) -> Tables {
    let board = &v.board;
    let ncells = board.cells.len();
    let nkinds = v.pieces.len();
    let nsides = v.sides.len();
    let mut t = Tables {
        name: v.name.clone(),
        cells: board.cells.iter().map(|c| c.name.clone()).collect(),
        headings: board.headings.iter().map(|h| h.name.clone()).collect(),
        grid: board.grid.as_ref().map(|g| GridInfo {
            width: g.files.len() as u16,
            height: g.ranks.len() as u16,
            files: g.files.clone(),
            ranks: g.ranks.clone(),
            cell_at: g.cell_at.iter().map(|c| c.map_or(NO_CELL, |c| c as u16)).collect(),
        }),
        step: board.step.iter().map(|s| s.map_or((NO_CELL, 0), |(c, h)| (c as u16, h as u8))).collect(),
        transit: board.cells.iter().enumerate().filter(|(_, c)| c.transit).map(|(i, _)| i as u16).collect(),
        aliases: board.aliases.iter().map(|a| (a.name.clone(), a.cell as u16)).collect(),
        kinds: v
            .pieces
            .iter()
            .map(|p| KindInfo {
                name: p.name.clone(),
                symbol: p.symbol,
                royal: p.royal,
                resets_clock: p.resets_clock,
                cannot_check: p.cannot_check,
                crowns: p.crowns.iter().map(|&c| c as u8).collect(),
                crowned: p.crowned.map(|(c, k)| (c as u8, k as u8)),
                captured_as: p.captured_as.map(|c| c as u8),
                fen: p.fen.clone().unwrap_or_default(),
            })
            .collect(),
        sides: v
            .sides
            .iter()
            .map(|s| SideInfo {
                name: s.name.clone(),
                team: s.team.clone(),
                setup: s.setup.iter().map(|&(c, p)| (c as u16, p as u8)).collect(),
                atop: s.atop.iter().map(|&(c, p)| (c as u16, p as u8)).collect(),
                hand: s.hand.iter().map(|&p| p as u8).collect(),
                promotions: s
                    .promotions
                    .iter()
                    .map(|p| PromotionInfo {
                        kind: p.piece as u8,
                        choices: p.choices.iter().map(|&c| c as u8).collect(),
                        zone: p.zone.iter().map(|&c| c as u16).collect(),
                        captured: p.captured,
                        optional: p.optional,
                        from_or_to: p.from_or_to,
                    })
                    .collect(),
                drops: s
                    .drops
                    .iter()
                    .map(|d| tables::DropInfo {
                        kind: d.piece as u8,
                        forbidden: d.forbidden.iter().map(|&c| c as u16).collect(),
                        one_per_file: d.one_per_file,
                        no_mate: d.no_mate,
                    })
                    .collect(),
                castles: s
                    .castles
                    .iter()
                    .map(|c| CastleInfo {
                        name: c.name.clone(),
                        king_from: c.king_from as u16,
                        king_to: c.king_to as u16,
                        rook_from: c.rook_from as u16,
                        rook_to: c.rook_to as u16,
                        // The landing cells must be empty too (the king and rook themselves
                        // excepted), listed or not: castling never lands on another piece.
                        empty: castle_empty(c),
                        safe: c.safe.iter().map(|&x| x as u16).collect(),
                        fen: c.fen,
                    })
                    .collect(),
                reach: s.reach.iter().flat_map(|(p, cells)| cells.iter().map(move |&c| (*p as u8, c as u16))).collect(),
            })
            .collect(),
        rules: RulesInfo {
            drops: v.rules.drops,
            pass: v.rules.pass,
            stalemate: match v.rules.stalemate {
                crate::model::Outcome::Draw => tables::Outcome::Draw,
                crate::model::Outcome::Win => tables::Outcome::Win,
                crate::model::Outcome::Loss => tables::Outcome::Loss,
            },
            stationary_moves: v.rules.stationary_moves,
            fifty_move: v.rules.fifty_move.min(u16::MAX as u32) as u16,
            repetition: v.rules.repetition.min(u8::MAX as u32) as u8,
            game_end: if v.rules.last_standing {
                tables::GameEnd::LastStanding
            } else {
                tables::GameEnd::FirstMate
            },
            eliminated: if v.rules.remove_eliminated {
                tables::Eliminated::Remove
            } else {
                tables::Eliminated::Stay
            },
            bare: v.rules.bare.map(|o| match o {
                crate::model::Outcome::Draw => tables::Outcome::Draw,
                crate::model::Outcome::Win => tables::Outcome::Win,
                crate::model::Outcome::Loss => tables::Outcome::Loss,
            }),
            bare_counting: v.rules.bare_counting,
            royal_path_unattacked: v.rules.royal_path_unattacked,
            check_limit: v.rules.check_limit,
            extinction: v.rules.extinction.iter().fold(0u64, |m, &p| m | 1 << p),
        },
        layout: crate::layout::layout(board),
        ..Tables::default()
    };

    // Rays per colored kind and cell; attack instances per target on the way. Equal cell lists
    // share one range of the pool (the sides' rays of a symmetric piece, a queen's and a rook's
    // along one line), and equal mask lists one range of `masks`: the runtime only reads them.
    let mut pool = Interned::default();
    let push_cells = |pool: &mut Interned<u16>, cells: &[CellId]| pool.push(cells.iter().map(|&c| c as u16).collect());
    let mut masks_pool = Interned::default();
    // target -> ck -> direct sources; target -> reversed sequences with their attacker.
    let mut direct: Vec<BTreeMap<u8, Vec<CellId>>> = vec![BTreeMap::new(); ncells];
    let mut sequences: Vec<Vec<(Vec<CellId>, u8)>> = vec![Vec::new(); ncells];
    t.ray_index.push(0);
    // Per kind and cell, each side's rays (each rule's once, in rule order); a rule that is the
    // same for every side is walked once.
    let mut by_kind: Vec<Vec<Vec<Vec<PathRay>>>> = Vec::with_capacity(nkinds);
    for piece in &v.pieces {
        let mut per_cell = Vec::with_capacity(ncells);
        for origin in 0..ncells {
            let mut rays: Vec<Vec<PathRay>> = vec![Vec::new(); nsides];
            let mut seen: Vec<HashSet<PathRay>> = vec![HashSet::default(); nsides];
            for rule in &piece.rules {
                let shared = rule.same_for_every_side().then(|| rule_rays(v, 0, piece, rule, origin));
                for side in 0..nsides {
                    let walked = match &shared {
                        Some(rs) => rs.clone(),
                        None => rule_rays(v, side, piece, rule, origin),
                    };
                    for r in walked {
                        if seen[side].insert(r.clone()) {
                            rays[side].push(r);
                        }
                    }
                }
            }
            per_cell.push(rays);
        }
        by_kind.push(per_cell);
    }
    for side in 0..nsides {
        for (kind, (piece, per_cell)) in v.pieces.iter().zip(&by_kind).enumerate() {
            let ck = (side * nkinds + kind) as u8;
            for (origin, per_side) in per_cell.iter().enumerate() {
                for r in &per_side[side] {
                    // Attacks are what check is made of: a piece that cannot check has none.
                    if r.flags & ray::CAPTURE != 0 && !piece.cannot_check {
                        record_attacks(r, origin, ck, &mut direct, &mut sequences);
                    }
                    let must_empty = push_cells(&mut pool, &r.must_empty);
                    let cells = push_cells(&mut pool, &r.cells);
                    t.rays.push(tables::Ray { flags: r.flags, heading: r.heading as u8, must_empty, cells });
                }
                t.ray_index.push(t.rays.len() as u32);
            }
        }
    }

    t.attack_index.push(0);
    for target in 0..ncells {
        for (&ck, sources) in &direct[target] {
            let cells = push_cells(&mut pool, sources);
            t.attacks.push(Attack::Direct { ck, cells });
        }
        for (cells, masks) in lines(&sequences[target]) {
            let cells = push_cells(&mut pool, &cells);
            let (start, _) = masks_pool.push(masks);
            t.attacks.push(Attack::Line { cells, masks: start });
        }
        t.attack_index.push(t.attacks.len() as u32);
    }
    t.pool = pool.items;
    t.masks = masks_pool.items;
    t.winders = winders(v);
    t.hoppers = hoppers(v);
    t.facing = facing_lines(v);
    t
}

/// The lines of a rule walked along them (`hop`, `takes`) from `origin` for `side`: the cells of
/// the rule's slide on the empty board, one line per ray, cut before any cell it meets a second
/// time (`on` respected; `onto`, the mode and the filters are left to the walk).
pub fn hop_lines(v: &Variant, side: usize, piece: &Piece, rule: &crate::model::MoveRule, origin: CellId) -> Vec<Vec<CellId>> {
    let mut plain = rule.clone();
    plain.hop = None;
    plain.takes = None;
    plain.over = None;
    plain.onto = None;
    plain.mode = Mode::Both;
    plain.initial = false;
    rule_rays(v, side, piece, &plain, origin)
        .into_iter()
        .map(|r| {
            // A line that comes back onto a cell it passed (on a closed surface) ends there, so
            // that every cell is met once: the screen is one piece, not one piece twice.
            let mut cells = r.cells;
            let mut seen = HashSet::default();
            if let Some(i) = cells.iter().position(|&c| !seen.insert(c)) {
                cells.truncate(i);
            }
            cells
        })
        .filter(|c| !c.is_empty())
        .collect()
}

/// What a rule walked along its lines (`hop`, `takes`) could reach from `origin`, as rays for
/// analyses of the empty board: each line but its first cell for a hop (the screen must stand
/// somewhere before), the whole line for a slide with `takes`.
pub fn hop_reach(v: &Variant, side: usize, piece: &Piece, rule: &crate::model::MoveRule, origin: CellId) -> Vec<PathRay> {
    let flags = match rule.mode {
        Mode::Both => ray::QUIET | ray::CAPTURE,
        Mode::MoveOnly => ray::QUIET,
        Mode::CaptureOnly => ray::CAPTURE,
    };
    let skip = usize::from(rule.hop.is_some());
    hop_lines(v, side, piece, rule, origin)
        .into_iter()
        .filter(|line| line.len() > skip)
        .map(|line| {
            let cells = line[skip..].iter().copied().filter(|c| rule.onto.as_ref().is_none_or(|o| o[side].contains(c))).collect();
            PathRay { flags, heading: 0, must_empty: Vec::new(), cells }
        })
        .collect()
}

/// A kind filter (`over`, `takes`) as a mask of the variant's kinds: the kinds named, and the
/// crowned kinds whose carrier is named (all kinds without a filter).
fn kind_mask(v: &Variant, kinds: &Option<Vec<usize>>) -> u64 {
    let Some(kinds) = kinds else { return u64::MAX };
    let mut m = 0u64;
    for (k, p) in v.pieces.iter().enumerate() {
        let named = kinds.contains(&k) || p.crowned.is_some_and(|(carrier, _)| kinds.contains(&carrier));
        if named {
            m |= 1 << k;
        }
    }
    m
}

/// The rules the runtime walks along their lines (`hop`, `takes`), per side: each with its lines
/// from every cell.
fn hoppers(v: &Variant) -> Vec<tables::Hopper> {
    use orbis_runtime::tables::hop;
    let mut out = Vec::new();
    let (nkinds, ncells) = (v.pieces.len(), v.board.cells.len());
    for side in 0..v.sides.len() {
        for (kind, piece) in v.pieces.iter().enumerate() {
            for rule in piece.rules.iter().filter(|r| r.hop.is_some() || r.takes.is_some()) {
                let mut flags = match rule.mode {
                    Mode::Both => hop::QUIET | hop::CAPTURE,
                    Mode::MoveOnly => hop::QUIET,
                    Mode::CaptureOnly => hop::CAPTURE,
                };
                match rule.hop {
                    Some(crate::model::Hop::Far) => flags |= hop::SCREEN,
                    Some(crate::model::Hop::Next) => flags |= hop::SCREEN | hop::NEXT,
                    None => {}
                }
                // A piece that cannot check captures no royal piece; the runtime's enemy sets
                // already leave them out, and its attack tests skip such kinds.
                let mut onto: Vec<u16> = match &rule.onto {
                    Some(o) => o[side].iter().map(|&c| c as u16).collect(),
                    None => (0..ncells as u16).collect(),
                };
                onto.sort_unstable();
                onto.dedup();
                let mut lines = Vec::new();
                for origin in 0..ncells {
                    for cells in hop_lines(v, side, piece, rule, origin) {
                        let line = (origin as u16, cells.iter().map(|&c| c as u16).collect::<Vec<u16>>());
                        if !lines.contains(&line) {
                            lines.push(line);
                        }
                    }
                }
                out.push(tables::Hopper {
                    ck: (side * nkinds + kind) as u8,
                    flags,
                    over: kind_mask(v, &rule.over),
                    takes: kind_mask(v, &rule.takes),
                    onto,
                    lines,
                });
            }
        }
    }
    out
}

/// A list of items where equal runs are stored once.
#[derive(Default)]
struct Interned<T> {
    items: Vec<T>,
    /// Each run pushed, by content: its range in `items`.
    runs: HashMap<Vec<T>, (u32, u32)>,
}

impl<T: Copy + Eq + std::hash::Hash> Interned<T> {
    /// The range of `items` holding `run` (appended unless an equal run is there already).
    fn push(&mut self, run: Vec<T>) -> (u32, u32) {
        if run.is_empty() {
            return (0, 0);
        }
        if let Some(&range) = self.runs.get(&run) {
            return range;
        }
        let start = self.items.len() as u32;
        self.items.extend_from_slice(&run);
        let range = (start, self.items.len() as u32);
        self.runs.insert(run, range);
        range
    }
}

/// The lines of `facing GROUP` from every cell: a slide along the group's headings, as a royal
/// piece's own slide would run (its own seams), each line ending where it would come back onto a
/// cell it passed.
fn facing_lines(v: &Variant) -> Vec<(u16, Vec<u16>)> {
    let Some(royal) = v.pieces.iter().find(|p| p.royal) else { return Vec::new() };
    if v.rules.facing.is_empty() {
        return Vec::new();
    }
    let rule = crate::model::MoveRule {
        first_slides: true,
        ..crate::model::MoveRule::along(crate::model::Dirs::Headings(v.rules.facing.clone()), Default::default())
    };
    let mut out = Vec::new();
    for origin in 0..v.board.cells.len() {
        for cells in hop_lines(v, 0, royal, &rule, origin) {
            let line = (origin as u16, cells.iter().map(|&c| c as u16).collect::<Vec<u16>>());
            if !out.contains(&line) {
                out.push(line);
            }
        }
    }
    out
}

/// A winding rule's destinations on the empty board from `origin`, as one single-cell ray each
/// (the rule has no rays of its own; analyses that reason about the empty board use these).
pub fn wind_reach(v: &Variant, piece: &Piece, rule: &crate::model::MoveRule, origin: CellId) -> Vec<PathRay> {
    let Some((headings, zone)) = &rule.wind else { return Vec::new() };
    if zone.binary_search(&origin).is_err() {
        return Vec::new();
    }
    let flags = match rule.mode {
        Mode::Both => ray::QUIET | ray::CAPTURE,
        Mode::MoveOnly => ray::QUIET,
        Mode::CaptureOnly => ray::CAPTURE,
    };
    let geo = v.board.geometry(piece);
    let mut seen = vec![origin];
    let mut queue = vec![origin];
    while let Some(c) = queue.pop() {
        for &h in headings {
            if let Some((d, _)) = geo.step(c, h, 0) {
                if zone.binary_search(&d).is_ok() && !seen.contains(&d) {
                    seen.push(d);
                    queue.push(d);
                }
            }
        }
    }
    seen.into_iter().skip(1).map(|c| PathRay { flags, heading: 0, must_empty: Vec::new(), cells: vec![c] }).collect()
}

/// The winding rules (`wind GROUP within ZONE`): per rule, its zone and each zone cell's
/// neighbours in the zone along the rule's headings.
fn winders(v: &Variant) -> Vec<tables::Winder> {
    let mut out = Vec::new();
    for (kind, piece) in v.pieces.iter().enumerate() {
        for rule in &piece.rules {
            let Some((headings, zone)) = &rule.wind else { continue };
            let flags = match rule.mode {
                Mode::Both => ray::QUIET | ray::CAPTURE,
                Mode::MoveOnly => ray::QUIET,
                Mode::CaptureOnly => ray::CAPTURE,
            };
            let geo = v.board.geometry(piece);
            let adjacency = zone
                .iter()
                .map(|&c| {
                    let mut next: Vec<u16> = headings
                        .iter()
                        .filter_map(|&h| geo.step(c, h, 0))
                        .map(|(d, _)| d)
                        .filter(|d| *d != c && zone.binary_search(d).is_ok())
                        .map(|d| d as u16)
                        .collect();
                    next.sort_unstable();
                    next.dedup();
                    next
                })
                .collect();
            out.push(tables::Winder { kind: kind as u8, flags, zone: zone.iter().map(|&c| c as u16).collect(), adjacency });
        }
    }
    out
}

/// Records who attacks what along one capturing ray from `origin`.
fn record_attacks(
    r: &PathRay,
    origin: CellId,
    ck: u8,
    direct: &mut [BTreeMap<u8, Vec<CellId>>],
    sequences: &mut [Vec<(Vec<CellId>, u8)>],
) {
    for (j, &target) in r.cells.iter().enumerate() {
        // A cell met again (a line round a closed surface) was recorded the first time.
        if r.cells[..j].contains(&target) {
            continue;
        }
        if r.flags & ray::SLIDE == 0 && j > 0 {
            break;
        }
        // From the target back to the origin: the cells that must be empty, then the attacker.
        let mut seq: Vec<CellId> = Vec::with_capacity(j + r.must_empty.len() + 1);
        seq.extend(r.cells[..j].iter().rev());
        seq.extend(r.must_empty.iter().rev());
        seq.push(origin);
        if seq.len() == 1 {
            let list = direct[target].entry(ck).or_default();
            if !list.contains(&origin) {
                list.push(origin);
            }
        } else {
            sequences[target].push((seq, ck));
        }
    }
}

/// A copy of `v` with room for one more item.
fn grown<T: Copy>(v: &[T]) -> Vec<T> {
    let mut g = Vec::with_capacity(v.len() + 1);
    g.extend_from_slice(v);
    g
}

/// Merges reversed sequences into a trie and flattens it into lines from root to leaf, each cell
/// with the mask of colored kinds that attack from it.
fn lines(seqs: &[(Vec<CellId>, u8)]) -> Vec<(Vec<CellId>, Vec<u64>)> {
    // Trie nodes: (cell, mask, children in insertion order).
    struct Node {
        cell: CellId,
        mask: u64,
        children: Vec<usize>,
    }
    let mut nodes: Vec<Node> = Vec::new();
    let mut roots: Vec<usize> = Vec::new();
    for (seq, ck) in seqs {
        let mut level_is_root = true;
        let mut parent = 0usize;
        for (i, &cell) in seq.iter().enumerate() {
            let siblings = if level_is_root { &roots } else { &nodes[parent].children };
            let found = siblings.iter().copied().find(|&n| nodes[n].cell == cell);
            let id = match found {
                Some(n) => n,
                None => {
                    nodes.push(Node { cell, mask: 0, children: Vec::new() });
                    let id = nodes.len() - 1;
                    if level_is_root {
                        roots.push(id);
                    } else {
                        nodes[parent].children.push(id);
                    }
                    id
                }
            };
            if i + 1 == seq.len() {
                nodes[id].mask |= 1u64 << ck;
            }
            parent = id;
            level_is_root = false;
        }
    }
    let mut out = Vec::new();
    let mut stack: Vec<(usize, Vec<CellId>, Vec<u64>)> = roots.iter().rev().map(|&r| (r, Vec::new(), Vec::new())).collect();
    while let Some((n, mut cells, mut masks)) = stack.pop() {
        cells.push(nodes[n].cell);
        masks.push(nodes[n].mask);
        if nodes[n].children.is_empty() {
            out.push((cells, masks));
        } else {
            // Room for the cell each child adds.
            for &c in nodes[n].children.iter().rev() {
                stack.push((c, grown(&cells), grown(&masks)));
            }
        }
    }
    out
}
