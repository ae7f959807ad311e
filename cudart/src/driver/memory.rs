//! Driver entry points for memory beyond the core: 3D copies, arrays and
//! mipmapped arrays, texture and surface objects, memory pools and
//! stream-ordered allocation, managed-memory prefetch and advice, IPC, peer
//! access and peer copies; and the driver's structures these calls take.
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
//! `cudaMemcpy3DBatchOp`), the driver's name is an alias of the runtime type
//! (sizes checked below against the CUDA 13.0 `cuda.h`). The structures whose
//! layouts differ are declared here and converted field by field by the
//! rooms.

#![allow(non_snake_case, non_camel_case_types)]

use super::{CUcontext, CUdevice, CUdeviceptr, CUresult, CUstream};
use crate::abi;
use std::ffi::{c_int, c_uint, c_ulonglong, c_void};

/// A CUDA array (`cudaArray_t` is this handle).
pub type CUarray = *mut c_void;
/// A mipmapped CUDA array (`cudaMipmappedArray_t` is this handle).
pub type CUmipmappedArray = *mut c_void;
/// A memory pool (`cudaMemPool_t` is this handle).
pub type CUmemoryPool = *mut c_void;
/// A texture object (`cudaTextureObject_t` is this handle).
pub type CUtexObject = u64;
/// A surface object (`cudaSurfaceObject_t` is this handle).
pub type CUsurfObject = u64;

/// `CUmemLocation`: the runtime's `cudaMemLocation`, same layout and numbers.
pub type CUmemLocation = abi::cudaMemLocation;
/// `CUmemAccessDesc`: the runtime's `cudaMemAccessDesc`.
pub type CUmemAccessDesc = abi::cudaMemAccessDesc;
/// `CUmemPoolProps`: the runtime's `cudaMemPoolProps`.
pub type CUmemPoolProps = abi::cudaMemPoolProps;
/// `CUmemPoolPtrExportData`: the runtime's `cudaMemPoolPtrExportData`.
pub type CUmemPoolPtrExportData = abi::cudaMemPoolPtrExportData;
/// `CUipcMemHandle`: the runtime's `cudaIpcMemHandle_t` (64 opaque bytes).
pub type CUipcMemHandle = abi::cudaIpcMemHandle_t;
/// `CUDA_ARRAY_SPARSE_PROPERTIES`: the runtime's `cudaArraySparseProperties`.
pub type CUDA_ARRAY_SPARSE_PROPERTIES = abi::cudaArraySparseProperties;
/// `CUDA_ARRAY_MEMORY_REQUIREMENTS`: the runtime's `cudaArrayMemoryRequirements`.
pub type CUDA_ARRAY_MEMORY_REQUIREMENTS = abi::cudaArrayMemoryRequirements;
/// `CUmemcpyAttributes`: the runtime's `cudaMemcpyAttributes`.
pub type CUmemcpyAttributes = abi::cudaMemcpyAttributes;
/// `CUDA_MEMCPY3D_BATCH_OP`: the runtime's `cudaMemcpy3DBatchOp` (the
/// operand's `void *ptr` is the driver's `CUdeviceptr`, both 64-bit).
pub type CUDA_MEMCPY3D_BATCH_OP = abi::cudaMemcpy3DBatchOp;

/// `CUmemorytype`.
pub const CU_MEMORYTYPE_HOST: c_uint = 1;
pub const CU_MEMORYTYPE_DEVICE: c_uint = 2;
pub const CU_MEMORYTYPE_ARRAY: c_uint = 3;
/// The driver tells host from device memory by address (unified addressing).
pub const CU_MEMORYTYPE_UNIFIED: c_uint = 4;

/// `CUresourcetype`: the same numbers as `cudaResourceType`.
pub const CU_RESOURCE_TYPE_ARRAY: c_uint = 0;
pub const CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: c_uint = 1;
pub const CU_RESOURCE_TYPE_LINEAR: c_uint = 2;
pub const CU_RESOURCE_TYPE_PITCH2D: c_uint = 3;

/// `CUDA_TEXTURE_DESC::flags` bits (`CU_TRSF_*`).
pub const CU_TRSF_READ_AS_INTEGER: c_uint = 0x01;
pub const CU_TRSF_NORMALIZED_COORDINATES: c_uint = 0x02;
pub const CU_TRSF_SRGB: c_uint = 0x10;
pub const CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION: c_uint = 0x20;
pub const CU_TRSF_SEAMLESS_CUBEMAP: c_uint = 0x40;

/// `CUDA_MEMCPY2D`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_MEMCPY2D {
    pub srcXInBytes: usize,
    pub srcY: usize,
    pub srcMemoryType: c_uint,
    pub srcHost: *const c_void,
    pub srcDevice: CUdeviceptr,
    pub srcArray: CUarray,
    pub srcPitch: usize,
    pub dstXInBytes: usize,
    pub dstY: usize,
    pub dstMemoryType: c_uint,
    pub dstHost: *mut c_void,
    pub dstDevice: CUdeviceptr,
    pub dstArray: CUarray,
    pub dstPitch: usize,
    pub WidthInBytes: usize,
    pub Height: usize,
}

/// `CUDA_MEMCPY3D` (the `_v2` layout: size_t positions, a reserved pointer
/// after each array).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_MEMCPY3D {
    pub srcXInBytes: usize,
    pub srcY: usize,
    pub srcZ: usize,
    pub srcLOD: usize,
    pub srcMemoryType: c_uint,
    pub srcHost: *const c_void,
    pub srcDevice: CUdeviceptr,
    pub srcArray: CUarray,
    pub reserved0: *mut c_void,
    pub srcPitch: usize,
    pub srcHeight: usize,
    pub dstXInBytes: usize,
    pub dstY: usize,
    pub dstZ: usize,
    pub dstLOD: usize,
    pub dstMemoryType: c_uint,
    pub dstHost: *mut c_void,
    pub dstDevice: CUdeviceptr,
    pub dstArray: CUarray,
    pub reserved1: *mut c_void,
    pub dstPitch: usize,
    pub dstHeight: usize,
    pub WidthInBytes: usize,
    pub Height: usize,
    pub Depth: usize,
}

impl Default for CUDA_MEMCPY3D {
    fn default() -> Self {
        Self {
            srcXInBytes: 0,
            srcY: 0,
            srcZ: 0,
            srcLOD: 0,
            srcMemoryType: 0,
            srcHost: std::ptr::null(),
            srcDevice: 0,
            srcArray: std::ptr::null_mut(),
            reserved0: std::ptr::null_mut(),
            srcPitch: 0,
            srcHeight: 0,
            dstXInBytes: 0,
            dstY: 0,
            dstZ: 0,
            dstLOD: 0,
            dstMemoryType: 0,
            dstHost: std::ptr::null_mut(),
            dstDevice: 0,
            dstArray: std::ptr::null_mut(),
            reserved1: std::ptr::null_mut(),
            dstPitch: 0,
            dstHeight: 0,
            WidthInBytes: 0,
            Height: 0,
            Depth: 0,
        }
    }
}

/// `CUDA_MEMCPY3D_PEER`: `CUDA_MEMCPY3D` with each side's context in place
/// of the reserved pointers.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_MEMCPY3D_PEER {
    pub srcXInBytes: usize,
    pub srcY: usize,
    pub srcZ: usize,
    pub srcLOD: usize,
    pub srcMemoryType: c_uint,
    pub srcHost: *const c_void,
    pub srcDevice: CUdeviceptr,
    pub srcArray: CUarray,
    pub srcContext: CUcontext,
    pub srcPitch: usize,
    pub srcHeight: usize,
    pub dstXInBytes: usize,
    pub dstY: usize,
    pub dstZ: usize,
    pub dstLOD: usize,
    pub dstMemoryType: c_uint,
    pub dstHost: *mut c_void,
    pub dstDevice: CUdeviceptr,
    pub dstArray: CUarray,
    pub dstContext: CUcontext,
    pub dstPitch: usize,
    pub dstHeight: usize,
    pub WidthInBytes: usize,
    pub Height: usize,
    pub Depth: usize,
}

/// `CUDA_ARRAY3D_DESCRIPTOR` (the `_v2` layout, size_t extents).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CUDA_ARRAY3D_DESCRIPTOR {
    pub Width: usize,
    pub Height: usize,
    pub Depth: usize,
    /// `CUarray_format`.
    pub Format: c_uint,
    pub NumChannels: c_uint,
    pub Flags: c_uint,
}

/// `CUDA_RESOURCE_DESC::res.array`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_RESOURCE_DESC_array {
    pub hArray: CUarray,
}

/// `CUDA_RESOURCE_DESC::res.mipmap`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_RESOURCE_DESC_mipmap {
    pub hMipmappedArray: CUmipmappedArray,
}

/// `CUDA_RESOURCE_DESC::res.linear`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_RESOURCE_DESC_linear {
    pub devPtr: CUdeviceptr,
    pub format: c_uint,
    pub numChannels: c_uint,
    pub sizeInBytes: usize,
}

/// `CUDA_RESOURCE_DESC::res.pitch2D`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct CUDA_RESOURCE_DESC_pitch2D {
    pub devPtr: CUdeviceptr,
    pub format: c_uint,
    pub numChannels: c_uint,
    pub width: usize,
    pub height: usize,
    pub pitchInBytes: usize,
}

/// `CUDA_RESOURCE_DESC::res` (128 bytes: `reserved` spans it).
#[repr(C)]
#[derive(Copy, Clone)]
pub union CUDA_RESOURCE_DESC_res {
    pub reserved: [c_int; 32],
    pub array: CUDA_RESOURCE_DESC_array,
    pub mipmap: CUDA_RESOURCE_DESC_mipmap,
    pub linear: CUDA_RESOURCE_DESC_linear,
    pub pitch2D: CUDA_RESOURCE_DESC_pitch2D,
}

/// `CUDA_RESOURCE_DESC`.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct CUDA_RESOURCE_DESC {
    /// `CUresourcetype`.
    pub resType: c_uint,
    pub res: CUDA_RESOURCE_DESC_res,
    pub flags: c_uint,
}

impl Default for CUDA_RESOURCE_DESC {
    fn default() -> Self {
        Self {
            resType: 0,
            res: CUDA_RESOURCE_DESC_res { reserved: [0; 32] },
            flags: 0,
        }
    }
}

/// `CUDA_TEXTURE_DESC`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct CUDA_TEXTURE_DESC {
    /// `CUaddress_mode`, the numbers of `cudaTextureAddressMode`.
    pub addressMode: [c_uint; 3],
    /// `CUfilter_mode`, the numbers of `cudaTextureFilterMode`.
    pub filterMode: c_uint,
    /// `CU_TRSF_*` bits.
    pub flags: c_uint,
    pub maxAnisotropy: c_uint,
    pub mipmapFilterMode: c_uint,
    pub mipmapLevelBias: f32,
    pub minMipmapLevelClamp: f32,
    pub maxMipmapLevelClamp: f32,
    pub borderColor: [f32; 4],
    pub reserved: [c_int; 12],
}

/// `CUDA_RESOURCE_VIEW_DESC`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CUDA_RESOURCE_VIEW_DESC {
    /// `CUresourceViewFormat`, the numbers of `cudaResourceViewFormat`.
    pub format: c_uint,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub firstMipmapLevel: c_uint,
    pub lastMipmapLevel: c_uint,
    pub firstLayer: c_uint,
    pub lastLayer: c_uint,
    pub reserved: [c_uint; 16],
}

// The sizes of the CUDA 13.0 `cuda.h` (x86-64), so a typo in a declaration
// cannot go unnoticed.
const _: () = {
    use std::mem::{offset_of, size_of};
    assert!(size_of::<CUDA_MEMCPY2D>() == 128);
    assert!(size_of::<CUDA_MEMCPY3D>() == 200);
    assert!(size_of::<CUDA_MEMCPY3D_PEER>() == 200);
    assert!(size_of::<CUDA_ARRAY3D_DESCRIPTOR>() == 40);
    assert!(size_of::<CUDA_RESOURCE_DESC>() == 144);
    assert!(offset_of!(CUDA_RESOURCE_DESC, flags) == 136);
    assert!(size_of::<CUDA_TEXTURE_DESC>() == 104);
    assert!(offset_of!(CUDA_TEXTURE_DESC, borderColor) == 40);
    assert!(size_of::<CUDA_RESOURCE_VIEW_DESC>() == 112);
    assert!(size_of::<CUmemLocation>() == 8);
    assert!(size_of::<CUmemAccessDesc>() == 12);
    assert!(size_of::<CUmemPoolProps>() == 88);
    assert!(offset_of!(CUmemPoolProps, maxSize) == 24);
    assert!(offset_of!(CUmemPoolProps, usage) == 32);
    assert!(size_of::<CUmemPoolPtrExportData>() == 64);
    assert!(size_of::<CUipcMemHandle>() == 64);
    assert!(size_of::<CUDA_ARRAY_SPARSE_PROPERTIES>() == 48);
    assert!(size_of::<CUDA_ARRAY_MEMORY_REQUIREMENTS>() == 32);
    assert!(size_of::<CUmemcpyAttributes>() == 24);
    assert!(size_of::<CUDA_MEMCPY3D_BATCH_OP>() == 112);
    assert!(offset_of!(CUDA_MEMCPY3D_BATCH_OP, extent) == 80);
    assert!(offset_of!(CUDA_MEMCPY3D_BATCH_OP, srcAccessOrder) == 104);
};

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
    cuMemcpy(dst: CUdeviceptr, src: CUdeviceptr, bytes: usize);
    cuMemcpyAsync(dst: CUdeviceptr, src: CUdeviceptr, bytes: usize, stream: CUstream);
    cuMemcpyPeer(dst: CUdeviceptr, dst_ctx: CUcontext, src: CUdeviceptr, src_ctx: CUcontext, bytes: usize);
    cuMemcpyPeerAsync(dst: CUdeviceptr, dst_ctx: CUcontext, src: CUdeviceptr, src_ctx: CUcontext, bytes: usize, stream: CUstream);
    cuMemcpyBatchAsync(dsts: *mut CUdeviceptr, srcs: *mut CUdeviceptr, sizes: *mut usize, count: usize, attrs: *mut CUmemcpyAttributes, attrs_idxs: *mut usize, num_attrs: usize, stream: CUstream);
    cuMemcpy3DBatchAsync(num_ops: usize, ops: *mut CUDA_MEMCPY3D_BATCH_OP, flags: c_ulonglong, stream: CUstream);
    cuMemsetD8(dst: CUdeviceptr, value: u8, n: usize);
    cuMemsetD8Async(dst: CUdeviceptr, value: u8, n: usize, stream: CUstream);
    cuMemsetD2D8(dst: CUdeviceptr, pitch: usize, value: u8, width: usize, height: usize);
    cuMemsetD2D8Async(dst: CUdeviceptr, pitch: usize, value: u8, width: usize, height: usize, stream: CUstream);
    cuMemAllocPitch(dptr: *mut CUdeviceptr, pitch: *mut usize, width: usize, height: usize, elem: c_uint);

    // Arrays and mipmapped arrays.
    cuArray3DCreate(array: *mut CUarray, desc: *const CUDA_ARRAY3D_DESCRIPTOR);
    cuArray3DGetDescriptor(desc: *mut CUDA_ARRAY3D_DESCRIPTOR, array: CUarray);
    cuArrayDestroy(array: CUarray);
    cuArrayGetPlane(plane: *mut CUarray, array: CUarray, idx: c_uint);
    cuArrayGetMemoryRequirements(req: *mut CUDA_ARRAY_MEMORY_REQUIREMENTS, array: CUarray, dev: CUdevice);
    cuArrayGetSparseProperties(props: *mut CUDA_ARRAY_SPARSE_PROPERTIES, array: CUarray);
    cuMipmappedArrayCreate(mipmap: *mut CUmipmappedArray, desc: *const CUDA_ARRAY3D_DESCRIPTOR, levels: c_uint);
    cuMipmappedArrayDestroy(mipmap: CUmipmappedArray);
    cuMipmappedArrayGetLevel(level_array: *mut CUarray, mipmap: CUmipmappedArray, level: c_uint);
    cuMipmappedArrayGetMemoryRequirements(req: *mut CUDA_ARRAY_MEMORY_REQUIREMENTS, mipmap: CUmipmappedArray, dev: CUdevice);
    cuMipmappedArrayGetSparseProperties(props: *mut CUDA_ARRAY_SPARSE_PROPERTIES, mipmap: CUmipmappedArray);

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
    cuMemPoolCreate(pool: *mut CUmemoryPool, props: *const CUmemPoolProps);
    cuMemPoolDestroy(pool: CUmemoryPool);
    cuMemPoolTrimTo(pool: CUmemoryPool, keep: usize);
    cuMemPoolSetAttribute(pool: CUmemoryPool, attr: c_int, value: *mut c_void);
    cuMemPoolGetAttribute(pool: CUmemoryPool, attr: c_int, value: *mut c_void);
    cuMemPoolSetAccess(pool: CUmemoryPool, map: *const CUmemAccessDesc, count: usize);
    cuMemPoolGetAccess(flags: *mut c_int, pool: CUmemoryPool, location: *mut CUmemLocation);
    cuMemPoolExportToShareableHandle(handle: *mut c_void, pool: CUmemoryPool, handle_type: c_int, flags: c_ulonglong);
    cuMemPoolImportFromShareableHandle(pool: *mut CUmemoryPool, handle: *mut c_void, handle_type: c_int, flags: c_ulonglong);
    cuMemPoolExportPointer(data: *mut CUmemPoolPtrExportData, ptr: CUdeviceptr);
    cuMemPoolImportPointer(ptr: *mut CUdeviceptr, pool: CUmemoryPool, data: *mut CUmemPoolPtrExportData);
    cuDeviceGetDefaultMemPool(pool: *mut CUmemoryPool, dev: CUdevice);
    cuDeviceGetMemPool(pool: *mut CUmemoryPool, dev: CUdevice);
    cuDeviceSetMemPool(dev: CUdevice, pool: CUmemoryPool);
    cuMemGetDefaultMemPool(pool: *mut CUmemoryPool, location: *mut CUmemLocation, alloc_type: c_int);
    cuMemGetMemPool(pool: *mut CUmemoryPool, location: *mut CUmemLocation, alloc_type: c_int);
    cuMemSetMemPool(location: *mut CUmemLocation, alloc_type: c_int, pool: CUmemoryPool);

    // Managed memory.
    cuMemPrefetchAsync(ptr: CUdeviceptr, bytes: usize, location: CUmemLocation, flags: c_uint, stream: CUstream);
    cuMemPrefetchBatchAsync(dptrs: *mut CUdeviceptr, sizes: *mut usize, count: usize, locs: *mut CUmemLocation, loc_idxs: *mut usize, num_locs: usize, flags: c_ulonglong, stream: CUstream);
    cuMemDiscardBatchAsync(dptrs: *mut CUdeviceptr, sizes: *mut usize, count: usize, flags: c_ulonglong, stream: CUstream);
    cuMemDiscardAndPrefetchBatchAsync(dptrs: *mut CUdeviceptr, sizes: *mut usize, count: usize, locs: *mut CUmemLocation, loc_idxs: *mut usize, num_locs: usize, flags: c_ulonglong, stream: CUstream);
    cuMemAdvise(ptr: CUdeviceptr, bytes: usize, advice: c_int, location: CUmemLocation);
    cuMemRangeGetAttribute(data: *mut c_void, data_size: usize, attr: c_int, ptr: CUdeviceptr, bytes: usize);
    cuMemRangeGetAttributes(data: *mut *mut c_void, data_sizes: *mut usize, attrs: *mut c_int, num_attrs: usize, ptr: CUdeviceptr, bytes: usize);

    // IPC.
    cuIpcGetMemHandle(handle: *mut CUipcMemHandle, ptr: CUdeviceptr);
    cuIpcOpenMemHandle(ptr: *mut CUdeviceptr, handle: CUipcMemHandle, flags: c_uint);
    cuIpcCloseMemHandle(ptr: CUdeviceptr);

    // Peer access.
    cuDeviceCanAccessPeer(can: *mut c_int, dev: CUdevice, peer: CUdevice);
    cuCtxEnablePeerAccess(peer: CUcontext, flags: c_uint);
    cuCtxDisablePeerAccess(peer: CUcontext);
    }
}
