//! Entry points for external memory and semaphores and for graphics
//! interop (OpenGL, EGL, VDPAU, `cudaGraphics*`).
//!
//! The GL, EGL and VDPAU types of the C signatures are plain integers and
//! pointers: `GLuint`, `GLenum`, `VdpDevice`, `VdpVideoSurface` and
//! `VdpOutputSurface` are `u32`, `EGLint` is `i32`, `EGLImageKHR`,
//! `EGLStreamKHR` and `VdpGetProcAddress *` are pointers; enum parameters
//! (`cudaGLDeviceList`) are `c_uint`.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{CStrArg, In, Needs, Out};
use crate::{external, interop};
use std::ffi::{c_char, c_int, c_uint, c_void};

entry_points! {
    // External memory and semaphores.
    Context fn cudaImportExternalMemory(extMem_out: Out<cudaExternalMemory_t>,
        memHandleDesc: In<cudaExternalMemoryHandleDesc>) -> cudaError_t
        => external::import_memory(extMem_out, memHandleDesc);
    Context fn cudaExternalMemoryGetMappedBuffer(devPtr: Out<*mut c_void>, extMem: cudaExternalMemory_t,
        bufferDesc: In<cudaExternalMemoryBufferDesc>) -> cudaError_t
        => external::mapped_buffer(devPtr, extMem, bufferDesc);
    Context fn cudaExternalMemoryGetMappedMipmappedArray(mipmap: Out<cudaMipmappedArray_t>, extMem: cudaExternalMemory_t,
        mipmapDesc: In<cudaExternalMemoryMipmappedArrayDesc>) -> cudaError_t
        => external::mapped_mipmapped_array(mipmap, extMem, mipmapDesc);
    Context fn cudaDestroyExternalMemory(extMem: cudaExternalMemory_t) -> cudaError_t => external::destroy_memory(extMem);
    Context fn cudaImportExternalSemaphore(extSem_out: Out<cudaExternalSemaphore_t>,
        semHandleDesc: In<cudaExternalSemaphoreHandleDesc>) -> cudaError_t
        => external::import_semaphore(extSem_out, semHandleDesc);
    Context fn cudaSignalExternalSemaphoresAsync(extSemArray: *const cudaExternalSemaphore_t,
        paramsArray: *const cudaExternalSemaphoreSignalParams, numExtSems: c_uint, stream: cudaStream_t) -> cudaError_t
        => external::signal_semaphores(extSemArray, paramsArray, numExtSems, stream, LEGACY);
    Context fn cudaSignalExternalSemaphoresAsync_ptsz(extSemArray: *const cudaExternalSemaphore_t,
        paramsArray: *const cudaExternalSemaphoreSignalParams, numExtSems: c_uint, stream: cudaStream_t) -> cudaError_t
        => external::signal_semaphores(extSemArray, paramsArray, numExtSems, stream, PT);
    Context fn cudaWaitExternalSemaphoresAsync(extSemArray: *const cudaExternalSemaphore_t,
        paramsArray: *const cudaExternalSemaphoreWaitParams, numExtSems: c_uint, stream: cudaStream_t) -> cudaError_t
        => external::wait_semaphores(extSemArray, paramsArray, numExtSems, stream, LEGACY);
    Context fn cudaWaitExternalSemaphoresAsync_ptsz(extSemArray: *const cudaExternalSemaphore_t,
        paramsArray: *const cudaExternalSemaphoreWaitParams, numExtSems: c_uint, stream: cudaStream_t) -> cudaError_t
        => external::wait_semaphores(extSemArray, paramsArray, numExtSems, stream, PT);
    Context fn cudaDestroyExternalSemaphore(extSem: cudaExternalSemaphore_t) -> cudaError_t
        => external::destroy_semaphore(extSem);

    // Graphics resources, whatever API registered them.
    Context fn cudaGraphicsUnregisterResource(resource: cudaGraphicsResource_t) -> cudaError_t
        => interop::unregister_resource(resource);
    Context fn cudaGraphicsMapResources(count: c_int, resources: *mut cudaGraphicsResource_t, stream: cudaStream_t) -> cudaError_t
        => interop::map_resources(count, resources, stream);
    Context fn cudaGraphicsUnmapResources(count: c_int, resources: *mut cudaGraphicsResource_t, stream: cudaStream_t) -> cudaError_t
        => interop::unmap_resources(count, resources, stream);
    Context fn cudaGraphicsResourceSetMapFlags(resource: cudaGraphicsResource_t, flags: c_uint) -> cudaError_t
        => interop::set_map_flags(resource, flags);
    Context fn cudaGraphicsResourceGetMappedPointer(devPtr: *mut *mut c_void, size: *mut usize,
        resource: cudaGraphicsResource_t) -> cudaError_t => interop::mapped_pointer(devPtr, size, resource);
    Context fn cudaGraphicsSubResourceGetMappedArray(array: *mut cudaArray_t, resource: cudaGraphicsResource_t,
        arrayIndex: c_uint, mipLevel: c_uint) -> cudaError_t
        => interop::sub_resource_mapped_array(array, resource, arrayIndex, mipLevel);
    Context fn cudaGraphicsResourceGetMappedMipmappedArray(mipmappedArray: *mut cudaMipmappedArray_t,
        resource: cudaGraphicsResource_t) -> cudaError_t => interop::mapped_mipmapped_array(mipmappedArray, resource);

    // OpenGL.
    Context fn cudaGLGetDevices(pCudaDeviceCount: *mut c_uint, pCudaDevices: *mut c_int, cudaDeviceCount: c_uint,
        deviceList: c_uint) -> cudaError_t
        => interop::gl_get_devices(pCudaDeviceCount, pCudaDevices, cudaDeviceCount, deviceList);
    Context fn cudaGraphicsGLRegisterImage(resource: *mut cudaGraphicsResource_t, image: u32, target: u32,
        flags: c_uint) -> cudaError_t => interop::gl_register_image(resource, image, target, flags);
    Context fn cudaGraphicsGLRegisterBuffer(resource: *mut cudaGraphicsResource_t, buffer: u32, flags: c_uint) -> cudaError_t
        => interop::gl_register_buffer(resource, buffer, flags);
    Driver fn cudaGLSetGLDevice(device: c_int) -> cudaError_t => interop::gl_set_device(device);
    Context fn cudaGLRegisterBufferObject(bufObj: u32) -> cudaError_t => interop::gl_register_buffer_object(bufObj);
    Context fn cudaGLMapBufferObject(devPtr: Out<*mut c_void>, bufObj: u32) -> cudaError_t
        => interop::gl_map_buffer_object(devPtr, bufObj, None);
    Context fn cudaGLUnmapBufferObject(bufObj: u32) -> cudaError_t => interop::gl_unmap_buffer_object(bufObj, None);
    Context fn cudaGLUnregisterBufferObject(bufObj: u32) -> cudaError_t => interop::gl_unregister_buffer_object(bufObj);
    Context fn cudaGLSetBufferObjectMapFlags(bufObj: u32, flags: c_uint) -> cudaError_t
        => interop::gl_set_buffer_object_map_flags(bufObj, flags);
    Context fn cudaGLMapBufferObjectAsync(devPtr: Out<*mut c_void>, bufObj: u32, stream: cudaStream_t) -> cudaError_t
        => interop::gl_map_buffer_object(devPtr, bufObj, Some(stream));
    Context fn cudaGLUnmapBufferObjectAsync(bufObj: u32, stream: cudaStream_t) -> cudaError_t
        => interop::gl_unmap_buffer_object(bufObj, Some(stream));

    // EGL.
    Context fn cudaGraphicsEGLRegisterImage(pCudaResource: *mut cudaGraphicsResource_t, image: *mut c_void,
        flags: c_uint) -> cudaError_t => interop::egl_register_image(pCudaResource, image, flags);
    Context fn cudaEGLStreamConsumerConnect(conn: *mut cudaEglStreamConnection, eglStream: *mut c_void) -> cudaError_t
        => interop::egl_consumer_connect(conn, eglStream, None);
    Context fn cudaEGLStreamConsumerConnectWithFlags(conn: *mut cudaEglStreamConnection, eglStream: *mut c_void,
        flags: c_uint) -> cudaError_t => interop::egl_consumer_connect(conn, eglStream, Some(flags));
    Context fn cudaEGLStreamConsumerDisconnect(conn: *mut cudaEglStreamConnection) -> cudaError_t
        => interop::egl_consumer_disconnect(conn);
    Context fn cudaEGLStreamConsumerAcquireFrame(conn: *mut cudaEglStreamConnection,
        pCudaResource: *mut cudaGraphicsResource_t, pStream: *mut cudaStream_t, timeout: c_uint) -> cudaError_t
        => interop::egl_consumer_acquire_frame(conn, pCudaResource, pStream, timeout);
    Context fn cudaEGLStreamConsumerReleaseFrame(conn: *mut cudaEglStreamConnection,
        pCudaResource: cudaGraphicsResource_t, pStream: *mut cudaStream_t) -> cudaError_t
        => interop::egl_consumer_release_frame(conn, pCudaResource, pStream);
    Context fn cudaEGLStreamProducerConnect(conn: *mut cudaEglStreamConnection, eglStream: *mut c_void, width: i32,
        height: i32) -> cudaError_t => interop::egl_producer_connect(conn, eglStream, width, height);
    Context fn cudaEGLStreamProducerDisconnect(conn: *mut cudaEglStreamConnection) -> cudaError_t
        => interop::egl_producer_disconnect(conn);
    Context fn cudaEGLStreamProducerPresentFrame(conn: *mut cudaEglStreamConnection, eglframe: cudaEglFrame,
        pStream: *mut cudaStream_t) -> cudaError_t => interop::egl_producer_present_frame(conn, eglframe, pStream);
    Context fn cudaEGLStreamProducerReturnFrame(conn: *mut cudaEglStreamConnection, eglframe: Out<cudaEglFrame>,
        pStream: *mut cudaStream_t) -> cudaError_t => interop::egl_producer_return_frame(conn, eglframe, pStream);
    Context fn cudaGraphicsResourceGetMappedEglFrame(eglFrame: Out<cudaEglFrame>, resource: cudaGraphicsResource_t,
        index: c_uint, mipLevel: c_uint) -> cudaError_t
        => interop::mapped_egl_frame(eglFrame, resource, index, mipLevel);

    // VDPAU.
    Context fn cudaVDPAUGetDevice(device: *mut c_int, vdpDevice: u32, vdpGetProcAddress: *mut c_void) -> cudaError_t
        => interop::vdpau_get_device(device, vdpDevice, vdpGetProcAddress);
    Driver fn cudaVDPAUSetVDPAUDevice(device: c_int, vdpDevice: u32, vdpGetProcAddress: *mut c_void) -> cudaError_t
        => interop::vdpau_set_device(device, vdpDevice, vdpGetProcAddress);
    Context fn cudaGraphicsVDPAURegisterVideoSurface(resource: *mut cudaGraphicsResource_t, vdpSurface: u32,
        flags: c_uint) -> cudaError_t => interop::vdpau_register_video_surface(resource, vdpSurface, flags);
    Context fn cudaGraphicsVDPAURegisterOutputSurface(resource: *mut cudaGraphicsResource_t, vdpSurface: u32,
        flags: c_uint) -> cudaError_t => interop::vdpau_register_output_surface(resource, vdpSurface, flags);
}
