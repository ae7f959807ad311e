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

/// The bodies of the fuzz targets `container`, `decompress`, `host` and
/// `cubin` (fatbin/fuzz/fuzz_targets/), on one input.
fn every_target(data: &[u8]) {
    let _ = fatbin::WrapperHeader::parse(data);
    if let Ok(fb) = fatbin::Fatbin::parse_first(data) {
        let _ = fb.validate();
    }
    if let Ok(fb) = fatbin::Fatbin::parse(data) {
        for e in fb.entries().flatten() {
            let _ = e.arch_name();
            let _ = e.options_str();
            let _ = fatbin::select::entry_fits(&e, 9, 0);
            let _ = e.decompress_with_limit(16 << 20);
        }
        let _ = fatbin::select_entry(&fb, 8, 6);
        let _ = fatbin::select_entry(&fb, 9, 0);
    }
    if data.len() > 8 {
        let declared = u32::from_le_bytes([data[0], data[1], data[2], 0]) as u64;
        let _ = fatbin::decompress::zstd(&data[8..], declared, 16 << 20);
        let _ = fatbin::decompress::lz4(&data[8..], declared, 16 << 20);
    }
    if let Ok(f) = fatbin::host::HostFile::parse(data) {
        let _ = f.fatbin_sections();
        let _ = f.wrappers();
    }
    if let Ok(lines) = fatbin::names::list("f.bin", "/f.bin", data, true) {
        for l in lines {
            if let fatbin::names::ListLine::Item(i) = l {
                let _ = i.contents();
            }
        }
    }
    let _ = fatbin::cubin::parse_attributes(data);
    if let Ok(c) = Cubin::parse(data) {
        let _ = c.sm();
        let _ = c.is_arch_specific();
        let _ = c.kernels();
        let _ = c.functions();
        let _ = c.variables();
        let _ = c.info_sections();
        let _ = c.common_resources();
    }
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
