//! `cudaError_t` against NVIDIA's headers and NVIDIA's libcudart.so.13,
//! both of the newest toolchain this runtime follows (13.5: its list is
//! 13.0's and five more codes).
//!
//! A C program linked against NVIDIA's runtime (from the wheel; its
//! `cudaGetErrorName`/`cudaGetErrorString` need no driver and no GPU) prints
//! name and description for every code in our list, for every enumerator
//! the headers define (found by scanning the preprocessed `driver_types.h`)
//! and for a few values that are not error codes. Then:
//! - our list holds every enumerator of the headers, with the same value;
//! - our `name()` and `description()` are NVIDIA's name and string, byte
//!   for byte, for known and unknown codes.
//!
//! A second test checks the exported functions themselves: one C program
//! prints `cudaGetErrorName` and `cudaGetErrorString` for every value in
//! 0..=1100 and for values past that range, once against NVIDIA's runtime
//! and once against ours (`LD_LIBRARY_PATH` switched); the outputs must be
//! identical.

#[path = "../layout/headers.rs"]
mod headers;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Command;

use cudart::abi::cudaError_t;

/// Values that are not error codes (gaps, negatives, past the end).
const NOT_CODES: &[i32] = &[
    -1,
    11,
    33,
    99,
    916,
    998,
    1000,
    9999,
    10001,
    12345,
    65535,
    i32::MAX,
    i32::MIN,
];

/// The values both runtimes are asked about besides 0..=1100: a code past
/// that range (`cudaErrorApiFailureBase`) and values that are no code.
fn past_range() -> impl Iterator<Item = i32> {
    std::iter::once(cudaError_t::cudaErrorApiFailureBase.0).chain(NOT_CODES.iter().copied())
}

struct Nvidia {
    /// code -> (name, description) for every code asked about.
    by_code: BTreeMap<i32, (String, String)>,
    /// header enumerator -> its value.
    enumerators: BTreeMap<String, i32>,
}

fn nvidia() -> Nvidia {
    let home = abi_tests::cuda135_home();
    let scan = headers::scan(&home.join("include"));
    let names = scan
        .enums
        .get("cudaError")
        .expect("enum cudaError in driver_types.h");
    assert!(
        names.len() > 100,
        "scan found only {} cudaError enumerators",
        names.len()
    );

    let mut src = String::from(
        "#include <stdio.h>\n#include <cuda_runtime_api.h>\n\
         static void show(const char *tag, int code) {\n\
         \x20   const char *n = cudaGetErrorName((cudaError_t)code);\n\
         \x20   const char *s = cudaGetErrorString((cudaError_t)code);\n\
         \x20   printf(\"%s\\t%d\\t%s\\t%s\\n\", tag, code, n ? n : \"(null)\", s ? s : \"(null)\");\n\
         }\nint main(void) {\n",
    );
    for e in names {
        let _ = writeln!(src, "    show(\"{e}\", (int){e});");
    }
    for code in cudaError_t::ALL
        .iter()
        .map(|e| e.0)
        .chain(NOT_CODES.iter().copied())
    {
        let _ = writeln!(src, "    show(\"-\", {code});");
    }
    src.push_str("    return 0;\n}\n");

    let exe = compile(&src, "errors", &home, &abi_tests::nvidia135_lib_dir());
    let out = abi_tests::run_ok(
        Command::new(&exe).env("LD_LIBRARY_PATH", abi_tests::nvidia135_lib_dir()),
    );

    let mut nv = Nvidia {
        by_code: BTreeMap::new(),
        enumerators: BTreeMap::new(),
    };
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "bad line from the NVIDIA probe: {line:?}");
        let code: i32 = f[1].parse().unwrap();
        if f[0] != "-" {
            nv.enumerators.insert(f[0].to_string(), code);
        }
        nv.by_code
            .insert(code, (f[2].to_string(), f[3].to_string()));
    }
    nv
}

#[test]
fn error_codes_match_nvidia() {
    let nv = nvidia();
    let mut bad = Vec::new();

    // Every enumerator of the headers is in our list, same name and value.
    for (name, &code) in &nv.enumerators {
        if !cudaError_t::ALL.contains(&cudaError_t(code)) {
            bad.push(format!("{name} = {code}: missing from cudaError_t::ALL"));
        } else if cudaError_t(code).name().to_str().unwrap() != name {
            bad.push(format!(
                "{code}: header says {name}, ours {:?}",
                cudaError_t(code).name()
            ));
        }
    }
    // Our list has no code the headers lack, and no duplicates.
    for (i, e) in cudaError_t::ALL.iter().enumerate() {
        if !nv.enumerators.values().any(|&v| v == e.0) {
            bad.push(format!(
                "{} = {}: not in the headers",
                e.name().to_str().unwrap(),
                e.0
            ));
        }
        if cudaError_t::ALL[..i].contains(e) {
            bad.push(format!("{}: listed twice", e.0));
        }
    }
    // Names and descriptions are NVIDIA's, byte for byte.
    for e in cudaError_t::ALL {
        let (nv_name, nv_desc) = &nv.by_code[&e.0];
        let (name, desc) = (
            e.name().to_str().unwrap(),
            e.description().to_str().unwrap(),
        );
        if name != nv_name {
            bad.push(format!("{}: name {name:?}, NVIDIA's {nv_name:?}", e.0));
        }
        if desc != nv_desc {
            bad.push(format!(
                "{name}: description {desc:?}, NVIDIA's {nv_desc:?}"
            ));
        }
    }
    // Values that are no error code: both strings exactly as NVIDIA's.
    for &code in NOT_CODES {
        let (nv_name, nv_desc) = &nv.by_code[&code];
        let e = cudaError_t(code);
        if e.name().to_str().unwrap() != nv_name || e.description().to_str().unwrap() != nv_desc {
            bad.push(format!(
                "unknown code {code}: ours {:?} / {:?}, NVIDIA's {nv_name:?} / {nv_desc:?}",
                e.name(),
                e.description()
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} cudaError_t problem(s):\n  {}",
        bad.len(),
        bad.join("\n  ")
    );
    eprintln!(
        "{} header enumerators, {} codes, {} non-codes checked against NVIDIA's runtime",
        nv.enumerators.len(),
        cudaError_t::ALL.len(),
        NOT_CODES.len()
    );
}

/// `cudaGetErrorName` and `cudaGetErrorString` of both runtimes' exports,
/// for every value in 0..=1100 and the values of `past_range`: one program,
/// run against NVIDIA's 13.5 `libcudart.so.13` and against ours, must print
/// the same lines (13.0's strings for its codes are the same text).
#[test]
fn exported_strings_match_nvidia() {
    let home = abi_tests::cuda_home();
    let mut src = String::from(
        "#include <stdio.h>\n#include <cuda_runtime_api.h>\n\
         static void show(int code) {\n\
         \x20   const char *n = cudaGetErrorName((cudaError_t)code);\n\
         \x20   const char *s = cudaGetErrorString((cudaError_t)code);\n\
         \x20   printf(\"%d\\t%s\\t%s\\n\", code, n ? n : \"(null)\", s ? s : \"(null)\");\n\
         }\nint main(void) {\n\
         \x20   for (int code = 0; code <= 1100; code++) show(code);\n",
    );
    for code in past_range() {
        let _ = writeln!(src, "    show({code});");
    }
    src.push_str("    return 0;\n}\n");

    let exe = compile(&src, "errors-exported", &home, &abi_tests::nvidia_lib_dir());
    // NVIDIA's 13.5 runtime: the one whose codes and strings ours has.
    let run = |lib: std::path::PathBuf| {
        let out = abi_tests::run_ok(Command::new(&exe).env("LD_LIBRARY_PATH", lib));
        String::from_utf8(out.stdout).unwrap()
    };
    let (nv, ours) = (
        run(abi_tests::nvidia135_lib_dir()),
        run(abi_tests::our_lib_dir()),
    );
    let (nv, ours): (Vec<&str>, Vec<&str>) = (nv.lines().collect(), ours.lines().collect());

    let expected = 1101 + past_range().count();
    assert_eq!(
        nv.len(),
        expected,
        "NVIDIA's runtime printed {} lines",
        nv.len()
    );
    let known = nv
        .iter()
        .filter(|l| !l.ends_with("\tunrecognized error code"))
        .count();
    assert!(known > 100, "NVIDIA's runtime knows only {known} codes");

    let bad: Vec<String> = nv
        .iter()
        .zip(&ours)
        .filter(|(n, o)| n != o)
        .map(|(n, o)| format!("NVIDIA {n:?}\n    ours {o:?}"))
        .collect();
    assert!(
        bad.is_empty() && ours.len() == nv.len(),
        "{} of {} values differ ({} lines from ours):\n  {}",
        bad.len(),
        nv.len(),
        ours.len(),
        bad.join("\n  ")
    );
    eprintln!(
        "{expected} values ({known} codes NVIDIA knows): both runtimes print the same strings"
    );
}

/// Compiles the C program `src` in the scratch folder `name` against the
/// headers under `home` and the `libcudart.so.13` in `lib`; returns the
/// executable.
fn compile(
    src: &str,
    name: &str,
    home: &std::path::Path,
    lib: &std::path::Path,
) -> std::path::PathBuf {
    let dir = abi_tests::scratch(name);
    let (c, exe) = (dir.join(format!("{name}.c")), dir.join(name));
    std::fs::write(&c, src).unwrap();
    abi_tests::run_ok(
        Command::new("gcc")
            .args(["-std=c11", "-Wall", "-Werror", "-I"])
            .arg(home.join("include"))
            .arg(&c)
            .arg("-L")
            .arg(lib)
            .args(["-l:libcudart.so.13", "-o"])
            .arg(&exe),
    );
    exe
}
