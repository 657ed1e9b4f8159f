//! `marshal match`: what engines are told (never a hidden rank), how faulty engines are
//! adjudicated, and that the summary agrees with the game records.

use marshal::arena::arbiter::red_engine;
use marshal::formats::GameRecord;
use marshal::rules::{Move, Position, Rank, Rules};
use std::path::Path;
use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_marshal")
}

/// A fresh folder in the system temp directory, removed when dropped (also when the
/// test fails).
fn tmp_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("marshal-arena-{name}-"))
        .tempdir()
        .expect("temp dir")
}

/// Runs a match; returns (exit code, stdout, records).
fn run_match(args: &[&str], out: &Path) -> (i32, String, Vec<GameRecord>) {
    let o = Command::new(bin())
        .arg("match")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run marshal match");
    let text = std::fs::read_to_string(out).unwrap_or_default();
    let records = text
        .lines()
        .map(|l| serde_json::from_str::<GameRecord>(l).expect("record line"))
        .collect();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        records,
    )
}

/// Every record replays under our rules to its recorded result (forfeits aside).
fn check_replays(records: &[GameRecord]) {
    for r in records {
        let replay = r.replay(None);
        assert!(
            replay.is_ok(),
            "record does not replay: {:?}\n{}",
            replay.err(),
            r.to_json()
        );
    }
}

/// A probe: this program behind `tee`, so every line an engine receives is logged.
fn probe(log: &Path) -> String {
    format!("tee -a {} | {}", log.display(), bin())
}

#[test]
fn engines_never_receive_hidden_ranks() {
    let tmp = tmp_dir("probe");
    let dir = tmp.path();
    let mut checked_tokens = 0;
    let mut hidden = 0;
    for (i, opts) in [
        ["silent-defence=off", "attacker-advantage=off", "rescue=off"],
        ["silent-defence=on", "attacker-advantage=off", "rescue=off"],
        ["silent-defence=on", "attacker-advantage=on", "rescue=off"],
        ["silent-defence=on", "attacker-advantage=on", "rescue=on"],
        ["silent-defence=off", "attacker-advantage=on", "rescue=on"],
        ["silent-defence=off", "attacker-advantage=off", "rescue=on"],
        ["silent-defence=on", "attacker-advantage=off", "rescue=on"],
        ["silent-defence=off", "attacker-advantage=on", "rescue=off"],
    ]
    .iter()
    .enumerate()
    {
        let silent = opts[0].ends_with("on");
        for variant in ["barrage", "classic"] {
            let logs = [
                dir.join(format!("{i}-{variant}-a.log")),
                dir.join(format!("{i}-{variant}-b.log")),
            ];
            let (ea, eb) = (probe(&logs[0]), probe(&logs[1]));
            let out = dir.join(format!("{i}-{variant}.jsonl"));
            let mut args = vec![
                "--engine",
                &ea,
                "--engine",
                &eb,
                "--games",
                "2",
                "--movetime",
                "5",
                // What is checked is what the engines are told, not how fast they answer:
                // a loaded machine must not turn a late move into a forfeit here.
                "--timemargin",
                "5000",
                "--variant",
                variant,
                "--rule",
                "max-plies=150",
            ];
            for o in opts {
                args.push("--rule");
                args.push(o);
            }
            let (code, _, records) = run_match(&args, &out);
            assert_eq!(code, 0);
            assert_eq!(records.len(), 2);
            check_replays(&records);
            for r in &records {
                // The engines understood every line they were sent.
                assert!(!r.meta.contains_key("forfeit"), "{opts:?} {variant}: {:?}", r.meta);
            }
            // Each engine's log holds its games in order (concurrency 1).
            for (e, log) in logs.iter().enumerate() {
                let text = std::fs::read_to_string(log).unwrap();
                let games: Vec<&str> = text.split("stratego\n").filter(|g| !g.is_empty()).collect();
                assert_eq!(games.len(), 2, "{}", log.display());
                for (g, body) in games.iter().enumerate() {
                    let rec = &records.iter().find(|r| r.meta["game"] == g.to_string()).unwrap();
                    let colour = if red_engine(g) == e { "red" } else { "blue" };
                    let own_setup = if colour == "red" {
                        &rec.red_setup
                    } else {
                        &rec.blue_setup
                    };
                    let mut truth = rec
                        .start(Some(Rules {
                            max_plies: None,
                            ..rec.rules
                        }))
                        .unwrap();
                    let mut seen_plies = 0;
                    for line in body.lines() {
                        let toks: Vec<&str> = line.split_whitespace().collect();
                        match toks.first().copied() {
                            Some("setoption" | "newgame" | "isready" | "go" | "quit") => {}
                            Some("setup") => {
                                assert_eq!(toks[1], colour);
                                assert_eq!(toks[2], own_setup.as_str(), "only its own setup");
                                assert_eq!(toks.len(), 3);
                            }
                            Some("position") => {
                                assert_eq!(toks[1], colour);
                                assert_eq!(toks[2], "enemy");
                                let moves_at = toks.iter().position(|t| *t == "moves").unwrap_or(toks.len());
                                for sq in &toks[3..moves_at] {
                                    assert!(
                                        marshal::rules::Square::parse(sq).is_some(),
                                        "enemy list holds only squares: {sq}"
                                    );
                                }
                                let moves = &toks[(moves_at + 1).min(toks.len())..];
                                // Compare every new token with the truth.
                                for tok in &moves[seen_plies..] {
                                    let mover = truth.side_to_move();
                                    let mv = Move::parse(tok.split(':').next().unwrap()).unwrap();
                                    let att = truth.piece_at(mv.from()).unwrap().rank();
                                    let def = truth.piece_at(mv.to()).map(|p| p.rank());
                                    let parts: Vec<&str> = tok.split(':').collect();
                                    match def {
                                        None => assert_eq!(parts.len(), 1, "a quiet move carries no ranks: {tok}"),
                                        Some(d) => {
                                            let (a_txt, d_txt) = parts[1].split_once('x').unwrap();
                                            assert_eq!(
                                                a_txt,
                                                att.to_char().to_string(),
                                                "attacker rank is announced: {tok}"
                                            );
                                            let receiver_attacks = mover.name() == colour;
                                            let may_see =
                                                !silent || !receiver_attacks || att == Rank::Scout || d == Rank::Flag;
                                            if may_see {
                                                assert_eq!(d_txt, d.to_char().to_string(), "{tok}");
                                            } else {
                                                assert_eq!(d_txt, "?", "hidden defender leaked: {tok}");
                                                hidden += 1;
                                            }
                                        }
                                    }
                                    truth.make(mv);
                                    checked_tokens += 1;
                                }
                                seen_plies = moves.len();
                            }
                            Some(other) => panic!("unexpected line to an engine: {other} ({line})"),
                            None => {}
                        }
                    }
                }
            }
        }
    }
    assert!(checked_tokens > 1000, "{checked_tokens}");
    assert!(hidden > 0, "silent defence hid something at least once");
}

/// A fake engine: a shell script that does the handshake and then misbehaves on `go`.
fn fake(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(format!("{name}.sh"));
    let script = format!(
        "#!/bin/sh\nwhile read line; do\n  case \"$line\" in\n    stratego) echo strategook ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

/// Two games of `engine` against `builtin:random` at 50 ms a move, with `extra` options.
fn against_random(engine: &str, extra: &[&str], out: &Path) -> (i32, String, Vec<GameRecord>) {
    let mut args = vec![
        "--engine",
        engine,
        "--engine",
        "builtin:random",
        "--games",
        "2",
        "--movetime",
        "50",
    ];
    args.extend_from_slice(extra);
    run_match(&args, out)
}

#[test]
fn faulty_engines_forfeit_and_the_match_goes_on() {
    let tmp = tmp_dir("faults");
    let dir = tmp.path();
    let cases = [
        ("crash", "exit 3", "crash"),
        ("hang", "sleep 30", "time forfeit"),
        ("garbage", "echo 'bestmove banana'", "garbage"),
        ("illegal", "echo 'bestmove e4e9'", "illegal move"),
        ("slow", "sleep 1; echo 'bestmove e4e5'", "time forfeit"),
        ("nothing", "echo 'bestmove none'", "garbage"),
    ];
    for (name, on_go, reason) in cases {
        let eng = fake(dir, name, on_go);
        let out = dir.join(format!("{name}.jsonl"));
        let t = std::time::Instant::now();
        let (code, stdout, records) = against_random(&eng, &[], &out);
        assert_eq!(code, 0, "{name}");
        assert_eq!(records.len(), 2, "{name}: the match completes");
        assert!(t.elapsed().as_secs() < 20, "{name}: took {:?}", t.elapsed());
        for r in &records {
            let end = r.result.unwrap();
            assert_eq!(end.reason, marshal::rules::EndReason::Forfeit, "{name}");
            let loser = end.winner.unwrap().flip();
            assert_eq!(r.meta[loser.name()], eng, "{name}: the faulty engine loses");
            let why = &r.meta["forfeit"];
            assert!(why.contains(reason), "{name}: {why}");
        }
        assert!(stdout.contains("W/D/L 0/0/2"), "{name}: {stdout}");
    }
}

/// `--timemargin` sets how late a move may come: the slow engine of the test above (a
/// second late at 50 ms a move) is no longer out of time with a margin of three seconds.
#[test]
fn the_time_margin_is_the_users() {
    let tmp = tmp_dir("margin");
    let dir = tmp.path();
    let eng = fake(dir, "slow", "sleep 1; echo 'bestmove e4e5'");
    for (margin, late) in [("200", true), ("3000", false)] {
        let out = dir.join(format!("{margin}.jsonl"));
        let (code, _, records) = against_random(&eng, &["--timemargin", margin], &out);
        assert_eq!(code, 0);
        assert_eq!(records.len(), 2);
        for r in &records {
            let why = r.meta.get("forfeit").map_or("", |s| s.as_str());
            assert_eq!(why.contains("time forfeit"), late, "margin {margin}: {why}");
        }
    }
    let o = Command::new(bin())
        .args([
            "match",
            "--engine",
            "builtin:random",
            "--engine",
            "builtin:random",
            "--timemargin",
            "soon",
        ])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--timemargin"));
}

#[test]
fn summary_agrees_with_the_records() {
    let tmp = tmp_dir("summary");
    let dir = tmp.path();
    let out = dir.join("m.jsonl");
    let (code, stdout, records) = run_match(
        &[
            "--engine",
            "builtin:greedy",
            "--engine",
            "builtin:random",
            "--games",
            "12",
            "--concurrency",
            "2",
        ],
        &out,
    );
    assert_eq!(code, 0);
    assert_eq!(records.len(), 12);
    check_replays(&records);
    let (mut w, mut d, mut l) = (0, 0, 0);
    for r in &records {
        let first_is_red = r.meta["red"] == "builtin:greedy";
        match r.result.unwrap().winner {
            None => d += 1,
            Some(c) => {
                if (c == marshal::rules::Color::Red) == first_is_red {
                    w += 1
                } else {
                    l += 1
                }
            }
        }
        // Pairs share setups with colours swapped.
        let g: usize = r.meta["game"].parse().unwrap();
        let partner = records.iter().find(|o| o.meta["game"] == (g ^ 1).to_string()).unwrap();
        assert_eq!(r.red_setup, partner.red_setup);
        assert_eq!(r.blue_setup, partner.blue_setup);
        assert_ne!(r.meta["red"], partner.meta["red"]);
    }
    assert!(stdout.contains(&format!("W/D/L {w}/{d}/{l}")), "{stdout}");
    // `marshal replay` reads the match output (one record per line) and replays every game.
    let o = Command::new(bin()).arg("replay").arg(&out).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text.lines().filter(|l| l.contains(": result ")).count(), 12, "{text}");
    // The final positions the records reach are real games.
    for r in &records {
        let (pos, end): (Position, _) = r.replay(None).unwrap();
        assert_eq!(end, r.result, "{}", pos.to_text());
    }
}

#[test]
fn shards_merge_and_resume_reproduce_the_whole_match() {
    let tmp = tmp_dir("shards");
    let dir = tmp.path();
    let base = [
        "--engine",
        "builtin:greedy",
        "--engine",
        "builtin:random",
        "--games",
        "8",
        "--seed",
        "5",
    ];
    let whole = dir.join("whole.jsonl");
    let (_, whole_out, whole_recs) = run_match(&base, &whole);
    // Two disjoint shards, merged by `marshal stats`, give the same games and numbers.
    let mut shard_files = Vec::new();
    for i in 0..2 {
        let f = dir.join(format!("shard{i}.jsonl"));
        let shard = format!("{i}/2");
        let mut args = base.to_vec();
        args.extend(["--shard", &shard]);
        let (code, _, recs) = run_match(&args, &f);
        assert_eq!(code, 0);
        assert_eq!(recs.len(), 4);
        shard_files.push(f);
    }
    let o = Command::new(bin()).arg("stats").args(&shard_files).output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let merged = String::from_utf8_lossy(&o.stdout).into_owned();
    let last = |s: &str| s.lines().last().unwrap_or("").to_string();
    assert_eq!(last(&merged), last(&whole_out), "{merged}");
    let o = Command::new(bin())
        .arg("stats")
        .arg(&shard_files[0])
        .arg(&shard_files[0])
        .output()
        .unwrap();
    assert_ne!(o.status.code(), Some(0), "overlapping shards are refused");
    // An interrupted match (three games and half a line) resumes to the same records.
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = dir.join("cut.jsonl");
    std::fs::write(
        &cut,
        format!("{}\n{}\n{}\n{}", lines[0], lines[1], lines[2], &lines[3][..200]),
    )
    .unwrap();
    let mut args = base.to_vec();
    args.push("--resume");
    let (code, out, recs) = run_match(&args, &cut);
    assert_eq!(code, 0);
    assert_eq!(last(&out), last(&whole_out));
    let key = |r: &GameRecord| serde_json::to_string(r).unwrap();
    let mut a: Vec<String> = recs.iter().map(key).collect();
    let mut b: Vec<String> = whole_recs.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b, "resumed match differs from the uninterrupted one");
}

#[test]
fn gravon_output_replays_under_the_match_rules() {
    let tmp = tmp_dir("gravon");
    let dir = tmp.path();
    let gdir = dir.join("xml");
    let gd = gdir.display().to_string();
    let (code, _, recs) = run_match(
        &[
            "--engine",
            "builtin:greedy",
            "--engine",
            "builtin:random",
            "--games",
            "2",
            "--gravon",
            &gd,
        ],
        &dir.join("m.jsonl"),
    );
    assert_eq!(code, 0);
    for r in &recs {
        let g = &r.meta["game"];
        let xml = gdir.join(format!("game-{g}.xml"));
        // Gravon files carry no rule options: give the match's two-squares limit.
        let o = Command::new(bin())
            .arg("replay")
            .arg(&xml)
            .args(["--rule", "two-squares=3"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        let end = r.result.unwrap();
        assert!(
            text.contains(&marshal::formats::record::describe_end(&end)),
            "{}: {text}",
            xml.display()
        );
    }
}

#[test]
fn clocks_run_out() {
    use marshal::arena::arbiter::TimeControl;
    assert_eq!(
        TimeControl::parse_tc("10+0.1"),
        Ok(TimeControl::Clock {
            base_ms: 10_000,
            inc_ms: 100
        })
    );
    assert_eq!(
        TimeControl::parse_tc("60"),
        Ok(TimeControl::Clock {
            base_ms: 60_000,
            inc_ms: 0
        })
    );
    for bad in ["", "0", "x+1", "5+y", "-3", "inf"] {
        assert!(TimeControl::parse_tc(bad).is_err(), "{bad}");
    }
    let tmp = tmp_dir("clock");
    let dir = tmp.path();
    // Answers after 1.1 s on a 1 s clock: inside the grace, but the flag has fallen.
    let eng = fake(dir, "slow", "sleep 1.1; echo 'bestmove e4e5'");
    let (code, _, recs) = run_match(
        &[
            "--engine",
            &eng,
            "--engine",
            "builtin:random",
            "--games",
            "2",
            "--tc",
            "1+0",
        ],
        &dir.join("m.jsonl"),
    );
    assert_eq!(code, 0);
    for r in &recs {
        assert!(r.meta["forfeit"].contains("clock ran out"), "{:?}", r.meta);
    }
}

/// `--movetime A,B` gives each engine its own time a move (in `--engine` order, whatever
/// colour it plays); three values or a bad number are refused.
#[test]
fn each_engine_gets_its_own_movetime() {
    let dir = tmp_dir("per-engine-tc");
    let (a, b) = (dir.path().join("a.log"), dir.path().join("b.log"));
    let out = dir.path().join("games.jsonl");
    let args = [
        "--engine",
        &probe(&a),
        "--engine",
        &probe(&b),
        "--variant",
        "duel",
        "--games",
        "2",
        "--movetime",
        "37,23",
        "--rule",
        "max-plies=12",
    ];
    let (code, _, records) = run_match(&args, &out);
    assert_eq!(code, 0);
    assert_eq!(records.len(), 2);
    let gos = |p: &Path| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("go "))
            .map(String::from)
            .collect()
    };
    let (ga, gb) = (gos(&a), gos(&b));
    assert!(!ga.is_empty() && !gb.is_empty());
    assert!(ga.iter().all(|l| l == "go movetime 37"), "{ga:?}");
    assert!(gb.iter().all(|l| l == "go movetime 23"), "{gb:?}");
    for bad in ["10,20,30", "10,x"] {
        let o = Command::new(bin())
            .args([
                "match",
                "--engine",
                "builtin:random",
                "--engine",
                "builtin:random",
                "--movetime",
                bad,
            ])
            .output()
            .unwrap();
        assert!(!o.status.success(), "--movetime {bad} was taken");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--movetime '") && err.lines().count() == 1, "{err}");
    }
}
