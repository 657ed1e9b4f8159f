//! `marshal-ucc`: makes Marshal an AI of the UCC 2012 Stratego manager. The manager starts
//! it with no arguments; it starts the `marshal` engine as a child speaking our protocol
//! and translates between the two (see README.md for the mapping and the options).

use marshal::formats::ucc_log::UCC_RULES;
use marshal::process::{Process, ReadError, Stderr};
use marshal::protocol::options::{rule_options, Opt};
use marshal::protocol::PositionCmd;
use marshal::rules::{Color, Move, Setup, Variant};
use marshal::ucc::{move_from_ucc, move_to_ucc, setup_to_rows, Outcome};
use std::io::{BufRead, Write};
use std::process::Command;
use std::time::Duration;

/// The engine child process.
struct Engine {
    process: Process,
}

impl Engine {
    fn start() -> Result<Engine, String> {
        let path = engine_path();
        let process = Process::start(Command::new(&path), Stderr::Inherit)
            .map_err(|e| format!("cannot start the engine '{}': {e}", path.display()))?;
        Ok(Engine { process })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        log(&format!("engine< {line}"));
        self.process
            .send(line)
            .map_err(|e| format!("cannot write to the engine: {e}"))
    }

    /// Reads engine lines until one starts with `prefix`; an error line is an error.
    fn expect(&mut self, prefix: &str) -> Result<String, String> {
        loop {
            let line = match self.process.read_line(None) {
                Ok(l) => l.trim_end().to_string(),
                Err(ReadError::Closed | ReadError::Timeout) => return Err("the engine closed its output".into()),
            };
            log(&format!("engine> {line}"));
            if line.starts_with(prefix) {
                return Ok(line);
            }
            if line.starts_with("info string error") {
                return Err(format!("the engine rejected a command: {line}"));
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.process.stop(Some("quit"), Duration::from_millis(300));
    }
}

/// MARSHAL_BIN, else `marshal` next to this executable, else `marshal` on PATH.
fn engine_path() -> std::path::PathBuf {
    if let Some(p) = std::env::var_os("MARSHAL_BIN").filter(|p| !p.is_empty()) {
        return p.into();
    }
    if let Ok(exe) = std::env::current_exe() {
        let beside = exe.with_file_name(format!("marshal{}", std::env::consts::EXE_SUFFIX));
        if beside.is_file() {
            return beside;
        }
    }
    "marshal".into()
}

/// Appends a line to MARSHAL_UCC_LOG, if set.
fn log(line: &str) {
    if let Some(path) = std::env::var_os("MARSHAL_UCC_LOG").filter(|p| !p.is_empty()) {
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = writeln!(f, "{line}");
        }
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// Writes one line to the manager and flushes.
fn reply(out: &mut impl Write, line: &str) -> Result<(), String> {
    log(&format!("ucc< {line}"));
    writeln!(out, "{line}")
        .and_then(|_| out.flush())
        .map_err(|e| format!("cannot write to the manager: {e}"))
}

fn run() -> Result<(), String> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let read = |input: &mut dyn BufRead| -> Result<Option<String>, String> {
        let mut line = String::new();
        if input.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Ok(None);
        }
        let line = line.trim_end().to_string();
        log(&format!("ucc> {line}"));
        Ok(Some(line))
    };

    // `<COLOUR> <opponent> <width> <height>`
    let Some(first) = read(&mut input)? else { return Ok(()) };
    let tokens: Vec<&str> = first.split_whitespace().collect();
    if tokens.first() == Some(&"QUIT") {
        return Ok(());
    }
    let color = match tokens.first().copied() {
        Some("RED") => Color::Red,
        Some("BLUE") => Color::Blue,
        _ => return Err(format!("expected '<RED|BLUE> <opponent> 10 10', got '{first}'")),
    };
    if tokens.len() >= 4 && (tokens[tokens.len() - 2] != "10" || tokens[tokens.len() - 1] != "10") {
        return Err(format!("only the 10x10 board is supported, got '{first}'"));
    }
    let movetime = env_u64("MARSHAL_UCC_MOVETIME").unwrap_or(1000);
    let seed = env_u64("MARSHAL_UCC_SEED").unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        (t ^ ((std::process::id() as u64) << 20)) & 0x3fff_ffff_ffff_ffff
    });

    let mut engine = Engine::start()?;
    // The manager's rules: classic combat, no repetition rules, no caps of ours.
    for line in rule_options(&Variant::CLASSIC, &UCC_RULES) {
        engine.send(&line)?;
    }
    engine.send(&Opt::Seed.line(seed))?;
    // Passed on as written: the engine refuses a bad value, and `expect` ends the game
    // with the engine's error naming it.
    if let Some(threads) = std::env::var("MARSHAL_UCC_THREADS")
        .ok()
        .filter(|v| !v.trim().is_empty())
    {
        engine.send(&Opt::Threads.line(threads.trim()))?;
    }
    engine.send("newgame")?;
    let setup_line = match std::env::var("MARSHAL_UCC_SETUP").ok().filter(|s| !s.trim().is_empty()) {
        Some(s) => {
            engine.send(&format!("setup {color} {}", s.trim()))?;
            format!("setup {color} {}", s.trim())
        }
        None => {
            engine.send(&format!("setup {color}"))?;
            engine.expect("setup ")?
        }
    };
    let text = setup_line.split_whitespace().nth(2).ok_or("the engine sent no setup")?;
    let variant = Variant::parse("classic").map_err(|e| e.0)?;
    let setup = Setup::parse(text, &variant).map_err(|e| format!("engine setup '{text}': {e}"))?;
    for row in setup_to_rows(&setup, color) {
        reply(&mut out, &row)?;
    }

    let mut moves = Vec::new();
    let mut board_rows_left = 0usize;
    let mut awaiting_echo = false;
    while let Some(line) = read(&mut input)? {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.first() == Some(&"QUIT") {
            return Ok(());
        }
        if board_rows_left > 0 {
            board_rows_left -= 1;
            if board_rows_left == 0 {
                // Our turn.
                let pos = PositionCmd {
                    color,
                    setup: None,
                    enemy: None,
                    moves: moves.clone(),
                };
                engine.send(&pos.to_string())?;
                engine.send(&format!("go movetime {movetime}"))?;
                let best = engine.expect("bestmove")?;
                let text = best.split_whitespace().nth(1).unwrap_or("none");
                if text == "none" {
                    reply(&mut out, "SURRENDER")?;
                    continue;
                }
                let mv = Move::parse(text).map_err(|e| format!("'{best}': {e}"))?;
                reply(&mut out, &move_to_ucc(mv)?)?;
                awaiting_echo = true;
            }
            continue;
        }
        match tokens.first().copied() {
            None => continue,
            Some("START") => {
                board_rows_left = 10;
                continue;
            }
            _ => {}
        }
        let (mv, used) = move_from_ucc(&tokens).map_err(|e| format!("line '{line}': {e}"))?;
        let outcome = Outcome::parse(&tokens[used..])
            .and_then(|o| o.ok_or_else(|| format!("unknown outcome '{}'", tokens[used..].join(" "))))
            .map_err(|e| format!("line '{line}': {e}"))?;
        if outcome == Outcome::Illegal {
            eprintln!("marshal-ucc: the manager called a move illegal: {line}");
        }
        if let Some(t) = outcome.observed(mv) {
            moves.push(t);
        }
        if awaiting_echo {
            awaiting_echo = false;
        } else {
            board_rows_left = 10;
        }
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        log(&format!("error: {e}"));
        eprintln!("marshal-ucc: {e}");
        std::process::exit(1);
    }
}
