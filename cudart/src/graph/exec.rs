//! Executable graphs: instantiation, update, upload, launch, and the
//! graph's debug output.

use super::{api, drv};
use crate::abi::{
    cudaError_t, cudaGraphExecUpdateResultInfo, cudaGraphExec_t, cudaGraphInstantiateParams,
    cudaStream_t,
};
use crate::boundary::{In, Out};
use crate::driver::{CUgraph, CUgraphExec, CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES};
use crate::launch::driver_stream;
use std::ffi::c_uint;

/// `cudaGraphInstantiate` / `cudaGraphInstantiateWithFlags`: the runtime's
/// instantiation flags are the driver's.
pub fn instantiate(
    out: Out<cudaGraphExec_t>,
    graph: CUgraph,
    flags: u64,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut exec = CUgraphExec::null();
    drv()?
        .cuGraphInstantiateWithFlags(&mut exec, graph, flags)
        .ok()?;
    out.write(exec.as_raw())
}

/// `cudaGraphInstantiateWithParams` (and `_ptsz`): the parameters are the
/// driver's `CUDA_GRAPH_INSTANTIATE_PARAMS`; the upload stream follows the
/// export's default-stream flavour. `errNode_out` and `result_out` are
/// written back on failure too.
pub fn instantiate_with_params(
    out: Out<cudaGraphExec_t>,
    graph: CUgraph,
    params: *mut cudaGraphInstantiateParams,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut p = In(params as *const cudaGraphInstantiateParams).read()?;
    let stream = p.uploadStream;
    p.uploadStream = driver_stream(stream, per_thread)?.as_raw();
    let mut exec = CUgraphExec::null();
    let r = api(per_thread)?.cuGraphInstantiateWithParams(&mut exec, graph, &mut p);
    p.uploadStream = stream;
    Out(params).write(p)?;
    r.ok()?;
    out.write(exec.as_raw())
}

/// `cudaGraphExecUpdate`: `cudaGraphExecUpdateResultInfo` is the driver's
/// `CUgraphExecUpdateResultInfo`, result numbers included.
pub fn exec_update(
    exec: CUgraphExec,
    graph: CUgraph,
    info: *mut cudaGraphExecUpdateResultInfo,
) -> Result<(), cudaError_t> {
    drv()?.cuGraphExecUpdate(exec, graph, info).ok()
}

/// `cudaGraphLaunch` (and `_ptsz`).
pub fn launch(
    exec: CUgraphExec,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuGraphLaunch(exec, driver_stream(stream, per_thread)?)
        .ok()
}

/// `cudaGraphUpload` (and `_ptsz`).
pub fn upload(
    exec: CUgraphExec,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuGraphUpload(exec, driver_stream(stream, per_thread)?)
        .ok()
}

/// `cudaGraphDebugDotPrint`: the runtime's flags are the driver's bits;
/// the output names the runtime's types (the driver's `RUNTIME_TYPES` bit,
/// which the runtime's flags leave free).
pub fn debug_dot_print(
    graph: CUgraph,
    path: crate::boundary::CStrArg,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    let path = path.get()?;
    drv()?
        .cuGraphDebugDotPrint(
            graph,
            path.as_ptr(),
            flags | CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES,
        )
        .ok()
}
