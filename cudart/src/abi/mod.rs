//! `#[repr(C)]` types and integer-newtype enums of the CUDA 13 runtime API.
//!
//! Written from documented facts; every layout and constant is checked
//! against the real CUDA 13.0 headers by `abi-tests` (the headers come from
//! the PyPI wheels at test time and are never copied here).
#![allow(non_camel_case_types, non_upper_case_globals, non_snake_case)]

pub mod error;

pub use error::cudaError_t;
