//! Protocol fuzzing: random and mutated input lines must never panic or hang the engine;
//! every rejected line gets exactly one `info string error` line and changes nothing.

use marshal::engine::Session;
use marshal::protocol::options::Options;
use marshal::protocol::{Command, COMMANDS};
use marshal::rules::{Color, Position, Setup, Variant};
use rand::{rngs::StdRng, seq::SliceRandom, Rng, SeedableRng};
use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::{Command as Proc, Stdio};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// A writer the test can read back while the engine owns it.
#[derive(Clone, Default)]
struct Buf(Rc<RefCell<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "8",
    "9",
    "12",
    "13",
    "-0",
    "+1",
    "007",
    "4000",
    "1000000",
    "1000001",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999999999999",
    "1.5",
    "1e3",
    "0x1f",
    "NaN",
    "inf",
    "٣",
    "５",
];
const SQUARES: &[&str] = &[
    "a1", "j10", "e4", "e5", "c5", "h6", "k1", "a0", "a11", "a01", "A1", "e", "4e", "e4e5", "z9", "j11", "a-1", "e10",
    "a7", "j7", "b8", "e8",
];
const PIECES: &[&str] = &[
    "F", "B", "S", "1", "2", "9", "10", "M", "m", "f", "?", "X", "0", "11", "-", "3", "7",
];
const COLOURS: &[&str] = &["red", "blue", "r", "b", "RED", "Blue", "green", "white", "redd", "-"];
const KEYWORDS: &[&str] = &[
    "name",
    "value",
    "setup",
    "enemy",
    "moves",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "depth",
    "nodes",
    "infinite",
    "searchmoves",
];
const OPTION_NAMES: &[&str] = &[
    "Variant",
    "TwoSquares",
    "MoreSquares",
    "AttackerAdvantage",
    "SilentDefence",
    "Rescue",
    "MaxPlies",
    "MaxQuietPlies",
    "Seed",
    "Threads",
    "MoveOverhead",
    "Move Overhead",
    "two-squares",
    "Hash",
];
const BOOLS: &[&str] = &["true", "false", "on", "off", "ON", "yes", "1", "0", ""];
const MOVES: &[&str] = &[
    "e4e5",
    "a4a5",
    "j7j6",
    "e4e5:7x5",
    "e4e5:?x?:a",
    "e4e5:?x?",
    "e4e5:7x5:q",
    "e4e5:x",
    "0000",
    "d9d10+Mc3",
    "e4e5:7x5:a:b",
    "e4e5::",
    "a4a5:10x1",
    "a4a9",
    "c4c5",
    "a4a4",
    "a4b5",
    "e4e5+",
    "e4e5+M",
    "e4e5+Mz1",
];
const VARIANTS: &[&str] = &[
    "classic",
    "compact",
    "duel",
    "duel-compact",
    "barrage",
    "custom:10x10:F=1,B=6,S=1,2=6,3=5,4=5,5=4,6=4,7=3,8=2,9=1,M=1",
    "custom:10x8:F=1,2=3",
    "custom:10x10:F=1",
    "custom:10x10:F=1,B=39",
    "custom:10x10:F=1,2=40",
    "custom:10x10:F=0,M=1",
    "custom:9x9:F=1",
    "custom:10x10:F=1,B=100",
    "custom:10x10:",
    "Classic",
    "chess",
];

fn pick<'a>(rng: &mut StdRng, xs: &[&'a str]) -> &'a str {
    xs[rng.gen_range(0..xs.len())]
}

/// A random game from generated setups: the setups, the moves in observed form (both
/// ranks of every attack) and the final position.
fn random_game(
    v: &Variant,
    o: &Options,
    rng: &mut StdRng,
    plies: usize,
) -> Option<(Setup, Setup, Vec<String>, Position)> {
    let red = marshal::setup::generate(v, rng);
    let blue = marshal::setup::generate(v, rng);
    let mut pos = Position::from_setups(*v, o.rules, &red, &blue).ok()?;
    let mut moves = Vec::new();
    for _ in 0..plies {
        if pos.game_end().is_some() {
            break;
        }
        let legal = pos.legal_moves();
        let Some(&mv) = legal.choose(rng) else { break };
        let out = pos.make(mv);
        moves.push(match out.combat {
            Some((a, d, _)) => format!("{mv}:{}x{}", a.to_char(), d.to_char()),
            None => mv.to_string(),
        });
    }
    Some((red, blue, moves, pos))
}

/// Lines the parser must reject whatever the state.
fn must_reject(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return false;
    }
    let toks: Vec<&str> = t.split_whitespace().collect();
    if !COMMANDS.contains(&toks[0]) {
        return true;
    }
    let no_args = ["stratego", "isready", "newgame", "stop", "quit", "d", "bench", "help"];
    no_args.contains(&toks[0]) && toks.len() > 1
}

struct Fuzz {
    engine: Session<Buf>,
    buf: Buf,
    rng: StdRng,
    /// The options as the test believes the engine has them.
    opts: Options,
    /// Recent valid lines, the material of mutations.
    pool: Vec<String>,
    /// Lines to go before a running search is drained, and bestmoves seen since its `go`.
    drain_in: Option<usize>,
    bestmoves: usize,
    fed: usize,
    rejected: usize,
    /// Accepted `position` lines and searches started.
    positions: usize,
    searches: usize,
    progress: Arc<AtomicU64>,
    last: Arc<Mutex<String>>,
}

impl Fuzz {
    fn new(seed: u64, progress: Arc<AtomicU64>, last: Arc<Mutex<String>>) -> Fuzz {
        let buf = Buf::default();
        Fuzz {
            engine: Session::new(buf.clone(), Arc::new(AtomicBool::new(false))),
            buf,
            rng: StdRng::seed_from_u64(seed),
            opts: Options::default(),
            pool: vec!["newgame".into(), "setup red".into(), "go nodes 100".into()],
            drain_in: None,
            bestmoves: 0,
            fed: 0,
            rejected: 0,
            positions: 0,
            searches: 0,
            progress,
            last,
        }
    }

    /// Feeds one line and checks the invariants.
    fn feed(&mut self, line: &str) {
        let parsed = line.parse::<Command>();
        // Keep the run short: no benchmark, no deep perft.
        match parsed {
            Ok(Command::Bench) => return,
            Ok(Command::Perft { depth }) if depth > 2 => return,
            _ => {}
        }
        let shown: String = line.chars().take(300).collect();
        *self.last.lock().unwrap() = shown.clone();
        let before = self.engine.snapshot();
        self.buf.0.borrow_mut().clear();
        let t = Instant::now();
        let engine = &mut self.engine;
        let r = catch_unwind(AssertUnwindSafe(|| engine.handle_line(line, Instant::now())));
        assert!(r.is_ok(), "engine panicked on line {shown:?}");
        let dt = t.elapsed();
        assert!(dt < Duration::from_secs(5), "line {shown:?} took {dt:?}");
        self.fed += 1;
        self.progress.store(self.fed as u64, Ordering::SeqCst);
        let out = String::from_utf8(self.buf.0.borrow().clone()).expect("output is UTF-8");
        let lines: Vec<&str> = out.lines().collect();
        let errors = lines.iter().filter(|l| l.starts_with("info string error")).count();
        self.bestmoves += lines.iter().filter(|l| l.starts_with("bestmove")).count();
        if errors > 0 {
            self.rejected += 1;
            assert_eq!(lines.len(), 1, "line {shown:?} got {lines:?}");
            assert_eq!(
                self.engine.snapshot(),
                before,
                "rejected line {shown:?} ({}) changed the state",
                lines[0]
            );
        } else {
            assert!(!must_reject(line), "line {shown:?} was not rejected: {lines:?}");
            match parsed {
                Ok(Command::SetOption { name, value }) => {
                    self.opts = self
                        .opts
                        .with(&name, &value)
                        .unwrap_or_else(|e| panic!("engine took {shown:?}, Options::with says {e}"));
                }
                Ok(Command::Position(_)) => self.positions += 1,
                Ok(Command::Go(_)) => {
                    self.searches += 1;
                    if self.drain_in.is_some() {
                        assert_eq!(self.bestmoves, 1, "go {shown:?} accepted during a search");
                    }
                    self.drain_in = Some(self.rng.gen_range(0..5));
                    self.bestmoves = 0;
                }
                _ => {}
            }
        }
        if let Some(n) = self.drain_in {
            if n == 0 {
                self.drain_in = None;
                // `quit` stops the search and waits for its bestmove, and changes nothing.
                let before = self.engine.snapshot();
                self.buf.0.borrow_mut().clear();
                let engine = &mut self.engine;
                let r = catch_unwind(AssertUnwindSafe(|| engine.handle_line("quit", Instant::now())));
                assert!(r.is_ok(), "engine panicked draining a search");
                let out = String::from_utf8(self.buf.0.borrow().clone()).unwrap();
                self.bestmoves += out.lines().filter(|l| l.starts_with("bestmove")).count();
                assert_eq!(self.bestmoves, 1, "one search, bestmoves: {out}");
                assert_eq!(self.engine.snapshot(), before);
            } else {
                self.drain_in = Some(n - 1);
            }
        }
    }

    fn colour(&mut self) -> Color {
        if self.rng.gen() {
            Color::Red
        } else {
            Color::Blue
        }
    }

    /// A valid (or nearly valid) line that moves the engine into interesting states.
    fn valid(&mut self) -> String {
        let v = self.opts.variant;
        let c = self.colour();
        let line = match self.rng.gen_range(0..20) {
            0 => "newgame".to_string(),
            1 | 2 => format!("setup {c}"),
            3 => format!("setup {c} {}", marshal::setup::generate(&v, &mut self.rng)),
            4..=8 => {
                let plies = self.rng.gen_range(0..120);
                let opts = self.opts.clone();
                match random_game(&v, &opts, &mut self.rng, plies) {
                    Some((red, blue, moves, pos)) => {
                        // Mostly leave the engine to move.
                        let c = if self.rng.gen_bool(0.8) { pos.side_to_move() } else { c };
                        let own = if c == Color::Red { &red } else { &blue };
                        let start = Position::from_setups(v, opts.rules, &red, &blue).unwrap();
                        let mut l = format!("position {c} setup {own}");
                        if !v.fills_zone() || self.rng.gen_bool(0.1) {
                            l.push_str(" enemy");
                            for sq in v.squares() {
                                if start.piece_at(sq).is_some_and(|p| p.color() != c) {
                                    l.push_str(&format!(" {sq}"));
                                }
                            }
                        }
                        if !moves.is_empty() || self.rng.gen() {
                            l.push_str(" moves");
                        }
                        for m in moves {
                            l.push(' ');
                            l.push_str(&m);
                        }
                        l
                    }
                    None => "newgame".into(),
                }
            }
            9 | 10 => match self.rng.gen_range(0..6) {
                0 => format!("go nodes {}", self.rng.gen_range(1..2000)),
                1 => format!("go depth {}", self.rng.gen_range(1..3)),
                2 => "go depth 2 nodes 500".into(),
                3 => "go movetime 5".into(),
                4 => "go wtime 100 btime 100 winc 1 binc 1".into(),
                _ => "go infinite".into(),
            },
            11 | 12 => {
                let (n, val) = match self.rng.gen_range(0..9) {
                    0 => ("Seed", self.rng.gen_range(0..1000u64).to_string()),
                    1 => ("TwoSquares", self.rng.gen_range(0..=12u64).to_string()),
                    2 => ("MoreSquares", pick(&mut self.rng, &["true", "false"]).into()),
                    3 => ("AttackerAdvantage", pick(&mut self.rng, &["true", "false"]).into()),
                    4 => ("MaxPlies", pick(&mut self.rng, &["0", "50", "4000"]).into()),
                    5 => ("MaxQuietPlies", pick(&mut self.rng, &["0", "20", "200"]).into()),
                    6 => ("MoveOverhead", "10".into()),
                    7 => ("Rescue", pick(&mut self.rng, &["on", "off"]).into()),
                    _ => (
                        "Variant",
                        pick(
                            &mut self.rng,
                            &["classic", "classic", "classic", "compact", "barrage", "duel"],
                        )
                        .into(),
                    ),
                };
                format!("setoption name {n} value {val}")
            }
            13 => format!(
                "reveal {} {}",
                pick(&mut self.rng, SQUARES),
                pick(&mut self.rng, PIECES)
            ),
            14 => "perft 1".into(),
            15 => "d".into(),
            16 => "stop".into(),
            17 => "isready".into(),
            18 => pick(&mut self.rng, &["stratego", "help", "# comment", "", "   "]).into(),
            _ => format!("perft {}", self.rng.gen_range(1..3)),
        };
        if self.pool.len() >= 64 {
            let i = self.rng.gen_range(0..self.pool.len());
            self.pool.swap_remove(i);
        }
        self.pool.push(line.clone());
        line
    }

    fn random_token(&mut self) -> String {
        let r = &mut self.rng;
        match r.gen_range(0..12) {
            0 | 1 => pick(r, NUMBERS).into(),
            2 => pick(r, SQUARES).into(),
            3 => pick(r, PIECES).into(),
            4 => pick(r, COLOURS).into(),
            5 => pick(r, KEYWORDS).into(),
            6 => pick(r, OPTION_NAMES).into(),
            7 => pick(r, BOOLS).into(),
            8 => pick(r, MOVES).into(),
            9 => pick(r, VARIANTS).into(),
            10 => pick(r, COMMANDS).into(),
            _ => {
                let v = Variant::parse(pick(r, &["classic", "barrage", "compact"])).unwrap();
                let s = marshal::setup::generate(&v, r).to_string();
                mutate_chars(r, &s)
            }
        }
    }

    /// A mutation of a recent valid line.
    fn mutated(&mut self) -> String {
        let base = self.pool[self.rng.gen_range(0..self.pool.len())].clone();
        let mut toks: Vec<String> = base.split(' ').map(String::from).collect();
        let rounds = self.rng.gen_range(1..4);
        for _ in 0..rounds {
            let n = toks.len();
            match self.rng.gen_range(0..9) {
                0 if n > 1 => {
                    toks.remove(self.rng.gen_range(1..n));
                }
                1 => {
                    let i = self.rng.gen_range(0..n);
                    toks.insert(i + 1, toks[i].clone());
                }
                2 if n > 2 => {
                    let (i, j) = (self.rng.gen_range(1..n), self.rng.gen_range(1..n));
                    toks.swap(i, j);
                }
                3 => toks[1.min(n - 1)..].shuffle(&mut self.rng),
                4 => {
                    let i = self.rng.gen_range(0..=n);
                    let t = self.random_token();
                    toks.insert(i.max(1).min(n), t);
                }
                5 if n > 1 => {
                    let i = self.rng.gen_range(1..n);
                    toks[i] = self.random_token();
                }
                6 => {
                    let i = self.rng.gen_range(0..n);
                    toks[i] = mutate_chars(&mut self.rng, &toks[i]);
                }
                7 => toks.truncate(self.rng.gen_range(1..=n)),
                _ => {
                    let i = self.rng.gen_range(0..n);
                    let cut = self.rng.gen_range(0..=toks[i].chars().count());
                    toks[i] = toks[i].chars().take(cut).collect();
                }
            }
        }
        let mut line = toks.join(" ");
        if self.rng.gen_bool(0.05) {
            let cut = self.rng.gen_range(0..=line.chars().count());
            line = line.chars().take(cut).collect();
        }
        line
    }

    /// A command name with random arguments.
    fn command_with_junk(&mut self) -> String {
        let mut l = pick(&mut self.rng, COMMANDS).to_string();
        for _ in 0..self.rng.gen_range(0..7) {
            l.push(' ');
            l.push_str(&self.random_token());
        }
        l
    }

    /// Random bytes, random unicode or a very long line.
    fn garbage(&mut self) -> String {
        let r = &mut self.rng;
        match r.gen_range(0..10) {
            0..=3 => {
                let bytes: Vec<u8> = (0..r.gen_range(0..80)).map(|_| r.gen()).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            }
            4..=6 => (0..r.gen_range(0..40))
                .map(|_| match r.gen_range(0..4) {
                    0 => r.gen::<char>(),
                    1 => *[' ', '\t', '\u{a0}', '\u{3000}', '\r', '\0', '#', ':', 'x', '+']
                        .choose(r)
                        .unwrap(),
                    _ => r.gen_range(' '..='~'),
                })
                .collect(),
            7 => {
                // A command name glued to junk or with odd whitespace.
                let c = pick(r, COMMANDS);
                pick(r, &["\t", "\u{a0}", "\u{3000}", "\r", "", "  "]).to_string()
                    + c
                    + pick(r, &["\t1", "\u{a0}x", "\r", "x", " \r"])
            }
            _ => {
                let n = r.gen_range(1_000..60_000);
                match r.gen_range(0..5) {
                    0 => format!("position red moves {}", vec!["a4a5"; n / 5].join(" ")),
                    1 => format!("setoption name {} value 1", "a".repeat(n)),
                    2 => format!("go {}", vec!["nodes 1"; n / 7].join(" ")),
                    3 => format!("position blue enemy {}", vec!["a7"; n / 3].join(" ")),
                    _ => (0..n / 4).map(|_| r.gen::<char>()).collect(),
                }
            }
        }
    }

    fn step(&mut self) {
        let line = match self.rng.gen_range(0..100) {
            0..=11 => self.valid(),
            12..=69 => self.mutated(),
            70..=89 => self.command_with_junk(),
            _ => self.garbage(),
        };
        self.feed(&line);
    }
}

fn mutate_chars(r: &mut StdRng, s: &str) -> String {
    let mut cs: Vec<char> = s.chars().collect();
    for _ in 0..r.gen_range(1..3) {
        let n = cs.len();
        match r.gen_range(0..4) {
            0 if n > 0 => {
                cs.remove(r.gen_range(0..n));
            }
            1 if n > 0 => cs[r.gen_range(0..n)] = *b"0123456789abcdefghijkSBFM?/.x:-+".choose(r).unwrap() as char,
            2 => cs.insert(
                r.gen_range(0..=n),
                *b"0123456789ajkSFM?/.x:-".choose(r).unwrap() as char,
            ),
            _ if n > 1 => {
                let (i, j) = (r.gen_range(0..n), r.gen_range(0..n));
                cs.swap(i, j);
            }
            _ => {}
        }
    }
    cs.into_iter().collect()
}

/// Kills the test process if no line finishes for a while (a hang).
fn watchdog(progress: Arc<AtomicU64>, last: Arc<Mutex<String>>, done: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let mut seen = u64::MAX;
        let mut since = Instant::now();
        while !done.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(200));
            let p = progress.load(Ordering::SeqCst);
            if p != seen {
                seen = p;
                since = Instant::now();
            } else if since.elapsed() > Duration::from_secs(20) {
                eprintln!("HANG after {p} lines, on line {:?}", last.lock().unwrap());
                std::process::exit(3);
            }
        }
    });
}

fn fuzz(seed: u64, lines: usize) -> (usize, usize, usize, usize) {
    let progress = Arc::new(AtomicU64::new(0));
    let last = Arc::new(Mutex::new(String::new()));
    let done = Arc::new(AtomicBool::new(false));
    watchdog(Arc::clone(&progress), Arc::clone(&last), Arc::clone(&done));
    let mut f = Fuzz::new(seed, progress, last);
    while f.fed < lines {
        f.step();
    }
    f.feed("quit");
    done.store(true, Ordering::SeqCst);
    (f.fed, f.rejected, f.positions, f.searches)
}

#[test]
fn in_process_fuzz() {
    let t = Instant::now();
    let mut total = (0, 0, 0, 0);
    for seed in 1..=4 {
        let (fed, rejected, positions, searches) = fuzz(seed, 30_000);
        total = (
            total.0 + fed,
            total.1 + rejected,
            total.2 + positions,
            total.3 + searches,
        );
    }
    eprintln!(
        "in-process fuzz: {} lines, {} rejected, {} positions and {} searches accepted, {:?}",
        total.0,
        total.1,
        total.2,
        total.3,
        t.elapsed()
    );
    assert!(total.0 >= 100_000);
    assert!(
        total.2 > 1000 && total.3 > 1000,
        "the fuzz should reach real game states"
    );
    assert!(total.1 > total.0 / 3, "most fuzz lines should be rejected");
}

#[test]
fn binary_survives_fuzz() {
    let mut f = Fuzz::new(77, Arc::new(AtomicU64::new(0)), Arc::new(Mutex::new(String::new())));
    let mut input = Vec::new();
    while input.len() < 3000 {
        let l = match f.rng.gen_range(0..100) {
            0..=19 => f.valid(),
            20..=69 => f.mutated(),
            70..=89 => f.command_with_junk(),
            _ => f.garbage(),
        };
        match l.parse::<Command>() {
            Ok(Command::Bench | Command::Quit) => continue,
            Ok(Command::Perft { depth }) if depth > 2 => continue,
            _ => {}
        }
        // A line break inside a line would make two lines.
        let l = l.replace(['\n', '\r'], " ");
        input.push(l.clone());
        if matches!(l.parse::<Command>(), Ok(Command::Go(_))) {
            input.push("stop".into());
        }
    }
    let mut child = Proc::new(env!("CARGO_BIN_EXE_marshal"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start marshal");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for l in BufReader::new(stdout).lines() {
            let Ok(l) = l else { break };
            if tx.send(l).is_err() {
                break;
            }
        }
    });
    let n = input.len();
    let mut readies = 1 + input
        .iter()
        .filter(|l| matches!(l.parse::<Command>(), Ok(Command::IsReady)))
        .count();
    let writer = std::thread::spawn(move || {
        for l in input {
            writeln!(stdin, "{l}").expect("write to marshal");
        }
        writeln!(stdin, "stop").unwrap();
        writeln!(stdin, "isready").unwrap();
        stdin.flush().unwrap();
        stdin
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut errors = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let l = rx.recv_timeout(left).expect("no readyok in time");
        if l.starts_with("info string error") {
            errors += 1;
        }
        if l == "readyok" {
            readies -= 1;
            if readies == 0 {
                break;
            }
        }
    }
    let mut stdin = writer.join().unwrap();
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("marshal did not exit after quit");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "exit {status:?}, stderr: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
    assert!(errors > n / 4, "{errors} errors for {n} lines");
    eprintln!("binary fuzz: {n} lines, {errors} errors");
}
