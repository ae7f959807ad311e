//! The core entry points: registration, launches, errors, devices, the
//! basic memory, stream and event calls (the runtime core).

#![allow(non_snake_case, clippy::too_many_arguments)]

use crate::abi::{
    cudaDeviceProp, cudaError_t, cudaEvent_t, cudaFuncAttributes, cudaLaunchConfig_t,
    cudaPointerAttributes, cudaStream_t, dim3, uint3,
};
use crate::boundary::{CStrArg, In, Needs, Out};
use crate::stream::{HostFn, StreamCallback};
use crate::{context, device, error, event, launch, memory, registry, stream};
use std::ffi::{c_char, c_int, c_uint, c_void};

use super::{LEGACY, PT};

entry_points! {
    // Registration (nvcc's constructors): never touches the driver.
    Nothing fn __cudaRegisterFatBinary(fatCubin: *mut c_void) -> *mut *mut c_void => registry::register_fatbin(fatCubin);
    Nothing fn __cudaRegisterFatBinaryEnd(handle: *mut *mut c_void) -> () => registry::register_fatbin_end(handle);
    Nothing fn __cudaUnregisterFatBinary(handle: *mut *mut c_void) -> () => registry::unregister_fatbin(handle);
    Nothing fn __cudaRegisterFunction(handle: *mut *mut c_void, hostFun: *const c_char, deviceFun: *mut c_char,
        deviceName: *const c_char, threadLimit: c_int, tid: *mut uint3, bid: *mut uint3, bDim: *mut dim3,
        gDim: *mut dim3, wSize: *mut c_int) -> () => registry::register_function(handle, hostFun, deviceName);
    Nothing fn __cudaRegisterVar(handle: *mut *mut c_void, hostVar: *mut c_char, deviceAddress: *mut c_char,
        deviceName: *const c_char, ext: c_int, size: usize, constant: c_int, global: c_int) -> ()
        => registry::register_var(handle, hostVar.cast(), deviceName, size, None);
    Nothing fn __cudaRegisterManagedVar(handle: *mut *mut c_void, hostVarPtrAddress: *mut *mut c_void,
        deviceAddress: *mut c_char, deviceName: *const c_char, ext: c_int, size: usize, constant: c_int,
        global: c_int) -> () => registry::register_var(handle, hostVarPtrAddress.cast(), deviceName, size, Some(hostVarPtrAddress));
    Nothing fn __cudaRegisterHostVar(handle: *mut *mut c_void, deviceName: *const c_char, hostVar: *mut c_char,
        size: usize) -> () => registry::register_var(handle, hostVar.cast(), deviceName, size, None);
    Context fn __cudaInitModule(handle: *mut *mut c_void) -> c_char => registry::init_module(handle);
    Nothing fn __cudaRegisterUnifiedTable() -> cudaError_t => Err(cudaError_t::cudaErrorNotSupported);
    Nothing fn __cudaGetProcAddress() -> cudaError_t => Err(cudaError_t::cudaErrorNotSupported);

    // Launch (nvcc's CUDA 13 stubs).
    Nothing fn __cudaPushCallConfiguration(gridDim: dim3, blockDim: dim3, sharedMem: usize, stream: cudaStream_t) -> u32
        => launch::push_config(gridDim, blockDim, sharedMem, stream);
    Nothing fn __cudaPopCallConfiguration(gridDim: Out<dim3>, blockDim: Out<dim3>, sharedMem: Out<usize>,
        stream: Out<cudaStream_t>) -> cudaError_t => launch::pop_config(gridDim, blockDim, sharedMem, stream);
    Nothing fn __cudaGetKernel(kernel: Out<*mut c_void>, hostFun: *const c_void) -> cudaError_t
        => launch::get_kernel_for_stub(kernel, hostFun);
    Launch fn __cudaLaunchKernel(kernel: *const c_void, gridDim: dim3, blockDim: dim3, args: *mut *mut c_void,
        sharedMem: usize, stream: cudaStream_t) -> cudaError_t
        => launch::launch(kernel, gridDim, blockDim, args, sharedMem, stream, LEGACY);
    Launch fn __cudaLaunchKernel_ptsz(kernel: *const c_void, gridDim: dim3, blockDim: dim3, args: *mut *mut c_void,
        sharedMem: usize, stream: cudaStream_t) -> cudaError_t
        => launch::launch(kernel, gridDim, blockDim, args, sharedMem, stream, PT);
    Launch fn cudaLaunchKernel(func: *const c_void, gridDim: dim3, blockDim: dim3, args: *mut *mut c_void,
        sharedMem: usize, stream: cudaStream_t) -> cudaError_t
        => launch::launch(func, gridDim, blockDim, args, sharedMem, stream, LEGACY);
    Launch fn cudaLaunchKernel_ptsz(func: *const c_void, gridDim: dim3, blockDim: dim3, args: *mut *mut c_void,
        sharedMem: usize, stream: cudaStream_t) -> cudaError_t
        => launch::launch(func, gridDim, blockDim, args, sharedMem, stream, PT);
    Launch fn cudaLaunchKernelExC(config: In<cudaLaunchConfig_t>, func: *const c_void, args: *mut *mut c_void) -> cudaError_t
        => launch::launch_ex(config, func, args, LEGACY);
    Launch fn cudaLaunchKernelExC_ptsz(config: In<cudaLaunchConfig_t>, func: *const c_void, args: *mut *mut c_void) -> cudaError_t
        => launch::launch_ex(config, func, args, PT);
    Context fn cudaGetFuncBySymbol(functionPtr: Out<*mut c_void>, symbolPtr: *const c_void) -> cudaError_t
        => launch::get_func_by_symbol(functionPtr, symbolPtr);
    Context fn cudaGetKernel(kernelPtr: Out<*mut c_void>, entryFuncAddr: *const c_void) -> cudaError_t
        => launch::get_kernel(kernelPtr, entryFuncAddr);
    Context fn cudaFuncGetAttributes(attr: Out<cudaFuncAttributes>, func: *const c_void) -> cudaError_t
        => launch::func_get_attributes(attr, func);
    Context fn cudaFuncSetAttribute(func: *const c_void, attr: c_int, value: c_int) -> cudaError_t
        => launch::func_set_attribute(func, attr, value);
    Driver fn cudaFuncGetName(name: Out<*const c_char>, func: *const c_void) -> cudaError_t => launch::func_get_name(name, func);
    Context fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks: Out<c_int>, func: *const c_void, blockSize: c_int,
        dynamicSMemSize: usize) -> cudaError_t => launch::max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, 0);
    Context fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks: Out<c_int>, func: *const c_void,
        blockSize: c_int, dynamicSMemSize: usize, flags: c_uint) -> cudaError_t
        => launch::max_active_blocks(numBlocks, func, blockSize, dynamicSMemSize, flags);
    Context fn cudaFuncSetCacheConfig(func: *const c_void, cacheConfig: c_int) -> cudaError_t
        => launch::func_set_cache_config(func, cacheConfig);

    Context fn cudaFuncGetParamCount(func: *const c_void, paramCount: Out<usize>) -> cudaError_t
        => crate::since135::func_param_count(func, paramCount);
    // Subgrid schedules: a developer preview without public prototypes;
    // the arguments are never read (see since135::subgrid).
    Driver fn cudaSubgridCreate() -> cudaError_t => crate::since135::subgrid();
    Driver fn cudaSubgridWorkerGridCreate() -> cudaError_t => crate::since135::subgrid();
    Driver fn cudaSubgridWorksetCreate() -> cudaError_t => crate::since135::subgrid();

    // Errors.
    LastError fn cudaGetLastError() -> cudaError_t => error::get_last();
    LastError fn cudaPeekAtLastError() -> cudaError_t => error::peek_last();
    Nothing fn cudaGetErrorName(error: cudaError_t) -> *const c_char => error::name(error);
    Nothing fn cudaGetErrorString(error: cudaError_t) -> *const c_char => error::string(error);

    // Versions and devices.
    Nothing fn cudaRuntimeGetVersion(runtimeVersion: Out<c_int>) -> cudaError_t => device::runtime_version(runtimeVersion);
    Nothing fn cudaDriverGetVersion(driverVersion: Out<c_int>) -> cudaError_t => device::driver_version(driverVersion);
    // The count, once known, is answered in every phase (teardown, forked child).
    Nothing fn cudaGetDeviceCount(count: Out<c_int>) -> cudaError_t => context::count_devices(count);
    Driver fn cudaGetDevice(device: Out<c_int>) -> cudaError_t => device.write(context::get_device()?);
    Driver fn cudaSetDevice(device: c_int) -> cudaError_t => context::set_device(device);
    Driver fn cudaGetDeviceProperties(prop: Out<cudaDeviceProp>, device: c_int) -> cudaError_t => device::properties(prop, device);
    Driver fn cudaDeviceGetAttribute(value: Out<c_int>, attr: c_int, device: c_int) -> cudaError_t
        => device::get_attribute(value, attr, device);
    Driver fn cudaDeviceGetPCIBusId(pciBusId: *mut c_char, len: c_int, device: c_int) -> cudaError_t
        => device::pci_bus_id(pciBusId, len, device);
    Driver fn cudaDeviceGetByPCIBusId(device: Out<c_int>, pciBusId: CStrArg) -> cudaError_t
        => device::by_pci_bus_id(device, pciBusId);
    Driver fn cudaSetDeviceFlags(flags: c_uint) -> cudaError_t => context::set_device_flags(flags);
    Driver fn cudaGetDeviceFlags(flags: Out<c_uint>) -> cudaError_t => flags.write(context::get_device_flags()?);
    Driver fn cudaInitDevice(device: c_int, deviceFlags: c_uint, flags: c_uint) -> cudaError_t
        => context::init_device(device, deviceFlags, flags);
    Driver fn cudaSetValidDevices(device_arr: *mut c_int, len: c_int) -> cudaError_t
        => context::set_valid_devices(device_arr, len);
    Driver fn cudaChooseDevice(device: Out<c_int>, prop: In<cudaDeviceProp>) -> cudaError_t
        => context::choose_device(device, prop);
    Context fn cudaDeviceSynchronize() -> cudaError_t => context::synchronize();
    Driver fn cudaDeviceReset() -> cudaError_t => context::reset_device();
    Context fn cudaDeviceSetLimit(limit: c_int, value: usize) -> cudaError_t => device::set_limit(limit, value);
    Context fn cudaDeviceGetLimit(pValue: Out<usize>, limit: c_int) -> cudaError_t => device::get_limit(pValue, limit);
    Context fn cudaDeviceGetCacheConfig(pCacheConfig: Out<c_int>) -> cudaError_t => device::get_cache_config(pCacheConfig);
    Context fn cudaDeviceSetCacheConfig(cacheConfig: c_int) -> cudaError_t => device::set_cache_config(cacheConfig);
    Context fn cudaDeviceGetStreamPriorityRange(leastPriority: Out<c_int>, greatestPriority: Out<c_int>) -> cudaError_t
        => stream::priority_range(leastPriority, greatestPriority);

    // Memory.
    Context fn cudaMalloc(devPtr: Out<*mut c_void>, size: usize) -> cudaError_t => memory::malloc(devPtr, size);
    Context fn cudaFree(devPtr: *mut c_void) -> cudaError_t => memory::free(devPtr);
    Context fn cudaMallocPitch(devPtr: Out<*mut c_void>, pitch: Out<usize>, width: usize, height: usize) -> cudaError_t
        => memory::malloc_pitch(devPtr, pitch, width, height);
    Context fn cudaMallocHost(ptr: Out<*mut c_void>, size: usize) -> cudaError_t => memory::malloc_host(ptr, size);
    Context fn cudaHostAlloc(pHost: Out<*mut c_void>, size: usize, flags: c_uint) -> cudaError_t
        => memory::host_alloc(pHost, size, flags);
    Context fn cudaFreeHost(ptr: *mut c_void) -> cudaError_t => memory::free_host(ptr);
    Context fn cudaHostGetDevicePointer(pDevice: Out<*mut c_void>, pHost: *mut c_void, flags: c_uint) -> cudaError_t
        => memory::host_get_device_pointer(pDevice, pHost, flags);
    Context fn cudaHostRegister(ptr: *mut c_void, size: usize, flags: c_uint) -> cudaError_t => memory::host_register(ptr, size, flags);
    Context fn cudaHostUnregister(ptr: *mut c_void) -> cudaError_t => memory::host_unregister(ptr);
    Context fn cudaHostGetFlags(pFlags: Out<c_uint>, pHost: *mut c_void) -> cudaError_t => memory::host_get_flags(pFlags, pHost);
    Context fn cudaMallocManaged(devPtr: Out<*mut c_void>, size: usize, flags: c_uint) -> cudaError_t
        => memory::malloc_managed(devPtr, size, flags);
    Context fn cudaMemGetInfo(free: Out<usize>, total: Out<usize>) -> cudaError_t => memory::get_info(free, total);
    // Binds no context (NVIDIA's leaves the primary context inactive): the
    // driver answers under UVA without one; should it want one, the call
    // is made again with the thread's context bound.
    Driver fn cudaPointerGetAttributes(attributes: Out<cudaPointerAttributes>, ptr: *const c_void) -> cudaError_t
        => match memory::pointer_get_attributes(attributes, ptr) {
            Err(cudaError_t::cudaErrorDeviceUninitialized) => {
                context::ensure()?;
                memory::pointer_get_attributes(attributes, ptr)
            }
            r => r,
        };
    Context fn cudaMemcpy(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) -> cudaError_t
        => memory::memcpy(dst, src, count, kind, LEGACY);
    Context fn cudaMemcpy_ptds(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) -> cudaError_t
        => memory::memcpy(dst, src, count, kind, PT);
    Context fn cudaMemcpyAsync(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => memory::memcpy_async(dst, src, count, kind, stream, LEGACY);
    Context fn cudaMemcpyAsync_ptsz(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => memory::memcpy_async(dst, src, count, kind, stream, PT);
    Context fn cudaMemcpy2D(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize,
        height: usize, kind: c_int) -> cudaError_t
        => memory::memcpy_2d(dst, dpitch, src, spitch, width, height, kind, None, LEGACY);
    Context fn cudaMemcpy2D_ptds(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize,
        height: usize, kind: c_int) -> cudaError_t
        => memory::memcpy_2d(dst, dpitch, src, spitch, width, height, kind, None, PT);
    Context fn cudaMemcpy2DAsync(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize,
        height: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => memory::memcpy_2d(dst, dpitch, src, spitch, width, height, kind, Some(stream), LEGACY);
    Context fn cudaMemcpy2DAsync_ptsz(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize,
        height: usize, kind: c_int, stream: cudaStream_t) -> cudaError_t
        => memory::memcpy_2d(dst, dpitch, src, spitch, width, height, kind, Some(stream), PT);
    Context fn cudaMemset(devPtr: *mut c_void, value: c_int, count: usize) -> cudaError_t => memory::memset(devPtr, value, count, LEGACY);
    Context fn cudaMemset_ptds(devPtr: *mut c_void, value: c_int, count: usize) -> cudaError_t => memory::memset(devPtr, value, count, PT);
    Context fn cudaMemsetAsync(devPtr: *mut c_void, value: c_int, count: usize, stream: cudaStream_t) -> cudaError_t
        => memory::memset_async(devPtr, value, count, stream, LEGACY);
    Context fn cudaMemsetAsync_ptsz(devPtr: *mut c_void, value: c_int, count: usize, stream: cudaStream_t) -> cudaError_t
        => memory::memset_async(devPtr, value, count, stream, PT);
    Context fn cudaMemset2D(devPtr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize) -> cudaError_t
        => memory::memset_2d(devPtr, pitch, value, width, height, LEGACY);
    Context fn cudaMemset2D_ptds(devPtr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize) -> cudaError_t
        => memory::memset_2d(devPtr, pitch, value, width, height, PT);

    // Symbols.
    Context fn cudaMemcpyToSymbol(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int) -> cudaError_t
        => memory::copy_to_symbol(symbol, src, count, offset, kind, None, LEGACY);
    Context fn cudaMemcpyToSymbol_ptds(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int) -> cudaError_t
        => memory::copy_to_symbol(symbol, src, count, offset, kind, None, PT);
    Context fn cudaMemcpyToSymbolAsync(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int,
        stream: cudaStream_t) -> cudaError_t => memory::copy_to_symbol(symbol, src, count, offset, kind, Some(stream), LEGACY);
    Context fn cudaMemcpyToSymbolAsync_ptsz(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int,
        stream: cudaStream_t) -> cudaError_t => memory::copy_to_symbol(symbol, src, count, offset, kind, Some(stream), PT);
    Context fn cudaMemcpyFromSymbol(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int) -> cudaError_t
        => memory::copy_from_symbol(dst, symbol, count, offset, kind, None, LEGACY);
    Context fn cudaMemcpyFromSymbol_ptds(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int) -> cudaError_t
        => memory::copy_from_symbol(dst, symbol, count, offset, kind, None, PT);
    Context fn cudaMemcpyFromSymbolAsync(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int,
        stream: cudaStream_t) -> cudaError_t => memory::copy_from_symbol(dst, symbol, count, offset, kind, Some(stream), LEGACY);
    Context fn cudaMemcpyFromSymbolAsync_ptsz(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int,
        stream: cudaStream_t) -> cudaError_t => memory::copy_from_symbol(dst, symbol, count, offset, kind, Some(stream), PT);
    Context fn cudaGetSymbolAddress(devPtr: Out<*mut c_void>, symbol: *const c_void) -> cudaError_t
        => memory::symbol_address(devPtr, symbol);
    Context fn cudaGetSymbolSize(size: Out<usize>, symbol: *const c_void) -> cudaError_t => memory::symbol_size(size, symbol);

    // Streams.
    Makes fn cudaStreamCreate(pStream: Out<cudaStream_t>) -> cudaError_t => stream::create(pStream, 0);
    Makes fn cudaStreamCreateWithFlags(pStream: Out<cudaStream_t>, flags: c_uint) -> cudaError_t => stream::create(pStream, flags);
    Makes fn cudaStreamCreateWithPriority(pStream: Out<cudaStream_t>, flags: c_uint, priority: c_int) -> cudaError_t
        => stream::create_with_priority(pStream, flags, priority);
    Context fn cudaStreamDestroy(stream: cudaStream_t) -> cudaError_t => stream::destroy(stream);
    Context fn cudaStreamSynchronize(stream: cudaStream_t) -> cudaError_t => stream::synchronize(stream, LEGACY);
    Context fn cudaStreamSynchronize_ptsz(stream: cudaStream_t) -> cudaError_t => stream::synchronize(stream, PT);
    Context fn cudaStreamQuery(stream: cudaStream_t) -> cudaError_t => stream::query(stream, LEGACY);
    Context fn cudaStreamQuery_ptsz(stream: cudaStream_t) -> cudaError_t => stream::query(stream, PT);
    Context fn cudaStreamWaitEvent(stream: cudaStream_t, event: cudaEvent_t, flags: c_uint) -> cudaError_t
        => stream::wait_event(stream, event, flags, LEGACY);
    Context fn cudaStreamWaitEvent_ptsz(stream: cudaStream_t, event: cudaEvent_t, flags: c_uint) -> cudaError_t
        => stream::wait_event(stream, event, flags, PT);
    Context fn cudaStreamGetFlags(hStream: cudaStream_t, flags: Out<c_uint>) -> cudaError_t => stream::get_flags(hStream, flags, LEGACY);
    Context fn cudaStreamGetFlags_ptsz(hStream: cudaStream_t, flags: Out<c_uint>) -> cudaError_t => stream::get_flags(hStream, flags, PT);
    Context fn cudaStreamGetPriority(hStream: cudaStream_t, priority: Out<c_int>) -> cudaError_t
        => stream::get_priority(hStream, priority, LEGACY);
    Context fn cudaStreamGetPriority_ptsz(hStream: cudaStream_t, priority: Out<c_int>) -> cudaError_t
        => stream::get_priority(hStream, priority, PT);
    Context fn cudaStreamAddCallback(stream: cudaStream_t, callback: StreamCallback, userData: *mut c_void, flags: c_uint) -> cudaError_t
        => stream::add_callback(stream, callback, userData, flags, LEGACY);
    Context fn cudaStreamAddCallback_ptsz(stream: cudaStream_t, callback: StreamCallback, userData: *mut c_void, flags: c_uint) -> cudaError_t
        => stream::add_callback(stream, callback, userData, flags, PT);
    Context fn cudaLaunchHostFunc(stream: cudaStream_t, func: HostFn, userData: *mut c_void) -> cudaError_t
        => stream::launch_host_func(stream, func, userData, LEGACY);
    Context fn cudaLaunchHostFunc_ptsz(stream: cudaStream_t, func: HostFn, userData: *mut c_void) -> cudaError_t
        => stream::launch_host_func(stream, func, userData, PT);

    // Events.
    Makes fn cudaEventCreate(event: Out<cudaEvent_t>) -> cudaError_t => event::create(event, 0);
    Makes fn cudaEventCreateWithFlags(event: Out<cudaEvent_t>, flags: c_uint) -> cudaError_t => event::create(event, flags);
    Context fn cudaEventDestroy(event: cudaEvent_t) -> cudaError_t => event::destroy(event);
    Context fn cudaEventRecord(event: cudaEvent_t, stream: cudaStream_t) -> cudaError_t => event::record(event, stream, LEGACY);
    Context fn cudaEventRecord_ptsz(event: cudaEvent_t, stream: cudaStream_t) -> cudaError_t => event::record(event, stream, PT);
    Context fn cudaEventRecordWithFlags(event: cudaEvent_t, stream: cudaStream_t, flags: c_uint) -> cudaError_t
        => event::record_with_flags(event, stream, flags, LEGACY);
    Context fn cudaEventRecordWithFlags_ptsz(event: cudaEvent_t, stream: cudaStream_t, flags: c_uint) -> cudaError_t
        => event::record_with_flags(event, stream, flags, PT);
    Context fn cudaEventQuery(event: cudaEvent_t) -> cudaError_t => event::query(event);
    Context fn cudaEventSynchronize(event: cudaEvent_t) -> cudaError_t => event::synchronize(event);
    Context fn cudaEventElapsedTime(ms: Out<f32>, start: cudaEvent_t, end: cudaEvent_t) -> cudaError_t
        => event::elapsed_time(ms, start, end);
}
