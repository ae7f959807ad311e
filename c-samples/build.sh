#!/usr/bin/env bash
# Builds every self-checking CUDA sample into OUTDIR, in parallel.
#
#   c-samples/build.sh OUTDIR
#
# Environment:
#   NVCC   the compiler (default: nvcc on PATH, else $CUDA_HOME/bin/nvcc);
#          any CUDA 13 nvcc, e.g. the 13.5 one:
#          NVCC=$(scripts/setup-toolchain.sh --home 13.5)/bin/nvcc
#   JOBS   parallel compiles (default: number of CPUs)
#
# An nvcc of CUDA 13.5 or newer also builds the samples that need its
# headers (cuda135_api); an older one leaves them out.
#
# Output: OUTDIR/<sample> executables, the libraries they need next to them
# (libkern.so, libdlkern.so), OUTDIR/samples.txt (the samples that built, in
# run order), OUTDIR/logs/<sample>.log. Exit status 1 if any sample failed.
#
# All samples target the H200 (sm_90 machine code plus compute_90 PTX) and
# link the runtime dynamically (-cudart shared), so the libcudart.so.13 found
# at run time is the one under test.
#
#   CUDART_LINK=static   link as nvcc does by default instead (no -cudart
#                        flag: the static runtime, -lcudart_static)
#   CUDART_LINK_DIR=DIR  a library folder searched first (-L DIR), e.g. an
#                        install prefix's lib64: its libcudart_static.a (or,
#                        for the shared link, libcudart.so) is linked
set -uo pipefail

src=$(cd "$(dirname "$0")" && pwd)
[[ $# -eq 1 ]] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)

if [[ -z "${NVCC:-}" ]]; then
  if command -v nvcc >/dev/null; then NVCC=$(command -v nvcc)
  elif [[ -n "${CUDA_HOME:-}" && -x "$CUDA_HOME/bin/nvcc" ]]; then NVCC=$CUDA_HOME/bin/nvcc
  else echo "build.sh: no nvcc (set NVCC or CUDA_HOME, or put nvcc on PATH)" >&2; exit 2
  fi
fi
cuda_root=$(cd "$(dirname "$NVCC")/.." && pwd)
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
# The compiler's CUDA version as one number (13.5 -> 1305).
nvcc_release=$("$NVCC" --version | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -1)
read -r nvcc_major nvcc_minor <<<"${nvcc_release:-0 0}"
nvcc_version=$((nvcc_major * 100 + nvcc_minor))

# Run order. Every name here is one executable in OUTDIR.
samples=(
  vector_add symbols managed multi_file_rdc multi_file shared_lib_linked
  dlopen_after_init per_thread_stream templates_many_kernels
  driver_context_first threads_set_device device_reset invalid_config
  streams_events device_props memory_kinds launch_api error_sticky
  stream_capture stream_capture_modes stream_capture_first_launch stream_attributes stream_ipc_event
  lib_load lib_entry_point lib_occupancy_coop lib_profiler_logs
  dev_misc ext_memory_fd ext_semaphore ext_import_errors ext_interop_headless
  life_init life_flags life_devices life_driver_ctx life_primary life_reset
  life_threads life_teardown life_fork life_dlopen life_story
  mem_3d mem_arrays mem_texture mem_mipmap mem_pool mem_managed mem_ipc mem_peer
  mem_batch
  graph_child_and_events graph_conditional graph_conditional_capture graph_debug_dot graph_explicit graph_mem_nodes graph_per_thread graph_update graph_user_objects
  rel_stress rel_dlopen_fire rel_teardown life_exit_destroy static_two_copies
  rel_garbage_handles mixed_runtime_handles rel_thread_reuse
)
# Samples that need the CUDA 13.5 headers (every function 13.5 added).
samples_135=(cuda135_api)
if (( nvcc_version >= 1305 )); then samples+=("${samples_135[@]}"); fi

# Single-file samples built whole-program (no -rdc); all others use -rdc=true.
whole_program=(
  vector_add symbols managed templates_many_kernels device_reset invalid_config
  streams_events device_props memory_kinds launch_api error_sticky
)

# Only these samples (space-separated names) when ONLY is set.
if [[ -n "${ONLY:-}" ]]; then read -r -a samples <<<"$ONLY"; fi

arch=(-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90)
case ${CUDART_LINK:-shared} in
  shared) flags=(-O2 -std=c++17 -cudart shared -I"$src" "${arch[@]}") ;;
  static) flags=(-O2 -std=c++17 -I"$src" "${arch[@]}") ;;
  *) echo "build.sh: CUDART_LINK is shared or static" >&2; exit 2 ;;
esac
[[ -n ${CUDART_LINK_DIR:-} ]] && flags+=(-L"$CUDART_LINK_DIR")
# NVIDIA's static runtime, whatever CUDART_LINK says: the toolkit's own
# libcudart_static.a (mixed_runtime_handles' library).
nvidia_static_flags=(-O2 -std=c++17 -cudart static -I"$src" "${arch[@]}")

# The driver library for the two samples that call the driver API. A
# toolkit's stubs/libcuda.so if it has one; otherwise (the PyPI wheels ship
# none) a stub generated from the symbols the objects import. The stub is
# named libcuda.so with SONAME libcuda.so.1 and lives in OUTDIR/_stub: it
# only satisfies the link; at run time the real driver's libcuda.so.1 loads.
driver_libdir() {
  local d
  for d in "$cuda_root/lib64/stubs" "$cuda_root/lib/stubs" \
           "$cuda_root/targets/x86_64-linux/lib/stubs"; do
    [[ -f "$d/libcuda.so" ]] && { echo "$d"; return; }
  done
  echo "$out/_stub"
}

# One sample: all commands, output to its log. $1 = name.
build_one() {
  local n=$1 d=$src/$1
  case $n in
    multi_file_rdc)
      "$NVCC" "${flags[@]}" -rdc=true "$d/main.cu" "$d/helpers.cu" -o "$out/$n" ;;
    multi_file)
      "$NVCC" "${flags[@]}" "$d/main.cu" "$d/other.cu" -o "$out/$n" ;;
    shared_lib_linked)
      "$NVCC" "${flags[@]}" -shared -Xcompiler -fPIC "$d/kern.cu" -o "$out/libkern.so" &&
      "$NVCC" "${flags[@]}" "$d/main.cu" -L"$out" -lkern \
        -Xlinker -rpath -Xlinker '$ORIGIN' -o "$out/$n" ;;
    dlopen_after_init)
      "$NVCC" "${flags[@]}" -shared -Xcompiler -fPIC "$d/dlkern.cu" -o "$out/libdlkern.so" &&
      "$NVCC" "${flags[@]}" "$d/main.cu" -ldl -o "$out/$n" ;;
    lib_load)
      # The library's kernels as a cubin and a fatbin, embedded in the
      # program (the bundle carries executables only) by bin2c.
      local gen=$out/_obj/lib_load bin2c
      bin2c=$(dirname "$NVCC")/bin2c
      mkdir -p "$gen" &&
      "$NVCC" -cubin -arch=sm_90 -O2 "$d/kernels.cu" -o "$gen/kernels.cubin" &&
      "$NVCC" -fatbin "${arch[@]}" -O2 "$d/kernels.cu" -o "$gen/kernels.fatbin" &&
      { "$bin2c" -c -n lib_load_cubin -t longlong "$gen/kernels.cubin" &&
        "$bin2c" -c -n lib_load_fatbin -t longlong "$gen/kernels.fatbin" &&
        echo "static const unsigned long lib_load_cubin_size = $(stat -c %s "$gen/kernels.cubin");"
      } >"$gen/kernels_embedded.h" &&
      "$NVCC" "${flags[@]}" -rdc=true -I"$gen" "$d/main.cu" -o "$out/$n" ;;
    life_dlopen)
      "$NVCC" "${flags[@]}" -shared -Xcompiler -fPIC "$d/lifedl.cu" -o "$out/liblifedl.so" &&
      "$NVCC" "${flags[@]}" -shared -Xcompiler -fPIC "$d/lifelink.cu" -o "$out/liblifelink.so" &&
      "$NVCC" "${flags[@]}" "$d/main.cu" -L"$out" -llifelink \
        -Xlinker -rpath -Xlinker '$ORIGIN' -ldl -o "$out/$n" ;;
    life_exit_destroy)
      "$NVCC" "${flags[@]}" -rdc=true -shared -Xcompiler -fPIC "$d/exitlib.cu" -o "$out/libexitdestroy.so" &&
      "$NVCC" "${flags[@]}" -rdc=true "$d/main.cu" -ldl -o "$out/$n" ;;
    rel_dlopen_fire)
      "$NVCC" "${flags[@]}" -rdc=true -shared -Xcompiler -fPIC "$d/firelib.cu" -o "$out/librelfire.so" &&
      "$NVCC" "${flags[@]}" -rdc=true "$d/main.cu" -ldl -o "$out/$n" ;;
    static_two_copies)
      "$NVCC" "${flags[@]}" -shared -Xcompiler -fPIC "$d/plugin.cu" -o "$out/libstatictwo.so" &&
      "$NVCC" "${flags[@]}" "$d/main.cu" -ldl -o "$out/$n" ;;
    mixed_runtime_handles)
      "$NVCC" "${nvidia_static_flags[@]}" -shared -Xcompiler -fPIC "$d/foreign.cu" -o "$out/libforeign.so" &&
      "$NVCC" "${flags[@]}" "$d/main.cu" -L"$out" -lforeign \
        -Xlinker -rpath -Xlinker '$ORIGIN' -o "$out/$n" ;;
    per_thread_stream)
      "$NVCC" "${flags[@]}" --default-stream per-thread "$src/$n.cu" -o "$out/$n" ;;
    driver_context_first|threads_set_device|ext_memory_fd|rel_garbage_handles|life_init|life_flags|life_devices|life_driver_ctx|life_primary|life_reset|life_threads|life_teardown|life_story)
      local libdir
      libdir=$(driver_libdir)
      "$NVCC" "${flags[@]}" -c "$src/$n.cu" -o "$out/_obj/$n.o" || return 1
      if [[ $libdir == "$out/_stub" ]]; then
        # Each sample gets its own stub (parallel builds): its imports only.
        libdir=$out/_stub/$n
        mkdir -p "$libdir"
        nm -u "$out/_obj/$n.o" | awk '$2 ~ /^cu[A-Z]/ { print $2 }' | sort -u |
          awk '{ printf "int %s(void) { return 999; }\n", $1 }' >"$libdir/stub.c"
        echo "stub libcuda: $(wc -l <"$libdir/stub.c") functions from $n.o"
        cc -shared -fPIC -Wl,-soname,libcuda.so.1 "$libdir/stub.c" -o "$libdir/libcuda.so" ||
          return 1
      fi
      "$NVCC" "${flags[@]}" "$out/_obj/$n.o" -L"$libdir" -lcuda -o "$out/$n" ;;
    *)
      # The first samples build without -rdc; every later one is built as
      # CMake projects build CUDA code (separable compilation, -rdc=true).
      if [[ " ${whole_program[*]} " == *" $n "* ]]; then
        "$NVCC" "${flags[@]}" "$src/$n.cu" -o "$out/$n"
      else
        "$NVCC" "${flags[@]}" -rdc=true "$src/$n.cu" -o "$out/$n"
      fi ;;
  esac
}

mkdir -p "$out/_obj"
rm -f "$out/samples.txt"
echo "build.sh: $("$NVCC" --version | tail -1 | sed 's/^Build //') -> $out, $jobs jobs" >&2
start=$(date +%s)
running=0
for n in "${samples[@]}"; do
  ( t0=$(date +%s)
    if build_one "$n" >"$out/logs/$n.log" 2>&1; then
      echo "ok $(( $(date +%s) - t0 ))s" >"$out/logs/$n.status"
    else
      echo "FAILED" >"$out/logs/$n.status"
    fi ) &
  running=$((running + 1))
  if (( running >= jobs )); then wait -n; running=$((running - 1)); fi
done
wait

failed=0
for n in "${samples[@]}"; do
  st=$(cat "$out/logs/$n.status" 2>/dev/null || echo FAILED)
  if [[ $st == ok* && -x "$out/$n" ]]; then
    echo "$n" >>"$out/samples.txt"
    printf '  %-24s %s\n' "$n" "$st" >&2
  else
    failed=$((failed + 1))
    printf '  %-24s FAILED (log: %s)\n' "$n" "$out/logs/$n.log" >&2
    sed 's/^/      /' "$out/logs/$n.log" | head -20 >&2
  fi
done
echo "build.sh: ${#samples[@]} samples, $failed failed, $(( $(date +%s) - start ))s" >&2
(( failed == 0 ))
