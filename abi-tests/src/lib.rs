//! Shared helpers for the ABI and C-program tests: where the CUDA toolchain
//! from the PyPI wheels lives, where our built library lives, and how to
//! compile and run a C/CUDA program against either runtime.
//!
//! The toolchain is installed by `scripts/setup-toolchain.sh` into
//! `.toolchain/`; our library is built by `scripts/build.sh` (release
//! profile) before `cargo test` runs. Missing either is a test failure with
//! a message saying which script to run, never a silent skip.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("abi-tests lives inside the repository")
        .to_path_buf()
}

/// The CUDA-like tree of the toolchain wheels (`CUDA_HOME` wins when set).
pub fn cuda_home() -> PathBuf {
    let dir = std::env::var_os("CUDA_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join(".toolchain/site/nvidia/cu13"));
    assert!(
        dir.join("bin/nvcc").exists(),
        "no CUDA toolchain at {}: run scripts/setup-toolchain.sh",
        dir.display()
    );
    dir
}

/// `nvcc` of the toolchain.
pub fn nvcc() -> PathBuf {
    cuda_home().join("bin/nvcc")
}

/// `cuobjdump` of the toolchain.
pub fn cuobjdump() -> PathBuf {
    cuda_home().join("bin/cuobjdump")
}

/// Folder holding NVIDIA's `libcudart.so.13` (from the wheel).
pub fn nvidia_lib_dir() -> PathBuf {
    cuda_home().join("lib")
}

/// Cargo's target folder: `CARGO_TARGET_DIR` when set (a relative one is
/// taken from the repository root, where the scripts run cargo), else
/// `target/` in the repository.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => repo_root().join(dir),
        None => repo_root().join("target"),
    }
}

/// NVIDIA's CUDA 13.0 export list: the functions the default toolchain
/// wheel's `libcudart.so.13` defines in its dynamic symbol table, sorted
/// (the newest list is [`newest_reference_exports`]).
pub fn reference_exports() -> Vec<String> {
    defined_functions(&nvidia_lib_dir().join("libcudart.so.13"))
        .into_iter()
        .collect()
}

/// The functions a shared object defines in its dynamic symbol table
/// (`readelf --dyn-syms`), without their version tags.
pub fn defined_functions(lib: &Path) -> std::collections::BTreeSet<String> {
    let out = run_ok(Command::new("readelf").args(["--dyn-syms", "-W"]).arg(lib));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            // Num: Value Size Type Bind Vis Ndx Name
            let cols: Vec<&str> = line.split_whitespace().collect();
            let defined = cols.len() >= 8 && cols[0].ends_with(':') && cols[6] != "UND";
            (defined && cols[3] == "FUNC")
                .then(|| cols[7].split('@').next().unwrap_or("").to_string())
        })
        .collect()
}

/// The CUDA 13.5 tree of the toolchain wheels (`CUDA135_HOME` wins when
/// set): `scripts/setup-toolchain.sh` installs it beside the default 13.0
/// one. Its `libcudart.so.13` is the newest export list this library
/// follows; its headers prove the 13.5 types.
pub fn cuda135_home() -> PathBuf {
    let dir = std::env::var_os("CUDA135_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join(".toolchain/cu135/site/nvidia/cu13"));
    assert!(
        dir.join("bin/nvcc").exists() && dir.join("lib/libcudart.so.13").exists(),
        "no CUDA 13.5 toolchain at {}: run scripts/setup-toolchain.sh",
        dir.display()
    );
    dir
}

/// `nvcc` of the 13.5 toolchain.
pub fn nvcc135() -> PathBuf {
    cuda135_home().join("bin/nvcc")
}

/// Folder holding NVIDIA's 13.5 `libcudart.so.13` (from the 13.5 wheel).
pub fn nvidia135_lib_dir() -> PathBuf {
    cuda135_home().join("lib")
}

/// The newest export list: the functions the 13.5 wheel's
/// `libcudart.so.13` defines, sorted. [`reference_exports`] stays the
/// 13.0 list (the harness, generated from the 13.0 headers, calls those).
pub fn newest_reference_exports() -> Vec<String> {
    defined_functions(&nvidia135_lib_dir().join("libcudart.so.13"))
        .into_iter()
        .collect()
}

/// An export list, one name a line, from `path`.
pub fn reference_exports_from(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// Folder holding our `libcudart.so.13` (`CUDART_LIB_DIR` wins when set).
pub fn our_lib_dir() -> PathBuf {
    let dir = std::env::var_os("CUDART_LIB_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| target_dir().join("release"));
    assert!(
        dir.join("libcudart.so.13").exists(),
        "no libcudart.so.13 in {}: run scripts/build.sh",
        dir.display()
    );
    dir
}

/// A scratch folder for one test's build products, emptied first.
pub fn scratch(name: &str) -> PathBuf {
    let dir = target_dir().join("abi-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch folder");
    dir
}

/// Runs a command, panicking with its output when it cannot start or fails.
pub fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Which runtime a program runs against.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// NVIDIA's 13.0 runtime (the default toolchain's wheel).
    Nvidia,
    /// NVIDIA's 13.5 runtime (the 13.5 toolchain's wheel).
    Nvidia135,
    Ours,
}

impl Runtime {
    pub fn lib_dir(self) -> PathBuf {
        match self {
            Runtime::Nvidia => nvidia_lib_dir(),
            Runtime::Nvidia135 => nvidia135_lib_dir(),
            Runtime::Ours => our_lib_dir(),
        }
    }
}

/// A command for `exe` with `LD_LIBRARY_PATH` set so that it loads the given
/// runtime's `libcudart.so.13` (plus any extra folders first, e.g. the
/// test-double driver).
pub fn command_with(exe: &Path, rt: Runtime, extra_dirs: &[&Path]) -> Command {
    let mut dirs: Vec<PathBuf> = extra_dirs.iter().map(|d| d.to_path_buf()).collect();
    dirs.push(rt.lib_dir());
    let joined = std::env::join_paths(dirs).expect("library path");
    let mut cmd = Command::new(exe);
    cmd.env("LD_LIBRARY_PATH", joined);
    cmd
}

// ---------------------------------------------------------------------------
// C/CUDA test programs and the test-double driver (abi-tests/c,
// abi-tests/driver-double). Used by tests/nodriver.rs and tests/double.rs.

/// The folder of the C/CUDA test programs (`abi-tests/c`).
pub fn c_dir() -> PathBuf {
    repo_root().join("abi-tests/c")
}

/// The folder of the test-double driver's sources (`abi-tests/driver-double`).
pub fn driver_double_src_dir() -> PathBuf {
    repo_root().join("abi-tests/driver-double")
}

/// The test double's C sources (`abi-tests/driver-double/libcuda/*.c`, the
/// rooms that share `double.h`), sorted: they are built together.
pub fn driver_double_sources() -> Vec<PathBuf> {
    let dir = driver_double_src_dir().join("libcuda");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("read the test double's folder").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no C sources in {}", dir.display());
    v
}

/// The C compiler for the test double: `$CC`, else `cc`.
pub fn c_compiler() -> std::ffi::OsString {
    std::env::var_os("CC").unwrap_or_else(|| "cc".into())
}

/// Builds the TEST DOUBLE `libcuda.so.1` (abi-tests/driver-double/libcuda/,
/// host memory for "device" memory, kernels recorded and never run) into
/// `dir`, plus a `libcuda.so` link so programs can link it with `-lcuda`.
/// Returns `dir`, the folder to put first on `LD_LIBRARY_PATH`.
pub fn build_driver_double(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("create driver-double folder");
    let lib = dir.join("libcuda.so.1");
    run_ok(
        Command::new(c_compiler())
            .args([
                "-std=gnu11",
                "-O1",
                "-g",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-fPIC",
                "-shared",
            ])
            .args(["-fvisibility=hidden", "-Wl,-soname,libcuda.so.1", "-o"])
            .arg(&lib)
            .args(driver_double_sources())
            .arg("-lpthread"),
    );
    let link = dir.join("libcuda.so");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("libcuda.so.1", &link).expect("libcuda.so link");
    dir.to_path_buf()
}

/// Builds one of the double's C tools (`abi-tests/driver-double/<name>.c`:
/// `selftest`, `conformance`) into `dir`; returns the executable. They
/// dlopen `libcuda.so.1` themselves, so they run against whichever driver
/// the loader finds (the double, or a real driver).
pub fn build_driver_double_tool(name: &str, dir: &Path) -> PathBuf {
    let exe = dir.join(format!("double-{name}"));
    run_ok(
        Command::new(c_compiler())
            .args([
                "-std=gnu11",
                "-O1",
                "-g",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-o",
            ])
            .arg(&exe)
            .arg(driver_double_src_dir().join(format!("{name}.c")))
            .args(["-ldl", "-lpthread"]),
    );
    exe
}

/// Compiles `abi-tests/c/<src>` with the toolchain's nvcc (`-cudart shared`,
/// sm_90, `abi-tests/c` on the include path) into `out`; `extra` goes last
/// (e.g. `--default-stream per-thread`, `-L<dir> -lcuda`, `-fatbin`).
pub fn nvcc_program(src: &str, out: &Path, extra: &[&str]) -> PathBuf {
    let mut cmd = Command::new(nvcc());
    cmd.args(["-cudart", "shared", "-arch=sm_90", "-I"])
        .arg(c_dir())
        .arg("-o")
        .arg(out)
        .arg(c_dir().join(src))
        .args(extra);
    run_ok(&mut cmd);
    out.to_path_buf()
}

/// Runs tasks on up to `jobs` threads at once (compiles: the machines are
/// small) and returns their results in order. A panicking task panics here.
pub fn parallel<T: Send>(jobs: usize, tasks: Vec<Box<dyn FnOnce() -> T + Send + '_>>) -> Vec<T> {
    let jobs = jobs.max(1);
    let mut results: Vec<Option<T>> = (0..tasks.len()).map(|_| None).collect();
    let mut queue: Vec<(usize, Box<dyn FnOnce() -> T + Send + '_>)> =
        tasks.into_iter().enumerate().collect();
    queue.reverse();
    while !queue.is_empty() {
        let batch: Vec<_> = (0..jobs).filter_map(|_| queue.pop()).collect();
        std::thread::scope(|s| {
            let handles: Vec<_> = batch.into_iter().map(|(i, t)| (i, s.spawn(t))).collect();
            for (i, h) in handles {
                match h.join() {
                    Ok(v) => results[i] = Some(v),
                    Err(e) => std::panic::resume_unwind(e),
                }
            }
        });
    }
    results.into_iter().map(|r| r.expect("task ran")).collect()
}

/// Panics when the dynamic loader could find a `libcuda.so.1` outside
/// `LD_LIBRARY_PATH` (the no-driver tests need a machine without a driver).
pub fn assert_no_driver_installed() {
    for ldconfig in ["/sbin/ldconfig", "/usr/sbin/ldconfig"] {
        if let Ok(out) = Command::new(ldconfig).arg("-p").output() {
            let text = String::from_utf8_lossy(&out.stdout);
            if let Some(line) = text.lines().find(|l| l.contains("libcuda.so.1")) {
                panic!(
                    "a CUDA driver is installed ({}): the no-driver tests need a machine without libcuda.so.1",
                    line.trim()
                );
            }
            break;
        }
    }
    for dir in [
        "/lib",
        "/lib64",
        "/usr/lib",
        "/usr/lib64",
        "/lib/x86_64-linux-gnu",
        "/usr/lib/x86_64-linux-gnu",
    ] {
        let p = Path::new(dir).join("libcuda.so.1");
        assert!(
            !p.exists(),
            "a CUDA driver is installed ({}): the no-driver tests need a machine without libcuda.so.1",
            p.display()
        );
    }
}

/// Like [`command_with`], with the environment cleaned for these tests: no
/// `LD_PRELOAD`, none of the test double's `CUDA_DOUBLE_*` settings.
pub fn clean_command(exe: &Path, rt: Runtime, extra_dirs: &[&Path]) -> Command {
    let mut cmd = command_with(exe, rt, extra_dirs);
    strip_env(&mut cmd, &["CUDA_DOUBLE_"]);
    cmd
}

/// Takes out of `cmd`'s environment `LD_PRELOAD` and every inherited
/// variable whose name starts with one of `prefixes`.
pub fn strip_env<'a>(cmd: &'a mut Command, prefixes: &[&str]) -> &'a mut Command {
    cmd.env_remove("LD_PRELOAD");
    for (key, _) in std::env::vars_os() {
        let k = key.to_string_lossy();
        if prefixes.iter().any(|p| k.starts_with(p)) {
            cmd.env_remove(&key);
        }
    }
    cmd
}

/// Runs a command and returns its output, whatever its exit status.
pub fn run_capture(cmd: &mut Command) -> Output {
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

/// Runs the repository's Python script `script` (a path from the
/// repository's root) with `args`: its exit code (-1 for a signal) and
/// its stdout.
pub fn run_python_script<S: AsRef<std::ffi::OsStr>>(script: &str, args: &[S]) -> (i32, String) {
    let out = run_capture(
        Command::new("python3")
            .arg(repo_root().join(script))
            .args(args),
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// "exit N" or "signal N": how a program ended, for comparisons.
pub fn describe_status(status: &std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit {c}"),
        (None, Some(s)) => format!("signal {s}"),
        _ => format!("{status}"),
    }
}

// ---------------------------------------------------------------------------
// Lifecycle tests (tests/lifecycle.rs): the c-samples built for the test
// double, and a small JSON reader for the runtime's trace-event output.

/// The folder of the self-checking samples (`c-samples`).
pub fn c_samples_dir() -> PathBuf {
    repo_root().join("c-samples")
}

/// Compiles `c-samples/<name>.cu` like `nvcc_program` does for
/// `abi-tests/c` (`-cudart shared`, sm_90, `c-samples` on the include path)
/// into `out`; `extra` goes last (e.g. `-L<double> -lcuda`).
pub fn nvcc_sample(name: &str, out: &Path, extra: &[&str]) -> PathBuf {
    nvcc_sample_with(&nvcc(), name, out, extra)
}

/// [`nvcc_sample`] with another nvcc (e.g. [`nvcc135`]).
pub fn nvcc_sample_with(nvcc: &Path, name: &str, out: &Path, extra: &[&str]) -> PathBuf {
    let mut cmd = Command::new(nvcc);
    cmd.args(["-cudart", "shared", "-arch=sm_90", "-std=c++17", "-I"])
        .arg(c_samples_dir())
        .arg("-o")
        .arg(out)
        .arg(c_samples_dir().join(format!("{name}.cu")))
        .args(extra);
    run_ok(&mut cmd);
    out.to_path_buf()
}

/// A minimal JSON reader (RFC 8259 values; numbers as `f64`), enough to
/// check the trace-event files the runtime writes without a dependency.
pub mod json {
    /// A JSON value. Objects keep their members in order.
    #[derive(Debug, Clone, PartialEq)]
    pub enum Json {
        Null,
        Bool(bool),
        Num(f64),
        Str(String),
        Arr(Vec<Json>),
        Obj(Vec<(String, Json)>),
    }

    impl Json {
        /// A member of an object.
        pub fn get(&self, key: &str) -> Option<&Json> {
            match self {
                Json::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
                _ => None,
            }
        }

        pub fn as_str(&self) -> Option<&str> {
            match self {
                Json::Str(s) => Some(s),
                _ => None,
            }
        }

        pub fn as_f64(&self) -> Option<f64> {
            match self {
                Json::Num(n) => Some(*n),
                _ => None,
            }
        }

        pub fn as_array(&self) -> Option<&[Json]> {
            match self {
                Json::Arr(a) => Some(a),
                _ => None,
            }
        }

        /// `self[key]` as a string ("" when absent or not a string).
        pub fn str_of(&self, key: &str) -> &str {
            self.get(key).and_then(Json::as_str).unwrap_or("")
        }
    }

    /// Parses one JSON document (surrounding whitespace allowed).
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(p.err("trailing characters"));
        }
        Ok(v)
    }

    struct Parser<'a> {
        s: &'a [u8],
        i: usize,
    }

    impl Parser<'_> {
        fn err(&self, what: &str) -> String {
            let line = self.s[..self.i.min(self.s.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            format!("{what} at byte {} (line {line})", self.i)
        }

        fn ws(&mut self) {
            while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            }
        }

        fn eat(&mut self, lit: &str) -> bool {
            if self.s[self.i..].starts_with(lit.as_bytes()) {
                self.i += lit.len();
                true
            } else {
                false
            }
        }

        fn value(&mut self) -> Result<Json, String> {
            self.ws();
            match self.s.get(self.i) {
                None => Err(self.err("unexpected end")),
                Some(b'{') => self.object(),
                Some(b'[') => self.array(),
                Some(b'"') => self.string().map(Json::Str),
                Some(b't') if self.eat("true") => Ok(Json::Bool(true)),
                Some(b'f') if self.eat("false") => Ok(Json::Bool(false)),
                Some(b'n') if self.eat("null") => Ok(Json::Null),
                Some(b'-' | b'0'..=b'9') => self.number(),
                Some(_) => Err(self.err("unexpected character")),
            }
        }

        fn object(&mut self) -> Result<Json, String> {
            self.i += 1;
            let mut members = Vec::new();
            self.ws();
            if self.eat("}") {
                return Ok(Json::Obj(members));
            }
            loop {
                self.ws();
                if self.s.get(self.i) != Some(&b'"') {
                    return Err(self.err("expected a member name"));
                }
                let k = self.string()?;
                self.ws();
                if !self.eat(":") {
                    return Err(self.err("expected ':'"));
                }
                let v = self.value()?;
                members.push((k, v));
                self.ws();
                if self.eat(",") {
                    continue;
                }
                if self.eat("}") {
                    return Ok(Json::Obj(members));
                }
                return Err(self.err("expected ',' or '}'"));
            }
        }

        fn array(&mut self) -> Result<Json, String> {
            self.i += 1;
            let mut items = Vec::new();
            self.ws();
            if self.eat("]") {
                return Ok(Json::Arr(items));
            }
            loop {
                items.push(self.value()?);
                self.ws();
                if self.eat(",") {
                    continue;
                }
                if self.eat("]") {
                    return Ok(Json::Arr(items));
                }
                return Err(self.err("expected ',' or ']'"));
            }
        }

        fn string(&mut self) -> Result<String, String> {
            self.i += 1;
            let mut out = String::new();
            loop {
                let Some(&b) = self.s.get(self.i) else {
                    return Err(self.err("unterminated string"));
                };
                self.i += 1;
                match b {
                    b'"' => return Ok(out),
                    b'\\' => {
                        let Some(&e) = self.s.get(self.i) else {
                            return Err(self.err("unterminated escape"));
                        };
                        self.i += 1;
                        match e {
                            b'"' => out.push('"'),
                            b'\\' => out.push('\\'),
                            b'/' => out.push('/'),
                            b'b' => out.push('\u{8}'),
                            b'f' => out.push('\u{c}'),
                            b'n' => out.push('\n'),
                            b'r' => out.push('\r'),
                            b't' => out.push('\t'),
                            b'u' => {
                                let hex = self
                                    .s
                                    .get(self.i..self.i + 4)
                                    .and_then(|h| std::str::from_utf8(h).ok())
                                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                                    .ok_or_else(|| self.err("bad \\u escape"))?;
                                self.i += 4;
                                out.push(char::from_u32(hex).unwrap_or('\u{fffd}'));
                            }
                            _ => return Err(self.err("bad escape")),
                        }
                    }
                    0..=0x1f => return Err(self.err("control character in a string")),
                    _ => {
                        // Copy the whole UTF-8 sequence this byte starts.
                        let start = self.i - 1;
                        while self.i < self.s.len() && (self.s[self.i] & 0xc0) == 0x80 {
                            self.i += 1;
                        }
                        out.push_str(
                            std::str::from_utf8(&self.s[start..self.i])
                                .map_err(|_| self.err("invalid UTF-8"))?,
                        );
                    }
                }
            }
        }

        fn number(&mut self) -> Result<Json, String> {
            let start = self.i;
            while self.i < self.s.len()
                && matches!(
                    self.s[self.i],
                    b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                )
            {
                self.i += 1;
            }
            std::str::from_utf8(&self.s[start..self.i])
                .ok()
                .and_then(|t| t.parse::<f64>().ok())
                .map(Json::Num)
                .ok_or_else(|| self.err("bad number"))
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn parses_values_and_rejects_garbage() {
            let v = parse(r#" [ {"a": 1.5, "b": "x\"y\u00e9", "c": [true, false, null]}, -2e3 ] "#)
                .unwrap();
            let a = v.as_array().unwrap();
            assert_eq!(a[0].get("a").and_then(Json::as_f64), Some(1.5));
            assert_eq!(a[0].str_of("b"), "x\"yé");
            assert_eq!(a[1], Json::Num(-2000.0));
            for bad in [
                "[1,]",
                "{\"a\" 1}",
                "[1",
                "\"x",
                "[1] 2",
                "{,}",
                "[\"a\nb\"]",
            ] {
                assert!(parse(bad).is_err(), "{bad:?} accepted");
            }
        }
    }
}

/// A program's run on our runtime over the test-double driver: its output,
/// exit status and the double's call log, with the assertions the double
/// tests share. `keep` names the driver functions a test asserts on; the
/// program's own `# ...` marks are always kept.
pub struct DoubleRun {
    pub what: String,
    pub stdout: String,
    pub stderr: String,
    pub status: String,
    /// Every line of the double's call log.
    pub log: Vec<String>,
    keep: &'static [&'static str],
}

/// The function of a double log line, without a `_ptsz`/`_ptds` suffix.
pub fn log_function(line: &str) -> &str {
    let first = line.split(' ').next().unwrap_or("");
    first
        .strip_suffix("_ptsz")
        .or_else(|| first.strip_suffix("_ptds"))
        .unwrap_or(first)
}

impl DoubleRun {
    /// Runs `exe args` against our runtime with the double (in
    /// `double_dir`) first on the library path, `CUDA_DOUBLE_LOG` set to
    /// `log` (a fresh file), the trace variables cleared and `env` on top.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        name: &str,
        exe: &Path,
        args: &[&str],
        env: &[(&str, &str)],
        double_dir: &Path,
        log: &Path,
        keep: &'static [&'static str],
    ) -> DoubleRun {
        let _ = std::fs::remove_file(log);
        let mut cmd = clean_command(exe, Runtime::Ours, &[double_dir]);
        for var in ["CUDART_TRACE", "CUDART_TRACE_FILE", "CUDART_TRACE_JSON"] {
            cmd.env_remove(var);
        }
        cmd.args(args).env("CUDA_DOUBLE_LOG", log);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = run_capture(&mut cmd);
        DoubleRun {
            what: format!("{name} ({} {})", exe.display(), args.join(" ")),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            status: describe_status(&out.status),
            log: std::fs::read_to_string(log)
                .unwrap_or_default()
                .lines()
                .map(str::to_owned)
                .collect(),
            keep,
        }
    }

    /// Fails the test with everything needed to see why.
    pub fn fail(&self, msg: &str) -> ! {
        panic!(
            "{}: {msg}\nstatus: {}\n--- log lines asserted on ---\n{}\n--- stdout ---\n{}--- stderr ---\n{}--- full log ---\n{}",
            self.what,
            self.status,
            self.lines().join("\n"),
            self.stdout,
            self.stderr,
            self.log.join("\n")
        )
    }

    pub fn check(&self, cond: bool, msg: &str) {
        if !cond {
            self.fail(msg);
        }
    }

    pub fn expect_exit0(&self) {
        self.check(self.status == "exit 0", "program did not exit 0");
    }

    /// The lines the test asserts on: the kept functions and the marks.
    pub fn lines(&self) -> Vec<String> {
        self.log
            .iter()
            .filter(|l| {
                (l.starts_with("# ") && *l != "# double loaded")
                    || self.keep.contains(&log_function(l))
            })
            .cloned()
            .collect()
    }

    /// Lines of `lines()` whose function is `f`.
    pub fn calls(&self, f: &str) -> Vec<String> {
        self.lines()
            .into_iter()
            .filter(|l| log_function(l) == f)
            .collect()
    }

    /// Index in `lines()` of the mark `# text`.
    pub fn mark(&self, text: &str) -> usize {
        let want = format!("# {text}");
        self.lines()
            .iter()
            .position(|l| *l == want)
            .unwrap_or_else(|| self.fail(&format!("mark {want:?} missing from the log")))
    }

    /// Index in the full log (every call, not only the kept ones) of the
    /// mark `# text`.
    pub fn log_mark(&self, text: &str) -> usize {
        let want = format!("# {text}");
        self.log
            .iter()
            .position(|l| *l == want)
            .unwrap_or_else(|| self.fail(&format!("mark {want:?} missing from the log")))
    }

    /// Lines of `lines()` from mark `from` to mark `to` (or the end) whose
    /// function is `f`.
    pub fn calls_between(&self, f: &str, from: Option<&str>, to: Option<&str>) -> Vec<String> {
        let lines = self.lines();
        let a = from.map_or(0, |m| self.mark(m));
        let b = to.map_or(lines.len(), |m| self.mark(m));
        lines[a..b]
            .iter()
            .filter(|l| log_function(l) == f)
            .cloned()
            .collect()
    }

    /// Fails if a kept driver call failed.
    pub fn expect_no_errors(&self) {
        if let Some(l) = self.lines().iter().find(|l| l.contains(" err=")) {
            self.fail(&format!("a driver call failed: {l}"));
        }
    }
}
