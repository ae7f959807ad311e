//! The no-driver differential test (issue #7): a GENERATED program
//! (abi-tests/harness: gen.rs writes it from the wheel's real headers,
//! runner.h runs it) calls every export of NVIDIA's list with ordinary
//! arguments, each in its own forked child, in a process with no
//! `libcuda.so.1`; once against NVIDIA's `libcudart.so.13` from the wheel and
//! once against ours. Return codes, `cudaPeekAtLastError` before and after,
//! `cudaGetLastError` and the peek after it (is the error sticky), which
//! out-parameters were written (and the value of int-like ones), and how the
//! child ended must be the same, line for line, in three modes:
//!
//! - `pre`: a `cudaPeekAtLastError` before each call (as the issue asks);
//! - `first`: the call is the child's first runtime call;
//! - `null-outs`: the same, with every out-pointer NULL (who checks its
//!   arguments before it needs the driver);
//! - `sequential`: every call in one process, in table order, so state
//!   carries over (`--nofork`).
//!
//! Differences are allowed only where `abi-tests/harness/allowed-differences.txt`
//! names the function with the reason; a listed function that no longer
//! differs fails the test too. The same program runs on the GPU machine
//! with `--gpu` (scripts/harness-prepare.sh, scripts/harness-run.sh).
//!
//! Fails (never skips) when the toolchain or our library is missing, or when
//! a driver is installed.

#[path = "../harness/gen.rs"]
mod gen;

use abi_tests::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::OnceLock;

/// The two undocumented internals without a public signature. For zero
/// arguments NVIDIA's `__cudaRegisterUnifiedTable` replaces the sticky
/// error with cudaErrorInitializationError, which would hide every later
/// call of the sequential mode; that mode leaves both out.
const UNKNOWN_INTERNALS: &str = "__cudaRegisterUnifiedTable,__cudaGetProcAddress";

/// The modes: (name, program arguments).
const MODES: &[(&str, &[&str])] = &[
    ("pre", &[]),
    ("first", &["--first"]),
    ("null-outs", &["--first", "--null-outs"]),
    ("sequential", &["--nofork", "--skip", UNKNOWN_INTERNALS]),
];

/// The exports a mode reports.
fn expected(mode_args: &[&str], exports: &BTreeSet<String>) -> BTreeSet<String> {
    let skipped: Vec<&str> = mode_args
        .iter()
        .position(|a| *a == "--skip")
        .map(|i| mode_args[i + 1].split(',').collect())
        .unwrap_or_default();
    exports
        .iter()
        .filter(|e| !skipped.contains(&e.as_str()))
        .cloned()
        .collect()
}

fn built() -> &'static gen::Built {
    static BUILT: OnceLock<gen::Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        assert_no_driver_installed();
        let dir = scratch("harness");
        gen::build(&dir, &gen::export_list()).unwrap_or_else(|e| panic!("harness: {e}"))
    })
}

/// Runs the harness and returns its report: function -> the rest of its line.
fn run(exe: &Path, rt: Runtime, args: &[&str]) -> BTreeMap<String, String> {
    let mut cmd = clean_command(exe, rt, &[]);
    cmd.args(args);
    let out = run_capture(&mut cmd);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "harness {args:?} under {rt:?}: {}\nstdout:\n{stdout}\nstderr:\n{}",
        describe_status(&out.status),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut lines = BTreeMap::new();
    for line in stdout.lines().filter(|l| !l.starts_with('#')) {
        let (name, rest) = line.split_once(' ').unwrap_or((line, ""));
        let old = lines.insert(name.to_string(), rest.to_string());
        assert!(old.is_none(), "{rt:?}: {name} reported twice");
    }
    lines
}

/// The allow-list: (function, mode or None for every mode) -> reason.
fn allowed() -> BTreeMap<(String, Option<String>), String> {
    let path = gen::harness_src_dir().join("allowed-differences.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, reason) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("allowed-differences.txt: no `: reason` in {line:?}"));
        assert!(
            !reason.trim().is_empty(),
            "allowed-differences.txt: {key} without a reason"
        );
        let (name, mode) = match key.split_once('@') {
            Some((n, m)) => {
                assert!(
                    MODES.iter().any(|(x, _)| *x == m),
                    "allowed-differences.txt: unknown mode {m:?} in {line:?}"
                );
                (n.to_string(), Some(m.to_string()))
            }
            None => (key.to_string(), None),
        };
        out.insert((name, mode), reason.to_string());
    }
    out
}

/// Every export of NVIDIA's list is called, once, and nothing else.
#[test]
fn every_export_is_called() {
    let exports: BTreeSet<String> = gen::export_list().into_iter().collect();
    let b = built();
    let called: BTreeSet<String> = b.names.iter().cloned().collect();
    assert_eq!(called.len(), b.names.len(), "a function is called twice");
    let missing: Vec<_> = exports.difference(&called).collect();
    let extra: Vec<_> = called.difference(&exports).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "harness calls differ from the export list: missing {missing:?}, extra {extra:?}"
    );
    // And the program itself reports every one of them.
    let listed = run_ok(clean_command(&b.exe, Runtime::Nvidia, &[]).arg("--list"));
    let listed: BTreeSet<String> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(
        listed, exports,
        "harness --list differs from the export list"
    );
}

#[test]
fn same_as_nvidia_without_a_driver() {
    let b = built();
    let exports: BTreeSet<String> = gen::export_list().into_iter().collect();
    let allow = allowed();
    for (name, _) in allow.keys() {
        assert!(
            exports.contains(name),
            "allowed-differences.txt names {name}, which is not an export"
        );
    }
    let mut used: BTreeSet<(String, Option<String>)> = BTreeSet::new();
    let mut failures = Vec::new();
    let mut summary = Vec::new();
    for (mode, args) in MODES {
        let nv = run(&b.exe, Runtime::Nvidia, args);
        let ours = run(&b.exe, Runtime::Ours, args);
        let want = expected(args, &exports);
        for (who, lines) in [("NVIDIA", &nv), ("ours", &ours)] {
            let names: BTreeSet<String> = lines.keys().cloned().collect();
            assert_eq!(
                names, want,
                "{mode}: the {who} run does not report exactly the exports"
            );
        }
        let (mut same, mut allowed_n) = (0, 0);
        for name in &want {
            let (a, o) = (&nv[name], &ours[name]);
            if a == o {
                same += 1;
                continue;
            }
            let key_mode = (name.clone(), Some(mode.to_string()));
            let key_all = (name.clone(), None);
            if allow.contains_key(&key_mode) {
                used.insert(key_mode);
                allowed_n += 1;
            } else if allow.contains_key(&key_all) {
                used.insert(key_all);
                allowed_n += 1;
            } else {
                failures.push(format!("[{mode}] {name}\n    NVIDIA: {a}\n    ours:   {o}"));
            }
        }
        summary.push(format!(
            "harness [{mode}]: {} functions called, {same} identical, {allowed_n} allowed differences, {} unexplained",
            want.len(),
            want.len() - same - allowed_n
        ));
    }
    for s in &summary {
        println!("{s}");
    }
    let stale: Vec<String> = allow
        .keys()
        .filter(|k| !used.contains(*k))
        .map(|(n, m)| match m {
            Some(m) => format!("{n}@{m}"),
            None => n.clone(),
        })
        .collect();
    assert!(
        failures.is_empty(),
        "our runtime differs from NVIDIA's (list a deliberate difference in \
         abi-tests/harness/allowed-differences.txt with its reason):\n{}\n{}\nprogram: {}",
        failures.join("\n"),
        summary.join("\n"),
        b.source.display()
    );
    assert!(
        stale.is_empty(),
        "allowed-differences.txt lists functions that no longer differ (remove them): {stale:?}"
    );
}
