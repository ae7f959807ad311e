#!/usr/bin/env bash
# Runs the differential harness (built by scripts/harness-prepare.sh) under
# NVIDIA's libcudart.so.13 and under ours, same binary, LD_LIBRARY_PATH
# switched; on the GPU machine it runs in --gpu mode (real streams, events,
# graphs, device memory as arguments). Needs bash, coreutils and python3;
# no cargo, no network.
#
#   harness-run.sh BINDIR NVIDIA_LIBDIR OURS_LIBDIR OUTDIR
#
# Writes to OUTDIR:
#   nvidia.txt, ours.txt          the reports (one line per export)
#   nvidia.stderr, ours.stderr    what the runtimes and children printed
#   log.txt                       machine, driver, the libcudart each run
#                                 loaded, exit status and wall time
#   summary.txt, compare.json     the comparison: identical, different
#                                 (with both lines and the fields that
#                                 differ), crashes and timeouts per runtime
#
# Environment:
#   HARNESS_ARGS     program arguments (default: --gpu; e.g. "--gpu --jobs 8",
#                    or "" for the no-driver mode)
#   HARNESS_TIMEOUT  seconds for one whole run (default 150; every call also
#                    has its own alarm, 20 s in --gpu mode)
set -uo pipefail

[[ $# -eq 4 ]] || { echo "usage: $0 BINDIR NVIDIA_LIBDIR OURS_LIBDIR OUTDIR" >&2; exit 2; }
bin=$(cd "$1" && pwd) || exit 2
nv_lib=$(cd "$2" && pwd) || exit 2
ours_lib=$(cd "$3" && pwd) || exit 2
mkdir -p "$4" && out=$(cd "$4" && pwd) || exit 2
args=${HARNESS_ARGS---gpu}
limit=${HARNESS_TIMEOUT:-150}
log=$out/log.txt
: >"$log"
rm -f "$out/runs.txt"
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
  echo "arguments: $args"
} >>"$log"

for rt in nvidia ours; do
  if [[ $rt == nvidia ]]; then lib=$nv_lib; else lib=$ours_lib; fi
  # Which libcudart.so.13 the loader really picks (the harness links it).
  loaded=$(LD_DEBUG=libs LD_LIBRARY_PATH=$lib "$bin/harness" --list 2>&1 >/dev/null |
    grep -o 'calling init: [^ ]*libcudart[^ ]*' | head -1 | sed 's/calling init: //')
  say "$rt: LD_LIBRARY_PATH=$lib, loads ${loaded:-?}"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086  # HARNESS_ARGS is a list of words
  LD_LIBRARY_PATH=$lib timeout -k 5 "$limit" "$bin/harness" $args \
    >"$out/$rt.txt" 2>"$out/$rt.stderr"
  rc=$?
  t1=$(date +%s.%N)
  wall=$(python3 -c "print(round($t1 - $t0, 1))")
  say "$rt: exit $rc, ${wall} s, $(grep -vc '^#' "$out/$rt.txt") lines"
  echo "$rt $rc $wall $loaded" >>"$out/runs.txt"
done

python3 - "$out" "$bin/allowed-differences.txt" <<'PY'
import json, re, sys
out, allow_path = sys.argv[1], sys.argv[2]

def report(path):
    lines = {}
    order = []
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        name, _, rest = line.partition(" ")
        lines[name] = rest
        order.append(name)
    return lines, order

def fields(rest):
    # rc=.. pre=.. post=.. get=.. again=.. out=[..] [fix=[..]] end=..
    return dict(re.findall(r"(\w+)=(\[[^\]]*\]|\S+)", rest))

allowed = {}
try:
    for line in open(allow_path):
        line = line.strip()
        if line and not line.startswith("#") and ": " in line:
            key, reason = line.split(": ", 1)
            allowed.setdefault(key.split("@")[0], reason)
except OSError:
    pass

runs = {}
for line in open(f"{out}/runs.txt"):
    parts = line.split()
    runs[parts[0]] = {"exit": int(parts[1]), "wall_s": float(parts[2]),
                      "libcudart": parts[3] if len(parts) > 3 else ""}
nv, order = report(f"{out}/nvidia.txt")
ours, order2 = report(f"{out}/ours.txt")
names = order + [n for n in order2 if n not in nv]

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
        if n in allowed:
            d["no_driver_allowed"] = allowed[n]
        diffs.append(d)

def abnormal(lines):
    return {n: fields(r).get("end") for n, r in lines.items() if fields(r).get("end") != "exit0"}

result = {
    "runs": runs,
    "functions": len(names),
    "identical": len(same),
    "different": diffs,
    "missing": missing,
    "abnormal_end": {"nvidia": abnormal(nv), "ours": abnormal(ours)},
}
json.dump(result, open(f"{out}/compare.json", "w"), indent=1)

s = []
s.append(f"harness: {len(names)} functions, {len(same)} identical, {len(diffs)} different, {len(missing)} missing from a run")
for rt, r in runs.items():
    s.append(f"  {rt}: exit {r['exit']}, {r['wall_s']} s, {r['libcudart']}")
for rt, ab in result["abnormal_end"].items():
    if ab:
        s.append(f"  {rt}: abnormal ends: " + ", ".join(f"{n} ({e})" for n, e in ab.items()))
if diffs:
    s.append("")
    s.append("differences (fields that differ; NVIDIA first):")
    for d in diffs:
        note = "  [allowed without a driver: " + d["no_driver_allowed"] + "]" if "no_driver_allowed" in d else ""
        s.append(f"- {d['name']}: {','.join(d['fields'])}{note}")
        s.append(f"    nvidia: {d['nvidia']}")
        s.append(f"    ours:   {d['ours']}")
for m in missing:
    s.append(f"- {m['name']}: missing (nvidia: {m['nvidia']!r}, ours: {m['ours']!r})")
open(f"{out}/summary.txt", "w").write("\n".join(s) + "\n")
print("\n".join(s))
PY
