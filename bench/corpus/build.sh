#!/usr/bin/env bash
# Builds the corpus benchmark's parts (issue 30) into OUTDIR, normally
# BUNDLE/corpus of a bundle made by scripts/gpu-prepare.sh:
#
#   bench/corpus/build.sh OUTDIR          (e.g. gpu-bundle/corpus)
#
#   OUTDIR/phases.so       the LD_PRELOAD timing shim (phases.c), cc
#   OUTDIR/phases-drv.so   the same with -DPHASES_DRIVER (cuInit and the first
#                          context call timed; CORPUS_PHASES=driver)
#   OUTDIR/calltime.so     times the runtime calls a program makes (calltime.c;
#                          CORPUS_CALLTIME=1)
#   OUTDIR/teardown_child, teardown_probe.py
#                          what a process's teardown follows, driver only:
#                          python3 OUTDIR/teardown_probe.py OUTDIR/teardown_child 10
#   OUTDIR/managed_migrate, copies, thrust_cub, texture_stencil
#                          the corpus's own programs (nvcc, -cudart shared,
#                          sm_90 machine code + compute_90 PTX, as c-samples)
#   OUTDIR/corpus.txt      the programs that built, in run order
#   OUTDIR/logs/<name>.log
#
# Environment: NVCC (default: nvcc on PATH, else $CUDA_HOME/bin/nvcc; the
# pinned wheels' one after `eval "$(scripts/setup-toolchain.sh --env)"`),
# CC (default cc), JOBS (parallel nvcc runs, default 2), ONLY (names).
# Exit status 1 if anything failed to build (what built is still listed).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ $# -eq 1 ]] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1/logs" && out=$(cd "$1" && pwd) || exit 2
cc=${CC:-cc}
jobs=${JOBS:-2}
if [[ -z ${NVCC:-} ]]; then
  if command -v nvcc >/dev/null; then NVCC=$(command -v nvcc)
  elif [[ -n ${CUDA_HOME:-} && -x $CUDA_HOME/bin/nvcc ]]; then NVCC=$CUDA_HOME/bin/nvcc
  else NVCC=
  fi
fi

failed=0
# 1. The shims (need only a C compiler).
for v in phases:phases: phases-drv:phases:-DPHASES_DRIVER calltime:calltime:; do
  IFS=: read -r name src def <<<"$v"
  defs=()
  [[ -n $def ]] && defs=("$def")
  if $cc -O2 -Wall -Wextra -fPIC -shared "${defs[@]}" -o "$out/$name.so" "$here/$src.c" -ldl \
      >"$out/logs/$name.log" 2>&1; then
    echo "  $name.so ok" >&2
  else
    echo "  $name.so FAILED (log: $out/logs/$name.log)" >&2
    sed 's/^/      /' "$out/logs/$name.log" | head -20 >&2
    failed=$((failed + 1))
  fi
done

if $cc -O2 -Wall -Wextra -o "$out/teardown_child" "$here/teardown_child.c" -ldl \
    >"$out/logs/teardown_child.log" 2>&1; then
  cp "$here/teardown_probe.py" "$out/"
  echo "  teardown_child ok" >&2
else
  echo "  teardown_child FAILED (log: $out/logs/teardown_child.log)" >&2
  failed=$((failed + 1))
fi

# 2. The programs.
programs=(managed_migrate copies texture_stencil thrust_cub)
[[ -n ${ONLY:-} ]] && read -r -a programs <<<"$ONLY"
if [[ -z $NVCC ]]; then
  echo "build.sh: no nvcc (eval \"\$(scripts/setup-toolchain.sh --env)\"); programs not built" >&2
  exit 1
fi
# shellcheck disable=SC2054  # the commas belong to nvcc's -gencode values
flags=(-O2 -std=c++17 -cudart shared
       -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90)
echo "build.sh: $("$NVCC" --version | tail -1) -> $out, $jobs jobs" >&2
running=0
for p in "${programs[@]}"; do
  ( t0=$(date +%s)
    if "$NVCC" "${flags[@]}" "$here/$p.cu" -o "$out/$p" >"$out/logs/$p.log" 2>&1; then
      echo "ok $(( $(date +%s) - t0 ))s" >"$out/logs/$p.status"
    else
      echo FAILED >"$out/logs/$p.status"
    fi ) &
  running=$((running + 1))
  if (( running >= jobs )); then wait -n; running=$((running - 1)); fi
done
wait
rm -f "$out/corpus.txt"
for p in "${programs[@]}"; do
  st=$(cat "$out/logs/$p.status" 2>/dev/null || echo FAILED)
  if [[ $st == ok* && -x $out/$p ]]; then
    echo "$p" >>"$out/corpus.txt"
    printf '  %-18s %s\n' "$p" "$st" >&2
  else
    failed=$((failed + 1))
    printf '  %-18s FAILED (log: %s)\n' "$p" "$out/logs/$p.log" >&2
    sed 's/^/      /' "$out/logs/$p.log" | head -20 >&2
  fi
done
strip --strip-debug "$out"/*.so 2>/dev/null
for p in "${programs[@]}"; do [[ -x $out/$p ]] && strip --strip-debug "$out/$p" 2>/dev/null; done
echo "build.sh: $(du -sh "$out" | cut -f1) in $out, $failed failed" >&2
(( failed == 0 ))
