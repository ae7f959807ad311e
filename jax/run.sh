#!/usr/bin/env bash
# Runs jax/workload.py, and JAX's own test files where they are at hand,
# under NVIDIA's runtime and under ours, in one go on the GPU machine
# (bash + python3 with jax and its CUDA 13 plugin; no cargo, no network):
#
#   jax/run.sh OUR_LIB_DIR OUT [ROUNDS]
#
# NVIDIA's runs are plain `python3` (the plugin loads the libcudart.so.13
# of the nvidia wheels); ours go through scripts/with-cudart.sh --check,
# which fails a run (exit 3) if any Python process of it mapped another
# libcudart. with-cudart.sh is looked for beside this folder
# (../scripts/with-cudart.sh), in the repository or in a bundle made by
# jax/prepare.sh.
#
# 1. The workload, ROUNDS rounds (default 1), runtimes alternating (NVIDIA
#    first in odd rounds): OUT/{nvidia,ours}.<round>.json and .err. A crash
#    under ours (a signal) is run again with CUDART_TRACE=all
#    (OUT/ours.crash, OUT/ours.crash.trace.tail).
# 2. JAX's tests: each file of JAX_TEST_FILES (default fft_test.py
#    random_test.py memories_test.py) found in JAX_TESTS_DIR (default: the
#    tests/ folder beside this script) runs in one pytest process per
#    runtime, the runtimes alternating which goes first, each under
#    `timeout -s INT ${JAX_TEST_TIMEOUT:-120}`:
#      OUT/junit-<rt>/<file>.xml     pytest --junitxml
#      OUT/pytest-<rt>-<file>.log    pytest -v -rA (with -v the last test
#                                    named without an outcome is the one
#                                    that hung)
#      OUT/pytest-<rt>.log           one line per file: exit code, time
#      OUT/hung-<rt>.txt             files stopped by their time limit
#    No file starts after JAX_BUDGET seconds (default 240) of tests; those
#    left are named in run.log. absl-py (JAX's tests need it): if python3
#    cannot import it, the wheels in wheels/ beside this script are
#    installed into a temporary folder put on PYTHONPATH (pip --no-index,
#    else unzipped).
# OUT/run.log says what ran; OUT/ours-lib.txt names our library.
# jax/report.py OUT turns it all into the report.
#
# Env: WORKLOAD_PARTS (a comma list of the workload's parts),
#   WORKLOAD_TIMEOUT (seconds per workload process, default 300),
#   JAX_PYTHON (default python3), JAX_PLATFORMS (default cuda: JAX fails
#   instead of falling back to the CPU), JAX_TEST_K (pytest -k),
#   JAX_NUM_GENERATED_CASES (JAX's own: parameterized cases per test,
#   default 10). XLA_PYTHON_CLIENT_PREALLOCATE=false is set for every run.
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
[[ $# -ge 2 && $# -le 3 ]] || { echo "usage: $0 OUR_LIB_DIR OUT [ROUNDS]  (--help)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
wc=$(cd "$here/.." && pwd)/scripts/with-cudart.sh
[[ -f $wc ]] || { echo "jax/run.sh: no $wc (run from the repository or a jax/prepare.sh bundle)" >&2; exit 2; }
libdir=$(cd "$1" && pwd)
[[ -e $libdir/libcudart.so.13 ]] || { echo "jax/run.sh: no $libdir/libcudart.so.13" >&2; exit 2; }
mkdir -p "$2"
out=$(cd "$2" && pwd)
rounds=${3:-1}
py=${JAX_PYTHON:-python3}
tmo=${WORKLOAD_TIMEOUT:-300}
tests=${JAX_TESTS_DIR:-$here/tests}
files=${JAX_TEST_FILES:-fft_test.py random_test.py memories_test.py}
ttmo=${JAX_TEST_TIMEOUT:-120}
budget=${JAX_BUDGET:-240}
kexpr=${JAX_TEST_K:-}
export XLA_PYTHON_CLIENT_PREALLOCATE=false
export JAX_PLATFORMS=${JAX_PLATFORMS-cuda}
export PYTHONFAULTHANDLER=1  # a crash prints the Python stacks (both runtimes)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jax-run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

log() { echo "$*" | tee -a "$out/run.log"; }
ours() { bash "$wc" --lib "$libdir" --check -- "$@"; }

: >"$out/run.log"
readlink -f "$libdir/libcudart.so.13" >"$out/ours-lib.txt"
log "ours: $(cat "$out/ours-lib.txt") (sha256 $(sha256sum "$libdir/libcudart.so.13" | cut -c1-16))"
log "python: $(command -v "$py") ($("$py" --version 2>&1))"
"$py" - >>"$out/run.log" 2>&1 <<'EOF' || true
from importlib import metadata
for d in ("jax", "jaxlib", "jax-cuda13-plugin", "jax-cuda13-pjrt", "numpy", "pytest", "absl-py"):
    try:
        print("%s %s" % (d, metadata.version(d)))
    except Exception:
        print("%s (not installed)" % d)
EOF
log "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo '?')"
log "JAX_PLATFORMS=$JAX_PLATFORMS XLA_PYTHON_CLIENT_PREALLOCATE=$XLA_PYTHON_CLIENT_PREALLOCATE XLA_FLAGS=${XLA_FLAGS:-} WORKLOAD_PARTS=${WORKLOAD_PARTS:-(all)}"

# ---------------------------------------------------------------- workload
crash_rerun() {  # a signal under ours: again with the lifecycle trace
  : >"$out/ours.crash"
  local cb try rc
  cb=$(cd "$here/.." && pwd)/scripts/crash-backtrace.so
  for try in 1 2 3; do
    echo "--- rerun $try with CUDART_TRACE=all" >>"$out/ours.crash"
    rc=0
    if [[ -e $cb ]]; then
      LD_PRELOAD=$cb CUDART_TRACE=all CUDART_TRACE_FILE="$out/ours.crash.trace" timeout -k 10 "$tmo" \
        bash "$wc" --lib "$libdir" -- "$py" "$here/workload.py" >/dev/null 2>>"$out/ours.crash" || rc=$?
    else
      CUDART_TRACE=all CUDART_TRACE_FILE="$out/ours.crash.trace" timeout -k 10 "$tmo" \
        bash "$wc" --lib "$libdir" -- "$py" "$here/workload.py" >/dev/null 2>>"$out/ours.crash" || rc=$?
    fi
    echo "trace rerun $try: rc $rc" >>"$out/ours.crash"
    if ((rc >= 128 && rc != 137)); then break; fi
  done
  if command -v gdb >/dev/null; then
    timeout -k 10 "$tmo" bash "$wc" --lib "$libdir" -- \
      gdb -q -batch -ex run -ex bt -ex "info threads" -ex "thread apply all bt 8" \
      --args "$py" "$here/workload.py" >>"$out/ours.crash" 2>&1 || true
  else
    echo "no gdb on this machine" >>"$out/ours.crash"
  fi
  tail -c 300000 "$out/ours.crash.trace" >"$out/ours.crash.trace.tail" 2>/dev/null || true
  rm -f "$out/ours.crash.trace"
}

run_workload() {  # run_workload nvidia|ours ROUND
  local rt=$1 r=$2 rc=0 t0=$SECONDS
  if [[ $rt == nvidia ]]; then
    timeout -k 10 "$tmo" "$py" "$here/workload.py" >"$out/nvidia.$r.json" 2>"$out/nvidia.$r.err" || rc=$?
  else
    timeout -k 10 "$tmo" bash "$wc" --lib "$libdir" --check -- \
      "$py" "$here/workload.py" >"$out/ours.$r.json" 2>"$out/ours.$r.err" || rc=$?
  fi
  log "workload $rt round $r: rc $rc, $((SECONDS - t0))s"
  if [[ $rt == ours ]] && ((rc >= 128 && rc != 137)) && [[ ! -e $out/ours.crash ]]; then
    crash_rerun
  fi
}

for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then
    run_workload nvidia "$r"; run_workload ours "$r"
  else
    run_workload ours "$r"; run_workload nvidia "$r"
  fi
done

# ---------------------------------------------------------------- JAX's tests
summary() {  # pytest's closing line of a log (else its last line), and with-cudart's verdict
  local line
  line=$(grep -E '^=+ .* =+$' "$1" | tail -n 1 || true)
  [[ -n $line ]] || line=$(tail -n 1 "$1")
  echo "$line $(grep -m 1 '^with-cudart:' "$1" || true)"
}

run_tests() {
  if [[ ! -d $tests ]]; then
    log "tests: no $tests (bundle made without --tests-from): JAX's tests not run"
    return 0
  fi
  tests=$(cd "$tests" && pwd)
  if ! "$py" -c 'import absl.testing.absltest' 2>/dev/null; then
    local whls=() w
    for w in "$here"/wheels/*.whl; do [[ -f $w ]] && whls+=("$w"); done
    if ((${#whls[@]})); then
      mkdir -p "$tmp/pydeps"
      if ! "$py" -m pip install -q --no-deps --no-index --disable-pip-version-check \
          --target "$tmp/pydeps" "${whls[@]}" >"$out/pip.log" 2>&1; then
        log "tests: pip install of ${whls[*]##*/} failed (pip.log): unzipping them"
        "$py" -c 'import sys, zipfile
for w in sys.argv[2:]:
    zipfile.ZipFile(w).extractall(sys.argv[1])' "$tmp/pydeps" "${whls[@]}" || true
      fi
      export PYTHONPATH=$tmp/pydeps${PYTHONPATH:+:$PYTHONPATH}
    fi
    if ! "$py" -c 'import absl.testing.absltest' 2>/dev/null; then
      log "tests: absl-py cannot be imported (no wheel in $here/wheels?): JAX's tests not run"
      return 0
    fi
    log "tests: absl-py from ${whls[*]##*/}"
  fi
  # Settings of our own, so that no pytest.ini or pyproject.toml above the
  # tests folder is picked up.
  printf '[pytest]\n' >"$tmp/pytest.ini"
  local rt f stem frc hung i=0 t0 start=$SECONDS order
  for rt in nvidia ours; do
    mkdir -p "$out/junit-$rt"
    : >"$out/hung-$rt.txt"
    : >"$out/pytest-$rt.log"
  done
  log "tests: $files from $tests (timeout ${ttmo}s a file, budget ${budget}s${kexpr:+, -k $kexpr})"
  for f in $files; do
    if ((SECONDS - start >= budget)); then
      log "tests: budget of ${budget}s spent, not run: $f"
      continue
    fi
    if [[ ! -f $tests/$f ]]; then
      log "tests: no $tests/$f"
      continue
    fi
    stem=${f%.py}
    stem=${stem//\//_}
    if ((i % 2 == 0)); then order="nvidia ours"; else order="ours nvidia"; fi
    i=$((i + 1))
    for rt in $order; do
      frc=0
      t0=$SECONDS
      (
        cd "$tests"
        cmd=("$py" -m pytest -c "$tmp/pytest.ini" --rootdir "$tests" -p no:cacheprovider
             -v -rA --junitxml "$out/junit-$rt/$stem.xml")
        [[ -n $kexpr ]] && cmd+=(-k "$kexpr")
        if [[ $rt == ours ]]; then cmd=(bash "$wc" --lib "$libdir" --check -- "${cmd[@]}"); fi
        exec timeout -s INT -k 10 "$ttmo" "${cmd[@]}" "$f"
      ) >"$out/pytest-$rt-$stem.log" 2>&1 || frc=$?
      echo "== $f rc=$frc $((SECONDS - t0))s: $(summary "$out/pytest-$rt-$stem.log")" >>"$out/pytest-$rt.log"
      if ((frc == 124 || frc == 137)); then
        hung=$(grep -E '^[^ ]+::[^ ]+ *$' "$out/pytest-$rt-$stem.log" | tail -n 1 || true)
        echo "$f ${hung:-(no unfinished test line)}" >>"$out/hung-$rt.txt"
      fi
    done
  done
  for rt in nvidia ours; do
    log "$rt pytest: $(grep -c '^== ' "$out/pytest-$rt.log" || true) files"
    sed 's/^/  /' "$out/pytest-$rt.log" | tee -a "$out/run.log"
  done
}
run_tests
