//! The export test: the built `libcudart.so.13` exports exactly the entry
//! table (`cudart::entry::EXPORTS`), each as a function tagged
//! `name@@libcudart.so.13`, nothing else (no Rust internals), under the
//! SONAME `libcudart.so.13`; every export is a name NVIDIA's library has.
//! Prints the coverage of NVIDIA's export list that the README quotes.

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

fn reference_exports() -> BTreeSet<String> {
    abi_tests::reference_exports().into_iter().collect()
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
    let covered = table.intersection(&reference).count();
    println!(
        "export coverage: {covered} of {} NVIDIA libcudart.so.13 functions ({:.1}%)",
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
