//! Inputs the fuzz targets (`fatbin/fuzz`) crashed on, minimized and kept
//! in `tests/regressions/` (the ledger: docs/fuzzing.md). Every file goes
//! through what all four targets call; each also has its own test of the
//! fixed behaviour, which holds in release builds too (CI), where overflow
//! checks are off.

use fatbin::cubin::Cubin;
use std::path::Path;

fn regression(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/regressions")
            .join(name),
    )
    .unwrap()
}

/// What the fuzz targets `container`, `decompress`, `host` and `cubin`
/// do, on one input.
fn every_target(data: &[u8]) {
    fatbin::fuzz_bodies::container(data);
    fatbin::fuzz_bodies::decompress(data);
    fatbin::fuzz_bodies::host(data);
    fatbin::fuzz_bodies::cubin(data);
}

#[test]
fn every_kept_input_through_every_target() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        every_target(&std::fs::read(&path).unwrap());
        n += 1;
    }
    assert!(n > 0);
}

/// `cubin` target, 2026-12-03: `kernels_sm90.cubin` with the size of its
/// `.nv.global` (a NOBITS section: no bytes in the file, so any size
/// parses) set to `u64::MAX`. `common_resources` added it to the size of
/// `.nv.global.init` (32): an overflow, a panic with overflow checks and a
/// GLOBAL of 31 without. Now the sum saturates.
#[test]
fn cubin_global_size_sum_saturates() {
    let data = regression("cubin-common-resources-overflow.cubin");
    let c = Cubin::parse(&data).unwrap();
    let common = c.common_resources();
    assert_eq!(common[0], ("GLOBAL".to_string(), u64::MAX));
}
