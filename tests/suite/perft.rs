//! Frozen perft counts: every `tests/data/*.perft` file is read, and `Position::perft` and
//! the naive generator of `common/naive.rs` must both reproduce its counts.
//!
//! File format, one position per line (blank lines and lines starting with `#` ignored):
//!
//! ```text
//! <position line> [;rules <name>=<value>,...] ;D1 <n> ;D2 <n> ...
//! ```
//!
//! The position line is `Position::to_text()` (protocol.md 1.7). `;rules` sets the rule
//! options by their protocol names (protocol.md 1.6) on top of the defaults; without it
//! the default rules apply. `;Dk <n>` says `perft(k)` is `n`.
//!
//! The data was made by `cargo test --release --test suite -- --ignored perft::regenerate`
//! (seeded random games; every count checked against the naive generator first).

use crate::common;

use common::naive::NaiveGame;
use common::{pick_move, rng, sample_start};
use marshal::rules::{Color, Position, Rules, Variant};
use std::path::PathBuf;
use std::time::Instant;

/// The naive generator is checked up to this depth (deeper is slow).
const NAIVE_MAX_DEPTH: u32 = 3;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// One line of a `.perft` file.
#[derive(Debug)]
struct Entry {
    position: String,
    rules: Rules,
    rules_text: Option<String>,
    counts: Vec<(u32, u64)>,
}

fn parse_rules(spec: &str) -> Rules {
    let mut rules = Rules::default();
    for item in spec.split(',') {
        let (name, value) = item
            .split_once('=')
            .unwrap_or_else(|| panic!("rule '{item}' is not <name>=<value>"));
        rules.set(name, value).unwrap_or_else(|e| panic!("rule '{item}': {e}"));
    }
    rules
}

fn parse_line(line: &str) -> Entry {
    let mut parts = line.split(';');
    let position = parts.next().unwrap().trim().to_string();
    let mut entry = Entry {
        position,
        rules: Rules::default(),
        rules_text: None,
        counts: Vec::new(),
    };
    for part in parts {
        let (key, value) = part
            .trim()
            .split_once(' ')
            .unwrap_or_else(|| panic!("field ';{part}' is not '<key> <value>'"));
        if key == "rules" {
            entry.rules = parse_rules(value.trim());
            entry.rules_text = Some(value.trim().to_string());
        } else {
            let depth: u32 = key
                .strip_prefix('D')
                .and_then(|d| d.parse().ok())
                .unwrap_or_else(|| panic!("field ';{part}': key is not D<depth>"));
            let n: u64 = value
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("field ';{part}': bad count"));
            entry.counts.push((depth, n));
        }
    }
    assert!(!entry.counts.is_empty(), "no counts on line: {line}");
    entry
}

fn read_file(name: &str) -> Vec<Entry> {
    let text = std::fs::read_to_string(data_dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(parse_line)
        .collect()
}

fn check_file(name: &str) {
    let entries = read_file(name);
    assert!(!entries.is_empty(), "{name} holds no positions");
    for (i, e) in entries.iter().enumerate() {
        let mut pos =
            Position::from_text(&e.position, e.rules).unwrap_or_else(|err| panic!("{name} line {}: {err}", i + 1));
        let before = pos.to_text();
        assert_eq!(
            before,
            e.position,
            "{name} line {}: position does not print back",
            i + 1
        );
        let naive = NaiveGame::from_position(&pos);
        for &(d, want) in &e.counts {
            assert_eq!(
                pos.perft(d),
                want,
                "{name} entry {}: perft({d}) of {} (rules {:?})",
                i + 1,
                e.position,
                e.rules_text
            );
            assert_eq!(
                pos.to_text(),
                before,
                "{name} entry {}: perft changed the position",
                i + 1
            );
            if d <= NAIVE_MAX_DEPTH {
                assert_eq!(
                    naive.perft(d),
                    want,
                    "{name} entry {}: naive perft({d}) of {} (rules {:?})",
                    i + 1,
                    e.position,
                    e.rules_text
                );
            }
        }
    }
}

#[test]
fn classic_perft() {
    check_file("classic.perft");
}

#[test]
fn compact_perft() {
    check_file("compact.perft");
}

#[test]
fn duel_perft() {
    check_file("duel.perft");
}

#[test]
fn duel_compact_perft() {
    check_file("duel-compact.perft");
}

#[test]
fn barrage_perft() {
    check_file("barrage.perft");
}

#[test]
fn custom_perft() {
    check_file("custom.perft");
}

const FILES: [&str; 6] = [
    "classic.perft",
    "compact.perft",
    "duel.perft",
    "duel-compact.perft",
    "barrage.perft",
    "custom.perft",
];

/// Every `.perft` file in the data directory is checked by one of the tests above, and
/// each holds the variant's start, mid-game positions with trails and chase counters, and
/// lines under other rule options.
#[test]
fn every_perft_file_is_checked() {
    let mut found: Vec<String> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".perft"))
        .collect();
    found.sort();
    let mut known: Vec<String> = FILES.iter().map(|s| s.to_string()).collect();
    known.sort();
    assert_eq!(found, known);
    for name in FILES {
        let entries = read_file(name);
        assert!(
            entries.iter().any(|e| e.position.contains(" r 0 0 ")),
            "{name}: no start"
        );
        let field = |e: &Entry, i: usize| e.position.split_whitespace().nth(i).unwrap_or("").to_string();
        assert!(
            entries.iter().any(|e| field(e, 8) != "-/-"),
            "{name}: no position with a trail"
        );
        assert!(
            entries.iter().any(|e| field(e, 9) != "0/0"),
            "{name}: no position with a chase counter"
        );
        assert!(entries.iter().any(|e| e.rules_text.is_some()), "{name}: no other rules");
    }
}

// ---------------------------------------------------------------------------------------
// Regenerating the data (run by hand; the counts must never change without a reason).

/// Rule sets the generator tries on mid-game positions, by their protocol names.
const RULE_SPECS: [&str; 7] = [
    "two-squares=off,more-squares=off",
    "two-squares=5",
    "more-squares=off",
    "two-squares=off",
    "rescue=on",
    "attacker-advantage=on",
    "silent-defence=on,rescue=on,attacker-advantage=on,two-squares=2",
];

/// Counts perft(1..) of a position, stopping once a depth takes longer than `budget_s`
/// or at `max_depth`; the naive generator and a copy read back from the text must agree.
fn counts_for(pos: &Position, max_depth: u32, budget_s: f64) -> Vec<(u32, u64)> {
    let mut p = pos.clone();
    let mut reread = Position::from_text(&pos.to_text(), *pos.rules()).unwrap();
    let naive = NaiveGame::from_position(&reread);
    let mut out = Vec::new();
    for d in 1..=max_depth {
        let t = Instant::now();
        let n = p.perft(d);
        let took = t.elapsed().as_secs_f64();
        assert_eq!(reread.perft(d), n, "text form loses state: {}", pos.to_text());
        if d <= NAIVE_MAX_DEPTH {
            assert_eq!(naive.perft(d), n, "naive disagrees at depth {d}: {}", pos.to_text());
        }
        out.push((d, n));
        if took > budget_s {
            break;
        }
    }
    out
}

fn line(pos: &Position, spec: Option<&str>, counts: &[(u32, u64)]) -> String {
    let mut s = pos.to_text();
    if let Some(spec) = spec {
        s.push_str(&format!(" ;rules {spec}"));
    }
    for (d, n) in counts {
        s.push_str(&format!(" ;D{d} {n}"));
    }
    s
}

/// Positions from one seeded game: every ply's position with the rules it was played under.
fn game_positions(v: Variant, rules: Rules, seed: u64, plies: usize) -> Vec<Position> {
    let mut r = rng(seed);
    let mut pos = sample_start(v, rules);
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.game_end().is_some() {
            break;
        }
        let rescue = moves.iter().copied().find(|m| m.rescue().is_some());
        let mv = rescue.unwrap_or_else(|| pick_move(&pos, &moves, &mut r));
        pos.make(mv);
        out.push(pos.clone());
    }
    out
}

/// Does the repetition rule remove moves somewhere in the first two plies?
fn rules_matter(pos: &Position, spec: &str) -> bool {
    let mut a = pos.clone();
    a.set_rules(parse_rules(spec));
    let mut b = pos.clone();
    b.set_rules(Rules::default());
    a.perft(2) != b.perft(2)
}

fn generate(v: Variant, file: &str, seed: u64) {
    let mut lines = vec![
        format!("# Perft counts for {}; format in tests/suite/perft.rs.", v.name()),
        "# Start from the sample setups, then positions of seeded games (policy common::pick_move).".into(),
    ];
    let max_depth = 4;
    let budget = 0.08;
    let start = sample_start(v, Rules::default());
    lines.push(line(&start, None, &counts_for(&start, max_depth, budget)));
    let mut ucc = start.clone();
    ucc.set_rules(parse_rules(
        "two-squares=off,more-squares=off,max-plies=5000,max-quiet-plies=off",
    ));
    lines.push(line(
        &ucc,
        Some("two-squares=off,more-squares=off,max-plies=5000,max-quiet-plies=off"),
        &counts_for(&ucc, max_depth, budget),
    ));
    let games: Vec<Vec<Position>> = (0..6)
        .map(|g| game_positions(v, Rules::default(), seed * 10 + g, 220))
        .collect();
    let all: Vec<&Position> = games.iter().flatten().collect();
    let mut picked: Vec<(Position, Option<String>)> = Vec::new();
    // An early and a late position.
    if let Some(p) = games[0].get(16) {
        picked.push((p.clone(), None));
    }
    if let Some(p) = games[1].iter().rev().find(|p| p.ply() > 120 && p.game_end().is_none()) {
        picked.push((p.clone(), None));
    }
    // A long trail where the two-squares rule bites now.
    if let Some(p) = all
        .iter()
        .find(|p| p.trail(p.side_to_move()).squares().count() >= 4 && rules_matter(p, "two-squares=off"))
    {
        picked.push(((*p).clone(), None));
        picked.push(((*p).clone(), Some("two-squares=off".into())));
        picked.push(((*p).clone(), Some("two-squares=5".into())));
    }
    // A chase where the more-squares rule bites within two plies.
    if let Some(p) = all
        .iter()
        .filter(|p| p.chase_counter(Color::Red).max(p.chase_counter(Color::Blue)) >= 3)
        .find(|p| rules_matter(p, "more-squares=off"))
    {
        picked.push(((*p).clone(), None));
        picked.push(((*p).clone(), Some("more-squares=off".into())));
    }
    // Other rule options where they change the counts.
    for spec in RULE_SPECS {
        let used: Vec<String> = picked.iter().map(|(p, _)| p.to_text()).collect();
        if let Some(p) = all
            .iter()
            .skip(40)
            .step_by(3)
            .find(|p| p.game_end().is_none() && !used.contains(&p.to_text()) && rules_matter(p, spec))
        {
            picked.push(((*p).clone(), Some(spec.into())));
        }
    }
    // A cap reached inside the tree.
    if let Some(p) = all.iter().find(|p| p.quiet_plies() > 5 && p.game_end().is_none()) {
        let spec = format!("max-quiet-plies={}", p.quiet_plies() + 1);
        picked.push(((*p).clone(), Some(spec)));
    }
    for (p, spec) in picked {
        let mut q = Position::from_text(&p.to_text(), *p.rules()).unwrap();
        q.set_rules(spec.as_deref().map(parse_rules).unwrap_or_default());
        let counts = counts_for(&q, max_depth, budget);
        lines.push(line(&q, spec.as_deref(), &counts));
    }
    std::fs::write(data_dir().join(file), lines.join("\n") + "\n").unwrap();
}

#[test]
#[ignore = "regenerates tests/data/*.perft; run by hand and review the diff"]
fn regenerate() {
    for (i, (name, file)) in [
        ("classic", "classic.perft"),
        ("compact", "compact.perft"),
        ("duel", "duel.perft"),
        ("duel-compact", "duel-compact.perft"),
        ("barrage", "barrage.perft"),
        (common::CUSTOM, "custom.perft"),
    ]
    .iter()
    .enumerate()
    {
        generate(Variant::parse(name).unwrap(), file, 31 + i as u64);
    }
}
