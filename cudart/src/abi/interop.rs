//! Graphics interop (`cuda_gl_interop.h`, `cuda_egl_interop.h`,
//! `cuda_vdpau_interop.h`): EGL frames, and the enumerators the runtime
//! passes to the driver unchanged.
//!
//! The interop headers' enums are kept as `u32` fields and constants here
//! (not `abi!` enums): the layout test's reverse scan covers the main
//! runtime headers only, while the probe compiles the interop headers too,
//! so every value below is still checked against NVIDIA's.
//!
//! The GL, EGL and VDPAU types in the signatures are plain integers and
//! pointers: `GLuint`/`GLenum`/`VdpDevice`/`VdpVideoSurface`/
//! `VdpOutputSurface` are `u32`, `EGLint` is `i32`, `EGLImageKHR`/
//! `EGLStreamKHR` and `VdpGetProcAddress *` are pointers.
use super::*;

/// An EGL stream connection; the driver's `CUeglStreamConnection`.
pub type cudaEglStreamConnection = *mut c_void;

abi! {
    types {
        /// One plane of an EGL frame.
        pub struct cudaEglPlaneDesc {
            pub width: u32,
            pub height: u32,
            pub depth: u32,
            pub pitch: u32,
            pub numChannels: u32,
            pub channelDesc: cudaChannelFormatDesc,
            pub reserved: [u32; 4],
        }
        /// The planes' memory: CUDA arrays or pitched pointers (the
        /// pitched form, the larger one, comes first).
        pub union cudaEglFrame_frame as "decltype(cudaEglFrame::frame)" {
            pub pPitch: [cudaPitchedPtr; 3],
            pub pArray: [cudaArray_t; 3],
        }
        /// One EGL frame (`cudaEglFrame`); `frameType` holds a
        /// `cudaEglFrameType`, `eglColorFormat` a `cudaEglColorFormat`.
        pub struct cudaEglFrame {
            pub frame: cudaEglFrame_frame,
            pub planeDesc: [cudaEglPlaneDesc; 3],
            pub planeCount: u32,
            pub frameType: u32,
            pub eglColorFormat: u32,
        }
    }
    enums {}
    consts {
        /// Planes of an EGL frame (the arrays above have this length).
        pub const CUDA_EGL_MAX_PLANES: u32 = 3;
        /// `cudaGLDeviceList`: the driver's `CUGLDeviceList` has the same numbers.
        pub const cudaGLDeviceListAll: u32 = 1;
        pub const cudaGLDeviceListCurrentFrame: u32 = 2;
        pub const cudaGLDeviceListNextFrame: u32 = 3;
        /// `cudaGLMapFlags`: the driver's `CUGLmap_flags` has the same numbers.
        pub const cudaGLMapFlagsNone: u32 = 0;
        pub const cudaGLMapFlagsReadOnly: u32 = 1;
        pub const cudaGLMapFlagsWriteDiscard: u32 = 2;
        /// `cudaEglFrameType`: the driver's `CUeglFrameType` has the same numbers.
        pub const cudaEglFrameTypeArray: u32 = 0;
        pub const cudaEglFrameTypePitch: u32 = 1;
        /// `cudaEglResourceLocationFlags` (same numbers as the driver's).
        pub const cudaEglResourceLocationSysmem: u32 = 0;
        pub const cudaEglResourceLocationVidmem: u32 = 1;
        /// `cudaEglColorFormat` shares its numbers with the driver's
        /// `CUeglColorFormat` but leaves gaps (4, 5, 30, 103: formats only
        /// the driver names). The enumerators around each gap, which
        /// [`crate::interop`] uses to tell runtime formats from others:
        pub const cudaEglColorFormatYUV420Planar: u32 = 0;
        pub const cudaEglColorFormatYUV422SemiPlanar: u32 = 3;
        pub const cudaEglColorFormatARGB: u32 = 6;
        pub const cudaEglColorFormatYVYU_ER: u32 = 29;
        pub const cudaEglColorFormatYUVA_ER: u32 = 31;
        pub const cudaEglColorFormatYUVA: u32 = 102;
        pub const cudaEglColorFormatYVYU: u32 = 104;
        pub const cudaEglColorFormatUYVY2020: u32 = 116;
    }
}
