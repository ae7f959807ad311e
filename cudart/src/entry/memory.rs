//! Entry points for memory beyond the core: 3D allocation, copies and sets;
//! arrays and mipmapped arrays and the copies that involve them; texture and
//! surface objects and channel descriptors; memory pools and stream-ordered
//! allocation; managed-memory prefetch, discard and advice; IPC memory; peer
//! access and peer copies; batched copies.

#![allow(non_snake_case, clippy::too_many_arguments)]

use super::{LEGACY, PT};
use crate::abi::{
    cudaArrayMemoryRequirements, cudaArraySparseProperties, cudaArray_const_t, cudaArray_t,
    cudaChannelFormatDesc, cudaChannelFormatKind, cudaError_t, cudaExtent, cudaIpcMemHandle_t,
    cudaMemAccessDesc, cudaMemAccessFlags, cudaMemAllocationHandleType, cudaMemAllocationType,
    cudaMemLocation, cudaMemPoolAttr, cudaMemPoolProps, cudaMemPoolPtrExportData, cudaMemPool_t,
    cudaMemRangeAttribute, cudaMemcpy3DBatchOp, cudaMemcpy3DParms, cudaMemcpy3DPeerParms,
    cudaMemcpyAttributes, cudaMemoryAdvise, cudaMipmappedArray_const_t, cudaMipmappedArray_t,
    cudaPitchedPtr, cudaResourceDesc, cudaResourceViewDesc, cudaStream_t, cudaSurfaceObject_t,
    cudaTextureDesc, cudaTextureObject_t,
};
use crate::array::{self, Extent2D, Order};
use crate::boundary::{In, Needs, Out};
use crate::handles::present;
use crate::memory;
use crate::memory::managed::{self, Batch, Targets};
use crate::{ipc, mempool, peer, texture};
use std::ffi::{c_int, c_uint, c_ulonglong, c_void};

/// What a NULL array answers where NVIDIA's runtime checks it as an
/// argument, not as a handle (sparse properties and memory requirements,
/// the destination of an array-to-array copy; the NULL sweep on the H200).
const NULL_ARRAY: cudaError_t = cudaError_t::cudaErrorInvalidValue;

/// Synchronous copies.
const fn sync(per_thread: bool) -> Order {
    Order {
        stream: None,
        per_thread,
    }
}

/// Copies in stream order.
const fn on(stream: cudaStream_t, per_thread: bool) -> Order {
    Order {
        stream: Some(stream),
        per_thread,
    }
}

const fn wh(width: usize, height: usize) -> Extent2D {
    Extent2D { width, height }
}

entry_points! {
    // 3D allocation, copies and sets.
    Context fn cudaMalloc3D(pitchedDevPtr: Out<cudaPitchedPtr>, extent: cudaExtent) -> cudaError_t
        => memory::malloc_3d(pitchedDevPtr, extent);
    Context fn cudaMemcpy3D(p: In<cudaMemcpy3DParms>) -> cudaError_t => memory::memcpy_3d(p, None, LEGACY);
    Context fn cudaMemcpy3D_ptds(p: In<cudaMemcpy3DParms>) -> cudaError_t => memory::memcpy_3d(p, None, PT);
    Context fn cudaMemcpy3DAsync(p: In<cudaMemcpy3DParms>, stream: cudaStream_t) -> cudaError_t
        => memory::memcpy_3d(p, Some(stream), LEGACY);
    Context fn cudaMemcpy3DAsync_ptsz(p: In<cudaMemcpy3DParms>, stream: cudaStream_t) -> cudaError_t
        => memory::memcpy_3d(p, Some(stream), PT);
    Context fn cudaMemset3D(pitchedDevPtr: cudaPitchedPtr, value: c_int, extent: cudaExtent) -> cudaError_t
        => memory::memset_3d(pitchedDevPtr, value, extent, None, LEGACY);
    Context fn cudaMemset3D_ptds(pitchedDevPtr: cudaPitchedPtr, value: c_int, extent: cudaExtent) -> cudaError_t
        => memory::memset_3d(pitchedDevPtr, value, extent, None, PT);
    Context fn cudaMemset3DAsync(pitchedDevPtr: cudaPitchedPtr, value: c_int, extent: cudaExtent,
        stream: cudaStream_t) -> cudaError_t => memory::memset_3d(pitchedDevPtr, value, extent, Some(stream), LEGACY);
    Context fn cudaMemset3DAsync_ptsz(pitchedDevPtr: cudaPitchedPtr, value: c_int, extent: cudaExtent,
        stream: cudaStream_t) -> cudaError_t => memory::memset_3d(pitchedDevPtr, value, extent, Some(stream), PT);
    Context fn cudaMemset2DAsync(devPtr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize,
        stream: cudaStream_t) -> cudaError_t => memory::memset_2d_async(devPtr, pitch, value, width, height, stream, LEGACY);
    Context fn cudaMemset2DAsync_ptsz(devPtr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize,
        stream: cudaStream_t) -> cudaError_t => memory::memset_2d_async(devPtr, pitch, value, width, height, stream, PT);

    // Batched copies.
    Context fn cudaMemcpyBatchAsync(dsts: *const *mut c_void, srcs: *const *const c_void, sizes: *const usize,
        count: usize, attrs: *mut cudaMemcpyAttributes, attrsIdxs: *mut usize, numAttrs: usize,
        stream: cudaStream_t) -> cudaError_t
        => memory::memcpy_batch_async(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream, LEGACY);
    Context fn cudaMemcpyBatchAsync_ptsz(dsts: *const *mut c_void, srcs: *const *const c_void, sizes: *const usize,
        count: usize, attrs: *mut cudaMemcpyAttributes, attrsIdxs: *mut usize, numAttrs: usize,
        stream: cudaStream_t) -> cudaError_t
        => memory::memcpy_batch_async(dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs, stream, PT);
    Context fn cudaMemcpy3DBatchAsync(numOps: usize, opList: *mut cudaMemcpy3DBatchOp, flags: c_ulonglong,
        stream: cudaStream_t) -> cudaError_t => memory::memcpy_3d_batch_async(numOps, opList, flags, stream, LEGACY);
    Context fn cudaMemcpy3DBatchAsync_ptsz(numOps: usize, opList: *mut cudaMemcpy3DBatchOp, flags: c_ulonglong,
        stream: cudaStream_t) -> cudaError_t => memory::memcpy_3d_batch_async(numOps, opList, flags, stream, PT);

    // Managed memory.
    Context fn cudaMemPrefetchAsync(devPtr: *const c_void, count: usize, location: cudaMemLocation, flags: c_uint,
        stream: cudaStream_t) -> cudaError_t => managed::prefetch_async(devPtr, count, location, flags, stream, LEGACY);
    Context fn cudaMemPrefetchAsync_ptsz(devPtr: *const c_void, count: usize, location: cudaMemLocation, flags: c_uint,
        stream: cudaStream_t) -> cudaError_t => managed::prefetch_async(devPtr, count, location, flags, stream, PT);
    Context fn cudaMemPrefetchBatchAsync(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize,
        prefetchLocs: *mut cudaMemLocation, prefetchLocIdxs: *mut usize, numPrefetchLocs: usize, flags: c_ulonglong,
        stream: cudaStream_t) -> cudaError_t
        => managed::prefetch_batch_async(Batch { dptrs, sizes, count },
            Targets { locations: prefetchLocs, indices: prefetchLocIdxs, count: numPrefetchLocs }, flags, stream, LEGACY);
    Context fn cudaMemPrefetchBatchAsync_ptsz(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize,
        prefetchLocs: *mut cudaMemLocation, prefetchLocIdxs: *mut usize, numPrefetchLocs: usize, flags: c_ulonglong,
        stream: cudaStream_t) -> cudaError_t
        => managed::prefetch_batch_async(Batch { dptrs, sizes, count },
            Targets { locations: prefetchLocs, indices: prefetchLocIdxs, count: numPrefetchLocs }, flags, stream, PT);
    Context fn cudaMemDiscardBatchAsync(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize, flags: c_ulonglong,
        stream: cudaStream_t) -> cudaError_t
        => managed::discard_batch_async(Batch { dptrs, sizes, count }, flags, stream, LEGACY);
    Context fn cudaMemDiscardBatchAsync_ptsz(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize,
        flags: c_ulonglong, stream: cudaStream_t) -> cudaError_t
        => managed::discard_batch_async(Batch { dptrs, sizes, count }, flags, stream, PT);
    Context fn cudaMemDiscardAndPrefetchBatchAsync(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize,
        prefetchLocs: *mut cudaMemLocation, prefetchLocIdxs: *mut usize, numPrefetchLocs: usize, flags: c_ulonglong,
        stream: cudaStream_t) -> cudaError_t
        => managed::discard_and_prefetch_batch_async(Batch { dptrs, sizes, count },
            Targets { locations: prefetchLocs, indices: prefetchLocIdxs, count: numPrefetchLocs }, flags, stream, LEGACY);
    Context fn cudaMemDiscardAndPrefetchBatchAsync_ptsz(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize,
        prefetchLocs: *mut cudaMemLocation, prefetchLocIdxs: *mut usize, numPrefetchLocs: usize, flags: c_ulonglong,
        stream: cudaStream_t) -> cudaError_t
        => managed::discard_and_prefetch_batch_async(Batch { dptrs, sizes, count },
            Targets { locations: prefetchLocs, indices: prefetchLocIdxs, count: numPrefetchLocs }, flags, stream, PT);
    Context fn cudaMemAdvise(devPtr: *const c_void, count: usize, advice: cudaMemoryAdvise,
        location: cudaMemLocation) -> cudaError_t => managed::advise(devPtr, count, advice, location);
    Context fn cudaMemRangeGetAttribute(data: *mut c_void, dataSize: usize, attribute: cudaMemRangeAttribute,
        devPtr: *const c_void, count: usize) -> cudaError_t
        => managed::range_get_attribute(data, dataSize, attribute, devPtr, count);
    Context fn cudaMemRangeGetAttributes(data: *mut *mut c_void, dataSizes: *mut usize,
        attributes: *mut cudaMemRangeAttribute, numAttributes: usize, devPtr: *const c_void, count: usize) -> cudaError_t
        => managed::range_get_attributes(data, dataSizes, attributes, numAttributes, devPtr, count);

    // Stream-ordered allocation and memory pools.
    Context fn cudaMallocAsync(devPtr: Out<*mut c_void>, size: usize, hStream: cudaStream_t) -> cudaError_t
        => mempool::malloc_async(devPtr, size, hStream, LEGACY);
    Context fn cudaMallocAsync_ptsz(devPtr: Out<*mut c_void>, size: usize, hStream: cudaStream_t) -> cudaError_t
        => mempool::malloc_async(devPtr, size, hStream, PT);
    Context fn cudaMallocFromPoolAsync(ptr: Out<*mut c_void>, size: usize, memPool: cudaMemPool_t,
        stream: cudaStream_t) -> cudaError_t => mempool::malloc_from_pool_async(ptr, size, memPool, stream, LEGACY);
    Context fn cudaMallocFromPoolAsync_ptsz(ptr: Out<*mut c_void>, size: usize, memPool: cudaMemPool_t,
        stream: cudaStream_t) -> cudaError_t => mempool::malloc_from_pool_async(ptr, size, memPool, stream, PT);
    Context fn cudaFreeAsync(devPtr: *mut c_void, hStream: cudaStream_t) -> cudaError_t
        => mempool::free_async(devPtr, hStream, LEGACY);
    Context fn cudaFreeAsync_ptsz(devPtr: *mut c_void, hStream: cudaStream_t) -> cudaError_t
        => mempool::free_async(devPtr, hStream, PT);
    Context fn cudaMemPoolCreate(memPool: Out<cudaMemPool_t>, poolProps: In<cudaMemPoolProps>) -> cudaError_t
        => mempool::create(memPool, poolProps);
    Context fn cudaMemPoolDestroy(memPool: cudaMemPool_t) -> cudaError_t => mempool::destroy(memPool);
    Context fn cudaMemPoolTrimTo(memPool: cudaMemPool_t, minBytesToKeep: usize) -> cudaError_t
        => mempool::trim_to(memPool, minBytesToKeep);
    Context fn cudaMemPoolSetAttribute(memPool: cudaMemPool_t, attr: cudaMemPoolAttr, value: *mut c_void)
        -> cudaError_t => mempool::set_attribute(memPool, attr, value);
    Context fn cudaMemPoolGetAttribute(memPool: cudaMemPool_t, attr: cudaMemPoolAttr, value: *mut c_void)
        -> cudaError_t => mempool::get_attribute(memPool, attr, value);
    Context fn cudaMemPoolSetAccess(memPool: cudaMemPool_t, descList: *const cudaMemAccessDesc, count: usize)
        -> cudaError_t => mempool::set_access(memPool, descList, count);
    Context fn cudaMemPoolGetAccess(flags: Out<cudaMemAccessFlags>, memPool: cudaMemPool_t,
        location: *mut cudaMemLocation) -> cudaError_t => mempool::get_access(flags, memPool, location);
    Context fn cudaMemPoolExportToShareableHandle(shareableHandle: *mut c_void, memPool: cudaMemPool_t,
        handleType: cudaMemAllocationHandleType, flags: c_uint) -> cudaError_t
        => mempool::export_to_shareable_handle(shareableHandle, memPool, handleType, flags);
    Context fn cudaMemPoolImportFromShareableHandle(memPool: Out<cudaMemPool_t>, shareableHandle: *mut c_void,
        handleType: cudaMemAllocationHandleType, flags: c_uint) -> cudaError_t
        => mempool::import_from_shareable_handle(memPool, shareableHandle, handleType, flags);
    Context fn cudaMemPoolExportPointer(exportData: Out<cudaMemPoolPtrExportData>, ptr: *mut c_void) -> cudaError_t
        => mempool::export_pointer(exportData, ptr);
    Context fn cudaMemPoolImportPointer(ptr: Out<*mut c_void>, memPool: cudaMemPool_t,
        exportData: *mut cudaMemPoolPtrExportData) -> cudaError_t => mempool::import_pointer(ptr, memPool, exportData);
    Context fn cudaDeviceGetDefaultMemPool(memPool: Out<cudaMemPool_t>, device: c_int) -> cudaError_t
        => mempool::device_default_pool(memPool, device);
    Context fn cudaDeviceGetMemPool(memPool: Out<cudaMemPool_t>, device: c_int) -> cudaError_t
        => mempool::device_get_pool(memPool, device);
    Context fn cudaDeviceSetMemPool(device: c_int, memPool: cudaMemPool_t) -> cudaError_t
        => mempool::device_set_pool(device, memPool);
    Context fn cudaMemGetDefaultMemPool(memPool: Out<cudaMemPool_t>, location: *mut cudaMemLocation,
        type_: cudaMemAllocationType) -> cudaError_t => mempool::location_default_pool(memPool, location, type_);
    Context fn cudaMemGetMemPool(memPool: Out<cudaMemPool_t>, location: *mut cudaMemLocation,
        type_: cudaMemAllocationType) -> cudaError_t => mempool::location_get_pool(memPool, location, type_);
    Context fn cudaMemSetMemPool(location: *mut cudaMemLocation, type_: cudaMemAllocationType,
        memPool: cudaMemPool_t) -> cudaError_t => mempool::location_set_pool(location, type_, memPool);

    // IPC memory.
    Context fn cudaIpcGetMemHandle(handle: Out<cudaIpcMemHandle_t>, devPtr: *mut c_void) -> cudaError_t
        => ipc::get_mem_handle(handle, devPtr);
    Context fn cudaIpcOpenMemHandle(devPtr: Out<*mut c_void>, handle: cudaIpcMemHandle_t, flags: c_uint)
        -> cudaError_t => ipc::open_mem_handle(devPtr, handle, flags);
    Context fn cudaIpcCloseMemHandle(devPtr: *mut c_void) -> cudaError_t => ipc::close_mem_handle(devPtr);

    // Peer access and peer copies.
    Context fn cudaDeviceCanAccessPeer(canAccessPeer: Out<c_int>, device: c_int, peerDevice: c_int) -> cudaError_t
        => peer::can_access_peer(canAccessPeer, device, peerDevice);
    Context fn cudaDeviceEnablePeerAccess(peerDevice: c_int, flags: c_uint) -> cudaError_t
        => peer::enable_peer_access(peerDevice, flags);
    Context fn cudaDeviceDisablePeerAccess(peerDevice: c_int) -> cudaError_t => peer::disable_peer_access(peerDevice);
    Context fn cudaMemcpyPeer(dst: *mut c_void, dstDevice: c_int, src: *const c_void, srcDevice: c_int,
        count: usize) -> cudaError_t => peer::memcpy_peer(dst, dstDevice, src, srcDevice, count, None);
    Context fn cudaMemcpyPeerAsync(dst: *mut c_void, dstDevice: c_int, src: *const c_void, srcDevice: c_int,
        count: usize, stream: cudaStream_t) -> cudaError_t
        => peer::memcpy_peer(dst, dstDevice, src, srcDevice, count, Some(stream));
    Context fn cudaMemcpy3DPeer(p: In<cudaMemcpy3DPeerParms>) -> cudaError_t => peer::memcpy_3d_peer(p, None, LEGACY);
    Context fn cudaMemcpy3DPeer_ptds(p: In<cudaMemcpy3DPeerParms>) -> cudaError_t => peer::memcpy_3d_peer(p, None, PT);
    Context fn cudaMemcpy3DPeerAsync(p: In<cudaMemcpy3DPeerParms>, stream: cudaStream_t) -> cudaError_t
        => peer::memcpy_3d_peer(p, Some(stream), LEGACY);
    Context fn cudaMemcpy3DPeerAsync_ptsz(p: In<cudaMemcpy3DPeerParms>, stream: cudaStream_t) -> cudaError_t
        => peer::memcpy_3d_peer(p, Some(stream), PT);

    // Channel descriptors.
    Nothing fn cudaCreateChannelDesc(x: c_int, y: c_int, z: c_int, w: c_int, f: cudaChannelFormatKind)
        -> cudaChannelFormatDesc => array::create_channel_desc(x, y, z, w, f);
    Context fn cudaGetChannelDesc(desc: Out<cudaChannelFormatDesc>, array: cudaArray_const_t) -> cudaError_t
        => array::get_channel_desc(desc, array::h(array)?);

    // Texture and surface objects.
    Context fn cudaCreateTextureObject(pTexObject: Out<cudaTextureObject_t>, pResDesc: In<cudaResourceDesc>,
        pTexDesc: In<cudaTextureDesc>, pResViewDesc: In<cudaResourceViewDesc>) -> cudaError_t
        => texture::create_texture_object(pTexObject, pResDesc, pTexDesc, pResViewDesc);
    Context fn cudaDestroyTextureObject(texObject: cudaTextureObject_t) -> cudaError_t
        => texture::destroy_texture_object(texObject);
    Context fn cudaGetTextureObjectResourceDesc(pResDesc: Out<cudaResourceDesc>, texObject: cudaTextureObject_t)
        -> cudaError_t => texture::texture_resource_desc(pResDesc, texObject);
    Context fn cudaGetTextureObjectTextureDesc(pTexDesc: Out<cudaTextureDesc>, texObject: cudaTextureObject_t)
        -> cudaError_t => texture::texture_texture_desc(pTexDesc, texObject);
    Context fn cudaGetTextureObjectResourceViewDesc(pResViewDesc: Out<cudaResourceViewDesc>,
        texObject: cudaTextureObject_t) -> cudaError_t => texture::texture_view_desc(pResViewDesc, texObject);
    Context fn cudaCreateSurfaceObject(pSurfObject: Out<cudaSurfaceObject_t>, pResDesc: In<cudaResourceDesc>)
        -> cudaError_t => texture::create_surface_object(pSurfObject, pResDesc);
    Context fn cudaDestroySurfaceObject(surfObject: cudaSurfaceObject_t) -> cudaError_t
        => texture::destroy_surface_object(surfObject);
    Context fn cudaGetSurfaceObjectResourceDesc(pResDesc: Out<cudaResourceDesc>, surfObject: cudaSurfaceObject_t)
        -> cudaError_t => texture::surface_resource_desc(pResDesc, surfObject);

    // Arrays and mipmapped arrays.
    Context fn cudaMallocArray(array: Out<cudaArray_t>, desc: In<cudaChannelFormatDesc>, width: usize, height: usize,
        flags: c_uint) -> cudaError_t => array::malloc_array(array, desc, width, height, flags);
    Context fn cudaMalloc3DArray(array: Out<cudaArray_t>, desc: In<cudaChannelFormatDesc>, extent: cudaExtent,
        flags: c_uint) -> cudaError_t => array::malloc_3d_array(array, desc, extent, flags);
    Context fn cudaMallocMipmappedArray(mipmappedArray: Out<cudaMipmappedArray_t>, desc: In<cudaChannelFormatDesc>,
        extent: cudaExtent, numLevels: c_uint, flags: c_uint) -> cudaError_t
        => array::malloc_mipmapped_array(mipmappedArray, desc, extent, numLevels, flags);
    Context fn cudaGetMipmappedArrayLevel(levelArray: Out<cudaArray_t>, mipmappedArray: cudaMipmappedArray_const_t,
        level: c_uint) -> cudaError_t => array::mipmapped_array_level(levelArray, array::h(mipmappedArray)?, level);
    Context fn cudaFreeArray(array: cudaArray_t) -> cudaError_t => array::free_array(array::h(array)?);
    Context fn cudaFreeMipmappedArray(mipmappedArray: cudaMipmappedArray_t) -> cudaError_t
        => array::free_mipmapped_array(array::h(mipmappedArray)?);
    Context fn cudaArrayGetInfo(desc: Out<cudaChannelFormatDesc>, extent: Out<cudaExtent>, flags: Out<c_uint>,
        array: cudaArray_t) -> cudaError_t => array::get_info(desc, extent, flags, array::h(array)?);
    Context fn cudaArrayGetPlane(pPlaneArray: Out<cudaArray_t>, hArray: cudaArray_t, planeIdx: c_uint) -> cudaError_t
        => array::get_plane(pPlaneArray, array::h(hArray)?, planeIdx);
    Context fn cudaArrayGetMemoryRequirements(memoryRequirements: Out<cudaArrayMemoryRequirements>,
        array: cudaArray_t, device: c_int) -> cudaError_t
        => array::memory_requirements(memoryRequirements, array::h(array)?, device);
    Context fn cudaMipmappedArrayGetMemoryRequirements(memoryRequirements: Out<cudaArrayMemoryRequirements>,
        mipmap: cudaMipmappedArray_t, device: c_int) -> cudaError_t
        => array::mipmapped_memory_requirements(memoryRequirements, array::h(present(mipmap, NULL_ARRAY)?)?, device);
    Context fn cudaArrayGetSparseProperties(sparseProperties: Out<cudaArraySparseProperties>,
        array: cudaArray_t) -> cudaError_t => array::sparse_properties(sparseProperties, array::h(present(array, NULL_ARRAY)?)?);
    Context fn cudaMipmappedArrayGetSparseProperties(sparseProperties: Out<cudaArraySparseProperties>,
        mipmap: cudaMipmappedArray_t) -> cudaError_t => array::mipmapped_sparse_properties(sparseProperties, array::h(present(mipmap, NULL_ARRAY)?)?);

    // 2D copies to, from and between arrays.
    Context fn cudaMemcpy2DToArray(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void,
        spitch: usize, width: usize, height: usize, kind: c_int) -> cudaError_t
        => array::copy_2d_to_array(array::h(dst)?, wOffset, hOffset, src, spitch, wh(width, height), kind, sync(LEGACY));
    Context fn cudaMemcpy2DToArray_ptds(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void,
        spitch: usize, width: usize, height: usize, kind: c_int) -> cudaError_t
        => array::copy_2d_to_array(array::h(dst)?, wOffset, hOffset, src, spitch, wh(width, height), kind, sync(PT));
    Context fn cudaMemcpy2DToArrayAsync(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void,
        spitch: usize, width: usize, height: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => array::copy_2d_to_array(array::h(dst)?, wOffset, hOffset, src, spitch, wh(width, height), kind, on(stream, LEGACY));
    Context fn cudaMemcpy2DToArrayAsync_ptsz(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void,
        spitch: usize, width: usize, height: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => array::copy_2d_to_array(array::h(dst)?, wOffset, hOffset, src, spitch, wh(width, height), kind, on(stream, PT));
    Context fn cudaMemcpy2DFromArray(dst: *mut c_void, dpitch: usize, src: cudaArray_const_t, wOffset: usize,
        hOffset: usize, width: usize, height: usize, kind: c_int) -> cudaError_t
        => array::copy_2d_from_array(dst, dpitch, array::h(src)?, wOffset, hOffset, wh(width, height), kind, sync(LEGACY));
    Context fn cudaMemcpy2DFromArray_ptds(dst: *mut c_void, dpitch: usize, src: cudaArray_const_t, wOffset: usize,
        hOffset: usize, width: usize, height: usize, kind: c_int) -> cudaError_t
        => array::copy_2d_from_array(dst, dpitch, array::h(src)?, wOffset, hOffset, wh(width, height), kind, sync(PT));
    Context fn cudaMemcpy2DFromArrayAsync(dst: *mut c_void, dpitch: usize, src: cudaArray_const_t, wOffset: usize,
        hOffset: usize, width: usize, height: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => array::copy_2d_from_array(dst, dpitch, array::h(src)?, wOffset, hOffset, wh(width, height), kind, on(stream, LEGACY));
    Context fn cudaMemcpy2DFromArrayAsync_ptsz(dst: *mut c_void, dpitch: usize, src: cudaArray_const_t,
        wOffset: usize, hOffset: usize, width: usize, height: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => array::copy_2d_from_array(dst, dpitch, array::h(src)?, wOffset, hOffset, wh(width, height), kind, on(stream, PT));
    Context fn cudaMemcpy2DArrayToArray(dst: cudaArray_t, wOffsetDst: usize, hOffsetDst: usize,
        src: cudaArray_const_t, wOffsetSrc: usize, hOffsetSrc: usize, width: usize, height: usize,
        kind: c_int) -> cudaError_t
        => array::copy_2d_array_to_array(array::h(present(dst, NULL_ARRAY)?)?, wOffsetDst, hOffsetDst, array::h(src)?, wOffsetSrc, hOffsetSrc,
            wh(width, height), kind, LEGACY);
    Context fn cudaMemcpy2DArrayToArray_ptds(dst: cudaArray_t, wOffsetDst: usize, hOffsetDst: usize,
        src: cudaArray_const_t, wOffsetSrc: usize, hOffsetSrc: usize, width: usize, height: usize,
        kind: c_int) -> cudaError_t
        => array::copy_2d_array_to_array(array::h(present(dst, NULL_ARRAY)?)?, wOffsetDst, hOffsetDst, array::h(src)?, wOffsetSrc, hOffsetSrc,
            wh(width, height), kind, PT);

    // The deprecated linear copies to, from and between arrays.
    Context fn cudaMemcpyToArray(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void, count: usize,
        kind: c_int) -> cudaError_t => array::copy_to_array(array::h(dst)?, wOffset, hOffset, src, count, kind, sync(LEGACY));
    Context fn cudaMemcpyToArray_ptds(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void,
        count: usize, kind: c_int) -> cudaError_t
        => array::copy_to_array(array::h(dst)?, wOffset, hOffset, src, count, kind, sync(PT));
    Context fn cudaMemcpyToArrayAsync(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void,
        count: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => array::copy_to_array(array::h(dst)?, wOffset, hOffset, src, count, kind, on(stream, LEGACY));
    Context fn cudaMemcpyToArrayAsync_ptsz(dst: cudaArray_t, wOffset: usize, hOffset: usize, src: *const c_void,
        count: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => array::copy_to_array(array::h(dst)?, wOffset, hOffset, src, count, kind, on(stream, PT));
    Context fn cudaMemcpyFromArray(dst: *mut c_void, src: cudaArray_const_t, wOffset: usize, hOffset: usize,
        count: usize, kind: c_int) -> cudaError_t
        => array::copy_from_array(dst, array::h(src)?, wOffset, hOffset, count, kind, sync(LEGACY));
    Context fn cudaMemcpyFromArray_ptds(dst: *mut c_void, src: cudaArray_const_t, wOffset: usize, hOffset: usize,
        count: usize, kind: c_int) -> cudaError_t
        => array::copy_from_array(dst, array::h(src)?, wOffset, hOffset, count, kind, sync(PT));
    Context fn cudaMemcpyFromArrayAsync(dst: *mut c_void, src: cudaArray_const_t, wOffset: usize, hOffset: usize,
        count: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => array::copy_from_array(dst, array::h(src)?, wOffset, hOffset, count, kind, on(stream, LEGACY));
    Context fn cudaMemcpyFromArrayAsync_ptsz(dst: *mut c_void, src: cudaArray_const_t, wOffset: usize,
        hOffset: usize, count: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => array::copy_from_array(dst, array::h(src)?, wOffset, hOffset, count, kind, on(stream, PT));
    Context fn cudaMemcpyArrayToArray(dst: cudaArray_t, wOffsetDst: usize, hOffsetDst: usize, src: cudaArray_const_t,
        wOffsetSrc: usize, hOffsetSrc: usize, count: usize, kind: c_int) -> cudaError_t
        => array::copy_array_to_array(array::h(dst)?, wOffsetDst, hOffsetDst, array::h(src)?, wOffsetSrc, hOffsetSrc, count, kind, LEGACY);
    Context fn cudaMemcpyArrayToArray_ptds(dst: cudaArray_t, wOffsetDst: usize, hOffsetDst: usize,
        src: cudaArray_const_t, wOffsetSrc: usize, hOffsetSrc: usize, count: usize, kind: c_int) -> cudaError_t
        => array::copy_array_to_array(array::h(dst)?, wOffsetDst, hOffsetDst, array::h(src)?, wOffsetSrc, hOffsetSrc, count, kind, PT);

    // CUDA 13.5 (13.2/13.4 driver calls: on an older driver
    // cudaErrorCallRequiresNewerDriver).
    Context fn cudaMemcpyWithAttributesAsync(dst: *mut c_void, src: *const c_void, size: usize,
        attr: In<cudaMemcpyAttributes>, stream: cudaStream_t) -> cudaError_t
        => crate::since135::memcpy_with_attributes(dst, src, size, attr, stream, LEGACY);
    Context fn cudaMemcpyWithAttributesAsync_ptsz(dst: *mut c_void, src: *const c_void, size: usize,
        attr: In<cudaMemcpyAttributes>, stream: cudaStream_t) -> cudaError_t
        => crate::since135::memcpy_with_attributes(dst, src, size, attr, stream, PT);
    Context fn cudaMemcpy3DWithAttributesAsync(op: In<cudaMemcpy3DBatchOp>, flags: c_ulonglong, stream: cudaStream_t) -> cudaError_t
        => crate::since135::memcpy_3d_with_attributes(op, flags, stream, LEGACY);
    Context fn cudaMemcpy3DWithAttributesAsync_ptsz(op: In<cudaMemcpy3DBatchOp>, flags: c_ulonglong, stream: cudaStream_t) -> cudaError_t
        => crate::since135::memcpy_3d_with_attributes(op, flags, stream, PT);
    Context fn cudaMemGetLocationInfo(devPtr: *mut c_void, size: usize, summaryGranularity: usize,
        samplingGranularity: usize, location_out: Out<cudaMemLocation>) -> cudaError_t
        => crate::since135::mem_get_location_info(devPtr, size, summaryGranularity, samplingGranularity, location_out);
}
