//! With NO driver on the machine (no `libcuda.so.1` anywhere the loader
//! looks), each C/CUDA program in `abi-tests/c` (built by nvcc 13.0) runs
//! against NVIDIA's 13.0 `libcudart.so.13`, NVIDIA's 13.5 one (both from
//! the toolchain wheels) and ours. Ours reports the runtime version 13050
//! (docs/versions.md), so: our stdout and the way the program ended must be
//! identical to what NVIDIA's 13.5 runtime gives the program, and NVIDIA's
//! 13.0 and 13.5 runtimes may differ only in lines that show the runtime
//! version. Together: to a program built by nvcc 13.0 ours is NVIDIA's 13.0
//! runtime except for the version it reports.
//!
//! The programs print "<call> -> <code> <name>" and then
//! "lasterror -> <code> <name>" for every runtime call, so sticky errors are
//! visible. What NVIDIA's runtime did is written atop each program.
//!
//! Fails (never skips) when the toolchain or our library is missing, or when
//! a driver is installed.

use abi_tests::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

struct Programs {
    nodriver: PathBuf,
    managed: PathBuf,
    register_only: PathBuf,
}

/// Builds every program once per test binary.
fn programs() -> &'static Programs {
    static PROGRAMS: OnceLock<Programs> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        assert_no_driver_installed();
        let _ = cuda_home(); // a clear message when the toolchain is missing
        let dir = scratch("nodriver-programs");
        let d = dir.as_path();
        let built = parallel(
            2,
            vec![
                Box::new(move || nvcc_program("nodriver.cu", &d.join("nodriver"), &[])),
                Box::new(move || {
                    nvcc_program("nodriver_managed.cu", &d.join("nodriver_managed"), &[])
                }),
                Box::new(move || nvcc_program("register_only.cu", &d.join("register_only"), &[])),
            ],
        );
        Programs {
            nodriver: built[0].clone(),
            managed: built[1].clone(),
            register_only: built[2].clone(),
        }
    })
}

struct Ran {
    stdout: String,
    stderr: String,
    status: String,
}

fn run(exe: &Path, args: &[&str], rt: Runtime) -> Ran {
    let mut cmd = clean_command(exe, rt, &[]);
    cmd.args(args);
    let out = run_capture(&mut cmd);
    Ran {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        status: describe_status(&out.status),
    }
}

/// Runs `exe args` against the three runtimes and compares stdout and
/// status (see the top of this file).
fn compare(exe: &Path, args: &[&str]) {
    let what = format!(
        "{} {}",
        exe.file_name().unwrap().to_string_lossy(),
        args.join(" ")
    );
    let nv = run(exe, args, Runtime::Nvidia);
    assert_eq!(
        nv.status, "exit 0",
        "{what}: NVIDIA's runtime did not exit 0 (environment problem?)\nstdout:\n{}\nstderr:\n{}",
        nv.stdout, nv.stderr
    );
    let nv135 = run(exe, args, Runtime::Nvidia135);
    assert_eq!(
        nv.status, nv135.status,
        "{what}: NVIDIA's 13.0 and 13.5 runtimes end the program differently"
    );
    let version_lines = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.contains("runtime version"))
            .map(String::from)
            .collect()
    };
    assert_eq!(
        version_lines(&nv.stdout),
        version_lines(&nv135.stdout),
        "{what}: NVIDIA's 13.0 and 13.5 runtimes differ beyond the runtime version\n\
         --- 13.0 ---\n{}--- 13.5 ---\n{}",
        nv.stdout,
        nv135.stdout
    );
    let nv = nv135;
    let ours = run(exe, args, Runtime::Ours);
    if nv.stdout == ours.stdout && nv.status == ours.status {
        return;
    }
    let nv_lines: Vec<&str> = nv.stdout.lines().collect();
    let our_lines: Vec<&str> = ours.stdout.lines().collect();
    let first = (0..nv_lines.len().max(our_lines.len()))
        .find(|&i| nv_lines.get(i) != our_lines.get(i))
        .unwrap_or(0);
    panic!(
        "{what}: our runtime differs from NVIDIA's 13.5\n\
         first differing line {}: NVIDIA {:?}, ours {:?}\n\
         status: NVIDIA {}, ours {}\n\
         --- NVIDIA stdout ---\n{}--- our stdout ---\n{}--- our stderr ---\n{}",
        first + 1,
        nv_lines.get(first).copied().unwrap_or("<end>"),
        our_lines.get(first).copied().unwrap_or("<end>"),
        nv.status,
        ours.status,
        nv.stdout,
        ours.stdout,
        ours.stderr
    );
}

/// One test per scenario of `nodriver.cu`, each in a fresh process, plus
/// `all`, which runs them in order in one process.
mod scenario {
    use super::*;

    macro_rules! scenarios {
        ($($name:ident),* $(,)?) => {
            $(
                #[test]
                fn $name() {
                    compare(&programs().nodriver, &[stringify!($name)]);
                }
            )*
        };
    }

    scenarios!(
        lastfirst,
        versions,
        errors,
        count,
        getdevice,
        setdevice,
        malloc,
        free0,
        memcpy,
        launch,
        sync,
        stream,
        event,
        props,
        symbol,
        launchkernel,
        reset,
        all,
    );
}

/// main returns at once: registration (and unregistration at exit) must not
/// need a driver; NVIDIA's prints "main" and exits 0.
#[test]
fn register_only() {
    compare(&programs().register_only, &[]);
}

/// A module with a __managed__ variable: registration alone is fine.
#[test]
fn managed_registration_only() {
    compare(&programs().managed, &["quit"]);
}

/// A module with a __managed__ variable, host access guarded by
/// cudaGetDeviceCount (NVIDIA's runtime crashes on an unguarded access with
/// no driver, see nodriver_managed.cu).
#[test]
fn managed_guarded() {
    compare(&programs().managed, &[]);
}
