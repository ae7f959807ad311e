//! `scripts/corpus-run.sh`'s extra programs (issue 30: the CuPy and JAX
//! workloads join the corpus that way), on the CPU with stand-ins: a
//! Python program that loads `libcudart.so.13` and prints a workload
//! document. Checked: an `EXPECT_LIB=DIR` word sets no variable but names
//! the library each run must map (the phases shim reports what was mapped)
//! and does not reach the program; a document with a failed part fails the
//! run even with exit status 0.

use abi_tests::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const STAND_IN: &str = r#"
import ctypes, json, os, sys
ctypes.CDLL("libcudart.so.13")
# part b fails when asked to, and when EXPECT_LIB reached the program
ok = sys.argv[1] == "ok" and "EXPECT_LIB" not in os.environ
print(json.dumps({"parts": {"a": {"ok": True, "time_s": 0.01},
                            "b": {"ok": ok, "time_s": 0.01}}}))
"#;

const SUMMARY: &str = r#"
import json, sys
for p in json.load(open(sys.argv[1]))["programs"]:
    for rt in ("nvidia", "ours"):
        for r in p["runs"][rt]:
            print(p["name"], rt, r.get("pass"), r.get("libcudart_ok"),
                  (r.get("workload") or {}).get("failed_parts"))
"#;

/// A scratch bundle whose corpus/ holds the named shims of bench/corpus.
fn bundle_with(dir: &Path, shims: &[&str]) -> PathBuf {
    let bundle = dir.join("bundle");
    std::fs::create_dir_all(bundle.join("corpus")).unwrap();
    for shim in shims {
        run_ok(
            Command::new("cc")
                .args(["-O2", "-fPIC", "-shared", "-o"])
                .arg(bundle.join(format!("corpus/{shim}.so")))
                .arg(repo_root().join(format!("bench/corpus/{shim}.c")))
                .arg("-ldl"),
        );
    }
    bundle
}

/// scripts/corpus-run.sh over the CORPUS_EXTRA programs `extra`, no
/// warm-up, with the extra environment `env`; returns the corpus.json.
fn corpus_run(
    dir: &Path,
    bundle: &Path,
    extra: &str,
    rounds: u32,
    env: &[(&str, &str)],
) -> PathBuf {
    let out_dir = dir.join("out");
    let mut cmd = Command::new("bash");
    cmd.arg(repo_root().join("scripts/corpus-run.sh"))
        .arg(bundle)
        .arg(Runtime::Ours.lib_dir())
        .arg(Runtime::Nvidia.lib_dir())
        .arg(&out_dir)
        .arg(rounds.to_string())
        .env("CORPUS_PARTS", "extra")
        .env("CORPUS_EXTRA", extra)
        .env("CORPUS_WARMUP", "0");
    for (k, v) in env {
        cmd.env(k, v);
    }
    run_ok(&mut cmd);
    out_dir.join("corpus.json")
}

#[test]
fn extra_programs_check_the_mapped_library_and_the_parts() {
    let dir = scratch("corpus_run_extra");
    let bundle = bundle_with(&dir, &["phases"]);
    let script = dir.join("stand_in.py");
    std::fs::write(&script, STAND_IN).unwrap();
    let nv = Runtime::Nvidia.lib_dir();
    let ours = Runtime::Ours.lib_dir();
    let (nv, ours, py) = (nv.display(), ours.display(), script.display());
    let extra = format!(
        "good\tEXPECT_LIB={nv} LD_LIBRARY_PATH={nv} python3 {py} ok\tEXPECT_LIB={ours} LD_LIBRARY_PATH={ours} python3 {py} ok\n\
         wrong_lib\tEXPECT_LIB={nv} LD_LIBRARY_PATH={nv} python3 {py} ok\tEXPECT_LIB={ours} LD_LIBRARY_PATH={nv} python3 {py} ok\n\
         failed_part\tLD_LIBRARY_PATH={nv} python3 {py} ok\tLD_LIBRARY_PATH={ours} python3 {py} bad\n"
    );
    let json = corpus_run(&dir, &bundle, &extra, 1, &[]);
    // One line per run: "name runtime pass libcudart_ok failed_parts".
    let summary = run_ok(Command::new("python3").arg("-c").arg(SUMMARY).arg(&json));
    let lines = String::from_utf8_lossy(&summary.stdout).into_owned();
    for want in [
        "good nvidia True True []",
        "good ours True True []",
        "wrong_lib nvidia True True []",
        "wrong_lib ours True False []",
        "failed_part nvidia True None []",
        "failed_part ours False None ['b']",
    ] {
        assert!(
            lines.lines().any(|l| l == want),
            "no line {want:?} in:\n{lines}"
        );
    }
}

/// A stand-in that calls two runtime functions through the global scope
/// (as a program's PLT does), so the preloaded calltime.so sees them.
const CALLER: &str = r#"
import ctypes, json
ctypes.CDLL("libcudart.so.13", mode=ctypes.RTLD_GLOBAL)
g = ctypes.CDLL(None)
p = ctypes.c_void_p()
for _ in range(3):
    g.cudaFree(None)
g.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(64))
print(json.dumps({"parts": {"a": {"ok": True, "time_s": 0.01}}}))
"#;

#[test]
fn calltime_counts_each_runtimes_calls_and_the_report_lists_them() {
    let dir = scratch("corpus_run_calltime");
    let bundle = bundle_with(&dir, &["phases", "calltime"]);
    let script = dir.join("caller.py");
    std::fs::write(&script, CALLER).unwrap();
    let nv = Runtime::Nvidia.lib_dir();
    let ours = Runtime::Ours.lib_dir();
    let (nv, ours, py) = (nv.display(), ours.display(), script.display());
    let extra = format!(
        "caller\tEXPECT_LIB={nv} LD_LIBRARY_PATH={nv} python3 {py}\tEXPECT_LIB={ours} LD_LIBRARY_PATH={ours} python3 {py}\n"
    );
    let json = corpus_run(
        &dir,
        &bundle,
        &extra,
        2,
        &[("CORPUS_CALLTIME", "1"), ("CORPUS_GAP_MS", "40")],
    );
    let counts = run_ok(
        Command::new("python3")
            .arg("-c")
            .arg(
                "import json,sys\n\
         for p in json.load(open(sys.argv[1]))['programs']:\n\
         \x20 for rt in ('nvidia','ours'):\n\
         \x20   for r in p['runs'][rt]:\n\
         \x20     c = r.get('calls') or {}\n\
         \x20     print(rt, r.get('libcudart_ok'), sorted((k, v['n']) for k, v in c.items()))\n",
            )
            .arg(&json),
    );
    let counts = String::from_utf8_lossy(&counts.stdout).into_owned();
    // Each run but the first (no warm-up) names its predecessor's teardown.
    let after = run_ok(
        Command::new("python3")
            .arg("-c")
            .arg(
                "import json,sys\n\
         rs = [r for p in json.load(open(sys.argv[1]))['programs'] for rt in ('nvidia','ours') for r in p['runs'][rt]]\n\
         print(len(rs), sum(isinstance(r.get('after_teardown_ns'), int) and r['after_teardown_ns'] > 0 for r in rs))\n",
            )
            .arg(&json),
    );
    assert_eq!(String::from_utf8_lossy(&after.stdout).trim(), "4 3");
    let want = "[('cudaFree', 3), ('cudaMalloc', 1)]";
    for rt in ["nvidia", "ours"] {
        let line = format!("{rt} True {want}");
        assert_eq!(
            counts.lines().filter(|l| *l == line).count(),
            2,
            "two runs with {line:?} in:\n{counts}"
        );
    }
    let report = run_ok(
        Command::new("python3")
            .arg(repo_root().join("scripts/corpus-report.py"))
            .arg(&json),
    );
    let report = String::from_utf8_lossy(&report.stdout).into_owned();
    assert!(
        report.contains("## Runtime calls per program (calltime.so)")
            && report.contains("| caller | `cudaFree` | 3 / 3 |")
            && report.contains("| caller | `cudaMalloc` | 1 / 1 |"),
        "no call rows in:\n{report}"
    );
    assert!(
        report.contains("40 ms idle before each process"),
        "CORPUS_GAP_MS not in the report's method:\n{report}"
    );
}

/// A stand-in runtime whose managed-memory calls answer with what they were
/// given, folded into one number, so a caller sees whether calltime.so
/// forwarded each argument exactly (a struct cudaMemLocation by value in
/// particular, which calltime.so passes on as a 64-bit integer).
const ECHO_RUNTIME: &str = r#"
#include <stddef.h>
struct loc { int type; int id; };
int cudaMemPrefetchAsync(const void *p, size_t n, struct loc l, unsigned f, void *s) {
  return (int)((size_t)p + n) * 1000000 + l.type * 10000 + l.id * 100 + (int)f + (s ? 50 : 0);
}
int cudaMemPrefetchAsync_ptsz(const void *p, size_t n, struct loc l, unsigned f, void *s) {
  return (int)((size_t)p + n) * 1000000 + l.type * 10000 + l.id * 100 + (int)f + (s ? 50 : 0) + 7;
}
int cudaMemAdvise(const void *p, size_t n, int advice, struct loc l) {
  return (int)((size_t)p + n) * 1000000 + advice * 100000 + l.type * 10000 + l.id * 100;
}
int cudaMemDiscardAndPrefetchBatchAsync(void **p, size_t *n, size_t count, struct loc *l,
                                        size_t *idx, size_t nl, unsigned long long f, void *s) {
  return (int)(count * 100000 + (size_t)l[0].id * 10000 + idx[0] * 1000 + nl * 100 + f * 10) +
         (s ? 5 : 0) + (p && n ? 0 : 1);
}
"#;

const ECHO_CALLER: &str = r#"
#include <stdio.h>
#include <stddef.h>
struct loc { int type; int id; };
int cudaMemPrefetchAsync(const void *, size_t, struct loc, unsigned, void *);
int cudaMemPrefetchAsync_ptsz(const void *, size_t, struct loc, unsigned, void *);
int cudaMemAdvise(const void *, size_t, int, struct loc);
int cudaMemDiscardAndPrefetchBatchAsync(void **, size_t *, size_t, struct loc *, size_t *,
                                        size_t, unsigned long long, void *);
int main(void) {
  struct loc a = {1, 7}, b = {3, 0};
  void *ptrs[1] = {0};
  size_t sizes[1] = {4}, idx[1] = {2};
  printf("%d %d %d %d %d\n", cudaMemPrefetchAsync((void *)1, 2, a, 3, (void *)8),
         cudaMemPrefetchAsync_ptsz((void *)1, 2, a, 3, (void *)8),
         cudaMemPrefetchAsync(0, 0, b, 0, 0), cudaMemAdvise((void *)2, 1, 4, a),
         cudaMemDiscardAndPrefetchBatchAsync(ptrs, sizes, 3, &a, idx, 1, 6, (void *)8));
  return 0;
}
"#;

/// calltime.so's wrappers pass every argument on exactly, a struct
/// cudaMemLocation by value included, and count each call (a `_ptsz`
/// export apart from the plain one).
#[test]
fn calltime_forwards_managed_memory_arguments_exactly() {
    let dir = scratch("corpus_calltime_forward");
    let bundle = bundle_with(&dir, &["calltime"]);
    std::fs::write(dir.join("echo.c"), ECHO_RUNTIME).unwrap();
    std::fs::write(dir.join("caller.c"), ECHO_CALLER).unwrap();
    run_ok(
        Command::new("cc")
            .args(["-O2", "-fPIC", "-shared", "-o"])
            .arg(dir.join("libecho.so"))
            .arg(dir.join("echo.c")),
    );
    run_ok(
        Command::new("cc")
            .args(["-O2", "-o"])
            .arg(dir.join("caller"))
            .arg(dir.join("caller.c"))
            .arg("-L")
            .arg(&dir)
            .arg("-lecho"),
    );
    let run = |preload: bool| {
        let mut cmd = Command::new(dir.join("caller"));
        cmd.env("LD_LIBRARY_PATH", &dir)
            .env("CALLTIME_FILE", dir.join("calls.txt"));
        if preload {
            cmd.env("LD_PRELOAD", bundle.join("corpus/calltime.so"));
        }
        String::from_utf8_lossy(&run_ok(&mut cmd).stdout).into_owned()
    };
    let direct = run(false);
    // What the stand-in computes from the arguments the caller passes.
    assert_eq!(
        direct.trim(),
        "3010753 3010760 30000 3410700 372165",
        "direct"
    );
    assert_eq!(run(true), direct, "through calltime.so");
    let calls = std::fs::read_to_string(dir.join("calls.txt")).unwrap();
    for (f, n) in [
        ("cudaMemPrefetchAsync", 2),
        ("cudaMemPrefetchAsync_ptsz", 1),
        ("cudaMemAdvise", 1),
        ("cudaMemDiscardAndPrefetchBatchAsync", 1),
    ] {
        assert!(
            calls.contains(&format!(" fn={f} n={n} ")),
            "no {f} n={n} in:\n{calls}"
        );
    }
}

/// bench/corpus/teardown_probe.py with its child on the test double: every
/// way of ending a process runs, and each process's set-up, end and
/// teardown are measured.
#[test]
fn teardown_probe_runs_every_mode() {
    let dir = scratch("corpus_teardown_probe");
    let double = build_driver_double(&dir.join("double"));
    let child = dir.join("teardown_child");
    run_ok(
        Command::new(c_compiler())
            .args(["-O2", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&child)
            .arg(repo_root().join("bench/corpus/teardown_child.c"))
            .arg("-ldl"),
    );
    let json = dir.join("teardown.json");
    let out = run_ok(
        Command::new("python3")
            .arg(repo_root().join("bench/corpus/teardown_probe.py"))
            .arg(&child)
            .arg("2")
            .arg("--json")
            .arg(&json)
            .env("LD_LIBRARY_PATH", &double),
    );
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    let check = run_ok(Command::new("python3").arg("-c").arg(
        "import json,sys\n\
         d = json.load(open(sys.argv[1]))\n\
         for r in d['runs']:\n\
         \x20 print(r['mode'], r['rc'], r.get('driver_rc'), 'teardown_ns' in r and r['teardown_ns'] > 0)\n",
    ).arg(&json));
    let lines = String::from_utf8_lossy(&check.stdout).into_owned();
    for mode in [
        "init",
        "ctx",
        "ctx_release",
        "ctx_reset",
        "alloc",
        "alloc_free",
        "alloc_reset",
    ] {
        let want = format!("{mode} 0 0 True");
        assert_eq!(
            lines.lines().filter(|l| *l == want).count(),
            2,
            "two runs with {want:?} in:\n{lines}"
        );
        assert!(
            table
                .lines()
                .any(|l| l.starts_with(&format!("{mode:<12} 2/2"))),
            "no row for {mode} in:\n{table}"
        );
    }
}
