//! Host file recognition: ELF section scan, wrapper relocation resolution,
//! archives, cuobjdump-style listing and extraction.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
});
