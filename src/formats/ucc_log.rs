//! The UCC 2012 manager's game logs (`stratego -o FILE`): reading one into a game record
//! whose every move, combat outcome and result has been checked against our rules.
//!
//! # The format
//!
//! The manager (repository `ucc/progcomp2012`: its manual `web/doc/manager_manual.txt`,
//! and for the details the manual leaves open its source `judge/manager/game.cpp` and
//! `main.cpp`) writes, in order:
//!
//! - `<player> RED SETUP` and four board rows (y = 0..3, top first, x = 0..9 in each),
//!   then `<player> BLUE SETUP` and its four rows (y = 6..9). A row is ten piece
//!   characters: `1` Marshal .. `9` Scout (American order), `s` Spy, `B`, `F`, `.` empty.
//!   A rejected setup is logged as the single line `INVALID!`.
//! - One line per move: `<turn> RED: <x> <y> <DIR> [<n>] <OUTCOME>`, Blue's as
//!   `<turn> BLU: ...` (`BLUE:` is accepted too). The turn counts from 1 and goes up after
//!   each Blue move. OUTCOME is `OK`, `KILLS a d`, `DIES a d`, `BOTHDIE a d` (a, d: the
//!   attacker's and defender's characters), `VICTORY_FLAG`, `VICTORY_ATTRITION` or
//!   `ILLEGAL`. A reply the manager could not read is logged as it came, with no
//!   outcome (an empty line after the colon for a timeout, `SURRENDER` for a surrender).
//! - `Game ends on RED's turn - REASON: ...` (in words), then the result line
//!   `<player> <COLOUR> <RESULT> <turn> <red-value> <blue-value>` about the player on
//!   move when the game ended; RESULT is `VICTORY`, `DEFEAT`, `SURRENDER`, `DRAW`,
//!   `DRAW_DEFAULT`, `ILLEGAL`, `DEFAULT`, `BOTH_ILLEGAL`, `INTERNAL_ERROR` (or
//!   `BAD_SETUP`); a value is the sum of the side's ranks left (Spy 1 .. Marshal 10, Bomb
//!   and Flag 0). The manual warns that the result line is sometimes missing.
//!
//! Older managers also log `Game initialised.` and `Messaging red with "START"`, and
//! lines about missing programs before the setups; these are skipped. When an AI program
//! dies, the manager's SIGPIPE handler logs `SIGPIPE - Broken pipe (AI program no longer
//! running)`, notes such as `Strange; BLUE still appears valid.`, and a second `Game ends
//! on ...` line (`Internal controller error ...`) before the result line; if it fires while
//! the manager waits for a move, its `Game ends ...` lands on that move line
//! (`103 RED: Game ends on RED's turn - REASON: SIGPIPE ...`), which counts as a failed
//! reply, and the result line may be missing. The notes are kept in the record's meta.
//!
//! # Coordinates and rules
//!
//! Manager RED is our Red; the manager's `x` is `9 - file`, `y` is `rank - 1` (a half turn
//! of our diagram), `UP` is y - 1. The manager enforces classic combat and scout moves but
//! neither the two-squares nor the more-squares rule, and its turn cap (`-m`, 5000 turns
//! by default) is not in the log; so records get [`UCC_RULES`] (no repetition rules, no
//! caps), and a game the log ends with `DRAW_DEFAULT` gets the ply cap that ends it right
//! after its last logged move. They also carry the manager's end rule
//! (`Rules::end_on_turn`): the manager checks after every move whether a side has no
//! Spy..Marshal left, but a side whose movable pieces are all blocked is asked for a move
//! all the same; so a side walled in by its own Bombs right after its move does not lose
//! while the other side may still open the wall (`round6_celsius.vs.peternlewis.6.1`
//! of the 2012 competition: Red's Miner does). The manager lets a side place fewer than
//! 40 pieces (a Flag at least): two equal partial armies become a `custom:` variant,
//! unequal ones an error.
//!
//! # Results
//!
//! | log result (about player P) | our result |
//! |---|---|
//! | `VICTORY` | P wins, by `flag_captured` or `no_moves` as the moves reach it |
//! | `DEFEAT` | P loses, as the moves reach it |
//! | `DRAW` | `neither_can_move` |
//! | `DRAW_DEFAULT` | draw by `move_cap` (none if no move was played) |
//! | `SURRENDER` | P loses by `resignation` (by `no_moves` if P had none) |
//! | `ILLEGAL` | P loses by `forfeit` (by `no_moves` if P had none) |
//! | `DEFAULT` | P wins by `forfeit` |
//! | `BOTH_ILLEGAL` | draw by `forfeit` |
//! | `INTERNAL_ERROR` | whatever the moves reach (usually unfinished) |
//!
//! Every discrepancy between the log and the replay is an error naming the log's line.
//!
//! Known limits: a side to move whose movable pieces are all blocked has lost under our
//! rules; the manager has its program fail to move (such a log ends `ILLEGAL`,
//! `SURRENDER`, a timeout or a crash, and is accepted as our `no_moves`). A side that
//! loses its last movable piece on the very move that reaches the manager's turn cap is a
//! `DRAW_DEFAULT` there and a loss here, and is reported as a mismatch.

use super::record::{describe_end, GameRecord};
use crate::rules::moves::Move;
use crate::rules::notation::Setup;
use crate::rules::piece::{Color, Rank, NUM_RANKS};
use crate::rules::position::{EndReason, GameEnd, Position};
use crate::rules::variant::{Rules, Variant};
use crate::ucc::{colour_name, from_xy, move_to_ucc, parse_move, rank_of_ucc, setup_to_rows, Outcome};
use std::fmt;

/// The rules the manager enforces, without its turn cap (which the log does not state),
/// with its end rule (`Rules::end_on_turn`): a side whose movable pieces are all blocked
/// loses only on its own turn.
pub const UCC_RULES: Rules = Rules {
    two_squares: None,
    more_squares: false,
    attacker_advantage: false,
    silent_defence: false,
    rescue: false,
    max_plies: None,
    max_quiet_plies: None,
    end_on_turn: true,
};

/// Meta key of Red's player name.
pub const META_RED_PLAYER: &str = super::gravon::META_RED_PLAYER;
/// Meta key of Blue's player name.
pub const META_BLUE_PLAYER: &str = super::gravon::META_BLUE_PLAYER;
/// Meta key of the log's result line, as written.
pub const META_RESULT: &str = "ucc.result";
/// Meta key of the number of the log's result line.
pub const META_RESULT_LINE: &str = "ucc.result_line";
/// Meta key of the manager's reason text (`Game ends on ... - REASON: ...`; several are
/// joined by ` | `).
pub const META_REASON: &str = "ucc.reason";
/// Meta key of the manager's notes that an AI program died (`SIGPIPE - ...` and what
/// follows it; several are joined by ` | `).
pub const META_CRASH: &str = "ucc.crash";

/// Why a log could not be read or does not agree with the rules. `line` counts from 1
/// (0: the log as a whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UccLogError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for UccLogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "UCC log: {}", self.message)
        } else {
            write!(f, "UCC log line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for UccLogError {}

fn fail<T>(line: usize, message: impl Into<String>) -> Result<T, UccLogError> {
    Err(UccLogError {
        line,
        message: message.into(),
    })
}

/// The manager's name of a colour in move lines.
fn move_colour_name(c: Color) -> &'static str {
    match c {
        Color::Red => "RED",
        Color::Blue => "BLU",
    }
}

/// Reads four setup rows of `color` starting at `lines[at]` (0-based index).
fn read_setup(lines: &[&str], at: usize, color: Color) -> Result<Vec<Vec<Option<Rank>>>, UccLogError> {
    let mut rows = vec![vec![None; 10]; 4];
    let y0 = if color == Color::Red { 0 } else { 6 };
    for i in 0..4 {
        let n = at + i + 1;
        let Some(text) = lines.get(at + i) else {
            return fail(n, format!("the {color} setup ends early: 4 rows expected"));
        };
        if *text == "INVALID!" {
            return fail(
                n,
                format!("the manager rejected the {color} setup (INVALID!): no game to replay"),
            );
        }
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != 10 {
            return fail(n, format!("setup row '{text}' is not 10 characters"));
        }
        for (x, &c) in chars.iter().enumerate() {
            let rank = match c {
                '.' => None,
                c => match rank_of_ucc(c) {
                    Some(r) => Some(r),
                    None => return fail(n, format!("'{c}' in setup row '{text}' is not a piece character")),
                },
            };
            let Some(sq) = from_xy(x as i64, (y0 + i) as i64) else {
                return fail(n, "square off the board");
            };
            // The setup slot: row from the owner's back, column from the owner's left.
            let (row, col) = match color {
                Color::Red => (sq.rank() as usize, sq.file() as usize),
                Color::Blue => (9 - sq.rank() as usize, 9 - sq.file() as usize),
            };
            rows[row][col] = rank;
        }
    }
    Ok(rows)
}

fn army_of(rows: &[Vec<Option<Rank>>]) -> [u8; NUM_RANKS] {
    let mut a = [0u8; NUM_RANKS];
    for r in rows.iter().flatten().flatten() {
        a[r.index()] += 1;
    }
    a
}

/// The manager's piece value of a side: the sum of its ranks (Spy 1 .. Marshal 10).
pub(crate) fn piece_value(pos: &Position, color: Color) -> u32 {
    (Rank::Spy.index()..=Rank::Marshal.index())
        .filter_map(Rank::from_index)
        .map(|r| pos.count(color, r) as u32 * r as u32)
        .sum()
}

/// A move line split up: turn, colour and what follows the colon.
fn split_move_line(line: &str) -> Option<(&str, &str, &str)> {
    let (head, rest) = line.split_once(':')?;
    let (turn, colour) = head.split_once(' ')?;
    if turn.is_empty() || !turn.bytes().all(|b| b.is_ascii_digit()) || !matches!(colour, "RED" | "BLU" | "BLUE") {
        return None;
    }
    Some((turn, colour, rest))
}

/// The result line's parts: name, colour, result word, turn, red value, blue value.
struct ResultLine {
    colour: Option<Color>,
    word: String,
    turn: u64,
    values: [u64; 2],
}

const RESULT_WORDS: [&str; 10] = [
    "VICTORY",
    "DEFEAT",
    "SURRENDER",
    "DRAW",
    "DRAW_DEFAULT",
    "ILLEGAL",
    "DEFAULT",
    "BOTH_ILLEGAL",
    "INTERNAL_ERROR",
    "BAD_SETUP",
];

fn parse_result_line(line: &str) -> Option<ResultLine> {
    let t: Vec<&str> = line.split_whitespace().collect();
    if t.len() < 5 {
        return None;
    }
    let k = t.len() - 5;
    let colour = match t[k] {
        "RED" => Some(Color::Red),
        "BLUE" => Some(Color::Blue),
        "BOTH" | "NONE" => None,
        _ => return None,
    };
    if !RESULT_WORDS.contains(&t[k + 1]) {
        return None;
    }
    let num = |s: &str| s.parse::<u64>().ok();
    Some(ResultLine {
        colour,
        word: t[k + 1].to_string(),
        turn: num(t[k + 2])?,
        values: [num(t[k + 3])?, num(t[k + 4])?],
    })
}

/// A reply that ended the game without being played: a surrender or a fault.
#[derive(Clone, Copy, Debug)]
struct Stop {
    line: usize,
    colour: Color,
    surrender: bool,
}

/// What the manager writes when an AI program has died (its SIGPIPE handler, `game.cpp`):
/// the broken pipe, then whether the other side still runs; the `Game ends ...` line and
/// the result line follow as for any end.
fn is_crash_note(line: &str) -> bool {
    line.starts_with("SIGPIPE - ")
        || ["RED", "BLUE"].iter().any(|c| {
            line == format!("Strange; {c} still appears valid.")
                || line == format!("{c} also appears valid. Exiting with ERROR.")
                || line == format!("{c} is invalid. Wait for {c}'s turn to exit.")
        })
}

/// Lines an older manager writes that carry nothing for the replay.
fn is_chatter(line: &str) -> bool {
    line == "Game initialised."
        || line.starts_with("Messaging red with")
        || line.starts_with("Controller for Player")
        || line.starts_with("Check that executable")
        || line.starts_with("BOTH players give invalid setup")
        || line.starts_with("Creating server for")
        || line.starts_with("Creating client for")
        || line.starts_with("Connected to address")
        || line.starts_with("(Red's responses")
        || line.starts_with("(Blue's responses")
}

/// Reads a manager log into a record (variant classic, [`UCC_RULES`], a ply cap for a
/// `DRAW_DEFAULT`), replaying it on the way: every move must be legal (or logged
/// `ILLEGAL` and be illegal), every logged outcome must be the one the rules give, and
/// the result line must be what the moves reach (with its piece values).
pub fn read(text: &str) -> Result<GameRecord, UccLogError> {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end_matches(['\r', '\n']).trim_end())
        .collect();
    if !lines.iter().any(|l| l.ends_with("RED SETUP")) {
        return fail(0, "no '<player> RED SETUP' line: not a UCC manager log");
    }
    // Preamble, then the two setup blocks.
    let mut i = 0;
    while i < lines.len() && !lines[i].ends_with("RED SETUP") {
        let l = lines[i].trim();
        if !(l.is_empty() || is_chatter(l)) {
            return fail(i + 1, format!("expected '<player> RED SETUP', found '{}'", clip(l)));
        }
        i += 1;
    }
    let red_header = i + 1;
    let red_name = lines[i].trim_end_matches("RED SETUP").trim().to_string();
    let red_rows = read_setup(&lines, i + 1, Color::Red)?;
    i += 5;
    let blue_header = i + 1;
    let Some(header) = lines.get(i).filter(|l| l.ends_with("BLUE SETUP")) else {
        return fail(i + 1, "expected '<player> BLUE SETUP' after the red setup");
    };
    let blue_name = header.trim_end_matches("BLUE SETUP").trim().to_string();
    let blue_rows = read_setup(&lines, i + 1, Color::Blue)?;
    let (red_army, blue_army) = (army_of(&red_rows), army_of(&blue_rows));
    let variant = if red_army == Variant::CLASSIC.army && blue_army == Variant::CLASSIC.army {
        Variant::CLASSIC
    } else if red_army == blue_army {
        // The manager accepts any part of the army with a Flag; equal parts are a custom army.
        Variant::custom(10, red_army).map_err(|e| UccLogError {
            line: red_header,
            message: format!("the armies are not playable: {e}"),
        })?
    } else {
        let (line, color) = if red_army == Variant::CLASSIC.army {
            (blue_header, Color::Blue)
        } else {
            (red_header, Color::Red)
        };
        return fail(
            line,
            format!("the {color} setup is not the classic army and the two armies differ: no variant of ours fits"),
        );
    };
    let setup = |rows: Vec<Vec<Option<Rank>>>, line: usize| {
        Setup::from_rows(&variant, rows).map_err(|e| UccLogError {
            line,
            message: format!("setup: {e}"),
        })
    };
    let red = setup(red_rows, red_header)?;
    let blue = setup(blue_rows, blue_header)?;
    let mut pos = Position::from_setups(variant, UCC_RULES, &red, &blue).map_err(|e| UccLogError {
        line: blue_header,
        message: e.0,
    })?;
    let mut record = GameRecord::new(&variant, UCC_RULES, &red, &blue);
    record.meta.insert(META_RED_PLAYER.into(), red_name);
    record.meta.insert(META_BLUE_PLAYER.into(), blue_name);
    i += 5;

    // Moves, the reason, the result line.
    let mut stop: Option<Stop> = None;
    let mut last_turn = 0u64;
    let mut last_move_line = 0usize;
    let mut result: Option<(usize, ResultLine)> = None;
    while i < lines.len() {
        let n = i + 1;
        let line = lines[i].trim_start();
        i += 1;
        if line.is_empty() || is_chatter(line) {
            continue;
        }
        if let Some((rn, _)) = &result {
            return fail(n, format!("'{}' after the result line {rn}", clip(line)));
        }
        if let Some(reason) = line.strip_prefix("Game ends ") {
            add_meta(&mut record, META_REASON, reason);
            continue;
        }
        if is_crash_note(line) {
            add_meta(&mut record, META_CRASH, line);
            continue;
        }
        if let Some((turn, colour, rest)) = split_move_line(line) {
            let side = pos.side_to_move();
            let expect_turn = pos.ply() as u64 / 2 + 1;
            let turn: u64 = turn.parse().unwrap_or(u64::MAX);
            let colour = if colour == "RED" { Color::Red } else { Color::Blue };
            if let Some(s) = stop {
                return fail(n, format!("a move after the game ended at line {}", s.line));
            }
            // A side with no legal move is still asked by the manager: its failed reply
            // (logged below as a stop) is the log's end of a game our rules ended.
            let stuck = |e: &GameEnd| e.reason == EndReason::NoMoves && e.winner == Some(side.flip());
            if let Some(end) = pos.game_end().filter(|e| !stuck(e)) {
                return fail(
                    n,
                    format!(
                        "the game was already over after line {last_move_line}: {}",
                        describe_end(&end)
                    ),
                );
            }
            if colour != side || turn != expect_turn {
                return fail(
                    n,
                    format!(
                        "expected turn {expect_turn} {}, found '{turn} {}'",
                        move_colour_name(side),
                        move_colour_name(colour)
                    ),
                );
            }
            last_turn = turn;
            last_move_line = n;
            // A program that died while the manager waited for its move: the crash
            // handler's end message lands on the move line.
            if let Some(reason) = rest.trim_start().strip_prefix("Game ends ") {
                add_meta(&mut record, META_REASON, reason);
                if let Some((_, why)) = reason.split_once("REASON: ") {
                    if is_crash_note(why) {
                        add_meta(&mut record, META_CRASH, why);
                    }
                }
                stop = Some(Stop {
                    line: n,
                    colour: side,
                    surrender: false,
                });
                continue;
            }
            let tokens: Vec<&str> = rest.split_whitespace().collect();
            if tokens.first() == Some(&"SURRENDER") && tokens.len() <= 2 && tokens.get(1).is_none_or(|t| *t == "OK") {
                stop = Some(Stop {
                    line: n,
                    colour: side,
                    surrender: true,
                });
                continue;
            }
            let fault = Stop {
                line: n,
                colour: side,
                surrender: false,
            };
            // A reply the manager could not read is logged without an outcome.
            let Ok((mv, used)) = parse_move(&tokens) else {
                stop = Some(fault);
                continue;
            };
            let outcome = match Outcome::parse(&tokens[used..]) {
                Ok(Some(o)) => o,
                Ok(None) if tokens.len() == used => {
                    stop = Some(fault);
                    continue;
                }
                Ok(None) => return fail(n, format!("'{}' is not an outcome", tokens[used..].join(" "))),
                Err(e) => return fail(n, e),
            };
            let said = tokens[..used].join(" ");
            let why = match mv {
                None => Some("it leaves the board".to_string()),
                Some(m) => pos.illegal_reason(m),
            };
            if outcome == Outcome::Illegal {
                if why.is_none() {
                    let m = mv.map(|m| m.to_string()).unwrap_or_default();
                    return fail(n, format!("the log calls '{said}' ({m}) ILLEGAL, but it is legal"));
                }
                stop = Some(fault);
                continue;
            }
            let (Some(mv), None) = (mv, why.as_ref()) else {
                let m = mv.map(|m| format!(" ({m})")).unwrap_or_default();
                return fail(n, format!("'{said}'{m} is illegal: {}", why.unwrap_or_default()));
            };
            let out = pos.make(mv);
            let got = Outcome::of_combat(out.combat);
            let agrees = match outcome {
                Outcome::VictoryAttrition => pos.game_end().is_some_and(|e| e.winner == Some(side)),
                o => o == got,
            };
            if !agrees {
                let reached = pos
                    .game_end()
                    .map(|e| format!(", {}", describe_end(&e)))
                    .unwrap_or_default();
                return fail(
                    n,
                    format!("the log says {outcome} for '{said}' ({mv}), the replay gives {got}{reached}"),
                );
            }
            record.push(mv, out.combat);
            continue;
        }
        if let Some(r) = parse_result_line(line) {
            result = Some((n, r));
            continue;
        }
        return fail(n, format!("unexpected line '{}'", clip(line)));
    }

    let plies = pos.ply();
    let reached = pos.game_end();
    let Some((rn, r)) = result else {
        // No result line (the manual's BUGS): the last logged reply decides, or the moves.
        record.result = match stop {
            Some(s) => Some(stopped_end(&pos, s)),
            None => reached,
        };
        return Ok(record);
    };
    record.meta.insert(META_RESULT.into(), lines[rn - 1].trim().to_string());
    record.meta.insert(META_RESULT_LINE.into(), rn.to_string());
    if r.word == "BAD_SETUP" {
        return fail(rn, "result BAD_SETUP: the manager never started the game");
    }
    let values = [piece_value(&pos, Color::Red), piece_value(&pos, Color::Blue)];
    if r.values != [values[0] as u64, values[1] as u64] {
        return fail(
            rn,
            format!(
                "piece values {} {} disagree with the replay's {} {}",
                r.values[0], r.values[1], values[0], values[1]
            ),
        );
    }
    if r.turn < last_turn || r.turn > last_turn + 1 {
        return fail(
            rn,
            format!(
                "turn {} in the result line, but the last move was in turn {last_turn}",
                r.turn
            ),
        );
    }
    let who = |c: Option<Color>| c.map_or("nobody".to_string(), |c| c.to_string());
    let p = r.colour;
    let mismatch = |what: &str| -> UccLogError {
        UccLogError {
            line: rn,
            message: format!(
                "the log says {what}, but the replay reaches {}",
                reached.map_or("no end".to_string(), |e| describe_end(&e))
            ),
        }
    };
    // A stopping reply must be the one the result line is about.
    if let Some(s) = stop {
        let matches = match r.word.as_str() {
            "SURRENDER" => s.surrender && p == Some(s.colour),
            "ILLEGAL" => p == Some(s.colour),
            "DEFAULT" => p == Some(s.colour.flip()),
            "BOTH_ILLEGAL" | "INTERNAL_ERROR" => true,
            _ => false,
        };
        if !matches {
            let what = if s.surrender {
                "a surrender"
            } else {
                "a reply that is no legal move"
            };
            return fail(
                s.line,
                format!(
                    "{what} by {}, but the result line {rn} says {} {}",
                    s.colour,
                    r.word,
                    who(p)
                ),
            );
        }
    }
    record.result = match r.word.as_str() {
        "VICTORY" | "DEFEAT" => {
            let winner = if r.word == "VICTORY" { p } else { p.map(Color::flip) };
            match reached {
                Some(e) if winner.is_some() && e.winner == winner => Some(e),
                _ => return Err(mismatch(&format!("{} wins", who(winner)))),
            }
        }
        "DRAW" => match reached {
            Some(e) if e.reason == EndReason::NeitherCanMove => Some(e),
            _ => return Err(mismatch("a draw (neither side can move)")),
        },
        "DRAW_DEFAULT" => {
            if reached.is_some() {
                return Err(mismatch("a draw by the turn cap"));
            }
            if plies == 0 {
                None
            } else {
                // A ply cap one below the plies played: the replay ends in that draw.
                record.rules.max_plies = Some(plies - 1);
                pos.set_rules(record.rules);
                match pos.game_end() {
                    Some(e) if e.reason == EndReason::MoveCap => Some(e),
                    _ => return Err(mismatch("a draw by the turn cap")),
                }
            }
        }
        "SURRENDER" | "ILLEGAL" => {
            let Some(loser) = p else {
                return Err(mismatch(&format!("{} by nobody", r.word)));
            };
            match reached {
                None => Some(GameEnd {
                    winner: Some(loser.flip()),
                    reason: if r.word == "SURRENDER" {
                        EndReason::Resignation
                    } else {
                        EndReason::Forfeit
                    },
                }),
                // The player had no move left: the rules already ended the game.
                Some(e) if e.winner == Some(loser.flip()) && e.reason == EndReason::NoMoves => Some(e),
                Some(_) => return Err(mismatch(&format!("{} by {loser}", r.word))),
            }
        }
        "DEFAULT" => match (p, reached) {
            (Some(w), None) => Some(GameEnd {
                winner: Some(w),
                reason: EndReason::Forfeit,
            }),
            _ => return Err(mismatch(&format!("{} wins by default", who(p)))),
        },
        "BOTH_ILLEGAL" => match reached {
            None => Some(GameEnd {
                winner: None,
                reason: EndReason::Forfeit,
            }),
            Some(_) => return Err(mismatch("both players failed")),
        },
        "INTERNAL_ERROR" => reached,
        w => return fail(rn, format!("result {w} is not handled")),
    };
    Ok(record)
}

/// Keeps a reason or crash note under `key`; a second one (a crash brings several) is
/// appended after ` | `.
fn add_meta(record: &mut GameRecord, key: &str, text: &str) {
    record
        .meta
        .entry(key.into())
        .and_modify(|r| {
            r.push_str(" | ");
            r.push_str(text);
        })
        .or_insert_with(|| text.to_string());
}

/// How a game stopped by a surrender or a fault ends when no result line says so.
fn stopped_end(pos: &Position, s: Stop) -> GameEnd {
    match pos.game_end() {
        Some(e) => e,
        None => GameEnd {
            winner: Some(s.colour.flip()),
            reason: if s.surrender {
                EndReason::Resignation
            } else {
                EndReason::Forfeit
            },
        },
    }
}

/// A line shortened for an error message.
fn clip(s: &str) -> String {
    if s.chars().count() > 60 {
        s.chars().take(57).collect::<String>() + "..."
    } else {
        s.to_string()
    }
}

/// Writes a game as the UCC 2012 manager's log (`stratego -o`), in the form
/// `read` reads: both setup blocks, one line per move with its outcome, and
/// for a finished game the closing lines. The manager plays classic combat on the 10x10
/// board without repetition rules; a game under other combat rules, or ended by
/// agreement, cannot be written. Its only cap is a turn cap, so a draw by either of our
/// caps is written as `DRAW_DEFAULT` (read back as `move_cap`).
pub fn write(g: &GameRecord) -> Result<String, String> {
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
        lines.push(format!("{} {} SETUP", names[c.index()], colour_name(c)));
        lines.extend(setup_to_rows(&s, c));
    }
    let mut pos = g.start(Some(UCC_RULES)).map_err(|e| e.to_string())?;
    for rm in &g.moves {
        let mv = Move::parse(&rm.mv)?;
        let side = pos.side_to_move();
        let turn = pos.ply() / 2 + 1;
        let text = move_to_ucc(mv)?;
        let outcome = Outcome::of_combat(pos.make(mv).combat);
        let tag = move_colour_name(side);
        lines.push(format!("{turn} {tag}: {text} {}", outcome));
    }
    let last_turn = pos.ply().div_ceil(2);
    let values = format!("{} {}", piece_value(&pos, Color::Red), piece_value(&pos, Color::Blue));
    let end = |lines: &mut Vec<String>, who: Color, word: &str, turn: u32, reason: &str| {
        lines.push(format!("Game ends on {}'s turn - REASON: {reason}", colour_name(who)));
        lines.push(format!(
            "{} {} {word} {turn} {values}",
            names[who.index()],
            colour_name(who)
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
                let tag = move_colour_name(loser);
                lines.push(format!("{turn} {tag}: SURRENDER"));
                end(&mut lines, loser, "SURRENDER", turn, "surrender");
            }
            (EndReason::Forfeit, Some(w)) => end(&mut lines, w.flip(), "ILLEGAL", last_turn, "illegal reply"),
            (reason, _) => {
                return Err(format!(
                    "a UCC log cannot express the result {} ({})",
                    reason.name(),
                    describe_end(&r)
                ))
            }
        }
    }
    Ok(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Combat, Square};

    // Full classic armies. Red's rows y = 0..3 (back row first), Blue's y = 6..9 (front
    // row first), each from x = 0. Red's front row: B 5 6 7 8 B 5 6 7 8; Blue's front
    // row: 9 9 5 6 9 9 7 8 F 9 (its Flag on (8, 6), our b7).
    const RED: [&str; 4] = ["FB99999999", "B123456788", "B345678s4B", "B5678B5678"];
    const BLUE: [&str; 4] = ["99569978F9", "B3456789s9", "B1234567BB", "9B45678B88"];

    /// A log with the two setups (lines 1-10), then `moves` from line 11, then `result`.
    fn log(moves: &[&str], result: &str) -> String {
        let mut s = String::from("alice RED SETUP\n");
        for r in RED {
            s += &format!("{r}\n");
        }
        s += "bob BLUE SETUP\n";
        for r in BLUE {
            s += &format!("{r}\n");
        }
        for m in moves {
            s += &format!("{m}\n");
        }
        s + result + "\n"
    }

    fn err_of(text: &str) -> (usize, String) {
        match read(text) {
            Ok(r) => panic!("accepted: {r:?}"),
            Err(e) => (e.line, e.to_string()),
        }
    }

    #[test]
    fn setups_map_to_our_squares() {
        let rec = read(&log(&[], "alice RED DRAW_DEFAULT 1 148 148")).unwrap();
        assert_eq!(rec.variant, "classic");
        assert_eq!(rec.rules, UCC_RULES);
        // Red's back row from our file a: the manager's y = 0 row read from x = 9.
        assert!(rec.red_setup.starts_with("22222222BF/"), "{}", rec.red_setup);
        // Blue's back row from Blue's left (our file j, the manager's x = 0).
        assert!(rec.blue_setup.starts_with("2B76543B33/"), "{}", rec.blue_setup);
        let pos = rec.start(None).unwrap();
        let at = |s: &str| pos.piece_at(Square::parse(s).unwrap()).map(|p| (p.color(), p.rank()));
        assert_eq!(at("j1"), Some((Color::Red, Rank::Flag)));
        assert_eq!(at("i2"), Some((Color::Red, Rank::Marshal)));
        assert_eq!(at("b7"), Some((Color::Blue, Rank::Flag)));
        assert_eq!(at("j10"), Some((Color::Blue, Rank::Scout)));
        // No move was played: nothing to cap, the game is unfinished.
        assert_eq!(rec.result, None);
        assert_eq!(rec.meta.get(META_RESULT_LINE).map(String::as_str), Some("11"));
    }

    #[test]
    fn a_handwritten_game_with_combats_and_a_surrender() {
        let text = log(
            &[
                "1 RED: 1 3 DOWN OK",
                "1 BLU: 1 6 UP OK",
                "2 RED: 1 4 DOWN KILLS 5 9",
                "2 BLU: 0 6 UP 2 OK",
                "3 RED: 1 5 DOWN OK",
                "3 BLU: 1 7 UP KILLS 3 5",
                "4 RED: 4 3 DOWN OK",
                "4 BLU: 0 4 UP DIES 9 B",
                "5 RED: SURRENDER",
                "Game ends on RED's turn - REASON: This player has surrendered!",
            ],
            "alice RED SURRENDER 5 142 144",
        );
        let rec = read(&text).unwrap();
        let mv = |i: usize| {
            let m = &rec.moves[i];
            (m.mv.as_str(), m.attacker.as_deref(), m.defender.as_deref(), m.combat)
        };
        assert_eq!(rec.moves.len(), 8);
        assert_eq!(mv(0), ("i4i5", None, None, None));
        assert_eq!(mv(2), ("i5i6", Some("6"), Some("2"), Some(Combat::AttackerWins)));
        assert_eq!(mv(3), ("j7j5", None, None, None));
        assert_eq!(mv(5), ("i8i7", Some("8"), Some("6"), Some(Combat::AttackerWins)));
        assert_eq!(mv(7), ("j5j4", Some("2"), Some("B"), Some(Combat::DefenderWins)));
        let resign = GameEnd {
            winner: Some(Color::Blue),
            reason: EndReason::Resignation,
        };
        assert_eq!(rec.result, Some(resign));
        assert_eq!(rec.meta.get(META_RED_PLAYER).map(String::as_str), Some("alice"));
        assert_eq!(rec.meta.get(META_BLUE_PLAYER).map(String::as_str), Some("bob"));
        assert_eq!(
            rec.meta.get(META_REASON).map(String::as_str),
            Some("on RED's turn - REASON: This player has surrendered!")
        );
        let (pos, end) = rec.replay(None).unwrap();
        assert_eq!(pos.ply(), 8);
        assert_eq!(end, Some(resign));
    }

    #[test]
    fn flag_capture_and_turn_cap() {
        let flag = log(
            &[
                "1 RED: 8 3 DOWN OK",
                "1 BLU: 1 6 UP OK",
                "2 RED: 8 4 DOWN OK",
                "2 BLU: 1 5 DOWN OK",
                "3 RED: 8 5 DOWN VICTORY_FLAG",
                "Game ends on RED's turn - REASON: Captured the flag",
            ],
            "alice RED VICTORY 3 148 148",
        );
        let rec = read(&flag).unwrap();
        let won = GameEnd {
            winner: Some(Color::Red),
            reason: EndReason::FlagCaptured,
        };
        assert_eq!(rec.result, Some(won));
        assert_eq!(rec.moves[4].combat, Some(Combat::FlagCaptured));
        assert_eq!(rec.moves[4].attacker.as_deref(), Some("4"));
        assert_eq!(rec.replay(None).unwrap().1, Some(won));
        // The same capture logged as a plain move is caught.
        let (line, msg) = err_of(&flag.replace("DOWN VICTORY_FLAG", "DOWN OK"));
        assert_eq!(line, 15, "{msg}");
        assert!(msg.contains("the replay gives VICTORY_FLAG"), "{msg}");

        let cap = log(
            &[
                "1 RED: 1 3 DOWN OK",
                "1 BLU: 1 6 UP OK",
                "2 RED: 1 4 UP OK",
                "2 BLU: 1 5 DOWN OK",
                "Game ends on BLUE's turn - REASON: Game declared a draw after 3 turns",
            ],
            "bob BLUE DRAW_DEFAULT 3 148 148",
        );
        let rec = read(&cap).unwrap();
        assert_eq!(rec.rules.max_plies, Some(3));
        let (pos, end) = rec.replay(None).unwrap();
        assert_eq!(pos.ply(), 4);
        assert_eq!(end.map(|e| (e.winner, e.reason)), Some((None, EndReason::MoveCap)));
    }

    #[test]
    fn illegal_moves_faults_and_missing_results() {
        // A move logged ILLEGAL that is illegal ends the game: Blue wins by forfeit.
        let text = log(
            &[
                "1 RED: 0 3 DOWN ILLEGAL",
                "Game ends on RED's turn - REASON: Selected piece is not mobile (FLAG or BOMB)",
            ],
            "alice RED ILLEGAL 1 148 148",
        );
        let rec = read(&text).unwrap();
        assert!(rec.moves.is_empty());
        let forfeit = |w| GameEnd {
            winner: Some(w),
            reason: EndReason::Forfeit,
        };
        assert_eq!(rec.result, Some(forfeit(Color::Blue)));
        // A timeout (nothing after the colon) and no result line: a forfeit too.
        let rec = read(&log(&["1 RED: 1 3 DOWN OK", "1 BLU:"], "")).unwrap();
        assert_eq!(rec.result, Some(forfeit(Color::Red)));
        // No result line and no fault: unfinished.
        assert_eq!(read(&log(&["1 RED: 1 3 DOWN OK"], "")).unwrap().result, None);
        // Old managers' chatter, `BLUE:` and CRLF line ends are fine.
        let text = format!(
            "Game initialised.\n{}",
            log(
                &[
                    "Messaging red with \"START\"",
                    "1 RED: 1 3 DOWN OK",
                    "1 BLUE: 1 6 UP OK"
                ],
                ""
            )
        )
        .replace('\n', "\r\n");
        assert_eq!(read(&text).unwrap().moves.len(), 2);
    }

    #[test]
    fn partial_armies_and_a_stuck_side() {
        // Each side: a Scout, two Bombs, the Flag. Red's Scout sits in the corner behind
        // its Bombs: Red cannot move, its program's attempt is ILLEGAL, Blue wins.
        let text = "alice RED SETUP\n9B.......F\nB.........\n..........\n..........\n\
                    bob BLUE SETUP\n.....9....\n..........\n..........\nBB.......F\n\
                    1 RED: 0 0 DOWN ILLEGAL\nalice RED ILLEGAL 1 2 2\n";
        let rec = read(text).unwrap();
        assert!(rec.variant.starts_with("custom:10x10:"), "{}", rec.variant);
        let end = GameEnd {
            winner: Some(Color::Blue),
            reason: EndReason::NoMoves,
        };
        assert_eq!(rec.result, Some(end));
        assert_eq!(rec.replay(None).unwrap().1, Some(end));
        // The same stuck side may not be logged as moving.
        let (line, msg) = err_of(&text.replace("DOWN ILLEGAL", "DOWN OK"));
        assert_eq!(line, 11, "{msg}");
        assert!(msg.contains("is illegal: the game is over (no_moves)"), "{msg}");
    }

    #[test]
    fn errors_name_their_line() {
        let cases = [
            // Blue's Scout runs into Red's Captain and dies; the log says it won.
            (
                log(&["1 RED: 1 3 DOWN OK", "1 BLU: 1 6 UP 2 KILLS 9 5"], "x RED DRAW 1 0 0"),
                12,
                "the log says KILLS 9 5 for '1 6 UP 2' (i7i5), the replay gives DIES 9 5",
            ),
            (
                log(&["1 RED: 0 3 DOWN OK"], ""),
                11,
                "'0 3 DOWN' (j4j5) is illegal: a Bomb cannot move",
            ),
            (log(&["1 RED: 4 3 DOWN 2 OK"], ""), 11, "is illegal"),
            (log(&["1 RED: 9 3 RIGHT OK"], ""), 11, "is illegal: it leaves the board"),
            (log(&["1 BLU: 1 6 UP OK"], ""), 11, "expected turn 1 RED, found '1 BLU'"),
            (
                log(&["1 RED: 1 3 DOWN OK", "2 RED: 1 4 DOWN OK"], ""),
                12,
                "expected turn 1 BLU",
            ),
            (log(&["1 RED: 1 3 DOWN ILLEGAL"], ""), 11, "ILLEGAL, but it is legal"),
            (log(&["1 RED: 1 3 DOWN OK", "hello"], ""), 12, "unexpected line 'hello'"),
            (log(&["1 RED: 1 3 DOWN FINE"], ""), 11, "'FINE' is not an outcome"),
            (
                log(&["1 RED: 1 3 DOWN KILLS x 9"], ""),
                11,
                "'x' is not a piece character",
            ),
            (log(&["1 RED: 1 3 DOWN OK 7"], ""), 11, "unexpected '7' after OK"),
            (
                log(&["1 RED: 1 3 DOWN OK"], "alice RED VICTORY 1 148 148"),
                12,
                "the log says red wins, but the replay reaches no end",
            ),
            (
                log(&["1 RED: 1 3 DOWN OK"], "alice RED SURRENDER 1 148 100"),
                12,
                "piece values 148 100 disagree with the replay's 148 148",
            ),
            (
                log(&["1 RED: 1 3 DOWN OK"], "alice RED SURRENDER 7 148 148"),
                12,
                "turn 7",
            ),
            (
                log(&["1 RED: what now", "1 BLU: 1 6 UP OK"], ""),
                12,
                "a move after the game ended at line 11",
            ),
            (
                log(&["1 RED: 1 3 DOWN"], "bob BLUE VICTORY 1 148 148"),
                11,
                "a reply that is no legal move by red, but the result line 12 says VICTORY blue",
            ),
            (
                log(&[], "alice RED DRAW_DEFAULT 1 148 148\nmore"),
                12,
                "'more' after the result line 11",
            ),
            (log(&[], "x NONE BAD_SETUP 0 0 0"), 11, "never started"),
            // Setup blocks.
            (
                log(&[], "").replacen("FB99999999", "FB9999999", 1),
                2,
                "not 10 characters",
            ),
            (
                log(&[], "").replacen("FB99999999", "FB9999999x", 1),
                2,
                "'x' in setup row",
            ),
            (
                log(&[], "").replacen("B345678s4B", "INVALID!", 1),
                4,
                "rejected the red setup",
            ),
            (
                log(&[], "").replacen("B123456788", "B123456781", 1),
                1,
                "not the classic army",
            ),
            (
                log(&[], "").replacen("bob BLUE SETUP", "bob GREEN SETUP", 1),
                6,
                "BLUE SETUP",
            ),
            ("alice RED SETUP\nFB99999999\n".into(), 3, "ends early"),
            (
                format!("junk\n{}", log(&[], "")),
                1,
                "expected '<player> RED SETUP', found 'junk'",
            ),
        ];
        for (text, line, needle) in cases {
            let (l, msg) = err_of(&text);
            assert!(msg.contains(needle), "'{msg}' lacks '{needle}'");
            assert_eq!(l, line, "{msg}");
            assert!(msg.starts_with(&format!("UCC log line {line}: ")), "{msg}");
        }
        assert_eq!(err_of("").0, 0);
        let (line, msg) = err_of("just some text\n");
        assert_eq!(
            (line, msg.as_str()),
            (0, "UCC log: no '<player> RED SETUP' line: not a UCC manager log")
        );
    }

    #[test]
    fn never_panics_on_mangled_logs() {
        let good = log(
            &[
                "1 RED: 1 3 DOWN OK",
                "1 BLU: 1 6 UP 2 DIES 9 5",
                "2 RED: 4 3 DOWN 99999999999999999999 OK",
                "2 RED: -4 3 DOWN -1 OK",
            ],
            "alice RED ILLEGAL 2 148 146",
        );
        for cut in 0..good.len() {
            let _ = read(&good[..cut]);
        }
        for i in 0..good.len() {
            for c in ["9", " ", "\n", ":", "é"] {
                let mut s = good.clone();
                s.replace_range(i..i + 1, c);
                let _ = read(&s);
            }
        }
    }
}
