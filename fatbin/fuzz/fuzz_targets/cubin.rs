//! Cubin parsing: `.nv.info` attributes, kernels, variables, resources.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fatbin::cubin::parse_attributes(data);
    if let Ok(c) = fatbin::cubin::Cubin::parse(data) {
        let _ = c.sm();
        let _ = c.is_arch_specific();
        let _ = c.kernels();
        let _ = c.variables();
        let _ = c.info_sections();
        let _ = c.common_resources();
    }
});
