//! Handles the runtime destroyed: streams, events and arrays given back
//! through `cudaStreamDestroy`, `cudaEventDestroy`, `cudaFreeArray`. The
//! driver dereferences a handle it is given; one whose object is gone makes
//! it read freed memory and, often, crash the process (NVIDIA's runtime
//! passes such handles on and crashes with it: the bad-input matrix on the
//! H200). The runtime remembers the handles it destroyed and answers
//! `cudaErrorInvalidResourceHandle` for them without reaching the driver.
//!
//! The record is a fixed table of [`SLOTS`] addresses, read without a lock
//! on every call that passes a stream, event or array to the driver: one
//! relaxed load while nothing was ever destroyed, else a hash and a few
//! probes. Writers (destroy and create, which call the driver anyway) take
//! one lock. An address the driver hands out again (any object the runtime
//! creates) is taken out first. The table is bounded: when the probe window
//! of an address is full, the oldest entry there is overwritten, so a handle
//! destroyed long ago (thousands of destructions later) is forgotten and
//! goes to the driver as before. A handle the program made through the
//! driver directly at an address the runtime once destroyed would be
//! refused; the runtime cannot see such objects being made.

use parking_lot::Mutex;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Table size (a power of two): 32 KiB of addresses.
const SLOTS: usize = 4096;
/// Slots probed from an address's home slot.
const WINDOW: usize = 8;
/// A slot whose address was taken out (probing goes on past it).
const TOMBSTONE: usize = 1;

static TABLE: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
/// Set at the first destruction: until then no call looks anything up.
static ANY: AtomicBool = AtomicBool::new(false);
/// Serializes writers; the value is the next slot to evict within a window.
static WRITER: Mutex<usize> = Mutex::new(0);

#[inline(always)]
fn home(addr: usize) -> usize {
    // Fibonacci hashing of the address without its alignment bits.
    ((addr >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (usize::BITS - SLOTS.trailing_zeros()))
        & (SLOTS - 1)
}

/// Whether `handle` is one the runtime destroyed (and has not handed out
/// again since).
#[inline(always)]
pub fn is_retired(handle: *mut c_void) -> bool {
    ANY.load(Ordering::Relaxed) && lookup(handle as usize)
}

#[inline(never)]
fn lookup(addr: usize) -> bool {
    if addr <= TOMBSTONE {
        return false;
    }
    let h = home(addr);
    for i in 0..WINDOW {
        match TABLE[(h + i) & (SLOTS - 1)].load(Ordering::Acquire) {
            0 => return false,
            a if a == addr => return true,
            _ => {}
        }
    }
    false
}

/// Records a handle the runtime just destroyed.
pub fn retire(handle: *mut c_void) {
    let addr = handle as usize;
    if addr <= TOMBSTONE {
        return;
    }
    let mut evict = WRITER.lock();
    let h = home(addr);
    let mut free = None;
    for i in 0..WINDOW {
        let slot = &TABLE[(h + i) & (SLOTS - 1)];
        match slot.load(Ordering::Relaxed) {
            a if a == addr => return,
            0 | TOMBSTONE if free.is_none() => free = Some(slot),
            0 => break,
            _ => {}
        }
    }
    let slot = free.unwrap_or_else(|| {
        *evict = (*evict + 1) % WINDOW;
        &TABLE[(h + *evict) & (SLOTS - 1)]
    });
    slot.store(addr, Ordering::Release);
    ANY.store(true, Ordering::Release);
}

/// Takes out an address the driver just handed out again for a new object.
pub fn revive(handle: *mut c_void) {
    let addr = handle as usize;
    if addr <= TOMBSTONE || !ANY.load(Ordering::Acquire) {
        return;
    }
    let _w = WRITER.lock();
    let h = home(addr);
    for i in 0..WINDOW {
        let slot = &TABLE[(h + i) & (SLOTS - 1)];
        match slot.load(Ordering::Relaxed) {
            0 => return,
            a if a == addr => {
                slot.store(TOMBSTONE, Ordering::Release);
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(a: usize) -> *mut c_void {
        a as *mut c_void
    }

    #[test]
    fn retire_revive_and_eviction() {
        // Addresses far from the ones other tests could use.
        let base = 0x7f00_0000_0000usize;
        assert!(!is_retired(p(base)));
        retire(p(base));
        assert!(is_retired(p(base)));
        assert!(!is_retired(p(base + 0x100)));
        revive(p(base));
        assert!(!is_retired(p(base)));
        // Many retirements: each recent one is found; the table stays bounded.
        let many: Vec<usize> = (0..3 * SLOTS).map(|i| base + 0x1000 + i * 0x40).collect();
        for &a in &many {
            retire(p(a));
            assert!(is_retired(p(a)), "{a:#x} just retired");
        }
        let found = many.iter().filter(|&&a| is_retired(p(a))).count();
        assert!(found <= SLOTS, "{found} found in a table of {SLOTS}");
        assert!(found >= SLOTS / 4, "only {found} of the recent ones kept");
        for &a in &many {
            revive(p(a));
            assert!(!is_retired(p(a)));
        }
        assert!(!is_retired(std::ptr::null_mut()));
    }
}
