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
    cudaError_t, cudaExternalMemoryBufferDesc, cudaExternalMemoryHandleDesc,
    cudaExternalMemoryHandleType, cudaExternalMemoryMipmappedArrayDesc, cudaExternalMemory_t,
    cudaExternalSemaphoreHandleDesc, cudaExternalSemaphoreHandleType,
    cudaExternalSemaphoreSignalParams, cudaExternalSemaphoreWaitParams, cudaExternalSemaphore_t,
    cudaMipmappedArray_t, cudaStream_t,
};
use crate::boundary::{In, Out};
use crate::driver::interop::InteropApi;
use crate::driver::{
    self, CUdeviceptr, CUexternalMemory, CUexternalSemaphore, CUmipmappedArray,
    CUDA_ARRAY3D_DESCRIPTOR, CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC,
};
use crate::handles::{self, Kind};
use crate::launch::driver_stream;
use std::ffi::{c_uint, c_void};

/// What a refused external memory or semaphore handle answers: NVIDIA's
/// code for them where the driver does not crash (the H200).
const INVALID: cudaError_t = cudaError_t::cudaErrorInvalidValue;

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
    let mut mem = CUexternalMemory::null();
    api(false)?.cuImportExternalMemory(&mut mem, &desc).ok()?;
    handles::made(mem.as_raw(), Kind::ExternalMemory);
    out.write(mem.as_raw())
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
    handles::check_or(mem.cast(), Kind::ExternalMemory, INVALID)?;
    api(false)?
        .cuExternalMemoryGetMappedBuffer(&mut dptr, CUexternalMemory::from(mem), &desc)
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
    // The descriptor's format first, then the out-pointer (NVIDIA's order
    // in the NULL sweep on the H200).
    let desc = desc.read()?;
    let crate::copy::elements::Format { format, channels } =
        crate::array::driver_format(&desc.formatDesc)?;
    out.check()?;
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
    let mut mipmap = CUmipmappedArray::null();
    handles::check_or(mem.cast(), Kind::ExternalMemory, INVALID)?;
    api(false)?
        .cuExternalMemoryGetMappedMipmappedArray(
            &mut mipmap,
            CUexternalMemory::from(mem),
            &driver_desc,
        )
        .ok()?;
    handles::forget(mipmap.as_raw());
    out.write(mipmap.as_raw())
}

/// `cudaDestroyExternalMemory`. One destroyed already, or a live object
/// of another kind, is refused (the driver crashed on a stream passed as
/// one under NVIDIA's runtime on the H200).
pub fn destroy_memory(mem: cudaExternalMemory_t) -> Result<(), cudaError_t> {
    handles::check_or(mem.cast(), Kind::ExternalMemory, INVALID)?;
    let api = api(false)?;
    handles::destroy(mem.cast(), Kind::ExternalMemory, || {
        api.cuDestroyExternalMemory(CUexternalMemory::from(mem))
            .ok()
    })
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
    let mut sem = CUexternalSemaphore::null();
    api(false)?
        .cuImportExternalSemaphore(&mut sem, &desc)
        .ok()?;
    handles::made(sem.as_raw(), Kind::ExternalSemaphore);
    out.write(sem.as_raw())
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

/// Every semaphore of the array: a NULL one, one destroyed through the
/// runtime or a live object of another kind is refused (the driver
/// dereferences each: a NULL one crashed the process under NVIDIA's
/// runtime on the H200).
fn semaphore_handles(
    sems: *const cudaExternalSemaphore_t,
    count: c_uint,
) -> Result<(), cudaError_t> {
    for i in 0..count as usize {
        let sem = In(sems.wrapping_add(i)).read()?;
        if sem.is_null() {
            return Err(INVALID);
        }
        handles::check_or(sem.cast(), Kind::ExternalSemaphore, INVALID)?;
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
    let stream = driver_stream(stream, per_thread)?;
    semaphore_handles(sems, count)?;
    api(per_thread)?
        .cuSignalExternalSemaphoresAsync(sems.cast(), params, count, stream)
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
    let stream = driver_stream(stream, per_thread)?;
    semaphore_handles(sems, count)?;
    api(per_thread)?
        .cuWaitExternalSemaphoresAsync(sems.cast(), params, count, stream)
        .ok()
}

/// `cudaDestroyExternalSemaphore`, refusing what [`destroy_memory`] does.
pub fn destroy_semaphore(sem: cudaExternalSemaphore_t) -> Result<(), cudaError_t> {
    handles::check_or(sem.cast(), Kind::ExternalSemaphore, INVALID)?;
    let api = api(false)?;
    handles::destroy(sem.cast(), Kind::ExternalSemaphore, || {
        api.cuDestroyExternalSemaphore(CUexternalSemaphore::from(sem))
            .ok()
    })
}
