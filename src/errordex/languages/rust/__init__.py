"""Everything that knows Rust: grammar, queries, extraction, scan, Cargo.toml, paste parser."""
