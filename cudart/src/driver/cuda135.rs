//! Driver entry points that CUDA 13.1-13.5 added, resolved for CUDA 13.5
//! (`@ 13050`): a 13.0 driver (580) has none of them, and the runtime
//! answers `cudaErrorCallRequiresNewerDriver` for the calls that need one
//! (`crate::since135::newer`).
//!
//! Asked for 13.1, `cuLaunchHostFunc` is the form with the sync mode
//! (`cuLaunchHostFunc_v2` in `cuda.h`); a driver older than 13.1 would
//! hand out its 3-argument form under that name, so it is not asked.
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

#![allow(non_snake_case)]

use super::types::*;
use super::CUresult;
use crate::abi::{
    cudaDevResource, cudaDevResourceType, cudaDevSmResourceGroupParams, cudaGraphNodeParams,
    cudaGraphRecaptureCallback_t, cudaMemLocation, cudaMemcpy3DBatchOp, cudaMemcpyAttributes,
    cudaStreamCaptureMode,
};
use std::ffi::{c_uint, c_void};

driver_api! {
    /// The calls of CUDA 13.1-13.5 drivers, each asked for at the version
    /// that introduced it (its `PFN_..._vNNNNN` in 13.5's `cudaTypedefs.h`),
    /// and only of a driver at least that new, as NVIDIA's 13.5 runtime
    /// does (seen on the test double: with a 13.0 driver it asks for
    /// nothing above 13000).
    pub struct Api135 @ 13050 {
    cuDevSmResourceSplit @ 13010 (result: *mut cudaDevResource, nb_groups: c_uint, input: *const cudaDevResource, remainder: *mut cudaDevResource, flags: c_uint, params: *mut cudaDevSmResourceGroupParams);
    cuStreamGetDevResource @ 13010 (stream: CUstream, res: *mut cudaDevResource, ty: cudaDevResourceType);
    cuKernelGetParamCount @ 13020 (k: CUkernel, count: *mut usize);
    cuGraphGetId @ 13010 (graph: CUgraph, id: *mut c_uint);
    cuGraphExecGetId @ 13010 (exec: CUgraphExec, id: *mut c_uint);
    cuGraphNodeGetParams @ 13020 (node: CUgraphNode, params: *mut cudaGraphNodeParams);
    cuGraphNodeGetContainingGraph @ 13010 (node: CUgraphNode, graph: *mut CUgraph);
    cuGraphNodeGetLocalId @ 13010 (node: CUgraphNode, id: *mut c_uint);
    cuGraphNodeGetToolsId @ 13010 (node: CUgraphNode, id: *mut u64);
    cuMemcpyWithAttributesAsync @ 13020 (dst: CUdeviceptr, src: CUdeviceptr, size: usize, attr: *mut cudaMemcpyAttributes, stream: CUstream);
    cuMemcpy3DWithAttributesAsync @ 13020 (op: *mut cudaMemcpy3DBatchOp, flags: u64, stream: CUstream);
    cuLaunchHostFunc @ 13010 (stream: CUstream, f: CUhostFn, data: *mut c_void, sync_mode: c_uint);
    cuStreamBeginRecaptureToGraph @ 13030 (stream: CUstream, mode: cudaStreamCaptureMode, graph: CUgraph, cb: cudaGraphRecaptureCallback_t, data: *mut c_void);
    cuMemGetLocationInfo @ 13040 (ptr: CUdeviceptr, size: usize, summary: usize, sampling: usize, out: *mut cudaMemLocation);
    }
}
