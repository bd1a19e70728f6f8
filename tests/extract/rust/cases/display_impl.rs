// Display impls of error types hold the messages: one site per match arm.
use std::fmt::{self, Display};

#[derive(Debug)]
pub enum ErrorKind {
    Empty,
    TooLong(usize),
    BadChar { ch: char, at: usize },
    Other,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ErrorKind::Empty => write!(f, "cannot parse an empty string"),
            ErrorKind::TooLong(n) => write!(f, "input of {} bytes is too long", n),
            Self::BadChar { ch, at } => {
                writeln!(f, "bad character {:?} at {}", ch, at)
            }
            _ => f.write_str("something else went wrong"),
        }
    }
}

pub struct Error {
    kind: ErrorKind,
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad("parse error")?;
        f.write_str(match self.kind {
            ErrorKind::Empty => "empty",
            ErrorKind::TooLong(_) => "long",
            _ => "other",
        })
    }
}

// Not an error type (no Error in the name, no `impl Error`): not a site.
pub struct Point(i32, i32);

impl Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.0, self.1)
    }
}

// An error type by its `impl std::error::Error`.
#[derive(Debug)]
pub struct Timeout;

impl Display for Timeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("operation timed out")
    }
}

impl std::error::Error for Timeout {}

// tokio 1.24's mpsc TrySendError: the text is a `match` passed to write!
pub enum TrySendError<T> {
    Full(T),
    Closed(T),
}

impl<T> Display for TrySendError<T> {
    fn fmt(&self, fmt: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            fmt,
            "{}",
            match self {
                TrySendError::Full(..) => "no available capacity",
                TrySendError::Closed(..) => "channel closed",
            }
        )
    }
}
