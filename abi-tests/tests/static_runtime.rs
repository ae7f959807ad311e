//! The static runtime and the install prefix (`scripts/install.sh`, which
//! `scripts/test.sh` runs into `<target>/prefix` before the tests):
//! - the archive's only global symbols are the entry table's, all hidden;
//! - nvcc's default build, a CMake project (both
//!   `CMAKE_CUDA_RUNTIME_LIBRARY` values, `CUDA::cudart` and
//!   `CUDA::cudart_static`) and a plain Makefile link ours when pointed at
//!   the prefix, and run without a driver with NVIDIA's no-driver answers;
//!   the trace says which runtime ran;
//! - another Rust static library links beside the runtime;
//! - a program and a plugin that each carry the static runtime share the
//!   primary context and keep their own registrations (test double);
//! - our shared library says when the program carries NVIDIA's static
//!   runtime instead.

use abi_tests::{
    build_driver_double, c_dir, c_samples_dir, cuda_home, nvcc, run_ok, scratch, target_dir,
    DoubleRun,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn prefix() -> PathBuf {
    let p = target_dir().join("prefix");
    assert!(
        p.join("lib64/libcudart_static.a").exists(),
        "no install prefix at {}: run scripts/install.sh --prefix {} (scripts/test.sh does)",
        p.display(),
        p.display()
    );
    p
}

fn lib64() -> PathBuf {
    prefix().join("lib64")
}

fn static_dir() -> PathBuf {
    c_dir().join("static")
}

/// Runs `exe` with no driver and no inherited runtime paths; `env` on top.
/// Returns (stdout, stderr).
fn run(exe: &Path, env: &[(&str, &str)]) -> (String, String) {
    let mut cmd = Command::new(exe);
    for var in [
        "LD_LIBRARY_PATH",
        "LD_PRELOAD",
        "CUDART_TRACE",
        "CUDART_TRACE_FILE",
        "CUDART_TRACE_JSON",
        "CUDART_DIAGNOSTICS",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    let out = run_ok(&mut cmd);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The trace line our static runtime writes at load.
const OURS_STATIC: &str = "libcudart_static.a (clean-room, Rust) linked into";
/// ... and our shared library.
const OURS_SHARED: &str = "libcudart.so.13 (clean-room, Rust) loaded";

/// `exe` ran on our static runtime: no libcudart mapped, NVIDIA's
/// no-driver answers, and our trace.
fn assert_ours_static(exe: &Path) {
    let (out, _) = run(exe, &[]);
    assert!(
        out.contains("cudaMalloc -> cudaErrorInsufficientDriver")
            && out.contains("launch -> cudaErrorInsufficientDriver"),
        "{}: {out}",
        exe.display()
    );
    assert!(!out.contains("mapped "), "{}: {out}", exe.display());
    let (_, trace) = run(exe, &[("CUDART_TRACE", "1")]);
    assert!(trace.contains(OURS_STATIC), "{}: {trace}", exe.display());
}

/// `exe` ran on our shared library from the prefix.
fn assert_ours_shared(exe: &Path) {
    let (out, trace) = run(exe, &[("CUDART_TRACE", "1")]);
    assert!(
        out.contains("cudaMalloc -> cudaErrorInsufficientDriver"),
        "{}: {out}",
        exe.display()
    );
    let ours = lib64().canonicalize().unwrap();
    let mapped: Vec<&str> = out.lines().filter(|l| l.starts_with("mapped ")).collect();
    assert!(
        !mapped.is_empty(),
        "{}: no libcudart mapped: {out}",
        exe.display()
    );
    for m in mapped {
        let p = PathBuf::from(m.trim_start_matches("mapped ").trim());
        assert!(
            p.canonicalize().unwrap_or(p.clone()).starts_with(&ours),
            "{}: mapped {} (not the prefix's)",
            exe.display(),
            p.display()
        );
    }
    assert!(trace.contains(OURS_SHARED), "{}: {trace}", exe.display());
}

fn nvcc_build(dir: &Path, name: &str, src: &Path, flags: &[&str]) -> PathBuf {
    let exe = dir.join(name);
    run_ok(
        Command::new(nvcc())
            .args(["-arch=sm_90", "-o"])
            .arg(&exe)
            .arg(src)
            .args(flags),
    );
    exe
}

#[test]
fn archive_holds_one_object_whose_globals_are_the_hidden_entry_points() {
    let archive = lib64().join("libcudart_static.a");
    let members = run_ok(Command::new("ar").arg("t").arg(&archive));
    assert_eq!(
        String::from_utf8_lossy(&members.stdout).lines().count(),
        1,
        "one object in the archive"
    );
    let syms = run_ok(Command::new("readelf").args(["-s", "-W"]).arg(&archive));
    let mut globals = BTreeSet::new();
    for line in String::from_utf8_lossy(&syms.stdout).lines() {
        // Num: Value Size Type Bind Vis Ndx Name
        let c: Vec<&str> = line.split_whitespace().collect();
        if c.len() < 8 || !c[0].ends_with(':') || c[6] == "UND" {
            continue;
        }
        if c[4] == "GLOBAL" || c[4] == "WEAK" {
            assert_eq!(c[5], "HIDDEN", "{} is not hidden", c[7]);
            assert_eq!(c[3], "FUNC", "{} is not a function", c[7]);
            globals.insert(c[7].to_string());
        }
    }
    let table: BTreeSet<String> = cudart::entry::exports().map(String::from).collect();
    assert_eq!(globals, table, "the archive's global symbols");
    let sections = run_ok(Command::new("readelf").args(["-S", "-W"]).arg(&archive));
    let sections = String::from_utf8_lossy(&sections.stdout);
    assert!(!sections.contains(".llvmbc"), "embedded bitcode left in");
    assert!(sections.contains(".cudart_rs"), "no runtime mark");
}

#[test]
fn prefix_layout() {
    let p = prefix();
    assert_eq!(
        std::fs::read_link(p.join("lib64/libcudart.so")).unwrap(),
        Path::new("libcudart.so.13")
    );
    let soname = run_ok(
        Command::new("readelf")
            .arg("-d")
            .arg(p.join("lib64/libcudart.so.13")),
    );
    assert!(String::from_utf8_lossy(&soname.stdout).contains("[libcudart.so.13]"));
    let fatbin = run_ok(Command::new(p.join("bin/fatbin")).arg("--help"));
    assert!(!fatbin.stdout.is_empty() || !fatbin.stderr.is_empty());
    assert!(p.join("share/cudart-rs/cudart-rs.cmake").exists());
}

/// `nvcc app.cu -L<prefix>/lib64`: nvcc's default flags (the static
/// runtime) link ours; the same program built without `-L` carries
/// NVIDIA's and prints the same.
#[test]
fn nvcc_default_build_links_ours() {
    let dir = scratch("static_nvcc_default");
    let lib = lib64();
    let src = static_dir().join("probe.cu");
    let ours = nvcc_build(&dir, "ours", &src, &["-L", lib.to_str().unwrap()]);
    let nvidia = nvcc_build(&dir, "nvidia", &src, &[]);
    assert_ours_static(&ours);
    assert_eq!(
        run(&ours, &[]).0,
        run(&nvidia, &[]).0,
        "stdout of ours and NVIDIA's"
    );
    // Separable compilation, as CMake projects build.
    let rdc = nvcc_build(
        &dir,
        "rdc",
        &src,
        &["-rdc=true", "-L", lib.to_str().unwrap()],
    );
    assert_ours_static(&rdc);
    // -cudart shared with the prefix: our shared library.
    let rpath = format!("-rpath={}", lib.display());
    let shared = nvcc_build(
        &dir,
        "shared",
        &src,
        &[
            "-cudart",
            "shared",
            "-L",
            lib.to_str().unwrap(),
            "-Xlinker",
            &rpath,
        ],
    );
    assert_ours_shared(&shared);
}

/// The CMake project of `abi-tests/c/static/cmake`, configured with the
/// prefix's initial cache, links ours in every form; configured without
/// it, NVIDIA's, with the same output.
#[test]
fn cmake_builds_link_ours() {
    let dir = scratch("static_cmake");
    let cmake = cuda_home().join("../../cmake/data/bin/cmake");
    assert!(
        cmake.exists(),
        "no cmake at {}: run scripts/setup-toolchain.sh",
        cmake.display()
    );
    let cache = prefix().join("share/cudart-rs/cudart-rs.cmake");
    let configure_and_build = |build: &str, args: &[&str]| -> PathBuf {
        let b = dir.join(build);
        run_ok(
            Command::new(&cmake)
                .args(args)
                .arg("-S")
                .arg(static_dir().join("cmake"))
                .arg("-B")
                .arg(&b)
                .arg(format!("-DCMAKE_CUDA_COMPILER={}", nvcc().display()))
                .arg("-DCMAKE_CUDA_ARCHITECTURES=90"),
        );
        run_ok(
            Command::new(&cmake)
                .arg("--build")
                .arg(&b)
                .args(["-j", "2"]),
        );
        b
    };
    let c = format!("{}", cache.display());
    let ours = configure_and_build("ours", &["-C", &c]);
    assert_ours_static(&ours.join("app_default"));
    assert_ours_static(&ours.join("app_cudart_static"));
    assert_ours_shared(&ours.join("app_cudart"));
    let shared = configure_and_build(
        "ours-shared",
        &["-C", &c, "-DCMAKE_CUDA_RUNTIME_LIBRARY=Shared"],
    );
    assert_ours_shared(&shared.join("app_default"));
    let nvidia = configure_and_build("nvidia", &[]);
    let (nv_out, nv_trace) = run(&nvidia.join("app_default"), &[("CUDART_TRACE", "1")]);
    assert!(
        !nv_trace.contains("clean-room"),
        "NVIDIA's build ran ours: {nv_trace}"
    );
    assert_eq!(run(&ours.join("app_default"), &[]).0, nv_out);
}

/// A plain Makefile (nvcc compiles, g++ links `-lcudart_static`) with the
/// prefix first among its library folders.
#[test]
fn makefile_links_ours() {
    let dir = scratch("static_make");
    run_ok(
        Command::new("make")
            .arg("-C")
            .arg(static_dir().join("make"))
            .arg(format!("O={}", dir.display()))
            .arg(format!("CUDA_HOME={}", cuda_home().display()))
            .arg(format!("CUDART_PREFIX={}", prefix().display())),
    );
    assert_ours_static(&dir.join("app"));
}

/// Another Rust static library (`neighbour.rs`, its own copy of Rust's
/// standard library) linked into the same program: no symbol of ours
/// collides with it, and both work.
#[test]
fn another_rust_static_library_links_beside_ours() {
    let dir = scratch("static_neighbour");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    run_ok(
        Command::new(rustc)
            .args(["--edition", "2021", "-O", "--crate-type", "staticlib", "-o"])
            .arg(dir.join("libneighbour.a"))
            .arg(static_dir().join("neighbour.rs")),
    );
    let lib = lib64();
    let exe = nvcc_build(
        &dir,
        "neighbour",
        &static_dir().join("neighbour_main.cu"),
        &[
            "-L",
            lib.to_str().unwrap(),
            "-L",
            dir.to_str().unwrap(),
            "-lneighbour",
            // Rust static libraries are linked with unused sections
            // dropped (rustc's own links do the same).
            "-Xlinker",
            "--gc-sections",
        ],
    );
    let (out, trace) = run(&exe, &[("CUDART_TRACE", "1")]);
    assert_eq!(
        out,
        "cudaMalloc -> cudaErrorInsufficientDriver\nneighbour_sum(1000) = 499500, calls 1\n\
         cudaGetLastError -> cudaErrorInsufficientDriver\n"
    );
    assert!(trace.contains(OURS_STATIC), "{trace}");
}

/// `c-samples/static_two_copies` on the test double: the program and its
/// dlopen'd plugin each carry our static runtime; both work in the one
/// primary context (retained once: the plugin's copy finds it current),
/// each loads its own library, and the plugin's copy unloads its library at
/// dlclose (its exit handler runs after nvcc's unregistration) while the
/// program's runtime goes on.
#[test]
fn two_copies_share_the_context_and_keep_their_registrations() {
    let dir = scratch("static_two_copies");
    let double = build_driver_double(&dir.join("double"));
    let src = c_samples_dir().join("static_two_copies");
    let lib = lib64();
    let inc = format!("-I{}", c_samples_dir().display());
    nvcc_build(
        &dir,
        "libstatictwo.so",
        &src.join("plugin.cu"),
        &[
            "-shared",
            "-Xcompiler",
            "-fPIC",
            &inc,
            "-L",
            lib.to_str().unwrap(),
        ],
    );
    let exe = nvcc_build(
        &dir,
        "static_two_copies",
        &src.join("main.cu"),
        &[
            "-DNO_KERNEL_RESULTS",
            &inc,
            "-L",
            lib.to_str().unwrap(),
            "-ldl",
        ],
    );
    const KEEP: &[&str] = &[
        "cuDevicePrimaryCtxRetain",
        "cuLibraryLoadData",
        "cuLibraryUnload",
        "cuLaunchKernel",
    ];
    let r = DoubleRun::run(
        "static_two_copies",
        &exe,
        &[],
        &[],
        &double,
        &dir.join("double.log"),
        KEEP,
    );
    r.expect_exit0();
    for line in [
        "program and plugin share the primary context",
        "each runtime knows the kernels registered with it",
        "PASS static_two_copies",
    ] {
        r.check(r.stdout.contains(line), &format!("no {line:?}"));
    }
    r.check(
        r.stderr.contains("runtime: static, one copy per object"),
        "not the static build",
    );
    r.check(r.calls("cuDevicePrimaryCtxRetain").len() == 1, "one retain");
    r.check(r.calls("cuLaunchKernel").len() == 2, "two launches");
    let order: Vec<&str> = r
        .log
        .iter()
        .map(|l| abi_tests::log_function(l))
        .filter(|f| ["cuLibraryLoadData", "cuLibraryUnload", "cuLaunchKernel"].contains(f))
        .collect();
    r.check(
        order
            == [
                "cuLibraryLoadData", // the plugin's copy, at its launch
                "cuLaunchKernel",
                // The program's copy, at cudaFuncGetAttributes of its kernel.
                "cuLibraryLoadData",
                "cuLibraryUnload", // the plugin's, at dlclose
                "cuLaunchKernel",
                // At exit the driver has shut down first (as the real one
                // does): the program's library is left to it.
            ],
        &format!("load, launch and unload order: {order:?}"),
    );
}

/// Our shared library, preloaded into a program that carries NVIDIA's
/// static runtime, says so under the diagnostics and the trace: which
/// object, and the two ways out. A program on ours hears nothing of it.
#[test]
fn shared_library_names_a_program_with_nvidias_static_runtime() {
    let dir = scratch("static_bypass");
    let src = static_dir().join("probe.cu");
    let nvidia = nvcc_build(&dir, "nvidia_static", &src, &[]);
    let ours = nvcc_build(
        &dir,
        "ours_static",
        &src,
        &["-L", lib64().to_str().unwrap()],
    );
    let shared = nvcc_build(&dir, "shared", &src, &["-cudart", "shared"]);
    let preload = lib64().join("libcudart.so.13");
    let preload = preload.to_str().unwrap();
    let libpath = lib64();
    let libpath = libpath.to_str().unwrap();
    let said = |exe: &Path, var: &str| {
        let (_, err) = run(
            exe,
            &[
                (var, "1"),
                ("LD_PRELOAD", preload),
                ("LD_LIBRARY_PATH", libpath),
            ],
        );
        err
    };
    let canon = nvidia.canonicalize().unwrap();
    for var in ["CUDART_DIAGNOSTICS", "CUDART_TRACE"] {
        let err = said(&nvidia, var);
        assert!(
            err.contains(&format!(
                "{} carries NVIDIA's static CUDA runtime",
                canon.display()
            )) && err.contains("-cudart shared")
                && err.contains("libcudart_static.a"),
            "{var}: {err}"
        );
        assert_eq!(
            err.matches("carries NVIDIA's static").count(),
            1,
            "once: {err}"
        );
        for exe in [&ours, &shared] {
            let err = said(exe, var);
            assert!(!err.contains("NVIDIA's static"), "{}: {err}", exe.display());
        }
    }
}
