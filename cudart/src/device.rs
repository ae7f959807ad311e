//! Devices: count, properties, attributes, versions, limits, PCI ids, and
//! the device calls beyond the core (P2P attributes, atomic capabilities,
//! shared-memory bank configuration, 1D linear texture widths, persisting
//! L2, GPUDirect RDMA flushes, async notifications, NvSciSync attributes).
//!
//! `cudaDeviceAttr` shares its numbering with the driver's
//! `CUdevice_attribute`, so attributes pass straight through;
//! `cudaDeviceProp` is filled field by field from the same attributes.

use crate::abi::{
    cudaAsyncCallback, cudaAsyncCallbackHandle_t, cudaAtomicOperation, cudaChannelFormatDesc,
    cudaDeviceAttr as A, cudaDeviceP2PAttr, cudaDeviceProp, cudaError_t,
    cudaFlushGPUDirectRDMAWritesScope, cudaFlushGPUDirectRDMAWritesTarget, cudaSharedMemConfig,
    cudaUUID_t,
};
use crate::boundary::{In, Out};
use crate::context;
use crate::driver::{self, device::DeviceApi, CUasyncCallbackHandle, Driver};
use crate::handles::{self, Kind};
use std::ffi::{c_char, c_int, c_uint, c_void};

/// The runtime version this library implements and reports (13.5), to
/// programs built by nvcc 13.0 and 13.5 alike: docs/versions.md says why.
pub const RUNTIME_VERSION: c_int = 13050;

/// `cudaRuntimeGetVersion`: never needs the driver.
pub fn runtime_version(out: Out<c_int>) -> Result<(), cudaError_t> {
    out.write(RUNTIME_VERSION)
}

/// `cudaDriverGetVersion`: 0 and success when there is no driver.
pub fn driver_version(out: Out<c_int>) -> Result<(), cudaError_t> {
    out.check()?;
    out.write(driver::version())
}

fn attribute(drv: &Driver, attr: A, dev: c_int) -> Result<c_int, cudaError_t> {
    let mut v = 0;
    drv.cuDeviceGetAttribute(&mut v, attr.0 as c_int, dev)
        .ok()?;
    Ok(v)
}

/// `cudaDeviceGetAttribute`.
pub fn get_attribute(out: Out<c_int>, attr: c_int, dev: c_int) -> Result<(), cudaError_t> {
    out.check()?;
    let drv = driver::get()?;
    context::check_device(dev)?;
    if attr <= 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let v = attribute(drv, A(attr as u32), dev)?;
    out.write(v)
}

/// `cudaGetDeviceProperties`: every field of the CUDA 13 struct, from the
/// driver.
pub fn properties(out: Out<cudaDeviceProp>, dev: c_int) -> Result<(), cudaError_t> {
    out.check()?;
    let drv = driver::get()?;
    context::check_device(dev)?;
    let mut p = cudaDeviceProp::default();
    drv.cuDeviceGetName(p.name.as_mut_ptr(), p.name.len() as c_int, dev)
        .ok()?;
    drv.cuDeviceGetUuid(&mut p.uuid, dev).ok()?;
    // LUIDs exist on Windows only; elsewhere the fields stay zero.
    let mut mask = 0u32;
    if drv.cuDeviceGetLuid(p.luid.as_mut_ptr(), &mut mask, dev) == driver::CUresult::SUCCESS {
        p.luidDeviceNodeMask = mask;
    }
    let mut total = 0usize;
    drv.cuDeviceTotalMem(&mut total, dev).ok()?;
    p.totalGlobalMem = total;

    let a = |attr: A| attribute(drv, attr, dev);
    let z = |attr: A| a(attr).map(|v| v.max(0) as usize);
    p.sharedMemPerBlock = z(A::cudaDevAttrMaxSharedMemoryPerBlock)?;
    p.regsPerBlock = a(A::cudaDevAttrMaxRegistersPerBlock)?;
    p.warpSize = a(A::cudaDevAttrWarpSize)?;
    p.memPitch = z(A::cudaDevAttrMaxPitch)?;
    p.maxThreadsPerBlock = a(A::cudaDevAttrMaxThreadsPerBlock)?;
    p.maxThreadsDim = [
        a(A::cudaDevAttrMaxBlockDimX)?,
        a(A::cudaDevAttrMaxBlockDimY)?,
        a(A::cudaDevAttrMaxBlockDimZ)?,
    ];
    p.maxGridSize = [
        a(A::cudaDevAttrMaxGridDimX)?,
        a(A::cudaDevAttrMaxGridDimY)?,
        a(A::cudaDevAttrMaxGridDimZ)?,
    ];
    p.totalConstMem = z(A::cudaDevAttrTotalConstantMemory)?;
    p.major = a(A::cudaDevAttrComputeCapabilityMajor)?;
    p.minor = a(A::cudaDevAttrComputeCapabilityMinor)?;
    p.textureAlignment = z(A::cudaDevAttrTextureAlignment)?;
    p.texturePitchAlignment = z(A::cudaDevAttrTexturePitchAlignment)?;
    p.multiProcessorCount = a(A::cudaDevAttrMultiProcessorCount)?;
    p.integrated = a(A::cudaDevAttrIntegrated)?;
    p.canMapHostMemory = a(A::cudaDevAttrCanMapHostMemory)?;
    p.maxTexture1D = a(A::cudaDevAttrMaxTexture1DWidth)?;
    p.maxTexture1DMipmap = a(A::cudaDevAttrMaxTexture1DMipmappedWidth)?;
    p.maxTexture2D = [
        a(A::cudaDevAttrMaxTexture2DWidth)?,
        a(A::cudaDevAttrMaxTexture2DHeight)?,
    ];
    p.maxTexture2DMipmap = [
        a(A::cudaDevAttrMaxTexture2DMipmappedWidth)?,
        a(A::cudaDevAttrMaxTexture2DMipmappedHeight)?,
    ];
    p.maxTexture2DLinear = [
        a(A::cudaDevAttrMaxTexture2DLinearWidth)?,
        a(A::cudaDevAttrMaxTexture2DLinearHeight)?,
        a(A::cudaDevAttrMaxTexture2DLinearPitch)?,
    ];
    p.maxTexture2DGather = [
        a(A::cudaDevAttrMaxTexture2DGatherWidth)?,
        a(A::cudaDevAttrMaxTexture2DGatherHeight)?,
    ];
    p.maxTexture3D = [
        a(A::cudaDevAttrMaxTexture3DWidth)?,
        a(A::cudaDevAttrMaxTexture3DHeight)?,
        a(A::cudaDevAttrMaxTexture3DDepth)?,
    ];
    p.maxTexture3DAlt = [
        a(A::cudaDevAttrMaxTexture3DWidthAlt)?,
        a(A::cudaDevAttrMaxTexture3DHeightAlt)?,
        a(A::cudaDevAttrMaxTexture3DDepthAlt)?,
    ];
    p.maxTextureCubemap = a(A::cudaDevAttrMaxTextureCubemapWidth)?;
    p.maxTexture1DLayered = [
        a(A::cudaDevAttrMaxTexture1DLayeredWidth)?,
        a(A::cudaDevAttrMaxTexture1DLayeredLayers)?,
    ];
    p.maxTexture2DLayered = [
        a(A::cudaDevAttrMaxTexture2DLayeredWidth)?,
        a(A::cudaDevAttrMaxTexture2DLayeredHeight)?,
        a(A::cudaDevAttrMaxTexture2DLayeredLayers)?,
    ];
    p.maxTextureCubemapLayered = [
        a(A::cudaDevAttrMaxTextureCubemapLayeredWidth)?,
        a(A::cudaDevAttrMaxTextureCubemapLayeredLayers)?,
    ];
    p.maxSurface1D = a(A::cudaDevAttrMaxSurface1DWidth)?;
    p.maxSurface2D = [
        a(A::cudaDevAttrMaxSurface2DWidth)?,
        a(A::cudaDevAttrMaxSurface2DHeight)?,
    ];
    p.maxSurface3D = [
        a(A::cudaDevAttrMaxSurface3DWidth)?,
        a(A::cudaDevAttrMaxSurface3DHeight)?,
        a(A::cudaDevAttrMaxSurface3DDepth)?,
    ];
    p.maxSurface1DLayered = [
        a(A::cudaDevAttrMaxSurface1DLayeredWidth)?,
        a(A::cudaDevAttrMaxSurface1DLayeredLayers)?,
    ];
    p.maxSurface2DLayered = [
        a(A::cudaDevAttrMaxSurface2DLayeredWidth)?,
        a(A::cudaDevAttrMaxSurface2DLayeredHeight)?,
        a(A::cudaDevAttrMaxSurface2DLayeredLayers)?,
    ];
    p.maxSurfaceCubemap = a(A::cudaDevAttrMaxSurfaceCubemapWidth)?;
    p.maxSurfaceCubemapLayered = [
        a(A::cudaDevAttrMaxSurfaceCubemapLayeredWidth)?,
        a(A::cudaDevAttrMaxSurfaceCubemapLayeredLayers)?,
    ];
    p.surfaceAlignment = z(A::cudaDevAttrSurfaceAlignment)?;
    p.concurrentKernels = a(A::cudaDevAttrConcurrentKernels)?;
    p.ECCEnabled = a(A::cudaDevAttrEccEnabled)?;
    p.pciBusID = a(A::cudaDevAttrPciBusId)?;
    p.pciDeviceID = a(A::cudaDevAttrPciDeviceId)?;
    p.pciDomainID = a(A::cudaDevAttrPciDomainId)?;
    p.tccDriver = a(A::cudaDevAttrTccDriver)?;
    p.asyncEngineCount = a(A::cudaDevAttrAsyncEngineCount)?;
    p.unifiedAddressing = a(A::cudaDevAttrUnifiedAddressing)?;
    p.memoryBusWidth = a(A::cudaDevAttrGlobalMemoryBusWidth)?;
    p.l2CacheSize = a(A::cudaDevAttrL2CacheSize)?;
    p.persistingL2CacheMaxSize = a(A::cudaDevAttrMaxPersistingL2CacheSize)?;
    p.maxThreadsPerMultiProcessor = a(A::cudaDevAttrMaxThreadsPerMultiProcessor)?;
    p.streamPrioritiesSupported = a(A::cudaDevAttrStreamPrioritiesSupported)?;
    p.globalL1CacheSupported = a(A::cudaDevAttrGlobalL1CacheSupported)?;
    p.localL1CacheSupported = a(A::cudaDevAttrLocalL1CacheSupported)?;
    p.sharedMemPerMultiprocessor = z(A::cudaDevAttrMaxSharedMemoryPerMultiprocessor)?;
    p.regsPerMultiprocessor = a(A::cudaDevAttrMaxRegistersPerMultiprocessor)?;
    p.managedMemory = a(A::cudaDevAttrManagedMemory)?;
    p.isMultiGpuBoard = a(A::cudaDevAttrIsMultiGpuBoard)?;
    p.multiGpuBoardGroupID = a(A::cudaDevAttrMultiGpuBoardGroupID)?;
    p.hostNativeAtomicSupported = a(A::cudaDevAttrHostNativeAtomicSupported)?;
    p.pageableMemoryAccess = a(A::cudaDevAttrPageableMemoryAccess)?;
    p.concurrentManagedAccess = a(A::cudaDevAttrConcurrentManagedAccess)?;
    p.computePreemptionSupported = a(A::cudaDevAttrComputePreemptionSupported)?;
    p.canUseHostPointerForRegisteredMem = a(A::cudaDevAttrCanUseHostPointerForRegisteredMem)?;
    p.cooperativeLaunch = a(A::cudaDevAttrCooperativeLaunch)?;
    p.sharedMemPerBlockOptin = z(A::cudaDevAttrMaxSharedMemoryPerBlockOptin)?;
    p.pageableMemoryAccessUsesHostPageTables =
        a(A::cudaDevAttrPageableMemoryAccessUsesHostPageTables)?;
    p.directManagedMemAccessFromHost = a(A::cudaDevAttrDirectManagedMemAccessFromHost)?;
    p.maxBlocksPerMultiProcessor = a(A::cudaDevAttrMaxBlocksPerMultiprocessor)?;
    p.accessPolicyMaxWindowSize = a(A::cudaDevAttrMaxAccessPolicyWindowSize)?;
    p.reservedSharedMemPerBlock = z(A::cudaDevAttrReservedSharedMemoryPerBlock)?;
    p.hostRegisterSupported = a(A::cudaDevAttrHostRegisterSupported)?;
    p.sparseCudaArraySupported = a(A::cudaDevAttrSparseCudaArraySupported)?;
    p.hostRegisterReadOnlySupported = a(A::cudaDevAttrHostRegisterReadOnlySupported)?;
    p.timelineSemaphoreInteropSupported = a(A::cudaDevAttrTimelineSemaphoreInteropSupported)?;
    p.memoryPoolsSupported = a(A::cudaDevAttrMemoryPoolsSupported)?;
    p.gpuDirectRDMASupported = a(A::cudaDevAttrGPUDirectRDMASupported)?;
    p.gpuDirectRDMAFlushWritesOptions = a(A::cudaDevAttrGPUDirectRDMAFlushWritesOptions)? as u32;
    p.gpuDirectRDMAWritesOrdering = a(A::cudaDevAttrGPUDirectRDMAWritesOrdering)?;
    p.memoryPoolSupportedHandleTypes = a(A::cudaDevAttrMemoryPoolSupportedHandleTypes)? as u32;
    p.deferredMappingCudaArraySupported = a(A::cudaDevAttrDeferredMappingCudaArraySupported)?;
    p.ipcEventSupported = a(A::cudaDevAttrIpcEventSupport)?;
    p.clusterLaunch = a(A::cudaDevAttrClusterLaunch)?;
    // The runtime names no attribute for it; the driver numbers it 129.
    p.unifiedFunctionPointers = a(A(129)).unwrap_or(0);
    // Newer attributes: a driver that lacks one reports it as absent.
    let opt = |attr: A| a(attr).unwrap_or(0);
    p.deviceNumaConfig = opt(A::cudaDevAttrNumaConfig);
    p.deviceNumaId = if p.deviceNumaConfig == 0 {
        -1
    } else {
        opt(A::cudaDevAttrNumaId)
    };
    p.mpsEnabled = opt(A::cudaDevAttrMpsEnabled);
    p.hostNumaId = a(A::cudaDevAttrHostNumaId).unwrap_or(-1);
    p.gpuPciDeviceID = opt(A::cudaDevAttrGpuPciDeviceId) as u32;
    p.gpuPciSubsystemID = opt(A::cudaDevAttrGpuPciSubsystemId) as u32;
    p.hostNumaMultinodeIpcSupported = opt(A::cudaDevAttrHostNumaMultinodeIpcSupported);
    out.write(p)
}

/// `cudaDeviceGetPCIBusId`.
pub fn pci_bus_id(buf: *mut c_char, len: c_int, dev: c_int) -> Result<(), cudaError_t> {
    if buf.is_null() || len <= 0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let drv = driver::get()?;
    context::check_device(dev)?;
    drv.cuDeviceGetPCIBusId(buf, len, dev).ok()
}

/// `cudaDeviceGetByPCIBusId`.
pub fn by_pci_bus_id(out: Out<c_int>, id: crate::boundary::CStrArg) -> Result<(), cudaError_t> {
    out.check()?;
    let id = id.get()?;
    let mut dev = 0;
    driver::get()?
        .cuDeviceGetByPCIBusId(&mut dev, id.as_ptr())
        .ok()
        .map_err(|_| cudaError_t::cudaErrorInvalidDevice)?;
    out.write(dev)
}

/// The `cudaLimit` values: 0-6 and, from CUDA 13.5,
/// `cudaLimitPerBlockMemorySize` (0x0A). The driver answers for each (a
/// driver older than 13.5 refuses 0x0A with `CUDA_ERROR_INVALID_VALUE`,
/// which NVIDIA's 13.5 runtime reports as `cudaErrorInvalidValue`); other
/// values are `cudaErrorUnsupportedLimit` before the driver is asked.
fn runtime_limit(limit: c_int) -> bool {
    (0..=6).contains(&limit) || limit == driver::CU_LIMIT_PER_BLOCK_MEMORY_SIZE
}

/// `cudaDeviceSetLimit`: `cudaLimit` equals `CUlimit`.
pub fn set_limit(limit: c_int, value: usize) -> Result<(), cudaError_t> {
    if !runtime_limit(limit) {
        return Err(cudaError_t::cudaErrorUnsupportedLimit);
    }
    driver::get()?.cuCtxSetLimit(limit, value).ok()
}

/// `cudaDeviceGetLimit`.
pub fn get_limit(out: Out<usize>, limit: c_int) -> Result<(), cudaError_t> {
    out.check()?;
    if !runtime_limit(limit) {
        return Err(crate::abi::cudaError_t::cudaErrorUnsupportedLimit);
    }
    let mut v = 0usize;
    driver::get()?.cuCtxGetLimit(&mut v, limit).ok()?;
    out.write(v)
}

/// `cudaDeviceGetCacheConfig`.
pub fn get_cache_config(out: Out<c_int>) -> Result<(), cudaError_t> {
    out.check()?;
    let mut v = 0;
    driver::get()?.cuCtxGetCacheConfig(&mut v).ok()?;
    out.write(v)
}

/// `cudaDeviceSetCacheConfig`.
pub fn set_cache_config(config: c_int) -> Result<(), cudaError_t> {
    if !(0..=3).contains(&config) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    driver::get()?.cuCtxSetCacheConfig(config).ok()
}

// ---------------------------------------------------------------------------
// Device calls beyond the core: each forwards to the driver function of the
// same meaning; `cudaDeviceP2PAttr`, `cudaAtomicOperation`,
// `cudaSharedMemConfig` and the GPUDirect RDMA enums share their numbers
// with the driver's (`CUdevice_P2PAttribute`, `CUatomicOperation`,
// `CUsharedconfig`, `CUflushGPUDirectRDMAWrites*`).

fn device_api() -> Result<&'static DeviceApi, cudaError_t> {
    driver::family::<DeviceApi>(false)
}

/// `cudaDeviceGetP2PAttribute`: the driver's answer for the pair (it
/// refuses a device paired with itself, as NVIDIA's runtime reports).
pub fn p2p_attribute(
    out: Out<c_int>,
    attr: cudaDeviceP2PAttr,
    src: c_int,
    dst: c_int,
) -> Result<(), cudaError_t> {
    out.check()?;
    context::check_device(src)?;
    context::check_device(dst)?;
    device_api()?
        .cuDeviceGetP2PAttribute(out.as_ptr(), attr.0, src, dst)
        .ok()
}

/// The checks shared by the two atomic-capability queries: `count`
/// entries are read from `ops` and written to `caps`.
fn atomic_arrays(
    caps: *mut c_uint,
    ops: *const cudaAtomicOperation,
    count: c_uint,
) -> Result<(), cudaError_t> {
    if count > 0 && (caps.is_null() || ops.is_null()) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    Ok(())
}

/// `cudaDeviceGetHostAtomicCapabilities`.
pub fn host_atomic_capabilities(
    caps: *mut c_uint,
    ops: *const cudaAtomicOperation,
    count: c_uint,
    dev: c_int,
) -> Result<(), cudaError_t> {
    atomic_arrays(caps, ops, count)?;
    context::check_device(dev)?;
    device_api()?
        .cuDeviceGetHostAtomicCapabilities(caps, ops, count, dev)
        .ok()
}

/// `cudaDeviceGetP2PAtomicCapabilities`.
pub fn p2p_atomic_capabilities(
    caps: *mut c_uint,
    ops: *const cudaAtomicOperation,
    count: c_uint,
    src: c_int,
    dst: c_int,
) -> Result<(), cudaError_t> {
    atomic_arrays(caps, ops, count)?;
    context::check_device(src)?;
    context::check_device(dst)?;
    device_api()?
        .cuDeviceGetP2PAtomicCapabilities(caps, ops, count, src, dst)
        .ok()
}

/// `cudaDeviceGetSharedMemConfig` (deprecated): the current context's bank
/// size from the driver. A driver that no longer has the call answers
/// with the fixed four-byte banks of every device CUDA 13 supports.
pub fn get_shared_mem_config(out: Out<cudaSharedMemConfig>) -> Result<(), cudaError_t> {
    out.check()?;
    let mut v: c_uint = 0;
    match device_api()?.cuCtxGetSharedMemConfig(&mut v) {
        driver::CUresult::SUCCESS => out.write(cudaSharedMemConfig(v)),
        driver::CUresult::ERROR_NOT_FOUND => {
            out.write(cudaSharedMemConfig::cudaSharedMemBankSizeFourByte)
        }
        r => Err(crate::boundary::driver_failed(r)),
    }
}

/// `cudaDeviceSetSharedMemConfig` (deprecated): handed to the driver,
/// which ignores it on devices with fixed bank sizes (all of CUDA 13's).
pub fn set_shared_mem_config(config: cudaSharedMemConfig) -> Result<(), cudaError_t> {
    if config.0 > cudaSharedMemConfig::cudaSharedMemBankSizeEightByte.0 {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    match device_api()?.cuCtxSetSharedMemConfig(config.0) {
        driver::CUresult::ERROR_NOT_FOUND => Ok(()),
        r => r.ok(),
    }
}

/// `cudaDeviceGetTexture1DLinearMaxWidth`: the channel format becomes the
/// driver's array format and channel count.
pub fn texture_1d_linear_max_width(
    out: Out<usize>,
    desc: In<cudaChannelFormatDesc>,
    dev: c_int,
) -> Result<(), cudaError_t> {
    out.check()?;
    let desc = desc.read()?;
    context::check_device(dev)?;
    let crate::copy::elements::Format { format, channels } = crate::array::driver_format(&desc)?;
    let mut width = 0usize;
    device_api()?
        .cuDeviceGetTexture1DLinearMaxWidth(&mut width, format, channels, dev)
        .ok()?;
    out.write(width)
}

/// `cudaCtxResetPersistingL2Cache`: the current context's persisting lines.
pub fn reset_persisting_l2_cache() -> Result<(), cudaError_t> {
    device_api()?.cuCtxResetPersistingL2Cache().ok()
}

/// `cudaDeviceFlushGPUDirectRDMAWrites`.
pub fn flush_gpu_direct_rdma_writes(
    target: cudaFlushGPUDirectRDMAWritesTarget,
    scope: cudaFlushGPUDirectRDMAWritesScope,
) -> Result<(), cudaError_t> {
    device_api()?
        .cuFlushGPUDirectRDMAWrites(target.0, scope.0)
        .ok()
}

/// `cudaDeviceRegisterAsyncNotification`: the caller's callback is
/// registered with the driver as it is (the two callback types are one C
/// type, see `driver::device`), so the driver calls it with its own
/// notification record and the handle returned here.
pub fn register_async_notification(
    dev: c_int,
    callback: cudaAsyncCallback,
    user_data: *mut c_void,
    out: Out<cudaAsyncCallbackHandle_t>,
) -> Result<(), cudaError_t> {
    out.check()?;
    if callback.is_none() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    context::check_device(dev)?;
    let mut handle = CUasyncCallbackHandle::null();
    device_api()?
        .cuDeviceRegisterAsyncNotification(dev, callback, user_data, &mut handle)
        .ok()?;
    handles::made(handle.as_raw(), Kind::AsyncCallback);
    out.write(handle.as_raw())
}

/// `cudaDeviceUnregisterAsyncNotification`.
pub fn unregister_async_notification(
    dev: c_int,
    handle: cudaAsyncCallbackHandle_t,
) -> Result<(), cudaError_t> {
    context::check_device(dev)?;
    // A handle unregistered already is freed memory to the driver (a
    // second unregistration crashed the process under NVIDIA's runtime on
    // the H200, c-samples/dev_misc): refused here, as is a handle that is
    // not readable memory.
    if handle.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    handles::check_or(
        handle.cast(),
        Kind::AsyncCallback,
        cudaError_t::cudaErrorInvalidValue,
    )?;
    let api = device_api()?;
    handles::destroy(handle.cast(), Kind::AsyncCallback, || {
        api.cuDeviceUnregisterAsyncNotification(dev, CUasyncCallbackHandle::from(handle))
            .ok()
    })
}

/// `cudaDeviceGetNvSciSyncAttributes`: fills the caller's NvSciSync
/// attribute list (the driver answers "not supported" where NvSci is not
/// installed).
pub fn nvsci_sync_attributes(
    list: *mut c_void,
    dev: c_int,
    flags: c_int,
) -> Result<(), cudaError_t> {
    if list.is_null() {
        // What NVIDIA's runtime answers on the H200 (driver 580).
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    context::check_device(dev)?;
    device_api()?
        .cuDeviceGetNvSciSyncAttributes(list, dev, flags)
        .ok()
}

/// `cudaGetExportTable`: NVIDIA's private tables of undocumented entry
/// points, looked up by UUID. A clean-room runtime has none and must not
/// imitate them, so every UUID is unknown here, answered as NVIDIA's
/// runtime answers a UUID it does not know (measured with
/// libcudart.so.13.0.96 on the H200 and with no driver): the table
/// pointer set to NULL and `cudaErrorInvalidValue` where a driver is
/// installed, `cudaErrorUnknown` where none is. A caller that probes for a
/// table sees "not there" and never receives a pointer to call.
pub fn export_table(out: Out<*const c_void>, id: In<cudaUUID_t>) -> Result<(), cudaError_t> {
    out.check()?;
    id.read()?;
    out.write(std::ptr::null())?;
    match crate::driver::get() {
        Ok(_) => Err(cudaError_t::cudaErrorInvalidValue),
        Err(_) => Err(cudaError_t::cudaErrorUnknown),
    }
}
