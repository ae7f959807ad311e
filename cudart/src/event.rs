//! Events: `cudaEvent_t` is the driver's `CUevent`, passed through.

use crate::abi::{cudaError_t, cudaEvent_t, cudaStream_t};
use crate::boundary::Out;
use crate::driver;
use crate::launch::driver_stream;
use std::ffi::c_uint;

/// `cudaEventCreate` / `cudaEventCreateWithFlags`: the runtime's flags
/// (Default 0, BlockingSync 1, DisableTiming 2, Interprocess 4) are the
/// driver's `CU_EVENT_*`.
pub fn create(out: Out<cudaEvent_t>, flags: c_uint) -> Result<(), cudaError_t> {
    out.check()?;
    if flags & !0x7 != 0 || (flags & 0x4 != 0 && flags & 0x2 == 0) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut e = std::ptr::null_mut();
    driver::get()?.cuEventCreate(&mut e, flags).ok()?;
    out.write(e)
}

/// `cudaEventDestroy`.
pub fn destroy(event: cudaEvent_t) -> Result<(), cudaError_t> {
    if event.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    driver::get()?.cuEventDestroy(event).ok()
}

/// `cudaEventRecord` (and `_ptsz`).
pub fn record(
    event: cudaEvent_t,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    if event.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    driver::get()?
        .cuEventRecord(event, driver_stream(stream, per_thread))
        .ok()
}

/// `cudaEventRecordWithFlags` (and `_ptsz`).
pub fn record_with_flags(
    event: cudaEvent_t,
    stream: cudaStream_t,
    flags: c_uint,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    if event.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    driver::get()?
        .cuEventRecordWithFlags(event, driver_stream(stream, per_thread), flags)
        .ok()
}

/// `cudaEventQuery`.
pub fn query(event: cudaEvent_t) -> Result<(), cudaError_t> {
    if event.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    driver::get()?.cuEventQuery(event).ok()
}

/// `cudaEventSynchronize`.
pub fn synchronize(event: cudaEvent_t) -> Result<(), cudaError_t> {
    if event.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    driver::get()?.cuEventSynchronize(event).ok()
}

/// `cudaEventElapsedTime`.
pub fn elapsed_time(
    out: Out<f32>,
    start: cudaEvent_t,
    end: cudaEvent_t,
) -> Result<(), cudaError_t> {
    out.check()?;
    if start.is_null() || end.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    let mut ms = 0f32;
    driver::get()?
        .cuEventElapsedTime(&mut ms, start, end)
        .ok()?;
    out.write(ms)
}
