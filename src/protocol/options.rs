//! The engine's options: their table (names, types, defaults and bounds, each written
//! once), the values set with `setoption`, and the lines that set them.

use crate::rules::{Rules, Variant};

/// Engine options set with `setoption`.
#[derive(Clone, Debug)]
pub struct Options {
    pub variant: Variant,
    pub rules: Rules,
    pub seed: u64,
    pub threads: u32,
    pub move_overhead: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Variant::CLASSIC,
            rules: Rules::default(),
            seed: 0,
            threads: 1,
            move_overhead: 30,
        }
    }
}

/// Most search threads (the sampled worlds are shared among them).
const MAX_THREADS: u32 = 8;

/// Every option of the engine, in the order of the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    Variant,
    TwoSquares,
    MoreSquares,
    AttackerAdvantage,
    SilentDefence,
    Rescue,
    MaxPlies,
    MaxQuietPlies,
    Seed,
    Threads,
    MoveOverhead,
}

impl Opt {
    pub const ALL: [Opt; 11] = [
        Opt::Variant,
        Opt::TwoSquares,
        Opt::MoreSquares,
        Opt::AttackerAdvantage,
        Opt::SilentDefence,
        Opt::Rescue,
        Opt::MaxPlies,
        Opt::MaxQuietPlies,
        Opt::Seed,
        Opt::Threads,
        Opt::MoveOverhead,
    ];

    /// The option's name (the only place it is written).
    pub fn name(self) -> &'static str {
        match self {
            Opt::Variant => "Variant",
            Opt::TwoSquares => "TwoSquares",
            Opt::MoreSquares => "MoreSquares",
            Opt::AttackerAdvantage => "AttackerAdvantage",
            Opt::SilentDefence => "SilentDefence",
            Opt::Rescue => "Rescue",
            Opt::MaxPlies => "MaxPlies",
            Opt::MaxQuietPlies => "MaxQuietPlies",
            Opt::Seed => "Seed",
            Opt::Threads => "Threads",
            Opt::MoveOverhead => "MoveOverhead",
        }
    }

    /// Its type, default and bounds, as the handshake's `option` line gives them.
    fn kind(self) -> &'static str {
        match self {
            Opt::Variant => "type string default classic",
            Opt::TwoSquares => "type spin default 3 min 0 max 12",
            Opt::MoreSquares => "type check default true",
            Opt::AttackerAdvantage | Opt::SilentDefence | Opt::Rescue => "type check default false",
            Opt::MaxPlies => "type spin default 4000 min 0 max 1000000",
            Opt::MaxQuietPlies => "type spin default 200 min 0 max 1000000",
            Opt::Seed => "type spin default 0 min 0 max 9223372036854775807",
            Opt::Threads => "type spin default 1 min 1 max 8",
            Opt::MoveOverhead => "type spin default 30 min 0 max 5000",
        }
    }

    /// The option a `setoption` name means: case, spaces, `_` and `-` do not matter, and
    /// `SilentDefense` is taken too.
    pub fn find(name: &str) -> Option<Opt> {
        let key: String = name
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '_' && *c != '-')
            .collect::<String>()
            .to_ascii_lowercase();
        if key == "silentdefense" {
            return Some(Opt::SilentDefence);
        }
        Opt::ALL.into_iter().find(|o| o.name().to_ascii_lowercase() == key)
    }

    /// The `setoption` line that sets it to `value`.
    pub fn line(self, value: impl std::fmt::Display) -> String {
        format!("setoption name {} value {value}", self.name())
    }
}

/// The `option` lines of the handshake.
pub fn option_lines() -> Vec<String> {
    Opt::ALL
        .iter()
        .map(|o| format!("option name {} {}", o.name(), o.kind()))
        .collect()
}

/// The `setoption` lines that tell an engine the variant and every rule option of a game.
pub fn rule_options(variant: &Variant, r: &Rules) -> Vec<String> {
    vec![
        Opt::Variant.line(variant.name()),
        Opt::TwoSquares.line(r.two_squares.unwrap_or(0)),
        Opt::MoreSquares.line(r.more_squares),
        Opt::AttackerAdvantage.line(r.attacker_advantage),
        Opt::SilentDefence.line(r.silent_defence),
        Opt::Rescue.line(r.rescue),
        Opt::MaxPlies.line(r.max_plies.unwrap_or(0)),
        Opt::MaxQuietPlies.line(r.max_quiet_plies.unwrap_or(0)),
    ]
}

fn parse_bool(name: &str, v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" => Ok(true),
        "false" | "off" => Ok(false),
        _ => Err(format!("setoption {name}: '{v}' is not true or false")),
    }
}

fn parse_spin(name: &str, v: &str, max: u64) -> Result<u64, String> {
    v.parse::<u64>()
        .ok()
        .filter(|&n| n <= max)
        .ok_or_else(|| format!("setoption {name}: '{v}' is not a number in 0..{max}"))
}

impl Options {
    /// The options after `setoption name value`, or why that is rejected.
    pub fn with(&self, name: &str, value: &str) -> Result<Options, String> {
        let mut o = self.clone();
        let Some(opt) = Opt::find(name) else {
            return Err(format!("setoption: unknown option '{name}'"));
        };
        match opt {
            Opt::Variant => o.variant = Variant::parse(value).map_err(|e| format!("setoption Variant: {e}"))?,
            Opt::TwoSquares => {
                let n = parse_spin(name, value, 12)?;
                o.rules.two_squares = if n == 0 { None } else { Some(n as u8) };
            }
            Opt::MoreSquares => o.rules.more_squares = parse_bool(name, value)?,
            Opt::AttackerAdvantage => o.rules.attacker_advantage = parse_bool(name, value)?,
            Opt::SilentDefence => o.rules.silent_defence = parse_bool(name, value)?,
            Opt::Rescue => o.rules.rescue = parse_bool(name, value)?,
            Opt::MaxPlies => {
                let n = parse_spin(name, value, 1_000_000)?;
                o.rules.max_plies = if n == 0 { None } else { Some(n as u32) };
            }
            Opt::MaxQuietPlies => {
                let n = parse_spin(name, value, 1_000_000)?;
                o.rules.max_quiet_plies = if n == 0 { None } else { Some(n as u32) };
            }
            Opt::Seed => o.seed = parse_spin(name, value, i64::MAX as u64)?,
            Opt::Threads => {
                o.threads = match value.parse::<u32>() {
                    Ok(n @ 1..=MAX_THREADS) => n,
                    _ => {
                        return Err(format!(
                            "setoption {name}: '{value}' is not a whole number from 1 to {MAX_THREADS}"
                        ))
                    }
                }
            }
            Opt::MoveOverhead => o.move_overhead = parse_spin(name, value, 5000)?,
        }
        Ok(o)
    }
}
