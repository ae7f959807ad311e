#!/usr/bin/env bash
# Where does `import torch` spend its time under each runtime? Runs on the
# GPU machine (bash + python3 with torch):
#
#   pytorch/import-probe.sh OUR_LIB_DIR OUT [ROUNDS]
#
# Alternating rounds of `python3 -X importtime -c 'import torch'`, each
# timed by the process itself (wall, user and system CPU, page faults of
# the import, and the process's wall: OUT/times.txt) with its module timings kept
# (OUT/it/LABEL.ROUND.txt): NVIDIA's runtime (plain python3), ours through
# scripts/with-cudart.sh --env (as bench-run.sh runs it), ours with
# LD_PRELOAD alone (no shim, no alias directory), and LD_PRELOAD with each
# of the other two parts of with-cudart.sh (the Python shim on PYTHONPATH;
# the alias directory and ours on LD_LIBRARY_PATH). IMPORT_LABELS picks
# some of them (default: all five). Then one run of ours with the
# lifecycle trace (OUT/trace.ours.txt), which shows whether a runtime call
# during the import reached the driver. scripts/timport-report.py reads
# OUT: the medians, ours against NVIDIA's with a 95 % interval, and the
# modules whose import time differs most.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
libdir=$(cd "$1" && pwd)
mkdir -p "$2" && out=$(cd "$2" && pwd)
rounds=${3:-5}
lib=$libdir/libcudart.so.13
env_ours=$("$root/scripts/with-cudart.sh" --lib "$libdir" --env)
t() {  # t LABEL ROUND SETUP : one timed import in a subshell that evals SETUP
  (
    eval "$3"
    local t0 line
    t0=$(date +%s%N)
    line=$(python3 -X importtime -c '
import resource, time
r0 = resource.getrusage(resource.RUSAGE_SELF); t = time.perf_counter()
import torch
t = time.perf_counter() - t; r1 = resource.getrusage(resource.RUSAGE_SELF)
print("%.1f %.1f %.1f %d %d" % (t * 1e3, (r1.ru_utime - r0.ru_utime) * 1e3, (r1.ru_stime - r0.ru_stime) * 1e3,
      r1.ru_minflt - r0.ru_minflt, r1.ru_majflt - r0.ru_majflt))' 2>"$out/it/$1.$2.txt")
    # LABEL WALL_MS USER_MS SYS_MS MINFLT MAJFLT PROCESS_WALL_MS
    [[ -n $line ]] && echo "$1 $line $((($(date +%s%N) - t0) / 1000000))" >>"$out/times.txt"
  )
}
: >"$out/times.txt"
mkdir -p "$out/it"
pick() {  # the export lines of env_ours for the named variables
  local v out=
  for v in "$@"; do out+=$(grep "^export $v=" <<<"$env_ours")$'\n'; done
  printf '%s' "$out"
}
setup() {  # setup LABEL: the environment of that way of running
  case $1 in
    nvidia) ;;
    ours) printf '%s' "$env_ours" ;;
    preload) printf "export LD_PRELOAD='%s'" "$lib" ;;
    pre+pypath) pick LD_PRELOAD PYTHONPATH CUDART_LIB ;;
    pre+ldpath) pick LD_PRELOAD LD_LIBRARY_PATH ;;
  esac
}
labels=${IMPORT_LABELS:-nvidia ours preload pre+pypath pre+ldpath}
for r in $(seq "$rounds"); do
  order=$labels
  ((r % 2)) || order=$(printf '%s\n' $labels | tac | tr '\n' ' ')
  for l in $order; do t "$l" "$r" "$(setup "$l")"; done
done
(eval "$env_ours"; CUDART_TRACE=1 python3 -c 'import torch' 2>"$out/trace.ours.txt")
python3 - "$out/times.txt" <<'PY'
import statistics, sys
by = {}
for line in open(sys.argv[1]):
    k, v = line.split()[:2]
    by.setdefault(k, []).append(float(v))
for k, v in by.items():
    print("%-11s n=%d median %.0f ms  min %.0f  max %.0f" % (k, len(v), statistics.median(v), min(v), max(v)))
PY
