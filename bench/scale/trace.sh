#!/usr/bin/env bash
# Which driver calls each runtime makes in the scale benchmarks that grow
# faster under ours (issue 30), and what they cost: scale programs run once
# under NVIDIA's libcudart.so.13 and once under ours with bench/drvtrace.so
# preloaded (it times every driver call a runtime looked up; calls through
# NVIDIA's private export tables are not seen, and that is an answer too).
#
#   bench/scale/trace.sh SCALE_DIR OUR_LIB_DIR NVIDIA_LIB_DIR OUT
#
# SCALE_DIR is bench/scale/build.sh's output (with drvtrace.so). NVIDIA_LIB_DIR
# may be `auto`, as run.sh takes it. The runs, smaller than run.sh's:
#   alloc    scale_objects alloc, up to 10^5 allocations
#            (cudaPointerGetAttributes: which driver calls, how many)
#   event    scale_objects event, up to 10^5 events (create, destroy)
#   kernels  scale_kernels, libraries of 10 and 1000 kernels, no part 2
#            (dlclose: is cuLibraryUnload called, and what it costs)
# And bench/probe_load's unload path on r99.fatbin (100 kernels) and
# k2000.fatbin (2,000): cuLibraryUnload after launching every kernel
# through its CUkernel, through its function, one kernel, or none; and
# cuModuleUnload of a module of the same image after launching all of it;
# the library loaded with CU_LIBRARY_BINARY_IS_PRESERVED, or its functions
# found by name in its module; each also with CUDA_MODULE_LOADING=EAGER.
# Then scale_kernels with one library of 10^4 kernels, untraced, under
# each runtime with lazy and eager loading, 2 processes each
# (OUT/dlclose-MODE-RUNTIME-ROUND.jsonl, summed up in OUT/dlclose-modes.txt).
# Writes OUT/trace-RUNTIME-RUN.txt (drvtrace's lines: ns since the first
# call, function, result, ns in the call), OUT/bench-RUNTIME-RUN.jsonl (the
# program's own results) and OUT/trace-summary.txt: per run and runtime,
# every driver function with its calls, total ms and mean ns; and every
# cuLibraryUnload with its time.
set -uo pipefail
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
[[ $# -eq 4 ]] || { echo "usage: $0 SCALE_DIR OUR_LIB_DIR NVIDIA_LIB_DIR OUT" >&2; exit 2; }
dir=$(cd "$1" && pwd) || exit 2
ours=$(cd "$2" && pwd) || exit 2
nv=$3
if [[ $nv == auto ]]; then
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [[ -e $d/libcudart.so.13 ]] && { nv=$d; break; }
  done
fi
nv=$(cd "$nv" && pwd) || exit 2
mkdir -p "$4" && out=$(cd "$4" && pwd) || exit 2
[[ -f $dir/drvtrace.so ]] || { echo "trace.sh: no $dir/drvtrace.so (bench/scale/build.sh)" >&2; exit 2; }

libpath() {  # libpath RUNTIME: the LD_LIBRARY_PATH that loads RUNTIME's libcudart
  local lib=$nv
  [[ $1 == ours ]] && lib=$ours
  echo "$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

run() {  # run NAME ENV... -- PROGRAM ARGS...
  local name=$1; shift
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  for rt in nvidia ours; do
    local t0=$SECONDS
    (cd "$dir" && env "${envs[@]}" LD_LIBRARY_PATH="$(libpath "$rt")" \
      LD_PRELOAD="$dir/drvtrace.so" DRVTRACE_FILE="$out/trace-$rt-$name.txt" \
      timeout -k 5 120 "$@" >"$out/bench-$rt-$name.jsonl" 2>"$out/stderr-$rt-$name.txt")
    echo "$name $rt rc=$? $((SECONDS - t0))s"
  done
}

run alloc SCALE_ALLOC_MAX=100000 SCALE_BENCH_SECONDS=30 -- ./scale_objects alloc
run event SCALE_EVENT_MAX=100000 SCALE_BENCH_SECONDS=30 -- ./scale_objects event
run kernels SCALE_KERNELS_SIZES="10 1000" SCALE_KERNELS_MAX=0 SCALE_BENCH_SECONDS=30 -- ./scale_kernels

# The driver's own cost of unloading a library whose kernels were launched
# through their CUkernel, through cuKernelGetFunction's functions (as ours
# does), one of them, or none, and of unloading a module of the same image
# whose functions were all launched (bench/probe_load.c, path unload; no
# runtime). Again with CUDA_MODULE_LOADING=EAGER (every function loaded
# with its library): whether functions loaded together unload for less
# than functions loaded one by one (docs/wholeprog.md, "Costs as work
# grows").
for img in r99.fatbin k2000.fatbin; do
  (cd "$dir" && timeout -k 5 60 ./probe_load unload "$img" "$img") >"$out/unload-$img.txt" 2>&1
  echo "unload probe $img rc=$?"
  (cd "$dir" && CUDA_MODULE_LOADING=EAGER timeout -k 5 60 ./probe_load unload "$img" "$img") \
    >"$out/unload-eager-$img.txt" 2>&1
  echo "unload probe $img, eager loading, rc=$?"
done

# dlclose of a library of 10^4 launched kernels, untraced, under each
# runtime with lazy (the default) and eager loading, two processes each,
# taking turns: whether NVIDIA's runtime's dlclose costs what it costs
# because of how its functions were loaded.
for round in 1 2; do
  for mode in LAZY EAGER; do
    for rt in nvidia ours; do
      (cd "$dir" && CUDA_MODULE_LOADING=$mode LD_LIBRARY_PATH="$(libpath "$rt")" \
        SCALE_KERNELS_SIZES=10000 SCALE_KERNELS_MAX=0 timeout -k 5 60 ./scale_kernels) \
        >"$out/dlclose-$mode-$rt-$round.jsonl" 2>&1
      echo "dlclose $mode $rt round $round rc=$?"
    done
  done
done
for f in "$out"/dlclose-*.jsonl; do
  echo "== $(basename "$f" .jsonl)"
  grep -E 'kernels\.(dlclose|first_launch)' "$f"
done >"$out/dlclose-modes.txt"

python3 "$(dirname "$0")/trace-summary.py" "$out" >"$out/trace-summary.txt"
cat "$out/trace-summary.txt"
