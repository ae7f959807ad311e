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

/// `CUarray_format` values, by short names (declared once, in
/// `driver::types`).
pub mod fmt {
    pub use crate::driver::types::{
        CU_AD_FORMAT_BC1_UNORM as BC1_UNORM, CU_AD_FORMAT_BC1_UNORM_SRGB as BC1_UNORM_SRGB,
        CU_AD_FORMAT_BC2_UNORM as BC2_UNORM, CU_AD_FORMAT_BC2_UNORM_SRGB as BC2_UNORM_SRGB,
        CU_AD_FORMAT_BC3_UNORM as BC3_UNORM, CU_AD_FORMAT_BC3_UNORM_SRGB as BC3_UNORM_SRGB,
        CU_AD_FORMAT_BC4_SNORM as BC4_SNORM, CU_AD_FORMAT_BC4_UNORM as BC4_UNORM,
        CU_AD_FORMAT_BC5_SNORM as BC5_SNORM, CU_AD_FORMAT_BC5_UNORM as BC5_UNORM,
        CU_AD_FORMAT_BC6H_SF16 as BC6H_SF16, CU_AD_FORMAT_BC6H_UF16 as BC6H_UF16,
        CU_AD_FORMAT_BC7_UNORM as BC7_UNORM, CU_AD_FORMAT_BC7_UNORM_SRGB as BC7_UNORM_SRGB,
        CU_AD_FORMAT_FLOAT as FLOAT, CU_AD_FORMAT_HALF as HALF, CU_AD_FORMAT_NV12 as NV12,
        CU_AD_FORMAT_SIGNED_INT16 as S16, CU_AD_FORMAT_SIGNED_INT32 as S32,
        CU_AD_FORMAT_SIGNED_INT8 as S8, CU_AD_FORMAT_SNORM_INT16X1 as SNORM_INT16X1,
        CU_AD_FORMAT_SNORM_INT16X2 as SNORM_INT16X2, CU_AD_FORMAT_SNORM_INT16X4 as SNORM_INT16X4,
        CU_AD_FORMAT_SNORM_INT8X1 as SNORM_INT8X1, CU_AD_FORMAT_SNORM_INT8X2 as SNORM_INT8X2,
        CU_AD_FORMAT_SNORM_INT8X4 as SNORM_INT8X4, CU_AD_FORMAT_UNORM_INT16X1 as UNORM_INT16X1,
        CU_AD_FORMAT_UNORM_INT16X2 as UNORM_INT16X2, CU_AD_FORMAT_UNORM_INT16X4 as UNORM_INT16X4,
        CU_AD_FORMAT_UNORM_INT8X1 as UNORM_INT8X1, CU_AD_FORMAT_UNORM_INT8X2 as UNORM_INT8X2,
        CU_AD_FORMAT_UNORM_INT8X4 as UNORM_INT8X4,
        CU_AD_FORMAT_UNORM_INT_101010_2 as UNORM_INT_101010_2, CU_AD_FORMAT_UNSIGNED_INT16 as U16,
        CU_AD_FORMAT_UNSIGNED_INT32 as U32, CU_AD_FORMAT_UNSIGNED_INT8 as U8,
    };
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
