#!/usr/bin/env python3
"""Compare CuPy's tests run under our runtime and NVIDIA's.

Usage: cupy-report.py OUTDIR   (OUTDIR holds junit-RUN/, a junit file per
test file, and hung-RUN.txt, as scripts/cupy-run.sh writes them in
$OUT/cupy/; a single junit-RUN.xml is read too)

The runs come in pairs, each ours against NVIDIA's with the same build:
ours/nvidia (CuPy linked with each static runtime) and
shared-ours/shared-nvidia (one CuPy linked with -lcudart, under each
libcudart.so.13). Prints a markdown table with a row per run found
(tests: test cases in the junit files; run: those not skipped; passed;
failed: failures and errors; skipped; hung: test files stopped by their
time limit), then for each pair found every test whose outcome differs,
and the tests that hung.
"""
import os
import sys
import xml.etree.ElementTree as ET

PAIRS = (("ours", "nvidia"), ("shared-ours", "shared-nvidia"))


def outcomes(path):
    """{test id: outcome} from a junit XML file; None if it is missing."""
    if not os.path.exists(path):
        return None
    res = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        tid = f'{case.get("classname", "")}::{case.get("name", "")}'
        tags = {child.tag for child in case}
        if "failure" in tags:
            out = "failed"
        elif "error" in tags:
            out = "error"
        elif "skipped" in tags:
            out = "skipped"
        else:
            out = "passed"
        res[tid] = out
    return res


def runtime_outcomes(outdir, run):
    """Every junit file of one runtime merged; None if there is none."""
    files = [os.path.join(outdir, f"junit-{run}.xml")]
    folder = os.path.join(outdir, f"junit-{run}")
    if os.path.isdir(folder):
        files += [os.path.join(folder, f) for f in sorted(os.listdir(folder))]
    found = [outcomes(f) for f in files]
    found = [f for f in found if f is not None]
    if not found:
        return None
    merged = {}
    for f in found:
        merged.update(f)
    return merged


def hung(outdir, run):
    """Lines of hung-RUN.txt: a test file and the test that was running."""
    path = os.path.join(outdir, f"hung-{run}.txt")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    outdir = argv[1]
    present = [p for p in PAIRS
               if any(os.path.exists(os.path.join(outdir, f"junit-{r}"))
                      or os.path.exists(os.path.join(outdir, f"junit-{r}.xml"))
                      for r in p)]
    if not present:
        print("No junit results in", outdir)
        return 1
    RUNS = [r for p in present for r in p]
    runs = {r: runtime_outcomes(outdir, r) for r in RUNS}
    hangs = {r: hung(outdir, r) for r in RUNS}
    print("| runtime | tests | run | passed | failed | skipped | hung |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in RUNS:
        res = runs[r]
        if res is None:
            print(f"| {r} | (no junit file) | | | | | {len(hangs[r])} |")
            continue
        vals = list(res.values())
        failed = vals.count("failed") + vals.count("error")
        skipped = vals.count("skipped")
        print(f"| {r} | {len(vals)} | {len(vals) - skipped} | "
              f"{vals.count('passed')} | "
              f"{failed} | {skipped} | {len(hangs[r])} |")
    rc = 0
    for a, b in present:
        print()
        if runs[a] is None or runs[b] is None:
            print(f"{a} against {b}: not compared (a run has no junit file).")
            rc = 1
            continue
        ids = sorted(set(runs[a]) | set(runs[b]))
        diff = [(t, runs[a].get(t, "absent"), runs[b].get(t, "absent"))
                for t in ids
                if runs[a].get(t) != runs[b].get(t)]
        print(f"{a} against {b}: tests whose outcome differs: {len(diff)}")
        if diff:
            print()
            print(f"| test | {a} | {b} |")
            print("| --- | --- | --- |")
            for t, x, y in diff:
                print(f"| `{t}` | {x} | {y} |")
    for r in RUNS:
        if hangs[r]:
            print()
            print(f"Test files that ran out of time under {r}:")
            for line in hangs[r]:
                print(f"- `{line}`")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
