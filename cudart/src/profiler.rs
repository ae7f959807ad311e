//! Profiler start and stop, and the driver's error logs (`cudaLogs*`).
//!
//! Both are the driver's: `cuProfilerStart`/`cuProfilerStop` act on the
//! current context, and the error-log calls read the driver's log buffer
//! (flags are reserved and must be 0; the driver checks).

use crate::abi::{cudaError_t, cudaLogIterator, cudaLogsCallbackHandle, cudaLogsCallback_t};
use crate::boundary::{CStrArg, In, Out};
use crate::driver;
use crate::driver::library::LibraryApi;
use crate::driver::CUlogsCallbackHandle;
use crate::handles::{self, Kind};
use std::ffi::{c_char, c_uint, c_void};

fn api() -> Result<&'static LibraryApi, cudaError_t> {
    driver::family::<LibraryApi>(false)
}

/// `cudaProfilerStart`.
pub fn start() -> Result<(), cudaError_t> {
    api()?.cuProfilerStart().ok()
}

/// `cudaProfilerStop`.
pub fn stop() -> Result<(), cudaError_t> {
    api()?.cuProfilerStop().ok()
}

/// `cudaLogsCurrent`: an iterator to where the next message will go.
pub fn logs_current(out: Out<cudaLogIterator>, flags: c_uint) -> Result<(), cudaError_t> {
    out.check()?;
    let mut it = 0;
    api()?.cuLogsCurrent(&mut it, flags).ok()?;
    out.write(it)
}

/// `cudaLogsDumpToFile`: the messages from `iterator` on (all of them when
/// it is NULL) into a file; the iterator advances.
pub fn logs_dump_to_file(
    iterator: *mut cudaLogIterator,
    path: CStrArg,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    let path = path.get()?;
    api()?.cuLogsDumpToFile(iterator, path.as_ptr(), flags).ok()
}

/// `cudaLogsDumpToMemory`: the messages into `buffer` (`*size` bytes in,
/// the bytes written out); the iterator advances.
pub fn logs_dump_to_memory(
    iterator: *mut cudaLogIterator,
    buffer: *mut c_char,
    size: Out<usize>,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    size.check()?;
    if buffer.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api()?
        .cuLogsDumpToMemory(iterator, buffer, size.as_ptr(), flags)
        .ok()
}

/// `cudaLogsRegisterCallback`: the driver calls `callback` for each new
/// message (the handle out-pointer is optional).
pub fn logs_register_callback(
    callback: cudaLogsCallback_t,
    data: *mut c_void,
    handle: *mut cudaLogsCallbackHandle,
) -> Result<(), cudaError_t> {
    if callback.is_none() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api()?
        .cuLogsRegisterCallback(callback, data, handle.cast())
        .ok()?;
    if !handle.is_null() {
        handles::made(In(handle.cast_const()).read()?.cast(), Kind::LogsCallback);
    }
    Ok(())
}

/// `cudaLogsUnregisterCallback`. A handle unregistered already, a live
/// object of another kind (a stream), or one that is not readable memory
/// is refused before the driver reads it (it crashed on a stream under
/// NVIDIA's runtime on the H200).
pub fn logs_unregister_callback(handle: cudaLogsCallbackHandle) -> Result<(), cudaError_t> {
    if handle.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    handles::check_or(
        handle.cast(),
        Kind::LogsCallback,
        cudaError_t::cudaErrorInvalidValue,
    )?;
    let api = api()?;
    handles::destroy(handle.cast(), Kind::LogsCallback, || {
        api.cuLogsUnregisterCallback(CUlogsCallbackHandle::from(handle))
            .ok()
    })
}
