#!/usr/bin/env bash
# Prints the rows of the `error_codes!` table in cudart/src/abi/error.rs,
# measured from NVIDIA's libcudart.so.13 of the toolchain wheel: for every
# value in 0..=65535 that NVIDIA's runtime knows, its `cudaGetErrorName`
# and its `cudaGetErrorString`, as `name = value => "string",`. Needs no
# driver and no GPU. Paste the output over the table's rows when the pinned
# toolchain changes; abi-tests/tests/errors.rs compares the two runtimes at
# test time, code by code.
#
#   scripts/error-table.sh [13.5]     (the 13.5 runtime: the strings ours gives)
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
eval "$("$root/scripts/setup-toolchain.sh" --env)"
# The runtime whose strings are measured: the 13.0 wheel's, or 13.5's.
runtime_lib=$CUDA_HOME/lib
[[ ${1:-} == 13.5 ]] && runtime_lib=$("$root/scripts/setup-toolchain.sh" --home 13.5)/lib

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/probe.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>
/* A value NVIDIA's runtime does not know gets this for both calls. */
#define UNKNOWN "unrecognized error code"
/* A C string as a Rust string literal (quote and backslash escaped). */
static void literal(const char *s) {
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') putchar('\\');
        putchar(*s);
    }
    putchar('"');
}
int main(void) {
    for (int code = 0; code <= 65535; code++) {
        const char *n = cudaGetErrorName((cudaError_t)code);
        const char *s = cudaGetErrorString((cudaError_t)code);
        if (!n || !s || strcmp(n, UNKNOWN) == 0) continue;
        printf("    %s = %d => ", n, code);
        literal(s);
        printf(",\n");
    }
    return 0;
}
EOF
gcc -std=c11 -Wall -Werror -I"$CUDA_HOME/include" "$dir/probe.c" \
  -L"$CUDA_HOME/lib" -l:libcudart.so.13 -o "$dir/probe"
LD_LIBRARY_PATH="$runtime_lib" "$dir/probe"
