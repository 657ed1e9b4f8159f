//! One page's session: a game of a person against a `marshal` engine process, refereed
//! here. The server holds the true position; the page gets only the person's view.

use crate::engine::Engine;
use crate::watch::Watch;
use marshal::formats::GameRecord;
use marshal::protocol::options::{rule_options, Opt};
use marshal::protocol::{ObservedMove, PositionCmd};
use marshal::rules::view::occupied;
use marshal::rules::{Color, Combat, GameEnd, Move, Position, Rank, Rules, Setup, Square, Variant};
use rand::{rngs::StdRng, Rng, SeedableRng};
use serde_json::{json, Map, Value};
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where the session's messages to the page go.
pub trait Sink {
    fn send(&mut self, v: Value);
}

/// An error message for the page (the request that caused it changed nothing).
pub fn error(message: impl Into<String>) -> Value {
    json!({ "type": "error", "message": message.into(), "fatal": false })
}

/// The engine handle the connection's watchdog kills through when the page goes silent.
pub type KillSlot = Arc<Mutex<Option<Arc<Mutex<Child>>>>>;

/// How long the engine may take for its handshake, setup and beliefs.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// The engine's time a move may be chosen in this range (ms).
const MOVETIME_RANGE: std::ops::RangeInclusive<u64> = 5..=60_000;

/// What the page chose in `new`, before the person's setup is in.
struct Pending {
    variant: Variant,
    rules: Rules,
    human: Color,
    movetime: u64,
    engine: Engine,
}

/// A game under way or over.
struct Game {
    rules: Rules,
    human: Color,
    movetime: u64,
    pos: Position,
    record: GameRecord,
    /// The moves as each side observed them (`protocol.md`, `position`).
    observed: [Vec<ObservedMove>; 2],
    /// The person's occupied squares at the start, as the engine is told them.
    human_squares: Vec<Square>,
    /// `None` once the game is over or the engine has stopped.
    engine: Option<Engine>,
    /// The last move as the person saw it.
    last: Value,
}

pub struct Session {
    pending: Option<Pending>,
    game: Option<Game>,
    watch: Option<Watch>,
    beliefs: bool,
    rng: StdRng,
    kill: KillSlot,
    /// Extra `--engine` specs the server allows in watch mode.
    watch_engines: Arc<Vec<String>>,
}

/// The page's message as an object with a `type`, or the error that names what is wrong.
fn parse_request(text: &str) -> Result<(String, Map<String, Value>), String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("the message is not JSON ({e})"))?;
    let Value::Object(m) = v else {
        return Err("the message is not a JSON object".into());
    };
    let t = m
        .get("type")
        .and_then(Value::as_str)
        .ok_or("the message has no \"type\" string")?
        .to_string();
    Ok((t, m))
}

fn str_field<'a>(m: &'a Map<String, Value>, key: &str, t: &str) -> Result<&'a str, String> {
    m.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{t}: the \"{key}\" field must be a string"))
}

/// The variant, rules, colour and movetime of a `new`, `load` or `watch` request.
pub fn game_options(m: &Map<String, Value>, t: &str, variant: Option<&str>) -> Result<(Variant, Rules, u64), String> {
    let name = match variant {
        Some(v) => v.to_string(),
        None => m
            .get("variant")
            .and_then(Value::as_str)
            .unwrap_or("classic")
            .to_string(),
    };
    let variant = Variant::parse(&name).map_err(|e| format!("{t}: variant '{name}': {}", e.0))?;
    let mut rules = Rules::default();
    match m.get("rules") {
        None | Some(Value::Null) => {}
        Some(Value::Object(r)) => {
            for (k, v) in r {
                let value = match v {
                    Value::String(s) => s.clone(),
                    Value::Bool(b) => b.to_string(),
                    Value::Number(n) => n.to_string(),
                    _ => return Err(format!("{t}: rule option '{k}' must be a string, number or true/false")),
                };
                rules
                    .set(k, &value)
                    .map_err(|e| format!("{t}: rule option '{k}': {}", e.0))?;
            }
        }
        Some(_) => return Err(format!("{t}: \"rules\" must be an object of option names and values")),
    }
    let movetime = match m.get("movetime") {
        None => 500,
        Some(v) => v
            .as_u64()
            .filter(|ms| MOVETIME_RANGE.contains(ms))
            .ok_or_else(|| format!("{t}: movetime '{v}' is not a whole number of ms in 5..60000"))?,
    };
    Ok((variant, rules, movetime))
}

/// What the page needs to draw a variant's board and setup zone for `human`.
fn variant_info(variant: &Variant, human: Color) -> Value {
    let lakes: Vec<String> = (0..variant.ranks)
        .flat_map(|r| (0..variant.files).map(move |f| Square::new(f, r)))
        .filter(|s| variant.is_lake(*s))
        .map(|s| s.to_string())
        .collect();
    // The squares in the order of a setup string (protocol.md 1.4), so that the page maps
    // setup characters to squares without knowing the orientation rules.
    let mut zone = Vec::new();
    for row in 0..variant.setup_rows {
        for col in 0..variant.files {
            zone.push(variant.zone_square(human, row, col).to_string());
        }
    }
    let army: Map<String, Value> = Rank::ALL
        .iter()
        .filter(|r| variant.army[r.index()] > 0)
        .map(|r| (r.to_char().to_string(), json!(variant.army[r.index()])))
        .collect();
    json!({
        "variant": variant.name(), "files": variant.files, "ranks": variant.ranks,
        "setup_rows": variant.setup_rows, "fills": variant.fills_zone(),
        "lakes": lakes, "zone": zone, "army": army,
    })
}

pub fn combat_name(c: Combat) -> &'static str {
    match c {
        Combat::AttackerWins => "attacker_wins",
        Combat::DefenderWins => "defender_wins",
        Combat::BothDie => "both_die",
        Combat::FlagCaptured => "flag_captured",
    }
}

pub fn end_json(end: &GameEnd, human: Option<Color>) -> Value {
    let text = match (end.winner, human) {
        (None, _) => "Draw".to_string(),
        (Some(w), Some(h)) if w == h => "You win".to_string(),
        (Some(_), Some(_)) => "Marshal wins".to_string(),
        (Some(w), None) => format!("{} wins", w.name()),
    };
    json!({
        "type": "end", "winner": end.winner.map(|c| c.to_string()),
        "reason": end.reason.name(), "text": text,
    })
}

/// Starts an engine and tells it the game's options (the handshake of `protocol.md` 3).
fn start_engine(variant: &Variant, rules: &Rules, seed: u64) -> Result<Engine, String> {
    let mut e = Engine::start()?;
    let deadline = Instant::now() + START_TIMEOUT;
    e.send("stratego")?;
    e.expect("strategook", deadline)?;
    for line in rule_options(variant, rules) {
        e.send(&line)?;
    }
    e.send(&Opt::Seed.line(seed))?;
    e.send("newgame")?;
    e.send("isready")?;
    e.expect("readyok", deadline)?;
    Ok(e)
}

impl Session {
    pub fn new(kill: KillSlot, watch_engines: Arc<Vec<String>>) -> Session {
        Session {
            pending: None,
            game: None,
            watch: None,
            beliefs: false,
            rng: StdRng::from_entropy(),
            kill,
            watch_engines,
        }
    }

    /// Handles one message of the page. A bad request gets one error and changes nothing.
    pub fn handle(&mut self, text: &str, out: &mut dyn Sink) {
        let (t, m) = match parse_request(text) {
            Ok(r) => r,
            Err(e) => return out.send(error(e)),
        };
        let result = match t.as_str() {
            "ping" => Ok(()),
            "new" => self.new_game(&m, out),
            "generate" => self.generate(out),
            "human_setup" => self.human_setup(out),
            "start" => self.start(&m, out),
            "move" => self.human_move(&m, out),
            "resign" => self.resign(out),
            "save" => self.save(out),
            "adjourn" => self.adjourn(out),
            "load" => self.load(&m, out),
            "beliefs" => self.set_beliefs(&m, out),
            "watch" => self.start_watch(&m, out),
            "stop_watch" => {
                self.watch = None;
                Ok(())
            }
            other => Err(format!(
                "unknown message type '{other}' (expected ping, new, generate, human_setup, start, move, \
                 resign, save, adjourn, load, beliefs, watch or stop_watch)"
            )),
        };
        if let Err(e) = result {
            out.send(error(e));
        }
    }

    /// Reports what happened while the page was not asking: an engine that stopped, and
    /// the moves of a watched match.
    pub fn poll(&mut self, out: &mut dyn Sink) {
        if let Some(w) = self.watch.as_mut() {
            w.poll(out);
        }
        let dead_pending = self.pending.as_ref().is_some_and(|p| p.engine.dead());
        if dead_pending {
            self.pending = None;
            out.send(fatal("the engine stopped unexpectedly; start a new game"));
        }
        if let Some(g) = self.game.as_mut() {
            if g.engine.as_ref().is_some_and(Engine::dead) {
                g.engine = None;
                out.send(fatal(
                    "the engine stopped unexpectedly; save the game and load it to go on with a new engine",
                ));
            }
        }
    }

    fn new_game(&mut self, m: &Map<String, Value>, out: &mut dyn Sink) -> Result<(), String> {
        let (variant, rules, movetime) = game_options(m, "new", None)?;
        let human = Color::parse(m.get("color").and_then(Value::as_str).unwrap_or("red"))
            .ok_or("new: \"color\" must be red or blue")?;
        let engine = start_engine(&variant, &rules, self.rng.gen::<u32>() as u64)?;
        self.watch = None;
        self.game = None;
        arm(&self.kill, Some(&engine));
        self.pending = Some(Pending {
            variant,
            rules,
            human,
            movetime,
            engine,
        });
        let mut info = variant_info(&variant, human);
        info["type"] = json!("newgame");
        info["human"] = json!(human.to_string());
        info["movetime"] = json!(movetime);
        out.send(info);
        Ok(())
    }

    fn generate(&mut self, out: &mut dyn Sink) -> Result<(), String> {
        let p = self
            .pending
            .as_ref()
            .ok_or("generate: no game waiting for a setup (send new first)")?;
        let s = marshal::setup::generate(&p.variant, &mut self.rng);
        out.send(json!({ "type": "setup", "setup": s.to_string(), "source": "generated" }));
        Ok(())
    }

    fn human_setup(&mut self, out: &mut dyn Sink) -> Result<(), String> {
        let p = self
            .pending
            .as_ref()
            .ok_or("human_setup: no game waiting for a setup (send new first)")?;
        let text = match p.variant.name().as_str() {
            "classic" => marshal::data::classic_human_setups(),
            "barrage" => marshal::data::barrage_human_setups(),
            v => {
                return Err(format!(
                    "human_setup: human setups exist for classic and barrage, not {v}"
                ))
            }
        };
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        if lines.is_empty() {
            return Err("human_setup: no human setups built in".into());
        }
        let line = lines[self.rng.gen_range(0..lines.len())];
        let s = marshal::formats::gravon::parse_gravon(line, &p.variant).map_err(|e| format!("human_setup: {e}"))?;
        out.send(json!({ "type": "setup", "setup": s.to_string(), "source": "human" }));
        Ok(())
    }

    fn start(&mut self, m: &Map<String, Value>, out: &mut dyn Sink) -> Result<(), String> {
        let p = self
            .pending
            .as_ref()
            .ok_or("start: no game waiting for a setup (send new first)")?;
        let text = str_field(m, "setup", "start")?;
        let human_setup = Setup::parse(text, &p.variant).map_err(|e| format!("start: setup '{text}': {}", e.0))?;
        let Some(mut p) = self.pending.take() else {
            return Err("start: no game waiting for a setup".into());
        };
        let ec = p.human.flip();
        let engine_setup = p
            .engine
            .send(&format!("setup {ec}"))
            .and_then(|_| p.engine.expect("setup ", Instant::now() + START_TIMEOUT))
            .and_then(|l| {
                let s = l.split_whitespace().nth(2).unwrap_or("");
                Setup::parse(s, &p.variant).map_err(|e| format!("the engine's setup '{s}': {}", e.0))
            });
        let engine_setup = match engine_setup {
            Ok(s) => s,
            Err(e) => {
                arm(&self.kill, None);
                out.send(fatal(format!("the engine failed to set up: {e}")));
                return Ok(());
            }
        };
        let (red, blue) = match p.human {
            Color::Red => (&human_setup, &engine_setup),
            Color::Blue => (&engine_setup, &human_setup),
        };
        let pos = Position::from_setups(p.variant, p.rules, red, blue).map_err(|e| format!("start: {}", e.0))?;
        let mut record = GameRecord::new(&p.variant, p.rules, red, blue);
        record.meta.insert(p.human.to_string(), "human".into());
        record.meta.insert(ec.to_string(), "marshal".into());
        let human_squares = occupied(&pos, p.human);
        self.game = Some(Game {
            rules: p.rules,
            human: p.human,
            movetime: p.movetime,
            pos,
            record,
            observed: [Vec::new(), Vec::new()],
            human_squares,
            engine: Some(p.engine),
            last: Value::Null,
        });
        self.play_on(out);
        Ok(())
    }

    fn human_move(&mut self, m: &Map<String, Value>, out: &mut dyn Sink) -> Result<(), String> {
        let g = self.game.as_mut().ok_or("move: no game (send new and start first)")?;
        let text = str_field(m, "move", "move")?;
        if g.record.result.is_some() {
            return Err(format!("move '{text}': the game is over"));
        }
        if g.engine.is_none() {
            return Err(format!(
                "move '{text}': the engine has stopped; save the game and load it to go on"
            ));
        }
        if g.pos.side_to_move() != g.human {
            return Err(format!("move '{text}': it is the engine's turn"));
        }
        let mv = Move::parse(text).map_err(|e| format!("move '{text}': {e}"))?;
        if let Some(reason) = g.pos.illegal_reason(mv) {
            return Err(format!("move '{text}' is illegal: {reason}"));
        }
        g.apply(mv);
        self.play_on(out);
        Ok(())
    }

    /// After a move: the state for the page, then the end, or the engine's move.
    fn play_on(&mut self, out: &mut dyn Sink) {
        loop {
            let Some(g) = self.game.as_mut() else { return };
            if let Some(end) = g.pos.game_end() {
                g.record.result = Some(end);
            }
            out.send(g.state());
            if let Some(end) = g.record.result {
                g.engine = None;
                arm(&self.kill, None);
                out.send(end_json(&end, Some(g.human)));
                return;
            }
            if g.pos.side_to_move() == g.human {
                if self.beliefs {
                    g.send_beliefs(out);
                }
                return;
            }
            if let Err(e) = g.engine_move(out) {
                g.engine = None;
                arm(&self.kill, None);
                out.send(fatal(format!(
                    "{e}; save the game and load it to go on with a new engine"
                )));
                return;
            }
        }
    }

    fn resign(&mut self, out: &mut dyn Sink) -> Result<(), String> {
        let g = self.game.as_mut().ok_or("resign: no game")?;
        if g.record.result.is_some() {
            return Err("resign: the game is over".into());
        }
        g.record.result = Some(GameEnd {
            winner: Some(g.human.flip()),
            reason: marshal::rules::EndReason::Resignation,
        });
        self.play_on(out);
        Ok(())
    }

    fn save(&mut self, out: &mut dyn Sink) -> Result<(), String> {
        let g = self.game.as_ref().ok_or("save: no game")?;
        if g.record.result.is_none() && g.engine.is_some() {
            // The record holds the engine's setup: giving it out mid-game would show the
            // page every hidden rank.
            return Err(
                "save: the record shows the engine's setup, so it is given once the game is over \
                        or adjourned (adjourn stops the game and saves it to continue later)"
                    .into(),
            );
        }
        out.send(json!({ "type": "record", "record": g.record.to_json() }));
        Ok(())
    }

    fn adjourn(&mut self, out: &mut dyn Sink) -> Result<(), String> {
        let g = self.game.as_mut().ok_or("adjourn: no game")?;
        if g.record.result.is_some() {
            return Err("adjourn: the game is over (save it instead)".into());
        }
        g.engine = None;
        out.send(json!({ "type": "adjourned" }));
        arm(&self.kill, None);
        self.save(out)
    }

    fn load(&mut self, m: &Map<String, Value>, out: &mut dyn Sink) -> Result<(), String> {
        let text = str_field(m, "record", "load")?;
        let record = GameRecord::from_json(text).map_err(|e| format!("load: {e}"))?;
        let (_, end) = record.replay(None).map_err(|e| format!("load: {e}"))?;
        if let Some(end) = end.or(record.result) {
            return Err(format!(
                "load: the game in the record is over ({}); load an unfinished one",
                marshal::formats::record::describe_end(&end)
            ));
        }
        let human = Color::parse(m.get("color").and_then(Value::as_str).unwrap_or("red"))
            .ok_or("load: \"color\" must be red or blue")?;
        let (variant, _, movetime) = game_options(m, "load", Some(&record.variant))?;
        let rules = record.rules;
        let mut pos = record.start(None).map_err(|e| format!("load: {e}"))?;
        let human_squares = occupied(&pos, human);
        let ec = human.flip();
        let engine_setup = if ec == Color::Red {
            &record.red_setup
        } else {
            &record.blue_setup
        };
        let mut engine = start_engine(&variant, &rules, self.rng.gen::<u32>() as u64)?;
        engine.send(&format!("setup {ec} {engine_setup}"))?;
        let mut observed: [Vec<ObservedMove>; 2] = [Vec::new(), Vec::new()];
        let mut last = Value::Null;
        for rm in &record.moves {
            let mv = Move::parse(&rm.mv).map_err(|e| format!("load: move '{}': {e}", rm.mv))?;
            let side = pos.side_to_move();
            let o = pos.make(mv);
            for c in Color::BOTH {
                observed[c.index()].push(ObservedMove::seen_by(mv, side, &o, &rules, c));
            }
            last = last_json(mv, side, &o, &observed[human.index()]);
        }
        self.watch = None;
        self.pending = None;
        arm(&self.kill, Some(&engine));
        let mut info = variant_info(&variant, human);
        info["type"] = json!("newgame");
        info["human"] = json!(human.to_string());
        info["movetime"] = json!(movetime);
        info["loaded"] = json!(true);
        out.send(info);
        self.game = Some(Game {
            rules,
            human,
            movetime,
            pos,
            record,
            observed,
            human_squares,
            engine: Some(engine),
            last,
        });
        self.play_on(out);
        Ok(())
    }

    fn set_beliefs(&mut self, m: &Map<String, Value>, out: &mut dyn Sink) -> Result<(), String> {
        let on = m
            .get("on")
            .and_then(Value::as_bool)
            .ok_or("beliefs: the \"on\" field must be true or false")?;
        self.beliefs = on;
        if let Some(g) = self.game.as_mut() {
            if on && g.record.result.is_none() && g.pos.side_to_move() == g.human {
                g.send_beliefs(out);
            }
        }
        Ok(())
    }

    fn start_watch(&mut self, m: &Map<String, Value>, out: &mut dyn Sink) -> Result<(), String> {
        let w = Watch::start(m, &self.watch_engines, self.rng.gen::<u32>() as u64, out)?;
        self.pending = None;
        self.game = None;
        arm(&self.kill, None);
        self.watch = Some(w);
        Ok(())
    }

    /// Stops whatever runs (the watchdog's verdict on a silent page).
    pub fn stop_watch(&mut self) {
        self.watch = None;
    }
}

/// Registers the engine the watchdog may kill.
fn arm(kill: &KillSlot, e: Option<&Engine>) {
    if let Ok(mut k) = kill.lock() {
        *k = e.map(Engine::handle);
    }
}

pub fn fatal(message: impl Into<String>) -> Value {
    json!({ "type": "error", "message": message.into(), "fatal": true })
}

/// The last move for the page: the squares, and for an attack the ranks as the person
/// saw them (the observed token) and who won.
fn last_json(mv: Move, mover: Color, o: &marshal::rules::MoveOutcome, observed: &[ObservedMove]) -> Value {
    json!({
        "move": mv.to_string(), "from": mv.from().to_string(), "to": mv.to().to_string(),
        "mover": mover.to_string(), "token": observed.last().map(|m| m.to_string()),
        "combat": o.combat.map(|(_, _, c)| combat_name(c)),
    })
}

impl Game {
    fn apply(&mut self, mv: Move) {
        let side = self.pos.side_to_move();
        let o = self.pos.make(mv);
        self.record.push(mv, o.combat);
        for c in Color::BOTH {
            self.observed[c.index()].push(ObservedMove::seen_by(mv, side, &o, &self.rules, c));
        }
        self.last = last_json(mv, side, &o, &self.observed[self.human.index()]);
    }

    /// Everything the page shows, from the person's view only (`protocol.md` 1.7: the
    /// engine's pieces are `?` until a combat or a Scout's run shows them).
    fn state(&self) -> Value {
        let view = self.pos.view(self.human);
        let to_move = self.pos.side_to_move();
        let legal: Vec<String> = if to_move == self.human && self.record.result.is_none() && self.engine.is_some() {
            view.legal_moves().iter().map(|m| m.to_string()).collect()
        } else {
            Vec::new()
        };
        json!({
            "type": "state", "view": view.to_text(), "human": self.human.to_string(),
            "to_move": to_move.to_string(), "ply": self.pos.ply(), "legal": legal,
            "moves": self.observed[self.human.index()].iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "last": self.last,
        })
    }

    fn engine_color(&self) -> Color {
        self.human.flip()
    }

    fn engine_position(&self) -> String {
        let ec = self.engine_color();
        PositionCmd {
            color: ec,
            setup: None,
            enemy: Some(self.human_squares.clone()),
            moves: self.observed[ec.index()].clone(),
        }
        .to_string()
    }

    /// Asks the engine for its move and plays it; its search lines go to the page as they
    /// come (without the `pv`, which could show a hidden piece's plans).
    fn engine_move(&mut self, out: &mut dyn Sink) -> Result<(), String> {
        let line = self.engine_position();
        let movetime = self.movetime;
        let e = self.engine.as_mut().ok_or("the engine has stopped")?;
        e.send(&line)?;
        e.send(&format!("go movetime {movetime}"))?;
        // The engine uses the movetime in full; the margin covers a loaded machine.
        let deadline = Instant::now() + Duration::from_millis(movetime + movetime / 2 + 2000);
        let best = loop {
            let l = e.recv(deadline)?;
            if l.starts_with("bestmove") {
                break l;
            }
            if l.starts_with("info string error") {
                return Err(format!("the engine refused a line: {l}"));
            }
            if l.starts_with("info depth") {
                out.send(search_info(&l));
            }
        };
        let text = best.split_whitespace().nth(1).unwrap_or("");
        let mv = match Move::parse(text) {
            Ok(mv) => mv,
            Err(e) => return Err(format!("the engine answered '{best}': {e}")),
        };
        if let Some(reason) = self.pos.illegal_reason(mv) {
            self.record.result = Some(GameEnd {
                winner: Some(self.human),
                reason: marshal::rules::EndReason::Forfeit,
            });
            self.record.meta.insert(
                "forfeit".into(),
                format!("{}: illegal move {mv}: {reason}", self.engine_color()),
            );
            return Ok(());
        }
        self.apply(mv);
        Ok(())
    }

    /// What the engine believes of the person's hidden pieces (`beliefs`).
    fn send_beliefs(&mut self, out: &mut dyn Sink) {
        let line = self.engine_position();
        let Some(e) = self.engine.as_mut() else { return };
        let deadline = Instant::now() + START_TIMEOUT;
        let sent = e
            .send(&line)
            .and_then(|_| e.send("beliefs"))
            .and_then(|_| e.send("isready"));
        if let Err(err) = sent {
            return out.send(error(format!("beliefs: {err}")));
        }
        let mut pieces = Vec::new();
        loop {
            match e.recv(deadline) {
                Ok(l) if l == "readyok" => break,
                Ok(l) if l.starts_with("info string error") => out.send(error(format!("beliefs: {l}"))),
                Ok(l) => {
                    let Some(rest) = l.strip_prefix("info string belief ") else {
                        continue;
                    };
                    let mut it = rest.split_whitespace();
                    let Some(square) = it.next() else { continue };
                    if square == "none" || square == "captured" {
                        continue;
                    }
                    let probs: Vec<Value> = it
                        .filter_map(|t| {
                            let (p, v) = t.split_once(':')?;
                            Some(json!([p, v.parse::<f64>().ok()?]))
                        })
                        .collect();
                    pieces.push(json!({ "square": square, "probs": probs }));
                }
                Err(err) => return out.send(error(format!("beliefs: {err}"))),
            }
        }
        out.send(json!({ "type": "beliefs", "ply": self.pos.ply(), "pieces": pieces }));
    }
}

/// `info depth 3 nodes 7821 nps 100 time 5 score -14 pv a4a5` as the page's search line,
/// without the `pv`.
fn search_info(line: &str) -> Value {
    let mut v = json!({ "type": "info" });
    let t: Vec<&str> = line.split_whitespace().collect();
    for w in t.windows(2) {
        if let ["depth" | "nodes" | "nps" | "time" | "score", n] = w {
            if let Ok(x) = n.parse::<i64>() {
                v[w[0]] = json!(x);
            }
        }
    }
    v
}
