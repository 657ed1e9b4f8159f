//! The UCC 2012 Stratego manager's conventions and ours, translated both ways: squares
//! (manager `x = 9 - file`, `y = rank - 1`, a half turn of our diagram), piece characters
//! (American order), setups (four rows, top row first), moves and outcomes. Pure functions,
//! shared by the `marshal-ucc` adapter (Marshal as a UCC AI) and the `ucc:` players of
//! `marshal match` (UCC AIs under our arbiter).

use crate::rules::{piece::resolve_combat, Color, Combat, Move, Position, Rank, Setup, Square, Variant};

/// The manager's board size (classic only).
pub const SIZE: u8 = 10;

/// Our square as the manager's `(x, y)`: `x = 9 - file`, `y = rank index` (a1 is (9, 0)).
pub fn to_xy(sq: Square) -> (u8, u8) {
    (SIZE - 1 - sq.file(), sq.rank())
}

/// The manager's `(x, y)` as our square, if on the board.
pub fn from_xy(x: i32, y: i32) -> Option<Square> {
    if (0..SIZE as i32).contains(&x) && (0..SIZE as i32).contains(&y) {
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
    pub fn delta(self) -> (i32, i32) {
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

/// Reads `x y DIR [n]` from the front of `tokens`; returns the move and the tokens used.
pub fn move_from_ucc(tokens: &[&str]) -> Result<(Move, usize), String> {
    if tokens.len() < 3 {
        return Err(format!("'{}' is not 'x y DIR [n]'", tokens.join(" ")));
    }
    let num = |t: &str| t.parse::<i32>().map_err(|_| format!("'{t}' is not a number"));
    let (x, y) = (num(tokens[0])?, num(tokens[1])?);
    let dir = Dir::parse(tokens[2]).ok_or_else(|| format!("'{}' is not UP, DOWN, LEFT or RIGHT", tokens[2]))?;
    let (n, used) = match tokens.get(3).and_then(|t| t.parse::<i32>().ok()) {
        Some(n) if (1..=SIZE as i32).contains(&n) => (n, 4),
        Some(n) => return Err(format!("multiplier {n} is not 1..{SIZE}")),
        None => (1, 3),
    };
    let (dx, dy) = dir.delta();
    let from = from_xy(x, y).ok_or_else(|| format!("({x}, {y}) is off the board"))?;
    let to = from_xy(x + dx * n, y + dy * n).ok_or_else(|| format!("the move from ({x}, {y}) leaves the board"))?;
    Ok((Move::new(from, to), used))
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
    /// Parses the outcome tokens (`OK`, `KILLS a d`, ...).
    pub fn parse(tokens: &[&str]) -> Result<Outcome, String> {
        let ranks = || -> Result<(Rank, Rank), String> {
            let r = |i: usize| {
                tokens
                    .get(i)
                    .and_then(|t| t.chars().next().filter(|_| t.len() == 1))
                    .and_then(rank_of_ucc)
                    .ok_or_else(|| format!("outcome '{}' needs two piece characters", tokens.join(" ")))
            };
            Ok((r(1)?, r(2)?))
        };
        Ok(match tokens.first().copied() {
            Some("OK") => Outcome::Ok,
            Some("ILLEGAL") => Outcome::Illegal,
            Some("KILLS") => ranks().map(|(a, d)| Outcome::Kills(a, d))?,
            Some("DIES") => ranks().map(|(a, d)| Outcome::Dies(a, d))?,
            Some("BOTHDIE") => ranks().map(|(a, d)| Outcome::BothDie(a, d))?,
            Some("VICTORY_FLAG") => Outcome::VictoryFlag,
            Some("VICTORY_ATTRITION") => Outcome::VictoryAttrition,
            _ => return Err(format!("unknown outcome '{}'", tokens.join(" "))),
        })
    }

    /// The manager's text of an outcome.
    pub fn text(self) -> String {
        match self {
            Outcome::Ok => "OK".into(),
            Outcome::Illegal => "ILLEGAL".into(),
            Outcome::Kills(a, d) => format!("KILLS {} {}", ucc_char(a), ucc_char(d)),
            Outcome::Dies(a, d) => format!("DIES {} {}", ucc_char(a), ucc_char(d)),
            Outcome::BothDie(a, d) => format!("BOTHDIE {} {}", ucc_char(a), ucc_char(d)),
            Outcome::VictoryFlag => "VICTORY_FLAG".into(),
            Outcome::VictoryAttrition => "VICTORY_ATTRITION".into(),
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

    /// The move in our observed notation (`protocol.md`, `position`): `e4e5`, or
    /// `e4e5:<a>x<d>` for an attack; `None` for an illegal move (not played). A
    /// VICTORY_ATTRITION move's combat is unknown: it is written as a quiet move (the game is
    /// over anyway).
    pub fn observed(self, mv: Move) -> Option<String> {
        match self {
            Outcome::Illegal => None,
            Outcome::Ok | Outcome::VictoryAttrition => Some(mv.to_string()),
            Outcome::Kills(a, d) | Outcome::Dies(a, d) | Outcome::BothDie(a, d) => {
                Some(format!("{mv}:{}x{}", a.to_char(), d.to_char()))
            }
            Outcome::VictoryFlag => Some(format!("{mv}:?xF")),
        }
    }

    /// Reads a move of our observed notation (`e4e5`, `e4e5:<a>x<d>`, `e4e5:<a>x?:<r>` with
    /// `r` one of `a d b` when the defender stayed hidden) as the move and its outcome.
    /// `attacker_advantage` is the rule option that decides a combat of equal ranks.
    pub fn from_observed(token: &str, attacker_advantage: bool) -> Result<(Move, Outcome), String> {
        let mut parts = token.split(':');
        let mv = Move::parse(parts.next().unwrap_or_default())?;
        let Some(fight) = parts.next() else {
            return Ok((mv, Outcome::Ok));
        };
        let bad = || format!("'{token}' is not a move of the observed notation");
        let chars: Vec<char> = fight.chars().collect();
        if chars.len() != 3 || chars[1] != 'x' {
            return Err(bad());
        }
        let rank = |c: char| {
            if c == '?' {
                Some(Rank::Unknown)
            } else {
                Rank::from_char(c)
            }
        };
        let (a, d) = (rank(chars[0]).ok_or_else(bad)?, rank(chars[2]).ok_or_else(bad)?);
        let combat = match parts.next() {
            None if a != Rank::Unknown && d != Rank::Unknown => resolve_combat(a, d, attacker_advantage),
            Some("a") if d == Rank::Flag => Combat::FlagCaptured,
            Some("a") => Combat::AttackerWins,
            Some("d") => Combat::DefenderWins,
            Some("b") => Combat::BothDie,
            _ => return Err(bad()),
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok((mv, Outcome::of_combat(Some((a, d, combat)))))
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
    fn observed_tokens_become_outcomes() {
        let m = |s: &str| Move::parse(s).unwrap();
        assert_eq!(Outcome::from_observed("e4e5", false), Ok((m("e4e5"), Outcome::Ok)));
        assert_eq!(
            Outcome::from_observed("e4e5:Sx9", false),
            Ok((m("e4e5"), Outcome::Dies(Rank::Spy, Rank::General)))
        );
        assert_eq!(
            Outcome::from_observed("e4e5:SxM", false),
            Ok((m("e4e5"), Outcome::Kills(Rank::Spy, Rank::Marshal)))
        );
        assert_eq!(
            Outcome::from_observed("e4e5:4x4", false),
            Ok((m("e4e5"), Outcome::BothDie(Rank::Sergeant, Rank::Sergeant)))
        );
        assert_eq!(
            Outcome::from_observed("e4e5:4xF", false),
            Ok((m("e4e5"), Outcome::VictoryFlag))
        );
        assert_eq!(
            Outcome::from_observed("e4e5:Mx?:d", false),
            Ok((m("e4e5"), Outcome::Dies(Rank::Marshal, Rank::Unknown)))
        );
        assert!(Outcome::from_observed("e4e5:Mx?", false).is_err());
        assert!(Outcome::from_observed("e4e5:zz", false).is_err());
        assert!(Outcome::from_observed("", false).is_err());
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
