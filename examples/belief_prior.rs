//! Writes the classic belief prior table (`src/belief/prior_classic.txt`) from the Gravon
//! human setups: `cargo run --release --example belief_prior > src/belief/prior_classic.txt`
//! uses the built-in copy (`data/`); a file argument reads another Gravon classic file.

use std::process::ExitCode;

fn main() -> ExitCode {
    let (name, text) = match std::env::args().nth(1) {
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
    match marshal::belief::prior::table_text(&text) {
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
