//! What the arbiter of a match asks of a player, whatever it is (a built-in opponent, an
//! engine process speaking our protocol, a UCC 2012 AI): the `Player` trait, what a player
//! is told at the start, its clock, and the faults that lose it a game.

use crate::rules::view::ObservedMove;
use crate::rules::{Color, Move, Position, Rules, Setup, Square, Variant};
use std::time::Duration;

/// Why a player lost by forfeit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process died or closed its output.
    Crash(String),
    /// No answer in time.
    Timeout(String),
    /// An answer that is not what the protocol allows (or an error line from the engine).
    Garbage(String),
    /// A well-formed move that is not legal.
    Illegal(String),
    /// The player gave up (a UCC AI's `SURRENDER`); recorded as a resignation.
    Resigned(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crash(s) => write!(f, "crash: {s}"),
            Fault::Timeout(s) => write!(f, "time forfeit: {s}"),
            Fault::Garbage(s) => write!(f, "garbage: {s}"),
            Fault::Illegal(s) => write!(f, "illegal move: {s}"),
            Fault::Resigned(s) => write!(f, "resigned: {s}"),
        }
    }
}

/// How long a player may think for a move, and how late its answer may come (`margin`,
/// ms: pipes, process start-up and a busy machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// A fixed time per move.
    Movetime { ms: u64, margin: u64 },
    /// Both clocks and increments (ms), as `go wtime btime winc binc`.
    Clocks { red: u64, blue: u64, inc: u64, margin: u64 },
}

/// The arbiter's default `margin`.
pub const DEFAULT_MARGIN_MS: u64 = 200;

impl Clock {
    /// The `go` line for it.
    pub fn go_line(&self) -> String {
        match *self {
            Clock::Movetime { ms, .. } => format!("go movetime {ms}"),
            Clock::Clocks { red, blue, inc, .. } => format!("go wtime {red} btime {blue} winc {inc} binc {inc}"),
        }
    }

    /// How long the arbiter waits for `bestmove` from `mover`: the allowed time (half as
    /// much again for a fixed move time) plus the margin.
    pub fn deadline(&self, mover: Color) -> Duration {
        match *self {
            Clock::Movetime { ms, margin } => Duration::from_millis(ms + margin + ms / 2),
            Clock::Clocks { red, blue, margin, .. } => {
                let left = if mover == Color::Red { red } else { blue };
                Duration::from_millis(left + margin)
            }
        }
    }
}

/// What a player is told when a game starts.
#[derive(Clone, Debug)]
pub struct GameStart {
    pub variant: Variant,
    pub rules: Rules,
    pub color: Color,
    pub setup: Setup,
    /// The enemy's occupied squares at the start (public).
    pub enemy_squares: Vec<Square>,
    pub seed: u64,
}

/// A participant in a match.
pub trait Player: Send {
    /// A player that brings its own setup (a UCC AI) returns it here; the arbiter asks
    /// before `start` and plays it instead of the one it drew. `opponent` names the other
    /// player. The default: no setup of its own.
    fn own_setup(&mut self, _variant: &Variant, _color: Color, _opponent: &str) -> Result<Option<Setup>, Fault> {
        Ok(None)
    }
    /// Prepares for a game.
    fn start(&mut self, game: &GameStart) -> Result<(), Fault>;
    /// Chooses a move. `view` is the player's own view of the game (what it may know);
    /// `observed` the moves so far as this player saw them.
    fn choose(&mut self, view: &Position, observed: &[ObservedMove], clock: Clock) -> Result<Move, Fault>;
    /// The game is over.
    fn finish(&mut self);
}
