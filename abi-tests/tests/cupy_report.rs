//! `scripts/cupy-report.py` on made-up junit files: each pair of runs
//! (static `ours`/`nvidia`, shared `shared-ours`/`shared-nvidia`) is
//! compared on its own, a test whose outcome differs within a pair is
//! listed, and a pair with a run missing is reported, not compared.

use abi_tests::*;
use std::path::Path;

fn junit(dir: &Path, run: &str, cases: &[(&str, &str)]) {
    let d = dir.join(format!("junit-{run}"));
    std::fs::create_dir_all(&d).unwrap();
    let mut xml = String::from("<testsuites><testsuite>");
    for (name, outcome) in cases {
        let inner = match *outcome {
            "failed" => "<failure message=\"x\"/>",
            "error" => "<error message=\"x\"/>",
            "skipped" => "<skipped/>",
            _ => "",
        };
        xml.push_str(&format!(
            "<testcase classname=\"t.T\" name=\"{name}\">{inner}</testcase>"
        ));
    }
    xml.push_str("</testsuite></testsuites>");
    std::fs::write(d.join("f.xml"), xml).unwrap();
}

fn report(dir: &Path) -> (i32, String) {
    run_python_script("scripts/cupy-report.py", &[dir])
}

#[test]
fn pairs_are_compared_each_on_its_own() {
    let dir = scratch("cupy_report_pairs");
    junit(&dir, "ours", &[("a", "passed"), ("b", "failed")]);
    junit(&dir, "nvidia", &[("a", "passed"), ("b", "failed")]);
    junit(&dir, "shared-ours", &[("a", "passed"), ("b", "skipped")]);
    junit(&dir, "shared-nvidia", &[("a", "failed"), ("b", "skipped")]);
    let (rc, text) = report(&dir);
    assert_eq!(rc, 0, "{text}");
    assert!(
        text.contains("| shared-ours | 2 | 1 | 1 | 0 | 1 | 0 |"),
        "{text}"
    );
    assert!(
        text.contains("ours against nvidia: tests whose outcome differs: 0"),
        "{text}"
    );
    assert!(
        text.contains("shared-ours against shared-nvidia: tests whose outcome differs: 1"),
        "{text}"
    );
    assert!(text.contains("| `t.T::a` | passed | failed |"), "{text}");
}

#[test]
fn a_pair_with_a_run_missing_is_not_compared() {
    let dir = scratch("cupy_report_missing");
    junit(&dir, "shared-ours", &[("a", "passed")]);
    let (rc, text) = report(&dir);
    assert_eq!(rc, 1, "{text}");
    assert!(text.contains("| shared-nvidia | (no junit file)"), "{text}");
    assert!(text.contains("not compared"), "{text}");
    assert!(!text.contains("ours against nvidia"), "{text}");
}
