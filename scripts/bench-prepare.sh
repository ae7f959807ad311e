#!/usr/bin/env bash
# Prepares the benchmark round trip on this (CPU) machine: builds our
# libcudart.so.13 (scripts/build.sh) and the benchmark programs (bench/,
# with the pinned CUDA 13.0 wheels' nvcc), and lays out the bundle the GPU
# machine runs:
#
#   bench-bundle/lib/libcudart.so.13   ours, debug info stripped
#   bench-bundle/lib-notrace/libcudart.so.13  ours built without the trace
#                                      (cargo --no-default-features: every
#                                      event site compiled out), for the
#                                      launch and call benchmarks (issue 4)
#   bench-bundle/bin/                  bench_* programs, libreg10k.so,
#                                      libreg0.so, torch_first_op.py, torch_ops.py,
#                                      torchbench.py (their helpers), torch_calls.py
#   bench-bundle/nullrt/libcudart.so.13  a no-op runtime: the registration floor
#   bench-bundle/bench-run.sh          copy of scripts/bench-run.sh
#   bench-bundle/BUILD-INFO            commit, dates, tool versions, build time
#
#   scripts/bench-prepare.sh [BUNDLE_DIR]        (default: bench-bundle)
#
# The objects of the generated libraries stay in build/bench/ (git-ignored;
# BENCH_BUILD_DIR names another): the first build compiles 100 units of 100
# kernels (several minutes on a busy machine); later builds only relink.
# BENCH_JOBS sets the parallel compiles (default 2).
# `make -C bench clean O=$PWD/build/bench` starts over.
#
# Then, on the GPU machine (device tool, carry: bench-bundle):
#   bash bench-bundle/bench-run.sh bench-bundle "$OUT"
# and back here:
#   python3 scripts/bench-report.py OUT/bench.json > docs/benchmarks.md
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bundle=${1:-bench-bundle}
limit_mib=60  # the device tool carries at most 64 MiB in all
jobs=${BENCH_JOBS:-2}
t0=$(date +%s)

eval "$(scripts/setup-toolchain.sh --env)"

# 1. Our library, and the same without the trace (its own target folder, so
#    target/release keeps the default build).
libdir=$(scripts/build.sh)
lib=$libdir/libcudart.so.13
[[ -e $lib ]] || { echo "bench-prepare: no libcudart built" >&2; exit 1; }
nt_target=${CARGO_TARGET_DIR:-$root/target}/notrace
CARGO_TARGET_DIR=$nt_target cargo build --release -p cudart --lib --no-default-features >&2
lib_nt=$nt_target/release/libcudart.so
[[ -e $lib_nt ]] || { echo "bench-prepare: no libcudart (notrace) built" >&2; exit 1; }
t1=$(date +%s)

# 2. The programs.
build=${BENCH_BUILD_DIR:-$root/build/bench}
make -C bench -j"$jobs" O="$build" NVCC="$(command -v nvcc)" all >&2
t2=$(date +%s)

# 3. The bundle.
rm -rf "$bundle"
mkdir -p "$bundle/lib" "$bundle/lib-notrace" "$bundle/bin" "$bundle/nullrt"
cp -L "$lib" "$bundle/lib/libcudart.so.13"
strip --strip-debug "$bundle/lib/libcudart.so.13"
cp -L "$lib_nt" "$bundle/lib-notrace/libcudart.so.13"
strip --strip-debug "$bundle/lib-notrace/libcudart.so.13"
cp "$build"/bin/bench_* "$build"/bin/libreg10k.so "$build"/bin/libreg0.so \
  "$build"/bin/torch_first_op.py "$build"/bin/torch_ops.py "$build"/bin/torchbench.py "$build"/bin/torch_calls.py "$build"/bin/drvtrace.so "$build"/bin/ioctltrace.so "$build"/bin/probe_* \
  "$build"/bin/k0.fatbin "$build"/bin/k0.cubin "$build"/bin/r99*.fatbin "$build"/bin/r99.cubin "$build"/bin/k2000.fatbin \
  "$bundle/bin/"
strip --strip-debug "$bundle"/bin/bench_* "$bundle"/bin/probe_* "$bundle"/bin/*.so
cp "$build/nullrt/libcudart.so.13" "$bundle/nullrt/"
cp scripts/bench-run.sh "$bundle/bench-run.sh"
cp scripts/abab.py "$bundle/abab.py"
cp bench/firstlaunch.sh "$bundle/firstlaunch.sh"
mkdir -p "$bundle/scripts"
cp scripts/with-cudart.sh "$bundle/scripts/"
cp -r scripts/pyshim "$bundle/scripts/"
rm -rf "$bundle/scripts/pyshim/__pycache__"
chmod +x "$bundle/bench-run.sh"

commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
changed=$(GIT_OPTIONAL_LOCKS=0 git status --porcelain 2>/dev/null | wc -l)
{
  echo "commit: $commit"
  echo "uncommitted changes: $changed paths"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nvcc: $(nvcc --version | tail -1)"
  echo "rustc: $(rustc --version 2>/dev/null || echo unknown)"
  echo "libcudart.so.13 sha256: $(sha256sum <"$bundle/lib/libcudart.so.13" | cut -c1-16)"
  echo "libcudart.so.13 (notrace) sha256: $(sha256sum <"$bundle/lib-notrace/libcudart.so.13" | cut -c1-16)"
  echo "build seconds: library $((t1 - t0)), programs $((t2 - t1))"
} >"$bundle/BUILD-INFO"

bytes=$(du -sb "$bundle" | cut -f1)
echo "bench-prepare: $bundle: $(find "$bundle" -type f | wc -l) files, $((bytes / 1024)) KiB" \
  "(library $(( $(stat -c %s "$bundle/lib/libcudart.so.13") / 1024 )) KiB," \
  "without the trace $(( $(stat -c %s "$bundle/lib-notrace/libcudart.so.13") / 1024 )) KiB," \
  "libreg10k.so $(( $(stat -c %s "$bundle/bin/libreg10k.so") / 1024 )) KiB);" \
  "built in $(( $(date +%s) - t0 ))s (library $((t1 - t0))s, programs $((t2 - t1))s)" >&2
if (( bytes > limit_mib * 1024 * 1024 )); then
  echo "bench-prepare: bundle over ${limit_mib} MiB; the device tool carries 64 MiB at most" >&2
  exit 1
fi
cat >&2 <<MSG
bench-prepare: ready. Device tool: carry ["$bundle"], timeout_s 600, command:
  bash $bundle/bench-run.sh $bundle "\$OUT"
then: python3 scripts/bench-report.py OUT/bench.json > docs/benchmarks.md
MSG
