//! Peer access between devices and peer copies.
//!
//! Peer calls name devices by ordinal; the driver wants their contexts.
//! The runtime's context for a device is the one its calls on that device
//! run on: the context current on this thread for the current device, and
//! the device's primary context (retained by the runtime as `cudaSetDevice`
//! would) for any other.

use crate::abi::{cudaError_t, cudaMemcpy3DPeerParms, cudaStream_t};
use crate::boundary::{In, Out};
use crate::context::{self, check_device};
use crate::copy::{params_3d, regions_3d};
use crate::driver::{self, CUcontext, CUdeviceptr, CUDA_MEMCPY3D, CUDA_MEMCPY3D_PEER};
use crate::launch::driver_stream;
use crate::memory::api;
use std::ffi::{c_int, c_uint, c_void};

/// The context the runtime uses for `dev`.
///
/// For a device other than the current one this binds the device's primary
/// context through [`context::set_device`] (which retains it once for the
/// process, and which `cudaDeviceReset` knows about), reads it, and puts
/// the thread's device and current context back as they were.
pub fn device_context(dev: c_int) -> Result<CUcontext, cudaError_t> {
    check_device(dev)?;
    let current = context::current_device();
    if dev == current {
        return context::ensure();
    }
    let drv = driver::get()?;
    let mut saved = CUcontext::null();
    drv.cuCtxGetCurrent(&mut saved).ok()?;
    let bound = context::set_device(dev);
    let mut ctx = CUcontext::null();
    let read = drv.cuCtxGetCurrent(&mut ctx);
    let back = context::set_device(current);
    let restored = drv.cuCtxSetCurrent(saved);
    bound?;
    read.ok()?;
    back?;
    restored.ok()?;
    Ok(ctx)
}

/// `cudaDeviceCanAccessPeer`: a device does not count as its own peer.
pub fn can_access_peer(out: Out<c_int>, device: c_int, peer: c_int) -> Result<(), cudaError_t> {
    out.check()?;
    check_device(device)?;
    check_device(peer)?;
    if device == peer {
        return out.write(0);
    }
    let mut can: c_int = 0;
    api(false)?
        .cuDeviceCanAccessPeer(&mut can, device, peer)
        .ok()?;
    out.write(can)
}

/// `cudaDeviceEnablePeerAccess`: the current device may access `peer`'s
/// memory from now on. The flags are reserved (0).
pub fn enable_peer_access(peer: c_int, flags: c_uint) -> Result<(), cudaError_t> {
    if flags != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let ctx = device_context(peer)?;
    api(false)?.cuCtxEnablePeerAccess(ctx, 0).ok()
}

/// `cudaDeviceDisablePeerAccess`.
pub fn disable_peer_access(peer: c_int) -> Result<(), cudaError_t> {
    let ctx = device_context(peer)?;
    api(false)?.cuCtxDisablePeerAccess(ctx).ok()
}

/// `cudaMemcpyPeer` / `cudaMemcpyPeerAsync`: `count` bytes between the
/// memory of two devices (the same device is fine).
pub fn memcpy_peer(
    dst: *mut c_void,
    dst_device: c_int,
    src: *const c_void,
    src_device: c_int,
    count: usize,
    stream: Option<cudaStream_t>,
) -> Result<(), cudaError_t> {
    let dst_ctx = device_context(dst_device)?;
    let src_ctx = device_context(src_device)?;
    if count == 0 {
        return Ok(());
    }
    let (d, s) = (dst as CUdeviceptr, src as CUdeviceptr);
    let api = api(false)?;
    match stream {
        None => api.cuMemcpyPeer(d, dst_ctx, s, src_ctx, count).ok(),
        Some(st) => api
            .cuMemcpyPeerAsync(d, dst_ctx, s, src_ctx, count, driver_stream(st, false)?)
            .ok(),
    }
}

/// A 3D copy between two contexts.
fn peer_params(c: CUDA_MEMCPY3D, src_ctx: CUcontext, dst_ctx: CUcontext) -> CUDA_MEMCPY3D_PEER {
    CUDA_MEMCPY3D_PEER {
        srcXInBytes: c.srcXInBytes,
        srcY: c.srcY,
        srcZ: c.srcZ,
        srcLOD: c.srcLOD,
        srcMemoryType: c.srcMemoryType,
        srcHost: c.srcHost,
        srcDevice: c.srcDevice,
        srcArray: c.srcArray,
        srcContext: src_ctx,
        srcPitch: c.srcPitch,
        srcHeight: c.srcHeight,
        dstXInBytes: c.dstXInBytes,
        dstY: c.dstY,
        dstZ: c.dstZ,
        dstLOD: c.dstLOD,
        dstMemoryType: c.dstMemoryType,
        dstHost: c.dstHost,
        dstDevice: c.dstDevice,
        dstArray: c.dstArray,
        dstContext: dst_ctx,
        dstPitch: c.dstPitch,
        dstHeight: c.dstHeight,
        WidthInBytes: c.WidthInBytes,
        Height: c.Height,
        Depth: c.Depth,
    }
}

/// `cudaMemcpy3DPeer` / `cudaMemcpy3DPeerAsync` (and `_ptds`/`_ptsz`).
pub fn memcpy_3d_peer(
    p: In<cudaMemcpy3DPeerParms>,
    stream: Option<cudaStream_t>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let p = p.read()?;
    let (src, dst, width) = regions_3d(
        p.srcArray, p.srcPos, p.srcPtr, p.dstArray, p.dstPos, p.dstPtr, p.extent,
    )?;
    let src_ctx = device_context(p.srcDevice)?;
    let dst_ctx = device_context(p.dstDevice)?;
    let e = p.extent;
    if e.width == 0 || e.height == 0 || e.depth == 0 {
        return Ok(());
    }
    let c = peer_params(
        params_3d(&src, &dst, width, e.height, e.depth),
        src_ctx,
        dst_ctx,
    );
    let api = api(per_thread)?;
    match stream {
        None => api.cuMemcpy3DPeer(&c).ok(),
        Some(s) => api
            .cuMemcpy3DPeerAsync(&c, driver_stream(s, per_thread)?)
            .ok(),
    }
}
