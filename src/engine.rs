//! The engine loop: owns the options, the game as the engine sees it and the search
//! thread; reads commands, is the only writer of stdout.

use crate::belief::{Belief, Tracker};
use crate::protocol::{Command, GoParams, ObservedMove, PositionCmd, COMMANDS};
use crate::rules::{
    piece::resolve_combat, position::MOVED, Color, Combat, Piece, Position, Rank, Rules, Setup, Square, Variant,
};
use crate::search::controller::{Job, Report, SearchThread};
use crate::search::{Info, Limits};
use crossbeam_channel::{select, unbounded};
use rand::{rngs::StdRng, SeedableRng};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Engine options set with `setoption`.
#[derive(Clone, Debug)]
pub struct Options {
    pub variant: Variant,
    pub rules: Rules,
    pub seed: u64,
    pub threads: u32,
    pub move_overhead: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Variant::CLASSIC,
            rules: Rules::default(),
            seed: 0,
            threads: 1,
            move_overhead: 30,
        }
    }
}

/// Most search threads (the sampled worlds are shared among them).
const MAX_THREADS: u32 = 8;

/// The `option` lines of the handshake: name, type, default, bounds.
const OPTION_LINES: &[&str] = &[
    "option name Variant type string default classic",
    "option name TwoSquares type spin default 3 min 0 max 12",
    "option name MoreSquares type check default true",
    "option name AttackerAdvantage type check default false",
    "option name SilentDefence type check default false",
    "option name Rescue type check default false",
    "option name MaxPlies type spin default 4000 min 0 max 1000000",
    "option name MaxQuietPlies type spin default 200 min 0 max 1000000",
    "option name Seed type spin default 0 min 0 max 9223372036854775807",
    "option name Threads type spin default 1 min 1 max 8",
    "option name MoveOverhead type spin default 30 min 0 max 5000",
];

fn parse_bool(name: &str, v: &str) -> Result<bool, String> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" => Ok(true),
        "false" | "off" => Ok(false),
        _ => Err(format!("setoption {name}: '{v}' is not true or false")),
    }
}

fn parse_spin(name: &str, v: &str, max: u64) -> Result<u64, String> {
    v.parse::<u64>()
        .ok()
        .filter(|&n| n <= max)
        .ok_or_else(|| format!("setoption {name}: '{v}' is not a number in 0..{max}"))
}

impl Options {
    /// The options after `setoption name value`, or why that is rejected.
    pub fn with(&self, name: &str, value: &str) -> Result<Options, String> {
        let mut o = self.clone();
        let key: String = name
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '_' && *c != '-')
            .collect();
        match key.to_ascii_lowercase().as_str() {
            "variant" => o.variant = Variant::parse(value).map_err(|e| format!("setoption Variant: {e}"))?,
            "twosquares" => {
                let n = parse_spin(name, value, 12)?;
                o.rules.two_squares = if n == 0 { None } else { Some(n as u8) };
            }
            "moresquares" => o.rules.more_squares = parse_bool(name, value)?,
            "attackeradvantage" => o.rules.attacker_advantage = parse_bool(name, value)?,
            "silentdefence" | "silentdefense" => o.rules.silent_defence = parse_bool(name, value)?,
            "rescue" => o.rules.rescue = parse_bool(name, value)?,
            "maxplies" => {
                let n = parse_spin(name, value, 1_000_000)?;
                o.rules.max_plies = if n == 0 { None } else { Some(n as u32) };
            }
            "maxquietplies" => {
                let n = parse_spin(name, value, 1_000_000)?;
                o.rules.max_quiet_plies = if n == 0 { None } else { Some(n as u32) };
            }
            "seed" => o.seed = parse_spin(name, value, i64::MAX as u64)?,
            "threads" => {
                o.threads = match value.parse::<u32>() {
                    Ok(n @ 1..=MAX_THREADS) => n,
                    _ => {
                        return Err(format!(
                            "setoption {name}: '{value}' is not a whole number from 1 to {MAX_THREADS}"
                        ))
                    }
                }
            }
            "moveoverhead" => o.move_overhead = parse_spin(name, value, 5000)?,
            _ => return Err(format!("setoption: unknown option '{name}'")),
        }
        Ok(o)
    }
}

/// The engine's side of the game: its colour and setup, and its view once the enemy's
/// placement is known, with what it remembers of every enemy piece.
#[derive(Clone, Debug)]
struct Game {
    color: Color,
    setup: Setup,
    view: Option<Position>,
    tracker: Option<Tracker>,
}

impl Game {
    /// What the engine believes of the hidden enemy ranks in `view` (its current view).
    fn belief(&self, view: &Position) -> Belief {
        match &self.tracker {
            Some(t) => t.belief(view),
            None => Belief::from_view(view),
        }
    }
}

/// The protocol engine.
pub struct Engine<W: Write> {
    out: W,
    opts: Options,
    game: Option<Game>,
    search: SearchThread,
    /// The id of the running search, if any.
    searching: Option<u64>,
    /// Whether the running search is `go infinite`.
    infinite: bool,
    next_id: u64,
    /// Setups generated so far (varies the generator's seed between games).
    setups_made: u64,
}

impl<W: Write> Engine<W> {
    pub fn new(out: W, stop: Arc<AtomicBool>) -> Engine<W> {
        Engine {
            out,
            opts: Options::default(),
            game: None,
            search: SearchThread::spawn(stop),
            searching: None,
            infinite: false,
            next_id: 1,
            setups_made: 0,
        }
    }

    /// The options and the game as text (for tests: compare before and after a line).
    pub fn snapshot(&self) -> String {
        let game = match &self.game {
            None => "no game".to_string(),
            Some(g) => format!(
                "{} {} {}",
                g.color,
                g.setup,
                g.view.as_ref().map_or("-".to_string(), |v| v.to_text())
            ),
        };
        format!("{:?}\n{game}", self.opts)
    }

    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    fn error(&mut self, msg: &str) {
        self.say(&format!("info string error {msg}"));
    }

    /// Handles one input line read at `at`; returns false on `quit`.
    pub fn handle_line(&mut self, line: &str, at: Instant) -> bool {
        tracing::debug!(target: "marshal::input", "{line}");
        match line.parse::<Command>() {
            Ok(cmd) => self.handle(cmd, at),
            Err(e) => {
                tracing::info!("rejected '{line}': {e}");
                self.error(&e);
                true
            }
        }
    }

    /// Stops a running search and waits for its `bestmove`.
    fn halt_search(&mut self) {
        if self.searching.is_none() {
            return;
        }
        self.search.stop();
        let rx = self.search.reports().clone();
        while self.searching.is_some() {
            match rx.recv() {
                Ok(r) => self.on_report(r),
                Err(_) => self.searching = None,
            }
        }
    }

    /// At the end of input: lets a running search finish (a scripted session's last `go`
    /// gets its full time), stopping only an infinite one.
    pub fn finish(&mut self) {
        if self.infinite {
            self.halt_search();
            return;
        }
        let rx = self.search.reports().clone();
        while self.searching.is_some() {
            match rx.recv() {
                Ok(r) => self.on_report(r),
                Err(_) => self.searching = None,
            }
        }
    }

    /// Prints a search report.
    pub fn on_report(&mut self, report: Report) {
        match report {
            Report::Info { id, info } if Some(id) == self.searching => self.print_info(&info),
            Report::Done { id, result } if Some(id) == self.searching => {
                self.searching = None;
                tracing::info!(
                    "search {id}: best {:?} depth {} nodes {} time {} ms score {}",
                    result.best.map(|m| m.to_string()),
                    result.info.depth,
                    result.info.nodes,
                    result.info.time_ms,
                    result.info.score
                );
                match result.best {
                    Some(m) => self.say(&format!("bestmove {m}")),
                    None => self.say("bestmove none"),
                }
            }
            _ => {}
        }
    }

    fn print_info(&mut self, info: &Info) {
        let nps = (info.nodes * 1000).checked_div(info.time_ms).unwrap_or(0);
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        let mut line = format!(
            "info depth {} nodes {} nps {} time {} score {}",
            info.depth, info.nodes, nps, info.time_ms, info.score
        );
        if !pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&pv.join(" "));
        }
        self.say(&line);
    }

    fn handle(&mut self, cmd: Command, at: Instant) -> bool {
        match cmd {
            Command::Nothing => {}
            Command::Stratego => {
                self.say(&format!("id name Marshal {}", env!("CARGO_PKG_VERSION")));
                self.say("id author the Marshal developers");
                for l in OPTION_LINES {
                    self.say(l);
                }
                self.say("strategook");
            }
            Command::IsReady => self.say("readyok"),
            Command::Help => {
                self.say(&format!("info string commands: {}", COMMANDS.join(" ")));
                self.say("info string see protocol.md for their arguments");
            }
            Command::SetOption { name, value } => match self.opts.with(&name, &value) {
                Ok(o) => {
                    self.halt_search();
                    let variant_changed = o.variant != self.opts.variant;
                    self.opts = o;
                    if variant_changed {
                        self.game = None;
                    } else if let Some(v) = self.game.as_mut().and_then(|g| g.view.as_mut()) {
                        v.set_rules(self.opts.rules);
                    }
                }
                Err(e) => self.error(&e),
            },
            Command::NewGame => {
                self.halt_search();
                self.game = None;
            }
            Command::Setup { color, setup } => {
                let v = self.opts.variant;
                // The belief prior of a variant without human data is counted from generated
                // setups on first use: here, before the timed `position` and `go`.
                crate::belief::prior::Prior::for_variant(&v);
                let chosen = match setup {
                    Some(text) => match Setup::parse(&text, &v) {
                        Ok(s) => s,
                        Err(e) => {
                            self.error(&format!("setup: {e}"));
                            return true;
                        }
                    },
                    None => {
                        let mut rng = StdRng::seed_from_u64(
                            self.opts.seed ^ self.setups_made.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ color as u64,
                        );
                        self.setups_made += 1;
                        let s = crate::setup::generate(&v, &mut rng);
                        self.say(&format!("setup {} {}", color, s));
                        s
                    }
                };
                self.halt_search();
                let (view, tracker) = match v.fills_zone() {
                    true => build_view(&self.opts, color, &chosen, None, &[]).ok().unzip(),
                    false => (None, None),
                };
                self.game = Some(Game {
                    color,
                    setup: chosen,
                    view,
                    tracker,
                });
            }
            Command::Position(pc) => match self.position(&pc) {
                Ok(game) => {
                    self.halt_search();
                    self.game = Some(game);
                }
                Err(e) => self.error(&format!("position: {e}")),
            },
            Command::Reveal { square, rank } => {
                let Some(view) = self.game.as_ref().and_then(|g| g.view.as_ref()) else {
                    let why = self.no_view_reason();
                    self.error(&format!("reveal: {why}"));
                    return true;
                };
                let mut v = view.clone();
                match v.reveal(square, rank) {
                    Ok(()) => {
                        self.halt_search();
                        if let Some(g) = self.game.as_mut() {
                            g.view = Some(v);
                        }
                    }
                    Err(e) => self.error(&format!("reveal {square} {}: {e}", rank.to_char())),
                }
            }
            Command::Go(p) => self.go(&p, at),
            Command::Stop => {
                if self.searching.is_some() {
                    self.search.stop();
                }
            }
            Command::Quit => {
                self.halt_search();
                return false;
            }
            Command::Display => self.display(),
            Command::Beliefs => self.beliefs(),
            Command::Perft { depth } => {
                let Some(view) = self.game.as_ref().and_then(|g| g.view.as_ref()) else {
                    let why = self.no_view_reason();
                    self.error(&format!("perft: {why}"));
                    return true;
                };
                let mut v = view.clone();
                self.halt_search();
                let t = Instant::now();
                let divide = v.perft_divide(depth);
                let total: u64 = divide.iter().map(|d| d.1).sum();
                for (m, n) in divide {
                    self.say(&format!("{m}: {n}"));
                }
                let ms = t.elapsed().as_millis() as u64;
                let nps = total * 1000 / ms.max(1);
                self.say(&format!("nodes {total} time_ms {ms} nps {nps}"));
            }
            Command::Bench => {
                self.halt_search();
                let (nodes, ms) = bench(|_| {});
                self.say(&format!(
                    "bench nodes {nodes} time_ms {ms} nps {}",
                    nodes * 1000 / ms.max(1)
                ));
            }
        }
        true
    }

    /// Why there is no position to work on.
    fn no_view_reason(&self) -> &'static str {
        match self.game {
            None => "no game yet (send setup or position first)",
            Some(_) => "the enemy's placement is unknown (send position <colour> enemy <squares>)",
        }
    }

    fn position(&self, pc: &PositionCmd) -> Result<Game, String> {
        let v = self.opts.variant;
        let setup = match (&pc.setup, &self.game) {
            (Some(text), _) => Setup::parse(text, &v).map_err(|e| format!("setup: {e}"))?,
            (None, Some(g)) if g.color == pc.color => g.setup.clone(),
            (None, Some(g)) => {
                return Err(format!(
                    "no setup for {} (the last setup was for {}); add 'setup <setup>'",
                    pc.color, g.color
                ))
            }
            (None, None) => return Err("no setup known (send setup first or add 'setup <setup>')".into()),
        };
        let (view, tracker) = build_view(&self.opts, pc.color, &setup, pc.enemy.as_deref(), &pc.moves)?;
        Ok(Game {
            color: pc.color,
            setup,
            view: Some(view),
            tracker: Some(tracker),
        })
    }

    fn go(&mut self, p: &GoParams, at: Instant) {
        if self.searching.is_some() {
            self.error("go: a search is already running (send stop first)");
            return;
        }
        let Some(game) = &self.game else {
            self.error("go: no game yet (send setup or position first)");
            return;
        };
        let Some(view) = &game.view else {
            self.error("go: the enemy's placement is unknown (send position <colour> enemy <squares>)");
            return;
        };
        if view.side_to_move() != game.color {
            self.error(&format!(
                "go: it is {}'s turn, the engine plays {}",
                view.side_to_move(),
                game.color
            ));
            return;
        }
        // Every move of `searchmoves` must be legal here; the engine never plays another.
        if !p.searchmoves.is_empty() {
            let legal = view.legal_moves();
            if let Some(bad) = p.searchmoves.iter().find(|m| !legal.contains(m)) {
                self.error(&format!("go searchmoves: '{bad}' is not a legal move in this position"));
                return;
            }
        }
        let (time, inc) = match game.color {
            Color::Red => (p.wtime, p.winc),
            Color::Blue => (p.btime, p.binc),
        };
        let limits = Limits {
            movetime_ms: p.movetime,
            time_left_ms: time,
            inc_ms: inc,
            depth: p.depth,
            nodes: p.nodes,
            infinite: p.infinite,
            move_overhead_ms: self.opts.move_overhead,
            threads: self.opts.threads,
            searchmoves: p.searchmoves.clone(),
        };
        let id = self.next_id;
        self.next_id += 1;
        let job = Job {
            id,
            view: view.clone(),
            belief: game.belief(view),
            limits,
            seed: self.opts.seed ^ view.ply() as u64,
            start: at,
        };
        self.searching = Some(id);
        self.infinite = p.infinite;
        self.search.start(job);
    }

    /// `beliefs`: one line per hidden enemy piece with its likely ranks.
    fn beliefs(&mut self) {
        let lines = match &self.game {
            None => Err("beliefs: no game yet (send setup or position first)"),
            Some(Game { view: None, .. }) => {
                Err("beliefs: the enemy's placement is unknown (send position <colour> enemy <squares>)")
            }
            Some(g @ Game { view: Some(view), .. }) => Ok(belief_lines(&g.belief(view))),
        };
        match lines {
            Ok(lines) => lines.iter().for_each(|l| self.say(l)),
            Err(e) => self.error(e),
        }
    }

    fn display(&mut self) {
        let Some(game) = self.game.clone() else {
            self.say("info string no game (send setup or position)");
            return;
        };
        let Some(view) = game.view.clone() else {
            self.say(&format!(
                "info string playing {} with setup {}; enemy placement not known yet",
                game.color, game.setup
            ));
            return;
        };
        let v = *view.variant();
        let files: String = (0..v.files).map(|f| format!("  {} ", (b'a' + f) as char)).collect();
        self.say(&format!("info string     {files}"));
        for rank in (0..v.ranks).rev() {
            let mut row = format!("{:>3} ", rank + 1);
            for file in 0..v.files {
                let sq = Square::new(file, rank);
                let cell = if v.is_lake(sq) {
                    " ~~ ".to_string()
                } else {
                    match view.piece_at(sq) {
                        None => "  . ".to_string(),
                        Some(p) if p.color() == game.color => format!("  {} ", p.rank().to_char()),
                        Some(p) => {
                            let moved = if view.flags_at(sq) & MOVED != 0 { "'" } else { " " };
                            format!(" [{}{moved}", p.rank().to_char()).chars().take(4).collect()
                        }
                    }
                };
                row.push_str(&cell);
            }
            self.say(&format!("info string {row}"));
        }
        let them = game.color.flip();
        let unknown = view.count(them, Rank::Unknown);
        let known: Vec<String> = Rank::ALL
            .iter()
            .filter(|r| view.count(them, **r) > 0)
            .map(|r| format!("{}x{}", r.to_char(), view.count(them, *r)))
            .collect();
        self.say(&format!(
            "info string engine {} | to move {} | ply {} | enemy pieces: {} unknown, known {}",
            game.color,
            view.side_to_move(),
            view.ply(),
            unknown,
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(" ")
            }
        ));
        self.say(&most_likely_line(&game.belief(&view)));
        self.say(&format!("info string position {}", view.to_text()));
    }
}

/// A piece's ranks by falling probability (ties in rank order), those that print as 0.000
/// left out.
fn ranked(p: &[f64; crate::rules::piece::NUM_RANKS]) -> Vec<(Rank, f64)> {
    let mut v: Vec<(Rank, f64)> = Rank::ALL
        .iter()
        .map(|r| (*r, p[r.index()]))
        .filter(|(_, x)| *x >= 0.0005)
        .collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    v
}

/// The `beliefs` answer: `info string belief <square> <piece>:<p> ...` per unknown enemy
/// piece on the board (text order), `info string belief captured ...` per piece captured
/// unseen, or `info string belief none`.
fn belief_lines(b: &Belief) -> Vec<String> {
    let lines: Vec<String> = b
        .marginals()
        .iter()
        .map(|(sq, p)| {
            let probs: Vec<String> = ranked(p)
                .iter()
                .map(|(r, x)| format!("{}:{x:.3}", r.to_char()))
                .collect();
            let at = sq.map_or("captured".to_string(), |s| s.to_string());
            format!("info string belief {at} {}", probs.join(" "))
        })
        .collect();
    if lines.is_empty() {
        vec!["info string belief none".to_string()]
    } else {
        lines
    }
}

/// The `d` summary of the beliefs: the most likely rank of every unknown enemy piece on
/// the board, with its probability in percent.
fn most_likely_line(b: &Belief) -> String {
    let items: Vec<String> = b
        .marginals()
        .iter()
        .filter_map(|(sq, p)| {
            let (r, x) = *ranked(p).first()?;
            Some(format!("{} {} {:.0}%", (*sq)?, r.to_char(), 100.0 * x))
        })
        .collect();
    if items.is_empty() {
        "info string most likely: none".to_string()
    } else {
        format!("info string most likely: {}", items.join(", "))
    }
}

/// Builds the engine's view of a game: its setup, the enemy's occupied squares (its whole
/// zone when omitted; required for variants that do not fill the zone), and the moves so
/// far with what they revealed; and the tracker that followed the enemy's pieces through
/// them.
fn build_view(
    opts: &Options,
    color: Color,
    setup: &Setup,
    enemy: Option<&[Square]>,
    moves: &[ObservedMove],
) -> Result<(Position, Tracker), String> {
    let v = opts.variant;
    let them = color.flip();
    let mut pos = Position::empty(v, opts.rules);
    pos.set_view_of(Some(color));
    for row in 0..v.setup_rows {
        for col in 0..v.files {
            if let Some(r) = setup.at(row as usize, col as usize) {
                pos.put(v.zone_square(color, row, col), Piece::new(color, r), 0)
                    .map_err(|e| e.0)?;
            }
        }
    }
    let enemy_squares: Vec<Square> = match enemy {
        Some(sq) => sq.to_vec(),
        None if v.fills_zone() => v.squares().filter(|s| v.in_zone(them, *s)).collect(),
        None => {
            return Err(format!(
                "{} does not fill the setup zone: give the enemy's squares with 'enemy'",
                v.name()
            ))
        }
    };
    if enemy_squares.len() != v.army_size() {
        return Err(format!(
            "the enemy has {} pieces, {} given",
            v.army_size(),
            enemy_squares.len()
        ));
    }
    for sq in &enemy_squares {
        if !v.in_zone(them, *sq) || v.is_lake(*sq) {
            return Err(format!("enemy square {sq} is not in {them}'s setup zone"));
        }
        pos.put(*sq, Piece::new(them, Rank::Unknown), 0)
            .map_err(|e| format!("enemy square {sq}: {}", e.0))?;
    }
    let mut tracker = Tracker::new(&pos);
    for (i, om) in moves.iter().enumerate() {
        let seen = tracker.prepare(&pos, om.mv);
        apply_observed(&mut pos, color, om).map_err(|e| format!("move {} ({}): {e}", i + 1, om.mv))?;
        tracker.commit(seen, &pos);
    }
    Ok((pos, tracker))
}

/// Plays one observed move on the engine's view, checking it against what the view knows.
fn apply_observed(pos: &mut Position, us: Color, om: &ObservedMove) -> Result<(), String> {
    let mv = om.mv;
    if mv.rescue().is_some() && !pos.rules().rescue {
        return Err("rescue is off".into());
    }
    if let Some(end) = pos
        .game_end()
        .filter(|e| e.reason == crate::rules::EndReason::FlagCaptured)
    {
        return Err(format!("the game is over ({:?})", end.reason));
    }
    let side = pos.side_to_move();
    let (from, to) = (mv.from(), mv.to());
    let v = *pos.variant();
    if !v.is_playable(from) || !v.is_playable(to) {
        return Err("a square is not on the board".into());
    }
    let mover = pos
        .piece_at(from)
        .filter(|p| p.color() == side)
        .ok_or_else(|| format!("no {side} piece on {from}"))?;
    if side == us {
        if let Some(reason) = pos.illegal_reason(mv) {
            return Err(reason);
        }
    } else {
        check_enemy_geometry(pos, mover, from, to)?;
    }
    let target = pos.piece_at(to);
    let Some(defender) = target else {
        if om.attack.is_some() {
            return Err(format!("{to} is empty: not an attack"));
        }
        let long = !from.is_adjacent(to);
        if side != us && long && mover.rank() == Rank::Unknown {
            pos.reveal(from, Rank::Scout).map_err(|e| e.0)?;
        }
        pos.make_observed(mv, None, (None, None));
        return Ok(());
    };
    let (ga, gd, given) = om.attack.unwrap_or((None, None, None));
    // What is known of both ranks: the view's, plus what the move line reveals.
    let known = |p: Piece, g: Option<Rank>, sq: Square| -> Result<Option<Rank>, String> {
        match (p.rank(), g) {
            (Rank::Unknown, g) => Ok(g),
            (r, Some(g)) if g != r => Err(format!("{sq} holds a {}, the move says {}", r.name(), g.name())),
            (r, _) => Ok(Some(r)),
        }
    };
    let a = known(mover, ga, from)?;
    let d = known(defender, gd, to)?;
    let combat = match (a, d, given) {
        (Some(a), Some(d), g) => {
            let c = resolve_combat(a, d, pos.rules().attacker_advantage);
            if let Some(g) = g {
                if g != c && !(c == Combat::FlagCaptured && g == Combat::AttackerWins) {
                    return Err(format!(
                        "{}x{} gives :{}, the move says :{}",
                        a.to_char(),
                        d.to_char(),
                        letter(c),
                        letter(g)
                    ));
                }
            }
            c
        }
        (_, Some(Rank::Flag), _) => Combat::FlagCaptured,
        (_, _, Some(g)) => g,
        _ => return Err("an attack on or by an unknown piece needs its result (:a, :d or :b)".into()),
    };
    // Record newly learnt enemy ranks through the checked path.
    let mut scratch = pos.clone();
    if side != us {
        if let (Some(r), Rank::Unknown) = (a, mover.rank()) {
            scratch.reveal(from, r).map_err(|e| e.0)?;
        }
    } else if let (Some(r), Rank::Unknown) = (d, defender.rank()) {
        scratch.reveal(to, r).map_err(|e| e.0)?;
    }
    scratch.make_observed(mv, Some(combat), (None, None));
    *pos = scratch;
    Ok(())
}

/// The result letter of the observed-move notation.
fn letter(c: Combat) -> char {
    match c {
        Combat::AttackerWins | Combat::FlagCaptured => 'a',
        Combat::DefenderWins => 'd',
        Combat::BothDie => 'b',
    }
}

/// An enemy move must run along a line over empty squares (more than one square only for
/// a piece that may be a Scout) and may not come from a Bomb or Flag.
fn check_enemy_geometry(pos: &Position, mover: Piece, from: Square, to: Square) -> Result<(), String> {
    if !mover.rank().is_movable() {
        return Err(format!("a {} cannot move", mover.rank().name()));
    }
    if pos.piece_at(to).is_some_and(|p| p.color() == mover.color()) {
        return Err(format!("{to} holds a piece of the mover"));
    }
    if from.file() != to.file() && from.rank() != to.rank() {
        return Err("moves go along a rank or file".into());
    }
    if !from.is_adjacent(to) {
        if !matches!(mover.rank(), Rank::Unknown | Rank::Scout) {
            return Err(format!("a {} moves one square", mover.rank().name()));
        }
        let (df, dr) = (
            (to.file() as i32 - from.file() as i32).signum(),
            (to.rank() as i32 - from.rank() as i32).signum(),
        );
        let (mut f, mut r) = (from.file() as i32 + df, from.rank() as i32 + dr);
        while (f, r) != (to.file() as i32, to.rank() as i32) {
            let sq = Square::new(f as u8, r as u8);
            if pos.variant().is_lake(sq) || pos.piece_at(sq).is_some() {
                return Err(format!("the path is blocked at {sq}"));
            }
            f += df;
            r += dr;
        }
    }
    Ok(())
}

/// The node budget of `bench`'s second search of each position.
const BENCH_NODES: u64 = 200_000;

/// The fixed benchmark: from positions of every variant, a depth-limited and a
/// node-limited search with a fixed seed. Returns (nodes, milliseconds); `each` sees
/// every search's info.
pub fn bench(mut each: impl FnMut(&Info)) -> (u64, u64) {
    use rand::Rng;
    let start = Instant::now();
    let stop = AtomicBool::new(false);
    let mut nodes = 0u64;
    for (i, name) in Variant::BUILT_IN.iter().enumerate() {
        let Ok(v) = Variant::parse(name) else { continue };
        let (r, b) = v.sample_setups();
        let (Ok(red), Ok(blue)) = (Setup::parse(&r, &v), Setup::parse(&b, &v)) else {
            continue;
        };
        let Ok(mut pos) = Position::from_setups(v, Rules::default(), &red, &blue) else {
            continue;
        };
        let mut rng = StdRng::seed_from_u64(i as u64 + 1);
        for ply in 0..40 {
            if ply % 10 == 9 {
                let view = pos.view(pos.side_to_move());
                // A fixed depth, and a node budget (as a clock would bound it: past the
                // deepest iteration it buys more sampled worlds).
                for limits in [
                    Limits {
                        depth: Some(3),
                        ..Limits::default()
                    },
                    Limits {
                        nodes: Some(BENCH_NODES),
                        ..Limits::default()
                    },
                ] {
                    // A budget is spent to the node: what counts is where the last
                    // finished iteration or batch of worlds ended.
                    let mut done = 0;
                    let res = crate::search::think(&view, &limits, Instant::now(), &stop, 1, &mut |i| {
                        done = i.nodes;
                    });
                    nodes += done;
                    each(&res.info);
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.game_end().is_some() {
                break;
            }
            pos.make(moves[rng.gen_range(0..moves.len())]);
        }
    }
    (nodes, start.elapsed().as_millis() as u64)
}

/// Runs the protocol on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    let stop = Arc::new(AtomicBool::new(false));
    let (line_tx, line_rx) = unbounded::<(Instant, Option<String>)>();
    let reader_stop = Arc::clone(&stop);
    // The reader sets the stop flag itself so that `stop` reaches the search at once.
    let _reader = std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            if line.trim() == "stop" || line.trim() == "quit" {
                reader_stop.store(true, Ordering::SeqCst);
            }
            if line_tx.send((Instant::now(), Some(line))).is_err() {
                return;
            }
        }
        let _ = line_tx.send((Instant::now(), None));
    });
    let stdout = std::io::stdout();
    let mut engine = Engine::new(stdout.lock(), stop);
    let reports = engine.search.reports().clone();
    loop {
        select! {
            recv(line_rx) -> msg => match msg {
                Ok((at, Some(line))) => {
                    if !engine.handle_line(&line, at) {
                        break;
                    }
                }
                _ => {
                    engine.finish();
                    break;
                }
            },
            recv(reports) -> r => {
                if let Ok(r) = r {
                    engine.on_report(r);
                }
            }
        }
    }
}
