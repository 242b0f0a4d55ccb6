//! orbis runtime: loads compiled variant tables and plays them.
//!
//! It depends on no parser or graph crate: everything geometric was precomputed by the compiler
//! into [`Tables`]. Stages: [`format`] reads and writes tables (checked), [`Engine`] picks the
//! cell-set width and builds a [`Game`] (tables indexed for speed), [`Position`] holds a position
//! with make/unmake and attack tests, `movegen` generates legal moves, [`Perft`] counts them,
//! `notation` reads and writes positions and moves, [`search`] plays them, [`view`]
//! shows a game as a player sees it.

pub mod bits;
pub mod drops;
pub mod engine;
pub mod eval;
pub mod format;
pub mod game;
mod game_build;
pub mod goals;
pub mod hops;
pub mod inspect;
mod line_attacks;
pub mod movegen;
mod legality;
mod royal_safety;
mod count;
mod kept_counts;
mod kept_destinations;
mod untouched;
pub mod notation;
pub mod outcome;
pub mod passing;
pub mod per64;
pub mod perft;
mod pins;
pub mod position;
mod attacks;
mod make;
mod royal_path;
pub mod san;
pub mod search;
pub mod tables;
pub mod validate;
pub mod view;

pub use bits::CellSet;
pub use engine::{Engine, LoadError, MoveInfo, PerftOptions, RequestError, SearchReport};
pub use game::Game;
pub use notation::{MoveError, PositionError};
pub use outcome::Status;
pub use perft::{Perft, PerftTable};
pub use position::{Move, MoveKind, Position};
pub use search::{Score, SearchLimits, SearchResult, Searcher};
pub use tables::Tables;
pub use view::{GameView, Hand, Held};
