//! Shared helpers for the ABI and C-program tests: where the CUDA toolchain
//! from the PyPI wheels lives, where our built library lives, and how to
//! compile and run a C/CUDA program against either runtime.
//!
//! The toolchain is installed by `scripts/setup-toolchain.sh` into
//! `.toolchain/`; our library is built by `scripts/build.sh` (release
//! profile) before `cargo test` runs. Missing either is a test failure with
//! a message saying which script to run, never a silent skip.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("abi-tests lives inside the repository")
        .to_path_buf()
}

/// The CUDA-like tree of the toolchain wheels (`CUDA_HOME` wins when set).
pub fn cuda_home() -> PathBuf {
    let dir = std::env::var_os("CUDA_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join(".toolchain/site/nvidia/cu13"));
    assert!(
        dir.join("bin/nvcc").exists(),
        "no CUDA toolchain at {}: run scripts/setup-toolchain.sh",
        dir.display()
    );
    dir
}

/// `nvcc` of the toolchain.
pub fn nvcc() -> PathBuf {
    cuda_home().join("bin/nvcc")
}

/// `cuobjdump` of the toolchain.
pub fn cuobjdump() -> PathBuf {
    cuda_home().join("bin/cuobjdump")
}

/// Folder holding NVIDIA's `libcudart.so.13` (from the wheel).
pub fn nvidia_lib_dir() -> PathBuf {
    cuda_home().join("lib")
}

/// Folder holding our `libcudart.so.13` (`CUDART_LIB_DIR` wins when set).
pub fn our_lib_dir() -> PathBuf {
    let dir = std::env::var_os("CUDART_LIB_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target/release"));
    assert!(
        dir.join("libcudart.so.13").exists(),
        "no libcudart.so.13 in {}: run scripts/build.sh",
        dir.display()
    );
    dir
}

/// A scratch folder for one test's build products, emptied first.
pub fn scratch(name: &str) -> PathBuf {
    let dir = repo_root().join("target/abi-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch folder");
    dir
}

/// Runs a command, panicking with its output when it cannot start or fails.
pub fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Which runtime a program runs against.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Runtime {
    Nvidia,
    Ours,
}

impl Runtime {
    pub fn lib_dir(self) -> PathBuf {
        match self {
            Runtime::Nvidia => nvidia_lib_dir(),
            Runtime::Ours => our_lib_dir(),
        }
    }
}

/// A command for `exe` with `LD_LIBRARY_PATH` set so that it loads the given
/// runtime's `libcudart.so.13` (plus any extra folders first, e.g. the
/// test-double driver).
pub fn command_with(exe: &Path, rt: Runtime, extra_dirs: &[&Path]) -> Command {
    let mut dirs: Vec<PathBuf> = extra_dirs.iter().map(|d| d.to_path_buf()).collect();
    dirs.push(rt.lib_dir());
    let joined = std::env::join_paths(dirs).expect("library path");
    let mut cmd = Command::new(exe);
    cmd.env("LD_LIBRARY_PATH", joined);
    cmd
}
