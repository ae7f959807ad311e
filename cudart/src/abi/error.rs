//! `cudaError_t`: the runtime's error codes, their names and descriptions.
//! (Placeholder with the codes the core needs; the full table follows.)
use std::ffi::CStr;

#[repr(transparent)]
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct cudaError_t(pub i32);

impl cudaError_t {
    pub const cudaSuccess: Self = Self(0);
    pub const cudaErrorInvalidValue: Self = Self(1);
    pub const cudaErrorMemoryAllocation: Self = Self(2);
    pub const cudaErrorInitializationError: Self = Self(3);
    pub const cudaErrorCudartUnloading: Self = Self(4);
    pub const cudaErrorInvalidConfiguration: Self = Self(9);
    pub const cudaErrorInvalidSymbol: Self = Self(13);
    pub const cudaErrorInvalidMemcpyDirection: Self = Self(21);
    pub const cudaErrorMissingConfiguration: Self = Self(52);
    pub const cudaErrorInsufficientDriver: Self = Self(35);
    pub const cudaErrorInvalidDeviceFunction: Self = Self(98);
    pub const cudaErrorNoDevice: Self = Self(100);
    pub const cudaErrorInvalidDevice: Self = Self(101);
    pub const cudaErrorSetOnActiveProcess: Self = Self(708);
    pub const cudaErrorInvalidResourceHandle: Self = Self(400);
    pub const cudaErrorNotSupported: Self = Self(801);
    pub const cudaErrorUnknown: Self = Self(999);

    pub fn name(self) -> &'static CStr {
        c"cudaErrorUnknown"
    }
    pub fn description(self) -> &'static CStr {
        c"unknown error"
    }
}
