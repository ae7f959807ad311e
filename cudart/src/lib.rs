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
//! each; [`trace`] the lifecycle trace.

pub mod abi;
pub mod array;
pub mod boundary;
pub mod context;
pub mod device;
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
/// register their fatbins): only reads the trace settings.
extern "C" fn on_load() {
    trace::init_from_env();
}

/// Runs when the library is unloaded at exit: from then on, calls that
/// would need the driver answer `cudaErrorCudartUnloading`.
extern "C" fn on_unload() {
    boundary::begin_teardown();
    log::info!(target: "cudart::lifecycle", "runtime: unloading; later calls get cudaErrorCudartUnloading");
}

#[used]
#[link_section = ".init_array"]
static ON_LOAD: extern "C" fn() = on_load;

#[used]
#[link_section = ".fini_array"]
static ON_UNLOAD: extern "C" fn() = on_unload;
