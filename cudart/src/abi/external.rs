//! External memory and semaphores (Vulkan, D3D, NvSci interop).
use super::*;

/// Imported external memory; the driver's `CUexternalMemory`.
pub type cudaExternalMemory_t = *mut c_void;
/// Imported external semaphore; the driver's `CUexternalSemaphore`.
pub type cudaExternalSemaphore_t = *mut c_void;

abi! {
    types {
        pub struct cudaExternalMemoryHandleDesc_win32
            as "decltype(decltype(cudaExternalMemoryHandleDesc::handle)::win32)"
        {
            pub handle: *mut c_void,
            pub name: *const c_void,
        }
        pub union cudaExternalMemoryHandleDesc_handle
            as "decltype(cudaExternalMemoryHandleDesc::handle)"
        {
            pub win32: cudaExternalMemoryHandleDesc_win32,
            pub fd: i32,
            pub nvSciBufObject: *const c_void,
        }
        /// How to import external memory (`cudaImportExternalMemory`).
        pub struct cudaExternalMemoryHandleDesc {
            pub type_: cudaExternalMemoryHandleType as "type",
            pub handle: cudaExternalMemoryHandleDesc_handle,
            pub size: u64,
            pub flags: u32,
            pub reserved: [u32; 16],
        }
        pub struct cudaExternalMemoryBufferDesc {
            pub offset: u64,
            pub size: u64,
            pub flags: u32,
            pub reserved: [u32; 16],
        }
        pub struct cudaExternalMemoryMipmappedArrayDesc {
            pub offset: u64,
            pub formatDesc: cudaChannelFormatDesc,
            pub extent: cudaExtent,
            pub flags: u32,
            pub numLevels: u32,
            pub reserved: [u32; 16],
        }
        pub struct cudaExternalSemaphoreHandleDesc_win32
            as "decltype(decltype(cudaExternalSemaphoreHandleDesc::handle)::win32)"
        {
            pub handle: *mut c_void,
            pub name: *const c_void,
        }
        pub union cudaExternalSemaphoreHandleDesc_handle
            as "decltype(cudaExternalSemaphoreHandleDesc::handle)"
        {
            pub win32: cudaExternalSemaphoreHandleDesc_win32,
            pub fd: i32,
            pub nvSciSyncObj: *const c_void,
        }
        /// How to import an external semaphore.
        pub struct cudaExternalSemaphoreHandleDesc {
            pub type_: cudaExternalSemaphoreHandleType as "type",
            pub handle: cudaExternalSemaphoreHandleDesc_handle,
            pub flags: u32,
            pub reserved: [u32; 16],
        }
        pub struct cudaExternalSemaphoreSignalParams_fence
            as "decltype(decltype(cudaExternalSemaphoreSignalParams::params)::fence)"
        {
            pub value: u64,
        }
        pub union cudaExternalSemaphoreSignalParams_nvSciSync
            as "decltype(decltype(cudaExternalSemaphoreSignalParams::params)::nvSciSync)"
        {
            pub fence: *mut c_void,
            pub reserved: u64,
        }
        pub struct cudaExternalSemaphoreSignalParams_keyedMutex
            as "decltype(decltype(cudaExternalSemaphoreSignalParams::params)::keyedMutex)"
        {
            pub key: u64,
        }
        pub struct cudaExternalSemaphoreSignalParams_params
            as "decltype(cudaExternalSemaphoreSignalParams::params)"
        {
            pub fence: cudaExternalSemaphoreSignalParams_fence,
            pub nvSciSync: cudaExternalSemaphoreSignalParams_nvSciSync,
            pub keyedMutex: cudaExternalSemaphoreSignalParams_keyedMutex,
            pub reserved: [u32; 12],
        }
        /// Parameters of one external-semaphore signal.
        pub struct cudaExternalSemaphoreSignalParams {
            pub params: cudaExternalSemaphoreSignalParams_params,
            pub flags: u32,
            pub reserved: [u32; 16],
        }
        pub struct cudaExternalSemaphoreWaitParams_fence
            as "decltype(decltype(cudaExternalSemaphoreWaitParams::params)::fence)"
        {
            pub value: u64,
        }
        pub union cudaExternalSemaphoreWaitParams_nvSciSync
            as "decltype(decltype(cudaExternalSemaphoreWaitParams::params)::nvSciSync)"
        {
            pub fence: *mut c_void,
            pub reserved: u64,
        }
        pub struct cudaExternalSemaphoreWaitParams_keyedMutex
            as "decltype(decltype(cudaExternalSemaphoreWaitParams::params)::keyedMutex)"
        {
            pub key: u64,
            pub timeoutMs: u32,
        }
        pub struct cudaExternalSemaphoreWaitParams_params
            as "decltype(cudaExternalSemaphoreWaitParams::params)"
        {
            pub fence: cudaExternalSemaphoreWaitParams_fence,
            pub nvSciSync: cudaExternalSemaphoreWaitParams_nvSciSync,
            pub keyedMutex: cudaExternalSemaphoreWaitParams_keyedMutex,
            pub reserved: [u32; 10],
        }
        /// Parameters of one external-semaphore wait.
        pub struct cudaExternalSemaphoreWaitParams {
            pub params: cudaExternalSemaphoreWaitParams_params,
            pub flags: u32,
            pub reserved: [u32; 16],
        }
    }
    enums {
        pub enum cudaExternalMemoryHandleType: u32 {
            cudaExternalMemoryHandleTypeOpaqueFd = 1,
            cudaExternalMemoryHandleTypeOpaqueWin32 = 2,
            cudaExternalMemoryHandleTypeOpaqueWin32Kmt = 3,
            cudaExternalMemoryHandleTypeD3D12Heap = 4,
            cudaExternalMemoryHandleTypeD3D12Resource = 5,
            cudaExternalMemoryHandleTypeD3D11Resource = 6,
            cudaExternalMemoryHandleTypeD3D11ResourceKmt = 7,
            cudaExternalMemoryHandleTypeNvSciBuf = 8,
        }
        pub enum cudaExternalSemaphoreHandleType: u32 {
            cudaExternalSemaphoreHandleTypeOpaqueFd = 1,
            cudaExternalSemaphoreHandleTypeOpaqueWin32 = 2,
            cudaExternalSemaphoreHandleTypeOpaqueWin32Kmt = 3,
            cudaExternalSemaphoreHandleTypeD3D12Fence = 4,
            cudaExternalSemaphoreHandleTypeD3D11Fence = 5,
            cudaExternalSemaphoreHandleTypeNvSciSync = 6,
            cudaExternalSemaphoreHandleTypeKeyedMutex = 7,
            cudaExternalSemaphoreHandleTypeKeyedMutexKmt = 8,
            cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9,
            cudaExternalSemaphoreHandleTypeTimelineSemaphoreWin32 = 10,
        }
    }
    consts {
        pub const cudaExternalMemoryDedicated: u32 = 0x1;
        pub const cudaExternalSemaphoreSignalSkipNvSciBufMemSync: u32 = 0x01;
        pub const cudaExternalSemaphoreWaitSkipNvSciBufMemSync: u32 = 0x02;
        pub const cudaNvSciSyncAttrSignal: u32 = 0x1;
        pub const cudaNvSciSyncAttrWait: u32 = 0x2;
    }
}
