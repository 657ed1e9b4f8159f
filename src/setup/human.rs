//! Reading the Gravon human setup files (front row first, letters `B`-`M`, `A` empty).

use crate::rules::{Rank, Setup, Variant};

/// The rank of a Gravon setup letter; `A` (empty) is `Ok(None)`.
fn gravon_rank(ch: u8) -> Result<Option<Rank>, String> {
    Ok(Some(match ch {
        b'A' => return Ok(None),
        b'B' => Rank::Bomb,
        b'C' => Rank::Spy,
        b'D' => Rank::Scout,
        b'E' => Rank::Miner,
        b'F' => Rank::Sergeant,
        b'G' => Rank::Lieutenant,
        b'H' => Rank::Captain,
        b'I' => Rank::Major,
        b'J' => Rank::Colonel,
        b'K' => Rank::General,
        b'L' => Rank::Marshal,
        b'M' => Rank::Flag,
        _ => return Err(format!("'{}' is not a Gravon setup letter", ch as char)),
    }))
}

/// Parses one 40-letter Gravon line (front row first) into a setup of `variant`.
pub fn parse_gravon(line: &str, variant: &Variant) -> Result<Setup, String> {
    let b = line.trim().as_bytes();
    let (rows, cols) = (variant.setup_rows as usize, variant.files as usize);
    if b.len() != rows * cols {
        return Err(format!(
            "Gravon setup '{}' has {} letters, not {}",
            line.trim(),
            b.len(),
            rows * cols
        ));
    }
    let mut grid = vec![vec![None; cols]; rows];
    for (i, &ch) in b.iter().enumerate() {
        grid[rows - 1 - i / cols][i % cols] = gravon_rank(ch)?;
    }
    Setup::from_rows(variant, grid).map_err(|e| e.0)
}

/// Reads a whole Gravon setup file; lines that fail to parse are reported as errors.
pub fn read_gravon_file(path: &str, variant: &Variant) -> Result<Vec<Setup>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    parse_gravon_text(&text, variant).map_err(|e| format!("{path}: {e}"))
}

/// Parses the lines of a Gravon setup file (blank lines skipped); an error names its line.
pub fn parse_gravon_text(text: &str, variant: &Variant) -> Result<Vec<Setup>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| parse_gravon(l, variant).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// How often each rank stands on each square, `[rank][row, 0 = back][col]`, over 10x4 zones:
/// the form of the tables in `prior.rs`.
pub fn square_counts(setups: &[Setup]) -> [[[u32; 10]; 4]; 12] {
    let mut t = [[[0u32; 10]; 4]; 12];
    for s in setups {
        for (r, row) in s.rows.iter().enumerate().take(4) {
            for (c, sq) in row.iter().enumerate().take(10) {
                if let Some(k) = sq {
                    t[k.index()][r][c] += 1;
                }
            }
        }
    }
    t
}
