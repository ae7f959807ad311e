//! The runtime's view of the driver ABI against the driver's own headers of
//! the CUDA 13.0 and 13.5 wheels: every entry point of every `driver_api!`
//! table, every driver structure and every driver constant the runtime
//! declares (`cudart/src/driver/types.rs`), and the sizes of the runtime
//! types the tables hand to the driver as they are.
//!
//! Signatures. The runtime resolves each entry point by name through
//! `cuGetProcAddress` for a CUDA version; the driver then hands out the
//! newest variant of that name not newer than the version. `cudaTypedefs.h`
//! (and its GL, EGL, VDPAU and profiler siblings) declares one typedef per
//! variant, `PFN_<name>_v<version>`, exactly the type of what the driver
//! hands out: the test picks the newest one at or below the version the
//! table asks for, and asserts in C++ that it is the function type the
//! Rust table declares. The Rust types are spelled in C by
//! `cudart::driver::c_names` (a handle newtype is its `CU...` handle,
//! `*mut T` is `ptr<T>`, a function pointer `fnptr<R, A...>`). Two things
//! count as the same to the ABI: an integer and an enum (or two integers)
//! of one size and signedness (C passes enums as integers; `cuuint64_t` and
//! `unsigned long long` are both 64-bit), and, inside a callback's
//! parameter list only, a Rust `void *` where C has a pointer to an opaque
//! struct (the runtime's callback types name handles as `void *`).
//!
//! Structures and constants: `sizeof`, `alignof`, each field's `offsetof`
//! and size, and each constant's value, asserted at compile time.
//!
//! The headers are read from the wheels at test time; nothing of them is
//! copied here.

#[path = "../layout/headers.rs"]
mod headers;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use cudart::abi::TypeKind;

/// The driver's typedef headers: one `PFN_` typedef per entry point
/// variant.
const TYPEDEF_HEADERS: &[&str] = &[
    "cudaTypedefs.h",
    "cudaGLTypedefs.h",
    "cudaEGLTypedefs.h",
    "cudaVDPAUTypedefs.h",
    "cudaProfilerTypedefs.h",
];

/// VDPAU's types as `cudaVDPAU.h` uses them (32-bit handles and ids, a
/// status enum, the `VdpGetProcAddress` function type), for machines
/// without VDPAU development headers.
const VDPAU_STUB: (&str, &str) = (
    "vdpau/vdpau.h",
    "#include <stdint.h>\n\
     typedef uint32_t VdpDevice;\ntypedef uint32_t VdpVideoSurface;\n\
     typedef uint32_t VdpOutputSurface;\ntypedef uint32_t VdpFuncId;\n\
     typedef enum { VDP_STATUS_OK = 0 } VdpStatus;\n\
     typedef VdpStatus VdpGetProcAddress(VdpDevice device, VdpFuncId function_id, \
     void **function_pointer);\n",
);

/// `cudaProfilerTypedefs.h` includes `cudaProfiler.h`, which the wheels do
/// not ship: what it declares that the typedefs name (the output mode of
/// the profiler's start-up call, which the runtime does not use).
const PROFILER_STUB: (&str, &str) = (
    "cudaProfiler.h",
    "#include <cuda.h>\ntypedef enum { CU_OUT_KEY_VALUE_PAIR = 0, CU_OUT_CSV = 1 } CUoutput_mode;\n",
);

/// The comparison templates: `fn_same<Loose, C, R>` for the header's
/// function pointer type `C` and the Rust one `R`.
const TEMPLATES: &str = r#"
template <class T> using ptr = T *;
template <class T> using cptr = const T *;
template <class R, class... A> using fnptr = R (*)(A...);

template <class T, class = void> struct complete : std::false_type {};
template <class T> struct complete<T, std::void_t<decltype(sizeof(T))>> : std::true_type {};
template <class T> constexpr bool intlike = std::is_integral<T>::value || std::is_enum<T>::value;

template <bool Loose, class C, class R> constexpr bool same();

template <bool Loose, class C, class R, class = void> struct all_same : std::false_type {};
template <bool Loose, class... C, class... R>
struct all_same<Loose, std::tuple<C...>, std::tuple<R...>,
                std::enable_if_t<sizeof...(C) == sizeof...(R)>>
    : std::bool_constant<(same<Loose, C, R>() && ... && true)> {};

template <bool Loose, class C, class R> struct fn_same : std::false_type {};
template <bool Loose, class CR, class... CA, class RR, class... RA>
struct fn_same<Loose, CR (*)(CA...), RR (*)(RA...)>
    : std::bool_constant<same<true, CR, RR>() &&
                         all_same<Loose, std::tuple<CA...>, std::tuple<RA...>>::value> {};

template <bool Loose, class C, class R> constexpr bool same() {
    if constexpr (std::is_same<C, R>::value) {
        return true;
    } else if constexpr (intlike<C> && intlike<R>) {
        return sizeof(C) == sizeof(R) &&
               (std::is_enum<C>::value || std::is_enum<R>::value ||
                std::is_signed<C>::value == std::is_signed<R>::value);
    } else if constexpr (std::is_pointer<C>::value && std::is_pointer<R>::value) {
        using CP = std::remove_pointer_t<C>;
        using RP = std::remove_pointer_t<R>;
        if constexpr (std::is_function<CP>::value && std::is_function<RP>::value) {
            return fn_same<true, C, R>::value;
        } else if constexpr (std::is_function<CP>::value || std::is_function<RP>::value) {
            return false;
        } else if constexpr (std::is_const<CP>::value != std::is_const<RP>::value) {
            return false;
        } else if constexpr (Loose && std::is_void<RP>::value && !std::is_void<CP>::value) {
            return !complete<std::remove_cv_t<CP>>::value;
        } else {
            return same<Loose, std::remove_cv_t<CP>, std::remove_cv_t<RP>>();
        }
    } else {
        return false;
    }
}
"#;

fn include_dir(version: u32) -> PathBuf {
    match version {
        13000 => abi_tests::cuda_home().join("include"),
        13050 => abi_tests::cuda135_home().join("include"),
        v => panic!("no headers of CUDA {v}"),
    }
}

/// The stub headers (GL, EGL, VDPAU, profiler), written under `dir`.
fn stubs(dir: &Path) -> PathBuf {
    let dir = dir.join("stubs");
    headers::write_stubs(&dir, headers::INTEROP_STUBS);
    headers::write_stubs(&dir, &[VDPAU_STUB, PROFILER_STUB])
}

fn includes() -> String {
    let mut s = String::from(
        "#include <cstddef>\n#include <cstdint>\n#include <tuple>\n#include <type_traits>\n",
    );
    for h in TYPEDEF_HEADERS {
        let _ = writeln!(s, "#include <{h}>");
    }
    s
}

/// Entry point name -> the versions of its `PFN_<name>_v<version>`
/// typedefs (the per-thread `_ptds`/`_ptsz` ones left out: same types).
fn pfn_versions(text: &str) -> BTreeMap<String, Vec<u32>> {
    let mut map: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for tok in headers::tokenize(text) {
        let Some(rest) = tok.strip_prefix("PFN_") else {
            continue;
        };
        let Some((name, v)) = rest.rsplit_once("_v") else {
            continue;
        };
        if let Ok(v) = v.parse::<u32>() {
            let list = map.entry(name.to_string()).or_default();
            if !list.contains(&v) {
                list.push(v);
            }
        }
    }
    for list in map.values_mut() {
        list.sort_unstable();
    }
    map
}

/// The value of a pointer-valued `#define NAME ((Type)0xN)` (the cast
/// pointer is no constant expression for `static_assert`): N.
fn pointer_define(text: &str, name: &str) -> Option<i64> {
    let def = text
        .lines()
        .find_map(|l| l.strip_prefix(&format!("#define {name} ")))?;
    let toks = headers::tokenize(def);
    let n = toks
        .iter()
        .rfind(|t| t.starts_with(|c: char| c.is_ascii_digit()))?;
    match n.strip_prefix("0x") {
        Some(hex) => i64::from_str_radix(hex, 16).ok(),
        None => n.parse().ok(),
    }
}

/// A C string literal of `s`.
fn lit(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

struct Probe {
    source: String,
    /// Problems found before compiling (an entry point without a typedef).
    missing: Vec<String>,
    checked: (usize, usize, usize, usize),
}

/// The C++ probe of CUDA `version`'s headers: one `static_assert` per
/// entry point, structure, field, constant and runtime-as-driver type.
fn probe(version: u32, pfns: &BTreeMap<String, Vec<u32>>, text: &str) -> Probe {
    let mut s = includes();
    s.push_str(TEMPLATES);
    let mut missing = Vec::new();
    let (mut n_fns, mut n_types, mut n_fields, mut n_consts) = (0, 0, 0, 0);

    for (table, sigs) in cudart::facade::driver::tables() {
        for sig in sigs {
            let want = sig.version as u32;
            if want > version {
                continue; // not in these headers
            }
            let Some(v) = pfns
                .get(sig.name)
                .and_then(|vs| vs.iter().rev().find(|&&v| v <= want))
            else {
                missing.push(format!(
                    "{table}.{}: the CUDA {version} headers have no PFN_{}_v<N> typedef with N <= {want}",
                    sig.name, sig.name
                ));
                continue;
            };
            n_fns += 1;
            let params = (sig.params)();
            let mut rust = String::from("fnptr<CUresult");
            for p in &params {
                rust.push_str(", ");
                rust.push_str(p);
            }
            rust.push('>');
            let what = format!(
                "{table}.{} (resolved for {want}: PFN_{}_v{v}): the Rust declaration ({}) is not the header's",
                sig.name,
                sig.name,
                params.join(", ")
            );
            let _ = writeln!(
                s,
                "static_assert(fn_same<false, PFN_{}_v{v}, {rust}>::value, {});",
                sig.name,
                lit(&what)
            );
        }
    }

    for (i, t) in cudart::facade::driver::layouts().iter().enumerate() {
        if t.c_type.is_empty() {
            continue; // anonymous in C: checked through the parent's field
        }
        n_types += 1;
        let ty = format!("T{i}");
        let _ = writeln!(s, "using {ty} = {};", t.c_type);
        let _ = writeln!(
            s,
            "static_assert(sizeof({ty}) == {} && alignof({ty}) == {}, {});",
            t.size,
            t.align,
            lit(&format!(
                "{}: Rust size {} align {}",
                t.name, t.size, t.align
            ))
        );
        let kind = if t.kind == TypeKind::Union {
            "union"
        } else {
            "struct"
        };
        for f in t.fields {
            n_fields += 1;
            let _ = writeln!(
                s,
                "static_assert(offsetof({ty}, {m}) == {o} && sizeof(std::declval<{ty} &>().{m}) == {z}, {});",
                lit(&format!(
                    "{kind} {}.{}: Rust offset {} size {}",
                    t.name, f.name, f.offset, f.size
                )),
                m = f.c_name,
                o = f.offset,
                z = f.size,
            );
        }
    }

    for &(rust, c, size, align, since) in cudart::facade::driver::RUNTIME_AS_DRIVER {
        if since > version {
            continue;
        }
        n_types += 1;
        let _ = writeln!(
            s,
            "static_assert(sizeof({c}) == {size} && alignof({c}) == {align}, {});",
            lit(&format!("{rust} as {c}: Rust size {size} align {align}"))
        );
    }

    let since = cudart::facade::driver::constants_since_13_0(version as _);
    for k in cudart::facade::driver::constants().iter().chain(since) {
        n_consts += 1;
        let _ = writeln!(
            s,
            "static_assert((long long)({n}) == {v}LL, {});",
            lit(&format!("{}: Rust {}", k.name, k.value)),
            n = k.name,
            v = k.value,
        );
    }
    for k in cudart::facade::driver::POINTER_CONSTANTS {
        n_consts += 1;
        match pointer_define(text, k.name) {
            Some(v) if v == k.value => {}
            v => missing.push(format!(
                "{}: Rust {}, the CUDA {version} headers {v:?}",
                k.name, k.value
            )),
        }
    }
    s.push_str("int main() { return 0; }\n");
    Probe {
        source: s,
        missing,
        checked: (n_fns, n_types, n_fields, n_consts),
    }
}

/// Compiles the probe; returns the failed assertions' messages (and any
/// other compiler error, whole).
fn compile(version: u32, dir: &Path, stubs: &Path, source: &str) -> Vec<String> {
    let src = dir.join("probe.cc");
    std::fs::write(&src, source).unwrap();
    let out = Command::new(headers::cxx())
        .args(["-std=c++17", "-fsyntax-only", "-w", "-fmax-errors=0", "-I"])
        .arg(stubs)
        .arg("-I")
        .arg(include_dir(version))
        .arg(&src)
        .output()
        .expect("run the C++ compiler");
    if out.status.success() {
        return Vec::new();
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let failed: Vec<String> = stderr
        .lines()
        .filter_map(|l| l.split_once("static assertion failed: "))
        .map(|(_, msg)| msg.to_string())
        .collect();
    let others: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("error") && !l.contains("static assertion failed"))
        .take(20)
        .collect();
    let mut errors = failed;
    if !others.is_empty() {
        errors.push(format!(
            "the probe {} does not compile (a C name the headers do not know?):\n    {}",
            src.display(),
            others.join("\n    ")
        ));
    }
    errors
}

/// A failed signature's message with the header's parameter list of its
/// typedef (`PFN_<name>_v<N>`) appended, as the preprocessed headers spell
/// it.
fn with_header_declaration(msg: String, text: &str) -> String {
    let Some(pfn) = msg
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .find(|w| w.starts_with("PFN_"))
    else {
        return msg;
    };
    let Some(at) = text.find(&format!("*{pfn})(")) else {
        return msg;
    };
    let params = &text[at + pfn.len() + 3..];
    let params = &params[..params.find(");").unwrap_or(params.len())];
    format!("{msg}\n      the header's {pfn}: ({params})")
}

fn driver_abi_matches(version: u32) {
    let dir = abi_tests::scratch(&format!("driver-abi-{version}"));
    let stubs = stubs(&dir);
    let text = headers::preprocess(&[&stubs, &include_dir(version)], &includes());
    let pfns = pfn_versions(&text);
    let p = probe(version, &pfns, &text);
    let mut bad = p.missing.clone();
    bad.extend(
        compile(version, &dir, &stubs, &p.source)
            .into_iter()
            .map(|msg| with_header_declaration(msg, &text)),
    );
    assert!(
        bad.is_empty(),
        "{} driver ABI mismatch(es) against the CUDA {version} headers:\n  {}",
        bad.len(),
        bad.join("\n  ")
    );
    let (f, t, fl, c) = p.checked;
    eprintln!(
        "CUDA {version}: checked {f} driver entry points, {t} types, {fl} fields, {c} constants"
    );
}

#[test]
fn driver_abi_matches_the_13_0_headers() {
    driver_abi_matches(13000);
}

#[test]
fn driver_abi_matches_the_13_5_headers() {
    driver_abi_matches(13050);
}

/// Every table declares each name once, and every signature has a C
/// spelling (a Rust type the test could not name would not compile).
#[test]
fn tables_name_each_entry_point_once() {
    for (table, sigs) in cudart::facade::driver::tables() {
        let mut seen = std::collections::BTreeSet::new();
        for sig in sigs {
            assert!(seen.insert(sig.name), "{table}: {} twice", sig.name);
            for p in (sig.params)() {
                assert!(
                    !p.is_empty(),
                    "{table}.{}: a parameter without a C name",
                    sig.name
                );
            }
        }
    }
}
