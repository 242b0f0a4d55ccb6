//! Perft speed benchmark: single-thread nodes/s on the positions named in docs/performance.md.
//!
//! Run with `cargo bench --bench perft` (add `-- quick` for shallower depths). Each position is
//! counted several times; the best time is reported. The counts are checked against the expected
//! values, so a fast wrong engine cannot report a speed.
//!
//! Three parts: the fixed cases below, then a same-depth comparison of the Spherical Chess family:
//! perft 5 from the start of every variant file in examples/spherical/ (found by listing the
//! directory, libraries left out), next to orthodox and cylindrical, each with its cost per node
//! relative to orthodox (orthodox nodes/s divided by the version's; the goal is at most 1.25);
//! last the boards of polygons (the test positions of tests/polygon/), at depths that take about
//! as long as orthodox perft 5, with the cost per leaf and per generated position (their
//! branching differs too much from orthodox for one depth to fit all).

use orbis_runtime::{Engine, Tables};
use std::path::Path;
use std::time::Instant;

struct Case {
    name: &'static str,
    file: &'static str,
    position: Option<&'static str>,
    depth: usize,
    quick_depth: usize,
    /// Expected nodes at `depth` (None: not published; printed only).
    expected: Option<u64>,
}

const CASES: &[Case] = &[
    Case { name: "orthodox start", file: "examples/orthodox.orbis", position: None, depth: 6, quick_depth: 5, expected: Some(119_060_324) },
    Case {
        name: "orthodox kiwipete",
        file: "examples/orthodox.orbis",
        position: Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        depth: 5,
        quick_depth: 4,
        expected: Some(193_690_690),
    },
    Case { name: "cylindrical start", file: "examples/cylindrical.orbis", position: None, depth: 5, quick_depth: 4, expected: None },
    Case { name: "nadvorney start", file: "examples/spherical/nadvorney.orbis", position: None, depth: 5, quick_depth: 4, expected: None },
];

/// Depth of the family comparison (one less with `quick`), and the published orthodox count there.
const FAMILY_DEPTH: usize = 5;
const ORTHODOX_PERFT_5: u64 = 4_865_609;
const ORTHODOX_PERFT_4: u64 = 197_281;
/// Runs per family position (most take a tenth of a second; the best time is kept, so more runs
/// make the ratios steadier on a shared machine).
const FAMILY_RUNS: usize = 10;

/// The boards of polygons: (file, depth, quick depth).
const POLYGON_CASES: &[(&str, usize, usize)] = &[
    ("tests/polygon/cube-riders.orbis", 3, 2),
    ("tests/polygon/cube-5x5-riders.orbis", 4, 3),
    ("tests/polygon/ball-riders.orbis", 5, 4),
    ("tests/polygon/webball-riders.orbis", 4, 3),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The checked tables of a variant file, round-tripped through the binary format; `None` for a
/// library file.
fn tables(file: &str) -> Option<Tables> {
    let source = std::fs::read_to_string(root().join(file)).expect("example exists");
    let checked = orbis_compiler::check(file, &source);
    if checked.library {
        return None;
    }
    let variant = checked.variant.unwrap_or_else(|| panic!("{file} does not check"));
    Some(Tables::from_bytes(&orbis_compiler::lower::lower(&variant).to_bytes()).expect("tables load"))
}

fn engine(file: &str) -> Engine {
    Engine::new(tables(file).unwrap_or_else(|| panic!("{file} is a library"))).expect("engine")
}

/// Best of `runs` timings: (nodes, seconds).
fn measure(engine: &Engine, position: Option<&str>, depth: usize, runs: usize) -> (u64, f64) {
    let mut best = f64::INFINITY;
    let mut nodes = 0;
    for _ in 0..runs {
        let start = Instant::now();
        nodes = engine.perft(position, depth).expect("position");
        best = best.min(start.elapsed().as_secs_f64());
    }
    (nodes, best)
}

/// The spherical versions: every variant file directly in examples/spherical/, sorted.
fn spherical_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(root().join("examples/spherical"))
        .expect("examples/spherical")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "orbis"))
        .map(|p| format!("examples/spherical/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    files.sort();
    files
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    println!("{:<20} {:>5} {:>12} {:>9} {:>14}", "position", "depth", "nodes", "seconds", "nodes/s");
    for case in CASES {
        let engine = engine(case.file);
        let depth = if quick { case.quick_depth } else { case.depth };
        let (nodes, best) = measure(&engine, case.position, depth, 3);
        if let (Some(e), false) = (case.expected, quick) {
            assert_eq!(nodes, e, "{}: wrong count", case.name);
        }
        println!("{:<20} {:>5} {:>12} {:>9.3} {:>14.0}", case.name, depth, nodes, best, nodes as f64 / best);
    }

    // The family at one depth, relative to orthodox.
    let depth = if quick { FAMILY_DEPTH - 1 } else { FAMILY_DEPTH };
    println!();
    println!("perft {depth} from the start; cost per node relative to orthodox (orthodox nodes/s / nodes/s; goal <= 1.25)");
    println!("{:<20} {:>5} {:>5} {:>12} {:>9} {:>14} {:>6}", "position", "cells", "depth", "nodes", "seconds", "nodes/s", "cost");
    let mut rows = vec![("orthodox".to_string(), tables("examples/orthodox.orbis").unwrap()), ("cylindrical".to_string(), tables("examples/cylindrical.orbis").unwrap())];
    for file in spherical_files() {
        if let Some(t) = tables(&file) {
            let stem = Path::new(&file).file_stem().unwrap().to_string_lossy().into_owned();
            rows.push((stem, t));
        }
    }
    let mut orthodox_nps = 0.0;
    for (name, t) in rows {
        let cells = t.cells.len();
        let engine = Engine::new(t).expect("engine");
        let (nodes, best) = measure(&engine, None, depth, FAMILY_RUNS);
        let nps = nodes as f64 / best;
        if name == "orthodox" {
            assert_eq!(nodes, if quick { ORTHODOX_PERFT_4 } else { ORTHODOX_PERFT_5 }, "orthodox: wrong count");
            orthodox_nps = nps;
        }
        println!("{:<20} {:>5} {:>5} {:>12} {:>9.3} {:>14.0} {:>5.2}x", name, cells, depth, nodes, best, nps, orthodox_nps / nps);
    }

    // Boards of polygons: cost per leaf and per generated position (a position whose moves are
    // generated: every node above the last ply), relative to orthodox perft 5 (4 in quick).
    println!();
    println!("boards of polygons; cost relative to orthodox per leaf (nodes/s) and per generated position");
    println!("{:<24} {:>5} {:>5} {:>12} {:>9} {:>14} {:>6} {:>12} {:>6}", "position", "cells", "depth", "nodes", "seconds", "nodes/s", "cost", "ns/position", "cost");
    let generated = |engine: &Engine, depth: usize| (0..depth).map(|d| engine.perft(None, d).expect("position")).sum::<u64>();
    let orthodox = engine("examples/orthodox.orbis");
    let (nodes, best) = measure(&orthodox, None, depth, FAMILY_RUNS);
    let orthodox_per_position = best * 1e9 / generated(&orthodox, depth) as f64;
    let orthodox_nps = nodes as f64 / best;
    println!("{:<24} {:>5} {:>5} {:>12} {:>9.3} {:>14.0} {:>5.2}x {:>12.1} {:>5.2}x", "orthodox", 64, depth, nodes, best, orthodox_nps, 1.0, orthodox_per_position, 1.0);
    for &(file, full, short) in POLYGON_CASES {
        let t = tables(file).expect("a variant");
        let cells = t.cells.len();
        let engine = Engine::new(t).expect("engine");
        let d = if quick { short } else { full };
        let (nodes, best) = measure(&engine, None, d, 3);
        let nps = nodes as f64 / best;
        let per_position = best * 1e9 / generated(&engine, d) as f64;
        let name = Path::new(file).file_stem().unwrap().to_string_lossy().into_owned();
        println!(
            "{:<24} {:>5} {:>5} {:>12} {:>9.3} {:>14.0} {:>5.2}x {:>12.1} {:>5.2}x",
            name,
            cells,
            d,
            nodes,
            best,
            nps,
            orthodox_nps / nps,
            per_position,
            per_position / orthodox_per_position
        );
    }
}
