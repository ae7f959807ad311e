//! Regression tests for what the fuzz targets found (the ledger:
//! docs/fuzzing.md; the inputs: cudart/fuzz/regressions/). Each replays the
//! input's calls through the registry's public functions, without a driver.

use cudart::facade::registry;
use std::ffi::{c_char, c_void};

/// nvcc's wrapper: magic, version, container, file name.
#[repr(C)]
struct Wrapper {
    magic: u32,
    version: u32,
    data: *const c_void,
    file: *const c_void,
}

/// A container header with no entries.
static CONTAINER: [u32; 4] = [0xBA55_ED50, 0x0010_0001, 0, 0];
static STUBS: [u8; 0x3000] = [0; 0x3000];
static NAME: &[u8] = b"\0";

fn stub(off: usize) -> *const c_char {
    STUBS[off..].as_ptr().cast()
}

/// `registration-narrow-overflow`: kernels registered at stubs `s + 1`,
/// `s`, `s + 0x1000`, in that order. Publishing them (at
/// `__cudaRegisterFatBinaryEnd`) tried the compact form, offsets from the
/// lower of the first and last stub; the middle one lies below it, its
/// offset wrapped to `usize::MAX`, and `off + 1` overflowed: a panic where
/// overflow checks are on (debug builds, `cargo test`), a silent wrap in
/// release. Now the sum saturates and the kernels are kept in the wide form.
#[test]
fn a_stub_just_below_the_first_one_publishes_without_overflow() {
    let w = Wrapper {
        magic: 0x466243B1,
        version: 1,
        data: CONTAINER.as_ptr().cast(),
        file: std::ptr::null(),
    };
    let h = registry::register_fatbin(&w as *const Wrapper as *const c_void).unwrap();
    let offsets = [0x1001, 0x1000, 0x2000];
    for off in offsets {
        registry::register_function(h, stub(off), NAME.as_ptr().cast()).unwrap();
    }
    registry::register_fatbin_end(h).unwrap();
    for off in offsets {
        assert!(
            registry::kernel_for_stub(stub(off).cast()).is_some(),
            "{off:#x}"
        );
    }
    assert!(registry::kernel_for_stub(stub(0x1002).cast()).is_none());
    registry::unregister_fatbin(h).unwrap();
    assert_eq!(registry::counts(), (0, 0, 0));
}
