//! The driver's types, each declared once: its handles, the integers it
//! names, the structures the runtime converts to and from, and the
//! constants the runtime passes. Every family table (`driver_api!`) and
//! room takes them from here.
//!
//! Handles are distinct `#[repr(transparent)]` newtypes over the driver's
//! pointer, so a stream cannot go where an event belongs. The runtime hands
//! the driver's handles out unchanged (`cudaStream_t` is a `CUstream`):
//! converting one into the other is a cast of the same bits, never a
//! wrapper (`From` both ways; an out-pointer is `.cast()`).
//!
//! The structures and constants are declared through the `abi!` macro,
//! which records each layout and value; `abi-tests/tests/driver_abi.rs`
//! holds them against the `cuda.h` of the CUDA wheels.

use crate::abi::{AbiZero, Constant};
use std::ffi::{c_int, c_uint, c_void};

/// Declares driver handles: a newtype over the driver's pointer each, with
/// the null handle, the test for it, and the casts from and to the
/// runtime's handle types (the same pointer).
macro_rules! driver_handles {
    ($( $(#[$m:meta])* $name:ident; )*) => { $(
        $(#[$m])*
        #[repr(transparent)]
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
        pub struct $name(*mut c_void);

        impl $name {
            /// The null handle.
            #[inline(always)]
            pub const fn null() -> Self {
                Self(std::ptr::null_mut())
            }

            #[inline(always)]
            pub fn is_null(self) -> bool {
                self.0.is_null()
            }

            /// The handle as the runtime's handle type hands it out.
            #[inline(always)]
            pub const fn as_raw(self) -> *mut c_void {
                self.0
            }

            /// The handle the runtime's handle `p` is.
            #[inline(always)]
            pub const fn from_raw(p: *mut c_void) -> Self {
                Self(p)
            }
        }

        impl From<*mut c_void> for $name {
            #[inline(always)]
            fn from(p: *mut c_void) -> Self {
                Self(p)
            }
        }

        impl From<$name> for *mut c_void {
            #[inline(always)]
            fn from(h: $name) -> Self {
                h.0
            }
        }

        impl AbiZero for $name {
            const ZERO: Self = Self::null();
        }

        impl $crate::driver::c_names::CName for $name {
            fn c_name() -> String {
                stringify!($name).to_string()
            }
        }

        /// `{:p}` prints the driver's pointer, as for the raw handle.
        impl std::fmt::Pointer for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Pointer::fmt(&self.0, f)
            }
        }

        impl $crate::handles::Address for $name {
            fn address(self) -> *const c_void {
                self.0
            }
        }
    )* };
}

driver_handles! {
    /// A context (`cudaExecutionContext_t` of a green context is one too).
    CUcontext;
    /// A stream (`cudaStream_t`).
    CUstream;
    /// An event (`cudaEvent_t`).
    CUevent;
    /// A kernel's function in one context (`cudaFunction_t`).
    CUfunction;
    /// A context-independent kernel (`cudaKernel_t`).
    CUkernel;
    /// A library (`cudaLibrary_t`).
    CUlibrary;
    /// A module (the runtime uses libraries).
    CUmodule;
    /// A graph (`cudaGraph_t`).
    CUgraph;
    /// A graph node (`cudaGraphNode_t`).
    CUgraphNode;
    /// An executable graph (`cudaGraphExec_t`).
    CUgraphExec;
    /// A user object (`cudaUserObject_t`).
    CUuserObject;
    /// A CUDA array (`cudaArray_t`).
    CUarray;
    /// A mipmapped CUDA array (`cudaMipmappedArray_t`).
    CUmipmappedArray;
    /// A memory pool (`cudaMemPool_t`).
    CUmemoryPool;
    /// A registered graphics resource (`cudaGraphicsResource_t`).
    CUgraphicsResource;
    /// Imported external memory (`cudaExternalMemory_t`).
    CUexternalMemory;
    /// An imported external semaphore (`cudaExternalSemaphore_t`).
    CUexternalSemaphore;
    /// An EGL stream connection (`cudaEglStreamConnection`).
    CUeglStreamConnection;
    /// A green context.
    CUgreenCtx;
    /// A resource descriptor (`cudaDevResourceDesc_t`).
    CUdevResourceDesc;
    /// A registered async-notification callback
    /// (`cudaAsyncCallbackHandle_t`).
    CUasyncCallbackHandle;
    /// A registered log callback (`cudaLogsCallbackHandle`).
    CUlogsCallbackHandle;
}

impl CUfunction {
    /// A kernel in place of a function: `cuLaunchKernel` and the other
    /// calls that take a `CUfunction` accept a `CUkernel` (the driver's
    /// contract), resolving it for the current context.
    #[inline(always)]
    pub const fn of_kernel(k: CUkernel) -> Self {
        Self(k.0)
    }
}

/// A device ordinal (`CUdevice`).
pub type CUdevice = c_int;
/// A device address (`CUdeviceptr`, 64 bits).
pub type CUdeviceptr = u64;
/// A texture object (`cudaTextureObject_t` is this handle).
pub type CUtexObject = u64;
/// A surface object (`cudaSurfaceObject_t` is this handle).
pub type CUsurfObject = u64;
/// `CUhostFn`: the same C type as the runtime's `cudaHostFn_t`.
pub type CUhostFn = Option<unsafe extern "C" fn(*mut c_void)>;
/// `CUstreamCallback`.
pub type CUstreamCallback = Option<unsafe extern "C" fn(CUstream, super::CUresult, *mut c_void)>;

/// `CU_STREAM_PER_THREAD`: the same value as the runtime's
/// `cudaStreamPerThread` (`CU_STREAM_LEGACY` is [`LEGACY`]).
pub const CU_STREAM_PER_THREAD: CUstream = CUstream(PER_THREAD as *mut c_void);
const LEGACY: usize = 0x1;
const PER_THREAD: usize = 0x2;

/// `CU_POINTER_ATTRIBUTE_LOCALITY_DOMAIN_ORDINAL` (CUDA 13.5): the
/// locality domain of an allocation, -1 when it has none.
pub const CU_POINTER_ATTRIBUTE_LOCALITY_DOMAIN_ORDINAL: c_int = 22;
/// `CU_FUNC_ATTRIBUTE_DEVICE_NODE_UPDATE_SUPPORTED` and
/// `CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE` (CUDA 13.5 headers).
pub const CU_FUNC_ATTRIBUTE_DEVICE_NODE_UPDATE_SUPPORTED: c_int = 16;
pub const CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE: c_int = 17;
/// `CU_LIMIT_PER_BLOCK_MEMORY_SIZE` (CUDA 13.5).
pub const CU_LIMIT_PER_BLOCK_MEMORY_SIZE: c_int = 0x0A;

/// The driver constants the CUDA 13.5 headers added, recorded for the ABI
/// test (checked against the 13.5 headers only).
pub static CONSTANTS_135: &[Constant] = &[
    Constant {
        scope: "CUpointer_attribute_enum",
        name: "CU_POINTER_ATTRIBUTE_LOCALITY_DOMAIN_ORDINAL",
        value: CU_POINTER_ATTRIBUTE_LOCALITY_DOMAIN_ORDINAL as _,
    },
    Constant {
        scope: "CUfunction_attribute_enum",
        name: "CU_FUNC_ATTRIBUTE_DEVICE_NODE_UPDATE_SUPPORTED",
        value: CU_FUNC_ATTRIBUTE_DEVICE_NODE_UPDATE_SUPPORTED as _,
    },
    Constant {
        scope: "CUfunction_attribute_enum",
        name: "CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE",
        value: CU_FUNC_ATTRIBUTE_SHARED_MEMORY_MODE as _,
    },
    Constant {
        scope: "CUlimit_enum",
        name: "CU_LIMIT_PER_BLOCK_MEMORY_SIZE",
        value: CU_LIMIT_PER_BLOCK_MEMORY_SIZE as _,
    },
];

/// The driver's pointer-valued constants, recorded for the ABI test.
pub static POINTER_CONSTANTS: &[Constant] = &[
    Constant {
        scope: "",
        name: "CU_STREAM_LEGACY",
        value: LEGACY as _,
    },
    Constant {
        scope: "",
        name: "CU_STREAM_PER_THREAD",
        value: PER_THREAD as _,
    },
];

/// An opaque VDPAU type: the driver takes a pointer to VDPAU's
/// `VdpGetProcAddress` function and calls it; the runtime passes it
/// through.
pub enum VdpGetProcAddress {}

impl crate::driver::c_names::CName for VdpGetProcAddress {
    fn c_name() -> String {
        "VdpGetProcAddress".to_string()
    }
}

abi! {
    types {
        /// `CUDA_MEMCPY2D`.
        #[derive(Debug)]
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

        /// `CUDA_MEMCPY3D` (the `_v2` layout: size_t positions, a reserved
        /// pointer after each array).
        #[derive(Debug)]
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

        /// `CUDA_MEMCPY3D_PEER`: `CUDA_MEMCPY3D` with each side's context in
        /// place of the reserved pointers.
        #[derive(Debug)]
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
        #[derive(Debug, PartialEq, Eq)]
        pub struct CUDA_ARRAY3D_DESCRIPTOR {
            pub Width: usize,
            pub Height: usize,
            pub Depth: usize,
            /// A `CUarray_format`.
            pub Format: c_uint,
            pub NumChannels: c_uint,
            /// `CUDA_ARRAY3D_*` flags: the same bits as the runtime's
            /// `cudaArray*`.
            pub Flags: c_uint,
        }

        /// `CUDA_RESOURCE_DESC::res.array`.
        #[derive(Debug)]
        pub struct CUDA_RESOURCE_DESC_array as "decltype(CUDA_RESOURCE_DESC::res.array)" {
            pub hArray: CUarray,
        }

        /// `CUDA_RESOURCE_DESC::res.mipmap`.
        #[derive(Debug)]
        pub struct CUDA_RESOURCE_DESC_mipmap as "decltype(CUDA_RESOURCE_DESC::res.mipmap)" {
            pub hMipmappedArray: CUmipmappedArray,
        }

        /// `CUDA_RESOURCE_DESC::res.linear`.
        #[derive(Debug)]
        pub struct CUDA_RESOURCE_DESC_linear as "decltype(CUDA_RESOURCE_DESC::res.linear)" {
            pub devPtr: CUdeviceptr,
            pub format: c_uint,
            pub numChannels: c_uint,
            pub sizeInBytes: usize,
        }

        /// `CUDA_RESOURCE_DESC::res.pitch2D`.
        #[derive(Debug)]
        pub struct CUDA_RESOURCE_DESC_pitch2D as "decltype(CUDA_RESOURCE_DESC::res.pitch2D)" {
            pub devPtr: CUdeviceptr,
            pub format: c_uint,
            pub numChannels: c_uint,
            pub width: usize,
            pub height: usize,
            pub pitchInBytes: usize,
        }

        /// `CUDA_RESOURCE_DESC::res` (128 bytes: `reserved` spans it).
        pub union CUDA_RESOURCE_DESC_res as "decltype(CUDA_RESOURCE_DESC::res)" {
            pub reserved: [c_int; 32],
            pub array: CUDA_RESOURCE_DESC_array,
            pub mipmap: CUDA_RESOURCE_DESC_mipmap,
            pub linear: CUDA_RESOURCE_DESC_linear,
            pub pitch2D: CUDA_RESOURCE_DESC_pitch2D,
        }

        /// `CUDA_RESOURCE_DESC`.
        pub struct CUDA_RESOURCE_DESC {
            /// `CUresourcetype`.
            pub resType: c_uint,
            pub res: CUDA_RESOURCE_DESC_res,
            pub flags: c_uint,
        }

        /// `CUDA_TEXTURE_DESC`.
        #[derive(Debug, PartialEq)]
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
        #[derive(Debug, PartialEq, Eq)]
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

        /// `CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC`.
        #[derive(Debug, PartialEq, Eq)]
        pub struct CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC {
            pub offset: u64,
            pub arrayDesc: CUDA_ARRAY3D_DESCRIPTOR,
            pub numLevels: c_uint,
            pub reserved: [c_uint; 16],
        }

        /// `CUeglFrame` (`CUeglFrame_v1`): one pointer per plane (a `CUarray`
        /// or a pitched pointer, by `frameType`), then the first plane's
        /// shape.
        #[derive(Debug, PartialEq, Eq)]
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

        /// The driver's `CUlaunchConfig`: the runtime's `cudaLaunchConfig_t`
        /// with the dimensions spelled out and the shared-memory size an
        /// `unsigned`; its attribute records (`CUlaunchAttribute`) are the
        /// runtime's `cudaLaunchAttribute` (same layout, ids and values).
        #[derive(Debug)]
        pub struct CUlaunchConfig {
            pub gridDimX: c_uint,
            pub gridDimY: c_uint,
            pub gridDimZ: c_uint,
            pub blockDimX: c_uint,
            pub blockDimY: c_uint,
            pub blockDimZ: c_uint,
            pub sharedMemBytes: c_uint,
            pub hStream: CUstream,
            pub attrs: *mut crate::abi::cudaLaunchAttribute,
            pub numAttrs: c_uint,
        }

        /// `CUDA_KERNEL_NODE_PARAMS` (`_v2`; also `_v3`, the member of
        /// `CUgraphNodeParams`: the same fields). `kern` is used when `func`
        /// is null.
        #[derive(Debug)]
        pub struct CUDA_KERNEL_NODE_PARAMS {
            pub func: CUfunction,
            pub gridDimX: c_uint,
            pub gridDimY: c_uint,
            pub gridDimZ: c_uint,
            pub blockDimX: c_uint,
            pub blockDimY: c_uint,
            pub blockDimZ: c_uint,
            pub sharedMemBytes: c_uint,
            pub kernelParams: *mut *mut c_void,
            pub extra: *mut *mut c_void,
            pub kern: CUkernel,
            pub ctx: CUcontext,
        }

        /// `CUDA_MEMCPY_NODE_PARAMS` (member of `CUgraphNodeParams`).
        #[derive(Debug)]
        pub struct CUDA_MEMCPY_NODE_PARAMS {
            pub flags: c_int,
            pub reserved: c_int,
            pub copyCtx: CUcontext,
            pub copyParams: CUDA_MEMCPY3D,
        }

        /// `CUDA_MEMSET_NODE_PARAMS_v2` (member of `CUgraphNodeParams`): the
        /// runtime's `cudaMemsetParamsV2` plus the context.
        #[derive(Debug)]
        pub struct CUDA_MEMSET_NODE_PARAMS_v2 {
            pub dst: CUdeviceptr,
            pub pitch: usize,
            pub value: c_uint,
            pub elementSize: c_uint,
            pub width: usize,
            pub height: usize,
            pub ctx: CUcontext,
        }

        /// `CUDA_CONDITIONAL_NODE_PARAMS`: the runtime's
        /// `cudaConditionalNodeParams` plus the context.
        #[derive(Debug)]
        pub struct CUDA_CONDITIONAL_NODE_PARAMS {
            pub handle: u64,
            pub type_: c_uint as "type",
            pub size: c_uint,
            pub phGraph_out: *mut CUgraph,
            pub ctx: CUcontext,
        }

        /// The anonymous union of `CUgraphNodeParams` (232 bytes): the
        /// members whose layout differs from the runtime's, and the raw
        /// words for the rest.
        pub union CUgraphNodeParams_u as "" {
            pub raw: [i64; 29],
            pub kernel: CUDA_KERNEL_NODE_PARAMS,
            pub memcpy: CUDA_MEMCPY_NODE_PARAMS,
            pub memset: CUDA_MEMSET_NODE_PARAMS_v2,
            pub conditional: CUDA_CONDITIONAL_NODE_PARAMS,
        }

        /// `CUgraphNodeParams` (256 bytes, the same outer layout as the
        /// runtime's `cudaGraphNodeParams`).
        pub struct CUgraphNodeParams {
            pub type_: c_uint as "type",
            pub reserved0: [c_int; 3],
            pub u: CUgraphNodeParams_u as "reserved1",
            pub reserved2: i64,
        }
    }
    enums {}
    consts {
        /// `CUmemorytype`.
        pub const CU_MEMORYTYPE_HOST: c_uint = 1;
        pub const CU_MEMORYTYPE_DEVICE: c_uint = 2;
        pub const CU_MEMORYTYPE_ARRAY: c_uint = 3;
        /// The driver tells host from device memory by address (unified
        /// addressing).
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

        /// `CUarray_format`.
        pub const CU_AD_FORMAT_UNSIGNED_INT8: c_uint = 0x01;
        pub const CU_AD_FORMAT_UNSIGNED_INT16: c_uint = 0x02;
        pub const CU_AD_FORMAT_UNSIGNED_INT32: c_uint = 0x03;
        pub const CU_AD_FORMAT_SIGNED_INT8: c_uint = 0x08;
        pub const CU_AD_FORMAT_SIGNED_INT16: c_uint = 0x09;
        pub const CU_AD_FORMAT_SIGNED_INT32: c_uint = 0x0a;
        pub const CU_AD_FORMAT_HALF: c_uint = 0x10;
        pub const CU_AD_FORMAT_FLOAT: c_uint = 0x20;
        pub const CU_AD_FORMAT_NV12: c_uint = 0xb0;
        pub const CU_AD_FORMAT_UNORM_INT8X1: c_uint = 0xc0;
        pub const CU_AD_FORMAT_UNORM_INT8X2: c_uint = 0xc1;
        pub const CU_AD_FORMAT_UNORM_INT8X4: c_uint = 0xc2;
        pub const CU_AD_FORMAT_UNORM_INT16X1: c_uint = 0xc3;
        pub const CU_AD_FORMAT_UNORM_INT16X2: c_uint = 0xc4;
        pub const CU_AD_FORMAT_UNORM_INT16X4: c_uint = 0xc5;
        pub const CU_AD_FORMAT_SNORM_INT8X1: c_uint = 0xc6;
        pub const CU_AD_FORMAT_SNORM_INT8X2: c_uint = 0xc7;
        pub const CU_AD_FORMAT_SNORM_INT8X4: c_uint = 0xc8;
        pub const CU_AD_FORMAT_SNORM_INT16X1: c_uint = 0xc9;
        pub const CU_AD_FORMAT_SNORM_INT16X2: c_uint = 0xca;
        pub const CU_AD_FORMAT_SNORM_INT16X4: c_uint = 0xcb;
        pub const CU_AD_FORMAT_BC1_UNORM: c_uint = 0x91;
        pub const CU_AD_FORMAT_BC1_UNORM_SRGB: c_uint = 0x92;
        pub const CU_AD_FORMAT_BC2_UNORM: c_uint = 0x93;
        pub const CU_AD_FORMAT_BC2_UNORM_SRGB: c_uint = 0x94;
        pub const CU_AD_FORMAT_BC3_UNORM: c_uint = 0x95;
        pub const CU_AD_FORMAT_BC3_UNORM_SRGB: c_uint = 0x96;
        pub const CU_AD_FORMAT_BC4_UNORM: c_uint = 0x97;
        pub const CU_AD_FORMAT_BC4_SNORM: c_uint = 0x98;
        pub const CU_AD_FORMAT_BC5_UNORM: c_uint = 0x99;
        pub const CU_AD_FORMAT_BC5_SNORM: c_uint = 0x9a;
        pub const CU_AD_FORMAT_BC6H_UF16: c_uint = 0x9b;
        pub const CU_AD_FORMAT_BC6H_SF16: c_uint = 0x9c;
        pub const CU_AD_FORMAT_BC7_UNORM: c_uint = 0x9d;
        pub const CU_AD_FORMAT_BC7_UNORM_SRGB: c_uint = 0x9e;
        pub const CU_AD_FORMAT_UNORM_INT_101010_2: c_uint = 0x50;

        /// `CUpointer_attribute`: the ones the runtime asks for.
        pub const CU_POINTER_ATTRIBUTE_MEMORY_TYPE: c_int = 2;
        pub const CU_POINTER_ATTRIBUTE_DEVICE_POINTER: c_int = 3;
        pub const CU_POINTER_ATTRIBUTE_HOST_POINTER: c_int = 4;
        pub const CU_POINTER_ATTRIBUTE_IS_MANAGED: c_int = 8;
        pub const CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: c_int = 9;

        /// `CUdriverProcAddress_flags`.
        pub const CU_GET_PROC_ADDRESS_DEFAULT: u64 = 0;
        pub const CU_GET_PROC_ADDRESS_LEGACY_STREAM: u64 = 1;
        pub const CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM: u64 = 2;

        /// `CUstream_flags`: a stream that does not wait for the legacy
        /// default stream.
        pub const CU_STREAM_NON_BLOCKING: c_uint = 1;
        /// `CUgreenCtxCreate_flags`: a green context with a default stream.
        pub const CU_GREEN_CTX_DEFAULT_STREAM: c_uint = 0x1;

        /// `CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES`: name the runtime's
        /// structures in the output (the runtime's flags leave this bit
        /// free for it).
        pub const CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES: c_uint = 1 << 1;
    }
}
