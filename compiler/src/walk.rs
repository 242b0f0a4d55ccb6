//! Walking rules on the empty board: every rule of a piece, from a cell, for a side, becomes
//! rays (the cells that must be empty, then the destinations in order). Lowering turns them into
//! tables, the analysis reasons about them, and the reference engine in the tests moves by them.

use crate::model::{Board, CellId, Dirs, Geometry, HeadingId, Kind, Mode, Piece, Variant};
use orbis_runtime::tables::ray;
// Walks hash small keys millions of times on large boards: FxHash, not SipHash (no untrusted keys).
use rustc_hash::FxHashSet as HashSet;

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

/// One rule's rays from every cell: `rays[slot * cells + origin]`, the slot being the side, or 0
/// alone for a rule the same for every side.
#[derive(Debug, Clone, Default)]
struct RuleWalk {
    per_side: bool,
    rays: Vec<Vec<PathRay>>,
}

/// Every rule's rays on the empty board, walked once (the expansion check walks them within its
/// budgets); the analysis and lowering read them here instead of walking each rule again.
#[derive(Debug, Clone, Default)]
pub struct Walked {
    cells: usize,
    /// Per piece, per rule.
    rules: Vec<Vec<RuleWalk>>,
}

impl Walked {
    /// The rays of rule `rule` of piece `piece` for `side` from `origin`, as [`rule_rays`] gives
    /// them (none for winding, hops and `takes`).
    /// None for indices it does not hold (only a variant whose walk failed has none, and `check`
    /// refuses those).
    pub fn rule(&self, piece: usize, rule: usize, side: usize, origin: CellId) -> &[PathRay] {
        let Some(w) = self.rules.get(piece).and_then(|r| r.get(rule)) else { return &[] };
        let slot = if w.per_side { side } else { 0 };
        w.rays.get(slot * self.cells + origin).map_or(&[], Vec::as_slice)
    }

    /// Whether rule `rule` of piece `piece` has the same rays for every side.
    pub fn same_for_every_side(&self, piece: usize, rule: usize) -> bool {
        self.rules.get(piece).and_then(|r| r.get(rule)).is_none_or(|w| !w.per_side)
    }
}

/// Walks every rule of `v` from every cell, each within [`MAX_RULE_EXPANSION`] and all of them
/// within [`MAX_EXPANSION`]; an over-large rule is found after at most its budget of work.
pub fn walk_all(v: &Variant) -> Result<Walked, Overflow> {
    let cells = v.board.cells.len();
    let mut total = 0usize;
    let mut rules = Vec::with_capacity(v.pieces.len());
    for (piece_id, piece) in v.pieces.iter().enumerate() {
        let mut per_rule = Vec::with_capacity(piece.rules.len());
        for (rule_id, rule) in piece.rules.iter().enumerate() {
            // A rule the same for every side is walked once and costs each side what it costs
            // the first.
            let per_side = !rule.same_for_every_side();
            let (sides, times) = if per_side { (v.sides.len(), 1) } else { (1, v.sides.len()) };
            let mut rays = Vec::with_capacity(sides * cells);
            for side in 0..sides {
                for origin in 0..cells {
                    let mut budget = MAX_RULE_EXPANSION;
                    let walked = rule_rays_within(v, side, piece, rule, origin, &mut budget)
                        .map_err(|TooLarge| Overflow::Rule { piece: piece_id, rule: rule_id, side, origin })?;
                    total += (MAX_RULE_EXPANSION - budget) * times;
                    if total > MAX_EXPANSION {
                        return Err(Overflow::Total);
                    }
                    rays.push(walked);
                }
            }
            per_rule.push(RuleWalk { per_side, rays });
        }
        rules.push(per_rule);
    }
    Ok(Walked { cells, rules })
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

