// Err(x.error("..")): a method whose name says it makes an error, given one
// text (syn's ParseStream::error). Any other method is not read.
fn parse(input: ParseStream) -> Result<Ident> {
    if input.is_empty() {
        return Err(input.error("expected identifier"));
    }
    if input.peek(Token![fn]) {
        return Err(input.parse_error(format!("unexpected keyword {}", "fn")));
    }
    Err(input.describe("not an error"))
}
