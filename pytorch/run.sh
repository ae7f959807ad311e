#!/usr/bin/env bash
# Runs pytorch/workload.py under NVIDIA's runtime and under ours, in one
# go on the GPU machine (bash + python3 with torch; no cargo):
#
#   pytorch/run.sh OUR_LIB_DIR OUT [ROUNDS]
#
# NVIDIA's run is plain `python3` (torch loads the libcudart.so.13 of its
# wheel); ours goes through scripts/with-cudart.sh --check, which fails the
# run if any process mapped another libcudart. Rounds alternate (NVIDIA
# first in odd rounds). Writes OUT/{nvidia,ours}.<round>.json and .err;
# pytorch/report.py turns them into the report.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
libdir=$(cd "$1" && pwd)
mkdir -p "$2" && out=$(cd "$2" && pwd)
rounds=${3:-1}
steps=${WORKLOAD_STEPS:-200}
# WORKLOAD_PARTS: a comma-separated subset of the workload's parts.
parts=(${WORKLOAD_PARTS:+--parts "$WORKLOAD_PARTS"})
tmo=${WORKLOAD_TIMEOUT:-300}
export PYTHONFAULTHANDLER=1  # a crash prints the Python stacks (both runtimes)

run_nvidia() {
  timeout "$tmo" python3 "$here/workload.py" --steps "$steps" "${parts[@]}" >"$out/nvidia.$1.json" 2>"$out/nvidia.$1.err"
  echo "nvidia round $1: rc $?" >>"$out/run.log"
}
run_ours() {
  timeout "$tmo" "$root/scripts/with-cudart.sh" --lib "$libdir" --check -- \
    python3 "$here/workload.py" --steps "$steps" "${parts[@]}" >"$out/ours.$1.json" 2>"$out/ours.$1.err"
  local rc=$?
  echo "ours round $1: rc $rc" >>"$out/run.log"
  if ((rc >= 128 && rc != 137)) && [[ ! -e $out/ours.crash ]]; then
    # A crash: again (up to 3 times, until it crashes again) with the
    # lifecycle trace and a native backtrace of the crashing thread: gdb
    # where it exists, else scripts/crash-backtrace.so (preloaded, prints
    # object+offset per frame; resolve ours with addr2line against the
    # unstripped copy gpu-prepare.sh keeps in build/gpu-lib-unstripped).
    : >"$out/ours.crash"
    local cb=$root/scripts/crash-backtrace.so try
    for try in 1 2 3; do
      echo "--- rerun $try with CUDART_TRACE=all" >>"$out/ours.crash"
      if [[ -e $cb ]]; then
        LD_PRELOAD=$cb CUDART_TRACE=all CUDART_TRACE_FILE="$out/ours.crash.trace" timeout "$tmo" \
          "$root/scripts/with-cudart.sh" --lib "$libdir" -- \
          python3 "$here/workload.py" --steps 20 >/dev/null 2>>"$out/ours.crash"
      else
        CUDART_TRACE=all CUDART_TRACE_FILE="$out/ours.crash.trace" timeout "$tmo" \
          "$root/scripts/with-cudart.sh" --lib "$libdir" -- \
          python3 "$here/workload.py" --steps 20 >/dev/null 2>>"$out/ours.crash"
      fi
      rc=$?
      echo "trace rerun $try: rc $rc" >>"$out/ours.crash"
      ((rc >= 128 && rc != 137)) && break
    done
    if command -v gdb >/dev/null; then
      timeout "$tmo" "$root/scripts/with-cudart.sh" --lib "$libdir" -- \
        gdb -q -batch -ex run -ex bt -ex "info threads" -ex "thread apply all bt 8" \
        --args python3 "$here/workload.py" --steps 20 >>"$out/ours.crash" 2>&1
    else
      echo "no gdb on this machine" >>"$out/ours.crash"
    fi
    tail -c 300000 "$out/ours.crash.trace" >"$out/ours.crash.trace.tail" 2>/dev/null
    rm -f "$out/ours.crash.trace"
  fi
}
: >"$out/run.log"
python3 -c 'import torch, sys; print("torch", torch.__version__, "cuda", torch.version.cuda)' >>"$out/run.log" 2>&1
for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then run_nvidia $r; run_ours $r; else run_ours $r; run_nvidia $r; fi
done
cat "$out/run.log"
