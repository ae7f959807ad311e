#!/usr/bin/env bash
# Builds (only builds) the project's fuzz targets: the fatbin parser's
# (fatbin/fuzz: container, decompress, host, cubin) and the runtime's
# registration path (cudart/fuzz: registration). cargo-fuzz needs nightly
# features: on stable Rust, RUSTC_BOOTSTRAP=1 enables them. Arguments go to
# both `cargo fuzz build` calls (flags such as --dev); running them, with
# the ledger of executions, is scripts/fuzz-run.sh.
#   fatbin/fuzz/build.sh
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v cargo-fuzz >/dev/null; then
  echo "fuzz/build.sh: installing cargo-fuzz with cargo install (into ${CARGO_HOME:-$HOME/.cargo}/bin)" >&2
  cargo install cargo-fuzz --locked
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(cd ../.. && pwd)/target/h-fatbin}"
export RUSTC_BOOTSTRAP=1
# -O -a: optimized, with debug assertions and overflow checks (an overflow
# that release builds wrap silently is a crash here); scripts/fuzz-run.sh
# runs the same build.
cargo fuzz build -O -a "$@"
# The registration target also compiles a small C shim (a libcuda.so.1 that
# forwards to the target's fake driver) with the system C compiler.
(cd ../../cudart/fuzz && cargo fuzz build -O -a "$@")
