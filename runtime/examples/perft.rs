//! Perft over a compiled table file with the runtime alone: `cargo run --release -p
//! orbis-runtime --example perft -- TABLES.orbt DEPTH [POSITION]`. It builds in seconds (no
//! compiler, no CLI), for profiling the move generator (`valgrind --tool=callgrind`).

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: perft TABLES.orbt DEPTH [POSITION]");
        std::process::exit(2);
    }
    let bytes = std::fs::read(&args[1]).expect("a table file");
    let tables = orbis_runtime::Tables::from_bytes(&bytes).expect("tables");
    let engine = orbis_runtime::Engine::new(tables).expect("engine");
    let depth = args[2].parse().expect("a depth");
    println!("{}", engine.perft(args.get(3).map(String::as_str), depth).expect("a position"));
}
