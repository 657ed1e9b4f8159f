//! Translation between the UCC 2012 manager's conventions and Marshal's (see README.md).
//! It lives in the library (`marshal::ucc`), shared with the `ucc:` players of
//! `marshal match`; this module only re-exports it for the adapter and its tests.

pub use marshal::ucc::*;
