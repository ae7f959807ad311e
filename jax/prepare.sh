#!/usr/bin/env bash
# Lays out the JAX bundle for the GPU machine (a few hundred KB; it must
# stay under 3 MB):
#
#   jax/prepare.sh [--tests-from DIR] BUNDLE
#
#   BUNDLE/jax/                 run.sh, workload.py, report.py, README.md,
#                               prepare.sh (this folder's scripts)
#   BUNDLE/scripts/with-cudart.sh, BUNDLE/scripts/pyshim/
#   BUNDLE/jax/tests/           JAX's fft_test.py, random_test.py and
#                               memories_test.py (JAX_TEST_FILES picks
#                               others), conftest.py where DIR has one, and
#                               the modules of DIR they import; only with
#                               --tests-from
#   BUNDLE/jax/wheels/          the absl-py wheel JAX's tests import
#                               (pinned, sha256 checked; downloaded once
#                               into build/jax-work/ with pip download)
#
#   --tests-from DIR   a JAX source checkout's tests/ folder (or the
#                      checkout itself), of the JAX version the GPU machine
#                      has; without it the bundle has no tests and run.sh
#                      says so
#
# BUNDLE may be the GPU round trip's bundle (gpu-bundle, which has the same
# scripts/ layout): only BUNDLE/jax is replaced. Our libcudart.so.13 is
# not part of it; on the GPU machine:
#   bash BUNDLE/jax/run.sh LIB_DIR "$OUT" [ROUNDS]
# and back here: python3 jax/report.py OUT > docs/jax-report.md
set -euo pipefail
# --help: this file's opening comment.
case ${1:-} in -h|--help) awk 'NR>1 && !/^#/{exit} NR>1{sub(/^# ?/,"");print}' "$0"; exit 0 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
tests_from=""
bundle=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --tests-from) tests_from=$2; shift 2 ;;
    -*) echo "jax/prepare.sh: unknown option $1 (--help)" >&2; exit 2 ;;
    *) [[ -z $bundle ]] || { echo "jax/prepare.sh: one BUNDLE only" >&2; exit 2; }; bundle=$1; shift ;;
  esac
done
[[ -n $bundle ]] || { echo "usage: jax/prepare.sh [--tests-from DIR] BUNDLE  (--help)" >&2; exit 2; }

ABSL_VERSION=2.5.1
ABSL_WHEEL=absl_py-$ABSL_VERSION-py3-none-any.whl
ABSL_SHA256=721200f2f0e9960f2ca9dc3a2a706b201f5f75d812c158f059cbbe29eeafbdb8
files=${JAX_TEST_FILES:-fft_test.py random_test.py memories_test.py}
work=${JAX_WORK:-$root/build/jax-work}

mkdir -p "$bundle"
bundle=$(cd "$bundle" && pwd)
rm -rf "$bundle/jax"
mkdir -p "$bundle/jax/wheels" "$bundle/scripts/pyshim"
cp -p "$here/run.sh" "$here/workload.py" "$here/report.py" "$here/README.md" "$here/prepare.sh" "$bundle/jax/"
cp -p "$root/scripts/with-cudart.sh" "$bundle/scripts/"
cp -p "$root/scripts/pyshim/"*.py "$bundle/scripts/pyshim/"

# absl-py
mkdir -p "$work"
whl=$work/$ABSL_WHEEL
if ! echo "$ABSL_SHA256  $whl" | sha256sum -c --quiet >/dev/null 2>&1; then
  rm -f "$whl"
  python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary :all: \
    --python-version 3.12 -d "$work" "absl-py==$ABSL_VERSION" >&2
fi
echo "$ABSL_SHA256  $whl" | sha256sum -c --quiet
cp "$whl" "$bundle/jax/wheels/"

# JAX's test files, and the modules of the tests folder they import
if [[ -n $tests_from ]]; then
  src=$(cd "$tests_from" && pwd)
  [[ -f $src/${files%% *} || ! -d $src/tests ]] || src=$src/tests
  mkdir -p "$bundle/jax/tests"
  # shellcheck disable=SC2086 # a list of file names, split on purpose
  python3 - "$src" "$bundle/jax/tests" $files <<'EOF'
import ast, os, shutil, sys
src, dst, want = sys.argv[1], sys.argv[2], sys.argv[3:]
missing = [f for f in want if not os.path.isfile(os.path.join(src, f))]
if missing:
    sys.exit("jax/prepare.sh: not in %s: %s" % (src, " ".join(missing)))
todo = list(want) + [f for f in ("conftest.py",) if os.path.isfile(os.path.join(src, f))]
done = set()
while todo:
    f = todo.pop()
    if f in done:
        continue
    done.add(f)
    os.makedirs(os.path.dirname(os.path.join(dst, f)), exist_ok=True)
    shutil.copy(os.path.join(src, f), os.path.join(dst, f))
    # helpers beside the tests: `import x`, `from x import y`, `from tests import x`
    for node in ast.walk(ast.parse(open(os.path.join(src, f)).read(), f)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + ["%s.%s" % (node.module, a.name) for a in node.names]
        for n in names:
            parts = n.split(".")
            if parts[0] == "tests":
                parts = parts[1:]
            if parts and os.path.isfile(os.path.join(src, *parts) + ".py"):
                todo.append(os.path.join(*parts) + ".py")
print("\n".join("jax/tests/" + f for f in sorted(done)))
EOF
else
  echo "jax/prepare.sh: no --tests-from: the bundle has no JAX tests (run.sh will say so)" >&2
fi

find "$bundle/jax" "$bundle/scripts/pyshim" -name __pycache__ -prune -exec rm -rf {} +
kb=$(du -sk "$bundle/jax" "$bundle/scripts/pyshim" "$bundle/scripts/with-cudart.sh" | awk '{ s += $1 } END { print s }')
echo "jax/prepare.sh: $bundle: jax/ and its scripts take ${kb} KB" >&2
if ((kb > 3072)); then
  echo "jax/prepare.sh: more than 3 MB" >&2
  exit 1
fi
