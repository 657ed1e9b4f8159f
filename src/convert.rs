//! `marshal convert`: converts games between our game records, Gravon XML and UCC 2012
//! manager logs, and positions between our position line and StraDos3.
//!
//! Every game is replayed and checked on the way (as `marshal replay` does), so a
//! converted file always holds a legal game. The formats and their limits are in
//! `protocol.md`, section 2 (`marshal convert`).

use crate::formats::strados3::{parse_any, to_strados3};
use crate::formats::{gravon, read_games, ucc_log, GameRecord};
use crate::protocol::options::rule_options;
use crate::protocol::PositionCmd;
use crate::rules::{Color, Position, Rules, Variant};
use std::io::Write;

/// Arguments of `marshal convert`.
#[derive(clap::Args, Debug, Clone)]
pub struct ConvertArgs {
    /// A game file: a game record (JSON, or one per line), a Gravon XML file or a UCC
    /// manager log (told apart by their content, as `marshal replay` does).
    pub file: Option<String>,
    /// A position instead of a file: our position line or a StraDos3 string.
    #[arg(long)]
    pub position: Option<String>,
    /// What to print: `record`, `gravon`, `ucc` (games), `position`, `strados3` (a
    /// position, or every position of a game, one per line), `commands` (the protocol
    /// lines that tell an engine the game from one side: `--side`, `--ply`).
    #[arg(long)]
    pub to: String,
    /// The variant a StraDos3 string is read as (its captured pieces are this army less
    /// the pieces on the board).
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Which game of a file holding several (1 = the first).
    #[arg(long)]
    pub game: Option<usize>,
    /// Rule options for a position, or replacing a game's (repeatable NAME=VALUE).
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
    /// With `--to commands`: the side whose engine is told the game (red or blue).
    #[arg(long)]
    pub side: Option<String>,
    /// With `--to commands`: how many plies of the game to tell (default: all).
    #[arg(long)]
    pub ply: Option<usize>,
}

/// The output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Record,
    Gravon,
    Ucc,
    Position,
    Strados3,
    Commands,
}

fn format_of(name: &str) -> Result<Format, String> {
    Ok(match name {
        "record" => Format::Record,
        "gravon" => Format::Gravon,
        "ucc" => Format::Ucc,
        "position" => Format::Position,
        "strados3" => Format::Strados3,
        "commands" => Format::Commands,
        other => {
            return Err(format!(
                "--to '{other}' is not record, gravon, ucc, position, strados3 or commands"
            ))
        }
    })
}

/// Runs `marshal convert`, printing to `out`. Errors name the input that is wrong.
pub fn run(args: &ConvertArgs, out: &mut dyn Write) -> Result<(), String> {
    let to = format_of(&args.to)?;
    let side = match (&args.side, to) {
        (Some(s), Format::Commands) => {
            Some(Color::parse(s).ok_or_else(|| format!("--side '{s}' is not a colour (red or blue)"))?)
        }
        (None, Format::Commands) => return Err("--to commands needs --side red or --side blue".into()),
        (Some(_), _) => return Err("--side goes with --to commands only".into()),
        (None, _) => None,
    };
    if args.ply.is_some() && to != Format::Commands {
        return Err("--ply goes with --to commands only".into());
    }
    let text = match (&args.file, &args.position) {
        (Some(_), Some(_)) => return Err("give a game file or --position, not both".into()),
        (None, None) => return Err("give a game file or --position".into()),
        (None, Some(p)) => {
            let variant = Variant::parse(&args.variant).map_err(|e| format!("--variant: {}", e.0))?;
            let rules = Rules::default().with_options(&args.rules)?;
            let pos = parse_any(p, &variant, rules).map_err(|e| format!("bad --position: {e}"))?;
            let line = match to {
                Format::Position => pos.to_text(),
                Format::Strados3 => to_strados3(&pos).map_err(|e| e.to_string())?,
                _ => return Err("a position converts only --to position or --to strados3".into()),
            };
            return writeln!(out, "{line}").map_err(|e| e.to_string());
        }
        (Some(f), None) => std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?,
    };
    let mut games = read_games(&text)?;
    if let Some(k) = args.game {
        if k == 0 || k > games.len() {
            return Err(format!("--game {k}: the file holds {} game(s)", games.len()));
        }
        games = vec![games.swap_remove(k - 1)];
    }
    if !args.rules.is_empty() {
        for g in &mut games {
            g.rules = g.rules.with_options(&args.rules)?;
        }
    }
    let several = games.len() > 1;
    if several && to != Format::Record {
        return Err(format!(
            "the file holds {} games; pick one with --game (only --to record takes several)",
            games.len()
        ));
    }
    for (i, g) in games.iter().enumerate() {
        let at = |e: String| {
            if several {
                format!("game {}: {e}", i + 1)
            } else {
                e
            }
        };
        g.replay(None)
            .map_err(|e| at(format!("the game does not replay: {e}")))?;
        let text = match to {
            Format::Record if several => serde_json::to_string(g).map_err(|e| e.to_string())?,
            Format::Record => g.to_json(),
            Format::Gravon => gravon::write(g).map_err(|e| e.to_string())?.trim_end().to_string(),
            Format::Ucc => ucc_log::write(g)?,
            Format::Position | Format::Strados3 => every_position(g, to)?,
            Format::Commands => commands(g, side.unwrap_or(Color::Red), args.ply)?,
        };
        writeln!(out, "{text}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Every position of a game, from the start to after its last move, one per line.
fn every_position(g: &GameRecord, to: Format) -> Result<String, String> {
    let print = |p: &Position| -> Result<String, String> {
        match to {
            Format::Strados3 => to_strados3(p).map_err(|e| e.to_string()),
            _ => Ok(p.to_text()),
        }
    };
    let mut lines = Vec::new();
    let mut failed = None;
    let (last, _) = g
        .replay_with(None, |_, p| match print(p) {
            Ok(l) => lines.push(l),
            Err(e) => failed = failed.take().or(Some(e)),
        })
        .map_err(|e| e.to_string())?;
    if let Some(e) = failed {
        return Err(e);
    }
    lines.push(print(&last)?);
    Ok(lines.join("\n"))
}

/// `--to commands`: the protocol lines that bring an engine playing `side` to the game
/// after its first `plies` plies (all by default), as `marshal match` tells it: the rule
/// options, its setup, and one `position` line with the enemy's squares and every move
/// as that side observed it. Then `go`, `beliefs` or `d` ask the engine about it.
fn commands(g: &GameRecord, side: Color, plies: Option<usize>) -> Result<String, String> {
    let (enemy, seen) = g.observed_by(side, plies)?;
    let setup = if side == Color::Red {
        &g.red_setup
    } else {
        &g.blue_setup
    };
    let variant = Variant::parse(&g.variant).map_err(|e| e.0)?;
    let mut lines = rule_options(&variant, &g.rules);
    lines.push("newgame".into());
    lines.push(format!("setup {side} {setup}"));
    let pc = PositionCmd {
        color: side,
        setup: None,
        enemy: Some(enemy),
        moves: seen,
    };
    lines.push(pc.to_string());
    Ok(lines.join("\n"))
}
