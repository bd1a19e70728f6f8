// A macro that formats the string it is given into an error (xml-rs's
// self_error!): each call in an expression is a site of its first string
// literal, formatted with the arguments after it.
macro_rules! self_error(
    ($this:ident; $msg:expr) => ($this.error($msg));
    ($this:ident; $fmt:expr, $($arg:expr),+) => ($this.error(format!($fmt, $($arg),+)))
);

// Passes its argument on, but to no error: no site.
macro_rules! twice(
    ($e:expr) => (Some($e))
);

impl Parser {
    fn close(&mut self, name: &str, op_name: &str) -> Result {
        if name != op_name {
            return Some(self_error!(self; "Unexpected closing tag: {}, expected {}", name, op_name));
        }
        let _ = twice!("not a message");
        let _ = format!("{}", "std's macros are read on their own");
        Err(self_error!(self; "Unexpected end of stream"))
    }
}
