//! The three ways users adopt the library, each checked on a CPU machine
//! (no driver: the program must see our runtime's
//! `cudaErrorInsufficientDriver`, and the loader must have mapped our
//! library and not NVIDIA's):
//! 1. `nvcc -cudart shared`, then `LD_LIBRARY_PATH`;
//! 2. linking against it directly (`-cudart none -L<build> -lcudart`);
//! 3. `LD_PRELOAD` over a program whose library path finds NVIDIA's.

use abi_tests::{nvcc, nvidia_lib_dir, our_lib_dir, repo_root, run_ok, scratch};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A program that reports the cudaMalloc error and which libcudart the
/// loader mapped (from /proc/self/maps).
const PROGRAM: &str = r#"
#include <cstdio>
#include <cstring>
int main() {
  void *p = nullptr;
  cudaError_t e = cudaMalloc(&p, 16);
  printf("cudaMalloc -> %s\n", cudaGetErrorName(e));
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4096];
  while (maps && fgets(line, sizeof line, maps))
    if (strstr(line, "libcudart")) { const char *path = strchr(line, '/'); if (path) printf("mapped %s", path); }
  return 0;
}
"#;

fn build(dir: &Path, name: &str, flags: &[&str]) -> PathBuf {
    let src = dir.join("probe.cu");
    std::fs::write(&src, PROGRAM).unwrap();
    let exe = dir.join(name);
    run_ok(
        Command::new(nvcc())
            .args(flags)
            .arg(&src)
            .arg("-o")
            .arg(&exe),
    );
    exe
}

fn run(exe: &Path, env: &[(&str, &Path)]) -> String {
    let mut cmd = Command::new(exe);
    cmd.env_remove("LD_LIBRARY_PATH").env_remove("LD_PRELOAD");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out: Output = run_ok(&mut cmd);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn assert_ours(out: &str) {
    let ours = our_lib_dir().canonicalize().unwrap();
    assert!(
        out.contains("cudaMalloc -> cudaErrorInsufficientDriver"),
        "{out}"
    );
    let mapped: Vec<&str> = out.lines().filter(|l| l.starts_with("mapped ")).collect();
    assert!(!mapped.is_empty(), "no libcudart mapped:\n{out}");
    for m in mapped {
        let path = PathBuf::from(m.trim_start_matches("mapped ").trim());
        let real = path.canonicalize().unwrap_or(path);
        assert!(
            real.starts_with(&ours),
            "mapped a libcudart that is not ours: {}\n{out}",
            real.display()
        );
    }
}

#[test]
fn shared_runtime_with_library_path() {
    let dir = scratch("link_modes_shared");
    let exe = build(&dir, "shared", &["-cudart", "shared"]);
    assert_ours(&run(&exe, &[("LD_LIBRARY_PATH", &our_lib_dir())]));
}

#[test]
fn linked_directly() {
    let dir = scratch("link_modes_direct");
    let lib = our_lib_dir();
    let rpath = format!("-rpath={}", lib.display());
    let exe = build(
        &dir,
        "direct",
        &[
            "-cudart",
            "none",
            "-L",
            lib.to_str().unwrap(),
            "-lcudart",
            "-Xlinker",
            &rpath,
        ],
    );
    let needed = run_ok(Command::new("readelf").arg("-d").arg(&exe));
    assert!(String::from_utf8_lossy(&needed.stdout).contains("[libcudart.so.13]"));
    assert_ours(&run(&exe, &[]));
}

#[test]
fn preloaded_over_nvidia() {
    let dir = scratch("link_modes_preload");
    let exe = build(&dir, "preload", &["-cudart", "shared"]);
    let preload = our_lib_dir().join("libcudart.so.13");
    // Without the preload, this library path gives NVIDIA's runtime.
    let plain = run(&exe, &[("LD_LIBRARY_PATH", &nvidia_lib_dir())]);
    assert!(!plain.contains(our_lib_dir().to_str().unwrap()), "{plain}");
    assert_ours(&run(
        &exe,
        &[
            ("LD_LIBRARY_PATH", &nvidia_lib_dir()),
            ("LD_PRELOAD", &preload),
        ],
    ));
}

/// A Python program that loads NVIDIA's libcudart.so.13 by full path (as
/// torch's `_preload_cuda_deps` does) and calls it through ctypes.
const PY_LOADS_BY_PATH: &str = "import ctypes, sys\n\
h = ctypes.CDLL(sys.argv[1])\n\
v = ctypes.c_int(0)\n\
print('cudaRuntimeGetVersion', h.cudaRuntimeGetVersion(ctypes.byref(v)), v.value)\n\
p = ctypes.c_void_p()\n\
print('cudaMalloc', h.cudaMalloc(ctypes.byref(p), 16))\n";

fn with_cudart(args: &[&str], check: bool) -> Output {
    let mut cmd = Command::new(repo_root().join("scripts/with-cudart.sh"));
    cmd.env_remove("LD_LIBRARY_PATH")
        .env_remove("LD_PRELOAD")
        .env_remove("PYTHONPATH")
        .arg("--lib")
        .arg(our_lib_dir());
    if check {
        cmd.arg("--check");
    }
    cmd.arg("--").args(args);
    cmd.output().expect("scripts/with-cudart.sh runs")
}

/// The fourth way, for programs that load the runtime themselves by path
/// (PyTorch): scripts/with-cudart.sh keeps them on ours, and its --check
/// notices when another libcudart got in.
#[test]
fn python_launcher_keeps_one_runtime() {
    let nvidia = nvidia_lib_dir().join("libcudart.so.13");
    let nvidia = nvidia.to_str().unwrap();
    let ok = with_cudart(&["python3", "-c", PY_LOADS_BY_PATH, nvidia], true);
    let stdout = String::from_utf8_lossy(&ok.stdout);
    let stderr = String::from_utf8_lossy(&ok.stderr);
    assert!(ok.status.success(), "{stdout}\n{stderr}");
    // Our answer without a driver (NVIDIA's is cudaErrorInsufficientDriver
    // as well, so the check of the mapping is what tells them apart).
    assert!(stdout.contains("cudaRuntimeGetVersion 0 13050"), "{stdout}");
    assert!(stdout.contains("cudaMalloc 35"), "{stdout}");
    assert!(
        stderr.contains("was mapped (1 Python process(es) checked)"),
        "{stderr}"
    );

    // The check fails when the redirect is switched off.
    let bad = with_cudart(
        &[
            "env",
            "CUDART_LIB=",
            "python3",
            "-c",
            PY_LOADS_BY_PATH,
            nvidia,
        ],
        true,
    );
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains(nvidia), "{stderr}");
}
