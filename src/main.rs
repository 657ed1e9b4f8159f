//! The `marshal` binary: the protocol loop (no subcommand) and the command-line tools.

use clap::{Parser, Subcommand};
use marshal::rules::{gravon, record::describe_end, GameRecord, Position, Rules, Setup, Variant};
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
        /// A full position line instead of the variant's built-in setups.
        #[arg(long)]
        position: Option<String>,
        /// Rule options, e.g. `--rule two-squares=off --rule rescue=on` (repeatable).
        #[arg(long = "rule", value_name = "NAME=VALUE")]
        rules: Vec<String>,
    },
    /// Check a game record (JSON) or a Gravon XML file move by move and print the result.
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
    Match {
        /// A player: `builtin:random`, `builtin:greedy`, `marshal` (this program) or a
        /// command speaking the protocol. Give exactly two.
        #[arg(long = "engine", required = true, num_args = 1)]
        engines: Vec<String>,
        /// Games to play (pairs of games share setups, colours swapped).
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Milliseconds per move.
        #[arg(long, default_value_t = 100)]
        movetime: u64,
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
        /// Stop early by a sequential test: elo0 elo1 alpha beta.
        #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
        sprt: Option<Vec<f64>>,
        /// Rule options (repeatable NAME=VALUE).
        #[arg(long = "rule", value_name = "NAME=VALUE")]
        rules: Vec<String>,
    },
    /// Fixed searches from every variant: prints the node count (changes only when the
    /// search does) and the speed.
    Bench,
    /// Generate setups that follow the tips (`--explain`, `--report`, `--compare-human`).
    Setup(marshal::setup::cli::SetupArgs),
}

fn parse_rules(base: Rules, items: &[String]) -> Result<Rules, String> {
    let mut rules = base;
    for item in items {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("rule option '{item}' is not NAME=VALUE"))?;
        rules.set(k, v).map_err(|e| e.0)?;
    }
    Ok(rules)
}

fn perft(depth: u32, variant: &str, position: Option<&str>, rule_items: &[String]) -> Result<(), String> {
    let rules = parse_rules(Rules::default(), rule_items)?;
    let mut pos = match position {
        Some(text) => Position::from_text(text, rules).map_err(|e| format!("bad --position: {e}"))?,
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
    // Gravon archives are XML; our own records are JSON, one per file or one per line
    // (the output of `marshal match`).
    let parsed: Result<Vec<GameRecord>, String> = if text.trim_start().starts_with('<') {
        gravon::read(&text)
            .map(|r| vec![r])
            .map_err(|e| format!("not a valid Gravon file: {e}"))
    } else {
        match GameRecord::from_json(&text) {
            Ok(r) => Ok(vec![r]),
            Err(whole) => {
                let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
                if lines.len() > 1 && lines.iter().all(|l| l.trim_start().starts_with('{')) {
                    lines
                        .iter()
                        .enumerate()
                        .map(|(i, l)| GameRecord::from_json(l).map_err(|e| format!("line {}: {e}", i + 1)))
                        .collect()
                } else {
                    Err(whole.to_string())
                }
            }
        }
    };
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
        Some(parse_rules(record.rules, rule_items)?)
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

#[allow(clippy::too_many_arguments)]
fn run_match(
    engines: Vec<String>,
    games: usize,
    movetime: u64,
    variant: &str,
    concurrency: usize,
    seed: u64,
    out: Option<String>,
    sprt: Option<Vec<f64>>,
    rule_items: &[String],
) -> Result<bool, String> {
    use marshal::arena::{arbiter, stats};
    let [a, b]: [String; 2] = engines
        .try_into()
        .map_err(|_| "give exactly two --engine".to_string())?;
    let v = Variant::parse(variant).map_err(|e| e.0)?;
    let rules = parse_rules(Rules::default(), rule_items)?;
    let sprt = sprt.map(|s| stats::Sprt::new(s[0], s[1], s[2], s[3]));
    let cfg = arbiter::MatchConfig {
        engines: [a, b],
        games,
        movetime_ms: movetime,
        variant: v,
        rules,
        concurrency,
        seed,
        sprt,
    };
    let mut file = match &out {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("cannot write {p}: {e}"))?),
        None => None,
    };
    let score = arbiter::run_match(&cfg, file.as_mut().map(|f| f as &mut dyn std::io::Write));
    println!("{} vs {}", cfg.engines[0], cfg.engines[1]);
    println!("{}", stats::summary(&score, cfg.sprt.as_ref()));
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
        Some(Command::Match {
            engines,
            games,
            movetime,
            variant,
            concurrency,
            seed,
            out,
            sprt,
            rules,
        }) => run_match(engines, games, movetime, &variant, concurrency, seed, out, sprt, &rules),
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
