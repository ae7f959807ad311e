//! The rule for a CUDA 13.5 call on an older driver, on the test-double
//! driver (`abi-tests/c/newer_driver.cu`, built by nvcc 13.5):
//!
//! - driver 13.0 (the double's default, as driver 580): every call whose
//!   driver entry point came after 13.0 answers
//!   `cudaErrorCallRequiresNewerDriver` (36), records it as the last error,
//!   is not sticky, and the runtime never asks the driver for an entry
//!   point above 13000 (what NVIDIA's 13.5 runtime does: seen on the
//!   double, it asks for nothing above the driver's version);
//! - driver 13.5 (the double reporting 13050): the runtime asks for each
//!   13.1-13.4 entry point at the version that introduced it
//!   (`cuLaunchHostFunc` at 13010, whose ABI has the sync mode); the double
//!   has none of them, so the answers stay 36.

use abi_tests::*;
use std::process::Command;

fn run_on_double(driver_version: &str) -> (String, String) {
    let dir = scratch(&format!("newer-driver-{driver_version}"));
    let double = build_driver_double(&dir.join("double"));
    let exe = dir.join("newer_driver");
    run_ok(
        Command::new(nvcc135())
            .args(["-cudart", "shared", "-arch=sm_90", "-o"])
            .arg(&exe)
            .arg(c_dir().join("newer_driver.cu")),
    );
    let log = dir.join("calls.log");
    let out = run_capture(
        clean_command(&exe, Runtime::Ours, &[double.as_path()])
            .env("CUDA_DOUBLE_DRIVER_VERSION", driver_version)
            .env("CUDA_DOUBLE_LOG", &log)
            .env("CUDA_DOUBLE_LOG_PROCS", "1"),
    );
    assert!(out.status.success(), "{}", describe_status(&out.status));
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        std::fs::read_to_string(&log).unwrap_or_default(),
    )
}

const NEWER: &[&str] = &[
    "cudaFuncGetParamCount",
    "cudaGraphGetId",
    "cudaLaunchHostFunc_v2",
    "cudaMemGetLocationInfo",
];

fn check_answers(stdout: &str) {
    // cudaStreamGetDevResource works on a 13.0 driver too (the stream's
    // context's resources), as under NVIDIA's 13.5 runtime on driver 580.
    for call in [
        "cudaMalloc",
        "cudaMemset",
        "cudaFree",
        "cudaStreamGetDevResource",
    ] {
        let want = format!("{call} -> 0 cudaSuccess; lasterror -> 0");
        assert!(stdout.contains(&want), "{want}\n{stdout}");
    }
    for call in NEWER {
        let want = format!("{call} -> 36 cudaErrorCallRequiresNewerDriver; lasterror -> 36");
        assert!(stdout.contains(&want), "{want}\n{stdout}");
    }
}

#[test]
fn driver_13_0_answers_requires_newer_driver() {
    let (stdout, log) = run_on_double("13000");
    check_answers(&stdout);
    let above: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("cuGetProcAddress_v2"))
        .filter(|l| {
            l.split_whitespace()
                .find_map(|w| w.strip_prefix("version="))
                .and_then(|v| v.parse::<i32>().ok())
                .is_some_and(|v| v > 13000)
        })
        .collect();
    assert!(
        above.is_empty(),
        "asked a 13.0 driver for newer entry points: {above:?}"
    );
}

#[test]
fn driver_13_5_is_asked_at_each_entry_points_version() {
    let (stdout, log) = run_on_double("13050");
    check_answers(&stdout);
    for want in [
        "cuGetProcAddress_v2 cuLaunchHostFunc version=13010",
        "cuGetProcAddress_v2 cuGraphGetId version=13010",
        "cuGetProcAddress_v2 cuKernelGetParamCount version=13020",
        "cuGetProcAddress_v2 cuMemGetLocationInfo version=13040",
    ] {
        assert!(
            log.contains(want),
            "no {want:?} in the double's log:\n{log}"
        );
    }
    // The 13.0 tables still ask for 13000: the 3-argument cuLaunchHostFunc.
    assert!(log.contains("cuGetProcAddress_v2 cuLaunchHostFunc version=13000"));
}
