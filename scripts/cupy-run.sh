#!/usr/bin/env bash
# On the GPU machine: run CuPy's own tests (tests/cupy_tests/cuda_tests and
# a part of core_tests) with the CuPy 14.2.0 wheels made by
# scripts/cupy-prepare.sh, in up to four runs ($CUPY_RUNS picks, default
# all the bundle has):
#   ours           the wheel linked with our libcudart_static.a (ours/)
#   nvidia         the wheel linked with NVIDIA's (nvidia/)
#   shared-ours    the wheel linked with -lcudart (shared/), with
#                  LD_LIBRARY_PATH=shared/lib-ours (our libcudart.so.13)
#   shared-nvidia  the same wheel with LD_LIBRARY_PATH=shared/lib-nvidia
#                  (NVIDIA's libcudart.so.13)
# No network: each wheel is installed with
# pip --no-index --no-deps into its own --target folder, which goes first
# on PYTHONPATH; numpy, pytest and cuda-pathfinder come from the machine's
# Python ($CUPY_PYTHON, else /opt/torch/.venv/bin/python3 if present, else
# python3).
#
# Usage: cupy-run.sh [BUNDLE]      (default: cupy-bundle, or this script's
#                                   folder when it lies in a bundle)
# Writes $OUT/cupy/ (OUT defaults to ./out):
#   probe-RUN.txt                      cupy.__file__, runtime/driver versions,
#                                      a kernel run, libcudart mappings (none
#                                      in the static runs; exactly the chosen
#                                      libcudart.so.13 in the shared runs),
#                                      the modules CUDART_TRACE=1 names as
#                                      carrying our runtime
#   probe-*.stderr                     the probe's stderr (CUDART_TRACE)
#   junit-RUN/                         pytest --junitxml, one file per test file
#   pytest-RUN-*.log, ...              pytest -v per test file; pytest-RUN.log
#                                      has one line per file (exit code, tail)
#   hung-RUN.txt                       files that ran out of time, with the
#                                      test that was running
#   maps-RUN.txt                       per pytest process: the test file and
#                                      the libcudart files it mapped ("none")
#   summary.txt                        exit codes, and cupy-report.py's table
# Env: CUPY_TEST_FILES (test files under tests/, default: most of
#      cuda_tests, then the core_tests that use the runtime most: raw
#      kernels, __cuda_array_interface__ and DLPack streams, sync
#      detection, threads, then reductions, scans and arrays), CUPY_TEST_TIMEOUT (seconds per
#      file, default 60; pytest is interrupted with SIGINT, so its junit
#      file is usually still written), CUPY_BUDGET (no file starts after
#      this many seconds of the test loop, default 150; each file runs
#      under every run before the next file starts), CUPY_TEST_K
#      (pytest -k, default "not jitify"). Each run gets its own empty
#      CUPY_CACHE_DIR.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
if [[ $# -ge 1 ]]; then
  bundle=$(cd "$1" && pwd)
elif [[ -d $here/ours && -d $here/tests ]]; then
  bundle=$here
else
  bundle=$(cd "$here/.." && pwd)/cupy-bundle
fi
[[ -d $bundle/tests ]] || {
  echo "cupy-run: $bundle is not a bundle (run scripts/cupy-prepare.sh)" >&2; exit 2; }
report=$bundle/cupy-report.py
[[ -f $report ]] || report=$here/cupy-report.py
out=${OUT:-$PWD/out}/cupy
mkdir -p "$out"
py=${CUPY_PYTHON:-/opt/torch/.venv/bin/python3}
[[ -x $py ]] || py=$(command -v python3)
tmo=${CUPY_TEST_TIMEOUT:-60}
budget=${CUPY_BUDGET:-150}
kexpr=${CUPY_TEST_K:-not jitify}
files=${CUPY_TEST_FILES:-$(printf 'cupy_tests/cuda_tests/test_%s.py ' \
  runtime stream device driver memory pinned_memory graph texture cublas curand \
  nvrtc profile nvtx cufft) $(printf 'cupy_tests/core_tests/test_%s.py ' \
  raw ndarray_cuda_array_interface dlpack syncdetect multithreading userkernel \
  reduction scan elementwise cub_reduction carray ndarray_copy_and_view ndarray \
  function ndarray_get ndarray_scatter ndarray_reduction)}
targets=${TMPDIR:-/tmp}/cupy-run.$$
mkdir -p "$targets"
trap 'rm -rf "$targets"' EXIT

{
  echo "python: $py ($("$py" --version 2>&1))"
  echo "bundle: $bundle"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
} | tee "$out/summary.txt"

if [[ -n ${CUPY_RUNS:-} ]]; then
  runs=$CUPY_RUNS
else
  runs=""
  for r in ours nvidia; do [[ -d $bundle/$r ]] && runs+="$r "; done
  [[ -d $bundle/shared ]] && runs+="shared-ours shared-nvidia"
fi
echo "runs: $runs" | tee -a "$out/summary.txt"

# wheel_dir RUN: the bundle folder of RUN's wheel; lib_dir RUN: the folder
# LD_LIBRARY_PATH starts with (empty for the static runs)
wheel_dir() { case $1 in shared-*) echo "$bundle/shared" ;; *) echo "$bundle/$1" ;; esac; }
lib_dir() { case $1 in shared-*) echo "$bundle/shared/lib-${1#shared-}" ;; *) echo "" ;; esac; }
ldpath() { local l; l=$(lib_dir "$1"); echo "${l:+$l${LD_LIBRARY_PATH:+:}}${LD_LIBRARY_PATH:-}"; }

for which in $runs; do
  whl=$(ls "$(wheel_dir "$which")"/cupy-*.whl 2>/dev/null | head -1)
  [[ -n $whl ]] || { echo "$which: no wheel in $(wheel_dir "$which")" | tee -a "$out/summary.txt"; continue; }
  target=$targets/$which
  # a kernel cache of its own for each runtime (both builds share
  # CUPY_CACHE_KEY)
  export CUPY_CACHE_DIR=$targets/kernel-cache-$which
  echo "== $which: $(basename "$whl")" | tee -a "$out/summary.txt"
  if ! "$py" -m pip install -q --no-deps --no-index --disable-pip-version-check \
      --target "$target" "$whl" >"$out/pip-$which.log" 2>&1; then
    echo "$which: pip install failed" | tee -a "$out/summary.txt"
    cat "$out/pip-$which.log"
    rm -rf "$target"
    continue
  fi

  # Which runtime is in the process: cupy must come from the target; a
  # static run must map no libcudart*.so, a shared run exactly the chosen
  # lib-*/libcudart.so.13; our runtime announces itself under
  # CUDART_TRACE=1 (NVIDIA's prints nothing).
  (cd "$targets" && CUDART_TRACE=1 PYTHONPATH="$target" LD_LIBRARY_PATH="$(ldpath "$which")" \
      "$py" - "$target" "$which" "$(lib_dir "$which")" \
      >"$out/probe-$which.txt" 2>"$out/probe-$which.stderr") <<'EOF'
import os, sys
target, which, libdir = sys.argv[1], sys.argv[2], sys.argv[3]
import cupy
from cupy.cuda import runtime as rt
import cupy_backends.cuda.api.runtime as rtmod
ok = True
print("cupy", cupy.__version__, cupy.__file__)
if not os.path.realpath(cupy.__file__).startswith(os.path.realpath(target) + os.sep):
    print("FAIL: cupy is not imported from", target); ok = False
print("runtime module", rtmod.__file__)
print("runtimeGetVersion", rt.runtimeGetVersion())
print("driverGetVersion", rt.driverGetVersion())
print("device", rt.getDeviceProperties(0)["name"].decode(), "count", rt.getDeviceCount())
a = cupy.arange(1000, dtype=cupy.float32)
s = float((a * 2).sum())
print("kernel (arange*2).sum =", s, "ok" if s == 999000.0 else "WRONG")
ok &= s == 999000.0
x = cupy.random.rand(64, 64, dtype=cupy.float64)
print("cub/thrust sort ok", bool((cupy.sort(x.ravel())[1:] >= cupy.sort(x.ravel())[:-1]).all()))
cudarts = sorted({l.split()[-1] for l in open("/proc/self/maps")
                  if "libcudart" in l and len(l.split()) >= 6})
print("libcudart mappings:", cudarts or "none")
if libdir:
    want = [os.path.realpath(os.path.join(libdir, "libcudart.so.13"))]
    if [os.path.realpath(c) for c in cudarts] != want:
        print("FAIL: want exactly", want[0], "mapped"); ok = False
elif cudarts:
    print("FAIL: a shared libcudart is loaded"); ok = False
with open(rtmod.__file__, "rb") as f:
    has_rs = b".cudart_rs" in f.read()
print("runtime module has .cudart_rs section name:", has_rs)
if has_rs != (which == "ours"):
    print("FAIL: runtime module carries the wrong runtime"); ok = False
print("PROBE", "ok" if ok else "FAIL")
sys.exit(0 if ok else 1)
EOF
  prc=$?
  # our runtime prints "[cudart ...] runtime: libcudart_static.a (clean-room,
  # Rust) linked into MODULE ..." once for each module that carries a copy,
  # and "runtime: libcudart.so.13 ..." as the shared library
  trace=$(grep -m1 'runtime: libcudart' "$out/probe-$which.stderr" | sed 's/^\[[^]]*\] //')
  [[ -n $trace ]] || trace="(no CUDART_TRACE line: not our runtime)"
  {
    echo "CUDART_TRACE first line: $trace"
    echo "CUDART_TRACE 'linked into' lines: $(grep -c 'runtime: libcudart_static.a' "$out/probe-$which.stderr")"
    grep 'runtime: libcudart_static.a' "$out/probe-$which.stderr" | sed 's/.* linked into \([^,]*\),.*/  \1/'
  } >>"$out/probe-$which.txt"
  echo "$which probe rc=$prc; $trace" | tee -a "$out/summary.txt"
  sed 's/^/  /' "$out/probe-$which.txt"
done

# One pytest process per test file and runtime, the two runtimes one after
# the other for each file, each under its own time limit, so a test that
# hangs costs one file, not the run; -v names each test before it runs,
# so the last unfinished line of a file that timed out is the test that
# hung (hung-RUNTIME.txt).
# A pytest plugin that appends, at the end of each pytest process, the test
# file and every libcudart the process mapped to maps-RUN.txt: the check
# that every test process ran on the intended runtime.
mkdir -p "$targets/plugin"
cat >"$targets/plugin/cupy_maps_check.py" <<'EOF'
import os


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("CUPY_MAPS_FILE")
    if not path:
        return
    with open("/proc/self/maps") as f:
        libs = sorted({l.split()[-1] for l in f if "libcudart" in l and len(l.split()) >= 6})
    with open(path, "a") as f:
        f.write("%s %s\n" % (os.environ.get("CUPY_MAPS_TEST", "?"),
                             " ".join(os.path.realpath(l) for l in libs) or "none"))
EOF
for which in $runs; do
  : >"$out/maps-$which.txt"
  mkdir -p "$out/junit-$which"
  : >"$out/hung-$which.txt"
  : >"$out/pytest-$which.log"
done
start=$SECONDS
for f in $files; do
  if (( SECONDS - start >= budget )); then
    echo "budget of ${budget}s spent, not run: $f" | tee -a "$out/summary.txt"
    continue
  fi
  [[ -f $bundle/tests/$f ]] || { echo "no $f" | tee -a "$out/summary.txt"; continue; }
  name=$(echo "$f" | tr '/' '_')
  for which in $runs; do
    [[ -d $targets/$which ]] || continue
    export CUPY_CACHE_DIR=$targets/kernel-cache-$which
    t0=$SECONDS
    (cd "$bundle/tests" && PYTHONPATH="$targets/$which:$targets/plugin" LD_LIBRARY_PATH="$(ldpath "$which")" \
      CUPY_MAPS_FILE="$out/maps-$which.txt" CUPY_MAPS_TEST="$f" timeout -s INT -k 10 "$tmo" \
      "$py" -m pytest -c "$bundle/tests/pyproject.toml" --rootdir "$bundle/tests" \
        -p no:cacheprovider -p cupy_maps_check -v -rfE -k "$kexpr" \
        --junitxml "$out/junit-$which/$name.xml" "$f" \
        >"$out/pytest-$which-$name.log" 2>&1)
    frc=$?
    echo "== $f rc=$frc $((SECONDS - t0))s: $(tail -1 "$out/pytest-$which-$name.log")" >>"$out/pytest-$which.log"
    if (( frc == 124 || frc == 137 )); then
      hung=$(grep -E '^[^ ]+::[^ ]+ *$' "$out/pytest-$which-$name.log" | tail -1)
      echo "$f ${hung:-(no unfinished test line)}" >>"$out/hung-$which.txt"
    fi
  done
done
# Every pytest process must have mapped no libcudart (static runs) or
# exactly the run's lib-*/libcudart.so.13 (shared runs).
for which in $runs; do
  l=$(lib_dir "$which")
  want=none
  [[ -n $l ]] && want=$(readlink -f "$l/libcudart.so.13")
  total=$(wc -l <"$out/maps-$which.txt")
  good=$(awk -v w="$want" '{ $1 = ""; sub(/^ /, ""); if ($0 == w) n++ } END { print n + 0 }' "$out/maps-$which.txt")
  echo "$which: $good of $total pytest processes mapped only the intended runtime ($want)" | tee -a "$out/summary.txt"
done
for which in $runs; do
  echo "$which pytest: $(grep -c '^== ' "$out/pytest-$which.log") files" | tee -a "$out/summary.txt"
  sed 's/^/  /' "$out/pytest-$which.log" | tee -a "$out/summary.txt"
done

"$py" "$report" "$out" | tee -a "$out/summary.txt"
