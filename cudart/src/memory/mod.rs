//! Memory: device, pinned host and managed allocations, copies and sets in
//! one, two and three dimensions, and batched copies; managed-memory
//! prefetch and advice in [`managed`].
//!
//! With unified addressing (every device CUDA 13 supports), the driver tells
//! host from device memory by address, so every copy kind, including
//! `cudaMemcpyDefault`, goes through `cuMemcpy`/`cuMemcpyAsync` or, for 2D
//! and 3D copies, `CU_MEMORYTYPE_UNIFIED` operands; the kind is only
//! validated. 2D and 3D copies share one description of their operands
//! ([`Place`], [`Region`], in [`crate::copy`]) with the array copies of
//! [`crate::array`] and the peer copies of [`crate::peer`].

pub mod managed;

use crate::abi::{
    cudaError_t, cudaExtent, cudaMemcpy3DBatchOp, cudaMemcpy3DParms, cudaMemcpyAttributes,
    cudaPitchedPtr, cudaPointerAttributes, cudaStream_t,
};
use crate::boundary::{In, Out};
use crate::copy::{
    check_from_symbol_kind, check_kind, check_to_symbol_kind, params_2d, symbol_range,
    to_driver_3d, Place, Region,
};
use crate::driver::memory::MemoryApi;
use crate::driver::{
    self, CUdeviceptr, CUresult, CU_MEMORYTYPE_DEVICE, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
    CU_POINTER_ATTRIBUTE_DEVICE_POINTER, CU_POINTER_ATTRIBUTE_HOST_POINTER,
    CU_POINTER_ATTRIBUTE_IS_MANAGED, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
};
use crate::handles::{self, Kind};
use crate::launch::driver_stream;
use std::ffi::{c_int, c_uint, c_ulonglong, c_void};

/// The memory family's driver table (`per_thread`: the flavour whose
/// functions treat the null stream as the per-thread stream, for the
/// `_ptds`/`_ptsz` exports).
#[inline]
pub(crate) fn api(per_thread: bool) -> Result<&'static MemoryApi, cudaError_t> {
    driver::family::<MemoryApi>(per_thread)
}

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

/// `cudaFree`: null is a no-op (after the lazy init the wrapper did). The
/// address is recorded as freed device memory ([`not_freed`]).
pub fn free(ptr: *mut c_void) -> Result<(), cudaError_t> {
    if ptr.is_null() {
        return Ok(());
    }
    let drv = driver::get()?;
    handles::destroy(ptr, Kind::DeviceMemory, || {
        drv.cuMemFree(ptr as CUdeviceptr).ok()
    })
}

/// A copy operand must not be device memory freed through `cudaFree`: the
/// driver, which cannot place the address, copies it as host memory and
/// faults (a crash under NVIDIA's runtime on the H200; the driver's
/// `cudaErrorInvalidValue` here). One table probe per operand; an address
/// recorded as freed is asked of the driver, which may have handed it out
/// again since (an allocation made elsewhere), and of the kernel (host
/// memory may be mapped there now); either way it is then forgotten.
///
/// Nor an address in the lowest 64 KiB, where Linux maps nothing by
/// default (`vm.mmap_min_addr`): the driver takes it for host memory and
/// faults (`cudaMemcpy((void *)0x1000, (void *)0x2000, 4, ...)` killed
/// both runtimes on the H200). One comparison per operand; such an address
/// is asked of the kernel, in case a process lowered the limit and mapped
/// memory there. NULL goes on to the driver, which answers it.
#[inline]
pub(crate) fn not_freed(ptr: *const c_void) -> Result<(), cudaError_t> {
    if (ptr as usize).wrapping_sub(1) < LOWEST_MAPPABLE - 1 {
        return low_address(ptr);
    }
    if handles::is_gone(ptr, Kind::DeviceMemory) {
        return freed_again(ptr);
    }
    Ok(())
}

/// Linux's default `vm.mmap_min_addr`: nothing is mapped below it.
const LOWEST_MAPPABLE: usize = 0x10000;

#[cold]
#[inline(never)]
fn low_address(ptr: *const c_void) -> Result<(), cudaError_t> {
    if handles::host_readable(ptr) {
        Ok(())
    } else {
        Err(cudaError_t::cudaErrorInvalidValue)
    }
}

/// An out-pointer of a page-locked allocation must not point into device
/// memory, which the host cannot write (a crash under NVIDIA's runtime on
/// the H200): `cudaErrorInvalidValue`. One pointer query; allocating
/// page-locked memory costs far more.
fn host_writable(out: *const c_void) -> Result<(), cudaError_t> {
    let device =
        pointer_attribute(out, CU_POINTER_ATTRIBUTE_MEMORY_TYPE)? == Some(CU_MEMORYTYPE_DEVICE);
    if device && pointer_attribute(out, CU_POINTER_ATTRIBUTE_IS_MANAGED)? == Some(0) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    Ok(())
}

/// One `unsigned int` attribute of a pointer, `None` when the driver does
/// not know the pointer (a question that reads nothing at the address).
fn pointer_attribute(ptr: *const c_void, attr: c_int) -> Result<Option<c_uint>, cudaError_t> {
    let mut value: c_uint = 0;
    let r = driver::get()?.cuPointerGetAttribute(
        (&mut value as *mut c_uint).cast(),
        attr,
        ptr as CUdeviceptr,
    );
    Ok((r == CUresult::SUCCESS).then_some(value))
}

#[cold]
#[inline(never)]
fn freed_again(ptr: *const c_void) -> Result<(), cudaError_t> {
    let known = pointer_attribute(ptr, CU_POINTER_ATTRIBUTE_MEMORY_TYPE)?.is_some();
    // Memory the driver knows (allocated again elsewhere), or host memory
    // mapped there since (after a reset gave the device's address range
    // back): no longer the freed allocation.
    if known || handles::host_readable(ptr) {
        handles::forget(ptr);
        Ok(())
    } else {
        Err(cudaError_t::cudaErrorInvalidValue)
    }
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
    host_writable(out.as_ptr().cast())?;
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
        // NVIDIA's answers success with a NULL pointer, as cudaMalloc does
        // (the bad-input matrix on the H200, two runs).
        return out.write(std::ptr::null_mut());
    }
    let mut p: CUdeviceptr = 0;
    driver::get()?.cuMemAllocManaged(&mut p, size, flags).ok()?;
    out.write(p as *mut c_void)
}

/// `cudaMemGetInfo`.
/// Either output may be NULL (NVIDIA's answers success and fills the
/// other; the bad-input matrix on the H200, two runs).
pub fn get_info(free: Out<usize>, total: Out<usize>) -> Result<(), cudaError_t> {
    let (mut f, mut t) = (0usize, 0usize);
    driver::get()?.cuMemGetInfo(&mut f, &mut t).ok()?;
    if !free.is_null() {
        free.write(f)?;
    }
    if !total.is_null() {
        total.write(t)?;
    }
    Ok(())
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
    not_freed(dst)?;
    not_freed(src)?;
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
    not_freed(dst)?;
    not_freed(src)?;
    drv(per_thread)?
        .cuMemcpyAsync(
            dst as CUdeviceptr,
            src as CUdeviceptr,
            count,
            driver_stream(stream, per_thread)?,
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
            driver_stream(stream, per_thread)?,
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
    rows_fit(dst, pitch, width, height)?;
    drv(per_thread)?
        .cuMemsetD2D8(dst as CUdeviceptr, pitch, value as u8, width, height)
        .ok()
}

/// The rows of a 2D memset must lie within the allocation `dst` is in
/// (when the driver knows it) and within the address space: the driver
/// spins on 2^62 rows (a hang under NVIDIA's runtime on the H200).
/// `cudaErrorInvalidValue` otherwise. One address-range query: 2D memsets
/// are not on a hot path.
fn rows_fit(
    dst: *mut c_void,
    pitch: usize,
    width: usize,
    height: usize,
) -> Result<(), cudaError_t> {
    let bad = cudaError_t::cudaErrorInvalidValue;
    let last = pitch
        .checked_mul(height - 1)
        .and_then(|o| o.checked_add(width))
        .ok_or(bad)?;
    let start = dst as usize;
    let end = start.checked_add(last).ok_or(bad)?;
    let (mut base, mut size): (CUdeviceptr, usize) = (0, 0);
    if driver::get()?.cuMemGetAddressRange(&mut base, &mut size, start as CUdeviceptr)
        == CUresult::SUCCESS
        && (base as usize).checked_add(size).is_some_and(|e| end > e)
    {
        return Err(bad);
    }
    Ok(())
}

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
        return Err(cudaError_t::cudaErrorInvalidPitchValue);
    }
    let src = Region::at(Place::memory(src.cast_mut(), spitch, 0), 0, 0);
    let dst = Region::at(Place::memory(dst, dpitch, 0), 0, 0);
    copy_2d(&src, &dst, width, height, stream, per_thread)
}

/// The locality domain of the allocation at `ptr` (a CUDA 13.5 member of
/// `cudaPointerAttributes`): the driver's answer from 13.5 on; -1 (not
/// localized) from an older driver, which has no such attribute, as
/// NVIDIA's 13.5 runtime reports on driver 580.
fn locality_domain(ptr: CUdeviceptr) -> c_int {
    if driver::version() < 13050 {
        return -1;
    }
    let mut v: c_int = -1;
    match driver::get() {
        Ok(d) => {
            let r = d.cuPointerGetAttribute(
                (&mut v as *mut c_int).cast(),
                driver::CU_POINTER_ATTRIBUTE_LOCALITY_DOMAIN_ORDINAL,
                ptr,
            );
            if r == CUresult::SUCCESS {
                v
            } else {
                -1
            }
        }
        Err(_) => -1,
    }
}

/// `cudaPointerGetAttributes`: memory the driver does not know is
/// reported as unregistered host memory, not as an error.
pub fn pointer_get_attributes(
    out: Out<cudaPointerAttributes>,
    ptr: *const c_void,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut attrs: [c_int; 5] = [
        CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
        CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
        CU_POINTER_ATTRIBUTE_HOST_POINTER,
        CU_POINTER_ATTRIBUTE_IS_MANAGED,
        CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
    ];
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
    let mut a = cudaPointerAttributes {
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
    // The 13.5 headers name the first `long` of 13.0's `reserved[8]`: a
    // union of `int localityDomainOrdinal` and `long unused`.
    a.reserved[0] = locality_domain(ptr as CUdeviceptr) as _;
    out.write(a)
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
    check_to_symbol_kind(kind)?;
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
    check_from_symbol_kind(kind)?;
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

// ---------------------------------------------------------------------------
// 2D and 3D copies of memory and arrays (their operands: crate::copy).

/// Runs a 2D copy: synchronous (`cuMemcpy2DUnaligned`, any alignment) or
/// in stream order.
pub(crate) fn copy_2d(
    src: &Region,
    dst: &Region,
    width: usize,
    height: usize,
    stream: Option<cudaStream_t>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    for r in [src, dst] {
        if let Place::Memory { ptr, .. } = r.place {
            not_freed(ptr)?;
        }
    }
    let p = params_2d(src, dst, width, height);
    let api = api(per_thread)?;
    match stream {
        None => api.cuMemcpy2DUnaligned(&p).ok(),
        Some(s) => api.cuMemcpy2DAsync(&p, driver_stream(s, per_thread)?).ok(),
    }
}

// ---------------------------------------------------------------------------
// 3D allocation, copies and sets.

/// `cudaMalloc3D`: pitched memory for `depth` slices of `height` rows of
/// `width` bytes. An extent with a zero dimension allocates nothing.
pub fn malloc_3d(out: Out<cudaPitchedPtr>, extent: cudaExtent) -> Result<(), cudaError_t> {
    out.check()?;
    let cudaExtent {
        width,
        height,
        depth,
    } = extent;
    if width == 0 || height == 0 || depth == 0 {
        return out.write(cudaPitchedPtr {
            ptr: std::ptr::null_mut(),
            pitch: 0,
            xsize: width,
            ysize: height,
        });
    }
    let rows = height
        .checked_mul(depth)
        .ok_or(cudaError_t::cudaErrorInvalidValue)?;
    let mut p: CUdeviceptr = 0;
    let mut pitch = 0usize;
    api(false)?
        .cuMemAllocPitch(&mut p, &mut pitch, width, rows, 16)
        .ok()?;
    out.write(cudaPitchedPtr {
        ptr: p as *mut c_void,
        pitch,
        xsize: width,
        ysize: height,
    })
}

/// `cudaMemcpy3D`/`cudaMemcpy3DAsync` (and `_ptds`/`_ptsz`).
pub fn memcpy_3d(
    p: In<cudaMemcpy3DParms>,
    stream: Option<cudaStream_t>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let Some(c) = to_driver_3d(&p.read()?)? else {
        return Ok(());
    };
    let api = api(per_thread)?;
    match stream {
        None => api.cuMemcpy3D(&c).ok(),
        Some(s) => api.cuMemcpy3DAsync(&c, driver_stream(s, per_thread)?).ok(),
    }
}

/// `cudaMemset2DAsync` (and `_ptsz`).
pub fn memset_2d_async(
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    if width == 0 || height == 0 {
        return Ok(());
    }
    rows_fit(dst, pitch, width, height)?;
    api(per_thread)?
        .cuMemsetD2D8Async(
            dst as CUdeviceptr,
            pitch,
            value as u8,
            width,
            height,
            driver_stream(stream, per_thread)?,
        )
        .ok()
}

/// `cudaMemset3D`/`cudaMemset3DAsync` (and `_ptds`/`_ptsz`): `extent.width`
/// is in bytes; slices lie `pitch * ysize` bytes apart. When the extent
/// covers whole slices the slices form one 2D set, otherwise one per slice.
pub fn memset_3d(
    p: cudaPitchedPtr,
    value: c_int,
    extent: cudaExtent,
    stream: Option<cudaStream_t>,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let cudaExtent {
        width,
        height,
        depth,
    } = extent;
    if width == 0 || height == 0 || depth == 0 {
        return Ok(());
    }
    if depth > 1 && height > p.ysize {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let api = api(per_thread)?;
    let set = |base: CUdeviceptr, rows: usize| match stream {
        None => api
            .cuMemsetD2D8(base, p.pitch, value as u8, width, rows)
            .ok(),
        Some(s) => api
            .cuMemsetD2D8Async(
                base,
                p.pitch,
                value as u8,
                width,
                rows,
                driver_stream(s, per_thread)?,
            )
            .ok(),
    };
    let base = p.ptr as CUdeviceptr;
    if depth == 1 || height == p.ysize {
        let rows = height
            .checked_mul(depth)
            .ok_or(cudaError_t::cudaErrorInvalidValue)?;
        return set(base, rows);
    }
    let slice = p
        .pitch
        .checked_mul(p.ysize)
        .ok_or(cudaError_t::cudaErrorInvalidValue)?;
    for z in 0..depth {
        set(base + (z * slice) as CUdeviceptr, height)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Batched copies.

/// `cudaMemcpyBatchAsync` (and `_ptsz`): the runtime's arrays and
/// attributes are the driver's (`void *` is a `CUdeviceptr`).
#[allow(clippy::too_many_arguments)]
pub fn memcpy_batch_async(
    dsts: *const *mut c_void,
    srcs: *const *const c_void,
    sizes: *const usize,
    count: usize,
    attrs: *mut cudaMemcpyAttributes,
    attrs_idxs: *mut usize,
    num_attrs: usize,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuMemcpyBatchAsync(
            dsts as *mut CUdeviceptr,
            srcs as *mut CUdeviceptr,
            sizes.cast_mut(),
            count,
            attrs,
            attrs_idxs,
            num_attrs,
            driver_stream(stream, per_thread)?,
        )
        .ok()
}

/// `cudaMemcpy3DBatchAsync` (and `_ptsz`): `cudaMemcpy3DBatchOp` is the
/// driver's `CUDA_MEMCPY3D_BATCH_OP`.
pub fn memcpy_3d_batch_async(
    num_ops: usize,
    ops: *mut cudaMemcpy3DBatchOp,
    flags: c_ulonglong,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuMemcpy3DBatchAsync(num_ops, ops, flags, driver_stream(stream, per_thread)?)
        .ok()
}
