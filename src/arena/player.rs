//! Players of a match: built-in reference opponents, and engine processes speaking our
//! protocol (with deadlines, so that a hung or crashed engine loses instead of blocking);
//! UCC 2012 AI programs are in `ucc_player`.

use crate::rules::{piece::resolve_combat, Color, Combat, Move, Position, Rank, Rules, Setup, Square, Variant};
use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError};
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// Why a player lost by forfeit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process died or closed its output.
    Crash(String),
    /// No answer in time.
    Timeout(String),
    /// An answer that is not what the protocol allows (or an error line from the engine).
    Garbage(String),
    /// A well-formed move that is not legal.
    Illegal(String),
    /// The player gave up (a UCC AI's `SURRENDER`); recorded as a resignation.
    Resigned(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crash(s) => write!(f, "crash: {s}"),
            Fault::Timeout(s) => write!(f, "time forfeit: {s}"),
            Fault::Garbage(s) => write!(f, "garbage: {s}"),
            Fault::Illegal(s) => write!(f, "illegal move: {s}"),
            Fault::Resigned(s) => write!(f, "resigned: {s}"),
        }
    }
}

/// How long a player may think for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// A fixed time per move.
    Movetime(u64),
    /// Both clocks and increments (ms), as `go wtime btime winc binc`.
    Clocks { red: u64, blue: u64, inc: u64 },
}

impl Clock {
    /// The `go` line for it.
    pub fn go_line(&self) -> String {
        match *self {
            Clock::Movetime(ms) => format!("go movetime {ms}"),
            Clock::Clocks { red, blue, inc } => format!("go wtime {red} btime {blue} winc {inc} binc {inc}"),
        }
    }

    /// How long the arbiter waits for `bestmove` from `mover`: the allowed time plus a grace.
    pub fn deadline(&self, mover: Color) -> Duration {
        match *self {
            Clock::Movetime(ms) => Duration::from_millis(ms + 200 + ms / 2),
            Clock::Clocks { red, blue, .. } => {
                let left = if mover == Color::Red { red } else { blue };
                Duration::from_millis(left + 200)
            }
        }
    }
}

/// What a player is told when a game starts.
#[derive(Clone, Debug)]
pub struct GameStart {
    pub variant: Variant,
    pub rules: Rules,
    pub color: Color,
    pub setup: Setup,
    /// The enemy's occupied squares at the start (public).
    pub enemy_squares: Vec<Square>,
    pub seed: u64,
}

/// A participant in a match.
pub trait Player: Send {
    /// A player that brings its own setup (a UCC AI) returns it here; the arbiter asks
    /// before `start` and plays it instead of the one it drew. `opponent` names the other
    /// player. The default: no setup of its own.
    fn own_setup(&mut self, _variant: &Variant, _color: Color, _opponent: &str) -> Result<Option<Setup>, Fault> {
        Ok(None)
    }
    /// Prepares for a game.
    fn start(&mut self, game: &GameStart) -> Result<(), Fault>;
    /// Chooses a move. `view` is the player's own view of the game (what it may know);
    /// `observed` the moves so far in the observed notation of `protocol.md`, as this
    /// player sees them.
    fn choose(&mut self, view: &Position, observed: &[String], clock: Clock) -> Result<Move, Fault>;
    /// The game is over.
    fn finish(&mut self);
}

/// Rough piece values for the greedy player.
fn value(r: Rank) -> i32 {
    match r {
        Rank::Flag => 10_000,
        Rank::Marshal => 400,
        Rank::General => 300,
        Rank::Colonel => 200,
        Rank::Major => 150,
        Rank::Captain => 100,
        Rank::Lieutenant => 60,
        Rank::Sergeant => 40,
        Rank::Miner => 60,
        Rank::Scout => 30,
        Rank::Spy => 100,
        Rank::Bomb => 20,
        Rank::Unknown => 80,
    }
}

/// `builtin:random` (uniform legal moves) and `builtin:greedy` (the best immediate trade it
/// can see, random among equals).
pub struct Builtin {
    greedy: bool,
    rng: StdRng,
}

impl Builtin {
    pub fn new(greedy: bool) -> Builtin {
        Builtin {
            greedy,
            rng: StdRng::seed_from_u64(0),
        }
    }

    fn gain(view: &Position, mv: Move) -> i32 {
        let Some(att) = view.piece_at(mv.from()) else { return 0 };
        let Some(def) = view.piece_at(mv.to()) else {
            // Quiet moves: a little for going forward.
            let forward = match att.color() {
                Color::Red => mv.to().rank() as i32 - mv.from().rank() as i32,
                Color::Blue => mv.from().rank() as i32 - mv.to().rank() as i32,
            };
            return forward.signum();
        };
        let (a, d) = (att.rank(), def.rank());
        if d == Rank::Unknown {
            // Probe with cheap pieces, keep the expensive ones away from surprises.
            return if value(a) <= 60 { 5 } else { -value(a) / 3 };
        }
        match resolve_combat(a, d, view.rules().attacker_advantage) {
            Combat::FlagCaptured => 100_000,
            Combat::AttackerWins => value(d),
            Combat::DefenderWins => -value(a),
            Combat::BothDie => value(d) - value(a),
        }
    }
}

impl Player for Builtin {
    fn start(&mut self, game: &GameStart) -> Result<(), Fault> {
        self.rng = StdRng::seed_from_u64(game.seed ^ (game.color as u64 + 1).wrapping_mul(0x9e37_79b9));
        Ok(())
    }

    fn choose(&mut self, view: &Position, _observed: &[String], _clock: Clock) -> Result<Move, Fault> {
        let moves = view.legal_moves();
        if moves.is_empty() {
            return Err(Fault::Garbage("no legal move to choose".into()));
        }
        if !self.greedy {
            return Ok(moves[self.rng.gen_range(0..moves.len())]);
        }
        let best = moves.iter().map(|m| Builtin::gain(view, *m)).max().unwrap_or(0);
        let top: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| Builtin::gain(view, *m) == best)
            .collect();
        Ok(top[self.rng.gen_range(0..top.len())])
    }

    fn finish(&mut self) {}
}

/// An engine process speaking the Marshal protocol.
pub struct Engine {
    command: String,
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    lines: Option<Receiver<String>>,
    color: Color,
    enemy: String,
}

/// How long an engine may take for the handshake and the setup.
const START_TIMEOUT: Duration = Duration::from_secs(10);

impl Engine {
    /// `command` is run by `sh -c`; `marshal` alone means this program.
    pub fn new(command: &str) -> Engine {
        Engine {
            command: command.to_string(),
            child: None,
            stdin: None,
            lines: None,
            color: Color::Red,
            enemy: String::new(),
        }
    }

    fn spawn(&mut self) -> Result<(), Fault> {
        let mut cmd = if self.command == "marshal" {
            let exe = std::env::current_exe().map_err(|e| Fault::Crash(format!("cannot find this program: {e}")))?;
            Command::new(exe)
        } else {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("exec {}", self.command));
            c
        };
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault::Crash(format!("cannot start '{}': {e}", self.command)))?;
        let out = child.stdout.take().ok_or_else(|| Fault::Crash("no stdout".into()))?;
        let (tx, rx) = unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.stdin = child.stdin.take();
        self.child = Some(child);
        self.lines = Some(rx);
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let stdin = self.stdin.as_mut().ok_or_else(|| Fault::Crash("not running".into()))?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|e| Fault::Crash(format!("cannot write: {e}")))
    }

    /// Reads lines until one starts with `prefix`; an `info string error` line is a fault.
    fn expect(&mut self, prefix: &str, deadline: Instant) -> Result<String, Fault> {
        let rx = self.lines.as_ref().ok_or_else(|| Fault::Crash("not running".into()))?;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(l) if l.starts_with(prefix) => return Ok(l),
                Ok(l) if l.starts_with("info string error") => {
                    return Err(Fault::Garbage(format!("engine rejected input: {l}")))
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(Fault::Timeout(format!("no '{prefix}' in time"))),
                Err(RecvTimeoutError::Disconnected) => return Err(Fault::Crash("the engine closed its output".into())),
            }
        }
    }
}

/// The `setoption` lines that tell an engine the variant and every rule option of a game.
pub fn rule_options(variant: &Variant, r: &Rules) -> Vec<String> {
    [
        ("Variant", variant.name()),
        ("TwoSquares", r.two_squares.unwrap_or(0).to_string()),
        ("MoreSquares", r.more_squares.to_string()),
        ("AttackerAdvantage", r.attacker_advantage.to_string()),
        ("SilentDefence", r.silent_defence.to_string()),
        ("Rescue", r.rescue.to_string()),
        ("MaxPlies", r.max_plies.unwrap_or(0).to_string()),
        ("MaxQuietPlies", r.max_quiet_plies.unwrap_or(0).to_string()),
    ]
    .into_iter()
    .map(|(name, value)| format!("setoption name {name} value {value}"))
    .collect()
}

/// The `position` line that tells an engine playing `color` the game: the enemy's squares
/// (`enemy`, space-separated) and every move as `color` observed it.
pub fn position_line(color: Color, enemy: &str, observed: &[String]) -> String {
    let mut line = format!("position {color} enemy {enemy}");
    if !observed.is_empty() {
        line.push_str(" moves ");
        line.push_str(&observed.join(" "));
    }
    line
}

impl Player for Engine {
    fn start(&mut self, game: &GameStart) -> Result<(), Fault> {
        self.spawn()?;
        self.color = game.color;
        self.enemy = game
            .enemy_squares
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let deadline = Instant::now() + START_TIMEOUT;
        self.send("stratego")?;
        self.expect("strategook", deadline)?;
        for line in rule_options(&game.variant, &game.rules) {
            self.send(&line)?;
        }
        self.send(&format!("setoption name Seed value {}", game.seed))?;
        self.send("newgame")?;
        self.send(&format!("setup {} {}", game.color, game.setup))?;
        self.send("isready")?;
        self.expect("readyok", deadline)?;
        Ok(())
    }

    fn choose(&mut self, _view: &Position, observed: &[String], clock: Clock) -> Result<Move, Fault> {
        self.send(&position_line(self.color, &self.enemy, observed))?;
        self.send(&clock.go_line())?;
        // The engine's own overhead setting covers its side; this margin covers ours.
        let deadline = Instant::now() + clock.deadline(self.color);
        let best = self.expect("bestmove", deadline)?;
        let text = best.split_whitespace().nth(1).unwrap_or("");
        if text == "none" || text == "resign" {
            return Err(Fault::Garbage(format!("'{best}' while moves were available")));
        }
        Move::parse(text).map_err(|e| Fault::Garbage(format!("'{best}': {e}")))
    }

    fn finish(&mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        if let Some(mut c) = self.child.take() {
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = c.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// A player from its `--engine` text: `builtin:random`, `builtin:greedy`, `ucc:<path>` (a
/// UCC 2012 AI program), or a command.
pub fn make_player(spec: &str) -> Box<dyn Player> {
    match spec {
        "builtin:random" => Box::new(Builtin::new(false)),
        "builtin:greedy" => Box::new(Builtin::new(true)),
        s if s.starts_with(super::ucc_player::PREFIX) => Box::new(super::ucc_player::UccPlayer::new(s)),
        cmd => Box::new(Engine::new(cmd)),
    }
}
