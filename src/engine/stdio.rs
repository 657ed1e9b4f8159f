//! The protocol loop: reads command lines, has the library [`Engine`] do what they ask
//! and prints every answer; the only writer of stdout.

use super::{bench, Engine, EngineError, Event};
use crate::belief::Belief;
use crate::protocol::options::option_lines;
use crate::protocol::{Command, COMMANDS};
use crate::rules::{position::MOVED, Rank, Square};
use crate::search::controller::Report;
use crate::search::Info;
use crossbeam_channel::{select, unbounded};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The protocol engine: reads command lines, drives the library [`Engine`] and prints
/// every answer; the only writer of its output.
pub struct Session<W: Write> {
    out: W,
    engine: Engine,
}

impl<W: Write> Session<W> {
    pub fn new(out: W, stop: Arc<AtomicBool>) -> Session<W> {
        Session {
            out,
            engine: Engine::new(stop),
        }
    }

    /// The options and the game as text (for tests: compare before and after a line).
    pub fn snapshot(&self) -> String {
        self.engine.snapshot()
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

    /// Prints what searches halted by the last command still had to say.
    fn flush_events(&mut self) {
        for e in self.engine.take_events() {
            self.print_event(&e);
        }
    }

    /// At the end of input: lets a running search finish (a scripted session's last `go`
    /// gets its full time), stopping only an infinite one.
    pub fn finish(&mut self) {
        self.engine.finish();
        self.flush_events();
    }

    /// Prints a search report.
    pub fn on_report(&mut self, report: Report) {
        if let Some(e) = self.engine.on_report(report) {
            self.print_event(&e);
        }
    }

    fn print_event(&mut self, e: &Event) {
        match e {
            Event::Info(info) => self.print_info(info),
            Event::BestMove(Some(m)) => self.say(&format!("bestmove {m}")),
            Event::BestMove(None) => self.say("bestmove none"),
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
                for l in option_lines() {
                    self.say(&l);
                }
                self.say("strategook");
            }
            Command::IsReady => self.say("readyok"),
            Command::Help => {
                self.say(&format!("info string commands: {}", COMMANDS.join(" ")));
                self.say("info string see protocol.md for their arguments");
            }
            Command::SetOption { name, value } => {
                if let Err(e) = self.engine.set_option(&name, &value) {
                    self.error(&e.to_string());
                }
                self.flush_events();
            }
            Command::NewGame => {
                self.engine.new_game();
                self.flush_events();
            }
            Command::Setup { color, setup } => match self.engine.setup(color, setup.as_deref()) {
                Ok(generated) => {
                    if let Some(s) = generated {
                        self.say(&format!("setup {color} {s}"));
                    }
                    self.flush_events();
                }
                Err(e) => self.error(&e.to_string()),
            },
            Command::Position(pc) => {
                if let Err(e) = self.engine.position(&pc) {
                    self.error(&format!("position: {e}"));
                }
                self.flush_events();
            }
            Command::Reveal { square, rank } => {
                if let Err(why) = self.engine.view() {
                    self.error(&format!("reveal: {why}"));
                    return true;
                }
                if let Err(e) = self.engine.reveal(square, rank) {
                    self.error(&format!("reveal {e}"));
                }
                self.flush_events();
            }
            Command::Go(p) => match self.engine.go(&p, at) {
                Err(e @ EngineError::IllegalSearchMove(_)) => self.error(&format!("go searchmoves: {e}")),
                Err(e) => self.error(&format!("go: {e}")),
                Ok(()) => {}
            },
            Command::Stop => self.engine.stop(),
            Command::Quit => {
                self.engine.halt();
                self.flush_events();
                return false;
            }
            Command::Display => self.display(),
            Command::Beliefs => match self.engine.belief() {
                Ok(b) => belief_lines(&b).iter().for_each(|l| self.say(l)),
                Err(e) => self.error(&format!("beliefs: {e}")),
            },
            Command::Perft { depth } => {
                let mut v = match self.engine.view() {
                    Ok(v) => v.clone(),
                    Err(why) => {
                        self.error(&format!("perft: {why}"));
                        return true;
                    }
                };
                self.engine.halt();
                self.flush_events();
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
                self.engine.halt();
                self.flush_events();
                let (nodes, ms) = bench(|_| {});
                self.say(&format!(
                    "bench nodes {nodes} time_ms {ms} nps {}",
                    nodes * 1000 / ms.max(1)
                ));
            }
        }
        true
    }

    fn display(&mut self) {
        let Some(game) = self.engine.game().cloned() else {
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
    let mut engine = Session::new(stdout.lock(), stop);
    let reports = engine.engine.reports();
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
