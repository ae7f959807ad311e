//! Entry points for streams and events beyond the core: capture, attributes, ids, IPC event handles.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{CStrArg, In, Needs, Out};
use crate::stream::CaptureInfoOut;
use crate::{event, stream};
use std::ffi::{c_char, c_int, c_uint, c_void};

entry_points! {
    // Stream capture.
    Context fn cudaStreamBeginCapture(stream: cudaStream_t, mode: cudaStreamCaptureMode) -> cudaError_t
        => stream::begin_capture(stream, mode, LEGACY);
    Context fn cudaStreamBeginCapture_ptsz(stream: cudaStream_t, mode: cudaStreamCaptureMode) -> cudaError_t
        => stream::begin_capture(stream, mode, PT);
    Context fn cudaStreamBeginCaptureToGraph(stream: cudaStream_t, graph: cudaGraph_t, dependencies: *const cudaGraphNode_t,
        dependencyData: *const cudaGraphEdgeData, numDependencies: usize, mode: cudaStreamCaptureMode) -> cudaError_t
        => stream::begin_capture_to_graph(stream, crate::graph::h(graph)?, dependencies, dependencyData, numDependencies, mode, LEGACY);
    Context fn cudaStreamBeginCaptureToGraph_ptsz(stream: cudaStream_t, graph: cudaGraph_t, dependencies: *const cudaGraphNode_t,
        dependencyData: *const cudaGraphEdgeData, numDependencies: usize, mode: cudaStreamCaptureMode) -> cudaError_t
        => stream::begin_capture_to_graph(stream, crate::graph::h(graph)?, dependencies, dependencyData, numDependencies, mode, PT);
    Context fn cudaStreamEndCapture(stream: cudaStream_t, pGraph: Out<cudaGraph_t>) -> cudaError_t
        => stream::end_capture(stream, pGraph, LEGACY);
    Context fn cudaStreamEndCapture_ptsz(stream: cudaStream_t, pGraph: Out<cudaGraph_t>) -> cudaError_t
        => stream::end_capture(stream, pGraph, PT);
    Context fn cudaStreamIsCapturing(stream: cudaStream_t, pCaptureStatus: Out<cudaStreamCaptureStatus>) -> cudaError_t
        => stream::is_capturing(stream, pCaptureStatus, LEGACY);
    Context fn cudaStreamIsCapturing_ptsz(stream: cudaStream_t, pCaptureStatus: Out<cudaStreamCaptureStatus>) -> cudaError_t
        => stream::is_capturing(stream, pCaptureStatus, PT);
    Context fn cudaStreamGetCaptureInfo(stream: cudaStream_t, captureStatus_out: Out<cudaStreamCaptureStatus>,
        id_out: *mut u64, graph_out: *mut cudaGraph_t, dependencies_out: *mut *const cudaGraphNode_t,
        edgeData_out: *mut *const cudaGraphEdgeData, numDependencies_out: *mut usize) -> cudaError_t
        => stream::get_capture_info(stream, captureStatus_out, CaptureInfoOut { id: id_out, graph: graph_out,
            deps: dependencies_out, edges: edgeData_out, count: numDependencies_out }, LEGACY);
    Context fn cudaStreamGetCaptureInfo_ptsz(stream: cudaStream_t, captureStatus_out: Out<cudaStreamCaptureStatus>,
        id_out: *mut u64, graph_out: *mut cudaGraph_t, dependencies_out: *mut *const cudaGraphNode_t,
        edgeData_out: *mut *const cudaGraphEdgeData, numDependencies_out: *mut usize) -> cudaError_t
        => stream::get_capture_info(stream, captureStatus_out, CaptureInfoOut { id: id_out, graph: graph_out,
            deps: dependencies_out, edges: edgeData_out, count: numDependencies_out }, PT);
    Context fn cudaStreamUpdateCaptureDependencies(stream: cudaStream_t, dependencies: *mut cudaGraphNode_t,
        dependencyData: *const cudaGraphEdgeData, numDependencies: usize, flags: c_uint) -> cudaError_t
        => stream::update_capture_dependencies(stream, dependencies, dependencyData, numDependencies, flags, LEGACY);
    Context fn cudaStreamUpdateCaptureDependencies_ptsz(stream: cudaStream_t, dependencies: *mut cudaGraphNode_t,
        dependencyData: *const cudaGraphEdgeData, numDependencies: usize, flags: c_uint) -> cudaError_t
        => stream::update_capture_dependencies(stream, dependencies, dependencyData, numDependencies, flags, PT);
    Context fn cudaThreadExchangeStreamCaptureMode(mode: Out<cudaStreamCaptureMode>) -> cudaError_t
        => stream::exchange_capture_mode(mode);

    // Stream attributes, ids, devices, managed memory.
    Context fn cudaStreamGetAttribute(hStream: cudaStream_t, attr: cudaStreamAttrID, value_out: Out<cudaStreamAttrValue>) -> cudaError_t
        => stream::get_attribute(hStream, attr, value_out, LEGACY);
    Context fn cudaStreamGetAttribute_ptsz(hStream: cudaStream_t, attr: cudaStreamAttrID, value_out: Out<cudaStreamAttrValue>) -> cudaError_t
        => stream::get_attribute(hStream, attr, value_out, PT);
    Context fn cudaStreamSetAttribute(hStream: cudaStream_t, attr: cudaStreamAttrID, value: In<cudaStreamAttrValue>) -> cudaError_t
        => stream::set_attribute(hStream, attr, value, LEGACY);
    Context fn cudaStreamSetAttribute_ptsz(hStream: cudaStream_t, attr: cudaStreamAttrID, value: In<cudaStreamAttrValue>) -> cudaError_t
        => stream::set_attribute(hStream, attr, value, PT);
    Context fn cudaStreamCopyAttributes(dst: cudaStream_t, src: cudaStream_t) -> cudaError_t
        => stream::copy_attributes(dst, src, LEGACY);
    Context fn cudaStreamCopyAttributes_ptsz(dst: cudaStream_t, src: cudaStream_t) -> cudaError_t
        => stream::copy_attributes(dst, src, PT);
    Context fn cudaStreamGetId(hStream: cudaStream_t, streamId: Out<u64>) -> cudaError_t => stream::get_id(hStream, streamId, LEGACY);
    Context fn cudaStreamGetId_ptsz(hStream: cudaStream_t, streamId: Out<u64>) -> cudaError_t => stream::get_id(hStream, streamId, PT);
    Context fn cudaStreamGetDevice(hStream: cudaStream_t, device: Out<c_int>) -> cudaError_t
        => stream::get_device(hStream, device, LEGACY);
    Context fn cudaStreamGetDevice_ptsz(hStream: cudaStream_t, device: Out<c_int>) -> cudaError_t
        => stream::get_device(hStream, device, PT);
    Context fn cudaStreamAttachMemAsync(stream: cudaStream_t, devPtr: *mut c_void, length: usize, flags: c_uint) -> cudaError_t
        => stream::attach_mem_async(stream, devPtr, length, flags, LEGACY);
    Context fn cudaStreamAttachMemAsync_ptsz(stream: cudaStream_t, devPtr: *mut c_void, length: usize, flags: c_uint) -> cudaError_t
        => stream::attach_mem_async(stream, devPtr, length, flags, PT);

    // Events shared between processes, events from EGL syncs.
    Context fn cudaIpcGetEventHandle(handle: Out<cudaIpcEventHandle_t>, event: cudaEvent_t) -> cudaError_t
        => event::ipc_get_handle(handle, event);
    Context fn cudaIpcOpenEventHandle(event: Out<cudaEvent_t>, handle: cudaIpcEventHandle_t) -> cudaError_t
        => event::ipc_open_handle(event, handle);
    Context fn cudaEventCreateFromEGLSync(phEvent: Out<cudaEvent_t>, eglSync: *mut c_void, flags: c_uint) -> cudaError_t
        => event::create_from_egl_sync(phEvent, eglSync, flags);

    // CUDA 13.5 (13.1/13.3 driver calls: on an older driver
    // cudaErrorCallRequiresNewerDriver).
    Context fn cudaStreamBeginRecaptureToGraph(stream: cudaStream_t, mode: cudaStreamCaptureMode, graph: cudaGraph_t,
        callbackData: *mut cudaGraphRecaptureCallbackData) -> cudaError_t
        => crate::since135::begin_recapture_to_graph(stream, mode, graph, callbackData, LEGACY);
    Context fn cudaStreamBeginRecaptureToGraph_ptsz(stream: cudaStream_t, mode: cudaStreamCaptureMode, graph: cudaGraph_t,
        callbackData: *mut cudaGraphRecaptureCallbackData) -> cudaError_t
        => crate::since135::begin_recapture_to_graph(stream, mode, graph, callbackData, PT);
    Context fn cudaLaunchHostFunc_v2(stream: cudaStream_t, fn_: crate::stream::HostFn, userData: *mut c_void,
        syncMode: c_uint) -> cudaError_t
        => crate::since135::launch_host_func_v2(stream, fn_, userData, syncMode, LEGACY);
    Context fn cudaLaunchHostFunc_v2_ptsz(stream: cudaStream_t, fn_: crate::stream::HostFn, userData: *mut c_void,
        syncMode: c_uint) -> cudaError_t
        => crate::since135::launch_host_func_v2(stream, fn_, userData, syncMode, PT);
}
