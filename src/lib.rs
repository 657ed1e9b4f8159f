//! Marshal, a Stratego engine. The `rules` module knows the game; everything else
//! (protocol, engine, search, matches) builds on it.

pub mod arena;
pub mod belief;
pub mod calibrate;
pub mod convert;
pub mod data;
pub mod engine;
pub mod formats;
pub mod play;
pub mod player;
pub mod process;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod setup;
pub mod ucc;
