//! Stream and event handles the runtime never made, on the test-double
//! driver (`abi-tests/c/garbage_handles.cu`): garbage addresses are refused
//! with `cudaErrorInvalidResourceHandle` before the driver could read them;
//! handles made through the driver work, the first time (one readability
//! check) and after.

use abi_tests::*;
use std::process::Command;

#[test]
fn garbage_refused_driver_made_handles_work() {
    let dir = scratch("garbage_handles");
    let double = build_driver_double(&dir.join("driver"));
    let lib_flag = format!("-L{}", double.display());
    let exe = nvcc_program(
        "garbage_handles.cu",
        &dir.join("garbage_handles"),
        &[&lib_flag, "-lcuda"],
    );
    let r = DoubleRun::run(
        "garbage_handles",
        &exe,
        &[],
        &[],
        &double,
        &dir.join("double.log"),
        &[
            "cuEventQuery",
            "cuEventSynchronize",
            "cuStreamQuery",
            "cuStreamSynchronize",
            "cuEventRecord",
            "cuStreamWaitEvent",
            "cuLaunchKernel",
        ],
    );
    r.expect_exit0();
    let lines: Vec<&str> = r.stdout.lines().collect();
    let answer = |call: &str| -> Vec<String> {
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.starts_with(&format!("{call} -> ")))
            .map(|(i, l)| format!("{} / {}", l, lines.get(i + 1).unwrap_or(&"")))
            .collect()
    };
    for call in [
        "cudaEventQuery(garbage)",
        "cudaEventSynchronize(garbage)",
        "cudaStreamQuery(garbage)",
        "cudaStreamSynchronize(garbage)",
        "cudaEventRecord(event, garbage stream)",
        "cudaStreamWaitEvent(0, garbage event)",
    ] {
        let got = answer(call);
        r.check(
            got == [format!(
                "{call} -> 400 cudaErrorInvalidResourceHandle / lasterror -> 400 cudaErrorInvalidResourceHandle"
            )],
            &format!("{call}: {got:?}"),
        );
    }
    for (call, code) in [
        ("cudaGraphGetNodes(garbage)", "1 cudaErrorInvalidValue"),
        (
            "cudaGraphHostNodeGetParams(garbage)",
            "1 cudaErrorInvalidValue",
        ),
        ("cudaGraphLaunch(garbage)", "1 cudaErrorInvalidValue"),
        (
            "cudaArrayGetInfo(garbage)",
            "400 cudaErrorInvalidResourceHandle",
        ),
        (
            "cudaMemcpyFromArray2D(garbage)",
            "400 cudaErrorInvalidResourceHandle",
        ),
        ("cudaMemcpy(low addresses)", "1 cudaErrorInvalidValue"),
    ] {
        let got = answer(call);
        r.check(
            got == [format!("{call} -> {code} / lasterror -> {code}")],
            &format!("{call}: {got:?}"),
        );
    }
    r.check(
        !r.log.iter().any(|l| {
            let f = log_function(l);
            f.starts_with("cuGraph") || f.starts_with("cuArray") || f.starts_with("cuMemcpy")
        }),
        "a garbage graph or array handle or a low address reached the driver",
    );
    r.check(
        r.stdout.contains(
            "cudaEventCreate -> 0 cudaSuccess\nlasterror -> 0 cudaSuccess\ncudaEventQuery(garbage)",
        ),
        "event created",
    );
    for call in [
        "cudaEventRecord(driver event, driver stream)",
        "cudaStreamWaitEvent(driver stream, driver event)",
        "cudaStreamQuery(driver stream)",
        "cudaEventSynchronize(driver event)",
        "cudaEventQuery(driver event)",
    ] {
        let got = answer(call);
        r.check(
            got.len() == 2
                && got
                    .iter()
                    .all(|l| l == &format!("{call} -> 0 cudaSuccess / lasterror -> 0 cudaSuccess")),
            &format!("{call}: {got:?}"),
        );
    }
    // The garbage never reached the driver: each call reached it only in
    // the two rounds with the driver's own handles.
    for (f, n) in [
        ("cuEventQuery", 2),
        ("cuEventSynchronize", 2),
        ("cuStreamQuery", 2),
        ("cuStreamSynchronize", 0),
        ("cuEventRecord", 2),
        ("cuStreamWaitEvent", 2),
        ("cuLaunchKernel", 2),
    ] {
        let calls = r.calls(f);
        r.check(
            calls.len() == n && calls.iter().all(|c| !c.contains('?')),
            &format!("{f}: {calls:?}, want {n} with the driver's handles"),
        );
    }
    r.check(r.stdout.ends_with("done\n"), "the program ran to its end");
}

/// Handles the runtime saw destroyed (`abi-tests/c/foreign_handles.cu`):
/// refused while the runtime is the only maker of driver handles in the
/// process; once a library that makes streams and events through the
/// driver is loaded, and the double hands the destroyed addresses out
/// again to it, those live handles go to the driver and work.
#[test]
fn destroyed_refused_until_another_maker_loads() {
    let dir = scratch("foreign_handles");
    let double = build_driver_double(&dir.join("driver"));
    let plugin = dir.join("libdirect_driver.so");
    run_ok(
        Command::new(c_compiler())
            .args([
                "-std=gnu11",
                "-O1",
                "-Wall",
                "-Werror",
                "-fPIC",
                "-shared",
                "-o",
            ])
            .arg(&plugin)
            .arg(c_dir().join("direct_driver.c"))
            .arg(format!("-L{}", double.display()))
            .arg("-lcuda"),
    );
    let exe = nvcc_program(
        "foreign_handles.cu",
        &dir.join("foreign_handles"),
        &["-ldl"],
    );
    let plugin_arg = plugin.display().to_string();
    let r = DoubleRun::run(
        "foreign_handles",
        &exe,
        &[&plugin_arg],
        &[("CUDA_DOUBLE_REUSE", "1")],
        &double,
        &dir.join("double.log"),
        &["cuStreamQuery", "cuEventQuery", "cuEventRecord"],
    );
    r.expect_exit0();
    let invalid = "400 cudaErrorInvalidResourceHandle";
    for (call, code) in [
        ("cudaStreamQuery(destroyed)", invalid),
        ("cudaEventQuery(destroyed)", invalid),
        ("cudaStreamQuery(driver stream)", "0 cudaSuccess"),
        (
            "cudaEventRecord(driver event, driver stream)",
            "0 cudaSuccess",
        ),
        ("cudaEventQuery(driver event)", "0 cudaSuccess"),
        (
            "cudaStreamWaitEvent(driver stream, driver event)",
            "0 cudaSuccess",
        ),
        ("cudaStreamSynchronize(driver stream)", "0 cudaSuccess"),
        ("cudaStreamGetFlags(driver stream)", "0 cudaSuccess"),
    ] {
        let want = format!("{call} -> {code}\nlasterror -> {code}\n");
        r.check(r.stdout.contains(&want), &format!("want {want:?}"));
    }
    // The double did hand the destroyed addresses out again: the case the
    // records alone would get wrong.
    for what in ["stream", "event"] {
        r.check(
            r.stdout.contains(&format!(
                "driver {what} at the destroyed {what}'s address: yes"
            )),
            &format!("the double reused the {what}'s address"),
        );
    }
    r.check(
        r.stdout.contains("  flags = 1\n"),
        "the driver stream's flags",
    );
    // The destroyed handles never reached the driver; the live ones did.
    r.check(
        r.calls("cuStreamQuery").len() == 1 && r.calls("cuEventQuery").len() == 1,
        &format!(
            "driver queries: {:?} {:?}",
            r.calls("cuStreamQuery"),
            r.calls("cuEventQuery")
        ),
    );
}
