//! The human setups as statistics: how often each rank stands on each square (the files
//! are read by `crate::formats::gravon`).

use crate::rules::Setup;

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
