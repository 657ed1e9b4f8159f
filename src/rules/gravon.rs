//! Gravon XML game files: reading them into game records and writing records back.
