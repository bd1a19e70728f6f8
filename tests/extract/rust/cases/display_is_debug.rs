// The shapes of bytemuck 1.12's PodCastError and fasteval 0.2's Error: a
// Display that prints the value's derived Debug.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PodCastError {
    TargetAlignmentGreaterAndInputNotAligned,
    OutputSliceWouldHaveSlop,
    SizeMismatch,
}

impl core::fmt::Display for PodCastError {
    fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        write!(f, "{:?}", self)
    }
}

#[derive(Debug, PartialEq)]
pub enum Error {
    EofWhileParsing(String),
    InvalidValue,
    TooBig { size: usize, len: usize },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> Result<(), std::fmt::Error> {
        write!(f, "{:?}", self) // Re-use Debug for now...
    }
}

pub fn try_from_bytes(s: &[u8]) -> Result<&u32, PodCastError> {
    if s.len() != 4 {
        Err(PodCastError::SizeMismatch)
    } else {
        Err(PodCastError::TargetAlignmentGreaterAndInputNotAligned)
    }
}

pub fn read(bs: &[u8]) -> Result<u8, Error> {
    match bs.first() {
        None => Err(Error::EofWhileParsing("value".to_string())),
        Some(0) => Err(Error::InvalidValue),
        Some(_) => Err(Error::TooBig { size: 8, len: bs.len() }),
    }
}
