//! Zero-copy, panic-free parser of CUDA fatbins (nvcc 13).
//!
//! * [`WrapperHeader`] / [`Wrapper`]: the 24-byte `__fatBinC_Wrapper_t`
//!   (magic `0x466243B1`, version 1, or 2 with a prelinked array) that host
//!   code registers.
//! * [`Fatbin`] / [`Container`] / [`Entry`]: containers (magic `0xBA55ED50`)
//!   and their PTX and cubin entries, with [`Entry::decompress`] for zstd and
//!   LZ4 payloads, bounded by the declared size and
//!   [`MAX_DECOMPRESSED_SIZE`].
//! * [`select::select_entry`]: the entry to load on a device of a given
//!   compute capability.
//! * [`host::HostFile`]: the fatbins of an executable, shared library, object
//!   file or raw `.fatbin` file (`.nv_fatbin`, `__nv_relfatbin`,
//!   `.nvFatBinSegment` with relocations resolved).
//! * [`cubin::Cubin`]: kernels, parameters, resource usage and variables of a
//!   cubin, from its `.nv.info` attributes and sections.
//! * [`raw`]: the two `unsafe` helpers that turn pointers handed in by C code
//!   into slices; everything else is safe code over `&[u8]`.
//!
//! Every length is checked against its enclosing slice; failures are
//! [`Error`] values, never panics; no allocation is sized by an unchecked
//! length.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod archive;
pub mod container;
pub mod cubin;
pub mod decompress;
mod elf;
mod error;
#[doc(hidden)]
pub mod fuzz_bodies;
pub mod host;
pub mod names;
pub mod raw;
mod read;
pub mod select;
pub mod wrapper;

pub use container::{Compression, Container, Entry, EntryKind, Fatbin};
pub use decompress::MAX_DECOMPRESSED_SIZE;
pub use error::{Error, Result};
pub use raw::{container_slice_from_ptr, wrapper_from_ptr};
pub use select::{select_entry, NoImage};
pub use wrapper::{Wrapper, WrapperHeader};
