#!/usr/bin/env bash
# Turns the corpus and scale results a GPU session brought back (issue 30)
# into the checked-in reports, in one step:
#
#   scripts/wholeprog-report.sh TAG "META" JSON...
#
# TAG    names the reports, e.g. h200-2203 (docs/corpus-report-TAG.md/.png,
#        docs/scale-report-TAG.md/.png)
# META   the header's "date, machine, library" text, e.g.
#        "2026-12-08 22:03 UTC, H200, driver 580.159.04, library 3fe62e6, 5 rounds ABAB"
# JSON   OUT/corpus/corpus.json and OUT/scale/scale.json files (scripts/gpu-all.sh
#        copies them there), in any order and number: every corpus.json goes
#        into one corpus report (e.g. the samples' run and the workloads' run
#        of the same session), each scale.json into a scale report of its own
#        (TAG, then TAG-2, ...)
#
# Each JSON is copied to docs/traces/{corpus,scale}-TAG[-N].json (mode 644)
# and the reports are made from those copies, so the reports name files
# that are in the repository. The pictures need matplotlib: PYTHON (default
# python3) is the interpreter that runs the report scripts; without
# matplotlib the reports say the picture was skipped. Prints each report's
# summary lines, for the write-up. DOCS_DIR (default docs, from the
# repository root) puts the reports and traces/ elsewhere (the tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if (($# < 3)); then
  sed -n '2,23p' "$0" >&2
  exit 2
fi
tag=$1 meta=$2
shift 2
[[ $tag =~ ^[A-Za-z0-9._-]+$ ]] || { echo "wholeprog-report: TAG must be letters, digits, . _ -" >&2; exit 2; }
py=${PYTHON:-python3}

corpus=() scale=()
for f in "$@"; do
  [[ -f $f ]] || { echo "wholeprog-report: no file $f" >&2; exit 2; }
  f=$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
  kind=$("$py" - "$f" <<'EOF'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print("bad: %s" % e)
    sys.exit(0)
if isinstance(doc, dict) and "programs" in doc:
    print("corpus")
elif isinstance(doc, dict) and "runs" in doc:
    print("scale")
else:
    print("bad: neither a corpus.json (programs) nor a scale.json (runs)")
EOF
)
  case $kind in
    corpus) corpus+=("$f") ;;
    scale) scale+=("$f") ;;
    *) echo "wholeprog-report: $f: ${kind#bad: }" >&2; exit 2 ;;
  esac
done

cd "$root"
docs=${DOCS_DIR:-docs}
mkdir -p "$docs/traces"
report=$root/scripts

# $docs/traces/PREFIX-TAG.json, then PREFIX-TAG-2.json, ...
place() {
  local prefix=$1 i=$2 src=$3 name
  name=$prefix-$tag
  ((i > 1)) && name+=-$i
  install -m 644 "$src" "$docs/traces/$name.json"
  echo "$name"
}

if ((${#corpus[@]})); then
  copies=()
  for i in "${!corpus[@]}"; do
    copies+=("$docs/traces/$(place corpus $((i + 1)) "${corpus[$i]}").json")
  done
  "$py" "$report/corpus-report.py" "${copies[@]}" --png "$docs/corpus-report-$tag.png" \
    --meta "$meta" >"$docs/corpus-report-$tag.md"
  echo "== $docs/corpus-report-$tag.md (from ${copies[*]})"
  sed -n '/^## Summary/,/^## /p' "$docs/corpus-report-$tag.md" | sed '1d;$d'
fi
for i in "${!scale[@]}"; do
  name=$(place scale $((i + 1)) "${scale[$i]}")
  out=scale-report-$tag
  ((i > 0)) && out+=-$((i + 1))
  # From the traces folder, so that the report names the copy by its file name.
  (cd "$docs/traces" && "$py" "$report/scale-report.py" "$name.json" --png "../$out.png" \
    --meta "$meta") >"$docs/$out.md"
  echo "== $docs/$out.md (from $docs/traces/$name.json)"
  sed -n '/^## Summary/,/^## /p' "$docs/$out.md" | sed '1d;$d'
done
