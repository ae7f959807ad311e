//! Graphs: explicit construction, capture results, instantiation, update, upload, launch, debug output.
//!
//! `cudaGraph_t`, `cudaGraphNode_t`, `cudaGraphExec_t` and `cudaUserObject_t`
//! are the driver's `CUgraph`, `CUgraphNode`, `CUgraphExec` and
//! `CUuserObject`, passed through; so a graph captured from a stream is a
//! graph like any other here.
//!
//! Most node parameter structs of the runtime are field for field the
//! driver's and go to the driver by pointer (the tests below hold both
//! layouts side by side): host nodes (`CUDA_HOST_NODE_PARAMS`), memset nodes
//! (`CUDA_MEMSET_NODE_PARAMS`), memory allocation nodes
//! (`CUDA_MEM_ALLOC_NODE_PARAMS`, whose `dptr` the driver fills in), external
//! semaphore nodes, edge data, instantiation parameters and update results,
//! kernel node attributes (`CUlaunchAttributeValue`). What is converted:
//!
//! - kernel nodes: `func` is a host stub or a `cudaKernel_t`; it becomes the
//!   `CUkernel` of `CUDA_KERNEL_NODE_PARAMS_v2` (`kern`, with `func` null and
//!   the current context). Reading the parameters back gives the host stub
//!   again when this runtime resolved it (an explicitly added node), else
//!   the driver's handle.
//! - memcpy nodes: `cudaMemcpy3DParms` becomes `CUDA_MEMCPY3D`. The copy kind
//!   picks the memory types (`cudaMemcpyDefault`: unified addressing, the
//!   driver works out each side); positions and widths given in array
//!   elements become bytes. 1D and symbol copies are 3D copies of one row.
//! - the generic `cudaGraphNodeParams`: the same 256-byte outer layout as
//!   `CUgraphNodeParams`; the kernel, memcpy, memset and conditional members
//!   differ (the driver's carry a context) and are converted, the others
//!   are copied as they are.
//!
//! Handles ([`crate::handles`]): graphs the runtime makes are recorded as
//! live (a graph passed as a node is refused: the driver wrote through one
//! and crashed later under our runtime on the H200); a node destroyed
//! through `cudaGraphDestroyNode` is recorded as gone (a second destruction
//! or a query of it crashed the driver). Every node handle the runtime
//! hands out (added nodes, node and edge lists, capture dependencies,
//! clone look-ups) is taken out of the record, so that a node the driver
//! made at a freed node's address (a capture) is not refused.

use crate::abi::{
    cudaError_t, cudaExtent, cudaGraphExecUpdateResultInfo, cudaGraphExec_t,
    cudaGraphInstantiateParams, cudaGraphNodeParams, cudaGraphNodeParams_u, cudaGraphNodeType,
    cudaGraph_t, cudaKernelNodeParams, cudaMemcpy3DParms, cudaMemcpyKind, cudaPitchedPtr, cudaPos,
    cudaStream_t, dim3,
};
use crate::boundary::{In, Out};
use crate::driver::graph::*;
use crate::driver::{self, CUcontext, CUdeviceptr, CUkernel, CUresult};
use crate::handles::{self, Kind};
use crate::launch::driver_stream;
use crate::{context, registry};
use std::ffi::{c_int, c_uint, c_void};

/// The graph table (`per_thread`: the `_ptsz` flavour).
#[inline]
pub fn api(per_thread: bool) -> Result<&'static GraphApi, cudaError_t> {
    driver::family::<GraphApi>(per_thread)
}

/// The default graph table.
#[inline]
pub fn drv() -> Result<&'static GraphApi, cudaError_t> {
    api(false)
}

/// A node argument: one the runtime destroyed, or a live object of another
/// kind the runtime made (a graph), is refused before the driver reads it,
/// with `cudaErrorInvalidValue` (NVIDIA's answer for such nodes where the
/// driver does not crash, on the H200).
#[inline]
pub fn node(n: CUgraphNode) -> Result<CUgraphNode, cudaError_t> {
    handles::check_or(n.cast(), Kind::Node, cudaError_t::cudaErrorInvalidValue)?;
    Ok(n)
}

/// A graph, node, executable graph or user object handed to a graph call:
/// one the runtime never saw must be readable memory (the driver reads the
/// object behind it; `0xdeadbeef` killed both runtimes in the bad-input
/// matrix on the H200), else `cudaErrorInvalidValue`. Destroyed handles go
/// on to the driver, which answers them.
#[inline]
pub fn h<P: handles::Address>(handle: P) -> Result<P, cudaError_t> {
    handles::readable_or(handle.address(), cudaError_t::cudaErrorInvalidValue)?;
    Ok(handle)
}

/// A node the driver just made and wrote through `out`: its address is no
/// longer one the runtime saw destroyed.
pub fn added(out: *mut CUgraphNode, r: CUresult) -> Result<(), cudaError_t> {
    r.ok()?;
    if !out.is_null() {
        handles::forget(In(out.cast_const()).read()?.cast());
    }
    Ok(())
}

/// Nodes the driver just listed: `count` (read after the call, at most
/// `room`, what the caller's array holds) of them at `nodes`.
pub fn listed(
    nodes: *const CUgraphNode,
    count: *const usize,
    room: usize,
) -> Result<(), cudaError_t> {
    if nodes.is_null() || count.is_null() {
        return Ok(());
    }
    for i in 0..In(count).read()?.min(room) {
        handles::forget(In(nodes.wrapping_add(i)).read()?.cast());
    }
    Ok(())
}

/// A list call (`call` writes up to `*count` nodes at `nodes`), with the
/// listed nodes taken out of the record ([`listed`]).
pub fn list(
    nodes: *mut CUgraphNode,
    count: *mut usize,
    call: impl FnOnce() -> Result<CUresult, cudaError_t>,
) -> Result<(), cudaError_t> {
    let room = if count.is_null() {
        0
    } else {
        In(count.cast_const()).read()?
    };
    call()?.ok()?;
    listed(nodes, count, room)
}

/// `cudaGraphGetEdges`: both node lists are taken out of the record.
pub fn get_edges(
    graph: cudaGraph_t,
    from: *mut CUgraphNode,
    to: *mut CUgraphNode,
    data: *mut c_void,
    count: *mut usize,
) -> Result<(), cudaError_t> {
    let room = if count.is_null() {
        0
    } else {
        In(count.cast_const()).read()?
    };
    drv()?
        .cuGraphGetEdges(graph, from, to, data.cast(), count)
        .ok()?;
    listed(from, count, room)?;
    listed(to, count, room)
}

/// `cudaGraphCreate`, `cudaGraphClone`: the new graph is recorded.
pub fn made(out: *mut cudaGraph_t, r: CUresult) -> Result<(), cudaError_t> {
    r.ok()?;
    if !out.is_null() {
        handles::made(In(out.cast_const()).read()?.cast(), Kind::Graph);
    }
    Ok(())
}

/// `cudaGraphDestroy`: the address is forgotten (its nodes went with it).
pub fn destroy(graph: cudaGraph_t) -> Result<(), cudaError_t> {
    drv()?.cuGraphDestroy(graph).ok()?;
    handles::forget(graph.cast());
    Ok(())
}

/// `cudaGraphDestroyNode`: the node is recorded as gone.
pub fn destroy_node(n: CUgraphNode) -> Result<(), cudaError_t> {
    drv()?.cuGraphDestroyNode(node(n)?).ok()?;
    handles::gone(n.cast(), Kind::Node);
    Ok(())
}

/// The context graph nodes are created in: the calling thread's.
fn current_ctx() -> Result<CUcontext, cudaError_t> {
    context::ensure()
}

// ---------------------------------------------------------------------------
// Kernel nodes

/// The driver kernel for a node's `func` (a host stub or a `cudaKernel_t`).
fn kernel_of(func: *const c_void) -> Result<CUkernel, cudaError_t> {
    registry::launch_handle(func)
}

/// The host stub behind a driver kernel handle, if this runtime resolved
/// it from one that is still registered; else the handle itself.
fn stub_of(handle: *mut c_void) -> *mut c_void {
    registry::stub_for_kernel(handle).unwrap_or(handle)
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
) -> Result<CuKernelNodeParams, cudaError_t> {
    Ok(CuKernelNodeParams {
        func: std::ptr::null_mut(),
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
) -> Result<CuKernelNodeParams, cudaError_t> {
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
fn kernel_from_driver(d: &CuKernelNodeParams) -> cudaKernelNodeParams {
    let handle = if d.kern.is_null() { d.func } else { d.kern };
    cudaKernelNodeParams {
        func: stub_of(handle),
        gridDim: dim3::new(d.gridDimX, d.gridDimY, d.gridDimZ),
        blockDim: dim3::new(d.blockDimX, d.blockDimY, d.blockDimZ),
        sharedMemBytes: d.sharedMemBytes,
        kernelParams: d.kernelParams,
        extra: d.extra,
    }
}

/// `cudaGraphAddKernelNode`.
pub fn add_kernel_node(
    node: Out<CUgraphNode>,
    graph: cudaGraph_t,
    deps: *const CUgraphNode,
    n: usize,
    params: In<cudaKernelNodeParams>,
) -> Result<(), cudaError_t> {
    node.check()?;
    let d = kernel_node_params(&params.read()?, current_ctx()?)?;
    added(
        node.as_ptr(),
        drv()?.cuGraphAddKernelNode(node.as_ptr(), graph, deps, n, &d),
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
        node.cast(),
        Kind::Node,
        cudaError_t::cudaErrorInvalidDeviceFunction,
    )?;
    let mut d = CuKernelNodeParams::default();
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
    exec: cudaGraphExec_t,
    node: CUgraphNode,
    params: In<cudaKernelNodeParams>,
) -> Result<(), cudaError_t> {
    let d = kernel_node_params(&params.read()?, current_ctx()?)?;
    drv()?.cuGraphExecKernelNodeSetParams(exec, node, &d).ok()
}

// ---------------------------------------------------------------------------
// Memcpy nodes

/// The driver memory types (source, destination) of a copy kind.
fn kind_types(kind: c_int) -> Result<(c_uint, c_uint), cudaError_t> {
    Ok(match kind {
        0 => (CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_HOST),
        1 => (CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE),
        2 => (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST),
        3 => (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE),
        4 => (CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED),
        _ => return Err(cudaError_t::cudaErrorInvalidMemcpyDirection),
    })
}

/// The copy kind of two driver memory types (arrays are device memory;
/// unified addressing on either side is `cudaMemcpyDefault`).
fn kind_of(src: c_uint, dst: c_uint) -> cudaMemcpyKind {
    let on_device = |t| match t {
        CU_MEMORYTYPE_HOST => Some(false),
        CU_MEMORYTYPE_DEVICE | CU_MEMORYTYPE_ARRAY => Some(true),
        _ => None,
    };
    cudaMemcpyKind(match (on_device(src), on_device(dst)) {
        (Some(false), Some(false)) => 0,
        (Some(false), Some(true)) => 1,
        (Some(true), Some(false)) => 2,
        (Some(true), Some(true)) => 3,
        _ => 4,
    })
}

/// Bytes per channel of a `CUarray_format` (the formats with whole-byte
/// channels; block-compressed and video formats have none).
fn format_channel_bytes(format: c_uint) -> Option<usize> {
    Some(match format {
        0x01 | 0x08 | 0xc0..=0xc2 | 0xc6..=0xc8 => 1,
        0x02 | 0x09 | 0x10 | 0xc3..=0xc5 | 0xc9..=0xcb => 2,
        0x03 | 0x0a | 0x20 => 4,
        _ => return None,
    })
}

/// Bytes per element of a CUDA array (`cudaArray_t` is the driver's `CUarray`).
fn array_element_bytes(array: CUarray) -> Result<usize, cudaError_t> {
    let mut d = CuArray3DDescriptor::default();
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
    format_channel_bytes(d.Format)
        .map(|b| b * d.NumChannels.max(1) as usize)
        .ok_or(cudaError_t::cudaErrorInvalidValue)
}

type ElementBytes<'a> = &'a dyn Fn(CUarray) -> Result<usize, cudaError_t>;

/// `cudaMemcpy3DParms` -> `CUDA_MEMCPY3D`. Positions and the extent are in
/// elements of the array taking part (bytes when none does).
fn memcpy3d_to_driver(
    p: &cudaMemcpy3DParms,
    element_bytes: ElementBytes,
) -> Result<CuMemcpy3D, cudaError_t> {
    let (src_type, dst_type) = kind_types(p.kind.0 as c_int)?;
    let src_array = !p.srcArray.is_null();
    let dst_array = !p.dstArray.is_null();
    if (src_array && !p.srcPtr.ptr.is_null()) || (dst_array && !p.dstPtr.ptr.is_null()) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let src_es = if src_array {
        element_bytes(p.srcArray)?
    } else {
        1
    };
    let dst_es = if dst_array {
        element_bytes(p.dstArray)?
    } else {
        1
    };
    let width_es = if src_array { src_es } else { dst_es };
    let bytes = |n: usize, es: usize| n.checked_mul(es).ok_or(cudaError_t::cudaErrorInvalidValue);
    let mut d = CuMemcpy3D {
        srcXInBytes: bytes(p.srcPos.x, src_es)?,
        srcY: p.srcPos.y,
        srcZ: p.srcPos.z,
        dstXInBytes: bytes(p.dstPos.x, dst_es)?,
        dstY: p.dstPos.y,
        dstZ: p.dstPos.z,
        WidthInBytes: bytes(p.extent.width, width_es)?,
        Height: p.extent.height,
        Depth: p.extent.depth,
        ..Default::default()
    };
    if src_array {
        d.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        d.srcArray = p.srcArray;
    } else {
        d.srcMemoryType = src_type;
        if src_type == CU_MEMORYTYPE_HOST {
            d.srcHost = p.srcPtr.ptr;
        } else {
            d.srcDevice = p.srcPtr.ptr as CUdeviceptr;
        }
        d.srcPitch = p.srcPtr.pitch;
        d.srcHeight = p.srcPtr.ysize;
    }
    if dst_array {
        d.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        d.dstArray = p.dstArray;
    } else {
        d.dstMemoryType = dst_type;
        if dst_type == CU_MEMORYTYPE_HOST {
            d.dstHost = p.dstPtr.ptr;
        } else {
            d.dstDevice = p.dstPtr.ptr as CUdeviceptr;
        }
        d.dstPitch = p.dstPtr.pitch;
        d.dstHeight = p.dstPtr.ysize;
    }
    Ok(d)
}

/// `CUDA_MEMCPY3D` -> `cudaMemcpy3DParms` (the inverse of the above; a
/// pitched pointer's `xsize` is the copy's width in bytes).
fn memcpy3d_from_driver(
    d: &CuMemcpy3D,
    element_bytes: ElementBytes,
) -> Result<cudaMemcpy3DParms, cudaError_t> {
    let src_array = d.srcMemoryType == CU_MEMORYTYPE_ARRAY;
    let dst_array = d.dstMemoryType == CU_MEMORYTYPE_ARRAY;
    let src_es = if src_array {
        element_bytes(d.srcArray)?.max(1)
    } else {
        1
    };
    let dst_es = if dst_array {
        element_bytes(d.dstArray)?.max(1)
    } else {
        1
    };
    let width_es = if src_array { src_es } else { dst_es };
    let side = |ty: c_uint, host: *mut c_void, dev: CUdeviceptr, pitch: usize, height: usize| {
        cudaPitchedPtr {
            ptr: if ty == CU_MEMORYTYPE_HOST {
                host
            } else {
                dev as *mut c_void
            },
            pitch,
            xsize: d.WidthInBytes,
            ysize: height,
        }
    };
    let mut p = cudaMemcpy3DParms {
        srcPos: cudaPos {
            x: d.srcXInBytes / src_es,
            y: d.srcY,
            z: d.srcZ,
        },
        dstPos: cudaPos {
            x: d.dstXInBytes / dst_es,
            y: d.dstY,
            z: d.dstZ,
        },
        extent: cudaExtent {
            width: d.WidthInBytes / width_es,
            height: d.Height,
            depth: d.Depth,
        },
        kind: kind_of(d.srcMemoryType, d.dstMemoryType),
        ..Default::default()
    };
    if src_array {
        p.srcArray = d.srcArray;
    } else {
        p.srcPtr = side(
            d.srcMemoryType,
            d.srcHost as *mut c_void,
            d.srcDevice,
            d.srcPitch,
            d.srcHeight,
        );
    }
    if dst_array {
        p.dstArray = d.dstArray;
    } else {
        p.dstPtr = side(
            d.dstMemoryType,
            d.dstHost,
            d.dstDevice,
            d.dstPitch,
            d.dstHeight,
        );
    }
    Ok(p)
}

/// A one-row copy of `count` bytes (pitches and heights 0, as NVIDIA's
/// runtime leaves them: the driver's dot output shows the same node).
fn memcpy1d(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> Result<CuMemcpy3D, cudaError_t> {
    let p = cudaMemcpy3DParms {
        srcPtr: cudaPitchedPtr {
            ptr: src as *mut c_void,
            ..Default::default()
        },
        dstPtr: cudaPitchedPtr {
            ptr: dst,
            ..Default::default()
        },
        extent: cudaExtent {
            width: count,
            height: 1,
            depth: 1,
        },
        kind: cudaMemcpyKind(u32::try_from(kind).unwrap_or(u32::MAX)),
        ..Default::default()
    };
    memcpy3d_to_driver(&p, &array_element_bytes)
}

/// The device address of `symbol` plus `offset`, checking `count` fits.
fn symbol_range(
    symbol: *const c_void,
    count: usize,
    offset: usize,
) -> Result<*mut c_void, cudaError_t> {
    let (base, size) = registry::symbol(symbol)?;
    match offset.checked_add(count) {
        Some(end) if end <= size => Ok((base + offset as CUdeviceptr) as *mut c_void),
        _ => Err(cudaError_t::cudaErrorInvalidValue),
    }
}

/// A copy to a `__device__`/`__constant__` variable (HostToDevice,
/// DeviceToDevice or Default).
fn to_symbol(
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> Result<CuMemcpy3D, cudaError_t> {
    if !matches!(kind, 1 | 3 | 4) {
        return Err(cudaError_t::cudaErrorInvalidMemcpyDirection);
    }
    memcpy1d(symbol_range(symbol, count, offset)?, src, count, kind)
}

/// A copy from a variable (DeviceToHost, DeviceToDevice or Default).
fn from_symbol(
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> Result<CuMemcpy3D, cudaError_t> {
    if !matches!(kind, 2..=4) {
        return Err(cudaError_t::cudaErrorInvalidMemcpyDirection);
    }
    memcpy1d(dst, symbol_range(symbol, count, offset)?, count, kind)
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
    fn to_driver(&self) -> Result<CuMemcpy3D, cudaError_t> {
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
    node: Out<CUgraphNode>,
    graph: cudaGraph_t,
    deps: *const CUgraphNode,
    n: usize,
    copy: CopyParams,
) -> Result<(), cudaError_t> {
    node.check()?;
    let d = copy.to_driver()?;
    let r = drv()?.cuGraphAddMemcpyNode(node.as_ptr(), graph, deps, n, &d, current_ctx()?);
    added(node.as_ptr(), r)
}

/// `cudaGraphMemcpyNodeSetParams` and its 1D and symbol forms.
pub fn memcpy_node_set_params(n: CUgraphNode, copy: CopyParams) -> Result<(), cudaError_t> {
    let d = copy.to_driver()?;
    drv()?.cuGraphMemcpyNodeSetParams(node(n)?, &d).ok()
}

/// `cudaGraphExecMemcpyNodeSetParams` and its 1D and symbol forms.
pub fn exec_memcpy_node_set_params(
    exec: cudaGraphExec_t,
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
    let mut d = CuMemcpy3D::default();
    drv()?
        .cuGraphMemcpyNodeGetParams(self::node(node)?, &mut d)
        .ok()?;
    out.write(memcpy3d_from_driver(&d, &array_element_bytes)?)
}

// ---------------------------------------------------------------------------
// Memset nodes: `cudaMemsetParams` is `CUDA_MEMSET_NODE_PARAMS`.

/// `cudaGraphAddMemsetNode`.
pub fn add_memset_node(
    node: Out<CUgraphNode>,
    graph: cudaGraph_t,
    deps: *const CUgraphNode,
    n: usize,
    params: *const crate::abi::cudaMemsetParams,
) -> Result<(), cudaError_t> {
    node.check()?;
    let r =
        drv()?.cuGraphAddMemsetNode(node.as_ptr(), graph, deps, n, params.cast(), current_ctx()?);
    added(node.as_ptr(), r)
}

// ---------------------------------------------------------------------------
// The generic node parameters (`cudaGraphAddNode`, `cudaGraphNodeSetParams`,
// `cudaGraphExecNodeSetParams`).

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
) -> Result<CuGraphNodeParams, cudaError_t> {
    let mut d = CuGraphNodeParams {
        type_: p.type_.0,
        reserved0: p.reserved0,
        u: CuGraphNodeParamsU { raw: [0; 29] },
        reserved2: p.reserved2,
    };
    match runtime_member(p) {
        RuntimeMember::Kernel(k) => d.u.kernel = crate::since135::kernel_member(&k, ctx)?,
        RuntimeMember::Memcpy(m) => {
            d.u.memcpy = CuMemcpyNodeParams {
                flags: m.flags,
                reserved: 0,
                copyCtx: crate::resource::node_ctx(m.ctx, ctx),
                copyParams: memcpy3d_to_driver(&m.copyParams, element_bytes)?,
            }
        }
        RuntimeMember::Memset(m) => {
            d.u.memset = CuMemsetNodeParamsV2 {
                dst: m.dst as CUdeviceptr,
                pitch: m.pitch,
                value: m.value,
                elementSize: m.elementSize,
                width: m.width,
                height: m.height,
                ctx: crate::resource::node_ctx(m.ctx, ctx),
            }
        }
        RuntimeMember::Conditional(c) => {
            d.u.conditional = CuConditionalNodeParams {
                handle: c.handle,
                type_: c.type_.0,
                size: c.size,
                phGraph_out: c.phGraph_out,
                ctx: crate::resource::node_ctx(c.ctx, ctx),
            }
        }
        RuntimeMember::Same(words) => d.u.raw = words,
    }
    Ok(d)
}

/// Copies what the driver wrote into its parameters back to the runtime's:
/// the bodies of a conditional node, the address of a memory allocation.
fn node_params_back(p: &mut cudaGraphNodeParams, d: &CuGraphNodeParams) {
    match p.type_ {
        cudaGraphNodeType::cudaGraphNodeTypeConditional => {
            if let RuntimeMember::Conditional(mut c) = runtime_member(p) {
                // SAFETY: the driver's union was written as `conditional`
                // (see `node_params_to_driver`); it holds integers and raw
                // pointers only.
                c.phGraph_out = unsafe { d.u.conditional.phGraph_out };
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
    node: Out<CUgraphNode>,
    graph: cudaGraph_t,
    deps: *const CUgraphNode,
    data: *const c_void,
    n: usize,
    params: *mut cudaGraphNodeParams,
) -> Result<(), cudaError_t> {
    node.check()?;
    let mut p = In(params as *const cudaGraphNodeParams).read()?;
    let mut d = node_params_to_driver(&p, current_ctx()?, &array_element_bytes)?;
    let r = drv()?.cuGraphAddNode(node.as_ptr(), graph, deps, data, n, &mut d);
    added(node.as_ptr(), r)?;
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
    exec: cudaGraphExec_t,
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
    graph: cudaGraph_t,
    default_value: c_uint,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    drv()?
        .cuGraphConditionalHandleCreate(out.as_ptr(), graph, current_ctx()?, default_value, flags)
        .ok()
}

// ---------------------------------------------------------------------------
// Instantiation, update, launch

/// `cudaGraphInstantiate` / `cudaGraphInstantiateWithFlags`: the runtime's
/// instantiation flags are the driver's.
pub fn instantiate(
    out: Out<cudaGraphExec_t>,
    graph: cudaGraph_t,
    flags: u64,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut exec: CUgraphExec = std::ptr::null_mut();
    drv()?
        .cuGraphInstantiateWithFlags(&mut exec, graph, flags)
        .ok()?;
    out.write(exec)
}

/// `cudaGraphInstantiateWithParams` (and `_ptsz`): the parameters are the
/// driver's `CUDA_GRAPH_INSTANTIATE_PARAMS`; the upload stream follows the
/// export's default-stream flavour. `errNode_out` and `result_out` are
/// written back on failure too.
pub fn instantiate_with_params(
    out: Out<cudaGraphExec_t>,
    graph: cudaGraph_t,
    params: *mut cudaGraphInstantiateParams,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut p = In(params as *const cudaGraphInstantiateParams).read()?;
    let stream = p.uploadStream;
    p.uploadStream = driver_stream(stream, per_thread)?;
    let mut exec: CUgraphExec = std::ptr::null_mut();
    let r = api(per_thread)?.cuGraphInstantiateWithParams(
        &mut exec,
        graph,
        (&mut p as *mut cudaGraphInstantiateParams).cast(),
    );
    p.uploadStream = stream;
    Out(params).write(p)?;
    r.ok()?;
    out.write(exec)
}

/// `cudaGraphExecUpdate`: `cudaGraphExecUpdateResultInfo` is the driver's
/// `CUgraphExecUpdateResultInfo`, result numbers included.
pub fn exec_update(
    exec: cudaGraphExec_t,
    graph: cudaGraph_t,
    info: *mut cudaGraphExecUpdateResultInfo,
) -> Result<(), cudaError_t> {
    drv()?.cuGraphExecUpdate(exec, graph, info.cast()).ok()
}

/// `cudaGraphLaunch` (and `_ptsz`).
pub fn launch(
    exec: cudaGraphExec_t,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuGraphLaunch(exec, driver_stream(stream, per_thread)?)
        .ok()
}

/// `cudaGraphUpload` (and `_ptsz`).
pub fn upload(
    exec: cudaGraphExec_t,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuGraphUpload(exec, driver_stream(stream, per_thread)?)
        .ok()
}

/// `cudaGraphDebugDotPrint`: the runtime's flags are the driver's bits;
/// the output names the runtime's types (the driver's `RUNTIME_TYPES` bit,
/// which the runtime's flags leave free).
pub fn debug_dot_print(
    graph: cudaGraph_t,
    path: crate::boundary::CStrArg,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    let path = path.get()?;
    drv()?
        .cuGraphDebugDotPrint(
            graph,
            path.as_ptr(),
            flags | CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES,
        )
        .ok()
}

// ---------------------------------------------------------------------------
// Graph memory and user objects

/// The driver device for a runtime device ordinal.
pub fn device(dev: c_int) -> Result<driver::CUdevice, cudaError_t> {
    context::check_device(dev)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{
        cudaConditionalNodeParams, cudaExternalSemaphoreSignalNodeParams,
        cudaExternalSemaphoreWaitNodeParams, cudaGraphEdgeData, cudaHostNodeParams,
        cudaKernelNodeParamsV2, cudaMemAllocNodeParams, cudaMemcpyNodeParams, cudaMemsetParams,
        cudaMemsetParamsV2,
    };
    use std::mem::{offset_of, size_of};

    // Sizes and offsets of the driver's structs, from CUDA 13.0's cuda.h
    // (measured with a C++ probe: sizeof/offsetof).
    #[test]
    fn driver_structs_have_cuda_h_layouts() {
        assert_eq!(size_of::<CuKernelNodeParams>(), 72);
        assert_eq!(offset_of!(CuKernelNodeParams, sharedMemBytes), 32);
        assert_eq!(offset_of!(CuKernelNodeParams, kernelParams), 40);
        assert_eq!(offset_of!(CuKernelNodeParams, extra), 48);
        assert_eq!(offset_of!(CuKernelNodeParams, kern), 56);
        assert_eq!(offset_of!(CuKernelNodeParams, ctx), 64);
        assert_eq!(size_of::<CuMemcpy3D>(), 200);
        assert_eq!(offset_of!(CuMemcpy3D, srcMemoryType), 32);
        assert_eq!(offset_of!(CuMemcpy3D, srcHost), 40);
        assert_eq!(offset_of!(CuMemcpy3D, srcHeight), 80);
        assert_eq!(offset_of!(CuMemcpy3D, dstXInBytes), 88);
        assert_eq!(offset_of!(CuMemcpy3D, dstMemoryType), 120);
        assert_eq!(offset_of!(CuMemcpy3D, dstHeight), 168);
        assert_eq!(offset_of!(CuMemcpy3D, WidthInBytes), 176);
        assert_eq!(offset_of!(CuMemcpy3D, Depth), 192);
        assert_eq!(size_of::<CuMemcpyNodeParams>(), 216);
        assert_eq!(offset_of!(CuMemcpyNodeParams, copyCtx), 8);
        assert_eq!(offset_of!(CuMemcpyNodeParams, copyParams), 16);
        assert_eq!(size_of::<CuMemsetNodeParamsV2>(), 48);
        assert_eq!(offset_of!(CuMemsetNodeParamsV2, height), 32);
        assert_eq!(offset_of!(CuMemsetNodeParamsV2, ctx), 40);
        assert_eq!(size_of::<CuConditionalNodeParams>(), 32);
        assert_eq!(offset_of!(CuConditionalNodeParams, type_), 8);
        assert_eq!(offset_of!(CuConditionalNodeParams, size), 12);
        assert_eq!(offset_of!(CuConditionalNodeParams, phGraph_out), 16);
        assert_eq!(offset_of!(CuConditionalNodeParams, ctx), 24);
        assert_eq!(size_of::<CuGraphNodeParamsU>(), 232);
        assert_eq!(size_of::<CuGraphNodeParams>(), 256);
        assert_eq!(offset_of!(CuGraphNodeParams, u), 16);
        assert_eq!(offset_of!(CuGraphNodeParams, reserved2), 248);
        assert_eq!(size_of::<CuArray3DDescriptor>(), 40);
        assert_eq!(offset_of!(CuArray3DDescriptor, Format), 24);
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
            offset_of!(CuMemsetNodeParamsV2, height)
        );
        assert_eq!(
            offset_of!(cudaMemsetParamsV2, ctx),
            offset_of!(CuMemsetNodeParamsV2, ctx)
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
            size_of::<CuGraphNodeParams>()
        );
        assert_eq!(
            offset_of!(cudaGraphNodeParams, u),
            offset_of!(CuGraphNodeParams, u)
        );
        assert_eq!(
            offset_of!(cudaGraphNodeParams, reserved2),
            offset_of!(CuGraphNodeParams, reserved2)
        );
        // The converted members: 13.0's runtime structs lack the driver's
        // context; 13.5 names one (an execution context), for the kernel
        // where the driver has its `kern`, so it is converted too.
        assert_eq!(size_of::<cudaKernelNodeParams>(), 56);
        assert_eq!(size_of::<cudaKernelNodeParamsV2>(), 72);
        assert_eq!(offset_of!(cudaKernelNodeParamsV2, ctx), 56);
        assert_eq!(
            offset_of!(cudaKernelNodeParams, kernelParams),
            offset_of!(CuKernelNodeParams, kernelParams)
        );
        assert_eq!(size_of::<cudaConditionalNodeParams>(), 32);
        assert_eq!(
            offset_of!(cudaConditionalNodeParams, ctx),
            offset_of!(CuConditionalNodeParams, ctx)
        );
        assert_eq!(size_of::<cudaMemcpyNodeParams>(), 16 + 160);
    }

    fn no_arrays(_: CUarray) -> Result<usize, cudaError_t> {
        panic!("no array in this copy")
    }

    fn pitched(ptr: usize, pitch: usize, xsize: usize, ysize: usize) -> cudaPitchedPtr {
        cudaPitchedPtr {
            ptr: ptr as *mut c_void,
            pitch,
            xsize,
            ysize,
        }
    }

    #[test]
    fn copy_kinds_pick_memory_types() {
        for (kind, src, dst) in [
            (0, CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_HOST),
            (1, CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE),
            (2, CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST),
            (3, CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE),
            (4, CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED),
        ] {
            let p = cudaMemcpy3DParms {
                srcPtr: pitched(0x1000, 256, 200, 4),
                dstPtr: pitched(0x9000, 512, 200, 8),
                srcPos: cudaPos { x: 3, y: 1, z: 0 },
                dstPos: cudaPos { x: 5, y: 2, z: 1 },
                extent: cudaExtent {
                    width: 100,
                    height: 3,
                    depth: 2,
                },
                kind: cudaMemcpyKind(kind),
                ..Default::default()
            };
            let d = memcpy3d_to_driver(&p, &no_arrays).unwrap();
            assert_eq!(
                (d.srcMemoryType, d.dstMemoryType),
                (src, dst),
                "kind {kind}"
            );
            let s = if src == CU_MEMORYTYPE_HOST {
                d.srcHost as usize
            } else {
                d.srcDevice as usize
            };
            let t = if dst == CU_MEMORYTYPE_HOST {
                d.dstHost as usize
            } else {
                d.dstDevice as usize
            };
            assert_eq!((s, t), (0x1000, 0x9000));
            assert_eq!(
                (d.srcPitch, d.srcHeight, d.dstPitch, d.dstHeight),
                (256, 4, 512, 8)
            );
            assert_eq!(
                (d.srcXInBytes, d.srcY, d.dstXInBytes, d.dstY, d.dstZ),
                (3, 1, 5, 2, 1)
            );
            assert_eq!((d.WidthInBytes, d.Height, d.Depth), (100, 3, 2));
            // And back: the same copy, kind included.
            let back = memcpy3d_from_driver(&d, &no_arrays).unwrap();
            assert_eq!(back.kind.0, kind);
            assert_eq!(back.srcPtr.ptr as usize, 0x1000);
            assert_eq!(back.dstPtr.ptr as usize, 0x9000);
            assert_eq!((back.srcPtr.pitch, back.srcPtr.ysize), (256, 4));
            assert_eq!(back.srcPos, p.srcPos);
            assert_eq!(back.dstPos, p.dstPos);
            assert_eq!(back.extent, p.extent);
        }
        let bad = cudaMemcpy3DParms {
            kind: cudaMemcpyKind(5),
            ..Default::default()
        };
        assert_eq!(
            memcpy3d_to_driver(&bad, &no_arrays).err(),
            Some(cudaError_t::cudaErrorInvalidMemcpyDirection)
        );
    }

    #[test]
    fn array_positions_and_extent_are_in_elements() {
        let arr = 0x4444usize as CUarray;
        let sixteen = |a: CUarray| {
            assert_eq!(a, arr);
            Ok(16)
        };
        let p = cudaMemcpy3DParms {
            srcArray: arr,
            srcPos: cudaPos { x: 2, y: 1, z: 0 },
            dstPtr: pitched(0x8000, 1024, 64, 4),
            extent: cudaExtent {
                width: 4,
                height: 2,
                depth: 1,
            },
            kind: cudaMemcpyKind(2),
            ..Default::default()
        };
        let d = memcpy3d_to_driver(&p, &sixteen).unwrap();
        assert_eq!(d.srcMemoryType, CU_MEMORYTYPE_ARRAY);
        assert_eq!(d.srcArray, arr);
        assert_eq!((d.srcXInBytes, d.WidthInBytes), (32, 64));
        assert_eq!(d.dstMemoryType, CU_MEMORYTYPE_HOST);
        let back = memcpy3d_from_driver(&d, &sixteen).unwrap();
        assert_eq!(back.srcArray, arr);
        assert_eq!((back.srcPos.x, back.extent.width), (2, 4));
        assert_eq!(back.kind.0, 2);
        // Both an array and a pointer on one side is refused.
        let both = cudaMemcpy3DParms {
            srcPtr: pitched(0x10, 1, 1, 1),
            ..p
        };
        assert_eq!(
            memcpy3d_to_driver(&both, &sixteen).err(),
            Some(cudaError_t::cudaErrorInvalidValue)
        );
        assert_eq!(format_channel_bytes(0x20), Some(4));
        assert_eq!(format_channel_bytes(0x10), Some(2));
        assert_eq!(format_channel_bytes(0x91), None);
    }

    #[test]
    fn generic_params_gain_the_context_and_keep_the_rest() {
        let ctx = 0xC0C0usize as CUcontext;
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
        d.u.conditional = CuConditionalNodeParams {
            phGraph_out: bodies.as_mut_ptr(),
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
            std::ptr::null_mut(),
        )
        .unwrap();
        assert!(d.func.is_null());
        assert_eq!(d.kern, k);
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
                std::ptr::null_mut()
            )
            .err(),
            Some(cudaError_t::cudaErrorInvalidDeviceFunction)
        );
    }
}
