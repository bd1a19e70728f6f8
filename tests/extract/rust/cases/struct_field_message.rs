// A Display that prints one field as it is: where the value is built with a
// text in that field (tinytemplate's GenericError) is a site of that text.
#[derive(Debug)]
pub enum Error {
    GenericError { msg: String },
    Other { code: u32, why: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Error::GenericError { msg } => write!(f, "{}", msg),
            Error::Other { why, .. } => write!(f, "{}", why),
        }
    }
}

fn render(name: &str) -> Result<(), Error> {
    if name.is_empty() {
        return Err(Error::Other { code: 3, why: "empty name".to_string() });
    }
    Err(Error::GenericError {
        msg: format!("Unknown template '{}'", name),
    })
}
