//! The fuzz target's driver: the few `libcuda.so.1` entry points the
//! registration path reaches, handed to the runtime through the shim's
//! `cuGetProcAddress_v2` (shim/libcuda_shim.c). Not a driver and not the
//! test double of `abi-tests/driver-double` (whose objects live for the
//! process, so millions of loads would grow it without bound): a small
//! in-process stand-in whose state is bounded, and whose image checks are
//! done with this project's own `fatbin` crate, instrumented like the
//! runtime, so the fuzzer is guided through them too.
//!
//! `cuLibraryLoadData` does what a driver does with the image it is given:
//! takes the container's extent from its header
//! (`fatbin::container_slice_from_ptr`), parses it, picks the entry for
//! the device (`fatbin::select_entry`; the device's compute capability is
//! the one [`set_device_sm`] set for the current input), decompresses it,
//! and lists the kernels and variables of the cubin (or the `.entry`
//! names of PTX). Refusals are the driver's codes: 200 (invalid image),
//! 209 (no image for the device), 500 (no such kernel or variable).
//!
//! Handles are numbers in a range no pointer takes (`HANDLE_BASE`), never
//! reused, so a handle the runtime passes after unloading its library is
//! recognised and reported (a panic, which the fuzzer records as a crash),
//! while a handle never handed out (a host stub the runtime passes through
//! as a kernel handle, as NVIDIA's does) is `CUDA_ERROR_INVALID_HANDLE`.
#![allow(non_snake_case, clippy::missing_safety_doc)]

use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CString};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{LazyLock, Mutex};

type CUresult = c_int;
const SUCCESS: CUresult = 0;
const INVALID_VALUE: CUresult = 1;
const INVALID_DEVICE: CUresult = 101;
const INVALID_IMAGE: CUresult = 200;
const INVALID_CONTEXT: CUresult = 201;
const NO_BINARY_FOR_GPU: CUresult = 209;
const INVALID_HANDLE: CUresult = 400;
const NOT_FOUND: CUresult = 500;

/// Decompressed entries larger than this are refused (as an invalid image).
const DECOMPRESS_LIMIT: u64 = 16 << 20;

/// The device's compute capability as `major * 10 + minor`.
static SM: AtomicU32 = AtomicU32::new(90);

/// Sets the one device's compute capability (for the next loads).
pub fn set_device_sm(sm: u32) {
    SM.store(sm, Ordering::Relaxed);
}

fn sm() -> (u32, u32) {
    let s = SM.load(Ordering::Relaxed);
    (s / 10, s % 10)
}

/// A kernel of a loaded image, with the attributes the driver reports.
pub struct KernelInfo {
    pub name: CString,
    attrs: [c_int; 16],
}

/// What an image holds for the device: its kernels and variables.
pub struct Symbols {
    pub kernels: Vec<KernelInfo>,
    pub vars: Vec<(CString, u64)>,
    /// PTX: variables are not listed, any name is taken.
    any_var: bool,
}

fn clamp(v: u64) -> c_int {
    c_int::try_from(v).unwrap_or(c_int::MAX)
}

/// The `.entry` names of PTX text.
fn ptx_entries(text: &[u8]) -> Vec<CString> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = find(rest, b".entry") {
        rest = &rest[at + 6..];
        let start = rest
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let name: Vec<u8> = rest[start..]
            .iter()
            .copied()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.'))
            .collect();
        if !name.is_empty() {
            out.push(CString::new(name).expect("no NUL in an identifier"));
        }
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// What a driver finds in the container at `image` for the current device.
///
/// # Safety
/// `image` is null or points to a container whose header's extent is
/// readable (the contract of `fatbin::container_slice_from_ptr`), as a
/// registered fatbin is.
pub unsafe fn symbols_at(image: *const u8) -> Result<Symbols, CUresult> {
    // SAFETY: the caller's contract.
    let bytes = unsafe { fatbin::container_slice_from_ptr(image) }.map_err(|_| INVALID_IMAGE)?;
    symbols_of(bytes)
}

/// [`symbols_at`] on a container already in a slice.
pub fn symbols_of(bytes: &[u8]) -> Result<Symbols, CUresult> {
    let fb = fatbin::Fatbin::parse_first(bytes).map_err(|_| INVALID_IMAGE)?;
    let (major, minor) = sm();
    let entry = fatbin::select_entry(&fb, major, minor).map_err(|e| match e {
        fatbin::Error::NoImage(_) => NO_BINARY_FOR_GPU,
        _ => INVALID_IMAGE,
    })?;
    let payload = entry
        .decompress_with_limit(DECOMPRESS_LIMIT)
        .map_err(|_| INVALID_IMAGE)?;
    if entry.kind == fatbin::EntryKind::Ptx {
        let kernels = ptx_entries(&payload)
            .into_iter()
            .map(|name| KernelInfo {
                name,
                attrs: default_attrs(),
            })
            .collect();
        return Ok(Symbols {
            kernels,
            vars: Vec::new(),
            any_var: true,
        });
    }
    let cubin = fatbin::cubin::Cubin::parse(&payload).map_err(|_| INVALID_IMAGE)?;
    let kernels = cubin
        .kernels()
        .map_err(|_| INVALID_IMAGE)?
        .into_iter()
        .filter_map(|k| {
            let mut attrs = default_attrs();
            if let Some(m) = k.max_threads {
                attrs[0] = clamp(u64::from(m[0]) * u64::from(m[1]) * u64::from(m[2]));
            }
            attrs[1] = clamp(k.shared);
            attrs[2] = clamp(k.constant0);
            attrs[3] = clamp(k.local);
            attrs[4] = clamp(u64::from(k.registers.unwrap_or(0)));
            attrs[6] = clamp(u64::from(cubin.sm()));
            Some(KernelInfo {
                name: CString::new(k.name).ok()?,
                attrs,
            })
        })
        .collect();
    let vars = cubin
        .variables()
        .map_err(|_| INVALID_IMAGE)?
        .into_iter()
        .filter_map(|v| Some((CString::new(v.name).ok()?, v.size)))
        .collect();
    Ok(Symbols {
        kernels,
        vars,
        any_var: false,
    })
}

/// CU_FUNC_ATTRIBUTE_* defaults: 1024 threads, 48 KiB dynamic shared.
fn default_attrs() -> [c_int; 16] {
    let mut a = [0; 16];
    a[0] = 1024;
    a[5] = 90;
    a[6] = 90;
    a[8] = 48 << 10;
    a[9] = -1;
    a
}

struct Library {
    symbols: Symbols,
    kernels: Vec<u64>,
}

struct Kernel {
    library: u64,
    index: usize,
    attrs: [c_int; 16],
}

#[derive(Default)]
struct State {
    next: u64,
    libraries: HashMap<u64, Library>,
    kernels: HashMap<u64, Kernel>,
}

static STATE: LazyLock<Mutex<State>> = LazyLock::new(Default::default);

fn state() -> std::sync::MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Handles: `HANDLE_BASE | id << 4 | tag`, a non-canonical address.
const HANDLE_BASE: usize = 0xfe00_0000_0000_0000;
const TAG_LIBRARY: usize = 1;
const TAG_KERNEL: usize = 2;

fn handle(id: u64, tag: usize) -> *mut c_void {
    (HANDLE_BASE | (id as usize) << 4 | tag) as *mut c_void
}

/// The live object a handle names; a handle of this driver whose object
/// is gone panics (the runtime used what it had unloaded).
fn id_of(s: &State, h: *mut c_void, tag: usize, what: &str) -> Option<u64> {
    let h = h as usize;
    if h & 0xff00_0000_0000_0000 != HANDLE_BASE || h & 0xf != tag {
        return None;
    }
    let id = ((h & !HANDLE_BASE) >> 4) as u64;
    let live = match tag {
        TAG_LIBRARY => s.libraries.contains_key(&id),
        _ => s.kernels.contains_key(&id),
    };
    if !live {
        assert!(
            id >= s.next,
            "the runtime used {what} {id} after unloading it"
        );
        return None;
    }
    Some(id)
}

/// Writes `v` to an out-parameter, `CUDA_ERROR_INVALID_VALUE` for null.
/// Safety: `p` is NULL or valid for a write of a `T`.
unsafe fn put<T>(p: *mut T, v: T) -> CUresult {
    if p.is_null() {
        return INVALID_VALUE;
    }
    // SAFETY: the runtime passes valid out-pointers (driver API contract).
    unsafe { p.write(v) };
    SUCCESS
}

/// The primary context (its address is the handle).
static PRIMARY: u8 = 0;

fn primary() -> *mut c_void {
    &PRIMARY as *const u8 as *mut c_void
}

thread_local! {
    static CURRENT: Cell<usize> = const { Cell::new(0) };
    static CAPTURE_MODE: Cell<u32> = const { Cell::new(0) };
}

unsafe extern "C" fn cuInit(_flags: c_uint) -> CUresult {
    SUCCESS
}

unsafe extern "C" fn cuDriverGetVersion(v: *mut c_int) -> CUresult {
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(v, 13000) }
}

unsafe extern "C" fn cuGetErrorName(_e: CUresult, s: *mut *const c_char) -> CUresult {
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(s, c"CUDA_ERROR_FAKE".as_ptr()) }
}

unsafe extern "C" fn cuDeviceGetCount(n: *mut c_int) -> CUresult {
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(n, 1) }
}

unsafe extern "C" fn cuDeviceGet(d: *mut c_int, ordinal: c_int) -> CUresult {
    if ordinal != 0 {
        return INVALID_DEVICE;
    }
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(d, 0) }
}

unsafe extern "C" fn cuDeviceGetAttribute(v: *mut c_int, attr: c_int, dev: c_int) -> CUresult {
    if dev != 0 {
        return INVALID_DEVICE;
    }
    let (major, minor) = sm();
    let value = match attr {
        1 => 1024,            // max threads per block
        2 | 3 => 1024,        // max block x, y
        4 => 64,              // max block z
        5 => i32::MAX,        // max grid x
        6 | 7 => 65535,       // max grid y, z
        8 => 48 << 10,        // shared memory per block
        10 => 32,             // warp size
        16 => 132,            // multiprocessors
        75 => major as c_int, // compute capability
        76 => minor as c_int,
        _ => 0,
    };
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(v, value) }
}

unsafe extern "C" fn cuDevicePrimaryCtxRetain(ctx: *mut *mut c_void, dev: c_int) -> CUresult {
    if dev != 0 {
        return INVALID_DEVICE;
    }
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(ctx, primary()) }
}

unsafe extern "C" fn cuDevicePrimaryCtxRelease(dev: c_int) -> CUresult {
    if dev != 0 {
        return INVALID_DEVICE;
    }
    SUCCESS
}

unsafe extern "C" fn cuDevicePrimaryCtxGetState(
    dev: c_int,
    flags: *mut c_uint,
    active: *mut c_int,
) -> CUresult {
    if dev != 0 {
        return INVALID_DEVICE;
    }
    // SAFETY: the runtime's out-pointers for this call; `put` refuses NULL.
    unsafe {
        let r = put(flags, 0);
        if r != SUCCESS {
            return r;
        }
        put(active, 1)
    }
}

unsafe extern "C" fn cuCtxGetCurrent(ctx: *mut *mut c_void) -> CUresult {
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(ctx, CURRENT.with(|c| c.get()) as *mut c_void) }
}

unsafe extern "C" fn cuCtxSetCurrent(ctx: *mut c_void) -> CUresult {
    if !ctx.is_null() && ctx != primary() {
        return INVALID_CONTEXT;
    }
    CURRENT.with(|c| c.set(ctx as usize));
    SUCCESS
}

unsafe extern "C" fn cuCtxGetDevice(dev: *mut c_int, ctx: *mut c_void) -> CUresult {
    let ctx = if ctx.is_null() {
        CURRENT.with(|c| c.get()) as *mut c_void
    } else {
        ctx
    };
    if ctx != primary() {
        return INVALID_CONTEXT;
    }
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(dev, 0) }
}

unsafe extern "C" fn cuCtxSynchronize(_ctx: *mut c_void) -> CUresult {
    SUCCESS
}

unsafe extern "C" fn cuThreadExchangeStreamCaptureMode(mode: *mut u32) -> CUresult {
    if mode.is_null() {
        return INVALID_VALUE;
    }
    // SAFETY: checked non-null; the runtime passes its own variable.
    unsafe { *mode = CAPTURE_MODE.with(|m| m.replace(*mode)) };
    SUCCESS
}

#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cuLibraryLoadData(
    lib: *mut *mut c_void,
    code: *const c_void,
    _jit_opts: *mut c_int,
    _jit_vals: *mut *mut c_void,
    _n_jit: c_uint,
    _lib_opts: *mut c_int,
    _lib_vals: *mut *mut c_void,
    _n_lib: c_uint,
) -> CUresult {
    if lib.is_null() || code.is_null() {
        return INVALID_VALUE;
    }
    // SAFETY: the runtime passes the image a program registered, whose
    // header's extent is readable (the harness makes it so).
    let symbols = match unsafe { symbols_at(code.cast()) } {
        Ok(s) => s,
        Err(e) => return e,
    };
    let mut s = state();
    s.next += 1;
    let id = s.next;
    s.libraries.insert(
        id,
        Library {
            symbols,
            kernels: Vec::new(),
        },
    );
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(lib, handle(id, TAG_LIBRARY)) }
}

unsafe extern "C" fn cuLibraryUnload(lib: *mut c_void) -> CUresult {
    let mut s = state();
    let Some(id) = id_of(&s, lib, TAG_LIBRARY, "library") else {
        return INVALID_HANDLE;
    };
    let l = s.libraries.remove(&id).expect("live");
    for k in l.kernels {
        s.kernels.remove(&k);
    }
    SUCCESS
}

unsafe extern "C" fn cuLibraryGetKernel(
    out: *mut *mut c_void,
    lib: *mut c_void,
    name: *const c_char,
) -> CUresult {
    if out.is_null() || name.is_null() {
        return INVALID_VALUE;
    }
    let mut s = state();
    let Some(lid) = id_of(&s, lib, TAG_LIBRARY, "library") else {
        return INVALID_HANDLE;
    };
    // SAFETY: the runtime passes a registered, NUL-terminated name.
    let name = unsafe { std::ffi::CStr::from_ptr(name) };
    let l = &s.libraries[&lid];
    let Some(index) = l.symbols.kernels.iter().position(|k| *k.name == *name) else {
        return NOT_FOUND;
    };
    let attrs = l.symbols.kernels[index].attrs;
    // One handle per (library, kernel), as the driver's.
    let existing = l
        .kernels
        .iter()
        .copied()
        .find(|k| s.kernels[k].index == index);
    let id = match existing {
        Some(id) => id,
        None => {
            s.next += 1;
            let id = s.next;
            s.kernels.insert(
                id,
                Kernel {
                    library: lid,
                    index,
                    attrs,
                },
            );
            s.libraries.get_mut(&lid).expect("live").kernels.push(id);
            id
        }
    };
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(out, handle(id, TAG_KERNEL)) }
}

/// A variable's (fake) device address and size.
/// Safety: `dptr` and `bytes` are NULL or valid for a write, `name` NULL or
/// a NUL-terminated string.
unsafe fn library_symbol(
    dptr: *mut u64,
    bytes: *mut usize,
    lib: *mut c_void,
    name: *const c_char,
) -> CUresult {
    if name.is_null() {
        return INVALID_VALUE;
    }
    let s = state();
    let Some(lid) = id_of(&s, lib, TAG_LIBRARY, "library") else {
        return INVALID_HANDLE;
    };
    // SAFETY: as in cuLibraryGetKernel.
    let name = unsafe { std::ffi::CStr::from_ptr(name) };
    let l = &s.libraries[&lid];
    let (index, size) = match l.symbols.vars.iter().position(|v| *v.0 == *name) {
        Some(i) => (i, l.symbols.vars[i].1),
        None if l.symbols.any_var => (l.symbols.vars.len() + name.to_bytes().len(), 256),
        None => return NOT_FOUND,
    };
    // Distinct per (library, variable), in no mapping of this process.
    let addr = HANDLE_BASE as u64 | lid << 24 | (index as u64 & 0xffff) << 8;
    // SAFETY: `dptr` and `bytes` are the caller's out-pointers, each written only when not NULL.
    unsafe {
        if !dptr.is_null() {
            dptr.write(addr);
        }
        if !bytes.is_null() {
            bytes.write(size as usize);
        }
    }
    SUCCESS
}

unsafe extern "C" fn cuLibraryGetGlobal(
    dptr: *mut u64,
    bytes: *mut usize,
    lib: *mut c_void,
    name: *const c_char,
) -> CUresult {
    if CURRENT.with(|c| c.get()) == 0 {
        return INVALID_CONTEXT;
    }
    // SAFETY: the runtime's arguments to cuLibraryGetGlobal/GetManaged, passed on as they came.
    unsafe { library_symbol(dptr, bytes, lib, name) }
}

unsafe extern "C" fn cuLibraryGetManaged(
    dptr: *mut u64,
    bytes: *mut usize,
    lib: *mut c_void,
    name: *const c_char,
) -> CUresult {
    // SAFETY: the runtime's arguments to cuLibraryGetGlobal/GetManaged, passed on as they came.
    unsafe { library_symbol(dptr, bytes, lib, name) }
}

/// The live kernel a handle names (a `CUfunction` is its kernel here).
fn kernel(s: &mut State, k: *mut c_void) -> Option<&mut Kernel> {
    let id = id_of(s, k, TAG_KERNEL, "kernel")?;
    s.kernels.get_mut(&id)
}

unsafe extern "C" fn cuKernelGetFunction(f: *mut *mut c_void, k: *mut c_void) -> CUresult {
    if kernel(&mut state(), k).is_none() {
        return INVALID_HANDLE;
    }
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(f, k) }
}

unsafe extern "C" fn cuKernelGetAttribute(
    v: *mut c_int,
    attr: c_int,
    k: *mut c_void,
    dev: c_int,
) -> CUresult {
    if dev != 0 {
        return INVALID_DEVICE;
    }
    let mut s = state();
    let Some(k) = kernel(&mut s, k) else {
        return INVALID_HANDLE;
    };
    let Some(&value) = usize::try_from(attr).ok().and_then(|a| k.attrs.get(a)) else {
        return INVALID_VALUE;
    };
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(v, value) }
}

unsafe extern "C" fn cuKernelSetAttribute(
    attr: c_int,
    value: c_int,
    k: *mut c_void,
    dev: c_int,
) -> CUresult {
    if dev != 0 {
        return INVALID_DEVICE;
    }
    let mut s = state();
    let Some(k) = kernel(&mut s, k) else {
        return INVALID_HANDLE;
    };
    match attr {
        8 if (0..=232_448).contains(&value) => k.attrs[8] = value,
        9..=15 => k.attrs[attr as usize] = value,
        _ => return INVALID_VALUE,
    }
    SUCCESS
}

unsafe extern "C" fn cuKernelSetCacheConfig(
    k: *mut c_void,
    _config: c_int,
    _dev: c_int,
) -> CUresult {
    if kernel(&mut state(), k).is_none() {
        return INVALID_HANDLE;
    }
    SUCCESS
}

unsafe extern "C" fn cuKernelGetName(name: *mut *const c_char, k: *mut c_void) -> CUresult {
    let mut s = state();
    let Some(k) = kernel(&mut s, k) else {
        return INVALID_HANDLE;
    };
    let (lib, index) = (k.library, k.index);
    let p = s.libraries[&lib].symbols.kernels[index].name.as_ptr();
    // SAFETY: the runtime's out-pointer (driver API contract); `put` refuses NULL.
    unsafe { put(name, p) }
}

#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn cuLaunchKernel(
    f: *mut c_void,
    gx: c_uint,
    gy: c_uint,
    gz: c_uint,
    bx: c_uint,
    by: c_uint,
    bz: c_uint,
    smem: c_uint,
    stream: *mut c_void,
    _params: *mut *mut c_void,
    _extra: *mut *mut c_void,
) -> CUresult {
    if CURRENT.with(|c| c.get()) == 0 {
        return INVALID_CONTEXT;
    }
    let mut s = state();
    let Some(k) = kernel(&mut s, f) else {
        return INVALID_HANDLE;
    };
    if ![0, 1, 2].contains(&(stream as usize)) {
        return INVALID_HANDLE;
    }
    let threads = u64::from(bx) * u64::from(by) * u64::from(bz);
    if gx == 0 || gy == 0 || gz == 0 || threads == 0 || threads > k.attrs[0].max(0) as u64 {
        return INVALID_VALUE;
    }
    if i64::from(smem) > i64::from(k.attrs[8]) {
        return INVALID_VALUE;
    }
    SUCCESS
}

/// The entry points by name, as `cuGetProcAddress_v2` hands them out.
fn entry(name: &[u8]) -> *mut c_void {
    macro_rules! table {
        ($($f:ident),* $(,)?) => {
            match name {
                $( n if n == stringify!($f).as_bytes() => $f as *mut c_void, )*
                _ => std::ptr::null_mut(),
            }
        };
    }
    table!(
        cuInit,
        cuDriverGetVersion,
        cuGetErrorName,
        cuDeviceGetCount,
        cuDeviceGet,
        cuDeviceGetAttribute,
        cuDevicePrimaryCtxRetain,
        cuDevicePrimaryCtxRelease,
        cuDevicePrimaryCtxGetState,
        cuCtxGetCurrent,
        cuCtxSetCurrent,
        cuCtxGetDevice,
        cuCtxSynchronize,
        cuThreadExchangeStreamCaptureMode,
        cuLibraryLoadData,
        cuLibraryUnload,
        cuLibraryGetKernel,
        cuLibraryGetGlobal,
        cuLibraryGetManaged,
        cuKernelGetFunction,
        cuKernelGetAttribute,
        cuKernelSetAttribute,
        cuKernelSetCacheConfig,
        cuKernelGetName,
        cuLaunchKernel,
    )
}

/// `cuGetProcAddress_v2`: found names with status 0; others NULL with
/// status 1 (symbol not found) and `CUDA_SUCCESS`, as the real driver.
pub unsafe extern "C" fn get_proc_address(
    symbol: *const c_char,
    pfn: *mut *mut c_void,
    _version: c_int,
    _flags: u64,
    status: *mut c_int,
) -> CUresult {
    if symbol.is_null() || pfn.is_null() {
        return INVALID_VALUE;
    }
    // SAFETY: the runtime passes NUL-terminated names.
    let name = unsafe { std::ffi::CStr::from_ptr(symbol) };
    let f = entry(name.to_bytes());
    unsafe {
        pfn.write(f);
        if !status.is_null() {
            status.write(if f.is_null() { 1 } else { 0 });
        }
    }
    SUCCESS
}

/// Libraries loaded and not unloaded (for the harness's leak check).
pub fn live_libraries() -> usize {
    state().libraries.len()
}

/// The current thread's context is dropped (between inputs, the runtime
/// binds its primary context again: that path runs every time).
pub fn unbind_thread() {
    CURRENT.with(|c| c.set(0));
}
