// todo!, unimplemented!, unreachable!: with and without a message.
trait Shape {
    fn area(&self) -> f64;
    fn corners(&self) -> usize;
}

struct Blob;

impl Shape for Blob {
    fn area(&self) -> f64 {
        todo!()
    }

    fn corners(&self) -> usize {
        unimplemented!("blobs have no corners")
    }
}

fn pick(n: u8) -> &'static str {
    match n {
        0 => "zero",
        1 => "one",
        _ => unreachable!("n is {} but only 0 and 1 are stored", n),
    }
}

fn never() -> ! {
    unreachable!()
}

fn later() {
    todo!("write {}", "later");
}
