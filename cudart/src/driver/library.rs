//! Driver entry points for libraries (`cudaLibrary*`), driver entry points, occupancy and cooperative launches, profiler and logs.
//!
//! `driver::family::<LibraryApi>(per_thread)` resolves this table on first use.
//!
//! Where the runtime's type has the driver's layout and numbering, the
//! table declares the runtime type directly (checked against `cuda.h`):
//! `cudaJitOption` values are `CUjit_option`'s (the runtime defines a
//! subset), `cudaLibraryOption` is `CUlibraryOption`,
//! `cudaDriverEntryPointQueryResult` is `CUdriverProcAddressQueryResult`,
//! `cudaLogsCallback_t` is `CUlogsCallback` (its level argument a 32-bit
//! enum of the same numbers), `cudaLogIterator` is `CUlogIterator`.
//! `cuGetProcAddress` resolves to `cuGetProcAddress_v2` (with the status).

#![allow(non_snake_case)]

use super::types::*;
use super::CUresult;
use crate::abi::{
    cudaDriverEntryPointQueryResult, cudaJitOption, cudaLibraryOption, cudaLogIterator,
    cudaLogsCallback_t,
};
use std::ffi::{c_char, c_int, c_uint, c_void};

driver_api! {
    /// Libraries, `cuGetProcAddress`, occupancy, cooperative launches,
    /// kernel parameters, the profiler and the error logs.
    pub struct LibraryApi {
    cuLibraryLoadFromFile(lib: *mut CUlibrary, file: *const c_char, jit_opts: *mut cudaJitOption, jit_vals: *mut *mut c_void, n_jit: c_uint, lib_opts: *mut cudaLibraryOption, lib_vals: *mut *mut c_void, n_lib: c_uint);
    cuLibraryGetKernelCount(count: *mut c_uint, lib: CUlibrary);
    cuLibraryEnumerateKernels(kernels: *mut CUkernel, n: c_uint, lib: CUlibrary);
    cuLibraryGetUnifiedFunction(fptr: *mut *mut c_void, lib: CUlibrary, symbol: *const c_char);
    cuGetProcAddress(symbol: *const c_char, pfn: *mut *mut c_void, version: c_int, flags: u64, status: *mut cudaDriverEntryPointQueryResult);
    cuLaunchCooperativeKernel(f: CUfunction, gx: c_uint, gy: c_uint, gz: c_uint, bx: c_uint, by: c_uint, bz: c_uint, smem: c_uint, stream: CUstream, params: *mut *mut c_void);
    cuOccupancyAvailableDynamicSMemPerBlock(size: *mut usize, f: CUfunction, blocks: c_int, block_size: c_int);
    cuOccupancyMaxActiveClusters(clusters: *mut c_int, f: CUfunction, config: *const CUlaunchConfig);
    cuOccupancyMaxPotentialClusterSize(size: *mut c_int, f: CUfunction, config: *const CUlaunchConfig);
    cuKernelGetParamInfo(kernel: CUkernel, index: usize, offset: *mut usize, size: *mut usize);
    // Gone from CUDA 13's cuda.h but still resolvable (cudaTypedefs.h keeps
    // PFN_cuFuncSetSharedMemConfig_v4020).
    cuFuncSetSharedMemConfig(f: CUfunction, config: c_int);
    cuProfilerStart();
    cuProfilerStop();
    cuLogsCurrent(iterator: *mut cudaLogIterator, flags: c_uint);
    cuLogsDumpToFile(iterator: *mut cudaLogIterator, path: *const c_char, flags: c_uint);
    cuLogsDumpToMemory(iterator: *mut cudaLogIterator, buffer: *mut c_char, size: *mut usize, flags: c_uint);
    cuLogsRegisterCallback(cb: cudaLogsCallback_t, data: *mut c_void, handle: *mut CUlogsCallbackHandle);
    cuLogsUnregisterCallback(handle: CUlogsCallbackHandle);
    }
}
