//! The toolchain matrix (issue 27): every c-sample, built by
//! `c-samples/build.sh` once with nvcc 13.0 and once with nvcc 13.5, runs
//! with NO driver on the machine against NVIDIA's runtime of the same
//! minor (the toolchain wheel's `libcudart.so.13`) and against ours, as
//! `scripts/gpu-run.sh` runs them on the GPU (cwd the build folder, stdin
//! empty, `LD_LIBRARY_PATH` the runtime's folder). Stdout and the way each
//! program ended must be identical. The GPU runs of the same sets are in
//! docs/gpu-report.md and docs/gpu-report-135.md.
//!
//! Fails (never skips) when a toolchain or our library is missing, or when
//! a driver is installed.

use abi_tests::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Builds every sample with `nvcc` into a fresh folder; the names that
/// built, in run order (`samples.txt`).
fn build(nvcc: &Path, name: &str) -> (PathBuf, Vec<String>) {
    let dir = scratch(name);
    let out = run_capture(
        Command::new("bash")
            .arg(repo_root().join("c-samples/build.sh"))
            .arg(&dir)
            .env("NVCC", nvcc)
            .env("JOBS", "2"),
    );
    assert!(
        out.status.success(),
        "c-samples/build.sh with {} failed:\n{}",
        nvcc.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let list = std::fs::read_to_string(dir.join("samples.txt")).expect("samples.txt");
    let names = list.split_whitespace().map(str::to_owned).collect();
    (dir, names)
}

/// Stdout and ending of one sample under one runtime (30 s at most).
fn run(dir: &Path, name: &str, rt: Runtime) -> (String, String) {
    let mut cmd = clean_command(Path::new("/usr/bin/timeout"), rt, &[]);
    cmd.args(["-k", "5", "30"])
        .arg(dir.join(name))
        .current_dir(dir)
        .stdin(Stdio::null());
    for var in ["CUDART_TRACE", "CUDART_TRACE_FILE", "CUDART_TRACE_JSON"] {
        cmd.env_remove(var);
    }
    let out = run_capture(&mut cmd);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        describe_status(&out.status),
    )
}

/// Runs every sample under `nvidia` and ours; fails with every sample
/// whose stdout or ending differs.
fn matrix(nvcc: &Path, name: &str, nvidia: Runtime, at_least: usize) {
    assert_no_driver_installed();
    let (dir, names) = build(nvcc, name);
    assert!(
        names.len() >= at_least,
        "{name}: {} samples built, expected at least {at_least}",
        names.len()
    );
    let mut differ = Vec::new();
    for s in &names {
        let (nv, nv_end) = run(&dir, s, nvidia);
        let (ours, our_end) = run(&dir, s, Runtime::Ours);
        assert!(
            !nv.is_empty() || nv_end != "exit 0",
            "{s}: no output under NVIDIA's runtime"
        );
        if nv != ours || nv_end != our_end {
            differ.push(format!(
                "{s}: NVIDIA {nv_end}, ours {our_end}\n--- NVIDIA ---\n{nv}--- ours ---\n{ours}"
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{name}: {} of {} samples differ:\n{}",
        differ.len(),
        names.len(),
        differ.join("\n")
    );
}

#[test]
fn samples_built_by_nvcc_13_0() {
    matrix(&nvcc(), "samples-nvcc130", Runtime::Nvidia, 68);
}

#[test]
fn samples_built_by_nvcc_13_5() {
    matrix(&nvcc135(), "samples-nvcc135", Runtime::Nvidia135, 69);
}
