#!/usr/bin/env bash
# Prepares the GPU round trip on this (CPU) machine: builds our
# libcudart.so.13 and every c-sample with the pinned CUDA 13.0 wheels, and
# lays out the bundle the GPU machine runs:
#
#   gpu-bundle/lib/libcudart.so.13   ours, debug info stripped
#   gpu-bundle/lib/libcudart.so      -> libcudart.so.13
#   gpu-bundle/bin/                  the samples, libkern.so, libdlkern.so,
#                                    samples.txt (run order)
#   gpu-bundle/gpu-run.sh            copy of scripts/gpu-run.sh
#   gpu-bundle/BUILD-INFO            commit, dates, tool versions, checksums
#
#   scripts/gpu-prepare.sh [BUNDLE_DIR]      (default: gpu-bundle)
#
# With CUDA_TOOLKIT=13.5 the samples are built by nvcc 13.5 (including
# cuda135_api, every function 13.5 added) and NVIDIA's 13.5 libcudart.so.13
# goes into BUNDLE_DIR/nvidia, to run them against (docs/versions.md):
#   CUDA_TOOLKIT=13.5 scripts/gpu-prepare.sh gpu-bundle-135
#   CUDA_LIB_NVIDIA=gpu-bundle-135/nvidia bash gpu-bundle-135/gpu-run.sh gpu-bundle-135 "$OUT"
#
# Then, on the GPU machine (device tool, carry: gpu-bundle):
#   bash gpu-bundle/gpu-run.sh gpu-bundle "$OUT"
# and back here:
#   python3 scripts/gpu-report.py --commit <commit> OUT/results.json > docs/gpu-report.md
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bundle=${1:-gpu-bundle}
limit_mib=60  # the device tool carries at most 64 MiB in all

toolkit=${CUDA_TOOLKIT:-13.0}
eval "$(scripts/setup-toolchain.sh --env "$toolkit")"

# 1. Our library.
libdir=$(scripts/build.sh)
lib=$libdir/libcudart.so.13
[[ -e $lib ]] || { echo "gpu-prepare: no libcudart built" >&2; exit 1; }

# 2. The samples (a sample that does not build is reported and left out).
samples_out=build/c-samples
rm -rf "$samples_out"
samples_ok=yes
bash c-samples/build.sh "$samples_out" || samples_ok=no

# 3. The bundle.
rm -rf "$bundle"
mkdir -p "$bundle/lib" "$bundle/bin"
cp -L "$lib" "$bundle/lib/libcudart.so.13"
# The unstripped copy stays here: crash backtraces from the GPU machine
# (object+offset) resolve against it with addr2line.
mkdir -p build/gpu-lib-unstripped
cp -L "$lib" build/gpu-lib-unstripped/libcudart.so.13
strip --strip-debug "$bundle/lib/libcudart.so.13"
ln -s libcudart.so.13 "$bundle/lib/libcudart.so"
cp "$samples_out/samples.txt" "$bundle/bin/"
while read -r s; do cp "$samples_out/$s" "$bundle/bin/"; done <"$samples_out/samples.txt"
# The samples' shared libraries (none when ONLY picks samples without one).
for so in "$samples_out"/*.so; do [[ -e $so ]] && cp "$so" "$bundle/bin/"; done
cp scripts/gpu-run.sh "$bundle/gpu-run.sh"
cp scripts/abab.py "$bundle/abab.py"
chmod +x "$bundle/gpu-run.sh"

# 4. The rest of the GPU round trip (scripts/gpu-all.sh): the diagnostics
#    cases, the PyTorch workload with its launcher, the differential
#    harness in GPU mode.
bash c-samples/diag/build.sh "$bundle/diag" >"$samples_out/logs/diag.log" 2>&1 ||
  { echo "gpu-prepare: the diagnostics cases did not build (see $samples_out/logs/diag.log)" >&2; samples_ok=no; }
mkdir -p "$bundle/pytorch" "$bundle/scripts"
cp pytorch/workload.py pytorch/run.sh pytorch/report.py pytorch/import-probe.sh \
  pytorch/fault_oom.py pytorch/insight-run.sh pytorch/profile_compare.py "$bundle/pytorch/"
bash c-samples/insight/build.sh "$bundle/insight" >"$samples_out/logs/insight.log" 2>&1 ||
  { echo "gpu-prepare: the insight programs did not build (see $samples_out/logs/insight.log)" >&2; samples_ok=no; }
cp scripts/with-cudart.sh scripts/corpus-run.sh scripts/abab.py "$bundle/scripts/"
gcc -O1 -g -shared -fPIC scripts/crash-backtrace.c -o "$bundle/scripts/crash-backtrace.so" -ldl
cp -r scripts/pyshim "$bundle/scripts/"
rm -rf "$bundle/scripts/pyshim/__pycache__"
if [[ -x scripts/harness-prepare.sh ]]; then
  scripts/harness-prepare.sh "$bundle/harness" >"$samples_out/logs/harness.log" 2>&1 ||
    { echo "gpu-prepare: the harness did not build (see $samples_out/logs/harness.log)" >&2; samples_ok=no; }
  cp scripts/harness-run.sh "$bundle/scripts/"
fi
cp scripts/gpu-all.sh "$bundle/gpu-all.sh"
if [[ $toolkit != 13.0 ]]; then
  # NVIDIA's runtime of that toolkit, for CUDA_LIB_NVIDIA on the GPU machine.
  mkdir -p "$bundle/nvidia"
  cp -L "$CUDA_HOME/lib/libcudart.so.13" "$bundle/nvidia/libcudart.so.13"
fi

commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
changed=$(GIT_OPTIONAL_LOCKS=0 git status --porcelain 2>/dev/null | wc -l)
{
  echo "commit: $commit"
  echo "uncommitted changes: $changed paths"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nvcc: $(nvcc --version | tail -1)"
  echo "rustc: $(rustc --version 2>/dev/null || echo unknown)"
  echo "libcudart.so.13 sha256: $(sha256sum <"$bundle/lib/libcudart.so.13" | cut -c1-16)"
  echo "samples: $(wc -l <"$samples_out/samples.txt") built, all built: $samples_ok"
} >"$bundle/BUILD-INFO"

bytes=$(du -sb "$bundle" | cut -f1)
echo "gpu-prepare: $bundle: $(find "$bundle" -type f | wc -l) files, $((bytes / 1024)) KiB" \
  "(library $(( $(stat -c %s "$bundle/lib/libcudart.so.13") / 1024 )) KiB)" >&2
if (( bytes > limit_mib * 1024 * 1024 )); then
  echo "gpu-prepare: bundle over ${limit_mib} MiB; the device tool carries 64 MiB at most" >&2
  exit 1
fi
cat >&2 <<MSG
gpu-prepare: ready (CUDA $toolkit samples). Device tool: carry ["$bundle"] (and
"bench-bundle" from scripts/bench-prepare.sh), timeout_s 600, command:
  bash $bundle/gpu-all.sh $bundle bench-bundle "\$OUT"
or the samples alone:
  bash $bundle/gpu-run.sh $bundle "\$OUT"
MSG
if [[ $toolkit != 13.0 ]]; then
  echo "  against NVIDIA's $toolkit runtime: CUDA_LIB_NVIDIA=$bundle/nvidia bash $bundle/gpu-run.sh $bundle \"\$OUT\"" >&2
fi
[[ $samples_ok == yes ]]
