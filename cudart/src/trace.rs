//! The lifecycle trace: a `log` logger that shows when the runtime loads
//! the driver, retains and binds contexts, registers and loads modules,
//! resolves kernels, and for which call and thread.
//!
//! Off by default. `CUDART_TRACE=1` (or `lifecycle`) prints the lifecycle
//! events; `CUDART_TRACE=debug` adds per-registration detail. Lines go to
//! stderr, or to the file named by `CUDART_TRACE_FILE`. Each line reads
//! `[cudart +<ms since load> <thread>] <room>: <event>`.

use std::cell::Cell;
use std::ffi::{c_void, CStr};
use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

struct Tracer {
    start: Instant,
    sink: parking_lot::Mutex<Box<dyn Write + Send>>,
}

static TRACER: OnceLock<Tracer> = OnceLock::new();
static NEXT_THREAD: AtomicU32 = AtomicU32::new(1);

thread_local! {
    /// A small per-thread number in order of first appearance (T1 is the
    /// first thread the trace saw, normally `main`).
    static THREAD_NO: Cell<u32> = const { Cell::new(0) };
}

/// "T<n>/<tid>": the thread's trace number and its kernel thread id.
pub fn thread_label() -> String {
    let n = THREAD_NO.with(|t| {
        if t.get() == 0 {
            t.set(NEXT_THREAD.fetch_add(1, Ordering::Relaxed));
        }
        t.get()
    });
    // SAFETY: gettid has no preconditions and cannot fail.
    let tid = unsafe { libc::gettid() };
    format!("T{n}/{tid}")
}

/// The file (executable or shared library) that holds `addr`, for naming
/// where a fatbin came from.
pub fn origin_of(addr: usize) -> String {
    let mut info = libc::Dl_info {
        dli_fname: std::ptr::null(),
        dli_fbase: std::ptr::null_mut(),
        dli_sname: std::ptr::null(),
        dli_saddr: std::ptr::null_mut(),
    };
    // SAFETY: dladdr only reads the loader's tables and writes `info`.
    let found = unsafe { libc::dladdr(addr as *const c_void, &mut info) } != 0;
    if !found || info.dli_fname.is_null() {
        return "unknown object".into();
    }
    // SAFETY: dladdr returned a NUL-terminated path owned by the loader.
    let path = unsafe { CStr::from_ptr(info.dli_fname) };
    path.to_string_lossy().into_owned()
}

impl log::Log for Tracer {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::max_level()
    }

    fn log(&self, r: &log::Record) {
        if !self.enabled(r.metadata()) {
            return;
        }
        let ms = self.start.elapsed().as_secs_f64() * 1e3;
        let room = r.target().strip_prefix("cudart::").unwrap_or(r.target());
        let line = format!(
            "[cudart +{ms:9.3}ms {}] {room}: {}\n",
            thread_label(),
            r.args()
        );
        let mut sink = self.sink.lock();
        let _ = sink.write_all(line.as_bytes());
        let _ = sink.flush();
    }

    fn flush(&self) {
        let _ = self.sink.lock().flush();
    }
}

/// Reads `CUDART_TRACE`/`CUDART_TRACE_FILE` and installs the logger (at
/// library load; touches nothing else).
pub fn init_from_env() {
    let level = match std::env::var("CUDART_TRACE").as_deref() {
        Ok("1") | Ok("lifecycle") | Ok("info") => log::LevelFilter::Info,
        Ok("debug") | Ok("2") => log::LevelFilter::Debug,
        _ => return,
    };
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
    let tracer = TRACER.get_or_init(|| Tracer {
        start: Instant::now(),
        sink: parking_lot::Mutex::new(sink),
    });
    if log::set_logger(tracer).is_ok() {
        log::set_max_level(level);
        log::info!(target: "cudart::lifecycle", "runtime: libcudart.so.13 (clean-room, Rust) loaded in process {}", std::process::id());
    }
}
