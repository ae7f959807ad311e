#!/usr/bin/env bash
# Installs the pinned CUDA 13.0 toolchain wheels from PyPI into .toolchain/
# (git-ignored), without a GPU. Idempotent: a second run with the same pins
# only checks the stamp and the two symlinks, then prints how to use it.
#
#   scripts/setup-toolchain.sh          # install (or check) and print usage
#   eval "$(scripts/setup-toolchain.sh --env)"   # export CUDA_HOME and PATH
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.toolchain"
site="$dest/site"
cuda="$site/nvidia/cu13"

# nvidia-cuda-nvcc depends on the others without versions: pin all of them,
# or pip drags in a newer CUDA than the GPU machine's driver supports.
pins=(
  nvidia-cuda-nvcc==13.0.88
  nvidia-cuda-runtime==13.0.96
  nvidia-cuda-crt==13.0.88
  nvidia-nvvm==13.0.88
  nvidia-cuda-cuobjdump==13.2.51
  nvidia-cuda-cccl==13.0.85
  # CMake for the install-prefix tests (a CUDA project built with and
  # without the prefix): site/cmake/data/bin/cmake.
  cmake==4.4.5
)
stamp="$dest/.installed"
want=$(printf '%s\n' "${pins[@]}")

if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
  echo "setup-toolchain: installing ${#pins[@]} pinned wheels into $site" >&2
  rm -rf "$site"
  mkdir -p "$dest"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps \
    --target "$site" "${pins[@]}" >&2
  printf '%s\n' "$want" >"$stamp"
fi

# The wheels lay out one CUDA-like tree, but linking wants lib64/ and the
# unversioned libcudart.so development symlink.
[[ -e "$cuda/lib64" ]] || ln -s lib "$cuda/lib64"
[[ -e "$cuda/lib/libcudart.so" ]] || ln -s libcudart.so.13 "$cuda/lib/libcudart.so"

if [[ "${1:-}" == "--env" ]]; then
  echo "export CUDA_HOME='$cuda'"
  echo "export PATH='$cuda/bin':\"\$PATH\""
  exit 0
fi

cat >&2 <<MSG
setup-toolchain: CUDA 13.0 toolchain ready in $cuda
  nvcc:      $cuda/bin/nvcc ($("$cuda/bin/nvcc" --version | tail -2 | head -1))
  cuobjdump: $cuda/bin/cuobjdump
  NVIDIA's libcudart.so.13: $cuda/lib/libcudart.so.13
Use it with:  eval "\$(scripts/setup-toolchain.sh --env)"
MSG
