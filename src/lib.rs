//! Marshal, a Stratego engine. The modules, from the ground up (no import runs back down):
//!
//! - `rules`: the game only, and a player's view rebuilt from what it observed.
//! - `formats`: every file and string format (records, Gravon, UCC logs, StraDos3).
//! - `protocol`: the protocol's text, parsed and printed once; the options table.
//! - `belief`, `setup`: hidden ranks believed; setups generated.
//! - `search`: the search and its thread.
//! - `engine`: the library `Engine`, the protocol loop and `bench`.
//! - `player`, `process`, `ucc`, `arena`: players of a match, child processes, the UCC
//!   2012 manager's conventions and player, the arbiter and its statistics.
//! - `play`, `convert`, `calibrate`, `data`: the command-line tools and built-in data.

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
