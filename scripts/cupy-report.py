#!/usr/bin/env python3
"""Compare CuPy's cuda_tests run against our static runtime and NVIDIA's.

Usage: cupy-report.py OUTDIR   (OUTDIR holds junit-ours/ and
junit-nvidia/, a junit file per test file, and hung-ours.txt and
hung-nvidia.txt, as scripts/cupy-run.sh writes them in $OUT/cupy/; a
single junit-ours.xml and junit-nvidia.xml are read too)

Prints a markdown table per runtime (tests: test cases in the junit files;
run: those not skipped; passed; failed: failures and errors; skipped;
hung: test files stopped by their time limit), every test whose outcome
differs between the two runs, and the tests that hung.
"""
import os
import sys
import xml.etree.ElementTree as ET

RUNS = ("ours", "nvidia")


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
    print()
    if any(runs[r] is None for r in RUNS):
        print("Differences: not compared (a run has no junit file).")
        return 1
    ids = sorted(set(runs["ours"]) | set(runs["nvidia"]))
    diff = [(t, runs["ours"].get(t, "absent"), runs["nvidia"].get(t, "absent"))
            for t in ids
            if runs["ours"].get(t) != runs["nvidia"].get(t)]
    print(f"Tests whose outcome differs: {len(diff)}")
    if diff:
        print()
        print("| test | ours | nvidia |")
        print("| --- | --- | --- |")
        for t, a, b in diff:
            print(f"| `{t}` | {a} | {b} |")
    for r in RUNS:
        if hangs[r]:
            print()
            print(f"Test files that ran out of time under {r}:")
            for line in hangs[r]:
                print(f"- `{line}`")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
