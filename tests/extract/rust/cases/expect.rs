// .expect(): a literal, a formatted message, a message from a variable.
use std::collections::HashMap;

fn lookups(map: &HashMap<String, u32>, key: &str, msg: String) -> u32 {
    let a = map.get("a").expect("key a is always present");
    let b = map
        .get(key)
        .expect(&format!("no entry for {}", key));
    let c = map.get("c").expect(&msg);
    let d = "42".parse::<u32>().expect(concat!("forty", "-two parses"));
    a + b + c + d
}

fn other_expect_methods(r: Result<u8, String>) {
    // expect_err panics with its message too; unwrap has no message.
    let _ = r.clone().unwrap();
    let _ = r.expect_err("wanted an error");
}
