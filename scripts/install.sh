#!/usr/bin/env bash
# Builds the runtime and installs it into an install prefix laid out as
# CUDA users' tools expect:
#   PREFIX/lib64/libcudart.so.13       the shared runtime (SONAME)
#   PREFIX/lib64/libcudart.so          -> libcudart.so.13 (for -lcudart)
#   PREFIX/lib64/libcudart_static.a    the static runtime (nvcc's default
#                                      -lcudart_static)
#   PREFIX/bin/fatbin                  the fatbin inspector
#   PREFIX/share/cudart-rs/cudart-rs.cmake
#                                      a CMake initial cache (cmake -C) that
#                                      aims CMake projects at the prefix
#
#   scripts/install.sh --prefix DIR
#
# Then: nvcc app.cu -L DIR/lib64 (default flags: the static runtime, ours);
# nvcc -cudart shared app.cu -L DIR/lib64 -Xlinker -rpath=DIR/lib64;
# cmake -C DIR/share/cudart-rs/cudart-rs.cmake -S . -B build;
# a Makefile: -L DIR/lib64 before -lcudart_static -lrt -lpthread -ldl.
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=
while [[ $# -gt 0 ]]; do
  case $1 in
    --prefix) prefix=${2:-}; shift 2 ;;
    --prefix=*) prefix=${1#--prefix=}; shift ;;
    *) echo "install.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -n $prefix ]] || { echo "install.sh: --prefix DIR is required (see --help)" >&2; exit 2; }
mkdir -p "$prefix/lib64" "$prefix/bin" "$prefix/share/cudart-rs"
prefix=$(cd "$prefix" && pwd)

lib=$("$root/scripts/build.sh")
(cd "$root" && cargo build --release -p fatbin --bin fatbin >&2)
bin=$(dirname "$lib")/release/fatbin

install -m 0755 "$lib/libcudart.so" "$prefix/lib64/libcudart.so.13"
ln -sf libcudart.so.13 "$prefix/lib64/libcudart.so"
install -m 0644 "$lib/libcudart_static.a" "$prefix/lib64/libcudart_static.a"
install -m 0755 "$bin" "$prefix/bin/fatbin"
install -m 0644 "$root/scripts/cmake/cudart-rs.cmake" "$prefix/share/cudart-rs/cudart-rs.cmake"
echo "install.sh: installed into $prefix" >&2
