#!/usr/bin/env bash
# Builds the diagnostics cases (issue 11) into OUTDIR:
#   diag            the cases, sm_90 + compute_90 like the samples
#   diag_no_image   the same source built for sm_80 only (no PTX)
#   librelfire.so   the library of rel_dlopen_fire (the "dlclosed" case)
#   libdiagstatic.so  a library with its own static runtime ("static" case)
#   c-samples/diag/build.sh OUTDIR
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
NVCC=${NVCC:-nvcc}
common=(-O2 -std=c++17 -cudart shared)
"$NVCC" "${common[@]}" -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
  "$src/diag.cu" -ldl -o "$out/diag"
"$NVCC" "${common[@]}" -gencode arch=compute_80,code=sm_80 "$src/diag.cu" -ldl -o "$out/diag_no_image"
"$NVCC" "${common[@]}" -gencode arch=compute_90,code=sm_90 -rdc=true -shared -Xcompiler -fPIC \
  "$src/../rel_dlopen_fire/firelib.cu" -o "$out/librelfire.so"
"$NVCC" -O2 -std=c++17 -cudart static -gencode arch=compute_90,code=sm_90 -shared -Xcompiler -fPIC \
  "$src/static_lib.cu" -o "$out/libdiagstatic.so"
cp "$src/run.py" "$out/"
