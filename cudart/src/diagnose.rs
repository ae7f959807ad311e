//! Diagnostics: why a load or a launch failed, in words.
//!
//! NVIDIA's runtime answers the most common failures with a bare code. With
//! `CUDART_DIAGNOSTICS=1` in the environment, ours keeps the same codes and
//! also prints one message per failure on stderr (and into the lifecycle
//! trace, room `diagnostic`), naming the facts that decide it and what to
//! do. Off by default: program output stays identical to NVIDIA's.
//!
//! Every function here runs on an error path only (cold), never on the
//! path of a call that succeeds; the facts are gathered when the message
//! is written (device limits and kernel attributes from the driver, the
//! fatbin's entries from the `fatbin` crate, the loader's view from
//! `dladdr`). The pure part of each explanation (`explain_*`) takes plain
//! data and is unit-tested.

use crate::abi::{cudaError_t, dim3};
use crate::driver::{self, CUkernel};
use std::ffi::{c_int, c_void, CStr};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// Whether `CUDART_DIAGNOSTICS` asks for messages (read once).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("CUDART_DIAGNOSTICS")
            .map(|v| !v.is_empty() && v != "0")
            .unwrap_or(false)
    })
}

thread_local! {
    /// Explanations gathered during the current call, written when the
    /// call returns its error (the boundary knows the call's name).
    static PENDING: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Notes one explanation for the failing call.
fn say(text: String) {
    let _ = PENDING.try_with(|p| p.borrow_mut().push(text));
}

/// Called by the boundary when a call returns an error (only with
/// diagnostics on): writes what was gathered, one line each, to stderr,
/// the trace and the log.
#[cold]
#[inline(never)]
pub fn flush(api: &str, e: cudaError_t) {
    note_fault(api, e);
    let msgs = PENDING
        .try_with(|p| std::mem::take(&mut *p.borrow_mut()))
        .unwrap_or_default();
    for text in msgs {
        let line = format!(
            "cudart diagnostic: {api} -> {}: {text}",
            e.name().to_string_lossy()
        );
        eprintln!("{line}");
        crate::trace::event!(
            "diagnostic",
            format!("{api}: {}", e.name().to_string_lossy()),
            "{text}"
        );
        log::warn!(target: "cudart::diagnostic", "{line}");
    }
}

// ---------------------------------------------------------------- driver

/// Directories the dynamic loader searches for `libcuda.so.1` besides the
/// ld.so cache, in its order (x86-64 Debian/Ubuntu and Red Hat layouts).
const DEFAULT_DIRS: &[&str] = &[
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib64",
    "/usr/lib64",
    "/lib",
    "/usr/lib",
];

/// `libcuda.so.1` could not be opened.
pub fn driver_not_found(dlerror: &str) {
    if !enabled() {
        return;
    }
    let ld_path = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
    let mut dirs: Vec<String> = ld_path
        .split(':')
        .filter(|d| !d.is_empty())
        .map(str::to_owned)
        .collect();
    dirs.extend(DEFAULT_DIRS.iter().map(|d| d.to_string()));
    dirs.extend(
        ["/usr/local/nvidia/lib64", "/usr/lib/wsl/lib"]
            .iter()
            .map(|d| d.to_string()),
    );
    let found: Vec<String> = dirs
        .iter()
        .map(|d| format!("{d}/libcuda.so.1"))
        .filter(|p| std::path::Path::new(p).exists())
        .collect();
    let in_cache = std::fs::read("/etc/ld.so.cache")
        .map(|c| c.windows(12).any(|w| w == b"libcuda.so.1"))
        .unwrap_or(false);
    say(explain_driver_not_found(
        dlerror, &ld_path, in_cache, &found,
    ));
}

pub fn explain_driver_not_found(
    dlerror: &str,
    ld_library_path: &str,
    in_cache: bool,
    found: &[String],
) -> String {
    let mut s = format!(
        "the NVIDIA driver's library libcuda.so.1 could not be loaded ({dlerror}). \
         The loader looked in LD_LIBRARY_PATH ({}), the ld.so cache ({}) and the \
         default directories ({}). ",
        if ld_library_path.is_empty() {
            "unset"
        } else {
            ld_library_path
        },
        if in_cache {
            "it lists libcuda.so.1"
        } else {
            "no libcuda.so.1 listed"
        },
        DEFAULT_DIRS.join(", ")
    );
    if found.is_empty() {
        s.push_str(
            "No libcuda.so.1 exists in any of them: install the NVIDIA driver \
             (R580 or later for CUDA 13), or in a container run with the NVIDIA \
             container toolkit (docker --gpus all) so the driver is mounted.",
        );
    } else {
        let _ = write!(
            s,
            "It exists at {} but could not be loaded: a 32-bit or broken copy, \
             or a driver library older than the kernel module.",
            found.join(", ")
        );
    }
    s
}

/// The driver is older than CUDA 13.0 (or lacks `cuGetProcAddress_v2`).
pub fn driver_too_old(version: c_int) {
    if enabled() {
        say(explain_driver_too_old(version));
    }
}

pub fn explain_driver_too_old(version: c_int) -> String {
    if version <= 0 {
        return "the installed libcuda.so.1 is older than CUDA 12 (it lacks \
                cuGetProcAddress_v2); this runtime needs a CUDA 13.0 driver (R580 or later)"
            .into();
    }
    format!(
        "the installed driver supports CUDA {}.{}; this runtime (CUDA 13.0) needs \
         a driver that supports 13.0 or later (R580 or later): update the driver, \
         or use a runtime no newer than the driver",
        version / 1000,
        version % 1000 / 10
    )
}

/// `cuInit` failed.
pub fn init_failed(code: i32) {
    if !enabled() {
        return;
    }
    let visible = std::env::var("CUDA_VISIBLE_DEVICES").ok();
    let nodes = device_nodes();
    say(explain_init_failed(code, visible.as_deref(), &nodes));
}

/// `/dev/nvidia*`: (path, readable and writable by this process).
fn device_nodes() -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> = std::fs::read_dir("/dev")
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("nvidia"))
                })
                .map(|p| {
                    let ok = access_rw(&p);
                    (p.display().to_string(), ok)
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn access_rw(p: &std::path::Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(p.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a NUL-terminated path; access only reads it.
    unsafe { libc::access(c.as_ptr(), libc::R_OK | libc::W_OK) == 0 }
}

pub fn explain_init_failed(code: i32, visible: Option<&str>, nodes: &[(String, bool)]) -> String {
    let mut s = format!("cuInit failed with driver error {code}. ");
    match visible {
        Some(v) if v.trim().is_empty() || v.trim() == "-1" || v.trim() == "none" => {
            let _ = write!(
                s,
                "CUDA_VISIBLE_DEVICES is set to \"{v}\", which hides every GPU. "
            );
        }
        Some(v) => {
            let _ = write!(
                s,
                "CUDA_VISIBLE_DEVICES is \"{v}\": only those devices are visible (an index past \
                 the last GPU, or an unknown UUID, hides all of them). "
            );
        }
        None => s.push_str("CUDA_VISIBLE_DEVICES is unset (every GPU is visible). "),
    }
    if nodes.is_empty() {
        s.push_str(
            "There are no /dev/nvidia* device nodes: the kernel module is not loaded, or \
             this container was started without the GPU devices.",
        );
    } else {
        let denied: Vec<&str> = nodes
            .iter()
            .filter(|(_, ok)| !ok)
            .map(|(p, _)| p.as_str())
            .collect();
        if denied.is_empty() {
            let _ = write!(
                s,
                "The device nodes ({}) are readable and writable by this process.",
                nodes.len()
            );
        } else {
            let _ = write!(
                s,
                "This process may not open {}: add the user to the group that owns them \
                 (often `video`) or fix their permissions.",
                denied.join(", ")
            );
        }
    }
    s
}

// ---------------------------------------------------------------- images

/// The entries of a registered fatbin image, as "cubin sm_90" / "PTX
/// compute_90 (ISA 9.0)".
pub struct ImageEntry {
    pub ptx: bool,
    pub arch: u32,
    pub version: (u16, u16),
}

/// The fatbin image nvcc registered, as a slice.
fn image_entries(image: *const u8) -> Option<Vec<ImageEntry>> {
    if image.is_null() {
        return None;
    }
    // SAFETY: `image` is a fatbin image the program registered: nvcc emits
    // its 16-byte header (magic, version, header size, payload size)
    // followed by the payload, all in the program's read-only data, mapped
    // while the fatbin is registered.
    let header = unsafe { std::slice::from_raw_parts(image, 16) };
    if header[0..4] != [0x50, 0xed, 0x55, 0xba] {
        return None;
    }
    let hsize = u16::from_le_bytes([header[6], header[7]]) as usize;
    let size = u64::from_le_bytes(header[8..16].try_into().ok()?) as usize;
    let total = hsize.checked_add(size)?;
    if total > (1 << 31) {
        return None;
    }
    // SAFETY: as above; the header says how long the image is.
    let data = unsafe { std::slice::from_raw_parts(image, total) };
    let fb = fatbin::Fatbin::parse_first(data).ok()?;
    Some(
        fb.entries()
            .filter_map(|e| e.ok())
            .filter_map(|e| match e.kind {
                fatbin::EntryKind::Ptx => Some((true, e)),
                fatbin::EntryKind::Cubin => Some((false, e)),
                _ => None,
            })
            .map(|(ptx, e)| ImageEntry {
                ptx,
                arch: e.arch,
                version: (e.version_major, e.version_minor),
            })
            .collect(),
    )
}

fn device_sm(dev: c_int) -> Option<u32> {
    let drv = driver::get().ok()?;
    let (mut major, mut minor) = (0, 0);
    drv.cuDeviceGetAttribute(&mut major, 75, dev).ok().ok()?;
    drv.cuDeviceGetAttribute(&mut minor, 76, dev).ok().ok()?;
    Some((major * 10 + minor) as u32)
}

fn driver_version() -> c_int {
    let mut v = 0;
    if let Ok(drv) = driver::get() {
        let _ = drv.cuDriverGetVersion(&mut v);
    }
    v
}

/// `cuLibraryLoadData` of a registered fatbin failed.
pub fn load_failed(image: *const u8, origin: &str, e: cudaError_t) {
    if !enabled() {
        return;
    }
    let dev = crate::context::current_device();
    let sm = device_sm(dev);
    let entries = image_entries(image);
    let text = explain_load_failed(e, dev, sm, origin, entries.as_deref(), driver_version());
    say(text);
}

/// The highest PTX ISA a driver of CUDA `version` compiles (PTX ISA
/// release notes: CUDA 12.0 brought ISA 8.0, ... 13.0 brought 9.0).
fn max_ptx_isa(version: c_int) -> Option<(u16, u16)> {
    Some(match version / 10 {
        ..=1199 => return None,
        1200 => (8, 0),
        1201 => (8, 1),
        1202 => (8, 2),
        1203 => (8, 3),
        1204 => (8, 4),
        1205 | 1206 => (8, 5),
        1207 | 1208 => (8, 7),
        1209 => (8, 8),
        1300 => (9, 0),
        _ => return None,
    })
}

fn describe(entries: &[ImageEntry]) -> String {
    if entries.is_empty() {
        return "no cubin and no PTX".into();
    }
    entries
        .iter()
        .map(|e| {
            if e.ptx {
                format!(
                    "PTX compute_{} (ISA {}.{})",
                    e.arch, e.version.0, e.version.1
                )
            } else {
                format!("cubin sm_{}", e.arch)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn explain_load_failed(
    e: cudaError_t,
    dev: c_int,
    sm: Option<u32>,
    origin: &str,
    entries: Option<&[ImageEntry]>,
    driver: c_int,
) -> String {
    let held = entries.map_or_else(|| "entries unreadable".to_string(), describe);
    let smtext = sm.map_or_else(
        || "of unknown compute capability".to_string(),
        |s| format!("sm_{s} (compute capability {}.{})", s / 10, s % 10),
    );
    let mut s = format!(
        "the kernels registered by {origin} could not be loaded on device {dev}, an {smtext}. \
         Its fatbin holds: {held}. "
    );
    match (e, sm) {
        (cudaError_t::cudaErrorUnsupportedPtxVersion, _) => {
            let newest = entries
                .into_iter()
                .flatten()
                .filter(|x| x.ptx)
                .map(|x| x.version)
                .max();
            let _ = write!(
                s,
                "The PTX was written by a newer nvcc than the driver can compile: PTX ISA {}, \
                 while the driver (CUDA {}.{}) compiles PTX up to ISA {}. Update the driver, \
                 or build with an nvcc no newer than the driver, or add a cubin for sm_{} \
                 (-gencode arch=compute_{sm0},code=sm_{sm0}), which needs no JIT.",
                newest.map_or("?".into(), |v| format!("{}.{}", v.0, v.1)),
                driver / 1000,
                driver % 1000 / 10,
                max_ptx_isa(driver).map_or("?".into(), |v| format!("{}.{}", v.0, v.1)),
                sm.map_or("XX".into(), |v| v.to_string()),
                sm0 = sm.map_or("XX".into(), |v| v.to_string()),
            );
        }
        (_, Some(sm)) => {
            let major = sm / 10;
            let cubin_runs = entries
                .into_iter()
                .flatten()
                .any(|x| !x.ptx && x.arch / 10 == major && x.arch <= sm && x.arch % 10 != 0xa);
            let ptx_runs = entries.into_iter().flatten().any(|x| x.ptx && x.arch <= sm);
            if !cubin_runs && !ptx_runs {
                let _ = write!(
                    s,
                    "None of them runs on sm_{sm}: a cubin runs only on its own major \
                     architecture (sm_{major}x at or above its minor version), and PTX only on \
                     devices at or above its compute_XX. Rebuild with \
                     -gencode arch=compute_{sm},code=sm_{sm} (add \
                     -gencode arch=compute_{sm},code=compute_{sm} to embed PTX for newer GPUs too)."
                );
            } else {
                s.push_str(
                    "An entry for this device exists, so the driver refused it for another \
                     reason (out of memory, a corrupt image, or an image built for a newer \
                     driver): the code says which.",
                );
            }
        }
        _ => {}
    }
    s
}

// ---------------------------------------------------------------- functions

/// A launch or attribute query named a host function the runtime does not
/// know (`cudaErrorInvalidDeviceFunction`).
pub fn unknown_function(func: *const c_void, unloaded: &[String]) {
    if !enabled() {
        return;
    }
    let (object, static_runtime) = object_of(func);
    say(explain_unknown_function(
        func as usize,
        object.as_deref(),
        static_runtime,
        unloaded,
    ));
}

/// The loaded object holding `addr`, and whether that object carries a
/// runtime of its own (a statically linked libcudart defines
/// `__cudaRegisterFatBinary` itself instead of importing ours).
fn object_of(addr: *const c_void) -> (Option<String>, bool) {
    if addr.is_null() {
        return (None, false);
    }
    let name = crate::trace::origin_of(addr as usize);
    if name == crate::trace::UNKNOWN_OBJECT {
        return (None, false);
    }
    let static_runtime = crate::objects::carried_runtime(&name).is_some();
    (Some(name), static_runtime)
}

pub fn explain_unknown_function(
    addr: usize,
    object: Option<&str>,
    static_runtime: bool,
    unloaded: &[String],
) -> String {
    if addr == 0 {
        return "the function pointer is NULL.".into();
    }
    match object {
        Some(obj) if static_runtime => format!(
            "the function at {addr:#x} belongs to {obj}, which carries its own statically \
             linked CUDA runtime: its kernels were registered with that runtime, not with this \
             libcudart.so.13. Build it with -cudart shared (nvcc's default is static) so one \
             runtime serves the whole process, or launch its kernels through its own API."
        ),
        Some(obj) => format!(
            "the function at {addr:#x} (in {obj}) was never registered as a kernel: it is not a \
             __global__ function's host stub (pass the kernel itself, e.g. cudaLaunchKernel((void*)my_kernel, ...), \
             not a wrapper or a function pointer taken in another file compiled without nvcc), \
             or the file that defines it was compiled without its device code."
        ),
        None if !unloaded.is_empty() => format!(
            "the address {addr:#x} is in no loaded object: it belonged to a library that was \
             unloaded (dlclose), whose kernels were unregistered with it. Libraries unloaded so \
             far: {}. Keep the library open while its kernels are used.",
            unloaded.join(", ")
        ),
        None => format!(
            "the address {addr:#x} is in no loaded object: not a function of this process \
             (a stale or corrupted pointer)."
        ),
    }
}

// ---------------------------------------------------------------- launches

/// Device limits and kernel attributes that decide whether a launch fits.
#[derive(Default, Clone, Copy, Debug)]
pub struct Limits {
    pub max_threads_per_block: i32,
    pub max_block: [i32; 3],
    pub max_grid: [i32; 3],
    pub shared_per_block: i32,
    pub shared_per_block_optin: i32,
    pub regs_per_block: i32,
    /// The kernel's own limits (0: unknown).
    pub kernel_max_threads: i32,
    pub kernel_regs: i32,
    pub kernel_static_shared: i32,
    pub kernel_max_dynamic_shared: i32,
}

fn limits_for(k: CUkernel, dev: c_int) -> Limits {
    let mut l = Limits::default();
    let Ok(drv) = driver::get() else { return l };
    let attr = |a: c_int| {
        let mut v = 0;
        let _ = drv.cuDeviceGetAttribute(&mut v, a, dev);
        v
    };
    l.max_threads_per_block = attr(1);
    l.max_block = [attr(2), attr(3), attr(4)];
    l.max_grid = [attr(5), attr(6), attr(7)];
    l.shared_per_block = attr(8);
    l.regs_per_block = attr(12);
    l.shared_per_block_optin = attr(97);
    if !k.is_null() {
        let kattr = |a: c_int| {
            let mut v = 0;
            let _ = drv.cuKernelGetAttribute(&mut v, a, k, dev);
            v
        };
        l.kernel_max_threads = kattr(0);
        l.kernel_static_shared = kattr(1);
        l.kernel_regs = kattr(4);
        l.kernel_max_dynamic_shared = kattr(8);
    }
    l
}

/// A launch the driver refused.
pub fn launch_failed(k: CUkernel, name: Option<&CStr>, grid: dim3, block: dim3, shared: usize) {
    if !enabled() {
        return;
    }
    let dev = crate::context::current_device();
    let limits = limits_for(k, dev);
    let name = name.map(|n| n.to_string_lossy().into_owned());
    let text = explain_launch(name.as_deref(), &limits, grid, block, shared);
    say(text);
}

pub fn explain_launch(
    name: Option<&str>,
    l: &Limits,
    grid: dim3,
    block: dim3,
    shared: usize,
) -> String {
    let who = name.map_or_else(|| "the kernel".to_string(), |n| format!("kernel {n}"));
    let threads = block.x as u64 * block.y as u64 * block.z as u64;
    let mut why: Vec<String> = Vec::new();
    let b = [block.x, block.y, block.z];
    let g = [grid.x, grid.y, grid.z];
    if b.contains(&0) || g.contains(&0) {
        why.push(format!(
            "a dimension is 0 (grid {}x{}x{}, block {}x{}x{}): every dimension must be at least 1",
            g[0], g[1], g[2], b[0], b[1], b[2]
        ));
    }
    if l.max_threads_per_block > 0 && threads > l.max_threads_per_block as u64 {
        why.push(format!(
            "{threads} threads per block ({}x{}x{}) exceed the device's limit of {} threads per block",
            b[0], b[1], b[2], l.max_threads_per_block
        ));
    } else if l.kernel_max_threads > 0 && threads > l.kernel_max_threads as u64 {
        why.push(format!(
            "{threads} threads per block exceed what {who} can run: {} threads per block (its {} registers per thread{}, or its __launch_bounds__)",
            l.kernel_max_threads,
            l.kernel_regs,
            if l.regs_per_block > 0 {
                format!(" x {threads} threads = {} registers, more than the {} a block may use", l.kernel_regs as u64 * threads, l.regs_per_block)
            } else {
                String::new()
            }
        ));
    }
    for (i, axis) in ["x", "y", "z"].iter().enumerate() {
        if l.max_block[i] > 0 && b[i] as i64 > l.max_block[i] as i64 {
            why.push(format!(
                "block.{axis} = {} exceeds the device's maximum {}",
                b[i], l.max_block[i]
            ));
        }
        if l.max_grid[i] > 0 && g[i] as i64 > l.max_grid[i] as i64 {
            why.push(format!(
                "grid.{axis} = {} exceeds the device's maximum {}",
                g[i], l.max_grid[i]
            ));
        }
    }
    let total_shared = shared as u64 + l.kernel_static_shared.max(0) as u64;
    if l.shared_per_block_optin > 0 && total_shared > l.shared_per_block_optin as u64 {
        why.push(format!(
            "{shared} bytes of dynamic shared memory (+ {} static) exceed the device's maximum of {} bytes per block, which no attribute can raise",
            l.kernel_static_shared, l.shared_per_block_optin
        ));
    } else if l.kernel_max_dynamic_shared >= 0
        && (l.kernel_max_dynamic_shared > 0 || l.shared_per_block > 0)
        && shared as u64 > l.kernel_max_dynamic_shared.max(0) as u64
    {
        why.push(format!(
            "{shared} bytes of dynamic shared memory exceed the {} bytes {who} may use now (the default {} bytes per block minus {} static); the device allows up to {} bytes after cudaFuncSetAttribute({}, cudaFuncAttributeMaxDynamicSharedMemorySize, {shared})",
            l.kernel_max_dynamic_shared,
            l.shared_per_block,
            l.kernel_static_shared,
            l.shared_per_block_optin,
            name.unwrap_or("kernel")
        ));
    }
    if why.is_empty()
        && l.kernel_regs > 0
        && l.regs_per_block > 0
        && l.kernel_regs as u64 * threads > l.regs_per_block as u64
    {
        why.push(format!(
            "{} registers per thread x {threads} threads = {} registers, more than the {} of a block's register file: use fewer threads per block, __launch_bounds__, or -maxrregcount",
            l.kernel_regs,
            l.kernel_regs as u64 * threads,
            l.regs_per_block
        ));
    }
    if why.is_empty() {
        format!(
            "the launch of {who} (grid {}x{}x{}, block {}x{}x{}, {shared} bytes dynamic shared memory) was refused, and it is within every limit checked (threads, dimensions, shared memory, registers)",
            g[0], g[1], g[2], b[0], b[1], b[2]
        )
    } else {
        format!("the launch of {who} does not fit: {}.", why.join("; "))
    }
}

// ---------------------------------------------------------------- symbols

/// `cudaMemcpyToSymbol` and friends on an address that is not a registered
/// variable.
pub fn unknown_symbol(addr: *const c_void, nearest: Option<(String, usize, usize)>) {
    if enabled() {
        say(explain_unknown_symbol(addr as usize, nearest));
    }
}

pub fn explain_unknown_symbol(addr: usize, nearest: Option<(String, usize, usize)>) -> String {
    let mut s = format!(
        "{addr:#x} is not the host shadow of a registered __device__/__constant__ variable: \
         pass the variable itself (cudaMemcpyToSymbol(myVar, ...)), not its address in \
         device memory, a string, or a variable of another file compiled without nvcc."
    );
    if let Some((name, at, size)) = nearest {
        let rel = if addr >= at && addr < at + size.max(1) {
            format!(
                "inside it, {} bytes past its start: pass the variable and use the offset argument",
                addr - at
            )
        } else if addr > at {
            format!("{} bytes after it", addr - at)
        } else {
            format!("{} bytes before it", at - addr)
        };
        let _ = write!(
            s,
            " The nearest registered variable is {name} ({size} bytes at {at:#x}), {rel}."
        );
    } else {
        s.push_str(" No variable is registered at all.");
    }
    s
}

// ---------------------------------------------------------------- faults

/// Device faults: after one, the context is unusable and every call
/// returns the fault until `cudaDeviceReset`.
pub fn is_fault(e: cudaError_t) -> bool {
    matches!(
        e,
        cudaError_t::cudaErrorECCUncorrectable
            | cudaError_t::cudaErrorIllegalAddress
            | cudaError_t::cudaErrorLaunchTimeout
            | cudaError_t::cudaErrorAssert
            | cudaError_t::cudaErrorHardwareStackError
            | cudaError_t::cudaErrorIllegalInstruction
            | cudaError_t::cudaErrorMisalignedAddress
            | cudaError_t::cudaErrorInvalidAddressSpace
            | cudaError_t::cudaErrorInvalidPc
            | cudaError_t::cudaErrorLaunchFailure
            | cudaError_t::cudaErrorCooperativeLaunchTooLarge
    )
}

/// Whether the driver refused a fatbin's image: none for the device, an
/// invalid image, PTX it could not compile or PTX too new for it.
pub fn is_image_refusal(e: cudaError_t) -> bool {
    matches!(
        e,
        cudaError_t::cudaErrorInvalidKernelImage
            | cudaError_t::cudaErrorNoKernelImageForDevice
            | cudaError_t::cudaErrorInvalidPtx
            | cudaError_t::cudaErrorUnsupportedPtxVersion
    )
}

static FAULT_SEEN: AtomicBool = AtomicBool::new(false);

/// A call failed: the first device fault since the last reset names the
/// call that hit it.
fn note_fault(api: &str, e: cudaError_t) {
    if !is_fault(e) || FAULT_SEEN.swap(true, Ordering::Relaxed) {
        return;
    }
    say(format!(
        "a device fault, first seen by {api} on thread {}. It happened in a kernel that \
             ran before (launches are asynchronous: the call that reports it is the next one \
             that waits on the device, not the culprit; run with CUDA_LAUNCH_BLOCKING=1 or \
             compute-sanitizer to find the kernel). The context is now unusable: every later \
             call returns this error until cudaDeviceReset(), which clears it (allocations, \
             streams and events of the context are gone after it).",
        crate::trace::thread_label()
    ));
}

/// `cudaDeviceReset` cleared the fault.
pub fn after_reset() {
    FAULT_SEEN.store(false, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: u32, y: u32, z: u32) -> dim3 {
        dim3 { x, y, z }
    }

    fn h200() -> Limits {
        Limits {
            max_threads_per_block: 1024,
            max_block: [1024, 1024, 64],
            max_grid: [i32::MAX, 65535, 65535],
            shared_per_block: 49152,
            shared_per_block_optin: 232448,
            regs_per_block: 65536,
            kernel_max_threads: 1024,
            kernel_regs: 16,
            kernel_static_shared: 0,
            kernel_max_dynamic_shared: 49152,
        }
    }

    #[test]
    fn too_many_threads_names_the_limit() {
        let t = explain_launch(Some("k"), &h200(), d(1, 1, 1), d(2048, 1, 1), 0);
        assert!(t.contains("2048 threads per block"), "{t}");
        assert!(t.contains("limit of 1024"), "{t}");
    }

    #[test]
    fn register_bound_kernel_names_registers() {
        let mut l = h200();
        l.kernel_max_threads = 256;
        l.kernel_regs = 255;
        let t = explain_launch(Some("fat"), &l, d(1, 1, 1), d(512, 1, 1), 0);
        assert!(t.contains("255 registers per thread"), "{t}");
        assert!(t.contains("256 threads per block"), "{t}");
    }

    #[test]
    fn shared_memory_names_the_attribute_call() {
        let t = explain_launch(Some("big"), &h200(), d(1, 1, 1), d(32, 1, 1), 100_000);
        assert!(
            t.contains(
                "cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000)"
            ),
            "{t}"
        );
        let t = explain_launch(Some("huge"), &h200(), d(1, 1, 1), d(32, 1, 1), 300_000);
        assert!(t.contains("which no attribute can raise"), "{t}");
    }

    #[test]
    fn dimensions_are_named() {
        let t = explain_launch(None, &h200(), d(1, 70000, 1), d(1, 1, 65), 0);
        assert!(
            t.contains("grid.y = 70000 exceeds the device's maximum 65535"),
            "{t}"
        );
        assert!(
            t.contains("block.z = 65 exceeds the device's maximum 64"),
            "{t}"
        );
        let t = explain_launch(None, &h200(), d(0, 1, 1), d(1, 1, 1), 0);
        assert!(t.contains("a dimension is 0"), "{t}");
    }

    #[test]
    fn no_image_lists_entries_and_the_fix() {
        let entries = [
            ImageEntry {
                ptx: false,
                arch: 80,
                version: (1, 8),
            },
            ImageEntry {
                ptx: false,
                arch: 75,
                version: (1, 8),
            },
        ];
        let t = explain_load_failed(
            cudaError_t::cudaErrorNoKernelImageForDevice,
            0,
            Some(90),
            "/bin/app",
            Some(&entries),
            13000,
        );
        assert!(t.contains("sm_90 (compute capability 9.0)"), "{t}");
        assert!(t.contains("cubin sm_80, cubin sm_75"), "{t}");
        assert!(t.contains("-gencode arch=compute_90,code=sm_90"), "{t}");
    }

    #[test]
    fn ptx_too_new_names_both_versions() {
        let entries = [ImageEntry {
            ptx: true,
            arch: 90,
            version: (9, 1),
        }];
        let t = explain_load_failed(
            cudaError_t::cudaErrorUnsupportedPtxVersion,
            0,
            Some(90),
            "/bin/app",
            Some(&entries),
            13000,
        );
        assert!(t.contains("PTX ISA 9.1"), "{t}");
        assert!(t.contains("CUDA 13.0"), "{t}");
        assert!(t.contains("up to ISA 9.0"), "{t}");
    }

    #[test]
    fn driver_messages_name_the_facts() {
        let t = explain_driver_not_found(
            "libcuda.so.1: cannot open shared object file",
            "",
            false,
            &[],
        );
        assert!(t.contains("LD_LIBRARY_PATH (unset)"), "{t}");
        assert!(t.contains("install the NVIDIA driver"), "{t}");
        let t = explain_driver_too_old(12040);
        assert!(t.contains("CUDA 12.4"), "{t}");
        let t = explain_init_failed(100, Some(""), &[("/dev/nvidia0".into(), false)]);
        assert!(t.contains("hides every GPU"), "{t}");
        assert!(t.contains("/dev/nvidia0"), "{t}");
    }

    #[test]
    fn unknown_function_and_symbol_say_which_case() {
        let t = explain_unknown_function(0x1000, Some("/lib/libx.so"), true, &[]);
        assert!(t.contains("statically linked"), "{t}");
        let t = explain_unknown_function(0x1000, None, false, &["/tmp/libk.so".into()]);
        assert!(t.contains("dlclose") && t.contains("/tmp/libk.so"), "{t}");
        let t = explain_unknown_symbol(0x1010, Some(("counter".into(), 0x1000, 64)));
        assert!(
            t.contains("counter") && t.contains("16 bytes past its start"),
            "{t}"
        );
    }
}
