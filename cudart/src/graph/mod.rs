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
//!
//! This file holds the handle checks and records shared by every graph
//! call; the nodes and the executable graphs are in the files named after
//! them: [`kernel`] (kernel nodes), [`memcpy`] (memcpy and memset nodes;
//! their copies are described in [`crate::copy::nodes`]), [`params`] (the
//! generic node parameters), [`exec`] (instantiation, update, launch).

pub mod exec;
pub mod kernel;
pub mod memcpy;
pub mod params;

use crate::abi::{cudaError_t, cudaGraphEdgeData, cudaGraph_t};
use crate::boundary::In;
use crate::context;
use crate::driver::graph::GraphApi;
use crate::driver::{self, CUcontext, CUgraph, CUgraphNode, CUresult};
use crate::handles::{self, Kind};
use std::ffi::c_int;

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
pub fn node(n: impl Into<CUgraphNode>) -> Result<CUgraphNode, cudaError_t> {
    let n = n.into();
    handles::check_or(n.as_raw(), Kind::Node, cudaError_t::cudaErrorInvalidValue)?;
    Ok(n)
}

/// A graph, node, executable graph or user object handed to a graph call:
/// one the runtime never saw must be readable memory (the driver reads the
/// object behind it; `0xdeadbeef` killed both runtimes in the bad-input
/// matrix on the H200), else `cudaErrorInvalidValue`. Destroyed handles go
/// on to the driver, which answers them. The handle comes back as the
/// type the call takes (the runtime's handle is the driver's).
#[inline]
pub fn h<P: handles::Address, T: From<P>>(handle: P) -> Result<T, cudaError_t> {
    handles::readable_or(handle.address(), cudaError_t::cudaErrorInvalidValue)?;
    Ok(T::from(handle))
}

/// A node the driver just made and wrote through `out`: its address is no
/// longer one the runtime saw destroyed.
pub fn added(out: *mut CUgraphNode, r: CUresult) -> Result<(), cudaError_t> {
    r.ok()?;
    if !out.is_null() {
        handles::forget(In(out.cast_const()).read()?.as_raw());
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
        handles::forget(In(nodes.wrapping_add(i)).read()?.as_raw());
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
    graph: CUgraph,
    from: *mut CUgraphNode,
    to: *mut CUgraphNode,
    data: *mut cudaGraphEdgeData,
    count: *mut usize,
) -> Result<(), cudaError_t> {
    let room = if count.is_null() {
        0
    } else {
        In(count.cast_const()).read()?
    };
    drv()?.cuGraphGetEdges(graph, from, to, data, count).ok()?;
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
    drv()?.cuGraphDestroy(CUgraph::from(graph)).ok()?;
    handles::forget(graph.cast());
    Ok(())
}

/// `cudaGraphDestroyNode`: the node is recorded as gone.
pub fn destroy_node(n: CUgraphNode) -> Result<(), cudaError_t> {
    let (drv, node) = (drv()?, node(n)?);
    handles::destroy(n.as_raw(), Kind::Node, || drv.cuGraphDestroyNode(node).ok())
}

/// The context graph nodes are created in: the calling thread's.
fn current_ctx() -> Result<CUcontext, cudaError_t> {
    context::ensure()
}

// ---------------------------------------------------------------------------
// Graph memory and user objects

/// The driver device for a runtime device ordinal.
pub fn device(dev: c_int) -> Result<driver::CUdevice, cudaError_t> {
    context::check_device(dev)
}
