//! Watch mode: a game between two engines (any `--engine` of `marshal match` the server
//! allows), played by the arena's arbiter on a thread of its own and shown move by move.

use crate::engine::engine_shell_command;
use crate::game::{combat_name, end_json, error, game_options, Sink};
use crossbeam_channel::{unbounded, Receiver, Sender};
use marshal::arena::arbiter::{pair_setups, play_game, GameTime, TimeControl};
use marshal::arena::player::make_player;
use marshal::formats::GameRecord;
use marshal::player::DEFAULT_MARGIN_MS;
use marshal::player::{Clock, Fault, GameStart, Player};
use marshal::protocol::ObservedMove;
use marshal::rules::{Color, Move, Position, Rules, Setup, Variant};
use serde_json::{json, Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The players a page may always choose; others only when the server was started with them.
const ALWAYS: [&str; 3] = ["marshal", "builtin:random", "builtin:greedy"];

/// What the match thread reports.
enum Event {
    Start(Color, Setup),
    Move(Color, Move),
    End(Box<GameRecord>),
}

/// A player that reports its start and its moves, keeps a pace a person can follow, and
/// gives up when the page stops watching.
struct Relay {
    inner: Box<dyn Player>,
    tx: Sender<Event>,
    stop: Arc<AtomicBool>,
    delay: Duration,
}

impl Player for Relay {
    fn own_setup(&mut self, v: &Variant, c: Color, opponent: &str) -> Result<Option<Setup>, Fault> {
        self.inner.own_setup(v, c, opponent)
    }

    fn start(&mut self, game: &GameStart) -> Result<(), Fault> {
        self.inner.start(game)?;
        let _ = self.tx.send(Event::Start(game.color, game.setup.clone()));
        Ok(())
    }

    fn choose(&mut self, view: &Position, observed: &[ObservedMove], clock: Clock) -> Result<Move, Fault> {
        let asked = Instant::now();
        if self.stop.load(Ordering::SeqCst) {
            return Err(Fault::Crash("the page stopped watching".into()));
        }
        let mv = self.inner.choose(view, observed, clock)?;
        if let Some(rest) = self.delay.checked_sub(asked.elapsed()) {
            std::thread::sleep(rest);
        }
        if self.stop.load(Ordering::SeqCst) {
            return Err(Fault::Crash("the page stopped watching".into()));
        }
        let _ = self.tx.send(Event::Move(view.side_to_move(), mv));
        Ok(mv)
    }

    fn finish(&mut self) {
        self.inner.finish();
    }
}

/// A watched game, as the page sees it: every rank (a spectator may know them all).
pub struct Watch {
    stop: Arc<AtomicBool>,
    rx: Receiver<Event>,
    variant: Variant,
    rules: Rules,
    setups: [Option<Setup>; 2],
    pos: Option<Position>,
    moves: Vec<String>,
    names: [String; 2],
}

/// The command `make_player` runs for a spec: `marshal` is the engine beside this server
/// (the arena's own `marshal` would start this server's executable).
fn player_spec(spec: &str, allowed: &[String]) -> Result<String, String> {
    if spec == "marshal" {
        return Ok(engine_shell_command());
    }
    if ALWAYS.contains(&spec) || allowed.iter().any(|a| a == spec) {
        return Ok(spec.to_string());
    }
    // A page may not run commands of its choosing: any other engine must be named on the
    // server's command line (`--engine`).
    Err(format!(
        "watch: engine '{spec}' is not allowed (marshal, builtin:random, builtin:greedy{}; start the server \
         with --engine '{spec}' to allow it)",
        allowed.iter().map(|a| format!(", {a}")).collect::<String>()
    ))
}

impl Watch {
    pub fn start(m: &Map<String, Value>, allowed: &[String], seed: u64, out: &mut dyn Sink) -> Result<Watch, String> {
        let (variant, rules, movetime) = game_options(m, "watch", None)?;
        let name = |k: &str| m.get(k).and_then(Value::as_str).unwrap_or("marshal").to_string();
        let names = [name("red"), name("blue")];
        let specs = [player_spec(&names[0], allowed)?, player_spec(&names[1], allowed)?];
        let delay = match m.get("delay") {
            None => 400,
            Some(v) => v
                .as_u64()
                .filter(|d| *d <= 10_000)
                .ok_or_else(|| format!("watch: delay '{v}' is not a whole number of ms in 0..10000"))?,
        };
        let (tx, rx) = unbounded();
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let thread_names = names.clone();
        std::thread::spawn(move || {
            let setups = pair_setups(&variant, seed, 0);
            let relay = |spec: &str| -> Box<dyn Player> {
                Box::new(Relay {
                    inner: make_player(spec),
                    tx: tx.clone(),
                    stop: Arc::clone(&thread_stop),
                    delay: Duration::from_millis(delay),
                })
            };
            let mut players = [relay(&specs[0]), relay(&specs[1])];
            let mut record = play_game(
                &mut players,
                [&thread_names[0], &thread_names[1]],
                variant,
                rules,
                [&setups[0], &setups[1]],
                GameTime {
                    tc: [TimeControl::Movetime(movetime); 2],
                    margin_ms: DEFAULT_MARGIN_MS,
                },
                seed,
            );
            record.meta.insert("red".into(), thread_names[0].clone());
            record.meta.insert("blue".into(), thread_names[1].clone());
            let _ = tx.send(Event::End(Box::new(record)));
        });
        out.send(json!({
            "type": "watching", "red": names[0], "blue": names[1], "variant": variant.name(),
            "files": variant.files, "ranks": variant.ranks, "movetime": movetime,
        }));
        Ok(Watch {
            stop,
            rx,
            variant,
            rules,
            setups: [None, None],
            pos: None,
            moves: Vec::new(),
            names,
        })
    }

    /// Sends the page what happened since the last poll.
    pub fn poll(&mut self, out: &mut dyn Sink) {
        while let Ok(ev) = self.rx.try_recv() {
            match ev {
                Event::Start(c, s) => {
                    self.setups[c.index()] = Some(s);
                    if let [Some(r), Some(b)] = &self.setups {
                        match Position::from_setups(self.variant, self.rules, r, b) {
                            Ok(p) => {
                                out.send(self.state(&p, Value::Null));
                                self.pos = Some(p);
                            }
                            Err(e) => out.send(error(format!("watch: {}", e.0))),
                        }
                    }
                }
                Event::Move(side, mv) => {
                    let Some(mut p) = self.pos.take() else { continue };
                    // The arbiter rejects an illegal move as a forfeit; it is not shown.
                    if p.illegal_reason(mv).is_none() {
                        let o = p.make(mv);
                        let token = ObservedMove::seen_by(mv, side, &o, &self.rules, side.flip()).to_string();
                        self.moves.push(token.clone());
                        let last = json!({
                            "move": mv.to_string(), "from": mv.from().to_string(), "to": mv.to().to_string(),
                            "mover": side.to_string(), "token": token,
                            "combat": o.combat.map(|(_, _, c)| combat_name(c)),
                        });
                        out.send(self.state(&p, last));
                    }
                    self.pos = Some(p);
                }
                Event::End(record) => {
                    if let Some(end) = record.result {
                        let mut v = end_json(&end, None);
                        if let Some(f) = record.meta.get("forfeit") {
                            v["text"] = json!(format!("{} ({f})", v["text"].as_str().unwrap_or("")));
                        }
                        out.send(v);
                    }
                    out.send(json!({ "type": "record", "record": record.to_json() }));
                }
            }
        }
    }

    fn state(&self, p: &Position, last: Value) -> Value {
        json!({
            "type": "watch_state", "position": p.to_text(), "to_move": p.side_to_move().to_string(),
            "ply": p.ply(), "moves": self.moves, "last": last, "red": self.names[0], "blue": self.names[1],
        })
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // The match thread ends at its next move; its engines are stopped by the arbiter.
        self.stop.store(true, Ordering::SeqCst);
    }
}
