//! Driver entry points for devices beyond the core (peer access, P2P attributes, limits), occupancy, cooperative launches, libraries (`cudaLibrary*`), driver entry points, profiler, external memory and semaphores.
//!
//! `driver::family::<DeviceApi>(per_thread)` resolves this table on first use.

#![allow(non_snake_case, unused_imports)]

use super::{
    CUcontext, CUdevice, CUdeviceptr, CUevent, CUfunction, CUkernel, CUlibrary, CUresult, CUstream,
};
use std::ffi::{c_char, c_int, c_uint, c_void};

driver_api! {
    pub struct DeviceApi {
    }
}
