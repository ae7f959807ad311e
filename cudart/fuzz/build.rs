//! Builds the fuzz target's `libcuda.so.1` shim (shim/libcuda_shim.c) with
//! the system C compiler into OUT_DIR; the target opens it by path
//! (`FUZZ_DRIVER_SHIM`). Not instrumented: it only forwards one call.
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let src = PathBuf::from("shim/libcuda_shim.c");
    let so = out.join("libcuda.so.1");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args(["-std=c11", "-O1", "-fPIC", "-shared", "-Wall", "-Werror"])
        .arg("-Wl,-soname,libcuda.so.1")
        .arg("-o")
        .arg(&so)
        .arg(&src)
        .status()
        .unwrap_or_else(|e| panic!("running {cc}: {e}"));
    assert!(
        status.success(),
        "{cc} failed to build the libcuda.so.1 shim"
    );
    println!("cargo:rerun-if-changed={}", src.display());
    println!("cargo:rerun-if-env-changed=CC");
    println!("cargo:rustc-env=FUZZ_DRIVER_SHIM={}", so.display());
}
