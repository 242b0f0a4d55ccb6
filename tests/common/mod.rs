//! Shared helpers for the integration tests: compile an example through the whole pipeline.
#![allow(dead_code)]

pub mod cli;
pub mod cube_four;
pub mod cube_game;
pub mod cube_reference;
pub mod reference;

use orbis_runtime::bits::CellSet;
use orbis_runtime::{Engine, Game, Move, Tables};
use std::path::{Path, PathBuf};

/// A random game of up to `plies` plies from the start (xorshift from `seed`): `visit` sees each
/// position with its legal moves before one of them is played; it ends early where there is none.
pub fn playout<B: CellSet>(game: &Game<B>, seed: u64, plies: usize, mut visit: impl FnMut(&mut orbis_runtime::Position<B>, &[Move])) {
    let mut pos = orbis_runtime::Position::start(game);
    let mut rng = seed | 1;
    let mut moves = Vec::new();
    for _ in 0..plies {
        moves.clear();
        pos.legal_moves(game, &mut moves);
        visit(&mut pos, &moves);
        if moves.is_empty() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mv = moves[(rng % moves.len() as u64) as usize];
        pos.make(game, mv);
    }
}

/// Runs `check` on every item, on as many threads as the machine has cores (items taken in turn
/// from a shared counter): the long tests that walk every example would otherwise keep one core
/// of CI's two idle. A panic in any item fails the caller once all threads have stopped.
pub fn for_each_parallel<T: Sync>(items: &[T], check: impl Fn(&T) + Sync) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len()).max(1);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                check(item);
            });
        }
    });
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The checked model of a variant file (panics with the rendered diagnostics on errors).
pub fn variant(path: &str) -> orbis_compiler::model::Variant {
    let full = root().join(path);
    let source = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
    let checked = orbis_compiler::check(path, &source);
    match checked.variant {
        Some(v) => v,
        None => panic!("{path} does not check:\n{}", checked.render(false)),
    }
}

/// The checked model of `source`, read as if it were the file `path` (includes resolve from
/// there); panics with the rendered diagnostics on errors.
pub fn variant_from(path: &str, source: &str) -> orbis_compiler::model::Variant {
    let full = root().join(path);
    let checked = orbis_compiler::check(full.to_str().expect("utf-8 path"), source);
    match checked.variant {
        Some(v) if !checked.has_errors() => v,
        _ => panic!("{path} does not check:\n{}", checked.render(false)),
    }
}

/// Compiled tables, after a round trip through the binary format.
pub fn tables(path: &str) -> Tables {
    let t = orbis_compiler::lower::lower(&variant(path));
    Tables::from_bytes(&t.to_bytes()).expect("tables round-trip")
}

pub fn engine(path: &str) -> Engine {
    Engine::new(tables(path)).expect("engine loads")
}

/// The checked model of a variant with `arrange`, with the setup chosen as `--setup`/`--seed` do.
#[allow(dead_code)]
pub fn variant_choice(path: &str, choice: orbis_compiler::frontend::SetupChoice) -> orbis_compiler::model::Variant {
    let full = root().join(path);
    let source = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()));
    let checked = orbis_compiler::check_with(path, &source, choice);
    match checked.variant {
        Some(v) => v,
        None => panic!("{path} ({choice:?}) does not check:\n{}", checked.render(false)),
    }
}

/// The engine of a variant with `arrange`, at setup number `setup` (`--setup N`).
#[allow(dead_code)]
pub fn engine_setup(path: &str, setup: u64) -> Engine {
    let v = variant_choice(path, orbis_compiler::frontend::SetupChoice::Number(setup));
    Engine::new(orbis_compiler::lower::lower(&v)).expect("engine loads")
}

/// The game of an example of at most 64 cells.
pub fn game(path: &str) -> Game<u64> {
    Game::new(tables(path))
}

/// The game of an example of 65 to 128 cells, at the width the engine uses for it.
pub fn game_medium(path: &str) -> Game<orbis_runtime::bits::Wide<2>> {
    Game::new(tables(path))
}

/// The game of an example of more than 64 cells whose cells past the 64th are all transit cells
/// (Boholy's), at the width the engine uses for it.
pub fn game_standing(path: &str) -> Game<orbis_runtime::bits::Standing64> {
    Game::new(tables(path))
}

pub fn exists(path: &str) -> bool {
    Path::new(&root().join(path)).exists()
}

use orbis_runtime::tables::NO_CELL;
use orbis_runtime::Position;
use std::collections::BTreeSet;

pub fn cell(t: &Tables, name: &str) -> usize {
    t.cells.iter().position(|c| c == name).unwrap_or_else(|| panic!("no cell {name}"))
}

pub fn heading(t: &Tables, name: &str) -> usize {
    t.headings.iter().position(|h| h == name).unwrap_or_else(|| panic!("no heading {name}"))
}

pub fn kind(t: &Tables, name: &str) -> usize {
    t.kinds.iter().position(|k| k.name == name).unwrap_or_else(|| panic!("no piece {name}"))
}

/// The destination cells, in order, and the flags of the white `piece` on `from` leaving with
/// heading `h` (the first such ray).
pub fn ray_cells(t: &Tables, piece: &str, from: &str, h: &str) -> (Vec<String>, u8) {
    let i = kind(t, piece) * t.cells.len() + cell(t, from); // white is side 0
    let rays = t.rays_at(i);
    let r = rays.iter().find(|r| r.heading as usize == heading(t, h)).expect("a ray with that heading");
    let cells = t.pool[r.cells.0 as usize..r.cells.1 as usize].iter().map(|&c| t.cells[c as usize].clone()).collect();
    (cells, r.flags)
}

/// Every destination of the white `piece` on `from` on an otherwise empty board (transit cells,
/// which rays reach but moves never end on, excluded).
pub fn destinations(t: &Tables, piece: &str, from: &str) -> BTreeSet<String> {
    let i = kind(t, piece) * t.cells.len() + cell(t, from);
    t.rays_at(i)
        .iter()
        .flat_map(|r| t.pool[r.cells.0 as usize..r.cells.1 as usize].iter())
        .filter(|c| !t.transit.contains(c))
        .map(|&c| t.cells[c as usize].clone())
        .collect()
}

pub fn set(names: &str) -> BTreeSet<String> {
    names.split_whitespace().map(String::from).collect()
}

/// The (cell, heading) states of `steps` single steps through the compiled step table.
pub fn walk(t: &Tables, from: usize, h: usize, steps: usize) -> Vec<(usize, usize)> {
    let (mut c, mut h) = (from, h);
    let mut out = Vec::new();
    for _ in 0..steps {
        let (n, nh) = t.step[c * t.headings.len() + h];
        if n == NO_CELL {
            break;
        }
        c = n as usize;
        h = nh as usize;
        out.push((c, h));
    }
    out
}

/// The legal moves of a position, in notation.
pub fn legal<B: orbis_runtime::CellSet>(game: &Game<B>, position: &str) -> BTreeSet<String> {
    let mut pos = Position::parse(game, position).unwrap_or_else(|e| panic!("{position}: {e}"));
    let mut moves = Vec::new();
    pos.legal_moves(game, &mut moves);
    moves.iter().map(|&m| pos.notation(game, m)).collect()
}

/// Every `.orbis` file under `dir`, recursively, sorted.
pub fn orbis_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.expect("directory entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "orbis") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every example file that must check cleanly (variants and libraries), relative to the root:
/// `examples/**/*.orbis` without `examples/invalid/`.
pub fn example_files() -> Vec<String> {
    let invalid = root().join("examples/invalid");
    orbis_files(&root().join("examples"))
        .into_iter()
        .filter(|p| !p.starts_with(&invalid))
        .map(|p| p.strip_prefix(root()).expect("under the root").display().to_string())
        .collect()
}

/// Every example variant file (libraries, which have no game of their own, left out).
pub fn variant_files() -> Vec<String> {
    example_files()
        .into_iter()
        .filter(|rel| {
            let source = std::fs::read_to_string(root().join(rel)).expect("readable");
            !orbis_compiler::check(rel, &source).library
        })
        .collect()
}
