//! The library's link reads two files cargo does not know about:
//! scripts/cudart-link-gcc.sh passes `libcudart.map` (the version script)
//! and `layout.ld` (the start-up and first-launch code in one place) to
//! the linker. Naming them here relinks the library when either changes
//! (without it, an edit of the layout left a stale library behind).
fn main() {
    println!("cargo:rerun-if-changed=layout.ld");
    println!("cargo:rerun-if-changed=libcudart.map");
    println!("cargo:rerun-if-changed=build.rs");
}
