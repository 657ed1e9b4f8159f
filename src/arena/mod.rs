//! Engine-versus-engine matches: the arbiter, the players (built-in and processes), and
//! the statistics of a result.

pub mod arbiter;
pub mod player;
pub mod stats;
