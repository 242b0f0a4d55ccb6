//! Perft over a compiled table file with the runtime alone: `cargo run --release -p
//! orbis-runtime --example perft -- TABLES.orbt DEPTH [POSITION]`. It builds in seconds (no
//! compiler, no CLI), for profiling the move generator (`valgrind --tool=callgrind`); it prints
//! the count only.

use std::process::ExitCode;

fn run(args: &[String]) -> Result<u64, String> {
    let [_, file, depth, rest @ ..] = args else {
        return Err("usage: perft TABLES.orbt DEPTH [POSITION]".into());
    };
    let bytes = std::fs::read(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let tables = orbis_runtime::Tables::from_bytes(&bytes).map_err(|e| format!("{file}: {e}"))?;
    let engine = orbis_runtime::Engine::new(tables).map_err(|e| e.to_string())?;
    let depth = depth.parse().map_err(|_| format!("'{depth}' is not a depth"))?;
    engine.perft(rest.first().map(String::as_str), depth).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    match run(&args) {
        Ok(nodes) => {
            println!("{nodes}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
