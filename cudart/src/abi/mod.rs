//! `#[repr(C)]` types, integer-newtype enums and flag constants of the
//! CUDA 13 runtime API.
//!
//! Written from documented facts (names, numbers, layouts); every layout and
//! constant is checked against the real CUDA 13.0 headers by `abi-tests`
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
/// tables. A new file is added here and nowhere else.
macro_rules! abi_modules {
    ($($m:ident),* $(,)?) => {
        $( pub mod $m; pub use $m::*; )*

        /// The layout tables of every ABI file.
        pub static LAYOUT_TABLES: &[&[TypeLayout]] = &[$($m::LAYOUTS),*];
        /// The constant tables of every ABI file.
        pub static CONSTANT_TABLES: &[&[Constant]] = &[$($m::CONSTANTS),*];
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
    interop,
}

/// Every struct, union and enum declared in `abi/`, with its Rust layout.
pub fn layouts() -> impl Iterator<Item = &'static TypeLayout> {
    LAYOUT_TABLES.iter().flat_map(|t| t.iter())
}

/// Every enumerator and flag constant declared in `abi/`, with its value.
pub fn constants() -> impl Iterator<Item = &'static Constant> {
    CONSTANT_TABLES.iter().flat_map(|t| t.iter())
}
