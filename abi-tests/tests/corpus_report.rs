//! `scripts/corpus-report.py` on a made-up corpus run: the ratio of the
//! medians, the per-round (paired) ratios and their median, and the two
//! geometric means of the summary.

use abi_tests::*;
use std::fmt::Write as _;

/// One program's runs: `walls_ms[i]` = (NVIDIA, ours) of round i + 1.
fn program(name: &str, walls_ms: &[(u64, u64)]) -> String {
    let mut runs = [String::new(), String::new()];
    for (i, &(n, o)) in walls_ms.iter().enumerate() {
        for (k, ms) in [n, o].into_iter().enumerate() {
            if i > 0 {
                runs[k].push(',');
            }
            let _ = write!(
                runs[k],
                "{{\"round\": {}, \"rc\": 0, \"pass\": true, \"wall_ns\": {}}}",
                i + 1,
                ms * 1_000_000
            );
        }
    }
    format!(
        "{{\"name\": \"{name}\", \"kind\": \"sample\", \"runs\": {{\"nvidia\": [{}], \"ours\": [{}]}}}}",
        runs[0], runs[1]
    )
}

#[test]
fn corpus_report_gives_the_paired_median() {
    let dir = scratch("corpus_report");
    // "drift": equal in four rounds, ours slow in one; the medians of the
    // walls differ (1.100), the median of the rounds' ratios does not.
    let drift = program(
        "drift",
        &[(100, 100), (100, 150), (120, 120), (110, 110), (130, 130)],
    );
    // "steady": ours 2 % slower in every round.
    let steady = program(
        "steady",
        &[(100, 102), (200, 204), (150, 153), (100, 102), (100, 102)],
    );
    let json = dir.join("corpus.json");
    std::fs::write(
        &json,
        format!("{{\"settings\": {{\"rounds\": 5}}, \"programs\": [{drift}, {steady}]}}"),
    )
    .unwrap();
    let (rc, out) = run_python_script("scripts/corpus-report.py", &[&json]);
    assert_eq!(rc, 0, "{out}");
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("| {name} |")))
            .unwrap_or_else(|| panic!("no row for {name}: {out}"))
            .to_string()
    };
    // drift: medians 110 and 120 -> 1.091; rounds 1, 1.5, 1, 1, 1 -> 1.000.
    let d = row("drift");
    assert!(d.contains("**1.091**"), "{d}");
    assert!(d.contains("1.00..1.50 (1/5 slower) | 1.000 |"), "{d}");
    let s = row("steady");
    assert!(s.contains("**1.020**"), "{s}");
    assert!(s.contains("| 1.020 |"), "{s}");
    // Geometric means: sqrt(1.0909 * 1.02) = 1.0549; sqrt(1.0 * 1.02) = 1.0100.
    assert!(
        out.contains("geometric mean of ours/NVIDIA over those 2: 1.0549"),
        "{out}"
    );
    assert!(
        out.contains("median paired ratio (the rounds' ours/NVIDIA, which cancels the host's drift between rounds): 1.0100"),
        "{out}"
    );
}

/// One run of a made-up program: round, exit status, pass.
fn run(round: u32, rc: i32, pass: bool) -> String {
    format!("{{\"round\": {round}, \"rc\": {rc}, \"pass\": {pass}, \"wall_ns\": 100000000}}")
}

#[test]
fn corpus_report_says_why_a_program_is_not_in_the_mean() {
    let dir = scratch("corpus_report_left_out");
    let prog = |name: &str, nvidia: [String; 2], ours: [String; 2]| {
        format!(
            "{{\"name\": \"{name}\", \"kind\": \"sample\", \"runs\": {{\"nvidia\": [{}], \"ours\": [{}]}}}}",
            nvidia.join(","),
            ours.join(",")
        )
    };
    // NVIDIA's runtime dies of SIGSEGV (rc 139) where ours passes; a
    // program whose difference is listed; one that fails under ours.
    let crashed = prog(
        "crashed",
        [run(1, 139, false), run(2, 139, false)],
        [run(1, 0, true), run(2, 0, true)],
    );
    let listed = prog(
        "listed",
        [run(1, 1, false), run(2, 1, false)],
        [run(1, 0, true), run(2, 0, true)],
    );
    let broken = prog(
        "broken",
        [run(1, 0, true), run(2, 0, true)],
        [run(1, 1, false), run(2, 0, true)],
    );
    let json = dir.join("corpus.json");
    std::fs::write(
        &json,
        format!(
            "{{\"settings\": {{\"rounds\": 2}}, \"programs\": [{crashed}, {listed}, {broken}]}}"
        ),
    )
    .unwrap();
    let reasons = dir.join("differences.txt");
    std::fs::write(
        &reasons,
        "# made up\nlisted: it reads a value NVIDIA's does not\n",
    )
    .unwrap();
    let (rc, out) = run_python_script(
        "scripts/corpus-report.py",
        &[
            json.as_os_str(),
            std::ffi::OsStr::new("--reasons"),
            reasons.as_os_str(),
        ],
    );
    assert_eq!(rc, 0, "{out}");
    for want in [
        "  - NVIDIA's runtime crashed where ours passed: crashed\n",
        "  - a listed difference (`c-samples/differences.txt`): listed\n",
        "  - **not explained**: broken\n",
        "| crashed | 0.100 | 0.100 | NVIDIA's runtime died of signal 11 in 2 of 2 runs",
        "| listed | 0.100 | 0.100 | it reads a value NVIDIA's does not |",
        "| broken | 0.100 | 0.100 | ours: 1/2 pass (rc 0,1) |",
    ] {
        assert!(out.contains(want), "no {want:?} in:\n{out}");
    }
}

/// One run with its teardown phase: round, wall and teardown in ms.
fn run_torn(round: u32, wall_ms: u64, teardown_ms: u64) -> String {
    format!(
        "{{\"round\": {round}, \"rc\": 0, \"pass\": true, \"wall_ns\": {}, \"phases\": {{\"teardown\": {}}}}}",
        wall_ms * 1_000_000,
        teardown_ms * 1_000_000
    )
}

#[test]
fn corpus_report_counts_runs_after_a_short_teardown() {
    let dir = scratch("corpus_report_after");
    // Order abab, 3 rounds: short (NVIDIA, ours), then next (NVIDIA, ours).
    // "short" tears down in 40 ms under both, "next" in 90: ours of short
    // always follows NVIDIA's short, NVIDIA's next always follows ours of
    // short; the runs that follow "next" follow a full teardown.
    let runs = |wall: u64, td: u64| {
        (1..=3)
            .map(|r| run_torn(r, wall, td))
            .collect::<Vec<_>>()
            .join(",")
    };
    let prog = |name: &str, td: u64| {
        format!(
            "{{\"name\": \"{name}\", \"kind\": \"sample\", \"runs\": {{\"nvidia\": [{}], \"ours\": [{}]}}}}",
            runs(100, td),
            runs(100, td)
        )
    };
    let json = dir.join("corpus.json");
    std::fs::write(
        &json,
        format!(
            "{{\"settings\": {{\"rounds\": 3, \"order\": \"abab\"}}, \"programs\": [{}, {}]}}",
            prog("short", 40),
            prog("next", 90)
        ),
    )
    .unwrap();
    let (rc, out) = run_python_script("scripts/corpus-report.py", &[&json]);
    assert_eq!(rc, 0, "{out}");
    assert!(
        out.contains(
            "more often under one runtime than the other: short 1.00 (NVIDIA 0, ours 3), \
             next 1.00 (NVIDIA 3, ours 0)"
        ),
        "{out}"
    );
    let row = out
        .lines()
        .find(|l| l.starts_with("| short |"))
        .unwrap_or_else(|| panic!("no row for short: {out}"));
    assert!(
        row.contains("runs after a short teardown: NVIDIA 0/3, ours 3/3"),
        "{row}"
    );
    // Recorded by corpus-run.sh, the field is taken as it is: no skew here.
    let recorded = std::fs::read_to_string(&json)
        .unwrap()
        .replace("\"phases\"", "\"after_teardown_ns\": 90000000, \"phases\"");
    std::fs::write(&json, recorded).unwrap();
    let (rc, out) = run_python_script("scripts/corpus-report.py", &[&json]);
    assert_eq!(rc, 0, "{out}");
    assert!(!out.contains("runs after a short teardown"), "{out}");
}

/// `scripts/wholeprog-report.sh`: the session's corpus runs go into one
/// report and each scale run into its own, from copies of the JSON kept
/// (mode 644) under the docs' traces; a file that is neither is refused.
#[test]
fn wholeprog_report_files_the_session_results() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("wholeprog_report");
    let docs = dir.join("docs");
    let _ = std::fs::remove_dir_all(&docs);
    let samples = dir.join("samples.json");
    let workloads = dir.join("workloads.json");
    let scale = dir.join("scale.json");
    let bad = dir.join("bad.json");
    let corpus = |p: &str| format!("{{\"settings\": {{\"rounds\": 2}}, \"programs\": [{p}]}}");
    std::fs::write(&samples, corpus(&program("one", &[(100, 100), (100, 100)]))).unwrap();
    std::fs::write(
        &workloads,
        corpus(&program("two", &[(100, 121), (100, 121)])),
    )
    .unwrap();
    let results = |ns: [u32; 2]| {
        format!(
            "[{{\"bench\": \"obj.pair\", \"n\": 10, \"ns_per_op\": {}}}, \
             {{\"bench\": \"obj.pair\", \"n\": 1000, \"ns_per_op\": {}}}]",
            ns[0], ns[1]
        )
    };
    std::fs::write(
        &scale,
        format!(
            "{{\"runs\": [{{\"program\": \"objects\", \"runtime\": \"nvidia\", \"round\": 1, \
             \"rc\": 0, \"results\": {}}}, {{\"program\": \"objects\", \"runtime\": \"ours\", \
             \"round\": 1, \"rc\": 0, \"results\": {}}}]}}",
            results([100, 100]),
            results([100, 100])
        ),
    )
    .unwrap();
    std::fs::write(&bad, "{\"something\": 1}").unwrap();

    let script = repo_root().join("scripts/wholeprog-report.sh");
    let run = |files: &[&std::path::Path]| {
        let out = std::process::Command::new("bash")
            .arg(&script)
            .arg("t1")
            .arg("made-up session")
            .args(files)
            .env("DOCS_DIR", &docs)
            .output()
            .expect("bash");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (rc, out) = run(&[&samples, &scale, &workloads]);
    assert_eq!(rc, Some(0), "{out}");
    // sqrt(1.00 * 1.21) = 1.1000, over both corpus runs.
    assert!(
        out.contains("geometric mean of ours/NVIDIA over those 2: 1.1000"),
        "{out}"
    );
    let md = std::fs::read_to_string(docs.join("corpus-report-t1.md")).unwrap();
    for copy in ["traces/corpus-t1.json", "traces/corpus-t1-2.json"] {
        assert!(md.contains(copy), "{copy} not named in:\n{md}");
        let mode = std::fs::metadata(docs.join(copy))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o644, "{copy}");
    }
    assert!(md.contains("of made-up session"), "{md}");
    let smd = std::fs::read_to_string(docs.join("scale-report-t1.md")).unwrap();
    assert!(smd.contains("from `scale-t1.json`"), "{smd}");
    assert!(docs.join("traces/scale-t1.json").is_file());

    let (rc, out) = run(&[&samples, &bad]);
    assert_eq!(rc, Some(2), "{out}");
    assert!(out.contains("neither a corpus.json"), "{out}");
}
