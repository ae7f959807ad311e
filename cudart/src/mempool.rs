//! Memory pools and stream-ordered allocation (`cudaMallocAsync`,
//! `cudaFreeAsync`, `cudaMallocFromPoolAsync`, `cudaMemPool*`).
//!
//! A `cudaMemPool_t` is the driver's `CUmemoryPool`. The runtime's pool
//! properties, locations and access descriptors have the driver's layouts
//! and numbers (`cudaMemPoolAttr` 1..8 are `CU_MEMPOOL_ATTR_*`, with the
//! same value types: `int` for the reuse policies, `cuuint64_t` for the
//! threshold and the memory counters), so they pass through unchanged.

use crate::abi::{
    cudaError_t, cudaMemAccessDesc, cudaMemAccessFlags, cudaMemAllocationHandleType,
    cudaMemAllocationType, cudaMemLocation, cudaMemPoolAttr, cudaMemPoolProps,
    cudaMemPoolPtrExportData, cudaMemPool_t, cudaStream_t,
};
use crate::boundary::{In, Out};
use crate::context::check_device;
use crate::driver::{CUdeviceptr, CUmemoryPool};
use crate::launch::driver_stream;
use crate::memory::api;
use std::ffi::{c_int, c_uint, c_ulonglong, c_void};

/// A live object of another kind the runtime made (a stream) is no pool:
/// `cudaErrorInvalidValue`, as NVIDIA's runtime answers where it does not
/// crash (the driver crashed on a stream passed as a pool on the H200).
fn pool_handle(pool: cudaMemPool_t) -> Result<CUmemoryPool, cudaError_t> {
    use crate::handles::{check_or, Kind};
    check_or(
        pool.cast(),
        Kind::MemPool,
        cudaError_t::cudaErrorInvalidValue,
    )?;
    Ok(CUmemoryPool::from(pool))
}

/// `cudaMallocAsync` (and `_ptsz`): from the current pool of the stream's
/// device.
pub fn malloc_async(
    out: Out<*mut c_void>,
    size: usize,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut p: CUdeviceptr = 0;
    api(per_thread)?
        .cuMemAllocAsync(&mut p, size, driver_stream(stream, per_thread)?)
        .ok()?;
    out.write(p as *mut c_void)
}

/// `cudaMallocFromPoolAsync` (and `_ptsz`).
pub fn malloc_from_pool_async(
    out: Out<*mut c_void>,
    size: usize,
    pool: cudaMemPool_t,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut p: CUdeviceptr = 0;
    api(per_thread)?
        .cuMemAllocFromPoolAsync(
            &mut p,
            size,
            pool_handle(pool)?,
            driver_stream(stream, per_thread)?,
        )
        .ok()?;
    out.write(p as *mut c_void)
}

/// `cudaFreeAsync` (and `_ptsz`).
pub fn free_async(
    ptr: *mut c_void,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuMemFreeAsync(ptr as CUdeviceptr, driver_stream(stream, per_thread)?)
        .ok()
}

/// `cudaMemPoolCreate`: `cudaMemPoolProps` is `CUmemPoolProps`.
pub fn create(out: Out<cudaMemPool_t>, props: In<cudaMemPoolProps>) -> Result<(), cudaError_t> {
    out.check()?;
    let props = props.read()?;
    let mut pool = CUmemoryPool::null();
    api(false)?.cuMemPoolCreate(&mut pool, &props).ok()?;
    out.write(pool.as_raw())
}

/// `cudaMemPoolDestroy`.
pub fn destroy(pool: cudaMemPool_t) -> Result<(), cudaError_t> {
    api(false)?.cuMemPoolDestroy(pool_handle(pool)?).ok()
}

/// `cudaMemPoolTrimTo`.
pub fn trim_to(pool: cudaMemPool_t, min_bytes_to_keep: usize) -> Result<(), cudaError_t> {
    api(false)?
        .cuMemPoolTrimTo(pool_handle(pool)?, min_bytes_to_keep)
        .ok()
}

/// `cudaMemPoolSetAttribute`: `value` points to the attribute's type.
pub fn set_attribute(
    pool: cudaMemPool_t,
    attr: cudaMemPoolAttr,
    value: *mut c_void,
) -> Result<(), cudaError_t> {
    if value.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api(false)?
        .cuMemPoolSetAttribute(pool_handle(pool)?, attr.0 as c_int, value)
        .ok()
}

/// `cudaMemPoolGetAttribute`.
pub fn get_attribute(
    pool: cudaMemPool_t,
    attr: cudaMemPoolAttr,
    value: *mut c_void,
) -> Result<(), cudaError_t> {
    if value.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api(false)?
        .cuMemPoolGetAttribute(pool_handle(pool)?, attr.0 as c_int, value)
        .ok()
}

/// `cudaMemPoolSetAccess`: `cudaMemAccessDesc` is `CUmemAccessDesc`.
pub fn set_access(
    pool: cudaMemPool_t,
    descs: *const cudaMemAccessDesc,
    count: usize,
) -> Result<(), cudaError_t> {
    if descs.is_null() && count != 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api(false)?
        .cuMemPoolSetAccess(pool_handle(pool)?, descs, count)
        .ok()
}

/// `cudaMemPoolGetAccess`.
pub fn get_access(
    flags: Out<cudaMemAccessFlags>,
    pool: cudaMemPool_t,
    location: *mut cudaMemLocation,
) -> Result<(), cudaError_t> {
    flags.check()?;
    if location.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut f: c_int = 0;
    api(false)?
        .cuMemPoolGetAccess(&mut f, pool_handle(pool)?, location)
        .ok()?;
    flags.write(cudaMemAccessFlags(f as u32))
}

/// `cudaMemPoolExportToShareableHandle`: `handle` receives what the handle
/// type holds (an `int` file descriptor for `cudaMemHandleTypePosixFileDescriptor`).
pub fn export_to_shareable_handle(
    handle: *mut c_void,
    pool: cudaMemPool_t,
    handle_type: cudaMemAllocationHandleType,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    if handle.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api(false)?
        .cuMemPoolExportToShareableHandle(
            handle,
            pool_handle(pool)?,
            handle_type.0 as c_int,
            c_ulonglong::from(flags),
        )
        .ok()
}

/// `cudaMemPoolImportFromShareableHandle`: for a file descriptor, `handle`
/// is the descriptor's value cast to a pointer (as with the driver).
pub fn import_from_shareable_handle(
    out: Out<cudaMemPool_t>,
    handle: *mut c_void,
    handle_type: cudaMemAllocationHandleType,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut pool = CUmemoryPool::null();
    api(false)?
        .cuMemPoolImportFromShareableHandle(
            &mut pool,
            handle,
            handle_type.0 as c_int,
            c_ulonglong::from(flags),
        )
        .ok()?;
    out.write(pool.as_raw())
}

/// `cudaMemPoolExportPointer`.
pub fn export_pointer(
    out: Out<cudaMemPoolPtrExportData>,
    ptr: *mut c_void,
) -> Result<(), cudaError_t> {
    out.check()?;
    api(false)?
        .cuMemPoolExportPointer(out.as_ptr(), ptr as CUdeviceptr)
        .ok()
}

/// `cudaMemPoolImportPointer`.
pub fn import_pointer(
    out: Out<*mut c_void>,
    pool: cudaMemPool_t,
    data: *mut cudaMemPoolPtrExportData,
) -> Result<(), cudaError_t> {
    out.check()?;
    if data.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut p: CUdeviceptr = 0;
    api(false)?
        .cuMemPoolImportPointer(&mut p, pool_handle(pool)?, data)
        .ok()?;
    out.write(p as *mut c_void)
}

// ---------------------------------------------------------------------------
// The pools of devices and locations.

/// `cudaDeviceGetDefaultMemPool`.
pub fn device_default_pool(out: Out<cudaMemPool_t>, device: c_int) -> Result<(), cudaError_t> {
    out.check()?;
    check_device(device)?;
    let mut pool = CUmemoryPool::null();
    api(false)?
        .cuDeviceGetDefaultMemPool(&mut pool, device)
        .ok()?;
    out.write(pool.as_raw())
}

/// `cudaDeviceGetMemPool`: the device's current pool.
pub fn device_get_pool(out: Out<cudaMemPool_t>, device: c_int) -> Result<(), cudaError_t> {
    out.check()?;
    check_device(device)?;
    let mut pool = CUmemoryPool::null();
    api(false)?.cuDeviceGetMemPool(&mut pool, device).ok()?;
    out.write(pool.as_raw())
}

/// `cudaDeviceSetMemPool`.
pub fn device_set_pool(device: c_int, pool: cudaMemPool_t) -> Result<(), cudaError_t> {
    check_device(device)?;
    api(false)?
        .cuDeviceSetMemPool(device, pool_handle(pool)?)
        .ok()
}

/// `cudaMemGetDefaultMemPool`: the default pool of a location and
/// allocation type.
pub fn location_default_pool(
    out: Out<cudaMemPool_t>,
    location: *mut cudaMemLocation,
    alloc_type: cudaMemAllocationType,
) -> Result<(), cudaError_t> {
    out.check()?;
    if location.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut pool = CUmemoryPool::null();
    api(false)?
        .cuMemGetDefaultMemPool(&mut pool, location, alloc_type.0 as c_int)
        .ok()?;
    out.write(pool.as_raw())
}

/// `cudaMemGetMemPool`: the current pool of a location and allocation type.
pub fn location_get_pool(
    out: Out<cudaMemPool_t>,
    location: *mut cudaMemLocation,
    alloc_type: cudaMemAllocationType,
) -> Result<(), cudaError_t> {
    out.check()?;
    if location.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut pool = CUmemoryPool::null();
    api(false)?
        .cuMemGetMemPool(&mut pool, location, alloc_type.0 as c_int)
        .ok()?;
    out.write(pool.as_raw())
}

/// `cudaMemSetMemPool`.
pub fn location_set_pool(
    location: *mut cudaMemLocation,
    alloc_type: cudaMemAllocationType,
    pool: cudaMemPool_t,
) -> Result<(), cudaError_t> {
    if location.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api(false)?
        .cuMemSetMemPool(location, alloc_type.0 as c_int, pool_handle(pool)?)
        .ok()
}
