#!/usr/bin/env bash
# Runs any program on our libcudart.so.13, also programs that load the
# runtime themselves (Python with PyTorch), and checks nothing else got in.
#
#   scripts/with-cudart.sh [--lib DIR] [--check] -- PROGRAM ARGS...
#
#   --lib DIR   the directory holding our libcudart.so.13 (default: the
#               release build, target/release, or CUDART_LIB_DIR)
#   --check     after the program, fail (exit 3) if any process it started
#               mapped a libcudart other than ours (needs Python programs
#               to run the shim; see below)
#   --env       run nothing: print the environment (export lines) for
#               `eval`, so that a caller starting many processes sets it up
#               once (bench-run.sh); the alias directory is then the
#               caller's to remove
#
# What it does:
#   1. LD_PRELOAD=DIR/libcudart.so.13: every `libcudart.so.13` dependency of
#      the program and of the libraries it loads resolves to ours, and our
#      symbols come first.
#   2. Vendored copies under another file name (auditwheel renames them,
#      e.g. torchvision.libs/libcudart.<hash>.so.13): a directory of links
#      with those names pointing at ours goes first on LD_LIBRARY_PATH, so
#      the loader finds our file (already loaded: the same object) first.
#   3. Python: scripts/pyshim goes first on PYTHONPATH; its sitecustomize
#      sends ctypes loads of a libcudart by full path (torch's
#      `_preload_cuda_deps`) to ours.
# Child processes inherit all three.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
libdir=${CUDART_LIB_DIR:-}
check=no
print_env=no
while [[ $# -gt 0 ]]; do
  case $1 in
    --lib) libdir=$2; shift 2 ;;
    --check) check=yes; shift ;;
    --env) print_env=yes; shift ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
[[ $# -gt 0 || $print_env == yes ]] || { sed -n '2,29p' "$0" >&2; exit 2; }
if [[ -z $libdir ]]; then
  libdir=${CARGO_TARGET_DIR:-$root/target}/release
fi
lib=$(cd "$libdir" && pwd)/libcudart.so.13
[[ -e $lib ]] || { echo "with-cudart: no $lib (build with scripts/build.sh)" >&2; exit 2; }

alias_dir=$(mktemp -d "${TMPDIR:-/tmp}/with-cudart.XXXXXX")
[[ $print_env == yes ]] || trap 'rm -rf "$alias_dir"' EXIT
if command -v python3 >/dev/null; then
  # Vendored, renamed copies in the Python environment's *.libs folders.
  while IFS= read -r f; do
    ln -sf "$lib" "$alias_dir/$(basename "$f")"
  done < <(python3 - <<'PY' 2>/dev/null || true
import glob, os, site, sys
dirs = set(site.getsitepackages() + [site.getusersitepackages()] + [p for p in sys.path if p])
for d in sorted(dirs):
    for f in glob.glob(os.path.join(d, "*.libs", "libcudart*.so*")):
        print(f)
PY
)
fi

export CUDART_LIB=$lib
export LD_PRELOAD=$lib${LD_PRELOAD:+:$LD_PRELOAD}
export LD_LIBRARY_PATH=$alias_dir:$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYTHONPATH=$root/scripts/pyshim${PYTHONPATH:+:$PYTHONPATH}
if [[ $print_env == yes ]]; then
  for v in CUDART_LIB LD_PRELOAD LD_LIBRARY_PATH PYTHONPATH; do
    printf 'export %s=%q\n' "$v" "${!v}"
  done
  exit 0
fi
if [[ $check == yes ]]; then
  export CUDART_MAPS_LOG=$alias_dir/maps.log
  : >"$CUDART_MAPS_LOG"
fi
set +e
"$@"
rc=$?
set -e
# The check's own commands run without our library preloaded.
unset LD_PRELOAD
if [[ $check == yes ]]; then
  others=$(grep -v -e '^pid ' "$CUDART_MAPS_LOG" | grep -v -F -x -e "$lib" -e "$(readlink -f "$lib")" -e "(no libcudart mapped)" | sort -u || true)
  if [[ -n $others ]]; then
    echo "with-cudart: another libcudart was mapped:" >&2
    echo "$others" >&2
    exit 3
  fi
  echo "with-cudart: only $lib was mapped ($(grep -c '^pid ' "$CUDART_MAPS_LOG") Python process(es) checked)" >&2
fi
exit $rc
