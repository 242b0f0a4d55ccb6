//! Perft speed benchmark, one thread (docs/performance.md).
//!
//! Run with `cargo bench --bench perft` (add `-- quick` for one ply less everywhere). Two parts:
//!
//! 1. Orthodox chess against the bitboard move generators cozy-chess and shakmaty, in the same run
//!    on the same positions (start perft 6, Kiwipete perft 5, position 3 perft 7), the three
//!    timed in turn: seconds of each and orbis's speed as a fraction of theirs (their time /
//!    orbis's time; the goal of issue 16 is at least 0.30 of cozy-chess).
//! 2. Every variant file in examples/ (libraries left out) and the polygon test positions of
//!    tests/polygon/: perft from the start at the deepest depth up to 5 whose count stays under
//!    [`BOARD_NODES`], and the cost per leaf relative to orthodox perft at the same depth, the
//!    two timed in turn (the goal is at most 1.10).
//!
//! Every count is checked (published orthodox counts, and each engine against orbis), so a fast
//! wrong engine cannot report a speed. Times are the best of several runs.

use orbis_runtime::{Engine, Tables};
use std::path::{Path, PathBuf};

/// The orthodox positions: name, FEN, depth, published count at that depth and one less.
const ORTHODOX: &[(&str, &str, usize, u64, u64)] = &[
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324, 4_865_609),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690, 4_085_603),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178_633_661, 11_030_083),
];

/// Runs per orthodox measurement (the best is kept).
const ORTHODOX_RUNS: usize = 5;

/// The per-board part counts up to this many leaves per board (so each takes about a second).
const BOARD_NODES: u64 = 12_000_000;

/// Deepest depth of the per-board part.
const BOARD_DEPTH: usize = 5;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The checked tables of a variant file, round-tripped through the binary format; `None` for a
/// library file.
fn tables(file: &Path) -> Option<Tables> {
    let source = std::fs::read_to_string(file).expect("example exists");
    let name = file.to_string_lossy();
    let checked = orbis_compiler::check(&name, &source);
    if checked.library {
        return None;
    }
    let variant = checked.variant.unwrap_or_else(|| panic!("{name} does not check"));
    Some(Tables::from_bytes(&orbis_compiler::lower::lower(&variant).to_bytes()).expect("tables load"))
}

/// The CPU time of this thread, in seconds: what the benchmark measures, since other work on a
/// shared machine stretches wall-clock time but not this.
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to write.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Best of at least `runs` timings of each of `counts`, taken in turn (one run of each per
/// round), so that a slow spell of the shared machine slows them alike rather than one of them;
/// more rounds, up to 50, while they add up to less than a quarter of a second, so that short
/// counts are timed often: (nodes, CPU seconds) of each.
fn best_of_each<const N: usize>(runs: usize, mut counts: [&mut dyn FnMut() -> u64; N]) -> [(u64, f64); N] {
    let mut best = [(0, f64::INFINITY); N];
    let mut total = 0.0;
    let mut done = 0;
    while done < runs || (total < 0.25 && done < 50) {
        for (count, best) in counts.iter_mut().zip(&mut best) {
            let start = cpu_seconds();
            let nodes = count();
            let t = cpu_seconds() - start;
            *best = (nodes, best.1.min(t));
            total += t;
        }
        done += 1;
    }
    best
}

/// cozy-chess perft, the last ply counted in bulk like orbis's.
fn cozy_perft(board: &cozy_chess::Board, depth: usize) -> u64 {
    let mut nodes = 0;
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

fn shakmaty_position(fen: &str) -> shakmaty::Chess {
    let fen: shakmaty::fen::Fen = fen.parse().expect("fen");
    fen.into_position(shakmaty::CastlingMode::Standard).expect("position")
}

/// Variant files under `dir`, recursively, sorted (libraries are dropped later, when they check
/// as libraries).
fn variant_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).expect("directory").map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "invalid") {
                variant_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "orbis") {
            out.push(p);
        }
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");

    println!("orthodox perft, one thread: CPU seconds (best of {ORTHODOX_RUNS}, the three in turn); speed relative to orbis = their seconds / orbis's");
    println!(
        "{:<12} {:>5} {:>12} {:>8} {:>8} {:>8} {:>10} {:>10} {:>9}",
        "position", "depth", "nodes", "orbis", "cozy", "shakmaty", "vs cozy", "vs shakm.", "orbis M/s"
    );
    let orthodox = Engine::new(tables(&root().join("examples/orthodox.orbis")).unwrap()).expect("engine");
    for &(name, fen, depth, expected, expected_quick) in ORTHODOX {
        let (depth, expected) = if quick { (depth - 1, expected_quick) } else { (depth, expected) };
        let board: cozy_chess::Board = fen.parse().expect("fen");
        let pos = shakmaty_position(fen);
        let [(nodes, orbis), (cozy_nodes, cozy), (shakmaty_nodes, shakmaty)] = best_of_each(
            ORTHODOX_RUNS,
            [
                &mut || orthodox.perft(Some(fen), depth).expect("position"),
                &mut || cozy_perft(&board, depth),
                &mut || shakmaty::perft(&pos, depth as u32),
            ],
        );
        assert_eq!(nodes, expected, "orbis: wrong count for {name}");
        assert_eq!(cozy_nodes, expected, "cozy-chess: wrong count for {name}");
        assert_eq!(shakmaty_nodes, expected, "shakmaty: wrong count for {name}");
        println!(
            "{:<12} {:>5} {:>12} {:>8.3} {:>8.3} {:>8.3} {:>9.2}x {:>9.2}x {:>9.1}",
            name,
            depth,
            nodes,
            orbis,
            cozy,
            shakmaty,
            cozy / orbis,
            shakmaty / orbis,
            nodes as f64 / orbis / 1e6
        );
    }

    // Every board, against orthodox at the same depth.
    let top = if quick { BOARD_DEPTH - 1 } else { BOARD_DEPTH };
    let budget = if quick { BOARD_NODES / 20 } else { BOARD_NODES };
    let runs = 3;
    println!();
    println!("every board from its start, at the deepest depth <= {top} under {budget} leaves; cost per leaf relative to orthodox at that depth, timed in turn with it (goal <= 1.10)");
    println!("{:<50} {:>5} {:>5} {:>12} {:>9} {:>9} {:>6}", "variant", "cells", "depth", "nodes", "CPU s", "ns/leaf", "cost");
    let mut files = Vec::new();
    variant_files(&root().join("examples"), &mut files);
    variant_files(&root().join("tests/polygon"), &mut files);
    for file in files {
        let Some(t) = tables(&file) else { continue };
        let cells = t.cells.len();
        let engine = Engine::new(t).expect("engine");
        // The deepest depth under the budget, found by counting upwards.
        let mut depth = 1;
        let mut last = engine.perft(None, 1).expect("start");
        while depth < top && last > 0 {
            let next = last * last.max(1) / engine.perft(None, depth - 1).expect("start").max(1);
            if next > budget {
                break;
            }
            depth += 1;
            last = engine.perft(None, depth).expect("start");
        }
        // Orthodox at the same depth, timed in turn with the board.
        let [(nodes, best), (orthodox_nodes, orthodox_best)] =
            best_of_each(runs, [&mut || engine.perft(None, depth).expect("start"), &mut || orthodox.perft(None, depth).expect("start")]);
        let ns = best * 1e9 / nodes.max(1) as f64;
        let orthodox_ns = orthodox_best * 1e9 / orthodox_nodes as f64;
        let name = file.strip_prefix(root()).unwrap_or(&file).to_string_lossy().into_owned();
        println!(
            "{:<50} {:>5} {:>5} {:>12} {:>9.3} {:>9.2} {:>5.2}x",
            name,
            cells,
            depth,
            nodes,
            best,
            ns,
            ns / orthodox_ns
        );
    }
}
