// panic! in its forms: no message, a literal, format arguments of each kind.
fn no_message() {
    panic!();
}

fn literal() {
    panic!("the disk is full");
}

fn positional(index: usize, len: usize) {
    panic!("index {} out of range for length {}", index, len);
}

fn numbered_and_named(a: u8, b: u8) {
    panic!("{1} before {0}, then {name}", a, b, name = a + b);
}

fn inline_capture(other: &str) {
    panic!("unexpected {other:?} (width {:>8})", 3);
}

fn escaped_braces(key: &str) {
    panic!("missing {{key}} in {}", key);
}

fn precision_star(x: f64) {
    panic!("value {:.*} too big", 2, x);
}

fn only_a_hole(msg: String) {
    panic!("{}", msg);
}

fn variable_message(msg: &'static str) {
    // 2018 edition: panic!(msg) prints the variable; its name is not the message.
    panic!(msg);
}

fn qualified() {
    std::panic!("through the std path");
}

fn multi_line(a: u32) {
    panic!(
        "a long message {} that spans lines",
        a,
    );
}
