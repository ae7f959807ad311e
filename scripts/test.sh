#!/usr/bin/env bash
# Runs every test of the project on a CPU-only machine (what CI runs):
# toolchain setup, formatting, lints, the library build, unit tests, the
# fatbin-vs-cuobjdump comparisons, ABI layout/error/export tests, the C
# programs against NVIDIA's runtime and ours without a driver, the
# test-double driver call sequences, and the fuzz targets' build.
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

step() { printf '\n==> %s\n' "$*"; }

step "toolchain (pinned CUDA 13.0 wheels, and 13.5 beside them)"
scripts/setup-toolchain.sh
eval "$(scripts/setup-toolchain.sh --env)"

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy -D warnings"
cargo clippy --workspace --all-targets -- -D warnings

step "build libcudart.so.13 and libcudart_static.a, install into target/prefix"
scripts/build.sh
# The install-prefix tests (abi-tests/tests/static_runtime.rs) use it.
scripts/install.sh --prefix "${CARGO_TARGET_DIR:-target}/prefix"

step "cargo test (unit, fatbin vs cuobjdump, ABI, C programs, test double)"
# --no-fail-fast: every test file runs and reports, not only those before
# the first failure.
cargo test --workspace --release --no-fail-fast 2>&1 | tee target/test-output.txt

if [[ -x fatbin/fuzz/build.sh ]]; then
  step "fuzz targets build"
  fatbin/fuzz/build.sh
fi

step "all tests passed"
