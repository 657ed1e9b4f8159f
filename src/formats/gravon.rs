//! Gravon XML game files: reading them into game records and writing records back.
//!
//! Gravon (gravon.de) is the online site where most recorded human Stratego has been
//! played; its archive ("StraDoS2") stores every game as a small XML file. This module
//! reads such a file into a [`GameRecord`] that `GameRecord::replay` can check move by
//! move, and writes a record back in the same shape. The XML is read by a small
//! hand-written parser (elements, attributes, text, comments, processing instructions,
//! CDATA and the predefined and numeric entities), which is all these files use.
//!
//! # The format, and where each fact comes from
//!
//! No specification of the format is published, so the facts below were gathered from
//! public tools that process the archive and from published samples of it. Everything
//! named `rhalbersma/gravon` is Rein Halbersma's Boost-licensed analysis of the whole
//! archive on GitHub.
//!
//! - **Document.** A root `<stratego>` holds one `<game type="...">`. Inside: one
//!   `<field content="..."/>` with the starting position, one `<move id="n" source="XY"
//!   target="XY"/>` per ply in playing order (`id` counts plies from 1, both sides
//!   together), two `<player id="1">name</player>` / `id="2"` elements, and one
//!   `<result type="T" winner="W"/>`. Sources: `scripts/gsn2xml.py` in rhalbersma/gravon
//!   (it converts the archive's older text format into exactly this XML) and the readers
//!   `scripts/xml2csv.py` and `src/gravon/utils.py` there, which look the elements up by
//!   these names. Attribute values may have spaces around `=` (`<game type = "classic">`
//!   and `<player id ="1">` occur), so the parser allows them. A game that ended before
//!   both armies were placed has no `<field>`; such a file cannot be replayed and is
//!   rejected.
//! - **Game types.** `classic`, `barrage`, `classicfree` (free setup, classic army; also
//!   seen as `freesetup`), `ultimate lightning` (a 20-piece army) and duel games, whose
//!   archive files are named `duell-...` and are told apart by that name rather than by
//!   the attribute (`scripts/extract/games.py` and `scripts/xml2csv.py` in
//!   rhalbersma/gravon). Because of that, [`read()`] takes the variant from the armies in the
//!   field whenever they match a known army, and uses the `type` attribute to explain
//!   the mismatch otherwise.
//! - **Field letters.** The field is 100 characters, one per square: `A` empty, `_` lake,
//!   `B`..`M` the first player's pieces and `N`..`Y` the second player's, each run in the
//!   order Bomb, Spy, Scout, Miner, Sergeant, Lieutenant, Captain, Major, Colonel,
//!   General, Marshal, Flag (`src/gravon/strados2.py` in rhalbersma/gravon, which cites
//!   page 90 of Vincent de Boer's 2007 TU Delft thesis "Invincible"; the same letters are
//!   in `data/README.md`). Lower-case `a` is accepted for an empty square too (the
//!   Ataraxos boards in `tests/data/rules-oracle` write it so); [`write()`] writes `A`.
//! - **Field layout.** Character `10 * row + col` is the square on row `row` (0 = the
//!   first player's back row) and column `col` (0 = file a). So characters 0-39 are the
//!   first player's setup zone, back row first; 40-59 are the two middle ranks, which in
//!   every published field read `AA__AA__AA` twice (lakes in files c-d and g-h); and
//!   60-99 are the second player's zone, whose own back row is characters 90-99, read
//!   from 99 down to 90 when seen from that player's side. Sources: the analysis
//!   notebook `jupyter/gravon.ipynb` in rhalbersma/gravon takes the first 40 characters
//!   as one setup and the last 40 reversed as the other, and its statistics put the
//!   Flag on row 0 of that reading in 88% of setups (so row 0 is the back row); the
//!   published barrage fields in `data/barrage.csv` there show the `A`-filled middle;
//!   and the Ataraxos rules engine, which uses the same letters, numbers its cells the
//!   same way (`tests/data/rules-oracle/README.md`: `10*row + col`, row 0 Red's back
//!   row, col 0 file a, Blue's setup cell `j` at `99 - j`).
//! - **Colours.** The first player (`B`..`M`, `<player id="1">`, winner `1`) is Red and
//!   moves first: `src/gravon/transform/label.py` in rhalbersma/gravon names the player
//!   to move next `moves % 2` with 0 = red, and names the GSN winner 0 red, 1 blue.
//! - **Squares in moves.** Two characters: the file as a letter `A`..`I` then `K` (there
//!   is no `J`), the rank as `1`..`9` and `:` (the character after `9`) for rank 10; so
//!   `A1` is our a1 and `K:` our j10. The missing `J` is confirmed by
//!   `src/gravon/transform/repair.py` in rhalbersma/gravon, which repairs some 36 archive
//!   files that wrongly used `J` for the tenth file by replacing it with `K`; [`read()`]
//!   therefore also accepts `J` as the tenth file. The `:` for 10 is from the project's
//!   issue; [`read()`] also accepts `10`.
//! - **Result.** `winner` is `1` (first player), `2` (second) or `3` (draw):
//!   `gsn2xml.py` writes the text format's winner 0/1/2 plus one, and
//!   `src/gravon/tidy.py` scores winner 3 as a draw. `type` is a number
//!   (`src/gravon/transform/label.py`): 0 the loser was unable to move, 1 flag captured,
//!   2 both unable to move, 3 forfeit (a player gave up), 4 tie agreed, 10 both players
//!   missing, 11 a player's clock ran out, 12 the game clock ran out, 13 a player's
//!   clock ran out while the player was missing, 14 the opponent went missing. The
//!   published samples (`data/barrage.csv`, `data/classic-empty.csv`) pair types 4 and 10
//!   with winner 3, and types 0, 1, 3 and 11 with winner 1 or 2.
//! - **Rules.** Gravon plays the ISF rules: the two-squares rule with a limit of five
//!   moves and the more-squares rule (RULES.md; Gravon's page on the more-squares rule,
//!   `gravon.de/gravon/stratego/msr.jsp`), with no ply caps. [`read()`] gives every record
//!   [`GRAVON_RULES`].
//!
//! # How results map to ours
//!
//! | Gravon type | [`EndReason`] | winner |
//! |---|---|---|
//! | 0 | `NoMoves` | 1 or 2 |
//! | 1 | `FlagCaptured` | 1 or 2 |
//! | 2 | `NeitherCanMove` | 3 |
//! | 3 | `Resignation` | 1 or 2 |
//! | 4 | `Agreement` | 3 |
//! | 10 | `Forfeit` | 3 |
//! | 11, 13, 14 | `Forfeit` | 1 or 2 |
//! | 12 | `Forfeit` | any |
//!
//! [`read()`] keeps the original type in the record's `meta` (`gravon.result_type`), so
//! [`write()`] gives back 12, 13 or 14 where it came from; otherwise a `Forfeit` is
//! written as 11 (with a winner) or 10 (a draw). Gravon has no code for a draw by a ply
//! cap, so `MoveCap` and `NoAttackCap` are written as 4, a tie. Player names live in
//! `meta` as `red_player` and `blue_player`, the game type as `gravon.game_type`.
//!
//! Known limits: moves carry no combat outcomes (the replay recomputes them); rescue
//! moves cannot be written; a record whose end depends on rule options other than
//! Gravon's (say, stuck by a two-squares limit of 3) may not replay to the same end
//! under [`GRAVON_RULES`].

use super::record::{GameRecord, RecordedMove};
use crate::rules::moves::Move;
use crate::rules::notation::Setup;
use crate::rules::piece::{Color, Piece, Rank, NUM_RANKS};
use crate::rules::position::{EndReason, GameEnd};
use crate::rules::square::Square;
use crate::rules::variant::{Rules, Variant, VariantKind};
use std::fmt;

/// The rules of games played on Gravon: two-squares rule with limit 5, more-squares rule,
/// no tournament options, no ply caps.
pub const GRAVON_RULES: Rules = Rules {
    two_squares: Some(5),
    more_squares: true,
    attacker_advantage: false,
    silent_defence: false,
    rescue: false,
    max_plies: None,
    max_quiet_plies: None,
    end_on_turn: false,
};

/// The army of Gravon's "ultimate lightning" type, indexed by `Rank::index()`:
/// F1 S1 Sc4 Min2 Sgt2 Lt2 Cap2 Maj1 Col1 Gen1 M1 B2.
pub const ULTIMATE_LIGHTNING_ARMY: [u8; NUM_RANKS] = [1, 1, 4, 2, 2, 2, 2, 1, 1, 1, 1, 2];

/// Meta key of the first player's (Red's) name.
pub const META_RED_PLAYER: &str = "red_player";
/// Meta key of the second player's (Blue's) name.
pub const META_BLUE_PLAYER: &str = "blue_player";
/// Meta key of the `type` attribute of `<game>`, as read.
pub const META_GAME_TYPE: &str = "gravon.game_type";
/// Meta key of the `type` attribute of `<result>`, as read.
pub const META_RESULT_TYPE: &str = "gravon.result_type";

/// Why a Gravon file could not be read, or a record could not be written as one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GravonError {
    /// The text is not well-formed XML.
    Xml { line: usize, message: String },
    /// A required element or attribute is absent: `element` (on `line`) lacks `what`.
    Missing { element: String, line: usize, what: String },
    /// An element holds something that is not Gravon's format.
    Element {
        element: String,
        line: usize,
        message: String,
    },
    /// A move cannot be read or written. `number` counts plies from 1 (Gravon's `id`).
    Move {
        number: usize,
        text: String,
        reason: String,
    },
    /// The record cannot be expressed as a Gravon file.
    Unsupported(String),
}

impl fmt::Display for GravonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GravonError::Xml { line, message } => write!(f, "not well-formed XML at line {line}: {message}"),
            GravonError::Missing { element, line, what } => write!(f, "<{element}> on line {line} has no {what}"),
            GravonError::Element { element, line, message } => write!(f, "<{element}> on line {line}: {message}"),
            GravonError::Move { number, text, reason } => write!(f, "move {number} ({text}): {reason}"),
            GravonError::Unsupported(s) => write!(f, "cannot write as a Gravon file: {s}"),
        }
    }
}

impl std::error::Error for GravonError {}

// ---------------------------------------------------------------------------------------
// Reading

/// Reads a Gravon XML game file. The record gets [`GRAVON_RULES`], the setups from the
/// field, one move per `<move>` (no combat outcomes: the replay finds them), the result
/// if there is one, and the player names and Gravon codes in `meta`. Move legality is
/// not checked here; `GameRecord::replay` does that.
pub fn read(xml: &str) -> Result<GameRecord, GravonError> {
    let root = Parser::new(xml).document()?;
    let game = find_game(&root)?;
    let game_type = game.attr("type").map(|t| t.trim().to_string());

    let field = single(game, "field")?.ok_or_else(|| GravonError::Missing {
        element: "game".into(),
        line: game.line,
        what: "<field> (a game that ended before both armies were placed cannot be replayed)".into(),
    })?;
    let content = field.attr("content").ok_or_else(|| GravonError::Missing {
        element: "field".into(),
        line: field.line,
        what: "attribute 'content'".into(),
    })?;
    let cells = decode_field(content).map_err(|message| GravonError::Element {
        element: "field".into(),
        line: field.line,
        message,
    })?;
    let (variant, red, blue) = field_setups(&cells, game_type.as_deref()).map_err(|message| GravonError::Element {
        element: "field".into(),
        line: field.line,
        message,
    })?;

    let mut record = GameRecord::new(&variant, GRAVON_RULES, &red, &blue);
    for (i, m) in game.children.iter().filter(|e| e.name == "move").enumerate() {
        record.moves.push(read_move(m, i + 1)?);
    }
    for p in game.children.iter().filter(|e| e.name == "player") {
        let key = match p.attr("id").map(str::trim) {
            Some("1") => META_RED_PLAYER,
            Some("2") => META_BLUE_PLAYER,
            Some(other) => {
                return Err(GravonError::Element {
                    element: "player".into(),
                    line: p.line,
                    message: format!("id '{other}' is not 1 or 2"),
                })
            }
            None => {
                return Err(GravonError::Missing {
                    element: "player".into(),
                    line: p.line,
                    what: "attribute 'id'".into(),
                })
            }
        };
        let name = p.text.trim();
        if !name.is_empty() {
            record.meta.insert(key.into(), name.into());
        }
    }
    if let Some(r) = single(game, "result")? {
        let (end, code) = read_result(r)?;
        record.result = Some(end);
        record.meta.insert(META_RESULT_TYPE.into(), code.to_string());
    }
    if let Some(t) = game_type {
        record.meta.insert(META_GAME_TYPE.into(), t);
    }
    Ok(record)
}

/// The `<game>` element: the root itself, or the one element of that name below it.
fn find_game(root: &Element) -> Result<&Element, GravonError> {
    if root.name == "game" {
        return Ok(root);
    }
    let mut found = Vec::new();
    root.find_all("game", &mut found);
    match found.len() {
        0 => Err(GravonError::Missing {
            element: root.name.clone(),
            line: root.line,
            what: "<game> element".into(),
        }),
        1 => Ok(found[0]),
        n => Err(GravonError::Element {
            element: root.name.clone(),
            line: root.line,
            message: format!("holds {n} <game> elements; a Gravon file has one"),
        }),
    }
}

/// The only child called `name`, if any; an error if there are several.
fn single<'a>(parent: &'a Element, name: &str) -> Result<Option<&'a Element>, GravonError> {
    let mut it = parent.children.iter().filter(|e| e.name == name);
    let first = it.next();
    if let Some(second) = it.next() {
        return Err(GravonError::Element {
            element: name.into(),
            line: second.line,
            message: format!("a second <{name}> in <{}> (line {})", parent.name, parent.line),
        });
    }
    Ok(first)
}

/// The pieces of a field by square index (`10 * row + col`), checked against the
/// lakes and the two setup zones.
fn decode_field(content: &str) -> Result<[Option<Piece>; 100], String> {
    let chars: Vec<char> = content.trim().chars().collect();
    if chars.len() != 100 {
        return Err(format!(
            "content has {} characters; a Gravon field has 100, one per square",
            chars.len()
        ));
    }
    let board = Variant::CLASSIC;
    let mut cells = [None; 100];
    for (i, &ch) in chars.iter().enumerate() {
        let sq = Square::new((i % 10) as u8, (i / 10) as u8);
        let lake = board.is_lake(sq);
        if lake != (ch == '_') {
            return Err(if lake {
                format!("{sq} is a lake and must hold '_', not '{ch}' (character {i})")
            } else {
                format!("'_' (lake) on {sq}, which is not a lake (character {i})")
            });
        }
        let piece = match ch {
            '_' | 'A' | 'a' => None,
            'B'..='M' => Some(Piece::new(Color::Red, LETTER_ORDER[ch as usize - 'B' as usize])),
            'N'..='Y' => Some(Piece::new(Color::Blue, LETTER_ORDER[ch as usize - 'N' as usize])),
            _ => {
                return Err(format!(
                    "'{ch}' on {sq} (character {i}) is not a Gravon field letter (A empty, _ lake, B-M red, N-Y blue)"
                ))
            }
        };
        if let Some(p) = piece {
            if !board.in_zone(p.color(), sq) {
                let ranks = if p.color() == Color::Red { "1-4" } else { "7-10" };
                return Err(format!(
                    "a {} {} ('{ch}') on {sq} is outside {}'s setup zone (ranks {ranks})",
                    p.color(),
                    p.rank().name(),
                    p.color()
                ));
            }
        }
        cells[i] = piece;
    }
    Ok(cells)
}

/// Gravon's piece order within each colour's run of letters (StraDos3 shares it).
pub(crate) const LETTER_ORDER: [Rank; 12] = [
    Rank::Bomb,
    Rank::Spy,
    Rank::Scout,
    Rank::Miner,
    Rank::Sergeant,
    Rank::Lieutenant,
    Rank::Captain,
    Rank::Major,
    Rank::Colonel,
    Rank::General,
    Rank::Marshal,
    Rank::Flag,
];

/// Gravon's letter for a piece.
fn piece_letter(p: Piece) -> char {
    let k = LETTER_ORDER.iter().position(|&r| r == p.rank()).unwrap_or(0) as u8;
    let base = if p.color() == Color::Red { b'B' } else { b'N' };
    (base + k) as char
}

/// The variant a `<game type>` names, if Gravon has such a type.
fn type_variant(t: &str) -> Option<Variant> {
    match t.trim().to_ascii_lowercase().as_str() {
        "classic" | "classicfree" | "freesetup" | "free" => Some(Variant::CLASSIC),
        "barrage" => Some(Variant::BARRAGE),
        "duell" | "duel" => Some(Variant::DUEL),
        "ultimate lightning" | "ultimate" | "ultimatelightning" => Variant::custom(10, ULTIMATE_LIGHTNING_ARMY).ok(),
        _ => None,
    }
}

/// Decides the variant from the armies (and the type attribute) and builds both setups.
fn field_setups(cells: &[Option<Piece>; 100], game_type: Option<&str>) -> Result<(Variant, Setup, Setup), String> {
    let mut counts = [[0u8; NUM_RANKS]; 2];
    for p in cells.iter().flatten() {
        counts[p.color().index()][p.rank().index()] += 1;
    }
    let known = [Variant::CLASSIC, Variant::BARRAGE, Variant::DUEL];
    let ultimate = Variant::custom(10, ULTIMATE_LIGHTNING_ARMY).ok();
    let by_army = known
        .into_iter()
        .chain(ultimate)
        .find(|v| v.army == counts[0] && v.army == counts[1]);
    let variant = match (by_army, game_type.and_then(type_variant)) {
        (Some(v), _) => v,
        // The type names a known army: let the setup check say what is wrong.
        (None, Some(v)) => v,
        (None, None) => {
            if counts[0] != counts[1] {
                return Err("the two armies differ and the game type names no known army".into());
            }
            Variant::custom(10, counts[0]).map_err(|e| format!("the armies form no playable variant: {e}"))?
        }
    };
    let setup = |color: Color| -> Result<Setup, String> {
        let mut rows = Vec::new();
        for row in 0..variant.setup_rows {
            let mut r = Vec::new();
            for col in 0..variant.files {
                let sq = variant.zone_square(color, row, col);
                r.push(cells[sq.rank() as usize * 10 + sq.file() as usize].map(|p| p.rank()));
            }
            rows.push(r);
        }
        Setup::from_rows(&variant, rows).map_err(|e| format!("{color} setup: {e}"))
    };
    let red = setup(Color::Red)?;
    let blue = setup(Color::Blue)?;
    Ok((variant, red, blue))
}

/// Reads one `<move>` (ply `number`).
fn read_move(m: &Element, number: usize) -> Result<RecordedMove, GravonError> {
    let source = m.attr("source");
    let target = m.attr("target");
    let text = format!(
        "source=\"{}\" target=\"{}\"",
        source.unwrap_or("?"),
        target.unwrap_or("?")
    );
    let bad = |reason: String| GravonError::Move {
        number,
        text: text.clone(),
        reason: format!("{reason} (line {})", m.line),
    };
    if let Some(id) = m.attr("id") {
        match id.trim().parse::<usize>() {
            Ok(n) if n == number => {}
            Ok(n) => return Err(bad(format!("id {n} is out of order; this is move {number}"))),
            Err(_) => return Err(bad(format!("id '{id}' is not a number"))),
        }
    }
    let from = parse_square(source.ok_or_else(|| bad("no attribute 'source'".into()))?).map_err(&bad)?;
    let to = parse_square(target.ok_or_else(|| bad("no attribute 'target'".into()))?).map_err(&bad)?;
    if from == to {
        return Err(bad("source and target are the same square".into()));
    }
    Ok(RecordedMove {
        mv: Move::new(from, to).to_string(),
        attacker: None,
        defender: None,
        combat: None,
    })
}

/// Gravon's file letters: `A`..`I`, then `K` for the tenth file.
const FILE_LETTERS: &[u8; 10] = b"ABCDEFGHIK";

/// Parses a Gravon square: file `A`-`I` or `K` (also `J`, see the module docs), rank
/// `1`-`9` or `:` (also `10`).
pub fn parse_square(s: &str) -> Result<Square, String> {
    let b = s.trim().as_bytes();
    let Some(&f) = b.first() else {
        return Err("an empty square name".into());
    };
    let file = match f.to_ascii_uppercase() {
        c @ b'A'..=b'I' => c - b'A',
        b'K' | b'J' => 9,
        _ => return Err(format!("'{s}': file '{}' is not one of A-I, K", f as char)),
    };
    let rank = match &b[1..] {
        [d @ b'1'..=b'9'] => d - b'1',
        [b':'] | [b'1', b'0'] => 9,
        _ => return Err(format!("'{s}': the rank is not 1-9 or ':' (10)")),
    };
    Ok(Square::new(file, rank))
}

/// Gravon's name of a square: `a1` is `A1`, `j10` is `K:`.
pub fn square_name(sq: Square) -> String {
    let mut s = String::with_capacity(2);
    s.push(FILE_LETTERS[sq.file() as usize] as char);
    s.push((b'1' + sq.rank()) as char);
    s
}

/// What a Gravon result type means, and which winners it allows.
fn result_reason(code: u8) -> Option<EndReason> {
    Some(match code {
        0 => EndReason::NoMoves,
        1 => EndReason::FlagCaptured,
        2 => EndReason::NeitherCanMove,
        3 => EndReason::Resignation,
        4 => EndReason::Agreement,
        10..=14 => EndReason::Forfeit,
        _ => return None,
    })
}

/// Gravon's description of a result type, for messages.
fn result_name(code: u8) -> &'static str {
    match code {
        0 => "unable to move",
        1 => "flag captured",
        2 => "both unable to move",
        3 => "forfeit",
        4 => "tie agreed",
        10 => "both missing",
        11 => "player clock timed out",
        12 => "game clock timed out",
        13 => "player clock timed out while missing",
        14 => "opponent missing",
        _ => "unknown",
    }
}

/// Checks that a result type goes with a winner (`None` for a draw).
fn check_result(code: u8, winner: Option<Color>) -> Result<(), String> {
    let decisive = matches!(code, 0 | 1 | 3 | 11 | 13 | 14);
    let drawn = matches!(code, 2 | 4 | 10);
    if decisive && winner.is_none() {
        return Err(format!(
            "result type {code} ({}) needs a winner, not a draw",
            result_name(code)
        ));
    }
    if drawn && winner.is_some() {
        return Err(format!(
            "result type {code} ({}) is a draw, not a win",
            result_name(code)
        ));
    }
    Ok(())
}

/// Reads `<result type winner>`; returns the end and the Gravon type.
fn read_result(r: &Element) -> Result<(GameEnd, u8), GravonError> {
    let bad = |message: String| GravonError::Element {
        element: "result".into(),
        line: r.line,
        message,
    };
    let attr = |name: &str| {
        r.attr(name).map(str::trim).ok_or_else(|| GravonError::Missing {
            element: "result".into(),
            line: r.line,
            what: format!("attribute '{name}'"),
        })
    };
    let type_txt = attr("type")?;
    let code: u8 = type_txt
        .parse()
        .ok()
        .filter(|&c| result_reason(c).is_some())
        .ok_or_else(|| bad(format!("type '{type_txt}' is not a Gravon result type (0-4, 10-14)")))?;
    let winner = match attr("winner")? {
        "1" => Some(Color::Red),
        "2" => Some(Color::Blue),
        "3" => None,
        w => return Err(bad(format!("winner '{w}' is not 1 (red), 2 (blue) or 3 (draw)"))),
    };
    check_result(code, winner).map_err(bad)?;
    let reason = result_reason(code).unwrap_or(EndReason::Forfeit);
    Ok((GameEnd { winner, reason }, code))
}

// ---------------------------------------------------------------------------------------
// Writing

/// Writes a record as a Gravon XML file that [`read()`] reads back to the same setups,
/// moves and result. Fails for boards other than 10x10, armies Gravon has no game type
/// for, rescue moves, and results Gravon cannot express.
pub fn write(record: &GameRecord) -> Result<String, GravonError> {
    let unsupported = GravonError::Unsupported;
    let variant = Variant::parse(&record.variant).map_err(|e| unsupported(format!("variant: {e}")))?;
    if variant.files != 10 || variant.ranks != 10 {
        return Err(unsupported(format!(
            "Gravon plays on the 10x10 board; {} is {}x{}",
            variant.name(),
            variant.files,
            variant.ranks
        )));
    }
    let game_type = game_type_for(&variant, record.meta.get(META_GAME_TYPE).map(String::as_str))?;
    let red = Setup::parse(&record.red_setup, &variant).map_err(|e| unsupported(format!("red setup: {e}")))?;
    let blue = Setup::parse(&record.blue_setup, &variant).map_err(|e| unsupported(format!("blue setup: {e}")))?;

    let mut field = [b'A'; 100];
    for (i, cell) in field.iter_mut().enumerate() {
        if variant.is_lake(Square::new((i % 10) as u8, (i / 10) as u8)) {
            *cell = b'_';
        }
    }
    for (color, setup) in [(Color::Red, &red), (Color::Blue, &blue)] {
        for row in 0..variant.setup_rows {
            for col in 0..variant.files {
                if let Some(r) = setup.at(row as usize, col as usize) {
                    let sq = variant.zone_square(color, row, col);
                    field[sq.rank() as usize * 10 + sq.file() as usize] = piece_letter(Piece::new(color, r)) as u8;
                }
            }
        }
    }

    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<stratego>\n");
    out.push_str(&format!(" <game type=\"{}\">\n", escape(&game_type)));
    out.push_str(&format!("  <field content=\"{}\"/>\n", String::from_utf8_lossy(&field)));
    for (i, rm) in record.moves.iter().enumerate() {
        let bad = |reason: String| GravonError::Move {
            number: i + 1,
            text: rm.mv.clone(),
            reason,
        };
        let mv = Move::parse(&rm.mv).map_err(bad)?;
        if mv.rescue().is_some() {
            return Err(bad("Gravon files have no notation for rescues".into()));
        }
        out.push_str(&format!(
            "  <move id=\"{}\" source=\"{}\" target=\"{}\"/>\n",
            i + 1,
            square_name(mv.from()),
            square_name(mv.to())
        ));
    }
    for (id, key, default) in [(1, META_RED_PLAYER, "Player 1"), (2, META_BLUE_PLAYER, "Player 2")] {
        let name = record.meta.get(key).map(String::as_str).unwrap_or(default);
        out.push_str(&format!("  <player id=\"{id}\">{}</player>\n", escape(name)));
    }
    if let Some(end) = &record.result {
        let kept = record.meta.get(META_RESULT_TYPE).and_then(|c| c.parse::<u8>().ok());
        let code = result_code(end, kept);
        check_result(code, end.winner).map_err(|e| unsupported(format!("result {}: {e}", end.reason.name())))?;
        let winner = match end.winner {
            Some(Color::Red) => 1,
            Some(Color::Blue) => 2,
            None => 3,
        };
        out.push_str(&format!("  <result type=\"{code}\" winner=\"{winner}\"/>\n"));
    }
    out.push_str(" </game>\n</stratego>\n");
    Ok(out)
}

/// The `type` attribute for a variant: the one the record was read with if it names the
/// same army, else Gravon's name for it.
fn game_type_for(variant: &Variant, kept: Option<&str>) -> Result<String, GravonError> {
    if let Some(t) = kept {
        if type_variant(t).is_some_and(|v| v == *variant) {
            return Ok(t.to_string());
        }
    }
    let name = match variant.kind {
        VariantKind::Classic => "classic",
        VariantKind::Barrage => "barrage",
        VariantKind::Duel => "duell",
        VariantKind::Custom if variant.army == ULTIMATE_LIGHTNING_ARMY => "ultimate lightning",
        _ => {
            return Err(GravonError::Unsupported(format!(
                "Gravon has no game type for the army of {}",
                variant.name()
            )))
        }
    };
    Ok(name.into())
}

/// Gravon's result type for an end: the type kept from reading if it means the same
/// reason, else the natural one (see the module docs).
fn result_code(end: &GameEnd, kept: Option<u8>) -> u8 {
    if let Some(c) = kept {
        if result_reason(c) == Some(end.reason) && check_result(c, end.winner).is_ok() {
            return c;
        }
    }
    match end.reason {
        EndReason::NoMoves => 0,
        EndReason::FlagCaptured => 1,
        EndReason::NeitherCanMove => 2,
        EndReason::Resignation => 3,
        EndReason::Agreement | EndReason::MoveCap | EndReason::NoAttackCap => 4,
        EndReason::Forfeit => {
            if end.winner.is_some() {
                11
            } else {
                10
            }
        }
    }
}

/// Escapes text for an attribute value or element content.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// A minimal XML reader

/// An element: name, attributes, child elements, its own text, and where it starts.
#[derive(Debug)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    children: Vec<Element>,
    text: String,
    line: usize,
}

impl Element {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    fn find_all<'a>(&'a self, name: &str, out: &mut Vec<&'a Element>) {
        for c in &self.children {
            if c.name == name {
                out.push(c);
            } else {
                c.find_all(name, out);
            }
        }
    }
}

/// Deepest element nesting accepted (Gravon files use three levels).
const MAX_DEPTH: usize = 64;

struct Parser<'a> {
    s: &'a str,
    pos: usize,
    /// The last position whose line was counted, and that line, so that counting lines
    /// stays linear in the file size.
    line_mark: std::cell::Cell<(usize, usize)>,
}

impl<'a> Parser<'a> {
    fn new(s: &'a str) -> Parser<'a> {
        let s = s.strip_prefix('\u{feff}').unwrap_or(s);
        Parser {
            s,
            pos: 0,
            line_mark: std::cell::Cell::new((0, 1)),
        }
    }

    fn rest(&self) -> &'a str {
        &self.s[self.pos..]
    }

    fn line_at(&self, pos: usize) -> usize {
        let pos = pos.min(self.s.len());
        let (mut from, mut line) = self.line_mark.get();
        if pos < from {
            (from, line) = (0, 1);
        }
        line += self.s.as_bytes()[from..pos].iter().filter(|&&b| b == b'\n').count();
        self.line_mark.set((pos, line));
        line
    }

    fn err(&self, message: impl Into<String>) -> GravonError {
        GravonError::Xml {
            line: self.line_at(self.pos),
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.pos).copied()
    }

    fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.pos += 1;
        }
        self.pos > start
    }

    /// Skips past `end`, or fails with `what` if it never comes.
    fn skip_past(&mut self, end: &str, what: &str) -> Result<&'a str, GravonError> {
        match self.rest().find(end) {
            Some(i) => {
                let body = &self.rest()[..i];
                self.pos += i + end.len();
                Ok(body)
            }
            None => Err(self.err(format!("{what} is never closed with '{end}'"))),
        }
    }

    /// Skips whitespace, comments, processing instructions and a doctype.
    fn misc(&mut self) -> Result<(), GravonError> {
        loop {
            self.skip_ws();
            let r = self.rest();
            if r.starts_with("<?") {
                self.skip_past("?>", "a processing instruction")?;
            } else if r.starts_with("<!--") {
                self.skip_past("-->", "a comment")?;
            } else if r.starts_with("<!DOCTYPE") {
                if let Some(i) = r.find(['[', '>']) {
                    if r.as_bytes()[i] == b'[' {
                        self.skip_past("]", "the doctype's internal subset")?;
                    }
                }
                self.skip_past(">", "the doctype")?;
            } else {
                return Ok(());
            }
        }
    }

    fn document(mut self) -> Result<Element, GravonError> {
        self.misc()?;
        if self.peek() != Some(b'<') {
            return Err(if self.pos >= self.s.len() {
                self.err("the document is empty")
            } else {
                self.err("expected the root element")
            });
        }
        let root = self.element(0)?;
        self.misc()?;
        if self.pos < self.s.len() {
            return Err(self.err(format!("content after the root element </{}>", root.name)));
        }
        Ok(root)
    }

    fn name(&mut self) -> Result<&'a str, GravonError> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            let ok = c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':') || c >= 0x80;
            if !ok {
                break;
            }
            self.pos += 1;
        }
        let name = &self.s[start..self.pos];
        match name.as_bytes().first() {
            None => Err(self.err("expected a name")),
            Some(c) if c.is_ascii_digit() || matches!(c, b'-' | b'.') => {
                Err(self.err(format!("'{name}' is not a valid name")))
            }
            _ => Ok(name),
        }
    }

    fn element(&mut self, depth: usize) -> Result<Element, GravonError> {
        if depth >= MAX_DEPTH {
            return Err(self.err(format!("elements nested deeper than {MAX_DEPTH}")));
        }
        let line = self.line_at(self.pos);
        self.pos += 1; // '<'
        let name = self.name()?.to_string();
        let mut el = Element {
            name,
            attrs: Vec::new(),
            children: Vec::new(),
            text: String::new(),
            line,
        };
        loop {
            let spaced = self.skip_ws();
            match self.peek() {
                Some(b'/') => {
                    if !self.rest().starts_with("/>") {
                        return Err(self.err(format!("expected '/>' to end <{}>", el.name)));
                    }
                    self.pos += 2;
                    return Ok(el);
                }
                Some(b'>') => {
                    self.pos += 1;
                    break;
                }
                None => return Err(self.err(format!("the start tag <{}> is never closed", el.name))),
                Some(_) => {
                    if !spaced {
                        return Err(self.err(format!("expected whitespace before an attribute of <{}>", el.name)));
                    }
                    let key = self.name()?.to_string();
                    self.skip_ws();
                    if self.peek() != Some(b'=') {
                        return Err(self.err(format!("attribute '{key}' of <{}> has no '=' and value", el.name)));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    let quote = match self.peek() {
                        Some(q @ (b'"' | b'\'')) => q as char,
                        _ => return Err(self.err(format!("the value of attribute '{key}' is not quoted"))),
                    };
                    self.pos += 1;
                    let at = self.pos;
                    let raw = match self.rest().find(quote) {
                        Some(i) => &self.rest()[..i],
                        None => return Err(self.err(format!("the value of attribute '{key}' is never closed"))),
                    };
                    if raw.contains('<') {
                        return Err(self.err(format!("'<' inside the value of attribute '{key}'")));
                    }
                    let value = decode_entities(raw).map_err(|m| GravonError::Xml {
                        line: self.line_at(at),
                        message: m,
                    })?;
                    self.pos += raw.len() + 1;
                    if el.attrs.iter().any(|(k, _)| *k == key) {
                        return Err(self.err(format!("attribute '{key}' appears twice in <{}>", el.name)));
                    }
                    el.attrs.push((key, value));
                }
            }
        }
        loop {
            let r = self.rest();
            if r.is_empty() {
                return Err(GravonError::Xml {
                    line,
                    message: format!("<{}> is never closed", el.name),
                });
            }
            if r.starts_with("</") {
                self.pos += 2;
                let end = self.name()?;
                self.skip_ws();
                if self.peek() != Some(b'>') {
                    return Err(self.err(format!("expected '>' to end </{end}>")));
                }
                if end != el.name {
                    return Err(self.err(format!("</{end}> does not close <{}> (opened on line {line})", el.name)));
                }
                self.pos += 1;
                return Ok(el);
            } else if r.starts_with("<!--") {
                self.skip_past("-->", "a comment")?;
            } else if r.starts_with("<![CDATA[") {
                self.pos += "<![CDATA[".len();
                let body = self.skip_past("]]>", "a CDATA section")?;
                el.text.push_str(body);
            } else if r.starts_with("<?") {
                self.skip_past("?>", "a processing instruction")?;
            } else if r.starts_with('<') {
                let child = self.element(depth + 1)?;
                el.children.push(child);
            } else {
                let len = r.find('<').unwrap_or(r.len());
                let at = self.pos;
                let text = decode_entities(&r[..len]).map_err(|m| GravonError::Xml {
                    line: self.line_at(at),
                    message: m,
                })?;
                el.text.push_str(&text);
                self.pos += len;
            }
        }
    }
}

/// Replaces the predefined and numeric character references.
fn decode_entities(s: &str) -> Result<String, String> {
    if !s.contains('&') {
        return Ok(s.to_string());
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let end = after
            .find(';')
            .filter(|&e| e <= 10)
            .ok_or_else(|| "a bare '&' (write &amp;)".to_string())?;
        let ent = &after[..end];
        let ch = match ent {
            "lt" => '<',
            "gt" => '>',
            "amp" => '&',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = if let Some(h) = ent.strip_prefix("#x").or_else(|| ent.strip_prefix("#X")) {
                    u32::from_str_radix(h, 16).ok()
                } else if let Some(d) = ent.strip_prefix('#') {
                    d.parse().ok()
                } else {
                    None
                };
                code.and_then(char::from_u32)
                    .ok_or_else(|| format!("unknown entity '&{ent};'"))?
            }
        };
        out.push(ch);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

// The human setup files: one 40-letter line per setup, front row first, in Red's run of
// the field letters (`B`-`M`, `A` empty).

/// The rank of a Gravon setup letter (Red's run of the field letters, `B`-`M`); `A`
/// (empty) is `Ok(None)`.
fn gravon_rank(ch: u8) -> Result<Option<Rank>, String> {
    match ch {
        b'A' => Ok(None),
        b'B'..=b'M' => Ok(Some(LETTER_ORDER[(ch - b'B') as usize])),
        _ => Err(format!("'{}' is not a Gravon setup letter", ch as char)),
    }
}

/// Parses one 40-letter Gravon line (front row first) into a setup of `variant`.
pub fn parse_gravon(line: &str, variant: &Variant) -> Result<Setup, String> {
    let b = line.trim().as_bytes();
    let (rows, cols) = (variant.setup_rows as usize, variant.files as usize);
    if b.len() != rows * cols {
        return Err(format!(
            "Gravon setup '{}' has {} letters, not {}",
            line.trim(),
            b.len(),
            rows * cols
        ));
    }
    let mut grid = vec![vec![None; cols]; rows];
    for (i, &ch) in b.iter().enumerate() {
        grid[rows - 1 - i / cols][i % cols] = gravon_rank(ch)?;
    }
    Setup::from_rows(variant, grid).map_err(|e| e.0)
}

/// Reads a whole Gravon setup file; lines that fail to parse are reported as errors.
pub fn read_gravon_file(path: &str, variant: &Variant) -> Result<Vec<Setup>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    parse_gravon_text(&text, variant).map_err(|e| format!("{path}: {e}"))
}

/// Parses the lines of a Gravon setup file (blank lines skipped); an error names its line.
pub fn parse_gravon_text(text: &str, variant: &Variant) -> Result<Vec<Setup>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_gravon(l, variant).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names() {
        assert_eq!(parse_square("A1"), Ok(Square::new(0, 0)));
        assert_eq!(parse_square("K:"), Ok(Square::new(9, 9)));
        assert_eq!(parse_square("k10"), Ok(Square::new(9, 9)));
        assert_eq!(parse_square("J4"), Ok(Square::new(9, 3)));
        assert_eq!(parse_square("I9"), Ok(Square::new(8, 8)));
        for bad in ["", "L1", "A0", "A;", "A11", "A", "1A"] {
            assert!(parse_square(bad).is_err(), "{bad}");
        }
        for r in 0..10 {
            for f in 0..10 {
                let sq = Square::new(f, r);
                assert_eq!(parse_square(&square_name(sq)), Ok(sq));
            }
        }
        assert_eq!(square_name(Square::new(9, 9)), "K:");
        assert_eq!(square_name(Square::new(4, 3)), "E4");
    }

    #[test]
    fn letters_round_trip() {
        for color in Color::BOTH {
            for r in Rank::ALL {
                let p = Piece::new(color, r);
                let ch = piece_letter(p);
                let back = match ch {
                    'B'..='M' => Piece::new(Color::Red, LETTER_ORDER[ch as usize - 'B' as usize]),
                    _ => Piece::new(Color::Blue, LETTER_ORDER[ch as usize - 'N' as usize]),
                };
                assert_eq!(back, p);
            }
        }
        assert_eq!(piece_letter(Piece::new(Color::Red, Rank::Flag)), 'M');
        assert_eq!(piece_letter(Piece::new(Color::Blue, Rank::Marshal)), 'X');
    }

    #[test]
    fn xml_basics() {
        let doc = "\u{feff}<?xml version=\"1.0\"?>\n<!-- c -->\n<a x = '1' y=\"&lt;&#65;&#x42;\">t&amp;u<b/><![CDATA[<v>]]></a >\n";
        let root = Parser::new(doc).document().unwrap();
        assert_eq!(root.name, "a");
        assert_eq!(root.attr("x"), Some("1"));
        assert_eq!(root.attr("y"), Some("<AB"));
        assert_eq!(root.text, "t&u<v>");
        assert_eq!(root.children.len(), 1);
        assert_eq!(root.line, 3);
        for (bad, line) in [
            ("<a>", 1),
            ("<a></b>", 1),
            ("<a x=1/>", 1),
            ("<a x='1' x='2'/>", 1),
            ("<a>&bogus;</a>", 1),
            ("<a/>\n<b/>", 2),
            ("", 1),
            ("<a\n", 2),
        ] {
            match Parser::new(bad).document() {
                Err(GravonError::Xml { line: l, .. }) => assert_eq!(l, line, "{bad}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
        let deep = "<a>".repeat(100) + &"</a>".repeat(100);
        assert!(matches!(Parser::new(&deep).document(), Err(GravonError::Xml { .. })));
    }

    #[test]
    fn result_codes_and_winners() {
        for code in [0u8, 1, 2, 3, 4, 10, 11, 12, 13, 14] {
            let reason = result_reason(code).unwrap();
            for winner in [Some(Color::Red), Some(Color::Blue), None] {
                if check_result(code, winner).is_ok() {
                    let end = GameEnd { winner, reason };
                    assert_eq!(result_code(&end, Some(code)), code);
                    assert_eq!(result_reason(result_code(&end, None)), Some(reason));
                }
            }
        }
        assert!(result_reason(5).is_none());
        let cap = GameEnd {
            winner: None,
            reason: EndReason::MoveCap,
        };
        assert_eq!(result_code(&cap, None), 4);
    }
}
