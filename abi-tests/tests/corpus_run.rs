//! `scripts/corpus-run.sh`'s extra programs (issue 30: the CuPy and JAX
//! workloads join the corpus that way), on the CPU with stand-ins: a
//! Python program that loads `libcudart.so.13` and prints a workload
//! document. Checked: an `EXPECT_LIB=DIR` word sets no variable but names
//! the library each run must map (the phases shim reports what was mapped)
//! and does not reach the program; a document with a failed part fails the
//! run even with exit status 0.

use abi_tests::*;
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

#[test]
fn extra_programs_check_the_mapped_library_and_the_parts() {
    let dir = scratch("corpus_run_extra");
    let bundle = dir.join("bundle");
    std::fs::create_dir_all(bundle.join("corpus")).unwrap();
    run_ok(
        Command::new("cc")
            .args(["-O2", "-fPIC", "-shared", "-o"])
            .arg(bundle.join("corpus/phases.so"))
            .arg(repo_root().join("bench/corpus/phases.c"))
            .arg("-ldl"),
    );
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
    let out_dir = dir.join("out");
    run_ok(
        Command::new("bash")
            .arg(repo_root().join("scripts/corpus-run.sh"))
            .arg(&bundle)
            .arg(ours.to_string())
            .arg(nv.to_string())
            .arg(&out_dir)
            .arg("1")
            .env("CORPUS_PARTS", "extra")
            .env("CORPUS_EXTRA", &extra)
            .env("CORPUS_WARMUP", "0"),
    );
    // One line per run: "name runtime pass libcudart_ok failed_parts".
    let summary = run_ok(
        Command::new("python3")
            .arg("-c")
            .arg(SUMMARY)
            .arg(out_dir.join("corpus.json")),
    );
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
