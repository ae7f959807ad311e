//! What a program did, told by the runtime that saw every call it made:
//! four features, each off by default and switched on by one variable.
//!
//! - `CUDART_PROFILE=1` ([`profile`]): a summary at exit of kernels, copies
//!   and sets (GPU time from events the runtime records around them), host
//!   time blocked in synchronizing calls, and allocation peaks.
//! - `CUDART_LEAKS=1` (or `stack`) ([`leaks`]): what is still alive at
//!   exit, each object with the call and thread that made it.
//! - `CUDART_CHECK=1` ([`check`]): API misuse caught at the call, with the
//!   origin of the objects involved.
//! - `CUDART_FAULTS=rules` ([`faults`]): chosen calls fail as the driver
//!   would, to test a program's error paths.
//!
//! Cost when off: nothing on any call. Every export branches once on
//! [`crate::boundary::slow`] (one relaxed load) to its out-of-line form,
//! which the trace uses too; these features set that flag, and the
//! out-of-line form hands them the call's name and its arguments as the C
//! caller passed them ([`Arg`]). [`calls`] reads the arguments of the calls
//! that matter into a [`calls::Fact`]; [`ledger`] keeps the live
//! allocations and objects with their origins.

pub(crate) mod calls;
pub(crate) mod check;
pub(crate) mod faults;
pub(crate) mod gpu_time;
pub(crate) mod leaks;
pub(crate) mod ledger;
pub(crate) mod profile;

use crate::abi::cudaError_t;
use std::ffi::c_void;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

/// Whether any of the features is on (set once, at load).
static ON: AtomicBool = AtomicBool::new(false);

/// What the environment asked for, read once at load.
pub(crate) struct Settings {
    pub(crate) profile: Option<profile::Output>,
    pub(crate) leaks: Option<leaks::Mode>,
    pub(crate) check: bool,
    pub(crate) faults: Option<faults::Plan>,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

/// Whether any feature is on (one relaxed load).
#[inline(always)]
pub(crate) fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

pub(crate) fn settings() -> &'static Settings {
    SETTINGS.get_or_init(|| Settings {
        profile: None,
        leaks: None,
        check: false,
        faults: None,
    })
}

/// Reads the four variables (at load; touches no driver). A variable that
/// cannot be understood is named on stderr and ignored.
pub(crate) fn init_from_env() {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let faults = var("CUDART_FAULTS").and_then(|spec| match faults::Plan::parse(&spec) {
        Ok(plan) => {
            say(format_args!("cudart faults: {}\n", plan.describe()));
            Some(plan)
        }
        Err(why) => {
            say(format_args!("cudart: {why}; CUDART_FAULTS ignored\n"));
            None
        }
    });
    let s = Settings {
        profile: var("CUDART_PROFILE")
            .filter(|v| v != "0")
            .map(|v| profile::Output::from_env(&v, var("CUDART_PROFILE_FILE"))),
        leaks: var("CUDART_LEAKS").and_then(|v| leaks::Mode::parse(&v)),
        check: var("CUDART_CHECK").is_some_and(|v| v != "0"),
        faults,
    };
    let any = s.profile.is_some() || s.leaks.is_some() || s.check || s.faults.is_some();
    if SETTINGS.set(s).is_err() || !any {
        return;
    }
    if settings().check {
        check::watch_host_faults();
    }
    ON.store(true, Ordering::Relaxed);
    crate::boundary::set_slow();
}

/// One argument of a call as the C caller passed it: its first 24 bytes
/// (a pointer, an integer, a `dim3` or a `cudaExtent` by value).
#[derive(Clone, Copy, Default)]
pub struct Arg([u64; 3]);

impl Arg {
    /// The bytes of `v`, up to 24.
    #[inline]
    pub fn of<T>(v: &T) -> Arg {
        let mut a = Arg::default();
        let n = std::mem::size_of::<T>().min(std::mem::size_of::<Arg>());
        // SAFETY: `v` is a live value of `size_of::<T>()` bytes and `a` is
        // 24 bytes of plain integers; `n` is at most both, and the two do
        // not overlap. Any byte pattern is a valid `u64`.
        unsafe {
            std::ptr::copy_nonoverlapping(
                (v as *const T).cast::<u8>(),
                a.0.as_mut_ptr().cast::<u8>(),
                n,
            );
        }
        a
    }

    /// The first word: a pointer, a `size_t`, or an integer (low bits).
    pub(crate) fn word(self) -> usize {
        self.0[0] as usize
    }

    /// A 32-bit integer argument.
    pub(crate) fn int(self) -> i32 {
        self.0[0] as u32 as i32
    }

    /// A `dim3` by value.
    pub(crate) fn dim3(self) -> [u32; 3] {
        [self.0[0] as u32, (self.0[0] >> 32) as u32, self.0[1] as u32]
    }

    /// Three words (a `cudaExtent` by value).
    pub(crate) fn words(self) -> [usize; 3] {
        [self.0[0] as usize, self.0[1] as usize, self.0[2] as usize]
    }
}

pub(crate) use crate::handles::read_own as peek;
pub(crate) use crate::trace::tid as thread_id;

/// Writes to stderr, whole lines at once.
pub(crate) fn say(text: std::fmt::Arguments<'_>) {
    let line = text.to_string();
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
}

/// The call, watched: a fault may answer it instead of the runtime; the
/// checks look at it before it runs; the profile times it; the ledger
/// records what it made or destroyed. `run` is the call itself (the
/// preparation and the room function).
pub(crate) fn around<V>(
    api: &'static str,
    args: &[Arg],
    run: impl FnOnce() -> Result<V, cudaError_t>,
) -> Result<V, cudaError_t> {
    let s = settings();
    if !CALLED.load(Ordering::Relaxed) {
        CALLED.store(true, Ordering::Relaxed);
        if let Some(out) = &s.profile {
            profile::start(out);
        }
    }
    let call = calls::Call::new(api, args);
    let fact = calls::read(&call);
    if let Some(plan) = &s.faults {
        let kernel = fact.launched().and_then(calls::kernel_name);
        if let Some(inj) = plan.decide(call.name, kernel.as_deref()) {
            let what = kernel.map_or_else(|| call.name.to_string(), |k| format!("launch of {k}"));
            say(format_args!(
                "cudart fault: {what} (call {}) fails with {}\n",
                inj.call,
                inj.error.name().to_string_lossy()
            ));
            crate::trace::event!("insight", "fault injected", "{}", plan.why(&inj));
            return Err(inj.error);
        }
    }
    if s.check {
        check::before(&call, &fact);
    }
    let timing = if s.profile.is_some() {
        profile::before(&call, &fact)
    } else {
        None
    };
    let start = Instant::now();
    let result = run();
    let host = start.elapsed();
    if result.is_ok() {
        ledger::after(&call, &fact);
        at_exit_once();
    }
    if s.profile.is_some() {
        profile::after(&call, &fact, timing, result.is_ok(), host);
    }
    result
}

/// Registers the exit report, after the driver is initialized: exit
/// handlers run in reverse order of registration, so the report runs
/// before the driver's own shutdown, while events can still be read and
/// streams asked whether they are done.
fn at_exit_once() {
    static ARMED: AtomicBool = AtomicBool::new(false);
    if ARMED.load(Ordering::Relaxed) || crate::driver::loaded().is_none() {
        return;
    }
    if !ARMED.swap(true, Ordering::Relaxed) {
        crate::at_exit(exit_report);
    }
}

extern "C" fn exit_report(_: *mut c_void) {
    let _ = std::panic::catch_unwind(report_at_exit);
}

/// Set at this process's first runtime call while a feature is on.
static CALLED: AtomicBool = AtomicBool::new(false);

/// The reports at exit (once): work still queued, the profile, the leaks.
/// A process that never called the runtime (a shell or a tool that only
/// has the library preloaded) reports nothing.
pub(crate) fn report_at_exit() {
    static DONE: AtomicBool = AtomicBool::new(false);
    if !on() || !CALLED.load(Ordering::Relaxed) || DONE.swap(true, Ordering::Relaxed) {
        return;
    }
    let s = settings();
    let driver_up = !crate::boundary::tearing_down() && crate::driver::loaded().is_some();
    if s.check && driver_up {
        check::at_exit();
    }
    if let Some(out) = &s.profile {
        if driver_up {
            gpu_time::settle_all();
        }
        profile::write(out);
    }
    if let Some(mode) = s.leaks {
        leaks::report(mode);
    }
}
