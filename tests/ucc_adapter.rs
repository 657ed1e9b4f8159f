//! The UCC adapter (`marshal-ucc`) without third-party programs: golden checks of the
//! translation, and a stand-in UCC 2012 manager (written from the manager's manual,
//! `web/doc/manager_manual.txt` of `ucc/progcomp2012`)
//! that plays whole games of the adapter against a random UCC bot (`tests/ucc/random_bot.py`)
//! and can write the manager's `-o` game log, which `marshal replay` reads back.

use marshal::formats::record::describe_end;
use marshal::rules::{Color, EndReason, Move, Position, Rank, Rules, Setup, Variant};
use marshal::ucc::*;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

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
    let parse = |t: &[&str]| Outcome::parse(t).unwrap().unwrap();
    let seen = |o: Outcome, s: &str| o.observed(m(s)).map(|om| om.to_string());
    let o = parse(&["KILLS", "s", "1"]);
    assert_eq!(o, Outcome::Kills(Rank::Spy, Rank::Marshal));
    assert_eq!(seen(o, "e4e5").unwrap(), "e4e5:SxM");
    let o = parse(&["BOTHDIE", "9", "9"]);
    assert_eq!(seen(o, "b4b8").unwrap(), "b4b8:2x2");
    assert_eq!(seen(parse(&["DIES", "3", "B"]), "e6e7").unwrap(), "e6e7:8xB");
    assert_eq!(seen(parse(&["OK"]), "e6e7").unwrap(), "e6e7");
    assert_eq!(seen(parse(&["ILLEGAL"]), "e6e7"), None);
    assert_eq!(Outcome::parse(&["NONSENSE"]), Ok(None));
    assert_eq!(Outcome::Dies(Rank::Miner, Rank::Bomb).to_string(), "DIES 8 B");
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

/// The manager's default reply timeout (what the adapter is held to).
const TIMEOUT: Duration = Duration::from_secs(2);
/// The reply timeout of our Python test bot: it is the fixture, not what is tested, and a
/// loaded machine can delay a Python start-up by seconds.
const BOT_TIMEOUT: Duration = Duration::from_secs(15);

/// The reply timeout the stand-in manager gives a program.
fn timeout_for(cmd: &Command) -> Duration {
    if cmd.get_program() == "python3" {
        BOT_TIMEOUT
    } else {
        TIMEOUT
    }
}

/// The manager's default turn cap (`-m`): at turn 5000 the game is a draw.
const MAX_TURNS: u64 = 5000;

#[derive(Debug)]
struct Report {
    /// `VICTORY red`, `DRAW`, or a fault (`ILLEGAL ...`, `TIMEOUT ...`, `SURRENDER ...`).
    result: String,
    /// The end in our words as `marshal replay` prints it after `result `, e.g.
    /// `red wins (flag_captured) after 57 plies`.
    replay: String,
    plies: usize,
    faulted: Option<Color>,
    slowest_ms: [u128; 2],
    clean_exit: [bool; 2],
}

/// Switches of the stand-in manager: its turn cap (`-m`) and a game log (`-o FILE`).
struct Options {
    max_turns: u64,
    log: Option<std::path::PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_turns: MAX_TURNS,
            log: None,
        }
    }
}

/// The manager's `-o` log as its manual describes it: both
/// setup blocks, one line per move (`<turn> RED: <move> <outcome>`, Blue's tagged `BLU`
/// as the manager writes it), `Game ends on <COLOUR>'s turn - REASON: ...` and the result
/// line `<player> <COLOUR> <RESULT> <turn> <red-value> <blue-value>`.
struct GameLog {
    file: Option<std::fs::File>,
    names: [String; 2],
}

impl GameLog {
    fn line(&mut self, text: &str) {
        if let Some(f) = self.file.as_mut() {
            let _ = writeln!(f, "{text}");
        }
    }

    fn setup(&mut self, c: Color, rows: Option<&[String]>) {
        let header = format!("{} {} SETUP", self.names[c.index()], colour_word(c));
        self.line(&header);
        match rows {
            Some(rows) => rows.iter().for_each(|r| self.line(r)),
            None => self.line("INVALID!"),
        }
    }

    fn mv(&mut self, turn: u64, c: Color, text: &str) {
        let tag = if c == Color::Red { "RED" } else { "BLU" };
        self.line(&format!("{turn} {tag}: {text}"));
    }

    /// The closing lines, about `on_move` (the player on move when the game ended).
    fn end(&mut self, on_move: Color, reason: &str, result: &str, turn: u64, pos: Option<&Position>) {
        let w = colour_word(on_move);
        self.line(&format!("Game ends on {w}'s turn - REASON: {reason}"));
        let value = |c| pos.map_or(0, |p| piece_value(p, c));
        let line = format!(
            "{} {w} {result} {turn} {} {}",
            self.names[on_move.index()],
            value(Color::Red),
            value(Color::Blue)
        );
        self.line(&line);
    }
}

fn colour_word(c: Color) -> &'static str {
    if c == Color::Red {
        "RED"
    } else {
        "BLUE"
    }
}

/// The manager's piece value of a side: its ranks summed (Spy 1 .. Marshal 10).
fn piece_value(pos: &Position, c: Color) -> u32 {
    Rank::ALL
        .iter()
        .filter(|r| r.is_movable())
        .map(|&r| pos.count(c, r) as u32 * r as u32)
        .sum()
}

/// The manager names a player after its program (here: the script for the Python bot).
fn program_name(cmd: &Command) -> String {
    let last = cmd.get_args().last().unwrap_or(cmd.get_program());
    std::path::Path::new(last)
        .file_name()
        .map_or("player".into(), |n| n.to_string_lossy().into_owned())
}

/// The stand-in manager with its defaults: no log, 5000-turn cap.
fn manage(red: Command, blue: Command) -> Report {
    manage_with(red, blue, &Options::default())
}

/// The stand-in manager: one game between the programs `red` and `blue`, our rules core
/// holding the true game under the manager's rules (no repetition rules; the turn cap
/// `opts.max_turns`, checked before Red's move as the manager does).
fn manage_with(red: Command, blue: Command, opts: &Options) -> Report {
    let limits = [timeout_for(&red), timeout_for(&blue)];
    let mut log = GameLog {
        file: opts
            .log
            .as_ref()
            .map(|p| std::fs::File::create(p).expect("create the log")),
        names: [program_name(&red), program_name(&blue)],
    };
    let mut procs = [Proc::spawn(red), Proc::spawn(blue)];
    let mut slowest = [0u128; 2];
    let report =
        |result: String, replay: String, plies: usize, faulted: Option<Color>, procs: &mut [Proc; 2], slowest| {
            for p in procs.iter_mut() {
                p.send("QUIT");
            }
            let clean = [procs[0].wait_exit(limits[0]), procs[1].wait_exit(limits[1])];
            Report {
                result,
                replay,
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
        let mut bad = None;
        for _ in 0..4 {
            match p.recv(limits[c.index()].saturating_sub(t0.elapsed())) {
                Ok(l) => rows.push(l),
                Err(e) => {
                    bad = Some(format!("TIMEOUT {c} setup: {e}"));
                    break;
                }
            }
        }
        if bad.is_none() {
            match setup_from_rows(&rows, c) {
                Ok(s) => setups.push(s),
                Err(e) => bad = Some(format!("ILLEGAL {c} setup: {e}")),
            }
        }
        if let Some(why) = bad {
            log.setup(c, None);
            log.end(
                c,
                &format!("An illegal setup was made by {}", colour_word(c)),
                "BAD_SETUP",
                0,
                None,
            );
            return report(why, "none (no game)".into(), 0, Some(c), &mut procs, slowest);
        }
    }
    for c in Color::BOTH {
        log.setup(c, Some(&setup_to_rows(&setups[c.index()], c)));
    }
    // No ply caps in the rules: the manager counts turns itself. Its end rule: a side
    // walled in by its own move plays on (the other side may free it). A side to move that
    // is walled in loses here at once, where the manager would have its program fail to
    // move; the log reader takes both as that side's loss.
    let rules = Rules {
        max_plies: None,
        max_quiet_plies: None,
        end_on_turn: true,
        ..Rules::ucc()
    };
    let mut pos = Position::from_setups(classic(), rules, &setups[0], &setups[1]).unwrap();
    let mut confirmation = "START".to_string();
    let mut plies = 0;
    loop {
        let side = pos.side_to_move();
        let turn = plies as u64 / 2 + 1;
        let other_wins = |how: &str| format!("{} wins ({how}) after {plies} plies", side.flip());
        if side == Color::Red && turn >= opts.max_turns {
            let (on_move, replay) = if plies == 0 {
                (Color::Red, "unfinished after 0 plies (red to move)".to_string())
            } else {
                (Color::Blue, format!("draw (move_cap) after {plies} plies"))
            };
            let reason = format!("Game declared a draw after {turn} turns");
            log.end(on_move, &reason, "DRAW_DEFAULT", turn, Some(&pos));
            return report("DRAW (turn cap)".into(), replay, plies, None, &mut procs, slowest);
        }
        let p = &mut procs[side.index()];
        p.send(&confirmation);
        for row in board_rows(&pos, side) {
            p.send(&row);
        }
        let t0 = Instant::now();
        let line = match p.recv(limits[side.index()]) {
            Ok(l) => l,
            Err(e) => {
                log.mv(turn, side, "");
                let reason = format!(
                    "Response timeout after {:.6} seconds.",
                    limits[side.index()].as_secs_f64()
                );
                log.end(side, &reason, "ILLEGAL", turn, Some(&pos));
                let replay = other_wins("forfeit");
                return report(
                    format!("TIMEOUT {side}: {e}"),
                    replay,
                    plies,
                    Some(side),
                    &mut procs,
                    slowest,
                );
            }
        };
        slowest[side.index()] = slowest[side.index()].max(t0.elapsed().as_millis());
        let fault = |log: &mut GameLog, logged: &str, reason: &str| {
            log.mv(turn, side, logged);
            log.end(side, reason, "ILLEGAL", turn, Some(&pos));
        };
        if line.trim() == "SURRENDER" {
            log.mv(turn, side, "SURRENDER");
            log.end(side, "This player has surrendered!", "SURRENDER", turn, Some(&pos));
            let replay = other_wins("resignation");
            return report(
                format!("SURRENDER {side}"),
                replay,
                plies,
                Some(side),
                &mut procs,
                slowest,
            );
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let mv = match move_from_ucc(&tokens) {
            Ok((mv, used)) if used == tokens.len() => mv,
            Ok(_) => {
                fault(&mut log, &line, "Unintelligable response");
                let replay = other_wins("forfeit");
                return report(
                    format!("ILLEGAL {side}: '{line}'"),
                    replay,
                    plies,
                    Some(side),
                    &mut procs,
                    slowest,
                );
            }
            Err(e) => {
                fault(&mut log, &line, "Unintelligable response");
                let replay = other_wins("forfeit");
                return report(
                    format!("ILLEGAL {side}: '{line}': {e}"),
                    replay,
                    plies,
                    Some(side),
                    &mut procs,
                    slowest,
                );
            }
        };
        if let Some(why) = pos.illegal_reason(mv) {
            p.send(&format!("{line} ILLEGAL"));
            fault(&mut log, &format!("{} ILLEGAL", tokens.join(" ")), &why);
            return report(
                format!("ILLEGAL {side}: '{line}' ({mv}): {why}"),
                other_wins("forfeit"),
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
        confirmation = format!("{} {outcome}", tokens.join(" "));
        p.send(&confirmation);
        // The manager logs the confirmation it sends.
        log.mv(turn, side, &confirmation);
        if let Some(e) = end {
            let replay = format!("{} after {plies} plies", describe_end(&e));
            let result = match e.winner {
                Some(w) => {
                    // A side that lost its last movable piece by its own move loses when
                    // the manager next checks, before the other side's move (Red's comes
                    // in the next turn).
                    let t = if w == side || side == Color::Red {
                        turn
                    } else {
                        turn + 1
                    };
                    let reason = if e.reason == EndReason::FlagCaptured {
                        "Captured the flag"
                    } else {
                        "Destroyed all mobile enemy pieces"
                    };
                    log.end(w, reason, "VICTORY", t, Some(&pos));
                    format!("VICTORY {w} ({})", e.reason.name())
                }
                None => {
                    let reason = "Game declared a draw because neither player has mobile pieces";
                    log.end(side, reason, "DRAW", turn, Some(&pos));
                    format!("DRAW ({})", e.reason.name())
                }
            };
            return report(result, replay, plies, None, &mut procs, slowest);
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

/// The stand-in manager times every reply (2 s), so the tests that play games take turns
/// rather than slow each other's players down on a small machine.
fn timed_games() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The turn of a test that plays games against the Python bot (`timed_games`), or `None`
/// (the test is skipped, and says so) where there is no `python3`.
fn python_turn() -> Option<std::sync::MutexGuard<'static, ()>> {
    if !have_python() {
        eprintln!("python3 not found: skipped");
        return None;
    }
    Some(timed_games())
}

/// 10 whole games (`UCC_TEST_GAMES` for more), the adapter alternating colours, at the
/// manager's default 2 s timeout: no ILLEGAL, no timeout, both programs exit cleanly on
/// QUIT, and the adapter wins at least 9 in 10. The adapter asks for 40 ms a move (10 ms of
/// search after the engine's default 30 ms overhead; 50 ms took twice as long for the same
/// checks). Ten games keep CI under its six minutes; 50 were played to choose the count,
/// all won.
#[test]
fn games_against_a_random_bot() {
    let Some(_turn) = python_turn() else {
        return;
    };
    let games: usize = std::env::var("UCC_TEST_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let movetime: u64 = std::env::var("UCC_TEST_MOVETIME")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
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

/// The stand-in manager writes `-o` logs of a few games (the adapter against the bot in
/// both colours, the bot against itself, and a game stopped early by a low turn cap);
/// `marshal replay` reads each log and reaches the result the manager saw. The same log
/// with one combat outcome changed is rejected, naming that line.
#[test]
fn manager_logs_replay_to_the_same_result() {
    let Some(_turn) = python_turn() else {
        return;
    };
    let t0 = Instant::now();
    let tmp = tempfile::Builder::new()
        .prefix("marshal-ucc-logs-")
        .tempdir()
        .expect("temp dir");
    let dir = tmp.path().to_path_buf();
    let games: Vec<(&str, Command, Command, u64)> = vec![
        // A turn cap of 300 bounds the test's time: against the random bot the adapter
        // mostly wins in 30-400 turns, timing-dependent, but one game ran past 1,000; a
        // cut-short game still replays to the manager's draw.
        ("adapter-red", adapter(11, 20), bot(), 300),
        ("adapter-blue", bot(), adapter(12, 20), 300),
        ("bots", bot(), bot(), 1000),
        ("turn-cap", adapter(13, 20), bot(), 6),
    ];
    let mut corrupted = false;
    for (name, red, blue, max_turns) in games {
        let path = dir.join(format!("{name}.log"));
        let opts = Options {
            max_turns,
            log: Some(path.clone()),
        };
        let report = manage_with(red, blue, &opts);
        let text = std::fs::read_to_string(&path).unwrap();
        eprintln!("{name}: manager: {} after {} plies", report.result, report.plies);
        assert!(report.faulted.is_none(), "{name}: {}", report.result);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].ends_with(" RED SETUP") && lines[5].ends_with(" BLUE SETUP"),
            "{text}"
        );
        let move_lines = lines
            .iter()
            .filter(|l| l.contains(" RED: ") || l.contains(" BLU: "))
            .count();
        assert_eq!(move_lines, report.plies, "{name}");
        let replay = |p: &std::path::Path| {
            let out = Command::new(env!("CARGO_BIN_EXE_marshal"))
                .arg("replay")
                .arg(p)
                .output()
                .expect("run marshal replay");
            (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
        };
        let (code, out) = replay(&path);
        eprintln!("{name}: replay: {}", out.trim().replace('\n', " | "));
        assert_eq!(code, Some(0), "{name}: {out}\n{text}");
        let result_line = lines.last().unwrap();
        assert_eq!(
            out.lines().next().unwrap_or_default(),
            format!(
                "ucc log {} (red) vs {} (blue), result line {}: {result_line}",
                lines[0].trim_end_matches(" RED SETUP"),
                lines[5].trim_end_matches(" BLUE SETUP"),
                lines.len()
            )
        );
        assert_eq!(
            out.lines().last().unwrap_or_default(),
            format!("result {}", report.replay),
            "{name}"
        );
        if name == "turn-cap" {
            assert!(result_line.contains(" DRAW_DEFAULT 6 ") || report.plies < 10, "{text}");
        }
        // One changed outcome: the replay names its line.
        let attack = lines.iter().position(|l| l.contains(" KILLS ") || l.contains(" DIES "));
        if let Some(i) = attack {
            let swapped = if lines[i].contains(" KILLS ") {
                lines[i].replace(" KILLS ", " DIES ")
            } else {
                lines[i].replace(" DIES ", " KILLS ")
            };
            let mut bad: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            bad[i] = swapped;
            let bad_path = dir.join(format!("{name}-bad.log"));
            std::fs::write(&bad_path, bad.join("\n") + "\n").unwrap();
            let (code, out) = replay(&bad_path);
            assert_eq!(code, Some(1), "{out}");
            assert!(
                out.starts_with(&format!("error UCC log line {}: the log says ", i + 1)),
                "{name}: {out}"
            );
            corrupted = true;
        }
    }
    assert!(corrupted, "no game had an attack");
    if std::env::var_os("UCC_KEEP_LOGS").is_some() {
        eprintln!("logs kept in {}", tmp.keep().display());
    }
    eprintln!("logged games and replays in {:.1} s", t0.elapsed().as_secs_f64());
}

/// `MARSHAL_UCC_THREADS` reaches the engine as its `Threads` option, and a game is played
/// with it; a value the engine refuses ends the adapter with the engine's error, which
/// names the value.
#[test]
fn threads_reach_the_engine_and_a_refused_value_is_named() {
    let Some(_turn) = python_turn() else {
        return;
    };
    let tmp = tempfile::Builder::new()
        .prefix("marshal-ucc-threads-")
        .tempdir()
        .expect("temp dir");
    let log = tmp.path().join("adapter.log");
    let mut two = adapter(5, 20);
    two.env("MARSHAL_UCC_THREADS", "2").env("MARSHAL_UCC_LOG", &log);
    let opts = Options {
        max_turns: 20,
        log: None,
    };
    let report = manage_with(two, bot(), &opts);
    assert!(report.faulted.is_none(), "{}", report.result);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("engine< setoption name Threads value 2\n"), "{text}");
    assert!(!text.contains("info string error"), "{text}");
    assert!(text.contains("engine> bestmove "), "{text}");

    let mut bad = adapter(5, 20);
    bad.env("MARSHAL_UCC_THREADS", "99")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = bad.spawn().expect("start marshal-ucc");
    child.stdin.take().unwrap().write_all(b"RED bot 10 10\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the engine rejected a command") && err.contains("99"),
        "{err}"
    );
    // No setup reached the manager.
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
}
