//! A clean-room `libcudart.so.13`: the CUDA runtime API, implemented over
//! the public driver API of `libcuda.so.1`.
//!
//! Rooms (see README's architecture section): [`entry`] is the one table of
//! exports; [`boundary`] the wrapper every export goes through; [`abi`] the
//! C types; [`error`] the last and sticky errors; [`driver`] the driver's
//! entry points; [`context`] lazy initialization and primary contexts;
//! [`registry`] registered fatbins, kernels and variables with lazy
//! loading; [`launch`], [`memory`], [`stream`], [`event`], [`device`],
//! [`graph`], [`array`], [`texture`], [`mempool`], [`ipc`], [`peer`],
//! [`library`], [`occupancy`], [`external`], [`interop`], [`profiler`] one API family
//! each; [`trace`] the lifecycle trace; [`diagnose`] the failure explanations
//! (`CUDART_DIAGNOSTICS`).

pub mod abi;
pub mod array;
pub mod boundary;
pub mod context;
pub mod device;
pub mod diagnose;
pub mod driver;
pub mod entry;
pub mod error;
pub mod event;
pub mod external;
pub mod graph;
pub mod interop;
pub mod ipc;
pub mod launch;
pub mod library;
pub mod memory;
pub mod mempool;
pub mod occupancy;
pub mod peer;
pub mod profiler;
pub mod registry;
pub mod stream;
pub mod texture;
pub mod trace;

/// Runs when the library is loaded (before the program's own constructors
/// register their fatbins): reads the trace settings and registers the
/// `fork` handlers. Touches no driver.
extern "C" fn on_load() {
    trace::init_from_env();
    // SAFETY: the three handlers are `extern "C"` functions of this library
    // that never unwind; pthread_atfork only records them (in glibc, tied
    // to this library's lifetime through its `__dso_handle`).
    unsafe {
        libc::pthread_atfork(Some(fork_prepare), Some(fork_parent), Some(fork_child));
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

/// Called once the driver is loaded and initialized (`cuInit` done). The
/// runtime registers no exit handler: NVIDIA's runtime lets exit handlers
/// and static destructors use CUDA for as long as the driver works (even
/// handlers registered before the first CUDA call, measured on the H200);
/// once the driver has shut down at exit, calls get its answer
/// (`CUDA_ERROR_DEINITIALIZED`, `cudaErrorCudartUnloading`). Teardown
/// begins when this library is unloaded; the driver releases the primary
/// contexts the runtime still holds.
pub(crate) fn on_driver_ready() {}

/// Runs when the library is unloaded (at exit, after every exit handler, or
/// at `dlclose`): teardown begins, and the trace ends (the JSON array is
/// closed here).
extern "C" fn on_unload() {
    let _ = std::panic::catch_unwind(|| {
        if boundary::begin_teardown() {
            trace::event!(
                "runtime",
                "teardown (unload)",
                "unload: teardown begins; later calls get cudaErrorCudartUnloading"
            );
        }
        trace::event!("runtime", "libcudart unloaded", "libcudart.so.13 unloading");
        trace::finish();
    });
}

#[used]
#[link_section = ".init_array"]
static ON_LOAD: extern "C" fn() = on_load;

#[used]
#[link_section = ".fini_array"]
static ON_UNLOAD: extern "C" fn() = on_unload;
