//! `CUDART_PROFILE=1`: a summary at exit of what the program asked of the
//! GPU. Per kernel (demangled name, the object it came from): launches,
//! total, mean and max GPU time, the grid and block shapes seen. Copies and
//! sets by direction and host memory kind: count, bytes, GPU time,
//! bandwidth. Host time spent blocked in synchronizing calls, by call.
//! Allocation peaks. GPU times come from events recorded around the work
//! ([`super::gpu_time`]).
//!
//! Output: text on stderr; `CUDART_PROFILE=json` or a
//! `CUDART_PROFILE_FILE` ending in `.json` writes JSON; `CUDART_PROFILE_FILE`
//! names the file (else stderr).

use super::calls::{self, Call, Fact, MemKind, Transfer};
use super::gpu_time::{self, Timing};
use super::ledger;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Where and how the summary is written.
pub(crate) struct Output {
    json: bool,
    file: Option<String>,
    /// The file claimed ([`crate::trace::claim_file`]) at this process's
    /// first runtime call ([`start`]): `file` itself, or `file.<pid>` where
    /// another live process (the parent that started this one) holds it,
    /// so that a child exiting after its parent cannot overwrite the
    /// parent's profile. Not at load: a process that only passes through
    /// (a launcher script, a shell under `LD_PRELOAD`) must not take the
    /// file from the program it starts. With the pid that claimed it: a
    /// forked child claims its own.
    claimed: Mutex<Option<(u32, std::fs::File)>>,
}

impl Output {
    pub(crate) fn from_env(value: &str, file: Option<String>) -> Output {
        let json = value == "json" || file.as_deref().is_some_and(|f| f.ends_with(".json"));
        Output {
            json,
            file,
            claimed: Mutex::new(None),
        }
    }

    /// Claims the file for this process where it holds none.
    fn claim(&self) {
        let Some(path) = self.file.as_deref() else {
            return;
        };
        let mut claimed = self.claimed.lock();
        if claimed
            .as_ref()
            .is_none_or(|(pid, _)| *pid != std::process::id())
        {
            *claimed = crate::trace::claim_file(path.as_ref()).map(|f| (std::process::id(), f));
        }
    }

    /// Writes `text` to the claimed file (from its start, cut to length),
    /// claiming one first where this process holds none.
    fn write_file(&self, text: &str) -> std::io::Result<()> {
        use std::io::{Seek, Write};
        self.claim();
        let mut claimed = self.claimed.lock();
        let Some((_, f)) = claimed.as_mut() else {
            return Err(std::io::Error::other(
                "the file and its .<pid> form are held by other processes or cannot be opened",
            ));
        };
        f.set_len(0)?;
        f.rewind()?;
        f.write_all(text.as_bytes())?;
        f.flush()
    }
}

#[derive(Default)]
struct KernelStat {
    launches: u64,
    timed: u64,
    total_ms: f64,
    max_ms: f64,
    /// The GPU time of the earliest timed launch (the lowest tag): a first
    /// launch that waits on something shows here.
    first: Option<(u64, f64)>,
    shapes: HashMap<([u32; 3], [u32; 3]), u64>,
}

#[derive(Default)]
struct TransferStat {
    count: u64,
    bytes: u64,
    timed: u64,
    timed_bytes: u64,
    gpu_ms: f64,
}

#[derive(Default)]
struct WaitStat {
    count: u64,
    total: Duration,
    max: Duration,
}

/// A transfer's class: operation, direction, host memory kind.
type TransferKey = (&'static str, &'static str, &'static str);

#[derive(Copy, Clone)]
enum Credit {
    Kernel(usize),
    Transfer(TransferKey, u64),
}

#[derive(Default)]
struct Profile {
    kernels: HashMap<usize, KernelStat>,
    transfers: HashMap<TransferKey, TransferStat>,
    waits: HashMap<&'static str, WaitStat>,
    credits: HashMap<u64, Credit>,
    next_tag: u64,
}

static PROFILE: Mutex<Option<Profile>> = Mutex::new(None);

/// At the first runtime call of this process: the profile (allocation
/// peaks included) is this process's to write, and its file is claimed
/// ([`Output::claim`]).
pub(crate) fn start(out: &Output) {
    out.claim();
    with(|_| ());
}

fn with<T>(f: impl FnOnce(&mut Profile) -> T) -> T {
    f(PROFILE.lock().get_or_insert_with(Default::default))
}

/// Before a call: starts the GPU clock of a launch (once the kernel it
/// runs is loaded) or transfer; before a reset, reads every timing (the
/// reset destroys the events).
pub(crate) fn before(_call: &Call<'_>, fact: &Fact) -> Option<Timing> {
    match fact {
        Fact::Launch(l) => {
            crate::launch::resolve_before_timing(l.func as *const c_void);
            gpu_time::start(l.stream)
        }
        Fact::Transfer(t) => gpu_time::start(t.stream),
        Fact::Reset => {
            gpu_time::settle_all();
            credit_done();
            gpu_time::forget_context();
            None
        }
        _ => None,
    }
}

/// After a call: counts it, and hands its GPU clock over to be read.
pub(crate) fn after(
    call: &Call<'_>,
    fact: &Fact,
    timing: Option<Timing>,
    ok: bool,
    host: Duration,
) {
    if ok && calls::is_wait(call.name) {
        with(|p| {
            let w = p.waits.entry(call.name).or_default();
            w.count += 1;
            w.total += host;
            w.max = w.max.max(host);
        });
    }
    let credit = match (ok, fact) {
        (true, Fact::Launch(l)) => with(|p| {
            let k = p.kernels.entry(l.func).or_default();
            k.launches += 1;
            *k.shapes.entry((l.grid, l.block)).or_default() += 1;
            Some((Credit::Kernel(l.func), l.stream))
        }),
        (true, Fact::Transfer(t)) => {
            let key = classify(t);
            with(|p| {
                let s = p.transfers.entry(key).or_default();
                s.count += 1;
                s.bytes += t.bytes as u64;
            });
            Some((Credit::Transfer(key, t.bytes as u64), t.stream))
        }
        _ => None,
    };
    if let Some(t) = timing {
        let (credit, stream) = match credit {
            Some(c) => c,
            None => (Credit::Kernel(0), 0),
        };
        let tag = with(|p| {
            p.next_tag += 1;
            p.credits.insert(p.next_tag, credit);
            p.next_tag
        });
        gpu_time::finish(t, stream, ok, tag);
        if !ok {
            with(|p| p.credits.remove(&tag));
        }
    }
    if ok && matches!(fact, Fact::Launch(_) | Fact::Transfer(_)) {
        credit_done();
    }
}

/// Credits the GPU times read so far to their kernels and transfers.
fn credit_done() {
    let done = gpu_time::take_done();
    if done.is_empty() {
        return;
    }
    with(|p| {
        for d in done {
            let ms = f64::from(d.ms);
            match p.credits.remove(&d.tag) {
                Some(Credit::Kernel(func)) => {
                    let k = p.kernels.entry(func).or_default();
                    k.timed += 1;
                    k.total_ms += ms;
                    k.max_ms = k.max_ms.max(ms);
                    if k.first.is_none_or(|(tag, _)| d.tag < tag) {
                        k.first = Some((d.tag, ms));
                    }
                    if let Some(started) = d.started {
                        crate::trace::gpu_span(&kernel_label(func), started, d.ms);
                    }
                }
                Some(Credit::Transfer(key, bytes)) => {
                    let s = p.transfers.entry(key).or_default();
                    s.timed += 1;
                    s.timed_bytes += bytes;
                    s.gpu_ms += ms;
                }
                None => {}
            }
        }
    });
}

/// What a transfer is: the operation, its direction, and the host side's
/// memory kind (`device` when both sides are on the device).
fn classify(t: &Transfer) -> TransferKey {
    let op = if t.kind < 0 {
        "memset"
    } else if t.asynchronous {
        "memcpyAsync"
    } else {
        "memcpy"
    };
    if t.kind < 0 {
        return (op, "memset", memory_of(t.dst));
    }
    let (src, dst) = (memory_of(t.src), memory_of(t.dst));
    let host = |m: &str| m == "pageable" || m == "pinned";
    let direction = match t.kind {
        0 => "HtoH",
        1 => "HtoD",
        2 => "DtoH",
        3 => "DtoD",
        _ => match (host(src), host(dst)) {
            (true, false) => "HtoD",
            (false, true) => "DtoH",
            (true, true) => "HtoH",
            (false, false) => "DtoD",
        },
    };
    let memory = match direction {
        "HtoD" => src,
        "DtoH" => dst,
        "HtoH" => src,
        _ => dst,
    };
    (op, direction, memory)
}

/// The kind of memory at `addr`: the ledger's record, else the driver's
/// (an address the driver does not know is pageable host memory).
pub(crate) fn memory_of(addr: usize) -> &'static str {
    if let Some((_, b)) = ledger::block_at(addr) {
        return match b.kind {
            MemKind::Device => "device",
            MemKind::Pinned => "pinned",
            MemKind::Managed => "managed",
        };
    }
    let Some(drv) = crate::driver::loaded() else {
        return "pageable";
    };
    use crate::driver::{
        CUresult, CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST, CU_POINTER_ATTRIBUTE_IS_MANAGED,
        CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
    };
    let mut ty: u32 = 0;
    let r = drv.cuPointerGetAttribute(
        (&mut ty as *mut u32).cast(),
        CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
        addr as u64,
    );
    if r != CUresult::SUCCESS {
        return "pageable";
    }
    let mut managed: u32 = 0;
    let _ = drv.cuPointerGetAttribute(
        (&mut managed as *mut u32).cast(),
        CU_POINTER_ATTRIBUTE_IS_MANAGED,
        addr as u64,
    );
    match ty {
        _ if managed != 0 => "managed",
        CU_MEMORYTYPE_HOST => "pinned",
        CU_MEMORYTYPE_DEVICE => "device",
        _ => "device",
    }
}

/// A kernel's name for people: demangled where the process has a C++
/// demangler, else as registered.
pub(crate) fn kernel_label(func: usize) -> String {
    match calls::kernel_name(func) {
        Some(name) => demangle(&name).unwrap_or(name),
        None => format!("kernel at {func:#x}"),
    }
}

/// `__cxa_demangle` of the process's libstdc++, where one is loaded: in the
/// global scope (C++ programs link it), else loaded by a `dlopen` with
/// `RTLD_LOCAL` (Python's extension modules, PyTorch's among them), which
/// `RTLD_DEFAULT` does not search. Never loads a library itself. Kept once
/// found (profiles name kernels per GPU span); libstdc++ is never unloaded
/// (its `STB_GNU_UNIQUE` symbols make the loader keep it).
fn cxa_demangle() -> *mut c_void {
    static FOUND: AtomicUsize = AtomicUsize::new(0);
    let known = FOUND.load(Ordering::Relaxed);
    if known != 0 {
        return known as *mut c_void;
    }
    let f = find_cxa_demangle();
    FOUND.store(f as usize, Ordering::Relaxed);
    f
}

fn find_cxa_demangle() -> *mut c_void {
    const SYM: &CStr = c"__cxa_demangle";
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only looks
    // the symbol up.
    let f = unsafe { libc::dlsym(libc::RTLD_DEFAULT, SYM.as_ptr()) };
    if !f.is_null() {
        return f;
    }
    // SAFETY: RTLD_NOLOAD returns a handle only to a library already
    // loaded, and loads nothing; the handle's reference is dropped below.
    let lib = unsafe {
        libc::dlopen(
            c"libstdc++.so.6".as_ptr(),
            libc::RTLD_NOW | libc::RTLD_NOLOAD,
        )
    };
    if lib.is_null() {
        return std::ptr::null_mut();
    }
    // SAFETY: a handle dlopen just returned and a NUL-terminated name.
    let f = unsafe { libc::dlsym(lib, SYM.as_ptr()) };
    // SAFETY: drops the reference RTLD_NOLOAD took; the library stays
    // loaded by whoever loaded it, so `f` stays valid.
    unsafe { libc::dlclose(lib) };
    f
}

/// `__cxa_demangle` ([`cxa_demangle`]); `None` where the process has no
/// libstdc++ or the name is not mangled.
fn demangle(name: &str) -> Option<String> {
    type Demangle =
        unsafe extern "C" fn(*const c_char, *mut c_char, *mut usize, *mut c_int) -> *mut c_char;
    if !name.starts_with("_Z") {
        return None;
    }
    let f = cxa_demangle();
    if f.is_null() {
        return None;
    }
    // SAFETY: `__cxa_demangle` has this signature (the Itanium C++ ABI).
    let f: Demangle = unsafe { std::mem::transmute::<*mut c_void, Demangle>(f) };
    let c = CString::new(name).ok()?;
    let mut status: c_int = -1;
    // SAFETY: a NUL-terminated name; a null buffer asks it to allocate the
    // result with malloc, which is freed below.
    let out = unsafe {
        f(
            c.as_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut status,
        )
    };
    if out.is_null() {
        return None;
    }
    // SAFETY: on success `out` is a malloc'd NUL-terminated string.
    let s = unsafe { CStr::from_ptr(out) }
        .to_string_lossy()
        .into_owned();
    // SAFETY: `out` was allocated by malloc in `__cxa_demangle`.
    unsafe { libc::free(out.cast()) };
    (status == 0).then_some(s)
}

/// The file of the object a kernel came from: the one holding its host
/// stub (found for a kernel handle by the registry's scan, at exit).
fn object_of(func: usize) -> String {
    let stub = match crate::registry::kernel_for_stub(func as *const c_void) {
        Some(_) => Some(func),
        None => crate::registry::stub_for_kernel(crate::driver::CUfunction::from_raw(
            func as *mut c_void,
        ))
        .map(|s| s as usize),
    };
    stub.map(file_of).unwrap_or_default()
}

/// The file of the loaded object that holds `addr`.
fn file_of(addr: usize) -> String {
    let mut info: libc::Dl_info = libc::Dl_info {
        dli_fname: std::ptr::null(),
        dli_fbase: std::ptr::null_mut(),
        dli_sname: std::ptr::null(),
        dli_saddr: std::ptr::null_mut(),
    };
    // SAFETY: dladdr only reads the loader's tables and fills `info`.
    let ok = unsafe { libc::dladdr(addr as *const c_void, &mut info) } != 0;
    if !ok || info.dli_fname.is_null() {
        return String::new();
    }
    // SAFETY: dli_fname is a NUL-terminated path the loader keeps.
    unsafe { CStr::from_ptr(info.dli_fname) }
        .to_string_lossy()
        .into_owned()
}

/// `s` as a JSON string (the trace's escaping).
fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    crate::trace::json_str(&mut o, s);
    o
}

/// Writes the summary (at exit, after [`gpu_time::settle_all`]).
/// A process that recorded nothing (it never called the runtime, e.g. a
/// launcher that started the program) writes nothing.
pub(crate) fn write(out: &Output) {
    credit_done();
    let Some(text) = PROFILE.lock().as_ref().map(|p| {
        if out.json {
            render_json(p)
        } else {
            render_text(p)
        }
    }) else {
        return;
    };
    match &out.file {
        Some(path) => {
            if let Err(e) = out.write_file(&text) {
                super::say(format_args!("cudart profile: cannot write {path}: {e}\n"));
            }
        }
        None => super::say(format_args!("{text}")),
    }
}

struct KernelRow {
    name: String,
    mangled: String,
    object: String,
    launches: u64,
    timed: u64,
    total_ms: f64,
    max_ms: f64,
    first_ms: f64,
    shapes: Vec<([u32; 3], [u32; 3], u64)>,
}

fn kernel_rows(p: &Profile) -> Vec<KernelRow> {
    let mut rows: Vec<KernelRow> = p
        .kernels
        .iter()
        .filter(|(&f, _)| f != 0)
        .map(|(&f, k)| {
            let mut shapes: Vec<_> = k.shapes.iter().map(|(&(g, b), &n)| (g, b, n)).collect();
            shapes.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)).then(a.1.cmp(&b.1)));
            KernelRow {
                name: kernel_label(f),
                mangled: calls::kernel_name(f).unwrap_or_default(),
                object: object_of(f),
                launches: k.launches,
                timed: k.timed,
                total_ms: k.total_ms,
                max_ms: k.max_ms,
                first_ms: k.first.map_or(0.0, |(_, ms)| ms),
                shapes,
            }
        })
        .collect();
    rows.sort_by(|a, b| b.total_ms.total_cmp(&a.total_ms).then(a.name.cmp(&b.name)));
    rows
}

fn mean(total: f64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        total / n as f64
    }
}

fn gbps(bytes: u64, ms: f64) -> f64 {
    if ms <= 0.0 {
        0.0
    } else {
        bytes as f64 / (ms * 1e6)
    }
}

const KINDS: [&str; 3] = ["device", "pinned", "managed"];

fn render_text(p: &Profile) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "cudart profile: process {}", std::process::id());
    let _ = writeln!(o, "kernels (GPU time from events around each launch)");
    let _ = writeln!(
        o,
        "  {:>8} {:>8} {:>11} {:>10} {:>10} {:>10}  kernel [object]",
        "launches", "timed", "total ms", "mean ms", "max ms", "first ms"
    );
    for k in kernel_rows(p) {
        let _ = writeln!(
            o,
            "  {:>8} {:>8} {:>11.3} {:>10.4} {:>10.4} {:>10.4}  {} [{}]",
            k.launches,
            k.timed,
            k.total_ms,
            mean(k.total_ms, k.timed),
            k.max_ms,
            k.first_ms,
            k.name,
            k.object
        );
        for (g, b, n) in k.shapes.iter().take(4) {
            let _ = writeln!(
                o,
                "  {:>30} grid ({},{},{}) block ({},{},{}): {n}",
                "", g[0], g[1], g[2], b[0], b[1], b[2]
            );
        }
    }
    let _ = writeln!(o, "copies and sets");
    let _ = writeln!(
        o,
        "  {:<12} {:<9} {:<9} {:>8} {:>14} {:>8} {:>10} {:>8}",
        "op", "direction", "memory", "count", "bytes", "timed", "gpu ms", "GB/s"
    );
    let mut ts: Vec<_> = p.transfers.iter().collect();
    ts.sort_by(|a, b| a.0.cmp(b.0));
    for ((op, dir, mem), s) in ts {
        let _ = writeln!(
            o,
            "  {:<12} {:<9} {:<9} {:>8} {:>14} {:>8} {:>10.3} {:>8.2}",
            op,
            dir,
            mem,
            s.count,
            s.bytes,
            s.timed,
            s.gpu_ms,
            gbps(s.timed_bytes, s.gpu_ms)
        );
    }
    let _ = writeln!(o, "host time blocked in synchronizing calls");
    let _ = writeln!(
        o,
        "  {:<26} {:>8} {:>11} {:>10}",
        "call", "count", "total ms", "max ms"
    );
    let mut ws: Vec<_> = p.waits.iter().collect();
    ws.sort_by(|a, b| b.1.total.cmp(&a.1.total).then(a.0.cmp(b.0)));
    for (call, w) in ws {
        let _ = writeln!(
            o,
            "  {:<26} {:>8} {:>11.3} {:>10.3}",
            call,
            w.count,
            w.total.as_secs_f64() * 1e3,
            w.max.as_secs_f64() * 1e3
        );
    }
    let _ = writeln!(o, "allocations (bytes)");
    let _ = writeln!(o, "  {:<8} {:>14} {:>14}", "kind", "current", "peak");
    for (name, h) in KINDS.iter().zip(ledger::held()) {
        let _ = writeln!(o, "  {:<8} {:>14} {:>14}", name, h.current, h.peak);
    }
    o
}

fn render_json(p: &Profile) -> String {
    let mut o = String::from("{\"kernels\":[");
    for (i, k) in kernel_rows(p).iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        let _ = write!(
            o,
            "{{\"name\":{},\"mangled\":{},\"object\":{},\"launches\":{},\"timed\":{},\"total_ms\":{:.6},\"mean_ms\":{:.6},\"max_ms\":{:.6},\"first_ms\":{:.6},\"shapes\":[",
            json_str(&k.name),
            json_str(&k.mangled),
            json_str(&k.object),
            k.launches,
            k.timed,
            k.total_ms,
            mean(k.total_ms, k.timed),
            k.max_ms,
            k.first_ms
        );
        for (j, (g, b, n)) in k.shapes.iter().enumerate() {
            if j > 0 {
                o.push(',');
            }
            let _ = write!(
                o,
                "{{\"grid\":[{},{},{}],\"block\":[{},{},{}],\"launches\":{n}}}",
                g[0], g[1], g[2], b[0], b[1], b[2]
            );
        }
        o.push_str("]}");
    }
    o.push_str("],\"copies\":[");
    let mut ts: Vec<_> = p.transfers.iter().collect();
    ts.sort_by(|a, b| a.0.cmp(b.0));
    for (i, ((op, dir, mem), s)) in ts.into_iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        let _ = write!(
            o,
            "{{\"op\":\"{op}\",\"direction\":\"{dir}\",\"memory\":\"{mem}\",\"count\":{},\"bytes\":{},\"timed\":{},\"gpu_ms\":{:.6},\"gbps\":{:.3}}}",
            s.count,
            s.bytes,
            s.timed,
            s.gpu_ms,
            gbps(s.timed_bytes, s.gpu_ms)
        );
    }
    o.push_str("],\"blocked\":[");
    let mut ws: Vec<_> = p.waits.iter().collect();
    ws.sort_by(|a, b| a.0.cmp(b.0));
    for (i, (call, w)) in ws.into_iter().enumerate() {
        if i > 0 {
            o.push(',');
        }
        let _ = write!(
            o,
            "{{\"call\":\"{call}\",\"count\":{},\"total_ms\":{:.6},\"max_ms\":{:.6}}}",
            w.count,
            w.total.as_secs_f64() * 1e3,
            w.max.as_secs_f64() * 1e3
        );
    }
    o.push_str("],\"allocations\":{");
    for (i, (name, h)) in KINDS.iter().zip(ledger::held()).enumerate() {
        if i > 0 {
            o.push(',');
        }
        let _ = write!(
            o,
            "\"{name}\":{{\"current\":{},\"peak\":{}}}",
            h.current, h.peak
        );
    }
    o.push_str("}}\n");
    o
}

#[cfg(test)]
mod tests {
    use super::demangle;

    /// A libstdc++ that only a `dlopen(RTLD_LOCAL)` loaded (as in Python)
    /// still demangles; an unmangled name is left alone.
    #[test]
    fn demangles_with_a_locally_loaded_libstdcxx() {
        assert_eq!(demangle("main"), None);
        // SAFETY: loads the system's libstdc++ into the test process, local
        // to its own scope, and keeps it loaded.
        let lib = unsafe {
            libc::dlopen(
                c"libstdc++.so.6".as_ptr(),
                libc::RTLD_NOW | libc::RTLD_LOCAL,
            )
        };
        assert!(!lib.is_null(), "the test needs libstdc++.so.6");
        assert_eq!(demangle("_Z4busyPfi").as_deref(), Some("busy(float*, int)"));
        assert_eq!(
            demangle("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_15CUDAFunctor_addIfEESt5arrayIPcLm3EEEEviT0_T1_")
                .as_deref(),
            Some("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)")
        );
    }
}
