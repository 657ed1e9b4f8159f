//! Drives `marshal play` through pipes (plain output, `legal:` lines) for whole short
//! games with save and resume, and, when tmux is installed, through a real terminal.

use marshal::formats::GameRecord;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a scripted session saw.
struct Transcript {
    stdout: String,
    stderr: String,
    success: bool,
    moves_sent: usize,
}

/// Runs `marshal play ARGS`; at each `legal:` line sends the next scripted line, or a
/// random legal move while `max_moves` allows, or `after` lines once it is used up.
fn session(args: &[&str], script: &[&str], max_moves: usize, after: &[&str], seed: u64) -> Transcript {
    let mut child = Command::new(env!("CARGO_BIN_EXE_marshal"))
        .arg("play")
        .args(args)
        .env("MARSHAL_PLAY_LEGAL", "1")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start marshal play");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let err_thread = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut rng = StdRng::seed_from_u64(seed);
    let mut script: std::collections::VecDeque<&str> = script.iter().copied().collect();
    let mut after: std::collections::VecDeque<&str> = after.iter().copied().collect();
    let mut moves_sent = 0;
    let mut out = String::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = match rx.recv_timeout(left) {
            Ok(l) => l,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                panic!("marshal play timed out; output so far:\n{out}");
            }
        };
        out.push_str(&line);
        out.push('\n');
        let Some(list) = line.strip_prefix("legal: ") else {
            continue;
        };
        let send = if let Some(s) = script.pop_front() {
            s.to_string()
        } else if moves_sent < max_moves {
            let moves: Vec<&str> = list.split_whitespace().collect();
            assert!(!moves.is_empty(), "a prompt with no legal move:\n{out}");
            moves_sent += 1;
            moves[rng.gen_range(0..moves.len())].to_string()
        } else if let Some(s) = after.pop_front() {
            s.to_string()
        } else {
            "quit".to_string()
        };
        if writeln!(stdin, "{send}").is_err() {
            break;
        }
    }
    drop(stdin);
    let status = child.wait().unwrap();
    let stderr = err_thread.join().unwrap();
    Transcript {
        stdout: out,
        stderr,
        success: status.success(),
        moves_sent,
    }
}

/// A path `name` in a fresh temp folder: the folder (removed when dropped, also when the
/// test fails) and the path.
fn tmp_path(name: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::Builder::new()
        .prefix("marshal-play-")
        .tempdir()
        .expect("temp dir");
    let p = dir.path().join(name).display().to_string();
    (dir, p)
}

fn assert_clean(t: &Transcript) {
    assert!(t.success, "exit status; stdout:\n{}\nstderr:\n{}", t.stdout, t.stderr);
    assert!(
        !t.stderr.contains("panicked") && !t.stderr.contains("RUST_BACKTRACE"),
        "panic on stderr:\n{}",
        t.stderr
    );
    assert!(!t.stdout.contains('\x1b'), "colour escapes in plain output");
}

#[test]
fn duel_game_with_bad_input_save_quit_and_resume_to_the_end() {
    let (_dir, file) = tmp_path("duel.json");
    let base = ["--variant", "duel", "--movetime", "20", "--seed", "7"];
    let mut args1: Vec<&str> = base.to_vec();
    args1.extend(["--rule", "max-plies=120"]);
    let save = format!("save {file}");
    let bad = ["help", "zz", "e4e5 x", "c5c6", "save"];
    let first = session(&args1, &bad, 12, &[&save, "quit"], 1);
    assert_clean(&first);
    let s = &first.stdout;
    assert!(s.contains("Commands:"), "help text:\n{s}");
    assert!(s.contains("bad from-square"), "malformed move message:\n{s}");
    assert!(s.contains("is not a move or a command"), "{s}");
    assert!(s.contains("illegal move c5c6"), "illegal move message:\n{s}");
    assert!(s.contains("save needs a file name"), "{s}");
    assert!(s.contains("Saved to"), "{s}");
    assert!(s.contains("Game left unfinished"), "{s}");
    assert!(
        s.contains("  1 ") && s.contains(" a  b  c") && s.contains(" ~ "),
        "board:\n{s}"
    );
    assert!(s.contains(" ? "), "hidden engine pieces:\n{s}");
    assert!(!s.contains("result "), "no result after quit:\n{s}");
    let saved = GameRecord::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(saved.result.is_none());
    assert!(saved.moves.len() >= 24, "12 moves each: {}", saved.moves.len());
    assert_eq!(saved.rules.max_plies, Some(120));
    assert_eq!(saved.meta.get("red").map(String::as_str), Some("human"));

    let mut args2: Vec<&str> = base.to_vec();
    args2.extend(["--load", &file]);
    let second = session(&args2, &[], usize::MAX, &[], 2);
    assert_clean(&second);
    let s = &second.stdout;
    assert!(s.contains(&format!("Resumed after {} plies", saved.moves.len())), "{s}");
    let result = s.lines().find(|l| l.starts_with("result ")).expect("a result line");
    assert!(
        result.contains("wins (") || result.contains("draw ("),
        "result line: {result}"
    );
    assert!(second.moves_sent > 0);
    eprintln!("{result}");
}

#[test]
fn blue_barrage_game_with_typed_setup_then_resignation() {
    let setup = "....FB..../.....3..../...9.S..../..2..M..2.";
    let args = [
        "--variant",
        "barrage",
        "--colour",
        "blue",
        "--movetime",
        "20",
        "--seed",
        "11",
        "--setup",
        setup,
    ];
    let t = session(&args, &[], 1, &["resign"], 3);
    assert_clean(&t);
    let s = &t.stdout;
    assert!(s.contains("you play blue"), "{s}");
    assert!(s.contains("Engine (red): "), "the engine moved first:\n{s}");
    assert!(s.contains("result red wins (resignation)"), "{s}");
    assert!(s.contains("The engine wins."), "{s}");
    // Blue sees the board from its side: rank 1 on top, files j..a.
    let header = s.lines().find(|l| l.contains(" j  i  h")).expect("flipped board");
    assert!(header.trim_start().starts_with('j'), "{header}");
}

#[test]
fn bad_options_are_errors_not_panics() {
    for args in [
        vec!["--variant", "nope"],
        vec!["--colour", "green"],
        vec!["--variant", "barrage", "--setup", "garbage"],
        vec!["--load", "/nonexistent/marshal-play.json"],
        vec!["--rule", "max-plies"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_marshal"))
            .arg("play")
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("marshal: ") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

/// In a real terminal (tmux), the board is coloured and the person can resign.
#[test]
fn tmux_terminal_session() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("tmux not installed; skipped");
        return;
    }
    let sock = format!("marshal-play-test-{}", std::process::id());
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .args(["-L", &sock])
            .args(args)
            .env_remove("NO_COLOR")
            .output()
            .expect("tmux")
    };
    let cmd = format!(
        "env -u NO_COLOR {} play --variant duel --movetime 20 --seed 5; sleep 30",
        env!("CARGO_BIN_EXE_marshal")
    );
    let started = tmux(&["new-session", "-d", "-x", "100", "-y", "50", "-s", "play", &cmd]);
    if !started.status.success() {
        eprintln!("tmux cannot start a session here; skipped");
        return;
    }
    let capture = |escapes: bool| {
        let mut a = vec!["capture-pane", "-p", "-t", "play"];
        if escapes {
            a.push("-e");
        }
        String::from_utf8_lossy(&tmux(&a).stdout).into_owned()
    };
    let wait_for = |text: &str| {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = capture(false);
            if screen.contains(text) {
                return screen;
            }
            if Instant::now() > deadline {
                tmux(&["kill-server"]);
                panic!("'{text}' did not appear; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    wait_for("red to move (1)>");
    let coloured = capture(true);
    tmux(&["send-keys", "-t", "play", "z9z9", "Enter"]);
    wait_for("bad from-square");
    tmux(&["send-keys", "-t", "play", "resign", "Enter"]);
    let screen = wait_for("result blue wins (resignation)");
    tmux(&["kill-server"]);
    assert!(coloured.contains("\x1b["), "no colour on a terminal:\n{coloured}");
    assert!(!screen.contains("panicked"), "{screen}");
}

/// A whole short game in a real pseudo-terminal (`tests/play_pty.py`, Python's standard
/// `pty` module): coloured board, mistyped input (an escape sequence, text that is not
/// UTF-8), the human's moves picked from the `legal:` lines, `save`, `quit`, then
/// `--load` in a new terminal and play until the rules end the game.
#[test]
fn pty_session_plays_saves_resumes_and_finishes() {
    let have_python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_python {
        eprintln!("python3 not found: skipped");
        return;
    }
    let (_dir, work) = tmp_path("pty");
    for seed in ["1", "2"] {
        let out = Command::new("python3")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/play_pty.py"))
            .args([env!("CARGO_BIN_EXE_marshal"), &work, seed])
            .output()
            .expect("run python3");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "seed {seed}:\n{stdout}\n{stderr}");
        eprintln!("seed {seed}: {}", stdout.trim());
    }
}

/// `marshal play` and the protocol engine choose the same moves for the same game, seed
/// and node budget: a game played in `marshal play` is told, move by move, to one
/// `marshal` process as a GUI tells it (the rule options, the engine's setup, a `position`
/// of what it observed and `go nodes N`), which must answer every engine move of the game.
#[test]
fn play_and_the_protocol_engine_choose_the_same_moves() {
    use marshal::protocol::options::{rule_options, Opt};
    use marshal::protocol::PositionCmd;
    use marshal::rules::{Color, Variant};
    let (_dir, file) = tmp_path("same.json");
    let save = format!("save {file}");
    let args = [
        "--variant",
        "classic",
        "--colour",
        "blue",
        "--nodes",
        "4000",
        "--seed",
        "11",
    ];
    let t = session(&args, &[], 6, &[&save, "quit"], 5);
    assert_clean(&t);
    let game = GameRecord::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let engine_plies: Vec<usize> = (0..game.moves.len()).step_by(2).collect();
    assert!(engine_plies.len() >= 6, "the engine moved {} times", engine_plies.len());

    let mut child = Command::new(env!("CARGO_BIN_EXE_marshal"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start marshal");
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let variant = Variant::parse(&game.variant).unwrap();
    let mut lines = rule_options(&variant, &game.rules);
    lines.push(Opt::Seed.line(11));
    lines.push("newgame".into());
    lines.push(format!("setup red {}", game.red_setup));
    for l in &lines {
        writeln!(stdin, "{l}").unwrap();
    }
    for &k in &engine_plies {
        let (enemy, moves) = game.observed_by(Color::Red, Some(k)).unwrap();
        let pc = PositionCmd {
            color: Color::Red,
            setup: None,
            enemy: Some(enemy),
            moves,
        };
        writeln!(stdin, "{pc}\ngo nodes 4000").unwrap();
        let best = loop {
            let mut l = String::new();
            assert!(out.read_line(&mut l).unwrap() > 0, "the engine closed its output");
            assert!(!l.starts_with("info string error"), "{l}");
            if let Some(m) = l.strip_prefix("bestmove ") {
                break m.trim().to_string();
            }
        };
        assert_eq!(
            best, game.moves[k].mv,
            "ply {k}: play chose {}, the protocol {best}",
            game.moves[k].mv
        );
    }
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
}
