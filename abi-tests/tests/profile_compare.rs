//! `pytorch/profile_compare.py compare` on made-up profiles: it passes when
//! our profile has torch.profiler's kernels with the warm-up launches more
//! and GPU times within 25 %, and fails on a time beyond that, on launch
//! counts that differ by more than the warm-up, and on no kernel in both.
//! It prints the ratio without our longest launch of each kernel too, and
//! whether that launch was the kernel's first.

use abi_tests::*;
use std::path::Path;

const NAME: &str = "void add_kernel<float>(float*, int)";

/// torch.profiler's file: `count` launches of one kernel, `total_ms` in all.
fn torch_json(dir: &Path, count: u32, total_ms: f64) -> std::path::PathBuf {
    let p = dir.join("torch.json");
    let text = format!(
        "{{\"rounds\": {count}, \"warmup\": 3, \"kernels\": {{\"{NAME}\": \
         {{\"count\": {count}, \"total_ms\": {total_ms}, \"max_ms\": 1.0}}}}}}"
    );
    std::fs::write(&p, text).unwrap();
    p
}

/// Our profile's file: one kernel named `name`, its first launch taking
/// `first_ms`.
fn ours_json(
    dir: &Path,
    name: &str,
    launches: u32,
    total_ms: f64,
    (max_ms, first_ms): (f64, f64),
) -> std::path::PathBuf {
    let p = dir.join("ours.json");
    let text = format!(
        "{{\"kernels\": [{{\"name\": \"{name}\", \"launches\": {launches}, \"timed\": {launches}, \
         \"total_ms\": {total_ms}, \"max_ms\": {max_ms}, \"first_ms\": {first_ms}}}]}}"
    );
    std::fs::write(&p, text).unwrap();
    p
}

fn compare(torch: &Path, ours: &Path) -> (i32, String) {
    let compare = Path::new("compare");
    run_python_script("pytorch/profile_compare.py", &[compare, torch, ours])
}

#[test]
fn profile_comparison_judges_counts_and_times() {
    let dir = scratch("profile_compare");
    let torch = torch_json(&dir, 50, 10.0);

    // 50 launches of 0.2 ms and 3 warm-up ones: the same time per launch.
    let ours = ours_json(&dir, NAME, 53, 10.6, (0.2, 0.2));
    let (rc, out) = compare(&torch, &ours);
    assert_eq!(rc, 0, "{out}");
    assert!(out.contains("= 1.000"), "{out}");

    // One launch of 5 ms (a first launch that held its loading) and 52 of
    // 0.2 ms: 1.453x over 50 launches at our mean, 1.000 without the
    // longest.
    let ours = ours_json(&dir, NAME, 53, 15.4, (5.0, 5.0));
    let (rc, out) = compare(&torch, &ours);
    assert_eq!(rc, 1, "{out}");
    assert!(out.contains("MISMATCH GPU time ratio 1.453"), "{out}");
    assert!(
        out.contains("without each kernel's longest launch of ours: 1.000"),
        "{out}"
    );
    assert!(out.contains("5.000 ms (the first)"), "{out}");

    // The same long launch later in the run.
    let ours = ours_json(&dir, NAME, 53, 15.4, (5.0, 0.2));
    let (_, out) = compare(&torch, &ours);
    assert!(out.contains("5.000 ms (not the first)"), "{out}");

    // More launches than the warm-up explains.
    let ours = ours_json(&dir, NAME, 60, 12.0, (0.2, 0.2));
    let (rc, out) = compare(&torch, &ours);
    assert_eq!(rc, 1, "{out}");
    assert!(out.contains("torch 50 launches, ours 60"), "{out}");

    // No kernel in both (our names left mangled).
    let ours = ours_json(&dir, "_Z10add_kernelIfEvPfi", 53, 10.6, (0.2, 0.2));
    let (rc, out) = compare(&torch, &ours);
    assert_eq!(rc, 1, "{out}");
    assert!(out.contains("MISMATCH no kernel seen by both"), "{out}");
}
