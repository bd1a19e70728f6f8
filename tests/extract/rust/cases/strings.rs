// String literal forms: raw strings, escapes, continuations, concat!.
fn forms() {
    panic!(r"raw \n stays");
    panic!(r#"raw with "quotes" and {braces}"#);
    panic!("tab\there, quote \" and \\ backslash, \u{e9}t\u{00E9}");
    panic!("a long line \
            continued here");
    panic!(concat!("joined ", "by concat"));
    panic!(concat!("concat with {} ", "a hole"), 1);
    let _ = Some(1).expect("ünïcödé message");
}
