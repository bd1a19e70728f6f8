// Guards and symbols: cfg attributes, match arms, if/else, test code.
#![cfg(feature = "std")]

pub trait Backend {
    fn backward(&self);
}

pub struct Dispatch;

impl Backend for Dispatch {
    fn backward(&self) {
        panic!("Requires autodiff tensor.");
    }
}

impl Dispatch {
    #[cfg(all(unix, not(feature = "minimal")))]
    fn inherent(&self, x: Option<u8>, y: u8) {
        if y > 3 {
            panic!("y too big");
        } else if y == 0 {
            panic!("y is zero");
        } else {
            let Some(v) = x else {
                panic!("x is missing");
            };
            #[cfg(debug_assertions)]
            assert!(v < 10, "v is {}", v);
        }
    }
}

pub enum Tensor {
    Float(f32),
    Int(i64),
    Bool(bool),
}

pub fn kind(t: &Tensor) -> &'static str {
    match t {
        Tensor::Float(_) => "float",
        #[cfg(feature = "ints")]
        Tensor::Int(i) if *i > 0 => panic!("positive ints are unsupported"),
        other => panic!("unsupported tensor kind"),
    }
}

mod outer {
    pub mod inner {
        pub fn deep() {
            unimplemented!("deep inside");
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs() {
        panic!("a test helper panic");
    }
}

#[test]
fn top_level_test() {
    let _ = Some(1).expect("top-level test");
}
