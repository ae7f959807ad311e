#!/usr/bin/env python3
"""Runs the insight programs and checks the runtime's opt-in reports.

    run.py BUILD_DIR LIBDIR OUTDIR [--lib-nvidia DIR] [--only a,b] [--timeout S]

BUILD_DIR holds the programs (c-samples/insight/build.sh BUILD_DIR), LIBDIR
our libcudart.so.13 (put first on LD_LIBRARY_PATH). Each program runs
without its feature variable and with it (profile_timed a third time, see
below), 60 s at most each; every other CUDART_CHECK/LEAKS/PROFILE/FAULTS
variable is removed from the environment.

  check_*        CUDART_CHECK=1: stderr has the expected `cudart check: `
                 lines (CHECKS below: key phrase and the call that made the
                 object, each on a line of its own; no other check line),
                 stdout ends with `DONE <name>`, exit 0 (check_host_deref:
                 any exit, it dies of SIGSEGV). Without: no check line; the
                 exit code and whether stderr said anything are recorded
                 (the mistake passing unnoticed).
  leaks          CUDART_LEAKS=1: `cudart leaks: 10 objects still alive at
                 exit`, then one line per kind in LEAKED, each once, naming
                 its call (and its size for memory); none of the freed
                 objects. Without: no `cudart leaks` line.
  profile_timed  CUDART_PROFILE=1 CUDART_PROFILE_FILE=OUTDIR/profile_timed.json:
                 the JSON's `busy` kernel has 20 launches in grid 4 block 64
                 and total_ms within 10 % (or 0.05 ms) of the program's own
                 `SELF busy` total; one memcpy of 64 MiB per direction and
                 host memory kind as printed by `SELF copy`; device and pinned
                 allocations back to 0 at exit with peaks of at least what
                 the program held. CUDART_PROFILE=1 alone: a `cudart
                 profile:` summary on stderr naming busy. Without: neither.
  fault_retry    CUDART_FAULTS=FAULT_RULES: recovery at allocation 3 only,
                 allocations=5 retries=1, launch failures=2, three `cudart
                 fault:` lines. Without: retries=0, failures=0, no fault line.

Every run must have mapped LIBDIR's libcudart (the programs print the
libcudart they mapped on stderr: `# runtime PATH`).

--lib-nvidia DIR runs the same programs under NVIDIA's runtime in DIR, with
and without the variables: expected, no line starting `cudart ` at all.
Recorded in insight.json and printed, never a failure.

Writes OUTDIR/insight.json; prints a table; exit status 1 if a check failed.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys

FEATURE_VARS = ("CUDART_CHECK", "CUDART_LEAKS", "CUDART_PROFILE",
                "CUDART_PROFILE_FILE", "CUDART_FAULTS")
PREFIXES = ("cudart check:", "cudart leaks:", "cudart profile:", "cudart fault:")
FAULT_RULES = "cudaMalloc:3=cudaErrorMemoryAllocation,launch:step:4-5=cudaErrorLaunchFailure"

# program -> the `cudart check: ` lines expected, one (phrase, origin calls)
# per line; origin None: not required; a tuple: any one of them will do.
CHECKS = {
    "check_overflow": [("past the end", ("cudaMalloc",)),      # cudaMemset 2048 into 1024
                       ("past the end", ("cudaMalloc",))],     # cudaMemcpy HtoD 2048 into 1024
    "check_double_free": [("not the base of an allocation", ("cudaMalloc",)),
                          ("double free", ("cudaMalloc",))],
    # Pageable memory has no CUDA origin: the device side's cudaMalloc, the
    # stream's cudaStreamCreate or a hint at cudaMallocHost/HostAlloc/
    # HostRegister all count as naming a call.
    "check_pageable_async": [("pageable host memory",
                              ("cudaMalloc", "cudaStreamCreate", "cudaHostAlloc", "cudaHostRegister"))],
    "check_host_deref": [("host access to device memory", ("cudaMalloc",))],
    "check_use_after_destroy": [("used after destroy", ("cudaStreamCreate",)),
                                ("used after destroy", ("cudaEventCreate",))],
    "check_launch_freed": [("points into freed memory", ("cudaMalloc",))],
    "check_exit_queued": [("work still queued at exit", None)],
}
CRASH_OK = {"check_host_deref"}

# leaks.cu: kind -> (call that made it, size in bytes or None)
LEAKED = {
    "device memory": ("cudaMalloc", 4096),
    "pinned memory": ("cudaMallocHost", 8192),
    "managed memory": ("cudaMallocManaged", 16384),
    "stream": ("cudaStreamCreate", None),
    "event": ("cudaEventCreate", None),
    "graph": ("cudaGraphCreate", None),
    "graph exec": ("cudaGraphInstantiate", None),
    "memory pool": ("cudaMemPoolCreate", None),
    "array": ("cudaMallocArray", None),
    "texture object": ("cudaCreateTextureObject", None),
}
ALL_KINDS = sorted(list(LEAKED) + ["library"], key=len, reverse=True)  # "graph exec" before "graph"
FREED_SIZES = (1048576, 65536, 32768)  # leaks.cu's freed allocations

PROGRAMS = list(CHECKS) + ["leaks", "profile_timed", "fault_retry"]
MIB64 = 64 << 20
BUSY_OUT_BYTES = 4 * 64 * 4  # profile_timed's output buffer


def variable_of(prog, outdir):
    if prog in CHECKS:
        return {"CUDART_CHECK": "1"}
    if prog == "leaks":
        return {"CUDART_LEAKS": "1"}
    if prog == "profile_timed":
        return {"CUDART_PROFILE": "1",
                "CUDART_PROFILE_FILE": os.path.join(outdir, "profile_timed.json")}
    return {"CUDART_FAULTS": FAULT_RULES}


def show_var(v):
    return " ".join("%s=%s" % kv for kv in v.items())


def run(exe, libdir, extra, timeout):
    env = {k: v for k, v in os.environ.items() if k not in FEATURE_VARS}
    env["LD_LIBRARY_PATH"] = libdir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    env.update(extra)
    r = {"env": extra, "timed_out": False}
    try:
        p = subprocess.run([exe], env=env, capture_output=True, timeout=timeout)
        out, err, rc = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out, err, rc = e.stdout or b"", e.stderr or b"", "timeout"
        r["timed_out"] = True
    out = out.decode(errors="replace")
    err = err.decode(errors="replace")
    lines = err.splitlines()
    r["rc"] = rc
    if isinstance(rc, int) and rc < 0:
        try:
            r["signal"] = signal.Signals(-rc).name
        except ValueError:
            r["signal"] = str(-rc)
    r["stdout"] = out[-3000:]
    r["stderr_tail"] = err[-3000:]
    r["runtime"] = [l[len("# runtime "):] for l in lines if l.startswith("# runtime ")]
    r["cudart_lines"] = [l for l in lines if l.startswith("cudart ")]
    # What stderr said besides the program's own "# " lines.
    r["other_stderr"] = [l for l in lines if l.strip() and not l.startswith("# ")]
    r["codes"] = [l[2:] for l in lines if l.startswith("# ") and " -> " in l]
    r["_stdout_full"], r["_stderr_full"] = out, err
    return r


def rc_text(r):
    if r is None:
        return "-"
    return "%s(%s)" % (r["rc"], r["signal"]) if "signal" in r else str(r["rc"])


def feature_lines(r):
    return [l for l in r["cudart_lines"] if l.startswith(PREFIXES)]


def done(r, prog):
    return any(l.startswith("DONE " + prog) for l in r["_stdout_full"].splitlines())


def check_clean_exit(r, prog, problems, crash_ok=False):
    if r["timed_out"]:
        problems.append("timed out")
    elif not crash_ok:
        if r["rc"] != 0:
            problems.append("exit %s" % rc_text(r))
        if not done(r, prog):
            problems.append("no 'DONE %s' on stdout" % prog)


# ------------------------------------------------------------ per program

def judge_check(prog, plain, withv):
    problems = []
    check_clean_exit(withv, prog, problems, crash_ok=prog in CRASH_OK)
    lines = [l for l in withv["cudart_lines"] if l.startswith("cudart check: ")]
    free = list(lines)
    matched, missing = [], []
    for phrase, origins in CHECKS[prog]:
        hit = next((l for l in free if phrase in l and
                    (origins is None or any(o in l for o in origins))), None)
        if hit is None:
            near = [l for l in free if phrase in l]
            missing.append("'%s'%s" % (phrase, " naming " + "/".join(origins) if origins else "") +
                           (" (phrase found, origin not named)" if near else ""))
        else:
            free.remove(hit)
            matched.append(hit)
    if missing:
        problems.append("missing " + "; ".join(missing))
    if free:
        problems.append("%d unexpected check line(s): %s" % (len(free), free[0][:120]))
    return problems, {"check_lines": lines, "matched": matched, "unexpected": free}


def judge_leaks(plain, withv):
    problems = []
    check_clean_exit(withv, "leaks", problems)
    lines = withv["_stderr_full"].splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith("cudart leaks:")), None)
    objects, count = [], None
    if head is None:
        problems.append("no 'cudart leaks:' line")
    else:
        m = re.match(r"cudart leaks: (\d+) objects? still alive at exit", lines[head])
        if not m:
            problems.append("header not 'N objects still alive at exit': %s" % lines[head][:100])
        else:
            count = int(m.group(1))
        for l in lines[head + 1:]:
            if not l.startswith("  "):
                break
            objects.append(l)
    seen = {}
    for l in objects:
        body = l[2:]
        kind = next((k for k in ALL_KINDS if body.startswith(k)), None)
        if kind is None:
            problems.append("unknown kind: %s" % body[:80])
            continue
        seen.setdefault(kind, []).append(l)
        if any(re.search(r"\b%d bytes" % s, l) for s in FREED_SIZES):
            problems.append("a freed allocation listed: %s" % body[:80])
    for kind, (call, size) in LEAKED.items():
        got = seen.get(kind, [])
        if len(got) != 1:
            problems.append("%s listed %d times" % (kind, len(got)))
            continue
        if call not in got[0]:
            problems.append("%s does not name %s" % (kind, call))
        if size is not None and not re.search(r"\b%d bytes" % size, got[0]):
            problems.append("%s does not say %d bytes" % (kind, size))
    for kind in seen:
        if kind not in LEAKED:
            problems.append("%s listed (none leaked)" % kind)
    if head is not None and count != len(LEAKED):
        problems.append("header says %s objects, %d leaked" % (count, len(LEAKED)))
    if head is not None and count is not None and count != len(objects):
        problems.append("header says %d objects, %d lines follow" % (count, len(objects)))
    return problems, {"header": lines[head] if head is not None else None, "objects": objects}


def parse_self(stdout):
    busy, copies = None, []
    for l in stdout.splitlines():
        m = re.match(r"SELF busy launches=(\d+) total_ms=([\d.]+)", l)
        if m:
            busy = (int(m.group(1)), float(m.group(2)))
        m = re.match(r"SELF copy (\w+) (\w+) bytes=(\d+) ms=([\d.]+)", l)
        if m:
            copies.append({"direction": m.group(1), "memory": m.group(2),
                           "bytes": int(m.group(3)), "ms": float(m.group(4))})
    return busy, copies


def judge_profile(plain, withv, text, json_path):
    problems, info = [], {}
    check_clean_exit(withv, "profile_timed", problems)
    busy, copies = parse_self(withv["_stdout_full"])
    info["self"] = {"busy": busy, "copies": copies}
    prof = None
    try:
        with open(json_path) as f:
            prof = json.load(f)
    except (OSError, ValueError) as e:
        problems.append("no profile JSON (%s)" % e.__class__.__name__)
    info["profile"] = prof
    if prof is not None and busy is None:
        problems.append("no SELF busy line")
    if prof is not None and busy is not None:
        ks = [k for k in prof.get("kernels", [])
              if k.get("mangled") == "_Z4busyPfi" or str(k.get("name", "")).split("(")[0] == "busy"]
        if len(ks) != 1:
            problems.append("%d kernels named busy in the JSON" % len(ks))
        else:
            k = ks[0]
            launches, total = k.get("launches"), k.get("total_ms")
            info["busy"] = {"launches": launches, "timed": k.get("timed"), "total_ms": total,
                            "self_total_ms": busy[1]}
            if launches != busy[0]:
                problems.append("busy launches %s, program made %d" % (launches, busy[0]))
            if not isinstance(total, (int, float)):
                problems.append("busy total_ms missing")
            else:
                tol = max(0.10 * busy[1], 0.05)
                info["busy"]["diff_ms"] = round(total - busy[1], 4)
                if abs(total - busy[1]) > tol:
                    problems.append("busy total_ms %.3f vs program's %.3f (tolerance %.3f)"
                                    % (total, busy[1], tol))
            shapes = k.get("shapes", [])
            if not any(s.get("grid") == [4, 1, 1] and s.get("block") == [64, 1, 1]
                       and s.get("launches") == busy[0] for s in shapes) or len(shapes) != 1:
                problems.append("busy shapes %s, expected one: grid [4,1,1] block [64,1,1] x%d"
                                % (json.dumps(shapes)[:120], busy[0]))
        if len(copies) != 4:
            problems.append("%d SELF copy lines, expected 4" % len(copies))
        info["copies"] = []
        for c in copies:
            es = [e for e in prof.get("copies", []) if e.get("op") == "memcpy"
                  and e.get("direction") == c["direction"] and e.get("memory") == c["memory"]]
            n = sum(e.get("count", 0) for e in es)
            b = sum(e.get("bytes", 0) for e in es)
            ms = sum(e.get("gpu_ms", 0) or 0 for e in es)
            info["copies"].append(dict(c, profile_count=n, profile_bytes=b, profile_gpu_ms=ms))
            if n != 1 or b != c["bytes"]:
                problems.append("memcpy %s %s: profile count %d bytes %d, program 1 x %d"
                                % (c["direction"], c["memory"], n, b, c["bytes"]))
        al = prof.get("allocations", {})
        for kind, least in (("device", MIB64 + BUSY_OUT_BYTES), ("pinned", MIB64)):
            a = al.get(kind, {})
            if a.get("current") != 0:
                problems.append("%s allocations current %s at exit, expected 0" % (kind, a.get("current")))
            if not isinstance(a.get("peak"), int) or a["peak"] < least:
                problems.append("%s allocations peak %s, expected >= %d" % (kind, a.get("peak"), least))
    # Text summary (no CUDART_PROFILE_FILE).
    check_clean_exit(text, "profile_timed", problems)
    err = text["_stderr_full"]
    at = err.find("cudart profile:")
    if at < 0 or not any(l.startswith("cudart profile:") for l in err.splitlines()):
        problems.append("no 'cudart profile:' summary on stderr with CUDART_PROFILE=1 alone")
    elif "busy" not in err[at:]:
        problems.append("text summary does not name busy")
    info["text_summary"] = err[at:][:3000] if at >= 0 else None
    return problems, info


def parse_fault(stdout):
    rec = re.findall(r"recovered from injected cudaErrorMemoryAllocation at allocation (\d+)", stdout)
    m = re.search(r"DONE fault_retry allocations=(\d+) retries=(\d+)", stdout)
    f = re.search(r"launch failures=(\d+)", stdout)
    ran = re.search(r"step ran=(-?\d+)", stdout)
    return {"recovered_at": [int(x) for x in rec],
            "allocations": int(m.group(1)) if m else None,
            "retries": int(m.group(2)) if m else None,
            "launch_failures": int(f.group(1)) if f else None,
            "step_ran": int(ran.group(1)) if ran else None}


def judge_fault(plain, withv):
    problems = []
    for name, r, want, faults in (("without", plain, {"recovered_at": [], "allocations": 5, "retries": 0,
                                                      "launch_failures": 0}, 0),
                                  ("with", withv, {"recovered_at": [3], "allocations": 5, "retries": 1,
                                                   "launch_failures": 2}, 3)):
        check_clean_exit(r, "fault_retry", problems)
        got = parse_fault(r["_stdout_full"])
        r["parsed"] = got
        for k, v in want.items():
            if got[k] != v:
                problems.append("%s faults: %s=%s, expected %s" % (name, k, got[k], v))
        n = sum(l.startswith("cudart fault:") for l in r["cudart_lines"])
        if n != faults:
            problems.append("%s faults: %d 'cudart fault:' lines, expected %d" % (name, n, faults))
    return problems, {"without": plain["parsed"], "with": withv["parsed"]}


# ------------------------------------------------------------ main

def strip(r):
    if r is None:
        return None
    return {k: v for k, v in r.items() if not k.startswith("_")}


def said(r):
    if r["other_stderr"]:
        return "says: " + r["other_stderr"][0][:50]
    return "silent"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build_dir")
    ap.add_argument("libdir")
    ap.add_argument("outdir")
    ap.add_argument("--lib-nvidia", metavar="DIR", help="also run under NVIDIA's runtime in DIR (recorded only)")
    ap.add_argument("--only", help="comma-separated programs")
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    outdir = os.path.abspath(a.outdir)
    libdir = os.path.abspath(a.libdir)
    ours = os.path.realpath(os.path.join(libdir, "libcudart.so.13"))
    if not os.path.exists(ours):
        sys.exit("run.py: no %s/libcudart.so.13" % libdir)
    progs = a.only.split(",") if a.only else PROGRAMS
    for p in progs:
        if p not in PROGRAMS:
            sys.exit("run.py: unknown program %s (known: %s)" % (p, ", ".join(PROGRAMS)))

    results, failed = [], 0
    print("%-24s %-17s %-13s %-13s %-28s %-6s %s" % ("program", "variable", "rc w/o", "rc with",
                                                 "without the variable", "result", "reason"))
    for prog in progs:
        exe = os.path.join(os.path.abspath(a.build_dir), prog)
        var = variable_of(prog, outdir)
        text = None
        if not os.access(exe, os.X_OK):
            problems, details = ["not built: %s" % exe], {}
            plain = withv = None
        else:
            if prog == "profile_timed" and os.path.exists(var["CUDART_PROFILE_FILE"]):
                os.remove(var["CUDART_PROFILE_FILE"])
            plain = run(exe, libdir, {}, a.timeout)
            withv = run(exe, libdir, var, a.timeout)
            problems = []
            for name, r in (("without", plain), ("with", withv)):
                if ours not in r["runtime"]:
                    problems.append("%s: mapped %s, not %s" % (name, r["runtime"] or "no libcudart", ours))
            stray = feature_lines(plain)
            if stray:
                problems.append("without the variable: %s" % stray[0][:100])
            if prog in CHECKS:
                p, details = judge_check(prog, plain, withv)
            elif prog == "leaks":
                p, details = judge_leaks(plain, withv)
            elif prog == "profile_timed":
                text = run(exe, libdir, {"CUDART_PROFILE": "1"}, a.timeout)
                if ours not in text["runtime"]:
                    problems.append("text run: mapped %s" % (text["runtime"] or "no libcudart"))
                p, details = judge_profile(plain, withv, text, var["CUDART_PROFILE_FILE"])
            else:
                p, details = judge_fault(plain, withv)
            problems += [x for x in p if x not in problems]
        ok = not problems
        failed += not ok
        short_var = show_var(var).split("=")[0] + "=" + ("1" if prog != "fault_retry" else "...")
        w = ("%s, %s" % (("DONE" if done(plain, prog) else "no DONE"), said(plain))) if plain else "-"
        print("%-24s %-17s %-13s %-13s %-28s %-6s %s" % (prog, short_var, rc_text(plain), rc_text(withv),
                                                     w[:28], "PASS" if ok else "FAIL",
                                                     "; ".join(problems)[:200]))
        results.append({
            "program": prog, "variable": show_var(var), "pass": ok, "reason": "; ".join(problems),
            "exit_codes": {"without": plain and plain["rc"], "with": withv and withv["rc"],
                           **({"text": text["rc"]} if text else {})},
            "without_variable": plain and {"done": done(plain, prog), "stderr_silent": not plain["other_stderr"],
                                           "other_stderr": plain["other_stderr"][:10],
                                           "return_codes": plain["codes"]},
            "stderr_tail": {"without": plain and plain["stderr_tail"], "with": withv and withv["stderr_tail"],
                            **({"text": text["stderr_tail"]} if text else {})},
            "details": details,
            "runs": {"without": strip(plain), "with": strip(withv), **({"text": strip(text)} if text else {})},
        })

    nvidia = []
    if a.lib_nvidia:
        nvdir = os.path.abspath(a.lib_nvidia)
        print("\nunder NVIDIA's runtime (%s): expected no 'cudart ' lines; recorded, not checked" % nvdir)
        print("%-24s %-13s %-13s %-12s %s" % ("program", "rc w/o", "rc with", "cudart lines", "runtime"))
        for prog in progs:
            exe = os.path.join(os.path.abspath(a.build_dir), prog)
            if not os.access(exe, os.X_OK):
                continue
            var = variable_of(prog, outdir)
            if "CUDART_PROFILE_FILE" in var:
                var = dict(var, CUDART_PROFILE_FILE=os.path.join(outdir, "profile_timed.nvidia.json"))
                if os.path.exists(var["CUDART_PROFILE_FILE"]):
                    os.remove(var["CUDART_PROFILE_FILE"])
            plain = run(exe, nvdir, {}, a.timeout)
            withv = run(exe, nvdir, var, a.timeout)
            n = len(plain["cudart_lines"]) + len(withv["cudart_lines"])
            rt = sorted(set(plain["runtime"] + withv["runtime"]))
            entry = {"program": prog, "variable": show_var(var), "cudart_lines": n,
                     "exit_codes": {"without": plain["rc"], "with": withv["rc"]},
                     "runtime": rt, "self": withv["stdout"] if prog == "profile_timed" else None,
                     "stderr_tail": {"without": plain["stderr_tail"], "with": withv["stderr_tail"]}}
            if prog == "profile_timed":
                entry["profile_file_written"] = os.path.exists(var["CUDART_PROFILE_FILE"])
            if prog == "fault_retry":
                entry["parsed"] = parse_fault(withv["_stdout_full"])
            nvidia.append(entry)
            print("%-24s %-13s %-13s %-12d %s" % (prog, rc_text(plain), rc_text(withv), n, ", ".join(rt)))

    with open(os.path.join(outdir, "insight.json"), "w") as f:
        json.dump({"libdir": libdir, "library": ours, "programs": results, "nvidia": nvidia,
                   "failed": failed}, f, indent=1)
    print("insight: %d/%d programs pass; details in %s" % (len(results) - failed, len(results),
                                                         os.path.join(outdir, "insight.json")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
