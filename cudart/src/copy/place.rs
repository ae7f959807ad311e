//! The operands of 2D and 3D copies ([`Place`], [`Region`]) and the
//! driver's descriptions made of them (`CUDA_MEMCPY2D`, `CUDA_MEMCPY3D`),
//! shared by the memory, array and peer copies.
//!
//! A memory operand is `CU_MEMORYTYPE_UNIFIED`: with unified addressing
//! the driver tells host from device memory by address. An array operand
//! counts x in bytes; a runtime 3D copy counts it in elements of the
//! arrays taking part, converted here ([`regions_3d`]).

use super::check_kind;
use super::elements::element_size_of;
use crate::abi::{
    cudaArray_t, cudaError_t, cudaExtent, cudaMemcpy3DParms, cudaPitchedPtr, cudaPos,
};
use crate::driver::{
    CUarray, CUdeviceptr, CUDA_MEMCPY2D, CUDA_MEMCPY3D, CU_MEMORYTYPE_ARRAY, CU_MEMORYTYPE_UNIFIED,
};
use std::ffi::{c_int, c_uint, c_void};

/// One operand of a 2D or 3D copy.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Place {
    /// Host or device memory (the driver tells which by address): rows
    /// `pitch` bytes apart, `height` rows to a slice (3D copies only).
    Memory {
        ptr: *mut c_void,
        pitch: usize,
        height: usize,
    },
    /// A CUDA array (positions in bytes along x, elements along y and z).
    Array(CUarray),
}

impl Place {
    pub(crate) fn memory(ptr: *mut c_void, pitch: usize, height: usize) -> Self {
        Place::Memory { ptr, pitch, height }
    }

    /// The `CUmemorytype`, host pointer, device pointer, array, pitch and
    /// slice height of this operand in the driver's copy descriptions.
    fn driver_fields(self) -> (c_uint, *mut c_void, CUdeviceptr, CUarray, usize, usize) {
        match self {
            Place::Memory { ptr, pitch, height } => (
                CU_MEMORYTYPE_UNIFIED,
                ptr,
                ptr as CUdeviceptr,
                CUarray::null(),
                pitch,
                height,
            ),
            Place::Array(a) => (CU_MEMORYTYPE_ARRAY, std::ptr::null_mut(), 0, a, 0, 0),
        }
    }
}

/// A position in an operand: `x` in bytes, `y` in rows, `z` in slices.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Region {
    pub place: Place,
    pub x: usize,
    pub y: usize,
    pub z: usize,
}

impl Region {
    /// A 2D position.
    pub(crate) fn at(place: Place, x: usize, y: usize) -> Self {
        Region { place, x, y, z: 0 }
    }
}

/// The driver's description of a 2D copy of `width` bytes by `height` rows.
pub(crate) fn params_2d(src: &Region, dst: &Region, width: usize, height: usize) -> CUDA_MEMCPY2D {
    let (st, sh, sd, sa, sp, _) = src.place.driver_fields();
    let (dt, dh, dd, da, dp, _) = dst.place.driver_fields();
    CUDA_MEMCPY2D {
        srcXInBytes: src.x,
        srcY: src.y,
        srcMemoryType: st,
        srcHost: sh,
        srcDevice: sd,
        srcArray: sa,
        srcPitch: sp,
        dstXInBytes: dst.x,
        dstY: dst.y,
        dstMemoryType: dt,
        dstHost: dh,
        dstDevice: dd,
        dstArray: da,
        dstPitch: dp,
        WidthInBytes: width,
        Height: height,
    }
}

/// The driver's description of a 3D copy of `width` bytes by `height` rows
/// by `depth` slices.
pub(crate) fn params_3d(
    src: &Region,
    dst: &Region,
    width: usize,
    height: usize,
    depth: usize,
) -> CUDA_MEMCPY3D {
    let (st, sh, sd, sa, sp, shh) = src.place.driver_fields();
    let (dt, dh, dd, da, dp, dhh) = dst.place.driver_fields();
    CUDA_MEMCPY3D {
        srcXInBytes: src.x,
        srcY: src.y,
        srcZ: src.z,
        srcLOD: 0,
        srcMemoryType: st,
        srcHost: sh,
        srcDevice: sd,
        srcArray: sa,
        reserved0: std::ptr::null_mut(),
        srcPitch: sp,
        srcHeight: shh,
        dstXInBytes: dst.x,
        dstY: dst.y,
        dstZ: dst.z,
        dstLOD: 0,
        dstMemoryType: dt,
        dstHost: dh,
        dstDevice: dd,
        dstArray: da,
        reserved1: std::ptr::null_mut(),
        dstPitch: dp,
        dstHeight: dhh,
        WidthInBytes: width,
        Height: height,
        Depth: depth,
    }
}

/// The source and destination of a runtime 3D copy (`cudaMemcpy3DParms`
/// or `cudaMemcpy3DPeerParms`) and its width in bytes.
///
/// Each side is exactly one of an array or a pitched pointer. Positions and
/// the extent's width count elements of the array when an array takes
/// part (both arrays must then have one element size), bytes otherwise.
pub(crate) fn regions_3d(
    src_array: cudaArray_t,
    src_pos: cudaPos,
    src_ptr: cudaPitchedPtr,
    dst_array: cudaArray_t,
    dst_pos: cudaPos,
    dst_ptr: cudaPitchedPtr,
    extent: cudaExtent,
) -> Result<(Region, Region, usize), cudaError_t> {
    let (src_array, dst_array) = (CUarray::from(src_array), CUarray::from(dst_array));
    let src_elem = side_element_size(src_array, &src_ptr)?;
    let dst_elem = side_element_size(dst_array, &dst_ptr)?;
    let elem = match (src_elem, dst_elem) {
        (Some(a), Some(b)) if a != b => return Err(cudaError_t::cudaErrorInvalidValue),
        (Some(e), _) | (None, Some(e)) => e,
        (None, None) => 1,
    };
    let src = side_region(src_array, src_pos, src_ptr, src_elem)?;
    let dst = side_region(dst_array, dst_pos, dst_ptr, dst_elem)?;
    let width = extent
        .width
        .checked_mul(elem)
        .ok_or(cudaError_t::cudaErrorInvalidValue)?;
    Ok((src, dst, width))
}

/// The element size of an array operand (`None` for a pointer operand);
/// exactly one of the two must be given.
fn side_element_size(array: CUarray, ptr: &cudaPitchedPtr) -> Result<Option<usize>, cudaError_t> {
    match (array.is_null(), ptr.ptr.is_null()) {
        (false, true) => Ok(Some(element_size_of(array)?)),
        (true, false) => Ok(None),
        _ => Err(cudaError_t::cudaErrorInvalidValue),
    }
}

fn side_region(
    array: CUarray,
    pos: cudaPos,
    ptr: cudaPitchedPtr,
    elem: Option<usize>,
) -> Result<Region, cudaError_t> {
    Ok(match elem {
        Some(e) => Region {
            place: Place::Array(array),
            x: pos
                .x
                .checked_mul(e)
                .ok_or(cudaError_t::cudaErrorInvalidValue)?,
            y: pos.y,
            z: pos.z,
        },
        None => Region {
            place: Place::memory(ptr.ptr, ptr.pitch, ptr.ysize),
            x: pos.x,
            y: pos.y,
            z: pos.z,
        },
    })
}

/// `cudaMemcpy3DParms` as the driver's `CUDA_MEMCPY3D`, or `None` for a
/// copy with nothing to do (an extent with a zero dimension).
pub fn to_driver_3d(p: &cudaMemcpy3DParms) -> Result<Option<CUDA_MEMCPY3D>, cudaError_t> {
    check_kind(p.kind.0 as c_int)?;
    let (src, dst, width) = regions_3d(
        p.srcArray, p.srcPos, p.srcPtr, p.dstArray, p.dstPos, p.dstPtr, p.extent,
    )?;
    let e = p.extent;
    if e.width == 0 || e.height == 0 || e.depth == 0 {
        return Ok(None);
    }
    Ok(Some(params_3d(&src, &dst, width, e.height, e.depth)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::cudaMemcpyKind;

    #[test]
    fn pointer_3d_copy_takes_bytes_positions_and_pitches() {
        let src = 0x10_0000usize as *mut c_void;
        let dst = 0x20_0000usize as *mut c_void;
        let p = cudaMemcpy3DParms {
            srcPtr: cudaPitchedPtr {
                ptr: src,
                pitch: 512,
                xsize: 100,
                ysize: 11,
            },
            srcPos: cudaPos { x: 24, y: 1, z: 2 },
            dstPtr: cudaPitchedPtr {
                ptr: dst,
                pitch: 256,
                xsize: 100,
                ysize: 7,
            },
            dstPos: cudaPos { x: 4, y: 4, z: 0 },
            extent: cudaExtent {
                width: 20,
                height: 3,
                depth: 2,
            },
            kind: cudaMemcpyKind::cudaMemcpyDeviceToDevice,
            ..Default::default()
        };
        let c = to_driver_3d(&p).unwrap().unwrap();
        assert_eq!((c.srcXInBytes, c.srcY, c.srcZ), (24, 1, 2));
        assert_eq!((c.srcPitch, c.srcHeight, c.srcDevice), (512, 11, 0x10_0000));
        assert_eq!((c.dstXInBytes, c.dstY, c.dstZ), (4, 4, 0));
        assert_eq!((c.dstPitch, c.dstHeight, c.dstHost), (256, 7, dst));
        assert_eq!((c.WidthInBytes, c.Height, c.Depth), (20, 3, 2));
        assert_eq!(
            (c.srcMemoryType, c.dstMemoryType),
            (CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED)
        );
    }

    #[test]
    fn bad_3d_copies_are_refused_before_the_driver() {
        let ptr = cudaPitchedPtr {
            ptr: 0x1000usize as *mut c_void,
            pitch: 64,
            xsize: 64,
            ysize: 1,
        };
        let base = cudaMemcpy3DParms {
            srcPtr: ptr,
            dstPtr: ptr,
            extent: cudaExtent {
                width: 1,
                height: 1,
                depth: 1,
            },
            ..Default::default()
        };
        let kind = cudaMemcpy3DParms {
            kind: cudaMemcpyKind(9),
            ..base
        };
        assert_eq!(
            to_driver_3d(&kind).err(),
            Some(cudaError_t::cudaErrorInvalidMemcpyDirection)
        );
        let no_src = cudaMemcpy3DParms {
            srcPtr: cudaPitchedPtr::default(),
            ..base
        };
        assert_eq!(
            to_driver_3d(&no_src).err(),
            Some(cudaError_t::cudaErrorInvalidValue)
        );
        let empty = cudaMemcpy3DParms {
            extent: cudaExtent::default(),
            ..base
        };
        assert!(to_driver_3d(&empty).unwrap().is_none());
    }
}
