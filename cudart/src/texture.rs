//! Texture and surface objects.
//!
//! A `cudaTextureObject_t` is the driver's `CUtexObject`, a
//! `cudaSurfaceObject_t` its `CUsurfObject`. The runtime's resource,
//! texture and view descriptions have layouts of their own, so they are
//! converted field by field, both ways:
//!
//! - `cudaResourceDesc` ↔ `CUDA_RESOURCE_DESC`: arrays and mipmapped
//!   arrays pass their handle; linear and pitched memory carry a channel
//!   descriptor that becomes a `CUarray_format` and a channel count.
//! - `cudaTextureDesc` ↔ `CUDA_TEXTURE_DESC`: address and filter modes share
//!   their numbers; `readMode`, `sRGB`, `normalizedCoords`,
//!   `disableTrilinearOptimization` and `seamlessCubemap` become `CU_TRSF_*`
//!   flags. The driver promotes integer elements to normalized floats unless
//!   told `CU_TRSF_READ_AS_INTEGER`, so `cudaReadModeElementType` on an
//!   integer format sets that flag; float formats are read as they are in
//!   either mode, and come back as `cudaReadModeElementType`.
//! - `cudaResourceViewDesc` ↔ `CUDA_RESOURCE_VIEW_DESC`: the formats share
//!   their numbers.

use crate::abi::{
    cudaError_t, cudaResourceDesc, cudaResourceDesc_array, cudaResourceDesc_linear,
    cudaResourceDesc_mipmap, cudaResourceDesc_pitch2D, cudaResourceDesc_res, cudaResourceType,
    cudaResourceViewDesc, cudaResourceViewFormat, cudaSurfaceObject_t, cudaTextureAddressMode,
    cudaTextureDesc, cudaTextureFilterMode, cudaTextureObject_t, cudaTextureReadMode,
};
use crate::array;
use crate::boundary::{In, Out};
use crate::copy::elements::{self, Format};
use crate::driver::{
    CUDA_RESOURCE_DESC_array, CUDA_RESOURCE_DESC_linear, CUDA_RESOURCE_DESC_mipmap,
    CUDA_RESOURCE_DESC_pitch2D, CUDA_RESOURCE_DESC_res, CUarray, CUdeviceptr, CUmipmappedArray,
    CUDA_RESOURCE_DESC, CUDA_RESOURCE_VIEW_DESC, CUDA_TEXTURE_DESC, CU_RESOURCE_TYPE_ARRAY,
    CU_RESOURCE_TYPE_LINEAR, CU_RESOURCE_TYPE_MIPMAPPED_ARRAY, CU_RESOURCE_TYPE_PITCH2D,
    CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION, CU_TRSF_NORMALIZED_COORDINATES,
    CU_TRSF_READ_AS_INTEGER, CU_TRSF_SEAMLESS_CUBEMAP, CU_TRSF_SRGB,
};
use crate::memory::api;
use std::ffi::{c_uint, c_void};

/// The memory behind a texture or surface, in neither API's layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Resource {
    Array(CUarray),
    Mipmap(CUmipmappedArray),
    Linear {
        ptr: CUdeviceptr,
        format: Format,
        size: usize,
    },
    Pitch2D {
        ptr: CUdeviceptr,
        format: Format,
        width: usize,
        height: usize,
        pitch: usize,
    },
}

/// The resource a runtime description names.
pub fn resource_from_runtime(d: &cudaResourceDesc) -> Result<Resource, cudaError_t> {
    // SAFETY: every member of the union is plain data (handles, pointers,
    // integers, a channel descriptor whose kind is an integer newtype), for
    // which every bit pattern is valid, so reading the member that
    // `resType` names is sound whatever the caller wrote.
    let res = unsafe {
        match d.resType {
            cudaResourceType::cudaResourceTypeArray => {
                Resource::Array(CUarray::from(d.res.array.array))
            }
            cudaResourceType::cudaResourceTypeMipmappedArray => {
                Resource::Mipmap(CUmipmappedArray::from(d.res.mipmap.mipmap))
            }
            cudaResourceType::cudaResourceTypeLinear => {
                let l = d.res.linear;
                Resource::Linear {
                    ptr: l.devPtr as CUdeviceptr,
                    format: array::driver_format(&l.desc)?,
                    size: l.sizeInBytes,
                }
            }
            cudaResourceType::cudaResourceTypePitch2D => {
                let p = d.res.pitch2D;
                Resource::Pitch2D {
                    ptr: p.devPtr as CUdeviceptr,
                    format: array::driver_format(&p.desc)?,
                    width: p.width,
                    height: p.height,
                    pitch: p.pitchInBytes,
                }
            }
            _ => return Err(cudaError_t::cudaErrorInvalidValue),
        }
    };
    Ok(res)
}

/// The driver's description of a resource.
pub fn resource_to_driver(r: &Resource, flags: c_uint) -> CUDA_RESOURCE_DESC {
    let (res_type, res) = match *r {
        Resource::Array(a) => (
            CU_RESOURCE_TYPE_ARRAY,
            CUDA_RESOURCE_DESC_res {
                array: CUDA_RESOURCE_DESC_array { hArray: a },
            },
        ),
        Resource::Mipmap(m) => (
            CU_RESOURCE_TYPE_MIPMAPPED_ARRAY,
            CUDA_RESOURCE_DESC_res {
                mipmap: CUDA_RESOURCE_DESC_mipmap { hMipmappedArray: m },
            },
        ),
        Resource::Linear { ptr, format, size } => (
            CU_RESOURCE_TYPE_LINEAR,
            CUDA_RESOURCE_DESC_res {
                linear: CUDA_RESOURCE_DESC_linear {
                    devPtr: ptr,
                    format: format.format,
                    numChannels: format.channels,
                    sizeInBytes: size,
                },
            },
        ),
        Resource::Pitch2D {
            ptr,
            format,
            width,
            height,
            pitch,
        } => (
            CU_RESOURCE_TYPE_PITCH2D,
            CUDA_RESOURCE_DESC_res {
                pitch2D: CUDA_RESOURCE_DESC_pitch2D {
                    devPtr: ptr,
                    format: format.format,
                    numChannels: format.channels,
                    width,
                    height,
                    pitchInBytes: pitch,
                },
            },
        ),
    };
    // Start from zeros so that the bytes a smaller member leaves are zero.
    let mut d = CUDA_RESOURCE_DESC {
        resType: res_type,
        flags,
        ..Default::default()
    };
    d.res = res;
    d
}

/// The resource a driver description names.
pub fn resource_from_driver(d: &CUDA_RESOURCE_DESC) -> Result<Resource, cudaError_t> {
    let format = |format, channels| Format { format, channels };
    // SAFETY: as in `resource_from_runtime`: every member is plain data.
    let res = unsafe {
        match d.resType {
            CU_RESOURCE_TYPE_ARRAY => Resource::Array(d.res.array.hArray),
            CU_RESOURCE_TYPE_MIPMAPPED_ARRAY => Resource::Mipmap(d.res.mipmap.hMipmappedArray),
            CU_RESOURCE_TYPE_LINEAR => {
                let l = d.res.linear;
                Resource::Linear {
                    ptr: l.devPtr,
                    format: format(l.format, l.numChannels),
                    size: l.sizeInBytes,
                }
            }
            CU_RESOURCE_TYPE_PITCH2D => {
                let p = d.res.pitch2D;
                Resource::Pitch2D {
                    ptr: p.devPtr,
                    format: format(p.format, p.numChannels),
                    width: p.width,
                    height: p.height,
                    pitch: p.pitchInBytes,
                }
            }
            _ => return Err(cudaError_t::cudaErrorInvalidValue),
        }
    };
    Ok(res)
}

/// The runtime's description of a resource.
pub fn resource_to_runtime(r: &Resource, flags: c_uint) -> Result<cudaResourceDesc, cudaError_t> {
    let mut d = cudaResourceDesc {
        flags,
        ..Default::default()
    };
    let mut res = cudaResourceDesc_res::default();
    d.resType = match *r {
        Resource::Array(a) => {
            res.array = cudaResourceDesc_array { array: a.as_raw() };
            cudaResourceType::cudaResourceTypeArray
        }
        Resource::Mipmap(m) => {
            res.mipmap = cudaResourceDesc_mipmap { mipmap: m.as_raw() };
            cudaResourceType::cudaResourceTypeMipmappedArray
        }
        Resource::Linear { ptr, format, size } => {
            res.linear = cudaResourceDesc_linear {
                devPtr: ptr as *mut c_void,
                desc: array::channel_desc(format)?,
                sizeInBytes: size,
            };
            cudaResourceType::cudaResourceTypeLinear
        }
        Resource::Pitch2D {
            ptr,
            format,
            width,
            height,
            pitch,
        } => {
            res.pitch2D = cudaResourceDesc_pitch2D {
                devPtr: ptr as *mut c_void,
                desc: array::channel_desc(format)?,
                width,
                height,
                pitchInBytes: pitch,
            };
            cudaResourceType::cudaResourceTypePitch2D
        }
    };
    d.res = res;
    Ok(d)
}

/// The format of a resource's elements (for mipmapped arrays, that of
/// level 0).
fn element_format(r: &Resource) -> Result<Format, cudaError_t> {
    match *r {
        Resource::Array(a) => Ok(elements::format_of(&elements::descriptor(a)?)),
        Resource::Mipmap(m) => {
            let mut level = CUarray::null();
            api(false)?
                .cuMipmappedArrayGetLevel(&mut level, m, 0)
                .ok()?;
            Ok(elements::format_of(&elements::descriptor(level)?))
        }
        Resource::Linear { format, .. } | Resource::Pitch2D { format, .. } => Ok(format),
    }
}

/// The driver's texture description. `integer`: the resource's elements
/// are integers (see the module notes on the read mode).
pub fn texture_desc_to_driver(
    t: &cudaTextureDesc,
    integer: bool,
) -> Result<CUDA_TEXTURE_DESC, cudaError_t> {
    let mut flags = 0;
    match t.readMode {
        cudaTextureReadMode::cudaReadModeElementType if integer => flags |= CU_TRSF_READ_AS_INTEGER,
        cudaTextureReadMode::cudaReadModeElementType
        | cudaTextureReadMode::cudaReadModeNormalizedFloat => {}
        _ => return Err(cudaError_t::cudaErrorInvalidValue),
    }
    for (on, flag) in [
        (t.sRGB, CU_TRSF_SRGB),
        (t.normalizedCoords, CU_TRSF_NORMALIZED_COORDINATES),
        (
            t.disableTrilinearOptimization,
            CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION,
        ),
        (t.seamlessCubemap, CU_TRSF_SEAMLESS_CUBEMAP),
    ] {
        if on != 0 {
            flags |= flag;
        }
    }
    Ok(CUDA_TEXTURE_DESC {
        addressMode: t.addressMode.map(|m| m.0),
        filterMode: t.filterMode.0,
        flags,
        maxAnisotropy: t.maxAnisotropy,
        mipmapFilterMode: t.mipmapFilterMode.0,
        mipmapLevelBias: t.mipmapLevelBias,
        minMipmapLevelClamp: t.minMipmapLevelClamp,
        maxMipmapLevelClamp: t.maxMipmapLevelClamp,
        borderColor: t.borderColor,
        reserved: [0; 12],
    })
}

/// The runtime's texture description (the inverse of
/// [`texture_desc_to_driver`]).
pub fn texture_desc_to_runtime(t: &CUDA_TEXTURE_DESC, integer: bool) -> cudaTextureDesc {
    let has = |flag: c_uint| i32::from(t.flags & flag != 0);
    let read_mode = if integer && t.flags & CU_TRSF_READ_AS_INTEGER == 0 {
        cudaTextureReadMode::cudaReadModeNormalizedFloat
    } else {
        cudaTextureReadMode::cudaReadModeElementType
    };
    cudaTextureDesc {
        addressMode: t.addressMode.map(cudaTextureAddressMode),
        filterMode: cudaTextureFilterMode(t.filterMode),
        readMode: read_mode,
        sRGB: has(CU_TRSF_SRGB),
        borderColor: t.borderColor,
        normalizedCoords: has(CU_TRSF_NORMALIZED_COORDINATES),
        maxAnisotropy: t.maxAnisotropy,
        mipmapFilterMode: cudaTextureFilterMode(t.mipmapFilterMode),
        mipmapLevelBias: t.mipmapLevelBias,
        minMipmapLevelClamp: t.minMipmapLevelClamp,
        maxMipmapLevelClamp: t.maxMipmapLevelClamp,
        disableTrilinearOptimization: has(CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION),
        seamlessCubemap: has(CU_TRSF_SEAMLESS_CUBEMAP),
    }
}

/// The driver's resource-view description.
pub fn view_desc_to_driver(v: &cudaResourceViewDesc) -> CUDA_RESOURCE_VIEW_DESC {
    CUDA_RESOURCE_VIEW_DESC {
        format: v.format.0,
        width: v.width,
        height: v.height,
        depth: v.depth,
        firstMipmapLevel: v.firstMipmapLevel,
        lastMipmapLevel: v.lastMipmapLevel,
        firstLayer: v.firstLayer,
        lastLayer: v.lastLayer,
        reserved: [0; 16],
    }
}

/// The runtime's resource-view description.
pub fn view_desc_to_runtime(v: &CUDA_RESOURCE_VIEW_DESC) -> cudaResourceViewDesc {
    cudaResourceViewDesc {
        format: cudaResourceViewFormat(v.format),
        width: v.width,
        height: v.height,
        depth: v.depth,
        firstMipmapLevel: v.firstMipmapLevel,
        lastMipmapLevel: v.lastMipmapLevel,
        firstLayer: v.firstLayer,
        lastLayer: v.lastLayer,
        reserved: [0; 16],
    }
}

// ---------------------------------------------------------------------------
// Texture objects.

/// `cudaCreateTextureObject`: the view description is optional.
pub fn create_texture_object(
    out: Out<cudaTextureObject_t>,
    res: In<cudaResourceDesc>,
    tex: In<cudaTextureDesc>,
    view: In<cudaResourceViewDesc>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let res_desc = res.read()?;
    let resource = resource_from_runtime(&res_desc)?;
    // NVIDIA's runtime answers a missing texture description with
    // cudaErrorInvalidResourceHandle (seen on an H200), not InvalidValue.
    if tex.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    let integer = elements::is_integer(element_format(&resource)?.format);
    let tex = texture_desc_to_driver(&tex.read()?, integer)?;
    let res = resource_to_driver(&resource, res_desc.flags);
    let view = if view.is_null() {
        None
    } else {
        Some(view_desc_to_driver(&view.read()?))
    };
    let view_ptr = view
        .as_ref()
        .map_or(std::ptr::null(), |v| v as *const CUDA_RESOURCE_VIEW_DESC);
    let mut t: cudaTextureObject_t = 0;
    api(false)?
        .cuTexObjectCreate(&mut t, &res, &tex, view_ptr)
        .ok()?;
    out.write(t)
}

/// `cudaDestroyTextureObject`.
pub fn destroy_texture_object(tex: cudaTextureObject_t) -> Result<(), cudaError_t> {
    api(false)?.cuTexObjectDestroy(tex).ok()
}

/// A texture object's resource, as the driver describes it.
fn texture_resource(tex: cudaTextureObject_t) -> Result<(Resource, c_uint), cudaError_t> {
    let mut d = CUDA_RESOURCE_DESC::default();
    api(false)?.cuTexObjectGetResourceDesc(&mut d, tex).ok()?;
    Ok((resource_from_driver(&d)?, d.flags))
}

/// `cudaGetTextureObjectResourceDesc`.
pub fn texture_resource_desc(
    out: Out<cudaResourceDesc>,
    tex: cudaTextureObject_t,
) -> Result<(), cudaError_t> {
    out.check()?;
    let (r, flags) = texture_resource(tex)?;
    out.write(resource_to_runtime(&r, flags)?)
}

/// `cudaGetTextureObjectTextureDesc`.
pub fn texture_texture_desc(
    out: Out<cudaTextureDesc>,
    tex: cudaTextureObject_t,
) -> Result<(), cudaError_t> {
    // A NULL out-pointer: NVIDIA's runtime answers
    // cudaErrorInvalidResourceHandle (the NULL sweep on the H200).
    if out.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    let mut t = CUDA_TEXTURE_DESC::default();
    api(false)?.cuTexObjectGetTextureDesc(&mut t, tex).ok()?;
    let (r, _) = texture_resource(tex)?;
    let integer = elements::is_integer(element_format(&r)?.format);
    out.write(texture_desc_to_runtime(&t, integer))
}

/// `cudaGetTextureObjectResourceViewDesc`.
pub fn texture_view_desc(
    out: Out<cudaResourceViewDesc>,
    tex: cudaTextureObject_t,
) -> Result<(), cudaError_t> {
    let mut v = CUDA_RESOURCE_VIEW_DESC::default();
    api(false)?
        .cuTexObjectGetResourceViewDesc(&mut v, tex)
        .ok()?;
    // NULL is no error: NVIDIA's runtime answers success without writing
    // (the NULL sweep on the H200).
    if out.is_null() {
        return Ok(());
    }
    out.write(view_desc_to_runtime(&v))
}

// ---------------------------------------------------------------------------
// Surface objects.

/// `cudaCreateSurfaceObject`: the resource must be an array created with
/// `cudaArraySurfaceLoadStore` (the driver checks).
pub fn create_surface_object(
    out: Out<cudaSurfaceObject_t>,
    res: In<cudaResourceDesc>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let res_desc = res.read()?;
    let res = resource_to_driver(&resource_from_runtime(&res_desc)?, res_desc.flags);
    let mut s: cudaSurfaceObject_t = 0;
    api(false)?.cuSurfObjectCreate(&mut s, &res).ok()?;
    out.write(s)
}

/// `cudaDestroySurfaceObject`.
pub fn destroy_surface_object(surf: cudaSurfaceObject_t) -> Result<(), cudaError_t> {
    api(false)?.cuSurfObjectDestroy(surf).ok()
}

/// `cudaGetSurfaceObjectResourceDesc`.
pub fn surface_resource_desc(
    out: Out<cudaResourceDesc>,
    surf: cudaSurfaceObject_t,
) -> Result<(), cudaError_t> {
    // A NULL out-pointer: NVIDIA's runtime answers cudaErrorInvalidDevice
    // (the NULL sweep on the H200).
    if out.is_null() {
        return Err(cudaError_t::cudaErrorInvalidDevice);
    }
    let mut d = CUDA_RESOURCE_DESC::default();
    api(false)?.cuSurfObjectGetResourceDesc(&mut d, surf).ok()?;
    out.write(resource_to_runtime(&resource_from_driver(&d)?, d.flags)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{cudaChannelFormatDesc, cudaChannelFormatKind};

    fn float2() -> cudaChannelFormatDesc {
        cudaChannelFormatDesc {
            x: 32,
            y: 32,
            z: 0,
            w: 0,
            f: cudaChannelFormatKind::cudaChannelFormatKindFloat,
        }
    }

    #[test]
    fn pitch2d_resource_round_trips_through_the_driver_layout() {
        let mut d = cudaResourceDesc {
            resType: cudaResourceType::cudaResourceTypePitch2D,
            ..Default::default()
        };
        d.res.pitch2D = cudaResourceDesc_pitch2D {
            devPtr: 0x7000_0000_1000 as *mut c_void,
            desc: float2(),
            width: 100,
            height: 50,
            pitchInBytes: 1024,
        };
        let r = resource_from_runtime(&d).unwrap();
        let drv = resource_to_driver(&r, 0);
        assert_eq!(drv.resType, CU_RESOURCE_TYPE_PITCH2D);
        let back = resource_from_driver(&drv).unwrap();
        assert_eq!(back, r);
        let rt = resource_to_runtime(&back, 0).unwrap();
        assert_eq!(resource_from_runtime(&rt).unwrap(), r);
        match r {
            Resource::Pitch2D { format, .. } => {
                assert_eq!(
                    format,
                    Format {
                        format: 0x20,
                        channels: 2
                    }
                )
            }
            _ => unreachable!(),
        }
    }

    #[test]
    fn read_mode_maps_to_read_as_integer_for_integer_formats_only() {
        let t = cudaTextureDesc {
            readMode: cudaTextureReadMode::cudaReadModeElementType,
            normalizedCoords: 1,
            filterMode: cudaTextureFilterMode::cudaFilterModeLinear,
            borderColor: [1.0, 2.0, 3.0, 4.0],
            ..Default::default()
        };
        let f = texture_desc_to_driver(&t, false).unwrap();
        assert_eq!(f.flags, CU_TRSF_NORMALIZED_COORDINATES);
        assert_eq!(f.filterMode, 1);
        assert_eq!(f.borderColor, [1.0, 2.0, 3.0, 4.0]);
        let i = texture_desc_to_driver(&t, true).unwrap();
        assert_eq!(
            i.flags,
            CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_READ_AS_INTEGER
        );
        for (d, integer) in [(f, false), (i, true)] {
            let back = texture_desc_to_runtime(&d, integer);
            assert_eq!(back.readMode, t.readMode);
            assert_eq!(back.normalizedCoords, 1);
            assert_eq!(back.filterMode, t.filterMode);
        }
        let n = cudaTextureDesc {
            readMode: cudaTextureReadMode::cudaReadModeNormalizedFloat,
            sRGB: 1,
            ..Default::default()
        };
        let d = texture_desc_to_driver(&n, true).unwrap();
        assert_eq!(d.flags, CU_TRSF_SRGB);
        assert_eq!(
            texture_desc_to_runtime(&d, true).readMode,
            cudaTextureReadMode::cudaReadModeNormalizedFloat
        );
        let bad = cudaTextureDesc {
            readMode: cudaTextureReadMode(7),
            ..Default::default()
        };
        assert_eq!(
            texture_desc_to_driver(&bad, false),
            Err(cudaError_t::cudaErrorInvalidValue)
        );
    }
}
