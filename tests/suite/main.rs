//! The integration tests, built as one test binary (one build and one link instead of
//! one per file; CI's test build took two minutes with 25). Each file is a module named
//! as it was: `cargo test --release --test suite -- <module>::` runs one of them.
//! `tests/ucc_adapter.rs` stays a binary of its own: its games are timed by a stand-in
//! manager and want the machine to themselves.

mod common;

mod arena;
mod calibrate;
mod cli;
mod convert;
mod gravon;
mod layout;
mod match_stats;
mod naive_vs_fast;
mod oracle;
mod perft;
mod play;
mod protocol_fuzz;
mod roundtrip;
mod rules_combat;
mod rules_end;
mod rules_moving;
mod rules_options;
mod rules_repetition;
mod rules_view;
mod searchmoves;
mod selfplay;
mod setup_gen;
mod transcripts;
mod ucc_logs;
mod ucc_match;
