//! `marshal play`: a person plays Marshal in a terminal.
//!
//! The board is drawn from the person's view (the engine's pieces are `?` until
//! revealed), in colour on a terminal and plain otherwise (or with `NO_COLOR`). The
//! person types moves in our notation (`e4e5`) or `help`, `board`, `save FILE`, `resign`,
//! `quit`. A game saved with `save` is a game record (`marshal-game/1`) that
//! `--load FILE` resumes. With `MARSHAL_PLAY_LEGAL=1` a line `legal: <moves>` is printed
//! before each prompt, for scripts and tests.

use crate::engine::Engine;
use crate::formats::record::describe_end;
use crate::formats::GameRecord;
use crate::protocol::options::Options;
use crate::protocol::{GoParams, PositionCmd};
use crate::rules::position::REVEALED;
use crate::rules::{Color, Combat, EndReason, GameEnd, Move, Position, Rank, Rules, Setup, Square, Variant};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Options of `marshal play`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// Variant (classic, compact, duel, duel-compact, barrage, custom:<board>:<army>).
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Your colour: red (moves first) or blue.
    #[arg(long, default_value = "red")]
    pub colour: String,
    /// The engine's thinking time per move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// A node budget per move instead of a time (the same moves as the protocol's
    /// `go nodes N` with the same seed).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Seed for the engine's setup and search (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Your setup in setup notation (back row first, your left to right), or `auto`.
    #[arg(long, default_value = "auto")]
    pub setup: String,
    /// Resume a game saved with `save FILE` (variant, colour and setups come from it).
    #[arg(long, value_name = "FILE")]
    pub load: Option<String>,
    /// Rule options, e.g. `--rule max-plies=200` (repeatable NAME=VALUE).
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
}

const HELP: &str = "\
Commands:
  <move>       a move in our notation, from-square then to-square: e4e5, b4b8
  board        draw the board again
  help         this text
  save FILE    save the game (a game record); resume with `marshal play --load FILE`
  resign       give up the game
  quit         leave without finishing (save first to keep the game)
Board: your pieces show their rank (F B S 2-9 M), the engine's are ? until revealed,
~ is a lake, . an empty square.";

/// How the screen is drawn.
struct Style {
    color: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// A game in progress between the person and the engine.
struct Game {
    pos: Position,
    record: GameRecord,
    human: Color,
    movetime: u64,
    nodes: Option<u64>,
    /// The engine, driven as a GUI drives it through the protocol: a `position` of what
    /// it observed, then a search.
    engine: Engine,
    style: Style,
    legal_line: bool,
    /// Echo input lines after the prompt (input not typed on a terminal).
    echo: bool,
}

fn parse_colour(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "red" | "r" => Ok(Color::Red),
        "blue" | "b" => Ok(Color::Blue),
        _ => Err(format!("--colour '{s}' is not red or blue")),
    }
}

fn new_game(args: &PlayArgs) -> Result<(Position, GameRecord, Color, u64), String> {
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let human = parse_colour(&args.colour)?;
    let v = Variant::parse(&args.variant).map_err(|e| e.0)?;
    let rules = Rules::default().with_options(&args.rules)?;
    let mut rng = StdRng::seed_from_u64(seed);
    let engine_setup = crate::setup::generate(&v, &mut rng);
    let human_setup = if args.setup.eq_ignore_ascii_case("auto") {
        crate::setup::generate(&v, &mut rng)
    } else {
        Setup::parse(&args.setup, &v).map_err(|e| format!("bad --setup: {e}"))?
    };
    let (red, blue) = match human {
        Color::Red => (&human_setup, &engine_setup),
        Color::Blue => (&engine_setup, &human_setup),
    };
    let pos = Position::from_setups(v, rules, red, blue).map_err(|e| e.0)?;
    let mut record = GameRecord::new(&v, rules, red, blue);
    let (hn, en) = ("human".to_string(), "marshal".to_string());
    record
        .meta
        .insert("red".into(), if human == Color::Red { hn.clone() } else { en.clone() });
    record
        .meta
        .insert("blue".into(), if human == Color::Blue { hn } else { en });
    record.meta.insert("seed".into(), seed.to_string());
    Ok((pos, record, human, seed))
}

fn load_game(path: &str, args: &PlayArgs) -> Result<(Position, GameRecord, Color, u64), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut record = GameRecord::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
    record.rules = record.rules.with_options(&args.rules)?;
    let (pos, end) = record.replay(None).map_err(|e| format!("{path}: {e}"))?;
    if let Some(e) = end.or(record.result) {
        return Err(format!("{path}: the game is already over: {}", describe_end(&e)));
    }
    let human = match (record.meta.get("red"), record.meta.get("blue")) {
        (Some(r), _) if r == "human" => Color::Red,
        (_, Some(b)) if b == "human" => Color::Blue,
        _ => parse_colour(&args.colour)?,
    };
    let seed = args
        .seed
        .or_else(|| record.meta.get("seed").and_then(|s| s.parse().ok()))
        .unwrap_or(1);
    Ok((pos, record, human, seed))
}

/// Runs `marshal play`: reads commands from stdin, writes the game to stdout. Returns
/// `Ok(true)` when the game ended or was left normally.
pub fn run(args: &PlayArgs) -> Result<bool, String> {
    let (pos, record, human, seed) = match &args.load {
        Some(path) => load_game(path, args)?,
        None => new_game(args)?,
    };
    let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal();
    let legal_line = std::env::var("MARSHAL_PLAY_LEGAL").is_ok_and(|v| v == "1");
    let mut engine = Engine::new(Arc::new(AtomicBool::new(false)));
    engine.set_options(Options {
        variant: *pos.variant(),
        rules: record.rules,
        seed,
        ..Options::default()
    });
    let mut game = Game {
        pos,
        record,
        human,
        movetime: args.movetime,
        nodes: args.nodes,
        engine,
        style: Style { color },
        legal_line,
        echo: !std::io::stdin().is_terminal(),
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    game.play(&mut input, &mut std::io::stdout())
        .map_err(|e| format!("output error: {e}"))
}

impl Game {
    fn play(&mut self, input: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<bool> {
        writeln!(
            out,
            "Marshal: {} game, you play {}, the engine thinks {} per move. Type 'help' for commands.",
            self.record.variant,
            self.human,
            match self.nodes {
                Some(n) => format!("{n} nodes"),
                None => format!("{} ms", self.movetime),
            }
        )?;
        if !self.record.moves.is_empty() {
            writeln!(out, "Resumed after {} plies.", self.record.moves.len())?;
        }
        let mut show_board = true;
        loop {
            if let Some(end) = self.pos.game_end() {
                self.board(out)?;
                return self.finish(end, out);
            }
            if self.pos.side_to_move() != self.human {
                self.engine_move(out)?;
                show_board = true;
                continue;
            }
            if show_board {
                self.board(out)?;
                show_board = false;
            }
            if self.legal_line {
                let mut moves: Vec<String> = self.pos.legal_moves().iter().map(|m| m.to_string()).collect();
                moves.sort();
                writeln!(out, "legal: {}", moves.join(" "))?;
            }
            write!(out, "{} to move ({})> ", self.human, self.pos.ply() + 1)?;
            out.flush()?;
            // Bytes, not `read_line`: a terminal may send text that is not UTF-8, which
            // must be an unknown command rather than the end of the game.
            let mut bytes = Vec::new();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                writeln!(out)?;
                writeln!(out, "Input closed: game left unfinished (not saved).")?;
                return Ok(true);
            }
            // Control characters (an arrow key's escape sequence, say) are shown as `?`
            // so that messages quoting the line cannot move the terminal's cursor.
            let line: String = String::from_utf8_lossy(&bytes)
                .trim()
                .chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect();
            let line = line.as_str();
            if self.echo {
                writeln!(out, "{line}")?;
            }
            let (cmd, rest) = match line.split_once(char::is_whitespace) {
                Some((c, r)) => (c, r.trim()),
                None => (line, ""),
            };
            match cmd.to_ascii_lowercase().as_str() {
                "" => {}
                "help" | "?" => writeln!(out, "{HELP}")?,
                "board" => show_board = true,
                "quit" | "exit" => {
                    writeln!(out, "Game left unfinished after {} plies.", self.pos.ply())?;
                    return Ok(true);
                }
                "resign" => {
                    let end = GameEnd {
                        winner: Some(self.human.flip()),
                        reason: EndReason::Resignation,
                    };
                    self.record.result = Some(end);
                    return self.finish(end, out);
                }
                "save" => {
                    if rest.is_empty() {
                        writeln!(out, "save needs a file name: save FILE")?;
                    } else {
                        match std::fs::write(rest, self.record.to_json() + "\n") {
                            Ok(()) => writeln!(
                                out,
                                "Saved to {rest} ({} plies). Resume with: marshal play --load {rest}",
                                self.record.moves.len()
                            )?,
                            Err(e) => writeln!(out, "cannot save to {rest}: {e}")?,
                        }
                    }
                }
                _ => {
                    if !rest.is_empty() {
                        writeln!(out, "'{line}' is not a move or a command; type 'help'.")?;
                        continue;
                    }
                    match Move::parse(cmd) {
                        Err(e) => writeln!(out, "{e}; type a move like e4e5, or 'help'.")?,
                        Ok(mv) => match self.pos.illegal_reason(mv) {
                            Some(reason) => writeln!(out, "illegal move {mv}: {reason}")?,
                            None => {
                                self.apply(mv, out)?;
                                show_board = true;
                            }
                        },
                    }
                }
            }
        }
    }

    fn engine_move(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let engine = self.human.flip();
        writeln!(out, "Engine ({engine}) is thinking...")?;
        out.flush()?;
        let best = self.engine_choice(engine);
        let legal = self.pos.legal_moves();
        // The engine decides on its view; in rare cases the arbiter's position forbids
        // its move (see protocol.md 1.7), and then it plays its first legal move.
        let mv = match best {
            Some(m) if self.pos.illegal_reason(m).is_none() => m,
            _ => match legal.first() {
                Some(&m) => m,
                None => return Ok(()), // game_end will report it
            },
        };
        self.apply(mv, out)
    }

    /// The engine's move: the game as `engine` observed it, then a search under the
    /// time or node budget (`None` when it has no move, or the game could not be told).
    fn engine_choice(&mut self, engine: Color) -> Option<Move> {
        let (enemy, moves) = self.record.observed_by(engine, None).ok()?;
        let setup = match engine {
            Color::Red => self.record.red_setup.clone(),
            Color::Blue => self.record.blue_setup.clone(),
        };
        let pc = PositionCmd {
            color: engine,
            setup: Some(setup),
            enemy: Some(enemy),
            moves,
        };
        if let Err(e) = self.engine.position(&pc) {
            tracing::warn!("the engine could not take the game: {e}");
            return None;
        }
        let go = GoParams {
            movetime: self.nodes.is_none().then_some(self.movetime),
            nodes: self.nodes,
            ..GoParams::default()
        };
        match self.engine.think(&go) {
            Ok(r) => r.best,
            Err(e) => {
                tracing::warn!("the engine could not search: {e}");
                None
            }
        }
    }

    /// Plays `mv` on the game, records it and tells what happened.
    fn apply(&mut self, mv: Move, out: &mut dyn Write) -> std::io::Result<()> {
        let mover = self.pos.side_to_move();
        let by_human = mover == self.human;
        let to_flags = self.pos.flags_at(mv.to());
        let before = self.pos.view(self.human);
        let outcome = self.pos.make(mv);
        self.record.push(mv, outcome.combat);
        let who = if by_human { "You" } else { "Engine" };
        let mut text = format!("{who} ({mover}): {mv}");
        match outcome.combat {
            None => {
                if !by_human {
                    let was = before.piece_at(mv.from()).map(|p| p.rank());
                    let now = self.pos.view(self.human).piece_at(mv.to()).map(|p| p.rank());
                    if was == Some(Rank::Unknown) {
                        if let Some(r) = now.filter(|&r| r != Rank::Unknown) {
                            text += &format!(" (its {} is revealed)", r.name());
                        }
                    }
                }
            }
            Some((a, d, c)) => {
                let silent = self.pos.rules().silent_defence && a != Rank::Scout;
                // What the person learns of the engine's defender (silent defence).
                let d_known = by_human && (!silent || to_flags & REVEALED != 0 || c == Combat::FlagCaptured);
                let (att, def) = if by_human {
                    (
                        format!("your {}", rank_text(Some(a))),
                        format!("its {}", rank_text(d_known.then_some(d))),
                    )
                } else {
                    (
                        format!("its {}", rank_text(Some(a))),
                        format!("your {}", rank_text(Some(d))),
                    )
                };
                let verdict = match c {
                    Combat::AttackerWins => format!("{att} takes {def}"),
                    Combat::DefenderWins => format!("{def} beats {att}"),
                    Combat::BothDie => format!("{att} and {def} are both removed"),
                    Combat::FlagCaptured => format!("{att} captures {def}!"),
                };
                text += &format!(" attacks: {verdict}");
            }
        }
        writeln!(out, "{}", self.style.paint("1", &text))
    }

    fn finish(&mut self, end: GameEnd, out: &mut dyn Write) -> std::io::Result<bool> {
        self.record.result = Some(end);
        let verdict = match end.winner {
            Some(c) if c == self.human => "You win!",
            Some(_) => "The engine wins.",
            None => "Draw.",
        };
        writeln!(out, "{verdict}")?;
        writeln!(out, "result {} after {} plies", describe_end(&end), self.pos.ply())?;
        Ok(true)
    }

    /// Draws the board from the person's side, with coordinates and captured pieces.
    fn board(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let view = self.pos.view(self.human);
        let v = *view.variant();
        let (files, ranks) = (10u8, if v.squares().any(|s| s.rank() == 9) { 10u8 } else { 8u8 });
        let flip = self.human == Color::Blue;
        let file_order: Vec<u8> = if flip {
            (0..files).rev().collect()
        } else {
            (0..files).collect()
        };
        let rank_order: Vec<u8> = if flip {
            (0..ranks).collect()
        } else {
            (0..ranks).rev().collect()
        };
        let header: String = file_order
            .iter()
            .map(|&f| format!(" {} ", (b'a' + f) as char))
            .collect();
        writeln!(out)?;
        writeln!(out, "    {header}")?;
        for &r in &rank_order {
            let mut line = format!("{:>3} ", r + 1);
            for &f in &file_order {
                let sq = Square::new(f, r);
                let cell = if v.is_lake(sq) {
                    self.style.paint("36", " ~ ")
                } else {
                    match view.piece_at(sq) {
                        None => " . ".to_string(),
                        Some(p) => {
                            let ch = p.rank().to_char();
                            let code = match p.color() {
                                Color::Red => "1;31",
                                Color::Blue => "1;34",
                            };
                            self.style.paint(code, &format!(" {ch} "))
                        }
                    }
                };
                line += &cell;
            }
            writeln!(out, "{line} {:<3}", r + 1)?;
        }
        writeln!(out, "    {header}")?;
        for c in [self.human, self.human.flip()] {
            let lost: Vec<String> = (0..=Rank::Unknown as usize)
                .filter_map(Rank::from_index)
                .flat_map(|r| std::iter::repeat_n(r.to_char().to_string(), view.captured(c, r) as usize))
                .collect();
            let whose = if c == self.human { "you" } else { "engine" };
            let list = if lost.is_empty() {
                "-".to_string()
            } else {
                lost.join(" ")
            };
            writeln!(out, "lost by {c} ({whose}): {list}")?;
        }
        writeln!(out, "ply {}, {} to move", view.ply(), view.side_to_move())?;
        Ok(())
    }
}

fn rank_text(r: Option<Rank>) -> String {
    match r {
        Some(r) if r != Rank::Unknown => format!("{} ({})", r.name(), r.to_char()),
        _ => "piece (rank not shown)".to_string(),
    }
}
