//! The thread's last error and the process's sticky error.
//!
//! Every failing call records its error as the calling thread's last error;
//! `cudaGetLastError` returns it and resets it, `cudaPeekAtLastError` only
//! returns it. A sticky error (the driver could not be loaded or
//! initialized) outlives the reset and hides later errors: both calls
//! report it, as NVIDIA's runtime does, until the state that caused it is
//! gone (a process without a driver never recovers). Measured with the
//! differential harness (abi-tests/harness): with the sticky
//! `cudaErrorInsufficientDriver` set, a call failing with
//! `cudaErrorMissingConfiguration` leaves both calls at 35. Only failures
//! to initialize are sticky here; device faults stay with the driver
//! context.

use crate::abi::cudaError_t;
use std::cell::Cell;
use std::ffi::c_char;
use std::sync::atomic::{AtomicI32, Ordering};

thread_local! {
    static LAST: Cell<cudaError_t> = const { Cell::new(cudaError_t::cudaSuccess) };
}

/// The process-wide sticky error (0 = none).
static STICKY: AtomicI32 = AtomicI32::new(0);

/// Records a failing call's error as the thread's last error.
/// `cudaErrorNotReady` is a status, not an error: NVIDIA's runtime does not
/// record it (measured: `cudaStreamQuery` returning it leaves
/// `cudaGetLastError` at `cudaSuccess`). A device fault is returned once by
/// `cudaGetLastError`; the context stays unusable because the driver keeps
/// failing its calls, not because the runtime repeats the error.
#[inline]
pub fn set_last(e: cudaError_t) {
    if e != cudaError_t::cudaErrorNotReady {
        LAST.with(|l| l.set(e));
    }
}

/// Makes `e` sticky for the whole process (and the thread's last error).
pub fn set_sticky(e: cudaError_t) {
    STICKY.store(e.0, Ordering::Relaxed);
    set_last(e);
}

/// Clears the sticky error (after `cudaDeviceReset` recovers the device).
pub fn clear_sticky() {
    STICKY.store(0, Ordering::Relaxed);
}

#[inline]
pub fn sticky() -> cudaError_t {
    cudaError_t(STICKY.load(Ordering::Relaxed))
}

/// `cudaGetLastError`: the sticky error if there is one, else the last
/// error; the last error is reset either way.
#[inline]
pub fn get_last() -> Result<(), cudaError_t> {
    let e = LAST.with(|l| l.replace(cudaError_t::cudaSuccess));
    let s = sticky();
    let e = if s != cudaError_t::cudaSuccess { s } else { e };
    if e == cudaError_t::cudaSuccess {
        Ok(())
    } else {
        Err(e)
    }
}

/// `cudaPeekAtLastError`: like `cudaGetLastError`, without the reset.
#[inline]
pub fn peek_last() -> Result<(), cudaError_t> {
    let s = sticky();
    let e = if s != cudaError_t::cudaSuccess {
        s
    } else {
        LAST.with(|l| l.get())
    };
    if e == cudaError_t::cudaSuccess {
        Ok(())
    } else {
        Err(e)
    }
}

pub fn name(e: cudaError_t) -> Result<*const c_char, cudaError_t> {
    Ok(e.name().as_ptr())
}

pub fn string(e: cudaError_t) -> Result<*const c_char, cudaError_t> {
    Ok(e.description().as_ptr())
}
