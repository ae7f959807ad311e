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
#   rawemb      raw, with the program's own fatbin in place (where its
#               registration points) instead of k0.fatbin read into memory
#   rawembp     rawemb with CU_LIBRARY_BINARY_IS_PRESERVED: the very call
#               our runtime's lazy load makes
#   traced      direct, with bench/drvtrace.so preloaded: the driver calls
#               a runtime makes through the public API, timed ("PROBE drv
#               <call> <us>", summed per call), the span from the start of
#               cuLibraryLoadData to the end of cuLaunchKernel and the time
#               between those calls (the runtime's own, plus the tracer's)
#   rawtraced   rawembp, with the same tracer: the same driver calls made
#               by the probe itself
#   sys         direct, with bench/ioctltrace.so preloaded: the driver's
#               ioctl/mmap/munmap calls per phase (cudaFree(0), the launch,
#               ...), which private export tables do not hide
#   rawsys      rawembp, with the same counter
#   bindnow     direct under LD_BIND_NOW=1: every library's calls into
#               others bound at load, none on first use
#   pages       direct with PROBE_PAGES=1: the pages that became present
#               during the launch, per mapping (where its page faults are)
#   alloc       direct after a timed cudaMalloc(256) + cudaFree, as most
#               programs allocate before they launch
#   allocpages  alloc with PROBE_PAGES=1 (the launch's pages)
#   k2000eager  bench_lazy (2,000 kernels in one file) under
#               CUDA_MODULE_LOADING=EAGER: cudaFree(0) (which loads them),
#               the first launch of one kernel, of a second ("PROBE k2000
#               <step> <microseconds>")
#   k2000lazy   the same under LAZY (the first launch loads the file)
#   big         direct with probe_first2000 (k0 next to those 2,000
#               kernels in one fatbin); bigpages with PROBE_PAGES=1 (give
#               the runtime +CUDA_MODULE_LOADING=EAGER for finding 13);
#               bigtraced the same under bench/drvtrace.so, as traced
#   rawpages    rawembp with PROBE_PAGES=1
# FIRST_VARIANTS (environment) picks variants (default: direct raw rawemb
# rawembp sys rawsys bindnow traced rawtraced), FIRST_RUNTIMES runtimes (default:
# nvidia ours ours-notrace; the order reverses every other round; a runtime
# written RUNTIME+NAME=VALUE runs with NAME=VALUE in its environment).
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
rt_env=()  # what one() adds to the probe's environment for its runtime
probe() {  # probe LIBDIR [NAME=VALUE...] ARGS...: probe_first (or $prog) on that runtime
  local d=$1
  shift
  local -a vars=()
  while [[ ${1:-} == *=* ]]; do vars+=("$1"); shift; done
  env "${rt_env[@]}" "${vars[@]}" LD_LIBRARY_PATH="$d" timeout 20 "./${prog:-probe_first}" "$@"
}
traced() {  # traced LIBDIR ARGS...: probe_first under drvtrace.so
  local d=$1 t rc
  shift
  t=$(mktemp)
  probe "$d" LD_PRELOAD="$bb/bin/drvtrace.so" DRVTRACE_FILE="$t" "$@"
  rc=$?
  # drvtrace lines: START_NS NAME RESULT TOOK_NS
  awk '$2 == "cuLibraryLoadData" && !s { s = $1 }
       s && !e { sum += $4 }
       $2 == "cuLaunchKernel" && s && !e { e = $1 + $4 }
       $2 != "cuInit" && $2 != "cuDevicePrimaryCtxRetain" { tot[$2] += $4 }
       END {
         for (n in tot) printf "PROBE drv %s %.2f\n", n, tot[n] / 1e3
         if (e) printf "PROBE drv span_load_to_launch_end %.2f\nPROBE drv between_calls %.2f\n", (e - s) / 1e3, (e - s - sum) / 1e3
       }' "$t"
  rm -f "$t"
  return $rc
}
lazy() {  # lazy LIBDIR MODE: bench_lazy, its "BENCH startup.k2000_<mode>.<step> <ms> ms 1"
  # lines as "PROBE k2000 <step> <us>", its errors as failures
  prog=bench_lazy probe "$1" CUDA_MODULE_LOADING="$2" 2>&1 |
    awk '$1 == "BENCH" && $4 == "ms" { n = split($2, p, "."); s = p[3]; for (j = 4; j <= n; j++) s = s "." p[j]; printf "PROBE k2000 %s %.2f\n", s, $3 * 1000 }
         $1 == "BENCH_ERROR" { print "probe_first: " $0 }'
  return "${PIPESTATUS[0]}"
}
one() {  # one RUNTIME VARIANT
  local d bare=(raw embedded preserved) sys=LD_PRELOAD=$bb/bin/ioctltrace.so rt=${1%%+*}
  local syms="cuInit cuDriverGetVersion cuDeviceGetCount cuCtxGetCurrent cuCtxSetCurrent cuDevicePrimaryCtxRetain cuLibraryLoadData cuLibraryGetKernel cuLaunchKernel cuCtxSynchronize"
  case $rt in
    nvidia) d=$nv ;;
    ours) d=$bb/lib ;;
    ours-notrace) d=$bb/lib-notrace ;;
    *) d=$bb/lib-${rt#ours-} ;;  # ours-X: a variant build in the bundle's lib-X
  esac
  # RUNTIME+NAME=VALUE: that runtime with NAME=VALUE in its environment
  rt_env=()
  [[ $1 == *+* ]] && rt_env=("${1#*+}")
  echo "runtime $1 variant $2"
  case $2 in
    direct) probe "$d" direct ;;
    split) probe "$d" ;;
    populated) probe "$d" PROBE_POPULATE=libcudart direct ;;
    drvpop) probe "$d" PROBE_POPULATE=libcuda.so direct ;;
    raw) probe "$d" raw k0.fatbin ;;
    rawemb) probe "$d" raw embedded ;;
    rawembp) probe "$d" "${bare[@]}" ;;
    sys) probe "$d" "$sys" direct ;;
    rawsys) probe "$d" "$sys" "${bare[@]}" ;;
    bindnow) probe "$d" LD_BIND_NOW=1 direct ;;
    pages) probe "$d" PROBE_PAGES=1 PROBE_SYMS="$syms" direct ;;
    alloc) probe "$d" alloc ;;
    allocpages) probe "$d" PROBE_PAGES=1 alloc ;;
    k2000eager) lazy "$d" EAGER ;;
    big) prog=probe_first2000 probe "$d" direct ;;
    bigpages) prog=probe_first2000 probe "$d" PROBE_PAGES=1 direct ;;
    bigtraced) prog=probe_first2000 traced "$d" direct ;;
    k2000lazy) lazy "$d" LAZY ;;
    rawpages) probe "$d" PROBE_PAGES=1 PROBE_SYMS="$syms" "${bare[@]}" ;;
    traced) traced "$d" direct ;;
    rawtraced) traced "$d" "${bare[@]}" ;;
  esac
  echo "exit $?"
}
for ((i = 1; i <= rounds; i++)); do
  order=${FIRST_RUNTIMES:-nvidia ours ours-notrace}
  ((i % 2)) || order=$(printf '%s\n' $order | tac | tr '\n' ' ')
  for v in ${FIRST_VARIANTS:-direct raw rawemb rawembp sys rawsys bindnow traced rawtraced}; do
    for rt in $order; do one "$rt" "$v"; done
  done
done
