//! `marshal convert`: converts games between our game records, Gravon XML and UCC 2012
//! manager logs, and positions between our position line and StraDos3.
//!
//! Every game is replayed and checked on the way (as `marshal replay` does), so a
//! converted file always holds a legal game. The formats and their limits are in
//! `protocol.md`, section 2 (`marshal convert`).

use crate::arena::arbiter::{observed_token, occupied};
use crate::arena::player::{position_line, rule_options};
use crate::rules::gravon::{self, META_BLUE_PLAYER, META_RED_PLAYER};
use crate::rules::strados3::{parse_any, to_strados3};
use crate::rules::{ucc_log, Color, EndReason, GameRecord, Move, Position, Rules, Setup, Variant};
use crate::ucc::{move_to_ucc, setup_to_rows, Outcome};
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
            Format::Ucc => write_ucc_log(g)?,
            Format::Position | Format::Strados3 => every_position(g, to)?,
            Format::Commands => commands(g, side.unwrap_or(Color::Red), args.ply)?,
        };
        writeln!(out, "{text}").map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The games of a file, as `marshal replay` and `marshal convert` read it: Gravon XML
/// (`<` first), our records (`{` first, or nothing: one document, or one per line, the
/// output of `marshal match`), else a UCC manager log.
pub fn read_games(text: &str) -> Result<Vec<GameRecord>, String> {
    let start = text.trim_start();
    if start.starts_with('<') {
        return gravon::read(text)
            .map(|r| vec![r])
            .map_err(|e| format!("not a valid Gravon file: {e}"));
    }
    if !start.is_empty() && !start.starts_with('{') {
        return ucc_log::read(text).map(|r| vec![r]).map_err(|e| e.to_string());
    }
    match GameRecord::from_json(text) {
        Ok(r) => Ok(vec![r]),
        Err(whole) => {
            let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            if lines.len() > 1 && lines.iter().all(|l| l.trim_start().starts_with('{')) {
                lines
                    .iter()
                    .enumerate()
                    .map(|(i, l)| GameRecord::from_json(l).map_err(|e| format!("line {}: {e}", i + 1)))
                    .collect()
            } else {
                Err(whole.to_string())
            }
        }
    }
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
    let n = plies.unwrap_or(g.moves.len());
    if n > g.moves.len() {
        return Err(format!("--ply {n}: the game has {} plies", g.moves.len()));
    }
    let mut pos = g.start(None).map_err(|e| e.to_string())?;
    let enemy: Vec<String> = occupied(&pos, side.flip()).iter().map(|s| s.to_string()).collect();
    let mut seen = Vec::with_capacity(n);
    for rm in &g.moves[..n] {
        let mv = Move::parse(&rm.mv).map_err(|e| format!("move '{}': {e}", rm.mv))?;
        let mover = pos.side_to_move();
        let out = pos.make(mv);
        seen.push(observed_token(mv, mover, &out, &g.rules, side));
    }
    let setup = if side == Color::Red {
        &g.red_setup
    } else {
        &g.blue_setup
    };
    let mut lines = rule_options(&pos.variant, &g.rules);
    lines.push("newgame".into());
    lines.push(format!("setup {side} {setup}"));
    lines.push(position_line(side, &enemy.join(" "), &seen));
    Ok(lines.join("\n"))
}

fn colour_word(c: Color) -> &'static str {
    match c {
        Color::Red => "RED",
        Color::Blue => "BLUE",
    }
}

/// Writes a game as the UCC 2012 manager's log (`stratego -o`), in the form
/// `rules::ucc_log` reads: both setup blocks, one line per move with its outcome, and
/// for a finished game the closing lines. The manager plays classic combat on the 10x10
/// board without repetition rules; a game under other combat rules, or ended by
/// agreement, cannot be written. Its only cap is a turn cap, so a draw by either of our
/// caps is written as `DRAW_DEFAULT` (read back as `move_cap`).
pub fn write_ucc_log(g: &GameRecord) -> Result<String, String> {
    let variant = Variant::parse(&g.variant).map_err(|e| e.0)?;
    if variant.files != 10 || variant.ranks != 10 {
        return Err(format!("a UCC log holds the 10x10 board, not {}", variant.name()));
    }
    if g.rules.attacker_advantage || g.rules.silent_defence || g.rules.rescue {
        return Err(
            "a UCC log cannot express attacker advantage, silent defence or rescues (the manager has none)".into(),
        );
    }
    let name = |key: &str, fallback: &str| -> String {
        let n = g.meta.get(key).map_or(fallback, String::as_str);
        let n: String = n.split_whitespace().collect::<Vec<_>>().join("_");
        if n.is_empty() {
            fallback.to_string()
        } else {
            n
        }
    };
    // Gravon's and the UCC log's player names, else `marshal match`'s engine names.
    let names = [
        name(META_RED_PLAYER, g.meta.get("red").map_or("red", String::as_str)),
        name(META_BLUE_PLAYER, g.meta.get("blue").map_or("blue", String::as_str)),
    ];
    let mut lines = Vec::new();
    for (c, setup) in [(Color::Red, &g.red_setup), (Color::Blue, &g.blue_setup)] {
        let s = Setup::parse(setup, &variant).map_err(|e| format!("{} setup: {e}", c.name()))?;
        lines.push(format!("{} {} SETUP", names[c.index()], colour_word(c)));
        lines.extend(setup_to_rows(&s, c));
    }
    let mut pos = g.start(Some(ucc_log::UCC_RULES)).map_err(|e| e.to_string())?;
    for rm in &g.moves {
        let mv = Move::parse(&rm.mv)?;
        let side = pos.side_to_move();
        let turn = pos.ply() / 2 + 1;
        let text = move_to_ucc(mv)?;
        let outcome = Outcome::of_combat(pos.make(mv).combat);
        let tag = if side == Color::Red { "RED" } else { "BLU" };
        lines.push(format!("{turn} {tag}: {text} {}", outcome.text()));
    }
    let last_turn = pos.ply().div_ceil(2);
    let values = format!(
        "{} {}",
        ucc_log::piece_value(&pos, Color::Red),
        ucc_log::piece_value(&pos, Color::Blue)
    );
    let end = |lines: &mut Vec<String>, who: Color, word: &str, turn: u32, reason: &str| {
        lines.push(format!("Game ends on {}'s turn - REASON: {reason}", colour_word(who)));
        lines.push(format!(
            "{} {} {word} {turn} {values}",
            names[who.index()],
            colour_word(who)
        ));
    };
    if let Some(r) = g.result {
        let winner = r.winner;
        match (r.reason, winner) {
            (EndReason::FlagCaptured, Some(w)) => end(&mut lines, w, "VICTORY", last_turn, "Flag captured"),
            (EndReason::NoMoves, Some(w)) => end(&mut lines, w, "VICTORY", last_turn, "no moves left"),
            (EndReason::NeitherCanMove, _) => end(
                &mut lines,
                pos.side_to_move().flip(),
                "DRAW",
                last_turn,
                "neither side can move",
            ),
            (EndReason::MoveCap | EndReason::NoAttackCap, _) => end(
                &mut lines,
                pos.side_to_move().flip(),
                "DRAW_DEFAULT",
                last_turn,
                "turn limit reached",
            ),
            (EndReason::Resignation, Some(w)) if pos.side_to_move() == w.flip() => {
                let loser = w.flip();
                let turn = pos.ply() / 2 + 1;
                let tag = if loser == Color::Red { "RED" } else { "BLU" };
                lines.push(format!("{turn} {tag}: SURRENDER"));
                end(&mut lines, loser, "SURRENDER", turn, "surrender");
            }
            (EndReason::Forfeit, Some(w)) => end(&mut lines, w.flip(), "ILLEGAL", last_turn, "illegal reply"),
            (reason, _) => {
                return Err(format!(
                    "a UCC log cannot express the result {} ({})",
                    reason.name(),
                    crate::rules::record::describe_end(&r)
                ))
            }
        }
    }
    Ok(lines.join("\n"))
}
