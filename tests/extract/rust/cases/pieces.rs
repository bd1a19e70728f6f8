// A Display written in several pieces prints one message: regex-syntax
// 0.6.27's report (src/error.rs), a type made from an error to print it.
use std::fmt;

pub struct Error {
    kind: ErrorKind,
    pattern: String,
}

impl std::error::Error for Error {}

pub struct Formatter<'e, E> {
    pattern: &'e str,
    err: &'e E,
}

impl<'e> From<&'e Error> for Formatter<'e, ErrorKind> {
    fn from(err: &'e Error) -> Self {
        Formatter { pattern: &err.pattern, err: &err.kind }
    }
}

impl<'e, E: fmt::Display> fmt::Display for Formatter<'e, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pattern.contains('\n') {
            writeln!(f, "regex parse error:")?;
            // the pattern, with its lines numbered
            for (i, line) in self.pattern.lines().enumerate() {
                writeln!(f, "{:4}: {}", i + 1, line)?;
            }
            write!(f, "error: {}", self.err)?;
        } else {
            writeln!(f, "regex parse error:")?;
            let notated = self.pattern;
            write!(f, "{}", notated)?;
            write!(f, "error: {}", self.err)?;
        }
        Ok(())
    }
}

pub enum ErrorKind {
    GroupUnclosed,
    NestLimitExceeded(u32),
}

// a match whose arms write their text in pieces
impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ErrorKind::GroupUnclosed => f.write_str("unclosed group"),
            ErrorKind::NestLimitExceeded(limit) => {
                f.write_str("exceed the maximum number of ")?;
                write!(f, "nested parentheses/brackets ({})", limit)
            }
        }
    }
}

// pieces around a part read elsewhere: the part is a placeholder
pub struct ParseError {
    line: usize,
    kind: ErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)?;
        write!(f, " at line {}", self.line)
    }
}

// one write and Ok(()): a message of its own, as before
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "parse failed")?;
        Ok(())
    }
}

// a match whose arms write the first part, then more pieces: a site per arm
// of the whole (toml 0.5's Display is written so)
pub enum Kind {
    UnexpectedEof,
    Wanted { expected: &'static str, found: &'static str },
    Custom,
}

pub struct TomlError {
    kind: Kind,
    line: Option<usize>,
    message: String,
}

impl fmt::Display for TomlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::UnexpectedEof => "unexpected eof encountered".fmt(f)?,
            Kind::Wanted { expected, found } => {
                write!(f, "expected {}, found {}", expected, found)?
            }
            Kind::Custom => self.message.fmt(f)?,
        }
        if let Some(line) = self.line {
            write!(f, " at line {}", line + 1)?;
        }
        Ok(())
    }
}
