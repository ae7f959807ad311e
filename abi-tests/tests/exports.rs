//! The export test: the built `libcudart.so.13` exports exactly the entry
//! table (`cudart::entry::EXPORTS`), each as a function tagged
//! `name@@libcudart.so.13`, nothing else (no Rust internals), under the
//! SONAME `libcudart.so.13`; every export is a name NVIDIA's newest library
//! (13.5, from its wheel) has, and every function of NVIDIA's 13.0 library
//! is still exported. Prints the coverage of NVIDIA's export list that the
//! README quotes.

use abi_tests::{our_lib_dir, run_ok};
use std::collections::BTreeSet;
use std::process::Command;

/// (name, type, version tag) of every defined dynamic symbol.
fn defined_dynamic_symbols() -> Vec<(String, String, String)> {
    let lib = our_lib_dir().join("libcudart.so.13");
    let out = run_ok(Command::new("readelf").args(["--dyn-syms", "-W"]).arg(&lib));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut syms = Vec::new();
    for line in text.lines() {
        let cols: Vec<&str> = line.split_whitespace().collect();
        // Num: Value Size Type Bind Vis Ndx Name
        if cols.len() < 8 || !cols[0].ends_with(':') || cols[0] == "Num:" || cols[6] == "UND" {
            continue;
        }
        let (name, tag) = match cols[7].split_once("@@") {
            Some((n, t)) => (n.to_string(), t.to_string()),
            None => (cols[7].to_string(), String::new()),
        };
        syms.push((name, cols[3].to_string(), tag));
    }
    syms
}

/// The newest list: NVIDIA's 13.5 `libcudart.so.13`.
fn reference_exports() -> BTreeSet<String> {
    abi_tests::newest_reference_exports().into_iter().collect()
}

#[test]
fn exports_are_exactly_the_entry_table_and_versioned() {
    let table: BTreeSet<String> = cudart::entry::exports().map(String::from).collect();
    assert_eq!(
        table.len(),
        cudart::entry::exports().count(),
        "the entry table names a function twice"
    );

    let mut exported = BTreeSet::new();
    for (name, ty, tag) in defined_dynamic_symbols() {
        if name == "libcudart.so.13" && ty == "OBJECT" {
            continue; // the version node itself
        }
        assert_eq!(ty, "FUNC", "{name} is exported as {ty}, not a function");
        assert_eq!(
            tag, "libcudart.so.13",
            "{name} is not tagged @@libcudart.so.13"
        );
        exported.insert(name);
    }
    let missing: Vec<_> = table.difference(&exported).collect();
    let extra: Vec<_> = exported.difference(&table).collect();
    assert!(
        missing.is_empty(),
        "in the entry table but not exported: {missing:?}"
    );
    assert!(
        extra.is_empty(),
        "exported but not in the entry table: {extra:?}"
    );

    let reference = reference_exports();
    let unknown: Vec<_> = table.difference(&reference).collect();
    assert!(
        unknown.is_empty(),
        "exports NVIDIA's libcudart.so.13 does not have: {unknown:?}"
    );
    let base: BTreeSet<String> = abi_tests::reference_exports().into_iter().collect();
    assert_eq!(base.len(), 422, "NVIDIA's 13.0 list is 422 functions");
    let dropped: Vec<_> = base.difference(&table).collect();
    assert!(
        dropped.is_empty(),
        "functions of NVIDIA's 13.0 libcudart.so.13 not exported: {dropped:?}"
    );
    let gone: Vec<_> = base.difference(&reference).collect();
    assert!(
        gone.is_empty(),
        "13.0 functions the 13.5 list lacks (the lists are wrong): {gone:?}"
    );
    let covered = table.intersection(&reference).count();
    println!(
        "export coverage: {covered} of {} NVIDIA libcudart.so.13 (13.5) functions ({:.1}%)",
        reference.len(),
        100.0 * covered as f64 / reference.len() as f64
    );
}

#[test]
fn soname_and_symlinks() {
    let dir = our_lib_dir();
    let out = run_ok(
        Command::new("readelf")
            .arg("-d")
            .arg(dir.join("libcudart.so.13")),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Library soname: [libcudart.so.13]"),
        "SONAME is not libcudart.so.13:\n{text}"
    );
    assert!(
        dir.join("libcudart.so").exists(),
        "no libcudart.so (for -lcudart) in {}",
        dir.display()
    );
}

/// (start, end) of the named section of the built library.
fn section_range(name: &str) -> Option<(u64, u64)> {
    let lib = our_lib_dir().join("libcudart.so.13");
    let out = run_ok(Command::new("readelf").args(["-SW"]).arg(&lib));
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().find_map(|line| {
        // [Nr] Name Type Address Off Size ...
        let l = line.split_once(']')?.1;
        let cols: Vec<&str> = l.split_whitespace().collect();
        if cols.len() < 5 || cols[0] != name {
            return None;
        }
        let addr = u64::from_str_radix(cols[2], 16).ok()?;
        let size = u64::from_str_radix(cols[4], 16).ok()?;
        Some((addr, addr + size))
    })
}

/// Every defined function of the built library, dynamic and (when the
/// library keeps them) static symbols, with its address.
fn functions() -> Vec<(String, u64)> {
    let lib = our_lib_dir().join("libcudart.so.13");
    let out = run_ok(Command::new("readelf").args(["-sW"]).arg(&lib));
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .filter_map(|line| {
            let cols: Vec<&str> = line.split_whitespace().collect();
            if cols.len() < 8 || cols[3] != "FUNC" || cols[6] == "UND" {
                return None;
            }
            let sym = cols[7].split('@').next()?;
            Some((sym.to_string(), u64::from_str_radix(cols[1], 16).ok()?))
        })
        .collect()
}

/// Whether `sym` is `name`, or `name` with a Rust hash suffix (`17h...E`);
/// `name` ending in `*`: whether `sym` starts with the rest.
fn names(sym: &str, name: &str) -> bool {
    match name.strip_suffix('*') {
        Some(prefix) => sym.starts_with(prefix),
        None => sym == name || sym.strip_prefix(name).is_some_and(|r| r.starts_with("17h")),
    }
}

/// cudart/layout.ld puts what a program runs from its load through its
/// first launch in one output section (fewer pages touched for the first
/// time: docs/first-launch.md, finding 10). The launch path's exports and
/// room functions must be there; a rename that drops one out of the
/// layout's patterns fails here.
#[test]
fn first_launch_code_is_together() {
    let (lo, hi) = section_range(".text.cudart_first")
        .expect("no .text.cudart_first section: is cudart/layout.ld passed to the linker?");
    assert!(
        hi - lo < 128 * 1024,
        "the first-launch section grew to {} bytes",
        hi - lo
    );
    let mut wanted = vec![
        "__cudaPushCallConfiguration",
        "__cudaPopCallConfiguration",
        "__cudaGetKernel",
        "__cudaLaunchKernel",
        "cudaLaunchKernel",
        "cudaFree",
        "cudaMalloc",
        "__cudaRegisterFatBinary",
        "__cudaRegisterFunction",
    ];
    // Room functions, where the library keeps its symbol table.
    let internal = [
        "_ZN6cudart6launch19get_kernel_for_stub",
        "_ZN6cudart8registry15kernel_for_stub",
        "_ZN6cudart8registry6Kernel6handle",
        "_ZN6cudart8registry6Fatbin7library",
        "_ZN6cudart6driver4load",
        "_ZN6cudart7context12bind_primary",
        "_ZN6cudart7handles6lookup",
    ];
    let functions = functions();
    if functions.iter().any(|(sym, _)| names(sym, "_ZN6cudart*")) {
        wanted.extend(internal);
    }
    for name in wanted {
        let found: Vec<_> = functions
            .iter()
            .filter(|(sym, _)| names(sym, name))
            .collect();
        assert!(!found.is_empty(), "{name}: no such function in the library");
        for (full, addr) in found {
            assert!(
                (lo..hi).contains(addr),
                "{full} at {addr:#x} is outside .text.cudart_first ({lo:#x}..{hi:#x})"
            );
        }
    }
}
