//! Shared helpers for the integration tests: compile an example through the whole pipeline.
#![allow(dead_code)]

use orbis_runtime::{Engine, Game, Tables};
use std::path::{Path, PathBuf};

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

/// Compiled tables, after a round trip through the binary format.
pub fn tables(path: &str) -> Tables {
    let t = orbis_compiler::lower::lower(&variant(path));
    Tables::from_bytes(&t.to_bytes()).expect("tables round-trip")
}

pub fn engine(path: &str) -> Engine {
    Engine::new(tables(path)).expect("engine loads")
}

pub fn game(path: &str) -> Game<u64> {
    let t = tables(path);
    t.validate().expect("valid tables");
    Game::new(t)
}

pub fn exists(path: &str) -> bool {
    Path::new(&root().join(path)).exists()
}
