//! Writes the classic belief prior tables from the Gravon human setups: `cargo run
//! --release --example belief_prior > src/belief/prior_classic.txt` (the counts per slot)
//! and `cargo run --release --example belief_prior -- --mixture >
//! src/belief/prior_classic_mix.txt` (the setup styles) and `-- --pairs >
//! src/belief/prior_classic_pairs.txt` (what a known piece says of its neighbours) use the built-in copy (`data/`);
//! a file argument reads another Gravon classic file.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut mixture = false;
    let mut pairs = false;
    let mut path = None;
    for a in std::env::args().skip(1) {
        if a == "--mixture" {
            mixture = true;
        } else if a == "--pairs" {
            pairs = true;
        } else {
            path = Some(a);
        }
    }
    let (name, text) = match path {
        None => (
            marshal::data::CLASSIC_NAME.to_string(),
            marshal::data::classic_human_setups().to_string(),
        ),
        Some(path) => match std::fs::read_to_string(&path) {
            Ok(t) => (path, t),
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let table = if pairs {
        marshal::belief::prior::pairs_text(&text)
    } else if mixture {
        marshal::belief::prior::mixture_text(&text)
    } else {
        marshal::belief::prior::table_text(&text)
    };
    match table {
        Ok(t) => {
            print!("{t}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::from(1)
        }
    }
}
