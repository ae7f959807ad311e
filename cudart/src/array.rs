//! CUDA arrays and mipmapped arrays, their channel formats, and the copies
//! that involve them (2D copies to, from and between arrays, and the
//! deprecated linear copies that wrap along an array's rows).
//!
//! A `cudaArray_t` is the driver's `CUarray`, a `cudaMipmappedArray_t` its
//! `CUmipmappedArray`. The runtime describes an element with a channel
//! descriptor (bits of x, y, z, w and a kind); the driver with a
//! `CUarray_format` and a channel count. [`driver_format`] and
//! [`channel_desc`] convert one into the other, and `cudaGetChannelDesc`
//! reads an array's format back from the driver (`cuArray3DGetDescriptor`).
//! The driver's formats and their element sizes are in
//! [`crate::copy::elements`], the plan of a linear copy in
//! [`crate::copy::linear`].

use crate::abi::{
    cudaArrayMemoryRequirements, cudaArraySparseProperties, cudaArray_t, cudaChannelFormatDesc,
    cudaChannelFormatKind as Kind, cudaError_t, cudaExtent, cudaMipmappedArray_t, cudaStream_t,
};
use crate::boundary::{In, Out};
use crate::copy::elements::{descriptor, fmt, format_of, Format};
use crate::copy::linear::{plan_linear, Linear};
use crate::copy::{check_kind, Place, Region};
use crate::driver::{CUarray, CUmipmappedArray, CUDA_ARRAY3D_DESCRIPTOR};
use crate::handles::{self, Kind as Handle};
use crate::memory::{api, copy_2d};
use std::ffi::{c_int, c_uint, c_void};

/// The formats whose element the runtime describes with a kind of its own
/// (normalized, block-compressed, video): kind, driver format, channels,
/// and the bits of x, y, z, w `cudaCreateChannelDesc<T>` gives them.
const SPECIAL: &[(Kind, c_uint, c_uint, [c_int; 4])] = &[
    (Kind::cudaChannelFormatKindNV12, fmt::NV12, 3, [8, 8, 8, 0]),
    (
        Kind::cudaChannelFormatKindUnsignedNormalized8X1,
        fmt::UNORM_INT8X1,
        1,
        [8, 0, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedNormalized8X2,
        fmt::UNORM_INT8X2,
        2,
        [8, 8, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedNormalized8X4,
        fmt::UNORM_INT8X4,
        4,
        [8, 8, 8, 8],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedNormalized16X1,
        fmt::UNORM_INT16X1,
        1,
        [16, 0, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedNormalized16X2,
        fmt::UNORM_INT16X2,
        2,
        [16, 16, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedNormalized16X4,
        fmt::UNORM_INT16X4,
        4,
        [16, 16, 16, 16],
    ),
    (
        Kind::cudaChannelFormatKindSignedNormalized8X1,
        fmt::SNORM_INT8X1,
        1,
        [8, 0, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindSignedNormalized8X2,
        fmt::SNORM_INT8X2,
        2,
        [8, 8, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindSignedNormalized8X4,
        fmt::SNORM_INT8X4,
        4,
        [8, 8, 8, 8],
    ),
    (
        Kind::cudaChannelFormatKindSignedNormalized16X1,
        fmt::SNORM_INT16X1,
        1,
        [16, 0, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindSignedNormalized16X2,
        fmt::SNORM_INT16X2,
        2,
        [16, 16, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindSignedNormalized16X4,
        fmt::SNORM_INT16X4,
        4,
        [16, 16, 16, 16],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed1,
        fmt::BC1_UNORM,
        4,
        [8, 8, 8, 8],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed1SRGB,
        fmt::BC1_UNORM_SRGB,
        4,
        [8, 8, 8, 8],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed2,
        fmt::BC2_UNORM,
        4,
        [8, 8, 8, 8],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed2SRGB,
        fmt::BC2_UNORM_SRGB,
        4,
        [8, 8, 8, 8],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed3,
        fmt::BC3_UNORM,
        4,
        [8, 8, 8, 8],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed3SRGB,
        fmt::BC3_UNORM_SRGB,
        4,
        [8, 8, 8, 8],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed4,
        fmt::BC4_UNORM,
        1,
        [8, 0, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindSignedBlockCompressed4,
        fmt::BC4_SNORM,
        1,
        [8, 0, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed5,
        fmt::BC5_UNORM,
        2,
        [8, 8, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindSignedBlockCompressed5,
        fmt::BC5_SNORM,
        2,
        [8, 8, 0, 0],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed6H,
        fmt::BC6H_UF16,
        3,
        [16, 16, 16, 0],
    ),
    (
        Kind::cudaChannelFormatKindSignedBlockCompressed6H,
        fmt::BC6H_SF16,
        3,
        [16, 16, 16, 0],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed7,
        fmt::BC7_UNORM,
        4,
        [8, 8, 8, 8],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedBlockCompressed7SRGB,
        fmt::BC7_UNORM_SRGB,
        4,
        [8, 8, 8, 8],
    ),
    (
        Kind::cudaChannelFormatKindUnsignedNormalized1010102,
        fmt::UNORM_INT_101010_2,
        4,
        [10, 10, 10, 2],
    ),
];

/// The driver format of a channel descriptor.
///
/// Signed, unsigned and float elements have 1, 2 or 4 channels of one
/// size, present from x on (8, 16 or 32 bits for integers, 16 or 32 for
/// floats); the other kinds name their format themselves. Anything else is
/// `cudaErrorInvalidChannelDescriptor`.
pub fn driver_format(desc: &cudaChannelFormatDesc) -> Result<Format, cudaError_t> {
    let invalid = cudaError_t::cudaErrorInvalidChannelDescriptor;
    if let Some(&(_, format, channels, _)) = SPECIAL.iter().find(|s| s.0 == desc.f) {
        return Ok(Format { format, channels });
    }
    let bits = [desc.x, desc.y, desc.z, desc.w];
    let channels = bits.iter().take_while(|&&b| b != 0).count();
    if !matches!(channels, 1 | 2 | 4) || bits[channels..].iter().any(|&b| b != 0) {
        return Err(invalid);
    }
    if bits[..channels].iter().any(|&b| b != desc.x) {
        return Err(invalid);
    }
    let format = match (desc.f, desc.x) {
        (Kind::cudaChannelFormatKindSigned, 8) => fmt::S8,
        (Kind::cudaChannelFormatKindSigned, 16) => fmt::S16,
        (Kind::cudaChannelFormatKindSigned, 32) => fmt::S32,
        (Kind::cudaChannelFormatKindUnsigned, 8) => fmt::U8,
        (Kind::cudaChannelFormatKindUnsigned, 16) => fmt::U16,
        (Kind::cudaChannelFormatKindUnsigned, 32) => fmt::U32,
        (Kind::cudaChannelFormatKindFloat, 16) => fmt::HALF,
        (Kind::cudaChannelFormatKindFloat, 32) => fmt::FLOAT,
        _ => return Err(invalid),
    };
    Ok(Format {
        format,
        channels: channels as c_uint,
    })
}

/// The channel descriptor of a driver format (the inverse of
/// [`driver_format`]); formats the runtime has no kind for are
/// `cudaErrorInvalidChannelDescriptor`.
pub fn channel_desc(f: Format) -> Result<cudaChannelFormatDesc, cudaError_t> {
    let invalid = cudaError_t::cudaErrorInvalidChannelDescriptor;
    if let Some(&(kind, _, _, [x, y, z, w])) = SPECIAL.iter().find(|s| s.1 == f.format) {
        return Ok(cudaChannelFormatDesc {
            x,
            y,
            z,
            w,
            f: kind,
        });
    }
    let (kind, size) = match f.format {
        fmt::S8 => (Kind::cudaChannelFormatKindSigned, 8),
        fmt::S16 => (Kind::cudaChannelFormatKindSigned, 16),
        fmt::S32 => (Kind::cudaChannelFormatKindSigned, 32),
        fmt::U8 => (Kind::cudaChannelFormatKindUnsigned, 8),
        fmt::U16 => (Kind::cudaChannelFormatKindUnsigned, 16),
        fmt::U32 => (Kind::cudaChannelFormatKindUnsigned, 32),
        fmt::HALF => (Kind::cudaChannelFormatKindFloat, 16),
        fmt::FLOAT => (Kind::cudaChannelFormatKindFloat, 32),
        _ => return Err(invalid),
    };
    if !matches!(f.channels, 1 | 2 | 4) {
        return Err(invalid);
    }
    let bit = |i: c_uint| if i < f.channels { size } else { 0 };
    Ok(cudaChannelFormatDesc {
        x: bit(0),
        y: bit(1),
        z: bit(2),
        w: bit(3),
        f: kind,
    })
}

// ---------------------------------------------------------------------------
// Channel descriptors.

/// `cudaCreateChannelDesc` returns the descriptor itself; it cannot fail
/// (and records no error).
impl crate::boundary::Outcome for cudaChannelFormatDesc {
    type Value = Self;
    const RECORDS_ERROR: bool = false;
    fn success(v: Self) -> Self {
        v
    }
    fn failure(_: cudaError_t) -> Self {
        Self::default()
    }
}

/// `cudaCreateChannelDesc`: the fields as given, nothing checked (as
/// NVIDIA's header-inline templates build them).
pub fn create_channel_desc(
    x: c_int,
    y: c_int,
    z: c_int,
    w: c_int,
    f: Kind,
) -> Result<cudaChannelFormatDesc, cudaError_t> {
    Ok(cudaChannelFormatDesc { x, y, z, w, f })
}

/// `cudaGetChannelDesc`: the array's format read back from the driver.
pub fn get_channel_desc(
    out: Out<cudaChannelFormatDesc>,
    array: *const c_void,
) -> Result<(), cudaError_t> {
    out.check()?;
    let d = descriptor(CUarray::from(array.cast_mut()))?;
    out.write(channel_desc(format_of(&d))?)
}

// ---------------------------------------------------------------------------
// Arrays and mipmapped arrays.

fn create_descriptor(
    desc: In<cudaChannelFormatDesc>,
    width: usize,
    height: usize,
    depth: usize,
    flags: c_uint,
) -> Result<CUDA_ARRAY3D_DESCRIPTOR, cudaError_t> {
    let f = driver_format(&desc.read()?)?;
    Ok(CUDA_ARRAY3D_DESCRIPTOR {
        Width: width,
        Height: height,
        Depth: depth,
        Format: f.format,
        NumChannels: f.channels,
        Flags: flags,
    })
}

/// `cudaMallocArray`: a 1D (height 0) or 2D array; the `cudaArray*` flags
/// are the driver's `CUDA_ARRAY3D_*` flags.
pub fn malloc_array(
    out: Out<cudaArray_t>,
    desc: In<cudaChannelFormatDesc>,
    width: usize,
    height: usize,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    let d = create_descriptor(desc, width, height, 0, flags)?;
    let mut a = CUarray::null();
    api(false)?.cuArray3DCreate(&mut a, &d).ok()?;
    handles::made(a.as_raw(), Handle::Array);
    out.write(a.as_raw())
}

/// `cudaMalloc3DArray`: the extent in elements (depth 0: a 1D or 2D array;
/// with `cudaArrayLayered` the depth counts layers).
pub fn malloc_3d_array(
    out: Out<cudaArray_t>,
    desc: In<cudaChannelFormatDesc>,
    extent: cudaExtent,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    let d = create_descriptor(desc, extent.width, extent.height, extent.depth, flags)?;
    let mut a = CUarray::null();
    api(false)?.cuArray3DCreate(&mut a, &d).ok()?;
    handles::made(a.as_raw(), Handle::Array);
    out.write(a.as_raw())
}

/// `cudaMallocMipmappedArray`.
pub fn malloc_mipmapped_array(
    out: Out<cudaMipmappedArray_t>,
    desc: In<cudaChannelFormatDesc>,
    extent: cudaExtent,
    levels: c_uint,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    let d = create_descriptor(desc, extent.width, extent.height, extent.depth, flags)?;
    let mut m = CUmipmappedArray::null();
    api(false)?
        .cuMipmappedArrayCreate(&mut m, &d, levels)
        .ok()?;
    handles::made(m.as_raw(), Handle::Mipmap);
    out.write(m.as_raw())
}

/// `cudaGetMipmappedArrayLevel`.
pub fn mipmapped_array_level(
    out: Out<cudaArray_t>,
    mipmap: *const c_void,
    level: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    array_handle(mipmap, Handle::Mipmap)?;
    let mut a = CUarray::null();
    api(false)?
        .cuMipmappedArrayGetLevel(&mut a, CUmipmappedArray::from(mipmap.cast_mut()), level)
        .ok()?;
    // An array the driver made: not one freed before at the same address.
    handles::forget(a.as_raw());
    out.write(a.as_raw())
}

/// An array or mipmapped array handed to an array call or copy: one the
/// runtime never saw must be readable memory (the driver reads the object
/// behind it; `0xdeadbeef` killed both runtimes in the bad-input matrix on
/// the H200), else `cudaErrorInvalidResourceHandle`. Destroyed ones go on
/// as before.
#[inline]
pub fn h<P: handles::Address>(handle: P) -> Result<P, cudaError_t> {
    handles::readable_or(
        handle.address(),
        cudaError_t::cudaErrorInvalidResourceHandle,
    )?;
    Ok(handle)
}

/// `cudaFreeArray`: null is a no-op. An array freed already, or a live
/// mipmapped array passed as one (the driver spins on it: a hang on the
/// H200, both runtimes), is refused.
pub fn free_array(array: cudaArray_t) -> Result<(), cudaError_t> {
    if array.is_null() {
        return Ok(());
    }
    handles::check(array.cast(), Handle::Array)?;
    let api = api(false)?;
    handles::destroy(array.cast(), Handle::Array, || {
        api.cuArrayDestroy(CUarray::from(array)).ok()
    })
}

/// `cudaFreeMipmappedArray`: null is a no-op; freed or live arrays of
/// the other kind are refused (the driver crashed on an array).
pub fn free_mipmapped_array(mipmap: cudaMipmappedArray_t) -> Result<(), cudaError_t> {
    if mipmap.is_null() {
        return Ok(());
    }
    handles::check(mipmap.cast(), Handle::Mipmap)?;
    let api = api(false)?;
    handles::destroy(mipmap.cast(), Handle::Mipmap, || {
        api.cuMipmappedArrayDestroy(CUmipmappedArray::from(mipmap))
            .ok()
    })
}

/// `cudaArrayGetInfo`: any of the three outputs may be null.
pub fn get_info(
    desc: Out<cudaChannelFormatDesc>,
    extent: Out<cudaExtent>,
    flags: Out<c_uint>,
    array: cudaArray_t,
) -> Result<(), cudaError_t> {
    let d = descriptor(CUarray::from(array))?;
    if !desc.is_null() {
        desc.write(channel_desc(format_of(&d))?)?;
    }
    if !extent.is_null() {
        extent.write(cudaExtent {
            width: d.Width,
            height: d.Height,
            depth: d.Depth,
        })?;
    }
    if !flags.is_null() {
        flags.write(d.Flags)?;
    }
    Ok(())
}

/// `cudaArrayGetPlane`.
pub fn get_plane(
    out: Out<cudaArray_t>,
    array: cudaArray_t,
    plane: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut p = CUarray::null();
    api(false)?
        .cuArrayGetPlane(&mut p, CUarray::from(array), plane)
        .ok()?;
    handles::forget(p.as_raw());
    out.write(p.as_raw())
}

/// `cudaArrayGetMemoryRequirements` (the structure is the driver's).
pub fn memory_requirements(
    out: Out<cudaArrayMemoryRequirements>,
    array: cudaArray_t,
    device: c_int,
) -> Result<(), cudaError_t> {
    out.check()?;
    crate::context::check_device(device)?;
    api(false)?
        .cuArrayGetMemoryRequirements(out.as_ptr(), CUarray::from(array), device)
        .ok()
}

/// `cudaMipmappedArrayGetMemoryRequirements`.
pub fn mipmapped_memory_requirements(
    out: Out<cudaArrayMemoryRequirements>,
    mipmap: cudaMipmappedArray_t,
    device: c_int,
) -> Result<(), cudaError_t> {
    out.check()?;
    crate::context::check_device(device)?;
    array_handle(mipmap.cast(), Handle::Mipmap)?;
    api(false)?
        .cuMipmappedArrayGetMemoryRequirements(out.as_ptr(), CUmipmappedArray::from(mipmap), device)
        .ok()
}

/// `cudaArrayGetSparseProperties` (the structure is the driver's).
pub fn sparse_properties(
    out: Out<cudaArraySparseProperties>,
    array: cudaArray_t,
) -> Result<(), cudaError_t> {
    out.check()?;
    array_handle(array.cast(), Handle::Array)?;
    api(false)?
        .cuArrayGetSparseProperties(out.as_ptr(), CUarray::from(array))
        .ok()
}

/// `cudaMipmappedArrayGetSparseProperties`.
pub fn mipmapped_sparse_properties(
    out: Out<cudaArraySparseProperties>,
    mipmap: cudaMipmappedArray_t,
) -> Result<(), cudaError_t> {
    out.check()?;
    array_handle(mipmap.cast(), Handle::Mipmap)?;
    api(false)?
        .cuMipmappedArrayGetSparseProperties(out.as_ptr(), CUmipmappedArray::from(mipmap))
        .ok()
}

// ---------------------------------------------------------------------------
// 2D copies to, from and between arrays (offsets and widths in bytes).

/// A 2D copy: `width` bytes by `height` rows.
#[derive(Copy, Clone, Debug)]
pub struct Extent2D {
    pub width: usize,
    pub height: usize,
}

/// Where a copy runs: synchronously (`None`) or on a stream, and whether
/// the null stream is the per-thread one.
#[derive(Copy, Clone, Debug)]
pub struct Order {
    pub stream: Option<cudaStream_t>,
    pub per_thread: bool,
}

fn run_2d(
    src: Region,
    dst: Region,
    e: Extent2D,
    kind: c_int,
    order: Order,
) -> Result<(), cudaError_t> {
    check_kind(kind)?;
    if e.width == 0 || e.height == 0 {
        return Ok(());
    }
    // NVIDIA's runtime answers a row wider than the linear side's pitch
    // with cudaErrorInvalidValue for the array copies (seen on an H200),
    // unlike cudaMemcpy2D, which keeps cudaErrorInvalidPitchValue.
    for side in [&src, &dst] {
        if let Place::Memory { pitch, .. } = side.place {
            if e.width > pitch {
                return Err(cudaError_t::cudaErrorInvalidValue);
            }
        }
    }
    copy_2d(
        &src,
        &dst,
        e.width,
        e.height,
        order.stream,
        order.per_thread,
    )
}

/// `cudaMemcpy2DToArray`/`Async` (and `_ptds`/`_ptsz`).
#[allow(clippy::too_many_arguments)]
pub fn copy_2d_to_array(
    dst: cudaArray_t,
    w_offset: usize,
    h_offset: usize,
    src: *const c_void,
    spitch: usize,
    e: Extent2D,
    kind: c_int,
    order: Order,
) -> Result<(), cudaError_t> {
    array_handle(dst, Handle::Array)?;
    run_2d(
        Region::at(Place::memory(src.cast_mut(), spitch, 0), 0, 0),
        Region::at(Place::Array(CUarray::from(dst)), w_offset, h_offset),
        e,
        kind,
        order,
    )
}

/// `cudaMemcpy2DFromArray`/`Async` (and `_ptds`/`_ptsz`).
#[allow(clippy::too_many_arguments)]
pub fn copy_2d_from_array(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    w_offset: usize,
    h_offset: usize,
    e: Extent2D,
    kind: c_int,
    order: Order,
) -> Result<(), cudaError_t> {
    array_handle(src, Handle::Array)?;
    run_2d(
        Region::at(
            Place::Array(CUarray::from(src.cast_mut())),
            w_offset,
            h_offset,
        ),
        Region::at(Place::memory(dst, dpitch, 0), 0, 0),
        e,
        kind,
        order,
    )
}

/// `cudaMemcpy2DArrayToArray` (and `_ptds`).
#[allow(clippy::too_many_arguments)]
pub fn copy_2d_array_to_array(
    dst: cudaArray_t,
    w_offset_dst: usize,
    h_offset_dst: usize,
    src: *const c_void,
    w_offset_src: usize,
    h_offset_src: usize,
    e: Extent2D,
    kind: c_int,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    array_handle(dst, Handle::Array)?;
    array_handle(src, Handle::Array)?;
    run_2d(
        Region::at(
            Place::Array(CUarray::from(src.cast_mut())),
            w_offset_src,
            h_offset_src,
        ),
        Region::at(Place::Array(CUarray::from(dst)), w_offset_dst, h_offset_dst),
        e,
        kind,
        Order {
            stream: None,
            per_thread,
        },
    )
}

/// A non-null array (or, with `Handle::Mipmap`, mipmapped array) the
/// runtime has not freed.
fn array_handle(a: *const c_void, kind: Handle) -> Result<(), cudaError_t> {
    if a.is_null() || handles::stale(a, kind) {
        Err(cudaError_t::cudaErrorInvalidResourceHandle)
    } else {
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// The deprecated linear copies: `count` bytes from (w_offset bytes, row
// h_offset), wrapping to the next row of the array at its end.

/// Runs a linear copy as the 2D copies of its plan.
fn copy_linear(src: Linear, dst: Linear, count: usize, order: Order) -> Result<(), cudaError_t> {
    for (s, d, width, height) in plan_linear(src, dst, count) {
        copy_2d(&s, &d, width, height, order.stream, order.per_thread)?;
    }
    Ok(())
}

/// `cudaMemcpyToArray`/`Async` (and `_ptds`/`_ptsz`).
#[allow(clippy::too_many_arguments)]
pub fn copy_to_array(
    dst: cudaArray_t,
    w_offset: usize,
    h_offset: usize,
    src: *const c_void,
    count: usize,
    kind: c_int,
    order: Order,
) -> Result<(), cudaError_t> {
    check_kind(kind)?;
    let dst = Linear::array(dst, w_offset, h_offset, count)?;
    copy_linear(Linear::Memory(src.cast_mut()), dst, count, order)
}

/// `cudaMemcpyFromArray`/`Async` (and `_ptds`/`_ptsz`).
#[allow(clippy::too_many_arguments)]
pub fn copy_from_array(
    dst: *mut c_void,
    src: *const c_void,
    w_offset: usize,
    h_offset: usize,
    count: usize,
    kind: c_int,
    order: Order,
) -> Result<(), cudaError_t> {
    check_kind(kind)?;
    let src = Linear::array(src, w_offset, h_offset, count)?;
    copy_linear(src, Linear::Memory(dst), count, order)
}

/// `cudaMemcpyArrayToArray` (and `_ptds`).
#[allow(clippy::too_many_arguments)]
pub fn copy_array_to_array(
    dst: cudaArray_t,
    w_offset_dst: usize,
    h_offset_dst: usize,
    src: *const c_void,
    w_offset_src: usize,
    h_offset_src: usize,
    count: usize,
    kind: c_int,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    check_kind(kind)?;
    let dst = Linear::array(dst, w_offset_dst, h_offset_dst, count)?;
    let src = Linear::array(src, w_offset_src, h_offset_src, count)?;
    copy_linear(
        src,
        dst,
        count,
        Order {
            stream: None,
            per_thread,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::copy::elements::element_size;

    fn desc(x: c_int, y: c_int, z: c_int, w: c_int, f: Kind) -> cudaChannelFormatDesc {
        cudaChannelFormatDesc { x, y, z, w, f }
    }

    #[test]
    fn plain_formats_round_trip() {
        for (kind, sizes) in [
            (Kind::cudaChannelFormatKindSigned, &[8, 16, 32][..]),
            (Kind::cudaChannelFormatKindUnsigned, &[8, 16, 32][..]),
            (Kind::cudaChannelFormatKindFloat, &[16, 32][..]),
        ] {
            for &s in sizes {
                for ch in [1, 2, 4] {
                    let b = |i: c_int| if i < ch { s } else { 0 };
                    let d = desc(b(0), b(1), b(2), b(3), kind);
                    let f = driver_format(&d).unwrap();
                    assert_eq!(f.channels, ch as c_uint);
                    assert_eq!(channel_desc(f).unwrap(), d);
                    assert_eq!(element_size(f).unwrap(), (s / 8 * ch) as usize);
                }
            }
        }
    }

    #[test]
    fn special_formats_round_trip() {
        for &(kind, format, channels, [x, y, z, w]) in SPECIAL {
            let d = desc(x, y, z, w, kind);
            assert_eq!(driver_format(&d).unwrap(), Format { format, channels });
            assert_eq!(channel_desc(Format { format, channels }).unwrap(), d);
        }
    }

    #[test]
    fn bad_descriptors_are_refused() {
        let bad = cudaError_t::cudaErrorInvalidChannelDescriptor;
        let u = Kind::cudaChannelFormatKindUnsigned;
        assert_eq!(driver_format(&desc(8, 8, 8, 0, u)), Err(bad)); // 3 channels
        assert_eq!(driver_format(&desc(8, 16, 0, 0, u)), Err(bad)); // mixed sizes
        assert_eq!(driver_format(&desc(0, 8, 0, 0, u)), Err(bad)); // gap
        assert_eq!(driver_format(&desc(12, 0, 0, 0, u)), Err(bad));
        assert_eq!(
            driver_format(&desc(8, 0, 0, 0, Kind::cudaChannelFormatKindFloat)),
            Err(bad)
        );
        assert_eq!(
            driver_format(&desc(0, 0, 0, 0, Kind::cudaChannelFormatKindNone)),
            Err(bad)
        );
    }
}
