//! Driver entry points for graphics interop (OpenGL, EGL, VDPAU, `cudaGraphics*`) and external memory and semaphores.
//!
//! `driver::family::<InteropApi>(per_thread)` resolves this table on first use.

#![allow(non_snake_case, unused_imports)]

use super::{
    CUcontext, CUdevice, CUdeviceptr, CUevent, CUfunction, CUkernel, CUlibrary, CUresult, CUstream,
};
use std::ffi::{c_char, c_int, c_uint, c_void};

driver_api! {
    pub struct InteropApi {
    }
}
