#!/usr/bin/env bash
# Memory checks of our libcudart.so.13 on a CPU-only machine (issue #9):
# valgrind memcheck and AddressSanitizer over the C programs that run
# without a GPU, against our library, on the test-double driver
# (abi-tests/driver-double) and without any driver.
#
#   scripts/sanitize.sh [valgrind|asan|all]      (default: all)
#
# What runs, under each tool (the same list, except that the harness's
# forking modes, one child per call, cheap under ASan, cost about a minute
# each under valgrind, which runs one of them, --first):
#   - abi-tests/c: double_runtime (6 modes, and the per-thread-stream build),
#     double_lifecycle (10 modes), double_ctx_own, register_only (with the
#     double and without a driver), nodriver (all scenarios), nodriver_managed;
#     double_runtime "threads" once more with CUDART_TRACE=all, a trace file
#     and CUDART_TRACE_JSON (the trace code);
#   - every c-sample (c-samples/build.sh) on the double, and life_story with
#     the trace on. The double runs no kernels, so most samples stop at their
#     first check of a kernel's result (exit 1, "FAIL ..."): what is checked
#     is memory safety up to there, not the results;
#   - c-samples/diag with CUDART_DIAGNOSTICS=1: no driver, an old driver, no
#     device, no kernel image, launch/symbol/function/static failures;
#   - the generated harness (abi-tests/harness) without a driver: every
#     export in one process (--nofork), the bad-input matrix in one process
#     (--bad --first --nofork), each export as a forked child's first call
#     (--first); under ASan also the default mode (a cudaPeekAtLastError
#     first), --first --null-outs and the forked matrix (--bad --first);
#     on the double (--gpu: real streams, events, graphs, memory as
#     arguments): --gpu --nofork and --gpu --bad --nofork; under ASan also
#     forked --gpu and --gpu --bad.
#
# valgrind: memcheck, --leak-check=full --errors-for-leak-kinds=definite,
# --track-origins=no, forked children followed, exec'd children traced,
# suppressions abi-tests/sanitizers/valgrind.supp (glibc/loader noise only).
# ASan: the host side of every program (and of its shared libraries) built
# with -fsanitize=address through NVCC_APPEND_FLAGS; our Rust library and the
# double stay uninstrumented, but ASan's malloc/free and mem* interception
# still sees double frees, invalid frees, use after free and overflows of
# the memory they hand out, copy or free. halt_on_error=0, so one run shows
# every report; LeakSanitizer on (suppressions abi-tests/sanitizers/lsan.supp).
#
# Judging (both tools): every report is read from the log files and
# attributed by its stack. It FAILS the run when
#   - the first frame outside the tool and the system libraries is in our
#     library (invalid read/write/free, use of uninitialised values, ...);
#   - a definite (valgrind) or direct (LeakSanitizer) leak has a frame of our
#     library on its allocation stack;
#   - any other error (in the test program, in the double) that
#     abi-tests/sanitizers/allowed.txt does not list, with its reason, for
#     that run; an entry that no longer matches anything fails too;
#   - a program dies of a signal or times out, or a harness child does;
#   - a log cannot be parsed (the error count valgrind states must match
#     what was read).
# Leaks of the test programs' own allocations (no frame of ours) are counted
# and reported, never failures. Reports: $SANITIZE_DIR/<tool>/report.txt.
# Time on the 2-core machine: about 6 minutes for valgrind and 4 for ASan
# (builds 3 minutes each: nvcc).
#
# Environment:
#   CUDART_LIB_DIR  our library's folder (default: scripts/build.sh's)
#   HARNESS_GEN     the harness-gen binary (default: cargo builds it)
#   SANITIZE_DIR    work folder (default: target/sanitize), emptied per tool
#   JOBS            programs run and compiled at once (default: CPUs)
#   SANITIZE_ONLY   c-samples to build and run (default: all of them)
#   SANITIZE_RUNS   only the runs whose names match this glob (debugging)
# abi-tests/tests/sanitizers.rs runs this script from `cargo test`.
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

what=${1:-all}
case $what in
  valgrind) tools=(valgrind) ;;
  asan) tools=(asan) ;;
  all) tools=(valgrind asan) ;;
  *) echo "usage: $0 [valgrind|asan|all]" >&2; exit 2 ;;
esac

# Nothing from the caller's environment that changes what the runtime, the
# double or the tools do.
lib_env=${CUDART_LIB_DIR:-}
for v in $(compgen -e); do
  case $v in
    CUDA_DOUBLE_* | CUDART_* | CUDA_VISIBLE_DEVICES | CUDA_MODULE_LOADING | \
      CUDA_LAUNCH_BLOCKING | LD_PRELOAD | ASAN_OPTIONS | LSAN_OPTIONS | \
      VALGRIND_OPTS | NVCC_APPEND_FLAGS | NVCC_PREPEND_FLAGS) unset "$v" ;;
  esac
done

eval "$(scripts/setup-toolchain.sh --env)"
if [[ -n $lib_env ]]; then libdir=$(cd "$lib_env" && pwd); else libdir=$(scripts/build.sh); fi
[[ -e $libdir/libcudart.so.13 ]] || { echo "sanitize: no libcudart.so.13 in $libdir" >&2; exit 1; }
if [[ -z ${HARNESS_GEN:-} ]]; then
  cargo build --release -p abi-tests --bin harness-gen >&2
  HARNESS_GEN=${CARGO_TARGET_DIR:-$root/target}/release/harness-gen
fi
base=${SANITIZE_DIR:-$root/target/sanitize}
mkdir -p "$base"
base=$(cd "$base" && pwd)
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
supp=$root/abi-tests/sanitizers
cc=${CC:-cc}

if [[ " ${tools[*]} " == *" valgrind "* ]] && ! command -v valgrind >/dev/null; then
  echo "sanitize: valgrind is not installed (Debian: apt-get install valgrind)" >&2
  exit 1
fi

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Runs "$@" in the background, at most $jobs at once.
spawn() {
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
  "$@" &
}

# ---------------------------------------------------------------------------
# Builds.

# The test-double libcuda.so.1, as abi_tests::build_driver_double builds it.
build_double() {
  local d=$1
  mkdir -p "$d"
  "$cc" -std=gnu11 -O1 -g -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
    -Wl,-soname,libcuda.so.1 -o "$d/libcuda.so.1" abi-tests/driver-double/libcuda/*.c -lpthread
  ln -sf libcuda.so.1 "$d/libcuda.so"
}

# One abi-tests/c program, as abi_tests::nvcc_program builds it. $1 = the
# output, $2 = the source, the rest extra nvcc arguments.
build_abi() {
  local out=$1 src=$2
  shift 2
  if nvcc -cudart shared -arch=sm_90 -I abi-tests/c -o "$out" "abi-tests/c/$src" "$@" \
    >"$out.log" 2>&1; then
    echo ok >"$out.status"
  else
    echo FAILED >"$out.status"
  fi
}

# Everything one tool runs, into $1 (NVCC_APPEND_FLAGS decides the host
# side's instrumentation).
build_all() {
  local b=$1 double=$2
  mkdir -p "$b/abi" "$b/diag" "$b/harness"
  spawn build_abi "$b/abi/register_only" register_only.cu
  spawn build_abi "$b/abi/double_runtime" double_runtime.cu
  spawn build_abi "$b/abi/double_runtime_ptsz" double_runtime.cu --default-stream per-thread
  spawn build_abi "$b/abi/double_ctx_own" double_ctx_own.cu -L"$double" -lcuda
  spawn build_abi "$b/abi/double_lifecycle" double_lifecycle.cu -L"$double" -lcuda
  spawn build_abi "$b/abi/nodriver" nodriver.cu
  spawn build_abi "$b/abi/nodriver_managed" nodriver_managed.cu
  wait
  local f bad=0
  for f in "$b"/abi/*.status; do
    if [[ $(cat "$f") != ok ]]; then
      echo "sanitize: build of ${f%.status} failed:" >&2
      cat "${f%.status}.log" >&2
      bad=1
    fi
  done
  ((bad == 0)) || return 1
  NVCC=$(command -v nvcc) bash c-samples/diag/build.sh "$b/diag" >"$b/diag/build.log" 2>&1 ||
    { cat "$b/diag/build.log" >&2; return 1; }
  "$HARNESS_GEN" "$b/harness" >"$b/harness/build.log" 2>&1 ||
    { cat "$b/harness/build.log" >&2; return 1; }
  ONLY=${SANITIZE_ONLY:-} JOBS=$jobs bash c-samples/build.sh "$b/samples" >"$b/samples-build.log" 2>&1 ||
    { tail -40 "$b/samples-build.log" >&2; return 1; }
}

# ---------------------------------------------------------------------------
# Runs.

# run_case NAME DRIVER ENV EXE ARGS...: runs EXE (from its folder) under the
# tool; DRIVER "double" puts the double first on the library path, "none"
# leaves the driver out; ENV is space-separated K=V settings. Logs, stdout,
# stderr and "rc ms" go to $logs/NAME (slashes as __).
run_case() {
  local name=$1 drv=$2 envs=$3 exe=$4
  shift 4
  local log=$logs/${name//\//__}
  mkdir -p "$log"
  local lp=$libdir
  [[ $drv == double ]] && lp=$double:$libdir
  local -a pre
  local t
  if [[ $tool == valgrind ]]; then
    pre=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full
      --show-leak-kinds=definite --errors-for-leak-kinds=definite --track-origins=no
      --trace-children=yes --fullpath-after= --num-callers=40
      --suppressions="$supp/valgrind.supp" "--log-file=$log/vg.%p.log")
    t=600
  else
    pre=(env "ASAN_OPTIONS=halt_on_error=0:detect_leaks=1:log_path=$log/asan:stack_trace_format=\"#%n %p %F %L {%m}\""
      "LSAN_OPTIONS=suppressions=$supp/lsan.supp")
    t=300
  fi
  local t0 rc
  t0=$(now_ms)
  set +e
  # shellcheck disable=SC2086 # ENV splits into its K=V words on purpose
  (cd "$(dirname "$exe")" && exec env LD_LIBRARY_PATH="$lp" $envs \
    timeout -k 10 "$t" "${pre[@]}" "./$(basename "$exe")" "$@") \
    >"$log/stdout" 2>"$log/stderr" </dev/null
  rc=$?
  set -e
  printf '%s\n%s %s\n' "$name" "$rc" "$(($(now_ms) - t0))" >"$log/result"
}

# The list: NAME|DRIVER|ENV|EXE ARGS (EXE relative to the build folder).
cases() {
  local m
  # The long ones first, so that the short ones fill in around them.
  if [[ $tool == asan ]]; then
    echo "harness/bad|none||harness/harness --bad --first"
    echo "harness/gpu-bad|double||harness/harness --gpu --bad --timeout 20"
    echo "harness/gpu|double||harness/harness --gpu"
    echo "harness/pre|none||harness/harness"
    echo "harness/null-outs|none||harness/harness --first --null-outs"
  fi
  echo "harness/first|none||harness/harness --first --timeout 60"
  echo "harness/gpu-bad-sequential|double||harness/harness --gpu --bad --nofork"
  echo "harness/gpu-sequential|double||harness/harness --gpu --nofork"
  echo "harness/bad-sequential|none||harness/harness --bad --first --nofork"
  echo "harness/sequential|none||harness/harness --nofork"
  for m in vecadd threads reset symbol; do echo "abi/double_runtime.$m|double||abi/double_runtime $m"; done
  echo "abi/double_runtime.device1|double|CUDA_DOUBLE_DEVICES=2|abi/double_runtime device1"
  echo "abi/double_runtime.nodevice|double|CUDA_DOUBLE_DEVICES=0|abi/double_runtime nodevice"
  echo "abi/double_runtime.threads-traced|double|CUDART_TRACE=all CUDART_TRACE_FILE=$logs/trace.txt CUDART_TRACE_JSON=$logs/trace.json|abi/double_runtime threads"
  echo "abi/double_runtime_ptsz.vecadd|double||abi/double_runtime_ptsz vecadd"
  echo "abi/double_ctx_own|double||abi/double_ctx_own"
  for m in nocontext flags initdevice setdevice reset ownreset exit fork destroyed; do
    echo "abi/double_lifecycle.$m|double||abi/double_lifecycle $m"
  done
  echo "abi/double_lifecycle.threads|double|CUDA_DOUBLE_DEVICES=2|abi/double_lifecycle threads"
  echo "abi/register_only.double|double||abi/register_only"
  echo "abi/register_only.nodriver|none||abi/register_only"
  echo "abi/nodriver.all|none||abi/nodriver all"
  echo "abi/nodriver_managed|none||abi/nodriver_managed"
  echo "abi/nodriver_managed.quit|none||abi/nodriver_managed quit"
  local d=CUDART_DIAGNOSTICS=1
  echo "diag/none.nodriver|none|$d|diag/diag none"
  echo "diag/none.old-driver|double|$d CUDA_DOUBLE_DRIVER_VERSION=12040|diag/diag none"
  echo "diag/none.no-device|double|$d CUDA_DOUBLE_DEVICES=0 CUDA_VISIBLE_DEVICES=7|diag/diag none"
  echo "diag/no_image|double|$d|diag/diag_no_image no_image"
  for m in threads symbol function static; do echo "diag/$m|double|$d|diag/diag $m"; done
  local s
  while read -r s; do
    echo "sample/$s|double|REL_STRESS_SECONDS=1 REL_FIRE_SECONDS=1|samples/$s"
  done <"$build/samples/samples.txt"
  if grep -qx life_story "$build/samples/samples.txt"; then
    echo "sample/life_story.traced|double|CUDART_TRACE=all CUDART_TRACE_FILE=$logs/story.txt CUDART_TRACE_JSON=$logs/story.json|samples/life_story"
  fi
}

# ---------------------------------------------------------------------------
# The judge: reads every log of one tool's runs (see the header).
judge() {
  python3 - "$tool" "$logs" "$supp/allowed.txt" "$double" "$work" "$root" <<'PY'
import fnmatch, glob, os, re, sys

tool, logs, allowed_path, double_dir, work_dir, repo_dir = sys.argv[1:]

# --- allow-list: TOOL RUN-GLOB CULPRIT: reason
allowed = []
for n, line in enumerate(open(allowed_path), 1):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    key, sep, reason = line.partition(": ")
    parts = key.split()
    if not sep or not reason.strip() or len(parts) != 3:
        sys.exit(f"{allowed_path}:{n}: not `TOOL RUN CULPRIT: reason`: {line}")
    t, run, culprit = parts
    if t not in ("valgrind", "asan", "*") or culprit not in ("double", "program"):
        sys.exit(f"{allowed_path}:{n}: tool must be valgrind|asan|*, culprit double|program "
                 f"(errors in our library are never allowed): {line}")
    allowed.append({"tool": t, "run": run, "culprit": culprit, "line": n, "used": 0, "ran": False})

# --- frames
def klass(text, module=""):
    """tool, ours, double, program or system, from a frame's text (and, for
    ASan, its module)."""
    s = module or text
    if "vgpreload_" in s or "/libasan.so" in s or (not module and "libsanitizer/" in text):
        return "tool"
    # Our library is the only Rust code in these processes: a frame in a .rs
    # file (with debug info) or in libcudart.so* (without) is ours.
    if re.search(r"libcudart\.so", s) or re.search(r"\.rs:\d+(:\d+)?$", text.strip()):
        return "ours"
    if "driver-double/libcuda/" in text or double_dir + "/" in s:
        return "double"
    # The test programs: built under the work folder, sources in the repository.
    if work_dir + "/" in s or repo_dir + "/" in text:
        return "program"
    # glibc, libstdc++, the loader (with or without debug info), unknown frames.
    return "system"

def culprit_of(classes):
    for c in classes:
        if c not in ("tool", "system"):
            return c
    return "system"

# --- valgrind logs
VG_FRAME = re.compile(r"^\s+(?:at|by) 0x[0-9A-Fa-f]+: (.*)$")
VG_NOT_ERROR = re.compile(r"^(Warning|Process terminating|HEAP SUMMARY|LEAK SUMMARY|ERROR SUMMARY|"
                          r"Memcheck,|Copyright|Using Valgrind|Command:|Parent PID|For lists|"
                          r"For counts|in use at exit|total heap usage|All heap blocks|"
                          r"(definitely|indirectly|possibly) lost:|still reachable:|suppressed:|"
                          r"Reachable blocks|To see them|Rerun with|Use --track-origins|"
                          r"If you believe|Note: see also|Searching for pointers|Checked )")

def vg_frame_class(f):
    m = re.search(r"\((.*)\)\s*$", f)
    loc = m.group(1) if m else f
    return klass(loc)

def parse_valgrind(path):
    errors, stated = [], None
    block = []
    lines = [re.sub(r"^==\d+== ?", "", l.rstrip("\n")) for l in open(path, errors="replace")]
    for l in lines + [""]:
        m = re.match(r"ERROR SUMMARY: ([\d,]+) errors from ([\d,]+) contexts", l)
        if m:
            stated = int(m.group(2).replace(",", ""))
        if l.strip():
            block.append(l)
            continue
        if block:
            head = [b for b in block if not re.match(r"^Thread \d+", b)]
            if head and not VG_NOT_ERROR.match(head[0]):
                stack = []
                for b in head[1:]:
                    fm = VG_FRAME.match(b)
                    if not fm:
                        break
                    stack.append(fm.group(1))
                if stack:
                    leak = "definitely lost" in head[0]
                    errors.append({"kind": head[0], "leak": leak, "stack": stack,
                                   "classes": [vg_frame_class(f) for f in stack],
                                   "text": "\n".join(block)})
            block = []
    return errors, stated

# --- ASan logs
AS_FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ (.*?)(?: \{([^{}]*)\})?$")

def parse_asan(path):
    errors, notes = [], []
    lines = [l.rstrip("\n") for l in open(path, errors="replace")]
    i = 0
    def stack_at(j):
        st = []
        while j < len(lines) and not AS_FRAME.match(lines[j]):
            if lines[j].strip() == "" and st:
                break
            j += 1
            if j - i > 12 and not st:
                break
        while j < len(lines) and AS_FRAME.match(lines[j]):
            m = AS_FRAME.match(lines[j])
            st.append((m.group(1), m.group(2) or ""))
            j += 1
        return st, j
    n_reports = 0
    while i < len(lines):
        l = lines[i]
        m = re.search(r"==\d+==ERROR: (AddressSanitizer|LeakSanitizer): (.*)", l)
        if m and m.group(1) == "AddressSanitizer":
            n_reports += 1
            st, j = stack_at(i + 1)
            # The report runs to its SUMMARY line.
            k = j
            while k < len(lines) and not lines[k].startswith("SUMMARY: AddressSanitizer"):
                k += 1
            errors.append({"kind": "AddressSanitizer: " + m.group(2), "leak": False,
                           "stack": [f"{t} {{{mod}}}" for t, mod in st],
                           "classes": [klass(t, mod) for t, mod in st],
                           "text": "\n".join(lines[i:k + 1])})
            i = k + 1
            continue
        if m and m.group(1) == "LeakSanitizer":
            n_reports += 1
            i += 1
            continue
        lm = re.match(r"^(Direct|Indirect) leak of (.*)", l)
        if lm:
            st, j = stack_at(i + 1)
            if lm.group(1) == "Direct":
                errors.append({"kind": "LeakSanitizer: direct leak of " + lm.group(2), "leak": True,
                               "stack": [f"{t} {{{mod}}}" for t, mod in st],
                               "classes": [klass(t, mod) for t, mod in st],
                               "text": "\n".join(lines[i:j])})
            i = j
            continue
        if re.search(r"==\d+==(ERROR|WARNING)", l) or "Sanitizer" in l and "ERROR" in l:
            notes.append(l)
        i += 1
    return errors, notes, n_reports

# --- every run
runs = []
for d in sorted(glob.glob(os.path.join(logs, "*", ""))):
    res = os.path.join(d, "result")
    if not os.path.exists(res):
        continue
    name, rcms = open(res).read().splitlines()[:2]
    rc, ms = (int(x) for x in rcms.split())
    runs.append({"name": name, "dir": d, "rc": rc, "ms": ms})

fail, allowed_hits, foreign_leaks, notes = [], [], [], []
procs = 0
for r in runs:
    name = r["name"]
    for a in allowed:
        if a["tool"] in (tool, "*") and fnmatch.fnmatchcase(name, a["run"]):
            a["ran"] = True
    if r["rc"] in (124, 137) or r["rc"] > 128:
        what = "timed out" if r["rc"] in (124, 137) else f"died of signal {r['rc'] - 128}"
        err = open(os.path.join(r["dir"], "stderr"), errors="replace").read()[-3000:]
        fail.append(f"{name}: {what} (exit status {r['rc']})\n{err}")
    if name.startswith("harness/"):
        out = open(os.path.join(r["dir"], "stdout"), errors="replace").read()
        bad = [l for l in out.splitlines() if re.search(r" end=(signal\d+|timeout)\b", l)]
        if bad:
            fail.append(f"{name}: harness children crashed or hung:\n" + "\n".join(bad[:20]))
        if "# done: ran" not in out:
            fail.append(f"{name}: the harness did not finish (no '# done' line)")
    errs = []
    if tool == "valgrind":
        files = sorted(glob.glob(os.path.join(r["dir"], "vg.*.log")))
        procs += len(files)
        if not files:
            fail.append(f"{name}: no valgrind log")
        for f in files:
            e, stated = parse_valgrind(f)
            if stated is not None and stated != len(e):
                fail.append(f"{name}: {os.path.basename(f)} states {stated} error contexts, "
                            f"{len(e)} read (log format not understood)")
            errs += [(f, x) for x in e]
    else:
        files = sorted(glob.glob(os.path.join(r["dir"], "asan.*")))
        for f in files:
            e, n, n_reports = parse_asan(f)
            if n_reports and not e and not n:
                # A LeakSanitizer report with only indirect leaks is possible;
                # anything else unread is a format we do not understand.
                text = open(f, errors="replace").read()
                if "Indirect leak" not in text:
                    fail.append(f"{name}: {os.path.basename(f)}: report not understood:\n{text[:3000]}")
            notes += [f"{name}: {x}" for x in n]
            errs += [(f, x) for x in e]
    for f, e in errs:
        ours = "ours" in e["classes"]
        culprit = culprit_of(e["classes"])
        if e["leak"]:
            if ours:
                fail.append(f"{name}: LEAK IN OUR LIBRARY ({os.path.basename(f)}):\n{e['text']}")
            else:
                foreign_leaks.append((name, e["kind"]))
            continue
        if culprit == "ours":
            fail.append(f"{name}: ERROR IN OUR LIBRARY ({os.path.basename(f)}):\n{e['text']}")
            continue
        hit = None
        for a in allowed:
            if a["tool"] in (tool, "*") and a["culprit"] == culprit and fnmatch.fnmatchcase(name, a["run"]):
                hit = a
                break
        if hit:
            hit["used"] += 1
            allowed_hits.append((name, culprit, e["kind"]))
        else:
            fail.append(f"{name}: error in the {culprit} (not listed in {os.path.basename(allowed_path)}; "
                        f"{os.path.basename(f)}):\n{e['text']}")

for a in allowed:
    if a["tool"] in (tool, "*") and a["ran"] and not a["used"]:
        fail.append(f"{allowed_path}:{a['line']}: `{a['tool']} {a['run']} {a['culprit']}` no longer "
                    f"matches any error: remove it")

def count_by(items):
    c = {}
    for n, *_ in items:
        c[n] = c.get(n, 0) + 1
    return ", ".join(f"{n} {k}" for n, k in sorted(c.items()))

total_ms = sum(r["ms"] for r in runs)
lines = []
lines.append(f"sanitize {tool}: {len(runs)} runs"
             + (f", {procs} processes checked" if tool == "valgrind" else "")
             + f", {total_ms / 1000:.0f} s of runs")
groups = {}
for r in runs:
    g = r["name"].split("/")[0]
    groups.setdefault(g, [0, 0])
    groups[g][0] += 1
    groups[g][1] += r["ms"]
lines.append("  " + "; ".join(f"{g}: {n} runs, {ms / 1000:.0f} s" for g, (n, ms) in sorted(groups.items())))
lines.append(f"  errors in our library: {sum(1 for f in fail if 'OUR LIBRARY' in f)}")
lines.append(f"  errors outside it, allowed by {os.path.basename(allowed_path)}: {len(allowed_hits)}"
             + (f" ({count_by(allowed_hits)})" if allowed_hits else ""))
lines.append(f"  leaks of the test programs' own allocations (not ours, not failures): {len(foreign_leaks)}"
             + (f" ({count_by(foreign_leaks)})" if foreign_leaks else ""))
for n in notes[:20]:
    lines.append(f"  note: {n}")
slow = sorted(runs, key=lambda r: -r["ms"])[:5]
lines.append("  slowest: " + ", ".join(f"{r['name']} {r['ms'] / 1000:.1f} s" for r in slow))
lines.append(f"  FAILURES: {len(fail)}" if fail else "  result: clean")
report = "\n".join(lines)
table = "\n".join(f"{r['name']:<44} rc={r['rc']:<4} {r['ms'] / 1000:7.1f} s" for r in runs)
with open(os.path.join(os.path.dirname(logs.rstrip('/')), "report.txt"), "w") as fh:
    fh.write(report + "\n\n" + table + "\n\n" + "\n\n".join(fail) + "\n")
print(report)
for f in fail[:25]:
    print("\n--- FAIL " + f[:6000])
if len(fail) > 25:
    print(f"\n... and {len(fail) - 25} more (all in report.txt):")
    for f in fail[25:]:
        print("  " + f.splitlines()[0])
sys.exit(1 if fail else 0)
PY
}

# ---------------------------------------------------------------------------
status=0
for tool in "${tools[@]}"; do
  work=$base/$tool
  rm -rf "$work"
  mkdir -p "$work"
  double=$work/double
  build=$work/build
  logs=$work/logs
  mkdir -p "$logs"
  build_double "$double"
  if [[ $tool == asan ]]; then
    echo 'int main(void) { return 0; }' >"$work/probe.c"
    # nvcc's host compiler (g++ on PATH) must have libasan.
    g++ -x c++ -fsanitize=address "$work/probe.c" -o "$work/probe" ||
      { echo "sanitize: g++ cannot build with -fsanitize=address (Debian: libasan8, with g++)" >&2; exit 1; }
    export NVCC_APPEND_FLAGS="-Xcompiler=-fsanitize=address,-fsanitize-recover=address,-fno-omit-frame-pointer"
  else
    unset NVCC_APPEND_FLAGS
  fi
  t0=$(now_ms)
  echo "sanitize $tool: building the programs into $build ($jobs jobs)" >&2
  build_all "$build" "$double"
  unset NVCC_APPEND_FLAGS
  t1=$(now_ms)
  n=$(cases | wc -l)
  echo "sanitize $tool: built in $(((t1 - t0) / 1000)) s; $n programs in the list" >&2
  while IFS='|' read -r name drv envs cmd; do
    # shellcheck disable=SC2053 # SANITIZE_RUNS is a glob
    [[ -z ${SANITIZE_RUNS:-} || $name == $SANITIZE_RUNS ]] || continue
    read -r -a argv <<<"$cmd"
    spawn run_case "$name" "$drv" "$envs" "$build/${argv[0]}" "${argv[@]:1}"
  done < <(cases)
  wait
  t2=$(now_ms)
  echo "sanitize $tool: ran in $(((t2 - t1) / 1000)) s" >&2
  if judge; then :; else status=1; fi
  echo "sanitize $tool: build $(((t1 - t0) / 1000)) s, runs $(((t2 - t1) / 1000)) s, total $(((t2 - t0) / 1000)) s; report: $work/report.txt"
done
exit $status
