//! Wrapper header, container and entry-header parsing, and entry selection.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| fatbin::fuzz_bodies::container(data));
