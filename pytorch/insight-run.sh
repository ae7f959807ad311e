#!/usr/bin/env bash
# The runtime's opt-in insight features under PyTorch, on the GPU machine
# (bash + python3 with torch; no cargo):
#
#   pytorch/insight-run.sh OUR_LIB_DIR OUT
#
# 1. fault_oom.py four ways: NVIDIA's runtime and ours without faults
#    (--expect none), ours with cudaMalloc's 2nd call failing once
#    (--expect retry: the caching allocator frees its cache and retries) and
#    with every call from the 2nd failing (--expect oom: PyTorch raises
#    OutOfMemoryError, the script falls back to the CPU).
# 2. workload.py (WORKLOAD_STEPS steps, default 50) under ours with
#    CUDART_PROFILE (JSON to OUT/torch-profile.json), CUDART_LEAKS=1 and
#    CUDART_CHECK=1 at once: its result must still pass, and the stderr
#    keeps the reports (OUT/workload-insight.err).
# 3. profile_compare.py: the same ATen kernels timed by torch.profiler
#    (CUPTI) and by CUDART_PROFILE in one process, compared by kernel.
# Each case's exit code goes to OUT/insight-torch.log as `CASE rc N`.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
libdir=$(cd "$1" && pwd)
mkdir -p "$2" && out=$(cd "$2" && pwd)
log=$out/insight-torch.log
: >"$log"
wrap=("$root/scripts/with-cudart.sh" --lib "$libdir" --check --)
unset CUDART_CHECK CUDART_LEAKS CUDART_PROFILE CUDART_PROFILE_FILE CUDART_FAULTS
export PYTHONFAULTHANDLER=1

case_() {  # case_ NAME COMMAND...
  local name=$1
  shift
  timeout 120 "$@" >"$out/$name.out" 2>"$out/$name.err"
  echo "$name rc $?" >>"$log"
}
case_ oom-none-nvidia python3 "$here/fault_oom.py" --expect none
case_ oom-none-ours "${wrap[@]}" python3 "$here/fault_oom.py" --expect none
case_ oom-retry-ours env CUDART_FAULTS=cudaMalloc:2=cudaErrorMemoryAllocation \
  "${wrap[@]}" python3 "$here/fault_oom.py" --expect retry
case_ oom-oom-ours env CUDART_FAULTS=cudaMalloc:2+=cudaErrorMemoryAllocation \
  "${wrap[@]}" python3 "$here/fault_oom.py" --expect oom
case_ workload-insight env CUDART_PROFILE=1 CUDART_PROFILE_FILE="$out/torch-profile.json" \
  CUDART_LEAKS=1 CUDART_CHECK=1 "${wrap[@]}" \
  python3 "$here/workload.py" --steps "${WORKLOAD_STEPS:-50}"
case_ profile-torch env CUDART_PROFILE=1 CUDART_PROFILE_FILE="$out/profile-ours.json" \
  "${wrap[@]}" python3 "$here/profile_compare.py" run "$out/profile-torch.json"
case_ profile-compare python3 "$here/profile_compare.py" compare "$out/profile-torch.json" "$out/profile-ours.json"
cat "$log"
cat "$out/profile-compare.out"
for f in "$out"/oom-*.err "$out"/workload-insight.err; do
  echo "--- $(basename "$f"): cudart lines"
  grep -E '^(cudart |  )' "$f" | head -n 40
done
