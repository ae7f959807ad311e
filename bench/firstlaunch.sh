#!/usr/bin/env bash
# The first launch of a small program's first kernel, many processes
# (issue 8): bench/probe_first under NVIDIA's runtime, ours and ours
# without the trace, in rounds whose order alternates, each process one
# sample of each variant:
#   direct      the launch alone, as a program makes it
#   split       cudaFuncGetAttributes (load), then the launch
#   populated   direct, the runtime library's pages mapped in first
#               (PROBE_POPULATE=libcudart): page faults in its code?
#   drvpop      direct, the driver's pages mapped in first
#               (PROBE_POPULATE=libcuda.so): the same for the driver
#   raw         after the runtime's cudaFree(0), the driver alone loads
#               k0.fatbin as a library and launches it
# Output: "runtime R variant V" before each process's lines; read it with
# scripts/firstlaunch-report.py.
#
#   bash firstlaunch.sh BENCH_BUNDLE NVIDIA_LIB_DIR [ROUNDS]
set -uo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 BENCH_BUNDLE NVIDIA_LIB_DIR [ROUNDS]" >&2; exit 2; }
bb=$(cd "$1" && pwd) || exit 2
nv=$2
rounds=${3:-20}
cd "$bb/bin" || exit 2
one() {  # one RUNTIME VARIANT
  local d
  case $1 in
    nvidia) d=$nv ;;
    ours) d=$bb/lib ;;
    ours-notrace) d=$bb/lib-notrace ;;
  esac
  echo "runtime $1 variant $2"
  case $2 in
    direct) LD_LIBRARY_PATH=$d timeout 20 ./probe_first direct ;;
    split) LD_LIBRARY_PATH=$d timeout 20 ./probe_first ;;
    populated) PROBE_POPULATE=libcudart LD_LIBRARY_PATH=$d timeout 20 ./probe_first direct ;;
    drvpop) PROBE_POPULATE=libcuda.so LD_LIBRARY_PATH=$d timeout 20 ./probe_first direct ;;
    raw) LD_LIBRARY_PATH=$d timeout 20 ./probe_first raw k0.fatbin ;;
  esac
  echo "exit $?"
}
for ((i = 1; i <= rounds; i++)); do
  if ((i % 2)); then order="nvidia ours ours-notrace"; else order="ours-notrace ours nvidia"; fi
  for v in direct split populated drvpop raw; do
    for rt in $order; do one "$rt" "$v"; done
  done
done
