//! The one table of entry points, one file per API family.
//!
//! Each line of the table declares one export of `libcudart.so.13`: what it
//! needs before it runs (`Nothing`, `Driver`, `Context`, `Launch` for the
//! kernel launches, which find their context themselves, or `LastError` for
//! the two calls that read the last error without recording one), its C
//! signature, and the room function it calls. The `entry_points!` macro
//! turns each line into a `#[no_mangle]` `extern "C"` function that goes
//! through [`crate::boundary::call_untraced`] or, with the trace on,
//! [`crate::boundary::call_traced`] (chosen in the export itself, so the
//! trace-off path keeps the arguments in registers), and into the file's
//! `EXPORTS` list;
//! [`exports`] joins them, and the export test compares that with the
//! built library. The version map (`libcudart.map`) tags every
//! `cuda*`/`__cuda*` name, so the table is the only list.
//!
//! Pointer parameters that the runtime writes or reads are declared with
//! the checked newtypes of [`crate::boundary`] (`Out<T>`, `In<T>`,
//! `CStrArg`), ABI-identical to the C pointers.

/// For `_ptds`/`_ptsz` exports: the null stream is the per-thread stream.
pub(crate) const PT: bool = true;
/// For the plain exports: the null stream is the legacy stream.
pub(crate) const LEGACY: bool = false;

macro_rules! entry_points {
    ($( $needs:ident fn $name:ident ( $($arg:ident : $ty:ty),* $(,)? ) -> $ret:ty => $body:expr ; )*) => {
        $(
            #[no_mangle]
            #[allow(unused_variables)]
            pub extern "C" fn $name($($arg: $ty),*) -> $ret {
                // With the trace or an insight feature on, the same call
                // runs out of line (with
                // the C calling convention too, so the arguments are passed
                // on as they came), and the fast path keeps its arguments
                // in registers.
                #[cold]
                #[inline(never)]
                #[allow(unused_variables)]
                extern "C" fn traced($($arg: $ty),*) -> $ret {
                    if crate::insight::on() {
                        let args = [$(crate::insight::Arg::of(&$arg)),*];
                        return crate::boundary::call_watched::<$ret>(stringify!($name), Needs::$needs, &args, move || $body);
                    }
                    crate::boundary::call_traced::<$ret>(stringify!($name), Needs::$needs, move || $body)
                }
                if crate::boundary::slow() {
                    return traced($($arg),*);
                }
                crate::boundary::call_untraced::<$ret>(stringify!($name), Needs::$needs, move || $body)
            }
        )*

        /// The functions this file of the table exports, in order.
        pub const EXPORTS: &[&str] = &[$(stringify!($name)),*];

        /// Each export with the room call it makes, as written in the table
        /// (the coverage report reads which ones answer NotSupported).
        pub const BODIES: &[(&str, &str)] = &[$((stringify!($name), stringify!($body))),*];
    };
}

pub mod core;
pub mod device;
pub mod graph;
pub mod interop;
pub mod library;
pub mod memory;
pub mod resource;
pub mod stream;

/// Every file of the table: (family, entries with their room calls).
pub const FAMILIES: &[(&str, &[(&str, &str)])] = &[
    ("core", core::BODIES),
    ("device", device::BODIES),
    ("graph", graph::BODIES),
    ("interop", interop::BODIES),
    ("library", library::BODIES),
    ("memory", memory::BODIES),
    ("resource", resource::BODIES),
    ("stream", stream::BODIES),
];

/// Every function this library exports, file by file in table order.
pub fn exports() -> impl Iterator<Item = &'static str> {
    FAMILIES
        .iter()
        .flat_map(|(_, t)| t.iter().map(|(name, _)| *name))
}

/// Whether a table line answers `cudaErrorNotSupported` outright.
pub fn is_not_supported(body: &str) -> bool {
    body.replace(' ', "")
        .starts_with("Err(cudaError_t::cudaErrorNotSupported")
}
