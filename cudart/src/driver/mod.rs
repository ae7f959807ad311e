//! The driver: `libcuda.so.1`, opened once at first need, and the table of
//! its public entry points, resolved through `cuGetProcAddress_v2` for the
//! CUDA version this runtime implements.
//!
//! Two tables are kept: the default one, and the per-thread-default-stream
//! one (`CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM`) for the `_ptds` and
//! `_ptsz` exports, resolved on first use. A missing driver is the sticky
//! `cudaErrorInsufficientDriver`; a failing `cuInit` is its mapped error
//! (`cudaErrorNoDevice` when no device is visible), sticky as well.
//!
//! The driver's types are declared once, in [`types`] (re-exported here);
//! each table's signatures are recorded as data ([`Signature`],
//! [`tables`]) for the ABI test that holds them against the driver's
//! headers.

#![allow(non_snake_case, non_camel_case_types)]

use crate::abi::cudaError_t;
use once_cell::sync::OnceCell;
use std::ffi::{c_char, c_int, c_uint, c_void};

/// `CUresult`: the driver's error code.
#[repr(transparent)]
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct CUresult(pub i32);

impl CUresult {
    pub const SUCCESS: Self = Self(0);
    pub const ERROR_NOT_INITIALIZED: Self = Self(3);
    pub const ERROR_DEINITIALIZED: Self = Self(4);
    pub const ERROR_INVALID_IMAGE: Self = Self(200);
    pub const ERROR_INVALID_CONTEXT: Self = Self(201);
    pub const ERROR_NO_BINARY_FOR_GPU: Self = Self(209);
    pub const ERROR_NOT_FOUND: Self = Self(500);
    pub const ERROR_NOT_READY: Self = Self(600);

    /// The runtime error a driver error surfaces as: a pure conversion.
    /// The two enumerations share their numbers for every code they both
    /// define; driver codes the runtime has no name for become
    /// `cudaErrorUnknown`.
    pub fn to_runtime(self) -> cudaError_t {
        match self {
            // Driver "not initialized"/"deinitialized" after the runtime
            // initialized it can only mean the driver is shutting down.
            CUresult::ERROR_NOT_INITIALIZED => cudaError_t::cudaErrorInitializationError,
            CUresult::ERROR_DEINITIALIZED => cudaError_t::cudaErrorCudartUnloading,
            // An invalid context from the driver is a device that the
            // runtime has not (or no longer) set up.
            CUresult::ERROR_INVALID_CONTEXT => cudaError_t::cudaErrorDeviceUninitialized,
            CUresult(code) if runtime_defines(code) => cudaError_t(code),
            _ => cudaError_t::cudaErrorUnknown,
        }
    }

    /// The driver's answer as the runtime's: on failure,
    /// [`crate::boundary::driver_failed`] (the error, and teardown when the
    /// driver has shut down). Every call site inlines this; failures go out
    /// of line.
    #[inline]
    pub fn ok(self) -> Result<(), cudaError_t> {
        if self == Self::SUCCESS {
            Ok(())
        } else {
            Err(crate::boundary::driver_failed(self))
        }
    }
}

/// Whether the runtime's enumeration has a value of this number.
fn runtime_defines(code: i32) -> bool {
    cudaError_t::ALL.contains(&cudaError_t(code))
}

pub mod c_names;
pub mod types;
pub use types::*;

/// The driver's structures, as Rust lays them out (for the ABI test).
pub fn layouts() -> &'static [crate::abi::TypeLayout] {
    types::LAYOUTS
}

/// The driver's integer constants the runtime uses, with their values
/// (for the ABI test; the pointer-valued ones are
/// [`types::POINTER_CONSTANTS`]).
pub fn constants() -> &'static [crate::abi::Constant] {
    types::CONSTANTS
}

/// The driver constants the headers of CUDA `version` declare, beyond
/// [`constants`]: those 13.5 added from 13050 on.
pub fn constants_since_13_0(version: c_int) -> &'static [crate::abi::Constant] {
    if version >= 13050 {
        types::CONSTANTS_135
    } else {
        &[]
    }
}

/// The CUDA version whose driver ABI this runtime's tables of CUDA 13.0
/// calls are written against, and the oldest driver it runs on. The
/// entry points CUDA 13.1-13.5 added are resolved for CUDA 13.5 (13050)
/// in tables of their own (`driver/cuda135.rs`): asking for 13.5 in the
/// 13.0 tables would hand out newer ABIs of old names (`cuLaunchHostFunc`
/// takes a fourth argument from 13.1 on). See docs/versions.md.
pub const CUDA_VERSION: c_int = 13000;

pub type GetProcAddress =
    unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> CUresult;

/// One entry point of a `driver_api!` table, as data: its name, the CUDA
/// version it is resolved for, and its parameters' C spellings
/// ([`c_names`]).
pub struct Signature {
    pub name: &'static str,
    pub version: c_int,
    pub params: fn() -> Vec<String>,
}

/// Declares a table of driver entry points: one field per function
/// (resolved by base name with `cuGetProcAddress_v2` for CUDA 13.0, or for
/// the version written after the table's name: `pub struct T @ 13050`;
/// `None` when this driver lacks it) and a safe method of the same name that
/// calls it, answering `CUDA_ERROR_NOT_FOUND` when this driver lacks it. The core table is
/// [`Driver`]; each API family declares its own table in `driver/<family>.rs`
/// and gets it with [`family`], resolved on first use. The table's
/// signatures are kept as data too ([`Table::signatures`]).
macro_rules! driver_api {
    ($(#[$m:meta])* pub struct $table:ident $(@ $ver:literal)? { $( $name:ident $(@ $ev:literal)? ( $($arg:ident : $ty:ty),* $(,)? ); )* }) => {
        $(#[$m])*
        pub struct $table {
            $( pub(crate) $name: Option<unsafe extern "C" fn($($ty),*) -> CUresult>, )*
        }

        impl $crate::driver::Table for $table {
            #[allow(unused_variables)]
            fn resolve(get: $crate::driver::GetProcAddress, flags: u64, driver_version: std::ffi::c_int) -> $table {
                use $crate::driver::{CUresult, CUDA_VERSION};
                use std::ffi::{c_int, c_void};
                let version: c_int = {
                    let v = CUDA_VERSION;
                    $( let v: c_int = $ver; )?
                    v
                };
                $table {
                    $( $name: {
                        let version: c_int = {
                            let v = version;
                            $( let v: c_int = $ev; )?
                            v
                        };
                        let name = concat!(stringify!($name), "\0");
                        let mut pfn: *mut c_void = std::ptr::null_mut();
                        let mut status: c_int = 0;
                        // An entry point newer than the driver is not asked
                        // for: under an old name (`cuLaunchHostFunc`) the
                        // driver would hand out its older ABI.
                        let r = if version > CUDA_VERSION && version > driver_version {
                            CUresult::ERROR_NOT_FOUND
                        } else {
                            // SAFETY: `name` is NUL-terminated, `pfn` and
                            // `status` are valid out-pointers for the call.
                            unsafe {
                                get(name.as_ptr().cast(), &mut pfn, version, flags, &mut status)
                            }
                        };
                        if r == CUresult::SUCCESS && !pfn.is_null() {
                            // SAFETY: the driver returned the entry point of
                            // this name for the table's CUDA version, whose C
                            // signature is the one declared in the table.
                            Some(unsafe {
                                std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($ty),*) -> CUresult>(pfn)
                            })
                        } else {
                            None
                        }
                    }, )*
                }
            }

            fn cells() -> &'static [once_cell::sync::OnceCell<Self>; 2] {
                static CELLS: [once_cell::sync::OnceCell<$table>; 2] =
                    [once_cell::sync::OnceCell::new(), once_cell::sync::OnceCell::new()];
                &CELLS
            }

            #[allow(unused_variables)]
            fn signatures() -> &'static [$crate::driver::Signature] {
                #[allow(unused_imports)]
                use $crate::driver::c_names::CName;
                const TABLE_VERSION: std::ffi::c_int = {
                    let v = $crate::driver::CUDA_VERSION;
                    $( let v: std::ffi::c_int = $ver; )?
                    v
                };
                static SIGNATURES: &[$crate::driver::Signature] = &[
                    $( $crate::driver::Signature {
                        name: stringify!($name),
                        version: {
                            let v = TABLE_VERSION;
                            $( let v: std::ffi::c_int = $ev; )?
                            v
                        },
                        params: || vec![$( <$ty as CName>::c_name() ),*],
                    }, )*
                ];
                SIGNATURES
            }
        }

        impl $table {
            $(
                #[inline(always)]
                // Raw pointers go to the driver, which owns their contract
                // (see the SAFETY note below); these methods never
                // dereference them in Rust.
                #[allow(clippy::too_many_arguments, clippy::not_unsafe_ptr_arg_deref)]
                pub fn $name(&self, $($arg: $ty),*) -> CUresult {
                    match self.$name {
                        // SAFETY: the driver API contract: pointer arguments
                        // come from Rust references or are the caller's own
                        // pointers passed through unchanged, exactly as the
                        // runtime API hands them to the driver; the driver
                        // validates handles and device pointers.
                        Some(f) => unsafe { f($($arg),*) },
                        None => $crate::driver::CUresult::ERROR_NOT_FOUND,
                    }
                }
            )*
        }
    };
}

/// A table of driver entry points declared with `driver_api!`.
pub trait Table: Sized + Send + Sync + 'static {
    /// Resolves every entry point of the table (`driver_version`: what
    /// `cuDriverGetVersion` says; entry points of a later CUDA than it
    /// are left unresolved).
    fn resolve(get: GetProcAddress, flags: u64, driver_version: c_int) -> Self;
    /// The table's two lazily resolved instances: default and per-thread
    /// default stream.
    fn cells() -> &'static [OnceCell<Self>; 2];
    /// The table's entry points as data.
    fn signatures() -> &'static [Signature];
}

/// Every table's entry points, by table name (for the ABI test).
pub fn tables() -> Vec<(&'static str, &'static [Signature])> {
    vec![
        ("Driver", Driver::signatures()),
        ("DeviceApi", device::DeviceApi::signatures()),
        ("GraphApi", graph::GraphApi::signatures()),
        ("InteropApi", interop::InteropApi::signatures()),
        ("LibraryApi", library::LibraryApi::signatures()),
        ("MemoryApi", memory::MemoryApi::signatures()),
        ("ResourceApi", resource::ResourceApi::signatures()),
        ("StreamApi", stream::StreamApi::signatures()),
        ("Api135", cuda135::Api135::signatures()),
    ]
}

// The family tables: each file declares one `driver_api!` table, listed
// in `tables` too (the ABI test checks the tables listed there).
pub mod cuda135;
pub mod device;
pub mod graph;
pub mod interop;
pub mod library;
pub mod memory;
pub mod resource;
pub mod stream;

driver_api! {
    /// The core entry points: devices, contexts, libraries, launches,
    /// memory, streams and events.
    pub struct Driver {
    cuInit(flags: c_uint);
    cuDriverGetVersion(version: *mut c_int);
    cuDeviceGetCount(count: *mut c_int);
    cuDeviceGetName(name: *mut c_char, len: c_int, dev: CUdevice);
    cuDeviceGetUuid(uuid: *mut crate::abi::CUuuid_st, dev: CUdevice);
    cuDeviceGetLuid(luid: *mut c_char, mask: *mut c_uint, dev: CUdevice);
    cuDeviceTotalMem(bytes: *mut usize, dev: CUdevice);
    cuDeviceGetAttribute(value: *mut c_int, attr: c_int, dev: CUdevice);
    cuDeviceGetPCIBusId(id: *mut c_char, len: c_int, dev: CUdevice);
    cuDeviceGetByPCIBusId(dev: *mut CUdevice, id: *const c_char);
    cuDevicePrimaryCtxRetain(ctx: *mut CUcontext, dev: CUdevice);
    cuDevicePrimaryCtxRelease(dev: CUdevice);
    cuDevicePrimaryCtxSetFlags(dev: CUdevice, flags: c_uint);
    cuDevicePrimaryCtxGetState(dev: CUdevice, flags: *mut c_uint, active: *mut c_int);
    cuDevicePrimaryCtxReset(dev: CUdevice);
    cuCtxGetCurrent(ctx: *mut CUcontext);
    cuCtxSetCurrent(ctx: CUcontext);
    // NULL: the current context's id (unique for the process's life).
    cuCtxGetId(ctx: CUcontext, id: *mut u64);
    // cuGetProcAddress for CUDA 13.0 hands out the `_v2` forms of these,
    // which take the context (NULL: the current one) as an extra argument.
    cuCtxGetDevice(dev: *mut CUdevice, ctx: CUcontext);
    cuCtxSynchronize(ctx: CUcontext);
    cuCtxGetFlags(flags: *mut c_uint);
    cuCtxSetLimit(limit: c_int, value: usize);
    cuCtxGetLimit(value: *mut usize, limit: c_int);
    cuCtxGetCacheConfig(config: *mut c_int);
    cuCtxSetCacheConfig(config: c_int);
    cuCtxGetStreamPriorityRange(least: *mut c_int, greatest: *mut c_int);
    cuLibraryLoadData(lib: *mut CUlibrary, code: *const c_void, jit_opts: *mut c_int, jit_vals: *mut *mut c_void, n_jit: c_uint, lib_opts: *mut c_int, lib_vals: *mut *mut c_void, n_lib: c_uint);
    cuLibraryUnload(lib: CUlibrary);
    cuLibraryGetKernel(kernel: *mut CUkernel, lib: CUlibrary, name: *const c_char);
    cuLibraryGetGlobal(dptr: *mut CUdeviceptr, bytes: *mut usize, lib: CUlibrary, name: *const c_char);
    cuLibraryGetManaged(dptr: *mut CUdeviceptr, bytes: *mut usize, lib: CUlibrary, name: *const c_char);
    cuKernelGetFunction(func: *mut CUfunction, kernel: CUkernel);
    cuKernelGetAttribute(value: *mut c_int, attr: c_int, kernel: CUkernel, dev: CUdevice);
    cuKernelSetAttribute(attr: c_int, value: c_int, kernel: CUkernel, dev: CUdevice);
    cuKernelSetCacheConfig(kernel: CUkernel, config: c_int, dev: CUdevice);
    cuKernelGetName(name: *mut *const c_char, kernel: CUkernel);
    cuLaunchKernel(f: CUfunction, gx: c_uint, gy: c_uint, gz: c_uint, bx: c_uint, by: c_uint, bz: c_uint, smem: c_uint, stream: CUstream, params: *mut *mut c_void, extra: *mut *mut c_void);
    cuLaunchKernelEx(config: *const CUlaunchConfig, f: CUfunction, params: *mut *mut c_void, extra: *mut *mut c_void);
    cuMemAlloc(dptr: *mut CUdeviceptr, bytes: usize);
    cuMemFree(dptr: CUdeviceptr);
    cuMemAllocPitch(dptr: *mut CUdeviceptr, pitch: *mut usize, width: usize, height: usize, elem: c_uint);
    cuMemHostAlloc(pp: *mut *mut c_void, bytes: usize, flags: c_uint);
    cuMemFreeHost(p: *mut c_void);
    cuMemHostGetDevicePointer(dptr: *mut CUdeviceptr, p: *mut c_void, flags: c_uint);
    cuMemHostGetFlags(flags: *mut c_uint, p: *mut c_void);
    cuMemAllocManaged(dptr: *mut CUdeviceptr, bytes: usize, flags: c_uint);
    cuMemHostRegister(p: *mut c_void, bytes: usize, flags: c_uint);
    cuMemHostUnregister(p: *mut c_void);
    cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks: *mut c_int, f: CUfunction, block: c_int, smem: usize, flags: c_uint);
    cuMemGetInfo(free: *mut usize, total: *mut usize);
    cuMemGetAddressRange(base: *mut CUdeviceptr, size: *mut usize, dptr: CUdeviceptr);
    cuMemcpy(dst: CUdeviceptr, src: CUdeviceptr, bytes: usize);
    cuMemcpyAsync(dst: CUdeviceptr, src: CUdeviceptr, bytes: usize, stream: CUstream);
    cuMemsetD8(dst: CUdeviceptr, value: u8, n: usize);
    cuMemsetD8Async(dst: CUdeviceptr, value: u8, n: usize, stream: CUstream);
    cuMemsetD2D8(dst: CUdeviceptr, pitch: usize, value: u8, width: usize, height: usize);
    cuPointerGetAttribute(data: *mut c_void, attr: c_int, ptr: CUdeviceptr);
    cuPointerGetAttributes(n: c_uint, attrs: *mut c_int, data: *mut *mut c_void, ptr: CUdeviceptr);
    cuStreamCreate(stream: *mut CUstream, flags: c_uint);
    cuStreamCreateWithPriority(stream: *mut CUstream, flags: c_uint, priority: c_int);
    cuStreamDestroy(stream: CUstream);
    cuStreamSynchronize(stream: CUstream);
    cuStreamQuery(stream: CUstream);
    cuStreamWaitEvent(stream: CUstream, event: CUevent, flags: c_uint);
    cuStreamGetFlags(stream: CUstream, flags: *mut c_uint);
    // In the core table, not the stream family: a kernel's first (lazy)
    // load relaxes the thread's capture mode with it, and resolving the
    // whole stream family there cost the first launch ~20 us on the H200.
    cuThreadExchangeStreamCaptureMode(mode: *mut crate::abi::cudaStreamCaptureMode);
    cuStreamGetPriority(stream: CUstream, priority: *mut c_int);
    cuStreamGetCtx(stream: CUstream, ctx: *mut CUcontext, green: *mut CUgreenCtx);
    cuStreamAddCallback(stream: CUstream, cb: CUstreamCallback, data: *mut c_void, flags: c_uint);
    cuLaunchHostFunc(stream: CUstream, f: CUhostFn, data: *mut c_void);
    cuEventCreate(event: *mut CUevent, flags: c_uint);
    cuEventDestroy(event: CUevent);
    cuEventRecord(event: CUevent, stream: CUstream);
    cuEventRecordWithFlags(event: CUevent, stream: CUstream, flags: c_uint);
    cuEventQuery(event: CUevent);
    cuEventSynchronize(event: CUevent);
    cuEventElapsedTime(ms: *mut f32, start: CUevent, end: CUevent);
    }
}

/// Where the driver comes from: the loaded library stays open for the
/// process (dropping it would unmap code other libraries call into).
struct Loaded {
    _lib: libloading::Library,
    get: GetProcAddress,
    /// `cuDriverGetVersion`.
    version: c_int,
    default: Driver,
}

static DRIVER: OnceCell<Result<Loaded, cudaError_t>> = OnceCell::new();

/// The driver, loaded and initialized (`cuInit(0)`) on first call.
#[inline]
pub fn get() -> Result<&'static Driver, cudaError_t> {
    match DRIVER.get_or_init(load) {
        Ok(l) => Ok(&l.default),
        Err(e) => Err(*e),
    }
}

/// The per-thread-default-stream flavour of the core table (for the
/// `_ptds`/`_ptsz` exports).
pub fn get_per_thread() -> Result<&'static Driver, cudaError_t> {
    family::<Driver>(true)
}

/// A family's table (`per_thread`: the per-thread-default-stream flavour),
/// resolved on first use once the driver is loaded.
#[inline]
pub fn family<T: Table>(per_thread: bool) -> Result<&'static T, cudaError_t> {
    let l = match DRIVER.get_or_init(load) {
        Ok(l) => l,
        Err(e) => return Err(*e),
    };
    let flags = if per_thread {
        CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
    } else {
        CU_GET_PROC_ADDRESS_DEFAULT
    };
    Ok(T::cells()[per_thread as usize].get_or_init(|| T::resolve(l.get, flags, l.version)))
}

/// Whether the driver has been loaded (without loading it).
pub fn loaded() -> Option<&'static Driver> {
    match DRIVER.get() {
        Some(Ok(l)) => Some(&l.default),
        _ => None,
    }
}

/// The driver's version, or 0 when there is no usable driver (never fails:
/// `cudaDriverGetVersion` reports 0 and success without a driver). The
/// driver is asked until it answers; its answer is kept (it cannot change
/// while the process has it loaded), so per-call paths may ask.
pub fn version() -> c_int {
    static KNOWN: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);
    let known = KNOWN.load(std::sync::atomic::Ordering::Relaxed);
    if known != 0 {
        return known;
    }
    let mut v = 0;
    if let Ok(d) = get() {
        if d.cuDriverGetVersion(&mut v) != CUresult::SUCCESS {
            v = 0;
        }
    }
    KNOWN.store(v, std::sync::atomic::Ordering::Relaxed);
    v
}

// Out of line, so that cudart/layout.ld can place it with the rest of the
// first-launch code (`.text.cudart_first`).
#[inline(never)]
fn load() -> Result<Loaded, cudaError_t> {
    let trigger = crate::boundary::current_api();
    crate::trace::event!(
        "driver",
        format!("lazy init: {trigger}"),
        "{trigger} is the first call that needs the driver: loading libcuda.so.1"
    );
    let span = crate::trace::start();
    // SAFETY: loading the system's CUDA driver runs its initializers, which
    // is what every CUDA program does; no Rust invariants depend on them.
    let lib = match unsafe { libloading::Library::new("libcuda.so.1") } {
        Ok(l) => l,
        Err(e) => {
            log::info!(target: "cudart::lifecycle", "driver: libcuda.so.1 not found ({e}): cudaErrorInsufficientDriver, sticky");
            crate::diagnose::driver_not_found(&e.to_string());
            crate::error::set_sticky(cudaError_t::cudaErrorInsufficientDriver);
            return Err(cudaError_t::cudaErrorInsufficientDriver);
        }
    };
    // SAFETY: `cuGetProcAddress_v2` has this C signature in every driver
    // that exports it (CUDA 12.0 and later).
    let get: GetProcAddress = match unsafe { lib.get::<GetProcAddress>(b"cuGetProcAddress_v2\0") } {
        Ok(sym) => *sym,
        Err(_) => {
            log::info!(target: "cudart::lifecycle", "driver: libcuda.so.1 lacks cuGetProcAddress_v2 (older than CUDA 12): cudaErrorInsufficientDriver");
            crate::diagnose::driver_too_old(0);
            crate::error::set_sticky(cudaError_t::cudaErrorInsufficientDriver);
            return Err(cudaError_t::cudaErrorInsufficientDriver);
        }
    };
    let default = Driver::resolve(get, CU_GET_PROC_ADDRESS_DEFAULT, CUDA_VERSION);
    let mut version = 0;
    if default.cuDriverGetVersion(&mut version) != CUresult::SUCCESS || version < CUDA_VERSION {
        log::info!(target: "cudart::lifecycle", "driver: version {version} is older than {CUDA_VERSION}: cudaErrorInsufficientDriver");
        if version == 0 && crate::diagnose::enabled() {
            // Asked for CUDA 13 entry points, an older driver hands out
            // none; its plain export still says which version it is.
            type GetVersion = unsafe extern "C" fn(*mut c_int) -> CUresult;
            // SAFETY: cuDriverGetVersion has had this C signature since
            // CUDA 2.2; it only writes the int it is given.
            if let Ok(f) = unsafe { lib.get::<GetVersion>(b"cuDriverGetVersion\0") } {
                // SAFETY: as above.
                let _ = unsafe { f(&mut version) };
            }
        }
        crate::diagnose::driver_too_old(version);
        crate::error::set_sticky(cudaError_t::cudaErrorInsufficientDriver);
        return Err(cudaError_t::cudaErrorInsufficientDriver);
    }
    // Whether this cuInit is the process's first: before it, every driver
    // call but a few answers CUDA_ERROR_NOT_INITIALIZED. The first cuInit
    // registers the driver's shutdown at exit; the runtime's exit watch goes
    // in just before it (crate::arm_exit_watch).
    let mut count = 0;
    let first_init = default.cuDeviceGetCount(&mut count) == CUresult::ERROR_NOT_INITIALIZED;
    if first_init {
        crate::arm_exit_watch();
    }
    let r = default.cuInit(0);
    if r != CUresult::SUCCESS {
        let e = crate::boundary::driver_failed(r);
        log::info!(target: "cudart::lifecycle", "driver: cuInit failed with {} -> {}, sticky", r.0, e.0);
        crate::diagnose::init_failed(r.0);
        crate::error::set_sticky(e);
        return Err(e);
    }
    crate::trace::end!(
        span,
        "driver",
        "driver init (dlopen libcuda.so.1, cuGetProcAddress_v2, cuInit)",
        "libcuda.so.1 loaded, entry points resolved, cuInit done{}; driver CUDA version {version} (triggered by {trigger})",
        if first_init {
            " (the process's first: the runtime's exit watch runs right after the driver's shutdown)"
        } else {
            " (the driver was already initialized: its shutdown is seen at its first answer \"deinitialized\")"
        }
    );
    Ok(Loaded {
        _lib: lib,
        get,
        version,
        default,
    })
}
