//! The generator of the differential harness (issue #7): a CUDA program that
//! calls every export of `libcudart.so.13` with ordinary arguments, in forked
//! children (one per call, or with `--batch` many per child), and prints one
//! line per export (see `runner.h`).
//!
//! 1. The prototypes come from the real headers of the toolchain wheel, read
//!    at build time: `cuda_runtime_api.h` and the GL, EGL and VDPAU interop
//!    headers are run through the C++ preprocessor twice (legacy names, and
//!    `CUDA_API_PER_THREAD_DEFAULT_STREAM` for the `_ptds`/`_ptsz` names)
//!    and every `extern` function declaration is parsed. The interop headers
//!    include `GL/gl.h`, `EGL/egl.h` and `vdpau/vdpau.h`; tiny stand-ins
//!    with the few typedefs they need are written next to the output.
//!    Exports no public header declares get our own prototypes
//!    (`prototypes.txt`).
//! 2. Every parameter gets an argument from the rules below ([`arg_for`]):
//!    per-call overrides first, then the parameter's name and type. A type
//!    without a rule is an error, so a new export cannot slip through.
//! 3. The bad-input matrix (issue #9, `--bad`): every parameter also gets
//!    the bad arguments that apply to it ([`bad_cases`]: NULL, destroyed
//!    and wrong-kind handles, enums past their last value (read from the
//!    headers, [`parse_enums`]), bad flags, devices, sizes, offsets, device
//!    pointers + 1, host memory where device memory is due...), decided by
//!    the parameter's type and name from the tables of that section. Each
//!    case is the ordinary call with one argument replaced, and has a stable
//!    id, `FUNCTION#PARAM=WHAT`. The exports of [`ISOLATED`] run alone, in a
//!    fresh child each, even in batch mode (their mark in the table).
//! 4. The program is `harness.cu`: the generated calls plus `runner.h`,
//!    compiled by the wheel's nvcc with `-cudart shared`, with a small
//!    fatbin (`harness_lib_kernel`, `harness_lib_var`) embedded for the
//!    registration and library calls.
//!
//! Used by `tests/harness.rs` and by `src/bin/harness-gen.rs`
//! (`scripts/harness-prepare.sh`).

#![allow(dead_code)]

use abi_tests::{cuda_home, nvcc, repo_root, run_ok};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `abi-tests/harness`: runner.h, prototypes.txt, the allow-list.
pub fn harness_src_dir() -> PathBuf {
    repo_root().join("abi-tests/harness")
}

/// NVIDIA's export list (the wheel's `libcudart.so.13`),
/// or `HARNESS_EXPORTS` when set.
pub fn export_list() -> Vec<String> {
    match std::env::var_os("HARNESS_EXPORTS") {
        Some(path) => abi_tests::reference_exports_from(Path::new(&path)),
        None => abi_tests::reference_exports(),
    }
}

// ---------------------------------------------------------------------------
// Prototypes.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Normalized type: single spaces, `*` as its own word (`const void *`).
    pub ty: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proto {
    pub name: String,
    pub ret: String,
    pub params: Vec<Param>,
    /// Where it came from: "header" or "prototypes.txt".
    pub origin: &'static str,
}

/// `const void*` -> `const void *`; `void *const *` -> `void * const *`.
pub fn norm_type(t: &str) -> String {
    t.replace('*', " * ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch == '_' || ch.is_ascii_alphabetic())
        && c.all(|ch| ch == '_' || ch.is_ascii_alphanumeric())
}

/// Removes every `__attribute__((...))` (balanced parentheses).
fn strip_attributes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("__attribute__") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "__attribute__".len()..];
        let Some(open) = after.find('(') else {
            rest = after;
            continue;
        };
        let mut depth = 0;
        let mut end = after.len();
        for (j, ch) in after[open..].char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Splits at the commas outside parentheses (default arguments may call).
fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// One parameter declaration (`const void *func = 0`) -> type and name.
fn parse_param(p: &str) -> Result<Param, String> {
    let p = p.split('=').next().unwrap_or("").trim();
    let spaced = norm_type(p);
    let words: Vec<&str> = spaced.split(' ').collect();
    let last = *words.last().ok_or("empty parameter")?;
    if words.len() < 2 || !is_ident(last) {
        return Err(format!("parameter without a name: {p:?}"));
    }
    Ok(Param {
        ty: words[..words.len() - 1].join(" "),
        name: last.to_string(),
    })
}

/// The declarations parsed from a text, and the names whose parameter
/// list could not be parsed (with why).
pub struct Parsed {
    pub protos: Vec<Proto>,
    pub failed: BTreeMap<String, String>,
}

/// Every function declaration in `text` (preprocessed C/C++): with
/// `extern_only`, only those introduced by `extern` (the headers' style);
/// otherwise every `RET NAME(PARAMS);` statement (prototypes.txt).
pub fn parse_prototypes(text: &str, extern_only: bool, origin: &'static str) -> Parsed {
    let text = strip_attributes(text);
    // Comment lines (prototypes.txt) go first: they may hold ';'.
    let text: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut protos = Vec::new();
    let mut failed = BTreeMap::new();
    // Statements end at ';', '{' or '}'.
    for stmt in text.split([';', '{', '}']) {
        let joined: String;
        let body = if extern_only {
            let Some(i) = stmt.rfind("extern ") else {
                continue;
            };
            let b = stmt[i + "extern ".len()..].trim();
            if b.starts_with('"') {
                continue;
            }
            b
        } else {
            joined = stmt.split_whitespace().collect::<Vec<_>>().join(" ");
            joined.as_str()
        };
        let Some(open) = body.find('(') else {
            continue;
        };
        // The parameter list ends at the matching parenthesis (C++
        // declarations may go on with `noexcept (true)`).
        let mut depth = 0;
        let mut close = None;
        for (j, ch) in body[open..].char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + j);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            continue;
        };
        let head = body[..open].trim_end();
        let name_start = head
            .rfind(|c: char| !(c == '_' || c.is_ascii_alphanumeric()))
            .map_or(0, |i| i + 1);
        let name = &head[name_start..];
        let ret = norm_type(&head[..name_start]);
        if !is_ident(name) || ret.is_empty() || ret.starts_with("typedef") {
            continue;
        }
        let inner = body[open + 1..close].trim();
        let params = if inner.is_empty() || inner == "void" {
            Vec::new()
        } else {
            match split_top_level(inner)
                .into_iter()
                .map(parse_param)
                .collect::<Result<Vec<_>, _>>()
            {
                Ok(p) => p,
                Err(e) => {
                    // Only an error if someone asks for this function.
                    failed.insert(name.to_string(), e);
                    continue;
                }
            }
        };
        let ret = ret
            .split(' ')
            .filter(|w| !matches!(*w, "static" | "inline" | "__inline__"))
            .collect::<Vec<_>>()
            .join(" ");
        protos.push(Proto {
            name: name.to_string(),
            ret,
            params,
            origin,
        });
    }
    Parsed { protos, failed }
}

/// The stand-ins for the window-system headers the interop headers
/// include: only the typedefs those headers use (from the public GL, EGL
/// and VDPAU APIs).
const STUB_HEADERS: &[(&str, &str)] = &[
    (
        "GL/gl.h",
        "typedef unsigned int GLuint;\ntypedef unsigned int GLenum;\n",
    ),
    (
        "EGL/egl.h",
        "#include <stdint.h>\ntypedef int32_t EGLint;\n",
    ),
    (
        "EGL/eglext.h",
        "typedef void *EGLImageKHR;\ntypedef void *EGLStreamKHR;\ntypedef void *EGLSyncKHR;\n",
    ),
    (
        "vdpau/vdpau.h",
        "#include <stdint.h>\ntypedef uint32_t VdpDevice;\ntypedef uint32_t VdpVideoSurface;\n\
         typedef uint32_t VdpOutputSurface;\ntypedef uint32_t VdpFuncId;\ntypedef int VdpStatus;\n\
         typedef VdpStatus VdpGetProcAddress(VdpDevice device, VdpFuncId function_id, void **function_pointer);\n",
    ),
];

/// The headers the harness includes (and the prototypes come from).
const HEADERS: &[&str] = &[
    "cuda_runtime_api.h",
    "cuda_gl_interop.h",
    "cuda_egl_interop.h",
    "cuda_vdpau_interop.h",
];

fn write_stubs(work: &Path) -> PathBuf {
    let stub = work.join("stub");
    for (name, text) in STUB_HEADERS {
        let p = stub.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).expect("stub folder");
        std::fs::write(&p, format!("/* harness stand-in, see gen.rs */\n{text}"))
            .expect("write stub header");
    }
    stub
}

fn preprocess(work: &Path, stub: &Path, per_thread: bool) -> String {
    let src = work.join("headers.cpp");
    let text: String = HEADERS
        .iter()
        .map(|h| format!("#include <{h}>\n"))
        .collect();
    std::fs::write(&src, text).expect("write headers.cpp");
    let cxx = std::env::var_os("CXX").unwrap_or_else(|| "c++".into());
    let mut cmd = Command::new(cxx);
    cmd.args(["-E", "-P", "-x", "c++", "-I"])
        .arg(stub)
        .arg("-I")
        .arg(cuda_home().join("include"));
    if per_thread {
        cmd.arg("-DCUDA_API_PER_THREAD_DEFAULT_STREAM");
    }
    let out = run_ok(cmd.arg(&src));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The prototype of every export, by name, from the headers and
/// prototypes.txt; an error names every export without one.
pub fn export_prototypes(work: &Path, exports: &[String]) -> Result<(Vec<Proto>, Enums), String> {
    let stub = write_stubs(work);
    let mut from_headers: BTreeMap<String, Proto> = BTreeMap::new();
    let mut failed = BTreeMap::new();
    let mut enums = Enums::default();
    for per_thread in [false, true] {
        let text = preprocess(work, &stub, per_thread);
        if !per_thread {
            enums = parse_enums(&text);
        }
        let parsed = parse_prototypes(&text, true, "header");
        failed.extend(parsed.failed);
        for p in parsed.protos {
            if let Some(old) = from_headers.get(&p.name) {
                if old.ret != p.ret || old.params != p.params {
                    return Err(format!(
                        "{}: two different declarations in the headers: {old:?} and {p:?}",
                        p.name
                    ));
                }
            } else {
                from_headers.insert(p.name.clone(), p);
            }
        }
    }
    let ours_path = harness_src_dir().join("prototypes.txt");
    let ours_text = std::fs::read_to_string(&ours_path).expect("prototypes.txt");
    let parsed = parse_prototypes(&ours_text, false, "prototypes.txt");
    failed.extend(parsed.failed);
    let ours = parsed.protos;
    let export_set: BTreeSet<&str> = exports.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    let mut ours_map = BTreeMap::new();
    for p in ours {
        if from_headers.contains_key(&p.name) {
            problems.push(format!(
                "{} is in prototypes.txt but a public header declares it",
                p.name
            ));
        }
        if !export_set.contains(p.name.as_str()) {
            problems.push(format!("{} is in prototypes.txt but not an export", p.name));
        }
        ours_map.insert(p.name.clone(), p);
    }
    let mut out = Vec::new();
    for e in exports {
        match from_headers.get(e).or_else(|| ours_map.get(e)) {
            Some(p) => out.push(p.clone()),
            None if failed.contains_key(e) => {
                problems.push(format!("{e}: cannot parse its declaration: {}", failed[e]))
            }
            None => problems.push(format!(
                "{e}: no public header declares it; add its prototype to abi-tests/harness/prototypes.txt"
            )),
        }
    }
    if problems.is_empty() {
        Ok((out, enums))
    } else {
        Err(problems.join("\n"))
    }
}

// ---------------------------------------------------------------------------
// Enums (for the bad-input matrix: a value past the last enumerator).

/// The enums of the headers: `enum NAME` by NAME (typedef names too), with
/// the largest enumerator value, or None when an enumerator's value is an
/// expression [`eval_enumerator`] cannot evaluate.
#[derive(Default, Debug)]
pub struct Enums {
    pub max: BTreeMap<String, Option<i64>>,
}

impl Enums {
    /// The largest value of the enum a parameter of type `ty` holds
    /// (`enum cudaMemcpyKind`, `cudaError_t`...); None for other types,
    /// Some(None) for an enum without a known maximum.
    pub fn max_of(&self, ty: &str) -> Option<Option<i64>> {
        let name = ty.strip_prefix("enum ").unwrap_or(ty);
        self.max.get(name).copied()
    }
}

/// `1<<2`, `0x10u`, `-3`, `(4)`, or an enumerator already seen.
fn eval_enumerator(expr: &str, known: &BTreeMap<String, i64>) -> Option<i64> {
    let x = expr.trim();
    if let Some(inner) = x.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        return eval_enumerator(inner, known);
    }
    if let Some((a, b)) = x.split_once("<<") {
        return Some(eval_enumerator(a, known)? << eval_enumerator(b, known)?);
    }
    if let Some(rest) = x.strip_prefix('-') {
        return eval_enumerator(rest, known).map(|v| -v);
    }
    if let Some(v) = known.get(x) {
        return Some(*v);
    }
    let digits = x.trim_end_matches(['u', 'U', 'l', 'L']);
    match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i64::from_str_radix(hex, 16).ok(),
        None => digits.parse().ok(),
    }
}

/// Every `enum NAME { ... }` (and `typedef enum [NAME] { ... } ALIAS;`,
/// `typedef enum NAME ALIAS;`) of a preprocessed text.
pub fn parse_enums(text: &str) -> Enums {
    let ident_end = |s: &str| {
        s.find(|c: char| !(c == '_' || c.is_ascii_alphanumeric()))
            .unwrap_or(s.len())
    };
    let mut enums = Enums::default();
    let mut aliases = Vec::new();
    let mut known: BTreeMap<String, i64> = BTreeMap::new();
    let mut rest = text;
    while let Some(i) = rest.find("enum") {
        let before = &rest[..i];
        let after = &rest[i + 4..];
        let starts_word = !before.ends_with(|c: char| c == '_' || c.is_ascii_alphanumeric());
        if !starts_word || !after.starts_with(char::is_whitespace) {
            rest = after;
            continue;
        }
        let typedef = before.trim_end().ends_with("typedef");
        let a = after.trim_start();
        let n = ident_end(a);
        let name = &a[..n];
        let a2 = a[n..].trim_start();
        if !a2.starts_with('{') {
            // `typedef enum NAME ALIAS;`
            let m = ident_end(a2);
            if typedef && !name.is_empty() && m > 0 && a2[m..].trim_start().starts_with(';') {
                aliases.push((a2[..m].to_string(), name.to_string()));
            }
            rest = after;
            continue;
        }
        let Some(close) = a2.find('}') else { break };
        let body = &a2[1..close];
        let mut max: Option<i64> = None;
        let mut ok = true;
        let mut next = 0i64;
        for item in body.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let (en, val) = match item.split_once('=') {
                Some((en, ex)) => (en.trim(), eval_enumerator(ex, &known)),
                None => (item, Some(next)),
            };
            match val {
                Some(v) => {
                    known.insert(en.to_string(), v);
                    max = Some(max.map_or(v, |m: i64| m.max(v)));
                    next = v + 1;
                }
                None => ok = false,
            }
        }
        let max = if ok { max } else { None };
        if !name.is_empty() {
            enums.max.insert(name.to_string(), max);
        }
        let tail = a2[close + 1..].trim_start();
        let m = ident_end(tail);
        if typedef && m > 0 {
            enums.max.insert(tail[..m].to_string(), max);
        }
        rest = &a2[close + 1..];
    }
    for (alias, name) in aliases {
        if let Some(m) = enums.max.get(&name).copied() {
            enums.max.insert(alias, m);
        }
    }
    enums
}

// ---------------------------------------------------------------------------
// The argument rules.

/// How one parameter gets its argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A pointer to a 4 KiB buffer of 0xA5, checked for writes after the
    /// call; `int_value` prints the first 4 bytes as an int when written.
    Out { int_value: bool },
    /// A pointer to a zero-filled 4 KiB buffer; the C statements (on `p`, a
    /// pointer to the pointee type) fill fields.
    In(&'static str),
    /// NULL / 0.
    Null,
    /// A C expression of the parameter's type.
    Expr(String),
    /// A fixture of runner.h (`HF_<name>`): NULL without a driver, a real
    /// object with --gpu.
    Fix(&'static str),
    /// A zero-initialized value (structs passed by value).
    Zero,
}

fn e(s: &str) -> Option<Arg> {
    Some(Arg::Expr(s.to_string()))
}

/// Exceptions to the general rules, by (function, parameter). The function
/// is the base name (no `_ptds`/`_ptsz`).
fn override_for(func: &str, param: &str) -> Option<Arg> {
    use Arg::*;
    match (func, param) {
        // Non-const pointers that are inputs (or in/out).
        ("cudaSetValidDevices", "device_arr") => Some(In("")),
        ("cudaSetValidDevices", "len") => e("1"),
        ("cudaGraphicsMapResources" | "cudaGraphicsUnmapResources", "resources") => Some(In("")),
        ("cudaGraphicsMapResources" | "cudaGraphicsUnmapResources", "count") => e("1"),
        ("cudaMemcpyBatchAsync", "attrs") => {
            Some(In("p->srcAccessOrder = cudaMemcpySrcAccessOrderStream;"))
        }
        ("cudaMemcpyBatchAsync", "attrsIdxs") => Some(In("")),
        ("cudaMemcpyBatchAsync", "sizes") => Some(In("p[0] = 64;")),
        ("cudaMemcpyBatchAsync", "dsts") => Some(In("p[0] = h_fixture(h, HF_DEVBUF);")),
        ("cudaMemcpyBatchAsync", "srcs") => {
            Some(In("p[0] = (char *)h_fixture(h, HF_DEVBUF) + 2048;"))
        }
        ("cudaMemcpyBatchAsync" | "cudaMemDiscardBatchAsync", "count") => e("1"),
        (
            "cudaMemPrefetchBatchAsync" | "cudaMemDiscardAndPrefetchBatchAsync",
            "count" | "numPrefetchLocs",
        ) => e("1"),
        (
            "cudaMemPrefetchBatchAsync"
            | "cudaMemDiscardAndPrefetchBatchAsync"
            | "cudaMemDiscardBatchAsync",
            "dptrs",
        ) => Some(In("p[0] = h_fixture(h, HF_DEVBUF);")),
        (
            "cudaMemPrefetchBatchAsync"
            | "cudaMemDiscardAndPrefetchBatchAsync"
            | "cudaMemDiscardBatchAsync",
            "sizes",
        ) => Some(In("p[0] = 4096;")),
        (_, "prefetchLocs") => Some(In("p->type = cudaMemLocationTypeDevice; p->id = 0;")),
        (_, "prefetchLocIdxs") => Some(In("")),
        ("cudaMemcpy3DBatchAsync", "opList") => Some(In("")),
        ("cudaMemRangeGetAttributes", "data") => Some(In("")),
        ("cudaMemRangeGetAttributes", "dataSizes") => Some(In("p[0] = 4;")),
        ("cudaMemRangeGetAttributes", "attributes") => {
            Some(In("p[0] = cudaMemRangeAttributeReadMostly;"))
        }
        (
            "cudaMemGetDefaultMemPool"
            | "cudaMemGetMemPool"
            | "cudaMemSetMemPool"
            | "cudaMemPoolGetAccess",
            "location",
        ) => Some(In("p->type = cudaMemLocationTypeDevice; p->id = 0;")),
        ("cudaGraphAddMemAllocNode", "nodeParams") => Some(In(
            "p->poolProps.allocType = cudaMemAllocationTypePinned; \
             p->poolProps.location.type = cudaMemLocationTypeDevice; p->bytesize = 64;",
        )),
        (
            "cudaGraphAddNode" | "cudaGraphNodeSetParams" | "cudaGraphExecNodeSetParams",
            "nodeParams",
        ) => Some(In("p->type = cudaGraphNodeTypeEmpty;")),
        ("cudaGraphInstantiateWithParams", "instantiateParams") => Some(In("")),
        ("cudaStreamUpdateCaptureDependencies", "dependencies") => Some(In("")),
        ("cudaMemPoolImportPointer", "exportData") => Some(In("")),
        ("cudaLibraryLoadData" | "cudaLibraryLoadFromFile", "jitOptions" | "libraryOptions") => {
            Some(Null)
        }
        ("cudaLogsDumpToMemory" | "cudaLogsDumpToFile", "iterator") => Some(In("")),
        ("cudaLogsDumpToMemory", "size") => Some(In("p[0] = 64;")),
        (
            "cudaEGLStreamConsumerDisconnect"
            | "cudaEGLStreamProducerDisconnect"
            | "cudaEGLStreamConsumerAcquireFrame"
            | "cudaEGLStreamConsumerReleaseFrame"
            | "cudaEGLStreamProducerPresentFrame"
            | "cudaEGLStreamProducerReturnFrame",
            "conn",
        ) => Some(In("")),
        (_, "pStream") if func.starts_with("cudaEGLStream") => Some(In("")),
        // Getters of node lists: ask for the count only.
        (
            "cudaGraphGetNodes"
            | "cudaGraphGetRootNodes"
            | "cudaGraphGetEdges"
            | "cudaGraphNodeGetDependencies"
            | "cudaGraphNodeGetDependentNodes",
            "nodes" | "pRootNodes" | "from" | "to" | "edgeData" | "pDependencies"
            | "pDependentNodes",
        ) => Some(Null),
        // The setters of attributes read the value.
        ("cudaDeviceSetGraphMemAttribute" | "cudaMemPoolSetAttribute", "value") => Some(In("")),
        ("cudaDeviceSetGraphMemAttribute", "attr") => e("cudaGraphMemAttrUsedMemHigh"),
        ("cudaMemPoolImportFromShareableHandle", "shareableHandle") => Some(In("")),
        ("cudaMemPoolImportFromShareableHandle", "handleType") => e("cudaMemHandleTypeNone"),
        ("cudaDeviceSetLimit", "value") => e("1024"),
        // Host memory: pinned by the runtime, or plain.
        (_, "pHost") | ("cudaFreeHost", "ptr") => Some(Fix("PINNED")),
        ("cudaHostRegister" | "cudaHostUnregister", "ptr") => e("(void *)h_hostbuf"),
        // A graph other than the one the node is added to; the clone of it.
        (_, "childGraph") => Some(Fix("CHILDGRAPH")),
        ("cudaGraphNodeFindInClone", "clonedGraph") => Some(Fix("CLONE")),
        // Flags whose zero is not valid.
        ("cudaMallocManaged", "flags") => e("cudaMemAttachGlobal"),
        ("cudaStreamAttachMemAsync", "flags") => e("cudaMemAttachSingle"),
        ("cudaUserObjectCreate", "flags") => e("cudaUserObjectNoDestructorSync"),
        // In/out: the mode to set.
        ("cudaThreadExchangeStreamCaptureMode", "mode") => {
            Some(In("p[0] = cudaStreamCaptureModeRelaxed;"))
        }
        // harness_symbol is an int.
        (_, "count") if func.contains("Symbol") => e("4"),
        ("cudaLibraryGetGlobal" | "cudaLibraryGetManaged", "name") => e("\"harness_lib_var\""),
        ("cudaLibraryGetUnifiedFunction", "symbol") => e("\"harness_lib_kernel\""),
        ("cudaCreateTextureObject", "pResViewDesc") => Some(Null),
        ("cudaMemRangeGetAttribute", "dataSize") => e("4"),
        // Registration internals (prototypes.txt).
        ("__cudaRegisterFunction", "hostFun") => e("(const char *)harness_host_stub"),
        ("__cudaRegisterFunction", "deviceFun") => e("(char *)\"harness_lib_kernel\""),
        ("__cudaRegisterFunction", "deviceName") => e("\"harness_lib_kernel\""),
        ("__cudaRegisterFunction", "threadLimit") => e("-1"),
        ("__cudaRegisterFunction", "tid" | "bid" | "bDim" | "gDim" | "wSize") => Some(Null),
        (
            "__cudaRegisterVar" | "__cudaRegisterManagedVar" | "__cudaRegisterHostVar",
            "deviceName",
        ) => e("\"harness_lib_var\""),
        ("__cudaRegisterVar" | "__cudaRegisterManagedVar", "deviceAddress") => {
            e("(char *)\"harness_lib_var\"")
        }
        ("__cudaRegisterVar" | "__cudaRegisterHostVar", "hostVar") => e("(char *)harness_host_var"),
        ("__cudaRegisterManagedVar", "hostVarPtrAddress") => e("(void **)&harness_managed_ptr"),
        ("__cudaRegisterVar" | "__cudaRegisterManagedVar" | "__cudaRegisterHostVar", "size") => {
            e("4")
        }
        ("__cudaLaunchKernel", "kernel") => e("(cudaKernel_t)h_kernel_or_stub(h)"),
        _ => None,
    }
}

/// Pointee types whose out-value is printed as an int when written.
fn int_like(pointee: &str) -> bool {
    matches!(pointee, "int" | "unsigned int" | "cudaLogIterator") || pointee.starts_with("enum ")
}

/// The value of an enum parameter: a valid, common one.
fn enum_value(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "enum cudaChannelFormatKind" => "cudaChannelFormatKindFloat",
        "enum cudaDeviceAttr" => "cudaDevAttrMaxThreadsPerBlock",
        "enum cudaDeviceP2PAttr" => "cudaDevP2PAttrPerformanceRank",
        "enum cudaFlushGPUDirectRDMAWritesScope" => "cudaFlushGPUDirectRDMAWritesToOwner",
        "enum cudaFlushGPUDirectRDMAWritesTarget" => {
            "cudaFlushGPUDirectRDMAWritesTargetCurrentDevice"
        }
        "enum cudaFuncAttribute" => "cudaFuncAttributeMaxDynamicSharedMemorySize",
        "enum cudaFuncCache" => "cudaFuncCachePreferNone",
        "enum cudaGLDeviceList" => "cudaGLDeviceListAll",
        "enum cudaGraphMemAttributeType" => "cudaGraphMemAttrUsedMemCurrent",
        "enum cudaLimit" => "cudaLimitStackSize",
        "enum cudaMemAllocationHandleType" => "cudaMemHandleTypePosixFileDescriptor",
        "enum cudaMemAllocationType" => "cudaMemAllocationTypePinned",
        "enum cudaMemPoolAttr" => "cudaMemPoolAttrReleaseThreshold",
        "enum cudaMemRangeAttribute" => "cudaMemRangeAttributeReadMostly",
        "enum cudaMemcpyKind" => "cudaMemcpyDefault",
        "enum cudaMemoryAdvise" => "cudaMemAdviseSetReadMostly",
        "enum cudaSharedMemConfig" => "cudaSharedMemBankSizeDefault",
        "enum cudaStreamCaptureMode" => "cudaStreamCaptureModeGlobal",
        "cudaLaunchAttributeID" => "cudaLaunchAttributePriority",
        "cudaError_t" => "cudaErrorInvalidValue",
        _ => return None,
    })
}

/// Handles passed by value: the fixture (NULL without --gpu), or NULL.
fn handle_fixture(ty: &str) -> Option<Arg> {
    use Arg::*;
    Some(match ty {
        "cudaStream_t" => Fix("STREAM"),
        "cudaEvent_t" => Fix("EVENT"),
        "cudaGraph_t" => Fix("GRAPH"),
        "cudaGraphNode_t" => Fix("NODE"),
        "cudaGraphExec_t" => Fix("GRAPHEXEC"),
        "cudaArray_t" | "cudaArray_const_t" => Fix("ARRAY"),
        "cudaMipmappedArray_t" | "cudaMipmappedArray_const_t" => Fix("MIPMAP"),
        "cudaMemPool_t" => Fix("MEMPOOL"),
        "cudaKernel_t" => Fix("KERNEL"),
        "cudaLibrary_t" => Fix("LIBRARY"),
        "cudaUserObject_t" => Fix("USEROBJ"),
        "cudaTextureObject_t" => Fix("TEXOBJ"),
        "cudaSurfaceObject_t" => Fix("SURFOBJ"),
        // Objects of other APIs (external memory, graphics, EGL, VDPAU)
        // and callback registrations: none to be had.
        "cudaExternalMemory_t"
        | "cudaExternalSemaphore_t"
        | "cudaGraphicsResource_t"
        | "cudaAsyncCallbackHandle_t"
        | "cudaLogsCallbackHandle"
        | "EGLImageKHR"
        | "EGLStreamKHR"
        | "EGLSyncKHR"
        | "VdpGetProcAddress *" => Null,
        _ => return None,
    })
}

/// Structs passed by value.
fn struct_value(ty: &str) -> Option<Arg> {
    Some(match ty {
        "dim3" => Arg::Expr("dim3(1, 1, 1)".into()),
        "struct cudaExtent" => Arg::Expr("make_cudaExtent(64, 4, 1)".into()),
        "struct cudaPitchedPtr" => {
            Arg::Expr("make_cudaPitchedPtr(h_fixture(h, HF_DEVBUF), 256, 64, 4)".into())
        }
        "struct cudaMemLocation" => Arg::Expr("h_loc_device0()".into()),
        "cudaIpcMemHandle_t" | "cudaIpcEventHandle_t" | "cudaEglFrame" => Arg::Zero,
        _ => return None,
    })
}

/// Fields of input structs (by pointee type) that zero would make
/// meaningless; `p` points at the buffer.
fn input_fields(pointee: &str) -> &'static str {
    match pointee {
        "struct cudaChannelFormatDesc" => "p->x = 32; p->f = cudaChannelFormatKindFloat;",
        "cudaLaunchConfig_t" => "p->gridDim = dim3(1, 1, 1); p->blockDim = dim3(1, 1, 1);",
        "struct cudaMemPoolProps" => {
            "p->allocType = cudaMemAllocationTypePinned; \
             p->location.type = cudaMemLocationTypeDevice; p->location.id = 0;"
        }
        "struct cudaMemAccessDesc" => {
            "p->location.type = cudaMemLocationTypeDevice; p->location.id = 0; \
             p->flags = cudaMemAccessFlagsProtReadWrite;"
        }
        "struct cudaKernelNodeParams" => {
            "p->func = (void *)harness_kernel; p->gridDim = dim3(1, 1, 1); \
             p->blockDim = dim3(1, 1, 1); p->kernelParams = harness_args;"
        }
        "struct cudaHostNodeParams" => "p->fn = (cudaHostFn_t)harness_noop;",
        "struct cudaMemsetParams" => {
            "p->dst = h_fixture(h, HF_DEVBUF); p->elementSize = 4; p->width = 16; p->height = 1;"
        }
        "struct cudaMemcpy3DParms" => {
            "p->srcPtr = make_cudaPitchedPtr(h_fixture(h, HF_DEVBUF), 256, 64, 4); \
             p->dstPtr = make_cudaPitchedPtr((char *)h_fixture(h, HF_DEVBUF) + 2048, 256, 64, 4); \
             p->extent = make_cudaExtent(64, 4, 1); p->kind = cudaMemcpyDefault;"
        }
        "struct cudaMemcpy3DPeerParms" => {
            "p->srcPtr = make_cudaPitchedPtr(h_fixture(h, HF_DEVBUF), 256, 64, 4); \
             p->dstPtr = make_cudaPitchedPtr((char *)h_fixture(h, HF_DEVBUF) + 2048, 256, 64, 4); \
             p->extent = make_cudaExtent(64, 4, 1);"
        }
        "struct cudaResourceDesc" => {
            "p->resType = cudaResourceTypeArray; p->res.array.array = (cudaArray_t)h_fixture(h, HF_ARRAY);"
        }
        _ => "",
    }
}

/// The argument for parameter `name` of type `ty` (normalized) of `func`.
pub fn arg_for(func: &str, name: &str, ty: &str) -> Result<Arg, String> {
    use Arg::*;
    let base = func
        .strip_suffix("_ptds")
        .or_else(|| func.strip_suffix("_ptsz"))
        .unwrap_or(func);
    if let Some(a) = override_for(base, name) {
        return Ok(a);
    }
    let num = |s: &str| Ok(Expr(s.to_string()));
    // Scalars.
    match ty {
        "int" => {
            return match name {
                "len" => num("64"),
                "x" => num("32"),
                "count" | "numBlocks" => num("1"),
                "blockSize" => num("32"),
                // device, srcDevice, dstDevice, peerDevice, value, flags,
                // priority, y, z, w, ext, constant, global...
                _ => num("0"),
            };
        }
        "unsigned int" | "unsigned" => {
            return match name {
                "count" | "numExtSems" | "numKernels" | "numLevels" | "initialRefcount"
                | "isEnabled" | "cudaDeviceCount" => num("1"),
                "cudaVersion" => num("13000"),
                // flags, level, indices, numJitOptions, timeout...
                _ => num("0"),
            };
        }
        "size_t" => {
            return match name {
                "numDependencies" | "offset" | "wOffset" | "hOffset" | "wOffsetDst"
                | "hOffsetDst" | "wOffsetSrc" | "hOffsetSrc" | "paramIndex" | "minBytesToKeep"
                | "sharedMem" | "dynamicSMemSize" | "length" => num("0"),
                "dpitch" | "spitch" | "pitch" => num("256"),
                "height" => num("4"),
                "numOps" | "numAttrs" | "numAttributes" => num("1"),
                // sizes and counts in bytes, widths
                _ => num("64"),
            };
        }
        "unsigned long long" => return num("0"),
        "GLuint" | "VdpDevice" | "VdpVideoSurface" | "VdpOutputSurface" => return num("0"),
        "GLenum" => return num("0x0DE1"), // GL_TEXTURE_2D
        "EGLint" => return num("64"),
        _ => {}
    }
    if let Some(v) = enum_value(ty) {
        return Ok(Expr(v.to_string()));
    }
    if let Some(a) = handle_fixture(ty) {
        return Ok(a);
    }
    if let Some(a) = struct_value(ty) {
        return Ok(a);
    }
    if matches!(
        ty,
        "cudaStreamCallback_t" | "cudaHostFn_t" | "cudaAsyncCallback" | "cudaLogsCallback_t"
    ) {
        return Ok(Expr(format!("({ty})harness_noop")));
    }
    // Pointers, by name where the type says too little.
    match ty {
        "const char *" => {
            return match name {
                "pciBusId" => num("\"0000:00:00.0\""),
                "symbol" => num("\"cuInit\""),
                "name" => num("\"harness_lib_kernel\""),
                "path" | "pathToFile" => num("\"/dev/null\""),
                "fileName" => num("\"/nonexistent/harness.fatbin\""),
                _ => Err(format!("no rule for the string parameter {name}")),
            }
        }
        "const void *" => {
            return match name {
                "func" | "entryFuncAddr" | "symbolPtr" | "hostFun" => {
                    num("(const void *)harness_kernel")
                }
                "symbol" => num("(const void *)&harness_symbol"),
                "code" => num("(const void *)harness_fatbin"),
                "src" | "devPtr" | "ptr" => Ok(Fix("DEVBUF")),
                _ => Err(format!("no rule for the const void * parameter {name}")),
            }
        }
        "void *" => {
            return match name {
                "devPtr" | "dst" | "ptr" | "dptr" | "pHost" => Ok(Fix("DEVBUF")),
                "userData" => Ok(Null),
                "fatCubin" => num("h_wrapper()"),
                "unknown0" | "unknown1" | "unknown2" | "unknown3" | "unknown4" | "unknown5" => {
                    Ok(Null)
                }
                // Getters' results.
                "value" | "data" | "dptr_out" | "nvSciSyncAttrList" | "shareableHandle" => {
                    Ok(Out { int_value: false })
                }
                _ => Err(format!("no rule for the void * parameter {name}")),
            };
        }
        "void * *" => {
            return match name {
                "args" => num("harness_args"),
                "fatCubinHandle" => Ok(Fix("FATHANDLE")),
                "jitOptionsValues" | "libraryOptionValues" => Ok(Null),
                _ => Ok(Out { int_value: false }),
            }
        }
        "void * const *" | "const void * const *" => return Ok(In("")),
        _ => {}
    }
    if let Some(pointee) = ty.strip_suffix(" *") {
        if pointee.starts_with("const ") && !pointee.ends_with('*') {
            // An input: a struct, or an array of handles, enums or sizes.
            return Ok(In(input_fields(pointee.trim_start_matches("const "))));
        }
        // Non-const pointers (and pointers to pointers) are results.
        return Ok(Out {
            int_value: int_like(pointee),
        });
    }
    Err(format!("no rule for the type {ty:?}"))
}

// ---------------------------------------------------------------------------
// The bad-input matrix (issue #9): besides its ordinary call, every export is
// called once per bad argument that applies to one of its parameters, all
// other arguments ordinary. What applies is decided from the parameter's
// type and name by the tables below; every case has a stable id,
// `FUNCTION#PARAM=WHAT` (`cudaMemcpy#dst=host-stack`), so that two runs can be
// compared line by line.

/// One bad-argument case: parameter `param` receives `value` (a C expression
/// of its type, evaluated after the ordinary arguments are ready, `h` the
/// runner's context) instead of its ordinary argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadCase {
    pub param: usize,
    /// What the parameter receives: the part of the id after `=`.
    pub what: String,
    pub value: String,
}

impl BadCase {
    /// `FUNCTION#PARAM=WHAT`.
    pub fn id(&self, proto: &Proto) -> String {
        format!(
            "{}#{}={}",
            proto.name, proto.params[self.param].name, self.what
        )
    }
}

/// Handles passed by value: (type, its fixture, whether the matrix passes a
/// destroyed one, the fixture passed as a handle of the wrong kind).
/// `freed`: made and destroyed in the child just before the call
/// (runner.h, `h_freed`). `wrong:KIND`: a live object of another kind
/// (`h_wrong`). Without a driver (nothing can be made) both are stand-ins:
/// an address in a page that cannot be read, and a zeroed host buffer.
/// Texture and surface objects are integers, not void*-like: no wrong kind.
const HANDLE_CASES: &[(&str, &str, bool, Option<&str>)] = &[
    ("cudaStream_t", "STREAM", true, Some("EVENT")),
    ("cudaEvent_t", "EVENT", true, Some("STREAM")),
    ("cudaGraph_t", "GRAPH", true, Some("GRAPHEXEC")),
    ("cudaGraphNode_t", "NODE", true, Some("GRAPH")),
    ("cudaGraphExec_t", "GRAPHEXEC", true, Some("GRAPH")),
    ("cudaArray_t", "ARRAY", true, Some("MIPMAP")),
    ("cudaArray_const_t", "ARRAY", true, Some("MIPMAP")),
    ("cudaMipmappedArray_t", "MIPMAP", true, Some("ARRAY")),
    ("cudaMipmappedArray_const_t", "MIPMAP", true, Some("ARRAY")),
    ("cudaMemPool_t", "MEMPOOL", true, Some("STREAM")),
    ("cudaKernel_t", "KERNEL", true, Some("LIBRARY")),
    ("cudaLibrary_t", "LIBRARY", true, Some("KERNEL")),
    ("cudaUserObject_t", "USEROBJ", true, Some("GRAPH")),
    ("cudaTextureObject_t", "TEXOBJ", true, None),
    ("cudaSurfaceObject_t", "SURFOBJ", true, None),
    // Objects of other APIs (none can be made here; NULL is their ordinary
    // argument): a stream as the wrong kind.
    ("cudaExternalMemory_t", "", false, Some("STREAM")),
    ("cudaExternalSemaphore_t", "", false, Some("STREAM")),
    ("cudaGraphicsResource_t", "", false, Some("STREAM")),
    ("cudaAsyncCallbackHandle_t", "", false, Some("STREAM")),
    ("cudaLogsCallbackHandle", "", false, Some("STREAM")),
];

/// Handle types that are integers, not addresses.
const INTEGER_HANDLES: &[&str] = &["cudaTextureObject_t", "cudaSurfaceObject_t"];

/// The garbage handle of the matrix: an address no mapping of these
/// processes covers (below the loader's, the heap's and mmap's ranges), as
/// `(cudaEvent_t)0xdeadbeef` crashed both runtimes in an independent probe
/// on the H200.
const GARBAGE_HANDLE: &str = "(uintptr_t)0xdeadbeef";

/// Function-pointer types: NULL applies.
const CALLBACK_TYPES: &[&str] = &[
    "cudaStreamCallback_t",
    "cudaHostFn_t",
    "cudaAsyncCallback",
    "cudaLogsCallback_t",
];

/// Device memory (the DEVBUF fixture): NULL, the address + 1, an address
/// in the lowest page nothing maps, host memory (the child's stack,
/// malloc), a freed allocation.
const DEVPTR_CASES: &[(&str, &str)] = &[
    ("dev+1", "(uintptr_t)h_fixture(h, HF_DEVBUF) + 1"),
    // Nothing is mapped there: the driver takes it for host memory.
    ("unmapped-low", "(uintptr_t)0x1000"),
    ("host-stack", "h_stack"),
    ("host-malloc", "h_heap(h)"),
    ("freed", "h_freed(h, HF_DEVBUF)"),
];

/// Page-locked host memory (the PINNED fixture): NULL, pageable host memory,
/// device memory.
const PINNED_CASES: &[(&str, &str)] = &[
    ("host-stack", "h_stack"),
    ("host-malloc", "h_heap(h)"),
    ("dev", "h_fixture(h, HF_DEVBUF)"),
];

/// The registration handle of nvcc's internals (the FATHANDLE fixture): a
/// zeroed host buffer that no registration returned.
const FATHANDLE_CASES: &[(&str, &str)] = &[("not-a-handle", "h_foreign")];

/// Objects passed by host address (their ordinary argument -> the case): a
/// function that is no kernel, a variable that is no symbol, a fatbin
/// wrapper that is zeroed memory.
const ADDRESS_CASES: &[(&str, &str, &str)] = &[
    ("h_wrapper()", "not-a-wrapper", "h_foreign"),
    (
        "(const void *)harness_kernel",
        "not-a-kernel",
        "(const void *)harness_noop",
    ),
    (
        "(const void *)&harness_symbol",
        "not-a-symbol",
        "(const void *)&h_not_a_symbol",
    ),
];

/// Enums (by value, any enum type of the headers): one past the largest
/// enumerator (from the headers, `max+1`), and 0x7fffffff.
const BAD_ENUM: &str = "0x7fffffff";

/// `int` parameters that are device ordinals, and the bad ordinals.
const DEVICE_PARAMS: &[&str] = &["device", "srcDevice", "dstDevice", "peerDevice"];
const BAD_DEVICES: &[&str] = &["-1", "9999"];

/// Flag words (any integer type), and the bad words: every bit below the
/// sign bit, and one bit no flag uses.
const FLAG_PARAMS: &[&str] = &["flags", "deviceFlags"];
const BAD_FLAGS: &[&str] = &["0x7fffffff", "0x40000000"];

/// `size_t` sizes (bytes, extents, shared memory): 0 (unless that is the
/// ordinary value) and 2^62.
const SIZE_PARAMS: &[&str] = &[
    "count",
    "size",
    "width",
    "height",
    "pitch",
    "dpitch",
    "spitch",
    "length",
    "dataSize",
    "sharedMem",
    "dynamicSMemSize",
];
/// `size_t` offsets (ordinarily 0): 2^62.
const OFFSET_PARAMS: &[&str] = &[
    "offset",
    "wOffset",
    "hOffset",
    "wOffsetDst",
    "hOffsetDst",
    "wOffsetSrc",
    "hOffsetSrc",
];
const HUGE: (&str, &str) = ("2^62", "(size_t)1 << 62");

/// Sizes that are the length of an input array the harness fills with one
/// element: 0 only (a huge length would make the callee read past it, a
/// bug of the caller, not a bad argument).
const ARRAY_LENGTHS: &[(&str, &str)] = &[
    ("cudaMemcpyBatchAsync", "count"),
    ("cudaMemPrefetchBatchAsync", "count"),
    ("cudaMemDiscardBatchAsync", "count"),
    ("cudaMemDiscardAndPrefetchBatchAsync", "count"),
];

/// Parameters left out of the matrix: (function, parameter or `*`, why).
const NO_BAD_CASES: &[(&str, &str, &str)] = &[
    (
        "__cudaRegisterUnifiedTable",
        "*",
        "no public signature: called with six zero arguments only",
    ),
    (
        "__cudaGetProcAddress",
        "*",
        "no public signature: called with six zero arguments only",
    ),
];

fn base_name(func: &str) -> &str {
    func.strip_suffix("_ptds")
        .or_else(|| func.strip_suffix("_ptsz"))
        .unwrap_or(func)
}

/// The bad-argument cases of one call, in parameter order.
pub fn bad_cases(proto: &Proto, args: &[Arg], enums: &Enums) -> Result<Vec<BadCase>, String> {
    let base = base_name(&proto.name);
    let mut out = Vec::new();
    for (k, (p, a)) in proto.params.iter().zip(args).enumerate() {
        if NO_BAD_CASES
            .iter()
            .any(|(f, q, _)| *f == base && (*q == "*" || *q == p.name))
        {
            continue;
        }
        let (ty, name) = (p.ty.as_str(), p.name.as_str());
        let mut add = |what: &str, value: String| {
            out.push(BadCase {
                param: k,
                what: what.to_string(),
                value,
            })
        };
        let cast = |v: &str| format!("({ty})({v})");
        let handle = HANDLE_CASES.iter().find(|hc| hc.0 == ty);
        let ordinary = match a {
            Arg::Expr(x) => x.as_str(),
            Arg::Null => "0",
            _ => "",
        };
        // NULL: every pointer, handle and callback not NULL already.
        if (ty.ends_with('*') || handle.is_some() || CALLBACK_TYPES.contains(&ty))
            && ordinary != "0"
        {
            if matches!(a, Arg::Out { .. }) {
                add("null", cast(&format!("h_no_out(h, {k})")));
            } else {
                add("null", cast("0"));
            }
        }
        if let Some((_, fix, freed, wrong)) = handle {
            // A handle nobody made: an address where nothing is mapped
            // (the driver reads the object behind a handle). Texture and
            // surface objects are integers the driver looks up.
            if !INTEGER_HANDLES.contains(&ty) {
                add("garbage", cast(GARBAGE_HANDLE));
            }
            if *freed {
                add("freed", cast(&format!("(uintptr_t)h_freed(h, HF_{fix})")));
            }
            if let Some(w) = wrong {
                let what = format!("wrong:{}", w.to_lowercase());
                add(&what, cast(&format!("(uintptr_t)h_wrong(h, HF_{w})")));
            }
        }
        let memory = match a {
            Arg::Fix("DEVBUF") => DEVPTR_CASES,
            Arg::Fix("PINNED") => PINNED_CASES,
            Arg::Fix("FATHANDLE") => FATHANDLE_CASES,
            _ => &[],
        };
        for (what, v) in memory {
            add(what, cast(v));
        }
        for (from, what, v) in ADDRESS_CASES {
            if ordinary == *from {
                add(what, cast(v));
            }
        }
        if let Some(max) = enums.max_of(ty) {
            let max = max.ok_or_else(|| {
                format!(
                    "{}({ty} {name}): an enumerator of {ty} has a value the generator cannot evaluate",
                    proto.name
                )
            })?;
            if max + 1 < 0x7fff_ffff {
                add("max+1", cast(&(max + 1).to_string()));
            }
            add(BAD_ENUM, cast(BAD_ENUM));
        }
        let integer = matches!(
            ty,
            "int" | "unsigned int" | "unsigned" | "unsigned long long" | "size_t"
        );
        if integer && FLAG_PARAMS.contains(&name) {
            for f in BAD_FLAGS {
                add(f, cast(f));
            }
        }
        if ty == "int" && DEVICE_PARAMS.contains(&name) {
            for d in BAD_DEVICES {
                add(d, cast(d));
            }
        }
        if ty == "size_t" && SIZE_PARAMS.contains(&name) {
            if ordinary != "0" {
                add("0", cast("0"));
            }
            if !ARRAY_LENGTHS.contains(&(base, name)) {
                add(HUGE.0, cast(HUGE.1));
            }
        }
        if ty == "size_t" && OFFSET_PARAMS.contains(&name) {
            add(HUGE.0, cast(HUGE.1));
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Batch mode (runner.h, `--batch`): calls that run alone.

/// Exports whose every call, ordinary or a case of the bad-input matrix,
/// runs in a fresh child of its own even in batch mode (runner.h), with the
/// reason. Batch mode runs many cases in one process and checks after each
/// that the context works and no error is sticky; these change what that
/// check cannot see (the context's or the process's configuration, the
/// current device, registrations, callbacks, the launch-configuration
/// stack, an open capture), tear the context down, or answer differently
/// when they are not the process's first calls. The name is the base name:
/// the `_ptds`/`_ptsz` forms follow it. Not here, because the check after
/// each case sees what they leave: a capture left open (cudaStreamBeginCapture*:
/// the follow-up cudaMalloc and cudaDeviceSynchronize fail during a global
/// capture); and the kernel attribute setters (their ordinary values are
/// the defaults, and no later case prints an attribute's value).
pub const ISOLATED: &[(&str, &str)] = &[
    ("cudaDeviceReset", "destroys the primary context"),
    (
        "cudaInitDevice",
        "initializes the primary context with flags: a fresh process's call",
    ),
    ("cudaSetDevice", "the thread's current device"),
    ("cudaSetDeviceFlags", "the device's flags"),
    ("cudaSetValidDevices", "the devices the runtime may choose"),
    ("cudaGLSetGLDevice", "the current device"),
    ("cudaVDPAUSetVDPAUDevice", "the current device"),
    ("cudaDeviceSetLimit", "the context's limits"),
    (
        "cudaDeviceSetCacheConfig",
        "the context's cache configuration",
    ),
    (
        "cudaDeviceSetSharedMemConfig",
        "the context's shared memory configuration",
    ),
    ("cudaCtxResetPersistingL2Cache", "the device's L2 cache"),
    ("cudaDeviceSetMemPool", "the device's current memory pool"),
    ("cudaMemSetMemPool", "a location's current memory pool"),
    (
        "cudaDeviceSetGraphMemAttribute",
        "the device's graph memory",
    ),
    ("cudaDeviceEnablePeerAccess", "peer access of the context"),
    ("cudaDeviceDisablePeerAccess", "peer access of the context"),
    (
        "cudaThreadExchangeStreamCaptureMode",
        "the thread's capture mode",
    ),
    (
        "__cudaPushCallConfiguration",
        "the thread's launch-configuration stack",
    ),
    (
        "__cudaPopCallConfiguration",
        "the thread's launch-configuration stack",
    ),
    ("__cudaRegisterFatBinary", "the process's registrations"),
    ("__cudaRegisterFatBinaryEnd", "the process's registrations"),
    ("__cudaUnregisterFatBinary", "the process's registrations"),
    ("__cudaRegisterFunction", "the process's registrations"),
    ("__cudaRegisterVar", "the process's registrations"),
    ("__cudaRegisterManagedVar", "the process's registrations"),
    ("__cudaRegisterHostVar", "the process's registrations"),
    ("__cudaRegisterUnifiedTable", "the process's registrations"),
    ("__cudaInitModule", "the process's registrations"),
    (
        "cudaHostRegister",
        "registers the harness's own host buffer",
    ),
    (
        "cudaHostUnregister",
        "unregisters the harness's own host buffer",
    ),
    ("cudaLogsRegisterCallback", "a process-wide callback"),
    ("cudaLogsUnregisterCallback", "a process-wide callback"),
    (
        "cudaDeviceRegisterAsyncNotification",
        "a device-wide callback",
    ),
    (
        "cudaDeviceUnregisterAsyncNotification",
        "a device-wide callback",
    ),
];

/// Whether every call of `func` runs alone ([`ISOLATED`]).
pub fn isolated(func: &str) -> bool {
    let base = base_name(func);
    ISOLATED.iter().any(|(f, _)| *f == base)
}

// ---------------------------------------------------------------------------
// Emission.

/// One planned call.
pub struct Call {
    pub proto: Proto,
    pub args: Vec<Arg>,
    /// The bad-input matrix's cases of this call.
    pub bad: Vec<BadCase>,
}

/// Plans every export; an error lists every parameter without a rule.
pub fn plan(protos: &[Proto], enums: &Enums) -> Result<Vec<Call>, String> {
    let mut problems = Vec::new();
    let mut calls = Vec::new();
    for p in protos {
        let mut args = Vec::new();
        for prm in &p.params {
            match arg_for(&p.name, &prm.name, &prm.ty) {
                Ok(a) => args.push(a),
                Err(e) => problems.push(format!("{}({} {}): {e}", p.name, prm.ty, prm.name)),
            }
        }
        if return_format(&p.name, &p.ret).is_none() {
            problems.push(format!(
                "{}: no rule for the return type {:?}",
                p.name, p.ret
            ));
        }
        let bad = if args.len() == p.params.len() {
            bad_cases(p, &args, enums).unwrap_or_else(|e| {
                problems.push(e);
                Vec::new()
            })
        } else {
            Vec::new()
        };
        calls.push(Call {
            proto: p.clone(),
            args,
            bad,
        });
    }
    if problems.is_empty() {
        Ok(calls)
    } else {
        Err(problems.join("\n"))
    }
}

/// How the return value of `func` is printed: (printf format, arguments).
/// Error names are printed; the pointer of `cudaGetErrorString` is only
/// checked for NULL (tests/errors.rs compares its strings for every code).
fn return_format(func: &str, ret: &str) -> Option<(&'static str, &'static str)> {
    if func == "cudaGetErrorName" {
        return Some(("%s", "r ? r : \"null\""));
    }
    Some(match ret {
        "cudaError_t" | "char" => ("%d", "(int)r"),
        "unsigned" | "unsigned int" => ("%u", "(unsigned)r"),
        "const char *" | "void * *" => ("%s", "r ? \"ptr\" : \"null\""),
        "void" => ("void", ""),
        "struct cudaChannelFormatDesc" => ("{%d,%d,%d,%d,%d}", "r.x, r.y, r.z, r.w, (int)r.f"),
        _ => return None,
    })
}

/// The C++ parameter list of a declaration.
fn param_types(p: &Proto) -> String {
    if p.params.is_empty() {
        "void".into()
    } else {
        p.params
            .iter()
            .map(|x| x.ty.clone())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `harness.cu`: includes, the kernel and symbol, the embedded fatbin,
/// runner.h, then one declaration and one function per export, and the
/// table.
pub fn emit(calls: &[Call], fatbin: &[u8]) -> String {
    let mut s = String::new();
    s.push_str(
        "/* GENERATED by abi-tests/harness/gen.rs from the toolchain's headers: do not edit.\n \
         * One function per export of libcudart.so.13; runner.h runs each in a child. */\n",
    );
    for h in HEADERS {
        let _ = writeln!(s, "#include <{h}>");
    }
    s.push_str(
        "\n/* The harness's own kernel and variable (registered by nvcc's constructors). */\n\
         extern \"C\" __global__ void harness_kernel(int *p) { if (p) *p = 1; }\n\
         __device__ int harness_symbol;\n\
         static int *harness_arg0;\n\
         void *harness_args[] = {&harness_arg0};\n\
         static void *harness_managed_ptr;\n",
    );
    let _ = writeln!(
        s,
        "\n/* A fatbin with harness_lib_kernel and harness_lib_var ({} bytes), for the\n \
         * registration and library calls. */\n\
         __attribute__((aligned(16))) const unsigned char harness_fatbin[] = {{",
        fatbin.len()
    );
    for chunk in fatbin.chunks(24) {
        s.push_str("   ");
        for b in chunk {
            let _ = write!(s, " {b},");
        }
        s.push('\n');
    }
    s.push_str("};\n\n#include \"runner.h\"\n\n");

    for (i, c) in calls.iter().enumerate() {
        let p = &c.proto;
        let _ = writeln!(
            s,
            "extern \"C\" {} hf_{i}({}) __asm__(\"{}\");",
            p.ret,
            param_types(p),
            p.name
        );
    }
    s.push('\n');
    for (i, c) in calls.iter().enumerate() {
        let p = &c.proto;
        let sig: Vec<String> = p
            .params
            .iter()
            .map(|x| format!("{} {}", x.ty, x.name))
            .collect();
        let _ = writeln!(
            s,
            "/* {} {}({}) [{}] */",
            p.ret,
            p.name,
            sig.join(", "),
            p.origin
        );
        let _ = writeln!(s, "static void hc_{i}(struct h_ctx *h) {{");
        if c.bad.iter().any(|b| b.value.contains("h_stack")) {
            // Host memory on the child's stack, for the host-stack cases.
            s.push_str(
                "    unsigned char h_stack[H_BUF];
    memset(h_stack, 0, sizeof h_stack);
",
            );
        }
        for (k, (prm, a)) in p.params.iter().zip(&c.args).enumerate() {
            let ty = &prm.ty;
            match a {
                Arg::Out { int_value } => {
                    let _ = writeln!(
                        s,
                        "    {ty} a{k} = ({ty})h_out(h, {k}, \"{}\", {});",
                        prm.name,
                        if *int_value { "H_INT" } else { "H_RAW" }
                    );
                }
                Arg::In(fields) => {
                    let _ = writeln!(s, "    {ty} a{k} = ({ty})h_in(h, {k});");
                    if !fields.is_empty() {
                        let pointee = ty
                            .strip_suffix(" *")
                            .unwrap_or(ty)
                            .replace("const ", "")
                            .trim()
                            .to_string();
                        let pointee = if pointee.ends_with(" const") {
                            pointee.trim_end_matches(" const").to_string()
                        } else {
                            pointee
                        };
                        let _ = writeln!(s, "    {{ {pointee} *p = ({pointee} *)a{k}; {fields} }}");
                    }
                }
                Arg::Null => {
                    let _ = writeln!(s, "    {ty} a{k} = ({ty})0;");
                }
                Arg::Expr(x) => {
                    let _ = writeln!(s, "    {ty} a{k} = {x};");
                }
                Arg::Fix(f) => {
                    let _ = writeln!(s, "    {ty} a{k} = ({ty})(uintptr_t)h_fixture(h, HF_{f});");
                }
                Arg::Zero => {
                    let _ = writeln!(s, "    {ty} a{k};\n    memset(&a{k}, 0, sizeof a{k});");
                }
            }
        }
        if !c.bad.is_empty() {
            s.push_str(
                "    switch (h->bad) { /* the bad-input matrix */
",
            );
            for (n, b) in c.bad.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "    case {}: a{} = {}; break; /* {} */",
                    n + 1,
                    b.param,
                    b.value,
                    b.id(p)
                );
            }
            s.push_str(
                "    default: break;
    }
",
            );
        }
        let names: Vec<String> = (0..p.params.len()).map(|k| format!("a{k}")).collect();
        let (fmt, vals) = return_format(&p.name, &p.ret).expect("planned");
        s.push_str("    h_before(h);\n");
        if p.ret == "void" {
            let _ = writeln!(s, "    hf_{i}({});", names.join(", "));
            s.push_str("    h_after(h);\n    h_rc(h, \"void\");\n");
        } else {
            let _ = writeln!(s, "    {} r = hf_{i}({});", p.ret, names.join(", "));
            let _ = writeln!(s, "    h_after(h);\n    h_rc(h, \"{fmt}\", {vals});");
        }
        s.push_str("    h_outs(h);\n}\n\n");
    }
    s.push_str(
        "/* (name, function, runs alone in a fresh child even in batch mode: gen.rs, ISOLATED) */\n\
         const struct h_call h_calls[] = {\n",
    );
    for (i, c) in calls.iter().enumerate() {
        let _ = writeln!(
            s,
            "    {{\"{}\", hc_{i}, {}}},",
            c.proto.name,
            u8::from(isolated(&c.proto.name))
        );
    }
    let _ = writeln!(s, "}};\nconst int h_ncalls = {};", calls.len());
    s.push_str("\n/* The bad-input matrix: (id, call, case of the call). */\nconst struct h_case h_cases[] = {\n");
    let mut n = 0;
    for (i, c) in calls.iter().enumerate() {
        for (k, b) in c.bad.iter().enumerate() {
            let _ = writeln!(s, "    {{\"{}\", {i}, {}}},", b.id(&c.proto), k + 1);
            n += 1;
        }
    }
    let _ = writeln!(s, "}};\nconst int h_ncases = {n};");
    s
}

// ---------------------------------------------------------------------------
// Build.

/// What [`build`] made.
pub struct Built {
    pub exe: PathBuf,
    pub source: PathBuf,
    /// The exports, in the order the program runs them.
    pub names: Vec<String>,
    /// The ids of the bad-input matrix's cases, in run order (`--bad`).
    pub cases: Vec<String>,
}

/// Compiles a generated `harness.cu` (its folder holds the stand-in
/// headers) into `exe`; `extra` goes to nvcc too.
fn compile(source: &Path, exe: &Path, extra: &[&str]) {
    let work = source.parent().expect("harness.cu is in a folder");
    run_ok(
        Command::new(nvcc())
            .args(["-cudart", "shared", "-arch=sm_90", "-std=c++17", "-O1"])
            .args(["-Xcompiler", "-Wall,-Wno-unused-function"])
            .arg("-I")
            .arg(work.join("stub"))
            .arg("-I")
            .arg(harness_src_dir())
            .args(extra)
            .arg("-o")
            .arg(exe)
            .arg(source),
    );
}

/// The program of `built` compiled again as `NAME` next to it, with extra
/// nvcc arguments: tests/harness.rs builds one with `-DHARNESS_TEST_HOOKS`
/// (runner.h's test-only hooks), never shipped.
pub fn variant(built: &Built, name: &str, extra: &[&str]) -> PathBuf {
    let exe = built.source.with_file_name(name);
    compile(&built.source, &exe, extra);
    exe
}

const LIB_SOURCE: &str =
    "/* harness_lib.cu: the fatbin harness.cu embeds (generated by gen.rs). */\n\
extern \"C\" __global__ void harness_lib_kernel(int *p) { if (p) *p = 2; }\n\
__device__ int harness_lib_var;\n";

/// Generates `harness.cu` in `work` for `exports` and compiles it with the
/// wheel's nvcc (`-cudart shared`, sm_90) into `work/harness`.
pub fn build(work: &Path, exports: &[String]) -> Result<Built, String> {
    std::fs::create_dir_all(work).map_err(|e| format!("{}: {e}", work.display()))?;
    let (protos, enums) = export_prototypes(work, exports)?;
    let calls = plan(&protos, &enums)?;

    let lib_src = work.join("harness_lib.cu");
    std::fs::write(&lib_src, LIB_SOURCE).map_err(|e| e.to_string())?;
    let fatbin_path = work.join("harness_lib.fatbin");
    run_ok(
        Command::new(nvcc())
            .args(["-fatbin", "-arch=sm_90", "-o"])
            .arg(&fatbin_path)
            .arg(&lib_src),
    );
    let fatbin = std::fs::read(&fatbin_path).map_err(|e| e.to_string())?;

    let source = work.join("harness.cu");
    std::fs::write(&source, emit(&calls, &fatbin)).map_err(|e| e.to_string())?;
    let exe = work.join("harness");
    compile(&source, &exe, &[]);
    Ok(Built {
        exe,
        source,
        names: calls.iter().map(|c| c.proto.name.clone()).collect(),
        cases: calls
            .iter()
            .flat_map(|c| c.bad.iter().map(|b| b.id(&c.proto)))
            .collect(),
    })
}
