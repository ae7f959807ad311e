//! The generic node parameters (`cudaGraphAddNode`,
//! `cudaGraphNodeSetParams`, `cudaGraphExecNodeSetParams`) and conditional
//! handles.
//!
//! `cudaGraphNodeParams` has the same 256-byte outer layout as
//! `CUgraphNodeParams`; the kernel, memcpy, memset and conditional members
//! differ (the driver's carry a context) and are converted, the others are
//! copied as they are.

use super::memcpy::array_element_bytes;
use super::{added, current_ctx, drv};
use crate::abi::{
    cudaError_t, cudaGraphEdgeData, cudaGraphNodeParams, cudaGraphNodeParams_u, cudaGraphNodeType,
    cudaGraphNode_t,
};
use crate::boundary::{In, Out};
use crate::copy::nodes::{memcpy3d_to_driver, ElementBytes};
use crate::driver::{
    CUDA_MEMSET_NODE_PARAMS_v2, CUcontext, CUdeviceptr, CUgraph, CUgraphExec, CUgraphNode,
    CUgraphNodeParams, CUgraphNodeParams_u, CUDA_CONDITIONAL_NODE_PARAMS, CUDA_MEMCPY_NODE_PARAMS,
};
use std::ffi::c_uint;

/// The members of the runtime's parameter union that are converted.
enum RuntimeMember {
    Kernel(crate::abi::cudaKernelNodeParamsV2),
    Memcpy(crate::abi::cudaMemcpyNodeParams),
    Memset(crate::abi::cudaMemsetParamsV2),
    Conditional(crate::abi::cudaConditionalNodeParams),
    /// Identical to the driver's member: the union's words as they are.
    Same([i64; 29]),
}

fn runtime_member(p: &cudaGraphNodeParams) -> RuntimeMember {
    let u: &cudaGraphNodeParams_u = &p.u;
    // SAFETY: every member of the union is a C struct of integers and raw
    // pointers (no references, no enums with invalid values: the abi enums
    // are integer newtypes), so any bit pattern is a valid value of any
    // member; the type tag only says which one the program meant.
    unsafe {
        match p.type_ {
            cudaGraphNodeType::cudaGraphNodeTypeKernel => RuntimeMember::Kernel(u.kernel),
            cudaGraphNodeType::cudaGraphNodeTypeMemcpy => RuntimeMember::Memcpy(u.memcpy),
            cudaGraphNodeType::cudaGraphNodeTypeMemset => RuntimeMember::Memset(u.memset),
            cudaGraphNodeType::cudaGraphNodeTypeConditional => {
                RuntimeMember::Conditional(u.conditional)
            }
            _ => RuntimeMember::Same(u.reserved1),
        }
    }
}

/// `cudaGraphNodeParams` -> `CUgraphNodeParams`.
fn node_params_to_driver(
    p: &cudaGraphNodeParams,
    ctx: CUcontext,
    element_bytes: ElementBytes,
) -> Result<CUgraphNodeParams, cudaError_t> {
    let mut d = CUgraphNodeParams {
        type_: p.type_.0,
        reserved0: p.reserved0,
        u: CUgraphNodeParams_u { raw: [0; 29] },
        reserved2: p.reserved2,
    };
    match runtime_member(p) {
        RuntimeMember::Kernel(k) => d.u.kernel = crate::since135::kernel_member(&k, ctx)?,
        RuntimeMember::Memcpy(m) => {
            d.u.memcpy = CUDA_MEMCPY_NODE_PARAMS {
                flags: m.flags,
                reserved: 0,
                copyCtx: crate::resource::node_ctx(CUcontext::from(m.ctx), ctx),
                copyParams: memcpy3d_to_driver(&m.copyParams, element_bytes)?,
            }
        }
        RuntimeMember::Memset(m) => {
            d.u.memset = CUDA_MEMSET_NODE_PARAMS_v2 {
                dst: m.dst as CUdeviceptr,
                pitch: m.pitch,
                value: m.value,
                elementSize: m.elementSize,
                width: m.width,
                height: m.height,
                ctx: crate::resource::node_ctx(CUcontext::from(m.ctx), ctx),
            }
        }
        RuntimeMember::Conditional(c) => {
            d.u.conditional = CUDA_CONDITIONAL_NODE_PARAMS {
                handle: c.handle,
                type_: c.type_.0,
                size: c.size,
                phGraph_out: c.phGraph_out.cast(),
                ctx: crate::resource::node_ctx(CUcontext::from(c.ctx), ctx),
            }
        }
        RuntimeMember::Same(words) => d.u.raw = words,
    }
    Ok(d)
}

/// Copies what the driver wrote into its parameters back to the runtime's:
/// the bodies of a conditional node, the address of a memory allocation.
fn node_params_back(p: &mut cudaGraphNodeParams, d: &CUgraphNodeParams) {
    match p.type_ {
        cudaGraphNodeType::cudaGraphNodeTypeConditional => {
            if let RuntimeMember::Conditional(mut c) = runtime_member(p) {
                // SAFETY: the driver's union was written as `conditional`
                // (see `node_params_to_driver`); it holds integers and raw
                // pointers only.
                c.phGraph_out = unsafe { d.u.conditional.phGraph_out }.cast();
                p.u.conditional = c;
            }
        }
        cudaGraphNodeType::cudaGraphNodeTypeMemAlloc => {
            // SAFETY: integers only; the allocation member is identical in
            // both unions and `raw` spans the whole union.
            p.u = cudaGraphNodeParams_u {
                reserved1: unsafe { d.u.raw },
            };
        }
        _ => {}
    }
}

/// `cudaGraphAddNode`.
pub fn add_node(
    node: Out<cudaGraphNode_t>,
    graph: CUgraph,
    deps: *const cudaGraphNode_t,
    data: *const cudaGraphEdgeData,
    n: usize,
    params: *mut cudaGraphNodeParams,
) -> Result<(), cudaError_t> {
    node.check()?;
    let mut p = In(params as *const cudaGraphNodeParams).read()?;
    let mut d = node_params_to_driver(&p, current_ctx()?, &array_element_bytes)?;
    let out = node.as_ptr().cast();
    let r = drv()?.cuGraphAddNode(out, graph, deps.cast(), data, n, &mut d);
    added(out, r)?;
    node_params_back(&mut p, &d);
    Out(params).write(p)
}

/// `cudaGraphNodeSetParams`.
pub fn node_set_params(
    node: CUgraphNode,
    params: *mut cudaGraphNodeParams,
) -> Result<(), cudaError_t> {
    let p = In(params as *const cudaGraphNodeParams).read()?;
    let mut d = node_params_to_driver(&p, current_ctx()?, &array_element_bytes)?;
    drv()?.cuGraphNodeSetParams(node, &mut d).ok()
}

/// `cudaGraphExecNodeSetParams`.
pub fn exec_node_set_params(
    exec: CUgraphExec,
    node: CUgraphNode,
    params: *mut cudaGraphNodeParams,
) -> Result<(), cudaError_t> {
    let p = In(params as *const cudaGraphNodeParams).read()?;
    let mut d = node_params_to_driver(&p, current_ctx()?, &array_element_bytes)?;
    drv()?.cuGraphExecNodeSetParams(exec, node, &mut d).ok()
}

/// `cudaGraphConditionalHandleCreate`: the handle belongs to the current
/// context.
pub fn conditional_handle_create(
    out: Out<u64>,
    graph: CUgraph,
    default_value: c_uint,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    drv()?
        .cuGraphConditionalHandleCreate(out.as_ptr(), graph, current_ctx()?, default_value, flags)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{
        cudaConditionalNodeParams, cudaExternalSemaphoreSignalNodeParams,
        cudaExternalSemaphoreWaitNodeParams, cudaGraphEdgeData, cudaGraphExecUpdateResultInfo,
        cudaGraphInstantiateParams, cudaHostNodeParams, cudaKernelNodeParams,
        cudaKernelNodeParamsV2, cudaMemAllocNodeParams, cudaMemcpyNodeParams, cudaMemsetParams,
        cudaMemsetParamsV2,
    };
    use crate::driver::{CUarray, CUDA_KERNEL_NODE_PARAMS};
    use std::ffi::c_void;
    use std::mem::{offset_of, size_of};

    fn no_arrays(_: CUarray) -> Result<usize, cudaError_t> {
        panic!("no array in this copy")
    }

    /// The runtime structs passed to the driver by pointer: their sizes and
    /// offsets are the driver's (cuda.h numbers on the right).
    #[test]
    fn pass_through_structs_are_the_drivers() {
        // CUDA_MEMSET_NODE_PARAMS: dst, pitch, value, elementSize, width, height.
        assert_eq!(size_of::<cudaMemsetParams>(), 40);
        assert_eq!(offset_of!(cudaMemsetParams, value), 16);
        assert_eq!(offset_of!(cudaMemsetParams, elementSize), 20);
        assert_eq!(offset_of!(cudaMemsetParams, width), 24);
        assert_eq!(offset_of!(cudaMemsetParams, height), 32);
        // The V2 runtime member is the driver's v2 (13.5 names its context).
        assert_eq!(size_of::<cudaMemsetParamsV2>(), 48);
        assert_eq!(
            offset_of!(cudaMemsetParamsV2, height),
            offset_of!(CUDA_MEMSET_NODE_PARAMS_v2, height)
        );
        assert_eq!(
            offset_of!(cudaMemsetParamsV2, ctx),
            offset_of!(CUDA_MEMSET_NODE_PARAMS_v2, ctx)
        );
        // CUDA_HOST_NODE_PARAMS: fn, userData.
        assert_eq!(size_of::<cudaHostNodeParams>(), 16);
        assert_eq!(offset_of!(cudaHostNodeParams, userData), 8);
        // CUDA_MEM_ALLOC_NODE_PARAMS: poolProps (CUmemPoolProps, 88),
        // accessDescs, accessDescCount, bytesize, dptr.
        assert_eq!(size_of::<cudaMemAllocNodeParams>(), 120);
        assert_eq!(size_of::<crate::abi::cudaMemPoolProps>(), 88);
        assert_eq!(offset_of!(cudaMemAllocNodeParams, accessDescs), 88);
        assert_eq!(offset_of!(cudaMemAllocNodeParams, dptr), 112);
        // CUDA_EXT_SEM_{SIGNAL,WAIT}_NODE_PARAMS: array, params (144 bytes
        // each, as CUDA_EXTERNAL_SEMAPHORE_*_PARAMS), count.
        assert_eq!(size_of::<cudaExternalSemaphoreSignalNodeParams>(), 24);
        assert_eq!(size_of::<cudaExternalSemaphoreWaitNodeParams>(), 24);
        assert_eq!(
            size_of::<crate::abi::cudaExternalSemaphoreSignalParams>(),
            144
        );
        assert_eq!(
            size_of::<crate::abi::cudaExternalSemaphoreWaitParams>(),
            144
        );
        // CUgraphEdgeData, CUDA_GRAPH_INSTANTIATE_PARAMS, CUgraphExecUpdateResultInfo,
        // CUkernelNodeAttrValue.
        assert_eq!(size_of::<cudaGraphEdgeData>(), 8);
        assert_eq!(size_of::<cudaGraphInstantiateParams>(), 32);
        assert_eq!(offset_of!(cudaGraphInstantiateParams, result_out), 24);
        assert_eq!(size_of::<cudaGraphExecUpdateResultInfo>(), 24);
        assert_eq!(size_of::<crate::abi::cudaLaunchAttributeValue>(), 64);
        // The generic parameters: the same outer layout.
        assert_eq!(
            size_of::<cudaGraphNodeParams>(),
            size_of::<CUgraphNodeParams>()
        );
        assert_eq!(
            offset_of!(cudaGraphNodeParams, u),
            offset_of!(CUgraphNodeParams, u)
        );
        assert_eq!(
            offset_of!(cudaGraphNodeParams, reserved2),
            offset_of!(CUgraphNodeParams, reserved2)
        );
        // The converted members: 13.0's runtime structs lack the driver's
        // context; 13.5 names one (an execution context), for the kernel
        // where the driver has its `kern`, so it is converted too.
        assert_eq!(size_of::<cudaKernelNodeParams>(), 56);
        assert_eq!(size_of::<cudaKernelNodeParamsV2>(), 72);
        assert_eq!(offset_of!(cudaKernelNodeParamsV2, ctx), 56);
        assert_eq!(
            offset_of!(cudaKernelNodeParams, kernelParams),
            offset_of!(CUDA_KERNEL_NODE_PARAMS, kernelParams)
        );
        assert_eq!(size_of::<cudaConditionalNodeParams>(), 32);
        assert_eq!(
            offset_of!(cudaConditionalNodeParams, ctx),
            offset_of!(CUDA_CONDITIONAL_NODE_PARAMS, ctx)
        );
        assert_eq!(size_of::<cudaMemcpyNodeParams>(), 16 + 160);
    }

    #[test]
    fn generic_params_gain_the_context_and_keep_the_rest() {
        let ctx = CUcontext::from(0xC0C0usize as *mut c_void);
        let mut p = cudaGraphNodeParams {
            type_: cudaGraphNodeType::cudaGraphNodeTypeMemset,
            ..Default::default()
        };
        p.u.memset = cudaMemsetParamsV2 {
            dst: 0x7000 as *mut c_void,
            pitch: 64,
            value: 0xab,
            elementSize: 4,
            width: 16,
            height: 2,
            ..Default::default()
        };
        let d = node_params_to_driver(&p, ctx, &no_arrays).unwrap();
        assert_eq!(d.type_, 2);
        // SAFETY: written as `memset` by the conversion.
        let m = unsafe { d.u.memset };
        assert_eq!(
            (m.dst, m.pitch, m.value, m.elementSize),
            (0x7000, 64, 0xab, 4)
        );
        assert_eq!((m.width, m.height, m.ctx), (16, 2, ctx));

        let mut c = cudaGraphNodeParams {
            type_: cudaGraphNodeType::cudaGraphNodeTypeConditional,
            ..Default::default()
        };
        c.u.conditional = cudaConditionalNodeParams {
            handle: 77,
            type_: crate::abi::cudaGraphConditionalNodeType::cudaGraphCondTypeWhile,
            size: 1,
            phGraph_out: std::ptr::null_mut(),
            ..Default::default()
        };
        let mut d = node_params_to_driver(&c, ctx, &no_arrays).unwrap();
        // SAFETY: written as `conditional` by the conversion.
        let dc = unsafe { d.u.conditional };
        assert_eq!((dc.handle, dc.type_, dc.size, dc.ctx), (77, 1, 1, ctx));
        // The driver hands out the bodies; they come back to the caller.
        let mut bodies = [std::ptr::null_mut::<c_void>(); 1];
        d.u.conditional = CUDA_CONDITIONAL_NODE_PARAMS {
            phGraph_out: bodies.as_mut_ptr().cast(),
            ..dc
        };
        node_params_back(&mut c, &d);
        // SAFETY: the runtime union holds `conditional`.
        assert_eq!(unsafe { c.u.conditional.phGraph_out }, bodies.as_mut_ptr());

        // Event, host, child graph, allocation nodes: the words as they are.
        let mut e = cudaGraphNodeParams {
            type_: cudaGraphNodeType::cudaGraphNodeTypeEventRecord,
            ..Default::default()
        };
        e.u.eventRecord = crate::abi::cudaEventRecordNodeParams {
            event: 0x5555 as *mut c_void,
            ..Default::default()
        };
        let d = node_params_to_driver(&e, ctx, &no_arrays).unwrap();
        // SAFETY: `raw` spans the union.
        assert_eq!(unsafe { d.u.raw[0] }, 0x5555);
    }
}
