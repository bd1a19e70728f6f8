// assert! family: only an assert with a message is a site.
fn check(len: usize, cap: usize, a: &[u8], b: &[u8]) {
    assert!(len <= cap);
    assert!(len <= cap, "len {} exceeds capacity {}", len, cap);
    assert_eq!(a, b);
    assert_eq!(a.len(), b.len(), "slices differ in length: {} vs {}", a.len(), b.len());
    assert_ne!(len, 0, "length must not be zero");
    debug_assert!(cap.is_power_of_two(), "capacity must be a power of two");
    debug_assert_eq!(len % 2, 0, "odd length {len}");
    debug_assert_ne!(cap, 0);
    assert!(
        a.iter().all(|&x| x < 128),
        "non-ASCII byte in {:?}",
        a,
    );
}
