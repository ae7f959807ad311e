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
//! Also here: the driver's node parameter structs that differ from the
//! runtime's (the runtime ones that are identical are passed by pointer; the
//! unit tests in `graph.rs` hold both layouts side by side).

#![allow(non_snake_case, unused_imports)]

use super::{
    CUcontext, CUdevice, CUdeviceptr, CUevent, CUfunction, CUkernel, CUlibrary, CUresult, CUstream,
};
use std::ffi::{c_char, c_int, c_uint, c_void};

pub type CUgraph = *mut c_void;
pub type CUgraphNode = *mut c_void;
pub type CUgraphExec = *mut c_void;
pub type CUuserObject = *mut c_void;
pub type CUarray = *mut c_void;
/// `CUhostFn`: the same C type as the runtime's `cudaHostFn_t`.
pub type CUhostFn = Option<unsafe extern "C" fn(*mut c_void)>;

/// `CUmemorytype`.
pub const CU_MEMORYTYPE_HOST: c_uint = 1;
pub const CU_MEMORYTYPE_DEVICE: c_uint = 2;
pub const CU_MEMORYTYPE_ARRAY: c_uint = 3;
pub const CU_MEMORYTYPE_UNIFIED: c_uint = 4;

/// `CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES`: name the runtime's structures
/// in the output (the runtime's flags leave this bit free for it).
pub const CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES: c_uint = 1 << 1;

/// `CUDA_KERNEL_NODE_PARAMS_v2` (also `_v3`, the member of
/// `CUgraphNodeParams`: the same fields). `kern` is used when `func` is null.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CuKernelNodeParams {
    pub func: CUfunction,
    pub gridDimX: c_uint,
    pub gridDimY: c_uint,
    pub gridDimZ: c_uint,
    pub blockDimX: c_uint,
    pub blockDimY: c_uint,
    pub blockDimZ: c_uint,
    pub sharedMemBytes: c_uint,
    pub kernelParams: *mut *mut c_void,
    pub extra: *mut *mut c_void,
    pub kern: CUkernel,
    pub ctx: CUcontext,
}

impl Default for CuKernelNodeParams {
    fn default() -> Self {
        Self {
            func: std::ptr::null_mut(),
            gridDimX: 0,
            gridDimY: 0,
            gridDimZ: 0,
            blockDimX: 0,
            blockDimY: 0,
            blockDimZ: 0,
            sharedMemBytes: 0,
            kernelParams: std::ptr::null_mut(),
            extra: std::ptr::null_mut(),
            kern: std::ptr::null_mut(),
            ctx: std::ptr::null_mut(),
        }
    }
}

/// `CUDA_MEMCPY3D` (`_v2`): one declaration, in the memory family's table.
pub use super::memory::CUDA_MEMCPY3D as CuMemcpy3D;

/// `CUDA_MEMCPY_NODE_PARAMS` (member of `CUgraphNodeParams`).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CuMemcpyNodeParams {
    pub flags: c_int,
    pub reserved: c_int,
    pub copyCtx: CUcontext,
    pub copyParams: CuMemcpy3D,
}

/// `CUDA_MEMSET_NODE_PARAMS_v2` (member of `CUgraphNodeParams`): the
/// runtime's `cudaMemsetParamsV2` plus the context.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CuMemsetNodeParamsV2 {
    pub dst: CUdeviceptr,
    pub pitch: usize,
    pub value: c_uint,
    pub elementSize: c_uint,
    pub width: usize,
    pub height: usize,
    pub ctx: CUcontext,
}

/// `CUDA_CONDITIONAL_NODE_PARAMS`: the runtime's `cudaConditionalNodeParams`
/// plus the context.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CuConditionalNodeParams {
    pub handle: u64,
    pub type_: c_uint,
    pub size: c_uint,
    pub phGraph_out: *mut CUgraph,
    pub ctx: CUcontext,
}

/// The anonymous union of `CUgraphNodeParams` (232 bytes): the members
/// whose layout differs from the runtime's, and the raw words for the rest.
#[repr(C)]
#[derive(Copy, Clone)]
pub union CuGraphNodeParamsU {
    pub raw: [i64; 29],
    pub kernel: CuKernelNodeParams,
    pub memcpy: CuMemcpyNodeParams,
    pub memset: CuMemsetNodeParamsV2,
    pub conditional: CuConditionalNodeParams,
}

/// `CUgraphNodeParams` (256 bytes, the same outer layout as the runtime's
/// `cudaGraphNodeParams`).
#[repr(C)]
#[derive(Copy, Clone)]
pub struct CuGraphNodeParams {
    pub type_: c_uint,
    pub reserved0: [c_int; 3],
    pub u: CuGraphNodeParamsU,
    pub reserved2: i64,
}

/// `CUDA_ARRAY3D_DESCRIPTOR` (`_v2`).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct CuArray3DDescriptor {
    pub Width: usize,
    pub Height: usize,
    pub Depth: usize,
    pub Format: c_uint,
    pub NumChannels: c_uint,
    pub Flags: c_uint,
}

driver_api! {
    /// Graphs, graph memory and user objects.
    pub struct GraphApi {
    cuGraphCreate(graph: *mut CUgraph, flags: c_uint);
    cuGraphDestroy(graph: CUgraph);
    cuGraphClone(clone: *mut CUgraph, graph: CUgraph);
    cuGraphNodeFindInClone(node: *mut CUgraphNode, original: CUgraphNode, clone: CUgraph);
    cuGraphAddKernelNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const CuKernelNodeParams);
    cuGraphKernelNodeGetParams(node: CUgraphNode, p: *mut CuKernelNodeParams);
    cuGraphKernelNodeSetParams(node: CUgraphNode, p: *const CuKernelNodeParams);
    cuGraphAddMemcpyNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const CuMemcpy3D, ctx: CUcontext);
    cuGraphMemcpyNodeGetParams(node: CUgraphNode, p: *mut CuMemcpy3D);
    cuGraphMemcpyNodeSetParams(node: CUgraphNode, p: *const CuMemcpy3D);
    cuGraphAddMemsetNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const c_void, ctx: CUcontext);
    cuGraphMemsetNodeGetParams(node: CUgraphNode, p: *mut c_void);
    cuGraphMemsetNodeSetParams(node: CUgraphNode, p: *const c_void);
    cuGraphAddHostNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const c_void);
    cuGraphHostNodeGetParams(node: CUgraphNode, p: *mut c_void);
    cuGraphHostNodeSetParams(node: CUgraphNode, p: *const c_void);
    cuGraphAddChildGraphNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, child: CUgraph);
    cuGraphChildGraphNodeGetGraph(node: CUgraphNode, graph: *mut CUgraph);
    cuGraphAddEmptyNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize);
    cuGraphAddEventRecordNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, event: CUevent);
    cuGraphEventRecordNodeGetEvent(node: CUgraphNode, event: *mut CUevent);
    cuGraphEventRecordNodeSetEvent(node: CUgraphNode, event: CUevent);
    cuGraphAddEventWaitNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, event: CUevent);
    cuGraphEventWaitNodeGetEvent(node: CUgraphNode, event: *mut CUevent);
    cuGraphEventWaitNodeSetEvent(node: CUgraphNode, event: CUevent);
    cuGraphAddExternalSemaphoresSignalNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const c_void);
    cuGraphExternalSemaphoresSignalNodeGetParams(node: CUgraphNode, p: *mut c_void);
    cuGraphExternalSemaphoresSignalNodeSetParams(node: CUgraphNode, p: *const c_void);
    cuGraphAddExternalSemaphoresWaitNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const c_void);
    cuGraphExternalSemaphoresWaitNodeGetParams(node: CUgraphNode, p: *mut c_void);
    cuGraphExternalSemaphoresWaitNodeSetParams(node: CUgraphNode, p: *const c_void);
    cuGraphAddMemAllocNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *mut c_void);
    cuGraphMemAllocNodeGetParams(node: CUgraphNode, p: *mut c_void);
    cuGraphAddMemFreeNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, dptr: CUdeviceptr);
    cuGraphMemFreeNodeGetParams(node: CUgraphNode, dptr: *mut CUdeviceptr);
    cuDeviceGraphMemTrim(dev: CUdevice);
    cuDeviceGetGraphMemAttribute(dev: CUdevice, attr: c_int, value: *mut c_void);
    cuDeviceSetGraphMemAttribute(dev: CUdevice, attr: c_int, value: *mut c_void);
    cuGraphNodeGetType(node: CUgraphNode, ty: *mut c_uint);
    cuGraphGetNodes(graph: CUgraph, nodes: *mut CUgraphNode, n: *mut usize);
    cuGraphGetRootNodes(graph: CUgraph, nodes: *mut CUgraphNode, n: *mut usize);
    cuGraphGetEdges(graph: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, data: *mut c_void, n: *mut usize);
    cuGraphNodeGetDependencies(node: CUgraphNode, deps: *mut CUgraphNode, data: *mut c_void, n: *mut usize);
    cuGraphNodeGetDependentNodes(node: CUgraphNode, deps: *mut CUgraphNode, data: *mut c_void, n: *mut usize);
    cuGraphAddDependencies(graph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, data: *const c_void, n: usize);
    cuGraphRemoveDependencies(graph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, data: *const c_void, n: usize);
    cuGraphDestroyNode(node: CUgraphNode);
    cuGraphInstantiateWithFlags(exec: *mut CUgraphExec, graph: CUgraph, flags: u64);
    cuGraphInstantiateWithParams(exec: *mut CUgraphExec, graph: CUgraph, p: *mut c_void);
    cuGraphExecGetFlags(exec: CUgraphExec, flags: *mut u64);
    cuGraphExecKernelNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const CuKernelNodeParams);
    cuGraphExecMemcpyNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const CuMemcpy3D, ctx: CUcontext);
    cuGraphExecMemsetNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const c_void, ctx: CUcontext);
    cuGraphExecHostNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const c_void);
    cuGraphExecChildGraphNodeSetParams(exec: CUgraphExec, node: CUgraphNode, child: CUgraph);
    cuGraphExecEventRecordNodeSetEvent(exec: CUgraphExec, node: CUgraphNode, event: CUevent);
    cuGraphExecEventWaitNodeSetEvent(exec: CUgraphExec, node: CUgraphNode, event: CUevent);
    cuGraphExecExternalSemaphoresSignalNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const c_void);
    cuGraphExecExternalSemaphoresWaitNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const c_void);
    cuGraphNodeSetEnabled(exec: CUgraphExec, node: CUgraphNode, enabled: c_uint);
    cuGraphNodeGetEnabled(exec: CUgraphExec, node: CUgraphNode, enabled: *mut c_uint);
    cuGraphUpload(exec: CUgraphExec, stream: CUstream);
    cuGraphLaunch(exec: CUgraphExec, stream: CUstream);
    cuGraphExecDestroy(exec: CUgraphExec);
    cuGraphExecUpdate(exec: CUgraphExec, graph: CUgraph, info: *mut c_void);
    cuGraphKernelNodeCopyAttributes(dst: CUgraphNode, src: CUgraphNode);
    cuGraphKernelNodeGetAttribute(node: CUgraphNode, attr: c_int, value: *mut c_void);
    cuGraphKernelNodeSetAttribute(node: CUgraphNode, attr: c_int, value: *const c_void);
    cuGraphDebugDotPrint(graph: CUgraph, path: *const c_char, flags: c_uint);
    cuUserObjectCreate(object: *mut CUuserObject, ptr: *mut c_void, destroy: CUhostFn, refcount: c_uint, flags: c_uint);
    cuUserObjectRetain(object: CUuserObject, count: c_uint);
    cuUserObjectRelease(object: CUuserObject, count: c_uint);
    cuGraphRetainUserObject(graph: CUgraph, object: CUuserObject, count: c_uint, flags: c_uint);
    cuGraphReleaseUserObject(graph: CUgraph, object: CUuserObject, count: c_uint);
    cuGraphAddNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, data: *const c_void, n: usize, p: *mut CuGraphNodeParams);
    cuGraphNodeSetParams(node: CUgraphNode, p: *mut CuGraphNodeParams);
    cuGraphExecNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *mut CuGraphNodeParams);
    cuGraphConditionalHandleCreate(handle: *mut u64, graph: CUgraph, ctx: CUcontext, default_value: c_uint, flags: c_uint);
    cuArray3DGetDescriptor(desc: *mut CuArray3DDescriptor, array: CUarray);
    cuKernelGetFunction(func: *mut CUfunction, kernel: CUkernel);
    }
}
