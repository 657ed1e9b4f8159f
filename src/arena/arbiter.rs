//! The arbiter: holds the true game, gives each player only what its side may know,
//! and adjudicates everything (rules, forfeits, caps); and the match loop around it.

use super::player::make_player;
use super::stats::{summary, Score, Sprt, SprtStatus};
use crate::formats::{record::describe_end, GameRecord};
use crate::player::{Clock, Fault, GameStart, Player};
use crate::rules::view::{occupied, ObservedMove};
use crate::rules::{Color, EndReason, GameEnd, Position, Rules, Setup, Variant};
use crossbeam_channel::unbounded;
use rand::{rngs::StdRng, SeedableRng};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Plays one game between `players[0]` (Red) and `players[1]` (Blue) from the given setups
/// (a player that brings its own setup plays that instead). A player's fault ends the game
/// as a forfeit (recorded with its reason). `names` name the players to each other.
pub fn play_game(
    players: &mut [Box<dyn Player>; 2],
    names: [&str; 2],
    variant: Variant,
    rules: Rules,
    setups: [&Setup; 2],
    time: GameTime,
    seed: u64,
) -> GameRecord {
    let GameTime { tc, margin_ms } = time;
    let forfeit = |record: &mut GameRecord, loser: Color, fault: Fault| {
        let reason = match fault {
            Fault::Resigned(_) => EndReason::Resignation,
            _ => EndReason::Forfeit,
        };
        record.result = Some(GameEnd {
            winner: Some(loser.flip()),
            reason,
        });
        record.meta.insert("forfeit".into(), format!("{loser}: {fault}"));
    };
    let mut own: [Option<Setup>; 2] = [None, None];
    for c in Color::BOTH {
        match players[c.index()].own_setup(&variant, c, names[c.flip().index()]) {
            Ok(s) => own[c.index()] = s,
            Err(f) => {
                // The setups so far: a faulty player's own is unknown (or unusable).
                let red = own[0].as_ref().unwrap_or(setups[0]);
                let mut record = GameRecord::new(&variant, rules, red, setups[1]);
                forfeit(&mut record, c, f);
                players.iter_mut().for_each(|p| p.finish());
                return record;
            }
        }
    }
    let setups = [0, 1].map(|i| own[i].as_ref().unwrap_or(setups[i]));
    let mut record = GameRecord::new(&variant, rules, setups[0], setups[1]);
    let mut pos = match Position::from_setups(variant, rules, setups[0], setups[1]) {
        Ok(p) => p,
        Err(e) => {
            record.meta.insert("error".into(), e.0);
            return record;
        }
    };
    for c in Color::BOTH {
        let start = GameStart {
            variant,
            rules,
            color: c,
            setup: setups[c.index()].clone(),
            enemy_squares: occupied(&pos, c.flip()),
            seed: seed.wrapping_add(c as u64),
        };
        if let Err(f) = players[c.index()].start(&start) {
            forfeit(&mut record, c, f);
            players.iter_mut().for_each(|p| p.finish());
            return record;
        }
    }
    let mut observed: [Vec<ObservedMove>; 2] = [Vec::new(), Vec::new()];
    let mut clocks = tc.map(|t| match t {
        TimeControl::Clock { base_ms, .. } => base_ms,
        TimeControl::Movetime(_) => 0,
    });
    loop {
        if let Some(end) = pos.game_end() {
            record.result = Some(end);
            break;
        }
        let side = pos.side_to_move();
        let view = pos.view(side);
        let clock = match tc[side.index()] {
            TimeControl::Movetime(ms) => Clock::Movetime { ms, margin: margin_ms },
            TimeControl::Clock { inc_ms, .. } => Clock::Clocks {
                red: clocks[0],
                blue: clocks[1],
                inc: inc_ms,
                margin: margin_ms,
            },
        };
        let asked = std::time::Instant::now();
        let chosen = players[side.index()].choose(&view, &observed[side.index()], clock);
        if let TimeControl::Clock { inc_ms, .. } = tc[side.index()] {
            // The arbiter's clock decides: a flag fall is a time forfeit.
            let used = asked.elapsed().as_millis() as u64;
            let left = &mut clocks[side.index()];
            if chosen.is_ok() && used > *left {
                forfeit(
                    &mut record,
                    side,
                    Fault::Timeout(format!("clock ran out ({used} ms used, {left} ms left)")),
                );
                break;
            }
            *left = left.saturating_sub(used) + inc_ms;
        }
        let mv = match chosen {
            Ok(m) => m,
            Err(f) => {
                forfeit(&mut record, side, f);
                break;
            }
        };
        if let Some(reason) = pos.illegal_reason(mv) {
            forfeit(&mut record, side, Fault::Illegal(format!("{mv}: {reason}")));
            break;
        }
        let out = pos.make(mv);
        record.push(mv, out.combat);
        for c in Color::BOTH {
            observed[c.index()].push(ObservedMove::seen_by(mv, side, &out, &rules, c));
        }
    }
    players.iter_mut().for_each(|p| p.finish());
    record
}

/// The time of one game: each colour's time control (Red's first), and how late (ms) past
/// it an answer may come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameTime {
    pub tc: [TimeControl; 2],
    pub margin_ms: u64,
}

/// Time for the players: a fixed time per move, or a clock per side (base + increment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    Movetime(u64),
    Clock { base_ms: u64, inc_ms: u64 },
}

impl TimeControl {
    /// Parses `--movetime` and `--tc`: one time control for both engines, or one each
    /// separated by a comma (in `--engine` order): `100`, `1000,300`; `10+0.1`, `60,20+0.2`.
    pub fn parse_pair(movetime: &str, tc: Option<&str>) -> Result<[TimeControl; 2], String> {
        let one = |s: &str| -> Result<TimeControl, String> {
            match tc {
                Some(_) => TimeControl::parse_tc(s),
                None => s
                    .trim()
                    .parse::<u64>()
                    .map(TimeControl::Movetime)
                    .map_err(|_| format!("--movetime '{s}' is not a whole number of milliseconds")),
            }
        };
        let text = tc.unwrap_or(movetime);
        let parts: Vec<&str> = text.split(',').collect();
        match parts.as_slice() {
            [both] => Ok([one(both)?; 2]),
            [a, b] => Ok([one(a)?, one(b)?]),
            _ => Err(format!(
                "{} '{text}': give one time control, or two separated by a comma (one per --engine)",
                if tc.is_some() { "--tc" } else { "--movetime" }
            )),
        }
    }

    /// Parses `--tc` as `BASE+INC` in seconds (`10+0.1`, `60`).
    pub fn parse_tc(s: &str) -> Result<TimeControl, String> {
        let (b, i) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |t: &str| -> Result<u64, String> {
            t.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e7)
                .map(|v| (v * 1000.0).round() as u64)
                .ok_or_else(|| format!("--tc '{s}': '{t}' is not a number of seconds"))
        };
        let base_ms = secs(b)?;
        if base_ms == 0 {
            return Err(format!("--tc '{s}': the base time must be positive"));
        }
        Ok(TimeControl::Clock {
            base_ms,
            inc_ms: secs(i)?,
        })
    }
}

/// A match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two players (`builtin:random`, `builtin:greedy`, or a command).
    pub engines: [String; 2],
    pub games: usize,
    /// Each engine's time control (in the order of `engines`), as cutechess gives one per
    /// engine.
    pub tc: [TimeControl; 2],
    /// How late (ms) past its time an answer may come before it is a time forfeit.
    pub margin_ms: u64,
    pub variant: Variant,
    pub rules: Rules,
    pub concurrency: usize,
    pub seed: u64,
    pub sprt: Option<Sprt>,
    /// Play only the pairs `k` with `k % shard.1 == shard.0` (a disjoint part of a match).
    pub shard: (usize, usize),
    /// Games already played (when resuming); they are not played again.
    pub done: std::collections::BTreeSet<usize>,
    /// Also write each game as Gravon XML into this folder.
    pub gravon_dir: Option<std::path::PathBuf>,
}

impl MatchConfig {
    /// The game indices this run plays, in order.
    pub fn schedule(&self) -> Vec<usize> {
        let (idx, n) = (self.shard.0, self.shard.1.max(1));
        (0..self.games)
            .filter(|i| (i / 2) % n == idx && !self.done.contains(i))
            .collect()
    }
}

/// The setups of pair `k` (both games of a pair use them, with colours swapped).
pub fn pair_setups(variant: &Variant, seed: u64, k: usize) -> [Setup; 2] {
    let mut rng = StdRng::seed_from_u64(seed ^ (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let a = crate::setup::generate(variant, &mut rng);
    let b = crate::setup::generate(variant, &mut rng);
    [a, b]
}

/// Which engine (0 or 1) plays Red in game `i`: the first in even games.
pub fn red_engine(i: usize) -> usize {
    i % 2
}

/// Adds game `i`'s result to `score` (from engine 0's side).
pub fn count_result(score: &mut Score, i: usize, record: &GameRecord) {
    let red = red_engine(i);
    match record.result.and_then(|r| r.winner) {
        None => score.draws += 1,
        Some(c) => {
            let winner_engine = if c == Color::Red { red } else { 1 - red };
            if winner_engine == 0 {
                score.wins += 1;
            } else {
                score.losses += 1;
            }
        }
    }
}

/// The score (from the first engine's side) of match records, which name their game
/// index and players in `meta`; `None` if a record lacks them.
pub fn score_records(records: &[GameRecord]) -> Option<(Score, [String; 2])> {
    let first = records.iter().find_map(|r| {
        let g: usize = r.meta.get("game")?.parse().ok()?;
        let red = r.meta.get("red")?.clone();
        let blue = r.meta.get("blue")?.clone();
        Some(if red_engine(g) == 0 { [red, blue] } else { [blue, red] })
    })?;
    let mut score = Score::default();
    for r in records {
        let g: usize = r.meta.get("game")?.parse().ok()?;
        count_result(&mut score, g, r);
    }
    Some((score, first))
}

/// Runs a match: games on `concurrency` threads, a progress line per game (and warnings)
/// to `report`, each game record as one JSON line on `out`. `score` holds earlier results
/// (resume). Returns the score from engine 0's side.
pub fn run_match(
    cfg: &MatchConfig,
    mut out: Option<&mut dyn Write>,
    mut score: Score,
    report: &mut dyn FnMut(&str),
) -> Score {
    let schedule = Arc::new(cfg.schedule());
    let total = schedule.len();
    let next = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (tx, rx) = unbounded::<(usize, GameRecord)>();
    let mut workers = Vec::new();
    for _ in 0..cfg.concurrency.max(1) {
        let (next, stop, tx, cfg) = (Arc::clone(&next), Arc::clone(&stop), tx.clone(), cfg.clone());
        let schedule = Arc::clone(&schedule);
        workers.push(std::thread::spawn(move || loop {
            let k = next.fetch_add(1, Ordering::SeqCst);
            if k >= schedule.len() || stop.load(Ordering::SeqCst) {
                return;
            }
            let i = schedule[k];
            let setups = pair_setups(&cfg.variant, cfg.seed, i / 2);
            let red = red_engine(i);
            let mut players = [make_player(&cfg.engines[red]), make_player(&cfg.engines[1 - red])];
            let mut rec = play_game(
                &mut players,
                [&cfg.engines[red], &cfg.engines[1 - red]],
                cfg.variant,
                cfg.rules,
                [&setups[0], &setups[1]],
                GameTime {
                    tc: [cfg.tc[red], cfg.tc[1 - red]],
                    margin_ms: cfg.margin_ms,
                },
                cfg.seed.wrapping_add(i as u64),
            );
            rec.meta.insert("game".into(), i.to_string());
            rec.meta.insert("red".into(), cfg.engines[red].clone());
            rec.meta.insert("blue".into(), cfg.engines[1 - red].clone());
            if tx.send((i, rec)).is_err() {
                return;
            }
        }));
    }
    drop(tx);
    let mut done = 0;
    for (i, rec) in rx.iter() {
        done += 1;
        count_result(&mut score, i, &rec);
        if let Some(w) = out.as_deref_mut() {
            let line = serde_json::to_string(&rec).unwrap_or_default();
            let _ = writeln!(w, "{line}");
            let _ = w.flush();
        }
        if let Some(dir) = &cfg.gravon_dir {
            match crate::formats::gravon::write(&rec) {
                Ok(xml) => {
                    if let Err(e) = std::fs::write(dir.join(format!("game-{i}.xml")), xml) {
                        report(&format!("warning: game {i}: cannot write Gravon file: {e}"));
                    }
                }
                Err(e) => report(&format!("warning: game {i}: no Gravon file: {e}")),
            }
        }
        let result = rec
            .result
            .map(|e| describe_end(&e))
            .unwrap_or_else(|| "unfinished".into());
        let detail = rec.meta.get("forfeit").map(|f| format!(" [{f}]")).unwrap_or_default();
        let line = summary(&score, cfg.sprt.as_ref()).replace('\n', " | ");
        report(&format!(
            "game {done}/{total} (#{i}, {} red vs {} blue): {result} after {} plies{detail} | {line}",
            rec.meta.get("red").map(String::as_str).unwrap_or("?"),
            rec.meta.get("blue").map(String::as_str).unwrap_or("?"),
            rec.moves.len()
        ));
        if let Some(s) = &cfg.sprt {
            if s.status(&score) != SprtStatus::Continue {
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
    for w in workers {
        let _ = w.join();
    }
    score
}
