//! What programs register at load time, and the lazy loading behind it.
//!
//! nvcc's constructors call `__cudaRegisterFatBinary`, then
//! `__cudaRegisterFunction`/`__cudaRegisterVar` per kernel and variable,
//! then `__cudaRegisterFatBinaryEnd`, before `main`. Registration only
//! records addresses and names (borrowed: nvcc keeps the names in the
//! program's read-only data until the fatbin is unregistered, which drops
//! every record of it); it never touches the driver.
//!
//! Cost (10,000 kernels in 100 fatbins: `bench/README.md`): the
//! registering thread appends a fatbin's kernels to the fatbin's own list
//! ([`AppendLog`]: no lock, no allocation but a chunk per 64, 128, ...
//! kernels, recycled from one fatbin to the next); `__cudaRegisterFatBinaryEnd`
//! publishes them in one step under one lock, as one array sorted by host
//! stub, indexed by the 16 KiB granules of the stub addresses it covers
//! (a few entries per fatbin, not one per kernel). Until then look-ups
//! also search the lists of the fatbins still being registered, so a
//! kernel is found from its registration on, from every thread.
//! Unregistration drops the fatbin's array and its granule entries.
//!
//! The driver sees a fatbin the first time one of its kernels or variables
//! is needed: `cuLibraryLoadData` (once per fatbin, shared by every context,
//! since a `CUlibrary` is context-independent), then `cuLibraryGetKernel`
//! per kernel on its first launch, cached for the process (in chunks of
//! 64 slots made on first use: the first kernel of a fatbin of thousands
//! allocates one chunk, not a slot for each). Launch-path
//! look-ups go through a small thread-local cache, so launches from many
//! threads never contend on a lock, hash nothing but one multiply, and
//! allocate nothing.
//!
//! # Rooms
//!
//! This module holds the registry itself ([`Registry`], one lock over
//! every record), what it hands out ([`Fatbin`], [`Kernel`]), the
//! registration entry points nvcc's constructors call, and the look-ups
//! the rest of the crate makes (`crate::registry::...`). Each structure
//! the registry is made of has a file of its own:
//!
//! - `append_log`: [`AppendLog`](append_log::AppendLog), a fatbin's
//!   kernels as its registering thread appends them, before publication;
//! - `slots`: [`OpenSlot`](slots::OpenSlot), each thread's hold on the
//!   fatbin it is registering, the one writer of that fatbin's log;
//! - `kernel_index`: [`Kernels`](kernel_index::Kernels), a fatbin's
//!   published kernels sorted by host stub, with the look-up of a stub's
//!   kernel and the publication of a log into the index;
//! - `owners`: [`Owners`](owners::Owners), the fatbins with kernels in
//!   each 16 KiB granule of host stub addresses;
//! - `kernel_handles`: [`KernelHandles`](kernel_handles::KernelHandles),
//!   the driver's handle of each resolved kernel, and the set of them all;
//! - `launch_cache`: the thread-local launch cache and the launch entry
//!   points that read it;
//! - `vars`: registered variables and the symbol look-ups.
//!
//! Between the files, dependencies run one way, from the structures that
//! combine others to the ones they combine: `kernel_index` uses
//! `append_log`, `owners` and `kernel_handles`; `slots` uses `append_log`;
//! `launch_cache` uses `kernel_handles`; `append_log`, `owners`,
//! `kernel_handles` and `vars` use no sibling. Files use this module's
//! types: `append_log`, `slots` and `kernel_index` take a `&Registry` or
//! `&mut Registry` (the proof of holding its lock), `launch_cache` calls
//! [`kernel_for_stub`] on a miss, `vars` reads the records. This module
//! uses every file, and re-exports the entry points that live in
//! `launch_cache` and `vars`, so the rest of the crate calls them as
//! `crate::registry::...`.
//!
//! The wrapper `__cudaRegisterFatBinary` receives is read with the
//! `fatbin` crate's [`WrapperHeader`] (its layout, magic and version).

mod append_log;
mod kernel_handles;
mod kernel_index;
mod launch_cache;
mod owners;
mod slots;
#[cfg(test)]
mod tests;
mod vars;

pub use launch_cache::{kernel_of_launched, kernels_went_away, launch_function, launch_handle};
pub use vars::{init_module, register_var, symbol, Var};

use crate::abi::cudaError_t;
use crate::addrmap::AddrMap;
use crate::boundary::In;
use crate::driver::{self, CUfunction, CUkernel, CUlibrary};
use crate::trace;
use append_log::{AppendLog, Staged};
use fatbin::container::CONTAINER_MAGIC;
use fatbin::wrapper::{WrapperHeader, WRAPPER_SIZE};
use kernel_handles::{KernelHandles, RESOLVED};
use kernel_index::{find_kernel, publish, Kernels};
use launch_cache::{FUNCTIONS, GENERATION};
use once_cell::sync::Lazy;
use owners::{granule, index_granules, Owners};
use parking_lot::{Mutex, RwLock};
use slots::{Open, OPEN};
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicPtr, AtomicU32, Ordering};
use std::sync::Arc;

/// One registered fatbin (what the driver loads, shared with the threads
/// that load it; the registry keeps the rest of its records).
pub struct Fatbin {
    /// Registration order, for the trace and for precedence (a stub
    /// registered twice is the newer fatbin's).
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
    /// The kernels its registering thread registered, until published.
    staged: AppendLog,
    /// Variables registered for it (for the trace).
    vars: AtomicU32,
    /// When its registration began (only when the trace is on).
    registered: Option<trace::Start>,
}

/// A registered kernel, as look-ups hand it out.
pub struct Kernel {
    fatbin: Arc<Fatbin>,
    stub: usize,
    /// The device name (mangled), in the program's read-only data; valid
    /// while `fatbin` is registered.
    name: usize,
    /// The driver's kernel handle, if already resolved.
    resolved: CUkernel,
}

/// What the registry holds of one fatbin.
struct FatbinRec {
    fatbin: Arc<Fatbin>,
    /// Its published kernels.
    kernels: Kernels,
    /// The driver's handle of each of `kernels` once resolved (without
    /// room until the first one is).
    handles: KernelHandles,
    /// How many of the fatbin's staged kernels are in `kernels`.
    published: usize,
    /// Its keys in the variable map.
    vars: Vec<usize>,
}

impl FatbinRec {
    fn find(&self, stub: usize) -> Option<usize> {
        self.kernels.find(stub)
    }
}

#[derive(Default)]
struct Registry {
    /// Fatbins by key (the handle given to the program).
    fatbins: AddrMap<FatbinRec>,
    /// Granule of host stub addresses -> the fatbins with published
    /// kernels there.
    granules: AddrMap<Owners>,
    vars: AddrMap<Arc<Var>>,
    /// Fatbins whose registering thread may still append kernels, oldest
    /// first: look-ups search their unpublished kernels too.
    open: Vec<usize>,
    next_id: u64,
}

static REGISTRY: Lazy<RwLock<Registry>> = Lazy::new(Default::default);

fn name_of(ptr: usize) -> &'static CStr {
    // SAFETY: `ptr` was checked non-null at registration and points to the
    // registering module's NUL-terminated name, which stays mapped until
    // that module unregisters its fatbin, which removes every record
    // holding the pointer first.
    unsafe { CStr::from_ptr(ptr as *const c_char) }
}

/// Runs an eager load with the thread's stream-capture mode relaxed (and
/// restored afterwards). With `CUDA_MODULE_LOADING=EAGER` the driver's
/// `cuLibraryLoadData` loads into every context at once, which a
/// global-mode capture may refuse as an unsafe call (a fatbin registered
/// by a `dlopen` while a stream captures). A lazy load runs as it is: on
/// the H200 (`bench/probe_load capture`, docs/first-launch.md) the load,
/// the kernel look-up and the first launch into a stream this thread
/// captures in global mode all succeeded and the capture ended with its
/// graph, while the exchange itself cost 7-24 us on a process's first call
/// and 35-58 us on a new thread's: a tenth of a first launch, or more.
fn outside_capture<T>(load: impl FnOnce() -> T) -> T {
    use crate::abi::cudaStreamCaptureMode;
    if !eager() {
        return load();
    }
    let Ok(api) = driver::get() else {
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
            return Ok(CUlibrary::from(lib));
        }
        let _guard = self.load_lock.lock();
        let lib = self.library.load(Ordering::Acquire);
        if !lib.is_null() {
            return Ok(CUlibrary::from(lib));
        }
        let drv = driver::get()?;
        let span = trace::start();
        let mut lib = CUlibrary::null();
        // The image stays mapped until its module unregisters it, and the
        // library is unloaded there first: the driver may read it in place
        // and need not keep a copy of its own (a memory saving; no change
        // in speed measured on the H200, docs/first-launch.md finding 8).
        let mut option = crate::abi::cudaLibraryOption::cudaLibraryBinaryIsPreserved;
        let mut preserved = std::ptr::without_provenance_mut::<c_void>(1);
        let r = outside_capture(|| {
            drv.cuLibraryLoadData(
                &mut lib,
                self.image as *const c_void,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                0,
                (&mut option as *mut crate::abi::cudaLibraryOption).cast(),
                &mut preserved,
                1,
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
            let e = match r {
                // No image for this device in the fatbin; an image the
                // driver cannot use.
                driver::CUresult::ERROR_NO_BINARY_FOR_GPU => {
                    cudaError_t::cudaErrorNoKernelImageForDevice
                }
                driver::CUresult::ERROR_INVALID_IMAGE => cudaError_t::cudaErrorInvalidKernelImage,
                _ => crate::boundary::driver_failed(r),
            };
            if crate::diagnose::enabled() {
                crate::diagnose::load_failed(
                    self.image as *const u8,
                    &trace::origin_of(self.wrapper),
                    e,
                );
            }
            return Err(e);
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
        self.library.store(lib.as_raw(), Ordering::Release);
        Ok(lib)
    }
}

impl Kernel {
    /// The driver kernel handle, resolved on first use.
    /// With the diagnostics on, explains an image the driver refused.
    #[cold]
    pub fn explain_load_failure(&self, e: cudaError_t) {
        if crate::diagnose::enabled() && crate::diagnose::is_image_refusal(e) {
            crate::diagnose::load_failed(
                self.fatbin.image as *const u8,
                &trace::origin_of(self.fatbin.wrapper),
                e,
            );
        }
    }

    pub fn handle(&self) -> Result<CUkernel, cudaError_t> {
        if !self.resolved.is_null() {
            return Ok(self.resolved);
        }
        let lib = self.fatbin.library()?;
        let name = name_of(self.name);
        let span = trace::start();
        let mut h = CUkernel::null();
        let drv = driver::get()?;
        let r = drv.cuLibraryGetKernel(&mut h, lib, name.as_ptr());
        if r != driver::CUresult::SUCCESS {
            let e = match r {
                driver::CUresult::ERROR_NOT_FOUND => cudaError_t::cudaErrorInvalidDeviceFunction,
                _ => crate::boundary::driver_failed(r),
            };
            // With lazy loading the driver checks the image when a kernel
            // is first asked for: "no image" shows up here.
            self.explain_load_failure(e);
            return Err(e);
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
        RESOLVED.write().insert(h.as_raw() as usize);
        self.keep_handle(h);
        Ok(h)
    }

    /// Keeps a resolved handle for the process (while the fatbin is
    /// registered: `self` holds it, so its key names no other fatbin).
    fn keep_handle(&self, h: CUkernel) {
        let key = Arc::as_ptr(&self.fatbin) as usize;
        {
            let reg = REGISTRY.read();
            let Some(rec) = reg.fatbins.get(&key) else {
                return;
            };
            let Some(i) = rec.find(self.stub) else {
                return; // not published yet: found again next time
            };
            if rec.handles.set(i, h) {
                return;
            }
        }
        // The fatbin's first resolved kernel: room for its handles is made.
        let mut reg = REGISTRY.write();
        if let Some(rec) = reg.fatbins.get_mut(&key) {
            if rec.handles.is_empty() {
                rec.handles = KernelHandles::new(rec.kernels.len());
            }
            if let Some(i) = rec.find(self.stub) {
                rec.handles.set(i, h);
            }
        }
    }

    pub fn name(&self) -> &'static CStr {
        name_of(self.name)
    }
}

/// Ends this thread's registration in progress (publishing its kernels),
/// if it is `key`'s, or whichever when `key` is `None`; under the write
/// lock.
fn close_open(reg: &mut Registry, key: Option<usize>) {
    if let Some(open) = OPEN.with(|o| o.take(key)) {
        publish(reg, open.key);
        reg.open.retain(|&k| k != open.key);
        open.release(reg);
    }
}

/// `__cudaRegisterFatBinary`: records the fatbin, returns its handle.
pub fn register_fatbin(wrapper: *const c_void) -> Result<*mut *mut c_void, cudaError_t> {
    let raw = In(wrapper as *const [u8; WRAPPER_SIZE]).read()?;
    // The layout and its checks are the fatbin crate's: the magic and
    // version 1 or 2 (`WrapperHeader::parse`); then a data pointer that is
    // not null and points to a container's magic.
    let Some(w) = WrapperHeader::parse(&raw).ok().filter(|w| w.data != 0) else {
        log::warn!(target: "cudart::lifecycle", "registry: rejected a fatbin wrapper at {wrapper:p} (bad magic or version)");
        return Err(cudaError_t::cudaErrorInvalidKernelImage);
    };
    let container_magic = In(w.data as usize as *const u32).read()?;
    if container_magic != CONTAINER_MAGIC {
        log::warn!(target: "cudart::lifecycle", "registry: fatbin wrapper at {wrapper:p} points to no fatbin container");
        return Err(cudaError_t::cudaErrorInvalidKernelImage);
    }
    let mut reg = REGISTRY.write();
    // A registration this thread left open ends here.
    close_open(&mut reg, None);
    reg.next_id += 1;
    let fatbin = Arc::new(Fatbin {
        id: reg.next_id,
        image: w.data as usize,
        wrapper: wrapper as usize,
        library: AtomicPtr::new(std::ptr::null_mut()),
        load_lock: Mutex::new(()),
        managed: Mutex::new(Vec::new()),
        staged: AppendLog::new(),
        vars: AtomicU32::new(0),
        registered: trace::start(),
    });
    let handle = Arc::as_ptr(&fatbin) as *mut *mut c_void;
    let key = handle as usize;
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
    // This thread appends the fatbin's kernels without the lock until the
    // end of its registration.
    let open = Open {
        key,
        fatbin: fatbin.clone(),
    };
    OPEN.with(|o| o.put(open));
    reg.open.push(key);
    reg.fatbins.insert(
        key,
        FatbinRec {
            fatbin,
            kernels: Kernels::default(),
            handles: KernelHandles::default(),
            published: 0,
            vars: Vec::new(),
        },
    );
    Ok(handle)
}

fn fatbin_of(reg: &Registry, handle: *mut *mut c_void) -> Result<Arc<Fatbin>, cudaError_t> {
    reg.fatbins
        .get(&(handle as usize))
        .map(|r| r.fatbin.clone())
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
    let mut fatbins: Vec<Arc<Fatbin>> = REGISTRY
        .read()
        .fatbins
        .values()
        .map(|r| r.fatbin.clone())
        .collect();
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

/// `__cudaRegisterFatBinaryEnd`: publishes the fatbin's kernels (one lock
/// for all of them); nothing else until the first use (with eager loading
/// and a context already made, the fatbin loads now). The trace's
/// registration span ends here.
pub fn register_fatbin_end(handle: *mut *mut c_void) -> Result<(), cudaError_t> {
    let key = handle as usize;
    let (fb, kernels) = {
        let mut reg = REGISTRY.write();
        close_open(&mut reg, Some(key));
        // Ended from another thread than the registering one: what is
        // staged so far is published; the rest stays searchable.
        publish(&mut reg, key);
        let rec = reg
            .fatbins
            .get(&key)
            .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)?;
        (rec.fatbin.clone(), rec.kernels.len())
    };
    if eager() && crate::context::has_context() {
        let _ = fb.library();
    }
    if fb.registered.is_some() {
        let origin = trace::origin_of(fb.wrapper);
        trace::end!(
            fb.registered,
            "registry",
            format!("registration #{} ({})", fb.id, trace::file_name(&origin)),
            "fatbin #{} of {origin} registered with {kernels} kernel(s) and {} variable(s) (before main if a constructor did it; no driver call, loads on first use)",
            fb.id,
            fb.vars.load(Ordering::Relaxed)
        );
    }
    Ok(())
}

/// `__cudaRegisterFunction`: appended to the fatbin's list by the thread
/// registering it (no lock); otherwise entered at once, under the lock.
#[inline]
pub fn register_function(
    handle: *mut *mut c_void,
    stub: *const c_char,
    name: *const c_char,
) -> Result<(), cudaError_t> {
    if stub.is_null() || name.is_null() {
        return Err(cudaError_t::cudaErrorInvalidValue);
    }
    let k = Staged {
        stub: stub as usize,
        name: name as usize,
    };
    if OPEN.with(|o| o.push(handle as usize, k)) {
        return Ok(());
    }
    register_function_locked(handle as usize, k)
}

#[cold]
#[inline(never)]
fn register_function_locked(key: usize, k: Staged) -> Result<(), cudaError_t> {
    let mut reg = REGISTRY.write();
    let Registry {
        fatbins, granules, ..
    } = &mut *reg;
    let rec = fatbins
        .get_mut(&key)
        .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)?;
    let mut all = rec.kernels.to_vec();
    match all.binary_search_by_key(&k.stub, |x| x.stub) {
        Ok(i) => all[i] = k,
        Err(i) => all.insert(i, k),
    }
    rec.kernels = Kernels::from_sorted(&all);
    rec.handles = KernelHandles::default();
    index_granules(granules, key, std::iter::once(granule(k.stub)));
    Ok(())
}

/// `__cudaUnregisterFatBinary`: forgets the fatbin's records (its own: the
/// cost is its granules and variables, not the process's kernels) and
/// unloads its library (not while the process is exiting: the driver may
/// already be gone, and the process's end frees everything anyway).
pub fn unregister_fatbin(handle: *mut *mut c_void) -> Result<(), cudaError_t> {
    let span = trace::start();
    let key = handle as usize;
    let mut reg = REGISTRY.write();
    let rec = reg
        .fatbins
        .remove(&key)
        .ok_or(cudaError_t::cudaErrorInvalidResourceHandle)?;
    reg.open.retain(|&k| k != key);
    drop(OPEN.with(|o| o.take(Some(key))));
    for g in rec.kernels.granules() {
        if reg.granules.get_mut(&g).is_some_and(|o| o.remove(key)) {
            reg.granules.remove(&g);
        }
    }
    if !rec.handles.is_empty() {
        let mut resolved = RESOLVED.write();
        for h in rec.handles.resolved() {
            resolved.remove(&(h.as_raw() as usize));
        }
    }
    let fb = rec.fatbin;
    for host in rec.vars {
        if reg
            .vars
            .get(&host)
            .is_some_and(|v| Arc::ptr_eq(&v.fatbin, &fb))
        {
            reg.vars.remove(&host);
        }
    }
    GENERATION.fetch_add(1, Ordering::Release);
    FUNCTIONS.lock().clear();
    drop(reg);
    if crate::diagnose::enabled() {
        let origin = trace::origin_of(fb.wrapper);
        let mut list = UNLOADED.lock();
        if !list.contains(&origin) {
            list.push(origin);
        }
    }
    let lib = fb.library.swap(std::ptr::null_mut(), Ordering::AcqRel);
    if !lib.is_null() && !crate::boundary::tearing_down() {
        if let Some(drv) = driver::loaded() {
            // Unregistration runs at exit, possibly after the driver's own
            // shutdown (when the program initialized the driver before the
            // runtime did, no exit watch noticed it): ask first, so a
            // library is never handed to a driver that has shut down.
            if !crate::boundary::driver_has_shut_down(drv)
                && drv.cuLibraryUnload(CUlibrary::from(lib))
                    == driver::CUresult::ERROR_DEINITIALIZED
            {
                crate::boundary::driver_gone();
            }
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
pub fn kernel_for_stub(stub: *const c_void) -> Option<Kernel> {
    find_kernel(&REGISTRY.read(), stub as usize)
}

/// The registered host stub whose kernel resolved to `f` (a function a
/// launch resolved, or a kernel in a function's place), if any: what
/// NVIDIA's runtime reports as a kernel node's `func`, for nodes built from
/// a stub, a `cudaKernel_t` or a capture alike (measured on the H200). A
/// scan of the resolved handles: node-parameter queries are rare, launches
/// never ask.
pub fn stub_for_kernel(f: CUfunction) -> Option<*mut c_void> {
    if f.is_null() {
        return None;
    }
    // A function a launch resolved (a node captured from that launch).
    let k = kernel_of_launched(f);
    let reg = REGISTRY.read();
    let found = reg.fatbins.values().find_map(|rec| {
        let i = rec.handles.position(k)?;
        Some(rec.kernels.get(i).stub as *mut c_void)
    });
    found
}

/// `__cudaGetKernel` / `cudaGetKernel`: the kernel handle for a host stub.
pub fn kernel_of_stub(stub: *const c_void) -> Result<CUkernel, cudaError_t> {
    kernel_for_stub(stub)
        .ok_or_else(|| {
            if crate::diagnose::enabled() {
                crate::diagnose::unknown_function(stub, &unloaded_origins());
            }
            cudaError_t::cudaErrorInvalidDeviceFunction
        })?
        .handle()
}

/// For the diagnostics: the files whose fatbins were unregistered while the
/// process runs (libraries closed with `dlclose`).
static UNLOADED: parking_lot::Mutex<Vec<String>> = parking_lot::Mutex::new(Vec::new());

/// The files unregistered so far (for "invalid device function").
pub fn unloaded_origins() -> Vec<String> {
    UNLOADED.lock().clone()
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
        .filter(|r| !r.fatbin.library.load(Ordering::Relaxed).is_null())
        .count();
    trace::event!(
        "module",
        "context reset: libraries stay",
        "context {ctx:p} resets; {loaded} loaded libraries stay and load again into the next context on use"
    );
}

/// Counts for the trace and tests: (fatbins, kernels, variables), kernels
/// of registrations in progress included.
pub fn counts() -> (usize, usize, usize) {
    let r = REGISTRY.read();
    let kernels: usize = r
        .fatbins
        .values()
        .map(|rec| rec.kernels.len() + rec.fatbin.staged.len().saturating_sub(rec.published))
        .sum();
    (r.fatbins.len(), kernels, r.vars.len())
}
