// Messages a Display reads from elsewhere in the file: a text per variant
// returned by an inherent method of the error type, and a `static` string.
use std::{error, fmt};

static LEVEL_PARSE_ERROR: &str =
    "attempted to convert a string that doesn't match an existing log level";

#[derive(Debug)]
pub struct ParseLevelError(());

impl fmt::Display for ParseLevelError {
    fn fmt(&self, fmt: &mut fmt::Formatter) -> fmt::Result {
        fmt.write_str(LEVEL_PARSE_ERROR)
    }
}

#[derive(Debug)]
pub enum ErrorKind {
    UnicodeNotAllowed,
    UnicodePerlClassNotFound,
}

impl ErrorKind {
    fn description(&self) -> &str {
        use self::ErrorKind::*;
        match *self {
            UnicodeNotAllowed => "Unicode not allowed here",
            UnicodePerlClassNotFound => {
                "Unicode-aware Perl class not found \
                 (make sure the unicode-perl feature is enabled)"
            }
        }
    }
}

pub struct Error {
    kind: ErrorKind,
}

// deprecated, and not what the error prints: no sites
impl error::Error for Error {
    fn description(&self) -> &str {
        match self.kind {
            ErrorKind::UnicodeNotAllowed => "not allowed",
            ErrorKind::UnicodePerlClassNotFound => "not found",
        }
    }
}

// a kind's name, not an error type: no sites
pub enum Color {
    Red,
}

impl Color {
    fn name(&self) -> &str {
        match self {
            Color::Red => "red",
        }
    }
}
