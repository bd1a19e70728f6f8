// quick_error! enums write each variant's Display in a display(..) clause
// (as dns-parser 0.8 and resolv-conf 0.7 do); quick-error 1's form
// display(me) -> ("..", args) too. A display(..) outside quick_error! is no site.
quick_error! {
    /// Error parsing DNS packet
    #[derive(Debug)]
    pub enum Error {
        /// Packet is smaller than header size
        HeaderTooShort {
            display("packet is smaller than header size")
        }
        InvalidQueryType(code: u16) {
            //description("query type code is invalid")
            display("query type {} is invalid", code)
        }
        InvalidIp(line: usize, err: AddrParseError) {
            description("invalid IP")
            display(me) -> ("directive at line {} contains invalid IP: {}", line, err)
            from()
        }
    }
}

other_macro! {
    pub enum Quiet {
        Nope { display("not a message of any error") }
    }
}
