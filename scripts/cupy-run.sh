#!/usr/bin/env bash
# On the GPU machine: run CuPy's own tests/cupy_tests/cuda_tests/ against the
# two CuPy 14.2.0 wheels made by scripts/cupy-prepare.sh, once with the
# wheel linked with our libcudart_static.a (ours/) and once with the wheel
# linked with NVIDIA's (nvidia/). No network: each wheel is installed with
# pip --no-index --no-deps into its own --target folder, which goes first
# on PYTHONPATH; numpy, pytest and cuda-pathfinder come from the machine's
# Python ($CUPY_PYTHON, else /opt/torch/.venv/bin/python3 if present, else
# python3).
#
# Usage: cupy-run.sh [BUNDLE]      (default: cupy-bundle, or this script's
#                                   folder when it lies in a bundle)
# Writes $OUT/cupy/ (OUT defaults to ./out):
#   probe-ours.txt, probe-nvidia.txt   cupy.__file__, runtime/driver versions,
#                                      a kernel run, libcudart mappings (must
#                                      be none), the modules CUDART_TRACE=1
#                                      names as carrying our runtime
#   probe-*.stderr                     the probe's stderr (CUDART_TRACE)
#   junit-ours/, junit-nvidia/         pytest --junitxml, one file per test file
#   pytest-ours-*.log, ...             pytest -v per test file; pytest-ours.log
#                                      has one line per file (exit code, tail)
#   hung-ours.txt, hung-nvidia.txt     files that ran out of time, with the
#                                      test that was running
#   summary.txt                        exit codes, and cupy-report.py's table
# Env: CUPY_TEST_FILES (test files under tests/, default: most of
#      cuda_tests and a part of core_tests), CUPY_TEST_TIMEOUT (seconds per
#      file, default 60; pytest is interrupted with SIGINT, so its junit
#      file is usually still written), CUPY_BUDGET (no file starts after
#      this many seconds of a runtime's tests, default 150), CUPY_TEST_K
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
[[ -d $bundle/ours && -d $bundle/nvidia && -d $bundle/tests ]] || {
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
  ndarray raw reduction scan carray elementwise cub_reduction ndarray_copy_and_view)}
targets=${TMPDIR:-/tmp}/cupy-run.$$
mkdir -p "$targets"
trap 'rm -rf "$targets"' EXIT

{
  echo "python: $py ($("$py" --version 2>&1))"
  echo "bundle: $bundle"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
} | tee "$out/summary.txt"

for which in ours nvidia; do
  whl=$(ls "$bundle/$which"/cupy-*.whl | head -1)
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

  # Which runtime is in the process: cupy must come from the target, the
  # process must map no libcudart*.so, and our static runtime announces
  # itself under CUDART_TRACE=1 (NVIDIA's prints nothing).
  (cd "$targets" && CUDART_TRACE=1 PYTHONPATH="$target" "$py" - "$target" "$which" \
      >"$out/probe-$which.txt" 2>"$out/probe-$which.stderr") <<'EOF'
import os, sys
target, which = sys.argv[1], sys.argv[2]
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
if cudarts:
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
  # Rust) linked into MODULE ..." once for each module that carries a copy
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
for which in ours nvidia; do
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
  for which in ours nvidia; do
    [[ -d $targets/$which ]] || continue
    export CUPY_CACHE_DIR=$targets/kernel-cache-$which
    t0=$SECONDS
    (cd "$bundle/tests" && PYTHONPATH="$targets/$which" timeout -s INT -k 10 "$tmo" \
      "$py" -m pytest -c "$bundle/tests/pyproject.toml" --rootdir "$bundle/tests" \
        -p no:cacheprovider -v -rfE -k "$kexpr" \
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
for which in ours nvidia; do
  echo "$which pytest: $(grep -c '^== ' "$out/pytest-$which.log") files" | tee -a "$out/summary.txt"
  sed 's/^/  /' "$out/pytest-$which.log" | tee -a "$out/summary.txt"
done

"$py" "$report" "$out" | tee -a "$out/summary.txt"
