//! Diagnostics (issue 11) on a CPU machine: the cases of c-samples/diag
//! that need no GPU. With `CUDART_DIAGNOSTICS=1` our runtime explains the
//! failure on stderr, naming the facts that decide it; without it, nothing
//! is printed; the error codes are NVIDIA's either way.
//! - no driver: where libcuda.so.1 was looked for;
//! - with the test-double driver: a driver too old, cuInit failing
//!   (CUDA_VISIBLE_DEVICES), no kernel image for the device (a program built
//!   for sm_80 only; the double's device is an sm_90), a kernel launch that
//!   does not fit (2048 threads), an unregistered symbol and a host function
//!   passed as a kernel.
//!
//! The cases that need a real device run on the GPU (c-samples/diag/run.py).

use abi_tests::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

struct Built {
    dir: PathBuf,
    double: PathBuf,
}

fn built() -> &'static Built {
    static B: OnceLock<Built> = OnceLock::new();
    B.get_or_init(|| {
        assert_no_driver_installed();
        let dir = scratch("diagnostics");
        run_ok(
            Command::new("bash")
                .arg(repo_root().join("c-samples/diag/build.sh"))
                .arg(&dir)
                .env("NVCC", nvcc()),
        );
        let double = build_driver_double(&dir.join("double"));
        Built { dir, double }
    })
}

struct Out {
    stdout: String,
    stderr: String,
}

fn run(prog: &str, case: &str, rt: Runtime, double: bool, diag: bool, env: &[(&str, &str)]) -> Out {
    let b = built();
    let extra: Vec<&Path> = if double {
        vec![b.double.as_path()]
    } else {
        vec![]
    };
    let mut cmd = clean_command(&b.dir.join(prog), rt, &extra);
    cmd.arg(case).env_remove("CUDART_DIAGNOSTICS");
    if diag {
        cmd.env("CUDART_DIAGNOSTICS", "1");
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = run_capture(&mut cmd);
    Out {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn diagnostics(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| l.contains("cudart diagnostic:"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_facts(what: &str, out: &Out, facts: &[&str]) {
    let d = diagnostics(&out.stderr);
    for f in facts {
        assert!(
            d.contains(f),
            "{what}: the diagnostic does not name {f:?}\n--- diagnostics ---\n{d}\n--- stdout ---\n{}--- stderr ---\n{}",
            out.stdout,
            out.stderr
        );
    }
}

#[test]
fn no_driver_names_where_it_looked() {
    let nv = run("diag", "none", Runtime::Nvidia, false, false, &[]);
    let quiet = run("diag", "none", Runtime::Ours, false, false, &[]);
    let out = run("diag", "none", Runtime::Ours, false, true, &[]);
    assert_eq!(nv.stdout, quiet.stdout, "codes differ from NVIDIA's");
    assert_eq!(
        nv.stdout, out.stdout,
        "codes differ from NVIDIA's with diagnostics on"
    );
    assert!(
        out.stdout
            .contains("cudaFree(0) -> cudaErrorInsufficientDriver"),
        "{}",
        out.stdout
    );
    assert_eq!(
        diagnostics(&quiet.stderr),
        "",
        "diagnostics must be off by default"
    );
    assert_facts(
        "no driver",
        &out,
        &[
            "libcuda.so.1 could not be loaded",
            "LD_LIBRARY_PATH",
            "install the NVIDIA driver",
        ],
    );
}

#[test]
fn old_driver_and_failed_init_are_explained() {
    let out = run(
        "diag",
        "none",
        Runtime::Ours,
        true,
        true,
        &[("CUDA_DOUBLE_DRIVER_VERSION", "12040")],
    );
    assert!(
        out.stdout.contains("cudaErrorInsufficientDriver"),
        "{}",
        out.stdout
    );
    assert_facts(
        "old driver",
        &out,
        &["supports CUDA 12.4", "needs a driver that supports 13.0"],
    );

    let out = run(
        "diag",
        "none",
        Runtime::Ours,
        true,
        true,
        &[("CUDA_DOUBLE_DEVICES", "0"), ("CUDA_VISIBLE_DEVICES", "7")],
    );
    assert!(out.stdout.contains("cudaErrorNoDevice"), "{}", out.stdout);
    assert_facts(
        "no device",
        &out,
        &[
            "cuInit failed with driver error 100",
            "CUDA_VISIBLE_DEVICES is \"7\"",
        ],
    );
}

#[test]
fn no_kernel_image_lists_the_fatbin_and_the_fix() {
    let quiet = run("diag_no_image", "no_image", Runtime::Ours, true, false, &[]);
    let out = run("diag_no_image", "no_image", Runtime::Ours, true, true, &[]);
    assert!(
        out.stdout
            .contains("small_k<<<1, 1>>> -> cudaErrorNoKernelImageForDevice"),
        "{}\n{}",
        out.stdout,
        out.stderr
    );
    assert_eq!(quiet.stdout, out.stdout);
    assert_eq!(diagnostics(&quiet.stderr), "");
    assert_facts(
        "no image",
        &out,
        &[
            "sm_90 (compute capability 9.0)",
            "cubin sm_80",
            "-gencode arch=compute_90,code=sm_90",
        ],
    );
}

#[test]
fn launch_symbol_and_function_failures_are_explained() {
    let out = run("diag", "threads", Runtime::Ours, true, true, &[]);
    assert_facts(
        "2048 threads",
        &out,
        &["small_k", "2048 threads per block", "limit of 1024"],
    );
    let out = run("diag", "symbol", Runtime::Ours, true, true, &[]);
    assert!(
        out.stdout
            .contains("cudaMemcpyToSymbol(a host variable) -> cudaErrorInvalidSymbol"),
        "{}",
        out.stdout
    );
    assert_facts(
        "symbol",
        &out,
        &[
            "not the host shadow of a registered",
            "nearest registered variable is",
        ],
    );
    let out = run("diag", "function", Runtime::Ours, true, true, &[]);
    assert!(
        // The driver's code for an unknown handle (the H200's:
        // cudaErrorInvalidResourceHandle, under both runtimes).
        out.stdout
            .contains("cudaLaunchKernel(a host function) -> cudaError"),
        "{}",
        out.stdout
    );
    assert_facts("function", &out, &["never registered as a kernel"]);
    // A kernel of a library that carries its own (static) runtime.
    let out = run("diag", "static", Runtime::Ours, true, true, &[]);
    assert!(
        out.stdout.contains("cudaGetKernel(a kernel of a statically linked runtime) -> cudaErrorInvalidDeviceFunction"),
        "{}",
        out.stdout
    );
    assert_facts(
        "static",
        &out,
        &["libdiagstatic.so", "statically linked", "-cudart shared"],
    );
}
