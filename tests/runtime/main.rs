//! The tests that play games through the runtime's generic code (`Game<B>`, `Position<B>` and
//! `with_game!` for every width of cell set), in one test binary: each test binary compiles its own
//! copy of that code (about 35 s of compiling a copy), and the nine files apart took 494 s of CPU
//! to compile where together they take 259 s. Run one file's tests with a filter:
//! `cargo test --test runtime line_attacks::`.

#[path = "../common/mod.rs"]
mod common;

mod boholy;
mod fairy;
mod fuzz_regressions;
mod line_attacks;
mod make_unmake;
mod notation;
mod nplayer;
mod properties;
mod search;
