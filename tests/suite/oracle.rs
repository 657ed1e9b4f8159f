//! Differential test against an independent rules implementation: replays the recorded
//! games of `tests/data/rules-oracle/` and compares the legal moves at every ply, the
//! board, and each game's end; then checks the 235 recorded repetition-rule cases, and
//! reads and prints every recorded position as StraDos3.

use flate2::read::GzDecoder;
use marshal::formats::strados3::{from_strados3, is_strados3, to_strados3};
use marshal::rules::{Color, EndReason, Move, Piece, Position, Rank, Rules, Square, Variant};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

fn oracle_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules-oracle")
}

fn cell_square(c: u64) -> Square {
    Square::new((c % 10) as u8, (c / 10) as u8)
}

fn square_cell(s: Square) -> u64 {
    s.rank() as u64 * 10 + s.file() as u64
}

/// The oracle's letters: Red `B`..`M`, Blue `N`..`Y`, both in the order Bomb, Spy, Scout,
/// Miner, Sergeant, ..., Marshal, Flag.
fn letter_piece(ch: char) -> Option<Piece> {
    const ORDER: [Rank; 12] = [
        Rank::Bomb,
        Rank::Spy,
        Rank::Scout,
        Rank::Miner,
        Rank::Sergeant,
        Rank::Lieutenant,
        Rank::Captain,
        Rank::Major,
        Rank::Colonel,
        Rank::General,
        Rank::Marshal,
        Rank::Flag,
    ];
    match ch {
        'B'..='M' => Some(Piece::new(Color::Red, ORDER[(ch as u8 - b'B') as usize])),
        'N'..='Y' => Some(Piece::new(Color::Blue, ORDER[(ch as u8 - b'N') as usize])),
        _ => None,
    }
}

fn board_string(pos: &Position) -> String {
    let mut s = String::new();
    for c in 0..100u64 {
        let sq = cell_square(c);
        if pos.variant().is_lake(sq) {
            s.push('_');
            continue;
        }
        s.push(match pos.piece_at(sq) {
            None => 'a',
            Some(p) => {
                let idx = match p.rank() {
                    Rank::Bomb => 0,
                    Rank::Flag => 11,
                    r => r.index() as u8,
                };
                let base = if p.color() == Color::Red { b'B' } else { b'N' };
                (base + idx) as char
            }
        });
    }
    s
}

fn rules_of(v: &Value) -> Rules {
    Rules {
        two_squares: if v["two_square_rule"].as_bool().unwrap_or(true) {
            Some(3)
        } else {
            None
        },
        more_squares: v["continuous_chasing_rule"].as_bool().unwrap_or(true),
        max_plies: v["max_num_moves"].as_u64().map(|n| n as u32),
        max_quiet_plies: v["max_num_moves_between_attacks"].as_u64().map(|n| n as u32),
        ..Rules::default()
    }
}

fn start_position(g: &Value) -> Position {
    let variant = Variant::parse(g["variant"].as_str().unwrap()).unwrap();
    let mut pos = Position::empty(variant, rules_of(g));
    let red = g["setup_red"].as_str().unwrap();
    let blue = g["setup_blue"].as_str().unwrap();
    for (j, ch) in red.chars().enumerate() {
        if let Some(p) = letter_piece(ch) {
            pos.put(cell_square(j as u64), p, 0).unwrap();
        }
    }
    for (j, ch) in blue.chars().enumerate() {
        if let Some(p) = letter_piece(ch) {
            let p = Piece::new(Color::Blue, p.rank());
            pos.put(cell_square(99 - j as u64), p, 0).unwrap();
        }
    }
    pos
}

fn pairs(moves: &[Move]) -> Vec<(u64, u64)> {
    let mut v: Vec<(u64, u64)> = moves
        .iter()
        .map(|m| (square_cell(m.from()), square_cell(m.to())))
        .collect();
    v.sort();
    v
}

fn value_pairs(v: &Value) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
        .collect();
    out.sort();
    out
}

/// Replays one recorded file; returns (plies checked, games checked).
fn replay_file(name: &str) -> (usize, usize) {
    let f = std::fs::File::open(oracle_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let reader = BufReader::new(GzDecoder::new(f));
    let mut pos: Option<Position> = None;
    let (mut plies, mut games) = (0, 0);
    for line in reader.lines() {
        let v: Value = serde_json::from_str(&line.unwrap()).unwrap();
        let game = v["game"].as_u64().unwrap();
        match v["type"].as_str().unwrap() {
            "game" => pos = Some(start_position(&v)),
            "ply" => {
                let p = pos.as_mut().unwrap();
                let ply = v["ply"].as_u64().unwrap();
                assert_eq!(
                    board_string(p),
                    v["board"].as_str().unwrap(),
                    "{name} game {game} ply {ply}: board"
                );
                let want_side = if v["to_play"].as_u64().unwrap() == 0 {
                    Color::Red
                } else {
                    Color::Blue
                };
                assert_eq!(p.side_to_move(), want_side, "{name} game {game} ply {ply}: side");
                let ours = pairs(&p.legal_moves());
                let theirs = value_pairs(&v["legal"]);
                if ours != theirs {
                    let extra: Vec<_> = ours.iter().filter(|m| !theirs.contains(m)).collect();
                    let missing: Vec<_> = theirs.iter().filter(|m| !ours.contains(m)).collect();
                    panic!(
                        "{name} game {game} ply {ply}: legal moves differ; ours only {extra:?}, oracle only {missing:?}; removed_two_square {} removed_chase {}; position {}",
                        v["removed_two_square"], v["removed_chase"], p.to_text()
                    );
                }
                // The view of the side to move must give the same moves.
                let view = p.view(want_side);
                assert_eq!(
                    pairs(&view.legal_moves()),
                    theirs,
                    "{name} game {game} ply {ply}: view moves"
                );
                let mv = &v["move"];
                let m = Move::new(
                    cell_square(mv[0].as_u64().unwrap()),
                    cell_square(mv[1].as_u64().unwrap()),
                );
                p.make(m);
                plies += 1;
            }
            "end" => {
                let p = pos.as_mut().unwrap();
                assert_eq!(
                    board_string(p),
                    v["board"].as_str().unwrap(),
                    "{name} game {game}: final board"
                );
                let end = p
                    .game_end()
                    .unwrap_or_else(|| panic!("{name} game {game}: oracle ended, we did not"));
                let reward = v["reward_red"].as_f64().unwrap();
                let winner = if reward > 0.0 {
                    Some(Color::Red)
                } else if reward < 0.0 {
                    Some(Color::Blue)
                } else {
                    None
                };
                assert_eq!(
                    end.winner, winner,
                    "{name} game {game}: winner ({end:?}, oracle {})",
                    v["reason"]
                );
                let reason_ok = match v["reason"].as_str().unwrap() {
                    "flag_captured" => end.reason == EndReason::FlagCaptured,
                    "no_legal_moves" => matches!(end.reason, EndReason::NoMoves | EndReason::NeitherCanMove),
                    "move_limit" => matches!(end.reason, EndReason::MoveCap | EndReason::NoAttackCap),
                    other => panic!("unknown oracle reason {other}"),
                };
                assert!(reason_ok, "{name} game {game}: reason {end:?} vs {}", v["reason"]);
                games += 1;
            }
            _ => {}
        }
    }
    (plies, games)
}

#[test]
fn classic_uniform_games_agree() {
    let (plies, games) = replay_file("classic_uniform_s41.jsonl.gz");
    assert_eq!(games, 50);
    assert!(plies > 50_000, "{plies}");
}

#[test]
fn barrage_chase_games_agree() {
    let (plies, games) = replay_file("barrage_chase_s21.jsonl.gz");
    assert_eq!(games, 200);
    assert!(plies > 50_000, "{plies}");
}

/// Plays a case's moves and says whether the last one is legal under `rules`, or `None`
/// if the game ended before it.
fn case_last_legal(case: &Value, rules: Rules) -> Result<bool, String> {
    let board = case["board"].as_str().unwrap();
    let mut pos = Position::empty(Variant::CLASSIC, rules);
    for (c, ch) in board.chars().enumerate() {
        if let Some(p) = letter_piece(ch) {
            pos.put(cell_square(c as u64), p, 0).unwrap();
        }
    }
    let moves = case["moves"].as_array().unwrap();
    for (i, mv) in moves.iter().enumerate() {
        let m = Move::new(
            cell_square(mv[0].as_u64().unwrap()),
            cell_square(mv[1].as_u64().unwrap()),
        );
        let legal = pos.is_legal(m);
        if i + 1 == moves.len() {
            return Ok(legal);
        }
        if !legal {
            return Err(format!(
                "move {i} ({m}) is illegal before the last; {:?}",
                pos.illegal_reason(m)
            ));
        }
        pos.make(m);
        if pos.game_end().is_some() {
            return Err(format!("game ended after move {i}"));
        }
    }
    unreachable!()
}

fn terminates_after(case: &Value, rules: Rules) -> Option<usize> {
    let board = case["board"].as_str().unwrap();
    let mut pos = Position::empty(Variant::CLASSIC, rules);
    for (c, ch) in board.chars().enumerate() {
        if let Some(p) = letter_piece(ch) {
            pos.put(cell_square(c as u64), p, 0).unwrap();
        }
    }
    for (i, mv) in case["moves"].as_array().unwrap().iter().enumerate() {
        let m = Move::new(
            cell_square(mv[0].as_u64().unwrap()),
            cell_square(mv[1].as_u64().unwrap()),
        );
        if !pos.is_legal(m) {
            return None;
        }
        pos.make(m);
        if pos.game_end().is_some() {
            return Some(i);
        }
    }
    None
}

#[test]
fn rule_cases_agree() {
    let mut text = String::new();
    let f = std::fs::File::open(oracle_dir().join("rule_cases.jsonl.gz")).unwrap();
    std::io::Read::read_to_string(&mut GzDecoder::new(f), &mut text).unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in text.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let name = case["name"].as_str().unwrap().to_string();
        let base = Rules {
            two_squares: if case["two_square_rule"].as_bool().unwrap() {
                Some(3)
            } else {
                None
            },
            more_squares: case["continuous_chasing_rule"].as_bool().unwrap(),
            // The cases are longer than any ply cap; only the no-attack cap applies.
            max_plies: None,
            max_quiet_plies: Some(200),
            ..Rules::default()
        };
        if let Some(t) = case.get("terminated_after_move_index").and_then(|t| t.as_u64()) {
            let got = terminates_after(&case, base);
            if got != Some(t as usize) {
                failures.push(format!("{name}: terminated after {got:?}, oracle {t}"));
            }
            checked += 1;
            continue;
        }
        let variants = [
            ("both rules", base, "last_move_legal"),
            (
                "no chase rule",
                Rules {
                    more_squares: false,
                    ..base
                },
                "last_move_legal_without_chase_rule",
            ),
            (
                "no two-squares rule",
                Rules {
                    two_squares: None,
                    ..base
                },
                "last_move_legal_without_two_square_rule",
            ),
        ];
        for (label, rules, key) in variants {
            let want = case[key].as_bool().unwrap();
            match case_last_legal(&case, rules) {
                Ok(got) if got == want => {}
                Ok(got) => failures.push(format!("{name} ({label}): last move legal {got}, oracle {want}")),
                Err(e) => failures.push(format!("{name} ({label}): {e}")),
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 235);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The StraDos3 string of a recorded position: the oracle's board (`a` empty) with the
/// pieces it marks visible in lower case, the side to move and the plies played.
fn oracle_strados3(v: &Value) -> String {
    let visible: Vec<char> = v["visible"].as_str().map(|s| s.chars().collect()).unwrap_or_default();
    let board: String = v["board"]
        .as_str()
        .unwrap()
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if visible.get(i) == Some(&'1') && c != 'a' && c != '_' {
                c.to_ascii_lowercase()
            } else {
                c
            }
        })
        .collect();
    let side = if v["to_play"].as_u64().unwrap() == 0 { "r" } else { "b" };
    format!("{board} {side} {}", v["num_moves"].as_u64().unwrap())
}

/// Parses, prints and parses again every recorded position of one file as StraDos3;
/// returns the number of positions.
fn strados3_file(name: &str) -> usize {
    let f = std::fs::File::open(oracle_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let reader = BufReader::new(GzDecoder::new(f));
    let mut variant = Variant::CLASSIC;
    let mut count = 0;
    for line in reader.lines() {
        let v: Value = serde_json::from_str(&line.unwrap()).unwrap();
        match v["type"].as_str().unwrap() {
            "game" => variant = Variant::parse(v["variant"].as_str().unwrap()).unwrap(),
            "ply" | "end" => {
                let text = oracle_strados3(&v);
                let at = format!("{name} game {} ply {}", v["game"], v["num_moves"]);
                assert!(is_strados3(&text), "{at}: not recognised: {text}");
                let first =
                    from_strados3(&text, &variant, Rules::default()).unwrap_or_else(|e| panic!("{at}: {e}: {text}"));
                let printed = to_strados3(&first).unwrap();
                // We print empty squares as `A`; the oracle writes `a`.
                assert_eq!(printed, text.replace('a', "A"), "{at}: printed differently");
                let second = from_strados3(&printed, &variant, Rules::default()).unwrap();
                assert_eq!(second.to_text(), first.to_text(), "{at}: second parse differs");
                assert_eq!(to_strados3(&second).unwrap(), printed, "{at}: second print differs");
                assert_eq!(
                    first.side_to_move() == Color::Red,
                    v["to_play"].as_u64() == Some(0),
                    "{at}"
                );
                assert_eq!(u64::from(first.ply()), v["num_moves"].as_u64().unwrap(), "{at}");
                count += 1;
            }
            _ => {}
        }
    }
    count
}

#[test]
fn strados3_round_trips_over_every_oracle_position() {
    let classic = strados3_file("classic_uniform_s41.jsonl.gz");
    let barrage = strados3_file("barrage_chase_s21.jsonl.gz");
    assert!(classic > 50_000 && barrage > 50_000, "{classic} {barrage}");
}

#[test]
fn strados3_of_our_replay_matches_the_oracle_board() {
    // Our own positions, printed: the same squares, pieces and visibility the
    // independent implementation recorded (classic; checked on the first games).
    let f = std::fs::File::open(oracle_dir().join("classic_uniform_s41.jsonl.gz")).expect("oracle data");
    let reader = BufReader::new(GzDecoder::new(f));
    let mut pos: Option<Position> = None;
    let mut checked = 0;
    for line in reader.lines() {
        let v: Value = serde_json::from_str(&line.unwrap()).unwrap();
        match v["type"].as_str().unwrap() {
            "game" => pos = Some(start_position(&v)),
            "ply" => {
                let p = pos.as_mut().unwrap();
                let want = oracle_strados3(&v).replace('a', "A");
                assert_eq!(to_strados3(p).unwrap(), want, "game {} ply {}", v["game"], v["ply"]);
                let mv = &v["move"];
                p.make(Move::new(
                    cell_square(mv[0].as_u64().unwrap()),
                    cell_square(mv[1].as_u64().unwrap()),
                ));
                checked += 1;
            }
            _ => {}
        }
    }
    assert!(checked > 50_000, "{checked}");
}
