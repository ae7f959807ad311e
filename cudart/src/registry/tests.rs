//! The registry's entry points together: registration, look-ups from any
//! thread while a fatbin is still being registered, precedence, and
//! unregistration, without a driver.

use super::*;
use fatbin::wrapper::WRAPPER_MAGIC;

/// A minimal fatbin: a container header with no entries.
static CONTAINER: [u32; 4] = [CONTAINER_MAGIC, 0x0010_0001, 0, 0];

/// A version 1 wrapper of [`CONTAINER`] with `magic`, as nvcc lays it out.
fn wrapper(magic: u32) -> [u8; WRAPPER_SIZE] {
    let mut w = [0; WRAPPER_SIZE];
    w[0..4].copy_from_slice(&magic.to_le_bytes());
    w[4..8].copy_from_slice(&1u32.to_le_bytes());
    w[8..16].copy_from_slice(&(CONTAINER.as_ptr() as u64).to_le_bytes());
    w
}

static NAME: &[u8] = b"_Z6kernelv\0";
static STUB: u8 = 0;
static VAR: u32 = 0;

#[test]
fn registration_records_without_a_driver_and_unregisters() {
    let w = wrapper(WRAPPER_MAGIC);
    let h = register_fatbin(w.as_ptr().cast()).unwrap();
    let stub = &STUB as *const u8 as *const c_char;
    register_function(h, stub, NAME.as_ptr().cast()).unwrap();
    register_var(
        h,
        (&VAR as *const u32).cast(),
        NAME.as_ptr().cast(),
        4,
        None,
    )
    .unwrap();
    register_fatbin_end(h).unwrap();
    assert!(
        driver::loaded().is_none(),
        "registration must not load the driver"
    );
    let k = kernel_for_stub(stub.cast()).expect("kernel registered");
    assert_eq!(k.name().to_bytes(), b"_Z6kernelv");
    unregister_fatbin(h).unwrap();
    assert!(kernel_for_stub(stub.cast()).is_none());
    assert_eq!(
        unregister_fatbin(h),
        Err(cudaError_t::cudaErrorInvalidResourceHandle)
    );
}

/// Host stubs for the tests below, each test its own range.
static STUBS: [u8; 4096] = [0; 4096];

fn stub(i: usize) -> *const c_char {
    STUBS[i..].as_ptr().cast()
}

fn open_fatbin() -> *mut *mut c_void {
    // The registry keeps the wrapper's address only (for the trace).
    let w = Box::leak(Box::new(wrapper(WRAPPER_MAGIC)));
    register_fatbin(w.as_ptr().cast()).unwrap()
}

fn name_at(stub: *const c_char) -> Option<usize> {
    kernel_for_stub(stub.cast()).map(|k| k.name().as_ptr() as usize)
}

#[test]
fn kernels_are_found_while_registering_and_after_the_end_from_any_thread() {
    let names: Vec<std::ffi::CString> = (0..300)
        .map(|i| std::ffi::CString::new(format!("_Z1k{i}v")).unwrap())
        .collect();
    let h = open_fatbin();
    // More than a chunk, in reverse address order (as nvcc registers)
    // but for one kernel first: the sorting path.
    let order = std::iter::once(150).chain((0..300).rev().filter(|&i| i != 150));
    for i in order {
        register_function(h, stub(1000 + 3 * i), names[i].as_ptr()).unwrap();
    }
    let h_addr = h as usize;
    let look = move |i: usize| {
        std::thread::spawn(move || {
            let _ = h_addr;
            name_at(stub(1000 + 3 * i))
        })
        .join()
        .unwrap()
    };
    // Before the end: from this thread and another.
    assert_eq!(
        name_at(stub(1000 + 3 * 7)),
        Some(names[7].as_ptr() as usize)
    );
    assert_eq!(look(299), Some(names[299].as_ptr() as usize));
    register_fatbin_end(h).unwrap();
    for i in [0, 1, 63, 64, 150, 299] {
        assert_eq!(look(i), Some(names[i].as_ptr() as usize), "kernel {i}");
        assert_eq!(
            name_at(stub(1000 + 3 * i)),
            Some(names[i].as_ptr() as usize)
        );
    }
    assert_eq!(name_at(stub(1000 + 1)), None, "between two stubs");
    // After the end, from another thread: the locked path.
    let late = std::thread::spawn(move || {
        register_function(h_addr as *mut *mut c_void, stub(1001), NAME.as_ptr().cast())
    });
    late.join().unwrap().unwrap();
    assert_eq!(name_at(stub(1001)), Some(NAME.as_ptr() as usize));
    unregister_fatbin(h).unwrap();
    for i in [0, 150, 299] {
        assert_eq!(name_at(stub(1000 + 3 * i)), None);
    }
    assert_eq!(name_at(stub(1001)), None);
}

#[test]
fn the_newer_registration_of_a_stub_wins_until_it_goes() {
    static OLD: &[u8] = b"_Z3oldv\0";
    static NEW: &[u8] = b"_Z3newv\0";
    let a = open_fatbin();
    register_function(a, stub(3000), OLD.as_ptr().cast()).unwrap();
    register_function(a, stub(3008), OLD.as_ptr().cast()).unwrap();
    register_fatbin_end(a).unwrap();
    let b = open_fatbin();
    register_function(b, stub(3000), NEW.as_ptr().cast()).unwrap();
    // Open, not yet published: already the newer one.
    assert_eq!(name_at(stub(3000)), Some(NEW.as_ptr() as usize));
    register_fatbin_end(b).unwrap();
    assert_eq!(name_at(stub(3000)), Some(NEW.as_ptr() as usize));
    assert_eq!(name_at(stub(3008)), Some(OLD.as_ptr() as usize));
    unregister_fatbin(b).unwrap();
    assert_eq!(name_at(stub(3000)), Some(OLD.as_ptr() as usize));
    unregister_fatbin(a).unwrap();
    assert_eq!(name_at(stub(3000)), None);
}

#[test]
fn a_registration_left_open_ends_at_the_next_one() {
    let a = open_fatbin();
    register_function(a, stub(3500), NAME.as_ptr().cast()).unwrap();
    let b = open_fatbin(); // no end for `a`
    register_function(b, stub(3600), NAME.as_ptr().cast()).unwrap();
    // `a`'s kernel was published when `b` began; `b`'s is found open.
    assert!(name_at(stub(3500)).is_some());
    assert!(name_at(stub(3600)).is_some());
    // The registering thread's appends now go to `b`; `a` takes the
    // locked path.
    register_function(a, stub(3501), NAME.as_ptr().cast()).unwrap();
    assert!(name_at(stub(3501)).is_some());
    unregister_fatbin(b).unwrap();
    assert!(name_at(stub(3600)).is_none());
    unregister_fatbin(a).unwrap();
    assert!(name_at(stub(3500)).is_none() && name_at(stub(3501)).is_none());
}

#[test]
fn bad_wrappers_and_foreign_handles_are_errors() {
    let w = wrapper(0xdead_beef);
    assert!(register_fatbin(w.as_ptr().cast()).is_err());
    assert_eq!(
        register_fatbin(std::ptr::null()),
        Err(cudaError_t::cudaErrorInvalidValue)
    );
    let foreign = 0x1000 as *mut *mut c_void;
    assert_eq!(
        register_function(
            foreign,
            &STUB as *const u8 as *const c_char,
            NAME.as_ptr().cast()
        ),
        Err(cudaError_t::cudaErrorInvalidResourceHandle)
    );
}
