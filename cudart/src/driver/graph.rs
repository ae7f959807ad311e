//! Driver entry points for graphs: explicit construction, instantiation, update, launch, debug output.
//!
//! `driver::family::<GraphApi>(per_thread)` resolves this table on first use.
//! Names are resolved for CUDA 13.0, so `cuGraphAddKernelNode` and friends
//! are the `CUDA_KERNEL_NODE_PARAMS_v2` forms, `cuGraphGetEdges`,
//! `cuGraphAddDependencies`, `cuGraphAddNode` and the dependency queries the
//! ones with `CUgraphEdgeData`, `cuGraphExecUpdate` the one with
//! `CUgraphExecUpdateResultInfo`; the per-thread table gives the `_ptsz`
//! forms of `cuGraphLaunch`, `cuGraphUpload` and `cuGraphInstantiateWithParams`.
//!
//! The runtime's node parameter structs that are the driver's (host,
//! memset, memory allocation and external semaphore nodes, edge data,
//! instantiation parameters, update results, kernel node attributes) are
//! taken as they are; the driver's own (kernel, memcpy, generic node
//! parameters) are in `driver/types.rs`.

#![allow(non_snake_case)]

use super::types::*;
use super::CUresult;
use crate::abi::{
    cudaExternalSemaphoreSignalNodeParams, cudaExternalSemaphoreWaitNodeParams, cudaGraphEdgeData,
    cudaGraphExecUpdateResultInfo, cudaGraphInstantiateParams, cudaHostNodeParams,
    cudaLaunchAttributeValue, cudaMemAllocNodeParams, cudaMemsetParams,
};
use std::ffi::{c_char, c_int, c_uint, c_void};

driver_api! {
    /// Graphs, graph memory and user objects.
    pub struct GraphApi {
    cuGraphCreate(graph: *mut CUgraph, flags: c_uint);
    cuGraphDestroy(graph: CUgraph);
    cuGraphClone(clone: *mut CUgraph, graph: CUgraph);
    cuGraphNodeFindInClone(node: *mut CUgraphNode, original: CUgraphNode, clone: CUgraph);
    cuGraphAddKernelNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const CUDA_KERNEL_NODE_PARAMS);
    cuGraphKernelNodeGetParams(node: CUgraphNode, p: *mut CUDA_KERNEL_NODE_PARAMS);
    cuGraphKernelNodeSetParams(node: CUgraphNode, p: *const CUDA_KERNEL_NODE_PARAMS);
    cuGraphAddMemcpyNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const CUDA_MEMCPY3D, ctx: CUcontext);
    cuGraphMemcpyNodeGetParams(node: CUgraphNode, p: *mut CUDA_MEMCPY3D);
    cuGraphMemcpyNodeSetParams(node: CUgraphNode, p: *const CUDA_MEMCPY3D);
    cuGraphAddMemsetNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const cudaMemsetParams, ctx: CUcontext);
    cuGraphMemsetNodeGetParams(node: CUgraphNode, p: *mut cudaMemsetParams);
    cuGraphMemsetNodeSetParams(node: CUgraphNode, p: *const cudaMemsetParams);
    cuGraphAddHostNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const cudaHostNodeParams);
    cuGraphHostNodeGetParams(node: CUgraphNode, p: *mut cudaHostNodeParams);
    cuGraphHostNodeSetParams(node: CUgraphNode, p: *const cudaHostNodeParams);
    cuGraphAddChildGraphNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, child: CUgraph);
    cuGraphChildGraphNodeGetGraph(node: CUgraphNode, graph: *mut CUgraph);
    cuGraphAddEmptyNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize);
    cuGraphAddEventRecordNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, event: CUevent);
    cuGraphEventRecordNodeGetEvent(node: CUgraphNode, event: *mut CUevent);
    cuGraphEventRecordNodeSetEvent(node: CUgraphNode, event: CUevent);
    cuGraphAddEventWaitNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, event: CUevent);
    cuGraphEventWaitNodeGetEvent(node: CUgraphNode, event: *mut CUevent);
    cuGraphEventWaitNodeSetEvent(node: CUgraphNode, event: CUevent);
    cuGraphAddExternalSemaphoresSignalNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const cudaExternalSemaphoreSignalNodeParams);
    cuGraphExternalSemaphoresSignalNodeGetParams(node: CUgraphNode, p: *mut cudaExternalSemaphoreSignalNodeParams);
    cuGraphExternalSemaphoresSignalNodeSetParams(node: CUgraphNode, p: *const cudaExternalSemaphoreSignalNodeParams);
    cuGraphAddExternalSemaphoresWaitNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const cudaExternalSemaphoreWaitNodeParams);
    cuGraphExternalSemaphoresWaitNodeGetParams(node: CUgraphNode, p: *mut cudaExternalSemaphoreWaitNodeParams);
    cuGraphExternalSemaphoresWaitNodeSetParams(node: CUgraphNode, p: *const cudaExternalSemaphoreWaitNodeParams);
    cuGraphAddMemAllocNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *mut cudaMemAllocNodeParams);
    cuGraphMemAllocNodeGetParams(node: CUgraphNode, p: *mut cudaMemAllocNodeParams);
    cuGraphAddMemFreeNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, dptr: CUdeviceptr);
    cuGraphMemFreeNodeGetParams(node: CUgraphNode, dptr: *mut CUdeviceptr);
    cuDeviceGraphMemTrim(dev: CUdevice);
    cuDeviceGetGraphMemAttribute(dev: CUdevice, attr: c_int, value: *mut c_void);
    cuDeviceSetGraphMemAttribute(dev: CUdevice, attr: c_int, value: *mut c_void);
    cuGraphNodeGetType(node: CUgraphNode, ty: *mut c_uint);
    cuGraphGetNodes(graph: CUgraph, nodes: *mut CUgraphNode, n: *mut usize);
    cuGraphGetRootNodes(graph: CUgraph, nodes: *mut CUgraphNode, n: *mut usize);
    cuGraphGetEdges(graph: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, data: *mut cudaGraphEdgeData, n: *mut usize);
    cuGraphNodeGetDependencies(node: CUgraphNode, deps: *mut CUgraphNode, data: *mut cudaGraphEdgeData, n: *mut usize);
    cuGraphNodeGetDependentNodes(node: CUgraphNode, deps: *mut CUgraphNode, data: *mut cudaGraphEdgeData, n: *mut usize);
    cuGraphAddDependencies(graph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, data: *const cudaGraphEdgeData, n: usize);
    cuGraphRemoveDependencies(graph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, data: *const cudaGraphEdgeData, n: usize);
    cuGraphDestroyNode(node: CUgraphNode);
    cuGraphInstantiateWithFlags(exec: *mut CUgraphExec, graph: CUgraph, flags: u64);
    cuGraphInstantiateWithParams(exec: *mut CUgraphExec, graph: CUgraph, p: *mut cudaGraphInstantiateParams);
    cuGraphExecGetFlags(exec: CUgraphExec, flags: *mut u64);
    cuGraphExecKernelNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const CUDA_KERNEL_NODE_PARAMS);
    cuGraphExecMemcpyNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const CUDA_MEMCPY3D, ctx: CUcontext);
    cuGraphExecMemsetNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const cudaMemsetParams, ctx: CUcontext);
    cuGraphExecHostNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const cudaHostNodeParams);
    cuGraphExecChildGraphNodeSetParams(exec: CUgraphExec, node: CUgraphNode, child: CUgraph);
    cuGraphExecEventRecordNodeSetEvent(exec: CUgraphExec, node: CUgraphNode, event: CUevent);
    cuGraphExecEventWaitNodeSetEvent(exec: CUgraphExec, node: CUgraphNode, event: CUevent);
    cuGraphExecExternalSemaphoresSignalNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const cudaExternalSemaphoreSignalNodeParams);
    cuGraphExecExternalSemaphoresWaitNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const cudaExternalSemaphoreWaitNodeParams);
    cuGraphNodeSetEnabled(exec: CUgraphExec, node: CUgraphNode, enabled: c_uint);
    cuGraphNodeGetEnabled(exec: CUgraphExec, node: CUgraphNode, enabled: *mut c_uint);
    cuGraphUpload(exec: CUgraphExec, stream: CUstream);
    cuGraphLaunch(exec: CUgraphExec, stream: CUstream);
    cuGraphExecDestroy(exec: CUgraphExec);
    cuGraphExecUpdate(exec: CUgraphExec, graph: CUgraph, info: *mut cudaGraphExecUpdateResultInfo);
    cuGraphKernelNodeCopyAttributes(dst: CUgraphNode, src: CUgraphNode);
    cuGraphKernelNodeGetAttribute(node: CUgraphNode, attr: c_int, value: *mut cudaLaunchAttributeValue);
    cuGraphKernelNodeSetAttribute(node: CUgraphNode, attr: c_int, value: *const cudaLaunchAttributeValue);
    cuGraphDebugDotPrint(graph: CUgraph, path: *const c_char, flags: c_uint);
    cuUserObjectCreate(object: *mut CUuserObject, ptr: *mut c_void, destroy: CUhostFn, refcount: c_uint, flags: c_uint);
    cuUserObjectRetain(object: CUuserObject, count: c_uint);
    cuUserObjectRelease(object: CUuserObject, count: c_uint);
    cuGraphRetainUserObject(graph: CUgraph, object: CUuserObject, count: c_uint, flags: c_uint);
    cuGraphReleaseUserObject(graph: CUgraph, object: CUuserObject, count: c_uint);
    cuGraphAddNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, data: *const cudaGraphEdgeData, n: usize, p: *mut CUgraphNodeParams);
    cuGraphNodeSetParams(node: CUgraphNode, p: *mut CUgraphNodeParams);
    cuGraphExecNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *mut CUgraphNodeParams);
    cuGraphConditionalHandleCreate(handle: *mut u64, graph: CUgraph, ctx: CUcontext, default_value: c_uint, flags: c_uint);
    cuArray3DGetDescriptor(desc: *mut CUDA_ARRAY3D_DESCRIPTOR, array: CUarray);
    }
}
