//! Driver entry points for the device calls beyond the core: P2P
//! attributes, atomic capabilities, 1D linear texture limits, the
//! (deprecated) shared-memory bank configuration, persisting-L2 reset,
//! GPUDirect RDMA flushes, async notifications and NvSciSync attributes.
//!
//! `driver::family::<DeviceApi>(per_thread)` resolves this table on first use.
//! None of these names has a newer `_vN` variant in CUDA 13.0 (checked
//! against `cuda.h` and `cudaTypedefs.h`), so each resolves to the
//! signature declared here.

#![allow(non_snake_case)]

use super::types::*;
use super::CUresult;
use crate::abi::{cudaAsyncCallback, cudaAtomicOperation};
use std::ffi::{c_int, c_uint, c_void};

driver_api! {
    pub struct DeviceApi {
    cuCtxResetPersistingL2Cache();
    cuFlushGPUDirectRDMAWrites(target: c_uint, scope: c_uint);
    // `CUatomicOperation` numbers are `cudaAtomicOperation`'s.
    cuDeviceGetHostAtomicCapabilities(caps: *mut c_uint, ops: *const cudaAtomicOperation, count: c_uint, dev: CUdevice);
    cuDeviceGetP2PAtomicCapabilities(caps: *mut c_uint, ops: *const cudaAtomicOperation, count: c_uint, src: CUdevice, dst: CUdevice);
    cuDeviceGetP2PAttribute(value: *mut c_int, attr: c_uint, src: CUdevice, dst: CUdevice);
    cuCtxGetSharedMemConfig(config: *mut c_uint);
    cuCtxSetSharedMemConfig(config: c_uint);
    cuDeviceGetTexture1DLinearMaxWidth(width: *mut usize, format: c_uint, channels: c_uint, dev: CUdevice);
    // `CUasyncCallback` and `cudaAsyncCallback` are the same C function
    // type: `CUasyncNotificationInfo` and `cudaAsyncNotificationInfo` have
    // one layout (a u32 type, then a union of one u64), and the handles
    // are the same pointer. So the runtime's type is declared here and the
    // caller's function goes to the driver unchanged, no transmute needed.
    cuDeviceRegisterAsyncNotification(dev: CUdevice, callback: cudaAsyncCallback, user: *mut c_void, handle: *mut CUasyncCallbackHandle);
    cuDeviceUnregisterAsyncNotification(dev: CUdevice, handle: CUasyncCallbackHandle);
    cuDeviceGetNvSciSyncAttributes(list: *mut c_void, dev: CUdevice, flags: c_int);
    }
}
