#!/usr/bin/env bash
# Lays out, on this (CPU) machine, the three bundles the whole-program
# comparison of issue 30 carries to the GPU in one session (corpus, workloads,
# scale; docs/testing.md has the device commands):
#
#   gpu-bundle/            scripts/gpu-prepare.sh, plus corpus/ (bench/corpus/
#                          build.sh: the shims, the probes, the corpus
#                          programs) and scale/ (bench/scale/build.sh)
#   cupy-bundle/           CuPy built from source linking libcudart.so.13
#                          (scripts/cupy-prepare.sh --only shared; a wheel
#                          already in build/cupy-work/wheel-shared is reused)
#   jax-bundle/            jax/prepare.sh (the workload; no JAX tests)
#
#   scripts/wholeprog-prepare.sh
#
# About 12 minutes on 2 CPUs when nothing is built yet (the CuPy wheel takes
# 5 of them). The three together are about 47 MiB, under the device tool's
# 64 MiB for a call with the tracked files.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/gpu-prepare.sh gpu-bundle
eval "$(scripts/setup-toolchain.sh --env 13.0)"
bench/corpus/build.sh gpu-bundle/corpus
bench/scale/build.sh gpu-bundle/scale

scripts/install.sh --prefix build/static-prefix
if compgen -G "build/cupy-work/wheel-shared/*.whl" >/dev/null; then
  scripts/cupy-prepare.sh --only shared --no-build
else
  scripts/cupy-prepare.sh --only shared
fi
bash jax/prepare.sh jax-bundle

du -sh gpu-bundle cupy-bundle jax-bundle
