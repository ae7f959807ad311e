#!/usr/bin/env bash
# The runtime's own cost on the CPU, no GPU needed (bench/README.md, "Where
# the time goes"): builds the no-op driver (nulldrv.c) and cpu_bench.c
# against a libcudart.so.13, then
#   1. wall clock: cpu_bench as it is (median of 5 x 10M calls per call);
#   2. instructions: cpu_bench under valgrind's callgrind, one run per loop,
#      collecting only inside that loop_* function: instructions per call
#      (the loop's own few instructions and the PLT jump included; the
#      no-op driver's share shown apart), reproducible to the instruction,
#      and the functions that cost the most in a launch and in registration.
#
#   bench/cpu/run.sh [LIBDIR] [OUTDIR]
#     LIBDIR  folder holding libcudart.so.13 (default: scripts/build.sh's)
#     OUTDIR  scratch folder (default: /tmp/cpu-bench)
#   CPU_BENCH_N (10000000) and CPU_BENCH_REPS (5): the wall-clock loops;
#   CPU_BENCH_CG_N (200000): the loop length under callgrind (12 runs of
#   a few seconds each);
#   CPU_BENCH_SKIP_WALL=1 / CPU_BENCH_SKIP_CG=1: skip a part.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
libdir=${1:-}
if [[ -z $libdir ]]; then
  libdir=$(cd "$root" && scripts/build.sh)
fi
libdir=$(cd "$libdir" && pwd)
out=${2:-/tmp/cpu-bench}
mkdir -p "$out/drv" "$out/lib"
cc=${CC:-cc}
# A copy of the library: a rebuild during the run changes nothing.
src=$libdir/libcudart.so.13
[[ -e $src ]] || src=$libdir/libcudart.so
cp -L "$src" "$out/lib/libcudart.so.13"

$cc -O2 -fPIC -shared -Wl,-soname,libcuda.so.1 -o "$out/drv/libcuda.so.1" "$here/nulldrv.c"
$cc -O2 -g -o "$out/cpu_bench" "$here/cpu_bench.c" "$out/lib/libcudart.so.13" -ldl
export LD_LIBRARY_PATH="$out/drv:$out/lib"
unset CUDART_TRACE CUDART_TRACE_JSON CUDART_TRACE_FILE CUDA_MODULE_LOADING

echo "# library: $src ($(stat -Lc %s "$src") bytes)"
if [[ -z ${CPU_BENCH_SKIP_WALL:-} ]]; then
  echo "## wall clock ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo), $(nproc) CPUs)"
  "$out/cpu_bench"
  # Registration and the first launch once per process: the median of 15
  # processes (the first launch is cold code: which pages of the library
  # it touches for the first time, cudart/layout.ld).
  for _ in $(seq 15); do
    CPU_BENCH_N=1000 CPU_BENCH_REPS=1 "$out/cpu_bench" | awk '$2 == "registration.k10000" || $2 == "startup.first_launch" { print $2, $3 }'
  done >"$out/once.txt"
  for what in registration.k10000 startup.first_launch; do
    unit=ms
    [[ $what == startup.first_launch ]] && unit=us
    awk -v w="$what" '$1 == w { print $2 }' "$out/once.txt" | sort -g |
      awk -v w="$what" -v u="$unit" '{ v[NR] = $1 } END { printf "CPU %s median of %d processes: %.4f %s (min %.4f, max %.4f)\n", w, NR, v[int((NR + 1) / 2)], u, v[1], v[NR] }'
  done
fi

if [[ -z ${CPU_BENCH_SKIP_CG:-} ]]; then
  n=${CPU_BENCH_CG_N:-200000}
  # Each loop runs n/10+1 (warm-up) + n iterations; registration once.
  iters=$(( n / 10 + 1 + n ))
  echo "## instructions per call (callgrind, $iters calls each; driver: the no-op driver's share)"
  for f in cudaGetLastError cudaPeekAtLastError cudaGetDevice cudaSetDevice_current \
      push_pop_call_configuration launch_chevron_p0 cudaLaunchKernel_p0 cudaLaunchKernel_p8 \
      cudaLaunchKernelExC_p0 raw_cuLaunchKernel_p0 cudaEventCreate_Destroy cudaStreamCreate_Destroy register_10k unregister_10k first_launch; do
    cg=$out/callgrind.$f.out
    CPU_BENCH_N=$n CPU_BENCH_REPS=1 valgrind --tool=callgrind --callgrind-out-file="$cg" \
      --toggle-collect="loop_$f" "$out/cpu_bench" >/dev/null 2>"$out/cg-stderr.txt"
    callgrind_annotate --inclusive=yes --threshold=100 "$cg" 2>/dev/null | awk -v f="$f" -v it="$iters" '
      /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
      /libcuda\.so\.1\]$/ && $0 ~ /:cu[A-Z]/ { gsub(",", "", $1); drv += $1 }
      END {
        if (f == "first_launch") printf "IR %-30s %10d instructions (once: the lazy load and look-up; driver %d)\n", f, total, drv
        else if (f ~ /_10k$/) printf "IR %-30s %10d instructions, %6.1f per kernel\n", f, total, total / 10000
        else printf "IR %-30s %7.1f per call (driver %5.1f, loop and runtime %6.1f)\n", f, total / it, drv / it, (total - drv) / it
      }'
  done
  echo "## top functions (exclusive, launch loop cudaLaunchKernel_p0)"
  callgrind_annotate --threshold=99 "$out/callgrind.cudaLaunchKernel_p0.out" 2>/dev/null |
    awk '/^-+$/ { sep++ } sep >= 3 && /[0-9]/ && NF > 1' | head -12
  echo "## top functions (exclusive, the first launch)"
  callgrind_annotate --threshold=99 "$out/callgrind.first_launch.out" 2>/dev/null |
    awk '/^-+$/ { sep++ } sep >= 3 && /[0-9]/ && NF > 1' | head -16
  echo "## top functions (exclusive, registration of 10,000 kernels)"
  callgrind_annotate --threshold=99 "$out/callgrind.register_10k.out" 2>/dev/null |
    awk '/^-+$/ { sep++ } sep >= 3 && /[0-9]/ && NF > 1' | head -12
fi
