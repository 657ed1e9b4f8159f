//! Every file and string format around the game, each one file that parses into the rules'
//! checked types and prints back: game records (JSON), Gravon XML and its setup letters,
//! the UCC 2012 manager's logs, and StraDos3 positions.

pub mod gravon;
pub mod record;
pub mod strados3;
pub mod ucc_log;

pub use record::{GameRecord, RecordError};

/// The games of a file, as `marshal replay` and `marshal convert` read it: Gravon XML
/// (`<` first), our records (`{` first, or nothing: one document, or one per line, the
/// output of `marshal match`), else a UCC manager log.
pub fn read_games(text: &str) -> Result<Vec<GameRecord>, String> {
    let start = text.trim_start();
    if start.starts_with('<') {
        return gravon::read(text)
            .map(|r| vec![r])
            .map_err(|e| format!("not a valid Gravon file: {e}"));
    }
    if !start.is_empty() && !start.starts_with('{') {
        return ucc_log::read(text).map(|r| vec![r]).map_err(|e| e.to_string());
    }
    match GameRecord::from_json(text) {
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
}
