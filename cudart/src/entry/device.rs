//! Entry points for the device calls beyond the core: P2P attributes and
//! atomic capabilities, the deprecated shared-memory bank configuration,
//! 1D linear texture widths, persisting L2, GPUDirect RDMA flushes, async
//! notifications, NvSciSync attributes, and `cudaGetExportTable`.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{CStrArg, In, Needs, Out};
use crate::device;
use std::ffi::{c_char, c_int, c_uint, c_void};

entry_points! {
    Driver fn cudaDeviceGetP2PAttribute(value: Out<c_int>, attr: cudaDeviceP2PAttr, srcDevice: c_int,
        dstDevice: c_int) -> cudaError_t => device::p2p_attribute(value, attr, srcDevice, dstDevice);
    Driver fn cudaDeviceGetHostAtomicCapabilities(capabilities: *mut c_uint, operations: *const cudaAtomicOperation,
        count: c_uint, device: c_int) -> cudaError_t
        => device::host_atomic_capabilities(capabilities, operations, count, device);
    Driver fn cudaDeviceGetP2PAtomicCapabilities(capabilities: *mut c_uint, operations: *const cudaAtomicOperation,
        count: c_uint, srcDevice: c_int, dstDevice: c_int) -> cudaError_t
        => device::p2p_atomic_capabilities(capabilities, operations, count, srcDevice, dstDevice);
    Context fn cudaDeviceGetSharedMemConfig(pConfig: Out<cudaSharedMemConfig>) -> cudaError_t
        => device::get_shared_mem_config(pConfig);
    Context fn cudaDeviceSetSharedMemConfig(config: cudaSharedMemConfig) -> cudaError_t
        => device::set_shared_mem_config(config);
    Driver fn cudaDeviceGetTexture1DLinearMaxWidth(maxWidthInElements: Out<usize>, fmtDesc: In<cudaChannelFormatDesc>,
        device: c_int) -> cudaError_t => device::texture_1d_linear_max_width(maxWidthInElements, fmtDesc, device);
    Context fn cudaCtxResetPersistingL2Cache() -> cudaError_t => device::reset_persisting_l2_cache();
    Context fn cudaDeviceFlushGPUDirectRDMAWrites(target: cudaFlushGPUDirectRDMAWritesTarget,
        scope: cudaFlushGPUDirectRDMAWritesScope) -> cudaError_t => device::flush_gpu_direct_rdma_writes(target, scope);
    Context fn cudaDeviceRegisterAsyncNotification(device: c_int, callbackFunc: cudaAsyncCallback, userData: *mut c_void,
        callback: Out<cudaAsyncCallbackHandle_t>) -> cudaError_t
        => device::register_async_notification(device, callbackFunc, userData, callback);
    Context fn cudaDeviceUnregisterAsyncNotification(device: c_int, callback: cudaAsyncCallbackHandle_t) -> cudaError_t
        => device::unregister_async_notification(device, callback);
    Driver fn cudaDeviceGetNvSciSyncAttributes(nvSciSyncAttrList: *mut c_void, device: c_int, flags: c_int) -> cudaError_t
        => device::nvsci_sync_attributes(nvSciSyncAttrList, device, flags);
    // Needs nothing: NVIDIA's runtime answers it without loading the driver.
    Nothing fn cudaGetExportTable(ppExportTable: Out<*const c_void>, pExportTableId: In<cudaUUID_t>) -> cudaError_t
        => device::export_table(ppExportTable, pExportTableId);
}
