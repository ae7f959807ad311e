//! The calls CUDA 13.5 added outside the resource family, and the rule for
//! every call that needs a newer driver than the installed one.
//!
//! Each of these has its driver call in `driver/cuda135.rs` (resolved for
//! CUDA 13.5). A driver without the entry point (CUDA 13.0's, driver 580,
//! has none of them) gets `cudaErrorCallRequiresNewerDriver`, recorded as
//! the thread's last error and not sticky, before any argument is looked
//! at: what NVIDIA's 13.5 runtime answers on driver 580 (measured on the
//! H200 for `cudaFuncGetParamCount` and `cudaGraphGetId`). With a driver
//! that has it, the call goes to the driver with the runtime's usual
//! argument checks and handle conversions.

use crate::abi::{
    cudaError_t, cudaExecutionContext_t, cudaGraphExec_t, cudaGraphNodeParams, cudaGraphNode_t,
    cudaGraphRecaptureCallbackData, cudaGraph_t, cudaMemLocation, cudaMemcpy3DBatchOp,
    cudaMemcpyAttributes, cudaStreamCaptureMode, cudaStream_t,
};
use crate::boundary::{In, Out};
use crate::driver::cuda135::Api135;
use crate::driver::{
    self, CUcontext, CUdeviceptr, CUfunction, CUgraph, CUgraphExec, CUgraphNode, CUkernel,
};
use crate::launch::driver_stream;
use crate::stream::HostFn;
use std::ffi::{c_uint, c_void};

/// The 13.5 driver table (`per_thread`: the per-thread-default-stream one).
pub(crate) fn api135(per_thread: bool) -> Result<&'static Api135, cudaError_t> {
    driver::family::<Api135>(per_thread)
}

/// `Ok` when the driver has what the call needs, else
/// `cudaErrorCallRequiresNewerDriver`.
#[inline]
pub(crate) fn newer(present: bool) -> Result<(), cudaError_t> {
    if present {
        Ok(())
    } else {
        Err(cudaError_t::cudaErrorCallRequiresNewerDriver)
    }
}

/// `cudaFuncGetParamCount`: the parameter count of a kernel (a host stub,
/// or a `cudaKernel_t`), through the driver's `cuKernelGetParamCount`
/// (CUDA 13.2).
pub fn func_param_count(func: *const c_void, out: Out<usize>) -> Result<(), cudaError_t> {
    let t = api135(false)?;
    newer(t.cuKernelGetParamCount.is_some())?;
    out.check()?;
    let k = crate::registry::launch_handle(func)?;
    t.cuKernelGetParamCount(k, out.as_ptr()).ok()
}

/// `cudaGraphGetId` (CUDA 13.1 driver).
pub fn graph_get_id(graph: cudaGraph_t, out: Out<c_uint>) -> Result<(), cudaError_t> {
    let t = api135(false)?;
    newer(t.cuGraphGetId.is_some())?;
    out.check()?;
    t.cuGraphGetId(CUgraph::from(graph), out.as_ptr()).ok()
}

/// `cudaGraphExecGetId` (CUDA 13.1 driver).
pub fn graph_exec_get_id(exec: cudaGraphExec_t, out: Out<c_uint>) -> Result<(), cudaError_t> {
    let t = api135(false)?;
    newer(t.cuGraphExecGetId.is_some())?;
    out.check()?;
    t.cuGraphExecGetId(CUgraphExec::from(exec), out.as_ptr())
        .ok()
}

/// `cudaGraphNodeGetContainingGraph` (CUDA 13.1 driver).
pub fn node_get_graph(node: cudaGraphNode_t, out: Out<cudaGraph_t>) -> Result<(), cudaError_t> {
    let t = api135(false)?;
    newer(t.cuGraphNodeGetContainingGraph.is_some())?;
    out.check()?;
    t.cuGraphNodeGetContainingGraph(
        crate::graph::node(CUgraphNode::from(node))?,
        out.as_ptr().cast(),
    )
    .ok()
}

/// `cudaGraphNodeGetLocalId` (CUDA 13.1 driver).
pub fn node_get_local_id(node: cudaGraphNode_t, out: Out<c_uint>) -> Result<(), cudaError_t> {
    let t = api135(false)?;
    newer(t.cuGraphNodeGetLocalId.is_some())?;
    out.check()?;
    t.cuGraphNodeGetLocalId(crate::graph::node(CUgraphNode::from(node))?, out.as_ptr())
        .ok()
}

/// `cudaGraphNodeGetToolsId` (CUDA 13.1 driver).
pub fn node_get_tools_id(node: cudaGraphNode_t, out: Out<u64>) -> Result<(), cudaError_t> {
    let t = api135(false)?;
    newer(t.cuGraphNodeGetToolsId.is_some())?;
    out.check()?;
    t.cuGraphNodeGetToolsId(crate::graph::node(CUgraphNode::from(node))?, out.as_ptr())
        .ok()
}

/// `cudaGraphNodeGetParams` (CUDA 13.2 driver): the driver's
/// `CUgraphNodeParams` is the runtime's layout; a kernel node's function
/// comes back as the driver holds it, with `functionType` saying which.
pub fn node_get_params(
    node: cudaGraphNode_t,
    out: Out<cudaGraphNodeParams>,
) -> Result<(), cudaError_t> {
    let t = api135(false)?;
    newer(t.cuGraphNodeGetParams.is_some())?;
    out.check()?;
    t.cuGraphNodeGetParams(crate::graph::node(CUgraphNode::from(node))?, out.as_ptr())
        .ok()
}

/// `cudaGraphConditionalHandleCreate_v2`: the 13.0 call with an explicit
/// execution context (NULL: the current context). The driver call is
/// CUDA 12.3's, so this is real on driver 580.
pub fn conditional_handle_create_v2(
    out: Out<u64>,
    graph: cudaGraph_t,
    ctx: cudaExecutionContext_t,
    default_value: c_uint,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    if ctx.is_null() {
        return crate::graph::params::conditional_handle_create(
            out,
            CUgraph::from(graph),
            default_value,
            flags,
        );
    }
    out.check()?;
    let ctx = crate::resource::context_of(ctx)?;
    crate::graph::drv()?
        .cuGraphConditionalHandleCreate(
            out.as_ptr(),
            CUgraph::from(graph),
            ctx,
            default_value,
            flags,
        )
        .ok()
}

/// The kernel member of a 13.5 `cudaGraphNodeParams` for the driver:
/// `functionType` says what `func` holds (a host stub or a `cudaKernel_t`,
/// both resolved to the kernel as in 13.0, or a `cudaFunction_t`, passed as
/// the driver's function), and `ctx` the execution context it runs in (see
/// `resource::node_ctx`). A 13.0 program's zero bytes there mean "deduce"
/// and "current".
pub(crate) fn kernel_member(
    k: &crate::abi::cudaKernelNodeParamsV2,
    current: crate::driver::CUcontext,
) -> Result<crate::driver::CUDA_KERNEL_NODE_PARAMS, cudaError_t> {
    use crate::abi::cudaKernelFunctionType as T;
    let ctx = crate::resource::node_ctx(CUcontext::from(k.ctx), current);
    if k.functionType == T::cudaKernelFunctionTypeFunction {
        if k.func.is_null() {
            return Err(cudaError_t::cudaErrorInvalidDeviceFunction);
        }
        return Ok(crate::driver::CUDA_KERNEL_NODE_PARAMS {
            func: CUfunction::from(k.func),
            gridDimX: k.gridDim.x,
            gridDimY: k.gridDim.y,
            gridDimZ: k.gridDim.z,
            blockDimX: k.blockDim.x,
            blockDimY: k.blockDim.y,
            blockDimZ: k.blockDim.z,
            sharedMemBytes: k.sharedMemBytes,
            kernelParams: k.kernelParams,
            extra: k.extra,
            kern: CUkernel::null(),
            ctx,
        });
    }
    crate::graph::kernel::kernel_to_driver(
        k.func,
        k.gridDim,
        k.blockDim,
        k.sharedMemBytes,
        k.kernelParams,
        k.extra,
        ctx,
    )
}

/// `cudaMemcpyWithAttributesAsync` (and `_ptsz`; CUDA 13.2 driver):
/// `cudaMemcpyAttributes` is `CUmemcpyAttributes`.
pub fn memcpy_with_attributes(
    dst: *mut c_void,
    src: *const c_void,
    size: usize,
    attr: In<cudaMemcpyAttributes>,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let t = api135(per_thread)?;
    newer(t.cuMemcpyWithAttributesAsync.is_some())?;
    if attr.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    crate::context::check_stream(stream.cast())?;
    t.cuMemcpyWithAttributesAsync(
        dst as CUdeviceptr,
        src as CUdeviceptr,
        size,
        attr.as_ptr().cast_mut(),
        driver_stream(stream, per_thread)?,
    )
    .ok()
}

/// `cudaMemcpy3DWithAttributesAsync` (and `_ptsz`; CUDA 13.2 driver):
/// `cudaMemcpy3DBatchOp` is `CUDA_MEMCPY3D_BATCH_OP`.
pub fn memcpy_3d_with_attributes(
    op: In<cudaMemcpy3DBatchOp>,
    flags: u64,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let t = api135(per_thread)?;
    newer(t.cuMemcpy3DWithAttributesAsync.is_some())?;
    if op.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    crate::context::check_stream(stream.cast())?;
    t.cuMemcpy3DWithAttributesAsync(
        op.as_ptr().cast_mut(),
        flags,
        driver_stream(stream, per_thread)?,
    )
    .ok()
}

/// `cudaLaunchHostFunc_v2` (and `_ptsz`): a host function with a sync
/// mode (`cudaHostTaskSyncMode`), CUDA 13.1 driver (the table does not
/// ask an older driver, which would hand out its 3-argument form; the
/// version is checked here as well).
pub fn launch_host_func_v2(
    stream: cudaStream_t,
    f: HostFn,
    data: *mut c_void,
    sync_mode: c_uint,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let t = api135(per_thread)?;
    newer(t.cuLaunchHostFunc.is_some() && driver::version() >= 13010)?;
    crate::context::check_stream(stream.cast())?;
    if f.is_none() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    t.cuLaunchHostFunc(driver_stream(stream, per_thread)?, f, data, sync_mode)
        .ok()
}

/// `cudaStreamBeginRecaptureToGraph` (and `_ptsz`; CUDA 13.3 driver):
/// capture into an existing graph, the callback (optional) told of each
/// node whose parameters changed.
pub fn begin_recapture_to_graph(
    stream: cudaStream_t,
    mode: cudaStreamCaptureMode,
    graph: cudaGraph_t,
    callback: *mut cudaGraphRecaptureCallbackData,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let t = api135(per_thread)?;
    newer(t.cuStreamBeginRecaptureToGraph.is_some())?;
    crate::context::check_stream(stream.cast())?;
    let (cb, data) = if callback.is_null() {
        (None, std::ptr::null_mut())
    } else {
        let d = In(callback.cast_const()).read()?;
        (d.callbackFunc, d.userData)
    };
    t.cuStreamBeginRecaptureToGraph(
        driver_stream(stream, per_thread)?,
        mode,
        CUgraph::from(graph),
        cb,
        data,
    )
    .ok()
}

/// `cudaMemGetLocationInfo` (CUDA 13.4 driver): where a managed range's
/// pages are; `cudaMemLocation` is `CUmemLocation`.
pub fn mem_get_location_info(
    ptr: *mut c_void,
    size: usize,
    summary: usize,
    sampling: usize,
    out: Out<cudaMemLocation>,
) -> Result<(), cudaError_t> {
    let t = api135(false)?;
    newer(t.cuMemGetLocationInfo.is_some())?;
    out.check()?;
    t.cuMemGetLocationInfo(ptr as CUdeviceptr, size, summary, sampling, out.as_ptr())
        .ok()
}

/// The subgrid calls (`cudaSubgridCreate`, `cudaSubgridWorkerGridCreate`,
/// `cudaSubgridWorksetCreate`): a developer preview of CUDA 13.4 whose
/// prototypes no public 13.5 header declares. A driver older than 13.4
/// cannot run them (`cudaErrorCallRequiresNewerDriver`); on a newer one
/// this runtime has no documented signature to forward and answers
/// `cudaErrorNotSupported`. The arguments are never read.
pub fn subgrid() -> Result<(), cudaError_t> {
    newer(driver::version() >= 13040)?;
    Err(cudaError_t::cudaErrorNotSupported)
}
