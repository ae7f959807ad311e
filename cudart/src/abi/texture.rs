//! Textures, surfaces and CUDA arrays' formats: channel descriptions,
//! resource and view descriptions, texture descriptions, graphics interop.
use super::*;

/// A texture object (64-bit handle).
pub type cudaTextureObject_t = u64;
/// A surface object (64-bit handle).
pub type cudaSurfaceObject_t = u64;
/// A registered graphics resource (`struct cudaGraphicsResource *`).
pub type cudaGraphicsResource_t = *mut c_void;

abi! {
    types {
        #[derive(Debug, PartialEq, Eq, Hash)]
        pub struct cudaChannelFormatDesc {
            pub x: i32,
            pub y: i32,
            pub z: i32,
            pub w: i32,
            pub f: cudaChannelFormatKind,
        }
        pub struct cudaResourceDesc_array as "decltype(decltype(cudaResourceDesc::res)::array)" {
            pub array: cudaArray_t,
        }
        pub struct cudaResourceDesc_mipmap as "decltype(decltype(cudaResourceDesc::res)::mipmap)" {
            pub mipmap: cudaMipmappedArray_t,
        }
        pub struct cudaResourceDesc_linear as "decltype(decltype(cudaResourceDesc::res)::linear)" {
            pub devPtr: *mut c_void,
            pub desc: cudaChannelFormatDesc,
            pub sizeInBytes: usize,
        }
        pub struct cudaResourceDesc_pitch2D as "decltype(decltype(cudaResourceDesc::res)::pitch2D)" {
            pub devPtr: *mut c_void,
            pub desc: cudaChannelFormatDesc,
            pub width: usize,
            pub height: usize,
            pub pitchInBytes: usize,
        }
        pub struct cudaResourceDesc_reserved as "decltype(decltype(cudaResourceDesc::res)::reserved)" {
            pub reserved: [i32; 32],
        }
        /// The resource behind a texture or surface (reserved, the largest
        /// member, comes first).
        pub union cudaResourceDesc_res as "decltype(cudaResourceDesc::res)" {
            pub reserved: cudaResourceDesc_reserved,
            pub array: cudaResourceDesc_array,
            pub mipmap: cudaResourceDesc_mipmap,
            pub linear: cudaResourceDesc_linear,
            pub pitch2D: cudaResourceDesc_pitch2D,
        }
        pub struct cudaResourceDesc {
            pub resType: cudaResourceType,
            pub res: cudaResourceDesc_res,
            pub flags: u32,
        }
        pub struct cudaResourceViewDesc {
            pub format: cudaResourceViewFormat,
            pub width: usize,
            pub height: usize,
            pub depth: usize,
            pub firstMipmapLevel: u32,
            pub lastMipmapLevel: u32,
            pub firstLayer: u32,
            pub lastLayer: u32,
            pub reserved: [u32; 16],
        }
        pub struct cudaTextureDesc {
            pub addressMode: [cudaTextureAddressMode; 3],
            pub filterMode: cudaTextureFilterMode,
            pub readMode: cudaTextureReadMode,
            pub sRGB: i32,
            pub borderColor: [f32; 4],
            pub normalizedCoords: i32,
            pub maxAnisotropy: u32,
            pub mipmapFilterMode: cudaTextureFilterMode,
            pub mipmapLevelBias: f32,
            pub minMipmapLevelClamp: f32,
            pub maxMipmapLevelClamp: f32,
            pub disableTrilinearOptimization: i32,
            pub seamlessCubemap: i32,
        }
    }
    enums {
        pub enum cudaChannelFormatKind: u32 {
            cudaChannelFormatKindSigned = 0,
            cudaChannelFormatKindUnsigned = 1,
            cudaChannelFormatKindFloat = 2,
            cudaChannelFormatKindNone = 3,
            cudaChannelFormatKindNV12 = 4,
            cudaChannelFormatKindUnsignedNormalized8X1 = 5,
            cudaChannelFormatKindUnsignedNormalized8X2 = 6,
            cudaChannelFormatKindUnsignedNormalized8X4 = 7,
            cudaChannelFormatKindUnsignedNormalized16X1 = 8,
            cudaChannelFormatKindUnsignedNormalized16X2 = 9,
            cudaChannelFormatKindUnsignedNormalized16X4 = 10,
            cudaChannelFormatKindSignedNormalized8X1 = 11,
            cudaChannelFormatKindSignedNormalized8X2 = 12,
            cudaChannelFormatKindSignedNormalized8X4 = 13,
            cudaChannelFormatKindSignedNormalized16X1 = 14,
            cudaChannelFormatKindSignedNormalized16X2 = 15,
            cudaChannelFormatKindSignedNormalized16X4 = 16,
            cudaChannelFormatKindUnsignedBlockCompressed1 = 17,
            cudaChannelFormatKindUnsignedBlockCompressed1SRGB = 18,
            cudaChannelFormatKindUnsignedBlockCompressed2 = 19,
            cudaChannelFormatKindUnsignedBlockCompressed2SRGB = 20,
            cudaChannelFormatKindUnsignedBlockCompressed3 = 21,
            cudaChannelFormatKindUnsignedBlockCompressed3SRGB = 22,
            cudaChannelFormatKindUnsignedBlockCompressed4 = 23,
            cudaChannelFormatKindSignedBlockCompressed4 = 24,
            cudaChannelFormatKindUnsignedBlockCompressed5 = 25,
            cudaChannelFormatKindSignedBlockCompressed5 = 26,
            cudaChannelFormatKindUnsignedBlockCompressed6H = 27,
            cudaChannelFormatKindSignedBlockCompressed6H = 28,
            cudaChannelFormatKindUnsignedBlockCompressed7 = 29,
            cudaChannelFormatKindUnsignedBlockCompressed7SRGB = 30,
            cudaChannelFormatKindUnsignedNormalized1010102 = 31,
        }
        pub enum cudaResourceType: u32 {
            cudaResourceTypeArray = 0x00,
            cudaResourceTypeMipmappedArray = 0x01,
            cudaResourceTypeLinear = 0x02,
            cudaResourceTypePitch2D = 0x03,
        }
        pub enum cudaResourceViewFormat: u32 {
            cudaResViewFormatNone = 0x00,
            cudaResViewFormatUnsignedChar1 = 0x01,
            cudaResViewFormatUnsignedChar2 = 0x02,
            cudaResViewFormatUnsignedChar4 = 0x03,
            cudaResViewFormatSignedChar1 = 0x04,
            cudaResViewFormatSignedChar2 = 0x05,
            cudaResViewFormatSignedChar4 = 0x06,
            cudaResViewFormatUnsignedShort1 = 0x07,
            cudaResViewFormatUnsignedShort2 = 0x08,
            cudaResViewFormatUnsignedShort4 = 0x09,
            cudaResViewFormatSignedShort1 = 0x0a,
            cudaResViewFormatSignedShort2 = 0x0b,
            cudaResViewFormatSignedShort4 = 0x0c,
            cudaResViewFormatUnsignedInt1 = 0x0d,
            cudaResViewFormatUnsignedInt2 = 0x0e,
            cudaResViewFormatUnsignedInt4 = 0x0f,
            cudaResViewFormatSignedInt1 = 0x10,
            cudaResViewFormatSignedInt2 = 0x11,
            cudaResViewFormatSignedInt4 = 0x12,
            cudaResViewFormatHalf1 = 0x13,
            cudaResViewFormatHalf2 = 0x14,
            cudaResViewFormatHalf4 = 0x15,
            cudaResViewFormatFloat1 = 0x16,
            cudaResViewFormatFloat2 = 0x17,
            cudaResViewFormatFloat4 = 0x18,
            cudaResViewFormatUnsignedBlockCompressed1 = 0x19,
            cudaResViewFormatUnsignedBlockCompressed2 = 0x1a,
            cudaResViewFormatUnsignedBlockCompressed3 = 0x1b,
            cudaResViewFormatUnsignedBlockCompressed4 = 0x1c,
            cudaResViewFormatSignedBlockCompressed4 = 0x1d,
            cudaResViewFormatUnsignedBlockCompressed5 = 0x1e,
            cudaResViewFormatSignedBlockCompressed5 = 0x1f,
            cudaResViewFormatUnsignedBlockCompressed6H = 0x20,
            cudaResViewFormatSignedBlockCompressed6H = 0x21,
            cudaResViewFormatUnsignedBlockCompressed7 = 0x22,
        }
        pub enum cudaTextureAddressMode: u32 {
            cudaAddressModeWrap = 0,
            cudaAddressModeClamp = 1,
            cudaAddressModeMirror = 2,
            cudaAddressModeBorder = 3,
        }
        pub enum cudaTextureFilterMode: u32 {
            cudaFilterModePoint = 0,
            cudaFilterModeLinear = 1,
        }
        pub enum cudaTextureReadMode: u32 {
            cudaReadModeElementType = 0,
            cudaReadModeNormalizedFloat = 1,
        }
        pub enum cudaSurfaceBoundaryMode: u32 {
            cudaBoundaryModeZero = 0,
            cudaBoundaryModeClamp = 1,
            cudaBoundaryModeTrap = 2,
        }
        pub enum cudaSurfaceFormatMode: u32 {
            cudaFormatModeForced = 0,
            cudaFormatModeAuto = 1,
        }
        pub enum cudaGraphicsRegisterFlags: u32 {
            cudaGraphicsRegisterFlagsNone = 0,
            cudaGraphicsRegisterFlagsReadOnly = 1,
            cudaGraphicsRegisterFlagsWriteDiscard = 2,
            cudaGraphicsRegisterFlagsSurfaceLoadStore = 4,
            cudaGraphicsRegisterFlagsTextureGather = 8,
        }
        pub enum cudaGraphicsMapFlags: u32 {
            cudaGraphicsMapFlagsNone = 0,
            cudaGraphicsMapFlagsReadOnly = 1,
            cudaGraphicsMapFlagsWriteDiscard = 2,
        }
        pub enum cudaGraphicsCubeFace: u32 {
            cudaGraphicsCubeFacePositiveX = 0x00,
            cudaGraphicsCubeFaceNegativeX = 0x01,
            cudaGraphicsCubeFacePositiveY = 0x02,
            cudaGraphicsCubeFaceNegativeY = 0x03,
            cudaGraphicsCubeFacePositiveZ = 0x04,
            cudaGraphicsCubeFaceNegativeZ = 0x05,
        }
    }
    consts {
        /// Texture types (`texture<T, type>` in device code).
        pub const cudaTextureType1D: u32 = 0x01;
        pub const cudaTextureType2D: u32 = 0x02;
        pub const cudaTextureType3D: u32 = 0x03;
        pub const cudaTextureTypeCubemap: u32 = 0x0C;
        pub const cudaTextureType1DLayered: u32 = 0xF1;
        pub const cudaTextureType2DLayered: u32 = 0xF2;
        pub const cudaTextureTypeCubemapLayered: u32 = 0xFC;
        /// Surface types.
        pub const cudaSurfaceType1D: u32 = 0x01;
        pub const cudaSurfaceType2D: u32 = 0x02;
        pub const cudaSurfaceType3D: u32 = 0x03;
        pub const cudaSurfaceTypeCubemap: u32 = 0x0C;
        pub const cudaSurfaceType1DLayered: u32 = 0xF1;
        pub const cudaSurfaceType2DLayered: u32 = 0xF2;
        pub const cudaSurfaceTypeCubemapLayered: u32 = 0xFC;
    }
}
