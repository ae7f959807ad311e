//! Memory checks in CI (issue #9): `scripts/sanitize.sh` runs the C
//! programs that need no GPU (abi-tests/c, every c-sample and the
//! diagnostics cases on the test-double driver, the generated harness
//! with and without a driver) against our `libcudart.so.13` under valgrind
//! memcheck and under AddressSanitizer, and attributes every report by its
//! stack. An invalid read or write, a use of uninitialised values, an
//! invalid free or a definite leak in our library fails; so does an error
//! elsewhere that `abi-tests/sanitizers/allowed.txt` does not list with its
//! reason, a crash or a hang. The script's header says what runs and how it
//! judges; its report for each tool is in
//! `target/abi-tests/sanitize/<tool>/report.txt`.
//!
//! One test per tool, one at a time (each builds the programs and keeps the
//! machine's CPUs busy). Fails (never skips) when valgrind, the toolchain
//! or our library is missing.

use abi_tests::*;
use std::process::Command;
use std::sync::Mutex;

/// The two tests share the CPUs: never both at once.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn sanitize(tool: &str) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let cuda = cuda_home();
    let lib = our_lib_dir();
    let work = abi_tests::target_dir().join("abi-tests/sanitize");
    let mut cmd = Command::new("bash");
    cmd.arg(repo_root().join("scripts/sanitize.sh"))
        .arg(tool)
        .env("CUDART_LIB_DIR", &lib)
        .env("CUDA_HOME", &cuda)
        .env("HARNESS_GEN", env!("CARGO_BIN_EXE_harness-gen"))
        .env("SANITIZE_DIR", &work)
        .env_remove("SANITIZE_ONLY")
        .env_remove("SANITIZE_RUNS");
    let out = run_capture(&mut cmd);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "scripts/sanitize.sh {tool}: {}\n{stdout}\n--- stderr (last 4000 bytes) ---\n{}",
        describe_status(&out.status),
        tail(&stderr, 4000)
    );
}

/// The last `n` bytes of `s`, cut at a character boundary.
fn tail(s: &str, n: usize) -> &str {
    let mut start = s.len().saturating_sub(n);
    while !s.is_char_boundary(start) {
        start += 1;
    }
    &s[start..]
}

#[test]
fn valgrind_memcheck_is_clean() {
    sanitize("valgrind");
}

#[test]
fn address_sanitizer_is_clean() {
    sanitize("asan");
}
