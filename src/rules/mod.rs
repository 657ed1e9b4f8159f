//! The game only: pieces, boards, variants, moves, combat, repetition rules, notation,
//! and a player's view rebuilt from what it observed.
//! No I/O, no threads, no randomness.

pub mod movegen;
pub mod moves;
pub mod notation;
pub mod piece;
pub mod position;
pub mod square;
pub mod variant;
pub mod view;

pub use moves::Move;
pub use notation::Setup;
pub use piece::{Color, Combat, Piece, Rank};
pub use position::{EndReason, GameEnd, MoveOutcome, Position, PositionError};
pub use square::Square;
pub use variant::{Rules, Variant, VariantKind};
