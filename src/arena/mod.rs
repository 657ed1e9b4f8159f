//! Engine-versus-engine matches: the arbiter, the players (built-in, engine processes of
//! our protocol, UCC 2012 AI programs), and the statistics of a result.

pub mod arbiter;
pub mod player;
pub mod stats;
