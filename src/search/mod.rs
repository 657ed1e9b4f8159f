//! Search: the thread that thinks (controller) and what it runs (think).

pub mod controller;
pub mod eval;
mod params;
pub mod think;

pub use think::{think, think_with, Info, Limits, SearchResult};
