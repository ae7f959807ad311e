//! The 3D copies of graph memcpy nodes: the runtime's `cudaMemcpy3DParms`
//! as the driver's `CUDA_MEMCPY3D` and back, and the 1D and symbol copies
//! as 3D copies of one row.
//!
//! Unlike the copies the runtime runs itself ([`super::place`]), a node
//! keeps the memory types its kind picks (`cudaMemcpyDefault`: unified
//! addressing, the driver works out each side), so that reading a node's
//! parameters back gives the kind it was made with; positions and widths
//! given in array elements become bytes.

use super::{
    check_from_symbol_kind, check_to_symbol_kind, symbol_range, DEFAULT, DEVICE_TO_DEVICE,
    DEVICE_TO_HOST, HOST_TO_DEVICE, HOST_TO_HOST,
};
use crate::abi::{
    cudaError_t, cudaExtent, cudaMemcpy3DParms, cudaMemcpyKind, cudaPitchedPtr, cudaPos,
};
use crate::driver::{
    CUarray, CUdeviceptr, CUDA_MEMCPY3D, CU_MEMORYTYPE_ARRAY, CU_MEMORYTYPE_DEVICE,
    CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_UNIFIED,
};
use std::ffi::{c_int, c_uint, c_void};

/// The driver memory types (source, destination) of a copy kind.
fn kind_types(kind: c_int) -> Result<(c_uint, c_uint), cudaError_t> {
    Ok(match kind {
        HOST_TO_HOST => (CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_HOST),
        HOST_TO_DEVICE => (CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE),
        DEVICE_TO_HOST => (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST),
        DEVICE_TO_DEVICE => (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE),
        DEFAULT => (CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED),
        _ => return Err(cudaError_t::cudaErrorInvalidMemcpyDirection),
    })
}

/// The copy kind of two driver memory types (arrays are device memory;
/// unified addressing on either side is `cudaMemcpyDefault`).
fn kind_of(src: c_uint, dst: c_uint) -> cudaMemcpyKind {
    let on_device = |t| match t {
        CU_MEMORYTYPE_HOST => Some(false),
        CU_MEMORYTYPE_DEVICE | CU_MEMORYTYPE_ARRAY => Some(true),
        _ => None,
    };
    match (on_device(src), on_device(dst)) {
        (Some(false), Some(false)) => cudaMemcpyKind::cudaMemcpyHostToHost,
        (Some(false), Some(true)) => cudaMemcpyKind::cudaMemcpyHostToDevice,
        (Some(true), Some(false)) => cudaMemcpyKind::cudaMemcpyDeviceToHost,
        (Some(true), Some(true)) => cudaMemcpyKind::cudaMemcpyDeviceToDevice,
        _ => cudaMemcpyKind::cudaMemcpyDefault,
    }
}

/// How many bytes an element of an array has (graph nodes ask their own
/// driver table).
pub type ElementBytes<'a> = &'a dyn Fn(CUarray) -> Result<usize, cudaError_t>;

/// `cudaMemcpy3DParms` -> `CUDA_MEMCPY3D`. Positions and the extent are in
/// elements of the array taking part (bytes when none does).
pub fn memcpy3d_to_driver(
    p: &cudaMemcpy3DParms,
    element_bytes: ElementBytes,
) -> Result<CUDA_MEMCPY3D, cudaError_t> {
    let (src_type, dst_type) = kind_types(p.kind.0 as c_int)?;
    let src_array = !p.srcArray.is_null();
    let dst_array = !p.dstArray.is_null();
    if (src_array && !p.srcPtr.ptr.is_null()) || (dst_array && !p.dstPtr.ptr.is_null()) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let src_es = if src_array {
        element_bytes(CUarray::from(p.srcArray))?
    } else {
        1
    };
    let dst_es = if dst_array {
        element_bytes(CUarray::from(p.dstArray))?
    } else {
        1
    };
    let width_es = if src_array { src_es } else { dst_es };
    let bytes = |n: usize, es: usize| n.checked_mul(es).ok_or(cudaError_t::cudaErrorInvalidValue);
    let mut d = CUDA_MEMCPY3D {
        srcXInBytes: bytes(p.srcPos.x, src_es)?,
        srcY: p.srcPos.y,
        srcZ: p.srcPos.z,
        dstXInBytes: bytes(p.dstPos.x, dst_es)?,
        dstY: p.dstPos.y,
        dstZ: p.dstPos.z,
        WidthInBytes: bytes(p.extent.width, width_es)?,
        Height: p.extent.height,
        Depth: p.extent.depth,
        ..Default::default()
    };
    if src_array {
        d.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        d.srcArray = CUarray::from(p.srcArray);
    } else {
        d.srcMemoryType = src_type;
        if src_type == CU_MEMORYTYPE_HOST {
            d.srcHost = p.srcPtr.ptr;
        } else {
            d.srcDevice = p.srcPtr.ptr as CUdeviceptr;
        }
        d.srcPitch = p.srcPtr.pitch;
        d.srcHeight = p.srcPtr.ysize;
    }
    if dst_array {
        d.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        d.dstArray = CUarray::from(p.dstArray);
    } else {
        d.dstMemoryType = dst_type;
        if dst_type == CU_MEMORYTYPE_HOST {
            d.dstHost = p.dstPtr.ptr;
        } else {
            d.dstDevice = p.dstPtr.ptr as CUdeviceptr;
        }
        d.dstPitch = p.dstPtr.pitch;
        d.dstHeight = p.dstPtr.ysize;
    }
    Ok(d)
}

/// `CUDA_MEMCPY3D` -> `cudaMemcpy3DParms` (the inverse of the above; a
/// pitched pointer's `xsize` is the copy's width in bytes).
pub fn memcpy3d_from_driver(
    d: &CUDA_MEMCPY3D,
    element_bytes: ElementBytes,
) -> Result<cudaMemcpy3DParms, cudaError_t> {
    let src_array = d.srcMemoryType == CU_MEMORYTYPE_ARRAY;
    let dst_array = d.dstMemoryType == CU_MEMORYTYPE_ARRAY;
    let src_es = if src_array {
        element_bytes(d.srcArray)?.max(1)
    } else {
        1
    };
    let dst_es = if dst_array {
        element_bytes(d.dstArray)?.max(1)
    } else {
        1
    };
    let width_es = if src_array { src_es } else { dst_es };
    let side = |ty: c_uint, host: *mut c_void, dev: CUdeviceptr, pitch: usize, height: usize| {
        cudaPitchedPtr {
            ptr: if ty == CU_MEMORYTYPE_HOST {
                host
            } else {
                dev as *mut c_void
            },
            pitch,
            xsize: d.WidthInBytes,
            ysize: height,
        }
    };
    let mut p = cudaMemcpy3DParms {
        srcPos: cudaPos {
            x: d.srcXInBytes / src_es,
            y: d.srcY,
            z: d.srcZ,
        },
        dstPos: cudaPos {
            x: d.dstXInBytes / dst_es,
            y: d.dstY,
            z: d.dstZ,
        },
        extent: cudaExtent {
            width: d.WidthInBytes / width_es,
            height: d.Height,
            depth: d.Depth,
        },
        kind: kind_of(d.srcMemoryType, d.dstMemoryType),
        ..Default::default()
    };
    if src_array {
        p.srcArray = d.srcArray.as_raw();
    } else {
        p.srcPtr = side(
            d.srcMemoryType,
            d.srcHost as *mut c_void,
            d.srcDevice,
            d.srcPitch,
            d.srcHeight,
        );
    }
    if dst_array {
        p.dstArray = d.dstArray.as_raw();
    } else {
        p.dstPtr = side(
            d.dstMemoryType,
            d.dstHost,
            d.dstDevice,
            d.dstPitch,
            d.dstHeight,
        );
    }
    Ok(p)
}

/// A one-row copy of `count` bytes (pitches and heights 0, as NVIDIA's
/// runtime leaves them: the driver's dot output shows the same node).
pub fn memcpy1d(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> Result<CUDA_MEMCPY3D, cudaError_t> {
    let p = cudaMemcpy3DParms {
        srcPtr: cudaPitchedPtr {
            ptr: src as *mut c_void,
            ..Default::default()
        },
        dstPtr: cudaPitchedPtr {
            ptr: dst,
            ..Default::default()
        },
        extent: cudaExtent {
            width: count,
            height: 1,
            depth: 1,
        },
        kind: cudaMemcpyKind(u32::try_from(kind).unwrap_or(u32::MAX)),
        ..Default::default()
    };
    // Pointers on both sides: no array element is ever sized.
    memcpy3d_to_driver(&p, &|_| Err(cudaError_t::cudaErrorInvalidValue))
}

/// A copy to a `__device__`/`__constant__` variable (HostToDevice,
/// DeviceToDevice or Default).
pub fn to_symbol(
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> Result<CUDA_MEMCPY3D, cudaError_t> {
    check_to_symbol_kind(kind)?;
    let dst = symbol_range(symbol, count, offset)? as *mut c_void;
    memcpy1d(dst, src, count, kind)
}

/// A copy from a variable (DeviceToHost, DeviceToDevice or Default).
pub fn from_symbol(
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> Result<CUDA_MEMCPY3D, cudaError_t> {
    check_from_symbol_kind(kind)?;
    let src = symbol_range(symbol, count, offset)? as *const c_void;
    memcpy1d(dst, src, count, kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::copy::elements::channel_bytes;

    fn no_arrays(_: CUarray) -> Result<usize, cudaError_t> {
        panic!("no array in this copy")
    }

    fn pitched(ptr: usize, pitch: usize, xsize: usize, ysize: usize) -> cudaPitchedPtr {
        cudaPitchedPtr {
            ptr: ptr as *mut c_void,
            pitch,
            xsize,
            ysize,
        }
    }

    #[test]
    fn copy_kinds_pick_memory_types() {
        for (kind, src, dst) in [
            (0, CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_HOST),
            (1, CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE),
            (2, CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST),
            (3, CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE),
            (4, CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED),
        ] {
            let p = cudaMemcpy3DParms {
                srcPtr: pitched(0x1000, 256, 200, 4),
                dstPtr: pitched(0x9000, 512, 200, 8),
                srcPos: cudaPos { x: 3, y: 1, z: 0 },
                dstPos: cudaPos { x: 5, y: 2, z: 1 },
                extent: cudaExtent {
                    width: 100,
                    height: 3,
                    depth: 2,
                },
                kind: cudaMemcpyKind(kind),
                ..Default::default()
            };
            let d = memcpy3d_to_driver(&p, &no_arrays).unwrap();
            assert_eq!(
                (d.srcMemoryType, d.dstMemoryType),
                (src, dst),
                "kind {kind}"
            );
            let s = if src == CU_MEMORYTYPE_HOST {
                d.srcHost as usize
            } else {
                d.srcDevice as usize
            };
            let t = if dst == CU_MEMORYTYPE_HOST {
                d.dstHost as usize
            } else {
                d.dstDevice as usize
            };
            assert_eq!((s, t), (0x1000, 0x9000));
            assert_eq!(
                (d.srcPitch, d.srcHeight, d.dstPitch, d.dstHeight),
                (256, 4, 512, 8)
            );
            assert_eq!(
                (d.srcXInBytes, d.srcY, d.dstXInBytes, d.dstY, d.dstZ),
                (3, 1, 5, 2, 1)
            );
            assert_eq!((d.WidthInBytes, d.Height, d.Depth), (100, 3, 2));
            // And back: the same copy, kind included.
            let back = memcpy3d_from_driver(&d, &no_arrays).unwrap();
            assert_eq!(back.kind.0, kind);
            assert_eq!(back.srcPtr.ptr as usize, 0x1000);
            assert_eq!(back.dstPtr.ptr as usize, 0x9000);
            assert_eq!((back.srcPtr.pitch, back.srcPtr.ysize), (256, 4));
            assert_eq!(back.srcPos, p.srcPos);
            assert_eq!(back.dstPos, p.dstPos);
            assert_eq!(back.extent, p.extent);
        }
        let bad = cudaMemcpy3DParms {
            kind: cudaMemcpyKind(5),
            ..Default::default()
        };
        assert_eq!(
            memcpy3d_to_driver(&bad, &no_arrays).err(),
            Some(cudaError_t::cudaErrorInvalidMemcpyDirection)
        );
    }

    #[test]
    fn array_positions_and_extent_are_in_elements() {
        let arr = CUarray::from(0x4444usize as *mut c_void);
        let sixteen = |a: CUarray| {
            assert_eq!(a, arr);
            Ok(16)
        };
        let p = cudaMemcpy3DParms {
            srcArray: arr.as_raw(),
            srcPos: cudaPos { x: 2, y: 1, z: 0 },
            dstPtr: pitched(0x8000, 1024, 64, 4),
            extent: cudaExtent {
                width: 4,
                height: 2,
                depth: 1,
            },
            kind: cudaMemcpyKind(2),
            ..Default::default()
        };
        let d = memcpy3d_to_driver(&p, &sixteen).unwrap();
        assert_eq!(d.srcMemoryType, CU_MEMORYTYPE_ARRAY);
        assert_eq!(d.srcArray, arr);
        assert_eq!((d.srcXInBytes, d.WidthInBytes), (32, 64));
        assert_eq!(d.dstMemoryType, CU_MEMORYTYPE_HOST);
        let back = memcpy3d_from_driver(&d, &sixteen).unwrap();
        assert_eq!(back.srcArray, arr.as_raw());
        assert_eq!((back.srcPos.x, back.extent.width), (2, 4));
        assert_eq!(back.kind.0, 2);
        // Both an array and a pointer on one side is refused.
        let both = cudaMemcpy3DParms {
            srcPtr: pitched(0x10, 1, 1, 1),
            ..p
        };
        assert_eq!(
            memcpy3d_to_driver(&both, &sixteen).err(),
            Some(cudaError_t::cudaErrorInvalidValue)
        );
        assert_eq!(channel_bytes(0x20), Some(4));
        assert_eq!(channel_bytes(0x10), Some(2));
        assert_eq!(channel_bytes(0x91), None);
    }
}
