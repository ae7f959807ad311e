//! Driver entry points for streams and events beyond the core: capture, attributes, ids, IPC event handles.
//!
//! `driver::family::<StreamApi>(per_thread)` resolves this table on first use.
//!
//! Where the runtime's type has the driver's layout and numbering, the
//! table declares the runtime type directly (checked against `cuda.h`):
//! `cudaStreamCaptureStatus`/`cudaStreamCaptureMode` are
//! `CUstreamCaptureStatus`/`CUstreamCaptureMode` (0, 1, 2 both);
//! `cudaGraphEdgeData` is `CUgraphEdgeData` (three bytes and five reserved);
//! `cudaLaunchAttributeID`/`cudaLaunchAttributeValue` are
//! `CUstreamAttrID`/`CUstreamAttrValue` (one 64-byte union, same ids, same
//! member layouts and enum numbers); `cudaIpcEventHandle_t` is
//! `CUipcEventHandle` (64 bytes, passed by value).
//!
//! Names resolve to their newest CUDA 13.0 variant: `cuStreamBeginCapture`
//! is `cuStreamBeginCapture_v2` (with the mode), `cuStreamGetCaptureInfo`
//! is `_v3` (with edge data), `cuStreamUpdateCaptureDependencies` is `_v2`
//! (with edge data).

#![allow(non_snake_case)]

use super::types::*;
use super::CUresult;
use crate::abi::{
    cudaGraphEdgeData, cudaIpcEventHandle_t, cudaLaunchAttributeID, cudaLaunchAttributeValue,
    cudaStreamCaptureMode, cudaStreamCaptureStatus,
};
use std::ffi::{c_uint, c_void};

driver_api! {
    /// Stream capture, stream attributes and ids, event IPC and EGL sync.
    pub struct StreamApi {
    cuStreamBeginCapture(stream: CUstream, mode: cudaStreamCaptureMode);
    cuStreamBeginCaptureToGraph(stream: CUstream, graph: CUgraph, deps: *const CUgraphNode, edges: *const cudaGraphEdgeData, n: usize, mode: cudaStreamCaptureMode);
    cuStreamEndCapture(stream: CUstream, graph: *mut CUgraph);
    cuStreamIsCapturing(stream: CUstream, status: *mut cudaStreamCaptureStatus);
    cuStreamGetCaptureInfo(stream: CUstream, status: *mut cudaStreamCaptureStatus, id: *mut u64, graph: *mut CUgraph, deps: *mut *const CUgraphNode, edges: *mut *const cudaGraphEdgeData, n: *mut usize);
    cuStreamUpdateCaptureDependencies(stream: CUstream, deps: *mut CUgraphNode, edges: *const cudaGraphEdgeData, n: usize, flags: c_uint);
    cuStreamGetAttribute(stream: CUstream, attr: cudaLaunchAttributeID, value: *mut cudaLaunchAttributeValue);
    cuStreamSetAttribute(stream: CUstream, attr: cudaLaunchAttributeID, value: *const cudaLaunchAttributeValue);
    cuStreamCopyAttributes(dst: CUstream, src: CUstream);
    cuStreamGetId(stream: CUstream, id: *mut u64);
    cuStreamGetDevice(stream: CUstream, dev: *mut CUdevice);
    cuStreamAttachMemAsync(stream: CUstream, dptr: CUdeviceptr, length: usize, flags: c_uint);
    cuIpcGetEventHandle(handle: *mut cudaIpcEventHandle_t, event: CUevent);
    cuIpcOpenEventHandle(event: *mut CUevent, handle: cudaIpcEventHandle_t);
    cuEventCreateFromEGLSync(event: *mut CUevent, sync: *mut c_void, flags: c_uint);
    }
}
