//! Lowering: the checked model to the runtime's tables.
//!
//! The rays come walked ([`crate::walk`], once, by `check`): every rule of every piece, from every
//! cell, for every side. Here they are stored (once per piece and cell for all the sides that move
//! alike) and inverted into attack structures per target cell: direct attackers as cell sets per
//! colored kind, and lines out from the target (a trie of reversed paths, flattened root to leaf)
//! with the colored kinds that attack from each cell. Nothing here can fail: the model is already
//! checked.

use crate::model::{CellId, Mode, Variant};
use crate::walk::{hop_lines, PathRay, Walked};
use orbis_runtime::tables::{self, ray, Attack, CastleInfo, GridInfo, KindInfo, PromotionInfo, RulesInfo, SideInfo, Tables, NO_CELL};
use std::collections::BTreeMap;
// Walks hash small keys millions of times on large boards: FxHash, not SipHash (no untrusted keys).
use rustc_hash::FxHashSet as HashSet;
use rustc_hash::FxHashMap as HashMap;

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

/// Lowers a checked variant to tables.
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

    // Rays per colored kind and cell; attack instances per target on the way. Sides whose rays
    // on a cell are equal (a symmetric piece's) share one range of `rays`, equal cell lists one
    // range of the pool (a queen's and a rook's along one line), and equal mask lists one range
    // of `masks`: the runtime only reads them.
    let walked = v.walked();
    let mut pool = Interned::default();
    let mut scratch = Vec::new();
    let mut masks_pool = Interned::default();
    // target -> ck -> direct sources; target -> the trie of reversed paths to it.
    let mut direct: Vec<BTreeMap<u8, Vec<CellId>>> = vec![BTreeMap::new(); ncells];
    let mut tries: Vec<Trie> = (0..ncells).map(|_| Trie::default()).collect();
    let mut by_kind: Vec<Vec<SideRays>> = (0..nkinds).map(|kind| (0..ncells).map(|origin| side_rays(v, walked, kind, origin)).collect()).collect();
    t.ray_index = vec![(0, 0); nsides * nkinds * ncells];
    // Side by side, so that the lists (and the attack lines) come in the order of the sides.
    for side in 0..nsides {
        for (kind, (piece, per_cell)) in v.pieces.iter().zip(&mut by_kind).enumerate() {
            for (origin, rays) in per_cell.iter_mut().enumerate() {
                let list = rays.of_side[side];
                let range = match rays.ranges[list] {
                    Some(range) => range,
                    None => {
                        // The colored kinds of every side moving by this list.
                        let cks = (0..nsides).filter(|&s| rays.of_side[s] == list).fold(0u64, |m, s| m | 1 << (s * nkinds + kind));
                        let start = t.rays.len() as u32;
                        for r in &rays.lists[list] {
                            // Attacks are what check is made of: a piece that cannot check has none.
                            if r.flags & ray::CAPTURE != 0 && !piece.cannot_check {
                                record_attacks(r, origin, cks, &mut direct, &mut tries);
                            }
                            let must_empty = pool.push_cells(&mut scratch, &r.must_empty);
                            let cells = pool.push_cells(&mut scratch, &r.cells);
                            t.rays.push(tables::Ray { flags: r.flags, heading: r.heading as u8, must_empty, cells });
                        }
                        let range = (start, t.rays.len() as u32);
                        rays.ranges[list] = Some(range);
                        range
                    }
                };
                t.ray_index[(side * nkinds + kind) * ncells + origin] = range;
            }
        }
    }

    t.attack_index.push(0);
    for target in 0..ncells {
        for (&ck, sources) in &direct[target] {
            let cells = pool.push_cells(&mut scratch, sources);
            t.attacks.push(Attack::Direct { ck, cells });
        }
        for (cells, masks) in tries[target].lines() {
            let cells = pool.push_cells(&mut scratch, &cells);
            let (start, _) = masks_pool.push(&masks);
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
    fn push(&mut self, run: &[T]) -> (u32, u32) {
        if run.is_empty() {
            return (0, 0);
        }
        if let Some(&range) = self.runs.get(run) {
            return range;
        }
        let start = self.items.len() as u32;
        self.items.extend_from_slice(run);
        let range = (start, self.items.len() as u32);
        self.runs.insert(run.to_vec(), range);
        range
    }
}

impl Interned<u16> {
    /// [`Interned::push`] for a list of cells, written as `u16` into `scratch` first.
    fn push_cells(&mut self, scratch: &mut Vec<u16>, cells: &[CellId]) -> (u32, u32) {
        scratch.clear();
        scratch.extend(cells.iter().map(|&c| c as u16));
        self.push(scratch)
    }
}

/// One piece's rays on one cell for every side: the distinct lists (each rule's rays in rule
/// order, a ray given by two rules once) and the list each side moves by.
struct SideRays<'a> {
    lists: Vec<Vec<&'a PathRay>>,
    of_side: Vec<usize>,
    /// Each list's range in the tables' `rays`, once it is stored.
    ranges: Vec<Option<(u32, u32)>>,
}

/// The rays of piece `kind` on `origin`, per side, equal lists stored once.
fn side_rays<'a>(v: &Variant, walked: &'a Walked, kind: usize, origin: CellId) -> SideRays<'a> {
    let rules = v.pieces[kind].rules.len();
    let shared = (0..rules).all(|rule| walked.same_for_every_side(kind, rule));
    let mut out = SideRays { lists: Vec::new(), of_side: Vec::with_capacity(v.sides.len()), ranges: Vec::new() };
    for side in 0..v.sides.len() {
        if shared && side > 0 {
            out.of_side.push(0);
            continue;
        }
        let mut seen = HashSet::default();
        let list: Vec<&PathRay> = (0..rules).flat_map(|rule| walked.rule(kind, rule, side, origin)).filter(|r| seen.insert(*r)).collect();
        let i = match out.lists.iter().position(|l| *l == list) {
            Some(i) => i,
            None => {
                out.lists.push(list);
                out.lists.len() - 1
            }
        };
        out.of_side.push(i);
    }
    out.ranges = vec![None; out.lists.len()];
    out
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

/// Records who attacks what along one capturing ray from `origin`: the colored kinds `cks` (a
/// set, bit `ck`) of every side that moves by it.
fn record_attacks(r: &PathRay, origin: CellId, cks: u64, direct: &mut [BTreeMap<u8, Vec<CellId>>], tries: &mut [Trie]) {
    for (j, &target) in r.cells.iter().enumerate() {
        // A cell met again (a line round a closed surface) was recorded the first time.
        if r.cells[..j].contains(&target) {
            continue;
        }
        if r.flags & ray::SLIDE == 0 && j > 0 {
            break;
        }
        if j == 0 && r.must_empty.is_empty() {
            for ck in Bits(cks) {
                let list = direct[target].entry(ck).or_default();
                if !list.contains(&origin) {
                    list.push(origin);
                }
            }
        } else {
            // From the target back to the origin: the cells that must be empty, then the attacker.
            let path = r.cells[..j].iter().rev().chain(r.must_empty.iter().rev()).chain(std::iter::once(&origin));
            tries[target].insert(path.copied(), cks);
        }
    }
}

/// The members of a set of colored kinds (bit `ck`), lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let ck = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(ck)
    }
}

/// The reversed paths to one target merged into a trie: each node a cell with the colored kinds
/// that attack from it, children in the order they were first met.
#[derive(Default)]
struct Trie {
    nodes: Vec<TrieNode>,
    /// The first root; roots are siblings.
    root: Option<u32>,
}

struct TrieNode {
    cell: CellId,
    mask: u64,
    first_child: Option<u32>,
    next_sibling: Option<u32>,
}

impl Trie {
    /// Adds the path `cells` (target outwards), its last cell attacking with the kinds `cks`.
    fn insert(&mut self, cells: impl Iterator<Item = CellId>, cks: u64) {
        let mut parent: Option<u32> = None;
        for cell in cells {
            let first = match parent {
                None => self.root,
                Some(p) => self.nodes[p as usize].first_child,
            };
            // Find the cell among the siblings, or append it after the last.
            let (mut at, mut last) = (first, None);
            while let Some(n) = at {
                if self.nodes[n as usize].cell == cell {
                    break;
                }
                last = at;
                at = self.nodes[n as usize].next_sibling;
            }
            let id = match at {
                Some(n) => n,
                None => {
                    let id = self.nodes.len() as u32;
                    self.nodes.push(TrieNode { cell, mask: 0, first_child: None, next_sibling: None });
                    match (last, parent) {
                        (Some(l), _) => self.nodes[l as usize].next_sibling = Some(id),
                        (None, None) => self.root = Some(id),
                        (None, Some(p)) => self.nodes[p as usize].first_child = Some(id),
                    }
                    id
                }
            };
            parent = Some(id);
        }
        if let Some(p) = parent {
            self.nodes[p as usize].mask |= cks;
        }
    }

    /// The trie flattened into lines from root to leaf, each cell with the mask of colored kinds
    /// that attack from it.
    fn lines(&self) -> Vec<(Vec<CellId>, Vec<u64>)> {
        let mut out = Vec::new();
        let (mut cells, mut masks) = (Vec::new(), Vec::new());
        // Depth-first, children in order: (node, depth at which it stands).
        let mut stack: Vec<(u32, usize)> = Vec::new();
        let push_siblings = |stack: &mut Vec<(u32, usize)>, first: Option<u32>, depth: usize| {
            let mut siblings = Vec::new();
            let mut at = first;
            while let Some(n) = at {
                siblings.push(n);
                at = self.nodes[n as usize].next_sibling;
            }
            stack.extend(siblings.into_iter().rev().map(|n| (n, depth)));
        };
        push_siblings(&mut stack, self.root, 0);
        while let Some((n, depth)) = stack.pop() {
            let node = &self.nodes[n as usize];
            cells.truncate(depth);
            masks.truncate(depth);
            cells.push(node.cell);
            masks.push(node.mask);
            if node.first_child.is_none() {
                out.push((cells.clone(), masks.clone()));
            } else {
                push_siblings(&mut stack, node.first_child, depth + 1);
            }
        }
        out
    }
}
