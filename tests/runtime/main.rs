//! The tests that play games through the runtime's generic code (`Game<B>`, `Position<B>` and
//! `with_game!` for every width of cell set), in one test binary: each test binary compiles its own
//! copy of that code (about 35 s of compiling a copy). The first nine files apart took 494 s of CPU
//! to compile where together they took 259 s; the five that joined them next (corner to
//! webball_games) took 99 s apart, and the fourteen together 194 s against 267 s (one job,
//! `cargo test --no-run -j1 --timings`). Run one file's tests with a filter:
//! `cargo test --test runtime line_attacks::`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/ball_reference.rs"]
mod ball_reference;
#[path = "../common/webball_reference.rs"]
mod webball_reference;

mod boholy;
mod corner;
mod fairy;
mod fuzz_regressions;
mod line_attacks;
mod make_unmake;
mod nadvorney;
mod notation;
mod nplayer;
mod properties;
mod search;
mod soccer_ball_games;
mod spherical_family;
mod webball_games;
