//! Entry decompression (zstd and LZ4) with a small output limit; also the
//! raw decoders on the input as a payload.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fatbin::fuzz_bodies::decompress(data));
