//! External memory and semaphores (Vulkan, D3D, NvSci and CUDA-exported
//! handles), through the driver's `cuImportExternal*` family; and the
//! conversion between the runtime's channel format descriptors and the
//! driver's array formats, which external mipmapped arrays, EGL frames and
//! the 1D linear texture limit share.
//!
//! The handle descriptors, buffer descriptors and semaphore parameters have
//! the driver's layout and numbering, so they go to the driver as the
//! caller wrote them (after the handle type is checked against the
//! runtime's enumeration); the mipmapped-array descriptor differs (a
//! channel format instead of an array format) and is converted.

use crate::abi::{
    cudaChannelFormatDesc, cudaChannelFormatKind as K, cudaError_t, cudaExternalMemoryBufferDesc,
    cudaExternalMemoryHandleDesc, cudaExternalMemoryHandleType,
    cudaExternalMemoryMipmappedArrayDesc, cudaExternalMemory_t, cudaExternalSemaphoreHandleDesc,
    cudaExternalSemaphoreHandleType, cudaExternalSemaphoreSignalParams,
    cudaExternalSemaphoreWaitParams, cudaExternalSemaphore_t, cudaMipmappedArray_t, cudaStream_t,
};
use crate::boundary::{In, Out};
use crate::driver::interop::{
    InteropApi, CUDA_ARRAY3D_DESCRIPTOR, CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC,
};
use crate::driver::{self, CUdeviceptr};
use crate::launch::driver_stream;
use std::ffi::{c_uint, c_void};

fn api(per_thread: bool) -> Result<&'static InteropApi, cudaError_t> {
    driver::family::<InteropApi>(per_thread)
}

/// `cudaImportExternalMemory`.
pub fn import_memory(
    out: Out<cudaExternalMemory_t>,
    desc: In<cudaExternalMemoryHandleDesc>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let desc = desc.read()?;
    let known = cudaExternalMemoryHandleType::cudaExternalMemoryHandleTypeOpaqueFd.0
        ..=cudaExternalMemoryHandleType::cudaExternalMemoryHandleTypeNvSciBuf.0;
    if !known.contains(&desc.type_.0) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut mem: cudaExternalMemory_t = std::ptr::null_mut();
    api(false)?.cuImportExternalMemory(&mut mem, &desc).ok()?;
    out.write(mem)
}

/// `cudaExternalMemoryGetMappedBuffer`.
pub fn mapped_buffer(
    out: Out<*mut c_void>,
    mem: cudaExternalMemory_t,
    desc: In<cudaExternalMemoryBufferDesc>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let desc = desc.read()?;
    let mut dptr: CUdeviceptr = 0;
    api(false)?
        .cuExternalMemoryGetMappedBuffer(&mut dptr, mem, &desc)
        .ok()?;
    out.write(dptr as *mut c_void)
}

/// `cudaExternalMemoryGetMappedMipmappedArray`: the runtime's channel
/// format and extent become the driver's array descriptor; the
/// `cudaArray*` flags are the driver's `CUDA_ARRAY3D_*` bits.
pub fn mapped_mipmapped_array(
    out: Out<cudaMipmappedArray_t>,
    mem: cudaExternalMemory_t,
    desc: In<cudaExternalMemoryMipmappedArrayDesc>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let desc = desc.read()?;
    let (format, channels) = array_format(&desc.formatDesc)?;
    let driver_desc = CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC {
        offset: desc.offset,
        arrayDesc: CUDA_ARRAY3D_DESCRIPTOR {
            Width: desc.extent.width,
            Height: desc.extent.height,
            Depth: desc.extent.depth,
            Format: format,
            NumChannels: channels,
            Flags: desc.flags,
        },
        numLevels: desc.numLevels,
        reserved: [0; 16],
    };
    let mut mipmap: cudaMipmappedArray_t = std::ptr::null_mut();
    api(false)?
        .cuExternalMemoryGetMappedMipmappedArray(&mut mipmap, mem, &driver_desc)
        .ok()?;
    out.write(mipmap)
}

/// `cudaDestroyExternalMemory`.
pub fn destroy_memory(mem: cudaExternalMemory_t) -> Result<(), cudaError_t> {
    api(false)?.cuDestroyExternalMemory(mem).ok()
}

/// `cudaImportExternalSemaphore`.
pub fn import_semaphore(
    out: Out<cudaExternalSemaphore_t>,
    desc: In<cudaExternalSemaphoreHandleDesc>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let desc = desc.read()?;
    let known = cudaExternalSemaphoreHandleType::cudaExternalSemaphoreHandleTypeOpaqueFd.0
        ..=cudaExternalSemaphoreHandleType::cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32.0;
    if !known.contains(&desc.type_.0) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut sem: cudaExternalSemaphore_t = std::ptr::null_mut();
    api(false)?
        .cuImportExternalSemaphore(&mut sem, &desc)
        .ok()?;
    out.write(sem)
}

/// Arrays of `count` semaphores and parameters must both be there.
fn semaphore_arrays<P>(
    sems: *const cudaExternalSemaphore_t,
    params: *const P,
    count: c_uint,
) -> Result<(), cudaError_t> {
    if count > 0 && (sems.is_null() || params.is_null()) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    Ok(())
}

/// `cudaSignalExternalSemaphoresAsync` (`_ptsz`: `per_thread`).
pub fn signal_semaphores(
    sems: *const cudaExternalSemaphore_t,
    params: *const cudaExternalSemaphoreSignalParams,
    count: c_uint,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    semaphore_arrays(sems, params, count)?;
    api(per_thread)?
        .cuSignalExternalSemaphoresAsync(sems, params, count, driver_stream(stream, per_thread))
        .ok()
}

/// `cudaWaitExternalSemaphoresAsync` (`_ptsz`: `per_thread`).
pub fn wait_semaphores(
    sems: *const cudaExternalSemaphore_t,
    params: *const cudaExternalSemaphoreWaitParams,
    count: c_uint,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    semaphore_arrays(sems, params, count)?;
    api(per_thread)?
        .cuWaitExternalSemaphoresAsync(sems, params, count, driver_stream(stream, per_thread))
        .ok()
}

/// `cudaDestroyExternalSemaphore`.
pub fn destroy_semaphore(sem: cudaExternalSemaphore_t) -> Result<(), cudaError_t> {
    api(false)?.cuDestroyExternalSemaphore(sem).ok()
}

// ---------------------------------------------------------------------------
// Channel formats and the driver's array formats.

/// `CUarray_format` numbers (`cuda.h`).
mod format {
    pub const UNSIGNED_INT8: u32 = 0x01;
    pub const UNSIGNED_INT16: u32 = 0x02;
    pub const UNSIGNED_INT32: u32 = 0x03;
    pub const SIGNED_INT8: u32 = 0x08;
    pub const SIGNED_INT16: u32 = 0x09;
    pub const SIGNED_INT32: u32 = 0x0a;
    pub const HALF: u32 = 0x10;
    pub const FLOAT: u32 = 0x20;
}

/// The channel kinds with one fixed bit pattern, each naming one driver
/// array format: (kind, bits of x, y, z, w, `CUarray_format`). The patterns
/// are those `cudaCreateChannelDesc<kind>()` builds in NVIDIA's
/// `channel_descriptor.h`; the numbers are `cuda.h`'s.
const FIXED: &[(K, [i32; 4], u32)] = &[
    (K::cudaChannelFormatKindNV12, [8, 8, 8, 0], 0xb0),
    (
        K::cudaChannelFormatKindUnsignedNormalized8X1,
        [8, 0, 0, 0],
        0xc0,
    ),
    (
        K::cudaChannelFormatKindUnsignedNormalized8X2,
        [8, 8, 0, 0],
        0xc1,
    ),
    (
        K::cudaChannelFormatKindUnsignedNormalized8X4,
        [8, 8, 8, 8],
        0xc2,
    ),
    (
        K::cudaChannelFormatKindUnsignedNormalized16X1,
        [16, 0, 0, 0],
        0xc3,
    ),
    (
        K::cudaChannelFormatKindUnsignedNormalized16X2,
        [16, 16, 0, 0],
        0xc4,
    ),
    (
        K::cudaChannelFormatKindUnsignedNormalized16X4,
        [16, 16, 16, 16],
        0xc5,
    ),
    (
        K::cudaChannelFormatKindSignedNormalized8X1,
        [8, 0, 0, 0],
        0xc6,
    ),
    (
        K::cudaChannelFormatKindSignedNormalized8X2,
        [8, 8, 0, 0],
        0xc7,
    ),
    (
        K::cudaChannelFormatKindSignedNormalized8X4,
        [8, 8, 8, 8],
        0xc8,
    ),
    (
        K::cudaChannelFormatKindSignedNormalized16X1,
        [16, 0, 0, 0],
        0xc9,
    ),
    (
        K::cudaChannelFormatKindSignedNormalized16X2,
        [16, 16, 0, 0],
        0xca,
    ),
    (
        K::cudaChannelFormatKindSignedNormalized16X4,
        [16, 16, 16, 16],
        0xcb,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed1,
        [8, 8, 8, 8],
        0x91,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed1SRGB,
        [8, 8, 8, 8],
        0x92,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed2,
        [8, 8, 8, 8],
        0x93,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed2SRGB,
        [8, 8, 8, 8],
        0x94,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed3,
        [8, 8, 8, 8],
        0x95,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed3SRGB,
        [8, 8, 8, 8],
        0x96,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed4,
        [8, 0, 0, 0],
        0x97,
    ),
    (
        K::cudaChannelFormatKindSignedBlockCompressed4,
        [8, 0, 0, 0],
        0x98,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed5,
        [8, 8, 0, 0],
        0x99,
    ),
    (
        K::cudaChannelFormatKindSignedBlockCompressed5,
        [8, 8, 0, 0],
        0x9a,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed6H,
        [16, 16, 16, 0],
        0x9b,
    ),
    (
        K::cudaChannelFormatKindSignedBlockCompressed6H,
        [16, 16, 16, 0],
        0x9c,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed7,
        [8, 8, 8, 8],
        0x9d,
    ),
    (
        K::cudaChannelFormatKindUnsignedBlockCompressed7SRGB,
        [8, 8, 8, 8],
        0x9e,
    ),
    (
        K::cudaChannelFormatKindUnsignedNormalized1010102,
        [10, 10, 10, 2],
        0x50,
    ),
];

/// A runtime channel format as the driver's (`CUarray_format`, channel
/// count). Plain signed, unsigned and float channels take 1, 2 or 4
/// channels of one width (8/16/32 bits; 16/32 for float); the other kinds
/// take exactly their pattern. Anything else is
/// `cudaErrorInvalidChannelDescriptor`.
pub(crate) fn array_format(d: &cudaChannelFormatDesc) -> Result<(c_uint, c_uint), cudaError_t> {
    let invalid = Err(cudaError_t::cudaErrorInvalidChannelDescriptor);
    let bits = [d.x, d.y, d.z, d.w];
    let channels = bits.iter().take_while(|&&b| b != 0).count();
    if let Some(&(_, pattern, format)) = FIXED.iter().find(|(kind, ..)| *kind == d.f) {
        return if bits == pattern {
            Ok((format, channels as c_uint))
        } else {
            invalid
        };
    }
    // Channels are used from x on, all of one width, and 3 is not a count
    // arrays have.
    if !matches!(channels, 1 | 2 | 4) || bits[..channels].iter().any(|&b| b != d.x) {
        return invalid;
    }
    if bits[channels..].iter().any(|&b| b != 0) {
        return invalid;
    }
    let format = match (d.f, d.x) {
        (K::cudaChannelFormatKindUnsigned, 8) => format::UNSIGNED_INT8,
        (K::cudaChannelFormatKindUnsigned, 16) => format::UNSIGNED_INT16,
        (K::cudaChannelFormatKindUnsigned, 32) => format::UNSIGNED_INT32,
        (K::cudaChannelFormatKindSigned, 8) => format::SIGNED_INT8,
        (K::cudaChannelFormatKindSigned, 16) => format::SIGNED_INT16,
        (K::cudaChannelFormatKindSigned, 32) => format::SIGNED_INT32,
        (K::cudaChannelFormatKindFloat, 16) => format::HALF,
        (K::cudaChannelFormatKindFloat, 32) => format::FLOAT,
        _ => return invalid,
    };
    Ok((format, channels as c_uint))
}

/// The driver's (`CUarray_format`, channel count) as a runtime channel
/// format: the inverse of [`array_format`].
pub(crate) fn channel_desc(
    format: c_uint,
    channels: c_uint,
) -> Result<cudaChannelFormatDesc, cudaError_t> {
    let invalid = Err(cudaError_t::cudaErrorInvalidChannelDescriptor);
    if !(1..=4).contains(&channels) {
        return invalid;
    }
    if let Some(&(kind, pattern, _)) = FIXED.iter().find(|(.., f)| *f == format) {
        let [x, y, z, w] = pattern;
        return Ok(cudaChannelFormatDesc {
            x,
            y,
            z,
            w,
            f: kind,
        });
    }
    let (kind, width) = match format {
        format::UNSIGNED_INT8 => (K::cudaChannelFormatKindUnsigned, 8),
        format::UNSIGNED_INT16 => (K::cudaChannelFormatKindUnsigned, 16),
        format::UNSIGNED_INT32 => (K::cudaChannelFormatKindUnsigned, 32),
        format::SIGNED_INT8 => (K::cudaChannelFormatKindSigned, 8),
        format::SIGNED_INT16 => (K::cudaChannelFormatKindSigned, 16),
        format::SIGNED_INT32 => (K::cudaChannelFormatKindSigned, 32),
        format::HALF => (K::cudaChannelFormatKindFloat, 16),
        format::FLOAT => (K::cudaChannelFormatKindFloat, 32),
        _ => return invalid,
    };
    let bit = |i: c_uint| if i < channels { width } else { 0 };
    Ok(cudaChannelFormatDesc {
        x: bit(0),
        y: bit(1),
        z: bit(2),
        w: bit(3),
        f: kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn desc(x: i32, y: i32, z: i32, w: i32, f: K) -> cudaChannelFormatDesc {
        cudaChannelFormatDesc { x, y, z, w, f }
    }

    #[test]
    fn plain_formats_round_trip() {
        for (f, widths) in [
            (K::cudaChannelFormatKindUnsigned, &[8, 16, 32][..]),
            (K::cudaChannelFormatKindSigned, &[8, 16, 32][..]),
            (K::cudaChannelFormatKindFloat, &[16, 32][..]),
        ] {
            for &b in widths {
                for n in [1, 2, 4] {
                    let bit = |i| if i < n { b } else { 0 };
                    let d = desc(bit(0), bit(1), bit(2), bit(3), f);
                    let (format, channels) = array_format(&d).unwrap();
                    assert_eq!(channels, n as c_uint);
                    assert_eq!(channel_desc(format, channels).unwrap(), d);
                }
            }
        }
        assert_eq!(
            array_format(&desc(32, 32, 32, 32, K::cudaChannelFormatKindFloat)),
            Ok((format::FLOAT, 4))
        );
    }

    #[test]
    fn fixed_formats_round_trip() {
        for &(kind, [x, y, z, w], format) in FIXED {
            let d = desc(x, y, z, w, kind);
            let (f, channels) = array_format(&d).unwrap();
            assert_eq!(f, format);
            assert_eq!(channel_desc(f, channels).unwrap(), d);
        }
    }

    #[test]
    fn invalid_descriptors_are_refused() {
        let bad = Err(cudaError_t::cudaErrorInvalidChannelDescriptor);
        let u = K::cudaChannelFormatKindUnsigned;
        assert_eq!(array_format(&desc(8, 8, 8, 0, u)), bad); // 3 channels
        assert_eq!(array_format(&desc(8, 16, 0, 0, u)), bad); // mixed widths
        assert_eq!(array_format(&desc(8, 0, 8, 0, u)), bad); // gap
        assert_eq!(array_format(&desc(0, 0, 0, 0, u)), bad);
        assert_eq!(array_format(&desc(12, 0, 0, 0, u)), bad);
        assert_eq!(
            array_format(&desc(8, 0, 0, 0, K::cudaChannelFormatKindFloat)),
            bad
        );
        assert_eq!(
            array_format(&desc(8, 8, 0, 0, K::cudaChannelFormatKindNV12)),
            bad
        );
        assert_eq!(
            array_format(&desc(32, 0, 0, 0, K::cudaChannelFormatKindNone)),
            bad
        );
        assert_eq!(array_format(&desc(8, 0, 0, 0, K(99))), bad);
        let bad = bad.map(|_| ());
        assert_eq!(channel_desc(0x7f, 1).map(|_| ()), bad);
        assert_eq!(channel_desc(format::FLOAT, 0).map(|_| ()), bad);
    }
}
