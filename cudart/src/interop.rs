//! Graphics interop (OpenGL, EGL, VDPAU, `cudaGraphics*`) through the
//! driver's interop API.
//!
//! Every call forwards to the driver function of the same meaning. A
//! `cudaGraphicsResource_t` is the driver's `CUgraphicsResource` and an
//! EGL stream connection the driver's `CUeglStreamConnection`, passed
//! through; the registration and map flags (`cudaGraphicsRegisterFlags*`,
//! `cudaGraphicsMapFlags*`, `cudaGLMapFlags*`), `cudaGLDeviceList`, the EGL
//! frame types and color formats have the driver's numbers. Only the EGL
//! frame differs in layout: the runtime describes every plane
//! (`cudaEglPlaneDesc`, pitched pointers), the driver the first plane and
//! an array format, so frames are converted in both directions.
//!
//! On a machine without a display the driver answers with its own errors
//! (no current GL context, no EGL display, no VDPAU device); those are the
//! real behaviour and are returned as they are.
//!
//! `cudaGLSetGLDevice` and `cudaVDPAUSetVDPAUDevice` are the deprecated
//! "use this device for interop" calls: since CUDA 5 (GL) a device needs
//! no association with the graphics API, and the driver's public API has
//! no way to attach a VdpDevice to a primary context, so both select the
//! device as `cudaSetDevice` does (`cudaGLSetGLDevice` only before the
//! runtime has set up a context, as NVIDIA's runtime answers).

use crate::abi::{
    cudaArray_t, cudaEglColorFormatARGB, cudaEglColorFormatUYVY2020,
    cudaEglColorFormatYUV420Planar, cudaEglColorFormatYUV422SemiPlanar, cudaEglColorFormatYUVA,
    cudaEglColorFormatYUVA_ER, cudaEglColorFormatYVYU, cudaEglColorFormatYVYU_ER, cudaEglFrame,
    cudaEglFrameTypeArray, cudaEglFrameTypePitch, cudaEglFrame_frame, cudaEglPlaneDesc,
    cudaEglStreamConnection, cudaError_t, cudaGraphicsResource_t, cudaMipmappedArray_t,
    cudaPitchedPtr, cudaStream_t, CUDA_EGL_MAX_PLANES,
};
use crate::boundary::Out;
use crate::context;
use crate::driver::interop::InteropApi;
use crate::driver::{self, CUdeviceptr, CUeglFrame, CUgraphicsResource, CUstream};
use std::ffi::{c_int, c_uint, c_void};

fn api() -> Result<&'static InteropApi, cudaError_t> {
    driver::family::<InteropApi>(false)
}

// ---------------------------------------------------------------------------
// Graphics resources, whatever API registered them.

/// A live object of another kind the runtime made (a stream) is no
/// graphics resource: refused before the driver reads it (it crashed on
/// one under NVIDIA's runtime on the H200). Resources are not recorded:
/// the many registration calls hand them out through the driver.
fn resource(r: cudaGraphicsResource_t) -> Result<CUgraphicsResource, cudaError_t> {
    crate::handles::check(r.cast(), crate::handles::Kind::GraphicsResource)?;
    Ok(CUgraphicsResource::from(r))
}

/// `cudaGraphicsUnregisterResource`.
pub fn unregister_resource(r: cudaGraphicsResource_t) -> Result<(), cudaError_t> {
    api()?.cuGraphicsUnregisterResource(resource(r)?).ok()
}

/// `count` as the driver's unsigned count; a negative one is refused.
/// NVIDIA's runtime looks at the first resource before the count: a
/// negative count over a NULL first resource is
/// cudaErrorInvalidResourceHandle (seen on an H200), otherwise
/// cudaErrorInvalidValue.
fn resource_count(
    count: c_int,
    resources: *const cudaGraphicsResource_t,
) -> Result<c_uint, cudaError_t> {
    c_uint::try_from(count).map_err(|_| {
        // SAFETY: a non-NULL `resources` is the caller's array, which
        // holds at least one entry whenever it is passed at all.
        if !resources.is_null() && unsafe { resources.read_unaligned() }.is_null() {
            cudaError_t::cudaErrorInvalidResourceHandle
        } else {
            cudaError_t::cudaErrorInvalidValue
        }
    })
}

/// `cudaGraphicsMapResources`.
pub fn map_resources(
    count: c_int,
    resources: *mut cudaGraphicsResource_t,
    stream: cudaStream_t,
) -> Result<(), cudaError_t> {
    let count = resource_count(count, resources)?;
    let stream = crate::launch::driver_stream(stream, false)?;
    api()?
        .cuGraphicsMapResources(count, resources.cast(), stream)
        .ok()
}

/// `cudaGraphicsUnmapResources`.
pub fn unmap_resources(
    count: c_int,
    resources: *mut cudaGraphicsResource_t,
    stream: cudaStream_t,
) -> Result<(), cudaError_t> {
    let count = resource_count(count, resources)?;
    let stream = crate::launch::driver_stream(stream, false)?;
    api()?
        .cuGraphicsUnmapResources(count, resources.cast(), stream)
        .ok()
}

/// `cudaGraphicsResourceSetMapFlags`.
pub fn set_map_flags(r: cudaGraphicsResource_t, flags: c_uint) -> Result<(), cudaError_t> {
    api()?
        .cuGraphicsResourceSetMapFlags(resource(r)?, flags)
        .ok()
}

/// `cudaGraphicsResourceGetMappedPointer`: `void **` and `CUdeviceptr *`
/// are the same 64-bit slot, so the caller's pointers go to the driver,
/// which checks them.
pub fn mapped_pointer(
    dev_ptr: *mut *mut c_void,
    size: *mut usize,
    r: cudaGraphicsResource_t,
) -> Result<(), cudaError_t> {
    api()?
        .cuGraphicsResourceGetMappedPointer(dev_ptr.cast::<CUdeviceptr>(), size, resource(r)?)
        .ok()
}

/// `cudaGraphicsSubResourceGetMappedArray`.
pub fn sub_resource_mapped_array(
    array: *mut cudaArray_t,
    r: cudaGraphicsResource_t,
    index: c_uint,
    level: c_uint,
) -> Result<(), cudaError_t> {
    api()?
        .cuGraphicsSubResourceGetMappedArray(array.cast(), resource(r)?, index, level)
        .ok()?;
    forget_written(array.cast());
    Ok(())
}

/// An array the driver just wrote through `out` is not one the runtime
/// freed before at the same address ([`crate::handles`]).
fn forget_written(out: *const *mut c_void) {
    if let Ok(a) = crate::boundary::In(out).read() {
        crate::handles::forget(a);
    }
}

/// `cudaGraphicsResourceGetMappedMipmappedArray`.
pub fn mapped_mipmapped_array(
    mipmap: *mut cudaMipmappedArray_t,
    r: cudaGraphicsResource_t,
) -> Result<(), cudaError_t> {
    api()?
        .cuGraphicsResourceGetMappedMipmappedArray(mipmap.cast(), resource(r)?)
        .ok()?;
    forget_written(mipmap.cast());
    Ok(())
}

// ---------------------------------------------------------------------------
// OpenGL.

/// `cudaGLGetDevices`: the CUDA devices of the current GL context.
pub fn gl_get_devices(
    count: *mut c_uint,
    devices: *mut c_int,
    capacity: c_uint,
    list: c_uint,
) -> Result<(), cudaError_t> {
    api()?.cuGLGetDevices(count, devices, capacity, list).ok()
}

/// `cudaGraphicsGLRegisterBuffer`.
pub fn gl_register_buffer(
    resource: *mut cudaGraphicsResource_t,
    buffer: u32,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    api()?
        .cuGraphicsGLRegisterBuffer(resource.cast(), buffer, flags)
        .ok()
}

/// `cudaGraphicsGLRegisterImage`.
pub fn gl_register_image(
    resource: *mut cudaGraphicsResource_t,
    image: u32,
    target: u32,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    api()?
        .cuGraphicsGLRegisterImage(resource.cast(), image, target, flags)
        .ok()
}

/// `cudaGLSetGLDevice` (deprecated since CUDA 5.0): selects the device, as
/// `cudaSetDevice` does; GL interop needs no further association.
/// Like NVIDIA's runtime, it is refused with cudaErrorSetOnActiveProcess
/// once the runtime has set up a context (seen on an H200).
pub fn gl_set_device(device: c_int) -> Result<(), cudaError_t> {
    context::check_device(device)?;
    if context::has_context() {
        return Err(cudaError_t::cudaErrorSetOnActiveProcess);
    }
    context::set_device(device)
}

/// `cudaGLRegisterBufferObject` (deprecated).
pub fn gl_register_buffer_object(buffer: u32) -> Result<(), cudaError_t> {
    api()?.cuGLRegisterBufferObject(buffer).ok()
}

/// `cudaGLUnregisterBufferObject` (deprecated).
/// NVIDIA's runtime needs a current GL context here first: without one it
/// answers with the error the driver gives for that (on a headless H200,
/// cudaErrorOperatingSystem), not the driver's InvalidValue for an
/// unregistered buffer. The GL device query makes the same check; only
/// its "no GL context" answer is passed on.
pub fn gl_unregister_buffer_object(buffer: u32) -> Result<(), cudaError_t> {
    let api = api()?;
    let mut count: c_uint = 0;
    let mut device: c_int = 0;
    if let Err(cudaError_t::cudaErrorOperatingSystem) = api
        .cuGLGetDevices(&mut count, &mut device, 1, GL_DEVICE_LIST_ALL)
        .ok()
    {
        return Err(cudaError_t::cudaErrorOperatingSystem);
    }
    api.cuGLUnregisterBufferObject(buffer).ok()
}

/// `cudaGLDeviceListAll` (the driver's `CU_GL_DEVICE_LIST_ALL`).
const GL_DEVICE_LIST_ALL: c_uint = 1;

/// `cudaGLSetBufferObjectMapFlags` (deprecated).
pub fn gl_set_buffer_object_map_flags(buffer: u32, flags: c_uint) -> Result<(), cudaError_t> {
    api()?.cuGLSetBufferObjectMapFlags(buffer, flags).ok()
}

/// `cudaGLMapBufferObject` and `cudaGLMapBufferObjectAsync` (deprecated;
/// `stream` for the second): the device address of the mapped buffer.
pub fn gl_map_buffer_object(
    out: Out<*mut c_void>,
    buffer: u32,
    stream: Option<cudaStream_t>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let api = api()?;
    let mut dptr: CUdeviceptr = 0;
    let mut size = 0usize;
    match stream {
        None => api.cuGLMapBufferObject(&mut dptr, &mut size, buffer),
        Some(s) => api.cuGLMapBufferObjectAsync(
            &mut dptr,
            &mut size,
            buffer,
            crate::launch::driver_stream(s, false)?,
        ),
    }
    .ok()?;
    out.write(dptr as *mut c_void)
}

/// `cudaGLUnmapBufferObject` and `cudaGLUnmapBufferObjectAsync` (deprecated).
pub fn gl_unmap_buffer_object(
    buffer: u32,
    stream: Option<cudaStream_t>,
) -> Result<(), cudaError_t> {
    let api = api()?;
    match stream {
        None => api.cuGLUnmapBufferObject(buffer),
        Some(s) => api.cuGLUnmapBufferObjectAsync(buffer, crate::launch::driver_stream(s, false)?),
    }
    .ok()
}

// ---------------------------------------------------------------------------
// VDPAU.

/// `cudaVDPAUGetDevice`.
pub fn vdpau_get_device(
    device: *mut c_int,
    vdp_device: u32,
    get_proc_address: *mut c_void,
) -> Result<(), cudaError_t> {
    api()?
        .cuVDPAUGetDevice(device, vdp_device, get_proc_address.cast())
        .ok()
}

/// `cudaVDPAUSetVDPAUDevice`: selects the device as `cudaSetDevice` does.
/// The VdpDevice is not recorded: the driver's public API takes one only
/// when creating a separate context (`cuVDPAUCtxCreate`), which would
/// replace the device's primary context for this thread.
pub fn vdpau_set_device(
    device: c_int,
    _vdp_device: u32,
    _get_proc_address: *mut c_void,
) -> Result<(), cudaError_t> {
    context::set_device(device)
}

/// `cudaGraphicsVDPAURegisterVideoSurface`.
pub fn vdpau_register_video_surface(
    resource: *mut cudaGraphicsResource_t,
    surface: u32,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    api()?
        .cuGraphicsVDPAURegisterVideoSurface(resource.cast(), surface, flags)
        .ok()
}

/// `cudaGraphicsVDPAURegisterOutputSurface`.
pub fn vdpau_register_output_surface(
    resource: *mut cudaGraphicsResource_t,
    surface: u32,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    api()?
        .cuGraphicsVDPAURegisterOutputSurface(resource.cast(), surface, flags)
        .ok()
}

// ---------------------------------------------------------------------------
// EGL.

/// `cudaGraphicsEGLRegisterImage`.
pub fn egl_register_image(
    resource: *mut cudaGraphicsResource_t,
    image: *mut c_void,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    api()?
        .cuGraphicsEGLRegisterImage(resource.cast(), image, flags)
        .ok()
}

/// `cudaEGLStreamConsumerConnect` and `...WithFlags`.
pub fn egl_consumer_connect(
    conn: *mut cudaEglStreamConnection,
    stream: *mut c_void,
    flags: Option<c_uint>,
) -> Result<(), cudaError_t> {
    let api = api()?;
    match flags {
        None => api.cuEGLStreamConsumerConnect(conn.cast(), stream),
        Some(f) => api.cuEGLStreamConsumerConnectWithFlags(conn.cast(), stream, f),
    }
    .ok()
}

/// `cudaEGLStreamConsumerDisconnect`.
pub fn egl_consumer_disconnect(conn: *mut cudaEglStreamConnection) -> Result<(), cudaError_t> {
    api()?.cuEGLStreamConsumerDisconnect(conn.cast()).ok()
}

/// `cudaEGLStreamConsumerAcquireFrame`.
pub fn egl_consumer_acquire_frame(
    conn: *mut cudaEglStreamConnection,
    resource: *mut cudaGraphicsResource_t,
    stream: *mut cudaStream_t,
    timeout: c_uint,
) -> Result<(), cudaError_t> {
    api()?
        .cuEGLStreamConsumerAcquireFrame(conn.cast(), resource.cast(), stream.cast(), timeout)
        .ok()
}

/// `cudaEGLStreamConsumerReleaseFrame`.
pub fn egl_consumer_release_frame(
    conn: *mut cudaEglStreamConnection,
    resource: cudaGraphicsResource_t,
    stream: *mut cudaStream_t,
) -> Result<(), cudaError_t> {
    api()?
        .cuEGLStreamConsumerReleaseFrame(conn.cast(), resource.into(), stream.cast())
        .ok()
}

/// `cudaEGLStreamProducerConnect`.
pub fn egl_producer_connect(
    conn: *mut cudaEglStreamConnection,
    stream: *mut c_void,
    width: i32,
    height: i32,
) -> Result<(), cudaError_t> {
    api()?
        .cuEGLStreamProducerConnect(conn.cast(), stream, width, height)
        .ok()
}

/// `cudaEGLStreamProducerDisconnect`.
pub fn egl_producer_disconnect(conn: *mut cudaEglStreamConnection) -> Result<(), cudaError_t> {
    api()?.cuEGLStreamProducerDisconnect(conn.cast()).ok()
}

/// `cudaEGLStreamProducerPresentFrame`: the frame in the driver's layout.
pub fn egl_producer_present_frame(
    conn: *mut cudaEglStreamConnection,
    frame: cudaEglFrame,
    stream: *mut cudaStream_t,
) -> Result<(), cudaError_t> {
    let frame = frame_to_driver(&frame)?;
    api()?
        .cuEGLStreamProducerPresentFrame(conn.cast(), frame, stream.cast::<CUstream>())
        .ok()
}

/// `cudaEGLStreamProducerReturnFrame`: the frame the consumer gave back,
/// in the runtime's layout.
pub fn egl_producer_return_frame(
    conn: *mut cudaEglStreamConnection,
    out: Out<cudaEglFrame>,
    stream: *mut cudaStream_t,
) -> Result<(), cudaError_t> {
    // The connection is the driver's to check first, the out-pointer
    // after (NVIDIA's order: a NULL frame with no connection is
    // cudaErrorInvalidResourceHandle).
    let mut frame = CUeglFrame::default();
    api()?
        .cuEGLStreamProducerReturnFrame(conn.cast(), &mut frame, stream.cast::<CUstream>())
        .ok()?;
    out.check()?;
    out.write(frame_from_driver(&frame)?)
}

/// `cudaGraphicsResourceGetMappedEglFrame`.
pub fn mapped_egl_frame(
    out: Out<cudaEglFrame>,
    resource: cudaGraphicsResource_t,
    index: c_uint,
    level: c_uint,
) -> Result<(), cudaError_t> {
    // NVIDIA's runtime checks the resource before the output pointer.
    if resource.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    out.check()?;
    let resource = self::resource(resource)?;
    let mut frame = CUeglFrame::default();
    api()?
        .cuGraphicsResourceGetMappedEglFrame(&mut frame, resource, index, level)
        .ok()?;
    out.write(frame_from_driver(&frame)?)
}

/// Whether the runtime's `cudaEglColorFormat` names this number (the
/// driver's enumeration has a few more).
fn runtime_color_format(format: u32) -> bool {
    (cudaEglColorFormatYUV420Planar..=cudaEglColorFormatYUV422SemiPlanar).contains(&format)
        || (cudaEglColorFormatARGB..=cudaEglColorFormatYVYU_ER).contains(&format)
        || (cudaEglColorFormatYUVA_ER..=cudaEglColorFormatYUVA).contains(&format)
        || (cudaEglColorFormatYVYU..=cudaEglColorFormatUYVY2020).contains(&format)
}

/// How a multi-planar color format's second and third planes relate to
/// the first: their size, and for semi-planar formats (one interleaved
/// two-channel chroma plane) that plane's bits per channel.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Chroma {
    /// Width (and pitch) divisor.
    x: u32,
    /// Height divisor.
    y: u32,
    /// Bits of the chroma plane's second channel (semi-planar formats).
    pair_bits: Option<i32>,
}

/// The chroma layout of a color format (the driver's numbers, which the
/// runtime shares); `None` for single-plane formats and those whose extra
/// planes the runtime does not describe.
fn chroma(format: u32) -> Option<Chroma> {
    let c = |x, y, pair_bits| Some(Chroma { x, y, pair_bits });
    match format {
        // YUV420 / YVU420 planar: plain, _ER, _2020, _709.
        0x00 | 0x23 | 0x43 | 0x29 | 0x55 | 0x56 | 0x59 | 0x5a => c(2, 2, None),
        // YUV420 / YVU420 semi-planar, 8-bit chroma: plain, _ER, _2020, _709.
        0x01 | 0x26 | 0x15 | 0x2c | 0x53 | 0x54 | 0x57 | 0x58 => c(2, 2, Some(8)),
        // Y10V10U10 / Y12V12U12 420 semi-planar: plain, _709, _2020, _ER, _709_ER.
        0x17 | 0x19 | 0x5b | 0x5c | 0x6a | 0x6b | 0x6e | 0x6f => c(2, 2, Some(16)),
        // YUV422 / YVU422 planar: plain, _ER.
        0x02 | 0x22 | 0x42 | 0x28 => c(2, 1, None),
        // YUV422 / YVU422 semi-planar, 8-bit chroma: plain, _ER.
        0x03 | 0x25 | 0x14 | 0x2b => c(2, 1, Some(8)),
        // Y10V10U10 422 semi-planar: _2020, plain, _709.
        0x5d..=0x5f => c(2, 1, Some(16)),
        // YUV444 / YVU444 planar: plain, _ER.
        0x0a | 0x21 | 0x41 | 0x27 => c(1, 1, None),
        // YUV444 / YVU444 semi-planar, 8-bit chroma: plain, _ER.
        0x0b | 0x24 | 0x13 | 0x2a => c(1, 1, Some(8)),
        // Y10V10U10 / Y12V12U12 444 semi-planar: plain, _ER, _709_ER.
        0x16 | 0x18 | 0x6c | 0x6d | 0x70 | 0x71 => c(1, 1, Some(16)),
        _ => None,
    }
}

/// The frame type, checked: array or pitch.
fn frame_type(t: u32) -> Result<u32, cudaError_t> {
    if t == cudaEglFrameTypeArray || t == cudaEglFrameTypePitch {
        Ok(t)
    } else {
        Err(cudaError_t::cudaErrorInvalidValue)
    }
}

/// The plane count, checked against the frame's capacity.
fn plane_count(n: u32) -> Result<usize, cudaError_t> {
    if n <= CUDA_EGL_MAX_PLANES {
        Ok(n as usize)
    } else {
        Err(cudaError_t::cudaErrorInvalidValue)
    }
}

/// A runtime frame in the driver's layout: per-plane pointers, the first
/// plane's shape, and its channel format as an array format.
fn frame_to_driver(f: &cudaEglFrame) -> Result<CUeglFrame, cudaError_t> {
    if !runtime_color_format(f.eglColorFormat) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let kind = frame_type(f.frameType)?;
    let planes = plane_count(f.planeCount)?;
    let first = &f.planeDesc[0];
    let crate::copy::elements::Format { format, channels } =
        crate::array::driver_format(&first.channelDesc)?;
    let mut d = CUeglFrame {
        width: first.width,
        height: first.height,
        depth: first.depth,
        pitch: first.pitch,
        planeCount: f.planeCount,
        numChannels: channels,
        frameType: kind,
        eglColorFormat: f.eglColorFormat,
        cuFormat: format,
        ..CUeglFrame::default()
    };
    let pointers = plane_pointers(&f.frame, kind);
    d.frame[..planes].copy_from_slice(&pointers[..planes]);
    Ok(d)
}

/// A driver frame in the runtime's layout: every plane described, the
/// chroma planes' sizes derived from the color format.
fn frame_from_driver(d: &CUeglFrame) -> Result<cudaEglFrame, cudaError_t> {
    if !runtime_color_format(d.eglColorFormat) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let kind = frame_type(d.frameType)?;
    let planes = plane_count(d.planeCount)?;
    let channel_desc = crate::array::channel_desc(crate::copy::elements::Format {
        format: d.cuFormat,
        channels: d.numChannels,
    })?;
    let layout = chroma(d.eglColorFormat);
    let mut plane_desc = [cudaEglPlaneDesc::default(); 3];
    let mut pitched = [cudaPitchedPtr::default(); 3];
    let mut arrays: [cudaArray_t; 3] = [std::ptr::null_mut(); 3];
    for i in 0..planes {
        let p = &mut plane_desc[i];
        p.channelDesc = channel_desc;
        p.depth = d.depth;
        p.numChannels = d.numChannels;
        match (i, layout) {
            (0, _) => (p.width, p.height, p.pitch) = (d.width, d.height, d.pitch),
            (_, Some(c)) => {
                (p.width, p.height, p.pitch) = (d.width / c.x, d.height / c.y, d.pitch / c.x);
                if let (1, Some(bits)) = (i, c.pair_bits) {
                    p.channelDesc.y = bits;
                }
            }
            // Planes the runtime has no shape for stay zero-sized.
            (_, None) => {}
        }
        arrays[i] = d.frame[i];
        pitched[i] = cudaPitchedPtr {
            ptr: d.frame[i],
            pitch: p.pitch as usize,
            xsize: p.width as usize,
            ysize: p.height as usize,
        };
    }
    let frame = if kind == cudaEglFrameTypeArray {
        // Zero the whole union first (the pitched form is the larger), then
        // store the arrays over its start.
        let mut frame = cudaEglFrame_frame::default();
        frame.pArray = arrays;
        frame
    } else {
        cudaEglFrame_frame { pPitch: pitched }
    };
    Ok(cudaEglFrame {
        frame,
        planeDesc: plane_desc,
        planeCount: d.planeCount,
        frameType: kind,
        eglColorFormat: d.eglColorFormat,
    })
}

/// The planes' memory of a runtime frame, as `frameType` says to read the
/// union: CUDA arrays, or the pointers of pitched planes.
fn plane_pointers(frame: &cudaEglFrame_frame, kind: u32) -> [*mut c_void; 3] {
    if kind == cudaEglFrameTypeArray {
        // SAFETY: reading a union member is defined when its bytes are
        // initialized, which the C caller promises for the frame it passes
        // (the boundary's contract for every struct argument); the members
        // are pointers and integers, with no invalid bit patterns.
        unsafe { frame.pArray }
    } else {
        // SAFETY: as above, for the pitched member.
        unsafe { frame.pPitch }.map(|p| p.ptr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{cudaChannelFormatDesc, cudaChannelFormatKind};

    fn ptr(n: usize) -> *mut c_void {
        n as *mut c_void
    }

    #[test]
    fn color_formats_of_the_runtime() {
        for f in [0, 3, 6, 29, 31, 102, 104, 116] {
            assert!(runtime_color_format(f), "{f}");
        }
        for f in [4, 5, 30, 103, 117, 0x7fff_ffff] {
            assert!(!runtime_color_format(f), "{f}");
        }
    }

    #[test]
    fn semi_planar_pitch_frame_from_the_driver() {
        // YUV420 semi-planar, 8-bit, pitch-linear, 64x32.
        let d = CUeglFrame {
            frame: [ptr(0x1000), ptr(0x2000), std::ptr::null_mut()],
            width: 64,
            height: 32,
            depth: 1,
            pitch: 128,
            planeCount: 2,
            numChannels: 1,
            frameType: cudaEglFrameTypePitch,
            eglColorFormat: 0x01,
            cuFormat: 0x01,
        };
        let f = frame_from_driver(&d).unwrap();
        assert_eq!((f.planeCount, f.frameType, f.eglColorFormat), (2, 1, 1));
        let y = f.planeDesc[0];
        let uv = f.planeDesc[1];
        assert_eq!((y.width, y.height, y.pitch, y.depth), (64, 32, 128, 1));
        assert_eq!((uv.width, uv.height, uv.pitch), (32, 16, 64));
        let u8x1 = cudaChannelFormatDesc {
            x: 8,
            y: 0,
            z: 0,
            w: 0,
            f: cudaChannelFormatKind::cudaChannelFormatKindUnsigned,
        };
        assert_eq!(y.channelDesc, u8x1);
        assert_eq!(uv.channelDesc, cudaChannelFormatDesc { y: 8, ..u8x1 });
        // SAFETY: a pitch frame from `frame_from_driver` holds the pitched member.
        let uv_plane = unsafe { f.frame.pPitch[1] };
        assert_eq!(uv_plane.ptr, ptr(0x2000));
        assert_eq!(
            (uv_plane.pitch, uv_plane.xsize, uv_plane.ysize),
            (64, 32, 16)
        );

        // And back: the driver's frame again.
        assert_eq!(frame_to_driver(&f).unwrap(), d);
    }

    #[test]
    fn array_frame_round_trip() {
        let d = CUeglFrame {
            frame: [ptr(0x10), ptr(0x20), ptr(0x30)],
            width: 30,
            height: 20,
            depth: 1,
            pitch: 0,
            planeCount: 3,
            numChannels: 1,
            frameType: cudaEglFrameTypeArray,
            eglColorFormat: 0x00, // YUV420 planar
            cuFormat: 0x01,
        };
        let f = frame_from_driver(&d).unwrap();
        assert_eq!(plane_pointers(&f.frame, cudaEglFrameTypeArray), d.frame);
        assert_eq!((f.planeDesc[2].width, f.planeDesc[2].height), (15, 10));
        assert_eq!(frame_to_driver(&f).unwrap(), d);
    }

    #[test]
    fn malformed_frames_are_refused() {
        let good = CUeglFrame {
            planeCount: 1,
            numChannels: 4,
            eglColorFormat: 0x06, // ARGB
            cuFormat: 0x01,
            ..CUeglFrame::default()
        };
        assert!(frame_from_driver(&good).is_ok());
        let invalid = Err(cudaError_t::cudaErrorInvalidValue);
        for bad in [
            CUeglFrame {
                planeCount: 4,
                ..good
            },
            CUeglFrame {
                frameType: 2,
                ..good
            },
            CUeglFrame {
                eglColorFormat: 4,
                ..good
            },
        ] {
            assert_eq!(frame_from_driver(&bad).map(|_| ()), invalid);
        }
        let mut f = frame_from_driver(&good).unwrap();
        f.planeDesc[0].channelDesc.x = 12;
        assert_eq!(
            frame_to_driver(&f).map(|_| ()),
            Err(cudaError_t::cudaErrorInvalidChannelDescriptor)
        );
    }
}
