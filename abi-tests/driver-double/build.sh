#!/usr/bin/env bash
# Builds the TEST DOUBLE libcuda.so.1 (not a driver: see README.md) into a
# folder, with a libcuda.so link for -lcuda. The tests build it themselves
# (abi_tests::build_driver_double); this is for trying it by hand:
#
#   abi-tests/driver-double/build.sh /tmp/double
#   CUDA_DOUBLE_LOG=/tmp/calls.log LD_LIBRARY_PATH=/tmp/double:target/release ./program
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh <output folder>}
mkdir -p "$out"
${CC:-cc} -std=gnu11 -O1 -g -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
  -Wl,-soname,libcuda.so.1 -o "$out/libcuda.so.1" "$here"/libcuda/*.c -lpthread
ln -sf libcuda.so.1 "$out/libcuda.so"
echo "$out/libcuda.so.1"
