//! The lifecycle trace: when the runtime loads the driver, retains and binds
//! contexts, registers and loads modules, resolves kernels, tears down, and
//! for which call on which thread.
//!
//! Off by default. Two outputs, either or both:
//! - `CUDART_TRACE=1` (or `lifecycle`): readable lines on stderr, or in the
//!   file named by `CUDART_TRACE_FILE` (which alone turns on the lifecycle
//!   trace in that file). Each line reads
//!   `[cudart +<ms since load> T<n>/<tid>] <room>: <event>`; a span (an
//!   event that takes time) is printed when it ends, stamped with its start
//!   and followed by its duration in brackets.
//! - `CUDART_TRACE_JSON=path`: Chrome trace-event JSON (the array format)
//!   that Perfetto and `chrome://tracing` open: one lane per thread (named
//!   with metadata events), `X` events for spans, `i` events for instants.
//!   The closing `]` is written when the library is unloaded at exit; a
//!   process killed earlier leaves a file both viewers still accept. A
//!   process that finds the file in use by another live process (a child
//!   that inherited the variable) writes `path.<pid>` instead.
//!
//! `CUDART_TRACE=debug` adds per-registration detail; `CUDART_TRACE=all`
//! adds every runtime API call as a span (launches and memory calls
//! included). Setting only `CUDART_TRACE_JSON` records the lifecycle events
//! in JSON alone; `CUDART_TRACE=all` with it records the calls there too.
//!
//! Cost when off: every event site first reads [`ENABLED`] (one relaxed
//! atomic load) and formats nothing; each export makes one load per call
//! too ([`crate::boundary::slow`], the flag the trace shares with the
//! insight features: the API name the trace records, and the
//! `CUDART_TRACE=all` span, are behind it). Everything that runs when the
//! trace is on lives in `#[cold]` functions.
//!
//! Compiled out: without the cargo feature `trace` (on by default),
//! [`enabled`] is the constant `false`, so every event site, span and the
//! per-call check compile to nothing; the variables are then ignored (a
//! one-line note on stderr says so).

#![cfg_attr(not(feature = "trace"), allow(dead_code))]

use parking_lot::Mutex;
use std::cell::Cell;
use std::collections::HashSet;
use std::ffi::{c_void, CStr};
use std::fmt::{self, Write as _};
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// Whether any trace output is on: the one check every event site makes.
pub static ENABLED: AtomicBool = AtomicBool::new(false);
/// `CUDART_TRACE=all`: every runtime API call is a span.
pub static API_CALLS: AtomicBool = AtomicBool::new(false);
/// `CUDART_TRACE=debug` (or `all`): per-registration detail.
static DETAIL: AtomicBool = AtomicBool::new(false);

/// Whether the trace is on (one relaxed load; the constant `false` when
/// the trace is compiled out).
#[inline(always)]
pub fn enabled() -> bool {
    #[cfg(feature = "trace")]
    {
        ENABLED.load(Ordering::Relaxed)
    }
    #[cfg(not(feature = "trace"))]
    {
        false
    }
}

/// Whether per-registration detail is wanted (only read when enabled).
pub fn detail() -> bool {
    DETAIL.load(Ordering::Relaxed)
}

/// When a span began (nanoseconds since the library was loaded).
#[derive(Copy, Clone, Debug)]
pub struct Start(u64);

/// The start of a span: `Some` only when the trace is on.
#[inline(always)]
pub fn start() -> Option<Start> {
    if enabled() {
        Some(Start(now_ns()))
    } else {
        None
    }
}

/// The start of an API-call span: `Some` only with `CUDART_TRACE=all`, and
/// not for the registration calls (the registration span covers them: a
/// fatbin's span runs from `__cudaRegisterFatBinary` to
/// `__cudaRegisterFatBinaryEnd`, and spans on one lane must nest). Only
/// called once [`enabled`] said yes.
pub fn api_start(api: &str) -> Option<Start> {
    (API_CALLS.load(Ordering::Relaxed) && !api.starts_with("__cudaRegister"))
        .then(|| Start(now_ns()))
}

/// Records an instant event: `event!(room, name, "format", args...)`. The
/// name and the text are only built when the trace is on.
macro_rules! event {
    ($room:expr, $name:expr, $($fmt:tt)+) => {
        if $crate::trace::enabled() {
            $crate::trace::emit_instant($room, &*$name, format_args!($($fmt)+));
        }
    };
}
pub(crate) use event;

/// Ends a span begun with [`start`]:
/// `end!(start, room, name, "format", args...)`; nothing when it is `None`.
macro_rules! end {
    ($start:expr, $room:expr, $name:expr, $($fmt:tt)+) => {
        if let Some(s) = $start {
            $crate::trace::emit_span(s, $room, &*$name, format_args!($($fmt)+));
        }
    };
}
pub(crate) use end;

/// Where the trace goes, set up once at library load.
struct Sinks {
    origin: Instant,
    pid: u32,
    text: Option<Mutex<Box<dyn Write + Send>>>,
    json: Option<Mutex<Json>>,
}

/// The JSON array being written.
struct Json {
    out: BufWriter<std::fs::File>,
    /// No event written yet (no comma before the next one).
    first: bool,
    /// The closing `]` is written (or this is a forked child): write nothing.
    closed: bool,
    /// Threads whose name metadata is written.
    named: HashSet<i32>,
}

static SINKS: OnceLock<Sinks> = OnceLock::new();
static NEXT_THREAD: AtomicU32 = AtomicU32::new(1);

thread_local! {
    /// A small per-thread number in order of first appearance (T1 is the
    /// first thread the trace saw, normally `main`).
    static THREAD_NO: Cell<u32> = const { Cell::new(0) };
}

fn now_ns() -> u64 {
    SINKS
        .get()
        .map_or(0, |s| s.origin.elapsed().as_nanos() as u64)
}

fn thread_no() -> u32 {
    THREAD_NO
        .try_with(|t| {
            if t.get() == 0 {
                t.set(NEXT_THREAD.fetch_add(1, Ordering::Relaxed));
            }
            t.get()
        })
        .unwrap_or(0)
}

/// The kernel's id of the calling thread.
pub(crate) fn tid() -> i32 {
    // SAFETY: gettid has no preconditions and cannot fail.
    unsafe { libc::gettid() }
}

/// "T<n>/<tid>": the thread's trace number and its kernel thread id.
pub fn thread_label() -> String {
    format!("T{}/{}", thread_no(), tid())
}

/// What [`origin_of`] answers for an address in no loaded object.
pub const UNKNOWN_OBJECT: &str = "unknown object";

/// The file (executable or shared library) that holds `addr`, for naming
/// where a fatbin came from.
///
/// `dladdr` searches the object's whole symbol table for the nearest
/// symbol: about 0.1-0.2 ms an address in a library as large as
/// libtorch_cuda.so (445 fatbins, named at registration and again at
/// exit). So it runs once per object: the object's address range is found
/// with `dl_iterate_phdr` and kept with the name; the kept ranges are
/// dropped whenever the loader has unloaded an object since (its
/// `dlpi_subs` count), so that a range reused by another library is
/// never named after the old one.
pub fn origin_of(addr: usize) -> String {
    /// The loader's unload count when these were found, and per object its
    /// address range and name.
    type Known = (u64, Vec<(usize, usize, String)>);
    static KNOWN: Mutex<Known> = Mutex::new((0, Vec::new()));
    let unloads = loader_unloads();
    {
        let mut known = KNOWN.lock();
        if known.0 != unloads {
            *known = (unloads, Vec::new());
        }
        if let Some((_, _, name)) = known
            .1
            .iter()
            .find(|(lo, hi, _)| (*lo..*hi).contains(&addr))
        {
            return name.clone();
        }
    }
    let name = dladdr_name(addr);
    if name != UNKNOWN_OBJECT {
        if let Some((lo, hi)) = object_range(addr) {
            let mut known = KNOWN.lock();
            if known.0 == unloads {
                known.1.push((lo, hi, name.clone()));
            }
        }
    }
    name
}

/// [`origin_of`] through `dladdr`.
fn dladdr_name(addr: usize) -> String {
    let mut info = libc::Dl_info {
        dli_fname: std::ptr::null(),
        dli_fbase: std::ptr::null_mut(),
        dli_sname: std::ptr::null(),
        dli_saddr: std::ptr::null_mut(),
    };
    // SAFETY: dladdr only reads the loader's tables and writes `info`.
    let found = unsafe { libc::dladdr(addr as *const c_void, &mut info) } != 0;
    if !found || info.dli_fname.is_null() {
        return UNKNOWN_OBJECT.into();
    }
    // SAFETY: dladdr returned a NUL-terminated path owned by the loader.
    let path = unsafe { CStr::from_ptr(info.dli_fname) };
    path.to_string_lossy().into_owned()
}

/// How many objects the loader has unloaded so far (`dlpi_subs`).
fn loader_unloads() -> u64 {
    let mut subs: u64 = 0;
    iterate_objects(|info| {
        subs = info.dlpi_subs;
        true
    });
    subs
}

/// The address range, from the lowest to the end of the highest loadable
/// segment, of the object that holds `addr`.
fn object_range(addr: usize) -> Option<(usize, usize)> {
    let mut found = None;
    iterate_objects(|info| {
        let mut range: Option<(usize, usize)> = None;
        let mut holds = false;
        for ph in program_headers(info) {
            if ph.p_type != libc::PT_LOAD {
                continue;
            }
            let lo = (info.dlpi_addr as usize).wrapping_add(ph.p_vaddr as usize);
            let hi = lo.wrapping_add(ph.p_memsz as usize);
            holds |= (lo..hi).contains(&addr);
            range = Some(range.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        }
        if holds {
            found = range;
        }
        holds
    });
    found
}

/// The program headers of one object as the loader reports them.
pub(crate) fn program_headers(info: &libc::dl_phdr_info) -> &[libc::Elf64_Phdr] {
    if info.dlpi_phdr.is_null() || info.dlpi_phnum == 0 {
        return &[];
    }
    // SAFETY: the loader hands `dlpi_phnum` headers at `dlpi_phdr`, valid
    // for the callback's duration, which `info`'s borrow does not outlive.
    unsafe { std::slice::from_raw_parts(info.dlpi_phdr, info.dlpi_phnum as usize) }
}

/// Calls `f` with each loaded object until it answers true.
pub(crate) fn iterate_objects(mut f: impl FnMut(&libc::dl_phdr_info) -> bool) {
    unsafe extern "C" fn each(
        info: *mut libc::dl_phdr_info,
        _size: libc::size_t,
        data: *mut c_void,
    ) -> libc::c_int {
        // SAFETY: `data` is the `&mut dyn FnMut` below, alive for the whole
        // dl_iterate_phdr call; `info` is the loader's, valid for this call.
        let (f, info) = unsafe {
            (
                &mut *(data as *mut &mut dyn FnMut(&libc::dl_phdr_info) -> bool),
                &*info,
            )
        };
        libc::c_int::from(f(info))
    }
    let mut f: &mut dyn FnMut(&libc::dl_phdr_info) -> bool = &mut f;
    // SAFETY: dl_iterate_phdr calls `each` with our `data` only during
    // this call; `each` does not unwind (the closures here cannot panic).
    unsafe {
        libc::dl_iterate_phdr(
            Some(each),
            (&mut f as *mut &mut dyn FnMut(&libc::dl_phdr_info) -> bool).cast(),
        );
    }
}

/// The last component of a path (for short event names).
pub fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Appends `s` as a JSON string literal.
/// Appends `s` as a JSON string (quoted and escaped).
pub(crate) fn json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// One event for both outputs.
struct Event<'a> {
    room: &'static str,
    name: &'a str,
    text: String,
    start_ns: u64,
    /// `Some` for a span.
    dur_ns: Option<u64>,
    /// The runtime call that caused it.
    call: &'static str,
}

impl Sinks {
    fn write(&self, e: &Event<'_>) {
        if let Some(text) = &self.text {
            let mut line = format!(
                "[cudart +{:9.3}ms {}] {}: {}",
                e.start_ns as f64 / 1e6,
                thread_label(),
                e.room,
                e.text
            );
            if let Some(d) = e.dur_ns {
                let _ = write!(line, " [{:.3} ms]", d as f64 / 1e6);
            }
            line.push('\n');
            let mut sink = text.lock();
            let _ = sink.write_all(line.as_bytes());
            let _ = sink.flush();
        }
        if let Some(json) = &self.json {
            self.write_json(json, e);
        }
    }

    fn write_json(&self, json: &Mutex<Json>, e: &Event<'_>) {
        let tid = tid();
        let mut rec = String::with_capacity(256);
        let mut j = json.lock();
        if j.closed {
            return;
        }
        if j.named.insert(tid) {
            let comm = std::fs::read_to_string("/proc/thread-self/comm").unwrap_or_default();
            let mut name = format!("T{} {}", thread_no(), comm.trim());
            if tid as u32 == self.pid {
                name.push_str(" (main)");
            }
            rec.push_str("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":");
            let _ = write!(rec, "{},\"tid\":{tid},\"args\":{{\"name\":", self.pid);
            json_str(&mut rec, &name);
            rec.push_str("}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":");
            let _ = writeln!(
                rec,
                "{},\"tid\":{tid},\"args\":{{\"sort_index\":{}}}}},",
                self.pid,
                thread_no()
            );
        }
        rec.push_str("{\"name\":");
        json_str(&mut rec, e.name);
        rec.push_str(",\"cat\":");
        json_str(&mut rec, e.room);
        let ts = e.start_ns as f64 / 1e3;
        match e.dur_ns {
            Some(d) => {
                let _ = write!(
                    rec,
                    ",\"ph\":\"X\",\"ts\":{ts:.3},\"dur\":{:.3}",
                    d as f64 / 1e3
                );
            }
            None => {
                let _ = write!(rec, ",\"ph\":\"i\",\"s\":\"t\",\"ts\":{ts:.3}");
            }
        }
        let _ = write!(
            rec,
            ",\"pid\":{},\"tid\":{tid},\"args\":{{\"detail\":",
            self.pid
        );
        json_str(&mut rec, &e.text);
        if !e.call.is_empty() {
            rec.push_str(",\"call\":");
            json_str(&mut rec, e.call);
        }
        rec.push_str("}}");
        let sep = if j.first { "" } else { ",\n" };
        j.first = false;
        let _ = j.out.write_all(sep.as_bytes());
        let _ = j.out.write_all(rec.as_bytes());
        // Lifecycle events are few: flush them so a crash keeps them. API
        // calls (`all`) are many: the buffer flushes when full and at exit.
        if e.room != "api" {
            let _ = j.out.flush();
        }
    }
}

/// Records an instant event (use [`event!`], which checks [`enabled`]).
#[cold]
#[inline(never)]
pub fn emit_instant(room: &'static str, name: &str, text: fmt::Arguments<'_>) {
    if let Some(s) = SINKS.get() {
        s.write(&Event {
            room,
            name,
            text: text.to_string(),
            start_ns: now_ns(),
            dur_ns: None,
            call: crate::boundary::current_api(),
        });
    }
}

/// Records a span from `start` to now (use [`end!`]).
#[cold]
#[inline(never)]
pub fn emit_span(start: Start, room: &'static str, name: &str, text: fmt::Arguments<'_>) {
    if let Some(s) = SINKS.get() {
        let now = now_ns();
        s.write(&Event {
            room,
            name,
            text: text.to_string(),
            start_ns: start.0,
            dur_ns: Some(now.saturating_sub(start.0)),
            call: crate::boundary::current_api(),
        });
    }
}

/// The trace's thread id of the GPU track (no kernel thread has it).
const GPU_TRACK: i32 = -1;

/// A span of GPU work on the JSON trace's GPU track, beside the threads:
/// `name` ran for `ms` from `started` (on the host's clock). Written only
/// to the JSON trace (`CUDART_TRACE_JSON`), by the profile.
#[cold]
#[inline(never)]
pub fn gpu_span(name: &str, started: Instant, ms: f32) {
    let Some(s) = SINKS.get() else { return };
    let Some(json) = &s.json else { return };
    let ts = started.saturating_duration_since(s.origin).as_nanos() as f64 / 1e3;
    let mut rec = String::with_capacity(160);
    let mut j = json.lock();
    if j.closed {
        return;
    }
    if j.named.insert(GPU_TRACK) {
        let _ = writeln!(
            rec,
            "{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{GPU_TRACK},\"args\":{{\"name\":\"GPU (kernels)\"}}}},",
            s.pid
        );
    }
    rec.push_str("{\"name\":");
    json_str(&mut rec, name);
    let _ = write!(
        rec,
        ",\"cat\":\"gpu\",\"ph\":\"X\",\"ts\":{ts:.3},\"dur\":{:.3},\"pid\":{},\"tid\":{GPU_TRACK}}}",
        f64::from(ms) * 1e3,
        s.pid
    );
    let sep = if j.first { "" } else { ",\n" };
    j.first = false;
    let _ = j.out.write_all(sep.as_bytes());
    let _ = j.out.write_all(rec.as_bytes());
}

/// Ends an API-call span (`CUDART_TRACE=all`): the call and its result.
#[cold]
#[inline(never)]
pub fn api_end(start: Start, api: &'static str, result: crate::abi::cudaError_t) {
    emit_span(
        start,
        "api",
        api,
        format_args!("{api} -> {}", result.name().to_string_lossy()),
    );
}

/// Forwards `log` records (rooms that log through the `log` facade) to the
/// trace as instant events.
struct LogBridge;

static LOG_BRIDGE: LogBridge = LogBridge;

impl log::Log for LogBridge {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::max_level()
    }

    fn log(&self, r: &log::Record) {
        if !self.enabled(r.metadata()) || !enabled() {
            return;
        }
        let room = r.target().strip_prefix("cudart::").unwrap_or(r.target());
        let room: &'static str = match room {
            "lifecycle" => "lifecycle",
            "boundary" => "boundary",
            _ => "log",
        };
        let text = r.args().to_string();
        let name: String = text.chars().take(60).collect();
        emit_instant(room, &name, format_args!("{text}"));
    }

    fn flush(&self) {}
}

/// Reads `CUDART_TRACE`, `CUDART_TRACE_FILE` and `CUDART_TRACE_JSON` and
/// sets the trace up (at library load; touches nothing else).
pub fn init_from_env() {
    #[cfg(not(feature = "trace"))]
    {
        let set = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
        if set("CUDART_TRACE") || set("CUDART_TRACE_JSON") || set("CUDART_TRACE_FILE") {
            let _ = writeln!(
                std::io::stderr(),
                "cudart: CUDART_TRACE/CUDART_TRACE_FILE/CUDART_TRACE_JSON ignored: this libcudart.so.13 is built without trace support (cargo feature `trace`)"
            );
        }
    }
    #[cfg(feature = "trace")]
    init_enabled();
}

/// [`init_from_env`] with the trace compiled in.
#[cfg(feature = "trace")]
fn init_enabled() {
    let mode = std::env::var("CUDART_TRACE").unwrap_or_default();
    // A trace file named without a mode asks for the lifecycle trace in it.
    let file_named = std::env::var_os("CUDART_TRACE_FILE").is_some_and(|p| !p.is_empty());
    let (text_on, detail, api) = match mode.as_str() {
        "1" | "lifecycle" | "info" => (true, false, false),
        "2" | "debug" => (true, true, false),
        "all" | "3" => (true, true, true),
        "" if file_named => (true, false, false),
        _ => (false, false, false),
    };
    let json_path = std::env::var_os("CUDART_TRACE_JSON").filter(|p| !p.is_empty());
    if !text_on && json_path.is_none() {
        return;
    }
    let text: Option<Mutex<Box<dyn Write + Send>>> = text_on.then(|| {
        let sink: Box<dyn Write + Send> = match std::env::var_os("CUDART_TRACE_FILE") {
            Some(path) => match std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
            {
                Ok(f) => Box::new(f),
                Err(_) => Box::new(std::io::stderr()),
            },
            None => Box::new(std::io::stderr()),
        };
        Mutex::new(sink)
    });
    let json = json_path.and_then(|path| {
        let file = claim_file(&path)?;
        let mut out = BufWriter::with_capacity(64 * 1024, file);
        out.write_all(b"[\n").ok()?;
        Some(Mutex::new(Json {
            out,
            first: true,
            closed: false,
            named: HashSet::new(),
        }))
    });
    if text.is_none() && json.is_none() {
        return;
    }
    let pid = std::process::id();
    if SINKS
        .set(Sinks {
            origin: Instant::now(),
            pid,
            text,
            json,
        })
        .is_err()
    {
        return;
    }
    if let Some(json) = SINKS.get().and_then(|s| s.json.as_ref()) {
        process_name(json, pid);
    }
    DETAIL.store(detail, Ordering::Relaxed);
    API_CALLS.store(api, Ordering::Relaxed);
    ENABLED.store(true, Ordering::Relaxed);
    crate::boundary::set_slow();
    if log::set_logger(&LOG_BRIDGE).is_ok() {
        log::set_max_level(if detail {
            log::LevelFilter::Debug
        } else {
            log::LevelFilter::Info
        });
    }
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    // Linked from libcudart_static.a, the runtime lives in the program or
    // library that linked it, not in a libcudart.so.
    if !crate::objects::linked_statically() {
        event!(
            "runtime",
            "libcudart loaded",
            "libcudart.so.13 (clean-room, Rust) loaded in process {pid} ({exe})"
        );
    } else {
        let home = origin_of(init_from_env as fn() as usize);
        event!(
            "runtime",
            "libcudart loaded",
            "libcudart_static.a (clean-room, Rust) linked into {home}, loaded in process {pid} ({exe})"
        );
    }
}

/// Opens an output file for this process (`CUDART_TRACE_JSON`,
/// `CUDART_PROFILE_FILE`): `path` itself unless another live process writes
/// it (a parent that started this program, which inherited the variable),
/// then `path.<pid>`. Ownership is an advisory lock held for the life of
/// the process, so a file left by an earlier run is simply overwritten.
pub(crate) fn claim_file(path: &std::ffi::OsStr) -> Option<std::fs::File> {
    let claim = |p: &std::path::Path| -> Option<std::fs::File> {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(p)
            .ok()?;
        if !try_lock(&f) {
            return None;
        }
        f.set_len(0).ok()?;
        Some(f)
    };
    let path = std::path::Path::new(path);
    claim(path).or_else(|| {
        let mut alt = path.as_os_str().to_owned();
        alt.push(format!(".{}", std::process::id()));
        claim(std::path::Path::new(&alt))
    })
}

/// Takes an exclusive advisory lock on `f` without waiting.
fn try_lock(f: &std::fs::File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: flock only reads the descriptor number, which `f` keeps open
    // for the duration of the call; it touches no memory of ours.
    unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

/// The process-name metadata event (the first record of the array).
fn process_name(json: &Mutex<Json>, pid: u32) {
    let exe = std::env::current_exe()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "process".into());
    let mut rec = String::new();
    let _ = write!(
        rec,
        "{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{pid},\"args\":{{\"name\":"
    );
    json_str(&mut rec, &format!("{exe} (libcudart trace)"));
    rec.push_str("}}");
    let mut j = json.lock();
    let _ = j.out.write_all(rec.as_bytes());
    j.first = false;
}

/// Ends the trace at library unload: closes the JSON array (once, and only
/// in the process that opened it) and flushes both outputs. Events after
/// this still reach the text output.
pub fn finish() {
    let Some(s) = SINKS.get() else { return };
    if let Some(json) = &s.json {
        let mut j = json.lock();
        if !j.closed && std::process::id() == s.pid {
            let _ = j.out.write_all(b"\n]\n");
            let _ = j.out.flush();
        }
        j.closed = true;
    }
    if let Some(text) = &s.text {
        let _ = text.lock().flush();
    }
}

/// `fork` (prepare handler): takes the trace's locks so the child does not
/// inherit one held by another thread.
pub fn before_fork() {
    if let Some(s) = SINKS.get() {
        if let Some(t) = &s.text {
            std::mem::forget(t.lock());
        }
        if let Some(j) = &s.json {
            std::mem::forget(j.lock());
        }
    }
}

/// `fork` (parent and child handlers): releases what [`before_fork`] took.
/// In the child the JSON file is the parent's: the child writes no more.
pub fn after_fork(child: bool) {
    if let Some(s) = SINKS.get() {
        if let Some(t) = &s.text {
            // SAFETY: `before_fork` locked this mutex on this same thread
            // (fork runs prepare and parent/child handlers on the forking
            // thread) and forgot the guard, so nobody else holds it.
            unsafe { t.force_unlock() };
        }
        if let Some(j) = &s.json {
            // SAFETY: as above.
            unsafe { j.force_unlock() };
            if child {
                j.lock().closed = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kept names answer as dladdr does: for a library (libc), for this
    /// test program, and for an address in no object.
    #[test]
    fn origin_of_names_objects_as_dladdr_does() {
        let in_libc = libc::strlen as *const () as usize;
        let in_program = origin_of_names_objects_as_dladdr_does as *const () as usize;
        for _ in 0..2 {
            assert_eq!(origin_of(in_libc), dladdr_name(in_libc));
            assert!(
                origin_of(in_libc).contains("libc"),
                "{}",
                origin_of(in_libc)
            );
            assert_eq!(origin_of(in_program), dladdr_name(in_program));
            assert_eq!(origin_of(16), UNKNOWN_OBJECT);
        }
        let (lo, hi) = object_range(in_libc).expect("libc's range");
        assert!(lo <= in_libc && in_libc < hi);
        assert!(object_range(16).is_none());
    }
}
