//! The registration path: fuzzed wrappers, images and names through
//! `__cudaRegisterFatBinary` and friends, then the calls that load the
//! fatbin lazily and ask for its kernels (see `src/lib.rs`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cudart_fuzz::registration(data));
