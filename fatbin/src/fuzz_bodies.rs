//! What each fuzz target does with one input (`fatbin/fuzz/fuzz_targets/`
//! call these), kept here so that the regression tests
//! (`tests/fuzz_regressions.rs`) replay a kept input through exactly the
//! calls that crashed on it. Results are dropped: a target looks only for
//! panics, overflows and out-of-bounds reads.

/// Decompressed entries are capped here (the parser's own limit is larger).
const LIMIT: u64 = 16 << 20;

/// `container`: wrapper header, container and entry headers, selection.
pub fn container(data: &[u8]) {
    let _ = crate::WrapperHeader::parse(data);
    if let Ok(fb) = crate::Fatbin::parse_first(data) {
        let _ = fb.validate();
    }
    if let Ok(fb) = crate::Fatbin::parse(data) {
        for e in fb.entries().flatten() {
            let _ = e.arch_name();
            let _ = e.options_str();
            let _ = crate::select::entry_fits(&e, 9, 0);
        }
        let _ = crate::select_entry(&fb, 8, 6);
        let _ = crate::select_entry(&fb, 9, 0);
    }
}

/// `decompress`: every entry of the input as a container, and the input
/// (after an 8-byte header whose first 3 bytes are the declared size) as
/// a raw zstd and LZ4 payload.
pub fn decompress(data: &[u8]) {
    if let Ok(fb) = crate::Fatbin::parse(data) {
        for e in fb.entries().flatten() {
            let _ = e.decompress_with_limit(LIMIT);
        }
    }
    if data.len() > 8 {
        let declared = u32::from_le_bytes([data[0], data[1], data[2], 0]) as u64;
        let _ = crate::decompress::zstd(&data[8..], declared, LIMIT);
        let _ = crate::decompress::lz4(&data[8..], declared, LIMIT);
    }
}

/// `host`: host files (ELF section scan, wrapper relocations, archives)
/// and the cuobjdump-style listing and extraction.
pub fn host(data: &[u8]) {
    if let Ok(f) = crate::host::HostFile::parse(data) {
        let _ = f.fatbin_sections();
        let _ = f.wrappers();
    }
    if let Ok(lines) = crate::names::list("f.bin", "/f.bin", data, true) {
        for l in lines {
            if let crate::names::ListLine::Item(i) = l {
                let _ = i.contents();
            }
        }
    }
}

/// `cubin`: `.nv.info` attributes, kernels, functions, variables,
/// resources.
pub fn cubin(data: &[u8]) {
    let _ = crate::cubin::parse_attributes(data);
    if let Ok(c) = crate::cubin::Cubin::parse(data) {
        let _ = c.sm();
        let _ = c.is_arch_specific();
        let _ = c.kernels();
        let _ = c.functions();
        let _ = c.variables();
        let _ = c.info_sections();
        let _ = c.common_resources();
    }
}
