//! Wrapper header, container and entry-header parsing, and entry selection.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = fatbin::WrapperHeader::parse(data);
    if let Ok(fb) = fatbin::Fatbin::parse_first(data) {
        let _ = fb.validate();
    }
    if let Ok(fb) = fatbin::Fatbin::parse(data) {
        for e in fb.entries().flatten() {
            let _ = e.arch_name();
            let _ = e.options_str();
            let _ = fatbin::select::entry_fits(&e, 9, 0);
        }
        let _ = fatbin::select_entry(&fb, 8, 6);
        let _ = fatbin::select_entry(&fb, 9, 0);
    }
});
