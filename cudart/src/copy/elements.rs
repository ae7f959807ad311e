//! What a CUDA array's elements are: the driver's formats (`CUarray_format`
//! and a channel count), their sizes in bytes, and an array's description
//! read from the driver (`cuArray3DGetDescriptor`).
//!
//! Copies that involve arrays count positions and widths in elements; the
//! sizes here turn them into bytes.

use crate::abi::cudaError_t;
use crate::driver::memory::MemoryApi;
use crate::driver::{CUarray, CUDA_ARRAY3D_DESCRIPTOR};
use crate::handles::{self, Kind as Handle};
use std::ffi::c_uint;

/// `CUarray_format` values.
pub mod fmt {
    use std::ffi::c_uint;
    pub const U8: c_uint = 0x01;
    pub const U16: c_uint = 0x02;
    pub const U32: c_uint = 0x03;
    pub const S8: c_uint = 0x08;
    pub const S16: c_uint = 0x09;
    pub const S32: c_uint = 0x0a;
    pub const HALF: c_uint = 0x10;
    pub const FLOAT: c_uint = 0x20;
    pub const NV12: c_uint = 0xb0;
    pub const UNORM_INT8X1: c_uint = 0xc0;
    pub const UNORM_INT8X2: c_uint = 0xc1;
    pub const UNORM_INT8X4: c_uint = 0xc2;
    pub const UNORM_INT16X1: c_uint = 0xc3;
    pub const UNORM_INT16X2: c_uint = 0xc4;
    pub const UNORM_INT16X4: c_uint = 0xc5;
    pub const SNORM_INT8X1: c_uint = 0xc6;
    pub const SNORM_INT8X2: c_uint = 0xc7;
    pub const SNORM_INT8X4: c_uint = 0xc8;
    pub const SNORM_INT16X1: c_uint = 0xc9;
    pub const SNORM_INT16X2: c_uint = 0xca;
    pub const SNORM_INT16X4: c_uint = 0xcb;
    pub const BC1_UNORM: c_uint = 0x91;
    pub const BC1_UNORM_SRGB: c_uint = 0x92;
    pub const BC2_UNORM: c_uint = 0x93;
    pub const BC2_UNORM_SRGB: c_uint = 0x94;
    pub const BC3_UNORM: c_uint = 0x95;
    pub const BC3_UNORM_SRGB: c_uint = 0x96;
    pub const BC4_UNORM: c_uint = 0x97;
    pub const BC4_SNORM: c_uint = 0x98;
    pub const BC5_UNORM: c_uint = 0x99;
    pub const BC5_SNORM: c_uint = 0x9a;
    pub const BC6H_UF16: c_uint = 0x9b;
    pub const BC6H_SF16: c_uint = 0x9c;
    pub const BC7_UNORM: c_uint = 0x9d;
    pub const BC7_UNORM_SRGB: c_uint = 0x9e;
    pub const UNORM_INT_101010_2: c_uint = 0x50;
}

/// An element as the driver describes it: a `CUarray_format` and a number
/// of channels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Format {
    pub format: c_uint,
    pub channels: c_uint,
}

/// Whether elements of this format are integers that textures promote to
/// normalized floats unless told to read them as integers.
pub fn is_integer(format: c_uint) -> bool {
    matches!(
        format,
        fmt::U8 | fmt::U16 | fmt::U32 | fmt::S8 | fmt::S16 | fmt::S32
    )
}

/// Bytes per element of a driver format (per 4x4 block for the
/// block-compressed formats; the luma plane for NV12).
pub fn element_size(f: Format) -> Result<usize, cudaError_t> {
    let per_channel = match f.format {
        fmt::U8 | fmt::S8 => 1,
        fmt::U16 | fmt::S16 | fmt::HALF => 2,
        fmt::U32 | fmt::S32 | fmt::FLOAT => 4,
        fmt::NV12 => return Ok(1),
        fmt::UNORM_INT8X1 | fmt::SNORM_INT8X1 => return Ok(1),
        fmt::UNORM_INT8X2 | fmt::SNORM_INT8X2 => return Ok(2),
        fmt::UNORM_INT8X4 | fmt::SNORM_INT8X4 => return Ok(4),
        fmt::UNORM_INT16X1 | fmt::SNORM_INT16X1 => return Ok(2),
        fmt::UNORM_INT16X2 | fmt::SNORM_INT16X2 => return Ok(4),
        fmt::UNORM_INT16X4 | fmt::SNORM_INT16X4 => return Ok(8),
        fmt::UNORM_INT_101010_2 => return Ok(4),
        fmt::BC1_UNORM | fmt::BC1_UNORM_SRGB | fmt::BC4_UNORM | fmt::BC4_SNORM => return Ok(8),
        fmt::BC2_UNORM..=fmt::BC3_UNORM_SRGB | fmt::BC5_UNORM..=fmt::BC7_UNORM_SRGB => {
            return Ok(16)
        }
        _ => return Err(cudaError_t::cudaErrorInvalidChannelDescriptor),
    };
    Ok(per_channel * f.channels as usize)
}

/// Bytes per channel of a format whose channels are whole bytes (the
/// plain and the normalized formats); `None` for the block-compressed and
/// video formats. Graph memcpy nodes size array elements with it.
pub fn channel_bytes(format: c_uint) -> Option<usize> {
    Some(match format {
        fmt::U8 | fmt::S8 | fmt::UNORM_INT8X1..=fmt::UNORM_INT8X4 => 1,
        fmt::SNORM_INT8X1..=fmt::SNORM_INT8X4 => 1,
        fmt::U16 | fmt::S16 | fmt::HALF | fmt::UNORM_INT16X1..=fmt::UNORM_INT16X4 => 2,
        fmt::SNORM_INT16X1..=fmt::SNORM_INT16X4 => 2,
        fmt::U32 | fmt::S32 | fmt::FLOAT => 4,
        _ => return None,
    })
}

/// The driver's description of an array.
pub fn descriptor(array: CUarray) -> Result<CUDA_ARRAY3D_DESCRIPTOR, cudaError_t> {
    if array.is_null() || handles::stale(array.as_raw(), Handle::Array) {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    let mut d = CUDA_ARRAY3D_DESCRIPTOR::default();
    crate::driver::family::<MemoryApi>(false)?
        .cuArray3DGetDescriptor(&mut d, array)
        .ok()?;
    Ok(d)
}

/// The format of an array's elements.
pub fn format_of(d: &CUDA_ARRAY3D_DESCRIPTOR) -> Format {
    Format {
        format: d.Format,
        channels: d.NumChannels,
    }
}

/// Bytes per element of an array.
pub fn element_size_of(array: CUarray) -> Result<usize, cudaError_t> {
    element_size(format_of(&descriptor(array)?))
}
