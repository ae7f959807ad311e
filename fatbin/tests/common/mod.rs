//! Shared helpers of the integration tests: the CUDA toolchain (nvcc and
//! cuobjdump from the pinned PyPI wheels), scratch directories, and the
//! cuobjdump oracle comparisons.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The CUDA tree: `$CUDA_HOME`, else `<workspace>/.toolchain/site/nvidia/cu13`
/// (what `scripts/setup-toolchain.sh` installs). Panics with instructions when
/// nvcc or cuobjdump is missing: these tests never skip silently.
pub fn cuda_home() -> PathBuf {
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.toolchain/site/nvidia/cu13");
    let home = std::env::var_os("CUDA_HOME")
        .map(PathBuf::from)
        .unwrap_or(default);
    for tool in ["nvcc", "cuobjdump"] {
        let p = home.join("bin").join(tool);
        assert!(
            p.exists(),
            "{} not found: run scripts/setup-toolchain.sh (or set CUDA_HOME) before these tests",
            p.display()
        );
    }
    home
}

pub fn tool(name: &str) -> PathBuf {
    cuda_home().join("bin").join(name)
}

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("fatbin-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn cuda_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cuda")
        .join(name)
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// Run a command in `dir`; panic with its output when it fails.
pub fn run_ok(cmd: &mut Command, dir: &Path) -> String {
    let out = cmd.current_dir(dir).output().expect("spawn");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// nvcc with `args`, run in `dir`.
pub fn nvcc(dir: &Path, args: &[&str]) {
    let mut c = Command::new(tool("nvcc"));
    c.args(args);
    // nvcc finds its own tree; make sure a host compiler is on PATH.
    run_ok(&mut c, dir);
}

pub fn cuobjdump(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(tool("cuobjdump"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("spawn cuobjdump")
}

pub fn fatbin_cli(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fatbin"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("spawn fatbin")
}

fn read_dir(d: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(d)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// Function name -> (REG, STACK, SHARED, LOCAL, CONSTANT[0]) and the Common
/// line, from `cuobjdump -res-usage` of one cubin.
type Usage = (BTreeMap<String, [u64; 5]>, String);

fn res_usage(dir: &Path, cubin: &Path) -> Usage {
    let out = cuobjdump(dir, &["-res-usage", cubin.to_str().unwrap()]);
    assert!(out.status.success(), "cuobjdump -res-usage {cubin:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut funcs = BTreeMap::new();
    let mut common = String::new();
    let mut lines = text.lines().peekable();
    while let Some(l) = lines.next() {
        let t = l.trim();
        if t == "Common:" {
            common = lines.next().unwrap_or("").trim().to_string();
        } else if let Some(name) = t
            .strip_prefix("Function ")
            .and_then(|n| n.strip_suffix(':'))
        {
            let vals = lines.next().unwrap_or("");
            let get = |key: &str| -> u64 {
                vals.split_whitespace()
                    .find_map(|kv| kv.strip_prefix(key))
                    .map(|v| v.parse().unwrap())
                    .unwrap_or(0)
            };
            funcs.insert(
                name.to_string(),
                [
                    get("REG:"),
                    get("STACK:"),
                    get("SHARED:"),
                    get("LOCAL:"),
                    get("CONSTANT[0]:"),
                ],
            );
        }
    }
    (funcs, common)
}

/// Compare everything the crate and the CLI say about `file` with
/// cuobjdump: listings (default and `-all`), extracted bytes, and the
/// resource usage of every extracted cubin. Returns the default listing.
pub fn check_against_cuobjdump(file: &Path) -> String {
    let dir = file.parent().unwrap();
    let name = file.file_name().unwrap().to_str().unwrap();
    let mut listing = String::new();
    for all in [false, true] {
        let mut args = vec![];
        if all {
            args.push("-all");
        }
        args.extend(["--list-elf", "--list-ptx", name]);
        let want = cuobjdump(dir, &args);
        assert!(want.status.success(), "cuobjdump {args:?}");
        let mut ours = vec!["list"];
        if all {
            ours.push("--all");
        }
        ours.push(name);
        let got = fatbin_cli(dir, &ours);
        assert!(
            got.status.success(),
            "fatbin {ours:?}: {}",
            String::from_utf8_lossy(&got.stderr)
        );
        let (want, got) = (
            String::from_utf8(want.stdout).unwrap(),
            String::from_utf8(got.stdout).unwrap(),
        );
        assert_eq!(got, want, "listing of {name} (all={all})");
        assert!(!got.is_empty());
        if !all {
            listing = got;
        }
    }
    // Extraction.
    let theirs = dir.join(format!("{name}.cuobjdump"));
    let ours = dir.join(format!("{name}.fatbin-out"));
    for d in [&theirs, &ours] {
        let _ = std::fs::remove_dir_all(d);
        std::fs::create_dir_all(d).unwrap();
    }
    let path = file.to_str().unwrap();
    cuobjdump(&theirs, &["-xelf", "all", path]);
    cuobjdump(&theirs, &["-xptx", "all", path]);
    let got = fatbin_cli(dir, &["extract", name, "-o", ours.to_str().unwrap()]);
    assert!(got.status.success(), "fatbin extract {name}");
    let (a, b) = (read_dir(&theirs), read_dir(&ours));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "extracted file names of {name}"
    );
    for (k, v) in &a {
        assert!(b[k] == *v, "{name}: extracted {k} differs from cuobjdump's");
    }
    assert!(!a.is_empty());
    // Resource usage of every cubin.
    for (k, bytes) in &a {
        if !k.ends_with(".cubin") {
            continue;
        }
        let (funcs, common) = res_usage(&theirs, &theirs.join(k));
        let c = fatbin::cubin::Cubin::parse(bytes).unwrap();
        let kernels = c.functions().unwrap();
        let mut ours = BTreeMap::new();
        for kern in &kernels {
            ours.insert(
                kern.name.to_string(),
                [
                    kern.registers.unwrap_or(0) as u64,
                    kern.stack,
                    kern.shared,
                    kern.local,
                    kern.constant0,
                ],
            );
        }
        assert_eq!(ours, funcs, "{name}: resource usage of {k}");
        let ours_common: Vec<String> = c
            .common_resources()
            .into_iter()
            .map(|(k, v)| format!("{k}:{v}"))
            .collect();
        assert_eq!(
            ours_common.join(" "),
            common,
            "{name}: common resources of {k}"
        );
    }
    listing
}
