//! Another Rust static library, linked into the same program as the static
//! runtime: its standard library must not collide with the runtime's.
use std::cell::Cell;

thread_local! {
    static CALLS: Cell<u32> = const { Cell::new(0) };
}

/// The sum 0 + 1 + ... + (n - 1), worked out through the standard library
/// (a vector, formatting, parsing, a thread), and the calls on this thread.
#[no_mangle]
pub extern "C" fn neighbour_sum(n: u32) -> u64 {
    CALLS.with(|c| c.set(c.get() + 1));
    let v: Vec<u64> = (0..u64::from(n)).collect();
    let text = std::thread::spawn(move || format!("{}", v.iter().sum::<u64>()))
        .join()
        .unwrap_or_default();
    text.parse().unwrap_or(0)
}

#[no_mangle]
pub extern "C" fn neighbour_calls() -> u32 {
    CALLS.with(Cell::get)
}
