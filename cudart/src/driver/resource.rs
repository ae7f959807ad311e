//! Driver entry points for device resources and green contexts (CUDA
//! 12.4+; all in the 13.0 driver), resolved for CUDA 13.0.
//!
//! `cudaDevResource` is `CUdevResource`: 144 bytes in both 13.0 and 13.5
//! (13.5 names more of the bytes the 13.0 driver keeps as padding: the SM
//! resource's flags and locality domain, the workqueue members,
//! `nextResource`), so arrays of them pass unconverted; the resource types
//! and flags are the driver's numbers. `cudaDevResourceDesc_t` is
//! `CUdevResourceDesc`.
//!
//! `driver::family::<ResourceApi>(false)` resolves this table on first use.

#![allow(non_snake_case)]

use super::types::*;
use super::CUresult;
use crate::abi::{cudaDevResource, cudaDevResourceType};
use std::ffi::{c_int, c_uint};

driver_api! {
    /// Device resources, green contexts, context events, context pushes.
    pub struct ResourceApi {
    cuDeviceGetDevResource(dev: CUdevice, res: *mut cudaDevResource, ty: cudaDevResourceType);
    cuCtxGetDevResource(ctx: CUcontext, res: *mut cudaDevResource, ty: cudaDevResourceType);
    cuGreenCtxGetDevResource(g: CUgreenCtx, res: *mut cudaDevResource, ty: cudaDevResourceType);
    cuDevSmResourceSplitByCount(result: *mut cudaDevResource, nb: *mut c_uint, input: *const cudaDevResource, remaining: *mut cudaDevResource, flags: c_uint, min_count: c_uint);
    cuDevResourceGenerateDesc(desc: *mut CUdevResourceDesc, res: *mut cudaDevResource, n: c_uint);
    cuGreenCtxCreate(g: *mut CUgreenCtx, desc: CUdevResourceDesc, dev: CUdevice, flags: c_uint);
    cuGreenCtxDestroy(g: CUgreenCtx);
    cuCtxFromGreenCtx(ctx: *mut CUcontext, g: CUgreenCtx);
    cuGreenCtxStreamCreate(stream: *mut CUstream, g: CUgreenCtx, flags: c_uint, priority: c_int);
    cuGreenCtxRecordEvent(g: CUgreenCtx, event: CUevent);
    cuGreenCtxWaitEvent(g: CUgreenCtx, event: CUevent);
    cuGreenCtxGetId(g: CUgreenCtx, id: *mut u64);
    cuCtxRecordEvent(ctx: CUcontext, event: CUevent);
    cuCtxWaitEvent(ctx: CUcontext, event: CUevent);
    // The `_v2` forms (the names resolve to them for CUDA 13.0).
    cuCtxPushCurrent(ctx: CUcontext);
    cuCtxPopCurrent(ctx: *mut CUcontext);
    }
}
