#!/usr/bin/env bash
# Builds the differential harness (abi-tests/harness: every export of
# libcudart.so.13 called with ordinary arguments in forked children, and the
# bad-input matrix, in batches of cases per child on the GPU; runner.h) on
# this CPU machine for a run on the GPU machine:
#
#   scripts/harness-prepare.sh OUTDIR
#
# OUTDIR gets
#   harness                   the program (wheel nvcc, -cudart shared, sm_90)
#   harness.cu, calls.txt     its generated source, the exports in run order
#   cases.txt                 the bad-input matrix's case ids, in run order
#   allowed-differences.txt,  the no-driver allow-lists (for annotation)
#   allowed-bad.txt
#   harness-run.sh            copy of scripts/harness-run.sh
#   lib/libcudart.so.13       ours (scripts/build.sh, debug info stripped)
#   BUILD-INFO                commit, date, tool versions
# (and the generator's scratch files: stub/, harness_lib.*, headers.cpp).
#
# Then on the GPU machine (device tool, carry: [OUTDIR]; build/ is
# git-ignored, so OUTDIR=build/harness-bundle travels with `carry`):
#   bash OUTDIR/harness-run.sh OUTDIR /usr/local/cuda/lib64 OUTDIR/lib "$OUT"
# (the ordinary calls and the bad-input matrix, both runtimes, about 5
# minutes), and back here:
#   python3 scripts/badinput-report.py FILES/bad-compare.json > docs/badinput-report.md
# The bundle stays small (about 2 MiB; it must stay under 10 MiB).
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
[[ $# -eq 1 ]] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
cd "$root"

eval "$(scripts/setup-toolchain.sh --env)"
cargo build --release -p abi-tests --bin harness-gen >&2
target=${CARGO_TARGET_DIR:-$root/target}
"$target/release/harness-gen" "$out"
libdir=$(scripts/build.sh)
mkdir -p "$out/lib"
cp -L "$libdir/libcudart.so.13" "$out/lib/libcudart.so.13"
strip --strip-debug "$out/lib/libcudart.so.13"
ln -sf libcudart.so.13 "$out/lib/libcudart.so"
cp abi-tests/harness/allowed-differences.txt abi-tests/harness/allowed-bad.txt "$out/"
cp scripts/harness-run.sh "$out/harness-run.sh"
chmod +x "$out/harness" "$out/harness-run.sh"

{
  echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "uncommitted changes: $(GIT_OPTIONAL_LOCKS=0 git status --porcelain 2>/dev/null | wc -l) paths"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "nvcc: $(nvcc --version | tail -1)"
  echo "calls: $(wc -l <"$out/calls.txt")"
  echo "bad-input cases: $(wc -l <"$out/cases.txt")"
  echo "libcudart.so.13 sha256: $(sha256sum <"$out/lib/libcudart.so.13" | cut -c1-16)"
} >"$out/BUILD-INFO"

kib=$(du -sk "$out" | cut -f1)
if ((kib > 10 * 1024)); then
  echo "harness-prepare: the bundle is ${kib} KiB, over the 10 MiB the device run copies" >&2
  exit 1
fi
cat >&2 <<MSG
harness-prepare: ready in $1 (${kib} KiB). On the GPU machine:
  bash $1/harness-run.sh $1 /usr/local/cuda/lib64 $1/lib "\$OUT"
then here: python3 scripts/badinput-report.py FILES/bad-compare.json > docs/badinput-report.md
MSG
