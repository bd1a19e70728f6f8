// Where and when a panic fails, as its form says: a #[track_caller]
// function's panic is reported at its caller; debug_assert! is checked only
// with debug assertions; a panic in a const is a compile error.
pub struct ArgMatches;

impl ArgMatches {
    #[cfg_attr(debug_assertions, track_caller)]
    pub fn get_one(&self, id: &str) -> Option<&str> {
        panic!("Mismatch between definition and access of `{}`", id)
    }

    #[track_caller]
    pub fn index(&self, i: usize) -> usize {
        assert!(i < 3, "index {} out of range", i);
        i
    }
}

pub fn advance(len: usize, by: usize) {
    debug_assert!(by <= len, "advance out of bounds");
    debug_assert_eq!(len % 2, 0);
}

pub const LIMIT: usize = {
    assert!(usize::BITS >= 32, "usize is too small");
    1 << 20
};

pub const fn at_run_time_too(x: usize) -> usize {
    if x == 0 {
        panic!("x is zero");
    }
    x
}
