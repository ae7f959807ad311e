#!/usr/bin/env bash
# Runs the differential harness (built by scripts/harness-prepare.sh) under
# NVIDIA's libcudart.so.13 and under ours, same binary, LD_LIBRARY_PATH
# switched; on the GPU machine in --gpu mode (real streams, events, graphs,
# device memory as arguments). Two parts, each under both runtimes:
#   calls  every export once with ordinary arguments (issue #7), a child
#          per call
#   bad    the bad-input matrix (issue #9): every export once per bad
#          argument, all 2,484 cases (--bad --gpu: batch mode, runner.h:
#          16 jobs, each running batches of cases in one child with one
#          CUDA context, a fresh child after a case that crashes, hangs or
#          leaves the context unusable, and a child of their own for the
#          cases that reset or configure the device or the process; 10 s
#          per case; no case started after HARNESS_BAD_BUDGET seconds, a
#          safety limit: --spread makes the cases that ran a sample of the
#          whole matrix if it runs out). The log says how many cases ran
#          and how many children it took.
# Needs bash, coreutils and python3; no cargo, no network.
#
#   harness-run.sh BINDIR NVIDIA_LIBDIR OURS_LIBDIR OUTDIR
#
# Writes to OUTDIR:
#   nvidia.txt, ours.txt          calls: the reports (one line per export)
#   nvidia-bad.txt, ours-bad.txt  bad: the reports (one line per case)
#   *.stderr                      what the runtimes and children printed
#   log.txt                       machine, driver, the libcudart each run
#                                 loaded, exit status and wall time
#   summary.txt, compare.json     calls: identical, different (with both
#                                 lines and the fields that differ),
#                                 crashes and timeouts per runtime
#   bad-summary.txt,              bad: total cases, how many ran, identical,
#   bad-compare.json              different (with both results), crashes
#                                 and hangs per runtime, broken contexts;
#                                 scripts/badinput-report.py turns it into
#                                 Markdown (docs/badinput-report.md)
#
# Environment:
#   HARNESS_MODES        parts to run (default "calls bad")
#   HARNESS_ARGS         calls: program arguments (default --gpu; "" for the
#                        no-driver mode)
#   HARNESS_TIMEOUT      calls: seconds for one whole run (default 150)
#   HARNESS_BAD_ARGS     bad: program arguments (default "--gpu --bad --spread
#                        --jobs 16 --timeout 10 --recheck", batch mode:
#                        --recheck runs a case that crashed or hung inside a
#                        batch again in a fresh child, so an earlier case's
#                        damage is not charged to it (the run of 2026-12-03
#                        had 3 crashes under ours only, 2 of them after the
#                        call returned); "--batch 1" for a child per case;
#                        "--bad --first" without a driver)
#   HARNESS_BAD_BUDGET   bad: no case starts after this many seconds (default
#                        110: a run ends within about 120 s)
#   HARNESS_BAD_TIMEOUT  bad: seconds for one whole run (default 160)
set -uo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac

[[ $# -eq 4 ]] || { echo "usage: $0 BINDIR NVIDIA_LIBDIR OURS_LIBDIR OUTDIR" >&2; exit 2; }
bin=$(cd "$1" && pwd) || exit 2
nv_lib=$(cd "$2" && pwd) || exit 2
ours_lib=$(cd "$3" && pwd) || exit 2
mkdir -p "$4" && out=$(cd "$4" && pwd) || exit 2
modes=${HARNESS_MODES:-calls bad}
log=$out/log.txt
: >"$log"
say() { echo "$*" | tee -a "$log" >&2; }

chmod +x "$bin/harness" 2>/dev/null
[[ -x $bin/harness ]] || { say "no $bin/harness"; exit 2; }
for d in "$nv_lib" "$ours_lib"; do
  [[ -e $d/libcudart.so.13 ]] || say "WARNING: no libcudart.so.13 in $d"
done

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "uname: $(uname -srm)"
  echo "nproc: $(nproc)"
  if command -v nvidia-smi >/dev/null; then
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
  else
    echo "nvidia-smi: not found"
  fi
  [[ -f $bin/BUILD-INFO ]] && sed 's/^/build: /' "$bin/BUILD-INFO"
  echo "parts: $modes"
} >>"$log"

# run_part PART SUFFIX LIMIT ARGS: the program under both runtimes; writes
# OUTDIR/{nvidia,ours}SUFFIX.txt and a line per runtime to runsSUFFIX.txt.
run_part() {
  local part=$1 sfx=$2 limit=$3 args=$4 rt lib loaded t0 t1 rc wall
  say "== $part: arguments: $args"
  rm -f "$out/runs$sfx.txt"
  for rt in nvidia ours; do
    if [[ $rt == nvidia ]]; then lib=$nv_lib; else lib=$ours_lib; fi
    # Which libcudart.so.13 the loader really picks (the harness links it).
    loaded=$(LD_DEBUG=libs LD_LIBRARY_PATH=$lib "$bin/harness" --list 2>&1 >/dev/null |
      grep -o 'calling init: [^ ]*libcudart[^ ]*' | head -1 | sed 's/calling init: //')
    say "$part $rt: LD_LIBRARY_PATH=$lib, loads ${loaded:-?}"
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086  # the arguments are a list of words
    LD_LIBRARY_PATH=$lib timeout -k 5 "$limit" "$bin/harness" $args \
      >"$out/$rt$sfx.txt" 2>"$out/$rt$sfx.stderr"
    rc=$?
    t1=$(date +%s.%N)
    wall=$(python3 -c "print(round($t1 - $t0, 1))")
    say "$part $rt: exit $rc, ${wall} s, $(grep -vc '^#' "$out/$rt$sfx.txt") lines; $(grep '^# done' "$out/$rt$sfx.txt" || echo '# not done'); $(grep '^# children' "$out/$rt$sfx.txt" || echo '# children: ?')"
    echo "$rt $rc $wall ${loaded:--}" >>"$out/runs$sfx.txt"
  done
}

# compare PART SUFFIX ALLOWLIST: writes {,bad-}compare.json and {,bad-}summary.txt.
compare() {
  python3 - "$out" "$1" "$2" "$3" "$bin/cases.txt" <<'PY'
import json, re, sys
out, part, sfx, allow_path, cases_path = sys.argv[1:6]
bad = part == "bad"
prefix = "bad-" if bad else ""

def report(path):
    lines, order, done = {}, [], None
    try:
        f = open(path, errors="replace")
    except OSError:
        return lines, order, done
    for line in f:
        line = line.rstrip("\n")
        if line.startswith("# done: "):
            m = re.match(r"# done: ran (\d+) of (\d+) in ([\d.]+) s( \(budget spent\))?", line)
            if m:
                done = {"ran": int(m[1]), "selected": int(m[2]), "wall_s": float(m[3]),
                        "budget_spent": bool(m[4])}
        if line.startswith("# children: ") and done is not None:
            m = re.match(r"# children: (\d+) started", line)
            if m:
                done["children"] = int(m[1])
                done["children_line"] = line[2:]
        if not line or line.startswith("#"):
            continue
        name, _, rest = line.partition(" ")
        lines[name] = rest
        order.append(name)
    return lines, order, done

def fields(rest):
    # rc=.. pre=.. post=.. get=.. again=.. out=[..] [ctx=..] [fix=[..]] end=.. [stage=..]
    return dict(re.findall(r"(\w+)=(\[[^\]]*\]|\S+)", rest))

def glob(pattern, text):
    # `*` matches any run of characters; nothing else is special.
    rx = ".*".join(re.escape(p) for p in pattern.split("*"))
    return re.fullmatch(rx, text) is not None

allowed = []
try:
    for line in open(allow_path):
        line = line.strip()
        if line and not line.startswith("#") and ": " in line:
            key, reason = line.split(": ", 1)
            allowed.append((key.split("@")[0] if not bad else key, reason))
except OSError:
    pass

def allowed_reason(name):
    for key, reason in allowed:
        if (bad and glob(key, name)) or (not bad and key == name):
            return reason
    return None

runs = {}
try:
    for line in open(f"{out}/runs{sfx}.txt"):
        p = line.split()
        runs[p[0]] = {"exit": int(p[1]), "wall_s": float(p[2]),
                      "libcudart": p[3] if len(p) > 3 else ""}
except OSError:
    pass
nv, order, nv_done = report(f"{out}/nvidia{sfx}.txt")
ours, order2, ours_done = report(f"{out}/ours{sfx}.txt")
for rt, d in (("nvidia", nv_done), ("ours", ours_done)):
    runs.setdefault(rt, {}).update(d or {"ran": None, "note": "no '# done' line: the run was cut off"})
names = order + [n for n in order2 if n not in nv]
table = []
if bad:
    try:
        table = [l.strip() for l in open(cases_path) if l.strip()]
    except OSError:
        pass

same, diffs, missing = [], [], []
for n in names:
    a, b = nv.get(n), ours.get(n)
    if a is None or b is None:
        missing.append({"name": n, "nvidia": a, "ours": b})
    elif a == b:
        same.append(n)
    else:
        fa, fb = fields(a), fields(b)
        keys = [k for k in dict.fromkeys(list(fa) + list(fb)) if fa.get(k) != fb.get(k)]
        d = {"name": n, "fields": keys, "nvidia": a, "ours": b}
        if bad:
            func, _, case = n.partition("#")
            d["function"], d["case"] = func, case
        reason = allowed_reason(n)
        if reason:
            d["allowed_without_driver"] = reason
        diffs.append(d)

def ends(lines, pred):
    res = []
    for n, r in lines.items():
        f = fields(r)
        e = f.get("end", "")
        if pred(e):
            res.append({"name": n, "end": e, "stage": f.get("stage"), "line": r})
    return res

def crash(e): return e.startswith("signal")
def hang(e): return e == "timeout"
def other(e): return e.startswith("exit") and e != "exit0"

result = {
    "part": part,
    "runs": runs,
    "compared": len(names) - len(missing),
    "identical": len(same),
    "different": diffs,
    "missing": missing,
    "crashes": {"nvidia": ends(nv, crash), "ours": ends(ours, crash)},
    "hangs": {"nvidia": ends(nv, hang), "ours": ends(ours, hang)},
    "other_ends": {"nvidia": ends(nv, other), "ours": ends(ours, other)},
}
if bad:
    result["cases"] = len(table) or len(names)
    # Per kind of bad argument: the part of the id after the first `=`.
    by_kind = {}
    same_set = set(same)
    diff_set = {d["name"] for d in diffs}
    for n in names:
        k = by_kind.setdefault(n.partition("=")[2], {
            "cases": 0, "identical": 0, "different": 0, "nvidia_abnormal": 0, "ours_abnormal": 0})
        k["cases"] += 1
        k["identical"] += n in same_set
        k["different"] += n in diff_set
        k["nvidia_abnormal"] += n in nv and fields(nv[n]).get("end") != "exit0"
        k["ours_abnormal"] += n in ours and fields(ours[n]).get("end") != "exit0"
    result["by_kind"] = by_kind
    # Calls after which an ordinary cudaMalloc/cudaFree failed (--gpu).
    result["broken_context"] = {
        rt: [n for n, r in lines.items() if fields(r).get("ctx", "0") not in ("0", "-1")]
        for rt, lines in (("nvidia", nv), ("ours", ours))}
else:
    result["functions"] = len(names)
json.dump(result, open(f"{out}/{prefix}compare.json", "w"), indent=1)

s = []
what = "cases" if bad else "functions"
total = result["cases"] if bad else len(names)
s.append(f"harness {part}: {total} {what}, {result['compared']} compared, {len(same)} identical, "
         f"{len(diffs)} different ({sum('allowed_without_driver' in d for d in diffs)} of them allowed "
         f"without a driver), {len(missing)} missing from a run")
for rt, r in runs.items():
    ran = f", ran {r['ran']} of {r.get('selected')}" if r.get("ran") is not None else ", " + r.get("note", "")
    if r.get("budget_spent"):
        ran += " (budget spent)"
    if r.get("children_line"):
        ran += f"; {r['children_line']}"
    s.append(f"  {rt}: exit {r.get('exit')}, {r.get('wall_s')} s{ran}, {r.get('libcudart', '')}")
for key in ("crashes", "hangs", "other_ends"):
    for rt, lst in result[key].items():
        if lst:
            s.append(f"  {rt}: {len(lst)} {key.replace('_', ' ')}: "
                     + ", ".join(f"{x['name']} ({x['end']})" for x in lst[:40])
                     + (" ..." if len(lst) > 40 else ""))
if bad:
    for rt, lst in result["broken_context"].items():
        s.append(f"  {rt}: {len(lst)} cases left the context unusable (ctx != 0)")
if diffs:
    s.append("")
    s.append("differences (fields that differ; NVIDIA first):")
    for d in diffs:
        note = "  [allowed without a driver: " + d["allowed_without_driver"] + "]" if "allowed_without_driver" in d else ""
        s.append(f"- {d['name']}: {','.join(d['fields'])}{note}")
        s.append(f"    nvidia: {d['nvidia']}")
        s.append(f"    ours:   {d['ours']}")
for m in missing[:200]:
    s.append(f"- {m['name']}: missing (nvidia: {m['nvidia']!r}, ours: {m['ours']!r})")
if len(missing) > 200:
    s.append(f"- ... {len(missing) - 200} more missing")
open(f"{out}/{prefix}summary.txt", "w").write("\n".join(s) + "\n")
print("\n".join(s[:12]))
PY
}

if [[ " $modes " == *" calls "* ]]; then
  run_part calls "" "${HARNESS_TIMEOUT:-150}" "${HARNESS_ARGS---gpu}"
  compare calls "" "$bin/allowed-differences.txt"
fi
if [[ " $modes " == *" bad "* ]]; then
  # Batch mode is the program's default for --gpu --bad.
  bad_args=${HARNESS_BAD_ARGS:---gpu --bad --spread --jobs 16 --timeout 10 --recheck}
  run_part bad -bad "${HARNESS_BAD_TIMEOUT:-160}" "$bad_args --budget ${HARNESS_BAD_BUDGET:-110}"
  compare bad -bad "$bin/allowed-bad.txt"
fi
