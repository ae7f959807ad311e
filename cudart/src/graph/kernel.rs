//! Kernel nodes: `func` is a host stub or a `cudaKernel_t`; it becomes the
//! `CUkernel` of `CUDA_KERNEL_NODE_PARAMS_v2` (`kern`, with `func` null and
//! the current context). Reading the parameters back gives the host stub
//! again when this runtime resolved it (an explicitly added node), else
//! the driver's handle.

use super::{added, current_ctx, drv};
use crate::abi::{cudaError_t, cudaGraphNode_t, cudaKernelNodeParams, dim3};
use crate::boundary::{In, Out};
use crate::driver::{
    CUcontext, CUfunction, CUgraph, CUgraphExec, CUgraphNode, CUkernel, CUDA_KERNEL_NODE_PARAMS,
};
use crate::handles::{self, Kind};
use crate::registry;
use std::ffi::c_void;

/// The driver kernel for a node's `func` (a host stub or a `cudaKernel_t`).
fn kernel_of(func: *const c_void) -> Result<CUkernel, cudaError_t> {
    registry::launch_handle(func)
}

/// The host stub behind the function or kernel a node names, if this
/// runtime resolved it from one that is still registered; else the
/// driver's handle itself.
fn stub_of(f: CUfunction) -> *mut c_void {
    registry::stub_for_kernel(f).unwrap_or(f.as_raw())
}

/// The driver's kernel node parameters for the runtime's fields.
#[allow(clippy::too_many_arguments)]
pub(crate) fn kernel_to_driver(
    func: *const c_void,
    grid: dim3,
    block: dim3,
    shared: u32,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
    ctx: CUcontext,
) -> Result<CUDA_KERNEL_NODE_PARAMS, cudaError_t> {
    Ok(CUDA_KERNEL_NODE_PARAMS {
        func: CUfunction::null(),
        gridDimX: grid.x,
        gridDimY: grid.y,
        gridDimZ: grid.z,
        blockDimX: block.x,
        blockDimY: block.y,
        blockDimZ: block.z,
        sharedMemBytes: shared,
        kernelParams: params,
        extra,
        kern: kernel_of(func)?,
        ctx,
    })
}

fn kernel_node_params(
    p: &cudaKernelNodeParams,
    ctx: CUcontext,
) -> Result<CUDA_KERNEL_NODE_PARAMS, cudaError_t> {
    kernel_to_driver(
        p.func,
        p.gridDim,
        p.blockDim,
        p.sharedMemBytes,
        p.kernelParams,
        p.extra,
        ctx,
    )
}

/// The runtime's view of a kernel node the driver describes.
fn kernel_from_driver(d: &CUDA_KERNEL_NODE_PARAMS) -> cudaKernelNodeParams {
    let named = if d.kern.is_null() {
        d.func
    } else {
        CUfunction::of_kernel(d.kern)
    };
    cudaKernelNodeParams {
        func: stub_of(named),
        gridDim: dim3::new(d.gridDimX, d.gridDimY, d.gridDimZ),
        blockDim: dim3::new(d.blockDimX, d.blockDimY, d.blockDimZ),
        sharedMemBytes: d.sharedMemBytes,
        kernelParams: d.kernelParams,
        extra: d.extra,
    }
}

/// `cudaGraphAddKernelNode`.
pub fn add_kernel_node(
    node: Out<cudaGraphNode_t>,
    graph: CUgraph,
    deps: *const cudaGraphNode_t,
    n: usize,
    params: In<cudaKernelNodeParams>,
) -> Result<(), cudaError_t> {
    node.check()?;
    let d = kernel_node_params(&params.read()?, current_ctx()?)?;
    let out = node.as_ptr().cast();
    added(
        out,
        drv()?.cuGraphAddKernelNode(out, graph, deps.cast(), n, &d),
    )
}

/// `cudaGraphKernelNodeGetParams`.
pub fn kernel_node_get_params(
    node: CUgraphNode,
    out: Out<cudaKernelNodeParams>,
) -> Result<(), cudaError_t> {
    out.check()?;
    // A destroyed node: NVIDIA's answers cudaErrorInvalidDeviceFunction
    // (the H200, two runs); the driver read it as freed memory and
    // succeeded under ours before it was refused here.
    handles::check_or(
        node.as_raw(),
        Kind::Node,
        cudaError_t::cudaErrorInvalidDeviceFunction,
    )?;
    let mut d = CUDA_KERNEL_NODE_PARAMS::default();
    drv()?.cuGraphKernelNodeGetParams(node, &mut d).ok()?;
    out.write(kernel_from_driver(&d))
}

/// `cudaGraphKernelNodeSetParams`.
pub fn kernel_node_set_params(
    node: CUgraphNode,
    params: In<cudaKernelNodeParams>,
) -> Result<(), cudaError_t> {
    let d = kernel_node_params(&params.read()?, current_ctx()?)?;
    drv()?.cuGraphKernelNodeSetParams(node, &d).ok()
}

/// `cudaGraphExecKernelNodeSetParams`.
pub fn exec_kernel_node_set_params(
    exec: CUgraphExec,
    node: CUgraphNode,
    params: In<cudaKernelNodeParams>,
) -> Result<(), cudaError_t> {
    let d = kernel_node_params(&params.read()?, current_ctx()?)?;
    drv()?.cuGraphExecKernelNodeSetParams(exec, node, &d).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_nodes_name_the_kernel_handle() {
        // A handle that is not a registered stub is a cudaKernel_t: it goes
        // to `kern` as it is, `func` stays null, and reading back gives it.
        // (Readable memory: a handle the runtime never saw must be.)
        static KERNEL: u64 = 0;
        let k = std::ptr::addr_of!(KERNEL) as *mut c_void;
        let d = kernel_to_driver(
            k,
            dim3::new(2, 1, 1),
            dim3::new(64, 1, 1),
            128,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            CUcontext::null(),
        )
        .unwrap();
        assert!(d.func.is_null());
        assert_eq!(d.kern.as_raw(), k);
        assert_eq!((d.gridDimX, d.blockDimX, d.sharedMemBytes), (2, 64, 128));
        let back = kernel_from_driver(&d);
        assert_eq!(back.func, k);
        assert_eq!(back.gridDim, dim3::new(2, 1, 1));
        assert_eq!(
            kernel_to_driver(
                std::ptr::null(),
                dim3::new(1, 1, 1),
                dim3::new(1, 1, 1),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                CUcontext::null()
            )
            .err(),
            Some(cudaError_t::cudaErrorInvalidDeviceFunction)
        );
    }
}
