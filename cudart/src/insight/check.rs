//! `CUDART_CHECK=1`: API misuse caught at the call, each report one line
//! on stderr (`cudart check: <call> on thread <tid>: <what>; <origin>`):
//!
//! - a copy or set that runs `past the end` of an allocation (the
//!   runtime's record, or the driver's for memory made elsewhere);
//! - a `double free`, or a free of a pointer that is `not the base of an
//!   allocation`;
//! - an asynchronous copy from or to `pageable host memory` (it runs
//!   synchronously);
//! - `host access to device memory` (a fault at a device address, caught
//!   by a signal handler that reports and lets the fault go on);
//! - a stream or event `used after destroy`;
//! - a launch whose argument `points into freed memory`;
//! - `work still queued at exit` on a stream.
//!
//! The call itself runs as it would: the checks only report, so the code
//! a call returns is NVIDIA's wherever it would be without them.

use super::calls::{self, Call, Fact, Launch, MemKind, Transfer};
use super::ledger::{self, Origin};
use crate::driver::library::LibraryApi;
use crate::driver::{self, CUdeviceptr, CUresult, CUstream};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::ffi::c_void;

/// Reports of one kind beyond which the rest are counted, not printed.
const MOST_OF_A_KIND: u32 = 20;

static SEEN: Mutex<Option<HashMap<(&'static str, &'static str), u32>>> = Mutex::new(None);

/// Writes one report, `what` of kind `key` (the phrase it contains).
fn report(call: &Call<'_>, key: &'static str, what: std::fmt::Arguments<'_>) {
    let n = {
        let mut seen = SEEN.lock();
        let n = seen
            .get_or_insert_with(HashMap::new)
            .entry((call.name, key))
            .or_default();
        *n += 1;
        *n
    };
    if n > MOST_OF_A_KIND {
        return;
    }
    let tail = if n == MOST_OF_A_KIND {
        " (further reports of this kind from this call are not printed)"
    } else {
        ""
    };
    super::say(format_args!(
        "cudart check: {} on thread {}: {what}{tail}\n",
        call.name,
        super::thread_id()
    ));
}

/// The checks made before a call runs.
pub(crate) fn before(call: &Call<'_>, fact: &Fact) {
    match fact {
        Fact::Transfer(t) => transfer(call, t),
        Fact::Free { ptr, kind } if *ptr != 0 => free(call, *ptr, *kind),
        Fact::Use { stream, event } => {
            for h in stream.iter().chain(event.iter()) {
                used(call, *h);
            }
        }
        Fact::Launch(l) => {
            used(call, l.stream);
            launch(call, l);
        }
        _ => {}
    }
}

/// A live allocation holding `addr`, from the ledger or the driver:
/// (base, size, where it came from).
fn allocation(addr: usize) -> Option<(usize, usize, String)> {
    if let Some((base, b)) = ledger::block_at(addr) {
        return Some((
            base,
            b.size,
            format!("allocation of {} bytes made by {}", b.size, b.made),
        ));
    }
    let drv = driver::loaded()?;
    let (mut base, mut size): (CUdeviceptr, usize) = (0, 0);
    (drv.cuMemGetAddressRange(&mut base, &mut size, addr as CUdeviceptr) == CUresult::SUCCESS).then(
        || {
            (
                base as usize,
                size,
                format!(
                    "allocation of {size} bytes the driver knows (not made through this runtime)"
                ),
            )
        },
    )
}

fn transfer(call: &Call<'_>, t: &Transfer) {
    let sides: &[(&str, usize)] = if t.kind < 0 {
        &[("destination", t.dst)]
    } else {
        &[("destination", t.dst), ("source", t.src)]
    };
    for &(side, addr) in sides {
        if addr == 0 || t.bytes == 0 {
            continue;
        }
        if let Some((base, size, origin)) = allocation(addr) {
            let end = base.saturating_add(size);
            if addr.saturating_add(t.bytes) > end {
                report(
                    call,
                    "past the end",
                    format_args!(
                        "{} bytes at {side} {addr:#x} run {} bytes past the end of an {origin}",
                        t.bytes,
                        addr.saturating_add(t.bytes) - end
                    ),
                );
            }
        } else if let Some((base, f)) = ledger::freed_at(addr) {
            report(
                call,
                "freed memory",
                format_args!(
                    "{side} {addr:#x} points into freed memory: {} bytes at {base:#x} made by {}, freed by {}",
                    f.block.size, f.block.made, f.freed
                ),
            );
        }
    }
    if t.asynchronous && t.kind >= 0 {
        let host = if calls::from_host(t.kind) || t.kind == 4 {
            t.src
        } else {
            t.dst
        };
        let other = if host == t.src { t.dst } else { t.src };
        let host_side =
            t.kind != 3 && (t.kind != 4 || super::profile::memory_of(other) != "pageable");
        if host_side && host != 0 && super::profile::memory_of(host) == "pageable" {
            report(
                call,
                "pageable host memory",
                format_args!(
                    "asynchronous copy of {} bytes from or to pageable host memory at {host:#x}: it runs synchronously (pin the buffer with cudaMallocHost or cudaHostRegister)",
                    t.bytes
                ),
            );
        }
    }
}

fn free(call: &Call<'_>, ptr: usize, kind: MemKind) {
    if let Some((base, b)) = ledger::block_at(ptr) {
        if base != ptr {
            report(
                call,
                "not the base of an allocation",
                format_args!(
                    "{ptr:#x} is not the base of an allocation: it is {} bytes into an allocation of {} bytes at {base:#x} made by {}",
                    ptr - base,
                    b.size,
                    b.made
                ),
            );
        } else if b.kind != kind && !(b.kind == MemKind::Managed && kind == MemKind::Device) {
            report(
                call,
                "wrong free",
                format_args!(
                    "{ptr:#x} is {} made by {}, freed with {}",
                    b.kind.label(),
                    b.made,
                    call.name
                ),
            );
        }
        return;
    }
    if let Some((base, f)) = ledger::freed_at(ptr) {
        let what = if base == ptr {
            "double free"
        } else {
            "not the base of an allocation"
        };
        report(
            call,
            what,
            format_args!(
                "{what} of {ptr:#x}: {} bytes at {base:#x} made by {}, already freed by {}",
                f.block.size, f.block.made, f.freed
            ),
        );
    }
}

fn used(call: &Call<'_>, handle: usize) {
    if handle <= calls::PER_THREAD_STREAM {
        return;
    }
    if let Some((obj, by)) = ledger::destroyed_at(handle) {
        report(
            call,
            "used after destroy",
            format_args!(
                "{} {handle:#x} used after destroy: made by {}, destroyed by {by}",
                obj.kind.label(),
                obj.made
            ),
        );
    }
}

/// A launch's pointer-sized arguments that point into freed memory (the
/// kernel's parameter layout from the driver).
fn launch(call: &Call<'_>, l: &Launch) {
    if l.params == 0 {
        return;
    }
    let Some(kernel) = calls::known_kernel(l.func) else {
        return;
    };
    let Ok(api) = driver::family::<LibraryApi>(false) else {
        return;
    };
    for i in 0..256usize {
        let (mut offset, mut size) = (0usize, 0usize);
        if api.cuKernelGetParamInfo(kernel, i, &mut offset, &mut size) != CUresult::SUCCESS {
            break;
        }
        if size != std::mem::size_of::<usize>() {
            continue;
        }
        let Some(slot) = super::peek::<usize>(l.params + i * std::mem::size_of::<usize>()) else {
            break;
        };
        let Some(value) = super::peek::<usize>(slot) else {
            continue;
        };
        if let Some((base, f)) = ledger::freed_at(value) {
            report(
                call,
                "points into freed memory",
                format_args!(
                    "argument {i} of {} ({value:#x}) points into freed memory: {} bytes at {base:#x} made by {}, freed by {}",
                    super::profile::kernel_label(l.func),
                    f.block.size,
                    f.block.made,
                    f.freed
                ),
            );
        }
    }
}

/// At exit, before the driver shuts down: streams with work not done. The
/// legacy default stream is reported only when no stream the program made
/// is busy: the driver answers "not ready" for it while any blocking
/// stream has work queued (the legacy stream waits for those), so a busy
/// stream of the program's would be reported twice (seen on the H200).
pub(crate) fn at_exit() {
    let Some(drv) = driver::loaded() else { return };
    let mut streams: Vec<(usize, Option<Origin>)> = ledger::streams()
        .into_iter()
        .map(|(h, o)| (h, Some(o)))
        .collect();
    streams.push((0, None));
    let call = Call::new("exit", &[]);
    let mut any_busy = false;
    for (h, origin) in streams {
        if origin.is_none() && any_busy {
            continue;
        }
        let r = drv.cuStreamQuery(CUstream::from_raw(h as *mut c_void));
        if r != CUresult::ERROR_NOT_READY {
            continue;
        }
        any_busy = true;
        match origin {
            Some(o) => report(
                &call,
                "work still queued at exit",
                format_args!("stream {h:#x} has work still queued at exit (made by {o})"),
            ),
            None => report(
                &call,
                "work still queued at exit",
                format_args!("the default stream has work still queued at exit"),
            ),
        }
    }
}

/// The action the fault handler replaced, run after it reports.
static PREVIOUS: Mutex<Option<[libc::sigaction; 2]>> = Mutex::new(None);

/// Installs the handler that reports a host access to device memory (a
/// segmentation fault or bus error at an address of a live device
/// allocation), then lets the fault take its course.
pub(crate) fn watch_host_faults() {
    // SAFETY: a zeroed sigaction is a valid "default" action; the handler
    // is an `extern "C"` function with the SA_SIGINFO signature, which only
    // reads the ledger without waiting (try_lock) and writes with write(2).
    unsafe {
        let mut act: libc::sigaction = std::mem::zeroed();
        act.sa_sigaction = on_fault as *const () as usize;
        act.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
        libc::sigemptyset(&mut act.sa_mask);
        let mut prev: [libc::sigaction; 2] = std::mem::zeroed();
        libc::sigaction(libc::SIGSEGV, &act, &mut prev[0]);
        libc::sigaction(libc::SIGBUS, &act, &mut prev[1]);
        *PREVIOUS.lock() = Some(prev);
    }
}

/// A fixed buffer for the fault report (no allocation in the handler).
struct Line {
    buf: [u8; 384],
    len: usize,
}

impl std::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let n = s.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&s.as_bytes()[..n]);
        self.len += n;
        Ok(())
    }
}

extern "C" fn on_fault(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut c_void) {
    // SAFETY: the kernel passes a valid siginfo_t for SA_SIGINFO handlers.
    let addr = unsafe { (*info).si_addr() } as usize;
    if let Some(Some(ledger::Seen {
        base,
        size,
        kind: MemKind::Device,
        api,
        thread,
    })) = ledger::try_block_at(addr)
    {
        use std::fmt::Write as _;
        let mut line = Line {
            buf: [0; 384],
            len: 0,
        };
        let _ = writeln!(
            line,
            "cudart check: host access to device memory at {addr:#x}: {} bytes into an allocation of {size} bytes made by {api} on thread {thread}",
            addr - base
        );
        // SAFETY: writes `len` initialized bytes of `line.buf` to stderr.
        unsafe { libc::write(2, line.buf.as_ptr().cast(), line.len) };
    }
    // Put the previous action back and return: the access faults again and
    // takes its course (the program's handler, or the default: a core).
    if let Some(prev) = PREVIOUS.try_lock().and_then(|p| *p) {
        let i = usize::from(sig == libc::SIGBUS);
        // SAFETY: `prev[i]` is the action sigaction returned for `sig`.
        unsafe { libc::sigaction(sig, &prev[i], std::ptr::null_mut()) };
    } else {
        // SAFETY: resets `sig` to its default action.
        unsafe { libc::signal(sig, libc::SIG_DFL) };
    }
}
