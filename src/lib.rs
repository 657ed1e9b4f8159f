//! Marshal, a Stratego engine. The `rules` module knows the game; everything else
//! (protocol, engine, search, matches) builds on it.

pub mod rules;
pub mod setup;
