#!/usr/bin/env bash
# The whole GPU round trip in one device command (scripts/gpu-prepare.sh
# and scripts/bench-prepare.sh make the two bundles here):
#
#   bash gpu-bundle/gpu-all.sh gpu-bundle bench-bundle "$OUT"
#
# Parts, in this order, each under its own time limit so one hang cannot
# eat the others' time. One device command may run 10 minutes, so the
# round trip is three commands, back to back (the machine stays warm):
#   PARTS="samples torch timport diag"  then  PARTS="harness stress"  then
#   PARTS=bench
#   samples  every c-sample under NVIDIA's runtime and ours, with the trace
#            (gpu-run.sh)                               -> OUT/s/results.json
#   torch    the PyTorch workload under both (pytorch/run.sh), TORCH_ROUNDS
#            rounds (default 3; an exit crash shows in some rounds only)
#   timport  `import torch` timed under NVIDIA's, ours through
#            with-cudart.sh and ours with each of its parts
#            (pytorch/import-probe.sh), TIMPORT_ROUNDS rounds (default
#            5; IMPORT_LABELS picks ways of running, TIMPORT_S_PER_ROUND
#            sets the time allowed a round, default 30)
#   diag     the diagnostics cases (c-samples/diag/run.py)
#   harness  the differential harness in GPU mode (harness-run.sh)
#   insight  c-samples/insight/run.py (CUDART_CHECK/LEAKS/PROFILE/FAULTS,
#            ours and NVIDIA's) and pytorch/insight-run.sh -> OUT/insight/
#   s135     the samples built by nvcc 13.5 (CUDA_TOOLKIT=13.5
#            scripts/gpu-prepare.sh B135) under NVIDIA's 13.5 runtime
#            (B135/nvidia) and ours; B135 is $GB135  -> OUT/s135/results.json
#   cupy     CuPy's tests under both runtimes (scripts/cupy-prepare.sh's
#            bundle, $CUPY_BUNDLE; scripts/cupy-run.sh)
#   jax      the JAX workload and JAX's test files under both runtimes
#            (jax/prepare.sh's bundle, $JAX_BUNDLE; jax/run.sh)
#   stress   rel_stress for STRESS_SECONDS (default 120) under ours, and
#            rel_dlopen_fire for 20 s
#   corpus   whole programs, ABAB (scripts/corpus-run.sh), with the CuPy
#            and JAX workloads where CUPY_BUNDLE and JAX_BUNDLE are given
#   scale    the scale curves (bench/scale/run.sh)
#   scaletrace  the driver calls behind them (bench/scale/trace.sh)
#   teardown what a process's teardown follows, driver only
#            (bench/corpus/teardown_probe.py, TEARDOWN_ROUNDS, default 10)
#   bench    the benchmark suite (bench-run.sh)        -> OUT/bench.json
#   driverpages bench/probe_startup and bench/probe_warm under each runtime,
#            3 processes each: the driver code pages a start-up maps, and
#            which public calls map those a first load needs (OUT rest:
#            driverpages.out)
#   loadprobe bench/probe_load (the driver's public loading paths, 10 paths x
#            5 processes, and the first launch of 100 kernels 4 ways) and bench/probe_first under each runtime (5
#            processes each): where the first launch of a kernel goes
#            (OUT rest: loadprobe.out)
#   firstlaunch bench/firstlaunch.sh: probe_first under NVIDIA's, ours and
#            ours without the trace, FIRST_ROUNDS rounds (default 20) of
#            its variants each (OUT rest: firstlaunch.out)
#   drvtrace bench_ctx under each runtime, 5 processes each, alternating,
#            with bench/drvtrace.so preloaded: every driver call of the
#            start-up and first launch, timed (OUT rest: drvtrace/); also
#            bench_reg and bench_lazy under EAGER, 3 processes each
#            (drvtrace/reg/, drvtrace/eager/)
# Everything else is packed into OUT/rest.tar.gz (the device tool brings
# back at most 8 files). OUT/all.log says what ran and how long it took.
set -uo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
[[ $# -eq 3 ]] || { echo "usage: $0 GPU_BUNDLE BENCH_BUNDLE OUT" >&2; exit 2; }
gb=$(cd "$1" && pwd) || exit 2
bb=$2
[[ -d $bb ]] && bb=$(cd "$bb" && pwd)
mkdir -p "$3" && out=$(cd "$3" && pwd) || exit 2
parts=${PARTS:-samples torch timport diag harness stress bench drvtrace loadprobe firstlaunch driverpages}
rest=$(mktemp -d "${TMPDIR:-/tmp}/gpu-all.XXXXXX")
log=$out/all.log
: >"$log"
t_all=$(date +%s)

nv_lib=${CUDA_LIB_NVIDIA:-}
if [[ -z $nv_lib ]]; then
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [[ -e $d/libcudart.so.13 ]] && { nv_lib=$d; break; }
  done
fi
export CUDA_LIB_NVIDIA=$nv_lib

# GPU_ALL_DEADLINE_S: seconds from the start after which no part runs; a
# part's limit is cut to what is left (less 20 s to pack the results), so a
# device command with a time limit still brings its results back.
deadline=${GPU_ALL_DEADLINE_S:-}
# The installed CuPy wheel and its kernel cache (the corpus's) stay out:
# with them the archive passed the device tool's size limit.
pack() {
  tar czf "$out/rest.tar.gz" --exclude='./s/raw' --exclude='./s135/raw' \
    --exclude='./cupy-target' --exclude='./cupy-cache' -C "$rest" . 2>>"$log"
}
part() {  # part NAME LIMIT_S COMMAND...
  local name=$1 limit=$2
  shift 2
  [[ " $parts " == *" $name "* ]] || return 0
  local t0 rc left
  t0=$(date +%s)
  if [[ -n $deadline ]]; then
    left=$((deadline - (t0 - t_all) - 20))
    if ((left < 30)); then
      echo "== $name: skipped, ${left}s left before GPU_ALL_DEADLINE_S" >>"$log"
      return 0
    fi
    ((limit > left)) && limit=$left
  fi
  echo "== $name (limit ${limit}s) at +$((t0 - t_all))s" >>"$log"
  # PART_LIMIT_S: the seconds the part has, for a script that keeps a
  # budget of its own (bench/scale/run.sh, corpus-run.sh) to stop inside it.
  PART_LIMIT_S=$limit timeout -k 10 "$limit" "$@" >"$rest/$name.out" 2>&1
  rc=$?
  echo "== $name: rc $rc, $(($(date +%s) - t0))s" >>"$log"
  tail -n 25 "$rest/$name.out" >>"$log"
  pack
}

part samples 230 env GPU_RUN_BUDGET=200 bash "$gb/gpu-run.sh" "$gb" "$rest/s"
[[ -f $rest/s/results.json ]] && mkdir -p "$out/s" && cp "$rest/s/results.json" "$out/s/"

torch_rounds=${TORCH_ROUNDS:-3}
part torch $((torch_rounds * 70 + 90)) bash "$gb/pytorch/run.sh" "$gb/lib" "$rest/torch" "$torch_rounds"

# Where `import torch` spends its time under each runtime and launcher part.
timport_rounds=${TIMPORT_ROUNDS:-5}
part timport $((timport_rounds * ${TIMPORT_S_PER_ROUND:-30} + 30)) bash "$gb/pytorch/import-probe.sh" "$gb/lib" "$rest/timport" "$timport_rounds"

part diag 60 python3 "$gb/diag/run.py" "$gb/diag" "$nv_lib" "$gb/lib" "$rest/diag.json"

# The opt-in insight features (CUDART_CHECK/LEAKS/PROFILE/FAULTS): the
# c-samples/insight programs under ours and NVIDIA's, then PyTorch.
if [[ -d $gb/insight ]]; then
  part insight 420 bash -c "
    python3 '$gb/insight/run.py' '$gb/insight' '$gb/lib' '$rest/insight' --lib-nvidia '$nv_lib'; echo \"run.py rc \$?\"
    cd '$gb/insight' && CUDART_PROFILE=1 CUDART_PROFILE_FILE='$rest/insight/profile_timed.trace-profile.txt' \
      CUDART_TRACE_JSON='$rest/insight/profile_timed.trace.json' LD_LIBRARY_PATH='$gb/lib' ./profile_timed; echo \"perfetto rc \$?\"
    bash '$gb/pytorch/insight-run.sh' '$gb/lib' '$rest/insight/torch'"
  [[ -d $rest/insight ]] && cp -r "$rest/insight" "$out/"
fi

if [[ -d $gb/harness ]]; then
  part harness 330 env HARNESS_BAD_BUDGET="${HARNESS_BAD_BUDGET:-70}" HARNESS_ARGS="${HARNESS_ARGS:---gpu --jobs 16}" bash "$gb/scripts/harness-run.sh" "$gb/harness" "$nv_lib" "$gb/lib" "$rest/harness"
fi

if [[ -n ${GB135:-} && -d $GB135 ]]; then
  part s135 200 env CUDA_LIB_NVIDIA="$GB135/nvidia" GPU_RUN_BUDGET=170 bash "$GB135/gpu-run.sh" "$GB135" "$rest/s135"
  [[ -f $rest/s135/results.json ]] && mkdir -p "$out/s135" && cp "$rest/s135/results.json" "$out/s135/"
fi

if [[ -n ${CUPY_BUNDLE:-} && -d $CUPY_BUNDLE ]]; then
  part cupy $((${CUPY_BUDGET:-150} * 2 + 120)) env OUT="$rest" bash "$CUPY_BUNDLE/cupy-run.sh" "$CUPY_BUNDLE"
fi

if [[ -n ${JAX_BUNDLE:-} && -d $JAX_BUNDLE ]]; then
  part jax $((${JAX_BUDGET:-240} + 200)) bash "$JAX_BUNDLE/jax/run.sh" "$gb/lib" "$rest/jax" "${JAX_ROUNDS:-1}"
fi

stress_s=${STRESS_SECONDS:-120}
# The end-to-end corpus (issue 30): every c-sample and bench/corpus
# program, the PyTorch workload and the CuPy and JAX workloads where their
# bundles are given, NVIDIA's and ours alternating, CORPUS_ROUNDS rounds
# (default 5; CORPUS_PARTS picks, as scripts/corpus-run.sh says).
# With CUPY_BUNDLE (its shared/ wheel) and JAX_BUNDLE, and CORPUS_EXTRA
# unset, the CuPy workload (scripts/cupy-workload.py, the one wheel under
# each runtime's lib-*/ by LD_LIBRARY_PATH) and the JAX workload
# (jax/workload.py, ours through with-cudart.sh; CORPUS_JAX_PARTS picks its
# parts, default all) join the corpus as "extra" programs.
if [[ -f $gb/scripts/corpus-run.sh && " $parts " == *" corpus "* && -z ${CORPUS_EXTRA:-} ]]; then
  extra=""
  cpy=/opt/torch/.venv/bin/python3
  [[ -x $cpy ]] || cpy=$(command -v python3)
  if [[ -n ${CUPY_BUNDLE:-} && -f $CUPY_BUNDLE/cupy-workload.py ]] &&
     whl=$(ls "$CUPY_BUNDLE"/shared/cupy-*.whl 2>/dev/null | head -1) && [[ -n $whl ]] &&
     "$cpy" -m pip install -q --no-deps --no-index --disable-pip-version-check \
       --target "$rest/cupy-target" "$whl" >>"$log" 2>&1; then
    sb=$CUPY_BUNDLE/shared
    cw="PYTHONPATH=$rest/cupy-target CUPY_CACHE_DIR=$rest/cupy-cache $cpy $CUPY_BUNDLE/cupy-workload.py"
    # the chosen runtime first, then the machine's LD_LIBRARY_PATH, as
    # scripts/cupy-run.sh sets it for CuPy's tests
    ld=${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    extra+="cupy_workload"$'\t'"EXPECT_LIB=$sb/lib-nvidia LD_LIBRARY_PATH=$sb/lib-nvidia$ld $cw"$'\t'"EXPECT_LIB=$sb/lib-ours LD_LIBRARY_PATH=$sb/lib-ours$ld $cw"$'\n'
  fi
  if [[ -n ${JAX_BUNDLE:-} && -f $JAX_BUNDLE/jax/workload.py ]]; then
    # its own parts: WORKLOAD_PARTS, if set, names the torch workload's
    jw="JAX_PLATFORMS=cuda XLA_PYTHON_CLIENT_PREALLOCATE=false WORKLOAD_PARTS=${CORPUS_JAX_PARTS:-} python3 $JAX_BUNDLE/jax/workload.py"
    extra+="jax_workload"$'\t'"$jw"$'\t'"WITH_CUDART $jw"$'\n'
  fi
  [[ -n $extra ]] && export CORPUS_EXTRA=$extra
fi
if [[ -f $gb/scripts/corpus-run.sh ]]; then
  part corpus "${CORPUS_LIMIT:-300}" bash "$gb/scripts/corpus-run.sh" "$gb" "$gb/lib" "${nv_lib:-auto}" "$rest/corpus" "${CORPUS_ROUNDS:-5}"
  [[ -f $rest/corpus/corpus.json ]] && mkdir -p "$out/corpus" && cp "$rest/corpus/corpus.json" "$out/corpus/"
fi
# The scale curves (bench/scale), SCALE_ROUNDS rounds (default 1), under a
# limit of 150 s a round (at least 240) so that every round fits, unless
# SCALE_LIMIT says (docs/wholeprog.md, "Costs as work grows", gives the
# rounds' times).
if [[ -d $gb/scale ]]; then
  scale_rounds=${SCALE_ROUNDS:-1}
  part scale "${SCALE_LIMIT:-$((scale_rounds * 150 > 240 ? scale_rounds * 150 : 240))}" bash "$gb/scale/run.sh" "$gb/scale" "$gb/lib" "${nv_lib:-auto}" "$rest/scale" "$scale_rounds"
  [[ -f $rest/scale/scale.json ]] && mkdir -p "$out/scale" && cp "$rest/scale/scale.json" "$out/scale/"
fi
# What a process's teardown follows (bench/corpus/teardown_probe.py:
# driver only, nine ways of ending, TEARDOWN_ROUNDS rounds, default 10).
if [[ -f $gb/corpus/teardown_probe.py ]]; then
  part teardown 120 python3 "$gb/corpus/teardown_probe.py" "$gb/corpus/teardown_child" \
    "${TEARDOWN_ROUNDS:-10}" --json "$rest/teardown/teardown.json"
fi
# The driver calls behind the scale curves that grow faster under ours
# (bench/scale/trace.sh: allocations, events, dlclose of kernel libraries).
if [[ -f $gb/scale/trace.sh ]]; then
  part scaletrace 150 bash "$gb/scale/trace.sh" "$gb/scale" "$gb/lib" "${nv_lib:-auto}" "$rest/scaletrace"
fi

# A crash prints a native backtrace (scripts/crash-backtrace.so, preloaded).
cb=$gb/scripts/crash-backtrace.so
[[ -e $cb ]] || cb=
part stress $((stress_s + 70)) bash -c "
  cd '$gb/bin' &&
  echo '--- rel_stress, ours, ${stress_s} s' && LD_PRELOAD='$cb' LD_LIBRARY_PATH='$gb/lib' REL_STRESS_SECONDS=$stress_s ./rel_stress; echo \"rc \$?\";
  echo '--- rel_dlopen_fire, ours, 20 s' && LD_PRELOAD='$cb' LD_LIBRARY_PATH='$gb/lib' REL_FIRE_SECONDS=20 ./rel_dlopen_fire; echo \"rc \$?\""

if [[ -d $bb ]]; then
  part bench 400 bash "$bb/bench-run.sh" "$bb" "$rest/b"
  [[ -f $rest/b/bench.json ]] && cp "$rest/b/bench.json" "$out/"
fi

if [[ -d $bb && -e $bb/bin/drvtrace.so ]]; then
  part drvtrace 90 bash -c "
    mkdir -p '$rest/drvtrace/reg' '$rest/drvtrace/eager' && cd '$bb/bin' &&
    for i in 1 2 3 4 5; do for rt in nvidia ours; do
      d='$nv_lib'; [[ \$rt == ours ]] && d='$bb/lib'
      LD_PRELOAD='$bb/bin/drvtrace.so' DRVTRACE_FILE='$rest/drvtrace/'\$rt.\$i.txt LD_LIBRARY_PATH=\$d \
        timeout 20 ./bench_ctx >'$rest/drvtrace/'\$rt.\$i.out 2>&1
      if [[ \$i -le 3 ]]; then
        LD_PRELOAD='$bb/bin/drvtrace.so' DRVTRACE_FILE='$rest/drvtrace/reg/'\$rt.\$i.txt LD_LIBRARY_PATH=\$d \
          timeout 20 ./bench_reg >'$rest/drvtrace/reg/'\$rt.\$i.out 2>&1
        CUDA_MODULE_LOADING=EAGER LD_PRELOAD='$bb/bin/drvtrace.so' DRVTRACE_FILE='$rest/drvtrace/eager/'\$rt.\$i.txt \
          LD_LIBRARY_PATH=\$d timeout 20 ./bench_lazy >'$rest/drvtrace/eager/'\$rt.\$i.out 2>&1
      fi
    done; done
    for rt in nvidia ours; do echo \"--- \$rt, process 5\"; tail -n 20 '$rest/drvtrace/'\$rt.5.txt; cat '$rest/drvtrace/'\$rt.5.out; done"
fi

# Which of the driver's code each runtime's start-up maps (probe_startup: a
# program with no kernels; probe_warm: public calls a runtime could make at
# start-up, each with the driver pages it maps, then the first load and
# launch with the pages still faulted in).
if [[ -d $bb && -e $bb/bin/probe_warm ]]; then
  part driverpages 90 bash -c "
    cd '$bb/bin' &&
    for i in 1 2 3; do for rt in nvidia ours; do
      d='$nv_lib'; [[ \$rt == ours ]] && d='$bb/lib'
      echo \"runtime \$rt probe_startup\"; LD_LIBRARY_PATH=\$d timeout 20 ./probe_startup | grep -E 'libcuda\\.so|cudaFree0'
      echo \"runtime \$rt probe_warm\"; LD_LIBRARY_PATH=\$d timeout 20 ./probe_warm
    done; done
    for only in cuGetProcAddress.all cuModuleGetLoadingMode cuDeviceGetAttribute.all objects invalid; do
      echo \"runtime ours probe_warm \$only\"; LD_LIBRARY_PATH='$bb/lib' timeout 20 ./probe_warm \$only
    done"
fi

if [[ -d $bb && -e $bb/bin/probe_load ]]; then
  part loadprobe 90 bash -c "
    cd '$bb/bin' &&
    for i in 1 2 3 4 5; do
      for p in lib lib_preserved lib_cubin lib_func mod mod_fatbinary lib_exchange capture capture_other exchange_threads; do
        timeout 20 ./probe_load \$p k0.fatbin k0.cubin
      done
      # One kernel of 100 (libreg10k.so's last unit): the fatbin as nvcc
      # leaves it, compressed (zstd, as the library holds it), the cubin.
      for img in r99.fatbin r99z.fatbin r99.cubin; do
        timeout 20 ./probe_load lib \$img r99.cubin _Z6r99_99Pi | sed \"s/^PROBE lib /PROBE lib:\$img /\"
      done
      # bench_lazy's 2,000 kernels (3 MiB): copied by the driver, or
      # preserved in place as our runtime marks registered images; and as
      # a module (loaded into the context at once).
      for p in lib lib_preserved mod; do
        timeout 20 ./probe_load \$p k2000.fatbin r99.cubin _Z6k_1234Pi | sed \"s/^PROBE \$p /PROBE \$p:k2000 /\"
      done
      # The first launch of each of the 100 kernels of one image, ways
      # taking turns (library kernel, function, warmed function, module).
      timeout 30 ./probe_load kernels r99.fatbin r99.cubin
      for rt in nvidia ours; do
        d='$nv_lib'; [[ \$rt == ours ]] && d='$bb/lib'
        echo \"runtime \$rt\"; LD_LIBRARY_PATH=\$d timeout 20 ./probe_first
        # The driver's own first launch in the context as each runtime's
        # cudaFree(0) left it.
        LD_LIBRARY_PATH=\$d timeout 20 ./probe_first raw k0.fatbin
      done
    done"
fi

if [[ -d $bb && -e $bb/firstlaunch.sh ]]; then
  part firstlaunch 240 bash "$bb/firstlaunch.sh" "$bb" "$nv_lib" "${FIRST_ROUNDS:-20}"
fi

echo "== all done in $(($(date +%s) - t_all))s" >>"$log"
pack
ls -la "$out" >>"$log"
cat "$log"
