//! Streams: `cudaStream_t` is the driver's `CUstream`, passed through.
//!
//! Beyond creation, synchronization and callbacks, this room holds stream
//! capture (into graphs), stream attributes, ids and devices, and managed
//! memory attachment. Capture statuses and modes, edge data, attribute ids
//! and values, and the `cudaMemAttach*` flags are the driver's own numbers
//! and layouts (see `driver/stream.rs`), so they pass through unchanged.
//! Every `per_thread` function serves both the plain export and its
//! `_ptsz` variant: the null stream of the latter is the per-thread stream.
//! The runtime notes the streams it creates; one whose context a
//! `cudaDeviceReset` destroyed answers `cudaErrorInvalidResourceHandle`
//! without reaching the driver (`context::check_stream`).

use crate::abi::{
    cudaError_t, cudaGraphEdgeData, cudaGraphNode_t, cudaGraph_t, cudaLaunchAttributeID,
    cudaLaunchAttributeValue, cudaStreamCaptureMode, cudaStreamCaptureStatus, cudaStream_t,
};
use crate::boundary::{In, Out};
use crate::driver::stream::StreamApi;
use crate::driver::{self, CUevent, CUgraph, CUresult, CUstream};
use crate::launch::driver_stream;
use std::ffi::{c_int, c_uint, c_void};

/// `cudaStreamCreate` / `cudaStreamCreateWithFlags`: the stream is noted as
/// made in the context the call bound (its entry is `Needs::Makes`).
pub fn create(out: Out<cudaStream_t>, flags: c_uint) -> Result<(), cudaError_t> {
    let ctx = crate::context::ensure()?;
    out.check()?;
    if flags & !1 != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut s = CUstream::null();
    driver::get()?.cuStreamCreate(&mut s, flags).ok()?;
    crate::handles::made_in(s.as_raw(), crate::handles::Kind::Stream, ctx.as_raw());
    out.write(s.as_raw())
}

/// `cudaStreamCreateWithPriority`.
pub fn create_with_priority(
    out: Out<cudaStream_t>,
    flags: c_uint,
    priority: c_int,
) -> Result<(), cudaError_t> {
    let ctx = crate::context::ensure()?;
    out.check()?;
    if flags & !1 != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut s = CUstream::null();
    driver::get()?
        .cuStreamCreateWithPriority(&mut s, flags, priority)
        .ok()?;
    crate::handles::made_in(s.as_raw(), crate::handles::Kind::Stream, ctx.as_raw());
    out.write(s.as_raw())
}

/// `cudaStreamDestroy`: the special streams cannot be destroyed.
pub fn destroy(stream: cudaStream_t) -> Result<(), cudaError_t> {
    if (stream as usize) <= 2 {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    crate::context::check_stream(stream.cast())?;
    let drv = driver::get()?;
    crate::handles::destroy(stream.cast(), crate::handles::Kind::Stream, || {
        drv.cuStreamDestroy(CUstream::from(stream)).ok()
    })
}

/// `cudaStreamSynchronize` (and `_ptsz`).
pub fn synchronize(stream: cudaStream_t, per_thread: bool) -> Result<(), cudaError_t> {
    crate::context::check_stream(stream.cast())?;
    driver::get()?
        .cuStreamSynchronize(driver_stream(stream, per_thread)?)
        .ok()
}

/// `cudaStreamQuery` (and `_ptsz`): `cudaErrorNotReady` while work is
/// pending; like every error it is recorded as the last error.
pub fn query(stream: cudaStream_t, per_thread: bool) -> Result<(), cudaError_t> {
    crate::context::check_stream(stream.cast())?;
    driver::get()?
        .cuStreamQuery(driver_stream(stream, per_thread)?)
        .ok()
}

/// `cudaStreamWaitEvent` (and `_ptsz`).
pub fn wait_event(
    stream: cudaStream_t,
    event: *mut c_void,
    flags: c_uint,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    crate::context::check_stream(stream.cast())?;
    crate::context::check_event(event)?;
    driver::get()?
        .cuStreamWaitEvent(
            driver_stream(stream, per_thread)?,
            CUevent::from(event),
            flags,
        )
        .ok()
}

/// `cudaStreamGetFlags` (and `_ptsz`).
pub fn get_flags(
    stream: cudaStream_t,
    out: Out<c_uint>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    crate::context::check_stream(stream.cast())?;
    out.check()?;
    let mut f = 0;
    driver::get()?
        .cuStreamGetFlags(driver_stream(stream, per_thread)?, &mut f)
        .ok()?;
    out.write(f)
}

/// `cudaStreamGetPriority` (and `_ptsz`).
pub fn get_priority(
    stream: cudaStream_t,
    out: Out<c_int>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    crate::context::check_stream(stream.cast())?;
    out.check()?;
    let mut p = 0;
    driver::get()?
        .cuStreamGetPriority(driver_stream(stream, per_thread)?, &mut p)
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
    crate::context::check_stream(stream.cast())?;
    if f.is_none() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    driver::get()?
        .cuLaunchHostFunc(driver_stream(stream, per_thread)?, f, data)
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
    crate::context::check_stream(stream.cast())?;
    let Some(cb) = cb else {
        return Err(cudaError_t::cudaErrorInvalidValue);
    };
    if flags != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    // SAFETY: both function types take (pointer, 32-bit integer newtype,
    // pointer) and return nothing; `CUstream` is `#[repr(transparent)]`
    // over the pointer, `cudaError_t` and `CUresult` over i32, so the C ABI
    // is the same.
    let cb = unsafe {
        std::mem::transmute::<
            unsafe extern "C" fn(cudaStream_t, cudaError_t, *mut c_void),
            unsafe extern "C" fn(CUstream, CUresult, *mut c_void),
        >(cb)
    };
    driver::get()?
        .cuStreamAddCallback(driver_stream(stream, per_thread)?, Some(cb), data, 0)
        .ok()
}

/// The stream family's driver table for a plain (`false`) or `_ptsz`
/// (`true`) export.
fn api(per_thread: bool) -> Result<&'static StreamApi, cudaError_t> {
    driver::family::<StreamApi>(per_thread)
}

/// A capture mode the runtime defines (Global 0, ThreadLocal 1, Relaxed 2).
fn check_mode(mode: cudaStreamCaptureMode) -> Result<(), cudaError_t> {
    if mode.0 <= cudaStreamCaptureMode::cudaStreamCaptureModeRelaxed.0 {
        Ok(())
    } else {
        Err(cudaError_t::cudaErrorInvalidValue)
    }
}

/// `cudaStreamBeginCapture` (and `_ptsz`).
pub fn begin_capture(
    stream: cudaStream_t,
    mode: cudaStreamCaptureMode,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    check_mode(mode)?;
    api(per_thread)?
        .cuStreamBeginCapture(driver_stream(stream, per_thread)?, mode)
        .ok()
}

/// `cudaStreamBeginCaptureToGraph` (and `_ptsz`): capture into an existing
/// graph, after the given nodes (with optional edge data).
pub fn begin_capture_to_graph(
    stream: cudaStream_t,
    graph: cudaGraph_t,
    deps: *const cudaGraphNode_t,
    edges: *const cudaGraphEdgeData,
    n: usize,
    mode: cudaStreamCaptureMode,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    check_mode(mode)?;
    api(per_thread)?
        .cuStreamBeginCaptureToGraph(
            driver_stream(stream, per_thread)?,
            CUgraph::from(graph),
            deps.cast(),
            edges,
            n,
            mode,
        )
        .ok()
}

/// `cudaStreamEndCapture` (and `_ptsz`).
pub fn end_capture(
    stream: cudaStream_t,
    graph: Out<cudaGraph_t>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    // Straight into the caller's location: an invalidated capture ends
    // with NULL there, exactly as the driver writes it. NULL is valid: a
    // capture into an existing graph (cudaStreamBeginCaptureToGraph) has
    // no new graph to hand back; the driver gets a place of ours.
    let mut unwanted: cudaGraph_t = std::ptr::null_mut();
    let place = if graph.is_null() {
        &mut unwanted as *mut cudaGraph_t
    } else {
        graph.as_ptr()
    };
    let r = api(per_thread)?.cuStreamEndCapture(driver_stream(stream, per_thread)?, place.cast());
    crate::graph::made(place, r)
}

/// `cudaStreamIsCapturing` (and `_ptsz`).
pub fn is_capturing(
    stream: cudaStream_t,
    status: Out<cudaStreamCaptureStatus>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    status.check()?;
    let mut st = cudaStreamCaptureStatus::cudaStreamCaptureStatusNone;
    api(per_thread)?
        .cuStreamIsCapturing(driver_stream(stream, per_thread)?, &mut st)
        .ok()?;
    status.write(st)
}

/// The optional out-parameters of `cudaStreamGetCaptureInfo`, each NULL
/// when the caller does not want it (the driver writes through them).
pub struct CaptureInfoOut {
    pub id: *mut u64,
    pub graph: *mut cudaGraph_t,
    pub deps: *mut *const cudaGraphNode_t,
    pub edges: *mut *const cudaGraphEdgeData,
    pub count: *mut usize,
}

/// `cudaStreamGetCaptureInfo` (and `_ptsz`), CUDA 13's form with edge
/// data: the driver's `cuStreamGetCaptureInfo_v3`.
pub fn get_capture_info(
    stream: cudaStream_t,
    status: Out<cudaStreamCaptureStatus>,
    out: CaptureInfoOut,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    status.check()?;
    // Edge data without the dependencies is refused during a capture (as
    // the runtime documents); on a stream that is not capturing NVIDIA's
    // runtime answers success (the NULL sweep on the H200).
    if !out.edges.is_null() && out.deps.is_null() {
        let mut st = cudaStreamCaptureStatus::cudaStreamCaptureStatusNone;
        api(per_thread)?
            .cuStreamIsCapturing(driver_stream(stream, per_thread)?, &mut st)
            .ok()?;
        if st != cudaStreamCaptureStatus::cudaStreamCaptureStatusNone {
            return Err(cudaError_t::cudaErrorInvalidValue);
        }
    }
    api(per_thread)?
        .cuStreamGetCaptureInfo(
            driver_stream(stream, per_thread)?,
            status.as_ptr(),
            out.id,
            out.graph.cast(),
            out.deps.cast(),
            out.edges,
            out.count,
        )
        .ok()?;
    // The dependencies of an active capture are nodes the caller may pass
    // back: taken out of the handle record (crate::graph). The driver
    // writes them (and the count) only for an active capture.
    let active = In(status.as_ptr().cast_const()).read()?
        == cudaStreamCaptureStatus::cudaStreamCaptureStatusActive;
    if active && !out.deps.is_null() && !out.count.is_null() {
        let n = In(out.count.cast_const()).read()?;
        if n > 0 {
            let deps = In(out.deps.cast_const()).read()?;
            crate::graph::listed(deps.cast(), &n, n)?;
        }
    }
    Ok(())
}

/// `cudaStreamUpdateCaptureDependencies` (and `_ptsz`): add to (flags 0)
/// or replace (flags 1) the set of nodes the next captured node depends on.
/// The flags and arrays are checked by the driver, in its order (a stream
/// that is not capturing is refused first).
pub fn update_capture_dependencies(
    stream: cudaStream_t,
    deps: *mut cudaGraphNode_t,
    edges: *const cudaGraphEdgeData,
    n: usize,
    flags: c_uint,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuStreamUpdateCaptureDependencies(
            driver_stream(stream, per_thread)?,
            deps.cast(),
            edges,
            n,
            flags,
        )
        .ok()
}

/// `cudaThreadExchangeStreamCaptureMode`: sets the thread's capture
/// interaction mode and hands back the previous one in the same place.
pub fn exchange_capture_mode(mode: Out<cudaStreamCaptureMode>) -> Result<(), cudaError_t> {
    let mut m = In(mode.as_ptr().cast_const()).read()?;
    check_mode(m)?;
    driver::get()?
        .cuThreadExchangeStreamCaptureMode(&mut m)
        .ok()?;
    mode.write(m)
}

/// `cudaStreamGetAttribute` (and `_ptsz`): stream attributes are launch
/// attributes with the driver's ids and value layout.
pub fn get_attribute(
    stream: cudaStream_t,
    attr: cudaLaunchAttributeID,
    value: Out<cudaLaunchAttributeValue>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    value.check()?;
    let mut v = cudaLaunchAttributeValue::default();
    api(per_thread)?
        .cuStreamGetAttribute(driver_stream(stream, per_thread)?, attr, &mut v)
        .ok()?;
    value.write(v)
}

/// `cudaStreamSetAttribute` (and `_ptsz`).
pub fn set_attribute(
    stream: cudaStream_t,
    attr: cudaLaunchAttributeID,
    value: In<cudaLaunchAttributeValue>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let v = value.read()?;
    api(per_thread)?
        .cuStreamSetAttribute(driver_stream(stream, per_thread)?, attr, &v)
        .ok()
}

/// `cudaStreamCopyAttributes` (and `_ptsz`).
pub fn copy_attributes(
    dst: cudaStream_t,
    src: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuStreamCopyAttributes(
            driver_stream(dst, per_thread)?,
            driver_stream(src, per_thread)?,
        )
        .ok()
}

/// `cudaStreamGetId` (and `_ptsz`): the driver's process-unique id.
pub fn get_id(stream: cudaStream_t, out: Out<u64>, per_thread: bool) -> Result<(), cudaError_t> {
    out.check()?;
    let mut id = 0u64;
    api(per_thread)?
        .cuStreamGetId(driver_stream(stream, per_thread)?, &mut id)
        .ok()?;
    out.write(id)
}

/// `cudaStreamGetDevice` (and `_ptsz`): the ordinal of the stream's device.
pub fn get_device(
    stream: cudaStream_t,
    out: Out<c_int>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut dev = 0;
    api(per_thread)?
        .cuStreamGetDevice(driver_stream(stream, per_thread)?, &mut dev)
        .ok()?;
    out.write(dev)
}

/// `cudaStreamAttachMemAsync` (and `_ptsz`): `cudaMemAttachGlobal` 1,
/// `Host` 2, `Single` 4 are the driver's `CU_MEM_ATTACH_*`, checked there.
pub fn attach_mem_async(
    stream: cudaStream_t,
    ptr: *mut c_void,
    length: usize,
    flags: c_uint,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuStreamAttachMemAsync(
            driver_stream(stream, per_thread)?,
            ptr as u64,
            length,
            flags,
        )
        .ok()
}
