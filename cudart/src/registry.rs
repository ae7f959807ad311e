//! What programs register at load time, and the lazy loading behind it.
//!
//! nvcc's constructors call `__cudaRegisterFatBinary`, then
//! `__cudaRegisterFunction`/`__cudaRegisterVar` per kernel and variable,
//! before `main`. Registration only records addresses and names: it never
//! touches the driver, so it costs a hash-map insert per kernel.
//!
//! The driver sees a fatbin the first time one of its kernels or variables
//! is needed: `cuLibraryLoadData` (once per fatbin, shared by every context,
//! since a `CUlibrary` is context-independent), then `cuLibraryGetKernel`
//! per kernel on its first launch, cached for the process. Launch-path
//! look-ups go through a thread-local cache, so launches from many threads
//! never contend on a lock.

use crate::abi::cudaError_t;
use crate::boundary::{In, Out};
use crate::driver::{self, CUdeviceptr, CUkernel, CUlibrary};
use crate::trace;
use once_cell::sync::Lazy;
use parking_lot::{Mutex, RwLock};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

const FATBIN_WRAPPER_MAGIC: u32 = 0x466243B1;
const FATBIN_CONTAINER_MAGIC: u32 = 0xBA55ED50;

/// The 24-byte wrapper nvcc emits in `.nvFatBinSegment`.
#[repr(C)]
#[derive(Copy, Clone)]
struct RawWrapper {
    magic: u32,
    version: u32,
    data: *const c_void,
    prelinked: *const c_void,
}

/// One registered fatbin.
pub struct Fatbin {
    /// Registration order, for the trace.
    pub id: u64,
    /// The container the wrapper points to (the image for the driver).
    image: usize,
    /// The wrapper's address (where the fatbin came from).
    wrapper: usize,
    /// The driver library, once loaded.
    library: AtomicPtr<c_void>,
    load_lock: Mutex<()>,
    /// Managed variables: (host pointer slot, name) to fill on load.
    managed: Mutex<Vec<(usize, usize)>>,
    /// Kernels and variables registered for it (for the trace).
    kernels: AtomicU32,
    vars: AtomicU32,
    /// When its registration began (only when the trace is on).
    registered: Option<trace::Start>,
}

/// One registered kernel: the host stub is the key every launch uses.
pub struct Kernel {
    fatbin: Arc<Fatbin>,
    /// The device name (mangled), in the program's read-only data; valid
    /// until the fatbin is unregistered, when this record goes too.
    name: usize,
    /// The driver's kernel handle, once resolved.
    handle: AtomicPtr<c_void>,
}

/// One registered `__device__`, `__constant__` or `__managed__` variable.
pub struct Var {
    fatbin: Arc<Fatbin>,
    name: usize,
    pub size: usize,
    /// `__managed__`: its address comes from `cuLibraryGetManaged`.
    managed: bool,
}

#[derive(Default)]
struct Registry {
    fatbins: HashMap<usize, Arc<Fatbin>>,
    kernels: HashMap<usize, Arc<Kernel>>,
    vars: HashMap<usize, Arc<Var>>,
    next_id: u64,
}

static REGISTRY: Lazy<RwLock<Registry>> = Lazy::new(Default::default);

/// Bumped whenever records go away, so thread-local caches drop theirs.
static GENERATION: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Launch handle (host stub or kernel handle) -> kernel handle.
    static LAUNCH_CACHE: RefCell<(u64, HashMap<usize, usize>)> = RefCell::new((0, HashMap::new()));
}

fn name_of(ptr: usize) -> &'static CStr {
    // SAFETY: `ptr` was checked non-null at registration and points to the
    // registering module's NUL-terminated name, which stays mapped until
    // that module unregisters its fatbin, which removes every record
    // holding the pointer first.
    unsafe { CStr::from_ptr(ptr as *const c_char) }
}

/// Runs a lazy load with the thread's stream-capture mode relaxed: a
/// kernel launched for the first time inside a global-mode capture must
/// not have its module load refused as an unsafe call (NVIDIA's runtime
/// loads before capture begins; ours loads on first use). The mode is
/// restored afterwards.
fn outside_capture<T>(load: impl FnOnce() -> T) -> T {
    use crate::abi::cudaStreamCaptureMode;
    use crate::driver::stream::StreamApi;
    let Ok(api) = driver::family::<StreamApi>(false) else {
        return load();
    };
    let mut mode = cudaStreamCaptureMode::cudaStreamCaptureModeRelaxed;
    if api.cuThreadExchangeStreamCaptureMode(&mut mode) != driver::CUresult::SUCCESS {
        return load();
    }
    let result = load();
    let _ = api.cuThreadExchangeStreamCaptureMode(&mut mode);
    result
}

impl Fatbin {
    /// The driver library for this fatbin, loaded on first need.
    pub fn library(&self) -> Result<CUlibrary, cudaError_t> {
        let lib = self.library.load(Ordering::Acquire);
        if !lib.is_null() {
            return Ok(lib);
        }
        let _guard = self.load_lock.lock();
        let lib = self.library.load(Ordering::Acquire);
        if !lib.is_null() {
            return Ok(lib);
        }
        let drv = driver::get()?;
        let span = trace::start();
        let mut lib: CUlibrary = std::ptr::null_mut();
        let r = outside_capture(|| {
            drv.cuLibraryLoadData(
                &mut lib,
                self.image as *const c_void,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                0,
            )
        });
        if r != driver::CUresult::SUCCESS {
            trace::end!(
                span,
                "module",
                format!("library load #{} failed", self.id),
                "cuLibraryLoadData of fatbin #{} ({}) failed with {} (needed by {})",
                self.id,
                trace::origin_of(self.wrapper),
                r.0,
                crate::boundary::current_api()
            );
            return Err(match r.0 {
                // No image for this device in the fatbin.
                209 => cudaError_t(209),
                200 => cudaError_t(200),
                _ => r.to_runtime(),
            });
        }
        trace::end!(
            span,
            "module",
            format!(
                "library load #{} ({})",
                self.id,
                trace::file_name(&trace::origin_of(self.wrapper))
            ),
            "cuLibraryLoadData: fatbin #{} of {} loaded as library {lib:p} (first needed by {} on thread {})",
            self.id,
            trace::origin_of(self.wrapper),
            crate::boundary::current_api(),
            trace::thread_label()
        );
        self.library.store(lib, Ordering::Release);
        Ok(lib)
    }
}

impl Kernel {
    /// The driver kernel handle, resolved on first use.
    pub fn handle(&self) -> Result<CUkernel, cudaError_t> {
        let h = self.handle.load(Ordering::Acquire);
        if !h.is_null() {
            return Ok(h);
        }
        let lib = self.fatbin.library()?;
        let name = name_of(self.name);
        let span = trace::start();
        let mut h: CUkernel = std::ptr::null_mut();
        let drv = driver::get()?;
        let r = outside_capture(|| drv.cuLibraryGetKernel(&mut h, lib, name.as_ptr()));
        if r != driver::CUresult::SUCCESS {
            return Err(match r.0 {
                500 => cudaError_t::cudaErrorInvalidDeviceFunction,
                _ => r.to_runtime(),
            });
        }
        trace::end!(
            span,
            "module",
            format!("kernel resolve {}", name.to_string_lossy()),
            "cuLibraryGetKernel: kernel {} resolved to {h:p} from the library of fatbin #{} (by {})",
            name.to_string_lossy(),
            self.fatbin.id,
            crate::boundary::current_api()
        );
        self.handle.store(h, Ordering::Release);
        Ok(h)
    }

    pub fn name(&self) -> &'static CStr {
        name_of(self.name)
    }
}

/// `__cudaRegisterFatBinary`: records the fatbin, returns its handle.
pub fn register_fatbin(wrapper: *const c_void) -> Result<*mut *mut c_void, cudaError_t> {
    let w = In(wrapper as *const RawWrapper).read()?;
    if w.magic != FATBIN_WRAPPER_MAGIC || !(1..=2).contains(&w.version) || w.data.is_null() {
        log::warn!(target: "cudart::lifecycle", "registry: rejected a fatbin wrapper at {wrapper:p} (bad magic or version)");
        return Err(cudaError_t(200));
    }
    let container_magic = In(w.data as *const u32).read()?;
    if container_magic != FATBIN_CONTAINER_MAGIC {
        log::warn!(target: "cudart::lifecycle", "registry: fatbin wrapper at {wrapper:p} points to no fatbin container");
        return Err(cudaError_t(200));
    }
    let mut reg = REGISTRY.write();
    reg.next_id += 1;
    let fatbin = Arc::new(Fatbin {
        id: reg.next_id,
        image: w.data as usize,
        wrapper: wrapper as usize,
        library: AtomicPtr::new(std::ptr::null_mut()),
        load_lock: Mutex::new(()),
        managed: Mutex::new(Vec::new()),
        kernels: AtomicU32::new(0),
        vars: AtomicU32::new(0),
        registered: trace::start(),
    });
    let handle = Arc::as_ptr(&fatbin) as *mut *mut c_void;
    if trace::enabled() && trace::detail() {
        trace::emit_instant(
            "registry",
            &format!("register fatbin #{}", fatbin.id),
            format_args!(
                "__cudaRegisterFatBinary: fatbin #{} (wrapper {wrapper:p}, version {}) from {}",
                fatbin.id,
                w.version,
                trace::origin_of(wrapper as usize)
            ),
        );
    }
    reg.fatbins.insert(handle as usize, fatbin);
    Ok(handle)
}

fn fatbin_of(reg: &Registry, handle: *mut *mut c_void) -> Result<Arc<Fatbin>, cudaError_t> {
    reg.fatbins
        .get(&(handle as usize))
        .cloned()
        .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)
}

/// Whether `CUDA_MODULE_LOADING=EAGER` asks for eager loading (read once).
/// Then every registered fatbin is loaded when the runtime creates its
/// first context, and a fatbin registered later (a `dlopen`) at once, as
/// NVIDIA's runtime does; the default (`LAZY`) loads each on first use.
pub fn eager() -> bool {
    static EAGER: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *EAGER.get_or_init(|| {
        std::env::var("CUDA_MODULE_LOADING").is_ok_and(|v| v.eq_ignore_ascii_case("EAGER"))
    })
}

/// Eager loading: loads every registered fatbin (in registration order).
/// A fatbin that fails to load (no image for this device) reports its
/// error when one of its kernels or variables is used.
pub fn load_all_eagerly() {
    let mut fatbins: Vec<Arc<Fatbin>> = REGISTRY.read().fatbins.values().cloned().collect();
    fatbins.sort_by_key(|f| f.id);
    trace::event!(
        "module",
        "eager loading",
        "CUDA_MODULE_LOADING=EAGER: loading all {} registered fatbin(s) now",
        fatbins.len()
    );
    for fb in fatbins {
        let _ = fb.library();
    }
}

/// `__cudaRegisterFatBinaryEnd`: nothing to do until the first use (with
/// eager loading and a context already made, the fatbin loads now). The
/// trace's registration span ends here.
pub fn register_fatbin_end(handle: *mut *mut c_void) -> Result<(), cudaError_t> {
    let fb = fatbin_of(&REGISTRY.read(), handle)?;
    if eager() && crate::context::has_context() {
        let _ = fb.library();
    }
    if fb.registered.is_some() {
        let origin = trace::origin_of(fb.wrapper);
        trace::end!(
            fb.registered,
            "registry",
            format!("registration #{} ({})", fb.id, trace::file_name(&origin)),
            "fatbin #{} of {origin} registered with {} kernel(s) and {} variable(s) (before main if a constructor did it; no driver call, loads on first use)",
            fb.id,
            fb.kernels.load(Ordering::Relaxed),
            fb.vars.load(Ordering::Relaxed)
        );
    }
    Ok(())
}

/// `__cudaRegisterFunction`.
pub fn register_function(
    handle: *mut *mut c_void,
    stub: *const c_char,
    name: *const c_char,
) -> Result<(), cudaError_t> {
    if stub.is_null() || name.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut reg = REGISTRY.write();
    let fatbin = fatbin_of(&reg, handle)?;
    fatbin.kernels.fetch_add(1, Ordering::Relaxed);
    reg.kernels.insert(
        stub as usize,
        Arc::new(Kernel {
            fatbin,
            name: name as usize,
            handle: AtomicPtr::new(std::ptr::null_mut()),
        }),
    );
    Ok(())
}

/// `__cudaRegisterVar` and `__cudaRegisterManagedVar` (`managed_slot` is
/// the host's `void**` the runtime fills with the managed address).
pub fn register_var(
    handle: *mut *mut c_void,
    host: *const c_void,
    name: *const c_char,
    size: usize,
    managed_slot: Option<*mut *mut c_void>,
) -> Result<(), cudaError_t> {
    if host.is_null() || name.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let mut reg = REGISTRY.write();
    let fatbin = fatbin_of(&reg, handle)?;
    fatbin.vars.fetch_add(1, Ordering::Relaxed);
    if let Some(slot) = managed_slot {
        fatbin.managed.lock().push((slot as usize, name as usize));
    }
    reg.vars.insert(
        host as usize,
        Arc::new(Var {
            fatbin,
            name: name as usize,
            size,
            managed: managed_slot.is_some(),
        }),
    );
    Ok(())
}

/// `__cudaInitModule`: loads the fatbin now and fills its managed
/// variables' host pointers. Returns 1 when the module is ready.
pub fn init_module(handle: *mut *mut c_void) -> Result<c_char, cudaError_t> {
    let fb = fatbin_of(&REGISTRY.read(), handle)?;
    let lib = fb.library()?;
    let drv = driver::get()?;
    for &(slot, name) in fb.managed.lock().iter() {
        let mut dptr: CUdeviceptr = 0;
        let mut size = 0usize;
        drv.cuLibraryGetManaged(&mut dptr, &mut size, lib, name_of(name).as_ptr())
            .ok()?;
        Out(slot as *mut *mut c_void).write(dptr as *mut c_void)?;
        // Host code names a managed variable by its managed address (the
        // slot is dereferenced), so the symbol calls look it up by that too.
        let mut reg = REGISTRY.write();
        if let Some(var) = reg.vars.get(&slot).cloned() {
            reg.vars.insert(dptr as usize, var);
        }
        drop(reg);
        trace::event!(
            "module",
            format!("managed variable {}", name_of(name).to_string_lossy()),
            "managed variable {} of fatbin #{} at {dptr:#x} (eager: __cudaInitModule)",
            name_of(name).to_string_lossy(),
            fb.id
        );
    }
    Ok(1)
}

/// `__cudaUnregisterFatBinary`: forgets the fatbin's records and unloads
/// its library (not while the process is exiting: the driver may already
/// be gone, and the process's end frees everything anyway).
pub fn unregister_fatbin(handle: *mut *mut c_void) -> Result<(), cudaError_t> {
    let span = trace::start();
    let mut reg = REGISTRY.write();
    let fb = reg
        .fatbins
        .remove(&(handle as usize))
        .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)?;
    reg.kernels.retain(|_, k| !Arc::ptr_eq(&k.fatbin, &fb));
    reg.vars.retain(|_, v| !Arc::ptr_eq(&v.fatbin, &fb));
    GENERATION.fetch_add(1, Ordering::Release);
    drop(reg);
    let lib = fb.library.swap(std::ptr::null_mut(), Ordering::AcqRel);
    if !lib.is_null() && !crate::boundary::tearing_down() {
        if let Some(drv) = driver::loaded() {
            let _ = drv.cuLibraryUnload(lib);
        }
    }
    trace::end!(
        span,
        "registry",
        format!(
            "unregister #{} ({})",
            fb.id,
            trace::file_name(&trace::origin_of(fb.wrapper))
        ),
        "__cudaUnregisterFatBinary: fatbin #{} of {} forgotten{}",
        fb.id,
        trace::origin_of(fb.wrapper),
        if lib.is_null() {
            " (never loaded)"
        } else if crate::boundary::tearing_down() {
            " (library left to the driver: teardown has begun)"
        } else {
            ", library unloaded (cuLibraryUnload)"
        }
    );
    Ok(())
}

/// The kernel registered for a host stub.
pub fn kernel_for_stub(stub: *const c_void) -> Option<Arc<Kernel>> {
    REGISTRY.read().kernels.get(&(stub as usize)).cloned()
}

/// The driver kernel to launch for what a program hands over: a host stub
/// (registered), or a kernel handle (`__cudaGetKernel`, `cudaGetKernel`,
/// `cudaLibraryGetKernel`) passed through to the driver as it is.
#[inline]
pub fn launch_handle(h: *const c_void) -> Result<CUkernel, cudaError_t> {
    if h.is_null() {
        return Err(cudaError_t::cudaErrorInvalidDeviceFunction);
    }
    let generation = GENERATION.load(Ordering::Acquire);
    // `try_with`: at exit the thread's cache is destroyed before the exit
    // handlers run (glibc), and launches from there take the slow path.
    let hit = LAUNCH_CACHE
        .try_with(|c| {
            let mut c = c.borrow_mut();
            if c.0 != generation {
                c.1.clear();
                c.0 = generation;
            }
            c.1.get(&(h as usize)).copied()
        })
        .ok()
        .flatten();
    if let Some(k) = hit {
        return Ok(k as CUkernel);
    }
    let k = match kernel_for_stub(h) {
        Some(kernel) => kernel.handle()?,
        None => h as CUkernel,
    };
    let _ = LAUNCH_CACHE.try_with(|c| c.borrow_mut().1.insert(h as usize, k as usize));
    Ok(k)
}

/// The registered host stub whose kernel resolved to `k`, if any: what
/// NVIDIA's runtime reports as a kernel node's `func`, for nodes built from
/// a stub, a `cudaKernel_t` or a capture alike (measured on the H200). A
/// scan: node-parameter queries are rare, launches never ask.
pub fn stub_for_kernel(k: CUkernel) -> Option<*mut c_void> {
    if k.is_null() {
        return None;
    }
    REGISTRY
        .read()
        .kernels
        .iter()
        .find(|(_, kernel)| kernel.handle.load(Ordering::Acquire) == k)
        .map(|(&stub, _)| stub as *mut c_void)
}

/// `__cudaGetKernel` / `cudaGetKernel`: the kernel handle for a host stub.
pub fn kernel_of_stub(stub: *const c_void) -> Result<CUkernel, cudaError_t> {
    kernel_for_stub(stub)
        .ok_or(cudaError_t::cudaErrorInvalidDeviceFunction)?
        .handle()
}

/// A registered variable's device address and size in the current context.
pub fn symbol(host: *const c_void) -> Result<(CUdeviceptr, usize), cudaError_t> {
    let var = REGISTRY
        .read()
        .vars
        .get(&(host as usize))
        .cloned()
        .ok_or(cudaError_t::cudaErrorInvalidSymbol)?;
    let lib = var.fatbin.library()?;
    let mut dptr: CUdeviceptr = 0;
    let mut size = 0usize;
    let drv = driver::get()?;
    let name = name_of(var.name).as_ptr();
    if var.managed {
        drv.cuLibraryGetManaged(&mut dptr, &mut size, lib, name)
    } else {
        drv.cuLibraryGetGlobal(&mut dptr, &mut size, lib, name)
    }
    .ok()
    .map_err(|e| {
        if e.0 == 500 {
            cudaError_t::cudaErrorInvalidSymbol
        } else {
            e
        }
    })?;
    Ok((dptr, size))
}

/// Called by `cudaDeviceReset` before the primary context goes: libraries
/// are context-independent, so kernels stay valid and reload lazily.
pub fn before_context_reset(ctx: *mut c_void) {
    if !trace::enabled() {
        return;
    }
    let loaded = REGISTRY
        .read()
        .fatbins
        .values()
        .filter(|f| !f.library.load(Ordering::Relaxed).is_null())
        .count();
    trace::event!(
        "module",
        "context reset: libraries stay",
        "context {ctx:p} resets; {loaded} loaded libraries stay and load again into the next context on use"
    );
}

/// Counts for the trace and tests: (fatbins, kernels, variables).
pub fn counts() -> (usize, usize, usize) {
    let r = REGISTRY.read();
    (r.fatbins.len(), r.kernels.len(), r.vars.len())
}

/// Used by `cudaFuncGetAttributes` and friends on a device ordinal.
pub fn device_of_current() -> c_int {
    crate::context::current_device()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal fatbin: a container header with no entries.
    static CONTAINER: [u32; 4] = [FATBIN_CONTAINER_MAGIC, 0x0010_0001, 0, 0];

    fn wrapper(magic: u32) -> RawWrapper {
        RawWrapper {
            magic,
            version: 1,
            data: CONTAINER.as_ptr().cast(),
            prelinked: std::ptr::null(),
        }
    }

    static NAME: &[u8] = b"_Z6kernelv\0";
    static STUB: u8 = 0;
    static VAR: u32 = 0;

    #[test]
    fn registration_records_without_a_driver_and_unregisters() {
        let w = wrapper(FATBIN_WRAPPER_MAGIC);
        let h = register_fatbin(&w as *const RawWrapper as *const c_void).unwrap();
        let stub = &STUB as *const u8 as *const c_char;
        register_function(h, stub, NAME.as_ptr().cast()).unwrap();
        register_var(
            h,
            (&VAR as *const u32).cast(),
            NAME.as_ptr().cast(),
            4,
            None,
        )
        .unwrap();
        register_fatbin_end(h).unwrap();
        assert!(
            driver::loaded().is_none(),
            "registration must not load the driver"
        );
        let k = kernel_for_stub(stub.cast()).expect("kernel registered");
        assert_eq!(k.name().to_bytes(), b"_Z6kernelv");
        unregister_fatbin(h).unwrap();
        assert!(kernel_for_stub(stub.cast()).is_none());
        assert_eq!(
            unregister_fatbin(h),
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        );
    }

    #[test]
    fn bad_wrappers_and_foreign_handles_are_errors() {
        let w = wrapper(0xdead_beef);
        assert!(register_fatbin(&w as *const RawWrapper as *const c_void).is_err());
        assert_eq!(
            register_fatbin(std::ptr::null()),
            Err(cudaError_t::cudaErrorInvalidValue)
        );
        let foreign = 0x1000 as *mut *mut c_void;
        assert_eq!(
            register_function(
                foreign,
                &STUB as *const u8 as *const c_char,
                NAME.as_ptr().cast()
            ),
            Err(cudaError_t::cudaErrorInvalidResourceHandle)
        );
    }
}
