//! A clean-room `libcudart.so.13`: the CUDA runtime API, implemented over
//! the public driver API of `libcuda.so.1`.
//!
//! Rooms (see docs/architecture.md): [`entry`] is the one table of
//! exports; [`boundary`] the wrapper every export goes through; [`abi`] the
//! C types; [`error`] the last and sticky errors; [`driver`] the driver's
//! entry points; [`context`] lazy initialization and primary contexts;
//! [`handles`] the handles the runtime made and destroyed; [`copy`] what
//! copies are made of (kinds, operands, element sizes);
//! [`registry`] registered fatbins, kernels and variables with lazy
//! loading; [`launch`], [`memory`], [`stream`], [`event`], [`device`],
//! [`graph`], [`array`], [`texture`], [`mempool`], [`ipc`], [`peer`],
//! [`library`], [`occupancy`], [`external`], [`interop`], [`profiler`] one API family
//! each; [`trace`] the lifecycle trace; [`diagnose`] the failure explanations
//! (`CUDART_DIAGNOSTICS`).

#[macro_use]
pub mod abi;
pub(crate) mod addrmap;
pub(crate) mod array;
pub(crate) mod boundary;
pub(crate) mod context;
pub(crate) mod copy;
pub(crate) mod device;
pub(crate) mod diagnose;
pub(crate) mod driver;
pub mod entry;
pub(crate) mod error;
pub(crate) mod event;
pub(crate) mod external;
pub(crate) mod graph;
pub(crate) mod handles;
pub(crate) mod insight;
pub(crate) mod interop;
pub(crate) mod ipc;
pub(crate) mod launch;
pub(crate) mod library;
pub(crate) mod memory;
pub(crate) mod mempool;
pub(crate) mod objects;
pub(crate) mod occupancy;
pub(crate) mod owners;
pub(crate) mod peer;
pub(crate) mod profiler;
pub(crate) mod registry;
pub(crate) mod resource;
pub(crate) mod since135;
pub(crate) mod stream;
pub(crate) mod texture;
pub(crate) mod trace;

/// What the workspace's tests, fuzzers and tools reach from outside the
/// crate: the driver ABI as data (held against `cuda.h` by
/// `abi-tests/tests/driver_abi.rs`) and the registry's entry points and
/// queries. Every room itself is private to the crate; [`abi`] (the C
/// types) and [`entry`] (the table of exports) are public on their own.
pub mod facade {
    /// The driver tables, types and constants, for the driver ABI test.
    pub mod driver {
        pub use crate::driver::c_names::RUNTIME_AS_DRIVER;
        pub use crate::driver::types::POINTER_CONSTANTS;
        pub use crate::driver::{constants, constants_since_13_0, layouts, tables, Signature};
    }
    /// Registration as nvcc's host code drives it, and what it holds.
    pub mod registry {
        pub use crate::registry::{
            counts, kernel_for_stub, register_fatbin, register_fatbin_end, register_function,
            unregister_fatbin,
        };
    }
}

use std::ffi::{c_int, c_void};

/// Runs when the library is loaded (before the program's own constructors
/// register their fatbins): reads the trace settings and registers the
/// `fork` handlers. Touches no driver.
extern "C" fn on_load() {
    objects::mark();
    trace::init_from_env();
    insight::init_from_env();
    if objects::linked_statically() {
        unload_with_the_object();
    }
    if trace::enabled() || diagnose::enabled() {
        report_other_runtimes();
    }
    // SAFETY: the three handlers are `extern "C"` functions of this library
    // that never unwind; pthread_atfork only records them (in glibc, tied
    // to this library's lifetime through its `__dso_handle`).
    unsafe {
        libc::pthread_atfork(Some(fork_prepare), Some(fork_parent), Some(fork_child));
    }
}

/// Says once, in the trace and as a diagnostic, which loaded objects carry
/// NVIDIA's static runtime and so bypass this one.
#[cold]
fn report_other_runtimes() {
    let Some(text) = objects::bypass_message(&objects::nvidia_static_runtimes()) else {
        return;
    };
    trace::event!("runtime", "NVIDIA's static runtime present", "{text}");
    if diagnose::enabled() {
        eprintln!("cudart diagnostic: {text}");
    }
}

unsafe extern "C" fn fork_prepare() {
    trace::before_fork();
}

unsafe extern "C" fn fork_parent() {
    trace::after_fork(false);
}

unsafe extern "C" fn fork_child() {
    trace::after_fork(true);
    boundary::after_fork_in_child();
    trace::event!(
        "runtime",
        "fork: child process",
        "fork: child process {}; {}",
        std::process::id(),
        if boundary::tearing_down() {
            "the parent used CUDA: calls that need the driver get cudaErrorInitializationError"
        } else {
            "the parent never loaded the driver: CUDA starts fresh here"
        }
    );
}

/// Registers the runtime's exit watch, just before the process's first
/// `cuInit` (which registers the driver's shutdown at exit). Exit handlers
/// and static destructors run in reverse order of registration, so the
/// watch runs right after the driver has shut down: what runs later
/// (objects constructed before CUDA started, such as PyTorch's globals) sees
/// teardown at once, as under NVIDIA's runtime, whose calls there answer
/// `cudaErrorCudartUnloading`, even `cudaGetDevice` (measured on the H200,
/// `c-samples/life_exit_destroy`). What runs earlier (handlers registered
/// after `cuInit`) uses CUDA normally. The watch asks the driver before it
/// acts, so a driver that did not shut down leaves the runtime running.
/// When the driver was initialized before the runtime loaded it, no watch
/// is armed: teardown then begins at the driver's first "deinitialized".
pub(crate) fn arm_exit_watch() {
    let r = at_exit(exit_watch);
    if r != 0 {
        log::info!(target: "cudart::lifecycle", "exit watch not registered (__cxa_atexit: {r})");
    }
}

/// Registers `handler` to run at exit, or at `dlclose` of the object this
/// code is linked into (the shared library, or the program or library that
/// linked the static archive) if that comes first. `handler` must never
/// unwind. Returns `__cxa_atexit`'s answer (0: registered).
pub(crate) fn at_exit(handler: extern "C" fn(*mut c_void)) -> c_int {
    extern "C" {
        fn __cxa_atexit(
            func: extern "C" fn(*mut c_void),
            arg: *mut c_void,
            dso: *const c_void,
        ) -> c_int;
        static __dso_handle: c_void;
    }
    // SAFETY: `handler` is an `extern "C"` function of this object that
    // never unwinds (its callers' contract); `__dso_handle` is the handle of
    // the object this code is linked into (from crtbegin), so glibc runs the
    // handler at exit or at that object's `dlclose`, never after its code
    // is gone.
    unsafe {
        __cxa_atexit(
            handler,
            std::ptr::null_mut(),
            std::ptr::addr_of!(__dso_handle),
        )
    }
}

extern "C" fn exit_watch(_: *mut c_void) {
    let _ = std::panic::catch_unwind(|| {
        // A forked child (its exit runs the parent's handlers too) and a
        // runtime already tearing down leave the driver alone.
        if boundary::tearing_down() {
            return;
        }
        if let Some(drv) = driver::loaded() {
            boundary::driver_has_shut_down(drv);
        }
    });
}

/// Linked statically into a shared library, this runtime's `.fini_array`
/// entry would run at `dlclose` before the library's exit handlers, among
/// them nvcc's `__cudaUnregisterFatBinary`, which then found teardown begun
/// and left its module loaded. An exit handler registered now, before the
/// object's other constructors register theirs, runs after all of them:
/// at `dlclose` of that library, or at exit for a program.
fn unload_with_the_object() {
    extern "C" fn handler(_: *mut c_void) {
        on_unload();
    }
    // on_unload catches panics: the handler never unwinds.
    at_exit(handler);
}

/// Runs when the runtime is unloaded (at exit, after every exit handler, or
/// at `dlclose`; see [`unload_with_the_object`] for the static runtime),
/// once: teardown begins, and the trace ends (the JSON array is closed
/// here).
extern "C" fn on_unload() {
    static UNLOADED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if UNLOADED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let _ = std::panic::catch_unwind(|| {
        // The reports of a program that exited without initializing the
        // driver, or whose exit report did not run (dlclose).
        insight::report_at_exit();
        if boundary::begin_teardown() {
            trace::event!(
                "runtime",
                "teardown (unload)",
                "unload: teardown begins; later calls get cudaErrorCudartUnloading"
            );
        }
        if objects::linked_statically() {
            trace::event!(
                "runtime",
                "libcudart unloaded",
                "libcudart_static.a runtime unloading"
            );
        } else {
            trace::event!("runtime", "libcudart unloaded", "libcudart.so.13 unloading");
        }
        trace::finish();
    });
}

/// A prioritized constructor: linked from libcudart_static.a into a
/// program, it runs before the program's own constructors (the plain
/// `.init_array` entries, nvcc's fatbin registration among them), as the
/// shared library's constructor runs before its users'.
#[used]
#[link_section = ".init_array.00100"]
static ON_LOAD: extern "C" fn() = on_load;

/// The shared library's unload. Linked statically, the runtime unloads
/// from its exit handler instead ([`unload_with_the_object`]): a
/// `.fini_array` entry of a shared library runs before the library's exit
/// handlers.
extern "C" fn on_unload_shared() {
    if !objects::linked_statically() {
        on_unload();
    }
}

#[used]
#[link_section = ".fini_array"]
static ON_UNLOAD: extern "C" fn() = on_unload_shared;
