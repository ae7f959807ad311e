//! The first-launch probes of `bench/` (issue 8) on the CPU machine: built
//! with the pinned toolchain, run on our runtime over the TEST DOUBLE
//! driver, so that what the GPU runs (`scripts/gpu-all.sh`, parts
//! `firstlaunch` and `driverpages`) is known to build, run and print what
//! its reports read (`bench/firstlaunch.sh`, the `driverpages` part, both
//! report scripts). Checked-in GPU outputs are reports, not test inputs.
//!
//! Fails (never skips) when the toolchain or our library is missing.

use abi_tests::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

struct Built {
    /// A bundle as `bench/firstlaunch.sh` reads it: `bin/` (the probes and
    /// k0.fatbin), `lib/` (our library and the double, the runtime "ours")
    /// and `nv/` (the same, standing in for NVIDIA's).
    bundle: PathBuf,
}

fn bench_dir() -> PathBuf {
    repo_root().join("bench")
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = scratch("probes");
        let bin = dir.join("bin");
        std::fs::create_dir_all(&bin).expect("bin folder");
        let double = build_driver_double(&dir.join("driver"));
        for rt in ["lib", "nv"] {
            let d = dir.join(rt);
            std::fs::create_dir_all(&d).expect("runtime folder");
            std::fs::copy(
                our_lib_dir().join("libcudart.so.13"),
                d.join("libcudart.so.13"),
            )
            .expect("copy our library");
            std::fs::copy(double.join("libcuda.so.1"), d.join("libcuda.so.1"))
                .expect("copy the double");
        }
        let lib = dir.join("lib");
        let b = bin.as_path();
        let l = lib.as_path();
        parallel(
            2,
            vec![
                Box::new(move || {
                    nvcc_bench(
                        &["-O2", "-std=c++17", "-cudart", "shared", "-arch=sm_90"],
                        "probe_first.cu",
                        &b.join("probe_first"),
                        &["-ldl"],
                    )
                }),
                Box::new(move || {
                    nvcc_bench(
                        &[
                            "-O2",
                            "-std=c++17",
                            "-cudart",
                            "shared",
                            "-arch=sm_90",
                            "-DPROBE_K2000",
                        ],
                        "probe_first.cu",
                        &b.join("probe_first2000"),
                        &["-ldl"],
                    )
                }),
                Box::new(move || {
                    nvcc_bench(
                        &["-arch=sm_90", "-fatbin"],
                        "probe_k0.cu",
                        &b.join("k0.fatbin"),
                        &[],
                    )
                }),
                Box::new(move || cc_bench("probe_warm.c", &b.join("probe_warm"), l)),
                Box::new(move || cc_bench("probe_startup.c", &b.join("probe_startup"), l)),
            ],
        );
        Built { bundle: dir }
    })
}

fn nvcc_bench(flags: &[&str], src: &str, out: &Path, tail: &[&str]) {
    run_ok(
        Command::new(nvcc())
            .args(flags)
            .arg("-o")
            .arg(out)
            .arg(bench_dir().join(src))
            .args(tail),
    );
}

/// A C probe linked against our library as `-l:libcudart.so.13` (the
/// library found at run time is whichever the path names).
fn cc_bench(src: &str, out: &Path, lib: &Path) {
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    run_ok(
        Command::new(cc)
            .args(["-O2", "-Wall", "-Werror", "-o"])
            .arg(out)
            .arg(bench_dir().join(src))
            .arg("-ldl")
            .arg(format!("-L{}", lib.display()))
            .arg("-l:libcudart.so.13"),
    );
}

/// Runs a probe of the bundle on "ours" (our library, the double first),
/// in bin/ (where k0.fatbin is), the trace variables cleared.
fn probe(name: &str, args: &[&str], env: &[(&str, &str)]) -> String {
    let b = built();
    let mut cmd = Command::new(b.bundle.join("bin").join(name));
    cmd.current_dir(b.bundle.join("bin"))
        .env("LD_LIBRARY_PATH", b.bundle.join("lib"))
        .env_remove("CUDART_TRACE")
        .env_remove("CUDART_TRACE_FILE")
        .env_remove("CUDART_TRACE_JSON")
        .env_remove("LD_PRELOAD")
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = run_ok(&mut cmd);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The value after `key=` in the line starting with `prefix`.
fn field(out: &str, prefix: &str, key: &str) -> i64 {
    let line = out
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in:\n{out}"));
    let v = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{key}=")))
        .unwrap_or_else(|| panic!("no {key}= in {line:?}"));
    v.parse()
        .unwrap_or_else(|_| panic!("{key}={v} is not a number"))
}

#[test]
fn probe_first_reports_pages_and_entry_points() {
    let out = probe(
        "probe_first",
        &["direct"],
        &[
            ("PROBE_PAGES", "1"),
            ("PROBE_SYMS", "cuLaunchKernel cuLibraryLoadData"),
        ],
    );
    // Both snapshots read: a process has thousands of pages present.
    let before = field(&out, "PROBE first_direct pages_total", "before");
    let after = field(&out, "PROBE first_direct pages_total", "after");
    assert!(
        before > 100 && after >= before - 64,
        "implausible page counts:\n{out}"
    );
    // The entry points are found in the driver's code mapping, the same
    // page by dlsym and by cuGetProcAddress_v2 (the double hands out its
    // exports).
    for sym in ["cuLaunchKernel", "cuLibraryLoadData"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("PROBE first_direct sym {sym} ")))
            .unwrap_or_else(|| panic!("no sym line for {sym}:\n{out}"));
        let w: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(w.len(), 8, "{line}");
        assert!(w[5].starts_with("libcuda.so.1:x+"), "{line}");
        assert_eq!(w[5], w[7], "dlsym and cuGetProcAddress_v2 disagree: {line}");
    }
    assert!(out.contains("PROBE first_direct launch "), "{out}");

    // PROBE_PAGES=2: every page present after the start-up, our library's
    // code among them.
    let out = probe("probe_first", &["direct"], &[("PROBE_PAGES", "2")]);
    assert!(
        out.lines()
            .any(|l| l.starts_with("PROBE startup_present pages_runs libcudart.so.13:x ")),
        "{out}"
    );
    // The bare driver path with the program's own image, in place.
    let out = probe(
        "probe_first",
        &["raw", "embedded", "preserved"],
        &[("PROBE_PAGES", "1")],
    );
    assert!(out.contains("PROBE first_raw pages_total"), "{out}");
    assert!(out.contains("PROBE first_raw total "), "{out}");

    // An allocation first, timed, then the launch.
    let out = probe("probe_first", &["alloc"], &[]);
    for step in [
        "malloc_free",
        "faults malloc_free",
        "launch",
        "faults launch",
    ] {
        assert!(
            out.contains(&format!("PROBE first_alloc {step} ")),
            "no {step}:\n{out}"
        );
    }
    // With page snapshots: the allocation's pages apart from the launch's.
    let out = probe("probe_first", &["alloc"], &[("PROBE_PAGES", "1")]);
    for group in ["first_alloc/malloc_free", "first_alloc"] {
        assert!(
            out.contains(&format!("PROBE {group} pages_total before=")),
            "no snapshot of {group}:\n{out}"
        );
    }
}

#[test]
fn probe_warm_calls_then_launches() {
    let out = probe("probe_warm", &[], &[]);
    let calls: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("PROBE warm "))
        .collect();
    // Every call of the default list has its line; the diagnostic
    // "invalid" pair only runs when named.
    for c in [
        "cuModuleGetLoadingMode",
        "cuCtxGetLimit.stack",
        "cuStreamCreate+Destroy",
        "cuMemAlloc+Free",
    ] {
        assert!(
            calls
                .iter()
                .any(|l| l.starts_with(&format!("PROBE warm {c} rc "))),
            "no {c}:\n{out}"
        );
    }
    assert!(!out.contains("invalid:"), "{out}");
    // The whole table resolved: the double's exports, read from its file.
    let found: i64 = calls
        .iter()
        .find_map(|l| l.strip_prefix("PROBE warm cuGetProcAddress.all rc "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no cuGetProcAddress.all count:\n{out}"));
    assert!(found > 50, "only {found} entry points found:\n{out}");
    let last = calls.last().expect("no output");
    assert!(
        last.starts_with("PROBE warm first_launch rc 0 us "),
        "{out}"
    );
    // Named calls only.
    let out = probe("probe_warm", &["invalid", "cuMemGetInfo"], &[]);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("PROBE warm "))
        .collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines[0].starts_with("PROBE warm cuMemGetInfo rc 0 "),
        "{out}"
    );
    assert!(
        lines[1].starts_with("PROBE warm invalid:cuLibraryGetKernel(NULL library) rc "),
        "{out}"
    );
    assert!(
        !lines[1].contains(" rc 0 "),
        "a NULL library was accepted: {out}"
    );
}

#[test]
fn probe_startup_lists_pages_without_kernels() {
    let out = probe("probe_startup", &[], &[]);
    assert!(out.contains("PROBE startup cudaFree0 0"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("PROBE startup_present pages libcuda.so.1:x ")),
        "{out}"
    );
}

/// bench/firstlaunch.sh over the bundle (one round, the page variants and
/// a runtime with a variable), its output through the report script.
#[test]
fn firstlaunch_script_and_report() {
    let b = built();
    let text = firstlaunch(
        &b.bundle,
        1,
        "pages rawpages direct alloc allocpages big bigpages",
        "nvidia ours ours+CUDART_TRACE=0",
    );
    for rt in ["nvidia", "ours", "ours+CUDART_TRACE=0"] {
        for v in [
            "pages",
            "rawpages",
            "direct",
            "alloc",
            "allocpages",
            "big",
            "bigpages",
        ] {
            assert!(
                text.contains(&format!("runtime {rt} variant {v}\n")),
                "{rt} {v}:\n{text}"
            );
        }
    }
    assert_eq!(text.matches("exit 0\n").count(), 21, "{text}");
    let file = b.bundle.join("firstlaunch.out");
    std::fs::write(&file, &text).expect("write output");
    let report = report(&file);
    assert!(report.contains("## pages\n"), "{report}");
    // The allocation before the launch is a step of its own.
    assert!(report.contains("## alloc\n"), "{report}");
    assert!(report.contains("| malloc_free |"), "{report}");
    assert!(report.contains("## allocpages\n"), "{report}");
    // probe_first2000: the same probe, 2,000 more kernels in its fatbin.
    assert!(report.contains("## big\n"), "{report}");
    assert!(report.contains("## bigpages\n"), "{report}");
    assert!(
        report.contains("| ours+CUDART_TRACE=0 (n) |")
            || report.contains("ours+CUDART_TRACE=0 (n)"),
        "{report}"
    );
    assert!(report.contains("## Failures\n\nNone."), "{report}");
}

/// bench/firstlaunch.sh over `bundle` (NVIDIA's runtime: its `nv`
/// folder): its stdout.
fn firstlaunch(bundle: &Path, rounds: u32, variants: &str, runtimes: &str) -> String {
    let out = run_ok(
        Command::new("bash")
            .arg(repo_root().join("bench/firstlaunch.sh"))
            .arg(bundle)
            .arg(bundle.join("nv"))
            .arg(rounds.to_string())
            .env("FIRST_VARIANTS", variants)
            .env("FIRST_RUNTIMES", runtimes)
            .env_remove("LD_PRELOAD"),
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `scripts/firstlaunch-report.py` on one output file.
fn report(file: &Path) -> String {
    let out = run_ok(
        Command::new("python3")
            .arg(repo_root().join("scripts/firstlaunch-report.py"))
            .arg(file),
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// bench/pages.h itself: three pages touched in a fresh mapping (one, a
/// gap, two) show as three new pages in two runs; one unmapped shows as
/// gone.
#[test]
fn pages_snapshots_see_touched_and_unmapped_pages() {
    let dir = scratch("probes-pages");
    let src = dir.join("pages_check.c");
    std::fs::write(
        &src,
        r#"#include "pages.h"
int main(void) {
    static struct pages_snap a, b, c;
    pages_init(&a); pages_init(&b); pages_init(&c);
    char *p = mmap(NULL, 8 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 2;
    printf("base %lx\n", (unsigned long)p >> 12);
    pages_take(&a);
    p[1 * 4096] = 1; p[3 * 4096] = 1; p[4 * 4096] = 1;
    pages_take(&b);
    pages_report(&a, &b, "touch");
    munmap(p + 3 * 4096, 4096);
    pages_take(&c);
    pages_report(&b, &c, "unmap");
    return 0;
}
"#,
    )
    .expect("write the check");
    let exe = dir.join("pages_check");
    let cc = std::env::var_os("CC").unwrap_or_else(|| "cc".into());
    run_ok(
        Command::new(cc)
            .args(["-O2", "-Wall", "-Werror", "-I"])
            .arg(bench_dir())
            .arg("-o")
            .arg(&exe)
            .arg(&src),
    );
    let out = String::from_utf8_lossy(&run_ok(&mut Command::new(&exe)).stdout).into_owned();
    // (The stack may grow a page between two snapshots: only anonymous
    // mappings are asserted on.)
    let touched: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("PROBE touch pages anon"))
        .collect();
    assert_eq!(touched, ["PROBE touch pages anon 3"], "{out}");
    let runs = out
        .lines()
        .find_map(|l| l.strip_prefix("PROBE touch pages_runs anon "))
        .unwrap_or_else(|| panic!("no runs:\n{out}"));
    let runs: Vec<(u64, u64)> = runs
        .split_whitespace()
        .map(|r| {
            let (s, n) = r.split_once('+').expect("start+length");
            (u64::from_str_radix(s, 16).unwrap(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(runs.len(), 2, "{out}");
    assert_eq!((runs[0].1, runs[1].1), (1, 2), "{out}");
    assert_eq!(runs[1].0, runs[0].0 + 2, "{out}");
    assert!(out.contains("PROBE unmap pages_gone anon 1"), "{out}");
    assert!(!out.contains("PROBE unmap pages anon"), "{out}");
}

/// gpu-all.sh's `driverpages` part over the bundle (the double standing in
/// for NVIDIA's runtime too), its output through
/// `scripts/driverpages-report.py`.
#[test]
fn driverpages_part_and_report() {
    let b = built();
    let out = b.bundle.join("driverpages-out");
    let _ = std::fs::remove_dir_all(&out);
    run_ok(
        Command::new("bash")
            .arg(repo_root().join("scripts/gpu-all.sh"))
            .arg(&b.bundle)
            .arg(&b.bundle)
            .arg(&out)
            .env("PARTS", "driverpages")
            .env("CUDA_LIB_NVIDIA", b.bundle.join("nv"))
            .env_remove("LD_PRELOAD"),
    );
    let log = std::fs::read_to_string(out.join("all.log")).expect("all.log");
    assert!(log.contains("== driverpages: rc 0"), "{log}");
    run_ok(
        Command::new("tar")
            .arg("xzf")
            .arg(out.join("rest.tar.gz"))
            .arg("-C")
            .arg(&out),
    );
    let r = run_ok(
        Command::new("python3")
            .arg(repo_root().join("scripts/driverpages-report.py"))
            .arg(out.join("driverpages.out")),
    );
    let r = String::from_utf8_lossy(&r.stdout).into_owned();
    for want in [
        "| nvidia | 3 |",
        "| ours | 3 |",
        "### nvidia\n",
        "### ours\n",
        "### ours cuGetProcAddress.all\n",
        "### ours invalid\n",
        "| `cuModuleGetLoadingMode` |",
        "| `first_launch` | 0 us ",
    ] {
        assert!(r.contains(want), "missing {want:?} in:\n{r}");
    }
}

/// bench/firstlaunch.sh's bench_lazy variants over a bundle whose
/// bench_lazy is a stand-in printing
/// the real program's lines (the real one needs a GPU to say anything):
/// the runtimes and modes in alternating rounds, the milliseconds turned
/// into microseconds, a failing process recorded, and the output read by
/// the report script.
#[test]
fn firstlaunch_script_runs_bench_lazy() {
    let dir = scratch("probes-bench-lazy");
    for sub in ["bin", "lib", "lib-base", "nv"] {
        std::fs::create_dir_all(dir.join(sub)).expect("mkdir");
    }
    // Fails under the library folder named lib-base in LAZY mode only.
    let stand_in = "#!/bin/sh\n\
        case \"$CUDA_MODULE_LOADING $LD_LIBRARY_PATH\" in *LAZY*lib-base) echo 'BENCH_ERROR x 3'; exit 3 ;; esac\n\
        echo \"BENCH startup.k2000_$CUDA_MODULE_LOADING.cudaFree0 250.5 ms 1\"\n\
        echo \"BENCH startup.k2000_$CUDA_MODULE_LOADING.first_launch+sync 0.0855 ms 1\"\n";
    let prog = dir.join("bin/bench_lazy");
    std::fs::write(&prog, stand_in).expect("write stand-in");
    run_ok(Command::new("chmod").arg("+x").arg(&prog));
    let text = firstlaunch(&dir, 2, "k2000eager k2000lazy", "nvidia ours ours-base");
    let order: Vec<&str> = text.lines().filter(|l| l.starts_with("runtime ")).collect();
    assert_eq!(order.len(), 12, "{text}");
    assert_eq!(order[0], "runtime nvidia variant k2000eager");
    assert_eq!(
        order[6], "runtime ours-base variant k2000eager",
        "round 2 reversed"
    );
    assert!(
        text.contains("PROBE k2000 first_launch+sync 85.50\n"),
        "{text}"
    );
    assert!(text.contains("PROBE k2000 cudaFree0 250500.00\n"), "{text}");
    assert_eq!(text.matches("exit 3\n").count(), 2, "{text}");
    let file = dir.join("bench-lazy.out");
    std::fs::write(&file, &text).expect("write output");
    let r = report(&file);
    assert!(
        r.contains("## k2000eager\n") && r.contains("## k2000lazy\n"),
        "{r}"
    );
    assert!(
        r.contains("| first_launch+sync | 85.5 (2) | 85.5 (2) | 85.5 (2) |"),
        "{r}"
    );
    assert!(r.contains("ours-base k2000lazy: exit 3"), "{r}");
}

/// pytorch/import-probe.sh (gpu-all.sh's `timport` part) with a stand-in
/// `torch` package on PYTHONPATH (the real one is on the GPU machine only)
/// and our library: every way of running in every round, each process's
/// timings and module list kept, read by scripts/timport-report.py.
#[test]
fn import_probe_and_report() {
    let dir = scratch("probes-timport");
    let pkg = dir.join("py/torch");
    std::fs::create_dir_all(&pkg).expect("mkdir");
    std::fs::write(pkg.join("__init__.py"), "import json\nimport ctypes\n").expect("stand-in");
    let out = dir.join("timport");
    let py = run_ok(
        Command::new("bash")
            .arg(repo_root().join("pytorch/import-probe.sh"))
            .arg(our_lib_dir())
            .arg(&out)
            .arg("2")
            .env("PYTHONPATH", dir.join("py"))
            .env_remove("LD_PRELOAD")
            .env_remove("IMPORT_LABELS"),
    );
    let summary = String::from_utf8_lossy(&py.stdout);
    let times = std::fs::read_to_string(out.join("times.txt")).expect("times.txt");
    for label in ["nvidia", "ours", "preload", "pre+pypath", "pre+ldpath"] {
        let lines: Vec<&str> = times
            .lines()
            .filter(|l| l.split(' ').next() == Some(label))
            .collect();
        assert_eq!(lines.len(), 2, "{label}:\n{times}");
        assert_eq!(lines[0].split(' ').count(), 7, "{}", lines[0]);
        for round in ["1", "2"] {
            let it = std::fs::read_to_string(out.join(format!("it/{label}.{round}.txt")))
                .expect("module timings");
            assert!(it.contains("| torch\n"), "{label} {round}:\n{it}");
        }
        assert!(summary.contains(&format!("{label:<11} n=2 ")), "{summary}");
    }
    let r = run_ok(
        Command::new("python3")
            .arg(repo_root().join("scripts/timport-report.py"))
            .arg(&out),
    );
    let r = String::from_utf8_lossy(&r.stdout);
    assert!(r.contains("| nvidia | 2 | "), "{r}");
    assert!(r.contains("| pre+ldpath | 2 | "), "{r}");
    assert!(r.contains("| ours | ") && r.contains("] ("), "{r}");
    assert!(
        r.contains("| module | NVIDIA | ours | ours - NVIDIA [95 %] |"),
        "{r}"
    );
    assert_eq!(r.matches("\n| `").count(), 12, "{r}");
}
