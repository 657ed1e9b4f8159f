//! The `marshal` binary: the protocol loop (no subcommand) and the command-line tools.

use clap::{Parser, Subcommand};
use marshal::formats::{record::describe_end, ucc_log, GameRecord};
use marshal::rules::{Position, Rules, Setup, Variant};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "marshal", version, about = "Marshal, a Stratego engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Write diagnostics to this file (default: stderr, warnings only). The level comes
    /// from MARSHAL_LOG (e.g. `debug`), default `info` with --log and `warn` without.
    #[arg(long, global = true, value_name = "FILE")]
    log: Option<String>,
}

/// Diagnostics go through tracing to stderr or a file, never to stdout (the protocol).
fn init_logging(file: Option<&str>) -> Result<(), String> {
    use tracing_subscriber::EnvFilter;
    let default = if file.is_some() { "info" } else { "warn" };
    let filter = EnvFilter::try_from_env("MARSHAL_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_ansi(false);
    match file {
        Some(path) => {
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open log file {path}: {e}"))?;
            builder.with_writer(std::sync::Mutex::new(f)).init();
        }
        None => builder.with_writer(std::io::stderr).init(),
    }
    Ok(())
}

#[derive(Subcommand)]
enum Command {
    /// Count move-tree leaves from a position (full information; side to move generates).
    Perft {
        /// Plies to look ahead.
        depth: u32,
        /// Variant (classic, compact, duel, duel-compact, barrage, custom:<board>:<army>).
        #[arg(long, default_value = "classic")]
        variant: String,
        /// A full position instead of the variant's built-in setups: our position line
        /// or a StraDos3 string (read as `--variant`).
        #[arg(long)]
        position: Option<String>,
        /// Rule options, e.g. `--rule two-squares=off --rule rescue=on` (repeatable).
        #[arg(long = "rule", value_name = "NAME=VALUE")]
        rules: Vec<String>,
    },
    /// Check a game record (JSON), a Gravon XML file or a UCC 2012 manager log (`-o`) move
    /// by move and print the result.
    Replay {
        /// The game file.
        file: String,
        /// Before each ply, print the sorted legal moves of the side to move.
        #[arg(long)]
        legal: bool,
        /// Override rule options of the record (repeatable NAME=VALUE).
        #[arg(long = "rule", value_name = "NAME=VALUE")]
        rules: Vec<String>,
    },
    /// Play a match between two engines (or built-in opponents) under our arbiter.
    Match(MatchArgs),
    /// Merge match result files (JSON lines from `match --out`) and print the statistics.
    Stats {
        /// Result files of one match (e.g. its shards).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Fixed searches from every variant: prints the node count (changes only when the
    /// search does) and the speed.
    Bench,
    /// Generate setups that follow the tips (`--explain`, `--report`, `--compare-human`).
    Setup(marshal::setup::cli::SetupArgs),
    /// Play against the engine in a terminal (coloured board, save and resume).
    Play(marshal::play::PlayArgs),
    /// Self-play games that score the beliefs (log-loss, Brier) against the true ranks.
    Calibrate(marshal::calibrate::CalibrateArgs),
    /// Convert games (record, Gravon XML, UCC log) and positions (ours, StraDos3).
    Convert(marshal::convert::ConvertArgs),
}

fn perft(depth: u32, variant: &str, position: Option<&str>, rule_items: &[String]) -> Result<(), String> {
    let rules = Rules::default().with_options(rule_items)?;
    let mut pos = match position {
        Some(text) => {
            let v = Variant::parse(variant).map_err(|e| e.0)?;
            marshal::formats::strados3::parse_any(text, &v, rules).map_err(|e| format!("bad --position: {e}"))?
        }
        None => {
            let v = Variant::parse(variant).map_err(|e| e.0)?;
            let (r, b) = v.sample_setups();
            let red = Setup::parse(&r, &v).map_err(|e| e.0)?;
            let blue = Setup::parse(&b, &v).map_err(|e| e.0)?;
            Position::from_setups(v, rules, &red, &blue).map_err(|e| e.0)?
        }
    };
    let start = Instant::now();
    let divide = pos.perft_divide(depth);
    let elapsed = start.elapsed();
    let mut total = 0u64;
    for (m, n) in &divide {
        println!("{m}: {n}");
        total += n;
    }
    let secs = elapsed.as_secs_f64().max(1e-9);
    println!(
        "nodes {total} time_ms {} nps {}",
        elapsed.as_millis(),
        (total as f64 / secs) as u64
    );
    Ok(())
}

fn replay(file: &str, legal: bool, rule_items: &[String]) -> Result<bool, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let parsed = marshal::formats::read_games(&text);
    let start = text.trim_start();
    if let (Ok([r]), false) = (parsed.as_deref(), start.is_empty() || start.starts_with(['<', '{'])) {
        // A UCC manager log: say whose game it is and what the manager's result line says.
        let meta = |k: &str| r.meta.get(k).map_or("?", String::as_str);
        let result = match r.meta.get(ucc_log::META_RESULT) {
            Some(t) => format!("result line {}: {t}", meta(ucc_log::META_RESULT_LINE)),
            None => "no result line".into(),
        };
        println!(
            "ucc log {} (red) vs {} (blue), {result}",
            meta(ucc_log::META_RED_PLAYER),
            meta(ucc_log::META_BLUE_PLAYER)
        );
    }
    let records = match parsed {
        Ok(r) => r,
        Err(e) => {
            println!("error {e}");
            return Ok(false);
        }
    };
    let many = records.len() > 1;
    let mut all_ok = true;
    for (i, record) in records.iter().enumerate() {
        let prefix = if many {
            format!("game {}: ", i + 1)
        } else {
            String::new()
        };
        all_ok &= replay_one(record, &prefix, legal, rule_items)?;
    }
    Ok(all_ok)
}

fn replay_one(record: &GameRecord, prefix: &str, legal: bool, rule_items: &[String]) -> Result<bool, String> {
    let rules = if rule_items.is_empty() {
        None
    } else {
        Some(record.rules.with_options(rule_items)?)
    };
    let outcome = record.replay_with(rules, |ply, pos| {
        if legal {
            let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            moves.sort();
            println!("{prefix}ply {ply} {} legal {}", pos.side_to_move(), moves.join(" "));
        }
    });
    match outcome {
        Ok((pos, end)) => {
            match end {
                Some(e) => println!("{prefix}result {} after {} plies", describe_end(&e), pos.ply()),
                None => println!(
                    "{prefix}result unfinished after {} plies ({} to move)",
                    pos.ply(),
                    pos.side_to_move()
                ),
            }
            Ok(true)
        }
        Err(e) => {
            println!("{prefix}error {e}");
            Ok(false)
        }
    }
}

#[derive(clap::Args)]
struct MatchArgs {
    /// A player: `builtin:random`, `builtin:greedy`, `marshal` (this program), a command
    /// speaking the protocol, or `ucc:<path>` (a UCC 2012 AI program). Give exactly two.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Games to play (pairs of games share setups, colours swapped).
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Milliseconds per move; two values separated by a comma give each engine its own
    /// (in --engine order), e.g. `1000,300`.
    #[arg(long, default_value = "100", value_name = "MS[,MS]")]
    movetime: String,
    /// A clock per side instead: BASE+INC in seconds, e.g. `10+0.1`, or one per engine,
    /// `60+1,20+0.5` (overrides --movetime).
    #[arg(long, value_name = "BASE+INC[,BASE+INC]")]
    tc: Option<String>,
    /// How late (ms) past its time an engine's move may come before it loses on time (a
    /// fixed move time allows half as much again first).
    #[arg(long, value_name = "MS", default_value_t = marshal::player::DEFAULT_MARGIN_MS)]
    timemargin: u64,
    #[arg(long, default_value = "classic")]
    variant: String,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write each game record as one JSON line to this file.
    #[arg(long)]
    out: Option<String>,
    /// Continue an interrupted match from its --out file: games in it are not replayed.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Play only part i of n of the match (pairs k with k % n == i), e.g. `--shard 0/4`.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Also write every game as Gravon XML into this folder.
    #[arg(long, value_name = "DIR")]
    gravon: Option<String>,
    /// Stop early by a sequential test: elo0 elo1 alpha beta.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
    sprt: Option<Vec<f64>>,
    /// Rule options (repeatable NAME=VALUE).
    #[arg(long = "rule", value_name = "NAME=VALUE")]
    rules: Vec<String>,
}

/// Reads match records (JSON lines); a last line cut off by an interruption is dropped.
fn read_records(path: &str) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        match GameRecord::from_json(l) {
            Ok(r) => out.push(r),
            Err(_) if i + 1 == lines.len() && !text.ends_with('\n') => {}
            Err(e) => return Err(format!("{path} line {}: {e}", i + 1)),
        }
    }
    Ok(out)
}

fn run_match(a: MatchArgs) -> Result<bool, String> {
    use marshal::arena::{arbiter, stats};
    let [e0, e1]: [String; 2] = a
        .engines
        .try_into()
        .map_err(|_| "give exactly two --engine".to_string())?;
    let v = Variant::parse(&a.variant).map_err(|e| e.0)?;
    let mut rules = Rules::default().with_options(&a.rules)?;
    if let Some((r, note)) = marshal::ucc::player::match_rules(&[&e0, &e1], &v, rules)? {
        eprintln!("{note}");
        rules = r;
    }
    let sprt = a.sprt.map(|s| stats::Sprt::new(s[0], s[1], s[2], s[3]));
    let shard = match &a.shard {
        None => (0, 1),
        Some(t) => {
            let parsed = t
                .split_once('/')
                .and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
            match parsed {
                Some((i, n)) if n > 0 && i < n => (i, n),
                _ => return Err(format!("--shard '{t}' is not i/n with 0 <= i < n")),
            }
        }
    };
    let mut done = std::collections::BTreeSet::new();
    let mut score = stats::Score::default();
    if a.resume {
        let path = a.out.as_deref().unwrap_or_default();
        if std::path::Path::new(path).exists() {
            let old = read_records(path)?;
            for r in &old {
                let g: usize = r
                    .meta
                    .get("game")
                    .and_then(|g| g.parse().ok())
                    .ok_or_else(|| format!("{path}: a record without its game number"))?;
                done.insert(g);
                arbiter::count_result(&mut score, g, r);
            }
            // Rewrite the file without a cut-off last line before appending.
            let text: String = old
                .iter()
                .map(|r| serde_json::to_string(r).unwrap_or_default() + "\n")
                .collect();
            std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
            eprintln!("resuming: {} games already played", done.len());
        }
    }
    let gravon_dir = match &a.gravon {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|e| format!("cannot create {d}: {e}"))?;
            Some(std::path::PathBuf::from(d))
        }
        None => None,
    };
    let cfg = arbiter::MatchConfig {
        engines: [e0, e1],
        games: a.games,
        tc: arbiter::TimeControl::parse_pair(&a.movetime, a.tc.as_deref())?,
        margin_ms: a.timemargin,
        variant: v,
        rules,
        concurrency: a.concurrency,
        seed: a.seed,
        sprt,
        shard,
        done,
        gravon_dir,
    };
    let mut file = match &a.out {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(a.resume)
                .write(true)
                .truncate(!a.resume)
                .open(p)
                .map_err(|e| format!("cannot write {p}: {e}"))?,
        ),
        None => None,
    };
    // The progress display: a line per game (and any warning) on stderr.
    let score = arbiter::run_match(
        &cfg,
        file.as_mut().map(|f| f as &mut dyn std::io::Write),
        score,
        &mut |line| eprintln!("{line}"),
    );
    println!("{} vs {}", cfg.engines[0], cfg.engines[1]);
    println!("{}", stats::summary(&score, cfg.sprt.as_ref()));
    Ok(true)
}

fn stats(files: &[String]) -> Result<bool, String> {
    use marshal::arena::{arbiter, stats};
    let mut all = Vec::new();
    for f in files {
        all.extend(read_records(f)?);
    }
    let mut seen = std::collections::BTreeSet::new();
    for r in &all {
        let g = r.meta.get("game").cloned().unwrap_or_default();
        if !seen.insert(g.clone()) {
            return Err(format!("game {g} appears twice (overlapping shards?)"));
        }
    }
    let (score, names) = arbiter::score_records(&all).ok_or("no match records (with game, red and blue) found")?;
    println!("{} vs {}", names[0], names[1]);
    println!("{}", stats::summary(&score, None));
    Ok(true)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = init_logging(cli.log.as_deref()) {
        eprintln!("marshal: {e}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            variant,
            position,
            rules,
        }) => perft(depth, &variant, position.as_deref(), &rules).map(|_| true),
        Some(Command::Replay { file, legal, rules }) => replay(&file, legal, &rules),
        Some(Command::Setup(args)) => marshal::setup::cli::run(&args),
        Some(Command::Play(args)) => marshal::play::run(&args),
        Some(Command::Calibrate(args)) => marshal::calibrate::run(&args, &mut std::io::stdout()),
        Some(Command::Convert(args)) => marshal::convert::run(&args, &mut std::io::stdout()).map(|_| true),
        Some(Command::Match(args)) => run_match(args),
        Some(Command::Stats { files }) => stats(&files),
        Some(Command::Bench) => {
            let (nodes, ms) = marshal::engine::bench(|_| {});
            println!("bench nodes {nodes} time_ms {ms} nps {}", nodes * 1000 / ms.max(1));
            Ok(true)
        }
        None => {
            marshal::engine::run_stdio();
            Ok(true)
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("marshal: {e}");
            ExitCode::from(2)
        }
    }
}
