//! Our `libcudart.so.13` against the TEST DOUBLE driver
//! (`abi-tests/driver-double/libcuda/`, first on `LD_LIBRARY_PATH`):
//! the double logs every driver call to `CUDA_DOUBLE_LOG`, and these tests
//! assert the sequence of calls the runtime makes (lazy initialisation,
//! primary-context handling, lazy module loading, per-thread streams).
//!
//! Only our runtime runs here: NVIDIA's needs the driver's private export
//! tables, which the double does not (and must not) provide.
//!
//! Log lines: `<function>[_ptsz|_ptds] <args>[ -> <results>][ err=<code>]`,
//! handles as symbolic names (P0 primary context of device 0, C1 created
//! context, L1 library, K1 kernel, D1 allocation, ...); lines starting with
//! `#` are notes (`# double loaded`, or marks the programs write). See
//! abi-tests/driver-double/README.md.
//!
//! Fails (never skips) when the toolchain or our library is missing.

use abi_tests::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

struct Built {
    double_dir: PathBuf,
    selftest: PathBuf,
    conformance: PathBuf,
    fatbin: PathBuf,
    register_only: PathBuf,
    runtime: PathBuf,
    runtime_ptsz: PathBuf,
    ctx_own: PathBuf,
    logs: PathBuf,
}

/// Builds the double and every program once per test binary.
fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let _ = cuda_home(); // a clear message when the toolchain is missing
        let dir = scratch("double-driver");
        let double_dir = build_driver_double(&dir.join("driver"));
        let selftest = build_driver_double_tool("selftest", &dir);
        let conformance = build_driver_double_tool("conformance", &dir);
        let logs = dir.join("logs");
        std::fs::create_dir_all(&logs).expect("logs folder");
        let d = dir.as_path();
        let lib_flag = format!("-L{}", double_dir.display());
        let lib_flag = lib_flag.as_str();
        let out = parallel(
            2,
            vec![
                Box::new(move || nvcc_program("register_only.cu", &d.join("register_only"), &[])),
                Box::new(move || nvcc_program("double_runtime.cu", &d.join("double_runtime"), &[])),
                Box::new(move || {
                    nvcc_program(
                        "double_runtime.cu",
                        &d.join("double_runtime_ptsz"),
                        &["--default-stream", "per-thread"],
                    )
                }),
                Box::new(move || {
                    nvcc_program(
                        "double_ctx_own.cu",
                        &d.join("double_ctx_own"),
                        &[lib_flag, "-lcuda"],
                    )
                }),
                Box::new(move || {
                    nvcc_program(
                        "double_runtime.cu",
                        &d.join("double_runtime.fatbin"),
                        &["-fatbin"],
                    )
                }),
            ],
        );
        Built {
            double_dir,
            selftest,
            conformance,
            register_only: out[0].clone(),
            runtime: out[1].clone(),
            runtime_ptsz: out[2].clone(),
            ctx_own: out[3].clone(),
            fatbin: out[4].clone(),
            logs,
        }
    })
}

type Run = DoubleRun;

const INTERESTING: &[&str] = &[
    "cuInit",
    "cuDevicePrimaryCtxRetain",
    "cuDevicePrimaryCtxRelease",
    "cuDevicePrimaryCtxReset",
    "cuDevicePrimaryCtxSetFlags",
    "cuCtxCreate",
    "cuCtxDestroy",
    "cuCtxSetCurrent",
    "cuCtxPushCurrent",
    "cuCtxPopCurrent",
    "cuLibraryLoadData",
    "cuThreadExchangeStreamCaptureMode",
    "cuLibraryUnload",
    "cuLibraryGetKernel",
    "cuLibraryGetGlobal",
    "cuLibraryGetManaged",
    "cuKernelGetFunction",
    "cuLaunchKernel",
    "cuLaunchKernelEx",
    "cuMemAlloc",
    "cuMemFree",
    "cuMemcpy",
    "cuMemcpyAsync",
    "cuMemcpyHtoD",
    "cuMemcpyDtoH",
    "cuMemcpyDtoD",
];

/// Runs `exe args` against our runtime with the double first on the library
/// path, `CUDA_DOUBLE_LOG` set (a fresh file per run) and `env` on top.
fn run_double(name: &str, exe: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let b = built();
    let log = b.logs.join(format!("{name}.log"));
    DoubleRun::run(name, exe, args, env, &b.double_dir, &log, INTERESTING)
}

/// The vector-add program with `env`: it must exit 0, the runtime must
/// report no error, and the copy back must hold the sums.
fn run_vecadd(name: &str, env: &[(&str, &str)]) -> Run {
    let r = run_double(name, &built().runtime, &["vecadd"], env);
    r.expect_exit0();
    r.expect_no_errors();
    r.check(
        r.stdout.contains("back = 1 2 3 4"),
        "the copy back did not return what was copied in",
    );
    r
}

const LAUNCH_ADD: &str = "name=_Z3addPii grid=1,1,1 block=4,1,1 smem=0";

/// The double on its own (no runtime): what it promises the other tests.
#[test]
fn double_selftest() {
    let b = built();
    let log = b.logs.join("selftest.log");
    let _ = std::fs::remove_file(&log);
    let mut cmd = clean_command(&b.selftest, Runtime::Nvidia, &[b.double_dir.as_path()]);
    cmd.arg(&b.fatbin)
        .args(["_Z3addPii", "dev_var"])
        .env("CUDA_DOUBLE_LOG", &log);
    let out = run_ok(&mut cmd);
    assert!(String::from_utf8_lossy(&out.stdout).contains("selftest ok"));
    let text = std::fs::read_to_string(&log).expect("the double wrote its log");
    for want in [
        "# double loaded",
        "cuInit 0",
        "cuDevicePrimaryCtxRetain dev=0 -> ctx=P0 refs=1",
        "cuCtxSetCurrent ctx=P0",
        "cuLibraryLoadData magic=ba55ed50 jit=0 opts=0 -> lib=L1",
        "cuLibraryGetKernel lib=L1 name=_Z3addPii -> K1",
        "cuLibraryGetKernel lib=L1 name=__missing_kernel err=500",
        "cuLibraryGetGlobal lib=L1 name=dev_var -> ptr=G1 bytes=4",
        "cuLaunchKernel K1 name=_Z3addPii grid=1,1,1 block=4,1,1 smem=0 stream=0 ctx=P0",
        "cuLaunchKernel_ptsz K1 name=_Z3addPii grid=1,1,1 block=4,1,1 smem=0 stream=0x2 ctx=P0",
        "cuCtxCreate dev=0 flags=0x0 params=null -> ctx=C1",
        "cuDevicePrimaryCtxReset dev=0 -> refs=1",
    ] {
        assert!(
            text.lines().any(|l| l == want),
            "selftest log lacks {want:?}:\n{text}"
        );
    }
    // cuGetProcAddress_v2 look-ups are only logged on request.
    assert!(
        !text.contains("cuGetProcAddress_v2"),
        "look-ups logged without CUDA_DOUBLE_LOG_PROCS"
    );
}

/// The double answers conformance.c's questions (which symbol
/// cuGetProcAddress_v2 hands out for each name, version and flag; primary
/// context and error behaviours) the way NVIDIA's driver 580.159 did on an
/// H200 (abi-tests/driver-double/real-driver-580.txt), except for the
/// documented deviations below.
#[test]
fn double_matches_real_driver() {
    const DEVIATIONS: &[&str] = &[
        // Older ABIs the double does not implement: it answers status 2.
        "proc cuCtxCreate version=12000 ",
        "proc cuCtxCreate version=3000 ",
        "proc cuMemAlloc version=3000 ",
        // Same signature; the double hands out the newest one for all versions.
        "proc cuEventElapsedTime version=12000 ",
        "proc cuEventElapsedTime version=3000 ",
        // The real driver takes any text as PTX; the double wants a fatbin or ELF.
        "load garbage ",
        // Per kernel in reality (from the cubin); the double answers 16.
        "kernel attribute 4 ",
    ];
    let b = built();
    let real_path = driver_double_src_dir().join("real-driver-580.txt");
    let real = std::fs::read_to_string(&real_path).expect("real-driver-580.txt");
    let mut cmd = clean_command(&b.conformance, Runtime::Nvidia, &[b.double_dir.as_path()]);
    cmd.arg(&b.fatbin).arg("_Z3addPii");
    let out = run_ok(&mut cmd);
    let ours = String::from_utf8_lossy(&out.stdout).into_owned();
    let keep = |l: &&str| !DEVIATIONS.iter().any(|d| l.starts_with(d));
    let real_lines: Vec<&str> = real.lines().filter(keep).collect();
    let our_lines: Vec<&str> = ours.lines().filter(keep).collect();
    let diffs: Vec<String> = (0..real_lines.len().max(our_lines.len()))
        .filter(|&i| real_lines.get(i) != our_lines.get(i))
        .map(|i| {
            format!(
                "  real:   {}\n  double: {}",
                real_lines.get(i).unwrap_or(&"<end>"),
                our_lines.get(i).unwrap_or(&"<end>")
            )
        })
        .collect();
    assert!(
        diffs.is_empty(),
        "the double differs from the real driver:\n{}",
        diffs.join("\n")
    );
}

/// (a) main returns at once: registration (and unregistration at exit)
/// touches no driver; not even libcuda.so.1 is loaded (NVIDIA's runtime
/// does not look for it either, seen with LD_DEBUG=libs).
#[test]
fn registration_touches_no_driver() {
    let r = run_double("register_only", &built().register_only, &[], &[]);
    r.expect_exit0();
    r.check(r.stdout == "main\n", "unexpected output");
    if r.log.iter().any(|l| l == "# double loaded") {
        r.fail("the runtime loaded libcuda.so.1 for a program that makes no runtime call");
    }
    r.check(
        r.log.is_empty(),
        "driver calls in a program that makes no runtime call",
    );
}

/// (b) vector add: cuInit first, one primary-context retain for device 0,
/// made current once, then cudaMalloc's cuMemAlloc; the module is loaded only
/// at the first launch (after the context exists), the kernel is looked up
/// once for three launches, and the kernel never launched is never looked up.
#[test]
fn vecadd_lazy_loading() {
    let r = run_vecadd("vecadd", &[]);
    let lines = r.lines();
    let calls: Vec<&String> = lines.iter().filter(|l| !l.starts_with('#')).collect();
    r.check(
        calls.first().map(|l| l.as_str()) == Some("cuInit 0"),
        "the first driver call must be cuInit 0",
    );

    let pos = |want: &str| lines.iter().position(|l| l == want);
    let retains = r.calls("cuDevicePrimaryCtxRetain");
    r.check(
        retains == ["cuDevicePrimaryCtxRetain dev=0 -> ctx=P0 refs=1"],
        "exactly one cuDevicePrimaryCtxRetain of device 0 expected",
    );
    let retain = pos("cuDevicePrimaryCtxRetain dev=0 -> ctx=P0 refs=1").unwrap();
    let set_current = r.calls("cuCtxSetCurrent");
    r.check(
        set_current == ["cuCtxSetCurrent ctx=P0"],
        "exactly one cuCtxSetCurrent ctx=P0 expected",
    );
    let set = pos("cuCtxSetCurrent ctx=P0").unwrap();
    let alloc = match lines.iter().position(|l| l.starts_with("cuMemAlloc ")) {
        Some(i) => i,
        None => r.fail("no cuMemAlloc for cudaMalloc"),
    };
    r.check(
        retain < set && set < alloc,
        "order must be: retain, cuCtxSetCurrent, cuMemAlloc",
    );
    r.check(
        lines[alloc] == "cuMemAlloc size=16 ctx=P0 -> ptr=D1",
        "cudaMalloc(16) must allocate in P0",
    );

    let launch_mark = r.mark("launch 1");
    let done_mark = r.mark("launches done");
    let loads = r.calls("cuLibraryLoadData");
    r.check(loads.len() == 1, "exactly one cuLibraryLoadData expected");
    r.check(
        loads[0].starts_with("cuLibraryLoadData magic=ba55ed50 ")
            && loads[0].ends_with("-> lib=L1"),
        "cuLibraryLoadData must get the registered fatbin container (magic ba55ed50)",
    );
    r.check(
        loads[0].contains(" jit=0 opts=1 preserved=1 "),
        "the registered image stays mapped until it is unregistered: the load must say so \
         (CU_LIBRARY_BINARY_IS_PRESERVED), so that the driver need not copy it",
    );
    let load = pos(&loads[0]).unwrap();
    r.check(
        load > launch_mark,
        "the module must be loaded lazily, at the first launch, not before",
    );
    r.check(
        load > set,
        "the module must be loaded after the context is current",
    );
    r.check(
        r.calls("cuLibraryGetKernel") == ["cuLibraryGetKernel lib=L1 name=_Z3addPii -> K1"],
        "exactly one cuLibraryGetKernel, for the launched kernel only",
    );
    // The kernel's function in P0, resolved once for the three launches
    // (the driver would resolve a CUkernel on every launch).
    r.check(
        r.calls("cuKernelGetFunction") == ["cuKernelGetFunction K1 ctx=P0 -> F1"],
        "exactly one cuKernelGetFunction, for the launched kernel in P0",
    );
    let launches = r.calls("cuLaunchKernel");
    let want = format!("cuLaunchKernel F1 {LAUNCH_ADD} stream=0 ctx=P0");
    r.check(launches.len() == 3, "three cuLaunchKernel lines expected");
    r.check(
        launches.iter().all(|l| *l == want),
        &format!("every launch must read {want:?}"),
    );
    let first_launch = pos(&launches[0]).unwrap();
    r.check(
        first_launch > load && first_launch < done_mark,
        "launches must happen between the marks",
    );
    // Legacy default stream: no per-thread variants anywhere.
    if let Some(l) = lines
        .iter()
        .find(|l| l.contains("_ptsz") || l.contains("_ptds") || l.contains("stream=0x2"))
    {
        r.fail(&format!(
            "per-thread stream used in a legacy-stream program: {l}"
        ));
    }
    // A lazy load leaves the thread's capture mode alone (the H200 loads
    // inside a global-mode capture; docs/first-launch.md).
    r.check(
        r.calls("cuThreadExchangeStreamCaptureMode").is_empty(),
        "a lazy load must not exchange the thread's stream-capture mode",
    );
}

/// `CUDA_MODULE_LOADING=EAGER`: the fatbin loads into the context when the
/// context is made, with the thread's capture mode relaxed around the load
/// and put back after it (an eager load may happen during a capture, when
/// a library is opened then); the launches load nothing more.
#[test]
fn vecadd_eager_load_relaxes_capture_mode() {
    let r = run_vecadd("vecadd-eager", &[("CUDA_MODULE_LOADING", "EAGER")]);
    let lines = r.lines();
    let pos = |want: &str| lines.iter().position(|l| l == want);
    let exchanges = r.calls("cuThreadExchangeStreamCaptureMode");
    r.check(
        exchanges
            == [
                "cuThreadExchangeStreamCaptureMode mode=2 -> was=0",
                "cuThreadExchangeStreamCaptureMode mode=0 -> was=2",
            ],
        "one exchange to relaxed before the eager load and one back after it",
    );
    let loads = r.calls("cuLibraryLoadData");
    r.check(loads.len() == 1, "exactly one cuLibraryLoadData expected");
    let (Some(relax), Some(load), Some(back)) =
        (pos(&exchanges[0]), pos(&loads[0]), pos(&exchanges[1]))
    else {
        r.fail("the exchanges or the load are missing from the log");
    };
    r.check(
        relax < load && load < back,
        "order must be: relax, cuLibraryLoadData, restore",
    );
    r.check(
        load < r.mark("launch 1"),
        "with EAGER the module must be loaded before the first launch",
    );
}

/// Every driver function the runtime calls was resolved through
/// cuGetProcAddress_v2 first (never bound by name with dlsym).
#[test]
fn vecadd_resolves_through_get_proc_address() {
    let r = run_double(
        "vecadd-procs",
        &built().runtime,
        &["vecadd"],
        &[("CUDA_DOUBLE_LOG_PROCS", "1")],
    );
    r.expect_exit0();
    let mut resolved: Vec<String> = Vec::new();
    for line in &r.log {
        // Comments, and the double's own events (its shutdown at exit).
        if line.starts_with('#') || line.starts_with('(') {
            continue;
        }
        let f = line.split(' ').next().unwrap_or("");
        if f == "cuGetProcAddress_v2" {
            if line.contains(" -> ") {
                if let Some(name) = line.split(' ').nth(1) {
                    resolved.push(name.to_owned());
                }
            }
            continue;
        }
        let base = log_function(line);
        if !resolved.iter().any(|n| n == base) {
            r.fail(&format!(
                "{f} called before cuGetProcAddress_v2 handed it out: {line}"
            ));
        }
    }
    r.check(
        !resolved.is_empty(),
        "no cuGetProcAddress_v2 look-ups logged",
    );
}

/// (c) The program made its own context current (cuCtxCreate) before any
/// runtime call: the runtime uses it as it is, retains no primary context,
/// allocates and launches in C1, and leaves it current.
#[test]
fn own_context_is_used() {
    let r = run_double("ctx_own", &built().ctx_own, &[], &[]);
    r.expect_exit0();
    r.expect_no_errors();
    r.check(
        r.stdout.contains("current is own context: yes"),
        "the program's context is no longer current",
    );
    r.check(
        r.calls("cuDevicePrimaryCtxRetain").is_empty(),
        "a primary context was retained",
    );
    r.check(
        r.calls("cuCtxCreate") == ["cuCtxCreate dev=0 flags=0x0 params=null -> ctx=C1"],
        "the program's cuCtxCreate is missing",
    );
    let start = r.mark("runtime");
    let lines = r.lines();
    for l in &lines[start..] {
        if matches!(
            log_function(l),
            "cuCtxSetCurrent" | "cuCtxPushCurrent" | "cuCtxPopCurrent"
        ) && !l.contains("ctx=C1")
        {
            r.fail(&format!("the runtime changed the current context: {l}"));
        }
    }
    let allocs = r.calls("cuMemAlloc");
    r.check(
        allocs.len() == 1 && allocs[0].contains(" ctx=C1 "),
        "cudaMalloc must allocate in C1",
    );
    let launches = r.calls("cuLaunchKernel");
    r.check(launches.len() == 2, "two launches expected");
    r.check(
        launches
            .iter()
            .all(|l| l.ends_with("stream=0 ctx=C1") && l.contains(LAUNCH_ADD)),
        "launches must run in the program's context C1",
    );
}

/// (d) Two threads each cudaSetDevice(0) and launch: the primary context is
/// retained once, made current on each thread, the module and the kernel
/// are loaded once.
#[test]
fn threads_share_one_primary_context() {
    let r = run_double("threads", &built().runtime, &["threads"], &[]);
    r.expect_exit0();
    r.expect_no_errors();
    r.check(
        r.calls("cuDevicePrimaryCtxRetain") == ["cuDevicePrimaryCtxRetain dev=0 -> ctx=P0 refs=1"],
        "exactly one retain of device 0's primary context expected",
    );
    r.check(
        r.calls("cuCtxSetCurrent")
            .iter()
            .filter(|l| *l == "cuCtxSetCurrent ctx=P0")
            .count()
            == 2,
        "P0 must be made current once on each of the two threads",
    );
    r.check(
        r.calls("cuLibraryLoadData").len() == 1,
        "the module must be loaded once",
    );
    r.check(
        r.calls("cuLibraryGetKernel").len() == 1,
        "the kernel must be looked up once",
    );
    let launches = r.calls("cuLaunchKernel");
    r.check(launches.len() == 2, "two launches expected");
    r.check(
        launches.iter().all(|l| l.ends_with("ctx=P0")),
        "launches must run in P0",
    );
}

/// (e) cudaSetDevice(1) with two devices: device 1's primary context, and
/// device 0 untouched.
#[test]
fn set_device_1_retains_device_1() {
    let r = run_double(
        "device1",
        &built().runtime,
        &["device1"],
        &[("CUDA_DOUBLE_DEVICES", "2")],
    );
    r.expect_exit0();
    r.expect_no_errors();
    r.check(
        r.stdout.contains("device = 1"),
        "cudaGetDevice must report 1",
    );
    r.check(
        r.calls("cuDevicePrimaryCtxRetain") == ["cuDevicePrimaryCtxRetain dev=1 -> ctx=P1 refs=1"],
        "exactly one retain, of device 1",
    );
    let allocs = r.calls("cuMemAlloc");
    r.check(
        allocs.len() == 1 && allocs[0].contains(" ctx=P1 "),
        "cudaMalloc must allocate in P1",
    );
    let launches = r.calls("cuLaunchKernel");
    r.check(
        launches
            == ["cuLaunchKernel F1 name=_Z3addPii grid=2,1,1 block=2,1,1 smem=0 stream=0 ctx=P1"],
        "one launch in P1 expected",
    );
}

/// (f) cudaDeviceReset between two launches: the runtime gives up its
/// reference to the primary context (reset and/or released: the double
/// reports refs=0 afterwards), then retains it again for the next launch,
/// which succeeds.
#[test]
fn device_reset_then_launch() {
    let r = run_double("reset", &built().runtime, &["reset"], &[]);
    r.expect_exit0();
    r.expect_no_errors();
    let lines = r.lines();
    let reset = r.mark("reset");
    let after = r.mark("after reset");
    let before: Vec<&String> = lines[..reset]
        .iter()
        .filter(|l| log_function(l) == "cuDevicePrimaryCtxRetain")
        .collect();
    r.check(before.len() == 1, "one retain before the reset expected");
    let during: Vec<&String> = lines[reset..after]
        .iter()
        .filter(|l| {
            matches!(
                log_function(l),
                "cuDevicePrimaryCtxReset" | "cuDevicePrimaryCtxRelease"
            )
        })
        .collect();
    r.check(
        !during.is_empty(),
        "cudaDeviceReset must reset or release device 0's primary context",
    );
    r.check(
        during
            .iter()
            .all(|l| l.starts_with("cuDevicePrimaryCtx") && l.contains(" dev=0 ")),
        "device 0 only",
    );
    r.check(
        during.last().unwrap().ends_with("refs=0"),
        "after cudaDeviceReset the runtime must hold no reference to the primary context (refs=0)",
    );
    let rest = &lines[after..];
    let retains: Vec<&String> = rest
        .iter()
        .filter(|l| log_function(l) == "cuDevicePrimaryCtxRetain")
        .collect();
    r.check(
        retains == ["cuDevicePrimaryCtxRetain dev=0 -> ctx=P0 refs=1"],
        "exactly one new retain of device 0 after the reset expected",
    );
    let retain = rest
        .iter()
        .position(|l| log_function(l) == "cuDevicePrimaryCtxRetain")
        .unwrap();
    let launch = match rest
        .iter()
        .position(|l| log_function(l) == "cuLaunchKernel")
    {
        Some(i) => i,
        None => r.fail("no launch after the reset"),
    };
    r.check(
        retain < launch,
        "the primary context must be retained again before the next launch",
    );
    r.check(
        rest[launch].contains(LAUNCH_ADD) && rest[launch].ends_with(" stream=0 ctx=P0"),
        "the launch after the reset must run in P0",
    );
    // P0 keeps its handle across the reset but is a new context (a new
    // id): the kernel's function there is asked for again, and launched.
    r.check(
        rest.iter()
            .any(|l| l.as_str() == "cuKernelGetFunction K1 ctx=P0 -> F2"),
        "the kernel's function in the new P0 must be asked for after the reset",
    );
    r.check(
        rest[launch].starts_with("cuLaunchKernel F2 "),
        "the launch after the reset must use the new context's function, not the old one",
    );
}

/// A pointer the program passes as a kernel that is neither a registered
/// host stub nor a kernel handle the driver gave goes to `cuLaunchKernel`
/// as it came (the driver answers), never to `cuKernelGetFunction`.
#[test]
fn unknown_function_goes_to_the_driver_as_it_came() {
    let r = run_double("unknown", &built().runtime, &["unknown"], &[]);
    r.expect_exit0();
    r.check(
        r.calls("cuKernelGetFunction").is_empty(),
        "no cuKernelGetFunction for a pointer that is no kernel",
    );
    let launches = r.calls("cuLaunchKernel");
    r.check(
        launches.len() == 1 && launches[0].starts_with("cuLaunchKernel bad "),
        "the pointer must reach cuLaunchKernel once, as it came",
    );
    r.check(
        r.stdout
            .contains("cudaLaunchKernel(host pointer) -> 400 cudaErrorInvalidResourceHandle"),
        "the driver's answer, as the runtime's error",
    );
}

/// (g) No device (cuInit fails with CUDA_ERROR_NO_DEVICE): cudaMalloc
/// returns cudaErrorNoDevice (100).
#[test]
fn no_device_is_error_100() {
    let r = run_double(
        "nodevice",
        &built().runtime,
        &["nodevice"],
        &[("CUDA_DOUBLE_DEVICES", "0")],
    );
    r.expect_exit0();
    r.check(
        r.stdout.contains("cudaMalloc -> 100 cudaErrorNoDevice\n"),
        "cudaMalloc must return 100",
    );
    r.check(
        r.log.iter().any(|l| l == "cuInit 0 err=100"),
        "cuInit must have been called (and failed)",
    );
    r.check(
        r.calls("cuDevicePrimaryCtxRetain").is_empty(),
        "no retain without a device",
    );
}

/// (h) Built with --default-stream per-thread: launches go to the per-thread
/// default stream (the double sees stream 0x2, either passed explicitly or
/// as 0 through a _ptsz entry point), and so do the synchronous copies.
#[test]
fn per_thread_default_stream() {
    let r = run_double("vecadd-ptsz", &built().runtime_ptsz, &["vecadd"], &[]);
    r.expect_exit0();
    r.expect_no_errors();
    let launches = r.calls("cuLaunchKernel");
    r.check(launches.len() == 3, "three launches expected");
    for l in &launches {
        r.check(
            l.contains(&format!("{LAUNCH_ADD} stream=0x2 ctx=P0")),
            &format!("launch not on the per-thread default stream: {l}"),
        );
    }
    for l in r
        .lines()
        .iter()
        .filter(|l| log_function(l).starts_with("cuMemcpy"))
    {
        let f = l.split(' ').next().unwrap_or("");
        r.check(
            f.ends_with("_ptds") || f.ends_with("_ptsz") || l.contains(" stream=0x2"),
            &format!("copy not ordered on the per-thread default stream: {l}"),
        );
    }
}

/// cudaMemcpyToSymbol / FromSymbol: the module is loaded at the first
/// symbol use, the variable's address comes from cuLibraryGetGlobal (once),
/// the initial value is the one the module defines, and copies hit it.
#[test]
fn symbol_copies_use_library_global() {
    let r = run_double("symbol", &built().runtime, &["symbol"], &[]);
    r.expect_exit0();
    r.expect_no_errors();
    r.check(
        r.stdout.contains("initial dev_var = 5\n"),
        "the initial value of dev_var must be 5",
    );
    r.check(
        r.stdout.contains("  dev_var = 42\n"),
        "the copied value must read back",
    );
    let lines = r.lines();
    let from = r.mark("from symbol");
    let load = match lines
        .iter()
        .position(|l| log_function(l) == "cuLibraryLoadData")
    {
        Some(i) => i,
        None => r.fail("no cuLibraryLoadData"),
    };
    r.check(
        load > from,
        "the module must be loaded lazily, at the first symbol use",
    );
    r.check(
        r.calls("cuLibraryLoadData").len() == 1,
        "the module must be loaded once",
    );
    // Looked up in the current context (an address is per context); how
    // often is the runtime's choice, what it gets must be the variable.
    let globals = r.calls("cuLibraryGetGlobal");
    r.check(
        !globals.is_empty()
            && globals
                .iter()
                .all(|l| l == "cuLibraryGetGlobal lib=L1 name=dev_var -> ptr=G1 bytes=4"),
        "dev_var's address must come from cuLibraryGetGlobal (4 bytes)",
    );
    let to = r.mark("to symbol");
    r.check(
        lines[to..].iter().any(|l| {
            log_function(l).starts_with("cuMemcpy")
                && l.contains(" dst=G1 ")
                && l.contains(" size=4")
        }),
        "cudaMemcpyToSymbol must copy 4 bytes to G1",
    );
}

/// cudaFuncGetAttributes on a driver without attributes 16 and 17 (the
/// double refuses them, as driver 580 does): deviceNodeUpdateStatus is 0
/// and sharedMemoryMode repeats maxDynamicSharedSizeBytes, following it
/// when cudaFuncSetAttribute changes it, as NVIDIA's 13.5 runtime answers
/// on driver 580 (c-samples/cuda135_api on the GPU, docs/versions.md).
#[test]
fn func_attributes_13_5_members_on_an_older_driver() {
    let r = run_double("funcattr", &built().runtime, &["funcattr"], &[]);
    r.expect_exit0();
    r.check(
        r.stdout.contains("  max dynamic 49152, reserved 0 49152\n"),
        "before: sharedMemoryMode must repeat 49152",
    );
    r.check(
        r.stdout.contains("  max dynamic 65536, reserved 0 65536\n"),
        "after cudaFuncSetAttribute: sharedMemoryMode must repeat 65536",
    );
    r.check(
        r.log.iter().any(|l| {
            l.starts_with("cuKernelGetAttribute ") && l.contains(" attr=17 ") && l.contains(" err=")
        }),
        "attribute 17 must be asked of the driver (and refused by the double)",
    );
}
