//! Events: `cudaEvent_t` is the driver's `CUevent`, passed through. The
//! runtime notes the events it creates; one whose context a
//! `cudaDeviceReset` destroyed answers `cudaErrorDeviceUninitialized`
//! without reaching the driver (`context::check_event`).
//!
//! Also the events shared between processes (`cudaIpc*EventHandle`: the
//! runtime's 64-byte handle is the driver's `CUipcEventHandle`) and events
//! made from an EGL sync object.

use crate::abi::{cudaError_t, cudaEvent_t, cudaIpcEventHandle_t, cudaStream_t};
use crate::boundary::Out;
use crate::driver;
use crate::driver::stream::StreamApi;
use crate::driver::CUevent;
use crate::launch::driver_stream;
use std::ffi::{c_uint, c_void};

/// `cudaEventCreate` / `cudaEventCreateWithFlags`: the runtime's flags
/// (Default 0, BlockingSync 1, DisableTiming 2, Interprocess 4) are the
/// driver's `CU_EVENT_*`. The event is noted as made in the context the
/// call bound (its entry is `Needs::Makes`).
pub fn create(out: Out<cudaEvent_t>, flags: c_uint) -> Result<(), cudaError_t> {
    let ctx = crate::context::ensure()?;
    out.check()?;
    if flags & !0x7 != 0 || (flags & 0x4 != 0 && flags & 0x2 == 0) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut e = CUevent::null();
    driver::get()?.cuEventCreate(&mut e, flags).ok()?;
    crate::handles::made_in(e.as_raw(), crate::handles::Kind::Event, ctx.as_raw());
    out.write(e.as_raw())
}

/// `cudaEventDestroy`.
pub fn destroy(event: cudaEvent_t) -> Result<(), cudaError_t> {
    if event.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    crate::context::check_event(event.cast())?;
    let drv = driver::get()?;
    crate::handles::destroy(event.cast(), crate::handles::Kind::Event, || {
        drv.cuEventDestroy(CUevent::from(event)).ok()
    })
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
    crate::context::check_event(event.cast())?;
    driver::get()?
        .cuEventRecord(CUevent::from(event), driver_stream(stream, per_thread)?)
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
    crate::context::check_event(event.cast())?;
    driver::get()?
        .cuEventRecordWithFlags(
            CUevent::from(event),
            driver_stream(stream, per_thread)?,
            flags,
        )
        .ok()
}

/// `cudaEventQuery`.
pub fn query(event: cudaEvent_t) -> Result<(), cudaError_t> {
    if event.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    crate::context::check_event(event.cast())?;
    driver::get()?.cuEventQuery(CUevent::from(event)).ok()
}

/// `cudaEventSynchronize`.
pub fn synchronize(event: cudaEvent_t) -> Result<(), cudaError_t> {
    if event.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    crate::context::check_event(event.cast())?;
    driver::get()?.cuEventSynchronize(CUevent::from(event)).ok()
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
    crate::context::check_event(start.cast())?;
    crate::context::check_event(end.cast())?;
    let mut ms = 0f32;
    driver::get()?
        .cuEventElapsedTime(&mut ms, CUevent::from(start), CUevent::from(end))
        .ok()?;
    out.write(ms)
}

/// `cudaIpcGetEventHandle`: the event must have been created with
/// `cudaEventInterprocess | cudaEventDisableTiming` (the driver checks).
/// As in NVIDIA's runtime, the event is checked before the output pointer
/// (a NULL handle for a plain event is cudaErrorInvalidResourceHandle,
/// seen on an H200).
pub fn ipc_get_handle(
    out: Out<cudaIpcEventHandle_t>,
    event: cudaEvent_t,
) -> Result<(), cudaError_t> {
    // A NULL event is cudaErrorInvalidValue here, unlike the other event
    // calls (NVIDIA's answer on the H200).
    if event.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    crate::context::check_event(event.cast())?;
    let mut h = cudaIpcEventHandle_t::default();
    driver::family::<StreamApi>(false)?
        .cuIpcGetEventHandle(&mut h, CUevent::from(event))
        .ok()?;
    out.check()?;
    out.write(h)
}

/// `cudaIpcOpenEventHandle`: an event of another process, opened in the
/// current context.
pub fn ipc_open_handle(
    out: Out<cudaEvent_t>,
    handle: cudaIpcEventHandle_t,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut e = CUevent::null();
    driver::family::<StreamApi>(false)?
        .cuIpcOpenEventHandle(&mut e, handle)
        .ok()?;
    out.write(e.as_raw())
}

/// `cudaEventCreateFromEGLSync`: the driver's `cuEventCreateFromEGLSync`
/// (flags must be 0; it answers for platforms without EGL interop).
pub fn create_from_egl_sync(
    out: Out<cudaEvent_t>,
    sync: *mut c_void,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut e = CUevent::null();
    driver::family::<StreamApi>(false)?
        .cuEventCreateFromEGLSync(&mut e, sync, flags)
        .ok()?;
    out.write(e.as_raw())
}
