//! Streams: `cudaStream_t` is the driver's `CUstream`, passed through.

use crate::abi::{cudaError_t, cudaStream_t};
use crate::boundary::Out;
use crate::driver::{self, CUresult};
use crate::launch::driver_stream;
use std::ffi::{c_int, c_uint, c_void};

/// `cudaStreamCreate` / `cudaStreamCreateWithFlags`.
pub fn create(out: Out<cudaStream_t>, flags: c_uint) -> Result<(), cudaError_t> {
    out.check()?;
    if flags & !1 != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut s = std::ptr::null_mut();
    driver::get()?.cuStreamCreate(&mut s, flags).ok()?;
    out.write(s)
}

/// `cudaStreamCreateWithPriority`.
pub fn create_with_priority(
    out: Out<cudaStream_t>,
    flags: c_uint,
    priority: c_int,
) -> Result<(), cudaError_t> {
    out.check()?;
    if flags & !1 != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut s = std::ptr::null_mut();
    driver::get()?
        .cuStreamCreateWithPriority(&mut s, flags, priority)
        .ok()?;
    out.write(s)
}

/// `cudaStreamDestroy`: the special streams cannot be destroyed.
pub fn destroy(stream: cudaStream_t) -> Result<(), cudaError_t> {
    if (stream as usize) <= 2 {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    driver::get()?.cuStreamDestroy(stream).ok()
}

/// `cudaStreamSynchronize` (and `_ptsz`).
pub fn synchronize(stream: cudaStream_t, per_thread: bool) -> Result<(), cudaError_t> {
    driver::get()?
        .cuStreamSynchronize(driver_stream(stream, per_thread))
        .ok()
}

/// `cudaStreamQuery` (and `_ptsz`): `cudaErrorNotReady` while work is
/// pending; like every error it is recorded as the last error.
pub fn query(stream: cudaStream_t, per_thread: bool) -> Result<(), cudaError_t> {
    driver::get()?
        .cuStreamQuery(driver_stream(stream, per_thread))
        .ok()
}

/// `cudaStreamWaitEvent` (and `_ptsz`).
pub fn wait_event(
    stream: cudaStream_t,
    event: *mut c_void,
    flags: c_uint,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    driver::get()?
        .cuStreamWaitEvent(driver_stream(stream, per_thread), event, flags)
        .ok()
}

/// `cudaStreamGetFlags` (and `_ptsz`).
pub fn get_flags(
    stream: cudaStream_t,
    out: Out<c_uint>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut f = 0;
    driver::get()?
        .cuStreamGetFlags(driver_stream(stream, per_thread), &mut f)
        .ok()?;
    out.write(f)
}

/// `cudaStreamGetPriority` (and `_ptsz`).
pub fn get_priority(
    stream: cudaStream_t,
    out: Out<c_int>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut p = 0;
    driver::get()?
        .cuStreamGetPriority(driver_stream(stream, per_thread), &mut p)
        .ok()?;
    out.write(p)
}

/// `cudaDeviceGetStreamPriorityRange`.
pub fn priority_range(least: Out<c_int>, greatest: Out<c_int>) -> Result<(), cudaError_t> {
    let (mut l, mut g) = (0, 0);
    driver::get()?
        .cuCtxGetStreamPriorityRange(&mut l, &mut g)
        .ok()?;
    if !least.is_null() {
        least.write(l)?;
    }
    if !greatest.is_null() {
        greatest.write(g)?;
    }
    Ok(())
}

/// A host function queued with `cudaLaunchHostFunc`.
pub type HostFn = Option<unsafe extern "C" fn(*mut c_void)>;
/// A callback queued with `cudaStreamAddCallback` (runtime signature: the
/// status argument is a `cudaError_t`, numerically the driver's).
pub type StreamCallback = Option<unsafe extern "C" fn(cudaStream_t, cudaError_t, *mut c_void)>;

/// `cudaLaunchHostFunc` (and `_ptsz`).
pub fn launch_host_func(
    stream: cudaStream_t,
    f: HostFn,
    data: *mut c_void,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    if f.is_none() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    driver::get()?
        .cuLaunchHostFunc(driver_stream(stream, per_thread), f, data)
        .ok()
}

/// `cudaStreamAddCallback` (and `_ptsz`). `cudaError_t` and `CUresult`
/// are both a 32-bit integer with one numbering for the codes a callback
/// sees, so the runtime's callback type is ABI-identical to the driver's.
pub fn add_callback(
    stream: cudaStream_t,
    cb: StreamCallback,
    data: *mut c_void,
    flags: c_uint,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let Some(cb) = cb else {
        return Err(cudaError_t::cudaErrorInvalidValue);
    };
    if flags != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    // SAFETY: both function types take (pointer, 32-bit integer newtype,
    // pointer) and return nothing; `cudaError_t` and `CUresult` are
    // `#[repr(transparent)]` over i32, so the C ABI is the same.
    let cb = unsafe {
        std::mem::transmute::<
            unsafe extern "C" fn(cudaStream_t, cudaError_t, *mut c_void),
            unsafe extern "C" fn(*mut c_void, CUresult, *mut c_void),
        >(cb)
    };
    driver::get()?
        .cuStreamAddCallback(driver_stream(stream, per_thread), Some(cb), data, 0)
        .ok()
}
