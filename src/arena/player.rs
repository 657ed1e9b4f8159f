//! Players of a match: built-in reference opponents, and engine processes speaking our
//! protocol (with deadlines, so that a hung or crashed engine loses instead of blocking);
//! UCC 2012 AI programs are in `crate::ucc::player`. `make_player` makes any of them.

use crate::player::{Clock, Fault, GameStart, Player};
use crate::process::{Process, ReadError, Stderr};
use crate::protocol::options::{rule_options, Opt};
use crate::protocol::PositionCmd;
use crate::rules::view::ObservedMove;
use crate::rules::{piece::resolve_combat, Color, Combat, Move, Position, Rank, Square};
use crate::ucc;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::process::Command;
use std::time::{Duration, Instant};

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

    fn choose(&mut self, view: &Position, _observed: &[ObservedMove], _clock: Clock) -> Result<Move, Fault> {
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
    process: Option<Process>,
    color: Color,
    enemy: Vec<Square>,
}

/// How long an engine may take for the handshake and the setup.
const START_TIMEOUT: Duration = Duration::from_secs(10);

impl Engine {
    /// `command` is run by `sh -c`; `marshal` alone means this program.
    pub fn new(command: &str) -> Engine {
        Engine {
            command: command.to_string(),
            process: None,
            color: Color::Red,
            enemy: Vec::new(),
        }
    }

    fn spawn(&mut self) -> Result<(), Fault> {
        let cmd = if self.command == "marshal" {
            let exe = std::env::current_exe().map_err(|e| Fault::Crash(format!("cannot find this program: {e}")))?;
            Command::new(exe)
        } else {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("exec {}", self.command));
            c
        };
        let process = Process::start(cmd, Stderr::Null)
            .map_err(|e| Fault::Crash(format!("cannot start '{}': {e}", self.command)))?;
        self.process = Some(process);
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let p = self
            .process
            .as_mut()
            .ok_or_else(|| Fault::Crash("not running".into()))?;
        p.send(line).map_err(|e| Fault::Crash(format!("cannot write: {e}")))
    }

    /// Reads lines until one starts with `prefix`; an `info string error` line is a fault.
    fn expect(&mut self, prefix: &str, deadline: Instant) -> Result<String, Fault> {
        let p = self
            .process
            .as_ref()
            .ok_or_else(|| Fault::Crash("not running".into()))?;
        loop {
            match p.read_line(Some(deadline)) {
                Ok(l) if l.starts_with(prefix) => return Ok(l),
                Ok(l) if l.starts_with("info string error") => {
                    return Err(Fault::Garbage(format!("engine rejected input: {l}")))
                }
                Ok(_) => {}
                Err(ReadError::Timeout) => return Err(Fault::Timeout(format!("no '{prefix}' in time"))),
                Err(ReadError::Closed) => return Err(Fault::Crash("the engine closed its output".into())),
            }
        }
    }
}

impl Player for Engine {
    fn start(&mut self, game: &GameStart) -> Result<(), Fault> {
        self.spawn()?;
        self.color = game.color;
        self.enemy = game.enemy_squares.clone();
        let deadline = Instant::now() + START_TIMEOUT;
        self.send("stratego")?;
        self.expect("strategook", deadline)?;
        for line in rule_options(&game.variant, &game.rules) {
            self.send(&line)?;
        }
        self.send(&Opt::Seed.line(game.seed))?;
        self.send("newgame")?;
        self.send(&format!("setup {} {}", game.color, game.setup))?;
        self.send("isready")?;
        self.expect("readyok", deadline)?;
        Ok(())
    }

    fn choose(&mut self, _view: &Position, observed: &[ObservedMove], clock: Clock) -> Result<Move, Fault> {
        let pc = PositionCmd {
            color: self.color,
            setup: None,
            enemy: Some(self.enemy.clone()),
            moves: observed.to_vec(),
        };
        self.send(&pc.to_string())?;
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
        if let Some(mut p) = self.process.take() {
            p.stop(Some("quit"), Duration::from_millis(500));
        }
    }
}

/// A player from its `--engine` text: `builtin:random`, `builtin:greedy`, `ucc:<path>` (a
/// UCC 2012 AI program), or a command.
pub fn make_player(spec: &str) -> Box<dyn Player> {
    match spec {
        "builtin:random" => Box::new(Builtin::new(false)),
        "builtin:greedy" => Box::new(Builtin::new(true)),
        s if s.starts_with(ucc::player::PREFIX) => Box::new(ucc::player::UccPlayer::new(s)),
        cmd => Box::new(Engine::new(cmd)),
    }
}
