//! Building a [`Game`] from loaded tables ([`Game::new`]) and the helpers of that build: rays
//! sorted for generation, cells cut into runs, attack lines indexed, Zobrist keys drawn.
//!
//! Building a [`Game`] only converts lists from the (validated) tables into bit sets and indexes;
//! no geometry is derived here. It runs once per load, apart from `game.rs`, which holds the
//! types move generation reads and their queries on the hot path.

use crate::bits::CellSet;
use crate::per64::Per64;
use crate::game::{leaps, Castle, Game, Line, LinePair, PieceMoves, Promotion, Ray, RoyalReach, Segment, SlideRun, Special, WindRule, Zobrist};
use crate::tables::{Attack, GameEnd, Tables, NO_CELL};

impl Special {
    fn new<B: CellSet>(tables: &Tables, i: u32, r: &Ray<B>, flags: u8) -> Special {
        let to = tables.pool.get(r.cells.0 as usize).copied().filter(|_| r.cells.0 < r.cells.1).unwrap_or(NO_CELL);
        let mut passed = r.must_empty.iter();
        let pass = match (passed.next(), passed.next()) {
            (None, _) => to,
            (Some(c), None) => c as u16,
            _ => NO_CELL,
        };
        Special { ray: i, to, pass, flags }
    }
}

/// Cuts `cells` into runs of rising or falling indices within one word, appended to `out`;
/// returns their range.
pub(crate) fn segments_of(cells: &[u16], out: &mut Vec<Segment>) -> (u32, u32) {
    runs_of(cells, |_, _| true, out)
}

/// `Game::line_pair_index` and `Game::line_pairs`: for each target and each cell of its attack
/// lines from which some kind attacks along the line, the cells between and those kinds (the
/// same cells between twice, on lines that branch, merged).
fn line_pairs<B: CellSet>(tables: &Tables, cells: usize) -> (Vec<u32>, Vec<LinePair<B>>) {
    let mut index = Vec::with_capacity(cells * cells + 1);
    let mut pairs = Vec::new();
    let mut found: Vec<(u16, B, u64)> = Vec::new();
    for t in 0..cells {
        found.clear();
        for a in &tables.attacks[tables.attack_index[t] as usize..tables.attack_index[t + 1] as usize] {
            let Attack::Line { cells: c, masks } = *a else { continue };
            let mut between = B::default();
            for i in 0..(c.1 - c.0) {
                let cell = tables.pool[(c.0 + i) as usize];
                let kinds = tables.masks[(masks + i) as usize];
                if kinds != 0 {
                    match found.iter_mut().find(|f| f.0 == cell && f.1 == between) {
                        Some(f) => f.2 |= kinds,
                        None => found.push((cell, between, kinds)),
                    }
                }
                between.insert(cell as usize);
            }
        }
        found.sort_by_key(|f| f.0);
        let mut k = 0;
        for a in 0..cells {
            index.push(pairs.len() as u32);
            while k < found.len() && found[k].0 as usize == a {
                pairs.push(LinePair { between: found[k].1, kinds: found[k].2 });
                k += 1;
            }
        }
    }
    index.push(pairs.len() as u32);
    (index, pairs)
}

/// As [`segments_of`], cutting also between the cells `i - 1` and `i` where `!same(i - 1, i)`.
fn runs_of(cells: &[u16], same: impl Fn(usize, usize) -> bool, out: &mut Vec<Segment>) -> (u32, u32) {
    let start = out.len();
    let word = |c: u16| c / 64;
    let mut i = 0;
    while i < cells.len() {
        let up = i + 1 < cells.len() && cells[i + 1] > cells[i];
        let mut j = i + 1;
        while j < cells.len()
            && word(cells[j]) == word(cells[i])
            && (if up { cells[j] > cells[j - 1] } else { cells[j] < cells[j - 1] })
            && same(j - 1, j)
        {
            j += 1;
        }
        let mask = cells[i..j].iter().fold(0u64, |m, &c| m | 1 << (c % 64));
        out.push(Segment { mask, word: word(cells[i]) as u8, up });
        i = j;
    }
    (start as u32, out.len() as u32)
}

/// Whether every one of `initial` is an initial step (`step` gives its destination), no two
/// landing on the same cell (the count adds one move per step, where the general walk gathers
/// them in a set).
fn initial_steps_apart(initial: &[Special], step: impl Fn(&Special) -> Option<u16>) -> bool {
    let mut seen = Vec::new();
    initial.iter().all(|sp| match step(sp) {
        Some(to) if !seen.contains(&to) => {
            seen.push(to);
            true
        }
        _ => false,
    })
}

/// Sorts every piece's rays for generation (see [`PieceMoves`]).
#[allow(clippy::type_complexity)]
fn sort_moves<B: CellSet>(tables: &Tables, rays: &[Ray<B>], segments: &[Segment]) -> (Vec<PieceMoves<B>>, Vec<SlideRun>, Vec<Special>) {
    use crate::tables::ray::*;
    let mut piece_moves = Vec::with_capacity(tables.ray_index.len());
    let mut runs = Vec::new();
    let mut specials = Vec::new();
    // A slide back to its start makes a stationary move where the rules allow one.
    let returns = if tables.rules.stationary_moves { RETURNS } else { 0 };
    let by_reach = homing_by_reach::<B>(tables);
    // The special rays of the piece on the cell at hand, by what they do.
    let mut seen = std::collections::HashSet::new();
    for (i, &(start, end)) in tables.ray_index.iter().enumerate() {
        let from = (i % tables.cells.len().max(1)) as u16;
        let mut m = PieceMoves {
            leap_quiet: B::default(),
            leap_capture: B::default(),
            slides: (runs.len() as u32, 0),
            plain_slides: false,
            homing: false,
            whole_runs: false,
            specials: (specials.len() as u32, 0),
            ep_only: 0,
            may_promote: true,
            gates: B::default(),
            gated: true,
            leaper: leaps::NO,
            one_step: false,
            moved_leaper: false,
            step: (0, 0),
        };
        let mut ep_only = Vec::new();
        seen.clear();
        for i in start..end {
            let r = &rays[i as usize];
            let f = r.flags;
            let gate = if r.passes { r.must_empty.iter().next() } else { tables.pool[r.cells.0 as usize..r.cells.1 as usize].first().map(|&c| c as usize) };
            match gate {
                // (A cell past the sets' capacity is a transit cell, never occupied: the ray is
                // never blocked where it starts.)
                Some(c) if c < B::CAPACITY => m.gates.insert(c),
                _ => m.gated = false,
            }
            // A plain lame leap (a step then a step, the first cell empty), or a slide that starts
            // past cells that must be empty, is followed as runs too: the cells to pass, which
            // land nowhere (an occupied one blocks it as it blocks a slide), then the
            // destination or the slide's runs.
            let lame = r.passes && f & !(QUIET | CAPTURE | SLIDE) == 0 && (f & SLIDE == 0 || r.segments.0 < r.segments.1);
            let conditional = (r.passes && !lame) || f & (INITIAL | EP_TARGET | PASS_UNATTACKED) != 0 || (f & returns != 0 && (f & SLIDE == 0 || r.segments.0 == r.segments.1));
            if conditional {
                // A ray with the flags, passed cells and destinations of one kept already adds
                // no move: kept once, its tests are made once (Boholy's king reaches the square
                // beyond a pole by three headings, each testing whether the pole is attacked).
                // (A set, so that a cell with many rays costs no more than their number.)
                let t = &tables.rays[i as usize];
                if seen.insert((f, &tables.pool[t.must_empty.0 as usize..t.must_empty.1 as usize], &tables.pool[t.cells.0 as usize..t.cells.1 as usize])) {
                    specials.push(Special::new(tables, i, r, f));
                }
            } else if f & SLIDE != 0 || lame {
                let passed: Vec<u16> = r.must_empty.iter().map(|c| c as u16).collect();
                let mut segs = Vec::new();
                let (_, landing) = segments_of(&passed, &mut segs);
                if f & SLIDE != 0 {
                    segs.extend_from_slice(&segments[r.segments.0 as usize..r.segments.1 as usize]);
                } else {
                    segments_of(&tables.pool[r.cells.0 as usize..r.cells.1 as usize], &mut segs);
                }
                // A slide back to the start ends with a run of the start cell alone.
                let back = f & returns != 0 && f & QUIET != 0;
                if back {
                    segments_of(&[from], &mut segs);
                }
                let next = (runs.len() + segs.len()) as u32;
                runs.extend(segs.iter().enumerate().map(|(k, &run)| SlideRun {
                    run,
                    quiet: k >= landing as usize && f & QUIET != 0,
                    capture: k >= landing as usize && f & CAPTURE != 0,
                    returns: back && k + 2 == segs.len(),
                    next,
                }));
            } else {
                let c = tables.pool[r.cells.0 as usize] as usize;
                if f & QUIET != 0 {
                    m.leap_quiet.insert(c);
                }
                if f & CAPTURE != 0 {
                    m.leap_capture.insert(c);
                }
                if f & EP_CAPTURE != 0 {
                    ep_only.push(Special::new(tables, i, r, EP_CAPTURE));
                }
            }
        }
        m.ep_only = specials.len() as u32;
        specials.extend(ep_only);
        if tables.transit.is_empty() {
            simplify_runs(&m, &mut runs);
        }
        m.slides.1 = runs.len() as u32;
        classify_slides(&mut m, &runs, from as usize, by_reach);
        m.specials.1 = specials.len() as u32;
        piece_moves.push(m);
    }
    (piece_moves, runs, specials)
}

/// Rewrites the slide runs of the piece `m` (those from `m.slides.0` to the end of `runs`)
/// without changing its moves, so that more pieces' slides are plain (`classify_slides`) and
/// read as one reach rather than walked run by run: a ray whose cells are the first cells of
/// another ray of the piece, which lands wherever it lands, is dropped (Webball's Ringer steps
/// then steps along a ring it also slides round); and a run of cells that a lame leap passes
/// becomes a landing run where the piece lands on each of those cells anyway, whatever the
/// board: a leap there, or the first cell of one of its rays (the Ringer's step to the
/// connector it may also cross). Pieces with slides back to the start are left as they are.
fn simplify_runs<B: CellSet>(m: &PieceMoves<B>, runs: &mut Vec<SlideRun>) {
    let start = m.slides.0 as usize;
    if runs[start..].iter().any(|r| r.returns) {
        return;
    }
    // The rays (runs sharing `next`), each as its runs and its cells in walk order with the
    // run they are in.
    type RayCells = (std::ops::Range<usize>, Vec<(u16, usize)>);
    let mut rays: Vec<RayCells> = Vec::new();
    let mut i = start;
    while i < runs.len() {
        let end = runs[i].next as usize;
        let cells = (i..end).flat_map(|j| runs[j].run.cells().map(move |c| (c, j))).collect();
        rays.push((i..end, cells));
        i = end;
    }
    // Ray `a` is covered by ray `b` when its cells begin `b`'s and `b` lands (quietly, by
    // capture) on each cell where `a` does: `b` reaches each of them under the same condition.
    let covers = |b: &[(u16, usize)], a: &[(u16, usize)]| {
        a.len() <= b.len()
            && a.iter().zip(b).all(|(&(ca, ra), &(cb, rb))| ca == cb && (!runs[ra].quiet || runs[rb].quiet) && (!runs[ra].capture || runs[rb].capture))
    };
    let mut kept = vec![true; rays.len()];
    for a in 0..rays.len() {
        kept[a] = !(0..rays.len()).any(|b| b != a && kept[b] && covers(&rays[b].1, &rays[a].1));
    }
    // The cells the piece lands on whatever the board: its leaps both ways, and the first cell
    // of a ray that lands there both ways.
    let mut always = m.leap_quiet.and(m.leap_capture);
    for (ray, cells) in rays.iter().zip(&kept).filter(|&(_, &k)| k).map(|(r, _)| r) {
        let first = &runs[ray.start];
        if let Some(&(c, _)) = cells.first().filter(|&&(c, _)| first.quiet && first.capture && (c as usize) < B::CAPACITY) {
            always.insert(c as usize);
        }
    }
    let mut out = Vec::with_capacity(runs.len() - start);
    for ((ray, _), _) in rays.iter().zip(&kept).filter(|&(_, &k)| k) {
        let next = (start + out.len() + ray.len()) as u32;
        for j in ray.clone() {
            let mut r = runs[j];
            let k = r.run.word as usize;
            if !r.quiet && !r.capture && k * 64 < B::CAPACITY && r.run.mask & !always.word(k) == 0 {
                (r.quiet, r.capture) = (true, true);
            }
            out.push(SlideRun { next, ..r });
        }
    }
    runs.truncate(start);
    runs.extend(out);
}

/// Whether slides back to the start may be plain slides, their stationary moves read from the
/// reach (`PieceMoves::homing`): only on boards of `HOMING_WIDTH` and without hops or winding
/// rules, where the count has a copy with that test; elsewhere they are walked run by run.
fn homing_by_reach<B: CellSet>(tables: &Tables) -> bool {
    B::CAPACITY == crate::game::HOMING_WIDTH && tables.hoppers.is_empty() && tables.winders.is_empty()
}

/// Sets `m.plain_slides`, `m.homing` and `m.whole_runs` from its runs in `runs`; `from` is the
/// piece's cell, `by_reach` whether slides back to it may be plain ([`homing_by_reach`]).
fn classify_slides<B: CellSet>(m: &mut PieceMoves<B>, runs: &[SlideRun], from: usize, by_reach: bool) {
    let range = m.slides.0 as usize..m.slides.1 as usize;
    m.homing = runs[range.clone()].iter().any(|r| r.returns);
    // (The reach tells a slide back to the start only if no run but those after the slides'
    // last holds the start cell.)
    let start = B::single(from);
    let home_only = range.clone().all(|j| runs[j].run.mask & start.word(runs[j].run.word as usize) == 0 || (j > range.start && runs[j - 1].returns));
    m.plain_slides = runs[range.clone()].iter().all(|r| r.quiet && r.capture) && (!m.homing || (by_reach && home_only));
    m.whole_runs = m.plain_slides && runs[range.clone()].iter().zip(range).all(|(r, i)| r.next as usize == i + 1);
}

/// Drops the runs left with no cell once transit cells are masked out (a pole alone on a
/// slide): they never block, and every slide across a pole would walk one more run for
/// nothing. The runs' `next` and the pieces' ranges are renumbered; a run that returns to the
/// start stays (it makes a stationary move).
fn drop_empty_runs<B: CellSet>(piece_moves: &mut [PieceMoves<B>], runs: &mut Vec<SlideRun>, cells: usize, by_reach: bool) {
    let keep = |r: &SlideRun| r.run.mask != 0 || r.returns;
    if runs.iter().all(keep) {
        return;
    }
    // The new index of each run (and of the end), counting the runs kept before it.
    let mut renumbered = Vec::with_capacity(runs.len() + 1);
    let mut n = 0u32;
    for r in runs.iter() {
        renumbered.push(n);
        n += keep(r) as u32;
    }
    renumbered.push(n);
    *runs = runs.iter().filter(|r| keep(r)).map(|r| SlideRun { next: renumbered[r.next as usize], ..*r }).collect();
    for (i, m) in piece_moves.iter_mut().enumerate() {
        m.slides = (renumbered[m.slides.0 as usize], renumbered[m.slides.1 as usize]);
        classify_slides(m, runs, i % cells.max(1), by_reach);
    }
}

pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl<B: CellSet> Game<B> {
    /// `tables` must have passed [`Tables::validate`] and have at most `B::CAPACITY` cells but
    /// transit cells (`crate::bits::Standing64`).
    pub fn new(tables: Tables) -> Game<B> {
        let cells = tables.cells.len();
        let kinds = tables.kinds.len();
        let sides = tables.sides.len();
        assert!(tables.transit_from(B::CAPACITY), "board too large for this cell set width");
        let pool = tables.pool.clone();
        let set_of = |range: (u32, u32)| {
            B::from_cells(pool[range.0 as usize..range.1 as usize].iter().map(|&c| c as usize))
        };
        let mut segments = Vec::new();
        let rays: Vec<Ray<B>> = tables
            .rays
            .iter()
            .map(|r| Ray {
                flags: r.flags,
                passes: r.must_empty.0 < r.must_empty.1,
                must_empty: set_of(r.must_empty),
                cells: r.cells,
                segments: if r.flags & crate::tables::ray::SLIDE != 0 {
                    segments_of(&pool[r.cells.0 as usize..r.cells.1 as usize], &mut segments)
                } else {
                    (0, 0)
                },
            })
            .collect();

        let transit = B::from_cells(tables.transit.iter().map(|&c| c as usize));
        let (mut piece_moves, mut slide_runs, specials) = sort_moves(&tables, &rays, &segments);
        // No piece ever stands on a transit cell: a plain move never ends there, and the runs
        // of plain slides leave them out (they never block), so that generation need not.
        for m in &mut piece_moves {
            m.leap_quiet = m.leap_quiet.and_not(transit);
            m.leap_capture = m.leap_capture.and_not(transit);
        }
        for r in &mut slide_runs {
            if r.run.word as usize * 64 >= B::CAPACITY {
                // (Past the sets' capacity every cell is a transit cell.)
                r.run = Segment { mask: 0, word: 0, ..r.run };
            } else {
                r.run.mask &= !transit.word(r.run.word as usize);
            }
        }
        drop_empty_runs(&mut piece_moves, &mut slide_runs, cells, homing_by_reach::<B>(&tables));

        let mut direct_index = vec![0u32];
        let mut direct = Vec::new();
        let mut line_index = vec![0u32];
        let mut lines = Vec::new();
        let mut run_kinds = Vec::new();
        let mut line_cks = vec![Vec::new(); sides];
        for t in 0..cells {
            let range = tables.attack_index[t] as usize..tables.attack_index[t + 1] as usize;
            for side in 0..sides {
                for a in &tables.attacks[range.clone()] {
                    if let Attack::Direct { ck, cells } = *a {
                        if ck as usize / kinds == side {
                            direct.push((ck, set_of(cells)));
                        }
                    }
                }
                direct_index.push(direct.len() as u32);
            }
            for a in &tables.attacks[range] {
                if let Attack::Line { cells: c, masks } = *a {
                    let line_cells = &pool[c.0 as usize..c.1 as usize];
                    let line_masks = &tables.masks[masks as usize..(masks + c.1 - c.0) as usize];
                    // The first cell has no line attackers; it joins the next cell's run.
                    let first_apart = line_masks.len() > 1 && line_masks[0] == 0 && line_masks[1] != 0;
                    let kinds_at = |i: usize| if i == 0 && first_apart { line_masks[1] } else { line_masks[i] };
                    let runs = runs_of(line_cells, |i, j| kinds_at(i) == kinds_at(j), &mut segments);
                    run_kinds.resize(runs.0 as usize, 0);
                    let mut i = 0;
                    for run in &segments[runs.0 as usize..runs.1 as usize] {
                        run_kinds.push(kinds_at(i));
                        i += run.mask.count_ones() as usize;
                    }
                    lines.push(Line {
                        set: set_of(c),
                        segments: runs,
                        first: if line_masks[0] == 0 { line_cells[0] } else { NO_CELL },
                    });
                    for i in 0..(c.1 - c.0) {
                        let mut m = tables.masks[(masks + i) as usize];
                        while m != 0 {
                            let ck = m.trailing_zeros() as u8;
                            m &= m - 1;
                            let list = &mut line_cks[ck as usize / kinds];
                            if !list.contains(&ck) {
                                list.push(ck);
                            }
                        }
                    }
                }
            }
            line_index.push(lines.len() as u32);
        }
        run_kinds.resize(segments.len(), 0);

        let mut promotion = vec![None; sides * kinds];
        let mut castles = Vec::new();
        for (s, side) in tables.sides.iter().enumerate() {
            // A piece's promotions (one per zone) share their choices: zones and optional cells merge.
            for p in &side.promotions {
                let zone = B::from_cells(p.zone.iter().map(|&c| c as usize));
                let slot: &mut Option<Promotion<B>> = &mut promotion[s * kinds + p.kind as usize];
                let merged = slot.get_or_insert_with(|| Promotion { zone: B::default(), choices: p.choices.clone(), optional: B::default(), limit: Vec::new(), from: B::default() });
                if p.from_or_to {
                    merged.from = merged.from.or(zone);
                }
                let compulsory = merged.zone.and_not(merged.optional);
                merged.zone = merged.zone.or(zone);
                merged.optional = if p.optional { merged.optional.or(zone.and_not(compulsory)) } else { merged.optional.and_not(zone) };
                merged.limit = p
                    .choices
                    .iter()
                    .map(|&c| {
                        if p.captured {
                            side.setup.iter().chain(&side.atop).filter(|&&(_, k)| k == c).count() as u32
                        } else {
                            u32::MAX
                        }
                    })
                    .collect();
            }
            castles.push(
                side.castles
                    .iter()
                    .map(|c| {
                        let mut empty = B::from_cells(c.empty.iter().map(|&x| x as usize));
                        empty.remove(c.king_from as usize);
                        empty.remove(c.rook_from as usize);
                        let kt = c.king_to as usize;
                        let opens = tables.attacks[tables.attack_index[kt] as usize..tables.attack_index[kt + 1] as usize].iter().any(|a| {
                            let Attack::Line { cells: r, .. } = *a else { return false };
                            let line = &pool[r.0 as usize..r.1 as usize];
                            let ends = line.iter().position(|&x| x == c.rook_to || x == c.king_to).unwrap_or(line.len());
                            line[..ends].iter().enumerate().any(|(i, &x)| (x == c.king_from || x == c.rook_from) && i + 1 < line.len())
                        });
                        let recheck = opens || !c.safe.contains(&c.king_to) || !tables.winders.is_empty() || !tables.hoppers.is_empty();
                        Castle {
                            king_from: c.king_from,
                            king_to: c.king_to,
                            rook_from: c.rook_from,
                            rook_to: c.rook_to,
                            empty,
                            home: B::from_cells([c.king_from as usize, c.rook_from as usize]),
                            safe: c.safe.clone(),
                            safe_set: B::from_cells(c.safe.iter().map(|&x| x as usize)),
                            recheck,
                        }
                    })
                    .collect(),
            );
        }
        let castle_kings: Per64<B> = castles.iter().map(|cs: &Vec<Castle<B>>| B::from_cells(cs.iter().map(|c| c.king_from as usize))).collect();
        for (i, m) in piece_moves.iter_mut().enumerate() {
            m.may_promote = promotion[i / cells].as_ref().is_some_and(|p: &Promotion<B>| {
                p.from.has(i % cells) || tables.rays_at(i).iter().any(|r| set_of(r.cells).intersects(p.zone))
            });
        }
        let direct_reach: Vec<B> = direct_index
            .windows(2)
            .map(|w| direct[w[0] as usize..w[1] as usize].iter().fold(B::default(), |r: B, &(_, set): &(u8, B)| r.or(set)))
            .collect();
        let direct_reach_any = if sides > 2 { direct_reach.chunks(sides).map(|r| r.iter().fold(B::default(), |a, &b| a.or(b))).collect() } else { Vec::new() };
        // (Not where cells lie past the sets' capacity: a piece's set of the targets it attacks
        // directly could not hold them, and an attack on such a cell must still be found.)
        let direct_by_piece = direct.len() > 3 * (direct_index.len() - 1) && cells <= B::CAPACITY;
        let mut direct_from = vec![B::default(); sides * kinds * cells];
        for (di, w) in direct_index.windows(2).enumerate() {
            for &(ck, set) in &direct[w[0] as usize..w[1] as usize] {
                for c in set.iter() {
                    direct_from[ck as usize * cells + c].insert(di / sides);
                }
            }
        }
        let royal: Vec<bool> = (0..sides * kinds).map(|ck| tables.kinds[ck % kinds].royal).collect();
        let crowning_cks: Per64<_> = (0..sides)
            .map(|s| (s * kinds..(s + 1) * kinds).filter(|&ck| !tables.kinds[ck % kinds].crowns.is_empty()).map(|ck| ck as u8).collect())
            .collect();
        let line_reach: Vec<B> = (0..cells)
            .map(|t| lines[line_index[t] as usize..line_index[t + 1] as usize].iter().fold(B::default(), |r: B, l: &Line<B>| r.or(l.set)))
            .collect();
        let by_pairs = B::CAPACITY <= 128;
        let (line_pair_index, line_pairs) = if by_pairs { line_pairs(&tables, cells) } else { (Vec::new(), Vec::new()) };
        let many_ways = line_pair_index.windows(2).any(|w| w[1] - w[0] > 1);
        // With at most one way per pair of cells, the pairs stand one per pair of cells, where
        // a look needs no index.
        let (line_pair_index, line_pairs) = if by_pairs && !many_ways {
            let none = LinePair { between: B::default(), kinds: 0 };
            (Vec::new(), line_pair_index.windows(2).map(|w| if w[1] > w[0] { line_pairs[w[0] as usize] } else { none }).collect())
        } else {
            (line_pair_index, line_pairs)
        };
        let line_ck_mask = line_cks.iter().flatten().fold(0u64, |m, &ck| m | 1 << ck);
        let is_transit: Vec<bool> = (0..cells).map(|c| tables.transit.contains(&(c as u16))).collect();
        let lines_as_slides = crate::line_attacks::lines_as_slides(&tables, &piece_moves, &slide_runs, &direct_from, line_ck_mask, &is_transit);
        let resets_clock: Per64<bool> = (0..sides * kinds).map(|ck| tables.kinds[ck % kinds].resets_clock).collect();

        let mut seed = 0x0b15_c0de_u64;
        let keys = |n: usize, seed: &mut u64| (0..n).map(|_| splitmix(seed)).collect::<Vec<u64>>();
        let mut zobrist = Zobrist {
            piece: keys(sides * kinds * cells, &mut seed),
            side: keys(sides, &mut seed),
            virgin: keys(cells, &mut seed),
            ep: keys(cells, &mut seed),
            castle: Vec::new(),
            out: Vec::new(),
            under: Vec::new(),
            hand: Vec::new(),
            checks: Vec::new(),
        };
        // Whether a piece has moved belongs to the position (for repetition) only where a rule
        // depends on it: setup cells of kinds with `initial` moves here, castling rights below.
        let mut matters = vec![false; cells];
        let mut castle_cells = Vec::new();
        for (s, side) in tables.sides.iter().enumerate() {
            for c in &side.castles {
                castle_cells.push((c.king_from as usize, c.rook_from as usize));
            }
            for &(cell, kind) in &side.setup {
                let i = (s * kinds + kind as usize) * cells + cell as usize;
                let rays = tables.rays_at(i);
                if rays.iter().any(|r| r.flags & crate::tables::ray::INITIAL != 0) {
                    matters[cell as usize] = true;
                }
            }
        }
        for (key, m) in zobrist.virgin.iter_mut().zip(matters) {
            if !m {
                *key = 0;
            }
        }
        zobrist.castle = (0..castle_cells.len()).map(|_| splitmix(&mut seed)).collect();
        zobrist.out = keys(sides, &mut seed);
        let stacks = tables
            .sides
            .iter()
            .any(|s| !s.atop.is_empty() || s.hand.iter().any(|&k| !tables.kinds[k as usize].crowns.is_empty()));
        let hands = crate::drops::Hands::new(&tables, B::from_cells(tables.transit.iter().map(|&c| c as usize)));
        if stacks || hands.is_some() {
            zobrist.under = keys(sides * kinds * cells, &mut seed);
            zobrist.hand = keys(sides * kinds, &mut seed);
        } else {
            zobrist.hand = vec![0; sides * kinds];
        }
        let limit = usize::from(tables.rules.check_limit);
        if limit > 0 {
            zobrist.checks = keys(sides * (limit + 1), &mut seed);
        }
        let reach: Vec<Vec<(usize, B)>> = tables
            .sides
            .iter()
            .enumerate()
            .map(|(s, side)| {
                let mut per: Vec<(usize, B)> = Vec::new();
                for &(kind, cell) in &side.reach {
                    let ck = s * kinds + kind as usize;
                    match per.iter_mut().find(|(c, _)| *c == ck) {
                        Some((_, set)) => set.insert(cell as usize),
                        None => per.push((ck, B::single(cell as usize))),
                    }
                }
                per
            })
            .collect();
        let goals = limit > 0 || tables.rules.extinction != 0 || reach.iter().any(|r| !r.is_empty());
        let no_check: Vec<bool> = (0..sides * kinds)
            .map(|ck| tables.kinds[ck % kinds].cannot_check)
            .collect();
        let any_no_check = no_check.iter().any(|&b| b);
        let crowned = tables
            .kinds
            .iter()
            .enumerate()
            .filter_map(|(t, k)| k.crowned.map(|(c, r)| (c, r, t as u8)))
            .collect();
        // Who could take en passant on each cell: an en passant only belongs to the position when
        // someone can take it.
        let mut ep_capturers: Vec<Vec<(u8, B)>> = vec![Vec::new(); cells * sides];
        for ck in 0..sides * kinds {
            for origin in 0..cells {
                let i = ck * cells + origin;
                for r in tables.rays_at(i) {
                    if r.flags & crate::tables::ray::EP_CAPTURE != 0 {
                        let target = tables.pool[r.cells.0 as usize] as usize;
                        let list = &mut ep_capturers[target * sides + ck / kinds];
                        match list.iter_mut().find(|(k, _)| *k as usize == ck) {
                            Some((_, set)) => set.insert(origin),
                            None => list.push((ck as u8, B::single(origin))),
                        }
                    }
                }
            }
        }
        let side_cks: Per64<u64> = (0..sides).map(|s| (((1u128 << kinds) - 1) as u64) << (s * kinds)).collect();
        let mut team_names: Vec<&str> = Vec::new();
        let team: Vec<usize> = tables
            .sides
            .iter()
            .map(|s| match team_names.iter().position(|t| *t == s.team) {
                Some(t) => t,
                None => {
                    team_names.push(&s.team);
                    team_names.len() - 1
                }
            })
            .collect();
        let mut team_sides = vec![0u64; team_names.len()];
        for (s, &t) in team.iter().enumerate() {
            team_sides[t] |= 1 << s;
        }
        let opponents: Vec<Vec<usize>> = (0..sides).map(|s| (0..sides).filter(|&o| team[o] != team[s]).collect()).collect();
        let eliminations = team_sides.len() >= 3 && tables.rules.game_end == GameEnd::LastStanding;
        let mut winders: Vec<Vec<WindRule<B>>> = vec![Vec::new(); sides * kinds];
        let mut wind_cks = vec![Vec::new(); sides];
        for w in &tables.winders {
            let mut next = vec![B::default(); cells];
            for (i, &c) in w.zone.iter().enumerate() {
                next[c as usize] = B::from_cells(w.adjacency[i].iter().map(|&d| d as usize));
            }
            let rule = WindRule { flags: w.flags, zone: B::from_cells(w.zone.iter().map(|&c| c as usize)), next };
            for (s, cks) in wind_cks.iter_mut().enumerate() {
                let ck = s * kinds + w.kind as usize;
                winders[ck].push(rule.clone());
                if !cks.contains(&(ck as u8)) {
                    cks.push(ck as u8);
                }
            }
        }
        let winding = !tables.winders.is_empty();
        let wind_threats: Per64<_> = opponents
            .iter()
            .map(|os| {
                os.iter()
                    .flat_map(|&s| &wind_cks[s])
                    .map(|&ck| (ck, winders[ck as usize].iter().filter(|w| w.flags & crate::tables::ray::CAPTURE != 0).fold(B::default(), |z, w| z.or(w.zone))))
                    .collect()
            })
            .collect();
        let (hoppers, hop_cks) = crate::hops::hop_rules(&tables.hoppers, cells, sides * kinds, sides, kinds);
        let hopping = !tables.hoppers.is_empty();
        let (hop_memo, hop_memo_cells) = crate::hops::hop_memo_kinds(&hoppers, cells, kinds);
        let hop_disjoint = crate::hops::hop_disjoint_cells(&hoppers, cells);
        let homing = piece_moves.iter().any(|m| m.homing && m.plain_slides);
        let hop_watch = crate::hops::hop_watch(&hoppers, &hop_cks, &opponents, cells);
        let hop_attacks: Vec<crate::hops::HopAttacks<B>> = if hopping { crate::hops::hop_attacks(&hoppers, &hop_cks, &no_check, cells) } else { Vec::new() };
        let mut hop_targets = vec![B::default(); if hopping { cells * sides } else { 0 }];
        for (i, a) in hop_attacks.iter().enumerate() {
            let (target, side) = (i / sides, i % sides);
            for p in a.starts.iter() {
                hop_targets[p * sides + side].insert(target);
            }
        }
        let royal_reach = if sides == 2 && B::CAPACITY > 64 {
            (0..sides * kinds * cells)
                .map(|i| {
                    let (ck, m) = (i / cells, &piece_moves[i]);
                    let enemy = 1 - ck / kinds;
                    let leaps = if royal[ck] { m.leap_quiet.or(m.leap_capture) } else { B::default() };
                    leaps.iter().fold(RoyalReach::default(), |r: RoyalReach<B>, t| RoyalReach {
                        direct: r.direct.or(direct_reach[t * 2 + enemy]),
                        lines: r.lines.or(line_reach[t]),
                        hops: r.hops.or(hop_attacks.get(t * 2 + enemy).map_or(B::default(), |a| a.starts)),
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        // Winding and hop moves are not in the rays: their pieces may promote wherever they
        // stand. A hopping piece is never skipped for its blocked rays (a hop leaps what blocks
        // them); a winding rule's flood leaves its start through the cells next to it
        // (`WindRule::next`), so where those hold pieces it may not capture, the rule has no
        // move either: they are gates too.
        for ck in 0..sides * kinds {
            if !winders[ck].is_empty() || !hoppers[ck].is_empty() {
                for (from, m) in piece_moves[ck * cells..(ck + 1) * cells].iter_mut().enumerate() {
                    m.may_promote = promotion[ck].is_some();
                    if hoppers[ck].is_empty() {
                        for w in winders[ck].iter().filter(|w| w.zone.has(from)) {
                            m.gates = m.gates.or(w.next[from]);
                        }
                    } else {
                        m.gated = false;
                    }
                }
            } else {
                use crate::tables::ray::{EP_TARGET, INITIAL, QUIET, SLIDE};
                // A quiet double step that sets en-passant cells, while the piece is unmoved.
                let step = |sp: &Special| {
                    let r = &rays[sp.ray as usize];
                    let plain = sp.flags == INITIAL | EP_TARGET | QUIET && r.flags & SLIDE == 0 && r.cells.1 - r.cells.0 == 1 && sp.pass != NO_CELL;
                    plain.then(|| tables.pool[r.cells.0 as usize])
                };
                for (from, m) in piece_moves[ck * cells..(ck + 1) * cells].iter_mut().enumerate() {
                    let apart = m.slides.0 == m.slides.1 && initial_steps_apart(&specials[m.specials.0 as usize..m.ep_only as usize], step);
                    m.leaper = if m.slides.0 != m.slides.1 {
                        leaps::NO
                    } else if m.specials.0 == m.specials.1 {
                        leaps::PLAIN
                    } else if !m.may_promote && apart {
                        leaps::INITIAL
                    } else {
                        leaps::NO
                    };
                    // (Its leaps, captures en passant included, promote nowhere from here.)
                    m.moved_leaper = m.leaper == leaps::NO
                        && apart
                        && promotion[ck].as_ref().is_some_and(|p| !p.from.has(from) && !m.leap_quiet.or(m.leap_capture).intersects(p.zone));
                    let initial = &specials[m.specials.0 as usize..m.ep_only as usize];
                    if let (leaps::INITIAL, [sp]) = (m.leaper, initial) {
                        m.one_step = true;
                        m.step = (sp.to, sp.pass);
                    }
                }
            }
        }
        // The leaper classes each kind has somewhere (see `Game::kind_leaps`).
        let kind_leaps = std::array::from_fn(|ck| piece_moves.get(ck * cells..(ck + 1) * cells).unwrap_or_default().iter().fold(0, |k, m| k | m.leaper));
        // A rule that captures only royal pieces and has no quiet move (Xiangqi's flying general,
        // `capture-only slide orth takes K`) makes no move where a royal piece is never captured
        // (two sides, no stacks: docs/language.md, "Royal pieces are never captured"): it only
        // attacks, and move generation leaves it out (Xiangqi -5.8 instructions a leaf).
        let only_attacks = |r: &crate::hops::HopRule<B>| {
            use crate::tables::hop::{CAPTURE, QUIET};
            sides == 2 && !stacks && r.flags & (QUIET | CAPTURE) == CAPTURE && (0..kinds).all(|k| r.takes >> k & 1 == 0 || royal[k])
        };
        let walked: Per64<bool> = (0..sides * kinds).map(|ck| !winders[ck].is_empty() || hoppers[ck].iter().any(|r| !only_attacks(r))).collect();
        let any_order: Per64<_> = (0..sides)
            .map(|s| {
                let side = &tables.sides[s];
                let count = |k: usize| side.setup.iter().chain(&side.atop).filter(|&&(_, kind)| kind as usize == k).count();
                let mut order: Vec<usize> = (0..kinds).collect();
                order.sort_by_key(|&k| (royal[s * kinds + k], std::cmp::Reverse(count(k))));
                order.into_iter().map(|k| (s * kinds + k) as u8).collect()
            })
            .collect();
        // (The facing lines' runs go into `segments` too; no line's: their kinds are 0.)
        let passing = crate::passing::Passing::new(&tables, cells, [0, splitmix(&mut seed), splitmix(&mut seed), splitmix(&mut seed)], &mut segments);
        run_kinds.resize(segments.len(), 0);
        // The runs of cells past the sets' capacity (transit cells, `crate::bits::Standing64`)
        // never block: emptied, in word 0, which is the only word such sets read.
        for s in segments.iter_mut().filter(|s| s.word as usize * 64 >= B::CAPACITY) {
            *s = Segment { mask: 0, word: 0, ..*s };
        }
        let mut game = Game {
            passing,
            kind_leaps,
            hoppers: hoppers.into_iter().collect(),
            hopping,
            hop_memo: hop_memo.into_iter().collect(),
            hop_memo_cells,
            hop_disjoint: hop_disjoint.into_iter().collect(),
            hop_cks,
            hop_attacks,
            hop_watch,
            hop_targets,
            winders: winders.into_iter().collect(),
            winding,
            homing,
            wind_cks: wind_cks.into_iter().collect(),
            wind_threats,
            stacks,
            hands,
            no_check: no_check.into_iter().collect(),
            any_no_check,
            crowned,
            team: team.into_iter().collect(),
            team_sides: team_sides.into_iter().collect(),
            opponents: opponents.into_iter().collect(),
            eliminations,
            castle_cell_set: castle_cells.iter().fold(B::default(), |s, &(k, r)| s.or(B::single(k)).or(B::single(r))),
            castle_cells,
            ep_capturers,
            transit,
            side_cks,
            side_of: std::array::from_fn(|ck| (ck / kinds.max(1)).min(255) as u8),
            kind_of: std::array::from_fn(|ck| (ck % kinds.max(1)) as u8),
            any_order,
            walked,
            cells,
            kinds,
            sides,
            pool,
            rays,
            segments,
            piece_moves,
            slide_runs,
            specials,
            ray_index: tables.ray_index.clone(),
            direct_index,
            direct,
            direct_reach,
            direct_reach_any,
            direct_from,
            royal_reach,
            direct_by_piece,
            line_index,
            lines,
            run_kinds,
            line_ck_mask,
            royal_ck_mask: royal.iter().enumerate().fold(0u64, |m, (ck, &r)| m | (r as u64) << (ck & 63)),
            line_cks: line_cks.into_iter().collect(),
            line_reach,
            line_pair_index,
            line_pairs,
            by_pairs,
            many_ways,
            lines_as_slides: lines_as_slides.into_iter().collect(),
            crowning_cks,
            promotion: promotion.into_iter().collect(),
            castles: castles.into_iter().collect(),
            castle_kings,
            royal: royal.into_iter().collect(),
            resets_clock,
            reach,
            goals,
            untouched: false,
            zobrist,
            tables,
            keep_cells: Per64::new(0),
        };
        game.keep_cells = crate::kept_counts::keep_cells(&game).into_iter().collect();
        game.untouched = crate::untouched::counts_only(&game);
        game
    }
}
