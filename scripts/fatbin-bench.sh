#!/usr/bin/env bash
# Benchmark (not a test): `fatbin list` against `cuobjdump --list-elf
# --list-ptx` on the largest CUDA library at hand, a cuBLAS wheel from PyPI
# (downloaded once into target/bench-data, git-ignored). Prints both times,
# the ratio, and checks the two listings are identical.
#
#   scripts/fatbin-bench.sh [RUNS]          # default 3 runs each
#   FATBIN_BENCH_WHEEL=nvidia-cublas==13.0.2.14 scripts/fatbin-bench.sh
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
wheel_spec=${FATBIN_BENCH_WHEEL:-nvidia-cublas==13.0.2.14}
data="$root/target/bench-data"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target/h-fatbin}"
eval "$("$root/scripts/setup-toolchain.sh" --env)"

mkdir -p "$data/wheels" "$data/lib"
stamp="$data/lib/.from"
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$wheel_spec" ]]; then
  echo "fatbin-bench: downloading $wheel_spec into $data/wheels" >&2
  python3 -m pip download --quiet --disable-pip-version-check --no-deps \
    --only-binary=:all: --platform manylinux_2_27_x86_64 \
    --python-version 3.12 -d "$data/wheels" "$wheel_spec" >&2
  rm -rf "$data/lib"/*
  name=${wheel_spec%%==*}; name=${name//-/_}; ver=${wheel_spec#*==}
  whl=$(ls "$data/wheels/${name}-${ver}"-*.whl | head -1)
  # Unpack the shared libraries only.
  python3 - "$whl" "$data/lib" <<'PY'
import sys, zipfile, os
whl, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    for n in z.namelist():
        if ".so" in os.path.basename(n):
            target = os.path.join(out, os.path.basename(n))
            with z.open(n) as src, open(target, "wb") as dst:
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
PY
  echo "$wheel_spec" >"$stamp"
fi

# The largest library that holds device code.
target=""
for f in $(ls -S "$data"/lib/*.so*); do
  if readelf -SW "$f" 2>/dev/null | grep -q '\.nv_fatbin'; then target=$f; break; fi
done
[[ -n "$target" ]] || { echo "fatbin-bench: no library with .nv_fatbin in $data/lib" >&2; exit 1; }

cargo build --quiet --release -p fatbin --bin fatbin
bin="$CARGO_TARGET_DIR/release/fatbin"

python3 - "$runs" "$target" "$bin" "$(command -v cuobjdump)" <<'PY'
import subprocess, sys, time, os
runs, target, ours, theirs = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
def timed(cmd):
    best, out = None, None
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True)
        dt = time.perf_counter() - t
        if p.returncode != 0:
            sys.exit(f"{cmd[0]} failed ({p.returncode}): {p.stderr.decode()[:500]}")
        out = p.stdout
        best = dt if best is None else min(best, dt)
    return best, out
size = os.path.getsize(target)
t_cuobj, a = timed([theirs, "--list-elf", "--list-ptx", target])
t_ours, b = timed([ours, "list", target])
n = a.count(b"\n")
print(f"file:       {target} ({size / 2**20:.0f} MiB, {n} listed files)")
print(f"cuobjdump:  {t_cuobj * 1000:9.1f} ms (best of {runs})")
print(f"fatbin:     {t_ours * 1000:9.1f} ms (best of {runs})")
print(f"ratio:      cuobjdump / fatbin = {t_cuobj / t_ours:.1f}x")
if a != b:
    import difflib
    d = difflib.unified_diff(a.decode().splitlines(), b.decode().splitlines(), "cuobjdump", "fatbin", lineterm="")
    print("\n".join(list(d)[:40]))
    sys.exit("listings differ")
print("listings:   identical")
PY
