//! Driver entry points for memory beyond the core: 3D copies, arrays and mipmapped arrays, texture and surface objects, memory pools and stream-ordered allocation, managed-memory prefetch and advice, IPC, peer copies.
//!
//! `driver::family::<MemoryApi>(per_thread)` resolves this table on first use.

#![allow(non_snake_case, unused_imports)]

use super::{
    CUcontext, CUdevice, CUdeviceptr, CUevent, CUfunction, CUkernel, CUlibrary, CUresult, CUstream,
};
use std::ffi::{c_char, c_int, c_uint, c_void};

driver_api! {
    pub struct MemoryApi {
    }
}
