//! Entry points for graphs: explicit construction, instantiation, update, launch, debug output.
//!
//! Handles (`cudaGraph_t`, `cudaGraphNode_t`, `cudaGraphExec_t`,
//! `cudaUserObject_t`, events) are the driver's and go through unchanged;
//! the driver validates them. Parameter structs that are field for field
//! the driver's go by pointer too (see `crate::graph`); the others are
//! converted there.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{CStrArg, In, Needs, Out};
use crate::driver::{CUevent, CUgraphNode};
use crate::graph::memcpy::CopyParams;
use crate::graph::{self, drv};
use std::ffi::{c_char, c_int, c_uint, c_void};

entry_points! {
    // Graphs.
    Context fn cudaGraphCreate(pGraph: *mut cudaGraph_t, flags: c_uint) -> cudaError_t
        => graph::made(pGraph, drv()?.cuGraphCreate(pGraph.cast(), flags));
    Context fn cudaGraphDestroy(graph: cudaGraph_t) -> cudaError_t => graph::destroy(graph::h(graph)?);
    Context fn cudaGraphClone(pGraphClone: *mut cudaGraph_t, originalGraph: cudaGraph_t) -> cudaError_t
        => graph::made(pGraphClone, drv()?.cuGraphClone(pGraphClone.cast(), graph::h(originalGraph)?));
    Context fn cudaGraphNodeFindInClone(pNode: *mut cudaGraphNode_t, originalNode: cudaGraphNode_t,
        clonedGraph: cudaGraph_t) -> cudaError_t
        => graph::added(pNode.cast(), drv()?.cuGraphNodeFindInClone(pNode.cast(), graph::node(originalNode)?, graph::h(clonedGraph)?));
    Context fn cudaGraphDebugDotPrint(graph: cudaGraph_t, path: CStrArg, flags: c_uint) -> cudaError_t
        => graph::exec::debug_dot_print(graph::h(graph)?, path, flags);

    // Kernel nodes.
    Context fn cudaGraphAddKernelNode(pGraphNode: Out<cudaGraphNode_t>, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, pNodeParams: In<cudaKernelNodeParams>) -> cudaError_t
        => graph::kernel::add_kernel_node(pGraphNode, graph::h(graph)?, pDependencies, numDependencies, pNodeParams);
    Context fn cudaGraphKernelNodeGetParams(node: cudaGraphNode_t, pNodeParams: Out<cudaKernelNodeParams>) -> cudaError_t
        => graph::kernel::kernel_node_get_params(graph::h(node)?, pNodeParams);
    Context fn cudaGraphKernelNodeSetParams(node: cudaGraphNode_t, pNodeParams: In<cudaKernelNodeParams>) -> cudaError_t
        => graph::kernel::kernel_node_set_params(graph::h(node)?, pNodeParams);
    Context fn cudaGraphExecKernelNodeSetParams(hGraphExec: cudaGraphExec_t, node: cudaGraphNode_t,
        pNodeParams: In<cudaKernelNodeParams>) -> cudaError_t
        => graph::kernel::exec_kernel_node_set_params(graph::h(hGraphExec)?, graph::h(node)?, pNodeParams);
    // cudaKernelNodeAttrValue is cudaLaunchAttributeValue, the driver's CUkernelNodeAttrValue.
    Context fn cudaGraphKernelNodeCopyAttributes(hDst: cudaGraphNode_t, hSrc: cudaGraphNode_t) -> cudaError_t
        => drv()?.cuGraphKernelNodeCopyAttributes(graph::node(hDst)?, graph::node(hSrc)?).ok();
    Context fn cudaGraphKernelNodeGetAttribute(hNode: cudaGraphNode_t, attr: c_int,
        value_out: *mut cudaLaunchAttributeValue) -> cudaError_t
        => drv()?.cuGraphKernelNodeGetAttribute(graph::node(hNode)?, attr, value_out.cast()).ok();
    Context fn cudaGraphKernelNodeSetAttribute(hNode: cudaGraphNode_t, attr: c_int,
        value: *const cudaLaunchAttributeValue) -> cudaError_t
        => drv()?.cuGraphKernelNodeSetAttribute(graph::node(hNode)?, attr, value.cast()).ok();

    // Memcpy nodes.
    Context fn cudaGraphAddMemcpyNode(pGraphNode: Out<cudaGraphNode_t>, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, pCopyParams: In<cudaMemcpy3DParms>) -> cudaError_t
        => graph::memcpy::add_memcpy_node(pGraphNode, graph::h(graph)?, pDependencies, numDependencies, CopyParams::Params3D(pCopyParams));
    Context fn cudaGraphAddMemcpyNode1D(pGraphNode: Out<cudaGraphNode_t>, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, dst: *mut c_void, src: *const c_void,
        count: usize, kind: c_int) -> cudaError_t
        => graph::memcpy::add_memcpy_node(pGraphNode, graph::h(graph)?, pDependencies, numDependencies, CopyParams::OneD { dst, src, count, kind });
    Context fn cudaGraphAddMemcpyNodeToSymbol(pGraphNode: Out<cudaGraphNode_t>, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, symbol: *const c_void, src: *const c_void,
        count: usize, offset: usize, kind: c_int) -> cudaError_t
        => graph::memcpy::add_memcpy_node(pGraphNode, graph::h(graph)?, pDependencies, numDependencies,
            CopyParams::ToSymbol { symbol, src, count, offset, kind });
    Context fn cudaGraphAddMemcpyNodeFromSymbol(pGraphNode: Out<cudaGraphNode_t>, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, dst: *mut c_void, symbol: *const c_void,
        count: usize, offset: usize, kind: c_int) -> cudaError_t
        => graph::memcpy::add_memcpy_node(pGraphNode, graph::h(graph)?, pDependencies, numDependencies,
            CopyParams::FromSymbol { dst, symbol, count, offset, kind });
    Context fn cudaGraphMemcpyNodeGetParams(node: cudaGraphNode_t, pNodeParams: Out<cudaMemcpy3DParms>) -> cudaError_t
        => graph::memcpy::memcpy_node_get_params(graph::h(node)?, pNodeParams);
    Context fn cudaGraphMemcpyNodeSetParams(node: cudaGraphNode_t, pNodeParams: In<cudaMemcpy3DParms>) -> cudaError_t
        => graph::memcpy::memcpy_node_set_params(graph::h(node)?, CopyParams::Params3D(pNodeParams));
    Context fn cudaGraphMemcpyNodeSetParams1D(node: cudaGraphNode_t, dst: *mut c_void, src: *const c_void,
        count: usize, kind: c_int) -> cudaError_t
        => graph::memcpy::memcpy_node_set_params(graph::h(node)?, CopyParams::OneD { dst, src, count, kind });
    Context fn cudaGraphMemcpyNodeSetParamsToSymbol(node: cudaGraphNode_t, symbol: *const c_void, src: *const c_void,
        count: usize, offset: usize, kind: c_int) -> cudaError_t
        => graph::memcpy::memcpy_node_set_params(graph::h(node)?, CopyParams::ToSymbol { symbol, src, count, offset, kind });
    Context fn cudaGraphMemcpyNodeSetParamsFromSymbol(node: cudaGraphNode_t, dst: *mut c_void, symbol: *const c_void,
        count: usize, offset: usize, kind: c_int) -> cudaError_t
        => graph::memcpy::memcpy_node_set_params(graph::h(node)?, CopyParams::FromSymbol { dst, symbol, count, offset, kind });
    Context fn cudaGraphExecMemcpyNodeSetParams(hGraphExec: cudaGraphExec_t, node: cudaGraphNode_t,
        pNodeParams: In<cudaMemcpy3DParms>) -> cudaError_t
        => graph::memcpy::exec_memcpy_node_set_params(graph::h(hGraphExec)?, graph::h(node)?, CopyParams::Params3D(pNodeParams));
    Context fn cudaGraphExecMemcpyNodeSetParams1D(hGraphExec: cudaGraphExec_t, node: cudaGraphNode_t, dst: *mut c_void,
        src: *const c_void, count: usize, kind: c_int) -> cudaError_t
        => graph::memcpy::exec_memcpy_node_set_params(graph::h(hGraphExec)?, graph::h(node)?, CopyParams::OneD { dst, src, count, kind });
    Context fn cudaGraphExecMemcpyNodeSetParamsToSymbol(hGraphExec: cudaGraphExec_t, node: cudaGraphNode_t,
        symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int) -> cudaError_t
        => graph::memcpy::exec_memcpy_node_set_params(graph::h(hGraphExec)?, graph::h(node)?, CopyParams::ToSymbol { symbol, src, count, offset, kind });
    Context fn cudaGraphExecMemcpyNodeSetParamsFromSymbol(hGraphExec: cudaGraphExec_t, node: cudaGraphNode_t,
        dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int) -> cudaError_t
        => graph::memcpy::exec_memcpy_node_set_params(graph::h(hGraphExec)?, graph::h(node)?, CopyParams::FromSymbol { dst, symbol, count, offset, kind });

    // Memset nodes: cudaMemsetParams is CUDA_MEMSET_NODE_PARAMS.
    Context fn cudaGraphAddMemsetNode(pGraphNode: Out<cudaGraphNode_t>, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, pMemsetParams: *const cudaMemsetParams) -> cudaError_t
        => graph::memcpy::add_memset_node(pGraphNode, graph::h(graph)?, pDependencies, numDependencies, pMemsetParams);
    Context fn cudaGraphMemsetNodeGetParams(node: cudaGraphNode_t, pNodeParams: *mut cudaMemsetParams) -> cudaError_t
        => drv()?.cuGraphMemsetNodeGetParams(graph::h(node)?, pNodeParams.cast()).ok();
    Context fn cudaGraphMemsetNodeSetParams(node: cudaGraphNode_t, pNodeParams: *const cudaMemsetParams) -> cudaError_t
        => drv()?.cuGraphMemsetNodeSetParams(graph::h(node)?, pNodeParams.cast()).ok();
    Context fn cudaGraphExecMemsetNodeSetParams(hGraphExec: cudaGraphExec_t, node: cudaGraphNode_t,
        pNodeParams: *const cudaMemsetParams) -> cudaError_t
        => drv()?.cuGraphExecMemsetNodeSetParams(graph::h(hGraphExec)?, graph::h(node)?, pNodeParams.cast(), crate::context::ensure()?).ok();

    // Host nodes: cudaHostNodeParams is CUDA_HOST_NODE_PARAMS.
    Context fn cudaGraphAddHostNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, pNodeParams: *const cudaHostNodeParams) -> cudaError_t
        => graph::added(pGraphNode.cast(), drv()?.cuGraphAddHostNode(pGraphNode.cast(), graph::h(graph)?, pDependencies.cast(), numDependencies, pNodeParams.cast()));
    Context fn cudaGraphHostNodeGetParams(node: cudaGraphNode_t, pNodeParams: *mut cudaHostNodeParams) -> cudaError_t
        => drv()?.cuGraphHostNodeGetParams(graph::h(node)?, pNodeParams.cast()).ok();
    Context fn cudaGraphHostNodeSetParams(node: cudaGraphNode_t, pNodeParams: *const cudaHostNodeParams) -> cudaError_t
        => drv()?.cuGraphHostNodeSetParams(graph::h(node)?, pNodeParams.cast()).ok();
    Context fn cudaGraphExecHostNodeSetParams(hGraphExec: cudaGraphExec_t, node: cudaGraphNode_t,
        pNodeParams: *const cudaHostNodeParams) -> cudaError_t
        => drv()?.cuGraphExecHostNodeSetParams(graph::h(hGraphExec)?, graph::h(node)?, pNodeParams.cast()).ok();

    // Child graph and empty nodes.
    Context fn cudaGraphAddChildGraphNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, childGraph: cudaGraph_t) -> cudaError_t
        => graph::added(pGraphNode.cast(), drv()?.cuGraphAddChildGraphNode(pGraphNode.cast(), graph::h(graph)?, pDependencies.cast(), numDependencies, graph::h(childGraph)?));
    Context fn cudaGraphChildGraphNodeGetGraph(node: cudaGraphNode_t, pGraph: *mut cudaGraph_t) -> cudaError_t
        => drv()?.cuGraphChildGraphNodeGetGraph(graph::h(node)?, pGraph.cast()).ok();
    Context fn cudaGraphExecChildGraphNodeSetParams(hGraphExec: cudaGraphExec_t, node: cudaGraphNode_t,
        childGraph: cudaGraph_t) -> cudaError_t
        => drv()?.cuGraphExecChildGraphNodeSetParams(graph::h(hGraphExec)?, graph::h(node)?, graph::h(childGraph)?).ok();
    Context fn cudaGraphAddEmptyNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize) -> cudaError_t
        => graph::added(pGraphNode.cast(), drv()?.cuGraphAddEmptyNode(pGraphNode.cast(), graph::h(graph)?, pDependencies.cast(), numDependencies));

    // Event nodes.
    Context fn cudaGraphAddEventRecordNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, event: cudaEvent_t) -> cudaError_t
        => graph::added(pGraphNode.cast(), drv()?.cuGraphAddEventRecordNode(pGraphNode.cast(), graph::h(graph)?, pDependencies.cast(), numDependencies, CUevent::from(event)));
    Context fn cudaGraphEventRecordNodeGetEvent(node: cudaGraphNode_t, event_out: *mut cudaEvent_t) -> cudaError_t
        => drv()?.cuGraphEventRecordNodeGetEvent(graph::h(node)?, event_out.cast()).ok();
    Context fn cudaGraphEventRecordNodeSetEvent(node: cudaGraphNode_t, event: cudaEvent_t) -> cudaError_t
        => drv()?.cuGraphEventRecordNodeSetEvent(graph::h(node)?, CUevent::from(event)).ok();
    Context fn cudaGraphExecEventRecordNodeSetEvent(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t,
        event: cudaEvent_t) -> cudaError_t
        => drv()?.cuGraphExecEventRecordNodeSetEvent(graph::h(hGraphExec)?, graph::h(hNode)?, CUevent::from(event)).ok();
    Context fn cudaGraphAddEventWaitNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, event: cudaEvent_t) -> cudaError_t
        => graph::added(pGraphNode.cast(), drv()?.cuGraphAddEventWaitNode(pGraphNode.cast(), graph::h(graph)?, pDependencies.cast(), numDependencies, CUevent::from(event)));
    Context fn cudaGraphEventWaitNodeGetEvent(node: cudaGraphNode_t, event_out: *mut cudaEvent_t) -> cudaError_t
        => drv()?.cuGraphEventWaitNodeGetEvent(graph::h(node)?, event_out.cast()).ok();
    Context fn cudaGraphEventWaitNodeSetEvent(node: cudaGraphNode_t, event: cudaEvent_t) -> cudaError_t
        => drv()?.cuGraphEventWaitNodeSetEvent(graph::h(node)?, CUevent::from(event)).ok();
    Context fn cudaGraphExecEventWaitNodeSetEvent(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t,
        event: cudaEvent_t) -> cudaError_t
        => drv()?.cuGraphExecEventWaitNodeSetEvent(graph::h(hGraphExec)?, graph::h(hNode)?, CUevent::from(event)).ok();

    // External semaphore nodes: the parameters are the driver's.
    Context fn cudaGraphAddExternalSemaphoresSignalNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize,
        nodeParams: *const cudaExternalSemaphoreSignalNodeParams) -> cudaError_t
        => graph::added(pGraphNode.cast(), drv()?.cuGraphAddExternalSemaphoresSignalNode(pGraphNode.cast(), graph::h(graph)?, pDependencies.cast(), numDependencies,
            nodeParams.cast()));
    Context fn cudaGraphExternalSemaphoresSignalNodeGetParams(hNode: cudaGraphNode_t,
        params_out: *mut cudaExternalSemaphoreSignalNodeParams) -> cudaError_t
        => drv()?.cuGraphExternalSemaphoresSignalNodeGetParams(graph::h(hNode)?, params_out.cast()).ok();
    Context fn cudaGraphExternalSemaphoresSignalNodeSetParams(hNode: cudaGraphNode_t,
        nodeParams: *const cudaExternalSemaphoreSignalNodeParams) -> cudaError_t
        => drv()?.cuGraphExternalSemaphoresSignalNodeSetParams(graph::h(hNode)?, nodeParams.cast()).ok();
    Context fn cudaGraphExecExternalSemaphoresSignalNodeSetParams(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t,
        nodeParams: *const cudaExternalSemaphoreSignalNodeParams) -> cudaError_t
        => drv()?.cuGraphExecExternalSemaphoresSignalNodeSetParams(graph::h(hGraphExec)?, graph::h(hNode)?, nodeParams.cast()).ok();
    Context fn cudaGraphAddExternalSemaphoresWaitNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize,
        nodeParams: *const cudaExternalSemaphoreWaitNodeParams) -> cudaError_t
        => graph::added(pGraphNode.cast(), drv()?.cuGraphAddExternalSemaphoresWaitNode(pGraphNode.cast(), graph::h(graph)?, pDependencies.cast(), numDependencies,
            nodeParams.cast()));
    Context fn cudaGraphExternalSemaphoresWaitNodeGetParams(hNode: cudaGraphNode_t,
        params_out: *mut cudaExternalSemaphoreWaitNodeParams) -> cudaError_t
        => drv()?.cuGraphExternalSemaphoresWaitNodeGetParams(graph::h(hNode)?, params_out.cast()).ok();
    Context fn cudaGraphExternalSemaphoresWaitNodeSetParams(hNode: cudaGraphNode_t,
        nodeParams: *const cudaExternalSemaphoreWaitNodeParams) -> cudaError_t
        => drv()?.cuGraphExternalSemaphoresWaitNodeSetParams(graph::h(hNode)?, nodeParams.cast()).ok();
    Context fn cudaGraphExecExternalSemaphoresWaitNodeSetParams(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t,
        nodeParams: *const cudaExternalSemaphoreWaitNodeParams) -> cudaError_t
        => drv()?.cuGraphExecExternalSemaphoresWaitNodeSetParams(graph::h(hGraphExec)?, graph::h(hNode)?, nodeParams.cast()).ok();

    // Memory nodes: cudaMemAllocNodeParams is CUDA_MEM_ALLOC_NODE_PARAMS (the driver writes dptr).
    Context fn cudaGraphAddMemAllocNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, nodeParams: *mut cudaMemAllocNodeParams) -> cudaError_t
        => graph::added(pGraphNode.cast(), drv()?.cuGraphAddMemAllocNode(pGraphNode.cast(), graph::h(graph)?, pDependencies.cast(), numDependencies, nodeParams.cast()));
    Context fn cudaGraphMemAllocNodeGetParams(node: cudaGraphNode_t, params_out: *mut cudaMemAllocNodeParams) -> cudaError_t
        => drv()?.cuGraphMemAllocNodeGetParams(graph::h(node)?, params_out.cast()).ok();
    Context fn cudaGraphAddMemFreeNode(pGraphNode: *mut cudaGraphNode_t, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, numDependencies: usize, dptr: *mut c_void) -> cudaError_t
        => graph::added(pGraphNode.cast(), drv()?.cuGraphAddMemFreeNode(pGraphNode.cast(), graph::h(graph)?, pDependencies.cast(), numDependencies, dptr as u64));
    Context fn cudaGraphMemFreeNodeGetParams(node: cudaGraphNode_t, dptr_out: *mut c_void) -> cudaError_t
        => drv()?.cuGraphMemFreeNodeGetParams(graph::h(node)?, dptr_out.cast()).ok();
    Context fn cudaDeviceGraphMemTrim(device: c_int) -> cudaError_t
        => drv()?.cuDeviceGraphMemTrim(graph::device(device)?).ok();
    Context fn cudaDeviceGetGraphMemAttribute(device: c_int, attr: c_int, value: *mut c_void) -> cudaError_t
        => drv()?.cuDeviceGetGraphMemAttribute(graph::device(device)?, attr, value).ok();
    Context fn cudaDeviceSetGraphMemAttribute(device: c_int, attr: c_int, value: *mut c_void) -> cudaError_t
        => drv()?.cuDeviceSetGraphMemAttribute(graph::device(device)?, attr, value).ok();

    // Any node (cudaGraphNodeParams) and conditional nodes.
    Context fn cudaGraphAddNode(pGraphNode: Out<cudaGraphNode_t>, graph: cudaGraph_t,
        pDependencies: *const cudaGraphNode_t, dependencyData: *const cudaGraphEdgeData, numDependencies: usize,
        nodeParams: *mut cudaGraphNodeParams) -> cudaError_t
        => graph::params::add_node(pGraphNode, graph::h(graph)?, pDependencies, dependencyData.cast(), numDependencies, nodeParams);
    Context fn cudaGraphNodeSetParams(node: cudaGraphNode_t, nodeParams: *mut cudaGraphNodeParams) -> cudaError_t
        => graph::params::node_set_params(graph::h(node)?, nodeParams);
    Context fn cudaGraphExecNodeSetParams(graphExec: cudaGraphExec_t, node: cudaGraphNode_t,
        nodeParams: *mut cudaGraphNodeParams) -> cudaError_t
        => graph::params::exec_node_set_params(graph::h(graphExec)?, graph::h(node)?, nodeParams);
    Context fn cudaGraphConditionalHandleCreate(pHandle_out: Out<cudaGraphConditionalHandle>, graph: cudaGraph_t,
        defaultLaunchValue: c_uint, flags: c_uint) -> cudaError_t
        => graph::params::conditional_handle_create(pHandle_out, graph::h(graph)?, defaultLaunchValue, flags);

    // Structure: nodes, edges (cudaGraphEdgeData is CUgraphEdgeData).
    Context fn cudaGraphNodeGetType(node: cudaGraphNode_t, pType: *mut cudaGraphNodeType) -> cudaError_t
        => drv()?.cuGraphNodeGetType(graph::h(node)?, pType.cast()).ok();
    Context fn cudaGraphGetNodes(graph: cudaGraph_t, nodes: *mut cudaGraphNode_t, numNodes: *mut usize) -> cudaError_t
        => graph::list(nodes.cast(), numNodes, || Ok(drv()?.cuGraphGetNodes(graph::h(graph)?, nodes.cast(), numNodes)));
    Context fn cudaGraphGetRootNodes(graph: cudaGraph_t, pRootNodes: *mut cudaGraphNode_t,
        pNumRootNodes: *mut usize) -> cudaError_t
        => graph::list(pRootNodes.cast(), pNumRootNodes, || Ok(drv()?.cuGraphGetRootNodes(graph::h(graph)?, pRootNodes.cast(), pNumRootNodes)));
    Context fn cudaGraphGetEdges(graph: cudaGraph_t, from: *mut cudaGraphNode_t, to: *mut cudaGraphNode_t,
        edgeData: *mut cudaGraphEdgeData, numEdges: *mut usize) -> cudaError_t
        => graph::get_edges(graph::h(graph)?, from.cast(), to.cast(), edgeData, numEdges);
    Context fn cudaGraphNodeGetDependencies(node: cudaGraphNode_t, pDependencies: *mut cudaGraphNode_t,
        edgeData: *mut cudaGraphEdgeData, pNumDependencies: *mut usize) -> cudaError_t
        => graph::list(pDependencies.cast(), pNumDependencies, || Ok(drv()?.cuGraphNodeGetDependencies(graph::h(node)?, pDependencies.cast(), edgeData.cast(), pNumDependencies)));
    Context fn cudaGraphNodeGetDependentNodes(node: cudaGraphNode_t, pDependentNodes: *mut cudaGraphNode_t,
        edgeData: *mut cudaGraphEdgeData, pNumDependentNodes: *mut usize) -> cudaError_t
        => graph::list(pDependentNodes.cast(), pNumDependentNodes, || Ok(drv()?.cuGraphNodeGetDependentNodes(graph::h(node)?, pDependentNodes.cast(), edgeData.cast(), pNumDependentNodes)));
    Context fn cudaGraphAddDependencies(graph: cudaGraph_t, from: *const cudaGraphNode_t, to: *const cudaGraphNode_t,
        edgeData: *const cudaGraphEdgeData, numDependencies: usize) -> cudaError_t
        => drv()?.cuGraphAddDependencies(graph::h(graph)?, from.cast(), to.cast(), edgeData, numDependencies).ok();
    Context fn cudaGraphRemoveDependencies(graph: cudaGraph_t, from: *const cudaGraphNode_t, to: *const cudaGraphNode_t,
        edgeData: *const cudaGraphEdgeData, numDependencies: usize) -> cudaError_t
        => drv()?.cuGraphRemoveDependencies(graph::h(graph)?, from.cast(), to.cast(), edgeData, numDependencies).ok();
    Context fn cudaGraphDestroyNode(node: cudaGraphNode_t) -> cudaError_t => graph::destroy_node(graph::h(node)?);

    // Executable graphs: instantiation flags are the driver's.
    Context fn cudaGraphInstantiate(pGraphExec: Out<cudaGraphExec_t>, graph: cudaGraph_t, flags: u64) -> cudaError_t
        => graph::exec::instantiate(pGraphExec, graph::h(graph)?, flags);
    Context fn cudaGraphInstantiateWithFlags(pGraphExec: Out<cudaGraphExec_t>, graph: cudaGraph_t, flags: u64) -> cudaError_t
        => graph::exec::instantiate(pGraphExec, graph::h(graph)?, flags);
    Context fn cudaGraphInstantiateWithParams(pGraphExec: Out<cudaGraphExec_t>, graph: cudaGraph_t,
        instantiateParams: *mut cudaGraphInstantiateParams) -> cudaError_t
        => graph::exec::instantiate_with_params(pGraphExec, graph::h(graph)?, instantiateParams, LEGACY);
    Context fn cudaGraphInstantiateWithParams_ptsz(pGraphExec: Out<cudaGraphExec_t>, graph: cudaGraph_t,
        instantiateParams: *mut cudaGraphInstantiateParams) -> cudaError_t
        => graph::exec::instantiate_with_params(pGraphExec, graph::h(graph)?, instantiateParams, PT);
    Context fn cudaGraphExecGetFlags(graphExec: cudaGraphExec_t, flags: *mut u64) -> cudaError_t
        => drv()?.cuGraphExecGetFlags(graph::h(graphExec)?, flags).ok();
    Context fn cudaGraphExecUpdate(hGraphExec: cudaGraphExec_t, hGraph: cudaGraph_t,
        resultInfo: *mut cudaGraphExecUpdateResultInfo) -> cudaError_t
        => graph::exec::exec_update(graph::h(hGraphExec)?, graph::h(hGraph)?, resultInfo);
    Context fn cudaGraphNodeSetEnabled(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t, isEnabled: c_uint) -> cudaError_t
        => drv()?.cuGraphNodeSetEnabled(graph::h(hGraphExec)?, graph::h(hNode)?, isEnabled).ok();
    Context fn cudaGraphNodeGetEnabled(hGraphExec: cudaGraphExec_t, hNode: cudaGraphNode_t, isEnabled: *mut c_uint) -> cudaError_t
        => drv()?.cuGraphNodeGetEnabled(graph::h(hGraphExec)?, graph::h(hNode)?, isEnabled).ok();
    Context fn cudaGraphUpload(graphExec: cudaGraphExec_t, stream: cudaStream_t) -> cudaError_t
        => graph::exec::upload(graph::h(graphExec)?, stream, LEGACY);
    Context fn cudaGraphUpload_ptsz(graphExec: cudaGraphExec_t, stream: cudaStream_t) -> cudaError_t
        => graph::exec::upload(graph::h(graphExec)?, stream, PT);
    Context fn cudaGraphLaunch(graphExec: cudaGraphExec_t, stream: cudaStream_t) -> cudaError_t
        => graph::exec::launch(graph::h(graphExec)?, stream, LEGACY);
    Context fn cudaGraphLaunch_ptsz(graphExec: cudaGraphExec_t, stream: cudaStream_t) -> cudaError_t
        => graph::exec::launch(graph::h(graphExec)?, stream, PT);
    Context fn cudaGraphExecDestroy(graphExec: cudaGraphExec_t) -> cudaError_t => drv()?.cuGraphExecDestroy(graph::h(graphExec)?).ok();

    // User objects: flags and destructor type are the driver's.
    Context fn cudaUserObjectCreate(object_out: *mut cudaUserObject_t, ptr: *mut c_void, destroy: cudaHostFn_t,
        initialRefcount: c_uint, flags: c_uint) -> cudaError_t
        => drv()?.cuUserObjectCreate(object_out.cast(), ptr, destroy, initialRefcount, flags).ok();
    Context fn cudaUserObjectRetain(object: cudaUserObject_t, count: c_uint) -> cudaError_t
        => drv()?.cuUserObjectRetain(graph::h(object)?, count).ok();
    Context fn cudaUserObjectRelease(object: cudaUserObject_t, count: c_uint) -> cudaError_t
        => drv()?.cuUserObjectRelease(graph::h(object)?, count).ok();
    Context fn cudaGraphRetainUserObject(graph: cudaGraph_t, object: cudaUserObject_t, count: c_uint,
        flags: c_uint) -> cudaError_t
        => drv()?.cuGraphRetainUserObject(graph::h(graph)?, graph::h(object)?, count, flags).ok();
    Context fn cudaGraphReleaseUserObject(graph: cudaGraph_t, object: cudaUserObject_t, count: c_uint) -> cudaError_t
        => drv()?.cuGraphReleaseUserObject(graph::h(graph)?, graph::h(object)?, count).ok();

    // CUDA 13.5: ids, node queries (13.1/13.2 driver calls: on an older
    // driver cudaErrorCallRequiresNewerDriver), conditional handles of an
    // execution context (real on 13.0 drivers).
    Context fn cudaGraphGetId(hGraph: cudaGraph_t, graphID: Out<c_uint>) -> cudaError_t
        => crate::since135::graph_get_id(hGraph, graphID);
    Context fn cudaGraphExecGetId(hGraphExec: cudaGraphExec_t, graphID: Out<c_uint>) -> cudaError_t
        => crate::since135::graph_exec_get_id(hGraphExec, graphID);
    Context fn cudaGraphNodeGetContainingGraph(hNode: cudaGraphNode_t, phGraph: Out<cudaGraph_t>) -> cudaError_t
        => crate::since135::node_get_graph(hNode, phGraph);
    Context fn cudaGraphNodeGetLocalId(hNode: cudaGraphNode_t, nodeId: Out<c_uint>) -> cudaError_t
        => crate::since135::node_get_local_id(hNode, nodeId);
    Context fn cudaGraphNodeGetToolsId(hNode: cudaGraphNode_t, toolsNodeId: Out<u64>) -> cudaError_t
        => crate::since135::node_get_tools_id(hNode, toolsNodeId);
    Context fn cudaGraphNodeGetParams(node: cudaGraphNode_t, nodeParams: Out<cudaGraphNodeParams>) -> cudaError_t
        => crate::since135::node_get_params(node, nodeParams);
    Context fn cudaGraphConditionalHandleCreate_v2(pHandle_out: Out<cudaGraphConditionalHandle>, graph: cudaGraph_t,
        ctx: cudaExecutionContext_t, defaultLaunchValue: c_uint, flags: c_uint) -> cudaError_t
        => crate::since135::conditional_handle_create_v2(pHandle_out, graph, ctx, defaultLaunchValue, flags);
}
