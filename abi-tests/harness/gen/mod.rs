//! The generator of the differential harness (issue #7): a CUDA program that
//! calls every export of `libcudart.so.13` with ordinary arguments, in forked
//! children (one per call, or with `--batch` many per child), and prints one
//! line per export (see `runner.h`).
//!
//! 1. The prototypes come from the real headers of the toolchain wheel, read
//!    at build time: `cuda_runtime_api.h` and the GL, EGL and VDPAU interop
//!    headers are run through the C++ preprocessor twice (legacy names, and
//!    `CUDA_API_PER_THREAD_DEFAULT_STREAM` for the `_ptds`/`_ptsz` names)
//!    and every `extern` function declaration is parsed. The interop headers
//!    include `GL/gl.h`, `EGL/egl.h` and `vdpau/vdpau.h`; tiny stand-ins
//!    with the few typedefs they need are written next to the output.
//!    Exports no public header declares get our own prototypes
//!    (`prototypes.txt`).
//! 2. Every parameter gets an argument from the rules below ([`arg_for`]):
//!    per-call overrides first, then the parameter's name and type. A type
//!    without a rule is an error, so a new export cannot slip through.
//! 3. The bad-input matrix (issue #9, `--bad`): every parameter also gets
//!    the bad arguments that apply to it ([`bad_cases`]: NULL, destroyed
//!    and wrong-kind handles, enums past their last value (read from the
//!    headers, [`parse_enums`]), bad flags, devices, sizes, offsets, device
//!    pointers + 1, host memory where device memory is due...), decided by
//!    the parameter's type and name from the tables of that section. Each
//!    case is the ordinary call with one argument replaced, and has a stable
//!    id, `FUNCTION#PARAM=WHAT`. The exports of [`ISOLATED`] run alone, in a
//!    fresh child each, even in batch mode (their mark in the table).
//! 4. The program is `harness.cu`: the generated calls plus `runner.h`,
//!    compiled by the wheel's nvcc with `-cudart shared`, with a small
//!    fatbin (`harness_lib_kernel`, `harness_lib_var`) embedded for the
//!    registration and library calls.
//!
//! Used by `tests/harness.rs` and by `src/bin/harness-gen.rs`
//! (`scripts/harness-prepare.sh`).

#![allow(dead_code)]

use abi_tests::{cuda_home, nvcc, repo_root, run_ok};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `abi-tests/harness`: runner.h, prototypes.txt, the allow-list.
pub fn harness_src_dir() -> PathBuf {
    repo_root().join("abi-tests/harness")
}

/// NVIDIA's export list (the wheel's `libcudart.so.13`),
/// or `HARNESS_EXPORTS` when set.
pub fn export_list() -> Vec<String> {
    match std::env::var_os("HARNESS_EXPORTS") {
        Some(path) => abi_tests::reference_exports_from(Path::new(&path)),
        None => abi_tests::reference_exports(),
    }
}

mod args;
mod bad;
mod build;
mod emit;
mod prototypes;

pub use args::*;
pub use bad::*;
pub use build::*;
pub use emit::*;
pub use prototypes::*;
