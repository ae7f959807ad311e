//! Driver entry points for external memory and semaphores and for graphics
//! interop (OpenGL, EGL, VDPAU, `cuGraphics*`), with the two driver structs
//! whose layout differs from the runtime's (`CUeglFrame`, the mipmapped
//! array descriptor of external memory).
//!
//! `driver::family::<InteropApi>(per_thread)` resolves this table on first use.
//! Names resolved by base name for CUDA 13.0 give the newest variant:
//! `cuGraphicsResourceGetMappedPointer` and `cuGraphicsResourceSetMapFlags`
//! the `_v2` forms, `cuGLGetDevices` `_v2`, `cuGLMapBufferObject(Async)` the
//! `_v2` (`size_t`) forms; the signatures below are those. The structs the
//! runtime and the driver lay out identically (external-memory handle and
//! buffer descriptors, semaphore handle descriptor, signal and wait
//! parameters: same fields, same offsets, same enumerator numbers) are
//! declared with the runtime's types and handed over as they are.

#![allow(non_snake_case, non_camel_case_types, unused_imports)]

use super::{
    CUcontext, CUdevice, CUdeviceptr, CUevent, CUfunction, CUkernel, CUlibrary, CUresult, CUstream,
};
use crate::abi::{
    cudaArray_t, cudaEglStreamConnection, cudaExternalMemoryBufferDesc,
    cudaExternalMemoryHandleDesc, cudaExternalMemory_t, cudaExternalSemaphoreHandleDesc,
    cudaExternalSemaphoreSignalParams, cudaExternalSemaphoreWaitParams, cudaExternalSemaphore_t,
    cudaGraphicsResource_t, cudaMipmappedArray_t,
};
use std::ffi::{c_char, c_int, c_uint, c_void};

/// A registered graphics resource: the runtime's `cudaGraphicsResource_t`.
pub type CUgraphicsResource = cudaGraphicsResource_t;

/// `CUDA_ARRAY3D_DESCRIPTOR` (`_v2`, `size_t` extents).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CUDA_ARRAY3D_DESCRIPTOR {
    pub Width: usize,
    pub Height: usize,
    pub Depth: usize,
    /// A `CUarray_format`.
    pub Format: c_uint,
    pub NumChannels: c_uint,
    /// `CUDA_ARRAY3D_*` flags: the same bits as the runtime's `cudaArray*`.
    pub Flags: c_uint,
}

/// `CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC {
    pub offset: u64,
    pub arrayDesc: CUDA_ARRAY3D_DESCRIPTOR,
    pub numLevels: c_uint,
    pub reserved: [c_uint; 16],
}

/// `CUeglFrame` (`CUeglFrame_v1`): one pointer per plane (a `CUarray` or a
/// pitched pointer, by `frameType`), then the first plane's shape.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CUeglFrame {
    pub frame: [*mut c_void; 3],
    pub width: c_uint,
    pub height: c_uint,
    pub depth: c_uint,
    pub pitch: c_uint,
    pub planeCount: c_uint,
    pub numChannels: c_uint,
    /// A `CUeglFrameType`.
    pub frameType: c_uint,
    /// A `CUeglColorFormat`.
    pub eglColorFormat: c_uint,
    /// A `CUarray_format`.
    pub cuFormat: c_uint,
}

impl Default for CUeglFrame {
    fn default() -> Self {
        Self {
            frame: [std::ptr::null_mut(); 3],
            width: 0,
            height: 0,
            depth: 0,
            pitch: 0,
            planeCount: 0,
            numChannels: 0,
            frameType: 0,
            eglColorFormat: 0,
            cuFormat: 0,
        }
    }
}

// The layouts of `cuda.h`/`cudaEGL.h` for CUDA 13.0 on x86-64.
const _: () = {
    assert!(std::mem::size_of::<CUDA_ARRAY3D_DESCRIPTOR>() == 40);
    assert!(std::mem::size_of::<CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC>() == 120);
    assert!(std::mem::offset_of!(CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC, numLevels) == 48);
    assert!(std::mem::size_of::<CUeglFrame>() == 64);
    assert!(std::mem::offset_of!(CUeglFrame, cuFormat) == 56);
};

driver_api! {
    pub struct InteropApi {
    // External memory and semaphores.
    cuImportExternalMemory(out: *mut cudaExternalMemory_t, desc: *const cudaExternalMemoryHandleDesc);
    cuExternalMemoryGetMappedBuffer(dptr: *mut CUdeviceptr, mem: cudaExternalMemory_t, desc: *const cudaExternalMemoryBufferDesc);
    cuExternalMemoryGetMappedMipmappedArray(out: *mut cudaMipmappedArray_t, mem: cudaExternalMemory_t, desc: *const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC);
    cuDestroyExternalMemory(mem: cudaExternalMemory_t);
    cuImportExternalSemaphore(out: *mut cudaExternalSemaphore_t, desc: *const cudaExternalSemaphoreHandleDesc);
    cuSignalExternalSemaphoresAsync(sems: *const cudaExternalSemaphore_t, params: *const cudaExternalSemaphoreSignalParams, count: c_uint, stream: CUstream);
    cuWaitExternalSemaphoresAsync(sems: *const cudaExternalSemaphore_t, params: *const cudaExternalSemaphoreWaitParams, count: c_uint, stream: CUstream);
    cuDestroyExternalSemaphore(sem: cudaExternalSemaphore_t);

    // Graphics resources, whatever API registered them.
    cuGraphicsMapResources(count: c_uint, resources: *mut CUgraphicsResource, stream: CUstream);
    cuGraphicsUnmapResources(count: c_uint, resources: *mut CUgraphicsResource, stream: CUstream);
    cuGraphicsResourceSetMapFlags(resource: CUgraphicsResource, flags: c_uint);
    cuGraphicsResourceGetMappedPointer(dptr: *mut CUdeviceptr, size: *mut usize, resource: CUgraphicsResource);
    cuGraphicsSubResourceGetMappedArray(array: *mut cudaArray_t, resource: CUgraphicsResource, index: c_uint, level: c_uint);
    cuGraphicsResourceGetMappedMipmappedArray(mipmap: *mut cudaMipmappedArray_t, resource: CUgraphicsResource);
    cuGraphicsUnregisterResource(resource: CUgraphicsResource);

    // OpenGL (`GLuint` and `GLenum` are u32).
    cuGLGetDevices(count: *mut c_uint, devices: *mut CUdevice, capacity: c_uint, list: c_uint);
    cuGraphicsGLRegisterBuffer(resource: *mut CUgraphicsResource, buffer: u32, flags: c_uint);
    cuGraphicsGLRegisterImage(resource: *mut CUgraphicsResource, image: u32, target: u32, flags: c_uint);
    cuGLRegisterBufferObject(buffer: u32);
    cuGLMapBufferObject(dptr: *mut CUdeviceptr, size: *mut usize, buffer: u32);
    cuGLMapBufferObjectAsync(dptr: *mut CUdeviceptr, size: *mut usize, buffer: u32, stream: CUstream);
    cuGLUnmapBufferObject(buffer: u32);
    cuGLUnmapBufferObjectAsync(buffer: u32, stream: CUstream);
    cuGLUnregisterBufferObject(buffer: u32);
    cuGLSetBufferObjectMapFlags(buffer: u32, flags: c_uint);

    // EGL (`EGLImageKHR` and `EGLStreamKHR` are pointers, `EGLint` i32).
    cuGraphicsEGLRegisterImage(resource: *mut CUgraphicsResource, image: *mut c_void, flags: c_uint);
    cuEGLStreamConsumerConnect(conn: *mut cudaEglStreamConnection, stream: *mut c_void);
    cuEGLStreamConsumerConnectWithFlags(conn: *mut cudaEglStreamConnection, stream: *mut c_void, flags: c_uint);
    cuEGLStreamConsumerDisconnect(conn: *mut cudaEglStreamConnection);
    cuEGLStreamConsumerAcquireFrame(conn: *mut cudaEglStreamConnection, resource: *mut CUgraphicsResource, stream: *mut CUstream, timeout: c_uint);
    cuEGLStreamConsumerReleaseFrame(conn: *mut cudaEglStreamConnection, resource: CUgraphicsResource, stream: *mut CUstream);
    cuEGLStreamProducerConnect(conn: *mut cudaEglStreamConnection, stream: *mut c_void, width: i32, height: i32);
    cuEGLStreamProducerDisconnect(conn: *mut cudaEglStreamConnection);
    cuEGLStreamProducerPresentFrame(conn: *mut cudaEglStreamConnection, frame: CUeglFrame, stream: *mut CUstream);
    cuEGLStreamProducerReturnFrame(conn: *mut cudaEglStreamConnection, frame: *mut CUeglFrame, stream: *mut CUstream);
    cuGraphicsResourceGetMappedEglFrame(frame: *mut CUeglFrame, resource: CUgraphicsResource, index: c_uint, level: c_uint);

    // VDPAU (`VdpDevice` and the surfaces are u32; `VdpGetProcAddress *`
    // is a function pointer the driver calls, passed through untouched).
    cuVDPAUGetDevice(dev: *mut CUdevice, vdp_device: u32, get_proc_address: *mut c_void);
    cuGraphicsVDPAURegisterVideoSurface(resource: *mut CUgraphicsResource, surface: u32, flags: c_uint);
    cuGraphicsVDPAURegisterOutputSurface(resource: *mut CUgraphicsResource, surface: u32, flags: c_uint);
    }
}
