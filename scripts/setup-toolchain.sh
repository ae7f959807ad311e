#!/usr/bin/env bash
# Installs the pinned CUDA toolchain wheels from PyPI into .toolchain/
# (git-ignored), without a GPU: the default CUDA 13.0 toolchain in
# .toolchain/site, and beside it a CUDA 13.5 one (nvcc, runtime, crt, nvvm)
# in .toolchain/cu135/site, for the tests of the 13.5 exports and the
# programs built by nvcc 13.5. Idempotent: a second run with the same pins
# only checks the stamps and the symlinks, then prints how to use them.
#
#   scripts/setup-toolchain.sh          # install (or check) both and print usage
#   eval "$(scripts/setup-toolchain.sh --env)"        # CUDA_HOME and PATH: 13.0
#   eval "$(scripts/setup-toolchain.sh --env 13.5)"   # the same for 13.5
#   scripts/setup-toolchain.sh --home 13.5            # print that CUDA_HOME
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.toolchain"

# nvidia-cuda-nvcc depends on the others without versions: pin all of them,
# or pip drags in a newer CUDA than the GPU machine's driver supports.
pins_130=(
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
# CUDA 13.5 (checked with `pip index versions`: 13.5.37 is the 13.5
# release of the four toolkit wheels). CCCL has no 13.5 wheel: its newest,
# 13.3.5.0.6, gives the headers cooperative_groups needs (<nv/target>).
# No cuobjdump: the 13.0 tree has the tools the tests need.
pins_135=(
  nvidia-cuda-nvcc==13.5.37
  nvidia-cuda-runtime==13.5.37
  nvidia-cuda-crt==13.5.37
  nvidia-nvvm==13.5.37
  nvidia-cuda-cccl==13.3.5.0.6
)

# install DIR PIN...: the wheels into DIR/site, unless DIR's stamp says so.
install() {
  local dir=$1; shift
  local site="$dir/site" stamp="$dir/.installed" want
  want=$(printf '%s\n' "$@")
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    echo "setup-toolchain: installing $# pinned wheels into $site" >&2
    rm -rf "$site"
    mkdir -p "$dir"
    python3 -m pip install --quiet --disable-pip-version-check --no-deps \
      --target "$site" "$@" >&2
    printf '%s\n' "$want" >"$stamp"
  fi
  # The wheels lay out one CUDA-like tree, but linking wants lib64/ and the
  # unversioned libcudart.so development symlink.
  local cuda="$site/nvidia/cu13"
  [[ -e "$cuda/lib64" ]] || ln -s lib "$cuda/lib64"
  [[ -e "$cuda/lib/libcudart.so" ]] || ln -s libcudart.so.13 "$cuda/lib/libcudart.so"
}

cuda130="$dest/site/nvidia/cu13"
cuda135="$dest/cu135/site/nvidia/cu13"

# home VERSION: the CUDA_HOME of that toolchain.
home() {
  case ${1:-13.0} in
    13.0) echo "$cuda130" ;;
    13.5) echo "$cuda135" ;;
    *) echo "setup-toolchain: unknown version '$1' (13.0 or 13.5)" >&2; exit 2 ;;
  esac
}
case ${1:-} in --env|--home) home "${2:-13.0}" >/dev/null ;; esac

# The 13.0 stamp stays where it always was (.toolchain/.installed), so an
# existing 13.0 install is kept.
install "$dest" "${pins_130[@]}"
install "$dest/cu135" "${pins_135[@]}"

case ${1:-} in
  --env)
    cuda=$(home "${2:-13.0}")
    echo "export CUDA_HOME='$cuda'"
    echo "export PATH='$cuda/bin':\"\$PATH\""
    exit 0 ;;
  --home)
    home "${2:-13.0}"
    exit 0 ;;
esac

cat >&2 <<MSG
setup-toolchain: CUDA 13.0 toolchain ready in $cuda130 (the default)
  nvcc:      $cuda130/bin/nvcc ($("$cuda130/bin/nvcc" --version | tail -2 | head -1))
  cuobjdump: $cuda130/bin/cuobjdump
  NVIDIA's libcudart.so.13: $cuda130/lib/libcudart.so.13
setup-toolchain: CUDA 13.5 toolchain ready in $cuda135
  nvcc:      $cuda135/bin/nvcc ($("$cuda135/bin/nvcc" --version | tail -2 | head -1))
  NVIDIA's libcudart.so.13: $cuda135/lib/libcudart.so.13
Use them with:  eval "\$(scripts/setup-toolchain.sh --env)"        (13.0)
                eval "\$(scripts/setup-toolchain.sh --env 13.5)"   (13.5)
MSG
