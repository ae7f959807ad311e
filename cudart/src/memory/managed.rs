//! Managed memory: prefetch, discard, advice and range attributes. The
//! runtime's locations, advice and attribute numbers are the driver's.

use super::api;
use crate::abi::{
    cudaError_t, cudaMemLocation, cudaMemRangeAttribute, cudaMemoryAdvise, cudaStream_t,
};
use crate::driver::CUdeviceptr;
use crate::launch::driver_stream;
use std::ffi::{c_int, c_uint, c_ulonglong, c_void};

/// `cudaMemPrefetchAsync` (and `_ptsz`): `cuMemPrefetchAsync_v2`, the
/// location passed as it is (`cudaMemLocation` is `CUmemLocation`).
pub fn prefetch_async(
    ptr: *const c_void,
    count: usize,
    location: cudaMemLocation,
    flags: c_uint,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuMemPrefetchAsync(
            ptr as CUdeviceptr,
            count,
            location,
            flags,
            driver_stream(stream, per_thread)?,
        )
        .ok()
}

/// The arrays of a batched prefetch or discard, as the runtime passes them.
#[derive(Copy, Clone, Debug)]
pub struct Batch {
    pub dptrs: *mut *mut c_void,
    pub sizes: *mut usize,
    pub count: usize,
}

/// Where a batched prefetch goes: `locations[k]` applies from operation
/// `indices[k]` on.
#[derive(Copy, Clone, Debug)]
pub struct Targets {
    pub locations: *mut cudaMemLocation,
    pub indices: *mut usize,
    pub count: usize,
}

/// `cudaMemPrefetchBatchAsync` (and `_ptsz`).
pub fn prefetch_batch_async(
    batch: Batch,
    targets: Targets,
    flags: c_ulonglong,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuMemPrefetchBatchAsync(
            batch.dptrs.cast(),
            batch.sizes,
            batch.count,
            targets.locations,
            targets.indices,
            targets.count,
            flags,
            driver_stream(stream, per_thread)?,
        )
        .ok()
}

/// `cudaMemDiscardBatchAsync` (and `_ptsz`).
pub fn discard_batch_async(
    batch: Batch,
    flags: c_ulonglong,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuMemDiscardBatchAsync(
            batch.dptrs.cast(),
            batch.sizes,
            batch.count,
            flags,
            driver_stream(stream, per_thread)?,
        )
        .ok()
}

/// `cudaMemDiscardAndPrefetchBatchAsync` (and `_ptsz`).
pub fn discard_and_prefetch_batch_async(
    batch: Batch,
    targets: Targets,
    flags: c_ulonglong,
    stream: cudaStream_t,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    api(per_thread)?
        .cuMemDiscardAndPrefetchBatchAsync(
            batch.dptrs.cast(),
            batch.sizes,
            batch.count,
            targets.locations,
            targets.indices,
            targets.count,
            flags,
            driver_stream(stream, per_thread)?,
        )
        .ok()
}

/// `cudaMemAdvise`: `cuMemAdvise_v2`; the advice numbers are the driver's.
pub fn advise(
    ptr: *const c_void,
    count: usize,
    advice: cudaMemoryAdvise,
    location: cudaMemLocation,
) -> Result<(), cudaError_t> {
    api(false)?
        .cuMemAdvise(ptr as CUdeviceptr, count, advice.0 as c_int, location)
        .ok()
}

/// `cudaMemRangeGetAttribute`: the attribute numbers and value layouts are
/// the driver's (device ordinals, `cudaCpuDeviceId` = `CU_DEVICE_CPU`).
pub fn range_get_attribute(
    data: *mut c_void,
    data_size: usize,
    attribute: cudaMemRangeAttribute,
    ptr: *const c_void,
    count: usize,
) -> Result<(), cudaError_t> {
    if data.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api(false)?
        .cuMemRangeGetAttribute(
            data,
            data_size,
            attribute.0 as c_int,
            ptr as CUdeviceptr,
            count,
        )
        .ok()
}

/// `cudaMemRangeGetAttributes`.
pub fn range_get_attributes(
    data: *mut *mut c_void,
    data_sizes: *mut usize,
    attributes: *mut cudaMemRangeAttribute,
    num_attributes: usize,
    ptr: *const c_void,
    count: usize,
) -> Result<(), cudaError_t> {
    if data.is_null() || data_sizes.is_null() || attributes.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api(false)?
        .cuMemRangeGetAttributes(
            data,
            data_sizes,
            attributes.cast(),
            num_attributes,
            ptr as CUdeviceptr,
            count,
        )
        .ok()
}
