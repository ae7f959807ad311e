#!/usr/bin/env bash
# Builds the insight programs into OUTDIR (and copies run.py there):
#
#   c-samples/insight/build.sh OUTDIR
#
# As ../build.sh: sm_90 machine code + compute_90 PTX, -cudart shared (the
# libcudart.so.13 found at run time is the one under test), NVCC from the
# environment (default: nvcc on PATH, else $CUDA_HOME/bin/nvcc), one log per
# program in OUTDIR/logs/. Exit status 1 if any program failed to build.
set -uo pipefail
src=$(cd "$(dirname "$0")" && pwd)
[[ $# -eq 1 ]] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1/logs" && out=$(cd "$1" && pwd)
if [[ -z ${NVCC:-} ]]; then
  NVCC=$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")
fi
flags=(-O2 -std=c++17 -cudart shared -I"$src"
       -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90)
programs=(check_overflow check_double_free check_pageable_async check_host_deref
          check_use_after_destroy check_launch_freed check_exit_queued
          leaks profile_timed fault_retry)
for n in "${programs[@]}"; do
  rm -f "$out/$n" "$out/logs/$n.rc"
  ( "$NVCC" "${flags[@]}" "$src/$n.cu" -o "$out/$n" >"$out/logs/$n.log" 2>&1
    echo $? >"$out/logs/$n.rc" ) &
done
wait
failed=0
for n in "${programs[@]}"; do
  if [[ $(cat "$out/logs/$n.rc" 2>/dev/null) == 0 && -x $out/$n ]]; then
    echo "  $n ok" >&2
  else
    failed=$((failed + 1))
    echo "  $n FAILED (log: $out/logs/$n.log)" >&2
    sed 's/^/      /' "$out/logs/$n.log" | head -20 >&2
  fi
done
cp "$src/run.py" "$out/"
echo "insight build: ${#programs[@]} programs, $failed failed -> $out" >&2
((failed == 0))
