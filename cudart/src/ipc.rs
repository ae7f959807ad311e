//! Inter-process sharing of device memory (`cudaIpc*MemHandle`).
//!
//! `cudaIpcMemHandle_t` is the driver's `CUipcMemHandle` (64 opaque bytes),
//! passed through unchanged; `cudaIpcMemLazyEnablePeerAccess` is
//! `CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS`. (Event handles live with the
//! events.)

use crate::abi::{cudaError_t, cudaIpcMemHandle_t};
use crate::boundary::Out;
use crate::driver::CUdeviceptr;
use crate::memory::api;
use std::ffi::{c_uint, c_void};

/// `cudaIpcGetMemHandle`: a handle for the allocation `ptr` lies in.
pub fn get_mem_handle(out: Out<cudaIpcMemHandle_t>, ptr: *mut c_void) -> Result<(), cudaError_t> {
    out.check()?;
    api(false)?
        .cuIpcGetMemHandle(out.as_ptr(), ptr as CUdeviceptr)
        .ok()
}

/// `cudaIpcOpenMemHandle`: maps another process's allocation into this one.
pub fn open_mem_handle(
    out: Out<*mut c_void>,
    handle: cudaIpcMemHandle_t,
    flags: c_uint,
) -> Result<(), cudaError_t> {
    out.check()?;
    let mut p: CUdeviceptr = 0;
    api(false)?.cuIpcOpenMemHandle(&mut p, handle, flags).ok()?;
    out.write(p as *mut c_void)
}

/// `cudaIpcCloseMemHandle`.
pub fn close_mem_handle(ptr: *mut c_void) -> Result<(), cudaError_t> {
    api(false)?.cuIpcCloseMemHandle(ptr as CUdeviceptr).ok()
}
