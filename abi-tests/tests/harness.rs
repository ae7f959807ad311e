//! The no-driver differential test (issue #7): a GENERATED program
//! (abi-tests/harness: gen/ writes it from the wheel's real headers,
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
//! The bad-input matrix (issue #9, `--bad`): the same program calls every
//! export once per bad argument (gen/bad.rs decides which apply from each
//! parameter's type and name), each case in its own child, as the child's
//! first runtime call. Our runtime must never crash or hang; NVIDIA's may
//! (counted); every other difference must be listed, with its reason, in
//! `abi-tests/harness/allowed-bad.txt`.
//!
//! Batch mode (`--batch`, runner.h; the default of `--gpu --bad`, what the
//! GPU machine runs): one child runs many cases in one process. On the test
//! double it must give every case the same line as a child per case, and a
//! case that crashes or hangs in a batch must be reported as such while the
//! cases after it run in a fresh child (forced with the test-only hooks of
//! a second build, `-DHARNESS_TEST_HOOKS`).
//!
//! Fails (never skips) when the toolchain or our library is missing, or when
//! a driver is installed.

#[path = "../harness/gen/mod.rs"]
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

// ---------------------------------------------------------------------------
// The bad-input matrix (issue #9).

/// The program arguments of the no-driver matrix: every case is the
/// child's first runtime call (a peek before it would answer
/// cudaErrorInsufficientDriver and hide every argument check).
const BAD_ARGS: &[&str] = &["--bad", "--first"];

/// Every kind of bad argument the generator knows; each must occur.
const BAD_KINDS: &[&str] = &[
    "null",
    "freed",
    "wrong:event",
    "wrong:stream",
    "wrong:graph",
    "max+1",
    "0x7fffffff",
    "0x40000000",
    "-1",
    "9999",
    "0",
    "2^62",
    "dev+1",
    "host-stack",
    "host-malloc",
    "dev",
    "not-a-kernel",
    "not-a-symbol",
    "not-a-wrapper",
    "not-a-handle",
];

/// `*` matches any run of characters; nothing else is special.
fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// The bad-input allow-list: (case pattern, reason), in file order.
fn allowed_bad() -> Vec<(String, String)> {
    let path = gen::harness_src_dir().join("allowed-bad.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, reason) = line
            .split_once(": ")
            .unwrap_or_else(|| panic!("allowed-bad.txt: no `: reason` in {line:?}"));
        assert!(
            key.contains('#') && !reason.trim().is_empty(),
            "allowed-bad.txt: {line:?} is not `FUNCTION#PARAM=WHAT: reason`"
        );
        out.push((key.to_string(), reason.to_string()));
    }
    out
}

#[test]
fn bad_input_cases_are_listed_once() {
    let b = built();
    let exports: BTreeSet<String> = gen::export_list().into_iter().collect();
    let mut seen = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    for id in &b.cases {
        assert!(seen.insert(id.clone()), "case {id} appears twice");
        let (func, case) = id
            .split_once('#')
            .unwrap_or_else(|| panic!("case id {id} is not FUNCTION#PARAM=WHAT"));
        assert!(exports.contains(func), "case {id}: {func} is no export");
        let (_, what) = case
            .split_once('=')
            .unwrap_or_else(|| panic!("case id {id} is not FUNCTION#PARAM=WHAT"));
        kinds.insert(what.to_string());
    }
    let missing: Vec<_> = BAD_KINDS.iter().filter(|k| !kinds.contains(**k)).collect();
    assert!(
        missing.is_empty(),
        "no case of the kinds {missing:?} (kinds made: {kinds:?})"
    );
    let listed = run_ok(clean_command(&b.exe, Runtime::Nvidia, &[]).args(["--bad", "--list"]));
    let listed: Vec<String> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(
        listed, b.cases,
        "harness --bad --list differs from the plan"
    );
    // --what selects the cases of some kinds: the NULL sweep runs alone.
    let nulls = run_ok(clean_command(&b.exe, Runtime::Nvidia, &[]).args([
        "--bad",
        "--list",
        "--what",
        "null,garbage",
    ]));
    let nulls: Vec<String> = String::from_utf8_lossy(&nulls.stdout)
        .lines()
        .map(String::from)
        .collect();
    let want: Vec<String> = b
        .cases
        .iter()
        .filter(|id| id.ends_with("=null") || id.ends_with("=garbage"))
        .cloned()
        .collect();
    assert!(!want.is_empty(), "the plan has no null or garbage case");
    assert_eq!(nulls, want, "harness --bad --list --what null,garbage");
    println!(
        "bad-input matrix: {} cases over {} functions, {} kinds",
        b.cases.len(),
        b.cases
            .iter()
            .map(|c| c.split('#').next().unwrap_or(""))
            .collect::<BTreeSet<_>>()
            .len(),
        kinds.len()
    );
}

#[test]
fn bad_inputs_same_as_nvidia_without_a_driver() {
    let b = built();
    let allow = allowed_bad();
    let nv = run(&b.exe, Runtime::Nvidia, BAD_ARGS);
    let ours = run(&b.exe, Runtime::Ours, BAD_ARGS);
    let want: BTreeSet<String> = b.cases.iter().cloned().collect();
    for (who, lines) in [("NVIDIA", &nv), ("ours", &ours)] {
        let got: BTreeSet<String> = lines.keys().cloned().collect();
        assert_eq!(got, want, "the {who} run does not report exactly the cases");
    }
    let abnormal = |rest: &str| !rest.ends_with(" end=exit0");
    let mut used = vec![false; allow.len()];
    let (mut same, mut allowed_n) = (0, 0);
    let (mut ours_broken, mut nv_crashes, mut failures) = (Vec::new(), Vec::new(), Vec::new());
    for id in &b.cases {
        let (a, o) = (&nv[id], &ours[id]);
        if abnormal(o) {
            ours_broken.push(format!("{id} {o}"));
        }
        if abnormal(a) {
            nv_crashes.push(format!("{id} {a}"));
        }
        if a == o {
            same += 1;
        } else if abnormal(a) {
            // NVIDIA's runtime crashed or hung: allowed, counted.
        } else if let Some(i) = allow.iter().position(|(p, _)| glob(p, id)) {
            used[i] = true;
            allowed_n += 1;
        } else {
            failures.push(format!("{id}\n    NVIDIA: {a}\n    ours:   {o}"));
        }
    }
    let summary = format!(
        "bad-input matrix: {} cases, {same} identical, {allowed_n} allowed differences, \
         {} unexplained; crashes or hangs: NVIDIA {}, ours {}",
        b.cases.len(),
        failures.len(),
        nv_crashes.len(),
        ours_broken.len()
    );
    println!("{summary}");
    for c in &nv_crashes {
        println!("  NVIDIA: {c}");
    }
    assert!(
        ours_broken.is_empty(),
        "our runtime crashed or hung (never allowed):\n{}\n{summary}",
        ours_broken.join("\n")
    );
    assert!(
        failures.is_empty(),
        "our runtime answers bad arguments differently from NVIDIA's (list a \
         deliberate difference in abi-tests/harness/allowed-bad.txt with its reason):\n{}\n{summary}\nprogram: {}",
        failures.join("\n"),
        b.source.display()
    );
    let stale: Vec<&str> = allow
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|((p, _), _)| p.as_str())
        .collect();
    assert!(
        stale.is_empty(),
        "allowed-bad.txt lists cases that no longer differ (remove them): {stale:?}"
    );
}

/// Cases that crash on purpose (the harness's test hook
/// HARNESS_TEST_CRASH raises SIGSEGV just before their call) in the batch
/// test: crashes inside batches, the same in every mode. The double itself
/// no longer faults anywhere (its copies of freed memory faulted before the
/// runtime refused freed device memory).
const CRASH_ON_PURPOSE: &str =
    "cudaMemcpy#dst=freed,cudaMemcpy#src=freed,cudaMemcpyAsync#dst=freed,cudaMemcpyAsync#src=freed";

/// The matrix in GPU mode (`--gpu --bad`: real fixtures, destroyed handles,
/// the follow-up cudaMalloc/cudaFree) on our runtime over the test-double
/// driver: the code paths past the driver's load run, and our runtime must
/// not crash or hang in any case. Results are not compared (the double is
/// no driver). Batch mode, the default of `--gpu --bad` (as on the GPU
/// machine).
#[test]
fn bad_inputs_on_the_test_double_never_crash_ours() {
    let b = built();
    let double = build_driver_double(&scratch("harness-double"));
    let mut cmd = on_double(&b.exe, &double);
    cmd.args(["--gpu", "--bad", "--jobs", "2", "--timeout", "10"]);
    let out = run_capture(&mut cmd);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "harness --gpu --bad on the double: {}\nstderr:\n{}",
        describe_status(&out.status),
        String::from_utf8_lossy(&out.stderr)
    );
    let (mut lines, mut broken) = (0, Vec::new());
    for line in stdout.lines().filter(|l| !l.starts_with('#')) {
        lines += 1;
        if !line.ends_with(" end=exit0") {
            broken.push(line.to_string());
        }
    }
    assert_eq!(lines, b.cases.len(), "not every case reported:\n{stdout}");
    println!(
        "bad-input matrix on the test double: {lines} cases, {} crashes or hangs of ours",
        broken.len()
    );
    assert!(
        broken.is_empty(),
        "our runtime crashed or hung on the test double:\n{}",
        broken.join("\n")
    );
}

/// The enum reader behind `max+1`: plain, hex, shifted, referring and
/// typedef'd enumerators, and an expression it cannot evaluate.
#[test]
fn enum_maxima_from_header_text() {
    let text =
        "enum A { a0, a1 = 5, a2 }; typedef enum B_enum { b0 = 0x10u, b1 = 1<<6, b2 = b0 } B; \
                typedef enum A A_t; enum C { c0 = sizeof(int) }; struct S { enum A f; };";
    let e = gen::parse_enums(text);
    assert_eq!(e.max_of("enum A"), Some(Some(6)));
    assert_eq!(e.max_of("A_t"), Some(Some(6)));
    assert_eq!(e.max_of("B"), Some(Some(64)));
    assert_eq!(e.max_of("enum B_enum"), Some(Some(64)));
    assert_eq!(e.max_of("enum C"), Some(None));
    assert_eq!(e.max_of("int"), None);
    assert!(glob(
        "cudaMemcpy*#dst=freed",
        "cudaMemcpyAsync_ptsz#dst=freed"
    ));
    assert!(glob(
        "__cudaRegister*#fatCubinHandle=null",
        "__cudaRegisterVar#fatCubinHandle=null"
    ));
    assert!(!glob("cudaMemcpy*#dst=freed", "cudaMemcpy#dst=freed2"));
    assert!(glob("a*b*c", "abc") && !glob("a*b*c", "acb"));
}

// ---------------------------------------------------------------------------
// Batch mode (runner.h, `--batch`).

/// What a harness run printed: the lines (id, rest) in order, the comments.
struct Report {
    lines: Vec<(String, String)>,
    comments: Vec<String>,
}

impl Report {
    fn ids(&self) -> Vec<String> {
        self.lines.iter().map(|(id, _)| id.clone()).collect()
    }

    fn map(&self) -> BTreeMap<String, String> {
        self.lines.iter().cloned().collect()
    }

    /// The numbers of `# children: K started (batches of up to B: X; alone:
    /// Y; restarts: Z)`: [K, B, X, Y, Z].
    fn children(&self) -> Vec<usize> {
        let line = self
            .comments
            .iter()
            .find(|c| c.starts_with("# children: "))
            .unwrap_or_else(|| panic!("no '# children:' line in {:?}", self.comments));
        assert_eq!(
            self.comments.last(),
            Some(line),
            "'# children:' is not the last line"
        );
        line.split(|c: char| !c.is_ascii_digit())
            .filter(|w| !w.is_empty())
            .map(|w| w.parse().expect("a number"))
            .collect()
    }
}

fn report(cmd: &mut std::process::Command) -> Report {
    let out = run_capture(cmd);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{cmd:?}: {}\nstderr:\n{}",
        describe_status(&out.status),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut r = Report {
        lines: Vec::new(),
        comments: Vec::new(),
    };
    for line in stdout.lines() {
        if line.starts_with('#') {
            r.comments.push(line.to_string());
        } else {
            let (id, rest) = line.split_once(' ').unwrap_or((line, ""));
            r.lines.push((id.to_string(), rest.to_string()));
        }
    }
    r
}

/// `exe` on our runtime over the test double, without the trace.
fn on_double(exe: &Path, double: &Path) -> std::process::Command {
    let mut cmd = clean_command(exe, Runtime::Ours, &[double]);
    for var in ["CUDART_TRACE", "CUDART_TRACE_FILE", "CUDART_TRACE_JSON"] {
        cmd.env_remove(var);
    }
    for var in [
        "HARNESS_TEST_CRASH",
        "HARNESS_TEST_HANG",
        "HARNESS_TEST_FRESH",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// Where two reports differ, case by case (at most 20).
fn differences(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>) -> String {
    let mut out = Vec::new();
    for (id, x) in a {
        let y = b.get(id).map(String::as_str).unwrap_or("(missing)");
        if x != y {
            out.push(format!("{id}\n    per case: {x}\n    batch:    {y}"));
        }
    }
    for id in b.keys().filter(|id| !a.contains_key(*id)) {
        out.push(format!("{id}: only in the batch run"));
    }
    let n = out.len();
    out.truncate(20);
    format!("{n} differences:\n{}", out.join("\n"))
}

/// The cases of the matrix that run alone in batch mode (gen/bad.rs, ISOLATED).
fn isolated_cases(cases: &[String]) -> usize {
    cases
        .iter()
        .filter(|id| gen::isolated(id.split('#').next().unwrap_or("")))
        .count()
}

/// Every case of the matrix in GPU mode on the test double: batch mode (the
/// default of `--gpu --bad`, and small batches in the `--spread` order)
/// gives every case the same line as a child per case (`--batch 1`), with
/// far fewer children. Cases that crash on purpose (CRASH_ON_PURPOSE) are
/// crashes inside batches: the cases after them must still run, with their
/// lines.
#[test]
fn batch_mode_same_as_a_child_per_case_on_the_test_double() {
    let b = built();
    let double = build_driver_double(&scratch("harness-double-batch"));
    let base = ["--gpu", "--bad", "--jobs", "2", "--timeout", "10"];
    let hooks = gen::variant(b, "harness-hooks-batch", &["-DHARNESS_TEST_HOOKS"]);
    let run = || {
        let mut cmd = on_double(&hooks, &double);
        cmd.env("HARNESS_TEST_CRASH", CRASH_ON_PURPOSE).args(base);
        cmd
    };
    let t = std::time::Instant::now();
    let fork = report(run().args(["--batch", "1"]));
    let fork_s = t.elapsed().as_secs_f64();
    let t = std::time::Instant::now();
    let batch = report(&mut run());
    let batch_s = t.elapsed().as_secs_f64();
    let small = report(run().args(["--batch", "25", "--spread"]));
    assert_eq!(
        fork.ids(),
        b.cases,
        "the per-case run does not report every case in order"
    );
    assert_eq!(
        batch.ids(),
        b.cases,
        "the batch run does not report every case in order"
    );
    let fork_map = fork.map();
    assert!(
        fork.lines == batch.lines,
        "batch mode differs from a child per case: {}",
        differences(&fork_map, &batch.map())
    );
    let small_map = small.map();
    assert!(
        fork_map == small_map,
        "batches of 25 in the --spread order differ from a child per case: {}",
        differences(&fork_map, &small_map)
    );

    let alone = isolated_cases(&b.cases);
    let n = b.cases.len();
    // [started, batch size, batches, alone, restarts]
    let fc = fork.children();
    assert_eq!(fc, vec![n, 1, 0, n, 0], "per case: {:?}", fork.comments);
    let bc = batch.children();
    assert_eq!(
        bc[3], alone,
        "batch: cases that ran alone: {:?}",
        batch.comments
    );
    assert_eq!(bc[0], bc[2] + bc[3] + bc[4], "{:?}", batch.comments);
    let crashes = batch
        .lines
        .iter()
        .filter(|(_, rest)| rest.contains(" end=signal"))
        .count();
    assert!(
        crashes > 0 && bc[4] > 0,
        "no crash inside a batch (CRASH_ON_PURPOSE): the test lost its point"
    );
    assert!(
        bc[0] < n / 4,
        "batch mode started {} children for {n} cases",
        bc[0]
    );
    let sc = small.children();
    assert_eq!(sc[1], 25);
    assert_eq!(sc[3], alone);
    println!(
        "batch mode on the test double: {n} cases, identical to a child per case; \
         {} children in {batch_s:.1} s (batches of up to {}, {alone} cases alone, {} restarts \
         after {crashes} crashes) against {n} in {fork_s:.1} s",
        bc[0], bc[1], bc[4]
    );
}

/// Test-only hooks (a second build with `-DHARNESS_TEST_HOOKS`): in one
/// batch, one case crashes (SIGSEGV), one hangs (its alarm fires) and after
/// one the child stops as if the context were unusable. Each is reported
/// as it would be in a child of its own (crash and hang at stage 1); every
/// other case, the ones after them included, has the line of a child per
/// case; a fresh child goes on after each. With `--recheck` a crash or a
/// hang runs again in a fresh child before it is reported.
#[test]
fn batch_mode_reports_a_crash_and_goes_on() {
    let b = built();
    // --first needs a child per case.
    let refused = run_capture(
        clean_command(&b.exe, Runtime::Ours, &[]).args(["--bad", "--first", "--batch", "5"]),
    );
    assert_eq!(
        describe_status(&refused.status),
        "exit 2",
        "--first --batch 5 was not refused"
    );

    let hooks = gen::variant(b, "harness-hooks", &["-DHARNESS_TEST_HOOKS"]);
    let double = build_driver_double(&scratch("harness-double-hooks"));
    let func = "cudaMemcpy2DAsync";
    assert!(!gen::isolated(func));
    let ids: Vec<&String> = b
        .cases
        .iter()
        .filter(|c| c.split('#').next() == Some(func))
        .collect();
    assert!(ids.len() >= 12, "{func}: only {} cases", ids.len());
    let (crash, hang, fresh) = (ids[2].as_str(), ids[6].as_str(), ids[9].as_str());
    let args = [
        "--gpu",
        "--bad",
        "--only",
        func,
        "--jobs",
        "1",
        "--timeout",
        "1",
    ];
    let plain = report(on_double(&hooks, &double).args(args).args(["--batch", "1"]));
    assert_eq!(plain.lines.len(), ids.len());
    let plain = plain.map();
    for recheck in [false, true] {
        let mut cmd = on_double(&hooks, &double);
        cmd.args(args)
            .args(["--batch", "100"])
            .env("HARNESS_TEST_CRASH", crash)
            .env("HARNESS_TEST_HANG", hang)
            .env("HARNESS_TEST_FRESH", fresh);
        if recheck {
            cmd.arg("--recheck");
        }
        let r = report(&mut cmd);
        let got = r.map();
        assert_eq!(r.lines.len(), ids.len(), "recheck {recheck}: {:?}", r.lines);
        for id in &ids {
            let line = &got[id.as_str()];
            let id = id.as_str();
            if id == crash {
                assert!(
                    line.starts_with("rc=- pre=0 ") && line.ends_with(" end=signal11 stage=1"),
                    "recheck {recheck}: the crashed case: {id} {line}"
                );
            } else if id == hang {
                assert!(
                    line.starts_with("rc=- pre=0 ") && line.ends_with(" end=timeout stage=1"),
                    "recheck {recheck}: the hung case: {id} {line}"
                );
            } else {
                assert_eq!(
                    line, &plain[id],
                    "recheck {recheck}: {id} differs from a child per case"
                );
            }
        }
        let c = r.children();
        // One batch; a fresh child after the crash, the hang and `fresh`
        // (and with --recheck one more for each of the first two).
        let restarts = if recheck { 5 } else { 3 };
        assert_eq!(
            c,
            vec![1 + restarts, 100, 1, 0, restarts],
            "recheck {recheck}: {:?}",
            r.comments
        );
        assert!(
            r.comments
                .iter()
                .any(|l| l.starts_with(&format!("# batch: after {fresh}: test hook"))),
            "recheck {recheck}: no comment on the stop after {fresh}: {:?}",
            r.comments
        );
        if recheck {
            for id in [crash, hang] {
                assert!(
                    r.comments
                        .iter()
                        .any(|l| l.starts_with(&format!("# batch: {id} ended ("))),
                    "no recheck of {id}: {:?}",
                    r.comments
                );
            }
        }
    }
}

/// The exports that run alone in batch mode are exports, with a reason, and
/// the generated table marks exactly their calls.
#[test]
fn isolated_exports_are_marked() {
    let exports: BTreeSet<String> = gen::export_list().into_iter().collect();
    for (f, why) in gen::ISOLATED {
        assert!(
            exports.contains(*f),
            "gen/bad.rs ISOLATED names {f}, which is not an export"
        );
        assert!(!why.is_empty(), "gen/bad.rs ISOLATED: {f} without a reason");
    }
    let b = built();
    let source = std::fs::read_to_string(&b.source).expect("harness.cu");
    let mut rows = 0;
    for line in source.lines() {
        let Some(rest) = line.trim().strip_prefix("{\"") else {
            continue;
        };
        let Some((name, tail)) = rest.split_once("\", hc_") else {
            continue;
        };
        rows += 1;
        let marked = tail.trim_end_matches("},").ends_with(", 1");
        assert_eq!(marked, gen::isolated(name), "{name}: {line}");
    }
    assert_eq!(rows, b.names.len(), "rows of h_calls");
}
