#!/usr/bin/env bash
# Where does `import torch` spend its time under each runtime? Runs on the
# GPU machine (bash + python3 with torch):
#
#   pytorch/import-probe.sh OUR_LIB_DIR OUT [ROUNDS]
#
# Alternating rounds of `python3 -c 'import torch'`, each timed by the
# process itself: NVIDIA's runtime (plain python3), ours through
# scripts/with-cudart.sh --env (as bench-run.sh runs it), ours with
# LD_PRELOAD alone (no shim, no alias directory), and LD_PRELOAD with each
# of the other two parts of with-cudart.sh (the Python shim on PYTHONPATH;
# the alias directory and ours on LD_LIBRARY_PATH). Then one run of each with
# `python3 -X importtime` (OUT/importtime.{nvidia,ours}.txt) and one of ours
# with the lifecycle trace (OUT/trace.ours.txt), which shows whether a
# runtime call during the import reached the driver.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
libdir=$(cd "$1" && pwd)
mkdir -p "$2" && out=$(cd "$2" && pwd)
rounds=${3:-5}
lib=$libdir/libcudart.so.13
env_ours=$("$root/scripts/with-cudart.sh" --lib "$libdir" --env)
t() {  # t LABEL SETUP : one timed import in a subshell that evals SETUP
  (
    eval "$2"
    python3 -c 'import time; t = time.perf_counter(); import torch; print("%.1f" % ((time.perf_counter() - t) * 1e3))' 2>/dev/null |
      sed "s/^/$1 /" >>"$out/times.txt"
  )
}
: >"$out/times.txt"
pick() {  # the export lines of env_ours for the named variables
  local v out=
  for v in "$@"; do out+=$(grep "^export $v=" <<<"$env_ours")$'\n'; done
  printf '%s' "$out"
}
for r in $(seq "$rounds"); do
  t nvidia ""
  t ours "$env_ours"
  t preload "export LD_PRELOAD='$lib'"
  t pre+pypath "$(pick LD_PRELOAD PYTHONPATH CUDART_LIB)"
  t pre+ldpath "$(pick LD_PRELOAD LD_LIBRARY_PATH)"
done
python3 -X importtime -c 'import torch' 2>"$out/importtime.nvidia.txt"
(eval "$env_ours"; python3 -X importtime -c 'import torch' 2>"$out/importtime.ours.txt")
(eval "$env_ours"; CUDART_TRACE=1 python3 -c 'import torch' 2>"$out/trace.ours.txt")
python3 - "$out/times.txt" <<'PY'
import statistics, sys
by = {}
for line in open(sys.argv[1]):
    k, v = line.split()
    by.setdefault(k, []).append(float(v))
for k, v in by.items():
    print("%-11s n=%d median %.0f ms  min %.0f  max %.0f" % (k, len(v), statistics.median(v), min(v), max(v)))
PY
