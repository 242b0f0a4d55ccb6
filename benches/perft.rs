//! Perft speed benchmark: single-thread nodes/s on the positions named in docs/performance.md.
//!
//! Run with `cargo bench --bench perft` (add `-- quick` for shallower depths). Each position is
//! counted three times; the best time is reported. The counts are checked against the expected
//! values, so a fast wrong engine cannot report a speed.

use orbis_runtime::{Engine, Tables};
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

fn engine(file: &str) -> Engine {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let source = std::fs::read_to_string(&path).expect("example exists");
    let checked = orbis_compiler::check(file, &source);
    let variant = checked.variant.unwrap_or_else(|| panic!("{file} does not check"));
    let tables = Tables::from_bytes(&orbis_compiler::lower::lower(&variant).to_bytes()).expect("tables load");
    Engine::new(tables).expect("engine")
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    println!("{:<20} {:>5} {:>12} {:>9} {:>14}", "position", "depth", "nodes", "seconds", "nodes/s");
    for case in CASES {
        let engine = engine(case.file);
        let depth = if quick { case.quick_depth } else { case.depth };
        let mut best = f64::INFINITY;
        let mut nodes = 0;
        for _ in 0..3 {
            let start = Instant::now();
            nodes = engine.perft(case.position, depth).expect("position");
            best = best.min(start.elapsed().as_secs_f64());
        }
        if let (Some(e), false) = (case.expected, quick) {
            assert_eq!(nodes, e, "{}: wrong count", case.name);
        }
        println!("{:<20} {:>5} {:>12} {:>9.3} {:>14.0}", case.name, depth, nodes, best, nodes as f64 / best);
    }
}
