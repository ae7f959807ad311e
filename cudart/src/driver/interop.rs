//! Driver entry points for external memory and semaphores and for graphics
//! interop (OpenGL, EGL, VDPAU, `cuGraphics*`).
//!
//! `driver::family::<InteropApi>(per_thread)` resolves this table on first use.
//! Names resolved by base name for CUDA 13.0 give the newest variant:
//! `cuGraphicsResourceGetMappedPointer` and `cuGraphicsResourceSetMapFlags`
//! the `_v2` forms, `cuGLGetDevices` `_v2`, `cuGLMapBufferObject(Async)` the
//! `_v2` (`size_t`) forms; the signatures below are those. The structs the
//! runtime and the driver lay out identically (external-memory handle and
//! buffer descriptors, semaphore handle descriptor, signal and wait
//! parameters: same fields, same offsets, same enumerator numbers) are
//! declared with the runtime's types and handed over as they are; the two
//! whose layout differs (`CUeglFrame`, the mipmapped array descriptor of
//! external memory) are in `driver/types.rs`.

#![allow(non_snake_case)]

use super::types::*;
use super::CUresult;
use crate::abi::{
    cudaExternalMemoryBufferDesc, cudaExternalMemoryHandleDesc, cudaExternalSemaphoreHandleDesc,
    cudaExternalSemaphoreSignalParams, cudaExternalSemaphoreWaitParams,
};
use std::ffi::{c_uint, c_void};

driver_api! {
    pub struct InteropApi {
    // External memory and semaphores.
    cuImportExternalMemory(out: *mut CUexternalMemory, desc: *const cudaExternalMemoryHandleDesc);
    cuExternalMemoryGetMappedBuffer(dptr: *mut CUdeviceptr, mem: CUexternalMemory, desc: *const cudaExternalMemoryBufferDesc);
    cuExternalMemoryGetMappedMipmappedArray(out: *mut CUmipmappedArray, mem: CUexternalMemory, desc: *const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC);
    cuDestroyExternalMemory(mem: CUexternalMemory);
    cuImportExternalSemaphore(out: *mut CUexternalSemaphore, desc: *const cudaExternalSemaphoreHandleDesc);
    cuSignalExternalSemaphoresAsync(sems: *const CUexternalSemaphore, params: *const cudaExternalSemaphoreSignalParams, count: c_uint, stream: CUstream);
    cuWaitExternalSemaphoresAsync(sems: *const CUexternalSemaphore, params: *const cudaExternalSemaphoreWaitParams, count: c_uint, stream: CUstream);
    cuDestroyExternalSemaphore(sem: CUexternalSemaphore);

    // Graphics resources, whatever API registered them.
    cuGraphicsMapResources(count: c_uint, resources: *mut CUgraphicsResource, stream: CUstream);
    cuGraphicsUnmapResources(count: c_uint, resources: *mut CUgraphicsResource, stream: CUstream);
    cuGraphicsResourceSetMapFlags(resource: CUgraphicsResource, flags: c_uint);
    cuGraphicsResourceGetMappedPointer(dptr: *mut CUdeviceptr, size: *mut usize, resource: CUgraphicsResource);
    cuGraphicsSubResourceGetMappedArray(array: *mut CUarray, resource: CUgraphicsResource, index: c_uint, level: c_uint);
    cuGraphicsResourceGetMappedMipmappedArray(mipmap: *mut CUmipmappedArray, resource: CUgraphicsResource);
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
    cuEGLStreamConsumerConnect(conn: *mut CUeglStreamConnection, stream: *mut c_void);
    cuEGLStreamConsumerConnectWithFlags(conn: *mut CUeglStreamConnection, stream: *mut c_void, flags: c_uint);
    cuEGLStreamConsumerDisconnect(conn: *mut CUeglStreamConnection);
    cuEGLStreamConsumerAcquireFrame(conn: *mut CUeglStreamConnection, resource: *mut CUgraphicsResource, stream: *mut CUstream, timeout: c_uint);
    cuEGLStreamConsumerReleaseFrame(conn: *mut CUeglStreamConnection, resource: CUgraphicsResource, stream: *mut CUstream);
    cuEGLStreamProducerConnect(conn: *mut CUeglStreamConnection, stream: *mut c_void, width: i32, height: i32);
    cuEGLStreamProducerDisconnect(conn: *mut CUeglStreamConnection);
    cuEGLStreamProducerPresentFrame(conn: *mut CUeglStreamConnection, frame: CUeglFrame, stream: *mut CUstream);
    cuEGLStreamProducerReturnFrame(conn: *mut CUeglStreamConnection, frame: *mut CUeglFrame, stream: *mut CUstream);
    cuGraphicsResourceGetMappedEglFrame(frame: *mut CUeglFrame, resource: CUgraphicsResource, index: c_uint, level: c_uint);

    // VDPAU (`VdpDevice` and the surfaces are u32; `VdpGetProcAddress *`
    // is a function pointer the driver calls, passed through untouched).
    cuVDPAUGetDevice(dev: *mut CUdevice, vdp_device: u32, get_proc_address: *mut VdpGetProcAddress);
    cuGraphicsVDPAURegisterVideoSurface(resource: *mut CUgraphicsResource, surface: u32, flags: c_uint);
    cuGraphicsVDPAURegisterOutputSurface(resource: *mut CUgraphicsResource, surface: u32, flags: c_uint);
    }
}
