//! The insight features on the test-double driver (`abi-tests/c/insight.cu`):
//! `CUDART_CHECK` reports each mistake the program makes, once, with the
//! call and the origin of the object, and changes no return code;
//! `CUDART_LEAKS` lists exactly what was never freed; `CUDART_FAULTS` fails
//! the chosen call with the chosen error; `CUDART_PROFILE` counts the
//! launches and writes JSON. Off, none of them writes anything.

use abi_tests::*;
use std::path::PathBuf;

struct Setup {
    dir: PathBuf,
    double: PathBuf,
    exe: PathBuf,
}

fn setup(name: &str) -> Setup {
    let dir = scratch(name);
    let double = build_driver_double(&dir.join("driver"));
    let exe = nvcc_program("insight.cu", &dir.join("insight"), &[]);
    Setup { dir, double, exe }
}

fn run(s: &Setup, tag: &str, env: &[(&str, &str)]) -> DoubleRun {
    run_program(s, tag, &s.exe, &[], env)
}

/// `program args` on the driver double, its log in the setup's folder.
fn run_program(
    s: &Setup,
    tag: &str,
    program: &std::path::Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> DoubleRun {
    DoubleRun::run(
        tag,
        program,
        args,
        env,
        &s.double,
        &s.dir.join(format!("{tag}.log")),
        &[],
    )
}

fn codes(r: &DoubleRun) -> Vec<&str> {
    r.stdout.lines().collect()
}

fn lines_with<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.starts_with(prefix)).collect()
}

#[test]
fn checks_report_each_mistake_and_change_no_code() {
    let s = setup("insight_check");
    let off = run(&s, "off", &[]);
    off.expect_exit0();
    assert!(
        !off.stderr.contains("cudart "),
        "nothing written while off:\n{}",
        off.stderr
    );
    let on = run(&s, "check", &[("CUDART_CHECK", "1")]);
    on.expect_exit0();
    assert_eq!(codes(&on), codes(&off), "the checks changed a return code");
    let reports = lines_with(&on.stderr, "cudart check: ");
    let expect = [
        (
            "cudaMemset on thread",
            "past the end of an allocation of 1024 bytes made by cudaMalloc",
        ),
        ("cudaFree on thread", "is not the base of an allocation"),
        ("cudaFree on thread", "double free of"),
        ("cudaStreamSynchronize on thread", "stream 0x"),
    ];
    for (call, phrase) in expect {
        let n = reports
            .iter()
            .filter(|l| l.contains(call) && l.contains(phrase))
            .count();
        assert_eq!(n, 1, "one report `{call}` ... `{phrase}`:\n{}", on.stderr);
    }
    assert!(
        reports.iter().any(|l| l.contains("used after destroy")
            && l.contains("made by cudaStreamCreate")
            && l.contains("destroyed by cudaStreamDestroy")),
        "use after destroy names both origins:\n{}",
        on.stderr
    );
    assert!(
        !reports
            .iter()
            .any(|l| l.contains("cudaMemset") && l.contains(" 1024 bytes at")),
        "a set inside its allocation is no mistake:\n{}",
        on.stderr
    );
}

#[test]
fn leaks_lists_what_was_never_freed() {
    let s = setup("insight_leaks");
    let on = run(&s, "leaks", &[("CUDART_LEAKS", "1")]);
    on.expect_exit0();
    let head = lines_with(&on.stderr, "cudart leaks: ");
    assert_eq!(
        head,
        ["cudart leaks: 2 objects still alive at exit"],
        "{}",
        on.stderr
    );
    let items = lines_with(&on.stderr, "  ");
    assert_eq!(items.len(), 2, "{}", on.stderr);
    assert!(
        items[0].starts_with("  device memory 4096 bytes at 0x")
            && items[0].contains(", made by cudaMalloc on thread "),
        "{}",
        on.stderr
    );
    assert!(
        items[1].starts_with("  event 0x")
            && items[1].contains(", made by cudaEventCreate on thread "),
        "{}",
        on.stderr
    );
}

#[test]
fn faults_fail_the_chosen_call() {
    let s = setup("insight_faults");
    let on = run(
        &s,
        "faults",
        &[("CUDART_FAULTS", "cudaMalloc:2=cudaErrorMemoryAllocation")],
    );
    on.expect_exit0();
    let out = codes(&on);
    assert_eq!(out[1], "cudaMalloc b -> 2", "{}", on.stdout);
    assert_eq!(
        out[2], "cudaGetLastError -> 2",
        "the last error is kept: {}",
        on.stdout
    );
    assert_eq!(out[3], "cudaMalloc b again -> 0", "{}", on.stdout);
    assert_eq!(
        lines_with(&on.stderr, "cudart fault: "),
        ["cudart fault: cudaMalloc (call 2) fails with cudaErrorMemoryAllocation"],
        "{}",
        on.stderr
    );
    // A launch rule names the kernel that `<<<...>>>` launches through the
    // handle `__cudaGetKernel` gave.
    let launch = run(
        &s,
        "faults_launch",
        &[("CUDART_FAULTS", "launch:touch:2=cudaErrorLaunchFailure")],
    );
    launch.expect_exit0();
    // The first line carries the error the program's earlier mistake left.
    let launches: Vec<&str> = codes(&launch)
        .into_iter()
        .filter(|l| l.starts_with("launch -> "))
        .collect();
    assert_eq!(
        launches[1..],
        ["launch -> 719", "launch -> 0"],
        "{}",
        launch.stdout
    );
    assert_eq!(
        lines_with(&launch.stderr, "cudart fault: "),
        ["cudart fault: launch of _Z5touchPii (call 2) fails with cudaErrorLaunchFailure"],
        "{}",
        launch.stderr
    );
    let bad = run(&s, "faults_bad", &[("CUDART_FAULTS", "cudaMalloc:x=2")]);
    bad.expect_exit0();
    assert!(
        bad.stderr.contains("CUDART_FAULTS ignored"),
        "{}",
        bad.stderr
    );
    assert_eq!(codes(&bad)[1], "cudaMalloc b -> 0");
}

#[test]
fn profile_counts_launches_and_writes_json() {
    let s = setup("insight_profile");
    let json = s.dir.join("profile.json");
    let on = run(
        &s,
        "profile",
        &[
            ("CUDART_PROFILE", "1"),
            ("CUDART_PROFILE_FILE", json.to_str().unwrap()),
        ],
    );
    on.expect_exit0();
    // The first launch's GPU clock starts once its function is loaded:
    // the profile's event (the last cuEventRecord before the launch)
    // comes after the cuKernelGetFunction that loads it.
    let position =
        |f: &str, before: usize| on.log[..before].iter().rposition(|l| log_function(l) == f);
    let launch = on
        .log
        .iter()
        .position(|l| log_function(l).starts_with("cuLaunchKernel"))
        .unwrap_or_else(|| on.fail("no launch reached the driver"));
    match (
        position("cuKernelGetFunction", launch),
        position("cuEventRecord", launch),
    ) {
        (Some(get), Some(record)) => on.check(
            get < record,
            "the first launch's start event must follow the loading of its function",
        ),
        _ => on.fail("the first launch needs cuKernelGetFunction and a start event before it"),
    }
    let text = std::fs::read_to_string(&json).expect("profile JSON written");
    assert!(text.starts_with("{\"kernels\":[{\"name\":"), "{text}");
    assert!(
        text.contains("\"launches\":4"),
        "4 launches of touch: {text}"
    );
    assert!(
        text.contains("\"grid\":[2,1,1],\"block\":[32,1,1],\"launches\":3"),
        "{text}"
    );
    assert!(
        text.contains("\"mangled\":\"_Z5touchPii\""),
        "the kernel launched by <<<...>>> is named: {text}"
    );
    // The first launch's time is one of the launches': at most the longest.
    let field = |key: &str| -> f64 {
        let at = text.find(key).unwrap_or_else(|| panic!("{key} in {text}")) + key.len();
        let end = text[at..].find([',', '}']).map_or(text.len(), |e| at + e);
        text[at..end]
            .parse()
            .unwrap_or_else(|_| panic!("{key} a number: {text}"))
    };
    let (first, max) = (field("\"first_ms\":"), field("\"max_ms\":"));
    assert!(
        (0.0..=max).contains(&first),
        "first {first} max {max}: {text}"
    );
    assert!(text.contains("\"op\":\"memset\""), "{text}");
    assert!(
        text.contains("\"device\":{\"current\":4096,\"peak\":"),
        "{text}"
    );
    // A live process holding the file (here flock(1), as a parent that
    // started the program would): the program writes FILE.<pid> and
    // leaves the held file as it was.
    std::fs::write(&json, "held").expect("write the held file");
    let held = run_program(
        &s,
        "profile_held",
        std::path::Path::new("/usr/bin/flock"),
        &[json.to_str().unwrap(), s.exe.to_str().unwrap()],
        &[
            ("CUDART_PROFILE", "1"),
            ("CUDART_PROFILE_FILE", json.to_str().unwrap()),
        ],
    );
    held.expect_exit0();
    assert_eq!(
        std::fs::read_to_string(&json).unwrap(),
        "held",
        "the held file must not be written"
    );
    let prefix = format!("{}.", json.file_name().unwrap().to_str().unwrap());
    let own: Vec<_> = std::fs::read_dir(&s.dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .collect();
    assert_eq!(own.len(), 1, "one FILE.<pid> written");
    let text = std::fs::read_to_string(own[0].path()).unwrap();
    assert!(text.contains("\"launches\":4"), "{text}");
    // A process that loads the library and makes no call (a shell, or a
    // tool a launcher runs after the program, under LD_PRELOAD) leaves the
    // file alone and reports nothing.
    std::fs::write(&json, "the program's").expect("write the file");
    let lib = abi_tests::Runtime::Ours.lib_dir().join("libcudart.so.13");
    let bystander = run_program(
        &s,
        "profile_bystander",
        std::path::Path::new("/bin/true"),
        &[],
        &[
            ("CUDART_PROFILE", "1"),
            ("CUDART_PROFILE_FILE", json.to_str().unwrap()),
            ("CUDART_LEAKS", "1"),
            ("LD_PRELOAD", lib.to_str().unwrap()),
        ],
    );
    bystander.expect_exit0();
    assert_eq!(
        std::fs::read_to_string(&json).unwrap(),
        "the program's",
        "a process that made no call must not write the profile"
    );
    assert!(
        !bystander.stderr.contains("cudart"),
        "a process that made no call reports nothing: {}",
        bystander.stderr
    );
    let txt = run(&s, "profile_text", &[("CUDART_PROFILE", "1")]);
    assert!(
        txt.stderr.contains("cudart profile: process "),
        "{}",
        txt.stderr
    );
    assert!(
        txt.stderr
            .contains("host time blocked in synchronizing calls"),
        "{}",
        txt.stderr
    );
}
