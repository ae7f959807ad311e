#!/usr/bin/env python3
"""Turns the bad-input matrix comparison of a GPU run into Markdown.

    python3 scripts/badinput-report.py OUT/bad-compare.json [--commit SHA] > docs/badinput-report.md

OUT is what `harness-run.sh` wrote on the GPU machine (scripts/
harness-prepare.sh here, the device run there; see the header of
harness-run.sh). The report has the summary counts, the counts per kind of
bad argument, every difference (function, case, NVIDIA's result, ours),
NVIDIA's crashes and hangs, ours (there should be none), and the cases that
left the context unusable. Error names come from cudart/src/abi/error.rs
when the script runs inside the repository.
"""

import argparse
import fnmatch
import json
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))


def error_names():
    path = os.path.join(HERE, "..", "cudart", "src", "abi", "error.rs")
    try:
        text = open(path).read()
    except OSError:
        return {}
    return {int(v): n for n, v in re.findall(r"\b(cudaError\w*) = (\d+) =>", text)}


NAMES = error_names()


def fields(rest):
    return dict(re.findall(r"(\w+)=(\[[^\]]*\]|\S+)", rest or ""))


def err(v):
    """`400 InvalidResourceHandle` for a code, the value itself otherwise."""
    try:
        n = int(v)
    except (TypeError, ValueError):
        return str(v)
    name = NAMES.get(n)
    if n == 0:
        return "0"
    return f"{n} {name[len('cudaError'):]}" if name else str(n)


def result(rest, show):
    """One side of a difference: the return value, then the fields in
    `show` (those that differ) worded for a reader."""
    f = fields(rest)
    parts = [err(f.get("rc", "-"))]
    if "post" in show:
        parts.append(f"last error {err(f.get('post'))}")
    if "get" in show and "post" not in show:
        parts.append(f"got {err(f.get('get'))}")
    if "again" in show:
        again = f.get("again", "")
        parts.append("sticky" if again not in ("0", "-1", "") else "not sticky")
    if "out" in show:
        parts.append(f"out {f.get('out', '[]')}")
    if "ctx" in show:
        ctx = f.get("ctx", "")
        parts.append("context works after" if ctx == "0" else f"context broken ({err(ctx)})")
    if "fix" in show:
        parts.append(f"fixtures {f.get('fix', '[]')}")
    end = f.get("end", "")
    if end and end != "exit0":
        parts.append(f"**{end}** (stage {f.get('stage', '?')})")
    elif "stage" in show:
        parts.append(f"stage {f.get('stage', '?')}")
    return "; ".join(parts)


def batch_size(run):
    """N of "children: K started (batches of up to N: ...)" (runner.h), 1
    for a child per case or a run that predates the line."""
    m = re.search(r"batches of up to (\d+)", run.get("children_line", ""))
    return int(m[1]) if m else 1


def cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


CRASHED, OUTPUTS, ALLOWED = "crash", "outputs", "allowed"


def load_explanations():
    """(pattern, reason) pairs of abi-tests/harness/explained-gpu.txt."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "abi-tests",
                        "harness", "explained-gpu.txt")
    out = []
    try:
        for line in open(path):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            pattern, _, reason = line.partition(": ")
            out.append((pattern, reason))
    except OSError:
        pass
    return out


def why(d, explained):
    """Why a difference is there: CRASHED, OUTPUTS, ALLOWED, the index of its
    reason in `explained`, or None."""
    nv = d.get("nvidia") or ""
    ours = d.get("ours") or ""
    if ("end=signal" in nv or "end=timeout" in nv) and "end=exit0" in ours:
        return CRASHED
    if set(d.get("fields", [])) <= {"out"}:
        return OUTPUTS
    if "allowed_without_driver" in d:
        return ALLOWED
    for i, (pattern, _) in enumerate(explained):
        if fnmatch.fnmatchcase(d["name"], pattern):
            return i
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("compare", help="bad-compare.json written by harness-run.sh")
    ap.add_argument("--commit", help="the commit the bundle was built from")
    a = ap.parse_args()
    c = json.load(open(a.compare))
    if c.get("part") != "bad":
        sys.exit(f"{a.compare}: not a bad-input comparison (part={c.get('part')!r})")
    out_dir = os.path.dirname(os.path.abspath(a.compare))
    log = []
    try:
        log = [l.rstrip("\n") for l in open(os.path.join(out_dir, "log.txt"))]
    except OSError:
        pass

    explained = load_explanations()

    runs = c.get("runs", {})
    diffs = c.get("different", [])
    for d in diffs:
        d["why"] = why(d, explained)
    unexplained = [d for d in diffs if d["why"] is None]
    crashes, hangs = c.get("crashes", {}), c.get("hangs", {})
    broken = c.get("broken_context", {})
    missing = c.get("missing", [])
    w = []
    p = w.append

    p("# Bad-input matrix: NVIDIA's libcudart.so.13 against ours, on the GPU")
    p("")
    p("Every export of `libcudart.so.13` called once per bad argument that applies "
      "to one of its parameters, the other arguments ordinary: NULL pointers (inputs "
      "and outputs, one at a time), destroyed handles (made and destroyed in the child "
      "just before the call), handles of the wrong kind, enums past their last value "
      "and 0x7fffffff, unknown flag bits, devices -1 and 9999, sizes 0 and 2^62, device "
      "pointers + 1, host memory where device memory is due. The cases and their ids "
      "(`FUNCTION#PARAM=WHAT`) are generated from the toolchain's headers "
      "(`abi-tests/harness/gen/`) and run by `runner.h`, `--gpu --bad`, under "
      "NVIDIA's runtime and under ours: same binary, `LD_LIBRARY_PATH` switched. "
      "Recorded per case: the return code, the last error after the call, whether "
      "it is sticky (still set after `cudaGetLastError`), whether an ordinary "
      "`cudaMalloc(16)`/`cudaFree` works afterwards (the context), and how the "
      "process running it ended.")
    p("")
    batched = any(batch_size(r) > 1 for r in runs.values())
    if not batched:
        p("Each case runs in its own forked child.")
    else:
        p("The cases run in batch mode: a forked child runs a batch of cases one "
          "after the other in one process with one CUDA context, clearing the last "
          "error before each. After each case it checks that the context still "
          "works, that no error is sticky and that `cudaDeviceSynchronize` succeeds; "
          "if not, or if the case crashed or hung, that case is reported as it "
          "ended and a fresh child goes on with the next one, so no case runs in a "
          "context an earlier case broke. Cases of functions that reset or "
          "configure the device or the process (flags, limits, the current device "
          "or memory pool, registrations, callbacks; `ISOLATED` in gen/bad.rs) each run "
          "alone in a fresh child. A destroyed handle may crash in a fresh child and "
          "not in a long-lived one, or the other way round (its memory has a "
          "history); crashes inside a batch are checked again in a fresh child only "
          "with `--recheck`.")
    p("")
    p("Made by `scripts/harness-prepare.sh` (here), `harness-run.sh` (GPU machine) "
      "and `scripts/badinput-report.py`.")
    p("")
    for line in log:
        if line.startswith(("date:", "gpu:", "build: commit", "build: built", "build: uncommitted")):
            p(f"- {line}")
    if a.commit:
        p(f"- commit: `{a.commit}`")
    p("")

    p("## Summary")
    p("")
    nv_r, ours_r = runs.get("nvidia", {}), runs.get("ours", {})

    def both(key):
        return f"{len(c.get(key, {}).get('nvidia', []))} | {len(c.get(key, {}).get('ours', []))}"

    allowed = sum("allowed_without_driver" in d for d in diffs)
    p("| | NVIDIA | ours |")
    p("|---|---:|---:|")
    p(f"| cases in the matrix | {c.get('cases')} | {c.get('cases')} |")
    p(f"| cases run | {nv_r.get('ran')} | {ours_r.get('ran')} |")
    if nv_r.get("children") is not None or ours_r.get("children") is not None:
        p(f"| child processes | {nv_r.get('children', '-')} | {ours_r.get('children', '-')} |")
    p(f"| wall time (s) | {nv_r.get('wall_s')} | {ours_r.get('wall_s')} |")
    p(f"| crashes (signal) | {both('crashes')} |")
    p(f"| hangs (timeout) | {both('hangs')} |")
    p(f"| context unusable afterwards | {len(broken.get('nvidia', []))} | {len(broken.get('ours', []))} |")
    p("")
    p(f"- compared (run under both): **{c.get('compared')}**")
    p(f"- identical: **{c.get('identical')}**")
    p(f"- different: **{len(diffs)}** ({allowed} of them also differ without a driver, "
      "listed in `abi-tests/harness/allowed-bad.txt`)")
    crashed_nv = sum(d["why"] == CRASHED for d in diffs)
    outputs = sum(d["why"] == OUTPUTS for d in diffs)
    listed = sum(isinstance(d["why"], int) for d in diffs)
    p(f"- why they differ: NVIDIA's crashed or hung and ours answered: {crashed_nv}; "
      f"only the outputs a failed call wrote: {outputs}; also without a driver (\u2020): {allowed}; "
      f"a reason in `abi-tests/harness/explained-gpu.txt`: {listed}; "
      f"**unexplained: {len(unexplained)}**")
    if missing:
        p(f"- run under one runtime only: {len(missing)} (a budget ran out, or a run was cut off)")
    for rt, r in runs.items():
        if r.get("children_line"):
            p(f"- {rt}: {r['children_line']}")
        if r.get("budget_spent"):
            p(f"- {rt}: the time budget ran out after {r.get('ran')} of {r.get('selected')} cases")
        if r.get("ran") is None:
            p(f"- {rt}: {r.get('note', 'no result')}")
    p("")

    # Per kind of bad argument (the part of the id after `=`).
    by_kind = c.get("by_kind", {})
    if by_kind:
        p("### Per kind of bad argument")
        p("")
        p("| kind | cases run | identical | different | NVIDIA crashed or hung | ours crashed or hung |")
        p("|---|---:|---:|---:|---:|---:|")
        for k in sorted(by_kind, key=lambda k: (-by_kind[k].get("different", 0), k)):
            b = by_kind[k]
            p(f"| `{cell(k)}` | {b.get('cases', 0)} | {b.get('identical', 0)} | {b.get('different', 0)} "
              f"| {b.get('nvidia_abnormal', 0)} | {b.get('ours_abnormal', 0)} |")
        p("")

    p("## Differences")
    p("")
    if not diffs:
        p("None.")
    else:
        p("Each side: the return code, then the fields that differ. "
          "\u2020: also differs without a driver (allow-listed, reason in "
          "`abi-tests/harness/allowed-bad.txt`).")
        p("")
        p("*why*: `crash`: NVIDIA's runtime crashed or hung, ours answered; `outputs`: "
          "only which outputs the failed call wrote differs; `\u2020`: see above; a number: "
          "the reason of that number below (from `abi-tests/harness/explained-gpu.txt`); "
          "**?**: unexplained.")
        p("")
        p("| function | case | NVIDIA | ours | why |")
        p("|---|---|---|---|---|")
        by_func = defaultdict(list)
        for d in diffs:
            func, _, case = d["name"].partition("#")
            by_func[func].append((case, d))
        for func in sorted(by_func):
            for case, d in by_func[func]:
                show = set(d.get("fields", []))
                mark = " \u2020" if "allowed_without_driver" in d else ""
                w_ = d["why"]
                label = {CRASHED: "crash", OUTPUTS: "outputs", ALLOWED: "\u2020", None: "**?**"}.get(
                    w_, str(w_ + 1) if isinstance(w_, int) else "?")
                p(f"| `{cell(func)}` | `{cell(case)}`{mark} | {cell(result(d['nvidia'], show))} "
                  f"| {cell(result(d['ours'], show))} | {label} |")
        used = sorted({d["why"] for d in diffs if isinstance(d["why"], int)})
        if used:
            p("")
            p("Reasons (`abi-tests/harness/explained-gpu.txt`):")
            p("")
            for i in used:
                p(f"{i + 1}. `{cell(explained[i][0])}`: {explained[i][1]}")
    p("")

    def listing(title, items, empty):
        p(f"## {title}")
        p("")
        if not items:
            p(empty)
        else:
            p("Stage: how far the child got (0 preparing the arguments, 1 arguments "
              "ready, 2 the call returned, 3 its checks done, 4 the follow-up done).")
            p("")
            for x in sorted(items, key=lambda x: x["name"]):
                f = fields(x.get("line", ""))
                rc = f.get("rc", "-")
                p(f"- `{cell(x['name'])}`: {x['end']} at stage {x.get('stage')}"
                  + (f", rc {err(rc)}" if rc != "-" else ""))
        p("")

    listing("NVIDIA's crashes", crashes.get("nvidia", []), "None.")
    listing("NVIDIA's hangs", hangs.get("nvidia", []), "None.")
    listing("Our crashes", crashes.get("ours", []), "None.")
    listing("Our hangs", hangs.get("ours", []), "None.")

    p("## Cases that left the context unusable")
    p("")
    p("An ordinary `cudaMalloc(16)` + `cudaFree` after the call failed.")
    p("")
    nv_b, ours_b = set(broken.get("nvidia", [])), set(broken.get("ours", []))
    if not nv_b and not ours_b:
        p("None.")
    else:
        p("| case | NVIDIA | ours |")
        p("|---|---|---|")
        for n in sorted(nv_b | ours_b):
            p(f"| `{cell(n)}` | {'broken' if n in nv_b else 'works'} | {'broken' if n in ours_b else 'works'} |")
    p("")
    if missing:
        p("## Run under one runtime only")
        p("")
        for m in missing[:100]:
            p(f"- `{cell(m['name'])}`: NVIDIA {'ran' if m.get('nvidia') else 'not run'}, "
              f"ours {'ran' if m.get('ours') else 'not run'}")
        if len(missing) > 100:
            p(f"- ... and {len(missing) - 100} more")
        p("")
    sys.stdout.write("\n".join(w).rstrip("\n") + "\n")


if __name__ == "__main__":
    main()
