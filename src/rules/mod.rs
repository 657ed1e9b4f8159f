//! The game only: pieces, boards, variants, moves, combat, repetition rules, notation.
//! No I/O, no threads, no randomness.

pub mod gravon;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod piece;
pub mod position;
pub mod record;
pub mod square;
pub mod strados3;
pub mod ucc_log;
pub mod variant;

pub use moves::Move;
pub use notation::Setup;
pub use piece::{Color, Combat, Piece, Rank};
pub use position::{EndReason, GameEnd, MoveOutcome, Position, PositionError};
pub use record::{GameRecord, RecordError};
pub use square::Square;
pub use variant::{Rules, Variant, VariantKind};
