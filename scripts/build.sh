#!/usr/bin/env bash
# Builds libcudart.so.13 (release) and lays the two names users and nvcc
# look for next to cargo's output: target/release/libcudart.so.13 (the
# SONAME) and libcudart.so (cargo's own file, what `-lcudart` finds).
#   scripts/build.sh            -> prints the library folder
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cargo build --release -p cudart --lib >&2
lib="${CARGO_TARGET_DIR:-$root/target}/release"
ln -sf libcudart.so "$lib/libcudart.so.13"
echo "$lib"
