//! Entry points for libraries (`cudaLibrary*`), driver entry points, occupancy and cooperative launches, profiler and logs.

#![allow(non_snake_case, clippy::too_many_arguments, unused_imports)]

use super::{LEGACY, PT};
use crate::abi::*;
use crate::boundary::{CStrArg, In, Needs, Out};
use crate::library::Options;
use crate::{library, occupancy, profiler};
use std::ffi::{c_char, c_int, c_uint, c_void};

entry_points! {
    // Libraries.
    Context fn cudaLibraryLoadData(library: Out<cudaLibrary_t>, code: *const c_void, jitOptions: *mut cudaJitOption,
        jitOptionsValues: *mut *mut c_void, numJitOptions: c_uint, libraryOptions: *mut cudaLibraryOption,
        libraryOptionValues: *mut *mut c_void, numLibraryOptions: c_uint) -> cudaError_t
        => library::load_data(library, code,
            Options { ids: jitOptions, values: jitOptionsValues, n: numJitOptions },
            Options { ids: libraryOptions, values: libraryOptionValues, n: numLibraryOptions });
    Context fn cudaLibraryLoadFromFile(library: Out<cudaLibrary_t>, fileName: CStrArg, jitOptions: *mut cudaJitOption,
        jitOptionsValues: *mut *mut c_void, numJitOptions: c_uint, libraryOptions: *mut cudaLibraryOption,
        libraryOptionValues: *mut *mut c_void, numLibraryOptions: c_uint) -> cudaError_t
        => library::load_from_file(library, fileName,
            Options { ids: jitOptions, values: jitOptionsValues, n: numJitOptions },
            Options { ids: libraryOptions, values: libraryOptionValues, n: numLibraryOptions });
    Context fn cudaLibraryUnload(library: cudaLibrary_t) -> cudaError_t => library::unload(library);
    Context fn cudaLibraryGetKernel(pKernel: Out<cudaKernel_t>, library: cudaLibrary_t, name: CStrArg) -> cudaError_t
        => library::get_kernel(pKernel, library, name);
    Context fn cudaLibraryGetKernelCount(count: Out<c_uint>, lib: cudaLibrary_t) -> cudaError_t
        => library::get_kernel_count(count, lib);
    Context fn cudaLibraryEnumerateKernels(kernels: *mut cudaKernel_t, numKernels: c_uint, lib: cudaLibrary_t) -> cudaError_t
        => library::enumerate_kernels(kernels, numKernels, lib);
    Context fn cudaLibraryGetGlobal(dptr: *mut *mut c_void, bytes: *mut usize, library: cudaLibrary_t, name: CStrArg) -> cudaError_t
        => library::get_global(dptr, bytes, library, name);
    Context fn cudaLibraryGetManaged(dptr: *mut *mut c_void, bytes: *mut usize, library: cudaLibrary_t, name: CStrArg) -> cudaError_t
        => library::get_managed(dptr, bytes, library, name);
    Context fn cudaLibraryGetUnifiedFunction(fptr: Out<*mut c_void>, library: cudaLibrary_t, symbol: CStrArg) -> cudaError_t
        => library::get_unified_function(fptr, library, symbol);
    Context fn cudaKernelSetAttributeForDevice(kernel: cudaKernel_t, attr: c_int, value: c_int, device: c_int) -> cudaError_t
        => library::kernel_set_attribute_for_device(kernel, attr, value, device);

    // Driver entry points.
    Context fn cudaGetDriverEntryPoint(symbol: CStrArg, funcPtr: Out<*mut c_void>, flags: u64,
        driverStatus: *mut cudaDriverEntryPointQueryResult) -> cudaError_t
        => library::driver_entry_point(symbol, funcPtr, None, flags, driverStatus, LEGACY);
    Context fn cudaGetDriverEntryPoint_ptsz(symbol: CStrArg, funcPtr: Out<*mut c_void>, flags: u64,
        driverStatus: *mut cudaDriverEntryPointQueryResult) -> cudaError_t
        => library::driver_entry_point(symbol, funcPtr, None, flags, driverStatus, PT);
    Context fn cudaGetDriverEntryPointByVersion(symbol: CStrArg, funcPtr: Out<*mut c_void>, cudaVersion: c_uint, flags: u64,
        driverStatus: *mut cudaDriverEntryPointQueryResult) -> cudaError_t
        => library::driver_entry_point(symbol, funcPtr, Some(cudaVersion), flags, driverStatus, LEGACY);
    Context fn cudaGetDriverEntryPointByVersion_ptsz(symbol: CStrArg, funcPtr: Out<*mut c_void>, cudaVersion: c_uint, flags: u64,
        driverStatus: *mut cudaDriverEntryPointQueryResult) -> cudaError_t
        => library::driver_entry_point(symbol, funcPtr, Some(cudaVersion), flags, driverStatus, PT);

    // Occupancy, cooperative launches, kernel parameters.
    Context fn cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize: Out<usize>, func: *const c_void, numBlocks: c_int,
        blockSize: c_int) -> cudaError_t => occupancy::available_dynamic_smem(dynamicSmemSize, func, numBlocks, blockSize);
    Context fn cudaOccupancyMaxActiveClusters(numClusters: Out<c_int>, func: *const c_void, launchConfig: In<cudaLaunchConfig_t>) -> cudaError_t
        => occupancy::max_active_clusters(numClusters, func, launchConfig);
    Context fn cudaOccupancyMaxPotentialClusterSize(clusterSize: Out<c_int>, func: *const c_void,
        launchConfig: In<cudaLaunchConfig_t>) -> cudaError_t
        => occupancy::max_potential_cluster_size(clusterSize, func, launchConfig);
    Context fn cudaLaunchCooperativeKernel(func: *const c_void, gridDim: dim3, blockDim: dim3, args: *mut *mut c_void,
        sharedMem: usize, stream: cudaStream_t) -> cudaError_t
        => occupancy::launch_cooperative(func, gridDim, blockDim, args, sharedMem, stream, LEGACY);
    Context fn cudaLaunchCooperativeKernel_ptsz(func: *const c_void, gridDim: dim3, blockDim: dim3, args: *mut *mut c_void,
        sharedMem: usize, stream: cudaStream_t) -> cudaError_t
        => occupancy::launch_cooperative(func, gridDim, blockDim, args, sharedMem, stream, PT);
    Context fn cudaFuncGetParamInfo(func: *const c_void, paramIndex: usize, paramOffset: Out<usize>, paramSize: *mut usize) -> cudaError_t
        => occupancy::func_get_param_info(func, paramIndex, paramOffset, paramSize);
    Context fn cudaFuncSetSharedMemConfig(func: *const c_void, config: c_int) -> cudaError_t
        => occupancy::func_set_shared_mem_config(func, config);

    // Profiler and error logs.
    Context fn cudaProfilerStart() -> cudaError_t => profiler::start();
    Context fn cudaProfilerStop() -> cudaError_t => profiler::stop();
    Driver fn cudaLogsCurrent(iterator_out: Out<cudaLogIterator>, flags: c_uint) -> cudaError_t
        => profiler::logs_current(iterator_out, flags);
    Driver fn cudaLogsDumpToFile(iterator: *mut cudaLogIterator, pathToFile: CStrArg, flags: c_uint) -> cudaError_t
        => profiler::logs_dump_to_file(iterator, pathToFile, flags);
    Driver fn cudaLogsDumpToMemory(iterator: *mut cudaLogIterator, buffer: *mut c_char, size: Out<usize>, flags: c_uint) -> cudaError_t
        => profiler::logs_dump_to_memory(iterator, buffer, size, flags);
    Driver fn cudaLogsRegisterCallback(callbackFunc: cudaLogsCallback_t, userData: *mut c_void,
        callback_out: *mut cudaLogsCallbackHandle) -> cudaError_t
        => profiler::logs_register_callback(callbackFunc, userData, callback_out);
    Driver fn cudaLogsUnregisterCallback(callback: cudaLogsCallbackHandle) -> cudaError_t
        => profiler::logs_unregister_callback(callback);
}
