//! Game records (JSON via serde): variant, rules, both setups, every move with its
//! outcome, and the result; enough to resume an interrupted game exactly or replay it.

use crate::rules::moves::Move;
use crate::rules::notation::Setup;
use crate::rules::piece::{Color, Combat, Rank};
use crate::rules::position::{EndReason, GameEnd, Position};
use crate::rules::square::Square;
use crate::rules::variant::{Rules, Variant};
use crate::rules::view::{occupied, ObservedMove};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The format tag written into every record.
pub const RECORD_FORMAT: &str = "marshal-game/1";

/// One ply of a record. For attacks, the ranks of both pieces and what happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedMove {
    #[serde(rename = "move")]
    pub mv: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defender: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<Combat>,
}

/// A game: what it was played under, the setups, the moves, and how it ended (`result`
/// is absent while the game goes on, which is how an interrupted game is saved).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    pub format: String,
    pub variant: String,
    #[serde(default)]
    pub rules: Rules,
    pub red_setup: String,
    pub blue_setup: String,
    #[serde(default)]
    pub moves: Vec<RecordedMove>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<GameEnd>,
    /// Free-form facts: player names, date, event, seed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub meta: BTreeMap<String, String>,
}

/// Why a record could not be read or replayed. `ply` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The file is not a record (JSON or fields wrong).
    Format(String),
    /// A move is malformed, illegal, or its recorded outcome disagrees with the rules.
    Move { ply: usize, mv: String, reason: String },
    /// The recorded result is not the one the moves reach.
    Result { recorded: String, reached: String },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Format(s) => write!(f, "not a valid game record: {s}"),
            RecordError::Move { ply, mv, reason } => write!(f, "move {ply} ({mv}) is illegal: {reason}"),
            RecordError::Result { recorded, reached } => {
                write!(f, "recorded result '{recorded}' but the moves reach '{reached}'")
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// Describes a game end in words, e.g. `red wins (flag_captured)` or `draw (move_cap)`.
pub fn describe_end(end: &GameEnd) -> String {
    match end.winner {
        Some(c) => format!("{c} wins ({})", end.reason.name()),
        None => format!("draw ({})", end.reason.name()),
    }
}

impl GameRecord {
    /// A new record for a game about to start.
    pub fn new(variant: &Variant, rules: Rules, red: &Setup, blue: &Setup) -> GameRecord {
        GameRecord {
            format: RECORD_FORMAT.into(),
            variant: variant.name(),
            rules,
            red_setup: red.to_string(),
            blue_setup: blue.to_string(),
            moves: Vec::new(),
            result: None,
            meta: BTreeMap::new(),
        }
    }

    /// Appends a move and what it did.
    pub fn push(&mut self, mv: Move, combat: Option<(Rank, Rank, Combat)>) {
        self.moves.push(RecordedMove {
            mv: mv.to_string(),
            attacker: combat.map(|c| c.0.to_char().to_string()),
            defender: combat.map(|c| c.1.to_char().to_string()),
            combat: combat.map(|c| c.2),
        });
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn from_json(s: &str) -> Result<GameRecord, RecordError> {
        let r: GameRecord = serde_json::from_str(s).map_err(|e| RecordError::Format(e.to_string()))?;
        if r.format != RECORD_FORMAT {
            return Err(RecordError::Format(format!(
                "format '{}' is not {RECORD_FORMAT}",
                r.format
            )));
        }
        Ok(r)
    }

    /// The starting position (under the record's rules, or `rules` if given).
    pub fn start(&self, rules: Option<Rules>) -> Result<Position, RecordError> {
        let variant = Variant::parse(&self.variant).map_err(|e| RecordError::Format(e.0))?;
        let red =
            Setup::parse(&self.red_setup, &variant).map_err(|e| RecordError::Format(format!("red setup: {e}")))?;
        let blue =
            Setup::parse(&self.blue_setup, &variant).map_err(|e| RecordError::Format(format!("blue setup: {e}")))?;
        Position::from_setups(variant, rules.unwrap_or(self.rules), &red, &blue).map_err(|e| RecordError::Format(e.0))
    }

    /// Replays every move, checking legality and recorded outcomes; calls `before_ply`
    /// with the position before each ply. Returns the final position and, if the game
    /// is over, how it ended (the recorded result for resignations and the like).
    pub fn replay_with<F: FnMut(usize, &Position)>(
        &self,
        rules: Option<Rules>,
        mut before_ply: F,
    ) -> Result<(Position, Option<GameEnd>), RecordError> {
        let mut pos = self.start(rules)?;
        for (i, rm) in self.moves.iter().enumerate() {
            let ply = i + 1;
            let bad = |reason: String| RecordError::Move {
                ply,
                mv: rm.mv.clone(),
                reason,
            };
            before_ply(ply, &pos);
            if let Some(end) = pos.game_end() {
                return Err(bad(format!("the game was already over: {}", describe_end(&end))));
            }
            let mv = Move::parse(&rm.mv).map_err(bad)?;
            if let Some(reason) = pos.illegal_reason(mv) {
                return Err(bad(reason));
            }
            let out = pos.make(mv);
            let got = out.combat;
            let rec_att = rm.attacker.as_deref().map(parse_rank).transpose().map_err(bad)?;
            let rec_def = rm.defender.as_deref().map(parse_rank).transpose().map_err(bad)?;
            match got {
                None if rm.combat.is_some() || rec_att.is_some() || rec_def.is_some() => {
                    return Err(bad("recorded as an attack, but the target square was empty".into()));
                }
                Some((a, d, c))
                    if rec_att.is_some_and(|r| r != a)
                        || rec_def.is_some_and(|r| r != d)
                        || rm.combat.is_some_and(|x| x != c) =>
                {
                    return Err(bad(format!(
                        "recorded outcome {}x{} {:?} disagrees with the position ({}x{} {:?})",
                        rm.attacker.as_deref().unwrap_or("?"),
                        rm.defender.as_deref().unwrap_or("?"),
                        rm.combat,
                        a.to_char(),
                        d.to_char(),
                        c
                    )));
                }
                Some(_) => {}
                None => {}
            }
        }
        let reached = pos.game_end();
        match (&self.result, reached) {
            (Some(rec), Some(end)) if rec.winner != end.winner || rec.reason != end.reason => {
                Err(RecordError::Result {
                    recorded: describe_end(rec),
                    reached: describe_end(&end),
                })
            }
            (Some(rec), None) => {
                if matches!(
                    rec.reason,
                    EndReason::Resignation | EndReason::Agreement | EndReason::Forfeit
                ) {
                    Ok((pos, Some(*rec)))
                } else {
                    Err(RecordError::Result {
                        recorded: describe_end(rec),
                        reached: "game not over".into(),
                    })
                }
            }
            (_, end) => Ok((pos, end)),
        }
    }

    /// What `side` observed of the game's first `plies` plies (all by default): the
    /// squares the enemy's pieces started on, and every move as that side saw it (the
    /// engine's `position` line, as `marshal match` tells it).
    pub fn observed_by(&self, side: Color, plies: Option<usize>) -> Result<(Vec<Square>, Vec<ObservedMove>), String> {
        let n = plies.unwrap_or(self.moves.len());
        if n > self.moves.len() {
            return Err(format!("--ply {n}: the game has {} plies", self.moves.len()));
        }
        let mut pos = self.start(None).map_err(|e| e.to_string())?;
        let enemy = occupied(&pos, side.flip());
        let mut seen = Vec::with_capacity(n);
        for rm in &self.moves[..n] {
            let mv = Move::parse(&rm.mv).map_err(|e| format!("move '{}': {e}", rm.mv))?;
            let mover = pos.side_to_move();
            let out = pos.make(mv);
            seen.push(ObservedMove::seen_by(mv, mover, &out, &self.rules, side));
        }
        Ok((enemy, seen))
    }

    /// `replay_with` without a callback.
    pub fn replay(&self, rules: Option<Rules>) -> Result<(Position, Option<GameEnd>), RecordError> {
        self.replay_with(rules, |_, _| {})
    }
}

fn parse_rank(s: &str) -> Result<Rank, String> {
    match crate::rules::piece::take_rank_token(s.as_bytes()) {
        Some((r, n)) if n == s.len() => Ok(r),
        _ => Err(format!("'{s}' is not a piece")),
    }
}

/// Colour of the player who makes ply `ply` (1-based).
pub fn mover_of_ply(ply: usize) -> Color {
    if ply % 2 == 1 {
        Color::Red
    } else {
        Color::Blue
    }
}
