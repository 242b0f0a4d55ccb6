//! The `orbis` command line: thin glue over the compiler and the runtime.

use clap::{Parser, Subcommand};
use orbis_runtime::{Engine, Tables};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

mod play;
mod selfplay;
mod serve;
mod uci;

// `print!`/`println!` for this file: the std macros panic when stdout is closed early
// (`orbis inspect t.orbt | head`) or cannot be written (a full disk). A closed pipe ends the program
// quietly; any other write error is reported and exits with 1.
macro_rules! println {
    () => { write_stdout(format_args!("\n")) };
    ($($arg:tt)*) => { write_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}
macro_rules! print {
    ($($arg:tt)*) => { write_stdout(format_args!($($arg)*)) };
}

fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write the output: {e}");
        std::process::exit(1);
    }
}

#[derive(Parser)]
#[command(name = "orbis", version, about = "Chess variants on boards of any shape: check, compile, count and list moves")]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The setup number of a variant with `arrange` (Chess960: 0 to 959, 518 the usual array).
    #[arg(long, global = true, value_name = "N", conflicts_with = "seed")]
    setup: Option<u64>,
    /// A setup of a variant with `arrange` drawn from this seed (the same seed, the same setup).
    #[arg(long, global = true, value_name = "S")]
    seed: Option<u64>,
}

/// The setup chosen on the command line, for every variant file compiled in this run.
static SETUP: std::sync::OnceLock<orbis_compiler::frontend::SetupChoice> = std::sync::OnceLock::new();

fn check_source(name: &str, source: &str) -> orbis_compiler::Checked {
    orbis_compiler::check_with(name, source, SETUP.get().copied().unwrap_or_default())
}

#[derive(Subcommand)]
enum Command {
    /// Check a variant file and report every problem (exit 1 on errors; warnings allowed).
    Check {
        /// The variant file (.orbis).
        file: PathBuf,
        /// Also print the rule-consistency report (surface, topology of moves, pieces, initial
        /// position, rule sanity) as text (docs/analysis.md).
        #[arg(long)]
        report: bool,
        /// Print the report as one JSON object instead (docs/analysis.md).
        #[arg(long)]
        json: bool,
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
        /// Plies to count (at most 64).
        #[arg(short, long, value_parser = parse_depth)]
        depth: usize,
        /// Start from this position (FEN for grid boards, or the general notation).
        #[arg(short, long)]
        position: Option<String>,
        /// Play these moves first (any notation: `e2e4`, `e7e8q`, `Nf3`, `Pe7-e5`).
        #[arg(long, num_args = 1..)]
        after: Vec<String>,
        /// Also print the count below each legal move.
        #[arg(long)]
        divide: bool,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Run the count this many times (1 to 1000) and report the best speed (a benchmark).
        #[arg(long, value_name = "RUNS", value_parser = clap::value_parser!(u32).range(1..=MAX_BENCH_RUNS))]
        bench: Option<u32>,
        /// Share the moves of the position out over this many threads (1 to 256).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=orbis_runtime::perft::MAX_THREADS as i64))]
        threads: u32,
        /// Remember counts of positions met again in a table of this many MiB (1 to 65536).
        #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u32).range(1..=orbis_runtime::perft::MAX_TABLE_MB as i64))]
        hash: Option<u32>,
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
    /// Play a game in the terminal: type moves and commands (`help` lists them).
    Play {
        /// A variant file (.orbis) or compiled tables (.orbt).
        file: PathBuf,
        /// Start from this position (FEN for grid boards, or the general notation).
        #[arg(short, long)]
        position: Option<String>,
        /// The sides the engine plays: a side's name, `both` or `none`.
        #[arg(long, default_value = "none")]
        engine: String,
        /// The engine's time per move, in milliseconds (1 to 600000).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
        time: u64,
    },
    /// Serve a web page to play the variant in a browser, against the engine or another person.
    Serve {
        /// A variant file (.orbis) or compiled tables (.orbt).
        file: PathBuf,
        /// The port to listen on (0: any free port; the address is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on; 127.0.0.1 keeps the page on this machine.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Start games from this position (FEN for grid boards, or the general notation).
        #[arg(short, long)]
        position: Option<String>,
        /// The engine's time per move, in milliseconds (1 to 60000).
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=60_000))]
        time: u64,
        /// The most time per move a page may ask for, in milliseconds (1 to 60000).
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=60_000))]
        max_time: u64,
    },
    /// The engine against itself from varied openings: a balance report (two sides).
    Selfplay {
        /// A variant file (.orbis) or compiled tables (.orbt).
        file: PathBuf,
        /// Games to play (1 to 100000).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        games: u32,
        /// The engine's time per move, in milliseconds (1 to 60000).
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=60_000))]
        time: u64,
        /// Search this many plies a move instead (1 to 64; reproducible).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Random legal moves that open each game (0 to 20).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=20))]
        opening: u32,
        /// A game longer than this many plies is a draw (1 to 10000).
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        max_plies: u32,
        /// Seed of the openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Speak UCI on standard input and output (grid boards with two sides), for GUIs and match runners.
    Uci {
        /// A variant file (.orbis) or compiled tables (.orbt).
        file: PathBuf,
    },
    /// Find the best move: iterative deepening alpha-beta on the variant's own tables.
    Search {
        /// A variant file (.orbis) or compiled tables (.orbt).
        file: PathBuf,
        /// The position (FEN for grid boards, or the general notation) [default: the start].
        #[arg(short, long)]
        position: Option<String>,
        /// Play these moves first (e.g. `e2-e4 Pe7-e5`).
        #[arg(long, num_args = 1..)]
        after: Vec<String>,
        /// Search this many plies (1 to 64).
        #[arg(short, long, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Search for this many milliseconds (1 to 3600000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
        movetime: Option<u64>,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// Draw the board, a position or a piece's moves as SVG or text.
    Diagram {
        /// A variant file (.orbis) or compiled tables (.orbt).
        file: PathBuf,
        /// The position (FEN for grid boards, or the general notation) [default: the start].
        #[arg(short, long)]
        position: Option<String>,
        /// A movement diagram: the piece on CELL, or PIECE@CELL (name or symbol, e.g. Bishop@g3,
        /// b@g3 for the second side) alone on the board (or put into --position).
        #[arg(long, value_name = "CELL|PIECE@CELL")]
        moves: Option<String>,
        /// With --moves: draw the rays, coloured by heading, following the seams.
        #[arg(long)]
        paths: bool,
        /// With --paths: only the rays that leave with this heading (repeatable, e.g. --heading SW).
        #[arg(long = "heading", value_name = "HEADING")]
        headings: Vec<String>,
        /// The board alone, without pieces.
        #[arg(long)]
        empty: bool,
        /// The neighbour diagram: the board and the cells one and two steps beyond each edge.
        #[arg(long)]
        neighbours: bool,
        /// Two discs, north and south (boards whose ranks are rings closed over two poles).
        #[arg(long)]
        hemispheres: bool,
        /// Turn a grid board round: the second side's view.
        #[arg(long)]
        flip: bool,
        /// svg or text.
        #[arg(long, default_value = "svg", value_parser = ["svg", "text"])]
        format: String,
        /// Write to this file instead of standard output.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

/// A depth of plies, 0 to [`orbis_runtime::perft::MAX_DEPTH`]; any longer string of digits is
/// beyond the limit, however large.
fn parse_depth(text: &str) -> Result<usize, String> {
    let max = orbis_runtime::perft::MAX_DEPTH;
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("a depth is a whole number of plies from 0 to {max}"));
    }
    match text.parse::<usize>() {
        Ok(depth) if depth <= max => Ok(depth),
        _ => Err(format!("{text} is beyond the limit of {max} plies")),
    }
}

/// The most runs `perft --bench` makes.
const MAX_BENCH_RUNS: i64 = 1000;

/// A failure already explained to the user; the process exits with 1.
struct Failed;

fn main() -> ExitCode {
    let cli = Cli::parse();
    use orbis_compiler::frontend::SetupChoice;
    let choice = match (cli.setup, cli.seed) {
        (Some(n), _) => SetupChoice::Number(n),
        (None, Some(s)) => SetupChoice::Seed(s),
        (None, None) => SetupChoice::Default,
    };
    SETUP.set(choice).ok();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failed) => ExitCode::FAILURE,
    }
}

fn fail(msg: impl std::fmt::Display) -> Failed {
    eprintln!("error: {msg}");
    Failed
}

/// A variant file's text (bounded; UTF-8 errors located).
fn read_source(path: &Path) -> Result<String, Failed> {
    orbis_compiler::input::read_source(path).map_err(fail)
}

/// A table file's bytes (bounded).
fn read_tables(path: &Path) -> Result<Vec<u8>, Failed> {
    orbis_compiler::input::read_limited(path, orbis_runtime::format::MAX_TABLE_BYTES, "table files").map_err(fail)
}

/// Compiles a source file, printing its diagnostics to stderr. `Ok(None)`: a clean library,
/// which has no game of its own.
fn compile_source(path: &Path, source: String) -> Result<Option<Tables>, Failed> {
    let checked = check_source(&path.display().to_string(), &source);
    let color = std::io::IsTerminal::is_terminal(&std::io::stderr());
    if !checked.diagnostics.is_empty() {
        eprint!("{}", checked.render(color));
    }
    match checked.tables {
        Some(tables) => Ok(Some(tables)),
        None if checked.library && !checked.has_errors() => Ok(None),
        None => Err(Failed),
    }
}

/// Compiles a variant file, printing its diagnostics to stderr.
fn compile(path: &Path, source: String) -> Result<Tables, Failed> {
    compile_source(path, source)?
        .ok_or_else(|| fail(format!("{} is a library (shared declarations): `include` it from a variant", path.display())))
}

/// Loads a variant from source or from compiled tables (recognised by their magic number).
fn load(path: &Path) -> Result<Engine, Failed> {
    use orbis_runtime::format::{MAGIC, MAX_TABLE_BYTES};
    let bytes = orbis_compiler::input::read_by_start(path, MAGIC.len() as u64, |start| {
        if start == MAGIC {
            (MAX_TABLE_BYTES, "table files")
        } else {
            (orbis_compiler::input::MAX_SOURCE_BYTES, "variant files")
        }
    })
    .map_err(fail)?;
    let tables = if bytes.starts_with(&MAGIC) {
        Tables::from_bytes(&bytes).map_err(|e| fail(format!("{}: {e}", path.display())))?
    } else {
        let source = orbis_compiler::input::decode(path, bytes)
            .map_err(|e| fail(format!("{e} (and it is not compiled tables, which start with \"ORBT\")")))?;
        compile(path, source)?
    };
    Engine::new(tables).map_err(|e| fail(format!("{}: {e}", path.display())))
}

fn run(cli: Cli) -> Result<(), Failed> {
    match cli.command {
        Command::Check { file, report, json } if report || json => {
            let source = read_source(&file)?;
            let checked = check_source(&file.display().to_string(), &source);
            if !checked.diagnostics.is_empty() {
                eprint!("{}", checked.render(std::io::IsTerminal::is_terminal(&std::io::stderr())));
            }
            let report = orbis_compiler::report(&checked).ok_or_else(|| {
                if checked.has_errors() {
                    Failed
                } else {
                    fail(format!("{} is a library: report on a variant that includes it", file.display()))
                }
            })?;
            if json {
                println!("{}", report.json());
            } else {
                print!("{}", report.text());
            }
        }
        Command::Check { file, .. } => {
            let source = read_source(&file)?;
            match compile_source(&file, source)? {
                Some(_) => println!("{}: ok", file.display()),
                None => println!("{}: ok (a library: checked fully through the variants that include it)", file.display()),
            }
        }
        Command::Compile { file, output } => {
            let source = read_source(&file)?;
            let tables = compile(&file, source)?;
            let out = output.unwrap_or_else(|| file.with_extension("orbt"));
            let data = tables.to_bytes();
            std::fs::write(&out, &data).map_err(|e| fail(format!("cannot write {}: {e}", out.display())))?;
            println!("wrote {} ({} bytes)", out.display(), data.len());
        }
        Command::Inspect { table } => {
            let bytes = read_tables(&table)?;
            let tables = Tables::from_bytes(&bytes).map_err(|e| fail(format!("{}: {e}", table.display())))?;
            print!("{}", orbis_runtime::inspect::inspect(&tables));
        }
        Command::Perft { file, depth, position, after, divide, json, bench, threads, hash } => {
            let options = orbis_runtime::PerftOptions { threads: threads as usize, table_mb: hash.unwrap_or(0) as usize };
            if divide && depth == 0 {
                return Err(fail("--divide needs --depth 1 or more (depth 0 has no moves to divide by)"));
            }
            let engine = load(&file)?;
            let after: Vec<&str> = after.iter().map(String::as_str).collect();
            let played = match after.is_empty() {
                true => position,
                false => Some(engine.play(position.as_deref(), &after).map_err(fail)?),
            };
            let pos = played.as_deref();
            let runs = bench.unwrap_or(1);
            let mut best = f64::INFINITY;
            let mut nodes = 0;
            let mut per_move = Vec::new();
            for _ in 0..runs {
                let start = Instant::now();
                if divide {
                    per_move = engine.divide_with(pos, depth, options).map_err(fail)?;
                    nodes = per_move.iter().map(|(_, n)| n).sum();
                } else {
                    nodes = engine.perft_with(pos, depth, options).map_err(fail)?;
                }
                best = best.min(start.elapsed().as_secs_f64());
            }
            let nps = if best > 0.0 { nodes as f64 / best } else { 0.0 };
            // Sides out of the game (three or more teams): shown, since perft counts their turns never.
            let out = engine.out_sides(pos).map_err(fail)?;
            if json {
                let mut obj = json!({ "nodes": nodes, "depth": depth, "seconds": best, "nps": nps.round() as u64, "runs": runs });
                if !out.is_empty() {
                    obj["out"] = json!(out);
                }
                if divide {
                    obj["divide"] = per_move.iter().map(|(m, n)| json!({ "move": m.notation, "nodes": n })).collect();
                }
                println!("{obj}");
            } else {
                for (m, n) in &per_move {
                    println!("{}: {}", m.notation, n);
                }
                if !out.is_empty() {
                    println!("out {}", out.join(","));
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
                                "notation": m.notation, "uci": m.uci, "kind": m.kind })
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
        Command::Play { file, position, engine: engine_sides, time } => {
            let engine = load(&file)?;
            if let Some(p) = &position {
                engine.play(Some(p), &[]).map_err(|e| fail(e.to_string()))?;
            }
            let names: Vec<String> = engine.tables().sides.iter().map(|s| s.name.clone()).collect();
            let sides: Vec<String> = match engine_sides.as_str() {
                "none" => Vec::new(),
                "both" | "all" => names.clone(),
                side if names.iter().any(|n| n == side) => vec![side.to_string()],
                other => return Err(fail(format!("--engine {other}: not a side ({}), `both` or `none`", names.join(", ")))),
            };
            let limits = orbis_runtime::SearchLimits { movetime: Some(std::time::Duration::from_millis(time)), ..Default::default() };
            let engine_ref = &engine;
            let choose: play::Chooser = Box::new(move |start: Option<&str>, moves: &[&str]| {
                let report = engine_ref.search(start, moves, limits).map_err(|e| e.to_string())?;
                report.best.map(|m| m.notation).ok_or_else(|| "the engine has no move".to_string())
            });
            let opponent = play::Opponent { sides, choose: Some(choose) };
            let mut session = play::Session::new(&engine, position, opponent);
            let stdin = std::io::stdin();
            let mut out = std::io::stdout();
            session.run(stdin.lock(), &mut out).map_err(fail)?;
        }
        Command::Serve { file, port, host, position, time, max_time } => {
            let engine = load(&file)?;
            if let Some(p) = &position {
                engine.play(Some(p), &[]).map_err(|e| fail(e.to_string()))?;
            }
            let ms = std::time::Duration::from_millis;
            let time = serve::EngineTime { default: ms(time.min(max_time)), max: ms(max_time) };
            let settings = serve::Settings { start: position, time };
            serve::run(&engine, &format!("{host}:{port}"), &settings, |address| {
                println!("serving {} at http://{address}/ (Ctrl-C stops)", engine.tables().name);
                use std::io::Write;
                let _ = std::io::stdout().flush();
            })
            .map_err(fail)?;
        }
        Command::Selfplay { file, games, time, depth, opening, max_plies, seed, json } => {
            let engine = load(&file)?;
            if engine.tables().sides.len() != 2 {
                return Err(fail("selfplay reports on games of two sides"));
            }
            let limits = match depth {
                Some(d) => orbis_runtime::SearchLimits { depth: Some(d), ..Default::default() },
                None => orbis_runtime::SearchLimits { movetime: Some(std::time::Duration::from_millis(time)), ..Default::default() },
            };
            let plan = selfplay::Plan { limits, opening_plies: opening, seed, max_plies };
            let bar = indicatif::ProgressBar::new(u64::from(games));
            bar.set_style(
                indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} ({eta} left) {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            let mut played = Vec::new();
            for i in 0..games {
                played.push(selfplay::play_one(&engine, &plan, i).map_err(fail)?);
                bar.inc(1);
            }
            bar.finish_and_clear();
            let (text, value) = selfplay::report(&engine, &played);
            if json {
                println!("{value}");
            } else {
                print!("{text}");
            }
        }
        Command::Uci { file } => {
            let engine = load(&file)?;
            let mut out = std::io::stdout();
            uci::run(&engine, std::io::stdin().lock(), &mut out).map_err(fail)?;
        }
        Command::Search { file, position, after, depth, movetime, json } => {
            let engine = load(&file)?;
            if depth.is_none() && movetime.is_none() {
                return Err(fail("give --depth N or --movetime MS"));
            }
            let limits = orbis_runtime::SearchLimits {
                depth,
                movetime: movetime.map(std::time::Duration::from_millis),
                ..Default::default()
            };
            let after: Vec<&str> = after.iter().map(String::as_str).collect();
            let r = engine.search(position.as_deref(), &after, limits).map_err(|e| fail(e.to_string()))?;
            let score = match r.score {
                orbis_runtime::Score::Cp(cp) => ("cp", cp),
                orbis_runtime::Score::Mate(n) => ("mate", n),
            };
            let nps = (r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9)) as u64;
            let best = r.best.as_ref().map(|m| m.notation.clone());
            if json {
                println!(
                    "{}",
                    json!({ "best": best, "score": { score.0: score.1 }, "pv": r.pv, "depth": r.depth, "nodes": r.nodes, "nps": nps, "seconds": r.elapsed.as_secs_f64() })
                );
            } else {
                println!("best {}", best.as_deref().unwrap_or("(none: the game is over)"));
                println!("score {} {}", score.0, score.1);
                println!("pv {}", r.pv.join(" "));
                println!("depth {}", r.depth);
                println!("nodes {}", r.nodes);
                println!("nps {nps}");
            }
        }
        Command::Diagram { file, position, moves, paths, headings, empty, neighbours, hemispheres, flip, format, output } => {
            let engine = load(&file)?;
            let format = if format == "text" { orbis_diagram::Format::Text } else { orbis_diagram::Format::Svg };
            let opts = orbis_diagram::Options { position, moves, paths, headings, empty, neighbours, hemispheres, flip, format, ..Default::default() };
            let out = orbis_diagram::render(&engine, &opts).map_err(fail)?;
            match output {
                Some(path) => std::fs::write(&path, &out).map_err(|e| fail(format!("cannot write {}: {e}", path.display())))?,
                None => print!("{out}"),
            }
        }
    }
    Ok(())
}
