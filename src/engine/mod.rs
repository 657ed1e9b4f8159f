//! The engine as a library type: it owns the options, the game as the engine sees it (its
//! view rebuilt from what it observed, and the tracker that follows every enemy piece) and
//! the search thread. The protocol loop (`stdio`), `marshal play` and `bench` all drive
//! this one type, so they play the same moves. Nothing here reads or writes text lines.

pub mod bench;
pub mod stdio;

pub use bench::bench;
pub use stdio::{run_stdio, Session};

use crate::belief::tracker::Evidence;
use crate::belief::{Belief, Tracker};
use crate::protocol::options::Options;
use crate::protocol::{GoParams, PositionCmd};
use crate::rules::view::{apply_observed, start_view, ObservedMove};
use crate::rules::{Color, Move, Position, Rank, Setup, Square};
use crate::search::controller::{Job, Report, SearchThread};
use crate::search::{Info, Limits, SearchResult};
use crossbeam_channel::Receiver;
use rand::{rngs::StdRng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// The engine's side of the game: its colour and setup, and its view once the enemy's
/// placement is known, with what it remembers of every enemy piece.
#[derive(Clone, Debug)]
pub struct Game {
    pub color: Color,
    pub setup: Setup,
    pub view: Option<Position>,
    pub tracker: Option<Tracker>,
    /// Our own pieces followed as the enemy sees them: what it can tell of our ranks.
    pub exposure: Option<Tracker>,
}

impl Game {
    /// What the engine believes of the hidden enemy ranks in `view` (its current view).
    pub fn belief(&self, view: &Position) -> Belief {
        match &self.tracker {
            Some(t) => t.belief(view),
            None => Belief::from_view(view),
        }
    }

    /// What the enemy can tell of our unseen ranks in `view` (our current view).
    pub fn exposure(&self, view: &Position) -> Option<Belief> {
        let t = self.exposure.as_ref()?;
        Some(exposure_belief(t, &view.view(self.color.flip())))
    }
}

/// What the enemy can tell of our unseen ranks: our own tracker run from its side
/// (`theirs`, its view of our pieces as we can tell it) on the setup prior of their start
/// squares, which of them moved and what fights showed, without the behaviour channels.
/// Those were measured on other programs' moves, not on ours; with them the play scored
/// 20/40 against Demon of Ignorance where without them it scored 25/40 on the same seeds
/// (`benches/HISTORY.md`, "The enemy's view of our pieces").
pub fn exposure_belief(t: &Tracker, theirs: &Position) -> Belief {
    t.belief_with(theirs, Evidence::PRIOR)
}

/// What a running search has to say.
#[derive(Clone, Debug)]
pub enum Event {
    /// An iteration finished.
    Info(Info),
    /// The search is over: its move (`None`: no legal move).
    BestMove(Option<Move>),
}

/// Why the engine refused a request; its text is the protocol's error line (after the
/// command's name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// No game yet.
    NoGame,
    /// The engine knows its setup but not where the enemy's pieces stand.
    NoEnemy,
    /// A search is running.
    Busy,
    /// It is the other side's turn.
    NotOurTurn { to_move: Color, ours: Color },
    /// A `searchmoves` move that is not legal here.
    IllegalSearchMove(Move),
    /// A rejected option, setup, position or reveal: what is wrong with it.
    Rejected(String),
    /// The search thread is gone.
    NoSearch,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::NoGame => f.write_str("no game yet (send setup or position first)"),
            EngineError::NoEnemy => {
                f.write_str("the enemy's placement is unknown (send position <colour> enemy <squares>)")
            }
            EngineError::Busy => f.write_str("a search is already running (send stop first)"),
            EngineError::NotOurTurn { to_move, ours } => {
                write!(f, "it is {to_move}'s turn, the engine plays {ours}")
            }
            EngineError::IllegalSearchMove(m) => write!(f, "'{m}' is not a legal move in this position"),
            EngineError::Rejected(why) => f.write_str(why),
            EngineError::NoSearch => f.write_str("the search thread is gone"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<String> for EngineError {
    fn from(why: String) -> EngineError {
        EngineError::Rejected(why)
    }
}

/// The engine.
pub struct Engine {
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
    /// Events of searches halted by a command, not yet taken (`take_events`).
    pending: Vec<Event>,
}

impl Engine {
    /// A new engine with default options; `stop` is the flag that stops a running search
    /// (the protocol's stdin reader sets it directly).
    pub fn new(stop: Arc<AtomicBool>) -> Engine {
        Engine {
            opts: Options::default(),
            game: None,
            search: SearchThread::spawn(stop),
            searching: None,
            infinite: false,
            next_id: 1,
            setups_made: 0,
            pending: Vec::new(),
        }
    }

    pub fn options(&self) -> &Options {
        &self.opts
    }

    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
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

    /// The search thread's reports (to wait on beside other input).
    pub fn reports(&self) -> Receiver<Report> {
        self.search.reports().clone()
    }

    pub fn is_searching(&self) -> bool {
        self.searching.is_some()
    }

    pub fn is_infinite(&self) -> bool {
        self.infinite
    }

    /// What a search report means for the running search (`None` for a stale one).
    pub fn on_report(&mut self, report: Report) -> Option<Event> {
        match report {
            Report::Info { id, info } if Some(id) == self.searching => Some(Event::Info(info)),
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
                Some(Event::BestMove(result.best))
            }
            _ => None,
        }
    }

    /// The events of searches that a command halted, in order.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.pending)
    }

    /// Waits for the running search to end (after asking it to stop, if `stop`); its
    /// events go to the pending list.
    fn drain(&mut self, stop: bool) {
        if self.searching.is_none() {
            return;
        }
        if stop {
            self.search.stop();
        }
        let rx = self.search.reports().clone();
        while self.searching.is_some() {
            match rx.recv() {
                Ok(r) => {
                    if let Some(e) = self.on_report(r) {
                        self.pending.push(e);
                    }
                }
                Err(_) => self.searching = None,
            }
        }
    }

    /// Stops a running search and waits for its `bestmove` (see `take_events`).
    pub fn halt(&mut self) {
        self.drain(true);
    }

    /// At the end of input: lets a running search finish (a scripted session's last `go`
    /// gets its full time), stopping only an infinite one.
    pub fn finish(&mut self) {
        let infinite = self.infinite;
        self.drain(infinite);
    }

    /// Asks a running search to stop, without waiting.
    pub fn stop(&self) {
        if self.searching.is_some() {
            self.search.stop();
        }
    }

    /// `setoption`: a rejected value changes nothing.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let o = self.opts.with(name, value)?;
        self.set_options(o);
        Ok(())
    }

    /// Every option at once (a new variant ends the game).
    pub fn set_options(&mut self, o: Options) {
        self.halt();
        let variant_changed = o.variant != self.opts.variant;
        self.opts = o;
        if variant_changed {
            self.game = None;
        } else if let Some(v) = self.game.as_mut().and_then(|g| g.view.as_mut()) {
            v.set_rules(self.opts.rules);
        }
    }

    /// `newgame`.
    pub fn new_game(&mut self) {
        self.halt();
        self.game = None;
    }

    /// `setup`: the engine plays `color` with `text`, or with a setup of its own when
    /// there is none (returned, to be announced).
    pub fn setup(&mut self, color: Color, text: Option<&str>) -> Result<Option<Setup>, EngineError> {
        let v = self.opts.variant;
        // The belief prior of a variant without human data is counted from generated
        // setups on first use: here, before the timed `position` and `go`.
        crate::belief::prior::Prior::for_variant(&v);
        let (chosen, generated) = match text {
            Some(text) => (Setup::parse(text, &v).map_err(|e| format!("setup: {e}"))?, false),
            None => {
                let mut rng = StdRng::seed_from_u64(
                    self.opts.seed ^ self.setups_made.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ color as u64,
                );
                self.setups_made += 1;
                (crate::setup::generate(&v, &mut rng), true)
            }
        };
        self.halt();
        let built = match v.fills_zone() {
            true => self.build(color, &chosen, None, &[]).ok(),
            false => None,
        };
        let (view, tracker, exposure) = match built {
            Some((v, t, e)) => (Some(v), Some(t), Some(e)),
            None => (None, None, None),
        };
        self.game = Some(Game {
            color,
            setup: chosen.clone(),
            view,
            tracker,
            exposure,
        });
        Ok(generated.then_some(chosen))
    }

    /// `position`: the game from the engine's side, rebuilt from what it observed.
    pub fn position(&mut self, pc: &PositionCmd) -> Result<(), EngineError> {
        let v = self.opts.variant;
        let setup = match (&pc.setup, &self.game) {
            (Some(text), _) => Setup::parse(text, &v).map_err(|e| format!("setup: {e}"))?,
            (None, Some(g)) if g.color == pc.color => g.setup.clone(),
            (None, Some(g)) => {
                return Err(EngineError::Rejected(format!(
                    "no setup for {} (the last setup was for {}); add 'setup <setup>'",
                    pc.color, g.color
                )))
            }
            (None, None) => {
                return Err(EngineError::Rejected(
                    "no setup known (send setup first or add 'setup <setup>')".into(),
                ))
            }
        };
        let (view, tracker, exposure) = self.build(pc.color, &setup, pc.enemy.as_deref(), &pc.moves)?;
        self.halt();
        self.game = Some(Game {
            color: pc.color,
            setup,
            view: Some(view),
            tracker: Some(tracker),
            exposure: Some(exposure),
        });
        Ok(())
    }

    /// The engine's view of a game, the tracker that followed the enemy's pieces through
    /// its moves, and the one that followed ours as the enemy saw them.
    fn build(
        &self,
        color: Color,
        setup: &Setup,
        enemy: Option<&[Square]>,
        moves: &[ObservedMove],
    ) -> Result<(Position, Tracker, Tracker), String> {
        let mut pos = start_view(self.opts.variant, self.opts.rules, color, setup, enemy)?;
        let mut tracker = Tracker::new(&pos);
        let mut theirs = pos.view(color.flip());
        let mut exposure = Tracker::new(&theirs);
        for (i, om) in moves.iter().enumerate() {
            let seen = tracker.prepare(&pos, om.mv);
            let shown = exposure.prepare(&theirs, om.mv);
            apply_observed(&mut pos, color, om).map_err(|e| format!("move {} ({}): {e}", i + 1, om.mv))?;
            tracker.commit(seen, &pos);
            theirs = pos.view(color.flip());
            exposure.commit(shown, &theirs);
        }
        Ok((pos, tracker, exposure))
    }

    /// The engine's current view, or why there is none.
    pub fn view(&self) -> Result<&Position, EngineError> {
        match &self.game {
            None => Err(EngineError::NoGame),
            Some(Game { view: None, .. }) => Err(EngineError::NoEnemy),
            Some(Game { view: Some(v), .. }) => Ok(v),
        }
    }

    /// `reveal`: an enemy piece's rank, told by the arbiter.
    pub fn reveal(&mut self, square: Square, rank: Rank) -> Result<(), EngineError> {
        let mut v = self.view()?.clone();
        v.reveal(square, rank)
            .map_err(|e| format!("{square} {}: {e}", rank.to_char()))?;
        self.halt();
        if let Some(g) = self.game.as_mut() {
            g.view = Some(v);
        }
        Ok(())
    }

    /// What the engine believes of every hidden enemy piece.
    pub fn belief(&self) -> Result<Belief, EngineError> {
        let view = self.view()?;
        let game = self.game.as_ref().ok_or(EngineError::NoGame)?;
        Ok(game.belief(view))
    }

    /// `go`: starts a search of the current view; its events come through `reports` and
    /// `on_report`. `at` is when the clock started.
    pub fn go(&mut self, p: &GoParams, at: Instant) -> Result<(), EngineError> {
        if self.searching.is_some() {
            return Err(EngineError::Busy);
        }
        let id = self.next_id;
        let view = self.view()?;
        let game = self.game.as_ref().ok_or(EngineError::NoGame)?;
        if view.side_to_move() != game.color {
            return Err(EngineError::NotOurTurn {
                to_move: view.side_to_move(),
                ours: game.color,
            });
        }
        // Every move of `searchmoves` must be legal here; the engine never plays another.
        if !p.searchmoves.is_empty() {
            let legal = view.legal_moves();
            if let Some(bad) = p.searchmoves.iter().find(|m| !legal.contains(m)) {
                return Err(EngineError::IllegalSearchMove(*bad));
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
        let job = Job {
            id,
            view: view.clone(),
            belief: game.belief(view),
            exposure: game.exposure(view),
            limits,
            seed: self.opts.seed ^ view.ply() as u64,
            start: at,
        };
        self.next_id += 1;
        self.searching = Some(id);
        self.infinite = p.infinite;
        self.search.start(job);
        Ok(())
    }

    /// A whole search, waited for: what `go` would answer with `bestmove`.
    pub fn think(&mut self, p: &GoParams) -> Result<SearchResult, EngineError> {
        self.halt();
        self.pending.clear();
        self.go(p, Instant::now())?;
        let rx = self.search.reports().clone();
        loop {
            match rx.recv() {
                Ok(Report::Done { id, result }) if Some(id) == self.searching => {
                    self.searching = None;
                    return Ok(result);
                }
                Ok(_) => {}
                Err(_) => {
                    self.searching = None;
                    return Err(EngineError::NoSearch);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Command;

    #[test]
    fn the_enemy_view_of_our_pieces_follows_what_it_saw() {
        // Red's Scout from a4 steps to a5 and takes Blue's Spy on a6, shown. To Blue,
        // a5 then a6 can never have been a Bomb or the Flag, and the Scout on a6 is no
        // longer hidden: the other seven Scouts are among Red's 39 unseen pieces.
        let mut e = Engine::new(Arc::new(AtomicBool::new(false)));
        let setup = "FB6B644333/B5S79323B4/28228B2M54/2256257B67";
        let line = format!("position red setup {setup} moves a4a5 a7a6 b4b5 b7b6 a5a6:2xS");
        let Ok(Command::Position(pc)) = line.parse::<Command>() else {
            panic!("{line} does not parse");
        };
        e.position(&pc).expect("a legal game");
        let game = e.game().expect("a game");
        let view = game.view.as_ref().expect("a view");
        let exposure = game.exposure(view).expect("followed");
        let marg = exposure.marginals();
        assert_eq!(marg.len(), 39);
        let at = |s: &str| {
            let sq = Square::parse(s).unwrap();
            marg.iter().find(|(q, _)| *q == Some(sq)).map(|(_, p)| *p)
        };
        assert!(at("a6").is_none(), "the Scout was shown");
        let b5 = at("b5").expect("b5 is hidden");
        assert_eq!(b5[Rank::Bomb.index()] + b5[Rank::Flag.index()], 0.0, "b5 moved");
        let back = at("b1").expect("b1 is hidden");
        assert!(back[Rank::Bomb.index()] > 0.05, "b1 may be a Bomb: {back:?}");
        let scouts: f64 = marg.iter().map(|(_, p)| p[Rank::Scout.index()]).sum();
        assert!((scouts - 7.0).abs() < 1e-3, "{scouts} Scouts");
    }
}
