#!/usr/bin/env bash
# Runs fuzz targets one after another, each for a given time (one job,
# `nice -n 19`), and appends one row per run to the ledger, docs/fuzzing.md:
# date, executions (libFuzzer's final stats), wall time, corpus size,
# crashes. The ledger's running total is recomputed from all its rows.
#
#   scripts/fuzz-run.sh [-t SECONDS] [--no-ledger] TARGET...
#
# TARGET: container, decompress, host, cubin (fatbin/fuzz), registration
# (cudart/fuzz), or `all`. Default time: 300 s per target. Extra libFuzzer
# flags can be given in FUZZ_FLAGS. Corpora stay in <crate>/corpus/<target>
# (seeded from the fixtures when empty), crash inputs in
# <crate>/artifacts/<target>/, logs in target/fuzz-logs/. A crash stops
# that target's run; the row says which file it left, and the regression
# test written for it goes in the row by hand.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

seconds=300
ledger=docs/fuzzing.md
write_ledger=1
targets=()
while (($#)); do
  case $1 in
    -t) seconds=$2; shift 2 ;;
    --no-ledger) write_ledger=0; shift ;;
    all) targets+=(container cubin host decompress registration); shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
((${#targets[@]})) || { echo "usage: $0 [-t SECONDS] [--no-ledger] TARGET..." >&2; exit 2; }

eval "$(scripts/setup-toolchain.sh --env)"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target/h-fatbin}"
mkdir -p target/fuzz-logs

crate_of() {
  case $1 in
    container|decompress|host|cubin) echo fatbin/fuzz ;;
    registration) echo cudart/fuzz ;;
    *) echo "unknown target: $1" >&2; return 1 ;;
  esac
}

# Seeds (added when missing): the fixtures (and, for `registration`, the fixtures behind a
# header that registers two of the image's kernels and one of its
# variables and asks for them: see cudart/fuzz/src/lib.rs).
seed() {
  local target=$1 corpus=$2 fx=fatbin/tests/fixtures
  mkdir -p "$corpus"
  case $target in
    registration)
      local f dev
      for f in "$fx"/*.fatbin; do
        # c1: 2 kernels, 1 variable, device bits 5-7 (0: sm_90, 1: sm_80).
        for dev in 0 1; do
          local out=$corpus/seed-$(basename "$f" .fatbin)-$dev
          [[ -e $out ]] && continue
          {
            printf '\x00'                              # c0: magic, version 1, end
            printf "\\x$(printf %02x $((2 | 1 << 3 | dev << 5)))"
            printf '\x80\x00\x10\x81\x40\x10'          # kernels 0 and 1 of the image
            printf '\x80\x04\x00\x00'                  # variable 0, 16 bytes, slot 0
            printf '\x06'                              # six queries
            printf '\x00\x00\x00\x09\x10\x00\x0b\x00\x00'
            printf '\x04\x00\x00\x05\x00\x00\x02\x00\x00'
            cat "$f"
          } > "$out"
        done
      done
      ;;
    *)
      cp -n "$fx"/*.fatbin "$fx"/*.cubin "$corpus"/
      ;;
  esac
}

ledger_row() { # target date executions wall corpus crashes
  python3 - "$ledger" "$@" <<'PY'
import re, sys
path, target, date, execs, wall, corpus, crashes = sys.argv[1:]
text = open(path).read()
row = f"| {date} | {target} | {int(execs):,} | {wall} | {int(corpus):,} | {crashes} |\n"
marker = f"<!-- end {target} -->"
if marker not in text:
    sys.exit(f"{path}: no table for {target} (marker {marker!r})")
text = text.replace(marker, row + marker, 1)
# The running total: every row of every target table.
total = 0
per = {}
current = None
for line in text.splitlines():
    m = re.match(r"<!-- begin (\w+) -->", line)
    if m:
        current = m.group(1)
        continue
    if line.startswith("<!-- end "):
        current = None
        continue
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if current and len(cells) >= 4 and re.fullmatch(r"[\d,]+", cells[2]):
        n = int(cells[2].replace(",", ""))
        total += n
        per[current] = per.get(current, 0) + n
summary = "".join(f"| {t} | {n:,} |\n" for t, n in per.items())
summary = ("| target | executions |\n|---|---:|\n" + summary
           + f"| **total** | **{total:,}** ({total / 1e8:.1%} of 10^8) |\n")
text = re.sub(r"(<!-- total -->\n).*?(<!-- /total -->)",
              lambda m: m.group(1) + summary + m.group(2), text, flags=re.S)
open(path, "w").write(text)
print(f"ledger: {target} +{int(execs):,}; total {total:,}")
PY
}

status=0
for target in "${targets[@]}"; do
  crate=$(crate_of "$target")
  corpus=$crate/corpus/$target
  artifacts=$crate/artifacts/$target
  seed "$target" "$corpus"
  mkdir -p "$artifacts"
  before=$(ls "$artifacts" | sort)
  log=target/fuzz-logs/$target-$(date -u +%Y%m%dT%H%M%S).log
  flags=(-max_total_time="$seconds" -max_len=32768 -rss_limit_mb=2048 -timeout=25
         -print_final_stats=1)
  # The runtime's diagnostics write one line per refused load on stderr.
  [[ $target == registration ]] && flags+=(-close_fd_mask=2)
  echo "==> $target: $seconds s, corpus $corpus, log $log"
  start=$(date +%s)
  rc=0
  (cd "$crate" && nice -n 19 cargo fuzz run -O -a "$target" "corpus/$target" -- \
     "${flags[@]}" ${FUZZ_FLAGS:-}) >"$log" 2>&1 || rc=$?
  wall=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -1)
  [[ -n $execs ]] || execs=$(sed -n 's/^Done \([0-9]*\) runs in.*/\1/p' "$log" | tail -1)
  [[ -n $execs ]] || { echo "$target: no executions in $log (rc $rc)"; tail -20 "$log"; status=1; continue; }
  files=$(find "$corpus" -type f | wc -l)
  new=$(comm -13 <(echo "$before") <(ls "$artifacts" | sort) | tr '\n' ' ')
  if [[ -n $new ]]; then
    crashes="1: \`${new% }\` (regression test: to be written)"
    status=1
  elif ((rc != 0)); then
    crashes="run failed (rc $rc), see log"
    status=1
  else
    crashes=0
  fi
  echo "$target: $execs executions in $wall s; corpus $files; crashes: $crashes"
  if ((write_ledger)); then
    ledger_row "$target" "$(date -u +%Y-%m-%d)" "$execs" "$((wall / 60)) min $((wall % 60)) s" \
      "$files" "$crashes"
  fi
done
exit $status
