//! The runtime's lifecycle against the TEST DOUBLE driver
//! (`abi-tests/driver-double`): which calls retain and bind the primary
//! context and in what order, what `cudaDeviceReset`, exit handlers and
//! `fork` do, read from the double's call log (marks `# <text>` written by
//! `abi-tests/c/double_lifecycle.cu` separate the steps); and the trace
//! (`CUDART_TRACE`, `CUDART_TRACE_JSON`) of `c-samples/life_story.cu`, the
//! sample `docs/lifecycle.md` quotes: the JSON parses, holds the expected
//! events in the expected order, one lane per thread, properly nested.
//!
//! CPU only: the double runs no kernels, so nothing here checks results of
//! kernels (the GPU run of the `life_*` samples does). Fails (never skips)
//! when the toolchain or our library is missing.

use abi_tests::json::{self, Json};
use abi_tests::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

struct Built {
    double_dir: PathBuf,
    lifecycle: PathBuf,
    story: PathBuf,
    register_only: PathBuf,
    logs: PathBuf,
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let _ = cuda_home();
        let dir = scratch("lifecycle");
        let double_dir = build_driver_double(&dir.join("driver"));
        let logs = dir.join("logs");
        std::fs::create_dir_all(&logs).expect("logs folder");
        let d = dir.as_path();
        let lib_flag = format!("-L{}", double_dir.display());
        let lib_flag = lib_flag.as_str();
        let out = parallel(
            2,
            vec![
                Box::new(move || {
                    nvcc_program(
                        "double_lifecycle.cu",
                        &d.join("double_lifecycle"),
                        &[lib_flag, "-lcuda"],
                    )
                }),
                Box::new(move || {
                    nvcc_sample("life_story", &d.join("life_story"), &[lib_flag, "-lcuda"])
                }),
                Box::new(move || nvcc_program("register_only.cu", &d.join("register_only"), &[])),
            ],
        );
        Built {
            double_dir,
            lifecycle: out[0].clone(),
            story: out[1].clone(),
            register_only: out[2].clone(),
            logs,
        }
    })
}

type Run = DoubleRun;

const LIFECYCLE: &[&str] = &[
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
    "cuLibraryUnload",
    "cuLibraryGetKernel",
    "cuLaunchKernel",
    "cuMemAlloc",
    "cuMemFree",
];

/// Runs `exe args` with our runtime and the double, `CUDA_DOUBLE_LOG` set
/// to a fresh file, the trace off unless `env` turns it on.
fn run(name: &str, exe: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let b = built();
    let log = b.logs.join(format!("{name}.log"));
    DoubleRun::run(name, exe, args, env, &b.double_dir, &log, LIFECYCLE)
}

fn lifecycle(mode: &str, env: &[(&str, &str)]) -> Run {
    run(mode, &built().lifecycle, &[mode], env)
}

/// Calls that need no context (versions, count, device, properties,
/// attributes, flags, last error, valid devices, choose device) load the
/// driver and retain or bind nothing.
#[test]
fn queries_create_no_context() {
    let r = lifecycle("nocontext", &[]);
    r.expect_exit0();
    r.check(
        r.log.iter().any(|l| l == "cuInit 0"),
        "the driver was not initialized",
    );
    for f in [
        "cuDevicePrimaryCtxRetain",
        "cuCtxSetCurrent",
        "cuDevicePrimaryCtxSetFlags",
        "cuCtxCreate",
    ] {
        r.check(
            r.calls_between(f, None, None).is_empty(),
            &format!("{f} called by a call that needs no context"),
        );
    }
}

/// cudaSetDeviceFlags sets the primary context's flags, retains it and
/// makes it current (NVIDIA's does, measured on the H200: "current
/// primary" after it); the first cudaMalloc binds nothing more.
#[test]
fn set_device_flags_activates_and_binds() {
    let r = lifecycle("flags", &[]);
    r.expect_exit0();
    let set = r.calls_between(
        "cuDevicePrimaryCtxSetFlags",
        Some("set flags"),
        Some("get flags"),
    );
    r.check(
        set == ["cuDevicePrimaryCtxSetFlags dev=0 flags=0x4"],
        "cudaSetDeviceFlags(BlockingSync) must set 0x4 on device 0's primary context",
    );
    let retains = r.calls_between(
        "cuDevicePrimaryCtxRetain",
        Some("set flags"),
        Some("get flags"),
    );
    r.check(
        retains == ["cuDevicePrimaryCtxRetain dev=0 -> ctx=P0 refs=1"],
        "cudaSetDeviceFlags must retain the primary context once",
    );
    r.check(
        r.calls_between("cuCtxSetCurrent", Some("set flags"), Some("get flags"))
            == ["cuCtxSetCurrent ctx=P0"],
        "cudaSetDeviceFlags must make P0 current once",
    );
    r.check(
        r.calls_between("cuCtxSetCurrent", Some("get flags"), None)
            .is_empty(),
        "cudaGetDeviceFlags and the cudaMalloc after it must bind nothing more",
    );
    r.check(
        r.stdout.contains("  flags = 0xc\n"),
        "cudaGetDeviceFlags must report BlockingSync with MapHost (0xc)",
    );
    r.check(
        r.calls_between("cuDevicePrimaryCtxRetain", Some("get flags"), None)
            .is_empty(),
        "no second retain",
    );
}

/// cudaInitDevice with flags: flags first, then the retain; no binding.
#[test]
fn init_device_activates_without_binding() {
    let r = lifecycle("initdevice", &[]);
    r.expect_exit0();
    let lines = r.lines();
    let a = r.mark("init device");
    let b = r.mark("malloc");
    let step: Vec<&String> = lines[a + 1..b]
        .iter()
        .filter(|l| !l.starts_with("cuInit"))
        .collect();
    r.check(
        step == [
            "cuDevicePrimaryCtxSetFlags dev=0 flags=0x2",
            "cuDevicePrimaryCtxRetain dev=0 -> ctx=P0 refs=1",
        ],
        "cudaInitDevice must set the flags, then retain, and bind nothing",
    );
    r.check(
        r.calls_between("cuCtxSetCurrent", Some("malloc"), None) == ["cuCtxSetCurrent ctx=P0"],
        "the first cudaMalloc binds P0",
    );
}

/// cudaSetDevice binds at once; the cudaMalloc after it binds nothing more.
#[test]
fn set_device_binds_at_once() {
    let r = lifecycle("setdevice", &[]);
    r.expect_exit0();
    let lines = r.lines();
    let a = r.mark("set device");
    let b = r.mark("malloc");
    let step: Vec<&String> = lines[a + 1..b]
        .iter()
        .filter(|l| !l.starts_with("cuInit"))
        .collect();
    r.check(
        step == [
            "cuDevicePrimaryCtxRetain dev=0 -> ctx=P0 refs=1",
            "cuCtxSetCurrent ctx=P0",
        ],
        "cudaSetDevice(0) must retain P0 and make it current, in that order",
    );
    for f in ["cuDevicePrimaryCtxRetain", "cuCtxSetCurrent"] {
        r.check(
            r.calls_between(f, Some("malloc"), None).is_empty(),
            &format!("{f} after cudaSetDevice already bound the context"),
        );
    }
}

/// `CUDA_MODULE_LOADING=EAGER`: the fatbin loads when the runtime creates
/// its context (NVIDIA's runtime loads modules at context creation then);
/// by default it loads at its first use, after cudaSetDevice.
#[test]
fn eager_loading_loads_at_context_creation() {
    let r = lifecycle("setdevice", &[("CUDA_MODULE_LOADING", "EAGER")]);
    r.expect_exit0();
    r.check(
        r.calls_between("cuLibraryLoadData", Some("set device"), Some("malloc"))
            .len()
            == 1,
        "with EAGER, cudaSetDevice must load the registered fatbin",
    );
    r.check(
        r.calls_between("cuLibraryLoadData", None, None).len() == 1,
        "loaded once",
    );
    let lazy = lifecycle("setdevice", &[("CUDA_MODULE_LOADING", "LAZY")]);
    lazy.check(
        lazy.calls_between("cuLibraryLoadData", None, Some("malloc"))
            .is_empty(),
        "by default the fatbin must not load before its first use",
    );
}

/// Four threads: cudaGetDevice binds nothing; their first cudaMalloc binds
/// device 0's primary context on each thread, retained once for all; a
/// thread on device 1 retains device 1's once.
#[test]
fn threads_retain_once_and_bind_each() {
    let r = lifecycle("threads", &[("CUDA_DOUBLE_DEVICES", "2")]);
    r.expect_exit0();
    for f in ["cuDevicePrimaryCtxRetain", "cuCtxSetCurrent"] {
        r.check(
            r.calls_between(f, Some("threads start"), Some("threads bind"))
                .is_empty(),
            &format!("cudaGetDevice on a new thread must not call {f}"),
        );
    }
    r.check(
        r.calls_between(
            "cuDevicePrimaryCtxRetain",
            Some("threads bind"),
            Some("device 1"),
        ) == ["cuDevicePrimaryCtxRetain dev=0 -> ctx=P0 refs=1"],
        "device 0's primary context must be retained once for the four threads",
    );
    let binds = r.calls_between("cuCtxSetCurrent", Some("threads bind"), Some("device 1"));
    r.check(
        binds.len() == 4 && binds.iter().all(|l| l == "cuCtxSetCurrent ctx=P0"),
        "each of the four threads must bind P0 once",
    );
    r.check(
        r.calls_between(
            "cuDevicePrimaryCtxRetain",
            Some("device 1"),
            Some("threads done"),
        ) == ["cuDevicePrimaryCtxRetain dev=1 -> ctx=P1 refs=1"],
        "device 1's primary context must be retained once",
    );
    r.check(
        r.calls_between("cuLibraryLoadData", None, None).len() == 1,
        "one library load for all threads and both devices",
    );
}

/// cudaDeviceReset releases the runtime's reference and resets the
/// context, leaving the thread's current handle alone; the next call
/// retains it again and binds it; the library stays loaded. At exit the
/// runtime releases nothing (the driver's own shutdown does).
#[test]
fn reset_releases_then_retains_again() {
    let r = lifecycle("reset", &[]);
    r.expect_exit0();
    let during = r.lines()[r.mark("reset")..r.mark("after reset")].to_vec();
    let rel = during
        .iter()
        .position(|l| l == "cuDevicePrimaryCtxRelease dev=0 -> refs=0");
    let reset = during
        .iter()
        .position(|l| l.starts_with("cuDevicePrimaryCtxReset dev=0"));
    r.check(
        matches!((rel, reset), (Some(a), Some(b)) if a < b),
        "cudaDeviceReset must release (refs=0), then reset device 0's primary context",
    );
    r.check(
        r.calls_between("cuDevicePrimaryCtxRetain", Some("after reset"), None)
            == ["cuDevicePrimaryCtxRetain dev=0 -> ctx=P0 refs=1"],
        "one retain after the reset",
    );
    r.check(
        r.calls_between("cuLibraryLoadData", None, None).len() == 1,
        "the library survives the reset (context-independent)",
    );
    r.check(
        r.calls_between("cuCtxSetCurrent", Some("reset"), Some("after reset"))
            .is_empty(),
        "cudaDeviceReset must leave the thread's current context alone",
    );
    r.check(
        r.calls_between("cuCtxSetCurrent", Some("after reset"), None) == ["cuCtxSetCurrent ctx=P0"],
        "the first call after the reset binds the new primary context once",
    );
    r.check(
        r.calls_between("cuDevicePrimaryCtxRelease", Some("after reset"), None)
            .is_empty(),
        "no release at exit: the runtime registers no exit handler",
    );
    // The event and stream made before the reset died with the context:
    // refused without reaching the driver; a new event works.
    for want in [
        "dead: cudaEventQuery -> 201 cudaErrorDeviceUninitialized",
        "dead: cudaStreamQuery -> 400 cudaErrorInvalidResourceHandle",
        "new event: cudaEventQuery -> 0 cudaSuccess",
    ] {
        r.check(r.stdout.contains(want), &format!("stdout lacks {want:?}"));
    }
    // The full call log (not only the lifecycle calls) after the reset.
    let (dead, new) = (r.log_mark("after reset"), r.log_mark("new objects"));
    let queries = |from: usize, to: usize| {
        r.log[from..to]
            .iter()
            .filter(|l| l.starts_with("cuEventQuery") || l.starts_with("cuStreamQuery"))
            .count()
    };
    r.check(
        queries(dead, new) == 0,
        "no query may reach the driver for a handle that died with its context",
    );
    r.check(
        queries(new, r.log.len()) == 1,
        "the new event's query reaches the driver",
    );
}

/// With a context of the program's own current, cudaDeviceReset resets no
/// primary context (documented: only the runtime's state for that context
/// goes); the context stays current and usable, and its flags are what
/// cudaGetDeviceFlags reports.
#[test]
fn reset_with_own_context_leaves_primary_alone() {
    let r = lifecycle("ownreset", &[]);
    r.expect_exit0();
    for f in [
        "cuDevicePrimaryCtxReset",
        "cuDevicePrimaryCtxRelease",
        "cuDevicePrimaryCtxRetain",
    ] {
        r.check(
            r.calls_between(f, None, None).is_empty(),
            &format!("{f} with the program's own context current"),
        );
    }
    r.check(
        r.stdout.contains("own context still current: yes"),
        "the own context must stay current",
    );
    let allocs = r.calls_between("cuMemAlloc", Some("after reset"), None);
    r.check(
        allocs.len() == 1 && allocs[0].contains(" ctx=C1 "),
        "work after the reset runs in the own context C1",
    );
}

/// At exit, handlers run in reverse order of registration. The driver's
/// first cuInit registers its shutdown (the double does too); the runtime's
/// exit watch, registered just before that cuInit, runs right after it. A
/// handler registered after the first CUDA call runs before the shutdown
/// and works; one registered before it runs after the shutdown and gets
/// cudaErrorCudartUnloading, even from cudaGetDevice, without reaching the
/// driver (NVIDIA's answers, measured on the H200: c-samples/life_teardown,
/// life_exit_destroy). The runtime releases nothing at exit.
#[test]
fn exit_handlers_before_and_after_the_drivers_shutdown() {
    let r = lifecycle("exit", &[]);
    r.expect_exit0();
    for want in [
        "late exit handler: cudaMalloc -> 0 cudaSuccess",
        "late exit handler: cudaGetDevice -> 0 cudaSuccess",
        "exit handler: cudaMalloc -> 4 cudaErrorCudartUnloading",
        "exit handler: cudaGetDevice -> 4 cudaErrorCudartUnloading",
        "exit handler: cudaGetDeviceCount -> 0 cudaSuccess",
    ] {
        r.check(r.stdout.contains(want), &format!("stdout lacks {want:?}"));
    }
    r.check(
        r.calls_between("cuDevicePrimaryCtxRelease", Some("main returns"), None)
            .is_empty(),
        "the runtime must not release its reference at exit",
    );
    r.check(
        !r.calls_between(
            "cuMemAlloc",
            Some("late exit handler"),
            Some("exit handler"),
        )
        .is_empty(),
        "the late exit handler's cudaMalloc must reach the driver",
    );
    r.check(
        r.calls_between("cuMemAlloc", Some("exit handler"), None)
            .is_empty(),
        "after the driver's shutdown no cudaMalloc may reach the driver",
    );
    let shutdown = r
        .log
        .iter()
        .position(|l| l.starts_with("(driver shutdown at exit)"));
    let watch = r
        .log
        .iter()
        .rposition(|l| l.starts_with("cuDeviceGetCount err=4"));
    r.check(
        matches!((shutdown, watch), (Some(s), Some(w)) if w > s),
        "the exit watch must ask the driver after its shutdown",
    );
}

/// A stream or event destroyed through the runtime and used again is
/// refused with cudaErrorInvalidResourceHandle and never reaches the
/// driver (which reads freed memory for it; on the H200 such calls crash
/// the process under NVIDIA's runtime); an object made later at the same
/// address works.
#[test]
fn destroyed_handles_never_reach_the_driver() {
    let r = lifecycle("destroyed", &[]);
    r.expect_exit0();
    for call in [
        "cudaStreamSynchronize",
        "cudaStreamQuery",
        "launch",
        "cudaEventRecord",
        "cudaEventSynchronize",
        "cudaStreamWaitEvent",
        "cudaEventDestroy",
        "cudaStreamDestroy",
    ] {
        let want = format!("destroyed: {call} -> 400 cudaErrorInvalidResourceHandle");
        r.check(r.stdout.contains(&want), &format!("stdout lacks {want:?}"));
    }
    // An async notification unregistered twice (a crash under NVIDIA's
    // runtime on the H200): the handle is an argument, not a resource.
    let want = "destroyed: cudaDeviceUnregisterAsyncNotification -> 1 cudaErrorInvalidValue";
    r.check(r.stdout.contains(want), &format!("stdout lacks {want:?}"));
    // Freed device memory as a copy operand (the driver copies it as host
    // memory and faults), and a live stream passed as objects of other
    // kinds (the driver crashed on each under NVIDIA's runtime).
    for want in [
        "destroyed: cudaMemcpy to freed -> 1 cudaErrorInvalidValue",
        "destroyed: cudaMemcpyAsync from freed -> 1 cudaErrorInvalidValue",
        "wrong kind: cudaDeviceUnregisterAsyncNotification -> 1 cudaErrorInvalidValue",
        "wrong kind: cudaDestroyExternalSemaphore -> 1 cudaErrorInvalidValue",
        "wrong kind: cudaMemPoolTrimTo -> 1 cudaErrorInvalidValue",
    ] {
        r.check(r.stdout.contains(want), &format!("stdout lacks {want:?}"));
    }
    // Memory allocated again takes copies, at the same address or not.
    r.check(
        r.stdout.contains("new memory: cudaMemcpy -> 0 cudaSuccess"),
        "a new allocation must take copies",
    );
    // The full call log (not only the lifecycle calls) between the marks.
    let (from, to) = (r.log_mark("destroyed"), r.log_mark("new objects"));
    r.check(to > from + 1, "the marks must surround the calls");
    for l in &r.log[from + 1..to] {
        for f in [
            "cuStreamSynchronize",
            "cuStreamQuery",
            "cuLaunchKernel",
            "cuEventRecord",
            "cuEventSynchronize",
            "cuStreamWaitEvent",
            "cuEventDestroy",
            "cuStreamDestroy",
            "cuDeviceUnregisterAsyncNotification",
            "cuMemcpy",
            "cuMemcpyAsync",
            "cuDestroyExternalSemaphore",
            "cuMemPoolTrimTo",
        ] {
            r.check(
                abi_tests::log_function(l) != f,
                &format!("{f} reached the driver with a destroyed handle: {l}"),
            );
        }
    }
    r.check(
        !r.stdout.contains("new stream: cudaStreamSynchronize -> 4")
            && r.stdout
                .contains("new stream: cudaStreamSynchronize -> 0 cudaSuccess"),
        "a new stream must work",
    );
}

/// A child forked after the parent initialized gets
/// cudaErrorInitializationError for calls that need the driver, without
/// calling the driver (cudaGetDeviceCount answers the count the parent
/// knew, as NVIDIA's does); the parent goes on working.
#[test]
fn forked_child_is_refused() {
    let r = lifecycle("fork", &[]);
    r.expect_exit0();
    for want in [
        "child: cudaMalloc -> 3 cudaErrorInitializationError",
        "child: cudaGetDeviceCount -> 0 cudaSuccess",
        "  child exit: 0",
    ] {
        r.check(r.stdout.contains(want), &format!("stdout lacks {want:?}"));
    }
    let lines = r.lines();
    let child: Vec<&String> = lines[r.mark("fork") + 1..r.mark("child done")]
        .iter()
        .collect();
    r.check(child.is_empty(), "the forked child called the driver");
    r.check(
        !r.calls_between("cuMemAlloc", Some("child done"), None)
            .is_empty(),
        "the parent must keep working",
    );
}

// ---------------------------------------------------------------------------
// The trace.

/// The events of a trace-event JSON file, after checking the format: an
/// array of objects, each with a name and a known phase; X events with
/// numeric ts and dur >= 0, i events with ts, every event with integer pid
/// and tid.
fn trace_events(r: &Run, path: &Path) -> Vec<Json> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| r.fail(&format!("no JSON trace at {}: {e}", path.display())));
    let doc = json::parse(&text)
        .unwrap_or_else(|e| r.fail(&format!("the JSON trace does not parse: {e}\n{text}")));
    let events = doc
        .as_array()
        .unwrap_or_else(|| r.fail("the JSON trace is not an array"))
        .to_vec();
    for e in &events {
        let ph = e.str_of("ph");
        r.check(
            !e.str_of("name").is_empty(),
            &format!("event without a name: {e:?}"),
        );
        r.check(
            e.get("pid")
                .and_then(Json::as_f64)
                .is_some_and(|p| p.fract() == 0.0),
            &format!("event without an integer pid: {e:?}"),
        );
        match ph {
            "M" => {}
            "X" | "i" => {
                r.check(
                    e.get("tid")
                        .and_then(Json::as_f64)
                        .is_some_and(|t| t.fract() == 0.0),
                    &format!("event without an integer tid: {e:?}"),
                );
                r.check(
                    e.get("ts").and_then(Json::as_f64).is_some_and(|t| t >= 0.0),
                    &format!("event without ts: {e:?}"),
                );
                if ph == "X" {
                    r.check(
                        e.get("dur")
                            .and_then(Json::as_f64)
                            .is_some_and(|d| d >= 0.0),
                        &format!("span without dur: {e:?}"),
                    );
                }
            }
            _ => r.fail(&format!("unexpected phase {ph:?}: {e:?}")),
        }
    }
    events
}

fn ts(e: &Json) -> f64 {
    e.get("ts").and_then(Json::as_f64).unwrap_or(-1.0)
}

fn end(e: &Json) -> f64 {
    ts(e) + e.get("dur").and_then(Json::as_f64).unwrap_or(0.0)
}

/// The first event whose name starts with `prefix`, or a failure.
fn first<'a>(r: &Run, events: &'a [Json], prefix: &str) -> &'a Json {
    events
        .iter()
        .find(|e| e.str_of("name").starts_with(prefix))
        .unwrap_or_else(|| r.fail(&format!("no trace event named {prefix:?}...")))
}

fn count(events: &[Json], ph: &str, prefix: &str) -> usize {
    events
        .iter()
        .filter(|e| e.str_of("ph") == ph && e.str_of("name").starts_with(prefix))
        .count()
}

fn story_trace(name: &str, env: &[(&str, &str)]) -> (Run, Vec<Json>) {
    let b = built();
    let path = b.logs.join(format!("{name}.json"));
    let _ = std::fs::remove_file(&path);
    let mut env: Vec<(&str, &str)> = env.to_vec();
    let p = path.to_string_lossy().into_owned();
    env.push(("CUDART_TRACE_JSON", &p));
    let r = run(name, &b.story, &[], &env);
    let events = trace_events(&r, &path);
    (r, events)
}

/// `CUDART_TRACE_JSON` alone: the lifecycle of life_story as trace events,
/// in order: registration (before main, naming the executable), the driver
/// init that cudaGetDeviceCount triggered, the primary-context retain and
/// bind that cudaMalloc triggered, the library load and kernel resolve of
/// the first launch, the bind on the second thread, the reset, the second
/// retain and the unregistration. Nothing on stderr.
#[test]
fn trace_json_tells_the_story_in_order() {
    let (r, ev) = story_trace("story-json", &[]);
    r.check(
        !r.stderr.contains("[cudart"),
        "CUDART_TRACE_JSON alone must not print the text trace",
    );
    let reg = first(&r, &ev, "registration #1 (life_story)");
    let lazy = first(&r, &ev, "lazy init: cudaGetDeviceCount");
    let drv = first(&r, &ev, "driver init");
    let ctx_needed = first(&r, &ev, "lazy init: cudaMalloc needs a context");
    let retain = first(&r, &ev, "retain primary context (device 0)");
    let bind = first(&r, &ev, "make current (device 0)");
    let load = first(&r, &ev, "library load #1 (life_story)");
    let resolve = first(&r, &ev, "kernel resolve _Z3addPii");
    let reset = first(&r, &ev, "cudaDeviceReset (device 0)");
    let unreg = first(&r, &ev, "unregister #1 (life_story)");
    for (e, ph) in [
        (reg, "X"),
        (lazy, "i"),
        (drv, "X"),
        (ctx_needed, "i"),
        (retain, "X"),
        (bind, "X"),
        (load, "X"),
        (resolve, "X"),
        (reset, "X"),
        (unreg, "X"),
    ] {
        r.check(
            e.str_of("ph") == ph,
            &format!("{} must be {ph}", e.str_of("name")),
        );
    }
    let order = [
        reg, lazy, drv, ctx_needed, retain, bind, load, resolve, reset, unreg,
    ];
    for w in order.windows(2) {
        r.check(
            ts(w[0]) <= ts(w[1]),
            &format!(
                "{} must come before {}",
                w[0].str_of("name"),
                w[1].str_of("name")
            ),
        );
    }
    r.check(
        lazy.get("args").map_or("", |a| a.str_of("call")) == "cudaGetDeviceCount",
        "the lazy-init event must name the call that triggered it",
    );
    r.check(
        reg.get("args")
            .map_or("", |a| a.str_of("detail"))
            .contains("life_story"),
        "the registration must name the file it came from",
    );
    r.check(
        count(&ev, "X", "retain primary context") == 2,
        "one retain before the reset and one after",
    );
    r.check(
        count(&ev, "X", "library load") == 1,
        "the library loads once (it survives the reset)",
    );
    // Binds: main, the second thread, main again after the reset.
    r.check(count(&ev, "X", "make current") == 3, "three binds expected");
    let main_tid = reg.get("tid").and_then(Json::as_f64);
    let other = ev.iter().any(|e| {
        e.str_of("name") == "make current (device 0)"
            && e.get("tid").and_then(Json::as_f64) != main_tid
    });
    r.check(other, "the second thread's bind must be on its own lane");
    let names: Vec<&str> = ev
        .iter()
        .filter(|e| e.str_of("ph") == "M" && e.str_of("name") == "thread_name")
        .map(|e| e.get("args").map_or("", |a| a.str_of("name")))
        .collect();
    r.check(
        names.len() >= 2 && names[0].starts_with("T1 ") && names[0].ends_with("(main)"),
        &format!("thread names expected (T1 ... (main) first): {names:?}"),
    );
    r.check(
        count(&ev, "X", "cudaMalloc") == 0,
        "API-call spans appear only with CUDART_TRACE=all",
    );
}

/// `CUDART_TRACE=all`: every runtime call is a span too (launches and
/// memory calls included, the registration calls left to the registration
/// span); the spans of each thread nest properly, so Perfetto draws them;
/// the text goes to `CUDART_TRACE_FILE`.
#[test]
fn trace_all_adds_api_calls_properly_nested() {
    let b = built();
    let text = b.logs.join("story-all.txt");
    let _ = std::fs::remove_file(&text);
    let t = text.to_string_lossy().into_owned();
    let (r, ev) = story_trace(
        "story-all",
        &[("CUDART_TRACE", "all"), ("CUDART_TRACE_FILE", &t)],
    );
    for api in [
        "cudaMalloc",
        "cudaMemcpy",
        "__cudaLaunchKernel",
        "cudaDeviceReset",
    ] {
        r.check(count(&ev, "X", api) >= 1, &format!("no span for {api}"));
    }
    let malloc = first(&r, &ev, "cudaMalloc");
    r.check(
        malloc.get("args").map_or("", |a| a.str_of("detail")) == "cudaMalloc -> cudaSuccess",
        "an API span must give the call's result",
    );
    r.check(
        count(&ev, "X", "__cudaRegister") == 0,
        "registration calls must not be separate spans",
    );
    // Nesting, lane by lane: a span either holds the next one or ends
    // before it starts (1 ns of rounding allowed).
    let mut tids: Vec<f64> = ev
        .iter()
        .filter_map(|e| e.get("tid").and_then(Json::as_f64))
        .collect();
    tids.sort_by(f64::total_cmp);
    tids.dedup();
    for tid in tids {
        let mut spans: Vec<&Json> = ev
            .iter()
            .filter(|e| e.str_of("ph") == "X" && e.get("tid").and_then(Json::as_f64) == Some(tid))
            .collect();
        spans.sort_by(|a, b| ts(a).total_cmp(&ts(b)).then(end(b).total_cmp(&end(a))));
        let mut open: Vec<&Json> = Vec::new();
        for s in spans {
            while open.last().is_some_and(|o| end(o) <= ts(s) + 0.001) {
                open.pop();
            }
            if let Some(o) = open.last() {
                r.check(
                    end(s) <= end(o) + 0.002,
                    &format!(
                        "spans overlap without nesting on tid {tid}: {:?} and {:?}",
                        o.str_of("name"),
                        s.str_of("name")
                    ),
                );
            }
            open.push(s);
        }
    }
    let lines = std::fs::read_to_string(&text).unwrap_or_default();
    r.check(
        lines.lines().count() > 10 && lines.lines().all(|l| l.starts_with("[cudart +")),
        "CUDART_TRACE_FILE must hold the text trace",
    );
    r.check(
        lines.contains("] api: cudaMalloc -> cudaSuccess ["),
        "the text trace must show API calls with CUDART_TRACE=all",
    );
}

/// `CUDART_TRACE=1`: readable lines on stderr, in the order things happen.
#[test]
fn trace_text_on_stderr() {
    let r = run("story-text", &built().story, &[], &[("CUDART_TRACE", "1")]);
    let wanted = [
        "runtime: libcudart.so.13 (clean-room, Rust) loaded",
        "registry: fatbin #1 of ",
        "driver: cudaGetDeviceCount is the first call that needs the driver",
        "context: cuDevicePrimaryCtxRetain: primary context",
        "context: cuCtxSetCurrent: primary context",
        "module: cuLibraryLoadData: fatbin #1",
        "module: cuLibraryGetKernel: kernel _Z3addPii",
        "context: cudaDeviceReset: primary context",
        // life_story initialized the driver itself, before the runtime:
        // no exit watch, so unregistration asks the driver, which has shut
        // down by then (its exit handler was registered after the
        // program's fatbin registration).
        "runtime: the driver reports it has shut down",
        "registry: __cudaUnregisterFatBinary: fatbin #1",
        "runtime: libcudart.so.13 unloading",
    ];
    let lines: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("[cudart +"))
        .collect();
    let mut at = 0;
    for w in wanted {
        match lines[at..].iter().position(|l| l.contains(w)) {
            Some(i) => at += i + 1,
            None => r.fail(&format!("the text trace lacks {w:?} (in this order)")),
        }
    }
    r.check(
        !r.stderr.contains("api: cudaMalloc"),
        "API calls appear only with CUDART_TRACE=all",
    );
}

/// `CUDART_TRACE_FILE` alone turns on the lifecycle trace, into that file,
/// and leaves stderr alone.
#[test]
fn trace_file_alone_writes_the_lifecycle_trace() {
    let b = built();
    let text = b.logs.join("story-file-only.txt");
    let _ = std::fs::remove_file(&text);
    let t = text.to_string_lossy().into_owned();
    let r = run(
        "story-file-only",
        &b.story,
        &[],
        &[("CUDART_TRACE_FILE", &t)],
    );
    let lines = std::fs::read_to_string(&text).unwrap_or_default();
    r.check(
        lines.contains("runtime: libcudart.so.13 (clean-room, Rust) loaded")
            && lines.contains("context: cuDevicePrimaryCtxRetain: primary context"),
        "CUDART_TRACE_FILE alone must write the lifecycle trace to the file",
    );
    r.check(
        !lines.contains("api: cudaMalloc"),
        "API calls appear only with CUDART_TRACE=all",
    );
    r.check(
        !r.stderr.contains("[cudart +"),
        "the trace goes to the file, not to stderr",
    );
}

/// Trace off: nothing written.
#[test]
fn trace_off_is_silent() {
    let r = run("story-off", &built().story, &[], &[]);
    r.check(
        !r.stderr.contains("[cudart"),
        "the trace printed without CUDART_TRACE",
    );
}

/// Registration alone (a program that makes no runtime call): the JSON
/// trace holds the registration and the unregistration, and no driver
/// event at all.
#[test]
fn trace_registration_without_driver() {
    let b = built();
    let path = b.logs.join("register-only.json");
    let _ = std::fs::remove_file(&path);
    let p = path.to_string_lossy().into_owned();
    let r = run(
        "register-only",
        &b.register_only,
        &[],
        &[("CUDART_TRACE_JSON", &p)],
    );
    r.expect_exit0();
    let ev = trace_events(&r, &path);
    first(&r, &ev, "registration #1 (register_only)");
    first(&r, &ev, "unregister #1 (register_only)");
    r.check(
        !ev.iter().any(|e| e.str_of("cat") == "driver"),
        "registration must not load the driver",
    );
    r.check(r.log.is_empty(), "the double was called");
}
