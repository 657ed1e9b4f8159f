//! The text protocol: every command line parsed into checked values, and every line a
//! program sends an engine printed, each in one place (no state, no I/O). Which commands
//! exist and what they mean is specified in `protocol.md`; the options table is in
//! `options`.

pub mod options;

use crate::rules::view::result_letter;
pub use crate::rules::view::ObservedMove;
use crate::rules::{piece::take_rank_token, Color, Combat, Move, Rank, Square};
use std::fmt;

/// A parsed `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub movetime: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    /// `searchmoves`: only these root moves are searched (empty: all legal moves).
    pub searchmoves: Vec<Move>,
}

/// The keywords of `go`; they end a `searchmoves` list.
const GO_KEYWORDS: [&str; 9] = [
    "infinite",
    "searchmoves",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "depth",
    "nodes",
];

/// A parsed `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCmd {
    pub color: Color,
    /// The engine's own setup (absent: the one from the last `setup` command).
    pub setup: Option<String>,
    /// The enemy's occupied squares at the start (absent: its whole setup zone).
    pub enemy: Option<Vec<Square>>,
    pub moves: Vec<ObservedMove>,
}

/// Every command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Stratego,
    IsReady,
    SetOption {
        name: String,
        value: String,
    },
    NewGame,
    /// `setup <colour>` (engine deploys) or `setup <colour> <setup>` (imposed).
    Setup {
        color: Color,
        setup: Option<String>,
    },
    Position(PositionCmd),
    Reveal {
        square: Square,
        rank: Rank,
    },
    Go(GoParams),
    Stop,
    Quit,
    /// Board from the engine's view.
    Display,
    /// The engine's belief about every hidden enemy piece.
    Beliefs,
    Perft {
        depth: u32,
    },
    Bench,
    Help,
    /// Empty lines and `#` comments.
    Nothing,
}

/// Names of the commands, for `help` and error messages.
pub const COMMANDS: &[&str] = &[
    "stratego",
    "isready",
    "setoption",
    "newgame",
    "setup",
    "position",
    "reveal",
    "go",
    "stop",
    "quit",
    "d",
    "beliefs",
    "perft",
    "bench",
    "help",
];

fn num<T: std::str::FromStr>(what: &str, tok: Option<&&str>) -> Result<T, String> {
    let t = tok.ok_or_else(|| format!("{what} needs a number"))?;
    t.parse().map_err(|_| format!("{what} '{t}' is not a valid number"))
}

fn color(tok: Option<&&str>, cmd: &str) -> Result<Color, String> {
    let t = tok.ok_or_else(|| format!("{cmd} needs a colour (red or blue)"))?;
    Color::parse(t).ok_or_else(|| format!("{cmd}: '{t}' is not a colour (red or blue)"))
}

/// Parses `e4e5`, `e4e5:7x5`, `e4e5:?x5:a` (see `protocol.md`, "position").
pub fn parse_observed(tok: &str) -> Result<ObservedMove, String> {
    let mut parts = tok.split(':');
    let mv = Move::parse(parts.next().unwrap_or(""))?;
    let Some(fight) = parts.next() else {
        return Ok(ObservedMove { mv, attack: None });
    };
    let (a, d) = fight
        .split_once('x')
        .ok_or_else(|| format!("move '{tok}': attack '{fight}' is not <attacker>x<defender>"))?;
    let rank = |s: &str| -> Result<Option<Rank>, String> {
        if s == "?" {
            return Ok(None);
        }
        match take_rank_token(s.as_bytes()) {
            Some((r, n)) if n == s.len() => Ok(Some(r)),
            _ => Err(format!("move '{tok}': '{s}' is not a piece or ?")),
        }
    };
    let (ra, rd) = (rank(a)?, rank(d)?);
    let result = match parts.next() {
        None => None,
        Some("a") => Some(Combat::AttackerWins),
        Some("d") => Some(Combat::DefenderWins),
        Some("b") => Some(Combat::BothDie),
        Some(x) => {
            return Err(format!(
                "move '{tok}': result '{x}' is not a (attacker wins), d (defender wins) or b (both die)"
            ))
        }
    };
    if parts.next().is_some() {
        return Err(format!("move '{tok}': too many ':' parts"));
    }
    Ok(ObservedMove {
        mv,
        attack: Some((ra, rd, result)),
    })
}

impl std::str::FromStr for ObservedMove {
    type Err = String;

    fn from_str(tok: &str) -> Result<ObservedMove, String> {
        parse_observed(tok)
    }
}

/// The observed-move token: `e4e5`, `e4e5:7x5`, `e4e5:7x?:a` (the only writer of it).
impl fmt::Display for ObservedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mv)?;
        let Some((a, d, result)) = self.attack else {
            return Ok(());
        };
        let ch = |r: Option<Rank>| r.map_or('?', |r| r.to_char());
        write!(f, ":{}x{}", ch(a), ch(d))?;
        if let Some(c) = result {
            write!(f, ":{}", result_letter(c))?;
        }
        Ok(())
    }
}

/// The `position` line (the only writer of it): `position <colour> [setup <s>] [enemy
/// <squares>] [moves <observed moves>]`.
impl fmt::Display for PositionCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position {}", self.color)?;
        if let Some(s) = &self.setup {
            write!(f, " setup {s}")?;
        }
        if let Some(enemy) = &self.enemy {
            f.write_str(" enemy")?;
            for sq in enemy {
                write!(f, " {sq}")?;
            }
        }
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for m in &self.moves {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Command {
    type Err = String;

    fn from_str(line: &str) -> Result<Command, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(Command::Nothing);
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        let (cmd, args) = (toks[0], &toks[1..]);
        let no_args = |c: Command| {
            if args.is_empty() {
                Ok(c)
            } else {
                Err(format!("{cmd} takes no arguments, got '{}'", args.join(" ")))
            }
        };
        match cmd {
            "stratego" => no_args(Command::Stratego),
            "isready" => no_args(Command::IsReady),
            "newgame" => no_args(Command::NewGame),
            "stop" => no_args(Command::Stop),
            "quit" => no_args(Command::Quit),
            "d" => no_args(Command::Display),
            "beliefs" => no_args(Command::Beliefs),
            "bench" => no_args(Command::Bench),
            "help" => no_args(Command::Help),
            "perft" => {
                if args.len() != 1 {
                    return Err("perft needs one depth, e.g. 'perft 3'".into());
                }
                let depth: u32 = num("perft depth", args.first())?;
                if !(1..=8).contains(&depth) {
                    return Err(format!("perft depth {depth} is out of range 1..8"));
                }
                Ok(Command::Perft { depth })
            }
            "setoption" => {
                // setoption name <N...> value <V...>
                if args.first() != Some(&"name") {
                    return Err("setoption needs 'name <option> value <value>'".into());
                }
                let vpos = args.iter().position(|t| *t == "value");
                let (name, value) = match vpos {
                    Some(i) => (args[1..i].join(" "), args[i + 1..].join(" ")),
                    None => (args[1..].join(" "), String::new()),
                };
                if name.is_empty() {
                    return Err("setoption: the option name is missing".into());
                }
                if vpos.is_none() || value.is_empty() {
                    return Err(format!("setoption {name}: the value is missing ('value <v>')"));
                }
                Ok(Command::SetOption { name, value })
            }
            "setup" => {
                let c = color(args.first(), "setup")?;
                match args.len() {
                    1 => Ok(Command::Setup { color: c, setup: None }),
                    2 => Ok(Command::Setup {
                        color: c,
                        setup: Some(args[1].to_string()),
                    }),
                    _ => Err("setup takes a colour and optionally one setup string".into()),
                }
            }
            "reveal" => {
                if args.len() != 2 {
                    return Err("reveal needs a square and a piece, e.g. 'reveal e7 M'".into());
                }
                let square = Square::parse(args[0]).ok_or_else(|| format!("reveal: '{}' is not a square", args[0]))?;
                let rank = match take_rank_token(args[1].as_bytes()) {
                    Some((r, n)) if n == args[1].len() => r,
                    _ => return Err(format!("reveal: '{}' is not a piece (F B S 2-9 M)", args[1])),
                };
                Ok(Command::Reveal { square, rank })
            }
            "go" => {
                let mut p = GoParams::default();
                let mut i = 0;
                while i < args.len() {
                    let key = args[i];
                    let val = args.get(i + 1);
                    match key {
                        "infinite" => {
                            p.infinite = true;
                            i += 1;
                            continue;
                        }
                        "searchmoves" => {
                            // UCI style: every token up to the next keyword is a move.
                            i += 1;
                            let first = i;
                            while i < args.len() && !GO_KEYWORDS.contains(&args[i]) {
                                let mv = Move::parse(args[i])
                                    .map_err(|_| format!("go searchmoves: '{}' is not a move", args[i]))?;
                                p.searchmoves.push(mv);
                                i += 1;
                            }
                            if i == first {
                                return Err("go searchmoves needs at least one move, e.g. 'go searchmoves e4e5'".into());
                            }
                            continue;
                        }
                        "movetime" => p.movetime = Some(num("go movetime", val)?),
                        "wtime" => p.wtime = Some(num("go wtime", val)?),
                        "btime" => p.btime = Some(num("go btime", val)?),
                        "winc" => p.winc = Some(num("go winc", val)?),
                        "binc" => p.binc = Some(num("go binc", val)?),
                        "depth" => p.depth = Some(num("go depth", val)?),
                        "nodes" => p.nodes = Some(num("go nodes", val)?),
                        other => return Err(format!("go: unknown parameter '{other}'")),
                    }
                    i += 2;
                }
                if p.depth == Some(0) {
                    return Err("go depth must be at least 1".into());
                }
                Ok(Command::Go(p))
            }
            "position" => {
                let c = color(args.first(), "position")?;
                let mut pc = PositionCmd {
                    color: c,
                    setup: None,
                    enemy: None,
                    moves: Vec::new(),
                };
                let mut i = 1;
                while i < args.len() {
                    match args[i] {
                        "setup" => {
                            let s = args.get(i + 1).ok_or("position: 'setup' needs a setup string")?;
                            pc.setup = Some(s.to_string());
                            i += 2;
                        }
                        "enemy" => {
                            let mut sq = Vec::new();
                            i += 1;
                            while i < args.len() && args[i] != "moves" && args[i] != "setup" {
                                sq.push(
                                    Square::parse(args[i]).ok_or_else(|| {
                                        format!("position: enemy square '{}' is not a square", args[i])
                                    })?,
                                );
                                i += 1;
                            }
                            if sq.is_empty() {
                                return Err("position: 'enemy' needs the enemy's occupied squares".into());
                            }
                            pc.enemy = Some(sq);
                        }
                        "moves" => {
                            for t in &args[i + 1..] {
                                pc.moves.push(parse_observed(t).map_err(|e| format!("position: {e}"))?);
                            }
                            i = args.len();
                        }
                        other => {
                            return Err(format!(
                                "position: unexpected '{other}' (expected setup, enemy or moves)"
                            ))
                        }
                    }
                }
                Ok(Command::Position(pc))
            }
            other => Err(format!("unknown command '{other}' (try 'help')")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!("isready".parse::<Command>(), Ok(Command::IsReady));
        assert_eq!("  # note".parse::<Command>(), Ok(Command::Nothing));
        assert_eq!(
            "setoption name Move Overhead value 30".parse::<Command>(),
            Ok(Command::SetOption {
                name: "Move Overhead".into(),
                value: "30".into()
            })
        );
        let go: Command = "go wtime 1000 btime 900 winc 10 binc 10".parse().unwrap();
        assert!(matches!(
            go,
            Command::Go(GoParams {
                wtime: Some(1000),
                binc: Some(10),
                ..
            })
        ));
        let p: Command = "position red enemy a7 b7 moves a4a5 j7j6 a5a7:2x2".parse().unwrap();
        let Command::Position(pc) = p else { panic!() };
        assert_eq!(pc.enemy.as_ref().map(|v| v.len()), Some(2));
        assert_eq!(pc.moves.len(), 3);
        assert_eq!(pc.moves[2].attack, Some((Some(Rank::Scout), Some(Rank::Scout), None)));
        assert_eq!(
            parse_observed("e4e5:5x?:d").unwrap().attack,
            Some((Some(Rank::Lieutenant), None, Some(Combat::DefenderWins)))
        );
    }

    #[test]
    fn rejects_with_reasons() {
        for (line, needle) in [
            ("go movetime x", "movetime 'x'"),
            ("go depth 0", "depth"),
            ("setup green", "'green'"),
            ("perft 99", "out of range"),
            ("position red moves e4e5:7y5", "not <attacker>x<defender>"),
            ("position red moves e4e5:7x5:q", "result 'q'"),
            ("frobnicate", "unknown command 'frobnicate'"),
            ("isready now", "takes no arguments"),
            ("reveal z9 M", "'z9'"),
            ("setoption name Seed", "value is missing"),
        ] {
            let e = line.parse::<Command>().unwrap_err();
            assert!(e.contains(needle), "{line}: {e}");
        }
    }
}
