//! The `fatbin` command line on checked-in fixtures: golden output and
//! exit codes. No toolchain needed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn fatbin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fatbin"))
        .args(args)
        .current_dir(fixtures())
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn kernels_golden() {
    let o = fatbin(&["kernels", "kernels_sm90.cubin"]);
    assert!(o.status.success());
    let want = std::fs::read_to_string(fixtures().join("kernels_sm90.expected")).unwrap();
    assert_eq!(stdout(&o), want);
}

#[test]
fn list_golden() {
    let cases = [
        ("tiny_zstd.fatbin", "ELF file    1: tiny_zstd.1.sm_80.cubin\nPTX file    1: tiny_zstd.1.sm_80.ptx\n"),
        ("tiny_lz4.fatbin", "ELF file    1: tiny_lz4.1.sm_80.cubin\nPTX file    1: tiny_lz4.1.sm_80.ptx\n"),
        (
            "tiny_plain.fatbin",
            "ELF file    1: tiny_plain.1.sm_75.cubin\nELF file    2: tiny_plain.2.sm_90a.cubin\nPTX file    1: tiny_plain.1.sm_90a.ptx\n",
        ),
        ("kernels_sm90.cubin", "ELF file    1: kernels_sm90.sm_90.cubin\n"),
    ];
    for (f, want) in cases {
        let o = fatbin(&["list", f]);
        assert!(o.status.success(), "{f}");
        assert_eq!(stdout(&o), want, "{f}");
    }
}

#[test]
fn extract_decompresses_and_strips_ptx_nul() {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-extract");
    let _ = std::fs::remove_dir_all(&out);
    for f in ["tiny_zstd.fatbin", "tiny_lz4.fatbin"] {
        let o = fatbin(&["extract", f, "-o", out.to_str().unwrap()]);
        assert!(o.status.success(), "{f}");
    }
    let a = std::fs::read(out.join("tiny_zstd.1.sm_80.cubin")).unwrap();
    let b = std::fs::read(out.join("tiny_lz4.1.sm_80.cubin")).unwrap();
    assert!(a.starts_with(b"\x7fELF"));
    assert_eq!(a, b, "zstd and LZ4 builds of the same cubin");
    let ptx = std::fs::read(out.join("tiny_zstd.1.sm_80.ptx")).unwrap();
    assert!(!ptx.contains(&0));
    assert!(String::from_utf8(ptx)
        .unwrap()
        .contains(".entry _Z4tinyPii"));
}

#[test]
fn kernels_of_a_fatbin() {
    let o = fatbin(&["kernels", "tiny_plain.fatbin"]);
    assert!(o.status.success());
    let s = stdout(&o);
    assert!(s.contains("tiny_plain.2.sm_90a.cubin (sm_90a)"), "{s}");
    assert!(s.contains("    param 1 offset=8 size=4"), "{s}");
}

#[test]
fn exit_codes() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-exit");
    std::fs::create_dir_all(&tmp).unwrap();
    // 2: usage.
    assert_eq!(fatbin(&[]).status.code(), Some(2));
    assert_eq!(fatbin(&["frobnicate", "x"]).status.code(), Some(2));
    assert_eq!(fatbin(&["list"]).status.code(), Some(2));
    assert_eq!(fatbin(&["list", "--bogus", "x"]).status.code(), Some(2));
    // 3: I/O.
    let o = fatbin(&["list", "/nonexistent/file"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read /nonexistent/file"));
    // 1: malformed.
    let garbage = tmp.join("garbage.bin");
    std::fs::write(&garbage, b"definitely not a fatbin").unwrap();
    let o = fatbin(&["list", garbage.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a host ELF file, fatbin or cubin"));
    let full = std::fs::read(fixtures().join("tiny_zstd.fatbin")).unwrap();
    let cut = tmp.join("cut.fatbin");
    std::fs::write(&cut, &full[..full.len() / 2]).unwrap();
    let o = fatbin(&["list", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("truncated"));
    // 4: a host ELF without device code (this test binary).
    let me = std::env::current_exe().unwrap();
    let o = fatbin(&["list", me.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // 3: unwritable output directory.
    let o = fatbin(&["extract", "tiny_zstd.fatbin", "-o", "/proc/nope"]);
    assert_eq!(o.status.code(), Some(3));
}
