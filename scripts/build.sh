#!/usr/bin/env bash
# Builds the runtime (release) in its two forms, from the same sources, and
# lays the names users, nvcc and CMake look for next to cargo's output
# (target/release, or $CARGO_TARGET_DIR/release):
#   libcudart.so.13     the shared library (SONAME libcudart.so.13)
#   libcudart.so        the same file, what `-lcudart` finds
#   libcudart_static.a  the static runtime, what nvcc's default
#                       `-lcudart_static` finds: one relocatable object
#                       whose only global symbols are the runtime API and
#                       nvcc's __cuda* entry points, all hidden (as in
#                       NVIDIA's archive); Rust's standard library and our
#                       crates are local to it, so they collide with no
#                       other Rust library and no second copy of the runtime
#
#   scripts/build.sh            -> prints the library folder
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release -p cudart --lib >&2
target=${CARGO_TARGET_DIR:-$root/target}
[[ $target == /* ]] || target=$root/$target
lib=$target/release
ln -sf libcudart.so "$lib/libcudart.so.13"

# The static archive, from cargo's staticlib (libcudart.a): link its
# members into one object, keeping only what the entry points reach (the
# constructors and destructors stay: ld keeps .init_array/.fini_array) and
# with the section groups resolved, so no COMDAT of ours can be replaced by
# another library's; keep only the entry points global and hide them; drop
# the debug sections and the standard library's embedded LLVM bitcode
# (.llvmbc, which makes binutils' LLVM plugin fail on the object).
work=$(mktemp -d "${TMPDIR:-/tmp}/cudart-static.XXXXXX")
trap 'rm -rf "$work"' EXIT
obj=$work/cudart_static.o
roots=()
while read -r name; do roots+=(-u "$name"); done < <(
  readelf -s -W "$lib/libcudart.a" |
    awk '$7 != "UND" && $5 == "GLOBAL" && $8 ~ /^(cuda|__cuda)/ { print $8 }' | sort -u)
(( ${#roots[@]} > 0 )) || { echo "build.sh: no entry points in $lib/libcudart.a" >&2; exit 1; }
ld -r --force-group-allocation --gc-sections "${roots[@]}" -o "$obj" \
  --whole-archive "$lib/libcudart.a"
objcopy --remove-section=.llvmbc --remove-section=.llvmcmd --strip-debug \
  --wildcard --keep-global-symbol='cuda*' --keep-global-symbol='__cuda*' "$obj"
python3 "$root/scripts/elf-hide.py" "$obj" 'cuda*' '__cuda*' >/dev/null
rm -f "$work/libcudart_static.a"
ar rcsD "$work/libcudart_static.a" "$obj"
mv -f "$work/libcudart_static.a" "$lib/libcudart_static.a"
echo "$lib"
