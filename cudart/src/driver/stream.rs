//! Driver entry points for streams and events beyond the core: capture, attributes, ids, IPC event handles.
//!
//! `driver::family::<StreamApi>(per_thread)` resolves this table on first use.

#![allow(non_snake_case, unused_imports)]

use super::{
    CUcontext, CUdevice, CUdeviceptr, CUevent, CUfunction, CUkernel, CUlibrary, CUresult, CUstream,
};
use std::ffi::{c_char, c_int, c_uint, c_void};

driver_api! {
    pub struct StreamApi {
    }
}
