#!/usr/bin/env bash
# Runs the benchmark bundle (made by scripts/bench-prepare.sh) on the GPU
# machine, under NVIDIA's libcudart.so.13 and under ours, alternating, and
# collects every result. Needs bash 4+, coreutils (timeout) and python3.
#
#   bench-run.sh BUNDLE OUT
#
# Method (bench/README.md): every program runs in its own process; the
# in-process benchmarks print medians of 5 repetitions; start-up programs
# print one sample per process and run BENCH_STARTUP_REPS times a round.
# For BENCH_ROUNDS rounds, each program runs under both runtimes back to
# back, NVIDIA first in odd rounds and ours first in even rounds, so slow
# drift of the (shared, virtualized) machine hits both alike. The raw driver
# benchmarks run in the same processes (they do not go through libcudart).
#
#   NVIDIA:  LD_LIBRARY_PATH=<NVIDIA's lib dir>     (torch: plain python3,
#            which loads the libcudart.so.13 of torch's own wheel)
#   ours:    LD_LIBRARY_PATH=BUNDLE/lib             (torch: the environment
#            of scripts/with-cudart.sh --env, made once, so that no other
#            libcudart is mapped next to ours)
#   notrace: LD_LIBRARY_PATH=BUNDLE/lib-notrace     (ours with the trace
#            compiled out; launch and call programs only, run next to ours:
#            NVIDIA, ours, notrace in odd rounds, the reverse in even ones)
#   floor:   LD_LIBRARY_PATH=BUNDLE/nullrt          (registration only)
#
# Every process runs under `timeout`; a crash, an error or a timeout is
# recorded (rc, stderr tail, BENCH_ERROR lines) and the run goes on. A
# program that timed out under ours is not run under ours again. Writes
#   OUT/bench.json     per benchmark: the values of every process for both
#                      runtimes, medians, the raw-driver counterpart, ratios;
#                      every run (rc, wall time, libcudart loaded, errors);
#                      machine, libraries, the bundle's BUILD-INFO
#   OUT/bench-log.txt  machine, progress, a summary table
#   OUT/raw.tar.gz     every stdout and stderr
# and exits 0 unless the arguments are wrong.
#
# Environment:
#   CUDA_LIB_NVIDIA      NVIDIA's libcudart directory (default: the first of
#                        /usr/local/cuda/lib64, /usr/local/cuda/targets/
#                        x86_64-linux/lib holding libcudart.so.13)
#   BENCH_ROUNDS         rounds (default 3)
#   BENCH_STARTUP_REPS   processes per start-up program, runtime and round (3)
#   BENCH_BUDGET         seconds; runs that would start later are skipped and
#                        recorded as such (default 330)
#   BENCH_ONLY           space-separated program ids to run (default: all):
#                        launch calls memory streams graph ctx lazy eager reg
#                        regfloor torch torch_ops
#   BENCH_REP_MS, BENCH_REPS, BENCH_FILTER   passed to the programs (bench.h)
set -uo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac

[[ $# -eq 2 ]] || { echo "usage: $0 BUNDLE OUT" >&2; exit 2; }
bundle=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 2
bin=$bundle/bin
ours_lib=$bundle/lib
notrace_lib=$bundle/lib-notrace
floor_lib=$bundle/nullrt
rounds=${BENCH_ROUNDS:-3}
startup_reps=${BENCH_STARTUP_REPS:-3}
budget=${BENCH_BUDGET:-330}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-run.XXXXXX")
log=$out/bench-log.txt
: >"$log"
t_start=$EPOCHREALTIME

say() { echo "$*" | tee -a "$log" >&2; }
section() { { echo; echo "== $*"; } >>"$log"; }
elapsed() { awk -v a="$t_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d\n", b - a }'; }

nv_lib=${CUDA_LIB_NVIDIA:-}
if [[ -z $nv_lib ]]; then
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [[ -e $d/libcudart.so.13 ]] && { nv_lib=$d; break; }
  done
fi
[[ -n $nv_lib && -e $nv_lib/libcudart.so.13 ]] ||
  say "WARNING: no NVIDIA libcudart.so.13 found (set CUDA_LIB_NVIDIA); NVIDIA runs will fail"
[[ -e $ours_lib/libcudart.so.13 ]] || say "WARNING: $ours_lib/libcudart.so.13 missing"
[[ -e $notrace_lib/libcudart.so.13 ]] || say "NOTE: $notrace_lib/libcudart.so.13 missing: no trace-compiled-out runs"
for f in "$bin"/bench_*; do chmod +x "$f" 2>/dev/null; done  # in case a copy lost the mode

# ---- the programs ----------------------------------------------------------
# id | processes per round and runtime | timeout (s) | wall-time benchmark
# name ("-": none) | command (in BUNDLE/bin) | extra environment | runtimes
# (both: NVIDIA and ours; +notrace: also ours without the trace; floor)
P_ID=() P_REPS=() P_TIMEOUT=() P_WALL=() P_CMD=() P_ENV=() P_RTS=()
prog() {
  P_ID+=("$1"); P_REPS+=("$2"); P_TIMEOUT+=("$3"); P_WALL+=("$4"); P_CMD+=("$5"); P_ENV+=("${6:-}")
  P_RTS+=("${7:-both}")
}
prog launch 1 120 - ./bench_launch "" both+notrace
prog calls 1 60 - ./bench_calls "" both+notrace
prog memory 1 120 - ./bench_memory
prog streams 1 60 - ./bench_streams
prog graph 1 60 - ./bench_graph
prog ctx "$startup_reps" 30 startup.process_wall ./bench_ctx
prog lazy "$startup_reps" 30 startup.k2000_lazy.process_wall ./bench_lazy CUDA_MODULE_LOADING=LAZY
prog eager "$startup_reps" 30 startup.k2000_eager.process_wall ./bench_lazy CUDA_MODULE_LOADING=EAGER
prog reg "$startup_reps" 30 registration.k10000.process_wall ./bench_reg
prog regfloor "$startup_reps" 30 - ./bench_reg BENCH_REG_ONLY=1 floor
prog torch 1 120 torch.process_wall "python3 torch_first_op.py"
prog torch_ops 1 120 - "python3 torch_ops.py"
if [[ -n ${BENCH_ONLY:-} ]]; then
  keep=" $BENCH_ONLY "
  for i in "${!P_ID[@]}"; do
    [[ $keep == *" ${P_ID[$i]} "* ]] || unset "P_ID[$i]"
  done
fi

# ---- machine facts -----------------------------------------------------------
section "machine"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "uname: $(uname -srm)"
  echo "nproc: $(nproc)"
  echo "cpu: $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)"
  if command -v nvidia-smi >/dev/null; then
    echo "gpu: $(timeout 20 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
  else
    echo "nvidia-smi: not found"
  fi
  echo "libcuda.so.1: $(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 /{print $NF; exit}')"
  echo "python3: $(python3 --version 2>&1)"
  echo "LD_LIBRARY_PATH (inherited): ${LD_LIBRARY_PATH:-}"
} >>"$log" 2>&1
section "libraries"
for which in nvidia ours notrace; do
  d=$nv_lib; [[ $which == ours ]] && d=$ours_lib; [[ $which == notrace ]] && d=$notrace_lib
  f=$d/libcudart.so.13
  echo "$which: $f -> $(readlink -f "$f" 2>/dev/null) size $(stat -Lc %s "$f" 2>/dev/null)" >>"$log"
done
[[ -f $bundle/BUILD-INFO ]] && { section "bundle BUILD-INFO"; cat "$bundle/BUILD-INFO" >>"$log"; }

# ---- declarations (no CUDA call: works without a GPU) -------------------------
# Every benchmark a program can print, so that bench.json lists them all,
# with or without results.
section "declarations"
mkdir -p "$work/decl"
for i in "${!P_ID[@]}"; do
  f=$work/decl/${P_ID[$i]}.txt
  for d in "$nv_lib" "$ours_lib"; do
    # shellcheck disable=SC2086  # the command and environment are words on purpose
    (cd "$bin" && exec timeout -k 2 20 env LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        ${P_ENV[$i]} ${P_CMD[$i]} --list) >"$f" 2>>"$log" </dev/null && break
  done
  [[ ${P_WALL[$i]} != - ]] && echo "BENCH_DECL ${P_WALL[$i]} ms" >>"$f"
  echo "${P_ID[$i]}: $(grep -c '^BENCH_DECL' "$f") benchmarks" >>"$log"
done

# ---- PyTorch's environment for ours (scripts/with-cudart.sh --env) -------------
declare -A torch_env
for which in ours notrace; do
  d=$ours_lib; [[ $which == notrace ]] && d=$notrace_lib
  [[ -x $bundle/scripts/with-cudart.sh && -e $d/libcudart.so.13 ]] || continue
  torch_env[$which]=$(env -u LD_PRELOAD -u PYTHONPATH "$bundle/scripts/with-cudart.sh" --lib "$d" --env |
    sed -n 's/^export //p' | tr '\n' ' ')
done

# ---- one run -------------------------------------------------------------------
declare -A nv_time ours_hung
# run_one RUNTIME INDEX ROUND REP
run_one() {
  local rt=$1 i=$2 round=$3 rep=$4
  local id=${P_ID[$i]} libdir=$nv_lib t=${P_TIMEOUT[$i]}
  [[ $rt == ours ]] && libdir=$ours_lib
  [[ $rt == notrace ]] && libdir=$notrace_lib
  [[ $rt == floor ]] && libdir=$floor_lib
  local dir=$work/runs/$id/$rt/r$round-$rep
  mkdir -p "$dir"
  local left=$(( budget - $(elapsed) ))
  if (( left < 3 )); then
    echo skipped >"$dir/rc"; echo "budget of ${budget}s spent" >"$dir/why"
    say "  $(printf '%-6s %-8s r%s-%s skipped (budget spent)' "$rt" "$id" "$round" "$rep")"
    return
  fi
  if [[ $rt == notrace && ! -e $notrace_lib/libcudart.so.13 ]]; then
    echo skipped >"$dir/rc"; echo "no $notrace_lib/libcudart.so.13 in the bundle" >"$dir/why"
    return
  fi
  if [[ $rt != nvidia && -n ${ours_hung[$id/$rt]:-} ]]; then
    echo skipped >"$dir/rc"; echo "timed out in round ${ours_hung[$id/$rt]}" >"$dir/why"
    say "  $(printf '%-6s %-8s r%s-%s skipped (timed out before)' "$rt" "$id" "$round" "$rep")"
    return
  fi
  if [[ $rt != nvidia && -n ${nv_time[$id]:-} ]]; then
    # Ours gets 4x NVIDIA's time + 10 s, at most the program's limit.
    t=$(awk -v n="${nv_time[$id]}" -v hi="$t" 'BEGIN { t = int(4 * n + 10); if (t > hi) t = hi; print t }')
  fi
  (( t > left )) && t=$left
  echo "$t" >"$dir/timeout"
  local -a envs=(-u CUDART_TRACE -u CUDART_TRACE_FILE -u CUDA_MODULE_LOADING -u LD_PRELOAD)
  if [[ $id == torch* ]]; then
    # shellcheck disable=SC2206  # VAR=VALUE words (paths without spaces)
    [[ $rt != nvidia ]] && envs+=(${torch_env[$rt]:-LD_PRELOAD=$libdir/libcudart.so.13})
  else
    envs+=(LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
  fi
  # shellcheck disable=SC2206  # VAR=VALUE words
  [[ -n ${P_ENV[$i]} ]] && envs+=(${P_ENV[$i]})
  local t0 t1 rc
  t0=$EPOCHREALTIME
  # shellcheck disable=SC2086
  (cd "$bin" && exec timeout -k 5 "$t" env "${envs[@]}" ${P_CMD[$i]}) \
    >"$dir/stdout" 2>"$dir/stderr" </dev/null
  rc=$?
  t1=$EPOCHREALTIME
  echo "$rc" >"$dir/rc"
  local wall
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }')
  echo "$wall" >"$dir/wall"
  [[ $rt == nvidia ]] && nv_time[$id]=$wall
  if [[ ${P_WALL[$i]} != - && $rc == 0 ]]; then
    awk -v w="$wall" -v n="${P_WALL[$i]}" 'BEGIN { printf "BENCH %s %.6g ms 1\n", n, w * 1000 }' >"$dir/extra"
  fi
  local verdict=ok
  (( rc == 124 || rc == 137 )) && { verdict="TIMEOUT(${t}s)"; [[ $rt != nvidia ]] && ours_hung[$id/$rt]=$round; }
  (( rc != 0 && rc != 124 && rc != 137 )) && verdict="rc=$rc"
  local nb ne
  nb=$(grep -c '^BENCH ' "$dir/stdout")
  ne=$(grep -c '^BENCH_ERROR' "$dir/stdout")
  say "  $(printf '%-6s %-8s r%s-%s %8.2fs %-14s %3d results %2d errors' "$rt" "$id" "$round" "$rep" "$wall" "$verdict" "$nb" "$ne")"
}

# ---- warm-up (not recorded) -------------------------------------------------
# The first process to touch the driver, the bundle and PyTorch's files pays
# for cold caches; let an unrecorded one do that for both runtimes.
section "warm-up"
warm() {
  local what=$1 t=$2
  shift 2
  local t0=$EPOCHREALTIME rc
  (cd "$bin" && exec timeout -k 5 "$t" env -u CUDART_TRACE -u CUDA_MODULE_LOADING "$@") \
    >/dev/null 2>>"$log" </dev/null
  rc=$?
  say "warm-up $what: rc=$rc $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2fs", b - a }')"
}
for d in "$nv_lib" "$ours_lib"; do
  warm "bench_ctx ($d)" 30 LD_LIBRARY_PATH="$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ./bench_ctx
done
for i in "${!P_ID[@]}"; do
  [[ ${P_ID[$i]} == torch* ]] && { warm "import torch" 120 python3 -c "import torch"; break; }
done

section "runs"
say "bench-run: ${#P_ID[@]} programs, $rounds rounds; NVIDIA lib: ${nv_lib:-none}; ours: $ours_lib; budget ${budget}s"
for (( round = 1; round <= rounds; round++ )); do
  order=(nvidia ours)
  (( round % 2 == 0 )) && order=(ours nvidia)
  say "round $round: ${order[0]} first"
  for i in "${!P_ID[@]}"; do
    for (( rep = 1; rep <= P_REPS[i]; rep++ )); do
      if [[ ${P_RTS[$i]} == floor ]]; then
        run_one floor "$i" "$round" "$rep"
      elif [[ ${P_RTS[$i]} == both+notrace ]]; then
        # The compiled-out build next to ours, on the far side from NVIDIA.
        if [[ ${order[0]} == nvidia ]]; then
          run_one nvidia "$i" "$round" "$rep"
          run_one ours "$i" "$round" "$rep"
          run_one notrace "$i" "$round" "$rep"
        else
          run_one notrace "$i" "$round" "$rep"
          run_one ours "$i" "$round" "$rep"
          run_one nvidia "$i" "$round" "$rep"
        fi
      else
        run_one "${order[0]}" "$i" "$round" "$rep"
        run_one "${order[1]}" "$i" "$round" "$rep"
      fi
    done
  done
done
say "bench-run: runs done in $(elapsed)s"

# ---- results -------------------------------------------------------------------
section "results"
# abab.py (sh, file_info) lies beside this script, in scripts/ or the bundle.
PYTHONPATH="$(cd "$(dirname "$0")" && pwd)${PYTHONPATH:+:$PYTHONPATH}" \
  python3 - "$work" "$out/bench.json" "$bundle" "$nv_lib" "$ours_lib" "$floor_lib" "$rounds" \
    "$startup_reps" "$budget" "$notrace_lib" "${P_ID[@]}" <<'PY' 2>&1 | tee -a "$log" >&2
import glob, json, os, re, statistics, sys, time
from abab import file_info, sh

work, dest, bundle, nv_lib, ours_lib, floor_lib, rounds, startup_reps, budget, notrace_lib = \
    sys.argv[1:11]
programs = list(dict.fromkeys(sys.argv[11:]))
LIBDIR = {"nvidia": nv_lib, "ours": ours_lib, "floor": floor_lib, "notrace": notrace_lib}
HIGHER_IS_BETTER = {"GB/s", "launch/s"}
RUNTIMES = ("nvidia", "ours")


def read(path, limit=None):
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    if limit is not None and len(text) > limit:
        text = "[... %d characters cut ...]\n" % (len(text) - limit) + text[-limit:]
    return text


def wheel_cudart(path):
    """NVIDIA's libcudart.so.13 as shipped in the nvidia-cuda-runtime wheel."""
    return path.replace(os.sep, "/").endswith("/site-packages/nvidia/cu13/lib/libcudart.so.13")


def median(xs):
    return statistics.median(xs) if xs else None


def parse_kv(words):
    kv = {}
    for w in words:
        if "=" in w:
            k, v = w.split("=", 1)
            kv[k] = v
    return kv


# Declarations, in program order: which program prints which benchmark.
benches, order = {}, []


def declare(name, unit, raw, prog=None):
    if name not in benches:
        benches[name] = {"name": name, "group": name.split(".", 1)[0], "unit": unit,
                         "higher_is_better": unit in HIGHER_IS_BETTER, "raw": raw,
                         "is_raw": ".raw_" in name, "program": prog}
        order.append(name)
    b = benches[name]
    if prog and not b.get("program"):
        b["program"] = prog
    return b


for prog in programs:
    for line in (read(os.path.join(work, "decl", prog + ".txt")) or "").splitlines():
        w = line.split()
        if len(w) >= 3 and w[0] == "BENCH_DECL":
            declare(w[1], w[2], parse_kv(w[3:]).get("raw"), prog)

# Every run.
runs = []
values = {}  # (name, runtime) -> list of samples
errors = {}  # (name, runtime) -> list of messages
for d in sorted(glob.glob(os.path.join(work, "runs", "*", "*", "r*"))):
    rt = os.path.basename(os.path.dirname(d))
    prog = os.path.basename(os.path.dirname(os.path.dirname(d)))
    m = re.match(r"r(\d+)-(\d+)$", os.path.basename(d))
    rnd, rep = int(m.group(1)), int(m.group(2))
    rc_text = (read(os.path.join(d, "rc")) or "").strip()
    stdout = read(os.path.join(d, "stdout")) or ""
    extra = read(os.path.join(d, "extra")) or ""
    run = {"program": prog, "runtime": rt, "round": rnd, "rep": rep,
           "skipped": rc_text == "skipped",
           "why_skipped": (read(os.path.join(d, "why")) or "").strip() or None,
           "rc": int(rc_text) if rc_text.lstrip("-").isdigit() else None,
           "wall_s": float((read(os.path.join(d, "wall")) or "0").strip() or 0),
           "timeout_s": int((read(os.path.join(d, "timeout")) or "0").strip() or 0),
           "results": 0, "errors": [], "info": [],
           "stderr_tail": read(os.path.join(d, "stderr"), 3000) or ""}
    run["timed_out"] = run["rc"] in (124, 137)
    libs = []
    for line in (stdout + extra).splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "BENCH" and len(w) >= 4:
            try:
                v = float(w[2])
            except ValueError:
                continue
            kv = parse_kv(w[5:])
            b = declare(w[1], w[3], kv.get("raw"), prog)
            if kv.get("raw") and not b.get("raw"):
                b["raw"] = kv["raw"]
            sample = {"value": v, "round": rnd, "rep": rep}
            for k in ("n", "min", "max", "pair"):
                if k in kv:
                    sample[k] = float(kv[k])
            values.setdefault((w[1], rt), []).append(sample)
            run["results"] += 1
        elif w[0] == "BENCH_ERROR":
            msg = " ".join(w[1:])
            run["errors"].append(msg)
            if len(w) > 1:
                errors.setdefault((w[1], rt), []).append("r%d-%d: %s" % (rnd, rep, msg))
        elif w[0] == "INFO":
            run["info"].append(" ".join(w[1:]))
            if "libcudart" in w:
                p = w[w.index("libcudart") + 1]
                libs.extend(x for x in p.split(",") if x and x != "?")
    run["libcudart"] = sorted(set(os.path.realpath(p) for p in libs))
    want = os.path.realpath(os.path.join(LIBDIR.get(rt, ours_lib), "libcudart.so.13"))
    # torch under NVIDIA's runtime is plain python3: it loads the copy of
    # NVIDIA's libcudart.so.13 from torch's own wheel (nvidia/cu13/lib), as intended.
    run["libcudart_ok"] = bool(run["libcudart"]) and all(
        p == want or (prog.startswith("torch") and rt == "nvidia" and wheel_cudart(p))
        for p in run["libcudart"])
    if not run["skipped"] and run["rc"] not in (0, None) and not run["errors"]:
        run["errors"].append("exit status %s%s" % (run["rc"], " (timeout)" if run["timed_out"] else ""))
    runs.append(run)

# A benchmark its program did not print in a run that ran: say why.
printed = {}
for (name, rt), samples in values.items():
    for x in samples:
        printed.setdefault((name, rt, x["round"], x["rep"]), True)
for run in runs:
    if run["skipped"]:
        continue
    why = "; ".join(run["errors"][:2]) or "rc=%s" % run["rc"]
    for name in order:
        b = benches[name]
        if b.get("program") != run["program"] and not (
                run["runtime"] == "floor" and b.get("program") == "reg"
                and name.startswith(("registration.k10000.ctor_span",
                                     "registration.k10000.dlopen",
                                     "registration.k0_baseline."))):
            continue
        key = (name, run["runtime"], run["round"], run["rep"])
        if key in printed:
            continue
        own = [e for e in run["errors"] if e.split(" ", 1)[0] == name]
        if not own:
            errors.setdefault((name, run["runtime"]), []).append(
                "r%d-%d: no result (%s)" % (run["round"], run["rep"], why[:200]))


def time_ratio(b, num, den):
    """num/den as a ratio of times (lower is better for num)."""
    if num is None or den is None or num == 0 or den == 0:
        return None
    return den / num if b["higher_is_better"] else num / den


out = []
for name in order:
    b = benches[name]
    for rt in RUNTIMES:
        s = sorted(values.get((name, rt), []), key=lambda x: (x["round"], x["rep"]))
        b[rt] = [x["value"] for x in s]
        b[rt + "_samples"] = s
        b[rt + "_median"] = median(b[rt])
        b[rt + "_errors"] = errors.get((name, rt), [])
    raw = b.get("raw")
    if raw:
        for rt in RUNTIMES:
            s = sorted(values.get((raw, rt), []), key=lambda x: (x["round"], x["rep"]))
            b["raw_" + rt] = [x["value"] for x in s]
            b["raw_" + rt + "_median"] = median(b["raw_" + rt])
        b["raw_median"] = median(b["raw_nvidia"] + b["raw_ours"])
    floor = sorted(values.get((name, "floor"), []), key=lambda x: (x["round"], x["rep"]))
    if floor:
        b["floor"] = [x["value"] for x in floor]
        b["floor_median"] = median(b["floor"])
    # Ours with the trace compiled out (issue 4): its median, the raw driver
    # in its processes, and ours (trace compiled in, off) over it.
    nt = sorted(values.get((name, "notrace"), []), key=lambda x: (x["round"], x["rep"]))
    if nt:
        b["notrace"] = [x["value"] for x in nt]
        b["notrace_samples"] = nt
        b["notrace_median"] = median(b["notrace"])
        b["notrace_errors"] = errors.get((name, "notrace"), [])
        b["ratio_ours_notrace"] = time_ratio(b, b["ours_median"], b["notrace_median"])
        b["ratio_notrace_nvidia"] = time_ratio(b, b["notrace_median"], b["nvidia_median"])
        if raw:
            s = sorted(values.get((raw, "notrace"), []), key=lambda x: (x["round"], x["rep"]))
            b["raw_notrace"] = [x["value"] for x in s]
            b["raw_notrace_median"] = median(b["raw_notrace"])
            b["ratio_notrace_raw"] = time_ratio(b, b["notrace_median"], b["raw_notrace_median"])
    b["ratio_ours_nvidia"] = time_ratio(b, b["ours_median"], b["nvidia_median"])
    b["ratio_ours_raw"] = time_ratio(b, b["ours_median"], b.get("raw_ours_median")) if raw else None
    b["ratio_nvidia_raw"] = time_ratio(b, b["nvidia_median"], b.get("raw_nvidia_median")) if raw else None
    # Interleaved with the raw counterpart in each process (bench.h,
    # bench_run_pair): the median over processes of each process's median
    # ratio of adjacent repetitions. Drift within a process cancels; this is
    # the ratio the targets use when present.
    for rt in RUNTIMES + ("notrace",):
        pairs = [x["pair"] for x in values.get((name, rt), []) if "pair" in x]
        if pairs:
            b["pair_" + rt] = pairs
            b["pair_" + rt + "_median"] = median(pairs)
    if b.get("pair_ours_median") is not None:
        b["ratio_ours_raw_unpaired"] = b["ratio_ours_raw"]
        b["ratio_ours_raw"] = b["pair_ours_median"]
    if b.get("pair_nvidia_median") is not None:
        b["ratio_nvidia_raw_unpaired"] = b["ratio_nvidia_raw"]
        b["ratio_nvidia_raw"] = b["pair_nvidia_median"]
    if b.get("pair_notrace_median") is not None and b.get("notrace_median") is not None:
        b["ratio_notrace_raw"] = b["pair_notrace_median"]
    # The same ratio round by round (adjacent processes): its spread shows the noise.
    per_round = []
    nv_by = {(x["round"], x["rep"]): x["value"] for x in b["nvidia_samples"]}
    for x in b["ours_samples"]:
        r = time_ratio(b, x["value"], nv_by.get((x["round"], x["rep"])))
        if r is not None:
            per_round.append(round(r, 4))
    b["ratio_ours_nvidia_paired"] = per_round
    out.append(b)

build_info = {}
for line in (read(os.path.join(bundle, "BUILD-INFO")) or "").splitlines():
    if ":" in line:
        k, v = line.split(":", 1)
        build_info[k.strip()] = v.strip()
smi = sh("timeout 15 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1")
doc = {
    "schema": 1,
    "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "machine": {
        "uname": sh("uname -srm"),
        "nproc": os.cpu_count(),
        "cpu": sh("awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo"),
        "gpu": smi.split(",")[0].strip() if smi.count(",") >= 2 else smi,
        "driver_version": smi.split(",")[1].strip() if smi.count(",") >= 2 else "",
        "gpu_memory": smi.split(",")[2].strip() if smi.count(",") >= 2 else "",
    },
    "build_info": build_info,
    "libraries": {"nvidia": file_info(os.path.join(nv_lib, "libcudart.so.13")),
                  "ours": file_info(os.path.join(ours_lib, "libcudart.so.13")),
                  "notrace": file_info(os.path.join(notrace_lib, "libcudart.so.13"))},
    "settings": {"rounds": int(rounds), "startup_reps": int(startup_reps),
                 "budget_s": int(budget),
                 "rep_ms": os.environ.get("BENCH_REP_MS", "50"),
                 "reps": os.environ.get("BENCH_REPS", "5"),
                 "filter": os.environ.get("BENCH_FILTER", "")},
    "benchmarks": out,
    "runs": runs,
}
ran = [r for r in runs if not r["skipped"]]
doc["summary"] = {
    "benchmarks": len(out),
    "with_both_results": sum(1 for b in out if b["nvidia"] and b["ours"]),
    "runs": len(runs),
    "skipped_runs": len(runs) - len(ran),
    "failed_runs": {rt: sum(1 for r in ran if r["runtime"] == rt and (r["rc"] != 0 or r["errors"]))
                    for rt in RUNTIMES + ("floor", "notrace")},
    "timed_out_runs": {rt: sum(1 for r in ran if r["runtime"] == rt and r["timed_out"])
                       for rt in RUNTIMES + ("floor", "notrace")},
    "libcudart_mismatches": [
        "%s/%s r%d-%d: %s" % (r["program"], r["runtime"], r["round"], r["rep"],
                              ",".join(r["libcudart"]) or "unknown")
        for r in ran if r["results"] and not r["libcudart_ok"]],
}
with open(dest, "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")


def fmt(v):
    return "-" if v is None else "%.4g" % v


failed = {}
for r in ran:
    if r["rc"] != 0 or r["errors"]:
        key = (r["program"], r["runtime"], "rc=%s %s" % (r["rc"], "; ".join(r["errors"][:2])[:240]))
        failed.setdefault(key, []).append("r%d-%d" % (r["round"], r["rep"]))
if failed:
    print("failed runs:")
    for (prog, rt, what), which in sorted(failed.items()):
        print("  %-8s %-6s %s: %s" % (prog, rt, " ".join(which), what))
print("%-48s %-8s %10s %10s %8s %8s" % ("benchmark", "unit", "nvidia", "ours", "ours/nv", "ours/raw"))
for b in out:
    print("%-48s %-8s %10s %10s %8s %8s%s%s" % (b["name"], b["unit"], fmt(b["nvidia_median"]),
          fmt(b["ours_median"]), fmt(b["ratio_ours_nvidia"]), fmt(b["ratio_ours_raw"]),
          "  floor %s" % fmt(b["floor_median"]) if b.get("floor") else "",
          "  notrace %s (ours/notrace %s)" % (fmt(b["notrace_median"]), fmt(b["ratio_ours_notrace"]))
          if b.get("notrace") else ""))
print("summary: " + json.dumps(doc["summary"]))
PY

tar -C "$work" -czf "$out/raw.tar.gz" . 2>>"$log"
say "bench-run: done in $(elapsed)s; $out: $(ls "$out" | tr '\n' ' ')"
rm -rf "$work"
exit 0
