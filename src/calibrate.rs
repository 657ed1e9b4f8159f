//! `marshal calibrate`: how well the beliefs predict the hidden ranks, measured in
//! self-play.
//!
//! Both sides are the engine's own search at a small fixed depth (so the opponent
//! behaves like the engine), each searching with its tracker's belief. Before every ply,
//! for both players and every unknown enemy piece on the board, the probability each
//! belief gives the piece's true rank is scored: log-loss (`-ln p`) and Brier score
//! (`sum over ranks of (p - [true])^2`), and whether the most likely rank is the true
//! one. Three beliefs are compared: counts only (every consistent assignment equally
//! likely: `Belief::from_view`), the setup prior with the hard constraints, and the full
//! belief (prior and behaviour). Games are independent and seeded by `--seed` and their
//! number, so the numbers do not depend on `--threads`.
//!
//! With `--records FILE...` no game is played: the recorded games (`marshal-game/1`
//! records, e.g. from `marshal convert`) are replayed instead, and the beliefs of the
//! players whose name (the record's `red_player` / `blue_player`) contains `--follow` are
//! scored (both players without it): how well the tracker reads real opponents. A game
//! still going counts as a draw in the header's tally.
//!
//! With `--setups human` the games use the held-out lines of the Gravon classic file
//! (those the prior did not learn from, see `belief::prior`): the built-in copy
//! (`crate::data`) unless `--human FILE` names another.

use crate::belief::tracker::{Action, Evidence, Kind, Observation};
use crate::belief::{prior, Belief, Tracker};
use crate::formats::record::GameRecord;
use crate::rules::piece::{resolve_combat, NUM_RANKS};
use crate::rules::{Color, Combat, Move, Position, Rank, Rules, Setup, Variant, VariantKind};
use crate::search::{think_with, Limits};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Arguments of `marshal calibrate`.
#[derive(clap::Args, Debug, Clone)]
pub struct CalibrateArgs {
    /// Self-play games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// RNG seed (setups and searches); the same seed gives the same numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Variant (classic, compact, duel, duel-compact, barrage, `custom:<board>:<army>`).
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Where the setups come from: `generated` (our generator) or `human` (held-out
    /// lines of the Gravon classic file; classic only).
    #[arg(long, default_value = "generated")]
    pub setups: String,
    /// A Gravon classic setup file for `--setups human` instead of the built-in one.
    #[arg(long)]
    pub human: Option<String>,
    /// Search depth of every move.
    #[arg(long, default_value_t = 2)]
    pub depth: u32,
    /// A node limit per move as well.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games stop (unfinished) after this many plies.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: u32,
    /// Rule options (repeatable NAME=VALUE), e.g. `--rule silent-defence=on`.
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    pub rules: Vec<String>,
    /// Games played at once (0: one per CPU); the numbers do not depend on it.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Also score a belief with these behaviour channel scales (comma list, for tuning).
    #[arg(long, hide = true)]
    pub tune: Option<String>,
    /// Also print how often unknown pieces did what next to seen pieces, by how they
    /// fare against them (the data behind the behaviour likelihoods).
    #[arg(long)]
    pub events: bool,
    /// Replay these recorded games instead of playing (`--games`, `--setups`, `--depth`
    /// and the like are then unused).
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub records: Vec<String>,
    /// With `--records`: score only the beliefs of the player whose recorded name contains
    /// this (e.g. `marshal`: how it reads its opponents).
    #[arg(long, requires = "records")]
    pub follow: Option<String>,
}

/// Summed scores of one belief.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    pub n: u64,
    pub log_loss: f64,
    pub brier: f64,
    pub top1: u64,
}

impl Score {
    fn add(&mut self, p: &[f64; NUM_RANKS], truth: Rank) {
        let t = truth.index();
        self.n += 1;
        self.log_loss -= p[t].max(1e-9).ln();
        self.brier += p
            .iter()
            .enumerate()
            .map(|(k, &x)| {
                let y = if k == t { 1.0 } else { 0.0 };
                (x - y) * (x - y)
            })
            .sum::<f64>();
        let best = (0..NUM_RANKS).fold(0, |b, k| if p[k] > p[b] { k } else { b });
        if best == t {
            self.top1 += 1;
        }
    }

    fn merge(&mut self, o: &Score) {
        self.n += o.n;
        self.log_loss += o.log_loss;
        self.brier += o.brier;
        self.top1 += o.top1;
    }

    /// Mean log-loss.
    pub fn mean_log_loss(&self) -> f64 {
        self.log_loss / self.n.max(1) as f64
    }

    /// Mean Brier score.
    pub fn mean_brier(&self) -> f64 {
        self.brier / self.n.max(1) as f64
    }

    /// Share of pieces whose most likely rank is the true one.
    pub fn accuracy(&self) -> f64 {
        self.top1 as f64 / self.n.max(1) as f64
    }
}

/// The beliefs compared, in report order.
pub const BELIEFS: [&str; 4] = ["counts-only", "prior", "full", "tuned"];
/// Game phases of the breakdown: plies before 100, 100-299, from 300.
const PHASES: [&str; 3] = ["plies 0-99", "plies 100-299", "plies 300+"];

/// Behaviour tallies: situation, how the piece fares, what it did.
type Events = std::collections::BTreeMap<(String, String, String), u64>;

/// Everything measured over some games.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    pub games: usize,
    pub plies: u64,
    /// `[belief][phase]`.
    pub scores: [[Score; 3]; 4],
    pub events: Events,
    pub results: [u64; 3],
    /// Full beliefs built and worlds sampled, and the nanoseconds they took.
    pub builds: u64,
    pub build_ns: u64,
    pub samples: u64,
    pub sample_ns: u64,
}

impl Totals {
    fn merge(&mut self, o: &Totals) {
        self.games += o.games;
        self.plies += o.plies;
        for b in 0..4 {
            for ph in 0..3 {
                self.scores[b][ph].merge(&o.scores[b][ph]);
            }
        }
        for (k, v) in &o.events {
            *self.events.entry(k.clone()).or_default() += v;
        }
        for i in 0..3 {
            self.results[i] += o.results[i];
        }
        self.builds += o.builds;
        self.build_ns += o.build_ns;
        self.samples += o.samples;
        self.sample_ns += o.sample_ns;
    }

    /// Over all phases.
    pub fn overall(&self, belief: usize) -> Score {
        let mut s = Score::default();
        for ph in &self.scores[belief] {
            s.merge(ph);
        }
        s
    }
}

/// How the games get their setups.
enum Setups {
    Generated,
    Human(Vec<Setup>),
}

/// The held-out human setups of `--human FILE`, or of the built-in classic file.
fn held_out_setups(file: Option<&str>) -> Result<Vec<Setup>, String> {
    let (path, text): (&str, std::borrow::Cow<str>) = match file {
        Some(path) => (
            path,
            std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {path}: {e}"))?
                .into(),
        ),
        None => (crate::data::CLASSIC_NAME, crate::data::classic_human_setups().into()),
    };
    let v = Variant::CLASSIC;
    let mut out = Vec::new();
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        if prior::held_out(i) {
            out.push(
                crate::formats::gravon::parse_gravon(line, &v).map_err(|e| format!("{path} line {}: {e}", i + 1))?,
            );
        }
    }
    if out.is_empty() {
        return Err(format!("{path} has no held-out setups"));
    }
    Ok(out)
}

/// A label for how X of rank `r` fares against K (`attacking`: X attacks K).
fn fare(r: Rank, k: Rank, attacking: bool, aa: bool) -> &'static str {
    if !r.is_movable() {
        return "immovable";
    }
    let c = if attacking {
        resolve_combat(r, k, aa)
    } else {
        resolve_combat(k, r, aa)
    };
    match (c, attacking) {
        (Combat::BothDie, _) => "ties",
        (Combat::AttackerWins | Combat::FlagCaptured, true) | (Combat::DefenderWins, false) => "wins",
        _ => "loses",
    }
}

fn tally(events: &mut Events, obs: &[Observation], truth: &Position, aa: bool) {
    for o in obs {
        let Some(p) = truth.piece_at(o.square) else { continue };
        let r = p.rank();
        let mut put = |sit: &str, f: &str, what: &str| {
            *events
                .entry((sit.to_string(), f.to_string(), what.to_string()))
                .or_default() += 1;
        };
        match o.kind {
            Kind::Contact {
                strongest,
                weakest,
                free,
                action,
            } => {
                let act = match action {
                    Action::Attack => "attack",
                    Action::Flee => "flee",
                    Action::Shift => "shift",
                    Action::Stay => "stay",
                };
                let sit = if free { "contact (free)" } else { "contact (blocked)" };
                put(sit, fare(r, strongest, false, aa), act);
                let attacked = if action == Action::Attack { "attack" } else { "spare" };
                put("contact vs weakest", fare(r, weakest, true, aa), attacked);
            }
            Kind::Near { target, approached } => {
                let what = if approached { "approach" } else { "not" };
                put("near", fare(r, target, true, aa), what);
            }
            Kind::Idle { moved } => {
                let what = if moved { "move" } else { "stay" };
                put("idle", &format!("{:>2}", r.to_char()), what);
            }
            Kind::Pursuit {
                target,
                nearer,
                walking,
            } => {
                let sit = if walking { "pursuit (walking)" } else { "pursuit" };
                put(sit, fare(r, target, true, aa), if nearer { "nearer" } else { "away" });
            }
        }
    }
}

/// The tuned belief's evidence (`--tune`) and how many beliefs are scored.
fn tuned_evidence(a: &CalibrateArgs) -> (Evidence, usize) {
    let mut tuned = Evidence::FULL;
    match &a.tune {
        Some(t) => {
            let xs: Vec<f32> = t.split(',').filter_map(|x| x.trim().parse().ok()).collect();
            for (i, x) in xs.iter().enumerate().take(tuned.behaviour.len()) {
                tuned.behaviour[i] = *x;
            }
            (tuned, 4)
        }
        None => (tuned, 3),
    }
}

/// Scores the first `rows` beliefs of `BELIEFS` that `tr` holds in `view` (`full` already
/// built) against the true ranks of `pos`.
fn score_beliefs(
    t: &mut Totals,
    pos: &Position,
    view: &Position,
    tr: &Tracker,
    full: &Belief,
    tuned: Evidence,
    rows: usize,
) {
    let phase = match pos.ply() {
        0..=99 => 0,
        100..=299 => 1,
        _ => 2,
    };
    let (counts, prior) = (Belief::from_view(view), tr.belief_with(view, Evidence::PRIOR));
    let tuned = (rows > 3).then(|| tr.belief_with(view, tuned));
    let beliefs = [Some(&counts), Some(&prior), Some(full), tuned.as_ref()];
    for (b, belief) in beliefs.iter().enumerate().take(rows) {
        let Some(belief) = belief else { continue };
        for (sq, p) in belief.marginals() {
            let Some(sq) = sq else { continue };
            if let Some(truth) = pos.piece_at(sq) {
                t.scores[b][phase].add(&p, truth.rank());
            }
        }
    }
}

/// Plays `mv` on `pos`, both players' trackers looking on (`views`: theirs before it).
fn play_observed(trackers: &mut [Tracker; 2], views: &[Position; 2], pos: &mut Position, mv: Move) {
    let pending = [trackers[0].prepare(&views[0], mv), trackers[1].prepare(&views[1], mv)];
    pos.make(mv);
    for (c, p) in Color::BOTH.into_iter().zip(pending) {
        trackers[c.index()].commit(p, &pos.view(c));
    }
}

/// Counts how the game in `pos` ended (red, draw or still going, blue).
fn count_result(t: &mut Totals, pos: &Position) {
    let k = match pos.game_end().and_then(|e| e.winner) {
        Some(Color::Red) => 0,
        Some(Color::Blue) => 2,
        None => 1,
    };
    t.results[k] += 1;
}

/// Replays the recorded game in `path` and scores the beliefs of the followed players
/// (`--follow`) before every ply.
fn replay_game(path: &str, a: &CalibrateArgs) -> Result<Totals, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    let rec = GameRecord::from_json(&text).map_err(|e| format!("'{path}': {e}"))?;
    let mut pos = rec.start(None).map_err(|e| format!("'{path}': {e}"))?;
    // Names: `red_player` / `blue_player` (converted logs), `red` / `blue` (match records).
    let followed = Color::BOTH.map(|c| {
        let keys = if c == Color::Red {
            ["red_player", "red"]
        } else {
            ["blue_player", "blue"]
        };
        a.follow.as_deref().is_none_or(|f| {
            keys.iter()
                .any(|k| rec.meta.get(*k).is_some_and(|name| name.contains(f)))
        })
    });
    if !followed.contains(&true) {
        return Err(format!(
            "'{path}': no player's name contains '{}'",
            a.follow.as_deref().unwrap_or_default()
        ));
    }
    let mut trackers = [
        Tracker::new(&pos.view(Color::Red)),
        Tracker::new(&pos.view(Color::Blue)),
    ];
    let mut t = Totals {
        games: 1,
        ..Totals::default()
    };
    let aa = pos.rules().attacker_advantage;
    let (tuned, rows) = tuned_evidence(a);
    for (i, rm) in rec.moves.iter().enumerate() {
        let bad = |e: String| format!("'{path}': move {} ({}): {e}", i + 1, rm.mv);
        let mv = Move::parse(&rm.mv).map_err(bad)?;
        if let Some(reason) = pos.illegal_reason(mv) {
            return Err(bad(reason));
        }
        let views = [pos.view(Color::Red), pos.view(Color::Blue)];
        for c in Color::BOTH.into_iter().filter(|c| followed[c.index()]) {
            let (view, tr) = (&views[c.index()], &trackers[c.index()]);
            score_beliefs(&mut t, &pos, view, tr, &tr.belief(view), tuned, rows);
            if a.events && c != pos.side_to_move() {
                tally(&mut t.events, &tr.observations(view, mv), &pos, aa);
            }
        }
        play_observed(&mut trackers, &views, &mut pos, mv);
        t.plies += 1;
    }
    count_result(&mut t, &pos);
    Ok(t)
}

/// Plays game `g` and scores the beliefs of both players before every ply.
fn play_game(g: usize, a: &CalibrateArgs, v: &Variant, rules: Rules, setups: &Setups) -> Result<Totals, String> {
    let mut rng = StdRng::seed_from_u64(
        a.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (g as u64).wrapping_mul(0xd1b5_4a32_d192_ed03),
    );
    let (red, blue) = match setups {
        Setups::Generated => (crate::setup::generate(v, &mut rng), crate::setup::generate(v, &mut rng)),
        Setups::Human(list) => {
            let n = list.len();
            let off = (a.seed as usize).wrapping_mul(7919) % n;
            (list[(off + 2 * g) % n].clone(), list[(off + 2 * g + 1) % n].clone())
        }
    };
    let mut pos = Position::from_setups(*v, rules, &red, &blue).map_err(|e| e.0)?;
    let mut trackers = [
        Tracker::new(&pos.view(Color::Red)),
        Tracker::new(&pos.view(Color::Blue)),
    ];
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(a.depth.max(1)),
        nodes: a.nodes,
        ..Limits::default()
    };
    let mut t = Totals {
        games: 1,
        ..Totals::default()
    };
    let aa = rules.attacker_advantage;
    let (tuned, rows) = tuned_evidence(a);
    let search_seed = rng.gen::<u64>();
    loop {
        if pos.game_end().is_some() || pos.ply() >= a.max_plies {
            break;
        }
        let side = pos.side_to_move();
        let views = [pos.view(Color::Red), pos.view(Color::Blue)];
        let mut search_belief = None;
        for c in Color::BOTH {
            let view = &views[c.index()];
            let tr = &trackers[c.index()];
            let clock = Instant::now();
            let full = tr.belief(view);
            t.build_ns += clock.elapsed().as_nanos() as u64;
            t.builds += 1;
            if full.has_hidden() {
                let clock = Instant::now();
                let world = full.sample_position(view, &mut rng);
                t.sample_ns += clock.elapsed().as_nanos() as u64;
                t.samples += 1;
                if world.is_none() {
                    return Err(format!("no world fits {}'s view at ply {}", c, pos.ply()));
                }
            }
            score_beliefs(&mut t, &pos, view, tr, &full, tuned, rows);
            if c == side {
                search_belief = Some(full);
            }
        }
        let belief = search_belief.ok_or("no belief for the side to move")?;
        let seed = search_seed ^ pos.ply() as u64;
        let res = think_with(
            &views[side.index()],
            &belief,
            None,
            &limits,
            Instant::now(),
            &stop,
            seed,
            &mut |_| {},
        );
        let Some(mv) = res.best else { break };
        if a.events {
            let them = side.flip();
            let obs = trackers[them.index()].observations(&views[them.index()], mv);
            tally(&mut t.events, &obs, &pos, aa);
        }
        play_observed(&mut trackers, &views, &mut pos, mv);
        t.plies += 1;
    }
    count_result(&mut t, &pos);
    Ok(t)
}

/// Plays the games (on `threads` threads) and sums their scores in game order.
pub fn measure(a: &CalibrateArgs) -> Result<Totals, String> {
    if !a.records.is_empty() {
        let mut total = Totals::default();
        for path in &a.records {
            total.merge(&replay_game(path, a)?);
        }
        return Ok(total);
    }
    let v = Variant::parse(&a.variant).map_err(|e| e.0)?;
    let mut rules = Rules::default();
    for item in &a.rules {
        let (k, val) = item
            .split_once('=')
            .ok_or_else(|| format!("rule option '{item}' is not NAME=VALUE"))?;
        rules.set(k, val).map_err(|e| e.0)?;
    }
    let setups = match a.setups.as_str() {
        "generated" => Setups::Generated,
        "human" => {
            if v.kind != VariantKind::Classic {
                return Err(format!("--setups human needs classic, not {}", v.name()));
            }
            Setups::Human(held_out_setups(a.human.as_deref())?)
        }
        other => return Err(format!("--setups '{other}' is not generated or human")),
    };
    let threads = if a.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        a.threads
    }
    .clamp(1, a.games.max(1));
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Option<Result<Totals, String>>>> = Mutex::new(vec![None; a.games]);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= a.games {
                    break;
                }
                let r = play_game(g, a, &v, rules, &setups);
                if let Ok(mut d) = done.lock() {
                    d[g] = Some(r);
                }
            });
        }
    });
    let done = done.into_inner().map_err(|_| "a game thread panicked".to_string())?;
    let mut total = Totals::default();
    for (g, r) in done.into_iter().enumerate() {
        match r {
            Some(Ok(t)) => total.merge(&t),
            Some(Err(e)) => return Err(format!("game {g}: {e}")),
            None => return Err(format!("game {g} did not finish")),
        }
    }
    Ok(total)
}

/// Runs `marshal calibrate` and prints the report to `out`; `Ok(true)` on success.
pub fn run(a: &CalibrateArgs, out: &mut dyn Write) -> Result<bool, String> {
    let start = Instant::now();
    let t = measure(a)?;
    let w = |out: &mut dyn Write, s: String| writeln!(out, "{s}").map_err(|e| format!("cannot write: {e}"));
    let setups = if a.setups == "human" {
        "held-out human setups"
    } else {
        "generated setups"
    };
    let limit = match a.nodes {
        Some(n) => format!("depth {} or {n} nodes", a.depth),
        None => format!("depth {}", a.depth),
    };
    let head = if a.records.is_empty() {
        format!(
            "calibrate {} games of {} ({setups}), seed {}, search {limit}, at most {} plies",
            t.games, a.variant, a.seed, a.max_plies
        )
    } else {
        format!(
            "calibrate {} recorded games, beliefs of {}",
            t.games,
            a.follow
                .as_ref()
                .map_or("both players".to_string(), |f| format!("the players named *{f}*"))
        )
    };
    w(out, head)?;
    w(
        out,
        format!(
            "games red/draw/blue {}/{}/{} | plies {} | scored (ply, unknown piece) pairs {} | {:.1} s",
            t.results[0],
            t.results[1],
            t.results[2],
            t.plies,
            t.overall(0).n,
            start.elapsed().as_secs_f64()
        ),
    )?;
    if a.records.is_empty() {
        w(
            out,
            format!(
                "speed: full belief built in {:.0} us, one world sampled in {:.0} us (means)",
                t.build_ns as f64 / t.builds.max(1) as f64 / 1000.0,
                t.sample_ns as f64 / t.samples.max(1) as f64 / 1000.0
            ),
        )?;
    }
    w(
        out,
        format!("{:<12} {:>9} {:>7} {:>9}", "belief", "log-loss", "brier", "top-1"),
    )?;
    let shown = if a.tune.is_some() { 4 } else { 3 };
    for (b, name) in BELIEFS.iter().enumerate().take(shown) {
        let s = t.overall(b);
        w(
            out,
            format!(
                "{name:<12} {:>9.4} {:>7.4} {:>8.1}%",
                s.mean_log_loss(),
                s.mean_brier(),
                100.0 * s.accuracy()
            ),
        )?;
    }
    for (ph, pname) in PHASES.iter().enumerate() {
        let parts: Vec<String> = BELIEFS
            .iter()
            .enumerate()
            .take(shown)
            .map(|(b, name)| {
                let s = &t.scores[b][ph];
                format!("{name} {:.4}/{:.4}", s.mean_log_loss(), s.mean_brier())
            })
            .collect();
        w(
            out,
            format!(
                "  {pname} ({} pairs) log-loss/brier: {}",
                t.scores[0][ph].n,
                parts.join(", ")
            ),
        )?;
    }
    if a.events {
        w(
            out,
            "events: situation | how the piece fares | what it did | count".to_string(),
        )?;
        for ((sit, f, what), n) in &t.events {
            w(out, format!("  {sit} | {f} | {what} | {n}"))?;
        }
    }
    Ok(true)
}
