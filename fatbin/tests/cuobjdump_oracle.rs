//! nvcc builds in every mode, each checked against cuobjdump: listing,
//! extracted bytes, resource usage; plus wrapper resolution and entry
//! selection on real files. Needs the CUDA wheels (scripts/setup-toolchain.sh).

mod common;

use common::*;
use fatbin::host::HostFile;
use fatbin::{EntryKind, Error};

fn src(name: &str) -> String {
    cuda_src(name).to_str().unwrap().to_string()
}

/// Wrappers of `.nvFatBinSegment` resolve to containers of the file; returns
/// (version, number of entries) per wrapper.
fn wrappers(path: &std::path::Path) -> Vec<(u32, usize)> {
    let data = std::fs::read(path).unwrap();
    let f = HostFile::parse(&data).unwrap();
    let ws = f.wrappers().unwrap();
    assert!(!ws.is_empty(), "{path:?}: no wrappers");
    ws.iter()
        .map(|w| {
            let fb = w
                .fatbin
                .unwrap_or_else(|| panic!("{path:?}: wrapper at {:#x} unresolved", w.offset));
            fb.validate().unwrap();
            (w.header.version, fb.entries().count())
        })
        .collect()
}

/// kernels.o and lib_pic.o, compiled once and linked by several tests.
fn objects() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("objects");
        nvcc(&dir, &["-c", &src("kernels.cu"), "-o", "kernels.o"]);
        nvcc(
            &dir,
            &[
                "-c",
                "-Xcompiler",
                "-fPIC",
                &src("lib.cu"),
                "-o",
                "lib_pic.o",
            ],
        );
        dir
    })
}

fn obj(name: &str) -> String {
    objects().join(name).to_str().unwrap().to_string()
}

fn build(test: &str, out: &str, args: &[&str]) -> std::path::PathBuf {
    let dir = scratch(test);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["-o", out]);
    nvcc(&dir, &all);
    dir.join(out)
}

#[test]
fn default_executable() {
    let exe = build("default", "kernels", &[&obj("kernels.o")]);
    let listing = check_against_cuobjdump(&exe);
    assert!(
        listing.contains("PTX file    1: kernels.1.sm_75.ptx"),
        "{listing}"
    );
    // nvlink's unregistered v2 wrapper, then the registered v1 wrapper.
    let w = wrappers(&exe);
    assert_eq!(w.iter().map(|x| x.0).collect::<Vec<_>>(), [2, 1]);
}

#[test]
fn compress_all_executable() {
    let exe = build(
        "compress_all",
        "kernels_za",
        &["-Xfatbin=-compress-all", &src("kernels.cu")],
    );
    check_against_cuobjdump(&exe);
    let data = std::fs::read(&exe).unwrap();
    let f = HostFile::parse(&data).unwrap();
    let secs = f.listed_fatbins(false).unwrap();
    let compressed = secs
        .iter()
        .flat_map(|s| s.fatbin.entries())
        .map(|e| e.unwrap())
        .filter(|e| {
            e.kind == EntryKind::Cubin && e.compression().unwrap() == fatbin::Compression::Zstd
        })
        .count();
    assert!(compressed > 0, "-compress-all left every cubin plain");
}

#[test]
fn compress_mode_speed_executable() {
    let exe = build(
        "speed",
        "kernels_lz4",
        &["--compress-mode=speed", &src("kernels.cu")],
    );
    check_against_cuobjdump(&exe);
    let data = std::fs::read(&exe).unwrap();
    let f = HostFile::parse(&data).unwrap();
    let lz4 = f
        .listed_fatbins(false)
        .unwrap()
        .iter()
        .flat_map(|s| s.fatbin.entries())
        .map(|e| e.unwrap())
        .filter(|e| e.compression().unwrap() == fatbin::Compression::Lz4)
        .count();
    assert!(lz4 > 0, "--compress-mode=speed produced no LZ4 entry");
}

#[test]
fn compress_mode_none_fatbin() {
    let fb = build(
        "none",
        "kernels_plain.fatbin",
        &["-fatbin", "--compress-mode=none", &src("kernels.cu")],
    );
    check_against_cuobjdump(&fb);
    let data = std::fs::read(&fb).unwrap();
    let plain = fatbin::Fatbin::parse(&data).unwrap();
    assert!(plain.entries().all(|e| e.unwrap().compressed_size == 0));
}

#[test]
fn rdc_executable_from_two_objects() {
    let dir = scratch("rdc");
    nvcc(
        &dir,
        &["-rdc=true", "-c", &src("rdc_a.cu"), "-o", "rdc_a.o"],
    );
    nvcc(
        &dir,
        &["-rdc=true", "-c", &src("rdc_b.cu"), "-o", "rdc_b.o"],
    );
    nvcc(&dir, &["-rdc=true", "rdc_a.o", "rdc_b.o", "-o", "rdc_app"]);
    for f in ["rdc_a.o", "rdc_b.o", "rdc_app"] {
        check_against_cuobjdump(&dir.join(f));
    }
    // A static archive of the two objects.
    run_ok(
        std::process::Command::new("ar").args(["rcs", "librdc.a", "rdc_a.o", "rdc_b.o"]),
        &dir,
    );
    let listing = check_against_cuobjdump(&dir.join("librdc.a"));
    assert!(listing.contains(":rdc_b.o:"), "{listing}");
    // The registered wrapper is version 2 with a prelinked array.
    let data = std::fs::read(dir.join("rdc_app")).unwrap();
    let f = HostFile::parse(&data).unwrap();
    let ws = f.wrappers().unwrap();
    let v2: Vec<_> = ws.iter().filter(|w| w.header.version == 2).collect();
    assert!(!v2.is_empty());
    assert!(v2.iter().all(|w| w.header.prelinked_array().is_some()));
    // The objects' wrappers point into __nv_relfatbin.
    for o in ["rdc_a.o", "rdc_b.o"] {
        let w = wrappers(&dir.join(o));
        assert_eq!(w.len(), 1, "{o}");
    }
}

#[test]
fn multi_gencode_executable_and_selection() {
    let exe = build(
        "gencode",
        "kernels_multi",
        &[
            "-gencode=arch=compute_80,code=sm_80",
            "-gencode=arch=compute_90,code=sm_90",
            "-gencode=arch=compute_90a,code=sm_90a",
            "-gencode=arch=compute_90,code=compute_90",
            &src("kernels.cu"),
        ],
    );
    let listing = check_against_cuobjdump(&exe);
    assert!(listing.contains("sm_90a.cubin"), "{listing}");
    let data = std::fs::read(&exe).unwrap();
    let f = HostFile::parse(&data).unwrap();
    // The registered (version 1) wrapper's fatbin.
    let w = f.wrappers().unwrap();
    let reg = w
        .iter()
        .find(|w| w.header.version == 1)
        .unwrap()
        .fatbin
        .unwrap();
    let pick = |maj, min| fatbin::select_entry(&reg, maj, min);
    let e = pick(9, 0).unwrap();
    assert_eq!(
        (e.kind, e.arch_name().as_str()),
        (EntryKind::Cubin, "sm_90a")
    );
    let e = pick(8, 6).unwrap();
    assert_eq!(
        (e.kind, e.arch_name().as_str()),
        (EntryKind::Cubin, "sm_80")
    );
    let e = pick(10, 0).unwrap();
    assert_eq!((e.kind, e.arch_name().as_str()), (EntryKind::Ptx, "sm_90"));
    match pick(7, 5) {
        Err(Error::NoImage(n)) => {
            let msg = n.to_string();
            assert!(
                msg.contains("sm_75") && msg.contains("sm_90a cubin"),
                "{msg}"
            );
        }
        other => panic!("expected NoImage, got {other:?}"),
    }
}

#[test]
fn cudart_shared_executable() {
    let exe = build(
        "cudart_shared",
        "kernels_shared_rt",
        &["-cudart", "shared", &obj("kernels.o")],
    );
    check_against_cuobjdump(&exe);
    wrappers(&exe);
}

#[test]
fn shared_library() {
    let so = build("shared_lib", "libkern.so", &["-shared", &obj("lib_pic.o")]);
    check_against_cuobjdump(&so);
    wrappers(&so);
}

#[test]
fn object_file() {
    let dir = scratch("object");
    let o = dir.join("kernels.o");
    std::fs::copy(obj("kernels.o"), &o).unwrap();
    check_against_cuobjdump(&o);
    assert_eq!(wrappers(&o).len(), 1);
}

#[test]
fn two_translation_units() {
    // Containers of separate translation units lie back to back in
    // .nv_fatbin, each with its own wrapper.
    let exe = build("two_tu", "two_tu", &[&obj("kernels.o"), &obj("lib_pic.o")]);
    check_against_cuobjdump(&exe);
    let w = wrappers(&exe);
    assert_eq!(w.iter().filter(|x| x.0 == 1).count(), 2, "{w:?}");
}

#[test]
fn debug_fatbin_with_object_names() {
    // -G entries carry an object name: cuobjdump names them after it.
    let fb = build(
        "debug",
        "dbg.fatbin",
        &[
            "-fatbin",
            "-G",
            "-gencode=arch=compute_80,code=[sm_80,compute_80]",
            &src("tiny.cu"),
        ],
    );
    let listing = check_against_cuobjdump(&fb);
    assert!(listing.contains("tiny.sm_80.ptx"), "{listing}");
}

#[test]
fn bare_cubin_fixture() {
    let dir = scratch("cubin");
    let p = dir.join("kernels_sm90.cubin");
    std::fs::copy(fixture("kernels_sm90.cubin"), &p).unwrap();
    check_against_cuobjdump(&p);
}
