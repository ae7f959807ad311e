#!/usr/bin/env bash
# Runs the scale benchmarks (bench/scale/build.sh's output) under NVIDIA's
# libcudart.so.13 and ours on the GPU machine (issue 30). Needs bash and
# python3.
#
#   bench/scale/run.sh SCALE_DIR OUR_LIB_DIR NVIDIA_LIB_DIR OUT [ROUNDS]
#
# SCALE_DIR: the programs (e.g. gpu-bundle/scale). NVIDIA_LIB_DIR may be
# `auto` (the first of /usr/local/cuda/lib64 and /usr/local/cuda/targets/
# x86_64-linux/lib holding libcudart.so.13). ROUNDS (default 1): each
# round runs every program under NVIDIA's runtime, then under ours
# (SCALE_ORDER=abba: ours first in even rounds), each in its own process,
# cwd SCALE_DIR, LD_LIBRARY_PATH=<runtime dir>:<inherited>, under a timeout.
# The programs print JSON lines (scale.h); every line is kept.
#
#   id              program
#   objects_alloc   scale_objects alloc
#   objects_event   scale_objects event
#   objects_stream  scale_objects stream
#   threads         scale_threads
#   graph           scale_graph
#   fatbin          scale_fatbin
#   kernels         scale_kernels
#
# Writes OUT/scale.json (after every process: a run cut short keeps what it
# measured), OUT/scale-log.txt. Then, back here:
#   python3 scripts/scale-report.py OUT/scale.json --png docs/scale-report.png > docs/scale-report.md
#
# Environment:
#   SCALE_ONLY      ids to run (default: all, in the order above)
#   SCALE_TIMEOUT   seconds per process (default 150; a program that timed out
#                   under a runtime is not run under it again)
#   SCALE_BUDGET    seconds for all runs (default: PART_LIMIT_S less 10 where
#                   scripts/gpu-all.sh sets it, else 540); a run is not started
#                   past it, nor one that would end past it by the longest an
#                   earlier run of its program took
#   SCALE_ORDER     abab (default) or abba
#   and the programs' own (bench/scale/README.md): SCALE_BENCH_SECONDS (40),
#   SCALE_SERIES, SCALE_ALLOC_MAX, SCALE_EVENT_MAX, SCALE_STREAM_MAX,
#   SCALE_PAIRS, SCALE_THREADS_MAX, SCALE_THREAD_EVENTS, SCALE_THREAD_STREAMS,
#   SCALE_THREAD_ALLOCS, SCALE_GRAPH_MAX, SCALE_GRAPH_LAUNCHES,
#   SCALE_FATBIN_MAX, SCALE_FATBIN_WARM, SCALE_KERNELS_SIZES, SCALE_KERNELS_MAX
set -uo pipefail
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
if [[ $# -lt 4 || $# -gt 5 ]]; then
  echo "usage: $0 SCALE_DIR OUR_LIB_DIR NVIDIA_LIB_DIR OUT [ROUNDS]" >&2
  exit 2
fi
sdir=$(cd "$1" && pwd) || exit 2
ours_lib=$(cd "$2" && pwd) || exit 2
nv_lib=$3
if [[ $nv_lib == auto ]]; then  # where gpu-run.sh looks
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [[ -e $d/libcudart.so.13 ]] && { nv_lib=$d; break; }
  done
fi
nv_lib=$(cd "$nv_lib" && pwd) || exit 2
mkdir -p "$4" && out=$(cd "$4" && pwd) || exit 2
rounds=${5:-1}
[[ $rounds =~ ^[0-9]+$ && $rounds -ge 1 ]] || { echo "run.sh: ROUNDS is a number >= 1" >&2; exit 2; }

# scripts/abab.py: beside this file in a built SCALE_DIR, else in the repository.
here=$(cd "$(dirname "$0")" && pwd)
PYTHONPATH="$here:$here/../../scripts${PYTHONPATH:+:$PYTHONPATH}" \
  exec python3 - "$sdir" "$ours_lib" "$nv_lib" "$out" "$rounds" <<'PY'
import json, os, subprocess, sys, time
from abab import budget_s, file_info, sh, skip_reason, turns, write_json as write_whole

sdir, ours_lib, nv_lib, out, rounds = sys.argv[1:6]
rounds = int(rounds)
E = os.environ
PROGRAMS = [("objects_alloc", ["./scale_objects", "alloc"]),
            ("objects_event", ["./scale_objects", "event"]),
            ("objects_stream", ["./scale_objects", "stream"]),
            ("threads", ["./scale_threads"]),
            ("graph", ["./scale_graph"]),
            ("fatbin", ["./scale_fatbin"]),
            ("kernels", ["./scale_kernels"])]
only = (E.get("SCALE_ONLY") or "").split()
if only:
    PROGRAMS = [p for p in PROGRAMS if p[0] in only]
timeout = float(E.get("SCALE_TIMEOUT", "150"))
budget = budget_s(E, "SCALE_BUDGET")
order = E.get("SCALE_ORDER", "abab")
t_start = time.monotonic()
logf = open(os.path.join(out, "scale-log.txt"), "w")


def say(msg):
    logf.write(msg + "\n")
    logf.flush()
    print(msg, file=sys.stderr, flush=True)


inherited = E.get("LD_LIBRARY_PATH", "")
base = {k: v for k, v in E.items() if not k.startswith("CUDART_TRACE")}
libdir = {"nvidia": nv_lib, "ours": ours_lib}
want = {rt: os.path.realpath(os.path.join(d, "libcudart.so.13")) for rt, d in libdir.items()}
doc = {"schema": 1, "machine": {
           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "uname": sh("uname -srm"),
           "nproc": os.cpu_count(),
           "gpu": sh("nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader")},
       "libraries": {rt: file_info(os.path.join(d, "libcudart.so.13")) for rt, d in libdir.items()},
       "settings": {"rounds": rounds, "order": order, "timeout_s": timeout, "budget_s": budget,
                    "env": {k: v for k, v in E.items() if k.startswith("SCALE_")}},
       "runs": []}
say("scale run: %d programs x %d rounds x 2 runtimes; budget %.0fs" % (len(PROGRAMS), rounds, budget))
say("machine: %s" % json.dumps(doc["machine"]))


def write():
    doc["elapsed_s"] = round(time.monotonic() - t_start, 1)
    write_whole(os.path.join(out, "scale.json"), doc)


banned = set()
longest = {}  # program -> the longest wall time of its runs so far
for rnd in range(1, rounds + 1):
    for pid, argv in PROGRAMS:
        for rt in turns(rnd, order):
            rec = {"program": pid, "runtime": rt, "round": rnd, "argv": argv}
            why = skip_reason((pid, rt), t_start, budget, banned, longest.get(pid, 0.0))
            if why:
                rec.update(skipped=True, why=why)
            else:
                env = dict(base)
                env["LD_LIBRARY_PATH"] = libdir[rt] + (":" + inherited if inherited else "")
                t0 = time.monotonic()
                try:
                    p = subprocess.run(argv, cwd=sdir, env=env, capture_output=True,
                                       timeout=timeout, stdin=subprocess.DEVNULL)
                    rc, so, se, to = p.returncode, p.stdout, p.stderr, False
                except subprocess.TimeoutExpired as e:
                    rc, so, se, to = 124, e.stdout or b"", e.stderr or b"", True
                    banned.add((pid, rt))
                wall = time.monotonic() - t0
                longest[pid] = max(longest.get(pid, 0.0), wall)
                lines, junk = [], 0
                for l in so.decode("utf-8", "replace").splitlines():
                    try:
                        lines.append(json.loads(l))
                    except ValueError:
                        junk += 1
                info = [l for l in lines if l.get("bench") == "info"]
                libs = info[-1]["libcudart"].split(",") if info and info[-1].get("libcudart") else []
                rec.update(skipped=False, rc=rc if rc >= 0 else 128 - rc, timed_out=to,
                           wall_s=round(wall, 3),
                           results=[l for l in lines if l.get("bench") != "info"],
                           other_stdout_lines=junk, libcudart=libs,
                           libcudart_ok=bool(libs) and all(os.path.realpath(x) == want[rt] for x in libs),
                           stderr_tail=se.decode("utf-8", "replace")[-3000:])
            doc["runs"].append(rec)
            if rec["skipped"]:
                say("r%d %-6s %-15s skipped (%s)" % (rnd, rt, pid, rec["why"]))
            else:
                stops = [r for r in rec["results"] if "stopped" in r]
                say("r%d %-6s %-15s rc=%-4s %7.1fs %d results%s%s" % (
                    rnd, rt, pid, rec["rc"], rec["wall_s"], len(rec["results"]),
                    "".join("; %s stopped at n=%s: %s %s" % (r["bench"], r.get("n"), r["stopped"],
                                                             r.get("error", "")) for r in stops),
                    "" if rec["libcudart_ok"] else "; LIBCUDART? %s" % ",".join(libs)))
            write()
say("scale run: done in %.0fs -> %s" % (time.monotonic() - t_start, os.path.join(out, "scale.json")))
PY
