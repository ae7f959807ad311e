#!/usr/bin/env bash
# Runs the static-runtime bundle (scripts/static-prepare.sh) on the GPU
# machine; needs bash, coreutils, xz and python3, no cargo or nvcc.
#
#   static-run.sh BUNDLE OUT
#
# 1. Every c-sample three ways, one after the other per sample: the
#    -cudart shared build on our libcudart.so.13, the default (static)
#    build with our libcudart_static.a inside, and with NVIDIA's inside.
#    Each run under `timeout`, its loader log kept, so whether any
#    libcudart.so was mapped is on record.
# 2. bench_calls and bench_launch (single-thread launches), each built
#    with NVIDIA's static runtime and with ours, alternating, ROUNDS rounds.
# Writes OUT/static/: samples.jsonl (one run a line), bench-<rt>-<prog>-<round>.txt,
# log.txt, BUILD-INFO.
#
# Environment: STATIC_TIMEOUT (per run, 60 s), STATIC_ROUNDS (3),
# STATIC_BUDGET (seconds for the samples, 300).
set -uo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
[[ $# -eq 2 ]] || { echo "usage: $0 BUNDLE OUT" >&2; exit 2; }
bundle=$(cd "$1" && pwd) || exit 2
out=$2/static
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
t_max=${STATIC_TIMEOUT:-60}
rounds=${STATIC_ROUNDS:-3}
budget=${STATIC_BUDGET:-300}
work=$(mktemp -d "${TMPDIR:-/tmp}/static-run.XXXXXX")
log=$out/log.txt
: >"$log"
say() { echo "$*" | tee -a "$log" >&2; }
cp "$bundle/BUILD-INFO" "$out/" 2>/dev/null
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1
} >>"$log"

for set in shared ours-static nvidia-static; do
  mkdir -p "$work/$set"
  xz -dc "$bundle/$set.tar.xz" | tar -xf - -C "$work/$set" || say "cannot unpack $set"
done
mapfile -t samples < <(grep -v '^\s*$' "$work/shared/samples.txt")

# run_one SET SAMPLE: one run; a JSON line to samples.jsonl.
run_one() {
  local set=$1 s=$2 dir=$work/$set libpath=
  [[ $set == shared ]] && libpath=$bundle/lib
  local r=$work/runs/$set/$s
  mkdir -p "$r"
  if [[ ! -x $dir/$s ]]; then
    python3 - "$set" "$s" >>"$out/samples.jsonl" <<'EOF'
import json, sys
print(json.dumps({"set": sys.argv[1], "sample": sys.argv[2], "rc": "missing"}))
EOF
    return
  fi
  local t0=$EPOCHREALTIME rc
  (cd "$dir" && exec timeout -k 5 "$t_max" env -u LD_PRELOAD -u CUDART_TRACE \
     LD_LIBRARY_PATH="$libpath" LD_DEBUG=libs LD_DEBUG_OUTPUT="$r/ld" "./$s") \
    >"$r/stdout" 2>"$r/stderr" </dev/null
  rc=$?
  local t1=$EPOCHREALTIME
  python3 - "$set" "$s" "$rc" "$t0" "$t1" "$r" >>"$out/samples.jsonl" <<'EOF'
import glob, json, sys
set_, s, rc, t0, t1, r = sys.argv[1:]
mapped = set()
for f in glob.glob(r + "/ld.*"):
    for line in open(f, errors="replace"):
        if "calling init:" in line and "libcudart" in line:
            mapped.add(line.split("calling init:")[1].strip())
print(json.dumps({
    "set": set_, "sample": s, "rc": int(rc), "wall_s": round(float(t1) - float(t0), 3),
    "stdout": open(r + "/stdout", errors="replace").read(),
    "stderr_tail": open(r + "/stderr", errors="replace").read()[-1500:],
    "libcudart_mapped": sorted(mapped),
}))
EOF
}

: >"$out/samples.jsonl"
t_start=$(date +%s)
for s in "${samples[@]}"; do
  if (( $(date +%s) - t_start > budget )); then
    say "budget of ${budget}s spent: $s and later skipped"
    break
  fi
  for set in shared ours-static nvidia-static; do run_one "$set" "$s"; done
  say "$s: $(tail -3 "$out/samples.jsonl" | python3 -c 'import json, sys
print(" ".join("%s=%s" % (j["set"], j["rc"]) for j in map(json.loads, sys.stdin)))')"
done

# Benchmarks, alternating runtimes.
for ((i = 1; i <= rounds; i++)); do
  for prog in bench_calls bench_launch; do
    for rt in nvidia ours; do
      filter=
      [[ $prog == bench_launch ]] && filter=launch.
      (cd "$bundle/bench/$rt" && chmod +x "$prog" &&
        timeout -k 5 120 env -u LD_LIBRARY_PATH -u LD_PRELOAD BENCH_FILTER="$filter" "./$prog") \
        >"$out/bench-$rt-$prog-$i.txt" 2>&1
      say "bench round $i $rt $prog: rc $? ($(grep -c '^BENCH ' "$out/bench-$rt-$prog-$i.txt") rows)"
    done
  done
done
rm -rf "$work"
say "static-run: done"
