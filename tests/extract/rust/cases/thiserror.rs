// thiserror: #[error("...")] on enum variants and on structs.
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ParseError {
    #[error("empty input")]
    Empty,
    #[error("invalid digit {0:?} at {1}")]
    InvalidDigit(char, usize),
    #[error("expected {expected}, found {found}")]
    Mismatch { expected: String, found: String },
    #[error("number too large (max {})", u32::MAX)]
    TooLarge,
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Doc comments between the attribute and the variant are fine.
    #[error("line {line}: {msg}", msg = .message.trim())]
    #[allow(dead_code)]
    AtLine { line: usize, message: String },
}

#[derive(Debug, Error)]
#[error("config file {path} is not valid TOML")]
pub struct ConfigError {
    path: String,
}

mod nested {
    #[derive(Debug, thiserror::Error)]
    #[error("{0}")]
    pub struct Wrapped(pub String);
}
