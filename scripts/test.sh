#!/usr/bin/env bash
# Runs every test of the project on a CPU-only machine (what CI runs):
# toolchain setup, formatting, lints, the library build, unit tests, the
# fatbin-vs-cuobjdump comparisons, ABI layout/error/export tests, the C
# programs against NVIDIA's runtime and ours without a driver, the
# test-double driver call sequences, and the fuzz targets' build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

step() { printf '\n==> %s\n' "$*"; }

step "toolchain (pinned CUDA 13.0 wheels)"
scripts/setup-toolchain.sh
eval "$(scripts/setup-toolchain.sh --env)"

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets -- -D warnings

step "build libcudart.so.13"
scripts/build.sh

step "cargo test (unit, fatbin vs cuobjdump, ABI, C programs, test double)"
cargo test --workspace --release 2>&1 | tee target/test-output.txt

if [[ -x fatbin/fuzz/build.sh ]]; then
  step "fuzz targets build"
  fatbin/fuzz/build.sh
fi

step "all tests passed"
