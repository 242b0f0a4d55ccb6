//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator.
//!
//! One move buffer per ply, allocated the first time the count gets that deep (a deep count of a
//! finished game allocates nothing), then reused; the last ply is counted in bulk (the number of
//! legal moves, [`Position::count_legal`], mostly by the sizes of destination sets) instead of
//! being played. Depths are capped at [`MAX_DEPTH`] by the callers that
//! take them from users ([`crate::Engine`]).
//!
//! Two extras, for speed only: [`count_parallel`] splits the moves of the root over threads (each
//! with its own copy of the position), and a [`PerftTable`] remembers the counts of positions
//! already counted (transpositions), shared by the threads without locks.

use crate::bits::CellSet;
use crate::game::Game;
use crate::kept_counts::KeptCounts;
use crate::position::{Move, MoveKind, Position, NO_PROMOTION};
use crate::untouched::UntouchedChildren;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The deepest perft (and search) the engine accepts from a user: far beyond what can finish, and
/// shallow enough that the recursion's stack stays small.
pub const MAX_DEPTH: usize = 64;

/// The most threads a parallel perft uses.
pub const MAX_THREADS: usize = 256;

/// The largest perft table, in MiB.
pub const MAX_TABLE_MB: usize = 65_536;

/// Reusable move buffers, one per ply reached so far, and the table, if any.
#[derive(Default)]
pub struct Perft<'t> {
    buffers: Vec<Vec<Move>>,
    /// The marks by cell of the royal lines kept for the last ply (`crate::pins`).
    marks: Vec<u16>,
    table: Option<&'t PerftTable>,
}

impl<'t> Perft<'t> {
    pub fn new() -> Perft<'t> {
        Perft::default()
    }

    /// A perft that looks counts up in `table` and stores them there.
    pub fn with_table(table: Option<&'t PerftTable>) -> Perft<'t> {
        Perft { buffers: Vec::new(), marks: Vec::new(), table }
    }

    /// Leaf nodes at `depth` plies below `pos`.
    pub fn count<B: CellSet>(&mut self, game: &Game<B>, pos: &mut Position<B>, depth: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut counts = KeptCounts::new(game, pos);
        self.recurse(game, pos, depth, 0, &mut counts)
    }

    fn recurse<B: CellSet>(&mut self, game: &Game<B>, pos: &mut Position<B>, depth: usize, ply: usize, counts: &mut KeptCounts<B>) -> u64 {
        // Counts one ply deep cost less to make than to look up.
        let key = match self.table {
            Some(t) if depth >= 2 => {
                let key = PerftTable::key(pos, depth);
                if let Some(n) = t.probe(key) {
                    return n;
                }
                Some(key)
            }
            _ => None,
        };
        if self.buffers.len() <= ply {
            self.buffers.push(Vec::with_capacity(256));
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        let nodes = if depth == 1 {
            pos.count_legal_settling(game, &mut moves)
        } else {
            pos.legal_moves(game, &mut moves);
            let mut n = 0;
            if depth == 2 {
                // The last ply counted here, with the next ply's buffer as scratch: what
                // `recurse` does at depth 1 (where no table is looked at), without the call.
                // A position only counted is settled by its count (it finds whether the side to
                // move has a move anyway).
                if self.buffers.len() <= ply + 1 {
                    self.buffers.push(Vec::with_capacity(256));
                }
                let scratch = &mut self.buffers[ply + 1];
                // The lines out of the next side's royal piece, walked once for the children
                // and again in a child only where its move touched them (`crate::pins`). (Two
                // loops: one loop matching `kept` per move cost orthodox and the soccer ball 0.5%.)
                let next = pos.side_after(game, pos.to_move).0;
                let kept = pos.royal_lines_for_children(game, next, &mut self.marks);
                // And the attacks along lines on its destinations (`crate::kept_destinations`).
                let destinations = if game.many_ways { pos.destinations_for_children(game, next) } else { None };
                // Whether royal pieces face each other here, which every move made asks; in a
                // game with a facing rule, also the cells that answer it: after a move that
                // touched none of them the answer is the same.
                let facing_read = pos.facing_read(game);
                let faced = Some(facing_read.map_or_else(|| pos.royals_face(game), |(faced, _)| faced));
                // With hops, the next side's hop zone and hop checks likewise (`crate::hops`).
                let hops = game.hopping && pos.keep_hops_for_children(game, next);
                // The next side's pieces counted once for all the children (`crate::kept_counts`),
                // their dependence on the cells these moves touch.
                counts.keep(game, pos, next, KeptCounts::touched(game, pos, &moves, next));
                let counts = &*counts;
                // The children whose count is the kept counts' sum, without their moves made
                // (`crate::untouched`).
                let untouched = if game.untouched && counts.enabled { UntouchedChildren::new(game, pos, next, kept.as_ref(), counts) } else { None };
                if let Some(u) = &untouched {
                    n = if game.hands.is_some() {
                        u.count_children::<true>(game, pos, scratch, &moves, kept.as_ref(), destinations.as_ref(), faced, counts)
                    } else {
                        u.count_children::<false>(game, pos, scratch, &moves, kept.as_ref(), destinations.as_ref(), faced, counts)
                    };
                } else {
                    match (facing_read.map(|(_, read)| read), kept) {
                        (read, kept) if read.is_some() || hops => {
                            for &mv in &moves {
                                let plain = matches!(mv.kind, MoveKind::Normal | MoveKind::EnPassantTarget) && mv.promotion == NO_PROMOTION;
                                let facing = read.and_then(|read| faced.filter(|_| plain && !read.has(mv.from as usize) && !read.has(mv.to as usize)));
                                let undo = pos.make_unsettled(game, mv, faced);
                                let lines = kept.as_ref().filter(|k| k.applies_after(mv)).map(|k| (k, mv));
                                if hops {
                                    pos.know_hops(game, mv);
                                }
                                if let Some(d) = &destinations {
                                    pos.know_destinations(d, mv);
                                }
                                n += pos.count_legal_settling_facing(game, scratch, lines, facing, counts.enabled.then_some((counts, mv)));
                                pos.forget_hops();
                                pos.unmake_inlined(game, &undo);
                            }
                            if hops {
                                pos.drop_kept_hops();
                            }
                        }
                        (_, Some(kept)) => {
                            for &mv in &moves {
                                let undo = pos.make_unsettled(game, mv, faced);
                                if let Some(d) = &destinations {
                                    pos.know_destinations(d, mv);
                                }
                                n += if kept.applies_after(mv) {
                                    if counts.enabled {
                                        pos.count_legal_settling_kept_counts(game, scratch, &kept, mv, counts)
                                    } else {
                                        pos.count_legal_settling_kept(game, scratch, &kept, mv)
                                    }
                                } else if counts.enabled {
                                    pos.count_legal_settling_counts(game, scratch, counts, mv)
                                } else {
                                    pos.count_legal_settling(game, scratch)
                                };
                                pos.unmake_inlined(game, &undo);
                            }
                        }
                        (_, None) => {
                            for &mv in &moves {
                                let undo = pos.make_unsettled(game, mv, faced);
                                if let Some(d) = &destinations {
                                    pos.know_destinations(d, mv);
                                }
                                n += if counts.enabled {
                                    pos.count_legal_settling_counts(game, scratch, counts, mv)
                                } else {
                                    pos.count_legal_settling(game, scratch)
                                };
                                pos.unmake_inlined(game, &undo);
                            }
                        }
                    }
                }
                if destinations.is_some() {
                    pos.forget_destinations();
                }
            } else {
                for &mv in &moves {
                    let undo = pos.make(game, mv);
                    n += self.recurse(game, pos, depth - 1, ply + 1, counts);
                    pos.unmake(game, &undo);
                }
            }
            n
        };
        self.buffers[ply] = moves;
        if let (Some(t), Some(key)) = (self.table, key) {
            t.store(key, nodes);
        }
        nodes
    }

    /// Leaf counts below each legal move (perft "divide").
    pub fn divide<B: CellSet>(&mut self, game: &Game<B>, pos: &mut Position<B>, depth: usize) -> Vec<(Move, u64)> {
        let mut moves = Vec::new();
        pos.legal_moves(game, &mut moves);
        moves
            .into_iter()
            .map(|mv| {
                let undo = pos.make(game, mv);
                let n = self.count(game, pos, depth.saturating_sub(1));
                pos.unmake(game, &undo);
                (mv, n)
            })
            .collect()
    }
}

/// Leaf counts below each legal move of `pos`, the moves shared out over `threads` threads (each
/// takes the next uncounted move and counts it on its own copy of the position).
pub fn divide_parallel<B: CellSet>(
    game: &Game<B>,
    pos: &Position<B>,
    depth: usize,
    threads: usize,
    table: Option<&PerftTable>,
) -> Vec<(Move, u64)> {
    let mut root = pos.clone();
    let mut moves = Vec::new();
    root.legal_moves(game, &mut moves);
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let threads = threads.clamp(1, MAX_THREADS).min(moves.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            // (Each thread's copy made here: a position is not shared between threads.)
            let mut pos = pos.clone();
            let (moves, counts, next) = (&moves, &counts, &next);
            scope.spawn(move || {
                let mut perft = Perft::with_table(table);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&mv) = moves.get(i) else { break };
                    let undo = pos.make(game, mv);
                    counts[i].store(perft.count(game, &mut pos, depth.saturating_sub(1)), Ordering::Relaxed);
                    pos.unmake(game, &undo);
                }
            });
        }
    });
    moves.into_iter().zip(counts).map(|(m, n)| (m, n.into_inner())).collect()
}

/// Leaf nodes at `depth` plies below `pos`, over `threads` threads (see [`divide_parallel`]).
pub fn count_parallel<B: CellSet>(game: &Game<B>, pos: &Position<B>, depth: usize, threads: usize, table: Option<&PerftTable>) -> u64 {
    if depth == 0 {
        return 1;
    }
    if threads <= 1 {
        return Perft::with_table(table).count(game, &mut pos.clone(), depth);
    }
    divide_parallel(game, pos, depth, threads, table).iter().map(|(_, n)| n).sum()
}

/// A table of perft counts by position and depth: a fixed number of slots (the memory is taken
/// once, at creation), each holding the last count stored there. Keys are the position's 64-bit
/// hash mixed with the depth, so two positions that differ but hash alike (vanishingly rare)
/// would share a count. Threads share it without locks: a slot holds the key XOR the count next
/// to the count, so a slot torn by two writers never matches.
pub struct PerftTable {
    slots: Vec<[AtomicU64; 2]>,
}

impl PerftTable {
    /// A table of at most `megabytes` MiB (a power of two slots of 16 bytes; at least one), or
    /// `None` when the memory cannot be had.
    pub fn new(megabytes: usize) -> Option<PerftTable> {
        let bytes = megabytes.min(MAX_TABLE_MB) << 20;
        let mut len = 1usize;
        while len * 2 * 16 <= bytes {
            len *= 2;
        }
        let mut slots = Vec::new();
        slots.try_reserve_exact(len).ok()?;
        slots.extend((0..len).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Some(PerftTable { slots })
    }

    /// The key of `pos` counted to `depth`: the position hash, the en-passant victim (the hash
    /// covers the en-passant cells but not which piece would be taken) and the depth.
    fn key<B: CellSet>(pos: &Position<B>, depth: usize) -> u64 {
        let mut k = pos.hash ^ (depth as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if !pos.ep_cells.is_empty() {
            k ^= (pos.ep_victim as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        }
        k
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    fn probe(&self, key: u64) -> Option<u64> {
        let [check, nodes] = self.slot(key);
        let nodes = nodes.load(Ordering::Relaxed);
        (check.load(Ordering::Relaxed) ^ nodes == key && key != 0).then_some(nodes)
    }

    fn store(&self, key: u64, nodes: u64) {
        let [check, n] = self.slot(key);
        check.store(key ^ nodes, Ordering::Relaxed);
        n.store(nodes, Ordering::Relaxed);
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * 16
    }
}
