//! Device resources and execution contexts (CUDA 13.5's runtime names for
//! the driver's green contexts, 12.4+).
//!
//! A `cudaExecutionContext_t` is a driver `CUcontext`: a device's primary
//! context (`cudaDeviceGetExecutionCtx`, retained by the runtime as for
//! any other call), or the `CUcontext` that stands for a green context
//! (`cuCtxFromGreenCtx` of the `CUgreenCtx` `cudaGreenCtxCreate` made).
//! The runtime notes every execution context it hands out, with its green
//! context where it has one: a handle it never handed out (or a destroyed
//! green context) is refused with `cudaErrorInvalidResourceHandle` before
//! the driver sees it, and the calls that have a green-context form in the
//! driver (streams, events, resources, destruction) take that form for
//! green contexts. These calls take their context explicitly: none binds
//! or needs a current context.

use crate::abi::{
    cudaDevResource, cudaDevResourceDesc_t, cudaDevResourceType, cudaDevSmResourceGroupParams,
    cudaError_t, cudaEvent_t, cudaExecutionContext_t, cudaStream_t,
};
use crate::boundary::{In, Out};
use crate::driver::resource::ResourceApi;
use crate::driver::{
    self, CUcontext, CUdevResourceDesc, CUevent, CUgreenCtx, CUstream, CU_GREEN_CTX_DEFAULT_STREAM,
    CU_STREAM_NON_BLOCKING,
};
use crate::since135::{api135, newer};
use parking_lot::Mutex;
use std::ffi::{c_int, c_uint};

fn api() -> Result<&'static ResourceApi, cudaError_t> {
    driver::family::<ResourceApi>(false)
}

/// An execution context the runtime handed out.
#[derive(Copy, Clone)]
struct Handed {
    ctx: CUcontext,
    /// The green context behind `ctx` (null: a primary context).
    green: CUgreenCtx,
}

// SAFETY: the handles are opaque driver pointers, only compared and passed
// back to the driver, never dereferenced here.
unsafe impl Send for Handed {}

static HANDED: Mutex<Vec<Handed>> = Mutex::new(Vec::new());

/// The execution context behind `ctx`: null is `cudaErrorInvalidValue`, a
/// handle the runtime did not hand out `cudaErrorInvalidResourceHandle`.
fn handed(ctx: cudaExecutionContext_t) -> Result<Handed, cudaError_t> {
    if ctx.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    HANDED
        .lock()
        .iter()
        .find(|h| h.ctx == CUcontext::from(ctx))
        .copied()
        .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)
}

fn note(h: Handed) {
    let mut list = HANDED.lock();
    if !list.iter().any(|k| k.ctx == h.ctx) {
        list.push(h);
    }
}

/// `cudaDeviceGetDevResource`: the device's resource of `ty`.
pub fn device_get_resource(
    dev: c_int,
    out: Out<cudaDevResource>,
    ty: cudaDevResourceType,
) -> Result<(), cudaError_t> {
    out.check()?;
    let dev = crate::context::check_device(dev)?;
    api()?.cuDeviceGetDevResource(dev, out.as_ptr(), ty).ok()
}

/// `cudaDevSmResourceSplitByCount`: `result` may be null (then the driver
/// only counts the groups into `nbGroups`).
pub fn sm_split_by_count(
    result: *mut cudaDevResource,
    nb_groups: Out<c_uint>,
    input: In<cudaDevResource>,
    remaining: *mut cudaDevResource,
    flags: c_uint,
    min_count: c_uint,
) -> Result<(), cudaError_t> {
    nb_groups.check()?;
    if input.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api()?
        .cuDevSmResourceSplitByCount(
            result,
            nb_groups.as_ptr(),
            input.as_ptr(),
            remaining,
            flags,
            min_count,
        )
        .ok()
}

/// `cudaDevSmResourceSplit` (structured groups): a CUDA 13.1 driver call.
pub fn sm_split(
    result: *mut cudaDevResource,
    nb_groups: c_uint,
    input: In<cudaDevResource>,
    remainder: *mut cudaDevResource,
    flags: c_uint,
    params: *mut cudaDevSmResourceGroupParams,
) -> Result<(), cudaError_t> {
    let t = api135(false)?;
    newer(t.cuDevSmResourceSplit.is_some())?;
    if input.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    t.cuDevSmResourceSplit(result, nb_groups, input.as_ptr(), remainder, flags, params)
        .ok()
}

/// `cudaDevResourceGenerateDesc`.
pub fn generate_desc(
    out: Out<cudaDevResourceDesc_t>,
    resources: *mut cudaDevResource,
    n: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    if resources.is_null() || n == 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api()?
        .cuDevResourceGenerateDesc(out.as_ptr().cast(), resources, n)
        .ok()
}

/// `cudaGreenCtxCreate`: a green context on `dev` from `desc` (flags must
/// be 0), as the `CUcontext` that stands for it. No default stream: work
/// goes through `cudaExecutionCtxStreamCreate`.
pub fn green_create(
    out: Out<cudaExecutionContext_t>,
    desc: cudaDevResourceDesc_t,
    dev: c_int,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    if desc.is_null() || flags != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let dev = crate::context::check_device(dev)?;
    let t = api()?;
    let mut green = CUgreenCtx::null();
    // CU_GREEN_CTX_NONE: no default stream, as the runtime documents.
    // The driver wants its default-stream flag on every green context
    // (the runtime's flags are reserved; NVIDIA's runtime creates one
    // with flags 0 on driver 580, measured on the H200).
    t.cuGreenCtxCreate(
        &mut green,
        CUdevResourceDesc::from(desc),
        dev,
        CU_GREEN_CTX_DEFAULT_STREAM,
    )
    .ok()?;
    let mut ctx = CUcontext::null();
    if let Err(e) = t.cuCtxFromGreenCtx(&mut ctx, green).ok() {
        let _ = t.cuGreenCtxDestroy(green);
        return Err(e);
    }
    note(Handed { ctx, green });
    out.write(ctx.as_raw())
}

/// `cudaDeviceGetExecutionCtx`: the device's primary context, retained by
/// the runtime (as the first call that needs it would).
pub fn device_get_ctx(out: Out<cudaExecutionContext_t>, dev: c_int) -> Result<(), cudaError_t> {
    out.check()?;
    let ctx = crate::context::primary_context(dev)?;
    note(Handed {
        ctx,
        green: CUgreenCtx::null(),
    });
    out.write(ctx.as_raw())
}

/// `cudaExecutionCtxDestroy`: a green context is destroyed (its streams
/// stay, detached); a device's primary context is not the caller's to
/// destroy: it stays with the runtime (released by `cudaDeviceReset` and
/// at exit) and the call answers `cudaErrorInvalidValue`, as NVIDIA's 13.5
/// runtime does.
pub fn destroy(ctx: cudaExecutionContext_t) -> Result<(), cudaError_t> {
    let h = handed(ctx)?;
    if h.green.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api()?.cuGreenCtxDestroy(h.green).ok()?;
    HANDED.lock().retain(|k| k.ctx != CUcontext::from(ctx));
    Ok(())
}

/// `cudaExecutionCtxGetDevResource`.
pub fn get_resource(
    ctx: cudaExecutionContext_t,
    out: Out<cudaDevResource>,
    ty: cudaDevResourceType,
) -> Result<(), cudaError_t> {
    let h = handed(ctx)?;
    out.check()?;
    let t = api()?;
    if h.green.is_null() {
        t.cuCtxGetDevResource(h.ctx, out.as_ptr(), ty).ok()
    } else {
        t.cuGreenCtxGetDevResource(h.green, out.as_ptr(), ty).ok()
    }
}

/// `cudaExecutionCtxGetDevice`.
pub fn get_device(out: Out<c_int>, ctx: cudaExecutionContext_t) -> Result<(), cudaError_t> {
    let h = handed(ctx)?;
    out.check()?;
    let mut dev = 0;
    driver::get()?.cuCtxGetDevice(&mut dev, h.ctx).ok()?;
    out.write(dev)
}

/// `cudaExecutionCtxGetId`: the green context's id for a green context,
/// the context's id otherwise (unique for the process's life).
pub fn get_id(ctx: cudaExecutionContext_t, out: Out<u64>) -> Result<(), cudaError_t> {
    let h = handed(ctx)?;
    out.check()?;
    let mut id = 0u64;
    if h.green.is_null() {
        driver::get()?.cuCtxGetId(h.ctx, &mut id).ok()?;
    } else {
        api()?.cuGreenCtxGetId(h.green, &mut id).ok()?;
    }
    out.write(id)
}

/// `cudaExecutionCtxStreamCreate`: a stream of the context. A green
/// context's streams are the driver's green-context streams, which are
/// always non-blocking (the driver takes no other flag); a primary
/// context's is an ordinary stream made with the context pushed.
pub fn stream_create(
    out: Out<cudaStream_t>,
    ctx: cudaExecutionContext_t,
    flags: c_uint,
    priority: c_int,
) -> Result<(), cudaError_t> {
    let h = handed(ctx)?;
    out.check()?;
    if flags & !1 != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let t = api()?;
    let mut s = CUstream::null();
    if h.green.is_null() {
        t.cuCtxPushCurrent(h.ctx).ok()?;
        let r = driver::get()?.cuStreamCreateWithPriority(&mut s, flags, priority);
        let mut popped = CUcontext::null();
        let _ = t.cuCtxPopCurrent(&mut popped);
        r.ok()?;
    } else {
        t.cuGreenCtxStreamCreate(&mut s, h.green, CU_STREAM_NON_BLOCKING, priority)
            .ok()?;
    }
    crate::handles::made_in(s.as_raw(), crate::handles::Kind::Stream, h.ctx.as_raw());
    out.write(s.as_raw())
}

/// `cudaExecutionCtxSynchronize`.
pub fn synchronize(ctx: cudaExecutionContext_t) -> Result<(), cudaError_t> {
    let h = handed(ctx)?;
    driver::get()?.cuCtxSynchronize(h.ctx).ok()
}

/// `cudaExecutionCtxRecordEvent`: the event captures the context's work.
pub fn record_event(ctx: cudaExecutionContext_t, event: cudaEvent_t) -> Result<(), cudaError_t> {
    let h = handed(ctx)?;
    crate::context::check_event(event.cast())?;
    let t = api()?;
    if h.green.is_null() {
        t.cuCtxRecordEvent(h.ctx, CUevent::from(event)).ok()
    } else {
        t.cuGreenCtxRecordEvent(h.green, CUevent::from(event)).ok()
    }
}

/// `cudaExecutionCtxWaitEvent`: the context's later work waits for the event.
pub fn wait_event(ctx: cudaExecutionContext_t, event: cudaEvent_t) -> Result<(), cudaError_t> {
    let h = handed(ctx)?;
    crate::context::check_event(event.cast())?;
    let t = api()?;
    if h.green.is_null() {
        t.cuCtxWaitEvent(h.ctx, CUevent::from(event)).ok()
    } else {
        t.cuGreenCtxWaitEvent(h.green, CUevent::from(event)).ok()
    }
}

/// `cudaStreamGetDevResource` (and `_ptsz`): the driver's
/// `cuStreamGetDevResource` (CUDA 13.1) where it has it; on an older
/// driver the resources of the stream's green context, or of its context
/// (NVIDIA's 13.5 runtime answers there too, measured on driver 580).
pub fn stream_get_resource(
    stream: cudaStream_t,
    out: Out<cudaDevResource>,
    ty: cudaDevResourceType,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let t = api135(per_thread)?;
    crate::context::check_stream(stream.cast())?;
    out.check()?;
    let s = crate::launch::driver_stream(stream, per_thread)?;
    if t.cuStreamGetDevResource.is_some() {
        return t.cuStreamGetDevResource(s, out.as_ptr(), ty).ok();
    }
    let mut ctx = CUcontext::null();
    let mut green = CUgreenCtx::null();
    driver::get()?
        .cuStreamGetCtx(s, &mut ctx, (&mut green as *mut CUgreenCtx).cast())
        .ok()?;
    let r = api()?;
    if green.is_null() {
        r.cuCtxGetDevResource(ctx, out.as_ptr(), ty).ok()
    } else {
        r.cuGreenCtxGetDevResource(green, out.as_ptr(), ty).ok()
    }
}

/// The driver context of an execution context the runtime handed out (for
/// the calls that take one, e.g. `cudaGraphConditionalHandleCreate_v2`).
pub(crate) fn context_of(ctx: cudaExecutionContext_t) -> Result<CUcontext, cudaError_t> {
    handed(ctx).map(|h| h.ctx)
}

/// The context a graph node of `cudaGraphAddNode` and kin runs in: the
/// execution context its 13.5 parameters name (`ctx`), when it is one the
/// runtime handed out, else `current`. Bytes that a program built against
/// the 13.0 headers left there (they were padding) name no execution
/// context and change nothing.
pub(crate) fn node_ctx(member: CUcontext, current: CUcontext) -> CUcontext {
    if !member.is_null() && context_of(member.as_raw()).is_ok() {
        member
    } else {
        current
    }
}
