//! Driver entry points for graphs: explicit construction, instantiation, update, launch, debug output.
//!
//! `driver::family::<GraphApi>(per_thread)` resolves this table on first use.

#![allow(non_snake_case, unused_imports)]

use super::{
    CUcontext, CUdevice, CUdeviceptr, CUevent, CUfunction, CUkernel, CUlibrary, CUresult, CUstream,
};
use std::ffi::{c_char, c_int, c_uint, c_void};

driver_api! {
    pub struct GraphApi {
    }
}
