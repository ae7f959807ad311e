//! Programs built by nvcc 13.5, with NO driver on the machine: each runs
//! against NVIDIA's 13.5 `libcudart.so.13` (from the 13.5 toolchain wheel)
//! and against ours; stdout and the way the program ended must be
//! identical. The programs: `c-samples/cuda135_api` (every function 13.5
//! added: each answers cudaErrorInsufficientDriver here), two samples of
//! 13.0 rebuilt by nvcc 13.5 (`vector_add`, `device_props`: nvcc 13.5's
//! registration and launch code, the versions), and `abi-tests/c/nodriver`
//! (all its scenarios in one process).
//!
//! Fails (never skips) when a toolchain or our library is missing, or when
//! a driver is installed.

use abi_tests::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

struct Programs {
    samples: Vec<(&'static str, PathBuf)>,
    nodriver: PathBuf,
}

const SAMPLES: &[&str] = &["cuda135_api", "vector_add", "device_props"];

fn programs() -> &'static Programs {
    static PROGRAMS: OnceLock<Programs> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        assert_no_driver_installed();
        let nvcc = nvcc135();
        let dir = scratch("nodriver135-programs");
        let d = dir.as_path();
        let n = nvcc.as_path();
        let mut tasks: Vec<Box<dyn FnOnce() -> PathBuf + Send + '_>> = SAMPLES
            .iter()
            .map(|&name| {
                Box::new(move || nvcc_sample_with(n, name, &d.join(name), &[]))
                    as Box<dyn FnOnce() -> PathBuf + Send>
            })
            .collect();
        tasks.push(Box::new(move || {
            let out = d.join("nodriver");
            run_ok(
                Command::new(n)
                    .args(["-cudart", "shared", "-arch=sm_90", "-I"])
                    .arg(c_dir())
                    .arg("-o")
                    .arg(&out)
                    .arg(c_dir().join("nodriver.cu")),
            );
            out
        }));
        let mut built = parallel(2, tasks);
        let nodriver = built.pop().unwrap();
        Programs {
            samples: SAMPLES.iter().copied().zip(built).collect(),
            nodriver,
        }
    })
}

fn sample(name: &str) -> &'static Path {
    &programs()
        .samples
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a built sample")
        .1
}

/// Runs `exe args` against NVIDIA's 13.5 runtime and ours: same stdout,
/// same ending.
fn compare(exe: &Path, args: &[&str]) -> String {
    let what = exe.file_name().unwrap().to_string_lossy().into_owned();
    let run = |rt: Runtime| {
        let out = run_capture(clean_command(exe, rt, &[]).args(args));
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            describe_status(&out.status),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (nv, nv_status, nv_err) = run(Runtime::Nvidia135);
    let (ours, our_status, our_err) = run(Runtime::Ours);
    assert!(
        nv == ours && nv_status == our_status,
        "{what}: our runtime differs from NVIDIA's 13.5\n\
         status: NVIDIA {nv_status}, ours {our_status}\n\
         --- NVIDIA stdout ---\n{nv}--- our stdout ---\n{ours}\
         --- NVIDIA stderr ---\n{nv_err}--- our stderr ---\n{our_err}"
    );
    nv
}

/// Every 13.5 function: with no driver each answers
/// cudaErrorInsufficientDriver under both, and the program passes.
#[test]
fn cuda135_api() {
    let out = compare(sample("cuda135_api"), &[]);
    assert!(out.contains("cudaRuntimeGetVersion -> 13050"), "{out}");
    assert!(out.ends_with("PASS cuda135_api\n"), "{out}");
    // One line per call of the 36 (the _ptsz forms by name).
    assert!(
        out.lines().filter(|l| l.contains(" -> cudaError")).count() >= 36,
        "{out}"
    );
}

#[test]
fn vector_add() {
    compare(sample("vector_add"), &[]);
}

#[test]
fn device_props() {
    let out = compare(sample("device_props"), &[]);
    assert!(out.contains("FAIL device_props"), "{out}");
}

/// abi-tests/c/nodriver.cu rebuilt by nvcc 13.5, every scenario in one process.
#[test]
fn nodriver_all() {
    let out = compare(&programs().nodriver, &["all"]);
    assert!(out.contains("runtime version = 13050"), "{out}");
}
