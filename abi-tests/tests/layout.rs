//! Every type and constant of `cudart::abi` against NVIDIA's CUDA 13.0
//! headers and against the CUDA 13.5 headers.
//!
//! Each version's headers are checked against what `abi/` says they have:
//! the 13.0 headers against the 13.0 files and the fields that existed
//! then, the 13.5 headers against everything (a member added later carries
//! `since`, one that 13.5 changed `until`; see `abi/macros.rs`).
//!
//! The list of what is checked comes from the Rust side (`abi::layouts()`
//! and `abi::constants()`, recorded by the `abi!` declaration macro), so a
//! type declared in `abi/` cannot escape. The test writes a C++ program that
//! includes the real headers and prints `sizeof`, `alignof`, each field's
//! `offsetof` and size, and each constant's value; compiles it with the host
//! C++ compiler; runs it; and compares line by line, reporting every
//! mismatch by name. A second test scans the headers (preprocessed) and
//! checks the other direction: every enumerator of a mirrored enum, every
//! enum, struct and union, and every numeric `#define` is present in `abi/`.

#[path = "../layout/headers.rs"]
mod headers;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::process::Command;

use cudart::abi::{self, TypeKind};

/// The CUDA versions whose headers are checked: (CUDART_VERSION, include).
fn include_dir(version: u32) -> std::path::PathBuf {
    match version {
        13000 => abi_tests::cuda_home().join("include"),
        13050 => abi_tests::cuda135_home().join("include"),
        v => panic!("no headers of CUDA {v}"),
    }
}

/// The C++ program printing the headers' view of everything we declare
/// for CUDA `version`.
fn probe_source(version: u32) -> String {
    let mut s = String::from(
        "#include <cstdio>\n#include <cstddef>\n#include <cstdint>\n\
         #include <cuda_runtime_api.h>\n#include <cuda_runtime.h>\n\
         #include <cuda_gl_interop.h>\n#include <cuda_egl_interop.h>\n\n\
         #define T(name, type) std::printf(\"T\\t%s\\t%zu\\t%zu\\n\", name, sizeof(type), alignof(type));\n\
         #define F(name, type, m) std::printf(\"F\\t%s\\t%zu\\t%zu\\n\", name, offsetof(type, m), sizeof(((type *)nullptr)->m));\n\
         #define C(name, value) std::printf(\"C\\t%s\\t%lld\\n\", name, (long long)(value));\n\n\
         int main() {\n",
    );
    let _ = writeln!(
        s,
        "    static_assert(CUDART_VERSION == {version}, \"headers of another CUDA\");"
    );
    for t in abi::layouts_for(version) {
        if t.c_type.is_empty() {
            continue; // anonymous in C: checked through the parent's field
        }
        let _ = writeln!(s, "    T(\"{}\", {})", t.name, t.c_type);
        for f in t.fields.iter().filter(|f| f.in_version(version)) {
            let _ = writeln!(
                s,
                "    F(\"{}.{}\", {}, {})",
                t.name, f.name, t.c_type, f.c_name
            );
        }
    }
    for c in abi::constants_for(version) {
        let _ = writeln!(s, "    C(\"{0}\", {0})", c.c_name());
    }
    s.push_str("    return 0;\n}\n");
    s
}

/// Compiles and runs the probe against the headers of CUDA `version`;
/// returns its `key -> numbers` lines.
fn c_side(version: u32) -> BTreeMap<String, Vec<i128>> {
    let dir = abi_tests::scratch(&format!("layout-{version}"));
    let src = dir.join("probe.cc");
    let exe = dir.join("probe");
    std::fs::write(&src, probe_source(version)).unwrap();
    let stubs = headers::write_stubs(&dir.join("interop-stubs"), headers::INTEROP_STUBS);
    let out = Command::new(headers::cxx())
        .args(["-std=c++17", "-w", "-I"])
        .arg(&stubs)
        .arg("-I")
        .arg(include_dir(version))
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run the C++ compiler");
    if !out.status.success() {
        // A name that the headers do not know: show just the error lines.
        let errors: Vec<String> = String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.contains("error"))
            .map(str::to_string)
            .collect();
        panic!(
            "the layout probe {} does not compile against the CUDA {version} headers \
             (a name in abi/ that C++ does not know?):\n{}",
            src.display(),
            errors.join("\n")
        );
    }
    let run = abi_tests::run_ok(&mut Command::new(&exe));
    let mut map = BTreeMap::new();
    for line in String::from_utf8(run.stdout).unwrap().lines() {
        let mut parts = line.split('\t');
        let kind = parts.next().unwrap();
        let name = parts.next().unwrap();
        let nums = parts.map(|n| n.parse::<i128>().unwrap()).collect();
        map.insert(format!("{kind} {name}"), nums);
    }
    map
}

#[test]
fn layouts_and_constants_match_the_13_0_headers() {
    layouts_and_constants_match(13000);
}

#[test]
fn layouts_and_constants_match_the_13_5_headers() {
    layouts_and_constants_match(13050);
}

fn layouts_and_constants_match(version: u32) {
    let c = c_side(version);
    let mut bad = Vec::new();
    let get = |key: String| {
        c.get(&key)
            .cloned()
            .unwrap_or_else(|| panic!("probe lost {key}"))
    };
    let (mut n_types, mut n_fields, mut n_consts) = (0, 0, 0);

    for t in abi::layouts_for(version) {
        if t.c_type.is_empty() {
            continue;
        }
        n_types += 1;
        let v = get(format!("T {}", t.name));
        let size = size_in(t, version);
        if (size as i128, t.align as i128) != (v[0], v[1]) {
            bad.push(format!(
                "{}: Rust size {} align {}, C size {} align {}",
                t.name, size, t.align, v[0], v[1]
            ));
        }
        for f in t.fields.iter().filter(|f| f.in_version(version)) {
            n_fields += 1;
            let v = get(format!("F {}.{}", t.name, f.name));
            if (f.offset as i128, f.size as i128) != (v[0], v[1]) {
                bad.push(format!(
                    "{}.{}: Rust offset {} size {}, C offset {} size {}",
                    t.name, f.name, f.offset, f.size, v[0], v[1]
                ));
            }
        }
    }
    for k in abi::constants_for(version) {
        n_consts += 1;
        let v = get(format!("C {}", k.c_name()));
        if k.value as i128 != v[0] {
            bad.push(format!("{}: Rust {}, C {}", k.c_name(), k.value, v[0]));
        }
    }
    assert!(
        bad.is_empty(),
        "{} ABI mismatch(es) against the CUDA {version} headers:\n  {}",
        bad.len(),
        bad.join("\n  ")
    );
    eprintln!("CUDA {version}: checked {n_types} types, {n_fields} fields, {n_consts} constants");
}

/// A type's size in the headers of CUDA `version`: the Rust size, or for
/// a struct that a later CUDA grew (members marked `since` a later
/// version), the end of the members that `version` has, aligned.
fn size_in(t: &abi::TypeLayout, version: u32) -> usize {
    if t.kind != TypeKind::Struct || t.fields.iter().all(|f| f.since <= version) {
        return t.size;
    }
    let end = t
        .fields
        .iter()
        .filter(|f| f.in_version(version))
        .map(|f| f.offset + f.size)
        .max()
        .unwrap_or(0);
    end.div_ceil(t.align) * t.align
}

/// Types C declares anonymously without a member name (`c_type` empty) must
/// be used by a field of another declared type, which is checked.
#[test]
fn anonymous_types_are_checked_through_a_parent() {
    let used: BTreeSet<(&str, usize)> = abi::layouts()
        .flat_map(|t| t.fields.iter().map(|f| (f.c_name, f.size)))
        .collect();
    for t in abi::layouts().filter(|t| t.c_type.is_empty()) {
        assert!(
            t.kind == TypeKind::Union,
            "{}: only unions may be anonymous",
            t.name
        );
        assert!(
            used.iter().any(|&(_, size)| size == t.size),
            "{}: no field of a checked type holds it",
            t.name
        );
    }
}

/// The other direction: what the headers declare must be in `abi/`.
#[test]
fn headers_13_0_declare_nothing_that_abi_lacks() {
    headers_declare_nothing_that_abi_lacks(13000);
}

#[test]
fn headers_13_5_declare_nothing_that_abi_lacks() {
    headers_declare_nothing_that_abi_lacks(13050);
}

fn headers_declare_nothing_that_abi_lacks(version: u32) {
    let scan = headers::scan(&include_dir(version));
    let ours_types: BTreeSet<&str> = abi::layouts_for(version).map(|t| t.c_type).collect();
    let ours_consts: BTreeSet<String> = abi::constants_for(version).map(|c| c.c_name()).collect();
    let ours_plain: BTreeSet<&str> = abi::constants_for(version).map(|c| c.name).collect();
    let mut missing = Vec::new();

    for t in abi::layouts_for(version).filter(|t| t.kind == TypeKind::Enum) {
        let Some(list) = scan.enums.get(t.c_type) else {
            missing.push(format!("{}: not an enum of the headers", t.c_type));
            continue;
        };
        for e in list {
            if !ours_consts.contains(&format!("{}::{e}", t.c_type)) {
                missing.push(format!("enumerator {}::{e}", t.c_type));
            }
        }
    }
    for (what, groups) in [
        ("enum", &scan.enum_groups),
        ("struct/union", &scan.record_groups),
    ] {
        for names in groups {
            if !names.iter().any(|n| ours_types.contains(n.as_str())) {
                missing.push(format!("{what} {}", names.join(" / ")));
            }
        }
    }
    for (name, target) in &scan.enumerator_aliases {
        if !ours_plain.contains(name.as_str()) {
            missing.push(format!("#define {name} {target}"));
        }
    }
    for d in &scan.numeric_defines {
        if !ours_plain.contains(d.as_str()) {
            missing.push(format!("#define {d}"));
        }
    }
    eprintln!(
        "CUDA {version}: headers declare {} enums ({} enumerators), {} structs/unions, {} numeric #defines, \
         {} enumerator aliases",
        scan.enum_groups.len(),
        scan.enum_groups
            .iter()
            .map(|g| scan.enums[&g[0]].len())
            .sum::<usize>(),
        scan.record_groups.len(),
        scan.numeric_defines.len(),
        scan.enumerator_aliases.len()
    );
    assert!(
        missing.is_empty(),
        "{} declaration(s) of the CUDA {version} headers missing from cudart/src/abi:\n  {}",
        missing.len(),
        missing.join("\n  ")
    );
}
