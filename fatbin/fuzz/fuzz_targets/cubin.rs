//! Cubin parsing: `.nv.info` attributes, kernels, variables, resources.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fatbin::fuzz_bodies::cubin(data));
