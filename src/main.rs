//! The `orbis` command line: thin glue over the compiler and the runtime.

use clap::{Parser, Subcommand};
use orbis_runtime::{Engine, Tables};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "orbis", version, about = "Chess variants on boards of any shape: check, compile, count and list moves")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a variant file and report every problem (exit 1 on errors; warnings allowed).
    Check {
        /// The variant file (.orbis).
        file: PathBuf,
    },
    /// Compile a variant file to binary tables (.orbt).
    Compile {
        /// The variant file (.orbis).
        file: PathBuf,
        /// Where to write the tables [default: FILE with extension .orbt].
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Print compiled tables readably.
    Inspect {
        /// A table file (.orbt).
        table: PathBuf,
    },
    /// Count the leaf nodes of the legal move tree (perft).
    Perft {
        /// A variant file (.orbis) or compiled tables (.orbt).
        file: PathBuf,
        /// Plies to count.
        #[arg(short, long)]
        depth: usize,
        /// Start from this position (FEN for grid boards, or the general notation).
        #[arg(short, long)]
        position: Option<String>,
        /// Also print the count below each legal move.
        #[arg(long)]
        divide: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Run the count this many times and report the best speed (a benchmark).
        #[arg(long, value_name = "RUNS")]
        bench: Option<usize>,
    },
    /// List the legal moves of a position.
    Moves {
        /// A variant file (.orbis) or compiled tables (.orbt).
        file: PathBuf,
        /// The position (FEN for grid boards, or the general notation) [default: the start].
        #[arg(short, long)]
        position: Option<String>,
        /// Play these moves first (e.g. `e2-e4 Pe7-e5`).
        #[arg(long, num_args = 1..)]
        after: Vec<String>,
        /// Print a JSON array.
        #[arg(long)]
        json: bool,
    },
}

/// A failure already explained to the user; the process exits with 1.
struct Failed;

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failed) => ExitCode::FAILURE,
    }
}

fn fail(msg: impl std::fmt::Display) -> Failed {
    eprintln!("error: {msg}");
    Failed
}

fn read(path: &Path) -> Result<Vec<u8>, Failed> {
    std::fs::read(path).map_err(|e| fail(format!("cannot read {}: {e}", path.display())))
}

/// Compiles a source file, printing its diagnostics to stderr.
fn compile(path: &Path, bytes: Vec<u8>) -> Result<Tables, Failed> {
    let source = String::from_utf8(bytes).map_err(|_| fail(format!("{} is not UTF-8 text", path.display())))?;
    let checked = orbis_compiler::check(&path.display().to_string(), &source);
    let color = std::io::IsTerminal::is_terminal(&std::io::stderr());
    if !checked.diagnostics.is_empty() {
        eprint!("{}", checked.render(color));
    }
    match &checked.variant {
        Some(v) => Ok(orbis_compiler::lower::lower(v)),
        None => Err(Failed),
    }
}

/// Loads a variant from source or from compiled tables (recognised by their magic number).
fn load(path: &Path) -> Result<Engine, Failed> {
    let bytes = read(path)?;
    let tables = if bytes.starts_with(&orbis_runtime::format::MAGIC) {
        Tables::from_bytes(&bytes).map_err(|e| fail(format!("{}: {e}", path.display())))?
    } else {
        compile(path, bytes)?
    };
    Engine::new(tables).map_err(|e| fail(format!("{}: {e}", path.display())))
}

fn run(cli: Cli) -> Result<(), Failed> {
    match cli.command {
        Command::Check { file } => {
            let bytes = read(&file)?;
            compile(&file, bytes)?;
            println!("{}: ok", file.display());
        }
        Command::Compile { file, output } => {
            let bytes = read(&file)?;
            let tables = compile(&file, bytes)?;
            let out = output.unwrap_or_else(|| file.with_extension("orbt"));
            let data = tables.to_bytes();
            std::fs::write(&out, &data).map_err(|e| fail(format!("cannot write {}: {e}", out.display())))?;
            println!("wrote {} ({} bytes)", out.display(), data.len());
        }
        Command::Inspect { table } => {
            let bytes = read(&table)?;
            let tables = Tables::from_bytes(&bytes).map_err(|e| fail(format!("{}: {e}", table.display())))?;
            print!("{}", orbis_runtime::inspect::inspect(&tables));
        }
        Command::Perft { file, depth, position, divide, json, bench } => {
            let engine = load(&file)?;
            let pos = position.as_deref();
            let runs = bench.unwrap_or(1).max(1);
            let mut best = f64::INFINITY;
            let mut nodes = 0;
            let mut per_move = Vec::new();
            for _ in 0..runs {
                let start = Instant::now();
                if divide {
                    per_move = engine.divide(pos, depth).map_err(fail)?;
                    nodes = per_move.iter().map(|(_, n)| n).sum();
                } else {
                    nodes = engine.perft(pos, depth).map_err(fail)?;
                }
                best = best.min(start.elapsed().as_secs_f64());
            }
            let nps = if best > 0.0 { nodes as f64 / best } else { 0.0 };
            if json {
                let mut obj = json!({ "nodes": nodes, "depth": depth, "seconds": best, "nps": nps.round() as u64, "runs": runs });
                if divide {
                    obj["divide"] = per_move.iter().map(|(m, n)| json!({ "move": m.notation, "nodes": n })).collect();
                }
                println!("{obj}");
            } else {
                for (m, n) in &per_move {
                    println!("{}: {}", m.notation, n);
                }
                println!("nodes {nodes}");
                println!("depth {depth}");
                println!("seconds {best:.3}");
                println!("nodes/s {:.0}", nps);
            }
        }
        Command::Moves { file, position, after, json } => {
            let engine = load(&file)?;
            let after: Vec<&str> = after.iter().map(String::as_str).collect();
            let (text, status) = engine.play_status(position.as_deref(), &after).map_err(fail)?;
            let text = Some(text);
            let moves = engine.moves(text.as_deref()).map_err(fail)?;
            if json {
                let list: Vec<_> = moves
                    .iter()
                    .map(|m| {
                        json!({ "from": m.from, "to": m.to, "promotion": m.promotion.map(String::from),
                                "notation": m.notation, "kind": m.kind })
                    })
                    .collect();
                println!("{}", serde_json::Value::Array(list));
            } else {
                println!("{}", engine.position_text(text.as_deref()).map_err(fail)?);
                println!("status: {status}");
                println!("{} legal moves", moves.len());
                for m in &moves {
                    println!("{}", m.notation);
                }
            }
        }
    }
    Ok(())
}
