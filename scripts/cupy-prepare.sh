#!/usr/bin/env bash
# Build CuPy 14.2.0 from its PyPI source distribution three times, for sm_90
# only. Twice with CuPy's default build (every extension that uses the
# runtime links libcudart_static.a):
#   ours/    against our libcudart_static.a (PREFIX/lib64)
#   nvidia/  against NVIDIA's libcudart_static.a from the pinned toolkit
# and once with the shared runtime (the LD_LIBRARY_PATH mode):
#   shared/  the sdist's cupy_builder patched to link -lcudart where it
#            names cudart_static (install/cupy_builder/_features.py), built
#            against the toolkit; every module that uses the runtime has
#            DT_NEEDED libcudart.so.13 and no runtime inside, so the one
#            wheel runs under either libcudart.so.13, chosen by
#            LD_LIBRARY_PATH: shared/lib-ours/ (PREFIX/lib64's) or
#            shared/lib-nvidia/ (the toolkit's)
# and lay out a bundle for scripts/cupy-run.sh on a GPU machine:
#   BUNDLE/ours/cupy-14.2.0-cp312-*.whl
#   BUNDLE/nvidia/cupy-14.2.0-cp312-*.whl
#   BUNDLE/shared/cupy-14.2.0-cp312-*.whl, lib-ours/, lib-nvidia/
#   BUNDLE/tests/          tests/ of the sdist (cupy_tests/cuda_tests is run)
#   BUNDLE/cupy-run.sh, BUNDLE/cupy-report.py
#   BUNDLE/checks.txt      which runtime each extension module carries
#   BUNDLE/build-info.txt  versions, flags, build times
#
# Usage: scripts/cupy-prepare.sh [--prefix DIR] [--bundle DIR] [--work DIR]
#                                [--only ours|nvidia|shared] [--no-build]
#   --prefix  install prefix of our runtime (default build/static-prefix,
#             made by scripts/install.sh --prefix DIR)
#   --bundle  output folder (default cupy-bundle)
#   --work    downloads, venv and build logs (default build/cupy-work)
#   --only    build one of the three wheels (ours, nvidia or shared; the
#             others are taken from WORK)
#   --no-build  take the built wheels from WORK (WORK/wheel-*/): only lay
#             out the bundle and run the checks again
#
# The built wheels carry DWARF (Python's CFLAGS have -g, as NVIDIA's
# cupy-cuda13x wheels do): about 42 MB each. The bundle's copies have it
# removed with `strip --strip-debug` (code, sections and .symtab unchanged;
# RECORD rewritten by `wheel pack`): about 16 MB each.
#
# How CuPy finds the static runtime: cupy_builder (install/cupy_builder/
# cupy_setup_build.py, _find_static_library) does not pass -lcudart_static;
# it puts the absolute path $CUDA_PATH/lib64/libcudart_static.a among the
# link's objects. So -L flags cannot choose the archive; CUDA_PATH does.
# The "ours" build gets CUDA_PATH=WORK/cuda-ours, a tree whose bin, include
# and nvvm are the toolkit's and whose lib64 has our libcudart_static.a
# (and libcudart.so*) from PREFIX/lib64; it also gets
# LDFLAGS=-L PREFIX/lib64 so that our folder also comes first among the
# linker's -L folders. The "nvidia" build gets CUDA_PATH=the toolkit.
#
# CuPy's optional modules nccl, cutensor and cusparselt are not built (their
# headers are not installed; none of them links the runtime), as CuPy's
# configure step reports in the build logs.
#
# Needs: a CPython 3.12 (python3.12 on PATH, or pyenv's), gcc/g++, network
# access to PyPI only. Does not run cargo: build the prefix first.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
prefix=$here/build/static-prefix
bundle=$here/cupy-bundle
work=$here/build/cupy-work
only=""
nobuild=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --prefix) prefix=$2; shift 2 ;;
    --bundle) bundle=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --no-build) nobuild=yes; shift ;;
    -h|--help) sed -n 2,55p "$0"; exit 0 ;;
    *) echo "cupy-prepare: unknown argument $1" >&2; exit 2 ;;
  esac
done
prefix=$(cd "$prefix" && pwd)
mkdir -p "$bundle" "$work"
bundle=$(cd "$bundle" && pwd)
work=$(cd "$work" && pwd)

CUPY_VERSION=14.2.0
CUPY_SDIST=cupy-$CUPY_VERSION.tar.gz
CUPY_SHA256=cfed725e612178cfbdbf62f4a3a598b60edecbbca718c0d4580c21a16ae4a62c
# Build requirements of CuPy 14.2.0 (pyproject.toml: setuptools>=77, wheel,
# Cython>=3.2,<3.3, numpy>=2.0) pinned to the versions this was tried with
# (CuPy 14 no longer uses fastrlock).
BUILD_DEPS=(setuptools==84.2.1 wheel==0.48.0 Cython==3.2.9 numpy==2.5.5)
# Headers and link-time libraries of the CUDA math libraries, the versions
# of cuda-toolkit==13.0.2 (nvcc 13.0.88, the pinned toolkit).
CTK_WHEELS=(nvidia-cublas==13.1.0.3 nvidia-cufft==12.0.0.61
            nvidia-curand==10.4.0.35 nvidia-cusolver==12.0.4.66
            nvidia-cusparse==12.6.3.3 nvidia-cuda-nvrtc==13.0.88
            nvidia-cuda-profiler-api==13.0.85 nvidia-nvtx==13.0.85)
ARCH="arch=compute_90,code=sm_90"
NICE=(nice -n 10)

log() { printf '[cupy-prepare] %s\n' "$*" >&2; }

# --- the pieces ------------------------------------------------------------
for f in libcudart_static.a libcudart.so.13; do
  [[ -f $prefix/lib64/$f ]] || { log "missing $prefix/lib64/$f (run scripts/install.sh --prefix $prefix)"; exit 1; }
done
toolkit=$("$here/scripts/setup-toolchain.sh" --env | sed -n 's/^export CUDA_HOME=//p' | tr -d "'\"")
[[ -x $toolkit/bin/nvcc && -f $toolkit/lib64/libcudart_static.a ]] || {
  log "no toolkit at '$toolkit' (scripts/setup-toolchain.sh)"; exit 1; }
log "toolkit: $toolkit ($("$toolkit/bin/nvcc" --version | tail -1))"
log "prefix:  $prefix"

py312=""
for c in python3.12 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python3.12; do
  if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 12))' 2>/dev/null; then
    py312=$(command -v "$c"); break
  fi
done
[[ -n $py312 ]] || { log "no CPython 3.12 found (the GPU machine runs 3.12)"; exit 1; }
log "python:  $py312 ($("$py312" --version))"

venv=$work/venv
if [[ ! -x $venv/bin/python ]]; then
  "$py312" -m venv "$venv"
fi
"${NICE[@]}" "$venv/bin/python" -m pip install -q --disable-pip-version-check "${BUILD_DEPS[@]}"

# The sdist, by its PyPI file address (pip download would build the
# package's metadata, which runs CuPy's whole configure step).
sdist=$work/$CUPY_SDIST
if [[ ! -f $sdist ]] || ! echo "$CUPY_SHA256  $sdist" | sha256sum -c --quiet 2>/dev/null; then
  log "downloading $CUPY_SDIST"
  "$venv/bin/python" - "$CUPY_SDIST" "$sdist" <<'EOF'
import json, sys, urllib.request
name, out = sys.argv[1], sys.argv[2]
req = urllib.request.Request("https://pypi.org/simple/cupy/",
        headers={"Accept": "application/vnd.pypi.simple.v1+json"})
files = json.load(urllib.request.urlopen(req))["files"]
url = next(f["url"] for f in files if f["filename"] == name)
urllib.request.urlretrieve(url, out)
EOF
fi
echo "$CUPY_SHA256  $sdist" | sha256sum -c --quiet

ctk=$work/ctk
if [[ ! -f $ctk/.done ]]; then
  log "installing CUDA 13.0 math-library headers and libraries into $ctk"
  rm -rf "$ctk"
  "${NICE[@]}" "$venv/bin/python" -m pip install -q --disable-pip-version-check \
    --no-deps --only-binary :all: --target "$ctk" "${CTK_WHEELS[@]}"
  touch "$ctk/.done"
fi
ctkinc=$ctk/nvidia/cu13/include

# -l names for the link: unversioned links to the wheels' libraries, and a
# symbol-less libcuda.so (the jitify module names -lcuda; the real one is
# the driver's; with --as-needed nothing of it is recorded).
linkdir=$work/linkdir
mkdir -p "$linkdir"
for l in cublas cufft curand cusparse cusolver nvrtc; do
  so=$(ls "$ctk"/nvidia/cu13/lib/lib$l.so.* | grep -v '\.alt\.' | head -1)
  ln -sfn "$so" "$linkdir/lib$l.so"
done
echo 'int cupy_prepare_libcuda_stand_in;' > "$linkdir/cuda_stub.c"
gcc -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$linkdir/libcuda.so" "$linkdir/cuda_stub.c"

# CUDA_PATH for the "ours" build: the toolkit with our runtime in lib64.
ours_cuda=$work/cuda-ours
rm -rf "$ours_cuda"
mkdir -p "$ours_cuda/lib64"
for d in bin include nvvm; do ln -s "$toolkit/$d" "$ours_cuda/$d"; done
for f in "$toolkit"/lib64/*; do ln -s "$f" "$ours_cuda/lib64/"; done
for f in libcudart_static.a libcudart.so libcudart.so.13; do
  ln -sfn "$prefix/lib64/$f" "$ours_cuda/lib64/$f"
done
ln -s lib64 "$ours_cuda/lib"

# The sdist for the shared build: cupy_builder's features link -lcudart
# instead of naming libcudart_static.a. _cudart_static_libs (pthread, rt,
# dl: what the static archive needs) is the list every runtime-using
# feature starts from, so 'cudart' goes first in it, and each
# static_libraries ['cudart_static'] becomes []. The patch is checked:
# every 'cudart_static' entry must be gone.
shared_sdist=$work/cupy-$CUPY_VERSION-shared.tar.gz
make_shared_sdist() {
  local d=$work/shared-src
  rm -rf "$d"; mkdir -p "$d"
  tar -xzf "$sdist" -C "$d"
  local f=$d/cupy-$CUPY_VERSION/install/cupy_builder/_features.py
  sed -i -e "s/\['pthread', 'rt', 'dl'\] if sys.platform == 'linux'/['cudart', 'pthread', 'rt', 'dl'] if sys.platform == 'linux'/" \
         -e "s/'static_libraries': \['cudart_static'\]/'static_libraries': []/" \
         -e "s/self.static_libraries = \['cudart_static'\]/self.static_libraries = []/" "$f"
  if grep -n "cudart_static'\]" "$f" >&2 || ! grep -q "\['cudart', 'pthread'" "$f"; then
    log "patching $f for the shared runtime failed"; return 1
  fi
  tar -czf "$shared_sdist" -C "$d" "cupy-$CUPY_VERSION"
}

# --- the builds ------------------------------------------------------------
# CUPY_INSTALL_NO_RPATH=1: no build-machine folders in RUNPATH (NVIDIA's
# cupy-cuda13x wheels have none either). -Wl,--as-needed: a module records
# only the libraries it calls (as in NVIDIA's wheels, where e.g. runtime.so
# needs no libcublas: CuPy loads those through cuda-pathfinder on demand).
build_one() {
  local which=$1 cuda_path=$2 ldflags=$3 src=${4:-$sdist}
  local out=$work/wheel-$which logf=$work/build-$which.log
  rm -rf "$out"; mkdir -p "$out"
  log "building $which (CUDA_PATH=$cuda_path), log: $logf"
  local t0=$SECONDS
  if ! env -u CFLAGS -u CXXFLAGS -u CPPFLAGS \
      PATH="$toolkit/bin:$PATH" \
      CUDA_PATH="$cuda_path" NVCC="$toolkit/bin/nvcc" \
      CUPY_INCLUDE_PATH="$ctkinc" CUPY_LIBRARY_PATH="$linkdir" \
      CUPY_NVCC_GENERATE_CODE="$ARCH" CUPY_NUM_BUILD_JOBS=2 \
      CUPY_NUM_NVCC_THREADS=2 CUPY_INSTALL_NO_RPATH=1 \
      LDFLAGS="$ldflags" \
      "${NICE[@]}" "$venv/bin/python" -m pip wheel -v --no-build-isolation \
        --no-deps --disable-pip-version-check -w "$out" "$src" >"$logf" 2>&1; then
    tail -40 "$logf" >&2
    log "build $which FAILED (see $logf)"; return 1
  fi
  local dt=$((SECONDS - t0))
  sed -i "/^$which /d" "$work/build-times.txt" 2>/dev/null || true
  echo "$which $dt" >>"$work/build-times.txt"
  log "built $which in ${dt}s: $(ls "$out")"
}

if [[ -z $nobuild && ( -z $only || $only == ours ) ]]; then
  build_one ours "$ours_cuda" "-L$prefix/lib64 -Wl,--as-needed"
fi
if [[ -z $nobuild && ( -z $only || $only == nvidia ) ]]; then
  build_one nvidia "$toolkit" "-Wl,--as-needed"
fi
if [[ -z $nobuild && ( -z $only || $only == shared ) ]]; then
  make_shared_sdist
  build_one shared "$toolkit" "-Wl,--as-needed" "$shared_sdist"
fi

# Copy each wheel into the bundle without its DWARF.
for which in ours nvidia shared; do
  whl=$(ls "$work/wheel-$which"/cupy-*.whl 2>/dev/null | head -1 || true)
  if [[ -z $whl ]]; then
    # with --only, the wheels not asked for may never have been built
    [[ -n $only && $only != "$which" ]] && { log "$which: not built, left out"; continue; }
    log "no built wheel in $work/wheel-$which"; exit 1
  fi
  un=$work/strip-$which
  rm -rf "$un" "$bundle/$which"
  mkdir -p "$un" "$bundle/$which"
  "$venv/bin/python" -m wheel unpack -d "$un" "$whl" >/dev/null
  find "$un" -name '*.so' -exec strip --strip-debug {} +
  "$venv/bin/python" -m wheel pack -d "$bundle/$which" "$un"/cupy-* >/dev/null
  log "$which: $(basename "$whl") $(stat -c %s "$whl") bytes built, $(stat -c %s "$bundle/$which"/*.whl) in the bundle"
done

# --- the bundle ----------------------------------------------------------------
# The two shared runtimes the shared wheel runs under.
rm -rf "$bundle/shared/lib-ours" "$bundle/shared/lib-nvidia"
mkdir -p "$bundle/shared/lib-ours" "$bundle/shared/lib-nvidia"
cp -L "$prefix/lib64/libcudart.so.13" "$bundle/shared/lib-ours/"
strip --strip-debug "$bundle/shared/lib-ours/libcudart.so.13"
cp -L "$toolkit/lib64/libcudart.so.13" "$bundle/shared/lib-nvidia/"
rm -rf "$bundle/tests"
tar -xzf "$sdist" -C "$work" "cupy-$CUPY_VERSION/tests"
cp -r "$work/cupy-$CUPY_VERSION/tests" "$bundle/tests"
# pytest settings of the sdist (markers, filterwarnings), used by cupy-run.sh
tar -xzf "$sdist" -C "$work" "cupy-$CUPY_VERSION/pyproject.toml"
cp "$work/cupy-$CUPY_VERSION/pyproject.toml" "$bundle/tests/pyproject.toml"
cp "$here/scripts/cupy-run.sh" "$here/scripts/cupy-report.py" "$here/scripts/cupy-workload.py" "$bundle/"

{
  echo "cupy $CUPY_VERSION from $CUPY_SDIST sha256 $CUPY_SHA256"
  echo "python $("$venv/bin/python" --version 2>&1); build deps: ${BUILD_DEPS[*]}"
  echo "ctk wheels: ${CTK_WHEELS[*]}"
  echo "nvcc: $("$toolkit/bin/nvcc" --version | tail -1); CUPY_NVCC_GENERATE_CODE=$ARCH"
  echo "ours:   CUDA_PATH=$ours_cuda LDFLAGS=-L$prefix/lib64 -Wl,--as-needed"
  echo "        libcudart_static.a sha256 $(sha256sum "$prefix/lib64/libcudart_static.a" | cut -d' ' -f1)"
  echo "nvidia: CUDA_PATH=$toolkit LDFLAGS=-Wl,--as-needed"
  echo "        libcudart_static.a sha256 $(sha256sum "$toolkit/lib64/libcudart_static.a" | cut -d' ' -f1)"
  [[ -f $work/build-times.txt ]] && sed 's/^/build seconds: /' "$work/build-times.txt"
  echo "shared: CUDA_PATH=$toolkit LDFLAGS=-Wl,--as-needed, cupy_builder patched: -lcudart"
  echo "        lib-ours/libcudart.so.13 sha256 $(sha256sum "$bundle/shared/lib-ours/libcudart.so.13" | cut -d' ' -f1)"
  echo "        lib-nvidia/libcudart.so.13 sha256 $(sha256sum "$bundle/shared/lib-nvidia/libcudart.so.13" | cut -d' ' -f1)"
  for w in ours nvidia shared; do
    echo "$w built:  $(ls -l "$work/wheel-$w"/*.whl 2>/dev/null)"
    echo "$w bundle: $(ls -l "$bundle/$w"/*.whl 2>/dev/null)"
  done
} >"$bundle/build-info.txt"

# --- the checks ------------------------------------------------------------------
# For every extension module of each wheel: does it carry our runtime (the
# .cudart_rs section), NVIDIA's (its libcudart_static_<hash> symbols), which
# archive the link line named, and a DT_NEEDED libcudart (must be none in
# ours and nvidia; in shared, no runtime inside, and the runtime module
# cupy_backends/cuda/api/runtime needs libcudart.so.13).
rc=0
CHECK_ONLY=$only "$venv/bin/python" - "$bundle" "$work" "$prefix" "$toolkit" >"$bundle/checks.txt" <<'EOF' || rc=$?
import glob, os, re, subprocess, sys, zipfile, shutil
bundle, work, prefix, toolkit = sys.argv[1:5]
fail = []
def sh(*a):
    return subprocess.run(a, capture_output=True, text=True).stdout
for which in ("ours", "nvidia", "shared"):
    wheels = glob.glob(f"{bundle}/{which}/cupy-*.whl")
    if not wheels:
        print(f"## {which}: no wheel")
        if os.environ.get("CHECK_ONLY", "") in ("", which):
            fail.append(which)
        continue
    whl = wheels[0]
    d = f"{work}/check-{which}"
    shutil.rmtree(d, ignore_errors=True)
    zipfile.ZipFile(whl).extractall(d)
    print(f"## {which}: {os.path.basename(whl)} ({os.path.getsize(whl)} bytes)")
    sos = sorted(glob.glob(f"{d}/**/*.so", recursive=True))
    n_rs = n_nv = n_needs = 0
    for so in sos:
        rel = os.path.relpath(so, d)
        secs = sh("readelf", "-S", "-W", so)
        rs = ".cudart_rs" in secs
        # NVIDIA's archive names its local symbols libcudart_static_<hash>
        # (ours, a Rust crate named cudart, has _ZN6cudart...17h<hash>E).
        nv = bool(re.search(r"\blibcudart_static_[0-9a-f]{16,}", sh("nm", so)))
        needed = re.findall(r"\(NEEDED\).*\[(.*)\]", sh("readelf", "-d", so))
        cudart_needed = [n for n in needed if n.startswith("libcudart")]
        n_rs += rs; n_nv += nv
        tag = ("ours" if rs else "") + ("+" if rs and nv else "") + ("nvidia" if nv else "")
        print(f"{rel:80s} runtime={tag or '-':7s} NEEDED={','.join(needed)}")
        if which == "shared":
            if rs or nv:
                fail.append(f"shared: {rel} holds a static runtime")
            if "api/runtime" in rel and cudart_needed != ["libcudart.so.13"]:
                fail.append(f"shared: {rel} needs {cudart_needed}, not libcudart.so.13")
            n_needs += bool(cudart_needed)
        elif cudart_needed:
            fail.append(f"{which}: {rel} needs {cudart_needed}")
        if which == "ours" and nv:
            fail.append(f"ours: {rel} holds NVIDIA's runtime")
        if which == "nvidia" and rs:
            fail.append(f"nvidia: {rel} holds our runtime")
    print(f"{which}: {len(sos)} modules, {n_rs} with .cudart_rs (ours), {n_nv} with NVIDIA's libcudart_static_* symbols")
    if which == "shared":
        print(f"shared: {n_needs} modules need libcudart.so.13")
        if not n_needs:
            fail.append("shared: no module needs libcudart.so.13")
        print()
        continue
    if which == "ours" and n_rs == 0:
        fail.append("ours: no module holds our runtime")
    if which == "nvidia" and n_nv == 0:
        fail.append("nvidia: no module holds NVIDIA's runtime")
    log = f"{work}/build-{which}.log"
    if os.path.exists(log):
        lines = [l for l in open(log, errors="replace") if "libcudart_static.a" in l and " -shared " in l]
        archives = sorted(set(re.findall(r"(\S*libcudart_static\.a)", "".join(lines))))
        print(f"{which}: {len(lines)} link lines name libcudart_static.a: {archives}")
        want = f"{work}/cuda-ours/lib64/libcudart_static.a" if which == "ours" else f"{toolkit}/lib64/libcudart_static.a"
        if archives != [want]:
            fail.append(f"{which}: link lines name {archives}, want {want}")
        lflag = [l for l in lines if f"-L{prefix}/lib64" in l]
        if which == "ours":
            print(f"ours: {len(lflag)} of those link lines carry -L{prefix}/lib64")
            if not lines or len(lflag) != len(lines):
                fail.append("ours: -L prefix missing from link lines")
        target = os.path.realpath(f"{work}/cuda-ours/lib64/libcudart_static.a")
        if which == "ours" and target != os.path.realpath(f"{prefix}/lib64/libcudart_static.a"):
            fail.append(f"ours: cuda-ours archive is {target}")
        if which == "ours":
            print(f"ours: {work}/cuda-ours/lib64/libcudart_static.a -> {target}")
    print()
print("RESULT:", "ok" if not fail else "FAIL")
for f in fail:
    print("  " + f)
sys.exit(1 if fail else 0)
EOF
cat "$bundle/checks.txt" | grep -v '^\(cupy\|cupyx\|cupy_backends\)/' >&2
for d in ours nvidia shared tests; do [[ -d $bundle/$d ]] && du -sh "$bundle/$d" >&2; done
exit $rc
