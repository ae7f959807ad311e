//! Host file recognition: ELF section scan, wrapper relocation resolution,
//! archives, cuobjdump-style listing and extraction.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fatbin::fuzz_bodies::host(data));
