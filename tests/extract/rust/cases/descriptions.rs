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

// a Display that picks its text with a `match`, then writes it
pub enum DurationError {
    NumberExpected(usize),
    Empty,
}

impl fmt::Display for DurationError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let what = match self {
            DurationError::NumberExpected(_) => "expected number",
            DurationError::Empty => "value was empty",
        };
        write!(f, "invalid duration: {}", what)
    }
}

// a deprecated `description` that the Display prints
#[derive(Debug)]
pub enum UrlError {
    EmptyHost,
    IdnaError,
}

impl error::Error for UrlError {
    fn description(&self) -> &str {
        match *self {
            UrlError::EmptyHost => "empty host",
            UrlError::IdnaError => "invalid international domain name",
        }
    }
}

impl fmt::Display for UrlError {
    fn fmt(&self, fmt: &mut fmt::Formatter) -> fmt::Result {
        #[allow(deprecated)]
        fmt::Display::fmt(error::Error::description(self), fmt)
    }
}

// arms that write their text themselves (toml's Display)
pub enum TomlErrorKind {
    UnexpectedEof,
    Wanted { expected: &'static str },
}

pub struct TomlError {
    kind: TomlErrorKind,
}

impl fmt::Display for TomlError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.kind {
            TomlErrorKind::UnexpectedEof => "unexpected eof encountered".fmt(f)?,
            TomlErrorKind::Wanted { expected } => write!(f, "expected {}", expected)?,
        }
        Ok(())
    }
}

// a text per kind, or none (clap's ErrorKind::as_str, which its Display prints)
#[derive(Debug, Clone, Copy)]
pub enum ClapErrorKind {
    InvalidValue,
    DisplayHelp,
}

impl ClapErrorKind {
    pub fn as_str(self) -> Option<&'static str> {
        match self {
            Self::InvalidValue => Some("One of the values isn't valid for an argument"),
            Self::DisplayHelp => None,
        }
    }
}

impl ClapErrorKind {
    // names, not messages: no sites
    pub fn name(self) -> &'static str {
        match self {
            Self::InvalidValue => "invalid_value",
            Self::DisplayHelp => "display_help",
        }
    }
}

// rayon-core 1.10.1's ThreadPoolBuildError: an arm writes a `const` string
const GLOBAL_POOL_ALREADY_INITIALIZED: &str =
    "The global thread pool has already been initialized.";

#[derive(Debug)]
enum PoolErrorKind {
    GlobalPoolAlreadyInitialized,
    IOError(std::io::Error),
}

#[derive(Debug)]
pub struct ThreadPoolBuildError {
    kind: PoolErrorKind,
}

impl error::Error for ThreadPoolBuildError {}

impl fmt::Display for ThreadPoolBuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            PoolErrorKind::GlobalPoolAlreadyInitialized => GLOBAL_POOL_ALREADY_INITIALIZED.fmt(f),
            PoolErrorKind::IOError(e) => e.fmt(f),
        }
    }
}
