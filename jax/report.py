#!/usr/bin/env python3
"""Compares what jax/run.sh wrote under NVIDIA's runtime and ours.

    python3 jax/report.py [--meta 'key: value'] OUT > docs/jax-report.md

OUT holds nvidia.<round>.json and ours.<round>.json (jax/workload.py),
their .err files, junit-<rt>/<file>.xml, pytest-<rt>.log,
pytest-<rt>-<file>.log, hung-<rt>.txt, run.log and ours-lib.txt. Whatever
is missing is said so in the report, which is printed all the same.

Workload, per part and round (rules of jax/workload.py's docstring):
  same      every result key equal, digests included (bitwise)
  close     a digest differs but every *_close check holds in both runs
  differs   anything else that differs; the note names the keys
  fails     the part raised (the note has the exception)
Keys ending in _s (times), _err (measured errors), *libcudart (mapped
files) and `info` are not compared. "NVIDIA stable" compares NVIDIA's
rounds with its first: a part that differs between rounds of one runtime
says little when it differs between runtimes.

libcudart: every file whose basename starts with libcudart that a
workload process mapped; under ours anything but our library (ours-lib.txt,
else the run's CUDART_LIB) is flagged, under NVIDIA's our library is.

JAX's tests: per file and runtime the junit outcomes (passed, failed,
error, skipped), pytest's exit code and with-cudart.sh's verdict (ours),
then every test whose outcome differs and the tests that hung.
"""
import argparse
import glob
import json
import os
import re
import statistics
import sys
import xml.etree.ElementTree as ET

RUNS = ("nvidia", "ours")
LABEL = {"nvidia": "NVIDIA", "ours": "ours"}


# ---------------------------------------------------------------- inputs

def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return None


def load_runs(d, who):
    """{round: doc}; a doc that cannot be read carries "load_error"."""
    runs = {}
    for p in glob.glob(os.path.join(d, "%s.*.json" % who)):
        m = re.match(r"%s\.(\d+)\.json$" % who, os.path.basename(p))
        if not m:
            continue
        text = read(p)
        try:
            doc = json.loads(text or "")
            if not isinstance(doc, dict):
                raise ValueError("not an object")
        except ValueError as e:
            err = read(p[:-5] + ".err") or ""
            doc = {"load_error": "%s: %s%s" % (os.path.basename(p), "empty" if not text else e,
                                               ("; stderr ends: " + err.strip()[-300:]) if err.strip() else ""),
                   "parts": {}}
        runs[int(m.group(1))] = doc
    return runs


def check_line(d, who, rnd):
    """with-cudart.sh --check's closing line in a run's stderr."""
    err = read(os.path.join(d, "%s.%d.err" % (who, rnd))) or ""
    lines = [l for l in err.splitlines() if l.startswith("with-cudart:")]
    return lines[-1] if lines else ""


def junit(path):
    """{test id: outcome} of one junit file; None if missing, a str if unreadable."""
    if not os.path.exists(path):
        return None
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        return "unreadable (%s)" % e
    res = {}
    for case in root.iter("testcase"):
        if case.get("name") is None and case.get("classname") is None:
            continue  # the test a SIGINT interrupted: hung-<rt>.txt names it
        tid = "%s::%s" % (case.get("classname", ""), case.get("name", ""))
        tags = {child.tag for child in case}
        if "failure" in tags:
            out = "failed"
        elif "error" in tags:
            out = "error"
        elif "skipped" in tags:
            out = "skipped"
        else:
            out = "passed"
        # pytest writes a teardown error as a second <testcase> of one id
        if res.get(tid) in ("failed", "error") and out == "passed":
            continue
        res[tid] = out
    return res


def pytest_lines(d, rt):
    """{file: (rc, seconds, summary)} from pytest-<rt>.log."""
    out = {}
    for line in (read(os.path.join(d, "pytest-%s.log" % rt)) or "").splitlines():
        m = re.match(r"^== (\S+) rc=(\d+) (\d+)s: ?(.*)$", line)
        if m:
            out[m.group(1)] = (int(m.group(2)), int(m.group(3)), m.group(4).strip())
    return out


def hung(d, rt):
    text = read(os.path.join(d, "hung-%s.txt" % rt)) or ""
    return [l.strip() for l in text.splitlines() if l.strip()]


# ---------------------------------------------------------------- comparing

def is_compared(k):
    return not (k.endswith("_s") or k.endswith("_err") or k.endswith("libcudart") or k == "info")


def is_digest(k):
    return k == "digest" or k.endswith("_digest")


def closes(res):
    return {k: v for k, v in res.items() if k.endswith("_close")}


def short(v, n=50):
    s = json.dumps(v) if not isinstance(v, str) else v
    return s if len(s) <= n else s[:n] + "..."


def compare(a, b):
    """('same' | 'close' | 'differs', note) for two results of one part."""
    hard, digests = [], []
    for k in sorted(set(a) | set(b)):
        if not is_compared(k) or a.get(k) == b.get(k):
            continue
        if is_digest(k):
            digests.append(k)
        else:
            hard.append("%s: %s vs %s" % (k, short(a.get(k)), short(b.get(k))))
    if hard:
        return "differs", "; ".join(hard + (["bitwise: " + ", ".join(digests)] if digests else []))
    if digests:
        ca, cb = closes(a), closes(b)
        if ca and cb and all(ca.values()) and all(cb.values()):
            return "close", "bitwise different (%s), every tolerance check holds in both" % ", ".join(digests)
        return "differs", "bitwise different: " + ", ".join(digests)
    return "same", ""


def part_verdict(pa, pb):
    """Verdict and note for one part of two runs (either may be missing)."""
    if not pa and not pb:
        return "-", ""
    if not pa or not pb:
        return "missing", "no result under %s" % ("NVIDIA's runtime" if not pa else "ours")
    if pa.get("ok") and pb.get("ok"):
        return compare(pa.get("result", {}), pb.get("result", {}))
    note = "; ".join(x for x in (
        ("NVIDIA: " + pa.get("error", "?")) if not pa.get("ok") else "",
        ("ours: " + pb.get("error", "?")) if not pb.get("ok") else "") if x)
    return "fails", note


CELL = {"same": "same", "close": "close", "differs": "**differs**", "fails": "**fails**",
        "missing": "**missing**", "-": "-"}


def failed_checks(doc, part):
    p = doc.get("parts", {}).get(part, {})
    if not p.get("ok"):
        return []
    return sorted(k for k, v in closes(p.get("result", {})).items() if v is not True)


def median_time(runs, part):
    ts = [r["parts"][part]["time_s"] for r in runs.values()
          if part in r.get("parts", {}) and r["parts"][part].get("ok") and "time_s" in r["parts"][part]]
    return statistics.median(ts) if ts else None


def fmt(t):
    return "-" if t is None else "%.2f" % t


def esc(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


# ---------------------------------------------------------------- report

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", help="jax/run.sh's OUT")
    ap.add_argument("--meta", action="append", default=[], help="'key: value' rows for the header")
    args = ap.parse_args()
    d = args.dir
    if not os.path.isdir(d):
        sys.exit("jax/report.py: no folder %s" % d)
    runs = {rt: load_runs(d, rt) for rt in RUNS}
    ours_lib = (read(os.path.join(d, "ours-lib.txt")) or "").strip()
    run_log = read(os.path.join(d, "run.log"))
    out = []
    w = out.append

    w("# JAX on our runtime: under NVIDIA's libcudart and ours\n")
    w("Generated by `jax/report.py` from a run of `jax/run.sh` on the GPU machine "
      "(issue 28.3): `jax/workload.py` and JAX's own test files, each under "
      "NVIDIA's runtime and under ours (`scripts/with-cudart.sh --check`) in the "
      "same device run. The comparison rules are in the scripts' docstrings.\n")
    first = {rt: runs[rt][min(runs[rt])] if runs[rt] else {} for rt in RUNS}
    a = first["nvidia"] or first["ours"]
    w("| | |")
    w("|---|---|")
    for m in args.meta:
        k, _, v = m.partition(":")
        w("| %s | %s |" % (esc(k.strip()), esc(v.strip())))
    vers = a.get("versions", {})
    if vers:
        w("| versions | %s |" % ", ".join("%s %s" % kv for kv in sorted(vers.items())))
    if a:
        w("| platform, device | %s, %s |" % (esc(a.get("platform", "?")), esc(a.get("device_kind", "?"))))
        w("| XLA_FLAGS | `%s` |" % esc(a.get("xla_flags", "")))
    w("| rounds | NVIDIA %d, ours %d (times: medians) |" % (len(runs["nvidia"]), len(runs["ours"])))
    w("| our library | %s |" % ("`%s`" % ours_lib if ours_lib else "(no ours-lib.txt)"))
    if run_log is None:
        w("| run.log | missing |")
    w("")

    # ---- summary lines are collected while the sections are built
    summary = []
    body = []
    b = body.append

    # ---- libcudart
    b("## libcudart mapped\n")
    b("Every file whose basename starts with `libcudart` that the workload "
      "process had mapped at its end (`/proc/self/maps`), and with-cudart.sh's "
      "verdict over every Python process of the run (ours).\n")
    b("| run | round | libcudart mapped | verdict | with-cudart --check |")
    b("|---|---|---|---|---|")
    bad_maps = 0
    for rt in RUNS:
        for rnd in sorted(runs[rt]):
            doc = runs[rt][rnd]
            if "load_error" in doc:
                b("| %s | %d | (no results: %s) | - | %s |" % (LABEL[rt], rnd, esc(doc["load_error"][:200]),
                                                             esc(check_line(d, rt, rnd)) or "-"))
                continue
            maps = list(doc.get("libcudart", []))
            child = doc.get("parts", {}).get("autotune", {}).get("result", {}).get("child_libcudart", [])
            mine = ours_lib or doc.get("cudart_lib_real") or ""
            flags = []
            for label, lst in (("", maps), ("child: ", child)):
                for p in lst:
                    if rt == "ours" and p != mine:
                        flags.append("**not ours: %s`%s`**" % (label, p))
                    if rt == "nvidia" and mine and p == mine:
                        flags.append("**ours in NVIDIA's run: %s`%s`**" % (label, p))
            if not maps:
                flags.append("**no libcudart mapped**")
            if rt == "ours" and not mine:
                flags.append("**our library unknown**")
            bad_maps += bool(flags)
            cell = ", ".join("`%s`" % p for p in maps) or "(none)"
            if child:
                cell += "; autotune child: " + ", ".join("`%s`" % p for p in child)
            b("| %s | %d | %s | %s | %s |" % (LABEL[rt], rnd, cell, "; ".join(flags) or "ok",
                                             esc(check_line(d, rt, rnd)) or "-"))
    b("")
    n_runs = sum(len(runs[rt]) for rt in RUNS)
    summary.append("- libcudart: %s" % (
        "no workload runs" if not n_runs else
        "every workload process mapped the runtime it should (%d runs)" % n_runs if not bad_maps else
        "**%d of %d run(s) flagged** (see below)" % (bad_maps, n_runs)))

    # ---- workload
    rounds = sorted(set(runs["nvidia"]) | set(runs["ours"]))
    parts = []
    for rt in RUNS:
        for rnd in sorted(runs[rt]):
            for p in runs[rt][rnd].get("parts", {}):
                if p not in parts:
                    parts.append(p)
    b("## Workload\n")
    if not rounds:
        b("No workload results (no nvidia.*.json or ours.*.json in %s).\n" % d)
        summary.append("- workload: **no results**")
    else:
        b("| part | NVIDIA pass | ours pass | %s | NVIDIA stable | NVIDIA s | ours s | ours/NVIDIA | note |"
          % " | ".join("round %d" % r for r in rounds))
        b("|---|---|---|%s---|---:|---:|---:|---|" % ("---|" * len(rounds)))
        all_same = n_close = 0
        for p in parts:
            cells, notes = [], []
            verdicts = []
            for rnd in rounds:
                pa = runs["nvidia"].get(rnd, {}).get("parts", {}).get(p)
                pb = runs["ours"].get(rnd, {}).get("parts", {}).get(p)
                v, note = part_verdict(pa, pb)
                verdicts.append(v)
                cells.append(CELL[v])
                if note and note not in notes:
                    notes.append(note if len(rounds) == 1 else "round %d: %s" % (rnd, note))
            for rt in RUNS:
                for rnd in sorted(runs[rt]):
                    bad = failed_checks(runs[rt][rnd], p)
                    if bad:
                        n = "%s round %d: tolerance checks failing: %s" % (LABEL[rt], rnd, ", ".join(bad))
                        notes.append(n)
            nv_rounds = sorted(runs["nvidia"])
            if len(nv_rounds) < 2:
                stable = "-"
            else:
                base = runs["nvidia"][nv_rounds[0]].get("parts", {}).get(p)
                vs = [part_verdict(base, runs["nvidia"][r].get("parts", {}).get(p))[0] for r in nv_rounds[1:]]
                stable = "yes" if all(v == "same" for v in vs) else ("close" if all(v in ("same", "close") for v in vs)
                                                                   else "**no**")
            passes = {rt: "%d/%d" % (sum(1 for r in runs[rt].values() if r.get("parts", {}).get(p, {}).get("ok")),
                                     len(runs[rt])) for rt in RUNS}
            tn, to = median_time(runs["nvidia"], p), median_time(runs["ours"], p)
            ratio = "%.2f" % (to / tn) if tn and to else "-"
            if all(v == "same" for v in verdicts):
                all_same += 1
            elif all(v in ("same", "close") for v in verdicts):
                n_close += 1
            b("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                p, passes["nvidia"], passes["ours"], " | ".join(cells), stable, fmt(tn), fmt(to), ratio,
                esc("; ".join(notes))[:1500]))
        b("\nTimes are wall seconds of the part inside one process (the machine is "
          "shared; read ratios as rough); each part's first call includes XLA's "
          "compilation. `autotune` starts a child process.\n")
        summary.append("- workload: %d parts; the same result in every round: **%d**, within tolerance: %d, "
                       "other: %d" % (len(parts), all_same, n_close, len(parts) - all_same - n_close))
        totals = {rt: [r.get("total_s") for r in runs[rt].values() if r.get("total_s")] for rt in RUNS}
        if totals["nvidia"] and totals["ours"]:
            tn, to = statistics.median(totals["nvidia"]), statistics.median(totals["ours"])
            summary.append("- whole workload process: NVIDIA %.1f s, ours %.1f s (%.2fx); `import jax`: "
                           "NVIDIA %s s, ours %s s" % (
                               tn, to, to / tn,
                               fmt(statistics.median([r["import_s"] for r in runs["nvidia"].values() if "import_s" in r] or [0])),
                               fmt(statistics.median([r["import_s"] for r in runs["ours"].values() if "import_s" in r] or [0]))))
        for rt in RUNS:
            for rnd in sorted(runs[rt]):
                if "load_error" in runs[rt][rnd]:
                    summary.append("- **%s round %d has no results**: %s" % (LABEL[rt], rnd,
                                                                            esc(runs[rt][rnd]["load_error"][:300])))

    # ---- tests
    b("## JAX's tests\n")
    junits = {rt: {} for rt in RUNS}
    for rt in RUNS:
        for p in sorted(glob.glob(os.path.join(d, "junit-%s" % rt, "*.xml"))):
            junits[rt][os.path.basename(p)[:-4]] = junit(p)
    lines = {rt: pytest_lines(d, rt) for rt in RUNS}
    stems = sorted(set(junits["nvidia"]) | set(junits["ours"])
                   | {f[:-3].replace("/", "_") if f.endswith(".py") else f for rt in RUNS for f in lines[rt]})
    notes = [l for l in (run_log or "").splitlines() if l.startswith("tests:")]
    if not stems:
        b("No test results (no junit-*/ files, no pytest-*.log).\n")
        summary.append("- JAX's tests: **not run**" + ("; " + esc(notes[-1][7:]) if notes else ""))
    else:
        b("| file | runtime | tests | passed | failed | error | skipped | pytest rc | s | with-cudart --check |")
        b("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
        diffs = []
        tot = {rt: {"tests": 0, "passed": 0, "failed": 0, "error": 0, "skipped": 0} for rt in RUNS}
        for stem in stems:
            for rt in RUNS:
                res = junits[rt].get(stem)
                ln = next((v for f, v in lines[rt].items() if f[:-3].replace("/", "_") == stem), None)
                rc, secs = (str(ln[0]), str(ln[1])) if ln else ("-", "-")
                if rc in ("124", "137"):
                    rc = "**%s (timeout)**" % rc
                elif rc not in ("0", "-"):
                    rc = "**%s**" % rc
                chk = ""
                if rt == "ours":
                    log = read(os.path.join(d, "pytest-ours-%s.log" % stem)) or ""
                    cl = [l for l in log.splitlines() if l.startswith("with-cudart:")]
                    chk = cl[-1] if cl else "-"
                    if "another libcudart" in chk:
                        extra = log.split(chk, 1)[1].strip().splitlines()[:3]
                        chk = "**%s %s**" % (chk, " ".join(extra))
                if not isinstance(res, dict):
                    b("| %s | %s | %s | | | | | %s | %s | %s |" % (
                        stem, LABEL[rt], "(no junit file)" if res is None else esc(res), rc, secs, esc(chk)))
                    continue
                vals = list(res.values())
                c = {k: vals.count(k) for k in ("passed", "failed", "error", "skipped")}
                for k in c:
                    tot[rt][k] += c[k]
                tot[rt]["tests"] += len(vals)
                b("| %s | %s | %d | %d | %s | %s | %d | %s | %s | %s |" % (
                    stem, LABEL[rt], len(vals), c["passed"],
                    ("**%d**" % c["failed"]) if c["failed"] else "0",
                    ("**%d**" % c["error"]) if c["error"] else "0", c["skipped"], rc, secs, esc(chk)))
            ra, rb = junits["nvidia"].get(stem), junits["ours"].get(stem)
            if isinstance(ra, dict) and isinstance(rb, dict):
                for t in sorted(set(ra) | set(rb)):
                    if ra.get(t) != rb.get(t):
                        diffs.append((stem, t, ra.get(t, "absent"), rb.get(t, "absent")))
        b("")
        for rt in RUNS:
            summary.append("- JAX's tests under %s: %d tests, %d passed, %d failed, %d error, %d skipped" % (
                LABEL[rt], tot[rt]["tests"], tot[rt]["passed"], tot[rt]["failed"], tot[rt]["error"],
                tot[rt]["skipped"]))
        compared = [s for s in stems if isinstance(junits["nvidia"].get(s), dict)
                    and isinstance(junits["ours"].get(s), dict)]
        summary.append("- tests whose outcome differs: **%d** (over %d of %d files with both junit files)"
                       % (len(diffs), len(compared), len(stems)))
        b("### Tests whose outcome differs: %d\n" % len(diffs))
        if diffs:
            b("| file | test | NVIDIA | ours |")
            b("|---|---|---|---|")
            for stem, t, x, y in diffs[:500]:
                b("| %s | `%s` | %s | %s |" % (stem, esc(t), x, y))
            if len(diffs) > 500:
                b("\n(%d more)" % (len(diffs) - 500))
            b("")
        missing = [s for s in stems if s not in compared]
        if missing:
            b("Not compared (a junit file missing or unreadable): %s\n" % ", ".join(missing))
    hangs = {rt: hung(d, rt) for rt in RUNS}
    b("### Tests that hung\n")
    if any(hangs.values()):
        for rt in RUNS:
            for l in hangs[rt]:
                b("- %s: `%s`" % (LABEL[rt], esc(l)))
        b("")
        summary.append("- hung: NVIDIA %d, ours %d test file(s)" % (len(hangs["nvidia"]), len(hangs["ours"])))
    else:
        b("None%s.\n" % ("" if stems else " (no tests ran)"))
    if notes:
        b("### From run.log\n")
        for l in notes:
            b("- %s" % esc(l[7:]))
        b("")

    # ---- the results themselves
    if first["ours"].get("parts"):
        b("## Results under our runtime (round %d)\n" % min(runs["ours"]))
        b("```json\n%s\n```" % json.dumps(
            {p: v.get("result", v.get("error")) for p, v in first["ours"]["parts"].items()},
            indent=1, sort_keys=True)[:20000])

    w("## Summary\n")
    out.extend(summary)
    w("")
    out.extend(body)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
