//! CUDA 13.5's device resources and execution contexts on the test-double
//! driver (`abi-tests/c/double_resource.cu`, built by nvcc 13.5; the
//! double's device has 132 SMs, split in multiples of 8): the values, the
//! codes for bad arguments, and the driver calls the runtime makes.
//! A green context's calls take the driver's green-context forms; a
//! primary context's stream is made with the context pushed; handles the
//! runtime never handed out (or destroyed) are refused without a driver
//! call; a primary context's execution context is not destroyed.

use abi_tests::*;
use std::process::Command;

#[test]
fn resources_and_execution_contexts_on_the_double() {
    let dir = scratch("resource");
    let double = build_driver_double(&dir.join("double"));
    let exe = dir.join("double_resource");
    run_ok(
        Command::new(nvcc135())
            .args(["-cudart", "shared", "-arch=sm_90", "-o"])
            .arg(&exe)
            .arg(c_dir().join("double_resource.cu")),
    );
    let log_path = dir.join("calls.log");
    let out = run_capture(
        clean_command(&exe, Runtime::Ours, &[double.as_path()]).env("CUDA_DOUBLE_LOG", &log_path),
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        describe_status(&out.status)
    );
    let want = "\
getres -> 0\nsms 132\ngetres-null -> 1\ngetres-baddev -> 101\ngetres-badtype -> 914\n\
split-count -> 0\ngroups 4\nsplit -> 0\nsplit 4 x 32, remaining 4\nsplit-nullcount -> 1\n\
split-nullinput -> 1\ndesc -> 0\ndesc-null -> 1\ndesc-none -> 1\ngreen-flags -> 1\n\
green-nulldesc -> 1\ngreen-null -> 1\ngreen -> 0\nprimary -> 0\nprimary-baddev -> 101\n\
green-res -> 0\ngreen sms 64\nprimary-res -> 0\nprimary sms 132\ngreen-dev -> 0\n\
green-id -> 0\ngreen-id-null -> 1\nnull-dev -> 1\nbad-dev -> 400\nbad-sync -> 400\n\
bad-destroy -> 400\ngreen-stream -> 0\ngreen-stream-flags -> 0\ngreen stream flags 1\n\
primary-stream -> 0\nstream-badflags -> 1\nevent -> 0\ngreen-record -> 0\nprimary-wait -> 0\n\
green-sync -> 0\nstream-destroy -> 0\ngreen-destroy -> 0\ngreen-destroy-again -> 400\n\
green-after -> 400\nprimary-destroy -> 1\nprimary-after -> 0\nmalloc-after -> 0\n";
    assert_eq!(stdout, want);

    let log = std::fs::read_to_string(&log_path).expect("the double's log");
    let calls: Vec<&str> = log.lines().filter(|l| !l.starts_with('#')).collect();
    let has = |prefix: &str| calls.iter().filter(|l| l.starts_with(prefix)).count();
    // The driver's CU_GREEN_CTX_DEFAULT_STREAM, which cuGreenCtxCreate
    // requires (the real driver refuses flags 0).
    assert_eq!(
        has("cuGreenCtxCreate desc=R1 dev=0 flags=0x1 -> green=Y1"),
        1,
        "{log}"
    );
    assert_eq!(has("cuCtxFromGreenCtx green=Y1 -> ctx=X1"), 1, "{log}");
    assert_eq!(has("cuGreenCtxStreamCreate green=Y1 flags=0x1"), 1, "{log}");
    assert_eq!(has("cuGreenCtxGetDevResource green=Y1"), 1, "{log}");
    assert_eq!(has("cuCtxGetDevResource ctx=P0"), 1, "{log}");
    assert_eq!(has("cuGreenCtxRecordEvent green=Y1"), 1, "{log}");
    assert_eq!(has("cuCtxWaitEvent ctx=P0"), 1, "{log}");
    assert_eq!(has("cuGreenCtxDestroy green=Y1"), 1, "{log}");
    assert_eq!(has("cuCtxPushCurrent ctx=P0"), 1, "{log}");
    assert_eq!(has("cuCtxPopCurrent -> ctx=P0"), 1, "{log}");
    let bad: Vec<&&str> = calls.iter().filter(|l| l.contains("bad")).collect();
    assert!(
        bad.is_empty(),
        "a refused handle reached the driver: {bad:?}"
    );
    // Refused before the driver: no green-context call with flags, no
    // descriptor-less create.
    assert_eq!(has("cuGreenCtxCreate"), 1, "{log}");
}
