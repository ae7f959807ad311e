//! Memcpy and memset nodes. A memcpy node's `cudaMemcpy3DParms` (or its
//! 1D and symbol forms) becomes a `CUDA_MEMCPY3D` ([`crate::copy::nodes`]);
//! `cudaMemsetParams` is the driver's `CUDA_MEMSET_NODE_PARAMS` and goes
//! by pointer.

use super::{added, current_ctx, drv, node};
use crate::abi::{cudaError_t, cudaGraphNode_t, cudaMemcpy3DParms, cudaMemsetParams};
use crate::boundary::{In, Out};
use crate::copy::elements::channel_bytes;
use crate::copy::nodes::{
    from_symbol, memcpy1d, memcpy3d_from_driver, memcpy3d_to_driver, to_symbol,
};
use crate::driver::{
    CUarray, CUgraph, CUgraphExec, CUgraphNode, CUDA_ARRAY3D_DESCRIPTOR, CUDA_MEMCPY3D,
};
use std::ffi::{c_int, c_void};

/// Bytes per element of a CUDA array (`cudaArray_t` is the driver's `CUarray`).
pub(super) fn array_element_bytes(array: CUarray) -> Result<usize, cudaError_t> {
    let mut d = CUDA_ARRAY3D_DESCRIPTOR::default();
    drv()?
        .cuArray3DGetDescriptor(&mut d, array)
        .ok()
        .map_err(|e| {
            if e == cudaError_t::cudaErrorInvalidResourceHandle {
                cudaError_t::cudaErrorInvalidValue
            } else {
                e
            }
        })?;
    channel_bytes(d.Format)
        .map(|b| b * d.NumChannels.max(1) as usize)
        .ok_or(cudaError_t::cudaErrorInvalidValue)
}

/// Where a memcpy node's parameters come from.
pub enum CopyParams {
    Params3D(In<cudaMemcpy3DParms>),
    OneD {
        dst: *mut c_void,
        src: *const c_void,
        count: usize,
        kind: c_int,
    },
    ToSymbol {
        symbol: *const c_void,
        src: *const c_void,
        count: usize,
        offset: usize,
        kind: c_int,
    },
    FromSymbol {
        dst: *mut c_void,
        symbol: *const c_void,
        count: usize,
        offset: usize,
        kind: c_int,
    },
}

impl CopyParams {
    fn to_driver(&self) -> Result<CUDA_MEMCPY3D, cudaError_t> {
        match *self {
            CopyParams::Params3D(p) => memcpy3d_to_driver(&p.read()?, &array_element_bytes),
            CopyParams::OneD {
                dst,
                src,
                count,
                kind,
            } => memcpy1d(dst, src, count, kind),
            CopyParams::ToSymbol {
                symbol,
                src,
                count,
                offset,
                kind,
            } => to_symbol(symbol, src, count, offset, kind),
            CopyParams::FromSymbol {
                dst,
                symbol,
                count,
                offset,
                kind,
            } => from_symbol(dst, symbol, count, offset, kind),
        }
    }
}

/// `cudaGraphAddMemcpyNode` and its 1D and symbol forms.
pub fn add_memcpy_node(
    node: Out<cudaGraphNode_t>,
    graph: CUgraph,
    deps: *const cudaGraphNode_t,
    n: usize,
    copy: CopyParams,
) -> Result<(), cudaError_t> {
    node.check()?;
    let d = copy.to_driver()?;
    let out = node.as_ptr().cast();
    let r = drv()?.cuGraphAddMemcpyNode(out, graph, deps.cast(), n, &d, current_ctx()?);
    added(out, r)
}

/// `cudaGraphMemcpyNodeSetParams` and its 1D and symbol forms.
pub fn memcpy_node_set_params(n: CUgraphNode, copy: CopyParams) -> Result<(), cudaError_t> {
    let d = copy.to_driver()?;
    drv()?.cuGraphMemcpyNodeSetParams(node(n)?, &d).ok()
}

/// `cudaGraphExecMemcpyNodeSetParams` and its 1D and symbol forms.
pub fn exec_memcpy_node_set_params(
    exec: CUgraphExec,
    node: CUgraphNode,
    copy: CopyParams,
) -> Result<(), cudaError_t> {
    let d = copy.to_driver()?;
    drv()?
        .cuGraphExecMemcpyNodeSetParams(exec, node, &d, current_ctx()?)
        .ok()
}

/// `cudaGraphMemcpyNodeGetParams`.
pub fn memcpy_node_get_params(
    node: CUgraphNode,
    out: Out<cudaMemcpy3DParms>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut d = CUDA_MEMCPY3D::default();
    drv()?
        .cuGraphMemcpyNodeGetParams(self::node(node)?, &mut d)
        .ok()?;
    out.write(memcpy3d_from_driver(&d, &array_element_bytes)?)
}

/// `cudaGraphAddMemsetNode`: `cudaMemsetParams` is `CUDA_MEMSET_NODE_PARAMS`.
pub fn add_memset_node(
    node: Out<cudaGraphNode_t>,
    graph: CUgraph,
    deps: *const cudaGraphNode_t,
    n: usize,
    params: *const cudaMemsetParams,
) -> Result<(), cudaError_t> {
    node.check()?;
    let out = node.as_ptr().cast();
    let r = drv()?.cuGraphAddMemsetNode(out, graph, deps.cast(), n, params, current_ctx()?);
    added(out, r)
}
