//! Driver entry points that CUDA 13.1-13.5 added, resolved for CUDA 13.5
//! (`@ 13050`): a 13.0 driver (580) has none of them, and the runtime
//! answers `cudaErrorCallRequiresNewerDriver` for the calls that need one
//! (`crate::since135::newer`).
//!
//! Asked for 13.5, `cuLaunchHostFunc` is the 13.1 form with the sync mode
//! (`cuLaunchHostFunc_v2` in `cuda.h`); a driver older than 13.1 hands out
//! its 3-argument form under that name instead, so that one is also
//! checked against the driver's version before it is called.
//!
//! The parameter types are the runtime's where they are the driver's
//! layouts: `cudaMemcpyAttributes` (`CUmemcpyAttributes`),
//! `cudaMemcpy3DBatchOp` (`CUDA_MEMCPY3D_BATCH_OP`), `cudaMemLocation`
//! (`CUmemLocation`), `cudaGraphNodeParams` (`CUgraphNodeParams`),
//! `cudaDevResource` (`CUdevResource`), `cudaDevSmResourceGroupParams`
//! (`CU_DEV_SM_RESOURCE_GROUP_PARAMS`), the capture mode and the recapture
//! callback.
//!
//! `driver::family::<Api135>(per_thread)` resolves this table on first use.

#![allow(non_snake_case, unused_imports)]

use super::{CUdevice, CUdeviceptr, CUfunction, CUkernel, CUresult, CUstream};
use crate::abi::{
    cudaDevResource, cudaDevResourceType, cudaDevSmResourceGroupParams, cudaGraphExec_t,
    cudaGraphNodeParams, cudaGraphNode_t, cudaGraphRecaptureCallback_t, cudaGraph_t, cudaHostFn_t,
    cudaMemLocation, cudaMemcpy3DBatchOp, cudaMemcpyAttributes, cudaStreamCaptureMode,
};
use std::ffi::{c_int, c_uint, c_void};

driver_api! {
    /// The calls of CUDA 13.1-13.5 drivers.
    pub struct Api135 @ 13050 {
    cuDevSmResourceSplit(result: *mut cudaDevResource, nb_groups: c_uint, input: *const cudaDevResource, remainder: *mut cudaDevResource, flags: c_uint, params: *mut cudaDevSmResourceGroupParams);
    cuStreamGetDevResource(stream: CUstream, res: *mut cudaDevResource, ty: cudaDevResourceType);
    cuFuncGetParamCount(f: CUfunction, count: *mut usize);
    cuKernelGetParamCount(k: CUkernel, count: *mut usize);
    cuGraphGetId(graph: cudaGraph_t, id: *mut c_uint);
    cuGraphExecGetId(exec: cudaGraphExec_t, id: *mut c_uint);
    cuGraphNodeGetParams(node: cudaGraphNode_t, params: *mut cudaGraphNodeParams);
    cuGraphNodeGetContainingGraph(node: cudaGraphNode_t, graph: *mut cudaGraph_t);
    cuGraphNodeGetLocalId(node: cudaGraphNode_t, id: *mut c_uint);
    cuGraphNodeGetToolsId(node: cudaGraphNode_t, id: *mut u64);
    cuMemcpyWithAttributesAsync(dst: CUdeviceptr, src: CUdeviceptr, size: usize, attr: *mut cudaMemcpyAttributes, stream: CUstream);
    cuMemcpy3DWithAttributesAsync(op: *mut cudaMemcpy3DBatchOp, flags: u64, stream: CUstream);
    cuLaunchHostFunc(stream: CUstream, f: cudaHostFn_t, data: *mut c_void, sync_mode: c_uint);
    cuStreamBeginRecaptureToGraph(stream: CUstream, mode: cudaStreamCaptureMode, graph: cudaGraph_t, cb: cudaGraphRecaptureCallback_t, data: *mut c_void);
    cuMemGetLocationInfo(ptr: CUdeviceptr, size: usize, summary: usize, sampling: usize, out: *mut cudaMemLocation);
    }
}
