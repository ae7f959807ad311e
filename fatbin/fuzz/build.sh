#!/usr/bin/env bash
# Builds (only builds) the fatbin fuzz targets. cargo-fuzz needs nightly
# features: on stable Rust, RUSTC_BOOTSTRAP=1 enables them.
#   fatbin/fuzz/build.sh
set -euo pipefail
cd "$(dirname "$0")"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(cd ../.. && pwd)/target/h-fatbin}"
RUSTC_BOOTSTRAP=1 cargo fuzz build -O "$@"
