//! Driver entry points for memory beyond the core: 3D copies, arrays and
//! mipmapped arrays, texture and surface objects, memory pools and
//! stream-ordered allocation, managed-memory prefetch and advice, IPC, peer
//! access and peer copies.
//!
//! `driver::family::<MemoryApi>(per_thread)` resolves this table on first
//! use. Every name is resolved by its base name for CUDA 13.0, so
//! `cuMemcpy3D` is `cuMemcpy3D_v2`, `cuArray3DCreate` is `cuArray3DCreate_v2`
//! (size_t extents), `cuMemAdvise` and `cuMemPrefetchAsync` are the `_v2`
//! forms taking a `CUmemLocation`, `cuIpcOpenMemHandle` is `_v2`,
//! `cuMemcpyBatchAsync`/`cuMemcpy3DBatchAsync` are the `_v2` forms without a
//! failure index; the signatures below are those newest forms.
//!
//! Where the runtime's structure has the driver's layout exactly
//! (`cudaMemLocation`, `cudaMemAccessDesc`, `cudaMemPoolProps`,
//! `cudaMemPoolPtrExportData`, `cudaIpcMemHandle_t`, the sparse properties
//! and memory requirements of arrays, `cudaMemcpyAttributes`,
//! `cudaMemcpy3DBatchOp`), the table takes the runtime type as it is
//! (`driver::c_names` gives each its driver name; the ABI test checks the
//! sizes). The structures whose layouts differ are in `driver/types.rs`
//! and converted field by field by the rooms.

#![allow(non_snake_case, non_camel_case_types)]

use super::types::*;
use super::CUresult;
use crate::abi::{
    cudaArrayMemoryRequirements, cudaArraySparseProperties, cudaIpcMemHandle_t, cudaMemAccessDesc,
    cudaMemLocation, cudaMemPoolProps, cudaMemPoolPtrExportData, cudaMemcpy3DBatchOp,
    cudaMemcpyAttributes,
};
use std::ffi::{c_int, c_uint, c_ulonglong, c_void};

driver_api! {
    /// Memory beyond the core table.
    pub struct MemoryApi {
    // Copies and sets.
    cuMemcpy2DUnaligned(copy: *const CUDA_MEMCPY2D);
    cuMemcpy2DAsync(copy: *const CUDA_MEMCPY2D, stream: CUstream);
    cuMemcpy3D(copy: *const CUDA_MEMCPY3D);
    cuMemcpy3DAsync(copy: *const CUDA_MEMCPY3D, stream: CUstream);
    cuMemcpy3DPeer(copy: *const CUDA_MEMCPY3D_PEER);
    cuMemcpy3DPeerAsync(copy: *const CUDA_MEMCPY3D_PEER, stream: CUstream);
    cuMemcpyPeer(dst: CUdeviceptr, dst_ctx: CUcontext, src: CUdeviceptr, src_ctx: CUcontext, bytes: usize);
    cuMemcpyPeerAsync(dst: CUdeviceptr, dst_ctx: CUcontext, src: CUdeviceptr, src_ctx: CUcontext, bytes: usize, stream: CUstream);
    cuMemcpyBatchAsync(dsts: *mut CUdeviceptr, srcs: *mut CUdeviceptr, sizes: *mut usize, count: usize, attrs: *mut cudaMemcpyAttributes, attrs_idxs: *mut usize, num_attrs: usize, stream: CUstream);
    cuMemcpy3DBatchAsync(num_ops: usize, ops: *mut cudaMemcpy3DBatchOp, flags: c_ulonglong, stream: CUstream);
    cuMemsetD2D8(dst: CUdeviceptr, pitch: usize, value: u8, width: usize, height: usize);
    cuMemsetD2D8Async(dst: CUdeviceptr, pitch: usize, value: u8, width: usize, height: usize, stream: CUstream);
    cuMemAllocPitch(dptr: *mut CUdeviceptr, pitch: *mut usize, width: usize, height: usize, elem: c_uint);

    // Arrays and mipmapped arrays.
    cuArray3DCreate(array: *mut CUarray, desc: *const CUDA_ARRAY3D_DESCRIPTOR);
    cuArray3DGetDescriptor(desc: *mut CUDA_ARRAY3D_DESCRIPTOR, array: CUarray);
    cuArrayDestroy(array: CUarray);
    cuArrayGetPlane(plane: *mut CUarray, array: CUarray, idx: c_uint);
    cuArrayGetMemoryRequirements(req: *mut cudaArrayMemoryRequirements, array: CUarray, dev: CUdevice);
    cuArrayGetSparseProperties(props: *mut cudaArraySparseProperties, array: CUarray);
    cuMipmappedArrayCreate(mipmap: *mut CUmipmappedArray, desc: *const CUDA_ARRAY3D_DESCRIPTOR, levels: c_uint);
    cuMipmappedArrayDestroy(mipmap: CUmipmappedArray);
    cuMipmappedArrayGetLevel(level_array: *mut CUarray, mipmap: CUmipmappedArray, level: c_uint);
    cuMipmappedArrayGetMemoryRequirements(req: *mut cudaArrayMemoryRequirements, mipmap: CUmipmappedArray, dev: CUdevice);
    cuMipmappedArrayGetSparseProperties(props: *mut cudaArraySparseProperties, mipmap: CUmipmappedArray);

    // Texture and surface objects.
    cuTexObjectCreate(tex: *mut CUtexObject, res: *const CUDA_RESOURCE_DESC, desc: *const CUDA_TEXTURE_DESC, view: *const CUDA_RESOURCE_VIEW_DESC);
    cuTexObjectDestroy(tex: CUtexObject);
    cuTexObjectGetResourceDesc(res: *mut CUDA_RESOURCE_DESC, tex: CUtexObject);
    cuTexObjectGetTextureDesc(desc: *mut CUDA_TEXTURE_DESC, tex: CUtexObject);
    cuTexObjectGetResourceViewDesc(view: *mut CUDA_RESOURCE_VIEW_DESC, tex: CUtexObject);
    cuSurfObjectCreate(surf: *mut CUsurfObject, res: *const CUDA_RESOURCE_DESC);
    cuSurfObjectDestroy(surf: CUsurfObject);
    cuSurfObjectGetResourceDesc(res: *mut CUDA_RESOURCE_DESC, surf: CUsurfObject);

    // Stream-ordered allocation and memory pools.
    cuMemAllocAsync(dptr: *mut CUdeviceptr, bytes: usize, stream: CUstream);
    cuMemAllocFromPoolAsync(dptr: *mut CUdeviceptr, bytes: usize, pool: CUmemoryPool, stream: CUstream);
    cuMemFreeAsync(dptr: CUdeviceptr, stream: CUstream);
    cuMemPoolCreate(pool: *mut CUmemoryPool, props: *const cudaMemPoolProps);
    cuMemPoolDestroy(pool: CUmemoryPool);
    cuMemPoolTrimTo(pool: CUmemoryPool, keep: usize);
    cuMemPoolSetAttribute(pool: CUmemoryPool, attr: c_int, value: *mut c_void);
    cuMemPoolGetAttribute(pool: CUmemoryPool, attr: c_int, value: *mut c_void);
    cuMemPoolSetAccess(pool: CUmemoryPool, map: *const cudaMemAccessDesc, count: usize);
    cuMemPoolGetAccess(flags: *mut c_int, pool: CUmemoryPool, location: *mut cudaMemLocation);
    cuMemPoolExportToShareableHandle(handle: *mut c_void, pool: CUmemoryPool, handle_type: c_int, flags: c_ulonglong);
    cuMemPoolImportFromShareableHandle(pool: *mut CUmemoryPool, handle: *mut c_void, handle_type: c_int, flags: c_ulonglong);
    cuMemPoolExportPointer(data: *mut cudaMemPoolPtrExportData, ptr: CUdeviceptr);
    cuMemPoolImportPointer(ptr: *mut CUdeviceptr, pool: CUmemoryPool, data: *mut cudaMemPoolPtrExportData);
    cuDeviceGetDefaultMemPool(pool: *mut CUmemoryPool, dev: CUdevice);
    cuDeviceGetMemPool(pool: *mut CUmemoryPool, dev: CUdevice);
    cuDeviceSetMemPool(dev: CUdevice, pool: CUmemoryPool);
    cuMemGetDefaultMemPool(pool: *mut CUmemoryPool, location: *mut cudaMemLocation, alloc_type: c_int);
    cuMemGetMemPool(pool: *mut CUmemoryPool, location: *mut cudaMemLocation, alloc_type: c_int);
    cuMemSetMemPool(location: *mut cudaMemLocation, alloc_type: c_int, pool: CUmemoryPool);

    // Managed memory.
    cuMemPrefetchAsync(ptr: CUdeviceptr, bytes: usize, location: cudaMemLocation, flags: c_uint, stream: CUstream);
    cuMemPrefetchBatchAsync(dptrs: *mut CUdeviceptr, sizes: *mut usize, count: usize, locs: *mut cudaMemLocation, loc_idxs: *mut usize, num_locs: usize, flags: c_ulonglong, stream: CUstream);
    cuMemDiscardBatchAsync(dptrs: *mut CUdeviceptr, sizes: *mut usize, count: usize, flags: c_ulonglong, stream: CUstream);
    cuMemDiscardAndPrefetchBatchAsync(dptrs: *mut CUdeviceptr, sizes: *mut usize, count: usize, locs: *mut cudaMemLocation, loc_idxs: *mut usize, num_locs: usize, flags: c_ulonglong, stream: CUstream);
    cuMemAdvise(ptr: CUdeviceptr, bytes: usize, advice: c_int, location: cudaMemLocation);
    cuMemRangeGetAttribute(data: *mut c_void, data_size: usize, attr: c_int, ptr: CUdeviceptr, bytes: usize);
    cuMemRangeGetAttributes(data: *mut *mut c_void, data_sizes: *mut usize, attrs: *mut c_int, num_attrs: usize, ptr: CUdeviceptr, bytes: usize);

    // IPC.
    cuIpcGetMemHandle(handle: *mut cudaIpcMemHandle_t, ptr: CUdeviceptr);
    cuIpcOpenMemHandle(ptr: *mut CUdeviceptr, handle: cudaIpcMemHandle_t, flags: c_uint);
    cuIpcCloseMemHandle(ptr: CUdeviceptr);

    // Peer access.
    cuDeviceCanAccessPeer(can: *mut c_int, dev: CUdevice, peer: CUdevice);
    cuCtxEnablePeerAccess(peer: CUcontext, flags: c_uint);
    cuCtxDisablePeerAccess(peer: CUcontext);
    }
}
