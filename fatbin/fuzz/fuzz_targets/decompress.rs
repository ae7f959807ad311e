//! Entry decompression (zstd and LZ4) with a small output limit; also the
//! raw decoders on the input as a payload.
#![no_main]
use libfuzzer_sys::fuzz_target;

const LIMIT: u64 = 16 << 20;

fuzz_target!(|data: &[u8]| {
    if let Ok(fb) = fatbin::Fatbin::parse(data) {
        for e in fb.entries().flatten() {
            let _ = e.decompress_with_limit(LIMIT);
        }
    }
    if data.len() > 8 {
        let declared = u32::from_le_bytes([data[0], data[1], data[2], 0]) as u64;
        let _ = fatbin::decompress::zstd(&data[8..], declared, LIMIT);
        let _ = fatbin::decompress::lz4(&data[8..], declared, LIMIT);
    }
});
