// Err(Type::any_fn("a text of words")): a function of an error type given one
// text, returned as the error (gif's DecodingError::format). A name alone
// (serde's missing_field("name")) or a call outside Err(..) is not read so.
fn decode_next(&mut self) -> Result<Option<Decoded>, DecodingError> {
    if buf.len() == 0 {
        return Err(DecodingError::format("unexpected EOF"));
    }
    if self.strict {
        return Err(de::Error::missing_field("name"));
    }
    let e = DecodingError::format("not returned here");
    Ok(None)
}
