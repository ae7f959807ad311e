//! Replays every input kept in `regressions/` (crashes the registration
//! target found, minimized) through the target's harness, without the
//! fuzzer: `cargo test` here (a debug build: overflow checks on). Each
//! also has a test in the main workspace, named in docs/fuzzing.md.

#[test]
fn every_kept_input_runs_clean() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("regressions/") {
        let path = entry.expect("entry").path();
        let data = std::fs::read(&path).expect("readable");
        eprintln!("replaying {}", path.display());
        cudart_fuzz::registration(&data);
        n += 1;
    }
    assert!(n > 0, "no inputs in {}", dir.display());
}
