//! The UCC 2012 Stratego manager's conventions and ours, translated both ways: squares
//! (manager `x = 9 - file`, `y = rank - 1`, a half turn of our diagram), piece characters
//! (American order), setups (four rows, top row first), moves and outcomes. Pure functions,
//! written once and shared by the `marshal-ucc` adapter (Marshal as a UCC AI), the `ucc:`
//! players of `marshal match` (UCC AIs under our arbiter, in `player`) and the manager's
//! logs (the `formats` module's `ucc_log`).

pub mod player;

use crate::rules::view::ObservedMove;
use crate::rules::{piece::resolve_combat, Color, Combat, Move, Position, Rank, Setup, Square, Variant};
use std::fmt;

/// The manager's board size (classic only).
pub const SIZE: u8 = 10;

/// Our square as the manager's `(x, y)`: `x = 9 - file`, `y = rank index` (a1 is (9, 0)).
pub fn to_xy(sq: Square) -> (u8, u8) {
    (SIZE - 1 - sq.file(), sq.rank())
}

/// The manager's `(x, y)` as our square, if on the board.
pub fn from_xy(x: i64, y: i64) -> Option<Square> {
    if (0..SIZE as i64).contains(&x) && (0..SIZE as i64).contains(&y) {
        Some(Square::new(SIZE - 1 - x as u8, y as u8))
    } else {
        None
    }
}

/// The manager's piece character of a rank: `1` Marshal .. `9` Scout, `s` Spy, `B`, `F`.
pub fn ucc_char(r: Rank) -> char {
    match r {
        Rank::Flag => 'F',
        Rank::Bomb => 'B',
        Rank::Spy => 's',
        Rank::Unknown => '#',
        r => (b'0' + 11 - r as u8) as char,
    }
}

/// The rank of a manager piece character (`S` accepted for the Spy).
pub fn rank_of_ucc(c: char) -> Option<Rank> {
    Some(match c {
        'F' => Rank::Flag,
        'B' => Rank::Bomb,
        's' | 'S' => Rank::Spy,
        d @ '1'..='9' => Rank::from_index(11 - (d as u8 - b'0') as usize)?,
        _ => return None,
    })
}

/// The manager's name of a colour (`RED`, `BLUE`), as in the colour line and the log.
pub fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Red => "RED",
        Color::Blue => "BLUE",
    }
}

/// The manager's rows `y` of a colour's setup zone, in the order it sends them (top first).
fn zone_ys(color: Color) -> std::ops::Range<u8> {
    match color {
        Color::Red => 0..4,
        Color::Blue => 6..10,
    }
}

/// The four setup lines the manager expects, top row (y smallest) first: Red's back row
/// first, Blue's front row first; each line from x = 0 to 9.
pub fn setup_to_rows(setup: &Setup, color: Color) -> Vec<String> {
    zone_ys(color)
        .map(|y| {
            (0..SIZE)
                .map(|x| {
                    let sq = Square::new(SIZE - 1 - x, y);
                    let (row, col) = zone_slot(color, sq);
                    setup.at(row, col).map_or('.', ucc_char)
                })
                .collect()
        })
        .collect()
}

/// The setup slot `(row from the owner's back, col from the owner's left)` of a zone square
/// of the classic board.
fn zone_slot(color: Color, sq: Square) -> (usize, usize) {
    let last = (SIZE - 1) as usize;
    match color {
        Color::Red => (sq.rank() as usize, sq.file() as usize),
        Color::Blue => (last - sq.rank() as usize, last - sq.file() as usize),
    }
}

/// Reads the manager's four setup lines (as `setup_to_rows` writes them) into our setup,
/// checked against the classic army (all 40 pieces). An error names the first bad line
/// (1-based, in the order sent) and what is wrong with it.
pub fn setup_from_rows(lines: &[String], color: Color) -> Result<Setup, String> {
    let v = Variant::CLASSIC;
    if lines.len() != 4 {
        return Err(format!("expected 4 setup lines, got {}", lines.len()));
    }
    let mut rows = vec![vec![None; SIZE as usize]; 4];
    let mut counts = [0u8; 13];
    let mut first_gap: Option<usize> = None;
    for ((i, line), y) in lines.iter().enumerate().zip(zone_ys(color)) {
        let n = i + 1;
        let text = line.trim_end();
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != SIZE as usize {
            return Err(format!(
                "setup line {n} '{text}' has {} characters, not {SIZE}",
                chars.len()
            ));
        }
        for (x, c) in chars.iter().enumerate() {
            let (row, col) = zone_slot(color, Square::new(SIZE - 1 - x as u8, y));
            if *c == '.' {
                first_gap.get_or_insert(n);
                continue;
            }
            let r = rank_of_ucc(*c)
                .ok_or_else(|| format!("setup line {n} '{text}': '{c}' is not a UCC piece character"))?;
            counts[r.index()] += 1;
            let want = v.army[r.index()];
            if counts[r.index()] > want {
                return Err(format!(
                    "setup line {n} '{text}': one {} ('{c}') too many, the classic army has {want}",
                    r.name()
                ));
            }
            rows[row][col] = Some(r);
        }
    }
    // No rank is over its count and the zone holds exactly the army: only empty squares
    // can leave it short.
    let missing: Vec<String> = Rank::ALL
        .iter()
        .filter(|r| counts[r.index()] < v.army[r.index()])
        .map(|r| {
            format!(
                "{} {} ('{}')",
                v.army[r.index()] - counts[r.index()],
                r.name(),
                ucc_char(*r)
            )
        })
        .collect();
    if !missing.is_empty() {
        let n = first_gap.unwrap_or(1);
        return Err(format!(
            "setup line {n} '{}' leaves squares empty: the classic army needs all 40 pieces (missing {})",
            lines[n - 1].trim_end(),
            missing.join(", ")
        ));
    }
    Setup::from_rows(&v, rows).map_err(|e| e.0)
}

/// A step direction of the manager.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "UP",
            Dir::Down => "DOWN",
            Dir::Left => "LEFT",
            Dir::Right => "RIGHT",
        }
    }

    pub fn parse(s: &str) -> Option<Dir> {
        Some(match s {
            "UP" => Dir::Up,
            "DOWN" => Dir::Down,
            "LEFT" => Dir::Left,
            "RIGHT" => Dir::Right,
            _ => return None,
        })
    }

    /// `(dx, dy)` in manager coordinates (`UP` is y - 1).
    pub fn delta(self) -> (i64, i64) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }
}

/// Our move as the manager's `x y DIR [n]` (`n` only when above 1).
pub fn move_to_ucc(mv: Move) -> Result<String, String> {
    let (fx, fy) = to_xy(mv.from());
    let (tx, ty) = to_xy(mv.to());
    let (dx, dy) = (tx as i32 - fx as i32, ty as i32 - fy as i32);
    let (dir, n) = match (dx.signum(), dy.signum()) {
        (0, -1) => (Dir::Up, -dy),
        (0, 1) => (Dir::Down, dy),
        (-1, 0) => (Dir::Left, -dx),
        (1, 0) => (Dir::Right, dx),
        _ => return Err(format!("move {mv} is not along a line")),
    };
    Ok(if n > 1 {
        format!("{fx} {fy} {} {n}", dir.name())
    } else {
        format!("{fx} {fy} {}", dir.name())
    })
}

/// `x y DIR [n]` at the front of `tokens`, read as the manager reads it (a fourth token
/// that is a number is the multiplier): the move (`None` if it leaves the board or its
/// multiplier is not 1..10) and the tokens used; `Err` if the tokens are no move at all.
pub fn parse_move(tokens: &[&str]) -> Result<(Option<Move>, usize), String> {
    if tokens.len() < 3 {
        return Err(format!("'{}' is not 'x y DIR [n]'", tokens.join(" ")));
    }
    let num = |t: &str| t.parse::<i64>().map_err(|_| format!("'{t}' is not a number"));
    let (x, y) = (num(tokens[0])?, num(tokens[1])?);
    let dir = Dir::parse(tokens[2]).ok_or_else(|| format!("'{}' is not UP, DOWN, LEFT or RIGHT", tokens[2]))?;
    let (n, used) = match tokens.get(3).and_then(|t| t.parse::<i64>().ok()) {
        Some(n) => (n, 4),
        None => (1, 3),
    };
    if !(1..=SIZE as i64).contains(&n) {
        return Ok((None, used));
    }
    let (dx, dy) = dir.delta();
    // Both squares checked before any arithmetic on the (untrusted) numbers.
    let mv = from_xy(x, y).and_then(|from| Some(Move::new(from, from_xy(x + dx * n, y + dy * n)?)));
    Ok((mv, used))
}

/// Reads `x y DIR [n]` from the front of `tokens`; returns the move and the tokens used.
/// Unlike [`parse_move`], a move off the board is an error that says why.
pub fn move_from_ucc(tokens: &[&str]) -> Result<(Move, usize), String> {
    let (mv, used) = parse_move(tokens)?;
    if let Some(mv) = mv {
        return Ok((mv, used));
    }
    // Say what is wrong: the numbers parsed above.
    let n: i64 = if used == 4 { tokens[3].parse().unwrap_or(0) } else { 1 };
    if !(1..=SIZE as i64).contains(&n) {
        return Err(format!("multiplier {n} is not 1..{SIZE}"));
    }
    let (x, y) = (tokens[0], tokens[1]);
    match tokens[0]
        .parse::<i64>()
        .ok()
        .zip(tokens[1].parse::<i64>().ok())
        .and_then(|(x, y)| from_xy(x, y))
    {
        None => Err(format!("({x}, {y}) is off the board")),
        Some(_) => Err(format!("the move from ({x}, {y}) leaves the board")),
    }
}

/// The result of a move as the manager reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    Illegal,
    Kills(Rank, Rank),
    Dies(Rank, Rank),
    BothDie(Rank, Rank),
    VictoryFlag,
    VictoryAttrition,
}

impl Outcome {
    /// Parses the outcome tokens (`OK`, `KILLS a d`, ...); `Ok(None)` when the first token
    /// is no outcome word.
    pub fn parse(tokens: &[&str]) -> Result<Option<Outcome>, String> {
        let ranks = || -> Result<(Rank, Rank), String> {
            if tokens.len() != 3 {
                return Err(format!("outcome '{}' needs two piece characters", tokens.join(" ")));
            }
            let one = |t: &str| {
                let mut cs = t.chars();
                match (cs.next(), cs.next()) {
                    (Some(c), None) => rank_of_ucc(c).ok_or_else(|| format!("'{t}' is not a piece character")),
                    _ => Err(format!("'{t}' is not a piece character")),
                }
            };
            Ok((one(tokens[1])?, one(tokens[2])?))
        };
        let single = |o: Outcome| {
            if tokens.len() == 1 {
                Ok(Some(o))
            } else {
                Err(format!("unexpected '{}' after {}", tokens[1..].join(" "), tokens[0]))
            }
        };
        match tokens.first().copied() {
            Some("OK") => single(Outcome::Ok),
            Some("ILLEGAL") => single(Outcome::Illegal),
            Some("VICTORY_FLAG") => single(Outcome::VictoryFlag),
            Some("VICTORY_ATTRITION") => single(Outcome::VictoryAttrition),
            Some("KILLS") => ranks().map(|(a, d)| Some(Outcome::Kills(a, d))),
            Some("DIES") => ranks().map(|(a, d)| Some(Outcome::Dies(a, d))),
            Some("BOTHDIE") => ranks().map(|(a, d)| Some(Outcome::BothDie(a, d))),
            _ => Ok(None),
        }
    }

    /// The outcome of a combat of our rules core.
    pub fn of_combat(combat: Option<(Rank, Rank, Combat)>) -> Outcome {
        match combat {
            None => Outcome::Ok,
            Some((a, d, Combat::AttackerWins)) => Outcome::Kills(a, d),
            Some((a, d, Combat::DefenderWins)) => Outcome::Dies(a, d),
            Some((a, d, Combat::BothDie)) => Outcome::BothDie(a, d),
            Some((_, _, Combat::FlagCaptured)) => Outcome::VictoryFlag,
        }
    }

    /// The move as the manager's player saw it, in our observed notation (`protocol.md`,
    /// `position`); `None` for an illegal move (not played). A VICTORY_ATTRITION move's
    /// combat is unknown: it is written as a quiet move (the game is over anyway).
    pub fn observed(self, mv: Move) -> Option<ObservedMove> {
        let attack = match self {
            Outcome::Illegal => return None,
            Outcome::Ok | Outcome::VictoryAttrition => None,
            Outcome::Kills(a, d) | Outcome::Dies(a, d) | Outcome::BothDie(a, d) => Some((Some(a), Some(d), None)),
            Outcome::VictoryFlag => Some((None, Some(Rank::Flag), None)),
        };
        Some(ObservedMove { mv, attack })
    }

    /// The outcome of an observed move, as the manager would report it.
    /// `attacker_advantage` is the rule option that decides a combat of equal ranks.
    pub fn of_observed(om: &ObservedMove, attacker_advantage: bool) -> Result<Outcome, String> {
        let Some((a, d, given)) = om.attack else {
            return Ok(Outcome::Ok);
        };
        let combat = match (a, d, given) {
            (_, Some(Rank::Flag), _) => Combat::FlagCaptured,
            (_, _, Some(c)) => c,
            (Some(a), Some(d), None) => resolve_combat(a, d, attacker_advantage),
            _ => return Err(format!("the attack {} has no result", om.mv)),
        };
        let (a, d) = (a.unwrap_or(Rank::Unknown), d.unwrap_or(Rank::Unknown));
        Ok(Outcome::of_combat(Some((a, d, combat))))
    }
}

/// The manager's text of an outcome.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Outcome::Ok => f.write_str("OK"),
            Outcome::Illegal => f.write_str("ILLEGAL"),
            Outcome::Kills(a, d) => write!(f, "KILLS {} {}", ucc_char(a), ucc_char(d)),
            Outcome::Dies(a, d) => write!(f, "DIES {} {}", ucc_char(a), ucc_char(d)),
            Outcome::BothDie(a, d) => write!(f, "BOTHDIE {} {}", ucc_char(a), ucc_char(d)),
            Outcome::VictoryFlag => f.write_str("VICTORY_FLAG"),
            Outcome::VictoryAttrition => f.write_str("VICTORY_ATTRITION"),
        }
    }
}

/// The ten board rows the manager shows `viewer`, top (y = 0) first: own pieces by
/// character, enemy pieces `#`, lakes `+`, empty `.`. `pos` is a classic position (the
/// viewer's view or the full game).
pub fn board_rows(pos: &Position, viewer: Color) -> Vec<String> {
    let v = pos.variant();
    (0..SIZE)
        .map(|y| {
            (0..SIZE)
                .map(|x| {
                    let sq = Square::new(SIZE - 1 - x, y);
                    if !v.on_board(sq) {
                        ' '
                    } else if v.is_lake(sq) {
                        '+'
                    } else {
                        match pos.piece_at(sq) {
                            None => '.',
                            Some(p) if p.color() == viewer => ucc_char(p.rank()),
                            Some(_) => '#',
                        }
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observed_moves_become_outcomes() {
        let of = |s: &str| Outcome::of_observed(&s.parse::<ObservedMove>().unwrap(), false);
        assert_eq!(of("e4e5"), Ok(Outcome::Ok));
        assert_eq!(of("e4e5:Sx9"), Ok(Outcome::Dies(Rank::Spy, Rank::General)));
        assert_eq!(of("e4e5:SxM"), Ok(Outcome::Kills(Rank::Spy, Rank::Marshal)));
        assert_eq!(of("e4e5:4x4"), Ok(Outcome::BothDie(Rank::Sergeant, Rank::Sergeant)));
        assert_eq!(of("e4e5:4xF"), Ok(Outcome::VictoryFlag));
        assert_eq!(of("e4e5:Mx?:d"), Ok(Outcome::Dies(Rank::Marshal, Rank::Unknown)));
        assert!(of("e4e5:Mx?").is_err());
        assert!("e4e5:zz".parse::<ObservedMove>().is_err());
        assert!("".parse::<ObservedMove>().is_err());
        let m = Move::parse("e4e5").unwrap();
        assert_eq!(
            Outcome::Kills(Rank::Spy, Rank::Marshal)
                .observed(m)
                .unwrap()
                .to_string(),
            "e4e5:SxM"
        );
        assert_eq!(Outcome::VictoryFlag.observed(m).unwrap().to_string(), "e4e5:?xF");
    }

    #[test]
    fn bad_setups_name_the_line() {
        let good = ["68B9778BFB", "5B647956B8", "B93s291495", "8479593869"];
        let lines = |v: [&str; 4]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(setup_from_rows(&lines(good), Color::Red).is_ok());
        let mut two_flags = good;
        two_flags[2] = "B93s29F495";
        let e = setup_from_rows(&lines(two_flags), Color::Red).unwrap_err();
        assert!(e.contains("line 3 'B93s29F495'") && e.contains("Flag"), "{e}");
        let mut gap = good;
        gap[1] = "5B6479.6B8";
        let e = setup_from_rows(&lines(gap), Color::Blue).unwrap_err();
        assert!(e.contains("line 2 '5B6479.6B8'") && e.contains("Captain"), "{e}");
        let mut short = good;
        short[3] = "847959386";
        let e = setup_from_rows(&lines(short), Color::Red).unwrap_err();
        assert!(e.contains("line 4 '847959386' has 9 characters"), "{e}");
        let mut junk = good;
        junk[0] = "68B9778BFX";
        let e = setup_from_rows(&lines(junk), Color::Red).unwrap_err();
        assert!(e.contains("line 1") && e.contains("'X'"), "{e}");
    }
}
