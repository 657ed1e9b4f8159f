//! Writes the classic belief prior table (`src/belief/prior_classic.txt`) from the Gravon
//! human setup file: `cargo run --release --example belief_prior -- <file> > src/belief/prior_classic.txt`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: belief_prior <classic-human-setups.txt>");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    match marshal::belief::prior::table_text(&text) {
        Ok(t) => {
            print!("{t}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{path}: {e}");
            ExitCode::from(1)
        }
    }
}
