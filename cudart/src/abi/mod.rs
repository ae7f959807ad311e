//! `#[repr(C)]` types, integer-newtype enums and flag constants of the
//! CUDA 13 runtime API.
//!
//! Written from documented facts (names, numbers, layouts); every layout and
//! constant is checked against the real CUDA 13.0 and 13.5 headers by `abi-tests`
//! (`tests/layout.rs`, `tests/errors.rs`). The headers come from the PyPI
//! wheels at test time and are never copied here.
//!
//! Every type and constant is declared through the `abi!` macro (see
//! `macros.rs`), which also records it in the per-file tables `LAYOUTS` and
//! `CONSTANTS`; `abi_modules!` below declares the files and joins their
//! tables into [`layouts`] and [`constants`]. So nothing declared here can
//! escape the layout test.
#![allow(non_camel_case_types, non_upper_case_globals, non_snake_case)]
#![forbid(unsafe_code)]

#[macro_use]
mod macros;
pub mod layout;

pub(crate) use core::ffi::{c_char, c_long, c_void};
pub use layout::{AbiZero, Constant, FieldLayout, TypeKind, TypeLayout};

/// Declares the ABI files: `pub mod` + `pub use` for each, and the joined
/// tables. A new file is added here and nowhere else: the files of CUDA
/// 13.0 first, then those of later versions, each with the CUDA version
/// (`CUDART_VERSION`) that introduced its content.
macro_rules! abi_modules {
    ($($m:ident),* ; $($since:literal => $n:ident),* $(,)?) => {
        $( pub mod $m; pub use $m::*; )*
        $( pub mod $n; pub use $n::*; )*

        /// The layout tables of every ABI file, with the CUDA version that
        /// introduced the file's types (0: 13.0).
        pub static LAYOUT_TABLES: &[(u32, &[TypeLayout])] =
            &[$((0, $m::LAYOUTS),)* $(($since, $n::LAYOUTS),)*];
        /// The constant tables of every ABI file, likewise.
        pub static CONSTANT_TABLES: &[(u32, &[Constant])] = &[
            $((0, $m::CONSTANTS),)*
            $(($since, $n::CONSTANTS),)*
            // Error codes live in error.rs with the rest of cudaError_t.
            (13050, error::CONSTANTS_13_5),
        ];
    };
}

abi_modules! {
    error,
    vector,
    device,
    memory,
    stream,
    launch,
    graph,
    texture,
    external,
    library,
    interop;
    13050 => resource,
    13050 => cuda135,
}

/// The CUDA version whose headers the newest declarations follow.
pub const NEWEST: u32 = 13050;

/// Every struct, union and enum declared in `abi/`, with its Rust layout.
pub fn layouts() -> impl Iterator<Item = &'static TypeLayout> {
    layouts_for(u32::MAX)
}

/// Every enumerator and flag constant declared in `abi/`, with its value.
pub fn constants() -> impl Iterator<Item = &'static Constant> {
    constants_for(u32::MAX)
}

/// The types the headers of CUDA `version` (e.g. 13000) declare (their
/// fields: check [`FieldLayout::in_version`]).
pub fn layouts_for(version: u32) -> impl Iterator<Item = &'static TypeLayout> {
    LAYOUT_TABLES
        .iter()
        .filter(move |(since, _)| *since <= version)
        .flat_map(|(_, t)| t.iter())
}

/// The enumerators and constants the headers of CUDA `version` declare.
/// A later file may give a constant of an earlier one a new value (an
/// enum's `...Max` or `...Count`, `CUDART_VERSION`: `revalues` in
/// `abi/macros.rs`); the latest such record up to `version` wins.
pub fn constants_for(version: u32) -> impl Iterator<Item = &'static Constant> {
    let tables = CONSTANT_TABLES
        .iter()
        .filter(move |(since, _)| *since <= version);
    let mut seen: Vec<&'static Constant> = Vec::new();
    for (_, t) in tables {
        for c in t.iter() {
            match seen
                .iter_mut()
                .find(|k| k.scope == c.scope && k.name == c.name)
            {
                Some(k) => *k = c,
                None => seen.push(c),
            }
        }
    }
    seen.into_iter()
}
