//! Variants as data (board size, lakes, setup zone, army) and the rule options.

use super::piece::{Color, Rank, NUM_RANKS};
use super::square::{Square, MAX_FILES, MAX_RANKS};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The built-in variants, and `Custom` for any army on either board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariantKind {
    Classic,
    Compact,
    Duel,
    DuelCompact,
    Barrage,
    Custom,
}

/// A board, its setup zone and each side's army. Lakes are always the two 2x2 blocks in
/// files c-d and g-h of the two middle ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub kind: VariantKind,
    pub files: u8,
    pub ranks: u8,
    pub setup_rows: u8,
    /// Pieces of each rank per side, indexed by `Rank::index()`.
    pub army: [u8; NUM_RANKS],
}

/// Army of classic: M1 G1 Col2 Maj3 Cap4 Lt4 Sgt4 Min5 Sc8 Spy1 B6 F1.
const CLASSIC_ARMY: [u8; NUM_RANKS] = [1, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6];
/// Army of compact: M1 G1 Col2 Maj3 Cap3 Lt2 Sgt2 Min4 Sc5 Spy1 B5 F1.
const COMPACT_ARMY: [u8; NUM_RANKS] = [1, 1, 5, 4, 2, 2, 3, 3, 2, 1, 1, 5];
/// Duel: F1 B2 M1 G1 Min2 Sc2 Spy1.
const DUEL_ARMY: [u8; NUM_RANKS] = [1, 1, 2, 2, 0, 0, 0, 0, 0, 1, 1, 2];
/// Barrage: F1 B1 M1 G1 Min1 Sc2 Spy1.
const BARRAGE_ARMY: [u8; NUM_RANKS] = [1, 1, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1];

/// Why a variant name was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError(pub String);

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for VariantError {}

impl Variant {
    pub const CLASSIC: Variant = Variant {
        kind: VariantKind::Classic,
        files: 10,
        ranks: 10,
        setup_rows: 4,
        army: CLASSIC_ARMY,
    };
    pub const COMPACT: Variant = Variant {
        kind: VariantKind::Compact,
        files: 10,
        ranks: 8,
        setup_rows: 3,
        army: COMPACT_ARMY,
    };
    pub const DUEL: Variant = Variant {
        kind: VariantKind::Duel,
        files: 10,
        ranks: 10,
        setup_rows: 4,
        army: DUEL_ARMY,
    };
    pub const DUEL_COMPACT: Variant = Variant {
        kind: VariantKind::DuelCompact,
        files: 10,
        ranks: 8,
        setup_rows: 3,
        army: DUEL_ARMY,
    };
    pub const BARRAGE: Variant = Variant {
        kind: VariantKind::Barrage,
        files: 10,
        ranks: 10,
        setup_rows: 4,
        army: BARRAGE_ARMY,
    };

    /// The names of the built-in variants, for help texts.
    pub const BUILT_IN: [&'static str; 5] = ["classic", "compact", "duel", "duel-compact", "barrage"];

    /// A custom army on the 10x10 (`ranks` = 10) or 10x8 (`ranks` = 8) board.
    pub fn custom(ranks: u8, army: [u8; NUM_RANKS]) -> Result<Variant, VariantError> {
        let setup_rows = match ranks {
            10 => 4,
            8 => 3,
            _ => {
                return Err(VariantError(format!(
                    "board 10x{ranks} is not supported (10x10 or 10x8)"
                )))
            }
        };
        let v = Variant {
            kind: VariantKind::Custom,
            files: 10,
            ranks,
            setup_rows,
            army,
        };
        if army[Rank::Flag.index()] == 0 {
            return Err(VariantError("a custom army needs at least one Flag".into()));
        }
        let total = v.army_size();
        let zone = v.zone_size();
        if total > zone {
            return Err(VariantError(format!(
                "a custom army of {total} pieces does not fit the {zone} squares of the setup zone"
            )));
        }
        Ok(v)
    }

    /// Pieces per side.
    pub fn army_size(&self) -> usize {
        self.army.iter().map(|&c| c as usize).sum()
    }

    /// Squares in one side's setup zone.
    pub fn zone_size(&self) -> usize {
        self.setup_rows as usize * self.files as usize
    }

    /// Whether every square of the setup zone must be filled (classic, compact, and custom
    /// armies that are as large as the zone).
    pub fn fills_zone(&self) -> bool {
        self.army_size() == self.zone_size()
    }

    /// Is `sq` on this board (lakes included)?
    #[inline]
    pub fn on_board(&self, sq: Square) -> bool {
        sq.file() < self.files && sq.rank() < self.ranks && sq.index() >= super::square::STRIDE
    }

    /// Is `sq` a lake square?
    #[inline]
    pub fn is_lake(&self, sq: Square) -> bool {
        let mid = self.ranks / 2;
        let r = sq.rank();
        (r == mid - 1 || r == mid) && matches!(sq.file(), 2 | 3 | 6 | 7)
    }

    /// Can a piece ever stand on `sq`?
    #[inline]
    pub fn is_playable(&self, sq: Square) -> bool {
        self.on_board(sq) && !self.is_lake(sq)
    }

    /// Is `sq` in `color`'s setup zone?
    pub fn in_zone(&self, color: Color, sq: Square) -> bool {
        if !self.on_board(sq) {
            return false;
        }
        match color {
            Color::Red => sq.rank() < self.setup_rows,
            Color::Blue => sq.rank() >= self.ranks - self.setup_rows,
        }
    }

    /// Is `sq` in `color`'s half of the board (rescued pieces go there)?
    pub fn in_half(&self, color: Color, sq: Square) -> bool {
        if !self.on_board(sq) {
            return false;
        }
        match color {
            Color::Red => sq.rank() < self.ranks / 2,
            Color::Blue => sq.rank() >= self.ranks / 2,
        }
    }

    /// The rank index of `color`'s back row.
    pub fn back_rank(&self, color: Color) -> u8 {
        match color {
            Color::Red => 0,
            Color::Blue => self.ranks - 1,
        }
    }

    /// The square of a setup slot: `row` 0 is the owner's back row, `col` 0 the owner's left.
    pub fn zone_square(&self, color: Color, row: u8, col: u8) -> Square {
        match color {
            Color::Red => Square::new(col, row),
            Color::Blue => Square::new(self.files - 1 - col, self.ranks - 1 - row),
        }
    }

    /// Every playable square, rank 1 first.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.ranks)
            .flat_map(move |r| (0..self.files).map(move |f| Square::new(f, r)))
            .filter(move |&s| !self.is_lake(s))
    }

    /// Parses a variant name: a built-in name, or `custom:<board>:<army>` with board
    /// `10x10` or `10x8` and army a comma list of `<piece>=<count>`, e.g.
    /// `custom:10x8:F=1,B=2,S=1,2=4,3=2,M=1`.
    pub fn parse(s: &str) -> Result<Variant, VariantError> {
        match s.to_ascii_lowercase().as_str() {
            "classic" | "original" => return Ok(Variant::CLASSIC),
            "compact" => return Ok(Variant::COMPACT),
            "duel" => return Ok(Variant::DUEL),
            "duel-compact" => return Ok(Variant::DUEL_COMPACT),
            "barrage" => return Ok(Variant::BARRAGE),
            _ => {}
        }
        let rest = s
            .strip_prefix("custom:")
            .or_else(|| s.strip_prefix("CUSTOM:"))
            .ok_or_else(|| {
                VariantError(format!(
                    "unknown variant '{s}' (expected one of {}, or custom:<board>:<army>)",
                    Variant::BUILT_IN.join(", ")
                ))
            })?;
        let (board, army_txt) = rest
            .split_once(':')
            .ok_or_else(|| VariantError(format!("custom variant '{s}' needs <board>:<army>")))?;
        let ranks = match board {
            "10x10" => 10,
            "10x8" => 8,
            _ => return Err(VariantError(format!("unknown board '{board}' (10x10 or 10x8)"))),
        };
        let mut army = [0u8; NUM_RANKS];
        let mut seen = [false; NUM_RANKS];
        for item in army_txt.split(',') {
            let (p, n) = item
                .split_once('=')
                .ok_or_else(|| VariantError(format!("army item '{item}' is not <piece>=<count>")))?;
            let rank = match super::piece::take_rank_token(p.as_bytes()) {
                Some((r, used)) if used == p.len() => r,
                _ => return Err(VariantError(format!("unknown piece '{p}' in army"))),
            };
            let count: u8 = n
                .parse()
                .ok()
                .filter(|&c: &u8| c <= 40)
                .ok_or_else(|| VariantError(format!("bad count '{n}' for piece {p} (0..40)")))?;
            if seen[rank.index()] {
                return Err(VariantError(format!("piece {p} is listed twice in the army")));
            }
            seen[rank.index()] = true;
            army[rank.index()] = count;
        }
        Variant::custom(ranks, army)
    }

    /// The canonical name, which `parse` reads back to the same variant.
    pub fn name(&self) -> String {
        match self.kind {
            VariantKind::Classic => "classic".into(),
            VariantKind::Compact => "compact".into(),
            VariantKind::Duel => "duel".into(),
            VariantKind::DuelCompact => "duel-compact".into(),
            VariantKind::Barrage => "barrage".into(),
            VariantKind::Custom => {
                let items: Vec<String> = Rank::ALL
                    .iter()
                    .filter(|r| self.army[r.index()] > 0)
                    .map(|r| format!("{}={}", r.to_char(), self.army[r.index()]))
                    .collect();
                format!("custom:{}x{}:{}", self.files, self.ranks, items.join(","))
            }
        }
    }
}

impl Variant {
    /// A fixed pair of setups (Red's, Blue's) for perft, benchmarks and tests. Custom
    /// armies get a deterministic filling of the zone, Flag in the back-row middle.
    pub fn sample_setups(&self) -> (String, String) {
        let fixed: Option<(&str, &str)> = match self.kind {
            VariantKind::Classic => Some((
                "BFB3442B35/3B562475B6/627M29S82B/2538262473",
                "53B2443BFB/6B574265B3/B28S92M726/3742628352",
            )),
            VariantKind::Compact => Some(("BFB323B452/3B672S6B38/27649M2758", "254B323BFB/83B6S276B3/8572M94672")),
            VariantKind::Duel => Some((
                "...BFB..../....3.3.../...9..S.../..2..M..2.",
                "....BFB.../...3.3..../...S..9.../.2..M..2..",
            )),
            VariantKind::DuelCompact => Some(("...BFB3.../..3.9.S.../..2..M..2.", "...3BFB.../...S.9.3../.2..M..2..")),
            VariantKind::Barrage => Some((
                "....FB..../.....3..../...9.S..../..2..M..2.",
                "....BF..../....3...../....S.9.../.2..M..2..",
            )),
            VariantKind::Custom => None,
        };
        if let Some((r, b)) = fixed {
            return (r.to_string(), b.to_string());
        }
        // Custom: immovable pieces at the back, the rest in rank order, filling rows from
        // the back and each row from the middle outwards.
        let mut pieces: Vec<Rank> = Vec::new();
        for r in [
            Rank::Flag,
            Rank::Bomb,
            Rank::Marshal,
            Rank::General,
            Rank::Colonel,
            Rank::Major,
            Rank::Captain,
            Rank::Lieutenant,
            Rank::Sergeant,
            Rank::Miner,
            Rank::Spy,
            Rank::Scout,
        ] {
            pieces.extend(std::iter::repeat_n(r, self.army[r.index()] as usize));
        }
        let files = self.files as usize;
        let mut order: Vec<usize> = (0..files).collect();
        order.sort_by_key(|&c| (2 * c as i32 - (files as i32 - 1)).abs());
        let mut rows = vec![vec!['.'; files]; self.setup_rows as usize];
        for (i, r) in pieces.iter().enumerate() {
            rows[i / files][order[i % files]] = r.to_char();
        }
        let text = rows
            .iter()
            .map(|r| r.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("/");
        (text.clone(), text)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = VariantError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::parse(s)
    }
}

/// The rule options of RULES.md. Defaults: both repetition rules on (two-squares limit 3),
/// tournament options off, draw after 4000 plies or 200 plies without an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Two-squares rule: a piece may not cross the same boundary more than this many times
    /// in a row; `None` switches the rule off.
    pub two_squares: Option<u8>,
    /// More-squares (chase) rule, ISF 11.
    pub more_squares: bool,
    /// Equal ranks: the attacker wins.
    pub attacker_advantage: bool,
    /// Only the attacker reveals (a Scout's defender reveals too).
    pub silent_defence: bool,
    /// A piece reaching the enemy back row may bring back a captured piece.
    pub rescue: bool,
    /// Draw once more than this many plies have been played.
    pub max_plies: Option<u32>,
    /// Draw once more than this many plies in a row have had no attack.
    pub max_quiet_plies: Option<u32>,
    /// The UCC 2012 manager's end rule: a side whose movable pieces are all blocked loses
    /// only when it is to move (the other side may free them first), and a side with no
    /// movable piece left loses at once. Off (RULES.md), a side that has just moved and is
    /// left with no move loses at once. Only the UCC log reader sets it (no `--rule` or
    /// protocol option: engines are not told of it); left out of records when off, so
    /// older records read the same.
    #[serde(skip_serializing_if = "is_false")]
    pub end_on_turn: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Largest two-squares limit accepted.
pub const MAX_TWO_SQUARES: u8 = 12;

impl Default for Rules {
    fn default() -> Self {
        Rules {
            two_squares: Some(3),
            more_squares: true,
            attacker_advantage: false,
            silent_defence: false,
            rescue: false,
            max_plies: Some(4000),
            max_quiet_plies: Some(200),
            end_on_turn: false,
        }
    }
}

impl Rules {
    /// The rules the UCC 2012 manager enforces: no repetition rules, 5000-turn cap.
    pub fn ucc() -> Rules {
        Rules {
            two_squares: None,
            more_squares: false,
            max_plies: Some(5000),
            max_quiet_plies: None,
            ..Rules::default()
        }
    }

    /// These rules with command-line options `NAME=VALUE` applied in order (see `set`);
    /// the error names the item that is not `NAME=VALUE` or the option it rejects.
    pub fn with_options(self, items: &[String]) -> Result<Rules, String> {
        let mut rules = self;
        for item in items {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("rule option '{item}' is not NAME=VALUE"))?;
            rules.set(k, v).map_err(|e| e.0)?;
        }
        Ok(rules)
    }

    /// Sets one option by name (`two-squares`, `more-squares`, `attacker-advantage`,
    /// `silent-defence`, `rescue`, `max-plies`, `max-quiet-plies`); values `on`/`off`,
    /// `true`/`false`, numbers, `0` or `off` for no limit.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), VariantError> {
        let key = name.to_ascii_lowercase().replace(['_', ' '], "-");
        let bool_val = || -> Result<bool, VariantError> {
            match value.to_ascii_lowercase().as_str() {
                "on" | "true" | "1" | "yes" => Ok(true),
                "off" | "false" | "0" | "no" => Ok(false),
                _ => Err(VariantError(format!("option {name} takes on/off, not '{value}'"))),
            }
        };
        let limit = |max: u32| -> Result<Option<u32>, VariantError> {
            match value.to_ascii_lowercase().as_str() {
                "off" | "none" | "0" => Ok(None),
                v => v
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n <= max)
                    .map(Some)
                    .ok_or_else(|| VariantError(format!("option {name} takes 0..{max} or off, not '{value}'"))),
            }
        };
        match key.as_str() {
            "two-squares" | "two-squares-rule" | "two-squares-limit" => {
                self.two_squares = match value.to_ascii_lowercase().as_str() {
                    "on" | "true" => Some(3),
                    _ => limit(MAX_TWO_SQUARES as u32)?.map(|n| n as u8),
                }
            }
            "more-squares" | "more-squares-rule" | "chase-rule" => self.more_squares = bool_val()?,
            "attacker-advantage" => self.attacker_advantage = bool_val()?,
            "silent-defence" | "silent-defense" => self.silent_defence = bool_val()?,
            "rescue" => self.rescue = bool_val()?,
            "max-plies" | "move-cap" => self.max_plies = limit(1_000_000)?,
            "max-quiet-plies" | "no-attack-cap" => self.max_quiet_plies = limit(1_000_000)?,
            _ => return Err(VariantError(format!("unknown rule option '{name}'"))),
        }
        Ok(())
    }
}

/// Checks a zone size fits the mailbox (for custom boards added later).
const _: () = assert!(MAX_FILES as usize * MAX_RANKS as usize <= 100);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_armies() {
        assert_eq!(Variant::CLASSIC.army_size(), 40);
        assert!(Variant::CLASSIC.fills_zone());
        assert_eq!(Variant::COMPACT.army_size(), 30);
        assert!(Variant::COMPACT.fills_zone());
        assert_eq!(Variant::DUEL.army_size(), 10);
        assert_eq!(Variant::BARRAGE.army_size(), 8);
        assert!(!Variant::BARRAGE.fills_zone());
    }

    #[test]
    fn names_round_trip() {
        for n in Variant::BUILT_IN {
            assert_eq!(Variant::parse(n).unwrap().name(), n);
        }
        let c = Variant::parse("custom:10x8:F=1,B=2,S=1,2=4,3=2,M=1").unwrap();
        assert_eq!(c.ranks, 8);
        assert_eq!(Variant::parse(&c.name()).unwrap(), c);
        assert!(Variant::parse("custom:10x10:B=3").is_err());
        assert!(Variant::parse("custom:10x8:F=1,2=40").is_err());
        assert!(Variant::parse("chess").is_err());
    }

    #[test]
    fn lakes() {
        let v = Variant::CLASSIC;
        assert_eq!(v.squares().count(), 92);
        assert!(v.is_lake(Square::parse("c5").unwrap()));
        assert!(v.is_lake(Square::parse("h6").unwrap()));
        assert!(!v.is_lake(Square::parse("e5").unwrap()));
        let c = Variant::COMPACT;
        assert!(c.is_lake(Square::parse("c4").unwrap()));
        assert!(c.is_lake(Square::parse("d5").unwrap()));
        assert!(!c.is_lake(Square::parse("c6").unwrap()));
    }
}
