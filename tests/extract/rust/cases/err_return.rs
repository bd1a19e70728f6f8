// Err(...): a string built from literals is a message; anything else is an
// error value passed on, and not a site.
fn parse(s: &str) -> Result<u32, String> {
    if s.is_empty() {
        return Err("empty string".to_string());
    }
    if s.len() > 10 {
        return Err(format!("{} is too long ({} chars)", s, s.len()));
    }
    if s.starts_with('-') {
        return Err(String::from("negative numbers are not allowed"));
    }
    if s.starts_with('+') {
        return Err("leading plus".into());
    }
    s.parse::<u32>().map_err(|e| e.to_string())
}

fn borrowed(flag: bool) -> Result<(), &'static str> {
    if flag {
        Err("flag must be off")
    } else {
        Ok(())
    }
}

fn boxed(x: i32) -> Result<(), Box<dyn std::error::Error>> {
    match x {
        0 => Err(format!("zero is {}", "special").into()),
        1 => Err(Box::from("one is odd")),
        _ => Ok(()),
    }
}

fn passed_on(r: Result<(), std::io::Error>) -> Result<(), std::io::Error> {
    match r {
        Err(e) => Err(e),
        Ok(()) => Ok(()),
    }
}

fn from_a_call(e: std::io::Error) -> Result<(), String> {
    Err(e.to_string())
}
