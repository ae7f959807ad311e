#!/usr/bin/env bash
# Prepares the static-runtime round trip on this (CPU) machine: installs our
# runtime into build/static-prefix, builds every c-sample three ways with
# the pinned CUDA 13.0 wheels' nvcc, and the launch and call benchmarks with
# nvcc's default flags twice, and lays out the bundle the GPU machine runs:
#
#   static-bundle/lib/libcudart.so.13     ours (for the -cudart shared build)
#   static-bundle/shared.tar.xz           the samples, -cudart shared
#   static-bundle/ours-static.tar.xz      nvcc's default flags, -L our prefix:
#                                         our libcudart_static.a inside
#   static-bundle/nvidia-static.tar.xz    nvcc's default flags: NVIDIA's
#                                         libcudart_static.a (13.0.96) inside
#   static-bundle/bench/{ours,nvidia}/    bench_calls, bench_launch, built the
#                                         same two ways
#   static-bundle/static-run.sh           copy of scripts/static-run.sh
#   static-bundle/BUILD-INFO              commit, archive sizes, link times
#
#   scripts/static-prepare.sh [BUNDLE_DIR]      (default: static-bundle)
#
# Then, on the GPU machine (device tool, carry: static-bundle):
#   bash static-bundle/static-run.sh static-bundle "$OUT"
# and back here:
#   python3 scripts/static-report.py OUT/static > docs/static-report.md
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bundle=${1:-static-bundle}
eval "$(scripts/setup-toolchain.sh --env)"

prefix=$root/build/static-prefix
scripts/install.sh --prefix "$prefix"
out=$root/build/static
rm -rf "$out" "$bundle"
mkdir -p "$out" "$bundle/lib" "$bundle/bench/ours" "$bundle/bench/nvidia"

ok=yes
bash c-samples/build.sh "$out/shared" || ok=no
CUDART_LINK=static CUDART_LINK_DIR=$prefix/lib64 bash c-samples/build.sh "$out/ours-static" || ok=no
CUDART_LINK=static bash c-samples/build.sh "$out/nvidia-static" || ok=no
for set in shared ours-static nvidia-static; do
  (cd "$out/$set" && tar -cf - samples.txt $(cat samples.txt) $(ls ./*.so 2>/dev/null)) |
    xz -9e -T1 >"$bundle/$set.tar.xz"
done
cp -L "$prefix/lib64/libcudart.so.13" "$bundle/lib/libcudart.so.13"
strip --strip-debug "$bundle/lib/libcudart.so.13"
ln -s libcudart.so.13 "$bundle/lib/libcudart.so"

# The benchmarks as nvcc builds them by default (the static runtime).
bflags=(-O2 -std=c++17 -gencode arch=compute_90,code=sm_90)
for b in bench_calls bench_launch; do
  nvcc "${bflags[@]}" -L"$prefix/lib64" "bench/$b.cu" -o "$bundle/bench/ours/$b" -lpthread -ldl
  nvcc "${bflags[@]}" "bench/$b.cu" -o "$bundle/bench/nvidia/$b" -lpthread -ldl
done

# Link time of one program, each archive, best of three (the objects once).
nvcc "${bflags[@]}" -c c-samples/vector_add.cu -Ic-samples -o "$out/va.o"
link_ms() {
  local best=999999 t0 t1 i
  for i in 1 2 3; do
    t0=$EPOCHREALTIME
    nvcc -arch=sm_90 "$out/va.o" "$@" -o "$out/va.link"
    t1=$EPOCHREALTIME
    best=$(awk -v a="$t0" -v b="$t1" -v m="$best" 'BEGIN { t = (b - a) * 1000; print (t < m ? t : m) }')
  done
  printf '%.0f' "$best"
}
cp scripts/static-run.sh "$bundle/static-run.sh"
nv_archive=$CUDA_HOME/lib/libcudart_static.a
{
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "uncommitted changes: $(GIT_OPTIONAL_LOCKS=0 git status --porcelain 2>/dev/null | wc -l) paths"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nvcc: $(nvcc --version | tail -1)"
  echo "archive ours: $(stat -c %s "$prefix/lib64/libcudart_static.a") bytes"
  echo "archive nvidia: $(stat -c %s "$nv_archive") bytes"
  echo "link ms ours: $(link_ms -L"$prefix/lib64")"
  echo "link ms nvidia: $(link_ms)"
  echo "vector_add bytes ours: $(stat -c %s "$out/ours-static/vector_add")"
  echo "vector_add bytes nvidia: $(stat -c %s "$out/nvidia-static/vector_add")"
  echo "samples built: $ok"
} >"$bundle/BUILD-INFO"
cat "$bundle/BUILD-INFO" >&2
echo "static-prepare: $(du -sm "$bundle" | cut -f1) MiB in $bundle" >&2
[[ $ok == yes ]]
