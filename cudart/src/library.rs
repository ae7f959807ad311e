//! The `cudaLibrary*` functions and driver entry points (`cudaGetDriverEntryPoint*`).
//!
//! A `cudaLibrary_t` is the driver's `CUlibrary` and a `cudaKernel_t` its
//! `CUkernel`, both passed through: a kernel from `cudaLibraryGetKernel`
//! launches with `cudaLaunchKernel` like any other kernel handle. Libraries
//! are context-independent; globals and managed variables are answered for
//! the current context.

use crate::abi::{
    cudaDriverEntryPointQueryResult, cudaError_t, cudaJitOption, cudaKernel_t, cudaLibraryOption,
    cudaLibrary_t,
};
use crate::boundary::{CStrArg, In, Out};
use crate::driver::library::LibraryApi;
use crate::driver::{
    self, CUkernel, CUlibrary, CUresult, CUDA_VERSION, CU_GET_PROC_ADDRESS_LEGACY_STREAM,
    CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
};
use crate::handles::{self, Kind};
use crate::{context, registry};
use std::ffi::{c_int, c_uint, c_void};

/// One option array of `cudaLibraryLoadData`/`cudaLibraryLoadFromFile`:
/// `n` option ids and as many values (each an integer or a pointer, as
/// the option says), handed to the driver unchanged.
pub struct Options<T> {
    pub ids: *mut T,
    pub values: *mut *mut c_void,
    pub n: c_uint,
}

impl<T: Copy> Options<T> {
    /// Both arrays must be there when `n > 0`, and every id must be one
    /// the runtime defines (`known`).
    fn check(&self, known: impl Fn(T) -> bool) -> Result<(), cudaError_t> {
        if self.n == 0 {
            return Ok(());
        }
        if self.ids.is_null() || self.values.is_null() {
            return Err(cudaError_t::cudaErrorInvalidValue);
        }
        for i in 0..self.n as usize {
            let id = In(self.ids.wrapping_add(i).cast_const()).read()?;
            if !known(id) {
                return Err(cudaError_t::cudaErrorInvalidValue);
            }
        }
        Ok(())
    }
}

/// The `cudaJitOption` values (the driver's `CUjit_option` numbers for the
/// options the runtime exposes).
fn known_jit_option(o: cudaJitOption) -> bool {
    matches!(o.0, 0..=7 | 10..=14 | 30..=33)
}

/// The `cudaLibraryOption` values (the driver's `CUlibraryOption`).
fn known_library_option(o: cudaLibraryOption) -> bool {
    o.0 <= cudaLibraryOption::cudaLibraryBinaryIsPreserved.0
}

fn api() -> Result<&'static LibraryApi, cudaError_t> {
    driver::family::<LibraryApi>(false)
}

/// `cudaLibraryLoadData`: a cubin, fatbin or PTX image in memory.
pub fn load_data(
    out: Out<cudaLibrary_t>,
    code: *const c_void,
    jit: Options<cudaJitOption>,
    lib: Options<cudaLibraryOption>,
) -> Result<(), cudaError_t> {
    out.check()?;
    if code.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    jit.check(known_jit_option)?;
    lib.check(known_library_option)?;
    let mut l = CUlibrary::null();
    driver::get()?
        .cuLibraryLoadData(
            &mut l,
            code,
            jit.ids.cast(),
            jit.values,
            jit.n,
            lib.ids.cast(),
            lib.values,
            lib.n,
        )
        .ok()?;
    log::info!(target: "cudart::lifecycle", "library: cudaLibraryLoadData loaded a library");
    handles::made(l.as_raw(), Kind::Library);
    out.write(l.as_raw())
}

/// `cudaLibraryLoadFromFile`: the same, from a file.
pub fn load_from_file(
    out: Out<cudaLibrary_t>,
    file: CStrArg,
    jit: Options<cudaJitOption>,
    lib: Options<cudaLibraryOption>,
) -> Result<(), cudaError_t> {
    out.check()?;
    let name = file.get()?;
    jit.check(known_jit_option)?;
    lib.check(known_library_option)?;
    let mut l = CUlibrary::null();
    api()?
        .cuLibraryLoadFromFile(
            &mut l,
            name.as_ptr(),
            jit.ids,
            jit.values,
            jit.n,
            lib.ids,
            lib.values,
            lib.n,
        )
        .ok()?;
    log::info!(target: "cudart::lifecycle", "library: cudaLibraryLoadFromFile loaded {}", name.to_string_lossy());
    handles::made(l.as_raw(), Kind::Library);
    out.write(l.as_raw())
}

/// A library the runtime unloaded, or a live kernel passed as a library,
/// is refused before the driver reads it (it crashed on both under
/// NVIDIA's runtime on the H200), with `cudaErrorInvalidValue`, NVIDIA's
/// answer where it did not crash.
fn library(lib: cudaLibrary_t) -> Result<CUlibrary, cudaError_t> {
    handles::check_or(
        lib.cast(),
        Kind::Library,
        cudaError_t::cudaErrorInvalidValue,
    )?;
    Ok(CUlibrary::from(lib))
}

/// `cudaLibraryUnload`. The library's kernels die with it: they are
/// recorded as gone (a launch of one is refused) and the threads' launch
/// caches forget them.
pub fn unload(lib: cudaLibrary_t) -> Result<(), cudaError_t> {
    let lib = library(lib)?;
    let drv = driver::get()?;
    let mut kernels = Vec::new();
    if let Ok(api) = api() {
        let mut n = 0;
        if api.cuLibraryGetKernelCount(&mut n, lib) == CUresult::SUCCESS && n > 0 {
            kernels.resize(n as usize, CUkernel::null());
            if api.cuLibraryEnumerateKernels(kernels.as_mut_ptr(), n, lib) != CUresult::SUCCESS {
                kernels.clear();
            }
        }
    }
    let kernels: Vec<*const c_void> = kernels.iter().map(|k| k.as_raw().cast_const()).collect();
    handles::destroy(lib.as_raw(), Kind::Library, || {
        handles::destroy_all(&kernels, Kind::Kernel, || drv.cuLibraryUnload(lib).ok())
    })?;
    registry::kernels_went_away();
    Ok(())
}

/// `cudaLibraryGetKernel`.
pub fn get_kernel(
    out: Out<cudaKernel_t>,
    lib: cudaLibrary_t,
    name: CStrArg,
) -> Result<(), cudaError_t> {
    out.check()?;
    let name = name.get()?;
    let lib = library(lib)?;
    let mut k = CUkernel::null();
    driver::get()?
        .cuLibraryGetKernel(&mut k, lib, name.as_ptr())
        .ok()?;
    handles::made(k.as_raw(), Kind::Kernel);
    out.write(k.as_raw())
}

/// `cudaLibraryGetKernelCount`.
pub fn get_kernel_count(out: Out<c_uint>, lib: cudaLibrary_t) -> Result<(), cudaError_t> {
    out.check()?;
    let lib = library(lib)?;
    let mut n = 0;
    api()?.cuLibraryGetKernelCount(&mut n, lib).ok()?;
    out.write(n)
}

/// `cudaLibraryEnumerateKernels`: up to `n` kernel handles into `kernels`.
pub fn enumerate_kernels(
    kernels: *mut cudaKernel_t,
    n: c_uint,
    lib: cudaLibrary_t,
) -> Result<(), cudaError_t> {
    if kernels.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    api()?
        .cuLibraryEnumerateKernels(kernels.cast(), n, library(lib)?)
        .ok()
}

/// `cudaLibraryGetGlobal`: a `__device__`/`__constant__` variable's address
/// and size in the current context (either out-pointer may be NULL).
pub fn get_global(
    dptr: *mut *mut c_void,
    bytes: *mut usize,
    lib: cudaLibrary_t,
    name: CStrArg,
) -> Result<(), cudaError_t> {
    let name = name.get()?;
    // `void **` and `CUdeviceptr *` both point to 64 bits.
    driver::get()?
        .cuLibraryGetGlobal(dptr.cast(), bytes, library(lib)?, name.as_ptr())
        .ok()
}

/// `cudaLibraryGetManaged`: a `__managed__` variable's address and size.
pub fn get_managed(
    dptr: *mut *mut c_void,
    bytes: *mut usize,
    lib: cudaLibrary_t,
    name: CStrArg,
) -> Result<(), cudaError_t> {
    let name = name.get()?;
    driver::get()?
        .cuLibraryGetManaged(dptr.cast(), bytes, library(lib)?, name.as_ptr())
        .ok()
}

/// `cudaLibraryGetUnifiedFunction`: the host-callable address of a unified
/// function of the library.
pub fn get_unified_function(
    out: Out<*mut c_void>,
    lib: cudaLibrary_t,
    symbol: CStrArg,
) -> Result<(), cudaError_t> {
    out.check()?;
    let symbol = symbol.get()?;
    let mut f = std::ptr::null_mut();
    api()?
        .cuLibraryGetUnifiedFunction(&mut f, library(lib)?, symbol.as_ptr())
        .ok()?;
    out.write(f)
}

/// `cudaKernelSetAttributeForDevice`: the settable `cudaFuncAttribute`s
/// (8 to 15) are the driver's `CUfunction_attribute` numbers. A host stub
/// is accepted too, as for every kernel argument.
pub fn kernel_set_attribute_for_device(
    kernel: cudaKernel_t,
    attr: c_int,
    value: c_int,
    device: c_int,
) -> Result<(), cudaError_t> {
    if !(8..=15).contains(&attr) {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let dev = context::check_device(device)?;
    // A NULL kernel: cudaErrorInvalidResourceHandle, NVIDIA's answer on the
    // H200 (a launch of NULL is cudaErrorInvalidDeviceFunction).
    if kernel.is_null() {
        return Err(cudaError_t::cudaErrorInvalidResourceHandle);
    }
    let k = registry::launch_handle(kernel)?;
    driver::get()?
        .cuKernelSetAttribute(attr, value, k, dev)
        .ok()
}

/// The driver's search flags for the runtime's: `cudaEnableDefault` means
/// the per-thread versions for a per-thread-default-stream build (whose
/// calls arrive at the `_ptsz` export) and the legacy ones otherwise, as
/// the runtime documents; the two explicit flags
/// (`cudaEnableLegacyStream`, `cudaEnablePerThreadDefaultStream`) are the
/// driver's bits (`CU_GET_PROC_ADDRESS_LEGACY_STREAM`,
/// `_PER_THREAD_DEFAULT_STREAM`).
fn proc_address_flags(flags: u64, per_thread: bool) -> Result<u64, cudaError_t> {
    match flags {
        0 if per_thread => Ok(CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
        0 => Ok(CU_GET_PROC_ADDRESS_LEGACY_STREAM),
        CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM => {
            Ok(flags)
        }
        _ => Err(cudaError_t::cudaErrorInvalidValue),
    }
}

/// `cudaGetDriverEntryPoint[ByVersion]` (and `_ptsz`): the driver's
/// `cuGetProcAddress_v2`. `cudaGetDriverEntryPoint`, which takes no
/// version, asks for 13000: the ABIs a program built by nvcc 13.0 was
/// written for, and those of the unversioned `PFN_` names that 13.5's
/// `cudaTypedefs.h` still maps to them (docs/versions.md). A symbol the driver does not have (or not
/// for that version) is success with a NULL pointer and the reason in
/// `status`, as the runtime documents.
pub fn driver_entry_point(
    symbol: CStrArg,
    out: Out<*mut c_void>,
    version: Option<c_uint>,
    flags: u64,
    status: *mut cudaDriverEntryPointQueryResult,
    per_thread: bool,
) -> Result<(), cudaError_t> {
    let symbol = symbol.get()?;
    out.check()?;
    let flags = proc_address_flags(flags, per_thread)?;
    let version = match version {
        Some(v) => c_int::try_from(v).map_err(|_| cudaError_t::cudaErrorInvalidValue)?,
        None => CUDA_VERSION,
    };
    let mut pfn = std::ptr::null_mut();
    let mut st = cudaDriverEntryPointQueryResult::cudaDriverEntryPointSuccess;
    let r = api()?.cuGetProcAddress(symbol.as_ptr(), &mut pfn, version, flags, &mut st);
    let found = match r {
        CUresult::SUCCESS => true,
        CUresult::ERROR_NOT_FOUND => false,
        e => return Err(crate::boundary::driver_failed(e)),
    };
    if !found && st == cudaDriverEntryPointQueryResult::cudaDriverEntryPointSuccess {
        st = cudaDriverEntryPointQueryResult::cudaDriverEntryPointSymbolNotFound;
    }
    out.write(if found { pfn } else { std::ptr::null_mut() })?;
    if !status.is_null() {
        Out(status).write(st)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_flags_follow_the_export_variant() {
        assert_eq!(proc_address_flags(0, false), Ok(1));
        assert_eq!(proc_address_flags(0, true), Ok(2));
        assert_eq!(proc_address_flags(1, true), Ok(1));
        assert_eq!(proc_address_flags(2, false), Ok(2));
        assert_eq!(
            proc_address_flags(3, false),
            Err(cudaError_t::cudaErrorInvalidValue)
        );
    }

    #[test]
    fn option_arrays_are_checked() {
        let none = Options::<cudaJitOption> {
            ids: std::ptr::null_mut(),
            values: std::ptr::null_mut(),
            n: 0,
        };
        assert_eq!(none.check(known_jit_option), Ok(()));
        let missing = Options::<cudaJitOption> { n: 1, ..none };
        assert_eq!(
            missing.check(known_jit_option),
            Err(cudaError_t::cudaErrorInvalidValue)
        );
        let mut ids = [cudaJitOption::cudaJitMaxRegisters, cudaJitOption(9)];
        let mut vals = [std::ptr::null_mut::<c_void>(); 2];
        let one = Options {
            ids: ids.as_mut_ptr(),
            values: vals.as_mut_ptr(),
            n: 1,
        };
        assert_eq!(one.check(known_jit_option), Ok(()));
        // CU_JIT_TARGET (9) is the driver's, not the runtime's.
        let two = Options { n: 2, ..one };
        assert_eq!(
            two.check(known_jit_option),
            Err(cudaError_t::cudaErrorInvalidValue)
        );
    }
}
