#!/usr/bin/env python3
"""Compare CuPy's cuda_tests run against our static runtime and NVIDIA's.

Usage: cupy-report.py OUTDIR   (OUTDIR holds junit-ours.xml and
junit-nvidia.xml, as scripts/cupy-run.sh writes them in $OUT/cupy/)

Prints a markdown table per runtime (tests: test cases in the junit file;
run: those not skipped; passed; failed: failures and errors; skipped)
and every test whose outcome differs between the two runs.
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


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    outdir = argv[1]
    runs = {r: outcomes(os.path.join(outdir, f"junit-{r}.xml")) for r in RUNS}
    print("| runtime | tests | run | passed | failed | skipped |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in RUNS:
        res = runs[r]
        if res is None:
            print(f"| {r} | (no junit-{r}.xml) | | | | |")
            continue
        vals = list(res.values())
        failed = vals.count("failed") + vals.count("error")
        skipped = vals.count("skipped")
        print(f"| {r} | {len(vals)} | {len(vals) - skipped} | "
              f"{vals.count('passed')} | "
              f"{failed} | {skipped} |")
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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
