//! Memory: device, pinned host and managed allocations, copies and sets.
//!
//! With unified addressing (every device CUDA 13 supports), the driver tells
//! host from device memory by address, so every copy kind, including
//! `cudaMemcpyDefault`, goes through `cuMemcpy`/`cuMemcpyAsync`; the kind is
//! only validated.

use crate::abi::{cudaError_t, cudaPointerAttributes, cudaStream_t};
use crate::boundary::Out;
use crate::driver::{self, CUdeviceptr};
use crate::launch::driver_stream;
use std::ffi::{c_int, c_uint, c_void};

fn drv(per_thread: bool) -> Result<&'static driver::Driver, cudaError_t> {
    if per_thread {
        driver::get_per_thread()
    } else {
        driver::get()
    }
}

/// `cudaMalloc`: a zero-byte request succeeds with a null pointer.
pub fn malloc(out: Out<*mut c_void>, size: usize) -> Result<(), cudaError_t> {
    out.check()?;
    if size == 0 {
        return out.write(std::ptr::null_mut());
    }
    let mut p: CUdeviceptr = 0;
    driver::get()?.cuMemAlloc(&mut p, size).ok()?;
    out.write(p as *mut c_void)
}

/// `cudaFree`: null is a no-op (after the lazy init the wrapper did).
pub fn free(ptr: *mut c_void) -> Result<(), cudaError_t> {
    if ptr.is_null() {
        return Ok(());
    }
    driver::get()?.cuMemFree(ptr as CUdeviceptr).ok()
}

/// `cudaMallocPitch`.
pub fn malloc_pitch(
    out: Out<*mut c_void>,
    pitch: Out<usize>,
    width: usize,
    height: usize,
) -> Result<(), cudaError_t> {
    out.check()?;
    pitch.check()?;
    if width == 0 || height == 0 {
        out.write(std::ptr::null_mut())?;
        return pitch.write(0);
    }
    let mut p: CUdeviceptr = 0;
    let mut pt = 0usize;
    driver::get()?
        .cuMemAllocPitch(&mut p, &mut pt, width, height, 16)
        .ok()?;
    out.write(p as *mut c_void)?;
    pitch.write(pt)
}

/// `cudaMallocHost`.
pub fn malloc_host(out: Out<*mut c_void>, size: usize) -> Result<(), cudaError_t> {
    host_alloc(out, size, 0)
}

/// `cudaHostAlloc`: the flags are the driver's `CU_MEMHOSTALLOC_*`.
pub fn host_alloc(out: Out<*mut c_void>, size: usize, flags: c_uint) -> Result<(), cudaError_t> {
    out.check()?;
    if flags & !0x7 != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    if size == 0 {
        return out.write(std::ptr::null_mut());
    }
    let mut p: *mut c_void = std::ptr::null_mut();
    driver::get()?.cuMemHostAlloc(&mut p, size, flags).ok()?;
    out.write(p)
}

/// `cudaFreeHost`.
pub fn free_host(ptr: *mut c_void) -> Result<(), cudaError_t> {
    if ptr.is_null() {
        return Ok(());
    }
    driver::get()?.cuMemFreeHost(ptr).ok()
}

/// `cudaHostGetDevicePointer`.
pub fn host_get_device_pointer(
    out: Out<*mut c_void>,
    host: *mut c_void,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    if flags != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut p: CUdeviceptr = 0;
    driver::get()?
        .cuMemHostGetDevicePointer(&mut p, host, 0)
        .ok()?;
    out.write(p as *mut c_void)
}

/// `cudaHostRegister`: the flags (Portable 1, Mapped 2, IoMemory 4,
/// ReadOnly 8) are the driver's `CU_MEMHOSTREGISTER_*`.
pub fn host_register(ptr: *mut c_void, size: usize, flags: c_uint) -> Result<(), cudaError_t> {
    if ptr.is_null() || size == 0 || flags & !0xF != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    driver::get()?.cuMemHostRegister(ptr, size, flags).ok()
}

/// `cudaHostUnregister`.
pub fn host_unregister(ptr: *mut c_void) -> Result<(), cudaError_t> {
    if ptr.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    driver::get()?.cuMemHostUnregister(ptr).ok()
}

/// `cudaHostGetFlags`.
pub fn host_get_flags(out: Out<c_uint>, host: *mut c_void) -> Result<(), cudaError_t> {
    out.check()?;
    let mut f: c_uint = 0;
    driver::get()?.cuMemHostGetFlags(&mut f, host).ok()?;
    out.write(f)
}

/// `cudaMallocManaged`: flags `cudaMemAttachGlobal` (1) or `Host` (2).
pub fn malloc_managed(
    out: Out<*mut c_void>,
    size: usize,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    if flags != 1 && flags != 2 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    if size == 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut p: CUdeviceptr = 0;
    driver::get()?.cuMemAllocManaged(&mut p, size, flags).ok()?;
    out.write(p as *mut c_void)
}

/// `cudaMemGetInfo`.
pub fn get_info(free: Out<usize>, total: Out<usize>) -> Result<(), cudaError_t> {
    free.check()?;
    total.check()?;
    let (mut f, mut t) = (0usize, 0usize);
    driver::get()?.cuMemGetInfo(&mut f, &mut t).ok()?;
    free.write(f)?;
    total.write(t)
}

fn check_kind(kind: c_int) -> Result<(), cudaError_t> {
    if (0..=4).contains(&kind) {
        Ok(())
    } else {
        Err(cudaError_t::cudaErrorInvalidMemcpyDirection)
    }
}

/// `cudaMemcpy` (and `_ptds`).
pub fn memcpy(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    check_kind(kind)?;
    if count == 0 {
        return Ok(());
    }
    drv(per_thread)?
        .cuMemcpy(dst as CUdeviceptr, src as CUdeviceptr, count)
        .ok()
}

/// `cudaMemcpyAsync` (and `_ptsz`).
pub fn memcpy_async(
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    check_kind(kind)?;
    if count == 0 {
        return Ok(());
    }
    drv(per_thread)?
        .cuMemcpyAsync(
            dst as CUdeviceptr,
            src as CUdeviceptr,
            count,
            driver_stream(stream, per_thread),
        )
        .ok()
}

/// `cudaMemset` (and `_ptds`).
pub fn memset(
    dst: *mut c_void,
    value: c_int,
    count: usize,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    if count == 0 {
        return Ok(());
    }
    drv(per_thread)?
        .cuMemsetD8(dst as CUdeviceptr, value as u8, count)
        .ok()
}

/// `cudaMemsetAsync` (and `_ptsz`).
pub fn memset_async(
    dst: *mut c_void,
    value: c_int,
    count: usize,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    if count == 0 {
        return Ok(());
    }
    drv(per_thread)?
        .cuMemsetD8Async(
            dst as CUdeviceptr,
            value as u8,
            count,
            driver_stream(stream, per_thread),
        )
        .ok()
}

/// `cudaMemset2D`.
pub fn memset_2d(
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    if width == 0 || height == 0 {
        return Ok(());
    }
    drv(per_thread)?
        .cuMemsetD2D8(dst as CUdeviceptr, pitch, value as u8, width, height)
        .ok()
}

/// The driver's `CUDA_MEMCPY2D`.
#[repr(C)]
struct CuMemcpy2D {
    src_x_bytes: usize,
    src_y: usize,
    src_memory_type: c_uint,
    src_host: *const c_void,
    src_device: CUdeviceptr,
    src_array: *mut c_void,
    src_pitch: usize,
    dst_x_bytes: usize,
    dst_y: usize,
    dst_memory_type: c_uint,
    dst_host: *mut c_void,
    dst_device: CUdeviceptr,
    dst_array: *mut c_void,
    dst_pitch: usize,
    width_bytes: usize,
    height: usize,
}

/// `CU_MEMORYTYPE_UNIFIED`: the driver works out where each side lives.
const CU_MEMORYTYPE_UNIFIED: c_uint = 4;

/// `cudaMemcpy2D` / `cudaMemcpy2DAsync`.
#[allow(clippy::too_many_arguments)]
pub fn memcpy_2d(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    stream: Option<cudaStream_t>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    check_kind(kind)?;
    if width == 0 || height == 0 {
        return Ok(());
    }
    if width > dpitch || width > spitch {
        return Err(cudaError_t(12)); // cudaErrorInvalidPitchValue
    }
    let p = CuMemcpy2D {
        src_x_bytes: 0,
        src_y: 0,
        src_memory_type: CU_MEMORYTYPE_UNIFIED,
        src_host: src,
        src_device: src as CUdeviceptr,
        src_array: std::ptr::null_mut(),
        src_pitch: spitch,
        dst_x_bytes: 0,
        dst_y: 0,
        dst_memory_type: CU_MEMORYTYPE_UNIFIED,
        dst_host: dst,
        dst_device: dst as CUdeviceptr,
        dst_array: std::ptr::null_mut(),
        dst_pitch: dpitch,
        width_bytes: width,
        height,
    };
    let d = drv(per_thread)?;
    match stream {
        None => d
            .cuMemcpy2DUnaligned(&p as *const CuMemcpy2D as *const c_void)
            .ok(),
        Some(s) => d
            .cuMemcpy2DAsync(
                &p as *const CuMemcpy2D as *const c_void,
                driver_stream(s, per_thread),
            )
            .ok(),
    }
}

/// `cudaPointerGetAttributes`: memory the driver does not know is
/// reported as unregistered host memory, not as an error.
pub fn pointer_get_attributes(
    out: Out<cudaPointerAttributes>,
    ptr: *const c_void,
) -> Result<(), cudaError_t> {
    out.check()?;
    // CU_POINTER_ATTRIBUTE_{MEMORY_TYPE, DEVICE_POINTER, HOST_POINTER,
    // IS_MANAGED, DEVICE_ORDINAL}.
    let mut attrs: [c_int; 5] = [2, 3, 4, 8, 9];
    let mut mem_type: c_uint = 0;
    let mut dptr: CUdeviceptr = 0;
    let mut hptr: *mut c_void = std::ptr::null_mut();
    let mut managed: c_int = 0;
    let mut ordinal: c_int = -2;
    let mut data: [*mut c_void; 5] = [
        (&mut mem_type as *mut c_uint).cast(),
        (&mut dptr as *mut CUdeviceptr).cast(),
        (&mut hptr as *mut *mut c_void).cast(),
        (&mut managed as *mut c_int).cast(),
        (&mut ordinal as *mut c_int).cast(),
    ];
    driver::get()?
        .cuPointerGetAttributes(5, attrs.as_mut_ptr(), data.as_mut_ptr(), ptr as CUdeviceptr)
        .ok()?;
    // CU_MEMORYTYPE_HOST 1, DEVICE 2; the runtime adds Managed (3) and
    // Unregistered (0).
    let kind = match (mem_type, managed != 0) {
        (_, true) => 3,
        (1, false) => 1,
        (2, false) => 2,
        _ => 0,
    };
    let unregistered = kind == 0;
    let a = cudaPointerAttributes {
        type_: crate::abi::cudaMemoryType(kind),
        device: if unregistered { -2 } else { ordinal },
        devicePointer: if unregistered {
            std::ptr::null_mut()
        } else {
            dptr as *mut c_void
        },
        hostPointer: if unregistered {
            ptr as *mut c_void
        } else {
            hptr
        },
        ..Default::default()
    };
    out.write(a)
}

/// The device address of `symbol` plus `offset`, checking `count` fits.
fn symbol_range(
    symbol: *const c_void,
    count: usize,
    offset: usize,
) -> Result<CUdeviceptr, cudaError_t> {
    let (base, size) = crate::registry::symbol(symbol)?;
    match offset.checked_add(count) {
        Some(end) if end <= size => Ok(base + offset as CUdeviceptr),
        _ => Err(cudaError_t::cudaErrorInvalidValue),
    }
}

/// `cudaMemcpyToSymbol`/`Async` (and `_ptds`/`_ptsz`).
#[allow(clippy::too_many_arguments)]
pub fn copy_to_symbol(
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
    stream: Option<cudaStream_t>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    // HostToDevice, DeviceToDevice or Default.
    if !matches!(kind, 1 | 3 | 4) {
        return Err(cudaError_t::cudaErrorInvalidMemcpyDirection);
    }
    let dst = symbol_range(symbol, count, offset)? as *mut c_void;
    match stream {
        None => memcpy(dst, src, count, kind, per_thread),
        Some(s) => memcpy_async(dst, src, count, kind, s, per_thread),
    }
}

/// `cudaMemcpyFromSymbol`/`Async` (and `_ptds`/`_ptsz`).
#[allow(clippy::too_many_arguments)]
pub fn copy_from_symbol(
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
    stream: Option<cudaStream_t>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    // DeviceToHost, DeviceToDevice or Default.
    if !matches!(kind, 2..=4) {
        return Err(cudaError_t::cudaErrorInvalidMemcpyDirection);
    }
    let src = symbol_range(symbol, count, offset)? as *const c_void;
    match stream {
        None => memcpy(dst, src, count, kind, per_thread),
        Some(s) => memcpy_async(dst, src, count, kind, s, per_thread),
    }
}

/// `cudaGetSymbolAddress`.
pub fn symbol_address(out: Out<*mut c_void>, symbol: *const c_void) -> Result<(), cudaError_t> {
    out.check()?;
    let (base, _) = crate::registry::symbol(symbol)?;
    out.write(base as *mut c_void)
}

/// `cudaGetSymbolSize`.
pub fn symbol_size(out: Out<usize>, symbol: *const c_void) -> Result<(), cudaError_t> {
    out.check()?;
    let (_, size) = crate::registry::symbol(symbol)?;
    out.write(size)
}
