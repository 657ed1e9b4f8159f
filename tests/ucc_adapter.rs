//! The UCC adapter (`marshal-ucc`) without third-party programs: golden checks of the
//! translation, and a stand-in UCC 2012 manager (written from `../shared/UCC-MANAGER.md`)
//! that plays whole games of the adapter against a random UCC bot (`tests/ucc/random_bot.py`).

#[path = "../gui-adapters/ucc/translate.rs"]
mod translate;

use marshal::rules::{Color, Move, Position, Rank, Rules, Setup, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use translate::*;

const SETUP: &str = "BFB3442B35/3B562475B6/627M29S82B/2538262473";

fn classic() -> Variant {
    Variant::parse("classic").unwrap()
}

#[test]
fn golden_translation() {
    // Squares: a half turn of our diagram; a1 (Red's back left) is the manager's (9, 0).
    assert_eq!(to_xy(marshal::rules::Square::parse("a1").unwrap()), (9, 0));
    assert_eq!(to_xy(marshal::rules::Square::parse("j10").unwrap()), (0, 9));
    assert_eq!(to_xy(marshal::rules::Square::parse("e7").unwrap()), (5, 6));
    // Pieces: American order.
    let pairs = [
        (Rank::Marshal, '1'),
        (Rank::General, '2'),
        (Rank::Colonel, '3'),
        (Rank::Major, '4'),
        (Rank::Captain, '5'),
        (Rank::Lieutenant, '6'),
        (Rank::Sergeant, '7'),
        (Rank::Miner, '8'),
        (Rank::Scout, '9'),
        (Rank::Spy, 's'),
        (Rank::Bomb, 'B'),
        (Rank::Flag, 'F'),
    ];
    for (r, c) in pairs {
        assert_eq!(ucc_char(r), c);
        assert_eq!(rank_of_ucc(c), Some(r));
    }
    // Setups: Red's back row first, each line from x = 0 (Red's right); Blue's front row
    // first, each line from x = 0 (Blue's left).
    let setup = Setup::parse(SETUP, &classic()).unwrap();
    let red = setup_to_rows(&setup, Color::Red);
    assert_eq!(red, ["68B9778BFB", "5B647956B8", "B93s291495", "8479593869"]);
    let blue = setup_to_rows(&setup, Color::Blue);
    assert_eq!(blue, ["9683959748", "594192s39B", "8B659746B5", "BFB8779B86"]);
    assert_eq!(setup_from_rows(&red, Color::Red).unwrap(), setup);
    assert_eq!(setup_from_rows(&blue, Color::Blue).unwrap(), setup);
    // Board rows as the manager shows Red the start.
    let pos = Position::from_setups(classic(), Rules::ucc(), &setup, &setup).unwrap();
    let rows = board_rows(&pos, Color::Red);
    assert_eq!(&rows[..4], &red[..]);
    assert_eq!(rows[4], "..++..++..");
    assert_eq!(rows[5], "..++..++..");
    assert!(rows[6..].iter().all(|r| r == "##########"));
    assert_eq!(&board_rows(&pos, Color::Blue)[6..], &blue[..]);
    // Moves.
    let m = |s: &str| Move::parse(s).unwrap();
    assert_eq!(move_to_ucc(m("a4a5")).unwrap(), "9 3 DOWN");
    assert_eq!(move_to_ucc(m("b4b8")).unwrap(), "8 3 DOWN 4");
    assert_eq!(move_to_ucc(m("e7e6")).unwrap(), "5 6 UP");
    assert_eq!(move_to_ucc(m("c4d4")).unwrap(), "7 3 LEFT");
    assert_eq!(move_to_ucc(m("d4c4")).unwrap(), "6 3 RIGHT");
    assert_eq!(move_from_ucc(&["0", "9", "RIGHT"]).unwrap(), (m("j10i10"), 3));
    assert_eq!(move_from_ucc(&["1", "6", "UP", "3", "OK"]).unwrap(), (m("i7i4"), 4));
    assert!(move_from_ucc(&["0", "0", "UP"]).is_err());
    // Outcomes and the observed notation.
    let o = Outcome::parse(&["KILLS", "s", "1"]).unwrap();
    assert_eq!(o, Outcome::Kills(Rank::Spy, Rank::Marshal));
    assert_eq!(o.observed(m("e4e5")).unwrap(), "e4e5:SxM");
    let o = Outcome::parse(&["BOTHDIE", "9", "9"]).unwrap();
    assert_eq!(o.observed(m("b4b8")).unwrap(), "b4b8:2x2");
    assert_eq!(
        Outcome::parse(&["DIES", "3", "B"])
            .unwrap()
            .observed(m("e6e7"))
            .unwrap(),
        "e6e7:8xB"
    );
    assert_eq!(Outcome::parse(&["OK"]).unwrap().observed(m("e6e7")).unwrap(), "e6e7");
    assert_eq!(Outcome::parse(&["ILLEGAL"]).unwrap().observed(m("e6e7")), None);
    assert_eq!(Outcome::Dies(Rank::Miner, Rank::Bomb).text(), "DIES 8 B");
}

/// A player process of the stand-in manager.
struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
}

impl Proc {
    fn spawn(mut cmd: Command) -> Proc {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn");
        let out = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Proc { child, stdin, rx }
    }

    fn send(&mut self, line: &str) {
        if let Some(s) = self.stdin.as_mut() {
            let _ = writeln!(s, "{line}").and_then(|_| s.flush());
        }
    }

    fn recv(&self, timeout: Duration) -> Result<String, String> {
        match self.rx.recv_timeout(timeout) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err("timeout".into()),
            Err(RecvTimeoutError::Disconnected) => Err("closed its output".into()),
        }
    }

    /// Waits for a clean exit after QUIT; kills it otherwise.
    fn wait_exit(&mut self, within: Duration) -> bool {
        self.stdin = None;
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Ok(Some(st)) = self.child.try_wait() {
                return st.success();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        false
    }
}

/// The manager's default reply timeout.
const TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Debug)]
struct Report {
    /// `VICTORY red`, `DRAW`, or a fault (`ILLEGAL ...`, `TIMEOUT ...`, `SURRENDER ...`).
    result: String,
    plies: usize,
    faulted: Option<Color>,
    slowest_ms: [u128; 2],
    clean_exit: [bool; 2],
}

/// The stand-in manager: one game between the programs `red` and `blue`, our rules core
/// holding the true game under the manager's rules (no repetition rules, 5000-ply cap).
fn manage(red: Command, blue: Command) -> Report {
    let mut procs = [Proc::spawn(red), Proc::spawn(blue)];
    let mut slowest = [0u128; 2];
    let report = |result: String, plies: usize, faulted: Option<Color>, procs: &mut [Proc; 2], slowest| {
        for p in procs.iter_mut() {
            p.send("QUIT");
        }
        let clean = [procs[0].wait_exit(TIMEOUT), procs[1].wait_exit(TIMEOUT)];
        Report {
            result,
            plies,
            faulted,
            slowest_ms: slowest,
            clean_exit: clean,
        }
    };
    let mut setups = Vec::new();
    for c in Color::BOTH {
        let p = &mut procs[c.index()];
        p.send(&format!(
            "{} opponent 10 10",
            if c == Color::Red { "RED" } else { "BLUE" }
        ));
        let t0 = Instant::now();
        let mut rows = Vec::new();
        for _ in 0..4 {
            match p.recv(TIMEOUT.saturating_sub(t0.elapsed())) {
                Ok(l) => rows.push(l),
                Err(e) => return report(format!("TIMEOUT {c} setup: {e}"), 0, Some(c), &mut procs, slowest),
            }
        }
        match setup_from_rows(&rows, c) {
            Ok(s) => setups.push(s),
            Err(e) => return report(format!("ILLEGAL {c} setup: {e}"), 0, Some(c), &mut procs, slowest),
        }
    }
    let rules = Rules::ucc();
    let mut pos = Position::from_setups(classic(), rules, &setups[0], &setups[1]).unwrap();
    let mut confirmation = "START".to_string();
    let mut plies = 0;
    loop {
        let side = pos.side_to_move();
        let p = &mut procs[side.index()];
        p.send(&confirmation);
        for row in board_rows(&pos, side) {
            p.send(&row);
        }
        let t0 = Instant::now();
        let line = match p.recv(TIMEOUT) {
            Ok(l) => l,
            Err(e) => return report(format!("TIMEOUT {side}: {e}"), plies, Some(side), &mut procs, slowest),
        };
        slowest[side.index()] = slowest[side.index()].max(t0.elapsed().as_millis());
        if line.trim() == "SURRENDER" {
            return report(format!("SURRENDER {side}"), plies, Some(side), &mut procs, slowest);
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let mv = match move_from_ucc(&tokens) {
            Ok((mv, used)) if used == tokens.len() => mv,
            Ok(_) => {
                return report(
                    format!("ILLEGAL {side}: '{line}'"),
                    plies,
                    Some(side),
                    &mut procs,
                    slowest,
                )
            }
            Err(e) => {
                return report(
                    format!("ILLEGAL {side}: '{line}': {e}"),
                    plies,
                    Some(side),
                    &mut procs,
                    slowest,
                )
            }
        };
        if let Some(why) = pos.illegal_reason(mv) {
            p.send(&format!("{line} ILLEGAL"));
            return report(
                format!("ILLEGAL {side}: '{line}' ({mv}): {why}"),
                plies,
                Some(side),
                &mut procs,
                slowest,
            );
        }
        let out = pos.make(mv);
        plies += 1;
        let end = pos.game_end();
        let mut outcome = Outcome::of_combat(out.combat);
        if end.is_some_and(|e| e.winner == Some(side)) && outcome != Outcome::VictoryFlag {
            outcome = Outcome::VictoryAttrition;
        }
        confirmation = format!("{} {}", tokens.join(" "), outcome.text());
        p.send(&confirmation);
        if let Some(e) = end {
            let result = match e.winner {
                Some(w) => format!("VICTORY {w} ({})", e.reason.name()),
                None => format!("DRAW ({})", e.reason.name()),
            };
            return report(result, plies, None, &mut procs, slowest);
        }
    }
}

fn adapter(seed: u64, movetime: u64) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_marshal-ucc"));
    c.env("MARSHAL_BIN", env!("CARGO_BIN_EXE_marshal"))
        .env("MARSHAL_UCC_MOVETIME", movetime.to_string())
        .env("MARSHAL_UCC_SEED", seed.to_string())
        .env_remove("MARSHAL_UCC_SETUP")
        .env_remove("MARSHAL_UCC_LOG");
    c
}

fn bot() -> Command {
    let mut c = Command::new("python3");
    c.arg("-u")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ucc/random_bot.py"));
    c
}

fn have_python() -> bool {
    Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// 50 whole games, the adapter alternating colours, at the manager's default 2 s timeout:
/// no ILLEGAL, no timeout, and both programs exit cleanly on QUIT.
#[test]
fn fifty_games_against_a_random_bot() {
    if !have_python() {
        eprintln!("python3 not found: skipped");
        return;
    }
    let games: usize = std::env::var("UCC_TEST_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let movetime: u64 = std::env::var("UCC_TEST_MOVETIME")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let t0 = Instant::now();
    let (tx, rx) = channel();
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let (tx, next) = (tx.clone(), next.clone());
            std::thread::spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if i >= games {
                    break;
                }
                let adapter_red = i % 2 == 0;
                let r = if adapter_red {
                    manage(adapter(i as u64, movetime), bot())
                } else {
                    manage(bot(), adapter(i as u64, movetime))
                };
                tx.send((i, adapter_red, r)).unwrap();
            })
        })
        .collect();
    drop(tx);
    let mut results: Vec<_> = rx.iter().collect();
    workers.into_iter().for_each(|w| w.join().unwrap());
    results.sort_by_key(|r| r.0);
    let mut wins = 0;
    let mut slowest = 0;
    for (i, adapter_red, r) in &results {
        let us = if *adapter_red { Color::Red } else { Color::Blue };
        eprintln!(
            "game {i}: adapter {us}: {} after {} plies, slowest reply {:?} ms",
            r.result, r.plies, r.slowest_ms
        );
        assert!(r.faulted.is_none(), "game {i} (adapter {us}): {}", r.result);
        assert!(
            r.clean_exit[us.index()],
            "game {i}: the adapter did not exit cleanly on QUIT"
        );
        slowest = slowest.max(r.slowest_ms[us.index()]);
        if r.result.starts_with(&format!("VICTORY {us}")) {
            wins += 1;
        }
    }
    assert_eq!(results.len(), games);
    eprintln!(
        "{games} games in {:.1} s: the adapter won {wins}, slowest adapter reply {slowest} ms",
        t0.elapsed().as_secs_f64()
    );
    assert!(
        wins * 10 >= games * 9,
        "the adapter won only {wins} of {games} against a random bot"
    );
}
