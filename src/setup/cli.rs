//! `marshal setup`: prints generated setups, their checks, a report, or a human comparison.

use super::{explain, generate, Comparison, Report};
use crate::formats::gravon;
use crate::rules::{Variant, VariantKind};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::io::Write;
use std::time::Instant;

/// Arguments of `marshal setup`.
#[derive(clap::Args, Debug, Clone)]
pub struct SetupArgs {
    /// Variant (classic, compact, duel, duel-compact, barrage, `custom:<board>:<army>`).
    #[arg(long, default_value = "classic")]
    pub variant: String,
    /// Setups to generate.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// RNG seed; the same seed gives the same setups.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// After each setup, print every tip check with its value and threshold.
    #[arg(long)]
    pub explain: bool,
    /// Print statistics over the setups instead of the setups themselves.
    #[arg(long)]
    pub report: bool,
    /// Print a statistical comparison with the human setups (classic and barrage).
    #[arg(long)]
    pub compare_human: bool,
    /// A human setup file (Gravon letters, one setup a line) to compare with instead of
    /// the built-in ones (`data/`: classic and barrage).
    #[arg(long)]
    pub human: Option<String>,
}

/// The built-in human setups of a variant: (name to show, text).
fn built_in_humans(v: &Variant) -> Option<(&'static str, &'static str)> {
    match v.kind {
        VariantKind::Classic => Some((crate::data::CLASSIC_NAME, crate::data::classic_human_setups())),
        VariantKind::Barrage => Some((crate::data::BARRAGE_NAME, crate::data::barrage_human_setups())),
        _ => None,
    }
}

/// The human setups to compare with: `--human FILE`, else the built-in ones.
fn human_setups(args: &SetupArgs, v: &Variant) -> Result<(String, Vec<crate::rules::Setup>), String> {
    if let Some(path) = &args.human {
        return Ok((path.clone(), gravon::read_gravon_file(path, v)?));
    }
    let (name, text) =
        built_in_humans(v).ok_or_else(|| format!("no built-in human setups for {}; pass --human FILE", v.name()))?;
    let setups = gravon::parse_gravon_text(text, v).map_err(|e| format!("{name}: {e}"))?;
    Ok((name.to_string(), setups))
}

/// Runs the subcommand; `Ok(true)` on success. This is the only place setups are printed.
pub fn run(args: &SetupArgs) -> Result<bool, String> {
    let v = Variant::parse(&args.variant).map_err(|e| e.0)?;
    let mut rng = StdRng::seed_from_u64(args.seed);
    let start = Instant::now();
    let setups: Vec<_> = (0..args.count).map(|_| generate(&v, &mut rng)).collect();
    let elapsed = start.elapsed();
    let mut out = std::io::stdout().lock();
    match print(&mut out, args, &v, &setups, elapsed) {
        // A closed pipe (`| head`) is the reader's choice, not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(true),
        Err(e) => Err(format!("cannot write output: {e}")),
        Ok(r) => r,
    }
}

/// Writes what `args` asks for; the outer `Result` is I/O, the inner the command's own.
fn print(
    out: &mut impl Write,
    args: &SetupArgs,
    v: &Variant,
    setups: &[crate::rules::Setup],
    elapsed: std::time::Duration,
) -> std::io::Result<Result<bool, String>> {
    if !args.report && !args.compare_human {
        for s in setups {
            writeln!(out, "{s}")?;
            if args.explain {
                for c in explain(s) {
                    writeln!(out, "  {c}")?;
                }
            }
        }
    }
    if args.report {
        writeln!(out, "variant {} seed {}", v.name(), args.seed)?;
        writeln!(out, "{}", Report::new(setups))?;
        writeln!(
            out,
            "time {:.1} ms for {} setups ({:.1} us each)",
            elapsed.as_secs_f64() * 1e3,
            setups.len(),
            elapsed.as_secs_f64() * 1e6 / setups.len().max(1) as f64
        )?;
    }
    if args.compare_human {
        let (path, humans) = match human_setups(args, v) {
            Ok(h) => h,
            Err(e) => return Ok(Err(e)),
        };
        let mut crng = StdRng::seed_from_u64(args.seed ^ 0x5eed_c0de);
        writeln!(out, "variant {} seed {} human file {}", v.name(), args.seed, path)?;
        writeln!(out, "{}", Comparison::new(setups, &humans, &mut crng))?;
    }
    Ok(Ok(true))
}
