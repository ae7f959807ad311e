#!/usr/bin/env bash
# Runs the c-samples of a bundle (made by scripts/gpu-prepare.sh) under
# NVIDIA's libcudart and under ours, on the GPU machine; needs bash,
# coreutils (timeout) and python3, no cargo.
#
#   gpu-run.sh BUNDLE OUT
#
# For each sample, three runs, in three phases (so a hang in ours cannot
# starve NVIDIA's runs):
#   1. NVIDIA's runtime:  LD_LIBRARY_PATH=<NVIDIA's lib dir>:...
#   2. ours:              LD_LIBRARY_PATH=BUNDLE/lib:...
#   3. ours again with CUDART_TRACE=1 (stderr kept: the lifecycle trace)
#      and CUDART_TRACE_JSON (the Perfetto file, checked to parse as
#      trace-event JSON with one lane per thread); failing or differing
#      samples first.
# Every run is under `timeout`, with LD_DEBUG=libs written to a side file,
# so the libcudart.so.13 that was really loaded is on record. Writes
#   OUT/results.json  per sample: rc, wall time, stdout, stderr tail, loaded
#                     libcudart, for both runtimes; identical stdout?; trace
#   OUT/log.txt       machine, driver, libraries, progress
#   OUT/raw.tar.gz    every stdout, stderr and loader log
#
# Environment:
#   CUDA_LIB_NVIDIA        NVIDIA's libcudart directory (default: the first of
#                          /usr/local/cuda/lib64, /usr/local/cuda/targets/
#                          x86_64-linux/lib holding libcudart.so.13)
#   GPU_RUN_TIMEOUT        longest run, seconds (default 60)
#   GPU_RUN_MIN_TIMEOUT    ours gets max(this, 10 x NVIDIA's time), capped by
#                          GPU_RUN_TIMEOUT (default 20)
#   GPU_RUN_TRACE_TIMEOUT  the trace run of a sample whose run timed out (15)
#   GPU_RUN_BUDGET         seconds for all runs together; runs that would
#                          start past it are recorded as skipped (default 420)
set -uo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac

[[ $# -eq 2 ]] || { echo "usage: $0 BUNDLE OUT" >&2; exit 2; }
bundle=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && out=$(cd "$2" && pwd) || exit 2
bin=$bundle/bin
ours_lib=$bundle/lib
max_t=${GPU_RUN_TIMEOUT:-60}
min_t=${GPU_RUN_MIN_TIMEOUT:-20}
trace_hang_t=${GPU_RUN_TRACE_TIMEOUT:-15}
budget=${GPU_RUN_BUDGET:-420}
work=$(mktemp -d "${TMPDIR:-/tmp}/gpu-run.XXXXXX")
log=$out/log.txt
: >"$log"
t_start=$(date +%s)

say() { echo "$*" | tee -a "$log" >&2; }
section() { { echo; echo "== $*"; } >>"$log"; }

nv_lib=${CUDA_LIB_NVIDIA:-}
if [[ -z $nv_lib ]]; then
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [[ -e $d/libcudart.so.13 ]] && { nv_lib=$d; break; }
  done
fi
[[ -n $nv_lib && -e $nv_lib/libcudart.so.13 ]] ||
  say "WARNING: no NVIDIA libcudart.so.13 found (set CUDA_LIB_NVIDIA); NVIDIA runs will fail"
[[ -e $ours_lib/libcudart.so.13 ]] || say "WARNING: $ours_lib/libcudart.so.13 missing"
[[ -f $bin/samples.txt ]] || { say "no $bin/samples.txt"; exit 2; }
mapfile -t samples < <(grep -v '^\s*$' "$bin/samples.txt")
for f in "$bin"/*; do  # in case a copy lost the mode bits
  [[ $f == *.txt ]] || chmod +x "$f" 2>/dev/null
done

# ---- machine facts -----------------------------------------------------
section "machine"
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "uname: $(uname -srm)"
  echo "nproc: $(nproc)"
  if command -v nvidia-smi >/dev/null; then
    echo "nvidia-smi -L:"; nvidia-smi -L 2>&1 | sed 's/^/  /'
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
  else
    echo "nvidia-smi: not found"
  fi
  [[ -r /proc/driver/nvidia/version ]] && { echo "/proc/driver/nvidia/version:"; sed 's/^/  /' /proc/driver/nvidia/version; }
  echo "libcuda.so.1: $(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 /{print $NF; exit}')"
  echo "LD_LIBRARY_PATH (inherited): ${LD_LIBRARY_PATH:-}"
  echo "python3: $(python3 --version 2>&1)"
} >>"$log" 2>&1
section "libraries"
for which in nvidia ours; do
  d=$nv_lib; [[ $which == ours ]] && d=$ours_lib
  f=$d/libcudart.so.13
  {
    echo "$which: $f -> $(readlink -f "$f" 2>/dev/null)"
    echo "  size $(stat -Lc %s "$f" 2>/dev/null) sha256 $(sha256sum <"$f" 2>/dev/null | cut -c1-16)"
  } >>"$log"
done
[[ -f $bundle/BUILD-INFO ]] && { section "bundle BUILD-INFO"; cat "$bundle/BUILD-INFO" >>"$log"; }

# ---- one run -------------------------------------------------------------
# run_one KIND LIBDIR SAMPLE TIMEOUT [VAR=VALUE...]
# Leaves rc, time, stdout, stderr, ld.* (loader log) in $work/SAMPLE/KIND.
run_one() {
  local kind=$1 libdir=$2 s=$3 t=$4
  shift 4
  local dir=$work/$s/$kind
  mkdir -p "$dir"
  local left=$(( budget - ($(date +%s) - t_start) ))
  if (( left < 3 )); then
    echo skipped >"$dir/rc"; echo 0 >"$dir/time"
    say "  $kind $s: skipped (budget of ${budget}s spent)"
    return
  fi
  (( t > left )) && t=$left
  echo "$t" >"$dir/timeout"
  local t0 t1 rc
  t0=$(date +%s.%N)
  (
    cd "$bin" &&
    exec timeout -k 5 "$t" env -u CUDART_TRACE -u CUDART_TRACE_FILE \
      LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      LD_DEBUG=libs LD_DEBUG_OUTPUT="$dir/ld" "$@" "./$s"
  ) >"$dir/stdout" 2>"$dir/stderr" </dev/null
  rc=$?
  t1=$(date +%s.%N)
  echo "$rc" >"$dir/rc"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >"$dir/time"
  local verdict=fail
  [[ $rc == 0 && "$(grep -v '^\s*$' "$dir/stdout" | tail -1)" == "PASS $s" ]] && verdict=pass
  (( rc == 124 || rc == 137 )) && verdict="TIMEOUT(${t}s)"
  say "  $(printf '%-6s %-24s rc=%-4s %7ss %s' "$kind" "$s" "$rc" "$(cat "$dir/time")" "$verdict")"
}

# Timeout for ours: 10x NVIDIA's time, at least min_t, at most max_t.
ours_timeout() {
  local nt
  nt=$(cat "$work/$1/nvidia/time" 2>/dev/null || echo 0)
  awk -v n="$nt" -v lo="$min_t" -v hi="$max_t" \
    'BEGIN { t = int(10 * n + 1); if (t < lo) t = lo; if (t > hi) t = hi; print t }'
}

section "runs"
say "gpu-run: ${#samples[@]} samples; NVIDIA lib: ${nv_lib:-none}; ours: $ours_lib; budget ${budget}s"
say "phase 1: NVIDIA's libcudart"
for s in "${samples[@]}"; do run_one nvidia "$nv_lib" "$s" "$max_t"; done
say "phase 2: our libcudart"
for s in "${samples[@]}"; do run_one ours "$ours_lib" "$s" "$(ours_timeout "$s")"; done
say "phase 3: our libcudart with CUDART_TRACE=1 (failing or differing first)"
first=() rest=()
for s in "${samples[@]}"; do
  if [[ "$(cat "$work/$s/ours/rc")" != 0 ]] ||
     ! cmp -s "$work/$s/ours/stdout" "$work/$s/nvidia/stdout"; then
    first+=("$s")
  else
    rest+=("$s")
  fi
done
for s in "${first[@]}" "${rest[@]}"; do
  t=$(ours_timeout "$s")
  case "$(cat "$work/$s/ours/rc")" in 124|137) t=$trace_hang_t ;; esac
  mkdir -p "$work/$s/trace"
  run_one trace "$ours_lib" "$s" "$t" CUDART_TRACE=1 CUDART_TRACE_JSON="$work/$s/trace/trace.json"
done

# ---- results ---------------------------------------------------------------
section "results"
# abab.py (sh, file_info) lies beside this script, in scripts/ or the bundle.
PYTHONPATH="$(cd "$(dirname "$0")" && pwd)${PYTHONPATH:+:$PYTHONPATH}" \
  python3 - "$work" "$out/results.json" "$bundle" "$nv_lib" "$ours_lib" "$log" \
    "$budget" "$max_t" "$min_t" "${samples[@]}" <<'PY' 2>&1 | tee -a "$log" >&2
import difflib, glob, json, os, re, sys, time
from abab import file_info, sh

work, dest, bundle, nv_lib, ours_lib, log, budget, max_t, min_t = sys.argv[1:10]
samples = sys.argv[10:]
TAIL = 6000  # characters kept of stderr / trace tails


def read(path, limit=None):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    text = data.decode("utf-8", "replace")
    if limit is not None and len(text) > limit:
        text = "[... %d characters cut ...]\n" % (len(text) - limit) + text[-limit:]
    return text


def loaded_libcudart(run_dir):
    """Paths of every libcudart the loader initialised (LD_DEBUG=libs)."""
    found = []
    for f in sorted(glob.glob(os.path.join(run_dir, "ld.*"))):
        for m in re.finditer(r"calling init: (\S*libcudart\S*)", read(f) or ""):
            p = os.path.realpath(m.group(1))
            if p not in found:
                found.append(p)
    return found


def run_record(sample, kind, expect_dir):
    d = os.path.join(work, sample, kind)
    rc_text = (read(os.path.join(d, "rc")) or "").strip()
    stdout = read(os.path.join(d, "stdout"), 200000) or ""
    rec = {
        "skipped": rc_text == "skipped",
        "rc": int(rc_text) if rc_text.lstrip("-").isdigit() else None,
        "time_s": float((read(os.path.join(d, "time")) or "0").strip() or 0),
        "timeout_s": int((read(os.path.join(d, "timeout")) or "0").strip() or 0),
        "stdout": stdout,
        "stderr_tail": read(os.path.join(d, "stderr"), TAIL) or "",
    }
    rec["timed_out"] = rec["rc"] in (124, 137)
    lines = [l for l in stdout.splitlines() if l.strip()]
    rec["last_line"] = lines[-1] if lines else ""
    rec["pass"] = rec["rc"] == 0 and rec["last_line"] == "PASS " + sample
    libs = loaded_libcudart(d)
    rec["libcudart"] = libs
    want = os.path.realpath(os.path.join(expect_dir, "libcudart.so.13")) if expect_dir else None
    rec["libcudart_ok"] = bool(libs) and all(p == want for p in libs)
    return rec


def check_trace_json(path):
    """The CUDART_TRACE_JSON file: parses (an unterminated array, from a
    process that died early, is closed first, as the viewers do), and
    holds events on named thread lanes."""
    text = read(path)
    if text is None:
        return {"json_ok": False, "json_error": "no file"}
    try:
        events = json.loads(text)
    except ValueError:
        try:
            events = json.loads(text.rstrip().rstrip(",") + "]")
        except ValueError as e:
            return {"json_ok": False, "json_error": str(e)[:200]}
    if isinstance(events, dict):
        events = events.get("traceEvents", [])
    if not isinstance(events, list):
        return {"json_ok": False, "json_error": "not an event array"}
    named = {e.get("tid") for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    lanes = {e.get("tid") for e in events if e.get("ph") in ("X", "i", "I", "B", "E")}
    ok = bool(lanes) and all(isinstance(e.get("ts", 0), (int, float)) for e in events)
    return {"json_ok": ok, "json_events": len(events), "json_lanes": len(lanes),
            "json_lanes_named": len(lanes & named),
            "json_spans": sorted({e.get("name", "") for e in events if e.get("ph") == "X"})[:40]}


build_info = {}
for line in (read(os.path.join(bundle, "BUILD-INFO")) or "").splitlines():
    if ":" in line:
        k, v = line.split(":", 1)
        build_info[k.strip()] = v.strip()

results = []
for s in samples:
    nv = run_record(s, "nvidia", nv_lib)
    ours = run_record(s, "ours", ours_lib)
    tr_dir = os.path.join(work, s, "trace")
    tr = run_record(s, "trace", ours_lib)
    full_trace = read(os.path.join(tr_dir, "stderr")) or ""
    trace = {k: tr[k] for k in ("skipped", "rc", "time_s", "timeout_s", "timed_out", "pass",
                                "libcudart", "libcudart_ok")}
    trace["lines"] = full_trace.count("\n")
    trace["tail"] = tr["stderr_tail"]
    trace["stdout_same_as_ours"] = tr["stdout"] == ours["stdout"]
    if not tr["skipped"]:
        trace.update(check_trace_json(os.path.join(tr_dir, "trace.json")))
    identical = (not nv["skipped"] and not ours["skipped"]
                 and nv["stdout"] == ours["stdout"])
    ran_both = not nv["skipped"] and not ours["skipped"]
    diff = "" if identical or not ran_both else "".join(difflib.unified_diff(
        nv["stdout"].splitlines(True), ours["stdout"].splitlines(True),
        "nvidia", "ours", n=2))
    results.append({"name": s, "nvidia": nv, "ours": ours, "trace": trace,
                    "identical_stdout": identical, "diff": diff[:20000]})

smi = sh("nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader")
doc = {
    "schema": 1,
    "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    "machine": {
        "uname": sh("uname -srm"),
        "nvidia_smi_L": sh("nvidia-smi -L"),
        "gpu": smi,
        "driver_version": smi.split(",")[1].strip() if smi.count(",") >= 2 else "",
        "proc_driver_version": (read("/proc/driver/nvidia/version") or "").strip(),
    },
    "build_info": build_info,
    "libraries": {"nvidia": file_info(os.path.join(nv_lib, "libcudart.so.13")),
                  "ours": file_info(os.path.join(ours_lib, "libcudart.so.13"))},
    "settings": {"budget_s": int(budget), "max_timeout_s": int(max_t),
                 "min_timeout_s": int(min_t)},
    "samples": results,
}
n = len(results)
doc["summary"] = {
    "samples": n,
    "nvidia_pass": sum(r["nvidia"]["pass"] for r in results),
    "ours_pass": sum(r["ours"]["pass"] for r in results),
    "identical_stdout": sum(r["identical_stdout"] for r in results),
    "ours_timed_out": sum(r["ours"]["timed_out"] for r in results),
    "libcudart_checks_ok": sum(r["nvidia"]["libcudart_ok"] and r["ours"]["libcudart_ok"]
                               for r in results),
    "trace_json_ok": sum(bool(r["trace"].get("json_ok")) for r in results),
    "skipped_runs": sum(r[k]["skipped"] for r in results for k in ("nvidia", "ours"))
                    + sum(r["trace"]["skipped"] for r in results),
}
with open(dest, "w") as f:
    json.dump(doc, f, indent=1, sort_keys=False)
    f.write("\n")
print("%-24s %-6s %-6s %-9s %s" % ("sample", "nvidia", "ours", "identical", "libcudart"))
for r in results:
    def v(x):
        return "skip" if x["skipped"] else ("T/O" if x["timed_out"] else
                                            ("pass" if x["pass"] else "FAIL"))
    print("%-24s %-6s %-6s %-9s %s" % (r["name"], v(r["nvidia"]), v(r["ours"]),
          "yes" if r["identical_stdout"] else "NO",
          "ok" if r["nvidia"]["libcudart_ok"] and r["ours"]["libcudart_ok"] else "CHECK"))
print("summary: " + json.dumps(doc["summary"]))
PY

# Raw outputs, kept under the 16 MiB a returned file may have.
tar -C "$work" -czf "$out/raw.tar.gz" . 2>>"$log"
if (( $(stat -c %s "$out/raw.tar.gz") > 15 * 1024 * 1024 )); then
  say "raw.tar.gz too large; leaving out the loader logs and trace stderr"
  tar -C "$work" -czf "$out/raw.tar.gz" --exclude='ld.*' --exclude='trace/stderr' . 2>>"$log"
fi
say "gpu-run: done in $(( $(date +%s) - t_start ))s; $out: $(ls "$out" | tr '\n' ' ')"
rm -rf "$work"
exit 0
