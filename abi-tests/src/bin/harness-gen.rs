//! Generates and builds the differential harness (abi-tests/harness) into a
//! folder: `harness-gen OUTDIR` leaves `OUTDIR/harness` (the program),
//! `OUTDIR/harness.cu` (its source), `OUTDIR/calls.txt` (the exports in
//! run order) and `OUTDIR/cases.txt` (the ids of the bad-input matrix's
//! cases, in run order). Used by scripts/harness-prepare.sh; tests/harness.rs builds
//! the same program itself.

#[path = "../../harness/gen/mod.rs"]
mod gen;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 2 {
        eprintln!("usage: harness-gen OUTDIR");
        std::process::exit(2);
    }
    let out = std::path::Path::new(&args[1]);
    match gen::build(out, &gen::export_list()) {
        Ok(built) => {
            let list: String = built.names.iter().map(|n| format!("{n}\n")).collect();
            std::fs::write(out.join("calls.txt"), list).expect("write calls.txt");
            let cases: String = built.cases.iter().map(|n| format!("{n}\n")).collect();
            std::fs::write(out.join("cases.txt"), cases).expect("write cases.txt");
            eprintln!(
                "harness-gen: {} calls, {} bad-input cases, {}",
                built.names.len(),
                built.cases.len(),
                built.exe.display()
            );
        }
        Err(e) => {
            eprintln!("harness-gen: {e}");
            std::process::exit(1);
        }
    }
}
