//! Self-play through the protocol: two `marshal` processes play each other, refereed by
//! the test, which holds the true game and checks that every `bestmove` is legal.

use marshal::rules::{Color, Move, Position, Rules, Setup, Square, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// One engine process, spoken to over its stdin and stdout.
struct Player {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Player {
    fn start() -> Player {
        let mut child = Command::new(env!("CARGO_BIN_EXE_marshal"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start marshal");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Player { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to marshal");
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`; fails on any error line.
    fn expect(&mut self, prefix: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no '{prefix}' line in time"));
            assert!(!l.starts_with("info string error"), "engine error: {l}");
            if l.starts_with(prefix) {
                return l;
            }
        }
    }

    fn quit(mut self) {
        self.send("quit");
        let t = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                assert!(s.success(), "marshal exited with {s:?}");
                return;
            }
            if t.elapsed() > Duration::from_secs(10) {
                let _ = self.child.kill();
                panic!("marshal did not quit");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Plays one game of `variant` between two engines seeded with `seed`, for at most
/// `max_plies` plies. Returns the plies played.
fn play(variant: &str, seed: u64, max_plies: usize) -> usize {
    let v = Variant::parse(variant).unwrap();
    let mut players = [Player::start(), Player::start()];
    let mut setups = Vec::new();
    for (i, (p, c)) in players.iter_mut().zip([Color::Red, Color::Blue]).enumerate() {
        p.send("stratego");
        p.expect("strategook");
        p.send(&format!("setoption name Variant value {variant}"));
        p.send(&format!("setoption name Seed value {}", seed * 2 + i as u64));
        p.send("newgame");
        p.send(&format!("setup {c}"));
        let answer = p.expect("setup ");
        let text = answer
            .strip_prefix(&format!("setup {c} "))
            .unwrap_or_else(|| panic!("bad setup answer {answer}"));
        setups.push(Setup::parse(text, &v).unwrap_or_else(|e| panic!("bad setup {text}: {e}")));
    }
    let mut pos = Position::from_setups(v, Rules::default(), &setups[0], &setups[1]).unwrap();
    let squares_of = |c: Color| -> String {
        v.squares()
            .filter(|s| pos.piece_at(*s).is_some_and(|p| p.color() == c))
            .map(|s: Square| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let enemy = [squares_of(Color::Blue), squares_of(Color::Red)];
    let mut observed: Vec<String> = Vec::new();
    while observed.len() < max_plies && pos.game_end().is_none() {
        let side = pos.side_to_move();
        let i = side.index();
        let p = &mut players[i];
        let mut line = format!("position {side}");
        if !v.fills_zone() {
            line.push_str(&format!(" enemy {}", enemy[i]));
        }
        if !observed.is_empty() {
            line.push_str(" moves ");
            line.push_str(&observed.join(" "));
        }
        p.send(&line);
        p.send("go nodes 3000");
        let best = p.expect("bestmove ");
        let text = &best["bestmove ".len()..];
        let mv = Move::parse(text).unwrap_or_else(|e| panic!("ply {}: bad bestmove {text}: {e}", observed.len()));
        assert!(
            pos.is_legal(mv),
            "ply {}: {side} played illegal {mv} in {}",
            observed.len(),
            pos.to_text()
        );
        let out = pos.make(mv);
        observed.push(match out.combat {
            Some((a, d, _)) => format!("{mv}:{}x{}", a.to_char(), d.to_char()),
            None => mv.to_string(),
        });
    }
    eprintln!(
        "{variant} seed {seed}: {} plies, end {:?}",
        observed.len(),
        pos.game_end()
    );
    for p in players {
        p.quit();
    }
    observed.len()
}

#[test]
fn classic_selfplay_200_moves() {
    // 200 moves of each side (400 plies), over more games if one ends early.
    let t = Instant::now();
    let mut plies = 0;
    let mut seed = 1;
    while plies < 400 {
        plies += play("classic", seed, 400 - plies);
        seed += 1;
    }
    eprintln!("classic self-play: {plies} plies in {:?}", t.elapsed());
}

#[test]
fn barrage_selfplay() {
    let t = Instant::now();
    let plies: usize = (7..10).map(|seed| play("barrage", seed, 400)).sum();
    eprintln!("barrage self-play: {plies} plies in {:?}", t.elapsed());
}
