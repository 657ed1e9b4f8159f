//! The data the program carries inside its binary: the human Gravon setups of `data/`.
//!
//! They are embedded gzip-compressed (about 0.6 MB) and decompressed on first use, so a
//! `marshal` installed anywhere needs no data folder beside it.

use flate2::read::GzDecoder;
use std::io::Read;
use std::sync::OnceLock;

const CLASSIC_GZ: &[u8] = include_bytes!("../data/classic-human-setups.txt.gz");
const BARRAGE_GZ: &[u8] = include_bytes!("../data/barrage-human-setups.txt.gz");

/// The name shown for the embedded classic setups (where a file name would be).
pub const CLASSIC_NAME: &str = "data/classic-human-setups.txt (built in)";
/// The name shown for the embedded Barrage setups.
pub const BARRAGE_NAME: &str = "data/barrage-human-setups.txt (built in)";

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    // The bytes are the repository's own file, checked by the tests: a failure here is a
    // broken build, not bad input.
    GzDecoder::new(bytes)
        .read_to_string(&mut text)
        .expect("embedded setup data is valid gzip text");
    text
}

/// The 32,292 human classic setups (Gravon letters, one a line; `data/README.md`).
pub fn classic_human_setups() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| gunzip(CLASSIC_GZ))
}

/// The 3,944 human Barrage setups (Gravon letters, `A` empty, one a line).
pub fn barrage_human_setups() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| gunzip(BARRAGE_GZ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_files_have_their_documented_line_counts() {
        assert_eq!(classic_human_setups().lines().count(), 32_292);
        assert_eq!(barrage_human_setups().lines().count(), 3_944);
        assert!(classic_human_setups().lines().all(|l| l.len() == 40));
        assert!(barrage_human_setups().lines().all(|l| l.len() == 40));
    }
}
